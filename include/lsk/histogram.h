/*
 * histogram.h: counts of keys or values in bins (kernels/histogram.cl).
 *
 * One pass of blocks over tiles. A block counts its tiles into a histogram
 * of its own in local memory and adds it to the output with one global
 * atomic per nonzero bin, when the bins fit the device's local memory
 * beside the kernel's own; otherwise every element is one global atomic.
 * No block waits for another. See docs/histogram.md.
 */
#ifndef LSK_HISTOGRAM_H
#define LSK_HISTOGRAM_H

#include <stddef.h>

#include "algo.h"
#include "buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The counters past the nbins bins of each histogram: lsk_histogram_uint
 * writes LSK_HISTOGRAM_UINT_EXTRA of them, lsk_histogram_real
 * LSK_HISTOGRAM_REAL_EXTRA, at these positions after the bins. */
#define LSK_HISTOGRAM_UINT_EXTRA 1
#define LSK_HISTOGRAM_OUT_OF_RANGE 0 /* uint: keys >= nbins */
#define LSK_HISTOGRAM_REAL_EXTRA 3
#define LSK_HISTOGRAM_BELOW 0 /* real: values < lo (-inf too) */
#define LSK_HISTOGRAM_ABOVE 1 /* real: values >= hi (+inf too) */
#define LSK_HISTOGRAM_NAN 2   /* real: NaNs, whatever their sign or payload */

/*
 * lsk_histogram_uint: counts of the uint keys [offset, offset + n) of keys
 * into bins_out (uint), overwriting elements [out_offset, out_offset +
 * nbins + 1): key k < nbins counts in element out_offset + k, every key
 * >= nbins in element out_offset + nbins (LSK_HISTOGRAM_OUT_OF_RANGE). The
 * counters are zeroed first, on the same queue, by a kernel; counts wrap
 * around past 2^32 - 1 (they cannot: n < 2^32). The result never depends
 * on opt's shape. On on's queue, like lsk_scan: read bins_out (or
 * lsk_queue_finish) to wait. n = 0 zeroes the counters.
 * Enqueues; never blocks.
 * Errors: LSK_EINVAL (NULL, wrong or dead handles, nbins 0, bad options),
 * LSK_ERANGE (a span past its buffer's end or 2^32 - 1 elements, nbins +
 * 1 past 2^32 - 1), LSK_ELAUNCH, LSK_EBUILD, OpenCL codes.
 */
int lsk_histogram_uint(lsk_context *ctx, lsk_buffer *keys, size_t offset, size_t n, size_t nbins,
                       lsk_buffer *bins_out, size_t out_offset, const lsk_algo_options *opt,
                       const lsk_async *on);

/*
 * lsk_histogram_real: counts of the values [offset, offset + n) of values,
 * of type (LSK_TYPE_FLOAT or LSK_TYPE_DOUBLE), in nbins bins of equal
 * width over [lo, hi), into elements [out_offset, out_offset + nbins + 3)
 * of bins_out (uint), overwritten as lsk_histogram_uint does. In the
 * type's precision, with scale = (T)nbins / (hi - lo) rounded once on the
 * host (IEEE division), a value v counts in
 *   out_offset + nbins + LSK_HISTOGRAM_NAN    if v is a NaN,
 *   out_offset + nbins + LSK_HISTOGRAM_BELOW  if v < lo,
 *   out_offset + nbins + LSK_HISTOGRAM_ABOVE  if v >= hi,
 *   out_offset + min((uint)floor((v - lo) * scale), nbins - 1) otherwise:
 * a subtraction and a multiplication, each rounded once (no fused
 * multiply-add), so a C program computes the same bin bit for bit; the
 * min keeps a v just below hi out of bin nbins when the product rounds up
 * to nbins. -0.0 is 0 (lo = 0: bin 0). On a device that flushes
 * subnormal floats to zero, v - lo in the subnormal range may bin apart.
 * Errors: those of lsk_histogram_uint, and LSK_EINVAL for a type other
 * than the two, double without fp64, lo or hi not finite, lo >= hi, hi -
 * lo or the scale not finite in the type (lo and hi are converted to the
 * type first).
 * Enqueues; never blocks.
 */
int lsk_histogram_real(lsk_context *ctx, lsk_type type, lsk_buffer *values, size_t offset, size_t n,
                       double lo, double hi, size_t nbins, lsk_buffer *bins_out, size_t out_offset,
                       const lsk_algo_options *opt, const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_HISTOGRAM_H */
