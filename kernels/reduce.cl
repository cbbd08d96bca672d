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
 * Each worker keeps one accumulator per slot (a context variable), so the
 * tile loop has no dependency between indices: on CPUs it vectorizes like
 * a copy, on GPUs it issues independent loads. The accumulators are folded
 * in domain order at the end (lsk_block_reduce_var_*), so a float sum is
 * the same from run to run for a given shape.
 */

/* lsk_reduce_OP_T(in, base, n, per_block, out, out_index): block b folds
 * in[base + i] for i in tiles [b * per_block, (b + 1) * per_block) of
 * LSK_DOMAIN_SIZE elements, below n, into out[out_index + b]. */
#define LSK__REDUCE_KERNEL(OPN, T, OP, ID)                                     \
  LSK_KERNEL void lsk_reduce_##OPN##_##T(LSK_CTX, __global const T *restrict in, uint base,     \
                                         uint n, uint per_block, __global T *restrict out,      \
                                         uint out_index)                       \
  {                                                                            \
    LSK_BLOCK_SCRATCH(T, scratch);                                             \
    LSK_VAR(T, acc);                                                           \
    LSK_FOREACH(it) LSK_VAR_AT(acc, it) = (T)(ID);                             \
    __global const T *src = in + base;                                         \
    uint first = lsk_block_idx() * per_block;                                  \
    uint full = n / LSK_DOMAIN_SIZE;                                           \
    uint end = min(first + per_block, full + (n - full * LSK_DOMAIN_SIZE != 0));     \
    for (uint t = first; t < end; ++t) {                                       \
      __global const T *tile = src + (size_t)t * LSK_DOMAIN_SIZE;              \
      if (t < full) {                                                          \
        LSK_FOREACH(it) LSK_VAR_AT(acc, it) = OP(LSK_VAR_AT(acc, it), tile[it.idx]); \
      } else {                                                                 \
        uint left = n - t * LSK_DOMAIN_SIZE;                                   \
        LSK_FOREACH(it) if (it.idx < left) LSK_VAR_AT(acc, it) = OP(LSK_VAR_AT(acc, it), tile[it.idx]); \
      }                                                                        \
      lsk_sync();                                                              \
    }                                                                          \
    T r = lsk_block_reduce_var_##OPN##_##T(scratch, acc, LSK_DOMAIN_SIZE);     \
    LSK_MASTER out[out_index + lsk_block_idx()] = r;                           \
  }

#define LSK__REDUCE_KERNELS(T, MINID, MAXID)                                   \
  LSK__REDUCE_KERNEL(add, T, lsk__op_add, 0)                                   \
  LSK__REDUCE_KERNEL(min, T, lsk__op_min, MINID)                               \
  LSK__REDUCE_KERNEL(max, T, lsk__op_max, MAXID)

LSK__REDUCE_KERNELS(int, INT_MAX, INT_MIN)
LSK__REDUCE_KERNELS(uint, UINT_MAX, 0)
LSK__REDUCE_KERNELS(long, LONG_MAX, LONG_MIN)
LSK__REDUCE_KERNELS(ulong, ULONG_MAX, 0)
LSK__REDUCE_KERNELS(float, INFINITY, -INFINITY)
#ifdef LSK_HAS_FP64
LSK__REDUCE_KERNELS(double, (double)INFINITY, -(double)INFINITY)
#endif
