/*
 * buffer.h: device buffers with size checks.
 *
 * All transfers go through the context's in-order queue. Reads and writes
 * are blocking; fill is asynchronous (ordered before later work).
 *
 * Thread-safety: every function here may be called by several threads on
 * one context at once (OpenCL's enqueue calls are thread-safe and lsk keeps
 * no other state per transfer); two threads using the same buffer must
 * order their transfers themselves, as with any shared memory.
 */
#ifndef LSK_BUFFER_H
#define LSK_BUFFER_H

#include "context.h"

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

/* Blocking copies. LSK_ERANGE if offset + size exceeds the buffer. */
int lsk_buffer_write(lsk_buffer *buf, size_t offset, const void *src, size_t size);
int lsk_buffer_read(lsk_buffer *buf, size_t offset, void *dst, size_t size);

/* Fill [offset, offset + size) with a pattern of 1, 2, 4, ..., 128 bytes;
 * offset and size must be multiples of pattern_size. */
int lsk_buffer_fill(lsk_buffer *buf, const void *pattern, size_t pattern_size, size_t offset,
                    size_t size);

/* Map [offset, offset + size) for reading and writing (blocking); unmap
 * before the buffer is used by a kernel. */
int lsk_buffer_map(lsk_buffer *buf, size_t offset, size_t size, void **ptr /* OUT */);
int lsk_buffer_unmap(lsk_buffer *buf, void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* LSK_BUFFER_H */
