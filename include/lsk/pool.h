/*
 * pool.h: device-side dynamic memory, the host's part: pools of fixed-size
 * cells that kernels allocate and recycle (cl/lsk_pool.h), their garbage
 * collection, growth and usage, and frames (cells holding an SoA chunk of a
 * layout). See docs/dynamic-memory.md.
 *
 * A pool is one device buffer (lsk_pool_buffer): pass it to a kernel as a
 * __global uint * argument. Kernels name cells by uint index. The host runs
 * the GC between kernels (lsk_pool_gc): cells recycled by a kernel become
 * free for the kernels after the GC, zero-filled.
 *
 * Exhaustion: an allocation that finds no cell returns LSK_POOL_INVALID on
 * the device and is counted; lsk_pool_usage_get reports it (exhausted,
 * shortfall, refused). The host can then grow the pool (lsk_pool_grow)
 * and run the work that failed again. Nothing waits, nothing is lost
 * without a count.
 *
 * Queues: a pool keeps no queue. Its GC and reads take `const lsk_async
 * *on` last and run on its queue (NULL: the default queue), in order with
 * the user's launches there; kernels that allocate from the pool on other
 * queues must be ordered with them by the caller (events). The reads also
 * wait for every queue of the context (any may hold an allocating kernel).
 * Creation, growth and destruction are synchronous.
 *
 * Thread-safety: as for the context (one thread at a time).
 */
#ifndef LSK_POOL_API_H
#define LSK_POOL_API_H

#include <stdint.h>

#include "layout.h"
#include "program.h"
/* LSK_FRAME_NEXT, LSK_FRAME_COUNT, LSK_FRAME_USER: a frame's header words,
 * the same for host and device (shared.h is the device library's
 * lsk_shared.h). */
#include "lsk/shared.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The index that names no cell (as on the device). */
#define LSK_POOL_INVALID 0xffffffffu

typedef struct lsk_pool lsk_pool;

/* All zeros means the defaults. */
typedef struct lsk_pool_options {
  /* Alignment of every cell in bytes: a power of two from 4 to the device's
   * base address alignment (CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8, 128 on
   * PoCL); 0 means 4. */
  size_t align;
} lsk_pool_options;

/*
 * lsk_pool_create: a pool of capacity cells of cell_bytes each (rounded up
 * to the alignment), all free, all zero. The pool buffer holds a header,
 * two lists of capacity uints and the cells; it must fit the device's
 * largest allocation and 2^32 - 1 words (16 GiB).
 * Errors: LSK_EINVAL (NULL, zero size or capacity, bad alignment),
 * LSK_ERANGE (too large), LSK_ENOMEM, OpenCL codes.
 */
int lsk_pool_create(lsk_context *ctx, size_t cell_bytes, size_t capacity,
                    const lsk_pool_options *opt, lsk_pool **out /* OUT */);

/*
 * lsk_pool_create_frames: a pool whose cells are frames: a small header
 * (the link to the next frame, cl/lsk_pool.h), then an SoA chunk of
 * frame_size elements of layout (a power of two from 1 to LSK_MAX_DOMAIN),
 * aligned to the layout's alignment. The layout must outlive the pool.
 * Errors: as lsk_pool_create; LSK_EINVAL for a frame size that is not a
 * power of two, or a layout alignment above the device's.
 */
int lsk_pool_create_frames(lsk_context *ctx, const lsk_layout *layout, unsigned frame_size,
                           size_t capacity, lsk_pool **out /* OUT */);

/* Waits for nothing; the buffer is released once queued work is done.
 * NULL is a no-op. */
void lsk_pool_destroy(lsk_pool *pool);

/* The pool's device buffer, the kernel argument. It changes when the pool
 * grows: fetch it again after lsk_pool_grow. */
lsk_buffer *lsk_pool_buffer(const lsk_pool *pool);
size_t lsk_pool_capacity(const lsk_pool *pool);
/* Bytes from one cell to the next (cell_bytes rounded up to the alignment). */
size_t lsk_pool_cell_stride(const lsk_pool *pool);
/* Byte offset of cell in the buffer (cells are numbered from 0). */
size_t lsk_pool_cell_offset(const lsk_pool *pool, uint32_t cell);
/* Frames: elements per frame (0 for a plain pool), and the byte offset of
 * frame f's SoA chunk in the buffer (after its header). */
unsigned lsk_pool_frame_size(const lsk_pool *pool);
size_t lsk_pool_frame_base(const lsk_pool *pool, uint32_t f);

/* What lsk_pool_usage_get reports. "Since the last GC" means: by the kernels
 * that ran after it. */
typedef struct lsk_pool_usage {
  size_t capacity;   /* cells */
  size_t live;       /* handed out and not recycled */
  size_t free;       /* in the free list, not yet handed out again */
  size_t fresh;      /* never handed out (the rest of the data list) */
  size_t recycled;   /* recycled since the last GC: free after the next */
  size_t high_water; /* cells ever handed out from the data list */
  size_t allocated;  /* allocations that got a cell, since the last GC */
  size_t shortfall;  /* allocations refused since the last GC */
  uint64_t refused;  /* allocations refused since the pool was made */
  size_t misuse;     /* bad recycles since the last GC (reported by it) */
  size_t gcs;        /* GCs run */
  int exhausted;     /* shortfall > 0 */
} lsk_pool_usage;

/* lsk_pool_usage_get: waits for queued work (every queue) and reads the
 * pool's header on on's queue, reporting that queue's device verify
 * failures. live + free + fresh + recycled == capacity.
 * Enqueues; blocks. */
int lsk_pool_usage_get(lsk_pool *pool, lsk_pool_usage *out /* OUT */, const lsk_async *on);

/*
 * lsk_pool_gc: enqueues the GC (three or four kernels) on on's queue: the
 * free list keeps its unused cells and gains the recycled ones, which are
 * zero-filled; the cursor and the recycled list are reset; a shortfall is
 * added to `refused`. Bad recycles since the last GC make the GC's kernel
 * fail a device verify (LSK_EVERIFY at the next lsk_queue_finish of that
 * queue, or lsk_pool_usage_get on it).
 * Enqueues; never blocks.
 */
int lsk_pool_gc(lsk_pool *pool, const lsk_async *on);

/*
 * lsk_pool_grow: runs the GC, then moves the pool into a new buffer of
 * capacity cells (more than now): cell indices and contents, the free list
 * and the counts are kept; the new cells are fresh. Waits (on the default
 * queue, after every queue).
 * lsk_pool_buffer changes. Errors: as lsk_pool_create.
 */
int lsk_pool_grow(lsk_pool *pool, size_t capacity);

/* Reads back on on's queue, waiting for queued work as lsk_pool_usage_get
 * does: the free list as the next allocations will take it (first to
 * last), the recycled list in the order the recycles happened, and cells
 * [first, first + count) (count * stride bytes, which dst_bytes, dst's
 * size, must hold: LSK_EINVAL otherwise). lists: at most cap entries to
 * dst, the length to *n. For code that inspects a pool from the host:
 * reading frames back (the pic example's lsk_pic_read), checking a
 * kernel's allocations, debugging.
 * Enqueues; blocks. */
int lsk_pool_read_free(lsk_pool *pool, uint32_t *dst, size_t cap, size_t *n /* OUT */,
                       const lsk_async *on);
/* Enqueues; blocks. */
int lsk_pool_read_recycled(lsk_pool *pool, uint32_t *dst, size_t cap, size_t *n /* OUT */,
                           const lsk_async *on);
/* Enqueues; blocks. */
int lsk_pool_read_cells(lsk_pool *pool, size_t first, size_t count, void *dst /* OUT */,
                        size_t dst_bytes, const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_POOL_API_H */
