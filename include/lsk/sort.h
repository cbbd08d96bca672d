/*
 * sort.h: stable radix sort of keys, alone or with a uint value each
 * (kernels/sort.cl).
 *
 * LSD passes over digits of the keys: per segment (a contiguous run of
 * elements per work-item) the counts of each digit, one scan of those
 * counts, a stable scatter. A pass whose digit is the same for every key
 * is skipped. No block waits for another. See docs/sort.md.
 */
#ifndef LSK_SORT_H
#define LSK_SORT_H

#include <stddef.h>

#include "algo.h"
#include "buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* All zeros means the defaults: ascending, automatic digits and shape. */
typedef struct lsk_sort_options {
  /* Nonzero: largest key first. Equal keys keep their input order either
   * way, and NaNs come last either way. */
  int descending;
  /* Bits per digit, 1 to 16 (a pass per digit); 0: the device's choice,
   * 11 on CPUs and 8 on GPUs, or fewer: the most whose 2^bits + 1 counters
   * per worker fit in half the local memory. For tests and tuning: the
   * result never depends on it. */
  unsigned digit_bits;
  /* The shape of the passes (algo.h), which the result never depends on. */
  lsk_algo_options algo;
} lsk_sort_options;

/* The largest digit_bits. */
#define LSK_SORT_MAX_DIGIT_BITS 16

/*
 * lsk_sort: sorts the n keys [0, n) of keys, of type type (any lsk_type;
 * double needs fp64), ascending unless opt->descending. Stable: equal keys
 * keep their input order. Into out_keys [0, n) (keys unchanged), or in
 * place where out_keys is NULL or keys. The order:
 *   - integers by value;
 *   - float and double in IEEE 754 total order, except NaNs: -inf < ... <
 *     -0.0 < +0.0 < ... < +inf, so -0.0 comes before +0.0 (after it when
 *     descending);
 *   - NaNs, whatever their sign and payload, after every other key in
 *     both directions, in their input order, their bits unchanged.
 * On on's queue, like lsk_scan: read the output (or lsk_queue_finish) to
 * wait. Temporary
 * device memory: n keys (n uints more with values) and the counters, from
 * the buffer cache. n = 0 does nothing. opt may be NULL.
 * Errors: LSK_EINVAL (NULL, wrong or dead handles, a type that is not an
 * lsk_type, double without fp64, bad options), LSK_ERANGE (n past a
 * buffer's end or 2^32 - 1), LSK_ELAUNCH
 * (digit_bits whose counters do not fit the device's local memory with
 * the launch's workers), LSK_EBUILD, OpenCL codes.
 * Enqueues; never blocks.
 */
int lsk_sort(lsk_context *ctx, lsk_type type, lsk_buffer *keys, size_t n, lsk_buffer *out_keys,
             const lsk_sort_options *opt, const lsk_async *on);

/*
 * lsk_sort_by_key: the same, and values [0, n) (uint) move with their
 * keys: out_values[i] is the value that came with out_keys[i]. Values
 * 0, 1, ..., n - 1 give the permutation (the stable argsort). In place
 * where out_keys and out_values are both NULL (or keys and values), else
 * into both. keys, values, out_keys and out_values must be distinct
 * buffers (but for the in-place spelling).
 * Errors: those of lsk_sort, and LSK_EINVAL for values NULL, a buffer
 * given twice, one output NULL and not the other.
 * Enqueues; never blocks.
 */
int lsk_sort_by_key(lsk_context *ctx, lsk_type type, lsk_buffer *keys, lsk_buffer *values, size_t n,
                    lsk_buffer *out_keys, lsk_buffer *out_values, const lsk_sort_options *opt,
                    const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_SORT_H */
