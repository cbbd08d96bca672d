/*
 * reduce.h: device-wide reductions of a buffer (kernels/reduce.cl).
 *
 * Two passes with no block waiting on another; see docs/algorithms.md for
 * the cost and the rounding of float sums.
 */
#ifndef LSK_REDUCE_H
#define LSK_REDUCE_H
#include "algo.h"
#ifdef __cplusplus
extern "C" {
#endif

/*
 * lsk_reduce: fold elements [offset, offset + n) of in, of type type, with
 * op, and wait for the result, written to *result (lsk_type_size(type)
 * bytes). An empty range gives the operation's identity: 0 for a sum, the
 * type's largest value (+inf for floats) for min, its smallest (-inf) for
 * max. Float min and max ignore NaNs, as fmin and fmax do: the result is
 * the smallest (largest) value that is not a NaN, and the identity, +inf
 * (-inf), where every value is a NaN. A float sum with a NaN is a NaN.
 * opt may be NULL.
 * Errors: LSK_EINVAL (NULL, bad type or op, double without fp64, bad
 * options), LSK_ERANGE (the range exceeds the buffer or 2^32 - 1 elements),
 * LSK_EVERIFY, and those of launches and transfers.
 */
int lsk_reduce(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset, size_t n,
               void *result /* OUT */, const lsk_algo_options *opt);

/*
 * lsk_reduce_to: the same, without waiting: the result goes to element
 * out_index of out (a device buffer of type), ordered before later work
 * on the context's queue.
 */
int lsk_reduce_to(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset,
                  size_t n, lsk_buffer *out, size_t out_index, const lsk_algo_options *opt);

#ifdef __cplusplus
}
#endif
#endif /* LSK_REDUCE_H */
