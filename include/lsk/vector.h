/*
 * vector.h: a fixed-capacity device vector that kernels append to
 * (device side: cl/lsk_vector.h).
 *
 * A vector is a data buffer of capacity elements of elem_size bytes and a
 * uint count. Kernels take it as LSK_VECTOR_PARAMS(T, v) and append with
 * LSK_VECTOR_PUSH, lsk_vector_append (one atomic per element) or
 * LSK_BLOCK_VECTOR_APPEND (one atomic per block). The count grows past the
 * capacity: elements that do not fit are not stored, and the host learns
 * how many they were (overflow = count - capacity), so it can grow the
 * vector and run again. The order of appended elements depends on
 * scheduling.
 *
 * Like the algorithms (algo.h), calls take `const lsk_async *on` last and
 * run on its queue (NULL: the default queue); a vector keeps no queue.
 * Those that return something to the host block, the others do not.
 * Kernels that append run where their caller launches them: order them
 * with the calls on the vector (the same queue, or events).
 * Thread-safety: one thread at a time per vector. A vector belongs to its
 * context and must be destroyed before it.
 */
#ifndef LSK_VECTOR_H
#define LSK_VECTOR_H
#include <stdint.h>

#include "program.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_vector lsk_vector;

/* The largest capacity: the count is a device uint that must be able to
 * exceed it. */
#define LSK_VECTOR_MAX_CAPACITY (UINT32_MAX - 1u)

/*
 * lsk_vector_create: an empty vector of capacity elements of elem_size
 * bytes (elem_size >= 1; capacity may be 0: every append overflows).
 * Errors: LSK_EINVAL (NULL, elem_size 0), LSK_ERANGE (capacity above
 * LSK_VECTOR_MAX_CAPACITY, or bytes above the device's largest
 * allocation), LSK_ENOMEM, OpenCL codes.
 */
int lsk_vector_create(lsk_context *ctx, size_t elem_size, size_t capacity,
                      lsk_vector **out /* OUT */);
/* NULL is a no-op. Work already enqueued still completes. */
void lsk_vector_destroy(lsk_vector *v);

/* lsk_vector_clear: count = 0, on on's queue. The data is left as it is.
 * Enqueues; never blocks.
 * Errors: LSK_EINVAL (NULL, a bad on), OpenCL codes. */
int lsk_vector_clear(lsk_vector *v, const lsk_async *on);

/*
 * lsk_vector_size: reads the count on on's queue, then *size = the elements
 * stored (min(count, capacity)) and, if overflow is not NULL, *overflow =
 * how many appends did not fit (count - capacity, or 0). Reports a device
 * verify failure of earlier launches on that queue (LSK_EVERIFY), as
 * lsk_queue_finish does.
 * Enqueues; blocks.
 * Errors: LSK_EINVAL (NULL), LSK_EVERIFY, OpenCL codes.
 */
int lsk_vector_size(lsk_vector *v, size_t *size /* OUT */, size_t *overflow /* OUT, may be NULL */,
                    const lsk_async *on);

/*
 * lsk_vector_read: waits, then copies the stored elements, at most max of
 * them, to dst (max * elem_size bytes), and sets *n to the number copied.
 * Enqueues; blocks.
 * Errors: as lsk_vector_size; LSK_EINVAL for NULL dst with max > 0.
 */
int lsk_vector_read(lsk_vector *v, void *dst, size_t max, size_t *n /* OUT */, const lsk_async *on);

/* Properties; 0 / NULL for a NULL vector. The buffers belong to the
 * vector: the data (capacity * elem_size bytes, at least elem_size) and
 * the count (one uint). */
size_t lsk_vector_capacity(const lsk_vector *v);
size_t lsk_vector_elem_size(const lsk_vector *v);
lsk_buffer *lsk_vector_data(const lsk_vector *v);
lsk_buffer *lsk_vector_count(const lsk_vector *v);

/*
 * lsk_vector_args: the three kernel arguments of LSK_VECTOR_PARAMS (data,
 * count, capacity) to args[0..3). LSK_EINVAL for NULL. In LSK_ARGS(...) the
 * macro LSK_VECTOR_ARGS(v) gives the same inline.
 */
int lsk_vector_args(const lsk_vector *v, lsk_arg args[3] /* OUT */);
#define LSK_VECTOR_ARGS(v)                                                                         \
  LSK_ARG_BUFFER(lsk_vector_data(v)), LSK_ARG_BUFFER(lsk_vector_count(v)),                         \
      LSK_ARG_UINT((uint32_t)lsk_vector_capacity(v))

#ifdef __cplusplus
}
#endif
#endif /* LSK_VECTOR_H */
