/*
 * scan.cl: the scan pass of a device-wide prefix sum. The host runs it as
 * reduce-then-scan: lsk_reduce_add_T (reduce.cl) sums each block's run of
 * tiles, one block scans those sums (this kernel, in place), then every
 * block scans its run again starting from its sum's prefix (this kernel
 * with carries). No block waits for another.
 *
 * lsk_scan_T(in, base, n, per_block, out, out_base, carries, use_carries,
 * inclusive): block b scans tiles [b * per_block, (b + 1) * per_block) of
 * in[base + i], i < n, into out[out_base + i], starting from carries[b]
 * when use_carries, else 0. out may be in (the same elements): each tile
 * is read before it is written, by the same block.
 */
#define LSK__SCAN_KERNEL(T)                                                    \
  LSK_KERNEL void lsk_scan_##T(LSK_CTX, __global const T *in, uint base, uint n, uint per_block, \
                               __global T *out, uint out_base, __global const T *carries,     \
                               uint use_carries, uint inclusive)               \
  {                                                                            \
    LSK_BLOCK_SCRATCH(T, scratch);                                             \
    LSK_VAR(T, v);                                                             \
    uint b = lsk_block_idx();                                                  \
    T carry = use_carries ? carries[b] : (T)0;                                 \
    uint first = b * per_block;                                                \
    uint full = n / LSK_DOMAIN_SIZE;                                           \
    uint end = min(first + per_block, full + (n - full * LSK_DOMAIN_SIZE != 0)); \
    for (uint t = first; t < end; ++t) {                                       \
      __global const T *src = in + base + t * LSK_DOMAIN_SIZE;                 \
      __global T *dst = out + out_base + t * LSK_DOMAIN_SIZE;                  \
      uint left = t < full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;        \
      if (t < full) {                                                          \
        LSK_FOREACH(it) LSK_VAR_AT(v, it) = src[it.idx];                       \
      } else {                                                                 \
        LSK_FOREACH(it) LSK_VAR_AT(v, it) = it.idx < left ? src[it.idx] : (T)0; \
      }                                                                        \
      T total = lsk_block_scan_var_add_##T(scratch, v, LSK_DOMAIN_SIZE, inclusive); \
      if (t < full) {                                                          \
        LSK_FOREACH(it) dst[it.idx] = carry + LSK_VAR_AT(v, it);               \
      } else {                                                                 \
        LSK_FOREACH(it) if (it.idx < left) dst[it.idx] = carry + LSK_VAR_AT(v, it); \
      }                                                                        \
      carry += total;                                                          \
      lsk_sync();                                                              \
    }                                                                          \
  }

LSK__SCAN_KERNEL(int)
LSK__SCAN_KERNEL(uint)
LSK__SCAN_KERNEL(float)
