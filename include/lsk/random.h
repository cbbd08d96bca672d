/*
 * random.h: buffers filled with counter-based random numbers
 * (Philox4x32-10; the device functions are in cl/lsk_random.h).
 */
#ifndef LSK_RANDOM_H
#define LSK_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "algo.h"
#include "buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lsk_random_dist {
  LSK_RANDOM_UNIFORM = 0, /* uint: raw 32-bit words; float, double: [0, 1) */
  LSK_RANDOM_NORMAL = 1   /* float, double: standard normal (Box-Muller) */
} lsk_random_dist;

/*
 * lsk_random_fill: elements [offset, offset + n) of out, of type
 * (LSK_TYPE_UINT, LSK_TYPE_FLOAT or LSK_TYPE_DOUBLE), filled with random
 * numbers of dist from seed and stream. Element j (its position in the
 * buffer) depends on (seed, stream, j) alone: the same values whatever the
 * launch shape (opt) or the device, and a fill split in parts gives what
 * one fill gives. They equal, on the device, what a kernel computes with
 * cl/lsk_random.h: for uint and uniform float, word j % 4 of
 * lsk_random4(seed, stream, j / 4, 0); for a normal float and a uniform
 * double, words 2 (j % 2) and 2 (j % 2) + 1 of lsk_random4(seed, stream,
 * j / 2, 0); for a normal double, lsk_random4(seed, stream, j, 0).
 * On on's queue, like lsk_scan: read out (or lsk_queue_finish) to wait.
 * n = 0 does nothing.
 * Enqueues; never blocks.
 * Errors: LSK_EINVAL (NULL, wrong or dead handles, a type other than the
 * three, double without fp64, LSK_RANDOM_NORMAL for uint, a dist that is
 * neither), LSK_ERANGE (the elements pass the buffer's end or 2^32),
 * LSK_ELAUNCH, LSK_EBUILD, OpenCL codes.
 */
int lsk_random_fill(lsk_context *ctx, lsk_buffer *out, size_t offset, size_t n, lsk_type type,
                    lsk_random_dist dist, uint64_t seed, uint32_t stream,
                    const lsk_algo_options *opt, const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_RANDOM_H */
