/*
 * pinned.h: host memory that the device transfers from and to directly.
 *
 * lsk_pinned_create allocates host memory through the OpenCL runtime
 * (a buffer made with CL_MEM_ALLOC_HOST_PTR, mapped once for the life of
 * the allocation). Pass its pointer to non-blocking transfers (buffer.h,
 * LSK_ASYNC_NONBLOCKING):
 *   - NVIDIA: the memory is page-locked, so a transfer is one DMA from it,
 *     without a staging copy, and runs beside kernels of other queues; from
 *     ordinary (pageable) memory the driver first copies into its own
 *     pinned staging memory, and the transfer cannot overlap as well.
 *   - PoCL (CPU): it is ordinary host memory; transfers are memcpy either
 *     way, so pinned memory costs nothing and gains nothing.
 * Page-locked memory is a scarce resource of the whole machine: allocate
 * what a pipeline streams through (a few batches), not whole data sets.
 *
 * Thread-safety: create and destroy as buffers; the memory is the
 * caller's to share.
 */
#ifndef LSK_PINNED_H
#define LSK_PINNED_H

#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_pinned lsk_pinned;

/* lsk_pinned_create: size bytes (> 0) of pinned host memory, zeroed.
 * Errors: LSK_EINVAL, LSK_ERANGE (above the device's largest allocation),
 * LSK_ENOMEM, OpenCL codes. */
int lsk_pinned_create(lsk_context *ctx, size_t size, lsk_pinned **out /* OUT */);
/* Waits for the context's default queue (where it was mapped), then frees
 * it: no transfer from or to it may still be in flight on other queues,
 * and no command of the default queue held by a user event that is never
 * completed. NULL is a no-op. */
void lsk_pinned_destroy(lsk_pinned *p);
/* The memory (NULL for a bad handle) and its size (0). Aligned to at least
 * 64 bytes. */
void *lsk_pinned_ptr(const lsk_pinned *p);
size_t lsk_pinned_size(const lsk_pinned *p);

#ifdef __cplusplus
}
#endif
#endif /* LSK_PINNED_H */
