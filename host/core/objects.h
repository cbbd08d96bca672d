/*
 * core/objects.h: the core's objects (context, queue, event, buffer) and
 * what the core's files share about them. Private to the core: the layers
 * above see these objects through core/core.h only.
 */
#ifndef LSK_CORE_OBJECTS_H
#define LSK_CORE_OBJECTS_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/core.h"

/* A set of live handles under its own mutex (handle.c): the process-wide
 * one, and one per context for its descendants. */
typedef struct lsk__hset {
  pthread_mutex_t lock;
  const void **slot; /* NULL: empty slot */
  size_t cap, used;  /* cap: a power of two, or 0 */
} lsk__hset;
int lsk__hset_init(lsk__hset *s); /* 0 or the pthread error */
void lsk__hset_free(lsk__hset *s);
/* A pass over a set: lock, then 1 if h is in it with type t (the type
 * read from h only once it is known to be live), then unlock. */
void lsk__hset_lock(lsk__hset *s);
int lsk__hset_has(const lsk__hset *s, const void *h, const lsk__htype *t);
void lsk__hset_unlock(lsk__hset *s);

/* The detailed message of one thread's last failure on a context: text
 * behind the prefix "(earlier) " (NULL: none, or no memory), and the
 * thread's stamps when it was written (status.c). */
typedef struct lsk__msg {
  pthread_t thread;
  char *text;
  unsigned long long call, seq;
  struct lsk__msg *next;
} lsk__msg;

#define LSK__EXT_SLOTS 4

/* Verify records per queue: one small zeroed buffer per kernel id (the
 * last slot shared by ids beyond), so that a failure names its queue and
 * its kernel (verify.c); LSK__VSLOTS of them (core.h). */

/* An in-order queue of a context (queue.c). */
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

/* An event of one command (event.c); user events have no queue. */
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
  /* The context's own waits do not trust the queue's (Mesa's rusticl):
   * clFinish does not wait for commands that waited for a user event (22
   * and 23), and a blocking transfer or clFinish returns at once when
   * another thread flushed the queue between its enqueue and its wait
   * (22.3). lsk__queue_wait waits for a marker first; blocking transfers
   * are enqueued without blocking and waited for by their own event. */
  int wait_by_event;
  /* The names of the kernels launched on the context, indexed by the id
   * each kernel's builds pass to the device (LSK_CTX's second word), so
   * that a verify record says which kernel failed (lock). */
  char **knames;
  unsigned nknames, capknames;
  /* The buffer cache (bufcache.c), made at create, and its hook that
   * releases its idle buffers where memory runs short (bytes freed). */
  struct lsk__bcache *bcache;
  size_t (*reclaim)(lsk_context *ctx);
  /* The timeline (trace.c); NULL: not recording, and nothing is spent. */
  struct lsk__trace *trace;
  lsk_device_info info;
  char *cache_dir; /* NULL: no disk cache */
  char *tune_dir;  /* NULL: no stored tune choices */
  /* Per thread: each thread sees its own last failure (docs/threads.md).
   * Only the owning thread replaces its text; msg_lock guards the list. */
  lsk__msg *msgs;
  pthread_mutex_t msg_lock;
  /* lsk__lock (core.h says what it serializes). Never held while calling
   * a function that takes it. */
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
   * goes back to the cache for the queue q (index qidx) when freed:
   * lsk_buffer_destroy calls release (NULL: the memory is released). */
  void (*release)(lsk_buffer *buf);
  size_t cap;
  lsk_queue *q;
  unsigned qidx;
};

/* lock.c: the context's locks and set of descendants: init (0 or an errno
 * value) before the first lsk__fail on it, free at destroy. */
int lsk__context_sync_init(lsk_context *ctx);
void lsk__context_sync_free(lsk_context *ctx);
/* status.c: appends a long text (a build log) to the message just set. */
void lsk__append(lsk_context *ctx, const char *text);

/* queue.c: the context's default queue, made at create around the
 * context's own cl queue; messages name fn (create or wrap). */
int lsk__queue_default(lsk_context *ctx, const char *fn);
/* queue.c: releases q's OpenCL objects and frees it (handle removed). */
void lsk__queue_free(lsk_queue *q);
/* queue.c: waits for every queue of the context (its destroy). */
void lsk__queues_wait(lsk_context *ctx);
/* event.c: the four profiling times of ev (0 where the runtime gives
 * none), and the first OpenCL error of the queries. */
cl_int lsk__event_times(cl_event ev, lsk_event_times *out);

/* verify.c: the last check of a queue being destroyed: its first failure
 * under fn's name and how many more kernels failed; the records freed;
 * the context's kernel names freed. */
int lsk__verify_last(lsk_queue *q, const char *fn);
void lsk__verify_free(lsk_queue *q);
void lsk__kernel_ids_free(lsk_context *ctx);

/* buffer.c: a cl_mem of bytes for ctx, counted against the device's
 * global memory (LSK_ERANGE past it, message naming fn); where that or the
 * driver refuses, ctx->reclaim gives idle memory back and it is tried once
 * more. lsk__mem_release gives it back (ctx may be destroyed). */
int lsk__mem_create(lsk_context *ctx, size_t bytes, const char *fn, cl_mem *out);
/* The same, holding a copy of init's bytes when it returns (no queue:
 * OpenCL copies at creation). */
int lsk__mem_create_init(lsk_context *ctx, size_t bytes, const void *init, const char *fn,
                         cl_mem *out);
void lsk__mem_release(lsk_context *ctx, cl_mem mem, size_t bytes);
/* buffer.c: a buffer handle around mem (taken over; released on failure). */
int lsk__buffer_wrap(lsk_context *ctx, cl_mem mem, size_t size, const char *fn, lsk_buffer **out);

/* bufcache.c: made at context create (0 or LSK_ENOMEM; off: the cache
 * passes everything through; sets ctx->reclaim), freed at destroy after
 * the queues finish. A queue being destroyed (idle) leaves the cache: its
 * idle buffers are free for any queue. */
int lsk__bcache_init(lsk_context *ctx, int off);
void lsk__bcache_free(lsk_context *ctx);
void lsk__bcache_forget_queue(lsk_context *ctx, const lsk_queue *q);

/* trace.c: made at context create when asked (0 or LSK_ENOMEM), freed at
 * destroy. */
int lsk__trace_init(lsk_context *ctx);
void lsk__trace_free(lsk_context *ctx);

/* device.c: the facts of one device; the position (index, platform_index,
 * device_index) of a device found outside the list (lsk_context_wrap),
 * left 0 if it is not listed. */
int lsk__device_info(cl_platform_id platform, cl_device_id device, lsk_device_info *info);
void lsk__device_position(cl_device_id device, lsk_device_info *info);
/* model.c: opt resolved (LSK_SHAPES_DEFAULT through the environment) to
 * LSK_SHAPES_DEVICE or _NVIDIA; LSK_EINVAL (thread message, fn's name)
 * for another value or a bad LSK_SHAPES. lsk__device_model: the model's
 * shape facts over *info (DEVICE: unchanged). */
int lsk__shapes_resolve(const char *fn, lsk_shapes opt, lsk_shapes *out);
void lsk__device_model(lsk_shapes shapes, lsk_device_info *info);

/* env.c (lsk__getenv and lsk__getenv_bool: core/core.h): LSK_SHAPES
 * (DEVICE for unset, empty or "device", NVIDIA for "nvidia", any case;
 * else -1 and *bad); the tune directory of a context: opt ("" none), else
 * the environment, *dir malloc'd or NULL (LSK_ENOMEM or LSK_OK). */
int lsk__getenv_shapes(const char **bad);
int lsk__tune_dir_init(const char *opt, char **dir);

#endif /* LSK_CORE_OBJECTS_H */
