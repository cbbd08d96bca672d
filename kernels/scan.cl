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
 * when use_carries, else 0. out may be in (the same elements): each index
 * is read before it is written, by the worker that writes it.
 *
 * Per step of a tile, each worker sums its simd lanes, the block scans the
 * workers' sums (lsk_block_scan_add_T), and each worker writes its lanes'
 * prefixes, reading its lanes a second time: they are in its cache, and a
 * context variable holding them would cost more on CPU back-ends, where it
 * lives in memory across the scan's barriers. The barrier at the end of
 * each tile keeps the block's reads contiguous on CPU back-ends (see
 * reduce.cl).
 */
/* Full lanes of one worker in one step: their sum, and their prefixes
 * written from pre. With 8-aligned runs (CPU shapes) 8 at a time through
 * vload8 / vstore8; the prefix inside a vector is a short chain in
 * registers. Integers work in the unsigned type (defined wrap-around). */
#if LSK_SIMD % 8 == 0
#define LSK__SCAN_SUM(T, AT, src, run)                                         \
  {                                                                            \
    AT##8 acc8 = (AT##8)(0);                                                   \
    for (uint k = 0; k < LSK_SIMD; k += 8)                                     \
      acc8 += as_##AT##8(vload8(0, (src) + k));                                \
    AT##4 h4 = acc8.lo + acc8.hi;                                              \
    AT##2 h2 = h4.lo + h4.hi;                                                  \
    run = h2.x + h2.y;                                                         \
  }
#define LSK__SCAN_WRITE(T, AT, src, dst, pre, inclusive)                       \
  for (uint k = 0; k < LSK_SIMD; k += 8) {                                     \
    AT##8 x = as_##AT##8(vload8(0, (src) + k));                                \
    AT##8 p = x;                                                               \
    p.s1 += p.s0;                                                              \
    p.s2 += p.s1;                                                              \
    p.s3 += p.s2;                                                              \
    p.s4 += p.s3;                                                              \
    p.s5 += p.s4;                                                              \
    p.s6 += p.s5;                                                              \
    p.s7 += p.s6;                                                              \
    AT##8 e = (AT##8)((AT)0, p.s0, p.s1, p.s2, p.s3, p.s4, p.s5, p.s6);       \
    vstore8(as_##T##8((AT##8)(pre) + (inclusive ? p : e)), 0, (dst) + k);     \
    pre += p.s7;                                                               \
  }
#else
#define LSK__SCAN_SUM(T, AT, src, run)                                         \
  for (uint k = 0; k < LSK_SIMD; ++k)                                          \
    run += as_##AT((src)[k]);
#define LSK__SCAN_WRITE(T, AT, src, dst, pre, inclusive)                       \
  for (uint k = 0; k < LSK_SIMD; ++k) {                                        \
    AT x = as_##AT((src)[k]);                                                  \
    (dst)[k] = as_##T(inclusive ? pre + x : pre);                              \
    pre += x;                                                                  \
  }
#endif

#define LSK__SCAN_KERNEL(T, AT)                                                \
  LSK_KERNEL void lsk_scan_##T(LSK_CTX, __global const T *in, uint base, uint n, uint per_block, \
                               __global T *out, uint out_base, __global const T *carries,     \
                               uint use_carries, uint inclusive)               \
  {                                                                            \
    LSK_BLOCK_SCRATCH(AT, scratch);                                            \
    uint b = lsk_block_idx();                                                  \
    AT carry = use_carries ? as_##AT(carries[b]) : (AT)0;                      \
    LSK__TILE_RUN(n, per_block);                                               \
    for (uint t = first; t < end; ++t) {                                       \
      __global const T *src = in + base + t * LSK_DOMAIN_SIZE;                 \
      __global T *dst = out + out_base + t * LSK_DOMAIN_SIZE;                  \
      uint left = t < full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;        \
      for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {        \
        uint i0 = LSK__INDEX(step, 0);                                         \
        int whole = i0 + LSK_SIMD <= left;                                     \
        AT run = 0;                                                            \
        if (whole) {                                                           \
          LSK__SCAN_SUM(T, AT, src + i0, run)                                  \
        } else {                                                               \
          for (uint k = 0; k < LSK_SIMD; ++k)                                  \
            if (i0 + k < left)                                                 \
              run += as_##AT(src[i0 + k]);                                     \
        }                                                                      \
        AT total;                                                              \
        AT pre = carry + lsk_block_scan_add_##AT(scratch, run, &total);        \
        if (whole) {                                                           \
          LSK__SCAN_WRITE(T, AT, src + i0, dst + i0, pre, inclusive)           \
        } else {                                                               \
          for (uint k = 0; k < LSK_SIMD; ++k)                                  \
            if (i0 + k < left) {                                               \
              AT x = as_##AT(src[i0 + k]);                                     \
              dst[i0 + k] = as_##T(inclusive ? pre + x : pre);                 \
              pre += x;                                                        \
            }                                                                  \
        }                                                                      \
        carry += total;                                                        \
      }                                                                        \
    }                                                                          \
  }

LSK__SCAN_KERNEL(int, uint)
LSK__SCAN_KERNEL(uint, uint)
LSK__SCAN_KERNEL(float, float)
