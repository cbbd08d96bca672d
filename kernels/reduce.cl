/*
 * reduce.cl: device-wide reductions (sum, min, max) in two passes. Pass 1:
 * each block folds its run of consecutive tiles into one value per block;
 * pass 2: one block folds those values. No block waits for another: the
 * host orders the passes.
 *
 * The barrier at the end of each tile is for CPU back-ends: PoCL runs the
 * code between two barriers one work-item after the other, so without it
 * worker 0 would read its part of every tile before worker 1 starts, and
 * the block's reads would stop being contiguous.
 *
 * The order of a float sum is fixed for a given shape, so a sum is the
 * same from run to run.
 */

/* Integer sums accumulate in the unsigned type of the same size, where
 * wrapping around is defined; min and max in the type itself. */
#define lsk__vmin(a, b) select((a), (b), (b) < (a))
#define lsk__vmax(a, b) select((a), (b), (a) < (b))

/*
 * The vector path: when each worker's lanes of a step are 8-aligned runs
 * and every step of a full tile is full (the CPU shapes), a worker folds
 * its lanes 8 at a time into an 8-wide accumulator with vload8: on CPUs
 * this is one vector load and one vector add per 8 elements, with no
 * context variable in memory between the tile loop's barriers. Elements of
 * a partial last tile go to a scalar accumulator. Otherwise (GPU shapes),
 * each worker keeps one accumulator per slot, a context variable, so the
 * loop carries no dependency from one index to the next either.
 */
#define LSK__REDUCE_VEC (LSK_SIMD % 8 == 0 && LSK_DOMAIN_SIZE % LSK__STRIDE == 0)

/* lsk_reduce_OP_T(in, base, n, per_block, out, out_index): block b folds
 * in[base + i] for i in tiles [b * per_block, (b + 1) * per_block) of
 * LSK_DOMAIN_SIZE elements, below n, into out[out_index + b]. AT is the
 * type the fold works in. (The block reduction's names are pasted in
 * LSK__REDUCE_KERNEL: passed on as bare min or max, they would expand as
 * the built-in's macro on some implementations.) */
#if LSK__REDUCE_VEC
#define LSK__REDUCE_BODY(RED, REDVAR, T, AT, OP, VOP, ID)                              \
  AT##8 acc8 = (AT##8)(ID);                                                    \
  AT tail = (AT)(ID);                                                          \
  for (uint t = first; t < end; ++t) {                                         \
    __global const T *tile = src + (size_t)t * LSK_DOMAIN_SIZE;                \
    uint left = t < full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;          \
    for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {          \
      uint i0 = LSK__INDEX(step, 0);                                           \
      if (i0 + LSK_SIMD <= left) {                                             \
        for (uint k = 0; k < LSK_SIMD; k += 8) {                               \
          AT##8 x = as_##AT##8(vload8(0, tile + i0 + k));                      \
          acc8 = VOP(acc8, x);                                                 \
        }                                                                      \
      } else {                                                                 \
        for (uint k = 0; k < LSK_SIMD; ++k)                                    \
          if (i0 + k < left) {                                                 \
            AT x = as_##AT(tile[i0 + k]);                                      \
            tail = OP(tail, x);                                                \
          }                                                                    \
      }                                                                        \
    }                                                                          \
    lsk_sync();                                                                \
  }                                                                            \
  AT##4 h4 = VOP(acc8.lo, acc8.hi);                                            \
  AT##2 h2 = VOP(h4.lo, h4.hi);                                                \
  AT h1 = OP(h2.x, h2.y);                                                      \
  AT mine = OP(h1, tail);                                                      \
  AT r = RED(scratch, mine);
#else
#define LSK__REDUCE_BODY(RED, REDVAR, T, AT, OP, VOP, ID)                              \
  LSK_VAR(AT, acc);                                                            \
  LSK_FOREACH(it) LSK_VAR_AT(acc, it) = (AT)(ID);                              \
  for (uint t = first; t < end; ++t) {                                         \
    __global const T *tile = src + (size_t)t * LSK_DOMAIN_SIZE;                \
    uint left = t < full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;          \
    LSK_FOREACH(it) if (it.idx < left) {                                       \
      AT x = as_##AT(tile[it.idx]);                                            \
      LSK_VAR_AT(acc, it) = OP(LSK_VAR_AT(acc, it), x);                        \
    }                                                                          \
    lsk_sync();                                                                \
  }                                                                            \
  AT r = REDVAR(scratch, acc, LSK_DOMAIN_SIZE);
#endif

#define LSK__REDUCE_KERNEL(OPN, T, AT, OP, VOP, ID)                            \
  LSK_KERNEL void lsk_reduce_##OPN##_##T(LSK_CTX, __global const T *restrict in, uint base,     \
                                         uint n, uint per_block, __global T *restrict out,      \
                                         uint out_index)                       \
  {                                                                            \
    LSK_BLOCK_SCRATCH(AT, scratch);                                            \
    __global const T *src = in + base;                                         \
    LSK__TILE_RUN(n, per_block);                                               \
    LSK__REDUCE_BODY(lsk_block_reduce_##OPN##_##AT, lsk_block_reduce_var_##OPN##_##AT, T, AT, OP, \
                     VOP, ID)                                                  \
    LSK_MASTER out[out_index + lsk_block_idx()] = as_##T(r);                   \
  }

#define LSK__REDUCE_KERNELS(T, UT, MINID, MAXID)                               \
  LSK__REDUCE_KERNEL(add, T, UT, lsk__op_add, lsk__op_add, 0)                  \
  LSK__REDUCE_KERNEL(min, T, T, lsk__op_min, lsk__vmin, MINID)                 \
  LSK__REDUCE_KERNEL(max, T, T, lsk__op_max, lsk__vmax, MAXID)

LSK__REDUCE_KERNELS(int, uint, INT_MAX, INT_MIN)
LSK__REDUCE_KERNELS(uint, uint, UINT_MAX, 0)
LSK__REDUCE_KERNELS(long, ulong, LONG_MAX, LONG_MIN)
LSK__REDUCE_KERNELS(ulong, ulong, ULONG_MAX, 0)
LSK__REDUCE_KERNELS(float, float, INFINITY, -INFINITY)
#ifdef LSK_HAS_FP64
LSK__REDUCE_KERNELS(double, double, (double)INFINITY, -(double)INFINITY)
#endif
