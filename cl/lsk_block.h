/*
 * lsk_block.h: block collectives. OpenCL 1.2 has no work-group functions
 * and PoCL and NVIDIA offer no sub-groups, so lsk provides them once,
 * written for any number of workers and any simd width.
 *
 * Every collective:
 *   - must be called by every worker of the block, in uniform control flow
 *     and with the same n (it contains barriers: local memory fences only);
 *   - takes a scratch area of local memory declared at kernel scope with
 *     LSK_BLOCK_SCRATCH(T, name), of the collective's type T;
 *   - returns with the scratch free for the next collective (it ends with a
 *     barrier), so one scratch serves a sequence of calls.
 * With W workers, R = ceil(log2 W) rounds; barriers per call:
 *   reduce, scan, count, any, all   R + 2
 *   bcast                           2
 *   append                          R + 4
 *   reduce_var                      R + 2 (built-in ops, or one step);
 *                                   steps * (R + 2) (LSK_BLOCK_DEFINE ops)
 *   scan_var                        max(steps, 1) * (R + 2)
 * where steps = ceil(n / (W * simd)), the ForEach steps over n. With one
 * worker there are none.
 *
 * Worker-level functions combine one value per worker in worker order:
 *   T lsk_block_reduce_OP_T(s, v)          every worker gets the total
 *   T lsk_block_scan_OP_T(s, v, &total)    exclusive prefix over workers
 *                                          (total may be NULL)
 *   T lsk_block_bcast_T(s, v)              the master's v, to every worker
 * Domain-level functions work on a context variable over [0, n) (see
 * LSK_VAR_N) in domain order, whatever the workers and simd:
 *   T lsk_block_reduce_var_OP_T(s, var, n)
 *   T lsk_block_scan_var_OP_T(s, var, n, inclusive)   in place; returns
 *                                          the block's total
 * OP is add, min or max; T is int, uint, long, ulong, float, and double
 * where the device has it (LSK_HAS_FP64). Integer adds wrap around (signed
 * ones too: they are done on the unsigned bits). Float adds are done in a
 * fixed order for a given (workers, simd), so results are reproducible but
 * may differ in the last bits between shapes. Float min and max ignore
 * NaNs: a NaN counts as the identity, so the result is the smallest
 * (largest) of the other values, +inf (-inf) where every value is a NaN,
 * as lsk_reduce does (docs/algorithms.md, "NaN in min and max"). Adds
 * propagate NaNs as IEEE arithmetic does.
 *
 * Other operations: LSK_BLOCK_DEFINE(NAME, T, op, identity), at file scope,
 * defines the four functions lsk_block_reduce_NAME_T, lsk_block_scan_NAME_T,
 * lsk_block_reduce_var_NAME_T and lsk_block_scan_var_NAME_T for an
 * associative op(a, b): a function or a function-like macro; it need not
 * commute (values are always combined in domain order). T must be one
 * token (uint2, or a typedef'd struct); identity is an expression of type
 * T, or one that converts to it. The collectives give op only plain values
 * (variables, array elements), never a call, so a macro that evaluates an
 * argument twice is fine.
 *
 * The code of the four collectives is written once, in lsk_block_t.h: the
 * built-in operations are its text once per type and operation
 * (lsk_block_ops_t.h, below), so a compiler names its own lines;
 * LSK_BLOCK_DEFINE is the same text as one macro (lsk_block_define.h,
 * generated from it).
 *
 * Helpers of your own that contain a barrier or call a collective: declare
 * them LSK_COLLECTIVE (below).
 */
#ifndef LSK_CL_BLOCK_H
#define LSK_CL_BLOCK_H

#include "lsk_atomic.h"
#include "lsk_block_define.h"
#include "lsk_config.h"
#include "lsk_foreach.h"
#include "lsk_idx.h"
#include "lsk_type.h"

/* Elements of a collective's scratch: double buffering for the tree and the
 * scan. */
#define LSK_BLOCK_SCRATCH_SIZE (2 * LSK_WORKERS)
#define LSK_BLOCK_SCRATCH(T, name) __local T name[LSK_BLOCK_SCRATCH_SIZE]

/*
 * LSK_COLLECTIVE: the qualifier of a helper function that contains a
 * barrier or calls a collective. PoCL turns a work-group into loops between
 * barriers and must see every barrier in the kernel itself: a helper that
 * LLVM declines to inline (a static inline one called twice, say) makes
 * PoCL 3.1's kernel compiler crash. So such helpers are always inlined.
 */
#define LSK_COLLECTIVE LSK_INLINE __attribute__((always_inline))

/* A worker's slot of ForEach step `step` and lane k, and its index. */
#define LSK__SLOT(step, k) ((step)*LSK_SIMD + (k))
#define LSK__INDEX(step, k) ((step)*LSK__STRIDE + lsk_worker() * LSK_SIMD + (k))
/* Whether that index is in [0, n): always in the full steps. */
#define LSK__IN(step, k, n) ((step) < LSK__FULL(n) || LSK__INDEX(step, k) < (n))

/* The name of a collective: LSK__BFN(reduce, add_int) is
 * lsk_block_reduce_add_int (its arguments expanded first). */
#define LSK__BFN(kind, suffix) LSK__BFN_(kind, suffix)
#define LSK__BFN_(kind, suffix) lsk_block_##kind##_##suffix

/* The built-in operations, once per type (lsk_block_ops_t.h, which
 * includes lsk_block_t.h once per operation). The collectives' barrier is
 * lsk_sync_local: none with one worker. */
#define LSK__BTYPE int
#include "lsk_block_ops_t.h"
#define LSK__BTYPE uint
#include "lsk_block_ops_t.h"
#define LSK__BTYPE long
#include "lsk_block_ops_t.h"
#define LSK__BTYPE ulong
#include "lsk_block_ops_t.h"
#define LSK__BTYPE float
#include "lsk_block_ops_t.h"
#ifdef LSK_HAS_FP64
#define LSK__BTYPE double
#include "lsk_block_ops_t.h"
#endif

/* Other operations: the same collectives (lsk_block_t.h) as one macro. */
#define LSK_BLOCK_DEFINE(NAME, T, OP, ID) LSK__BLOCK_DEFINE_E(NAME##_##T, T, OP, ID, 0, 0)

/*
 * Predicates over the workers: how many workers have pred true, whether
 * any or all do. A barrier that also counts. Scratch: LSK_BLOCK_SCRATCH(uint).
 */
LSK_COLLECTIVE uint lsk_block_count(__local uint *s, int pred)
{
  return lsk_block_reduce_add_uint(s, pred ? 1u : 0u);
}
LSK_COLLECTIVE int lsk_block_any(__local uint *s, int pred)
{
  return lsk_block_count(s, pred) != 0;
}
LSK_COLLECTIVE int lsk_block_all(__local uint *s, int pred)
{
  return lsk_block_count(s, pred) == LSK_WORKERS;
}

/*
 * lsk_block_append(s, count, n): the block appends n items per worker (n may
 * differ between workers, and be 0) to a bounded array whose length is
 * *count, with one global atomic for the whole block. Returns this worker's
 * first slot: its items go to slot, slot + 1, ..., slot + n - 1, in worker
 * order, and an item is stored only if its slot is below the capacity. As
 * with lsk_append, the count grows past the capacity so the host sees how
 * many did not fit. Scratch: LSK_BLOCK_SCRATCH(uint).
 * lsk_block_append_ex also gives every worker the block's first slot
 * (*first) and how many items the block appended (*total).
 */
LSK_COLLECTIVE uint lsk_block_append_ex(__local uint *s, volatile __global uint *count, uint n,
                                        uint *first, uint *total)
{
  uint pre = lsk_block_scan_add_uint(s, n, total);
  if (lsk_worker() == 0)
    s[0] = *total ? atomic_add(count, *total) : 0u;
  lsk_sync_local();
  *first = s[0];
  lsk_sync_local();
  return *first + pre;
}

LSK_COLLECTIVE uint lsk_block_append(__local uint *s, volatile __global uint *count, uint n)
{
  uint first, total;
  return lsk_block_append_ex(s, count, n, &first, &total);
}

#endif /* LSK_CL_BLOCK_H */
