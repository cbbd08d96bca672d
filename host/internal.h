/*
 * internal.h: shared internals of the host library. Not installed.
 * Internal non-static names carry the lsk__ prefix.
 */
#ifndef LSK_INTERNAL_H
#define LSK_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>

#include "lsk/lsk.h"
/* The words the host and the device share: the verify record
 * (LSK__VREC_*), the pool's and the lists' headers. One file for both. */
#include "../cl/lsk_shared.h"
#include "core/handle.h"

#define LSK__MAX_DOMAIN LSK_MAX_DOMAIN

/* The kernel library's programs, one per file of kernels/ (the CMake list
 * LSK_KERNEL_FAMILIES must name the same files). */
/* compact is built per compactor only, with the user's predicate (compact.c). */
#define LSK__LIB_MAP(XX)                                                                           \
  XX(REDUCE, reduce)                                                                               \
  XX(SCAN, scan)                                                                                   \
  XX(COMPACT, compact)                                                                             \
  XX(POOL, pool)                                                                                   \
  XX(ASSOC, assoc) XX(RANDOM, random) XX(HISTOGRAM, histogram) XX(GRID, grid) XX(SORT, sort)
typedef enum lsk__lib {
#define XX(ID, name) LSK__LIB_##ID,
  LSK__LIB_MAP(XX)
#undef XX
      LSK__LIB_COUNT
} lsk__lib;
typedef struct lsk__libkernel lsk__libkernel;
/* The detailed message of one thread's last failure on a context. */
typedef struct lsk__msg {
  pthread_t thread;
  char *text;
  struct lsk__msg *next;
} lsk__msg;
/* A module above the core that keeps state per context (the kernel
 * library: algo.c): create makes it on first use (NULL: out of memory),
 * destroy frees it when the context is destroyed, after its queue is
 * finished and before it is released. */
typedef struct lsk__ext_type {
  const char *name;
  void *(*create)(lsk_context *ctx);
  void (*destroy)(lsk_context *ctx, void *state);
} lsk__ext_type;
#define LSK__EXT_SLOTS 4

/* An in-order queue of a context (queue.c), with its own verify record:
 * a failure is reported with the queue it happened on. */
/* Verify records per queue: one small zeroed buffer per kernel id (the
 * last slot shared by ids beyond), so that a failure names its queue and
 * its kernel; a check reads the failure word of each slot launched into
 * since the last one, with one wait. */
#define LSK__VSLOTS 128
struct lsk_queue {
  lsk__handle h;
  lsk_context *ctx;
  cl_command_queue cl;
  unsigned index;
  int is_default;
  char name[64];
  struct lsk_queue *next; /* the context's live queues (ctx->lock) */
  /* Under ctx->lock: the records, the slots launched into since the last
   * check (lo > hi: none), and for the shared slot how many kernels. */
  cl_mem vmem[LSK__VSLOTS];
  unsigned char vdirty[LSK__VSLOTS];
  unsigned vlo, vhi;
  unsigned vshared_kernels;
  unsigned vshared_last; /* kernel id of the last launch in the shared slot */
};

/* An event of one command (queue.c); user events have no queue. */
struct lsk_event {
  lsk__handle h;
  lsk_context *ctx;
  cl_event ev;
  int user;      /* a user event; 2 once completed */
  char what[80]; /* lsk_event_what */
};

struct lsk_context {
  lsk__handle h;
  cl_context cl;
  cl_device_id device;
  cl_command_queue queue; /* dq->cl */
  lsk_queue *dq;          /* the default queue */
  lsk_queue *queues;      /* every live queue, the default first (lock) */
  unsigned queues_made;   /* for the names "queue N" (lock) */
  int profiling;          /* queues are made with CL_QUEUE_PROFILING_ENABLE */
  /* clFinish does not wait for commands that waited for a user event
   * (Mesa's rusticl 22 and 23): lsk__queue_wait waits for a marker first. */
  int finish_by_marker;
  /* The names of the kernels launched on the context, indexed by the id
   * each kernel's builds pass to the device (LSK_CTX's second word), so
   * that a verify record says which kernel failed (lock). */
  char **knames;
  unsigned nknames, capknames;
  /* The buffer cache (bufcache.c), made at create. */
  struct lsk__bcache *bcache;
  /* The timeline (trace.c); NULL: not recording, and nothing is spent. */
  struct lsk__trace *trace;
  lsk_device_info info;
  char *cache_dir; /* NULL: no disk cache */
  char *tune_dir;  /* NULL: no stored tune choices */
  /* Per thread: each thread sees its own last failure (docs/threads.md).
   * Only the owning thread replaces its text; msg_lock guards the list. */
  lsk__msg *msgs;
  pthread_mutex_t msg_lock;
  /* Serializes what must not interleave between threads launching on one
   * context: resolving a launch (which may build), binding the arguments of
   * a shared cl_kernel (clSetKernelArg is not thread-safe) and enqueueing,
   * and the verify record's check. Never held while calling a function
   * that takes it. */
  pthread_mutex_t lock;
  /* Bytes held by the context's buffers, against the device's global
   * memory: PoCL accepts more than it can back and aborts at first use. */
  atomic_uint_least64_t allocated;
  /* Its live descendants (buffers, programs, kernels...), for the checks of
   * a launch's arguments without a process-wide lock (handle.c). */
  lsk__hset kids;
  /* The state of modules above the core, made on first use
   * (lsk__context_ext); the core knows only their destroy. */
  struct {
    const lsk__ext_type *type;
    /* Written once, after type, under lock; read without it (acquire). */
    _Atomic(void *) state;
  } ext[LSK__EXT_SLOTS];
};

struct lsk_buffer {
  lsk__handle h;
  lsk_context *ctx;
  cl_mem mem;
  size_t size;
  /* From the buffer cache (lsk_buffer_alloc): mem holds cap bytes, and
   * goes back to the cache for the queue q (index qidx) when freed. */
  int cached;
  size_t cap;
  lsk_queue *q;
  unsigned qidx;
};

/* One build of a program: one configuration on the context's device. */
typedef struct lsk__build {
  unsigned domain[3];
  unsigned workers, simd;
  cl_program program;
  struct lsk__build *next;
} lsk__build;

typedef struct lsk__decl {
  char *kernel;
  unsigned domain[3];
} lsk__decl;

struct lsk_program {
  lsk__handle h;
  lsk_context *ctx;
  char *name;
  char *source;    /* the user's source only */
  char *prelude;   /* generated code before it, "" if none */
  char *options;   /* user build options, "" if none */
  char *cache_dir; /* NULL: none */
  lsk__decl *decls;
  size_t ndecls;
  lsk__build *builds;
  lsk_program_stats stats;
};

/* status.c: record a message on ctx (or the thread when ctx is NULL) and
 * return status. fmt is printf-style; the function name goes first. */
int lsk__fail(lsk_context *ctx, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same for an OpenCL failure: "<call>: CL_NAME (code)<detail>". */
int lsk__fail_cl(lsk_context *ctx, cl_int err, const char *call, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Appends a long text (a build log) to the message just set. */
/* A build log with NVIDIA's "<kernel>:LINE:" (lines of the whole text)
 * rewritten as "name:LINE:" / "name.prelude:LINE:" (program.c). */
char *lsk__map_log_lines(const char *name, const char *log, unsigned prelude_line,
                         unsigned source_line);
void lsk__append(lsk_context *ctx, const char *text);
/* context.c: the context's locks, messages and set of descendants (handle.h): init
 * (0 or an errno value) before the first lsk__fail on it, free at destroy. */
int lsk__context_sync_init(lsk_context *ctx);
void lsk__context_sync_free(lsk_context *ctx);
/* ctx->lock; NULL is a no-op (the function then fails on its checks). */
void lsk__lock(lsk_context *ctx);
void lsk__unlock(lsk_context *ctx);
/* The state of type on ctx, made by type->create the first
 * time; NULL (no message) when out of memory or out of slots. */
void *lsk__context_ext(lsk_context *ctx, const lsk__ext_type *type);
/* algo.c: the kernel library's recursive lock on ctx, held by each library
 * call that uses what the library keeps per context (its programs and
 * kernels, the scratch buffers) from its first check to its last enqueue
 * or read, so that library calls from several threads on one context do
 * not clobber each other. Taken before ctx->lock, never while holding it.
 * lsk__lib_lock fails (LSK_ENOMEM, message set) only where the library's
 * state cannot be made. */
int lsk__lib_lock(lsk_context *ctx);
void lsk__lib_unlock(lsk_context *ctx);

/* A malloc'd printf; NULL on failure. */
char *lsk__strdupf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
char *lsk__strdup(const char *s);

/* A growing string (status.c); on allocation failure it stops and
 * remembers. Generated source is built with it (layouts, compactors). */
typedef struct lsk__sb {
  char *buf;
  size_t len, cap;
  int failed;
} lsk__sb;
int lsk__sb_printf(lsk__sb *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Hands the text over, or frees it and fails with LSK_ENOMEM. */
int lsk__sb_finish(lsk__sb *sb, char **text, const char *fn);

/* queue.c: read q's verify record; LSK_EVERIFY and clear it if set. */
int lsk__verify_check(lsk_queue *q);
/* queue.c: the verify record that a launch of kernel id kid on q binds as
 * LSK_CTX (made on first use); once the launch is enqueued,
 * lsk__verify_mark marks it to be read at the next check. Under
 * ctx->lock. */
int lsk__verify_slot(lsk_queue *q, unsigned kid, cl_mem *mem);
void lsk__verify_mark(lsk_queue *q, unsigned kid);
/* queue.c: the context's default queue, made at create (NULL queue: the
 * context's own cl queue is wrapped). */
int lsk__queue_default(lsk_context *ctx);
/* queue.c: waits until everything enqueued on q is complete (clFinish,
 * after a marker where the runtime needs it); an OpenCL status. */
cl_int lsk__queue_wait(lsk_queue *q);
/* context.c: waits for every queue of ctx, checking no verify record (a
 * call that reads state other queues' kernels may write, and checks its
 * own queue's records only); fn names the caller in a message. */
int lsk__context_wait(lsk_context *ctx, const char *fn);
/* queue.c: the four profiling times of ev (0 where the runtime gives
 * none), and the first OpenCL error of the queries. */
cl_int lsk__event_times(cl_event ev, lsk_event_times *out);
/* queue.c: releases q's OpenCL objects and frees it (its handle removed). */
void lsk__queue_free(lsk_queue *q);
/* queue.c: waits for every queue of the context (its destroy). */
void lsk__queues_wait(lsk_context *ctx);
/* queue.c: the id of kernel name on ctx (for the verify record), made on
 * first use; UINT32_MAX when out of memory. Takes ctx->lock: call it
 * without. */
unsigned lsk__kernel_id(lsk_context *ctx, const char *name);
/* queue.c: LSK_OK if q is a live queue of ctx; else LSK_EINVAL with
 * "fn: what ..." (dead, wrong type, or "what: queue 'name' belongs to
 * another context"). */
int lsk__queue_check(lsk_context *ctx, const lsk_queue *q, const char *fn, const char *what);
/* queue.c: LSK_OK if q, a queue the library keeps (an object's), is still
 * a live queue of ctx: one look-up in the context's set, no global lock;
 * else LSK_EINVAL naming fn. */
int lsk__queue_usable(lsk_context *ctx, const lsk_queue *q, const char *fn);
/* An lsk_async resolved: the queue, the wait list as OpenCL events, and
 * whether the caller wants an event. */
typedef struct lsk__on {
  lsk_queue *q;
  cl_uint nwait;
  cl_event wait[LSK_WAIT_MAX];
  lsk_event **event;
} lsk__on;
/* queue.c: checks on (NULL: the default queue) against ctx: a live queue
 * of ctx, nwait within LSK_WAIT_MAX, every event live, of ctx, not NULL;
 * clears *on->event. LSK_EINVAL naming fn otherwise. */
int lsk__on_resolve(lsk_context *ctx, const lsk_async *on, const char *fn, lsk__on *out);
/* queue.c: whether a command must ask OpenCL for an event (the caller
 * wants one, or the trace records). */
#define lsk__on_wants_event(ctx, o) ((o)->event != NULL || (ctx)->trace != NULL)
/* queue.c: after a command enqueued with event ev (NULL if none was
 * asked): gives the caller its lsk_event, describing what; releases ev
 * otherwise. LSK_ENOMEM (message on ctx, ev released) if the handle
 * cannot be made; the command is enqueued either way. */
int lsk__on_done(lsk_context *ctx, lsk__on *o, cl_event ev, const char *what, const char *fn);

/* buffer.c: a cl_mem of bytes for ctx, counted against the device's
 * global memory (LSK_ERANGE past it, message naming fn); where that or the
 * driver refuses, the cache's idle buffers are released and it is tried
 * once more. lsk__mem_release gives it back (ctx may be destroyed). */
int lsk__mem_create(lsk_context *ctx, size_t bytes, const char *fn, cl_mem *out);
void lsk__mem_release(lsk_context *ctx, cl_mem mem, size_t bytes);
/* buffer.c: another handle of src's memory in ctx, whose OpenCL context
 * is src's (a group's members on one platform, group.c): the cl_mem
 * retained, its bytes counted against ctx's device too. LSK_ERANGE (past
 * that device's memory) or LSK_ENOMEM, the message on ctx naming fn. */
int lsk__buffer_share(lsk_context *ctx, const lsk_buffer *src, const char *fn, lsk_buffer **out);
/* buffer.c: a buffer handle around mem (taken over; released on failure). */
int lsk__buffer_wrap(lsk_context *ctx, cl_mem mem, size_t size, const char *fn, lsk_buffer **out);
/* buffer.c: a transfer on q, blocking or not, without an lsk_async (the
 * kernel library's reads and writes on its call's queue). */
int lsk__buffer_rw(lsk_buffer *buf, int write, size_t offset, void *ptr, size_t size, lsk_queue *q,
                   int blocking, const char *fn);
/* bufcache.c: made at context create (0 or LSK_ENOMEM; off: the cache
 * passes everything through), freed at destroy after the queues finish;
 * lsk__bcache_trim releases the idle buffers (bytes given back). */
int lsk__bcache_init(lsk_context *ctx, int off);
void lsk__bcache_free(lsk_context *ctx);
size_t lsk__bcache_trim(lsk_context *ctx);
/* bufcache.c: a queue being destroyed (idle: nothing of it is pending)
 * leaves the cache; its idle buffers are free for any queue. */
void lsk__bcache_forget_queue(lsk_context *ctx, const lsk_queue *q);
/* bufcache.c: takes back a cached buffer's memory (lsk_buffer_destroy of
 * an lsk_buffer_alloc'ed buffer: as lsk_buffer_free on its own queue). */
void lsk__bcache_put(lsk_buffer *buf, lsk_queue *q);

/* trace.c: the timeline. One command of queue q: its kind and name
 * (kernel), its shape (kernels; NULL otherwise), its bytes (transfers),
 * its event (the trace retains it). Called only when ctx->trace is set. */
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
/* trace.c: made at context create when asked (0 or LSK_ENOMEM), freed at
 * destroy. */
int lsk__trace_init(lsk_context *ctx);
void lsk__trace_free(lsk_context *ctx);

/* file.c: the whole text file at path, NUL-terminated, malloc'd; NULL with
 * *rc set (LSK_EIO, LSK_ENOMEM, LSK_EINVAL for a NUL byte or more than max
 * bytes, max 0: no limit) and the message naming fn and path. */
char *lsk__read_file(lsk_context *ctx, const char *path, size_t max, const char *fn, int *rc);
/* file.c: replaces path by a file holding the parts, atomically: written
 * whole to a unique temporary file beside it, fsync'ed, renamed over path.
 * 0 on success; on any failure -1, path unchanged and no temporary file
 * left behind. No message: the callers' stores are best effort. */
typedef struct lsk__file_part {
  const void *data;
  size_t size;
} lsk__file_part;
int lsk__file_replace(const char *path, const lsk__file_part *parts, size_t nparts);

/* env.c */
const char *lsk__getenv(const char *name); /* NULL if unset or empty */
/* A boolean variable: True, true, T or 1 is 1, any other value 0, unset or
 * empty def. */
int lsk__getenv_bool(const char *name, int def);
/* LSK_SHAPES: LSK_SHAPES_DEVICE (unset, empty, "device") or
 * LSK_SHAPES_NVIDIA ("nvidia"), any case; another value: -1, *bad it. */
int lsk__getenv_shapes(const char **bad);

/* model.c: opt resolved (LSK_SHAPES_DEFAULT through the environment) to
 * LSK_SHAPES_DEVICE or LSK_SHAPES_NVIDIA; LSK_EINVAL with the thread's
 * message, under fn's name, for a value none of LSK_SHAPES_* or a bad
 * LSK_SHAPES. */
int lsk__shapes_resolve(const char *fn, lsk_shapes opt, lsk_shapes *out);
/* The model's shape facts over *info (resolved shapes; DEVICE: unchanged). */
void lsk__device_model(lsk_shapes shapes, lsk_device_info *info);

/* device.c: fill info for one device. */
int lsk__device_info(cl_platform_id platform, cl_device_id device, lsk_device_info *info);
/* Fills index, platform_index and device_index of a device that was not
 * found through the list (lsk_context_wrap); left 0 if it is not listed. */
void lsk__device_position(cl_device_id device, lsk_device_info *info);
/* lsk_device_select over a list already made. */
int lsk__device_select_in(const lsk_device_info *list, size_t n, const char *selector,
                          unsigned *index);
/* The OpenCL ids of a listed device (re-enumerated). */
int lsk__device_ids(const lsk_device_info *info, cl_platform_id *platform, cl_device_id *device);
/* device.c: every device a group's selector names (group.h): the
 * comma-separated parts in order, each naming every device it matches, no
 * device twice, at most cap (idx[cap]); NULL or "": LSK_DEVICE read the
 * same way, unset: the one device lsk__device_select_in picks. LSK_ENODEV
 * listing the devices for a part that matches none, LSK_EINVAL for an
 * empty part or more than cap; messages (the thread's) start with fn. */
int lsk__device_select_all(const lsk_device_info *list, size_t n, const char *selector,
                           const char *fn, unsigned *idx, size_t cap, size_t *count);

/* program.c: build for a configuration (already resolved and checked). */
int lsk__program_get_build(lsk_program *prog, const unsigned domain[3], unsigned workers,
                           unsigned simd, lsk__build **out);
const lsk__decl *lsk__program_decl(const lsk_program *prog, const char *kernel);
/* The text and options of one configuration (lsk_program_text, builds). */
void lsk__program_text(const char *name, const char *prelude, const char *source,
                       const char *options, const unsigned domain[3], unsigned workers,
                       unsigned simd, char **text, char **opts);
char *lsk__scan_declarations(const char *source, lsk__decl **decls, size_t *ndecls);
void lsk__free_declarations(lsk__decl *decls, size_t ndecls);

/* cache.c: the on-disk binary cache. key is the full text that identifies a
 * build; load returns a built program or NULL (entry missing or bad, in
 * which case it was removed). store is best effort and atomic. */
cl_program lsk__cache_load(lsk_context *ctx, const char *dir, const char *key);
void lsk__cache_store(lsk_context *ctx, const char *dir, const char *key, cl_program program);
uint64_t lsk__hash64(const void *data, size_t len, uint64_t seed);
/* cache_key.c: the part of a build's cache key that the files its text
 * includes make: every file that each #include of text (and of the files
 * found, recursively) may name, in the include directories of options.
 * LSK_OK with *out malloc'd; LSK_ENOMEM; or LSK__KEY_UNFOLLOWED where an
 * #include cannot be followed (a macro for a name, too many or too large
 * files): that build must not use the disk cache. No message. */
#define LSK__KEY_UNFOLLOWED 1
int lsk__include_key(const char *text, const char *options, char **out /* OUT */);
/* The include directories that options name (-I, -iquote, -isystem,
 * -idirafter; with a space or without), in order; LSK_OK or LSK_ENOMEM. */
int lsk__include_dirs(const char *options, char ***dirs /* OUT */, size_t *n /* OUT */);
/* cache_entry.c: an entry's bytes (the whole file) checked against key:
 * magic, key hash, size (the file's length), checksum. LSK_OK with *bin
 * pointing into data and *binsize its length, or LSK_EIO (no message). */
extern const char lsk__cache_magic[8];
/* tune_file.c: a tune file's bytes (format in tune.c) checked against key:
 * 1 with *w and *s set if well formed, else 0. */
#define LSK__TUNE_MAGIC "lsk tune 1"
#define LSK__TUNE_FILE_MAX 4096
int lsk__tune_parse(const char *data, size_t n, const char *key, unsigned *w, unsigned *s);
int lsk__cache_entry_parse(const unsigned char *data, size_t n, const char *key,
                           const unsigned char **bin /* OUT */, size_t *binsize /* OUT */);
/* mkdir -p; 0 on success. */
int lsk__make_dirs(const char *dir);

/* kernel.c, for tune.c. */
/* The launch's block domain (or the kernel's declared one), checked. */
int lsk__kernel_domain(lsk_kernel *k, const lsk_launch *cfg, const char *fn, unsigned dom[3]);
/* The automatic rule's shape for dom, stored choices aside, building it;
 * *wg_max gets the kernel's CL_KERNEL_WORK_GROUP_SIZE in that build. */
int lsk__kernel_rule_shape(lsk_kernel *k, const unsigned dom[3], const char *fn, unsigned *w,
                           unsigned *s, size_t *wg_max);
/* The stored choice for dom as the kernel keeps it (read from the tune
 * directory at lsk_kernel_create, or set by lsk_tune); 1 if there is one. */
int lsk__kernel_tuned(lsk_kernel *k, const unsigned dom[3], unsigned *w, unsigned *s);
/* Replaces the kept choice for dom (w = 0: none) and forgets the last
 * resolution, so that the next automatic launch sees it. */
void lsk__kernel_set_tuned(lsk_kernel *k, const unsigned dom[3], unsigned w, unsigned s);
lsk_program *lsk__kernel_program(const lsk_kernel *k);
/* kernel.c: a launch on q, no wait list, no event (the kernel library's). */
int lsk__launch_q(lsk_kernel *k, lsk_queue *q, const lsk_launch *cfg, const lsk_arg *args,
                  size_t nargs);
const char *lsk__kernel_name(const lsk_kernel *k);

/* env.c: the tune directory for a context: opt ("" none), else the
 * environment. *dir is malloc'd or NULL; returns LSK_ENOMEM or LSK_OK. */
int lsk__tune_dir_init(const char *opt, char **dir);

/* tune.c */
/* Calls found for each stored choice of prog's kernel that dir's index of
 * that kernel lists (lsk_kernel_create: once per kernel, so that no launch
 * reads a file). */
void lsk__tune_load_all(const lsk_program *prog, const char *dir, const char *kernel,
                        void (*found)(void *arg, const unsigned dom[3], unsigned w, unsigned s),
                        void *arg);
/* Reads the stored choice of (kernel, dom) of prog from dir; 1 if there is
 * a well-formed one. Never fails otherwise: a missing or corrupt file is
 * no choice. */
int lsk__tune_load(const lsk_program *prog, const char *dir, const char *kernel,
                   const unsigned dom[3], unsigned *w, unsigned *s);

/* algo.c: the kernel library's shared parts. */
/* The kernel name of family, made and kept by the context on first use. */
int lsk__lib_kernel(lsk_context *ctx, lsk__lib family, const char *name, lsk_kernel **out);
/* ---- kernel families built per type (issue 26, device side) ---- */
/* The same, in family's build with options, the -D options of the type it
 * is built for ("-DLSK_T=float"; the family's file names them): one
 * program per family and options, made and kept by the context on first
 * use. lsk__lib_kernel is the build with none. */
int lsk__lib_kernel_for(lsk_context *ctx, lsk__lib family, const char *options, const char *name,
                        lsk_kernel **out);
/* reduce.c: lsk_reduce_<op>_<type>, in its build (scan.c's sums too). */
int lsk__reduce_kernel(lsk_context *ctx, lsk_type type, lsk_op op, lsk_kernel **out);
/* ---- end ---- */
/* A temporary buffer of at least bytes for a call on q, from the buffer
 * cache (a later call on q reuses it at once; another queue only once q
 * is past this call). Free it on q when the call's last use is enqueued. */
int lsk__scratch(lsk_context *ctx, lsk_queue *q, size_t bytes, lsk_buffer **out);
void lsk__scratch_free(lsk_buffer *buf, lsk_queue *q);
/* The queue and wait list of a library call (opt->on): begin resolves it
 * and holds the call's first command until the wait list is complete (a
 * marker); end, on success, gives the caller an event for the call's last
 * command (a marker) where asked, and returns rc otherwise. */
int lsk__lib_begin(lsk_context *ctx, const lsk_algo_options *opt, const char *fn, lsk__on *o);
/* The first line of every library call that takes options: the event it
 * may give is NULL until it does (a call failing early leaves no stale
 * handle for the caller to release). */
static inline void lsk__lib_clear(const lsk_algo_options *opt)
{
  if (opt && opt->on && opt->on->event)
    *opt->on->event = NULL;
}
int lsk__lib_end(lsk_context *ctx, lsk__on *o, int rc, const char *fn);
/* Checks that buf holds elements [offset, offset + n) of elem bytes and
 * that offset + n fits 32 bits (kernels index with uint). */
int lsk__check_span(lsk_context *ctx, const char *fn, const char *what, const lsk_buffer *buf,
                    size_t offset, size_t n, size_t elem);
/* A device-wide pass over n elements: tiles of `tile` elements (the block
 * domain), blocks of per_block consecutive tiles each. */
typedef struct lsk__plan {
  unsigned tile, workers, simd;
  size_t tiles, blocks, per_block;
} lsk__plan;
int lsk__algo_plan(lsk_context *ctx, const char *fn, size_t n, const lsk_algo_options *opt,
                   lsk__plan *p);
/* Options that ask for workers (0: automatic) and blocks: LSK_ELAUNCH for
 * more workers than the device's work-group size, LSK_ERANGE for more
 * than 2^32 - 1 blocks, named under fn (not a later launch). */
int lsk__check_shape(lsk_context *ctx, const char *fn, unsigned workers, size_t blocks);
/* scan.c: lsk_scan on queue q (a library call's), its messages naming fn. */
int lsk__scan_q(lsk_context *ctx, lsk_queue *q, const char *fn, lsk_type type, lsk_scan_kind kind,
                lsk_buffer *in, size_t in_offset, lsk_buffer *out, size_t out_offset, size_t n,
                const lsk_algo_options *opt);
/* reduce.c: "add", "min", "max" (kernel name parts); NULL for a bad op. */
const char *lsk__op_name(lsk_op op);
/* LSK_EINVAL unless type is in allowed (a mask of 1 << type) and, for
 * double, the device has fp64. */
int lsk__check_type(lsk_context *ctx, const char *fn, lsk_type type, unsigned allowed);
/* The launch of the plan's kernels with the given number of blocks. */
lsk_launch lsk__plan_launch(const lsk__plan *p, size_t blocks);

/* shape.c: the device's limit on workers per block (the smaller of the
 * work-group and first work-item limits), and a launch's shape where it
 * gives only workers or only simd (both 0: lsk_auto_shape). */
size_t lsk__device_max_workers(const lsk_device_info *dev);
void lsk__resolve_shape(const lsk_device_info *dev, size_t domain, size_t kernel_max,
                        unsigned req_w, unsigned req_s, unsigned *w, unsigned *s);
/* The kernel library's automatic number of blocks over tiles. */
size_t lsk__algo_blocks(const lsk_device_info *dev, size_t tiles);

/* The library's handle types used beyond the module that defines them
 * (handle.h; LSK__H_CONTEXT is there). */
extern const lsk__htype LSK__H_QUEUE, LSK__H_EVENT, LSK__H_BUFFER, LSK__H_PROGRAM, LSK__H_KERNEL,
    LSK__H_LAYOUT, LSK__H_SOA, LSK__H_POOL;

/* The device library source, embedded at build time (generated). */
extern const char lsk__device_source[];

#endif /* LSK_INTERNAL_H */
