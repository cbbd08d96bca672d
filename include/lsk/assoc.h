/*
 * assoc.h: a one-to-many association built on the device by first
 * counting, then filling (kernels/assoc.cl; docs/assoc.md): for n
 * elements with a key each (e.g. hits and their module), the elements
 * grouped by key, with no sort and no lock.
 *
 * A build counts the elements per key with one atomic each, scans the
 * counts into offsets (lsk_scan), then puts each element into its key's
 * range with one atomic each. The result, on the device:
 *   offsets: nkeys + 1 uints; key k's elements are content[offsets[k]]
 *            up to content[offsets[k + 1] - 1]; offsets[nkeys] is the
 *            number stored;
 *   content: the element indices i (0 for the first key of the build's
 *            range, whatever its offset), grouped by key. The ORDER WITHIN
 *            A KEY IS UNSPECIFIED (it follows the atomics) and may change
 *            from build to build; the set of each key is exact.
 * Elements whose key is >= nkeys are skipped, not an error: they are in no
 * range, and lsk_assoc_size counts them.
 *
 * Kernels read a key's elements through lsk_assoc_offsets and
 * lsk_assoc_content and the helpers of cl/lsk_assoc.h (lsk_assoc_begin,
 * lsk_assoc_end, LSK_ASSOC_FOREACH).
 *
 * Limits: nkeys in [1, 2^24], at most 2^28 elements per build and the
 * device's largest buffer. The handle keeps its own device buffers (the
 * counts, the offsets, the content) and reuses them from build to build.
 *
 * Queues: an association keeps no queue. Each build and read names its
 * own (`on`, last; NULL: the default queue). The association remembers its
 * last build's event, and lsk_assoc_range and lsk_assoc_size wait for it,
 * so a read on any queue sees the last build. Its buffers are device
 * scratch of the builds: builds on different queues must be ordered by
 * the caller (on->wait), as must kernels that read the offsets and the
 * content on another queue than the build's.
 *
 * Thread-safety: as for the context (one thread at a time).
 */
#ifndef LSK_ASSOC_H
#define LSK_ASSOC_H
#include "algo.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LSK_ASSOC_MAX_KEYS (1u << 24)
#define LSK_ASSOC_MAX_ELEMENTS (1u << 28)

typedef struct lsk_assoc lsk_assoc;

/* All zeros: the defaults. */
typedef struct lsk_assoc_options {
  /* The shape of the count and fill passes and of the scan (algo.h);
   * results never depend on it. */
  lsk_algo_options algo;
} lsk_assoc_options;

/*
 * lsk_assoc_create: an empty association of nkeys keys (every range
 * empty) with room for capacity elements per build (0 is allowed; see
 * lsk_assoc_reserve). Allocates nkeys + 1 uints twice and capacity uints
 * on the device, the offsets made zero: the association is ready on every
 * queue when it returns, and it waits for no queue. opt may be NULL.
 * Errors: LSK_EINVAL (ctx or out NULL, nkeys 0, bad options), LSK_ERANGE
 * (nkeys above LSK_ASSOC_MAX_KEYS, capacity above LSK_ASSOC_MAX_ELEMENTS
 * or the device's largest buffer), LSK_ENOMEM, and those of buffers and
 * launches. On failure *out is NULL.
 */
int lsk_assoc_create(lsk_context *ctx, size_t nkeys, size_t capacity, const lsk_assoc_options *opt,
                     lsk_assoc **out /* OUT */);

/* Frees the handle and its buffers (work already queued is unaffected:
 * OpenCL keeps the memory until it is done). NULL is allowed. */
void lsk_assoc_destroy(lsk_assoc *a);

/*
 * lsk_assoc_reserve: room for at least capacity elements per build. Grows
 * the content buffer if it is smaller (its content is then lost until the
 * next build, and it waits for the last build, then zeroes the offsets
 * with a blocking write on the default queue), never shrinks it. OpenCL
 * keeps the old content until the work enqueued on it is done.
 * Errors: LSK_EINVAL (a NULL), LSK_ERANGE (as for lsk_assoc_create), and
 * those of buffers.
 */
int lsk_assoc_reserve(lsk_assoc *a, size_t capacity);

/*
 * lsk_assoc_build: the association of elements i in [0, n), element i
 * having the key keys[offset + i] (a buffer of uints of the same context).
 * Replaces the previous build. On on's queue; keys may change once the
 * build is done (later work on that queue is ordered after it, and
 * on->event gets an event of its last command). n = 0 gives an empty
 * association.
 * Enqueues; never blocks.
 * Errors: LSK_EINVAL (a NULL, keys of another context or one of the
 * association's own buffers), LSK_ERANGE (n above the capacity, or the
 * span beyond the keys buffer), and those of launches. After a failure the
 * association is empty or undefined until the next successful build.
 */
int lsk_assoc_build(lsk_assoc *a, lsk_buffer *keys, size_t offset, size_t n, const lsk_async *on);

/*
 * lsk_assoc_build_sorted: lsk_assoc_build for keys that never decrease
 * (elements grouped by key, in key order, as a pipeline that makes them
 * module by module leaves them; keys >= nkeys, skipped, come last). No
 * atomics and no scan: each key's first element is found by a search
 * (a binary search per 16 keys, a galloping one from there to the next
 * key: a probe or two where keys are close, at most about 2 log2(n)
 * whatever the gaps), and each key's elements are stored in element
 * order, so content[i] = i. The offsets are the same as lsk_assoc_build's.
 * A key below the one before it is found on the device: the next wait
 * (lsk_context_finish, a read) returns LSK_EVERIFY naming the element and
 * both keys, and the association is undefined until the next build.
 * Errors: those of lsk_assoc_build.
 * Enqueues; never blocks.
 */
int lsk_assoc_build_sorted(lsk_assoc *a, lsk_buffer *keys, size_t offset, size_t n,
                           const lsk_async *on);

/*
 * lsk_assoc_range: key's elements are content[begin] up to
 * content[end - 1] (end - begin of them). The first call after a build
 * waits for it (whatever queue it ran on) and reads all the offsets back
 * (4 * (nkeys + 1) bytes) on on's queue, later calls are host-only until
 * the next build.
 * Enqueues; blocks.
 * Errors: LSK_EINVAL (a NULL), LSK_ERANGE (key >= nkeys), and those of
 * transfers.
 */
int lsk_assoc_range(lsk_assoc *a, size_t key, size_t *begin /* OUT */, size_t *end /* OUT */,
                    const lsk_async *on);

/*
 * lsk_assoc_size: how many elements the last build stored (offsets[nkeys])
 * and how many it skipped because their key was >= nkeys; either pointer
 * may be NULL. Waits for the build (reads one uint on on's queue).
 * Enqueues; blocks.
 * Errors: LSK_EINVAL (a NULL), and those of transfers.
 */
int lsk_assoc_size(lsk_assoc *a, size_t *stored /* OUT */, size_t *skipped /* OUT */,
                   const lsk_async *on);

/* The device buffers, owned by the handle, for kernels to read (do not
 * write them): nkeys + 1 uints, and at least capacity uints of which the
 * first offsets[nkeys] are defined. Both stay the same buffer until
 * lsk_assoc_reserve grows the content. NULL for a NULL handle. */
lsk_buffer *lsk_assoc_offsets(const lsk_assoc *a);
lsk_buffer *lsk_assoc_content(const lsk_assoc *a);

/* The number of keys and the capacity in elements; 0 for a NULL handle. */
size_t lsk_assoc_nkeys(const lsk_assoc *a);
size_t lsk_assoc_capacity(const lsk_assoc *a);

#ifdef __cplusplus
}
#endif
#endif /* LSK_ASSOC_H */
