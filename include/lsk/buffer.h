/*
 * buffer.h: device buffers with size checks.
 *
 * Every transfer takes an lsk_async last (queue.h; NULL: the context's
 * default queue, no wait list, no event). Writes, reads and maps block
 * until the host memory is the caller's again, unless on->flags has
 * LSK_ASYNC_NONBLOCKING: then they return at once, and the host memory
 * must stay valid, and untouched by the host, until their event completes
 * (or their queue is finished). Fill, copy and unmap never block. Pinned
 * host memory (pinned.h) makes non-blocking transfers real DMA on GPUs.
 *
 * Thread-safety: every function here may be called by several threads on
 * one context at once (OpenCL's enqueue calls are thread-safe and lsk keeps
 * no other state per transfer); two threads using the same buffer must
 * order their transfers themselves, as with any shared memory.
 */
#ifndef LSK_BUFFER_H
#define LSK_BUFFER_H

#include <stdint.h>

#include "context.h"
#include "queue.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_buffer lsk_buffer;

/* lsk_buffer_create: a device buffer of size bytes (> 0).
 * Errors: LSK_EINVAL, LSK_ERANGE (above the device's max allocation, or
 * the context's buffers together above the device's global memory: refused
 * here, as some drivers accept such a buffer and fail, or abort, at its
 * first use), LSK_ENOMEM, OpenCL codes (CL_MEM_OBJECT_ALLOCATION_FAILURE...). */
int lsk_buffer_create(lsk_context *ctx, size_t size, lsk_buffer **out /* OUT */);
/* NULL is a no-op. */
void lsk_buffer_destroy(lsk_buffer *buf);

size_t lsk_buffer_size(const lsk_buffer *buf);
cl_mem lsk_buffer_cl(const lsk_buffer *buf);

/* lsk_buffer_write, lsk_buffer_read: size bytes between host memory and
 * buf at offset, on on->queue after on's wait list. LSK_ERANGE if
 * offset + size exceeds the buffer. Size 0 copies nothing (with a wait
 * list or an event asked for, a marker stands in so that the event
 * exists).
 * Enqueues; blocks unless LSK_ASYNC_NONBLOCKING. */
int lsk_buffer_write(lsk_buffer *buf, size_t offset, const void *src, size_t size,
                     const lsk_async *on);
int lsk_buffer_read(lsk_buffer *buf, size_t offset, void *dst, size_t size, const lsk_async *on);

/* lsk_buffer_fill: [offset, offset + size) with a pattern of 1, 2, 4, ...,
 * 128 bytes; offset and size must be multiples of pattern_size. The
 * pattern is copied at the call.
 * Enqueues; never blocks. */
int lsk_buffer_fill(lsk_buffer *buf, const void *pattern, size_t pattern_size, size_t offset,
                    size_t size, const lsk_async *on);

/* lsk_buffer_copy: size bytes from src at src_offset to dst at dst_offset,
 * on the device; overlapping ranges of one buffer are LSK_EINVAL, ranges
 * past either buffer LSK_ERANGE.
 * Enqueues; never blocks. */
int lsk_buffer_copy(lsk_buffer *dst, size_t dst_offset, const lsk_buffer *src, size_t src_offset,
                    size_t size, const lsk_async *on);

/* lsk_buffer_map: [offset, offset + size) for reading and writing, its
 * host pointer to *ptr; with LSK_ASYNC_NONBLOCKING *ptr is usable once the
 * event completes (ask for one, or finish the queue). Unmap before the
 * buffer is used by a kernel: lsk_buffer_unmap enqueues the unmap and
 * returns; commands after it on its queue (or waiting for its event) see
 * what the host wrote.
 * lsk_buffer_map: Enqueues; blocks unless LSK_ASYNC_NONBLOCKING.
 * lsk_buffer_unmap: Enqueues; never blocks. */
int lsk_buffer_map(lsk_buffer *buf, size_t offset, size_t size, void **ptr /* OUT */,
                   const lsk_async *on);
int lsk_buffer_unmap(lsk_buffer *buf, void *ptr, const lsk_async *on);

/*
 * The buffer cache: a queue-ordered caching allocator in front of the
 * driver, for buffers made and dropped every step (scratch, per-event
 * data). lsk_buffer_alloc hands out a buffer of at least size bytes for
 * use on queue q = on->queue (on NULL or on->queue NULL: the default
 * queue), from the cache when one of its size class is idle, else new; it
 * enqueues nothing, so a wait list, an event or flags in on are
 * LSK_EINVAL. lsk_buffer_free gives it back as of the commands enqueued
 * on q = on->queue (on NULL or on->queue NULL: the queue it was allocated
 * for, never another) so far, and after on's wait list (a marker on q
 * then holds the queue's later commands, and gives on->event if asked):
 * q may have it again at once (its later commands run after the free);
 * another queue only once q has passed that point, never earlier, and no
 * allocation waits for it (it makes a new buffer meanwhile). Use the
 * buffer on q, or order other queues' use by events, as with any buffer.
 * lsk_buffer_destroy of such a buffer is lsk_buffer_free on its queue.
 * lsk_buffer_size gives the size asked for; the kernel library's
 * temporary buffers come from here.
 *
 * Size classes: four per power of two from 256 bytes (at most a quarter
 * more memory than asked). Idle buffers count against the device's
 * memory like any buffer; an allocation that would not fit releases them
 * first. With lsk_context_options.no_buffer_cache (or LSK_BUFFER_CACHE=0)
 * alloc is lsk_buffer_create and free lsk_buffer_destroy.
 * Errors: as lsk_buffer_create; LSK_EINVAL for a queue of another context,
 * or for lsk_buffer_free of a buffer made by lsk_buffer_create.
 * lsk_buffer_alloc: Enqueues nothing; on names the queue.
 * lsk_buffer_free: Enqueues; never blocks.
 */
int lsk_buffer_alloc(lsk_context *ctx, size_t size, lsk_buffer **out /* OUT */,
                     const lsk_async *on);
int lsk_buffer_free(lsk_buffer *buf, const lsk_async *on);

/* What the cache did since the context was made. */
typedef struct lsk_buffer_cache_stats {
  uint64_t hits;         /* allocations served from the cache */
  uint64_t misses;       /* allocations that made a new buffer */
  uint64_t bytes_held;   /* idle in the cache now */
  uint64_t buffers_held; /* idle buffers now */
  uint64_t bytes_in_use; /* allocated and not freed now (class sizes) */
  uint64_t high_water;   /* the most of in use + held at any time */
} lsk_buffer_cache_stats;
int lsk_buffer_cache_stats_get(lsk_context *ctx, lsk_buffer_cache_stats *out /* OUT */);
/* lsk_buffer_cache_trim: releases every idle buffer (commands still using
 * one keep it until they are done, as OpenCL defers the release). */
int lsk_buffer_cache_trim(lsk_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* LSK_BUFFER_H */
