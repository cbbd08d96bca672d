/*
 * trace.h: a timeline of what a context's queues ran.
 *
 * With lsk_context_options.trace set, every kernel launch and every
 * transfer (write, read, fill, copy, map, unmap) and marker on every queue
 * of the context is recorded: what it was, its queue, a kernel's lockstep
 * shape, a transfer's bytes, and its device times (queued, submitted,
 * start, end; the context's queues then have profiling). Without it
 * nothing is recorded, and a launch pays one pointer test.
 *
 * lsk_trace_write saves the record as Chrome trace-event JSON, which
 * Perfetto (ui.perfetto.dev) and chrome://tracing open: one track per
 * queue, one slice per command, its shape and bytes among the slice's
 * arguments. Times are microseconds from the first command recorded.
 *
 * Thread-safety: recording is locked (threads may launch on several
 * queues); read and clear the record while no other thread enqueues on
 * the context.
 */
#ifndef LSK_TRACE_H
#define LSK_TRACE_H

#include <stdint.h>

#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lsk_trace_kind {
  LSK_TRACE_KERNEL = 1,
  LSK_TRACE_WRITE,
  LSK_TRACE_READ,
  LSK_TRACE_FILL,
  LSK_TRACE_COPY,
  LSK_TRACE_MAP,
  LSK_TRACE_UNMAP,
  LSK_TRACE_MARKER
} lsk_trace_kind;

/* One recorded command. Its strings stay valid until lsk_trace_clear or
 * the context's destroy (recording more does not move them). */
typedef struct lsk_trace_entry {
  lsk_trace_kind kind;
  const char *name;  /* the kernel's name, or "write", "read", ... */
  const char *queue; /* its queue's name */
  unsigned queue_index;
  /* Kernels: the block domain, the grid of blocks, workers and simd. */
  unsigned domain[3];
  size_t blocks[3];
  unsigned workers, simd;
  size_t bytes; /* transfers and fills */
  /* Device clock, nanoseconds; 0 where the runtime gave none. */
  uint64_t queued, submitted, start, end;
} lsk_trace_entry;

/* lsk_trace_count: the commands recorded so far. LSK_EINVAL if the context
 * does not record (lsk_context_options.trace). */
int lsk_trace_count(lsk_context *ctx, size_t *n /* OUT */);
/* lsk_trace_get: the i-th command in the order enqueued; waits for it to
 * complete (its times). LSK_ERANGE for i past the count. */
int lsk_trace_get(lsk_context *ctx, size_t i, lsk_trace_entry *out /* OUT */);
/* lsk_trace_write: waits for every recorded command, then writes the
 * record to path as trace-event JSON (atomically: the whole file or, on
 * failure, none). Errors: LSK_EINVAL, LSK_EIO (naming path), LSK_ENOMEM. */
int lsk_trace_write(lsk_context *ctx, const char *path);
/* lsk_trace_clear: forgets what was recorded (waiting for nothing: the
 * commands run on). */
int lsk_trace_clear(lsk_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* LSK_TRACE_H */
