/*
 * algo/algo.h: the kernel library's shared parts (algo.c), for its
 * algorithms and for the mem layer's kernels: the families of kernels/,
 * their kernels kept per context, the library's lock, scratch buffers,
 * the queue and wait list of a call, argument checks, and the plan of a
 * device-wide pass. Not installed.
 */
#ifndef LSK_ALGO_ALGO_H
#define LSK_ALGO_ALGO_H

#include "launch/launch.h"
#include "soa/soa.h"

/* The kernel library's programs, one per file of kernels/ (the CMake list
 * LSK_KERNEL_FAMILIES must name the same files); compact is built per
 * compactor only, with the user's predicate (compact.c). */
#define LSK__LIB_MAP(XX)                                                                           \
  XX(REDUCE, reduce)                                                                               \
  XX(SCAN, scan)                                                                                   \
  XX(COMPACT, compact)                                                                             \
  XX(POOL, pool)                                                                                   \
  XX(ASSOC, assoc) XX(RANDOM, random) XX(HISTOGRAM, histogram) XX(GRID, grid) XX(SORT, sort)
typedef enum lsk__lib {
#define XX(ID, name) LSK__LIB_##ID,
  LSK__LIB_MAP(XX)
#undef XX
      LSK__LIB_COUNT
} lsk__lib;
/* The kernel library's recursive lock on ctx, held by each library call
 * that uses what the library keeps per context (its programs and kernels,
 * the scratch buffers) from its first check to its last enqueue or read,
 * so that library calls from several threads on one context do not
 * clobber each other. Taken before the context's lock (lsk__lock), never
 * while holding it. lsk__lib_lock fails (LSK_ENOMEM, message set) only
 * where the library's state cannot be made. */
int lsk__lib_lock(lsk_context *ctx);
void lsk__lib_unlock(lsk_context *ctx);

/* The kernel name of family, made and kept by the context on first use. */
int lsk__lib_kernel(lsk_context *ctx, lsk__lib family, const char *name, lsk_kernel **out);
/* The same in family's build with options, the -D options of the type it
 * is built for ("-DLSK_T=float"; the family's file names them): one
 * program per family and options, made and kept by the context on first
 * use. lsk__lib_kernel is the build with none. */
int lsk__lib_kernel_for(lsk_context *ctx, lsk__lib family, const char *options, const char *name,
                        lsk_kernel **out);
/* reduce.c: lsk_reduce_<op>_<type>, in its build (scan.c's sums too). */
int lsk__reduce_kernel(lsk_context *ctx, lsk_type type, lsk_op op, lsk_kernel **out);
/* A temporary buffer of at least bytes for a call on q, from the buffer
 * cache (a later call on q reuses it at once; another queue only once q
 * is past this call). Free it on q when the call's last use is enqueued. */
int lsk__scratch(lsk_context *ctx, lsk_queue *q, size_t bytes, lsk_buffer **out);
void lsk__scratch_free(lsk_buffer *buf, lsk_queue *q);
/* The queue and wait list of a library call (its `on`): begin resolves it
 * and holds the call's first command until the wait list is complete (a
 * marker); end, on success, gives the caller an event for the call's last
 * command (a marker) where asked, and returns rc otherwise. */
int lsk__lib_begin(lsk_context *ctx, const lsk_async *on, const char *fn, lsk__on *o);
/* The first line of every library call that takes options: the event it
 * may give is NULL until it does (a call failing early leaves no stale
 * handle for the caller to release). */
static inline void lsk__lib_clear(const lsk_async *on)
{
  if (on && on->event)
    *on->event = NULL;
}
int lsk__lib_end(lsk_context *ctx, lsk__on *o, int rc, const char *fn);
/* The same for a call that reads results back to the host (the pool's,
 * the lists', the sparse fields' reads): begin also waits for every other
 * queue of the context (kernels on any queue may have written what it
 * reads; its own queue's order keeps its commands behind its earlier
 * work) and enqueues the reads of its queue's verify records, not waited
 * for (v); end, after the call's own blocking read, reports what they
 * found (lsk__verify_done), then ends as lsk__lib_end. So a read's
 * commands follow the queue's work on the device with no round trip to
 * the host before them. Every read_begin needs its read_end, even after
 * a failure: the records' reads write into v. */
int lsk__lib_read_begin(lsk_context *ctx, const lsk_async *on, const char *fn, lsk__on *o,
                        lsk__vcheck *v);
int lsk__lib_read_end(lsk_context *ctx, lsk__on *o, lsk__vcheck *v, int rc, const char *fn);
/* Checks that buf holds elements [offset, offset + n) of elem bytes and
 * that offset + n fits 32 bits (kernels index with uint). */
int lsk__check_span(lsk_context *ctx, const char *fn, const char *what, const lsk_buffer *buf,
                    size_t offset, size_t n, size_t elem);
/* A device-wide pass over n elements: tiles of `tile` elements (the block
 * domain), blocks of per_block consecutive tiles each; fn, the library
 * call it serves, names that call in its launches' messages. */
typedef struct lsk__plan {
  const char *fn;
  unsigned tile, workers, simd;
  size_t tiles, blocks, per_block;
} lsk__plan;
int lsk__algo_plan(lsk_context *ctx, const char *fn, size_t n, const lsk_algo_options *opt,
                   lsk__plan *p);
/* Whether a routine with a CPU path (one work-item per contiguous
 * segment, loops as long as a segment: compact.c, scan.c) takes it: the
 * environment variable env when set (1 the CPU path, 0 the lockstep path,
 * on any device: the tests run both under oclgrind, whose device is a
 * GPU), else on devices that are no GPU and run loops of any length (not
 * llvmpipe). */
int lsk__algo_cpu_path(lsk_context *ctx, const char *env);
/* A CPU path's launch for kernel k over n elements (p's plan): the
 * kernel's workers, the caller's blocks, else 4 per compute unit and each
 * segment at least 4096 elements (measured for compact and scan on PoCL,
 * 2026-11-27); *nseg = blocks x workers, refused with LSK_ERANGE past
 * max_segs, fn naming the call. */
int lsk__algo_segments(lsk_context *ctx, const char *fn, lsk_kernel *k, const lsk__plan *p,
                       const lsk_algo_options *opt, size_t n, size_t max_segs, lsk_launch *l,
                       size_t *nseg);
/* scan.c: lsk_scan on queue q (a library call's), its messages naming fn. */
int lsk__scan_q(lsk_context *ctx, lsk_queue *q, const char *fn, lsk_type type, lsk_scan_kind kind,
                lsk_buffer *in, size_t in_offset, lsk_buffer *out, size_t out_offset, size_t n,
                const lsk_algo_options *opt);
/* scan.c, for the tests: the look-back path forced (the device must have
 * 64-bit atomics), its ticket and tile states in cells (at least tiles + 1
 * 64-bit words, left as the kernel leaves them) instead of scratch; on
 * the default queue, no checks of the arguments. */
int lsk__scan_lookback(lsk_context *ctx, lsk_type type, lsk_scan_kind kind, lsk_buffer *in,
                       size_t in_offset, lsk_buffer *out, size_t out_offset, size_t n,
                       const lsk_algo_options *opt, lsk_buffer *cells);
/* reduce.c: "add", "min", "max" (kernel name parts); NULL for a bad op. */
const char *lsk__op_name(lsk_op op);
/* LSK_EINVAL unless type is in allowed (a mask of 1 << type) and, for
 * double, the device has fp64. */
int lsk__check_type(lsk_context *ctx, const char *fn, lsk_type type, unsigned allowed);
/* A host value's size (what) against the type's: LSK_EINVAL "fn: what 8
 * does not match LSK_TYPE_FLOAT (4 bytes)" when they differ. */
int lsk__check_result_size(lsk_context *ctx, const char *fn, const char *what, lsk_type type,
                           size_t size);
/* The launch of the plan's kernels with the given number of blocks. */
lsk_launch lsk__plan_launch(const lsk__plan *p, size_t blocks);

#endif /* LSK_ALGO_ALGO_H */
