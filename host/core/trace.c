/*
 * trace.c: the timeline of a context's commands (trace.h). Each record
 * keeps its command's event; times are read when asked for, once the
 * command is done, so recording never waits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

typedef struct rec {
  lsk__op kind;
  char name[LSK_NAME_MAX];
  char queue[64];
  unsigned queue_index;
  lsk__shape shape;
  size_t bytes;
  cl_event ev;
} rec;

struct lsk__trace {
  pthread_mutex_t lock;
  /* Chunks of CHUNK records that never move once made: an entry's strings
   * point into them (trace.h: valid as long as the record). */
  rec **chunks;
  size_t n, nchunks, cap_chunks;
};
#define CHUNK 1024

static rec *at(const struct lsk__trace *t, size_t i) { return &t->chunks[i / CHUNK][i % CHUNK]; }

int lsk__trace_init(lsk_context *ctx)
{
  struct lsk__trace *t = calloc(1, sizeof *t);
  if (!t || pthread_mutex_init(&t->lock, NULL)) {
    free(t);
    return LSK_ENOMEM;
  }
  ctx->trace = t;
  return LSK_OK;
}

static void release_all(struct lsk__trace *t)
{
  for (size_t i = 0; i < t->n; ++i)
    clReleaseEvent(at(t, i)->ev);
  t->n = 0;
}

void lsk__trace_free(lsk_context *ctx)
{
  struct lsk__trace *t = ctx->trace;
  if (!t)
    return;
  release_all(t);
  for (size_t c = 0; c < t->nchunks; ++c)
    free(t->chunks[c]);
  free(t->chunks);
  pthread_mutex_destroy(&t->lock);
  free(t);
  ctx->trace = NULL;
}

void lsk__trace_add(lsk_queue *q, lsk__op kind, const char *name, const lsk__shape *shape,
                    size_t bytes, cl_event ev)
{
  struct lsk__trace *t = q->ctx->trace;
  if (!ev)
    return;
  pthread_mutex_lock(&t->lock);
  if (t->n == t->nchunks * CHUNK) {
    if (t->nchunks == t->cap_chunks) {
      size_t cap = t->cap_chunks ? 2 * t->cap_chunks : 8;
      rec **p = realloc(t->chunks, cap * sizeof *p);
      if (p) {
        t->chunks = p;
        t->cap_chunks = cap;
      }
    }
    rec *chunk = t->nchunks < t->cap_chunks ? malloc(CHUNK * sizeof *chunk) : NULL;
    if (chunk)
      t->chunks[t->nchunks++] = chunk;
  }
  /* Out of memory: the command is left out of the record, not failed. */
  if (t->n < t->nchunks * CHUNK) {
    rec *r = at(t, t->n++);
    memset(r, 0, sizeof *r);
    r->kind = kind;
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->queue, sizeof r->queue, "%s", q->name);
    r->queue_index = q->index;
    if (shape)
      r->shape = *shape;
    r->bytes = bytes;
    r->ev = ev;
    clRetainEvent(ev);
  }
  pthread_mutex_unlock(&t->lock);
}

static int check(lsk_context *ctx, const char *fn)
{
  LSK__LIVE(NULL, ctx, CONTEXT, fn, "ctx");
  if (!ctx->trace)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: the context records no trace (set lsk_context_options.trace)", fn);
  return LSK_OK;
}

int lsk_trace_count(lsk_context *ctx, size_t *n)
{
  LSK__API();
  int rc = check(ctx, __func__);
  if (!rc && !n)
    rc = lsk__fail(ctx, LSK_EINVAL, "%s: n is NULL", __func__);
  if (rc)
    return rc;
  pthread_mutex_lock(&ctx->trace->lock);
  *n = ctx->trace->n;
  pthread_mutex_unlock(&ctx->trace->lock);
  return LSK_OK;
}

/* r's entry, waiting for its command. */
static int entry(lsk_context *ctx, const rec *r, lsk_trace_entry *e, const char *fn)
{
  memset(e, 0, sizeof *e);
  e->kind = (lsk_trace_kind)(r->kind + 1);
  e->name = r->name;
  e->queue = r->queue;
  e->queue_index = r->queue_index;
  memcpy(e->domain, r->shape.domain, sizeof e->domain);
  memcpy(e->blocks, r->shape.blocks, sizeof e->blocks);
  e->workers = r->shape.workers;
  e->simd = r->shape.simd;
  e->bytes = r->bytes;
  cl_int err = clWaitForEvents(1, &r->ev);
  if (err)
    return lsk__fail_cl(ctx, err, "clWaitForEvents", " (%s: %s on queue '%s')", fn, r->name,
                        r->queue);
  /* A time the runtime does not give stays 0 (trace.h). */
  lsk_event_times t;
  lsk__event_times(r->ev, &t);
  e->queued = t.queued;
  e->submitted = t.submitted;
  e->start = t.start;
  e->end = t.end;
  return LSK_OK;
}

int lsk_trace_get(lsk_context *ctx, size_t i, lsk_trace_entry *out)
{
  LSK__API();
  if (out)
    memset(out, 0, sizeof *out);
  int rc = check(ctx, __func__);
  if (!rc && !out)
    rc = lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  if (rc)
    return rc;
  struct lsk__trace *t = ctx->trace;
  pthread_mutex_lock(&t->lock);
  size_t n = t->n;
  /* Records never move: the entry's strings stay valid until a clear. */
  rec *r = i < n ? at(t, i) : NULL;
  pthread_mutex_unlock(&t->lock);
  if (!r)
    return lsk__fail(ctx, LSK_ERANGE, "%s: command %zu of %zu recorded", __func__, i, n);
  return entry(ctx, r, out, __func__);
}

int lsk_trace_clear(lsk_context *ctx)
{
  LSK__API();
  int rc = check(ctx, __func__);
  if (rc)
    return rc;
  pthread_mutex_lock(&ctx->trace->lock);
  release_all(ctx->trace);
  pthread_mutex_unlock(&ctx->trace->lock);
  return LSK_OK;
}

/* A growing text. */
typedef struct text {
  char *s;
  size_t n, cap;
  int oom;
} text;

static void put(text *t, const char *fmt, ...)
{
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = t->oom ? 0 : vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    if (t->oom || k < 0)
      return;
    if ((size_t)k < t->cap - t->n) {
      t->n += (size_t)k;
      return;
    }
    size_t cap = 2 * t->cap + (size_t)k + 4096;
    char *s = realloc(t->s, cap);
    if (!s) {
      t->oom = 1;
      return;
    }
    t->s = s;
    t->cap = cap;
  }
}

/* A JSON string of a name lsk made or the user gave (kernel and queue
 * names): quotes, backslashes and control characters escaped. */
static void put_str(text *t, const char *s)
{
  put(t, "\"");
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      put(t, "\\%c", c);
    else if (c < 0x20)
      put(t, "\\u%04x", c);
    else
      put(t, "%c", c);
  }
  put(t, "\"");
}

static const char *kind_name(lsk__op k)
{
  static const char *const names[] = {"kernel", "write", "read",  "fill",
                                      "copy",   "map",   "unmap", "marker"};
  return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

int lsk_trace_write(lsk_context *ctx, const char *path)
{
  LSK__API();
  int rc = check(ctx, __func__);
  if (!rc && (!path || !*path))
    rc = lsk__fail(ctx, LSK_EINVAL, "%s: path is NULL or empty", __func__);
  if (rc)
    return rc;
  struct lsk__trace *tr = ctx->trace;
  pthread_mutex_lock(&tr->lock);
  size_t n = tr->n;
  lsk_trace_entry *es = malloc((n ? n : 1) * sizeof *es);
  pthread_mutex_unlock(&tr->lock);
  if (!es)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  uint64_t t0 = UINT64_MAX;
  for (size_t i = 0; i < n && !rc; ++i) {
    rc = entry(ctx, at(tr, i), &es[i], __func__);
    if (es[i].start && es[i].start < t0)
      t0 = es[i].start;
  }
  text t = {0};
  put(&t, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
  /* Track names: one per queue, in the order the queues were made. */
  unsigned seen_max = 0;
  for (size_t i = 0; i < n; ++i)
    if (es[i].queue_index + 1 > seen_max)
      seen_max = es[i].queue_index + 1;
  int first = 1;
  for (unsigned qi = 0; qi < seen_max && !rc; ++qi)
    for (size_t i = 0; i < n; ++i)
      if (es[i].queue_index == qi) {
        put(&t,
            "%s{\"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"name\": \"thread_name\", "
            "\"args\": {\"name\": ",
            first ? "" : ",\n", qi);
        put_str(&t, es[i].queue);
        put(&t,
            "}},\n{\"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"name\": \"thread_sort_index\", "
            "\"args\": {\"sort_index\": %u}}",
            qi, qi);
        first = 0;
        break;
      }
  for (size_t i = 0; i < n && !rc; ++i) {
    const lsk_trace_entry *e = &es[i];
    uint64_t start = e->start >= t0 ? e->start - t0 : 0,
             dur = e->end > e->start ? e->end - e->start : 0;
    put(&t, "%s{\"ph\": \"X\", \"pid\": 1, \"tid\": %u, \"name\": ", first ? "" : ",\n",
        e->queue_index);
    first = 0;
    put_str(&t, e->name);
    put(&t, ", \"cat\": \"%s\", \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"queue\": ",
        kind_name((lsk__op)(e->kind - 1)), start / 1e3, dur / 1e3);
    put_str(&t, e->queue);
    if (e->kind == LSK_TRACE_KERNEL)
      put(&t,
          ", \"domain\": \"%ux%ux%u\", \"blocks\": \"%zux%zux%zu\", \"workers\": %u, "
          "\"simd\": %u",
          e->domain[0], e->domain[1], e->domain[2], e->blocks[0], e->blocks[1], e->blocks[2],
          e->workers, e->simd);
    else
      put(&t, ", \"bytes\": %zu", e->bytes);
    put(&t, ", \"queued_us\": %.3f, \"submitted_us\": %.3f}}",
        e->queued >= t0 ? (e->queued - t0) / 1e3 : -((t0 - e->queued) / 1e3),
        e->submitted >= t0 ? (e->submitted - t0) / 1e3 : -((t0 - e->submitted) / 1e3));
  }
  put(&t, "\n]}\n");
  free(es);
  if (!rc && t.oom)
    rc = lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  if (!rc) {
    lsk__file_part part = {t.s, t.n};
    if (lsk__file_replace(path, &part, 1))
      rc = lsk__fail(ctx, LSK_EIO, "%s: cannot write '%s': %s", __func__, path, strerror(errno));
  }
  free(t.s);
  return rc;
}
