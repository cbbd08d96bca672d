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
 * Helpers of your own that contain a barrier or call a collective: declare
 * them LSK_COLLECTIVE (below).
 */
#ifndef LSK_CL_BLOCK_H
#define LSK_CL_BLOCK_H

#include "lsk_atomic.h"
#include "lsk_config.h"
#include "lsk_idx.h"

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

/* The collectives' barrier. One worker has no one to wait for: no barrier
 * then (PoCL 3.1 also fails an assertion on some barriers in branches when
 * a work-group has one work-item). */
LSK_COLLECTIVE void lsk__lsync(void)
{
  if (LSK_WORKERS > 1)
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* A worker's slot of ForEach step `step` and lane k, and its index. */
#define LSK__SLOT(step, k) ((step)*LSK_SIMD + (k))
#define LSK__INDEX(step, k) ((step)*LSK__STRIDE + lsk_worker() * LSK_SIMD + (k))
/* Whether that index is in [0, n): always in the full steps. */
#define LSK__IN(step, k, n) ((step) < LSK__FULL(n) || LSK__INDEX(step, k) < (n))

/*
 * COMMUTES (1 for the built-in operations) lets reduce_var fold each
 * worker's slots of all steps first and combine the workers once; otherwise
 * it combines the workers step by step, which keeps domain order.
 * ENTRY (1 for the built-in min and max) makes each worker's value
 * OP(ID, v) on entry to the worker-level reduce and scan: for floats a NaN
 * becomes the identity there, as it does in the domain-level ones, whose
 * folds start from it. (For integers, and any op with a true identity, it
 * changes nothing.)
 */
#define LSK__BLOCK_DEFINE(NAME, T, OP, ID, COMMUTES)                                               \
  LSK__BLOCK_DEFINE_E(NAME, T, OP, ID, COMMUTES, 0)
#define LSK__BLOCK_DEFINE_E(NAME, T, OP, ID, COMMUTES, ENTRY)                                      \
  /* Pairwise tree, double-buffered: round r combines neighbours (2w,                              \
   * 2w+1) into w, so the order is kept and the active workers stay                                \
   * contiguous; ceil(log2 W) rounds, one barrier each. */                                         \
  LSK_COLLECTIVE T lsk_block_reduce_##NAME##_##T(__local T *s, T v)                                \
  {                                                                                                \
    uint w = lsk_worker();                                                                         \
    __local T *a = s, *b = s + LSK_WORKERS, *t;                                                    \
    if (ENTRY) {                                                                                   \
      T id_ = ID;                                                                                  \
      v = OP(id_, v);                                                                              \
    }                                                                                              \
    a[w] = v;                                                                                      \
    lsk__lsync();                                                                                  \
    for (uint m = LSK_WORKERS; m > 1; m = (m + 1) / 2) {                                           \
      if (w < m / 2)                                                                               \
        b[w] = OP(a[2 * w], a[2 * w + 1]);                                                         \
      else if (2 * w + 1 == m)                                                                     \
        b[w] = a[2 * w];                                                                           \
      lsk__lsync();                                                                                \
      t = a;                                                                                       \
      a = b;                                                                                       \
      b = t;                                                                                       \
    }                                                                                              \
    T r = a[0];                                                                                    \
    lsk__lsync();                                                                                  \
    return r;                                                                                      \
  }                                                                                                \
  /* Hillis-Steele over the workers, double-buffered: one barrier a round. */                      \
  LSK_COLLECTIVE T lsk_block_scan_##NAME##_##T(__local T *s, T v, T *total)                        \
  {                                                                                                \
    uint w = lsk_worker();                                                                         \
    __local T *a = s, *b = s + LSK_WORKERS, *t;                                                    \
    if (ENTRY) {                                                                                   \
      T id_ = ID;                                                                                  \
      v = OP(id_, v);                                                                              \
    }                                                                                              \
    a[w] = v;                                                                                      \
    lsk__lsync();                                                                                  \
    for (uint d = 1; d < LSK_WORKERS; d <<= 1) {                                                   \
      T x = a[w];                                                                                  \
      if (w >= d)                                                                                  \
        x = OP(a[w - d], x);                                                                       \
      b[w] = x;                                                                                    \
      lsk__lsync();                                                                                \
      t = a;                                                                                       \
      a = b;                                                                                       \
      b = t;                                                                                       \
    }                                                                                              \
    T excl = ID;                                                                                   \
    if (w)                                                                                         \
      excl = a[w - 1];                                                                             \
    T tot = a[LSK_WORKERS - 1];                                                                    \
    lsk__lsync();                                                                                  \
    if (total)                                                                                     \
      *total = tot;                                                                                \
    return excl;                                                                                   \
  }                                                                                                \
  LSK_COLLECTIVE T lsk_block_reduce_var_##NAME##_##T(__local T *s, T *var, uint n)                 \
  {                                                                                                \
    T carry = ID;                                                                                  \
    if ((COMMUTES) || LSK__STEPS(n) <= 1) {                                                        \
      for (uint step = 0; step < LSK__STEPS(n); ++step)                                            \
        for (uint k = 0; k < LSK_SIMD; ++k)                                                        \
          if (LSK__IN(step, k, n))                                                                 \
            carry = OP(carry, var[LSK__SLOT(step, k)]);                                            \
      return lsk_block_reduce_##NAME##_##T(s, carry);                                              \
    }                                                                                              \
    for (uint step = 0; step < LSK__STEPS(n); ++step) {                                            \
      T run = ID;                                                                                  \
      for (uint k = 0; k < LSK_SIMD; ++k)                                                          \
        if (LSK__IN(step, k, n))                                                                   \
          run = OP(run, var[LSK__SLOT(step, k)]);                                                  \
      T all = lsk_block_reduce_##NAME##_##T(s, run);                                               \
      carry = OP(carry, all);                                                                      \
    }                                                                                              \
    return carry;                                                                                  \
  }                                                                                                \
  /* Per step: each worker scans its simd lanes, the block scans the                               \
   * workers' sums, and a carry runs from step to step. At least one step,                         \
   * n = 0 too (a scan of identities): where W * simd covers the whole                             \
   * domain, steps is 0 or 1, LLVM turned the loop into a branch around                            \
   * the barriers, and PoCL 3.1 then ran code after the call twice for some                        \
   * work-items (tests/device/check_block.c, scan_var_one_step_rounds). */                         \
  LSK_COLLECTIVE T lsk_block_scan_var_##NAME##_##T(__local T *s, T *var, uint n, int inclusive)    \
  {                                                                                                \
    T carry = ID;                                                                                  \
    for (uint step = 0; step < max(LSK__STEPS(n), 1u); ++step) {                                   \
      T run = ID;                                                                                  \
      for (uint k = 0; k < LSK_SIMD; ++k)                                                          \
        if (LSK__IN(step, k, n)) {                                                                 \
          T x = var[LSK__SLOT(step, k)];                                                           \
          T next = OP(run, x);                                                                     \
          var[LSK__SLOT(step, k)] = inclusive ? next : run;                                        \
          run = next;                                                                              \
        }                                                                                          \
      T tot;                                                                                       \
      T pre = lsk_block_scan_##NAME##_##T(s, run, &tot);                                           \
      pre = OP(carry, pre);                                                                        \
      for (uint k = 0; k < LSK_SIMD; ++k)                                                          \
        if (LSK__IN(step, k, n))                                                                   \
          var[LSK__SLOT(step, k)] = OP(pre, var[LSK__SLOT(step, k)]);                              \
      carry = OP(carry, tot);                                                                      \
    }                                                                                              \
    return carry;                                                                                  \
  }

#define LSK_BLOCK_DEFINE(NAME, T, OP, ID) LSK__BLOCK_DEFINE(NAME, T, OP, ID, 0)

/* Signed adds on the unsigned bits: they wrap, where a signed overflow
 * would be undefined behaviour. */
#define lsk__add_int(a, b) as_int(as_uint(a) + as_uint(b))
#define lsk__add_long(a, b) as_long(as_ulong(a) + as_ulong(b))

/* The built-in operations. */
#define LSK__BLOCK_OPS(T, ADD, MINID, MAXID)                                                       \
  LSK__BLOCK_DEFINE(add, T, ADD, 0, 1)                                                             \
  LSK__BLOCK_DEFINE_E(min, T, lsk__op_min, MINID, 1, 1)                                            \
  LSK__BLOCK_DEFINE_E(max, T, lsk__op_max, MAXID, 1, 1)                                            \
  LSK_COLLECTIVE T lsk_block_bcast_##T(__local T *s, T v)                                          \
  {                                                                                                \
    if (lsk_worker() == 0)                                                                         \
      s[0] = v;                                                                                    \
    lsk__lsync();                                                                                  \
    T r = s[0];                                                                                    \
    lsk__lsync();                                                                                  \
    return r;                                                                                      \
  }

LSK__BLOCK_OPS(int, lsk__add_int, INT_MAX, INT_MIN)
LSK__BLOCK_OPS(uint, lsk__op_add, UINT_MAX, 0)
LSK__BLOCK_OPS(long, lsk__add_long, LONG_MAX, LONG_MIN)
LSK__BLOCK_OPS(ulong, lsk__op_add, ULONG_MAX, 0)
LSK__BLOCK_OPS(float, lsk__op_add, INFINITY, -INFINITY)
#ifdef LSK_HAS_FP64
LSK__BLOCK_OPS(double, lsk__op_add, (double)INFINITY, -(double)INFINITY)
#endif

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
  lsk__lsync();
  *first = s[0];
  lsk__lsync();
  return *first + pre;
}

LSK_COLLECTIVE uint lsk_block_append(__local uint *s, volatile __global uint *count, uint n)
{
  uint first, total;
  return lsk_block_append_ex(s, count, n, &first, &total);
}

#endif /* LSK_CL_BLOCK_H */
