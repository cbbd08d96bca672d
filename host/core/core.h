/*
 * core/core.h: what the core layer gives the layers above it (launch,
 * soa, algo, mem; docs/architecture.md): messages, handles, a context's
 * lock and extension slots, where a command runs, the verify records,
 * buffers, builds, the trace, files. The objects' structs are the core's
 * own (core/objects.h, core/build.h): the layers above read them through
 * the accessors here, which check nothing (the caller has checked the
 * handle). Not installed; internal names carry the lsk__ prefix.
 */
#ifndef LSK_CORE_CORE_H
#define LSK_CORE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "lsk/lsk.h"

#if defined(__GNUC__)
#define LSK__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LSK__PRINTF(f, a)
#endif

/* ---- Messages (status.c) ---------------------------------------------- */
/* Records a message on ctx (NULL: unknown) and returns status; the
 * function's name goes first. The thread's record (lsk_errmsg) always
 * takes it, ctx's entry too when ctx is live. lsk__fail_cl: "<call>:
 * CL_NAME (code)<fmt>". */
int lsk__fail(lsk_context *ctx, int status, const char *fmt, ...) LSK__PRINTF(3, 4);
int lsk__fail_cl(lsk_context *ctx, cl_int err, const char *call, const char *fmt, ...)
    LSK__PRINTF(4, 5);
/* The stamp of a public call: LSK__API(); is the first statement of every
 * public function that returns a status. Only the thread's outermost call
 * advances its call counter (a public function the library calls inside
 * another is part of that call); a message written during the current
 * call reads as current, any older one is marked "(earlier) " (status.c,
 * docs/errors.md). cleanup is GCC's and clang's, the compilers lsk builds
 * with; tests/api_hooks.sh checks that the line is there. */
int lsk__api_enter(void);
void lsk__api_leave(int *token);
#define LSK__API() __attribute__((cleanup(lsk__api_leave), unused)) int lsk__api_ = lsk__api_enter()
/* A malloc'd printf or copy; NULL on failure. */
char *lsk__strdupf(const char *fmt, ...) LSK__PRINTF(1, 2);
char *lsk__strdup(const char *s);
/* A growing string for generated source; on allocation failure it stops
 * and remembers. finish hands the text over, or frees it and fails with
 * LSK_ENOMEM under fn's name. */
typedef struct lsk__sb {
  char *buf;
  size_t len, cap;
  int failed;
} lsk__sb;
int lsk__sb_printf(lsk__sb *sb, const char *fmt, ...) LSK__PRINTF(2, 3);
int lsk__sb_finish(lsk__sb *sb, char **text, const char *fn);

/* ---- Handles (handle.c) ------------------------------------------------ */
/* A module that owns an opaque type makes it a handle: an lsk__handle
 * first in its struct (LSK__HANDLE_FIRST), a descriptor LSK__H_<ID>
 * (name, parent type; e.g. {"lsk_pic", &LSK__H_CONTEXT, 0}), creation
 * with lsk__handle_new or _add, LSK__LIVE / LSK__LIVE_OR first in each
 * public function, LSK__DESTROY(h, PIC, __func__) first in its _destroy.
 * Code outside the library has the same through include/lsk/handle.h. */
typedef lsk_handle_type lsk__htype;
typedef struct lsk__handle {
  const lsk__htype *type;
  const void *parent; /* the parent handle (context, a kernel's program...); NULL: none */
  const void *scope;  /* the nearest ancestor that keeps a set of its descendants */
} lsk__handle;
#define LSK__HANDLE_FIRST(T) _Static_assert(offsetof(T, h) == 0, #T ": its lsk__handle comes first")
_Static_assert(sizeof(lsk__handle) == sizeof(lsk_handle), "lsk_handle holds an lsk__handle");
/* The types defined by the core; the context's is the public one. */
#define LSK__H_CONTEXT lsk_context_handle_type
extern const lsk__htype LSK__H_QUEUE, LSK__H_EVENT, LSK__H_BUFFER, LSK__H_PROGRAM;
/* Writes h's header (parent: NULL or a live handle) and enters h as live;
 * LSK_ENOMEM, or LSK_EINVAL if h is live already; no message. */
int lsk__handle_add(void *h, const lsk__htype *type, const void *parent);
/* A zeroed handle of size bytes, entered as above; NULL without memory. */
void *lsk__handle_new(size_t size, const lsk__htype *type, const void *parent);
/* LSK_OK if h is a live handle of type whose ancestors are all live; else
 * LSK_EINVAL with "fn: what ..." on msg (NULL: the thread). */
int lsk__handle_check(lsk_context *msg, const void *h, const lsk__htype *type, const char *fn,
                      const char *what);
/* Removes h for its _destroy; LSK_EINVAL (thread message) if it is not a
 * live handle of type, which the caller must then leave alone. */
int lsk__handle_remove(const void *h, const lsk__htype *type, const char *fn);
/* 1 if h is a live handle of type (parents not looked at); no message. */
int lsk__handle_live(const void *h, const lsk__htype *type);
/* Return the check's status from the enclosing function if it fails. */
#define LSK__LIVE(msg, h, type, fn, what)                                                          \
  do {                                                                                             \
    int lsk_live_rc_ = lsk__handle_check((msg), (h), &LSK__H_##type, (fn), (what));                \
    if (lsk_live_rc_)                                                                              \
      return lsk_live_rc_;                                                                         \
  } while (0)
/* For functions without a status: return val; (silently for NULL). */
#define LSK__LIVE_OR(val, h, type, fn, what)                                                       \
  do {                                                                                             \
    if (!(h) || lsk__handle_check(NULL, (h), &LSK__H_##type, (fn), (what)))                        \
      return val;                                                                                  \
  } while (0)
/* A _destroy's first lines: NULL, or a handle that is not live, returns. */
#define LSK__DESTROY(h, type, fn)                                                                  \
  do {                                                                                             \
    if (!(h) || lsk__handle_remove((h), &LSK__H_##type, (fn)))                                     \
      return;                                                                                      \
  } while (0)

/* ---- Contexts (context.c, lock.c) ------------------------------------- */
const lsk_device_info *lsk__context_info(const lsk_context *ctx);
cl_context lsk__context_cl(const lsk_context *ctx);
cl_device_id lsk__context_device(const lsk_context *ctx);
lsk_queue *lsk__context_queue(const lsk_context *ctx);     /* the default queue */
const char *lsk__context_tune_dir(const lsk_context *ctx); /* NULL: none */
int lsk__context_tracing(const lsk_context *ctx);
/* The context's lock: what must not interleave between threads launching
 * on it (resolving a launch, which may build; binding a shared cl_kernel's
 * arguments; enqueueing; a verify check). NULL is a no-op. */
void lsk__lock(lsk_context *ctx);
void lsk__unlock(lsk_context *ctx);
/* Waits for every queue of ctx, checking no verify record; fn names the
 * caller in a message. */
int lsk__context_wait(lsk_context *ctx, const char *fn);
/* The same for every queue but q (whose own order keeps what a call
 * enqueues on it behind its earlier work). */
int lsk__context_wait_others(lsk_context *ctx, const lsk_queue *q, const char *fn);
/* A module above the core that keeps state per context (the kernel
 * library): create makes it on first use (NULL: out of memory), destroy
 * frees it when the context is destroyed, after its queues finish. */
typedef struct lsk__ext_type {
  const char *name;
  void *(*create)(lsk_context *ctx);
  void (*destroy)(lsk_context *ctx, void *state);
} lsk__ext_type;
/* The state of type on ctx, made the first time; NULL (no message) when
 * out of memory or out of slots. */
void *lsk__context_ext(lsk_context *ctx, const lsk__ext_type *type);

/* ---- Where a command runs (event.c, queue.c) -------------------------- */
cl_command_queue lsk__queue_cl(const lsk_queue *q);
/* Waits until everything enqueued on q is complete (clFinish, after a
 * marker where the runtime's own wait may return early:
 * ctx->wait_by_event); an OpenCL status. */
cl_int lsk__queue_wait(lsk_queue *q);
/* LSK_OK if q is a live queue of ctx; else LSK_EINVAL with "fn: what ...".
 * lsk__queue_usable: q, a queue the library keeps, is still live (one
 * look-up in the context's set); else LSK_EINVAL naming fn. */
int lsk__queue_check(lsk_context *ctx, const lsk_queue *q, const char *fn, const char *what);
int lsk__queue_usable(lsk_context *ctx, const lsk_queue *q, const char *fn);
/* An lsk_async resolved: the queue, the wait list as OpenCL events, and
 * whether the caller wants an event. */
typedef struct lsk__on {
  lsk_queue *q;
  cl_uint nwait;
  cl_event wait[LSK_WAIT_MAX];
  lsk_event **event;
} lsk__on;
/* Checks on (NULL: the default queue) against ctx and clears *on->event;
 * LSK_EINVAL naming fn for a bad queue, wait list or event, and for any
 * on->flags: only host transfers take LSK_ASYNC_NONBLOCKING (they check
 * with lsk__on_resolve_flags, allowed the bits they take). */
int lsk__on_resolve(lsk_context *ctx, const lsk_async *on, const char *fn, lsk__on *out);
int lsk__on_resolve_flags(lsk_context *ctx, const lsk_async *on, unsigned allowed, const char *fn,
                          lsk__on *out);
/* Whether a command must ask OpenCL for an event (wanted, or traced). */
int lsk__on_wants_event(lsk_context *ctx, const lsk__on *o);
/* A marker on o's queue after its wait list (then cleared: in an in-order
 * queue the marker holds every later command), its event to *ev unless ev
 * is NULL; an OpenCL failure names fn and the queue. */
int lsk__on_marker(lsk_context *ctx, lsk__on *o, cl_event *ev, const char *fn);
/* After a command enqueued with event ev (NULL if none was asked): the
 * caller gets its lsk_event describing what, else ev is released. */
int lsk__on_done(lsk_context *ctx, lsk__on *o, cl_event ev, const char *what, const char *fn);

/* ---- Verify records (verify.c) ---------------------------------------- */
/* The id of kernel name on ctx, made on first use (UINT32_MAX without
 * memory). Takes ctx's lock: call it without. */
unsigned lsk__kernel_id(lsk_context *ctx, const char *name);
/* The record a launch of kernel kid on q binds as LSK_CTX (made on first
 * use); once enqueued, lsk__verify_mark marks it for the next check.
 * Under ctx's lock. */
int lsk__verify_slot(lsk_queue *q, unsigned kid, cl_mem *mem);
void lsk__verify_mark(lsk_queue *q, unsigned kid);
/* Reads q's records; LSK_EVERIFY with the first failure, cleared. */
int lsk__verify_check(lsk_queue *q);
/* The same check in two halves, around a call that reads its results
 * back on q: lsk__verify_defer enqueues the reads of q's records without
 * waiting (into *v), so that the call's own commands follow at once;
 * lsk__verify_done waits for q (at no cost after the call's own blocking
 * read) and returns LSK_EVERIFY with the first failure as
 * lsk__verify_check does, or, where the call failed (rc not LSK_OK), rc,
 * the failures kept for the next check. Every defer needs its done, even
 * after a failure: the reads write into *v. */
#define LSK__VSLOTS 128
typedef struct lsk__vcheck {
  unsigned lo, hi; /* the slots read; lo > hi: none */
  unsigned shared_kernels, shared_last;
  unsigned char dirty[LSK__VSLOTS];
  uint32_t w[LSK__VSLOTS];
} lsk__vcheck;
int lsk__verify_defer(lsk_queue *q, lsk__vcheck *v);
int lsk__verify_done(lsk_queue *q, lsk__vcheck *v, int rc);

/* ---- Buffers (buffer.c) ----------------------------------------------- */
cl_mem lsk__buffer_mem(const lsk_buffer *buf);
size_t lsk__buffer_size(const lsk_buffer *buf);
lsk_context *lsk__buffer_context(const lsk_buffer *buf);
int lsk__buffer_cached(const lsk_buffer *buf); /* from lsk_buffer_alloc */
/* A buffer of size bytes holding a copy of init when it returns, made on
 * no queue (synchronous object creation: lsk_assoc_create). */
int lsk__buffer_create_init(lsk_context *ctx, size_t size, const void *init, const char *fn,
                            lsk_buffer **out);
/* How many of args come before the first buffer argument that is not a
 * live buffer of ctx: one pass under the context's set's lock. */
size_t lsk__buffers_live(lsk_context *ctx, const lsk_arg *args, size_t nargs);
/* A transfer on q, blocking or not, without an lsk_async (the library's). */
int lsk__buffer_rw(lsk_buffer *buf, int write, size_t offset, void *ptr, size_t size, lsk_queue *q,
                   int blocking, const char *fn);
/* Another handle of src's memory in ctx, whose OpenCL context is src's:
 * the bytes counted against ctx's device too; messages on ctx name fn. */
int lsk__buffer_share(lsk_context *ctx, const lsk_buffer *src, const char *fn, lsk_buffer **out);

/* ---- Programs and their builds (program.c) ---------------------------- */
/* One build of a program: one configuration on the context's device. */
typedef struct lsk__build lsk__build;
lsk_context *lsk__program_context(const lsk_program *prog);
const char *lsk__program_name(const lsk_program *prog);
/* What a build is made of (the tune store's key): the user's source, the
 * generated prelude ("" if none), the build options ("" if none). */
const char *lsk__program_source(const lsk_program *prog);
const char *lsk__program_prelude(const lsk_program *prog);
const char *lsk__program_options(const lsk_program *prog);
/* 1 and *domain if the source declares kernel's block domain (NULL
 * kernel: its first declaration); 0 otherwise. */
int lsk__program_declared(const lsk_program *prog, const char *kernel, unsigned domain[3]);
/* The build of a configuration already resolved and checked, made once. */
int lsk__program_get_build(lsk_program *prog, const unsigned domain[3], unsigned workers,
                           unsigned simd, lsk__build **out);
cl_program lsk__build_program(const lsk__build *b);
const unsigned *lsk__build_domain(const lsk__build *b);

/* ---- The trace (trace.c): one command of q; called only when tracing -- */
typedef enum lsk__op {
  LSK__OP_KERNEL,
  LSK__OP_WRITE,
  LSK__OP_READ,
  LSK__OP_FILL,
  LSK__OP_COPY,
  LSK__OP_MAP,
  LSK__OP_UNMAP,
  LSK__OP_MARKER
} lsk__op;
typedef struct lsk__shape {
  unsigned domain[3];
  size_t blocks[3];
  unsigned workers, simd;
} lsk__shape;
void lsk__trace_add(lsk_queue *q, lsk__op kind, const char *name, const lsk__shape *shape,
                    size_t bytes, cl_event ev);

/* ---- Devices, files, hashes (device.c, file.c, cache_entry.c) --------- */
int lsk__device_ids(const lsk_device_info *info, cl_platform_id *platform, cl_device_id *device);
/* Every device a group's selector names (group.h), at most cap; messages
 * (the thread's) start with fn. lsk__device_select_in: the one device of
 * lsk_device_select. */
int lsk__device_select_all(const lsk_device_info *list, size_t n, const char *selector,
                           const char *fn, unsigned *idx, size_t cap, size_t *count);
int lsk__device_select_in(const lsk_device_info *list, size_t n, const char *selector,
                          unsigned *index);
/* The text file at path, malloc'd; NULL with *rc and a message naming fn
 * (LSK_EIO, LSK_ENOMEM, LSK_EINVAL for a NUL or more than max bytes). */
char *lsk__read_file(lsk_context *ctx, const char *path, size_t max, const char *fn, int *rc);
/* Replaces path by the parts atomically: 0, or -1 with path unchanged. */
typedef struct lsk__file_part {
  const void *data;
  size_t size;
} lsk__file_part;
int lsk__file_replace(const char *path, const lsk__file_part *parts, size_t nparts);
int lsk__make_dirs(const char *dir);                               /* mkdir -p; 0 on success */
uint64_t lsk__hash64(const void *data, size_t len, uint64_t seed); /* FNV-1a, seeded */

/* env.c: a variable, NULL if unset or empty; a boolean (True, true, T or
 * 1 is 1, another value 0, unset or empty def). The variables lsk reads
 * are listed in env.c. */
const char *lsk__getenv(const char *name);
int lsk__getenv_bool(const char *name, int def);

/* ---- For the tests of these internals (tests/core, tests/fuzz) -------- */
extern const char lsk__device_source[]; /* the device library, embedded */
char *lsk__map_log_lines(const char *name, const char *log, const char *library,
                         unsigned prelude_line, unsigned source_line);
#define LSK__KEY_UNFOLLOWED 1
int lsk__include_key(const char *text, const char *options, char **out /* OUT */);
int lsk__include_dirs(const char *options, char ***dirs /* OUT */, size_t *n /* OUT */);
int lsk__cache_entry_parse(const unsigned char *data, size_t n, const char *key,
                           const unsigned char **bin /* OUT */, size_t *binsize /* OUT */);

#endif /* LSK_CORE_CORE_H */
