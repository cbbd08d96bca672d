/*
 * queue.h: queues, events and asynchronous work.
 *
 * A context has one default queue (lsk_context_queue) and may have more:
 * lsk_queue_create makes another in-order queue on the same device,
 * sharing the context's buffers, programs and kernels. Commands on one
 * queue run in the order they were enqueued; commands on different queues
 * are ordered only by events (a wait list) or by the host waiting. The
 * calls without a queue (lsk_kernel_launch, lsk_buffer_write, lsk_reduce
 * with no lsk_async ...) use the default queue, as before there were
 * queues.
 *
 * Every call that enqueues takes an lsk_async (NULL: the default queue, no
 * wait list, no event): which queue, which events must complete first,
 * and where to put an event for the command (the caller releases it with
 * lsk_event_release). A command that gives an event is flushed (submitted
 * to the device), so that another queue may wait for it at once: OpenCL
 * requires that, and some runtimes otherwise wait for ever. A call of the kernel library made of
 * several commands waits for the list before its first command and gives the event of its last.
 *
 * Device verify failures (LSK_VERIFY) are kept per queue, with the kernel
 * that failed: lsk_queue_finish reports its queue's, lsk_context_finish
 * every queue's. An event's wait does not check them (the record would
 * have to be read behind the queue's later work).
 *
 * Thread-safety (docs/threads.md): different threads may drive different
 * queues of one context at once, launches, transfers and the kernel
 * library included. Events may be waited on and released from any thread.
 */
#ifndef LSK_QUEUE_H
#define LSK_QUEUE_H

#include <stdint.h>

#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_queue lsk_queue;
typedef struct lsk_event lsk_event;

/* The most events in one wait list. */
#define LSK_WAIT_MAX 64

/* lsk_async.flags: a host transfer (lsk_buffer_write, _read, _map)
 * returns at once; the host memory belongs to the command until its event
 * completes (or its queue is finished). LSK_EINVAL on any other call. */
#define LSK_ASYNC_NONBLOCKING 1u

/* Where and after what a command runs; all zeros (or a NULL pointer): the
 * context's default queue, no wait, no event, the call's own blocking. */
typedef struct lsk_async {
  lsk_queue *queue;       /* NULL: the context's default queue */
  lsk_event *const *wait; /* nwait events of the same context to complete first */
  size_t nwait;           /* at most LSK_WAIT_MAX */
  lsk_event **event;      /* not NULL: gets an event of the command (release it) */
  unsigned flags;         /* 0 or LSK_ASYNC_NONBLOCKING */
} lsk_async;

/* All zeros means the defaults. */
typedef struct lsk_queue_options {
  /* Name in messages and in the trace (copied, at most 63 bytes); NULL:
   * "queue N", N counted per context (the default queue is "default"). */
  const char *name;
} lsk_queue_options;

/*
 * lsk_queue_create: another in-order queue on the context's device, with
 * profiling if the context has it (lsk_context_options.profiling or
 * .trace). opt may be NULL. Errors: LSK_EINVAL, LSK_ENOMEM, OpenCL codes.
 */
int lsk_queue_create(lsk_context *ctx, const lsk_queue_options *opt, lsk_queue **out /* OUT */);

/*
 * lsk_queue_destroy: frees an idle queue: finish it first. With work still
 * pending (within a short grace of up to 0.1 s) it returns LSK_EBUSY and
 * leaves the queue as it was, so that nothing enqueued is lost and the
 * call never waits for ever (a command held by a user event, say).
 * Returns LSK_EVERIFY if a kernel on it recorded a failure not yet checked
 * (the message names queue and kernel); the queue is freed then too.
 * Events of its commands stay valid until released. NULL is a no-op
 * (LSK_OK). The context's default queue is not destroyed here (LSK_EINVAL):
 * it goes with the context. A handle that is not live gives LSK_EINVAL and
 * is left alone.
 */
int lsk_queue_destroy(lsk_queue *q);

/* lsk_context_queue: the context's default queue (NULL for a bad ctx). */
lsk_queue *lsk_context_queue(lsk_context *ctx);

/* lsk_queue_finish: waits for the queue's work, then checks its verify
 * record: LSK_EVERIFY naming the queue, the kernel, the line, the message
 * and the values, as lsk_context_finish does for all queues. */
int lsk_queue_finish(lsk_queue *q);
/* lsk_queue_flush: submits what is enqueued (clFlush) without waiting; a
 * queue that another queue's wait list depends on should be flushed. */
int lsk_queue_flush(lsk_queue *q);

/* The queue's name ("" for a bad handle) and its OpenCL queue (NULL). */
const char *lsk_queue_name(const lsk_queue *q);
cl_command_queue lsk_queue_cl(const lsk_queue *q);

/* ---- Events ---- */

typedef enum lsk_event_state {
  LSK_EVENT_QUEUED = 1,
  LSK_EVENT_SUBMITTED,
  LSK_EVENT_RUNNING,
  LSK_EVENT_COMPLETE,
  LSK_EVENT_FAILED /* the command, or one it waited for, failed */
} lsk_event_state;

/* lsk_event_wait: waits until the event's command is complete. LSK_OK, or
 * the OpenCL error of a command that failed (or of one it waited for),
 * with a message naming the command. */
int lsk_event_wait(lsk_event *ev);
/* lsk_event_wait_all: the same for n events (n <= LSK_WAIT_MAX) of one
 * context. */
int lsk_event_wait_all(lsk_event *const *evs, size_t n);
/* lsk_event_state_get: where the command is now, without waiting. */
int lsk_event_state_get(lsk_event *ev, lsk_event_state *state /* OUT */);

/* The device's clock at each point of a command, in nanoseconds. */
typedef struct lsk_event_times {
  uint64_t queued, submitted, start, end;
} lsk_event_times;
/* lsk_event_times_get: waits for the command, then its times. LSK_EINVAL
 * if its queue has no profiling (set lsk_context_options.profiling) or it
 * is a user event. */
int lsk_event_times_get(lsk_event *ev, lsk_event_times *out /* OUT */);

/* What the command was: "kernel 'name'", "write", "read", "fill", "copy",
 * "map", "unmap", "marker", "user"; "" for a bad handle. */
const char *lsk_event_what(const lsk_event *ev);

/* lsk_event_release: gives the event back. The command is not affected.
 * NULL is a no-op. */
void lsk_event_release(lsk_event *ev);

/*
 * User events: an event that the host completes, for holding commands of
 * any queue until something outside OpenCL is ready. lsk_event_user_complete
 * sets it complete once (LSK_EINVAL for a second time or for an event that
 * is not a user event). Release it as any event; complete it first if
 * commands wait for it.
 */
int lsk_event_user_create(lsk_context *ctx, lsk_event **out /* OUT */);
int lsk_event_user_complete(lsk_event *ev);

/* The OpenCL event (lsk keeps its reference; NULL for a bad handle). */
cl_event lsk_event_cl(const lsk_event *ev);

/*
 * lsk_queue_marker: an event that completes when everything enqueued on
 * on->queue so far (and the wait list) has: a point in one queue that
 * another queue can wait for. on->event must not be NULL.
 */
int lsk_queue_marker(const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_QUEUE_H */
