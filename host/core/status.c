/*
 * status.c: status names and messages, and the detailed error message:
 * the calling thread's last failure (lsk_errmsg), and per context and
 * thread (several threads may fail on one context at once, each reads its
 * own failure); the stamps that say whether a message is current
 * (LSK__API, core.h; docs/errors.md, "Messages").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

/* The OpenCL 1.2 core error codes, by name. */
/* clang-format off: one code per line */
#define LSK__CL_ERRORS(XX)                                                                         \
  XX(CL_DEVICE_NOT_FOUND)                                                                          \
  XX(CL_DEVICE_NOT_AVAILABLE)                                                                      \
  XX(CL_COMPILER_NOT_AVAILABLE)                                                                    \
  XX(CL_MEM_OBJECT_ALLOCATION_FAILURE)                                                             \
  XX(CL_OUT_OF_RESOURCES)                                                                          \
  XX(CL_OUT_OF_HOST_MEMORY)                                                                        \
  XX(CL_PROFILING_INFO_NOT_AVAILABLE)                                                              \
  XX(CL_MEM_COPY_OVERLAP)                                                                          \
  XX(CL_IMAGE_FORMAT_MISMATCH)                                                                     \
  XX(CL_IMAGE_FORMAT_NOT_SUPPORTED)                                                                \
  XX(CL_BUILD_PROGRAM_FAILURE)                                                                     \
  XX(CL_MAP_FAILURE)                                                                               \
  XX(CL_MISALIGNED_SUB_BUFFER_OFFSET)                                                              \
  XX(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)                                                 \
  XX(CL_COMPILE_PROGRAM_FAILURE)                                                                   \
  XX(CL_LINKER_NOT_AVAILABLE)                                                                      \
  XX(CL_LINK_PROGRAM_FAILURE)                                                                      \
  XX(CL_DEVICE_PARTITION_FAILED)                                                                   \
  XX(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)                                                             \
  XX(CL_INVALID_VALUE)                                                                             \
  XX(CL_INVALID_DEVICE_TYPE)                                                                       \
  XX(CL_INVALID_PLATFORM)                                                                          \
  XX(CL_INVALID_DEVICE)                                                                            \
  XX(CL_INVALID_CONTEXT)                                                                           \
  XX(CL_INVALID_QUEUE_PROPERTIES)                                                                  \
  XX(CL_INVALID_COMMAND_QUEUE)                                                                     \
  XX(CL_INVALID_HOST_PTR)                                                                          \
  XX(CL_INVALID_MEM_OBJECT)                                                                        \
  XX(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)                                                           \
  XX(CL_INVALID_IMAGE_SIZE)                                                                        \
  XX(CL_INVALID_SAMPLER)                                                                           \
  XX(CL_INVALID_BINARY)                                                                            \
  XX(CL_INVALID_BUILD_OPTIONS)                                                                     \
  XX(CL_INVALID_PROGRAM)                                                                           \
  XX(CL_INVALID_PROGRAM_EXECUTABLE)                                                                \
  XX(CL_INVALID_KERNEL_NAME)                                                                       \
  XX(CL_INVALID_KERNEL_DEFINITION)                                                                 \
  XX(CL_INVALID_KERNEL)                                                                            \
  XX(CL_INVALID_ARG_INDEX)                                                                         \
  XX(CL_INVALID_ARG_VALUE)                                                                         \
  XX(CL_INVALID_ARG_SIZE)                                                                          \
  XX(CL_INVALID_KERNEL_ARGS)                                                                       \
  XX(CL_INVALID_WORK_DIMENSION)                                                                    \
  XX(CL_INVALID_WORK_GROUP_SIZE)                                                                   \
  XX(CL_INVALID_WORK_ITEM_SIZE)                                                                    \
  XX(CL_INVALID_GLOBAL_OFFSET)                                                                     \
  XX(CL_INVALID_EVENT_WAIT_LIST)                                                                   \
  XX(CL_INVALID_EVENT)                                                                             \
  XX(CL_INVALID_OPERATION)                                                                         \
  XX(CL_INVALID_GL_OBJECT)                                                                         \
  XX(CL_INVALID_BUFFER_SIZE)                                                                       \
  XX(CL_INVALID_MIP_LEVEL)                                                                         \
  XX(CL_INVALID_GLOBAL_WORK_SIZE)                                                                  \
  XX(CL_INVALID_PROPERTY)                                                                          \
  XX(CL_INVALID_IMAGE_DESCRIPTOR)                                                                  \
  XX(CL_INVALID_COMPILER_OPTIONS)                                                                  \
  XX(CL_INVALID_LINKER_OPTIONS)                                                                    \
  XX(CL_INVALID_DEVICE_PARTITION_COUNT)
/* clang-format on */

static const char *cl_name(int status)
{
  switch (status) {
#define LSK__XX(code)                                                                              \
  case code: return #code;
    LSK__CL_ERRORS(LSK__XX)
#undef LSK__XX
  /* OpenCL 2.x codes; their macros need CL_TARGET_OPENCL_VERSION >= 200. */
  case -69: return "CL_INVALID_PIPE_SIZE";
  case -70: return "CL_INVALID_DEVICE_QUEUE";
  case -71: return "CL_INVALID_SPEC_ID";
  case -72: return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
  case -1001: /* what the ICD loader returns when it finds no platform */
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default: return NULL;
  }
}

const char *lsk_status_name(int status)
{
  switch (status) {
#define LSK__XX(name, value, msg)                                                                  \
  case value: return "LSK_" #name;
    LSK_STATUS_MAP(LSK__XX)
#undef LSK__XX
  default: break;
  }
  const char *n = cl_name(status);
  return n ? n : "unknown";
}

char *lsk_status_name_r(int status, char *buf, size_t len)
{
  if (!buf || len == 0)
    return buf;
  const char *n = lsk_status_name(status);
  if (strcmp(n, "unknown") == 0)
    snprintf(buf, len, "unknown (%d)", status);
  else
    snprintf(buf, len, "%s", n);
  return buf;
}

const char *lsk_strerror(int status)
{
  switch (status) {
#define LSK__XX(name, value, msg)                                                                  \
  case value: return msg;
    LSK_STATUS_MAP(LSK__XX)
#undef LSK__XX
  default: break;
  }
  /* For OpenCL codes the name is the most useful message there is. */
  const char *n = lsk_status_name(status);
  return strcmp(n, "unknown") == 0 ? "unknown error" : n;
}

/* ---- The thread's record and its stamps -------------------------------
 *
 * Every failure is kept twice: in the thread's record (the last failure of
 * the thread, whatever its context: lsk_errmsg) and, where the failure's
 * context is known and live, in the thread's entry on that context. Each
 * text is stored behind the prefix "(earlier) " in one buffer, so that a
 * read returns the text (text + LSK__EARLIER_LEN) or the marked text (the
 * buffer) without allocating.
 *
 * Stamps: now counts the thread's outermost calls of status-returning
 * public functions (LSK__API, core.h); a text written during call now is
 * current, any other is marked. seq orders the thread's failures, so that
 * a context's entry and the thread's record can be compared. */
#define LSK__EARLIER "(earlier) "
#define LSK__EARLIER_LEN (sizeof LSK__EARLIER - 1)

typedef struct thread_state {
  char *text;              /* LSK__EARLIER + message; heap, fallback or NULL */
  const lsk_context *ctx;  /* the failure's context; NULL: unknown */
  unsigned long long call; /* now, when the record was written */
  unsigned long long seq;  /* its place among the thread's failures */
  unsigned long long now;  /* the thread's current call */
  unsigned long long nseq; /* failures so far */
  unsigned depth;          /* public calls in progress */
  char fallback[4096];     /* the record when the heap has no room */
} thread_state;
static _Thread_local thread_state tls;

/* The heap text is freed by the key's destructor when the thread ends
 * (the key's value is the text itself); the main thread's stays reachable
 * from its record until the process ends. */
static pthread_key_t text_key;
static pthread_once_t text_once = PTHREAD_ONCE_INIT;
static int text_key_ok;

static void text_free(void *text) { free(text); }
static void text_key_make(void) { text_key_ok = pthread_key_create(&text_key, text_free) == 0; }

/* A library unloaded while threads live must leave no destructor behind
 * (their texts then stay allocated). */
__attribute__((destructor)) static void text_key_drop(void)
{
  if (text_key_ok)
    pthread_key_delete(text_key);
  text_key_ok = 0;
}

int lsk__api_enter(void)
{
  if (tls.depth++ == 0)
    ++tls.now;
  return 0;
}

void lsk__api_leave(int *token)
{
  (void)token;
  --tls.depth;
}

/* The text of a stored buffer as a reader sees it: marked unless written
 * during the thread's current call. */
static const char *as_read(const char *buf, unsigned long long call)
{
  if (!buf)
    return "";
  return call == tls.now ? buf + LSK__EARLIER_LEN : buf;
}

/* The stored message without its mark; "" if none. */
static const char *bare(const char *buf) { return buf ? buf + LSK__EARLIER_LEN : ""; }

/* Replaces the thread's record by buf (malloc'd, with the prefix; NULL:
 * out of memory, and the fallback says so). */
static void record_thread(const lsk_context *ctx, char *buf)
{
  if (buf && pthread_once(&text_once, text_key_make) == 0 && text_key_ok &&
      pthread_setspecific(text_key, buf) == 0) {
    if (tls.text != tls.fallback)
      free(tls.text);
    tls.text = buf;
  } else {
    /* No heap (or no key to free it with): the fallback, truncated. */
    if (tls.text != tls.fallback) {
      if (text_key_ok)
        (void)pthread_setspecific(text_key, NULL);
      free(tls.text);
    }
    snprintf(tls.fallback, sizeof tls.fallback, "%s",
             buf ? buf : LSK__EARLIER "(no memory for the message)");
    free(buf);
    tls.text = tls.fallback;
  }
  tls.ctx = ctx;
  tls.call = tls.now;
  tls.seq = tls.nseq;
}

/* The calling thread's entry on ctx; NULL if it has none. Under msg_lock. */
static lsk__msg *find_message(const lsk_context *ctx)
{
  pthread_t self = pthread_self();
  lsk__msg *m = ctx->msgs;
  while (m && !pthread_equal(m->thread, self))
    m = m->next;
  return m;
}

/* A copy of buf (with its prefix) for a context's entry; NULL if none. */
static char *copy_buf(const char *buf)
{
  if (!buf)
    return NULL;
  size_t n = strlen(buf) + 1;
  char *c = malloc(n);
  if (c)
    memcpy(c, buf, n);
  return c;
}

/* Records buf (malloc'd "(earlier) message", or NULL when out of memory):
 * the thread's record always, ctx's entry too when ctx is live. */
static void set_message(lsk_context *ctx, char *buf)
{
  /* A context that is not live (destroyed, or another handle passed as
   * one) cannot hold the message: it is the thread's, context unknown. */
  if (ctx && !lsk__handle_live(ctx, &LSK__H_CONTEXT))
    ctx = NULL;
  ++tls.nseq;
  if (ctx) {
    pthread_mutex_lock(&ctx->msg_lock);
    lsk__msg *m = find_message(ctx);
    if (!m && (m = calloc(1, sizeof *m)) != NULL) {
      m->thread = pthread_self();
      m->next = ctx->msgs;
      ctx->msgs = m;
    }
    if (m) {
      free(m->text);
      m->text = copy_buf(buf); /* NULL without memory: reads as "" */
      m->call = tls.now;
      m->seq = tls.nseq;
    }
    pthread_mutex_unlock(&ctx->msg_lock);
  }
  record_thread(ctx, buf);
}

/* The message of a failure: fmt behind the prefix, malloc'd; NULL when out
 * of memory. */
static char *vformat(const char *fmt, va_list ap);
static char *prefixed(const char *fmt, va_list ap)
{
  char *text = vformat(fmt, ap);
  char *buf = text ? lsk__strdupf("%s%s", LSK__EARLIER, text) : NULL;
  free(text);
  return buf;
}

static char *vformat(const char *fmt, va_list ap)
{
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    return NULL;
  char *s = malloc((size_t)n + 1);
  if (s)
    vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *lsk__strdupf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

char *lsk__strdup(const char *s) { return s ? lsk__strdupf("%s", s) : NULL; }

int lsk__fail(lsk_context *ctx, int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  set_message(ctx, prefixed(fmt, ap));
  va_end(ap);
  return status;
}

int lsk__fail_cl(lsk_context *ctx, cl_int err, const char *call, const char *fmt, ...)
{
  char name[48];
  va_list ap;
  va_start(ap, fmt);
  char *detail = vformat(fmt, ap);
  va_end(ap);
  set_message(ctx, lsk__strdupf("%s%s: %s (%d)%s", LSK__EARLIER, call,
                                lsk_status_name_r(err, name, sizeof name), (int)err,
                                detail ? detail : ""));
  free(detail);
  return err;
}

int lsk_context_set_error(lsk_context *ctx, int status, const char *fmt, ...)
{
  LSK__API();
  if (ctx && !lsk__handle_live(ctx, &LSK__H_CONTEXT))
    ctx = NULL;
  va_list ap;
  va_start(ap, fmt);
  set_message(ctx, fmt ? prefixed(fmt, ap) : lsk__strdup(LSK__EARLIER "(no message)"));
  va_end(ap);
  return status;
}

/* Appends to the thread's message on ctx (the failure just recorded). */
void lsk__append(lsk_context *ctx, const char *text)
{
  const char *cur = tls.text;
  if (ctx && lsk__handle_live(ctx, &LSK__H_CONTEXT)) {
    pthread_mutex_lock(&ctx->msg_lock);
    const lsk__msg *m = find_message(ctx);
    cur = m ? m->text : NULL;
    pthread_mutex_unlock(&ctx->msg_lock);
  }
  set_message(ctx, lsk__strdupf("%s%s%s", LSK__EARLIER, bare(cur), text));
}

const char *lsk_errmsg(void) { return as_read(tls.text, tls.call); }

/* The newer of ctx's entry and a record whose context is unknown (a
 * dead handle cannot say whose it was). The text stays valid after the
 * lock is dropped: only this thread replaces it, and only the context's
 * destroy frees it. Reads write nothing. */
const char *lsk_context_errmsg(const lsk_context *ctx)
{
  if (!ctx || !lsk__handle_live(ctx, &LSK__H_CONTEXT))
    return lsk_errmsg();
  pthread_mutex_t *lock = (pthread_mutex_t *)&ctx->msg_lock;
  pthread_mutex_lock(lock);
  const lsk__msg *m = find_message(ctx);
  const char *buf = m ? m->text : NULL;
  unsigned long long call = m ? m->call : 0, seq = m ? m->seq : 0;
  pthread_mutex_unlock(lock);
  if (tls.text && !tls.ctx && tls.seq > seq)
    return lsk_errmsg();
  return as_read(buf, call);
}

const char *lsk_version(void) { return LSK_VERSION_STRING; }

/* A growing string for generated text. */
int lsk__sb_printf(lsk__sb *sb, const char *fmt, ...)
{
  if (sb->failed)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0 || sb->len + (size_t)n + 1 > sb->cap) {
    size_t cap = sb->cap ? sb->cap : 1024;
    while (n >= 0 && sb->len + (size_t)n + 1 > cap)
      cap *= 2;
    char *grown = n < 0 ? NULL : realloc(sb->buf, cap);
    if (!grown) {
      va_end(ap);
      sb->failed = 1;
      return -1;
    }
    sb->buf = grown;
    sb->cap = cap;
  }
  vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
  va_end(ap);
  sb->len += (size_t)n;
  return 0;
}

int lsk__sb_finish(lsk__sb *sb, char **text, const char *fn)
{
  if (sb->failed || !sb->buf) {
    free(sb->buf);
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  }
  *text = sb->buf;
  return LSK_OK;
}
