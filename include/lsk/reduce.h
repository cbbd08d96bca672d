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
 * op, and wait for the result, written to *result, result_size bytes,
 * which must be lsk_type_size(type) (LSK_REDUCE below fills in both from
 * the result's C type). An empty range gives the operation's identity: 0 for a sum, the
 * type's largest value (+inf for floats) for min, its smallest (-inf) for
 * max. Float min and max ignore NaNs, as fmin and fmax do: the result is
 * the smallest (largest) value that is not a NaN, and the identity, +inf
 * (-inf), where every value is a NaN. A float sum with a NaN is a NaN.
 * opt may be NULL. Device verify failures of on's queue are reported.
 * Enqueues; blocks.
 * Errors: LSK_EINVAL (NULL, bad type or op, double without fp64, a
 * result_size other than the type's, bad options), LSK_ERANGE (the range
 * exceeds the buffer or 2^32 - 1 elements), LSK_EVERIFY, and those of
 * launches and transfers.
 */
int lsk_reduce(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset, size_t n,
               void *result /* OUT */, size_t result_size, const lsk_algo_options *opt,
               const lsk_async *on);

/*
 * LSK_REDUCE: lsk_reduce with the type and result_size taken from
 * result, a pointer to one of the types LSK_TYPE_OF (algo.h) knows:
 *   long long sum; LSK_REDUCE(ctx, LSK_OP_SUM, buf, 0, n, &sum, NULL, NULL);
 */
#define LSK_REDUCE(ctx, op, in, offset, n, result, opt, on)                                        \
  lsk_reduce((ctx), LSK_TYPE_OF(result), (op), (in), (offset), (n), (result), sizeof *(result),    \
             (opt), (on))

/*
 * lsk_reduce_to: the same, without waiting: the result goes to element
 * out_index of out (a device buffer of type), ordered before later work
 * on on's queue.
 * Enqueues; never blocks.
 */
int lsk_reduce_to(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset,
                  size_t n, lsk_buffer *out, size_t out_index, const lsk_algo_options *opt,
                  const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_REDUCE_H */
