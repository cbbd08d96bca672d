/*
 * scan.h: device-wide prefix sums (kernels/scan.cl, reduce-then-scan in
 * three passes; no block waits for another).
 */
#ifndef LSK_SCAN_H
#define LSK_SCAN_H
#include "algo.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum lsk_scan_kind {
  LSK_SCAN_EXCLUSIVE = 0, /* out[i] = in[0] + ... + in[i - 1]; out[0] = 0 */
  LSK_SCAN_INCLUSIVE = 1, /* out[i] = in[0] + ... + in[i] */
} lsk_scan_kind;

/*
 * lsk_scan: prefix sums of elements [in_offset, in_offset + n) of in into
 * [out_offset, out_offset + n) of out, for LSK_TYPE_INT, _UINT (both wrap
 * around) and _FLOAT (see docs/algorithms.md for the rounding), on on's
 * queue. out may be in at the same offset (in place); other overlaps are
 * refused. n = 0 does nothing. opt may be NULL.
 * Enqueues; never blocks.
 * Errors: LSK_EINVAL (NULL, other types, bad kind, overlap, bad options),
 * LSK_ERANGE, and those of launches.
 */
int lsk_scan(lsk_context *ctx, lsk_type type, lsk_scan_kind kind, lsk_buffer *in, size_t in_offset,
             lsk_buffer *out, size_t out_offset, size_t n, const lsk_algo_options *opt,
             const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_SCAN_H */
