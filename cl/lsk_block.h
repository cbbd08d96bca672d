/*
 * lsk_block.h: block collectives. OpenCL 1.2 has no work-group functions
 * and PoCL and NVIDIA offer no sub-groups, so lsk provides them once,
 * written for any number of workers and any simd width.
 *
 * Every collective:
 *   - must be called by every worker of the block, in uniform control flow
 *     (it contains barriers: local memory fences only);
 *   - takes a scratch area of local memory declared at kernel scope with
 *     LSK_BLOCK_SCRATCH(T, name), of the collective's type T;
 *   - returns with the scratch free for the next collective (it ends with a
 *     barrier), so one scratch serves a sequence of calls.
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
 * where the device has it (LSK_HAS_FP64). Integer adds wrap around; float
 * adds are done in a fixed order for a given (workers, simd), so results
 * are reproducible but may differ in the last bits between shapes.
 *
 * Other operations: LSK_BLOCK_DEFINE(NAME, T, op, identity), at file scope,
 * defines the four functions lsk_block_reduce_NAME_T, lsk_block_scan_NAME_T,
 * lsk_block_reduce_var_NAME_T and lsk_block_scan_var_NAME_T for an
 * associative op(a, b): a function or a function-like macro; it need not
 * commute (values are always combined in domain order).
 */
#ifndef LSK_BLOCK_H
#define LSK_BLOCK_H

/* Elements of a collective's scratch: double buffering for the scan. */
#define LSK_BLOCK_SCRATCH_SIZE (2 * LSK_WORKERS)
#define LSK_BLOCK_SCRATCH(T, name) __local T name[LSK_BLOCK_SCRATCH_SIZE]

/* The smallest power of two >= LSK_WORKERS, for the reduction tree. */
#define LSK__P2A(x) ((x) | ((x) >> 1))
#define LSK__P2B(x) (LSK__P2A(x) | (LSK__P2A(x) >> 2))
#define LSK__P2C(x) (LSK__P2B(x) | (LSK__P2B(x) >> 4))
#define LSK__P2D(x) (LSK__P2C(x) | (LSK__P2C(x) >> 8))
#define LSK__POW2_WORKERS ((LSK__P2D(LSK_WORKERS - 1u) | (LSK__P2D(LSK_WORKERS - 1u) >> 16)) + 1u)

LSK_INLINE void lsk__lsync(void) { barrier(CLK_LOCAL_MEM_FENCE); }

/* A worker's slot of ForEach step `step` and lane k, and its index. */
#define LSK__SLOT(step, k) ((step) * LSK_SIMD + (k))
#define LSK__INDEX(step, k) ((step) * LSK__STRIDE + lsk_worker() * LSK_SIMD + (k))
/* Whether that index is in [0, n): always in the full steps. */
#define LSK__IN(step, k, n) ((step) < LSK__FULL(n) || LSK__INDEX(step, k) < (n))

#define LSK_BLOCK_DEFINE(NAME, T, OP, ID)                                    \
  /* Tree over the workers' values: log2(workers) barriers. */                \
  LSK_INLINE T lsk_block_reduce_##NAME##_##T(__local T *s, T v)                              \
  {                                                                            \
    uint w = lsk_worker();                                                     \
    s[w] = v;                                                                  \
    lsk__lsync();                                                              \
    for (uint h = LSK__POW2_WORKERS / 2; h > 0; h >>= 1) {                     \
      if (w < h && w + h < LSK_WORKERS)                                        \
        s[w] = OP(s[w], s[w + h]);                                             \
      lsk__lsync();                                                            \
    }                                                                          \
    T r = s[0];                                                                \
    lsk__lsync();                                                              \
    return r;                                                                  \
  }                                                                            \
  /* Hillis-Steele over the workers, double-buffered: one barrier a round. */ \
  LSK_INLINE T lsk_block_scan_##NAME##_##T(__local T *s, T v, T *total)                      \
  {                                                                            \
    uint w = lsk_worker();                                                     \
    __local T *a = s, *b = s + LSK_WORKERS, *t;                                \
    a[w] = v;                                                                  \
    lsk__lsync();                                                              \
    for (uint d = 1; d < LSK_WORKERS; d <<= 1) {                               \
      T x = a[w];                                                              \
      if (w >= d)                                                              \
        x = OP(a[w - d], x);                                                   \
      b[w] = x;                                                                \
      lsk__lsync();                                                            \
      t = a;                                                                   \
      a = b;                                                                   \
      b = t;                                                                   \
    }                                                                          \
    T excl = w ? a[w - 1] : (T)(ID);                                           \
    T tot = a[LSK_WORKERS - 1];                                                \
    lsk__lsync();                                                              \
    if (total)                                                                 \
      *total = tot;                                                            \
    return excl;                                                               \
  }                                                                            \
  LSK_INLINE T lsk_block_reduce_var_##NAME##_##T(__local T *s, T *var, uint n)               \
  {                                                                            \
    T acc = (T)(ID);                                                           \
    for (uint step = 0; step < LSK__STEPS(n); ++step)                          \
      for (uint k = 0; k < LSK_SIMD; ++k)                                      \
        if (LSK__IN(step, k, n))                                           \
          acc = OP(acc, var[LSK__SLOT(step, k)]);                              \
    return lsk_block_reduce_##NAME##_##T(s, acc);                                            \
  }                                                                            \
  /* Per step: each worker scans its simd lanes, the block scans the       \
   * workers' sums, and a carry runs from step to step. */                     \
  LSK_INLINE T lsk_block_scan_var_##NAME##_##T(__local T *s, T *var, uint n, int inclusive)  \
  {                                                                            \
    T carry = (T)(ID);                                                         \
    for (uint step = 0; step < LSK__STEPS(n); ++step) {                        \
      T run = (T)(ID);                                                         \
      for (uint k = 0; k < LSK_SIMD; ++k)                                      \
        if (LSK__IN(step, k, n)) {                                         \
          T x = var[LSK__SLOT(step, k)];                                       \
          T next = OP(run, x);                                                 \
          var[LSK__SLOT(step, k)] = inclusive ? next : run;                    \
          run = next;                                                          \
        }                                                                      \
      T tot;                                                                   \
      T pre = OP(carry, lsk_block_scan_##NAME##_##T(s, run, &tot));                          \
      for (uint k = 0; k < LSK_SIMD; ++k)                                      \
        if (LSK__IN(step, k, n))                                           \
          var[LSK__SLOT(step, k)] = OP(pre, var[LSK__SLOT(step, k)]);          \
      carry = OP(carry, tot);                                                  \
    }                                                                          \
    return carry;                                                              \
  }

/* The built-in operations. */
#define LSK__BLOCK_OPS(T, MINID, MAXID)                                        \
  LSK_BLOCK_DEFINE(add, T, lsk__op_add, 0)                                     \
  LSK_BLOCK_DEFINE(min, T, lsk__op_min, MINID)                                 \
  LSK_BLOCK_DEFINE(max, T, lsk__op_max, MAXID)                                 \
  LSK_INLINE T lsk_block_bcast_##T(__local T *s, T v)                          \
  {                                                                            \
    if (lsk_worker() == 0)                                                     \
      s[0] = v;                                                                \
    lsk__lsync();                                                              \
    T r = s[0];                                                                \
    lsk__lsync();                                                              \
    return r;                                                                  \
  }

LSK__BLOCK_OPS(int, INT_MAX, INT_MIN)
LSK__BLOCK_OPS(uint, UINT_MAX, 0)
LSK__BLOCK_OPS(long, LONG_MAX, LONG_MIN)
LSK__BLOCK_OPS(ulong, ULONG_MAX, 0)
LSK__BLOCK_OPS(float, INFINITY, -INFINITY)
#ifdef LSK_HAS_FP64
LSK__BLOCK_OPS(double, (double)INFINITY, -(double)INFINITY)
#endif

/*
 * Predicates over the workers: how many workers have pred true, whether
 * any or all do. A barrier that also counts. Scratch: LSK_BLOCK_SCRATCH(uint).
 */
LSK_INLINE uint lsk_block_count(__local uint *s, int pred)
{
  return lsk_block_reduce_add_uint(s, pred ? 1u : 0u);
}
LSK_INLINE int lsk_block_any(__local uint *s, int pred) { return lsk_block_count(s, pred) != 0; }
LSK_INLINE int lsk_block_all(__local uint *s, int pred)
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
 */
LSK_INLINE uint lsk_block_append(__local uint *s, volatile __global uint *count, uint n)
{
  uint total;
  uint pre = lsk_block_scan_add_uint(s, n, &total);
  if (lsk_worker() == 0)
    s[0] = total ? atomic_add(count, total) : 0u;
  lsk__lsync();
  uint base = s[0];
  lsk__lsync();
  return base + pre;
}

#endif /* LSK_BLOCK_H */
