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
#define LSK__SCAN_KERNEL(T)                                                    \
  LSK_KERNEL void lsk_scan_##T(LSK_CTX, __global const T *in, uint base, uint n, uint per_block, \
                               __global T *out, uint out_base, __global const T *carries,     \
                               uint use_carries, uint inclusive)               \
  {                                                                            \
    LSK_BLOCK_SCRATCH(T, scratch);                                             \
    uint b = lsk_block_idx();                                                  \
    T carry = use_carries ? carries[b] : (T)0;                                 \
    uint first = b * per_block;                                                \
    uint full = n / LSK_DOMAIN_SIZE;                                           \
    uint end = min(first + per_block, full + (n - full * LSK_DOMAIN_SIZE != 0)); \
    for (uint t = first; t < end; ++t) {                                       \
      __global const T *src = in + base + t * LSK_DOMAIN_SIZE;                 \
      __global T *dst = out + out_base + t * LSK_DOMAIN_SIZE;                  \
      uint left = t < full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;        \
      for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {        \
        uint i0 = LSK__INDEX(step, 0);                                         \
        T run = 0;                                                             \
        if (i0 + LSK_SIMD <= left) {                                           \
          for (uint k = 0; k < LSK_SIMD; ++k)                                  \
            run += src[i0 + k];                                                \
        } else {                                                               \
          for (uint k = 0; k < LSK_SIMD; ++k)                                  \
            if (i0 + k < left)                                                 \
              run += src[i0 + k];                                              \
        }                                                                      \
        T total;                                                               \
        T pre = carry + lsk_block_scan_add_##T(scratch, run, &total);          \
        if (i0 + LSK_SIMD <= left) {                                           \
          for (uint k = 0; k < LSK_SIMD; ++k) {                                \
            T x = src[i0 + k];                                                 \
            dst[i0 + k] = inclusive ? pre + x : pre;                           \
            pre += x;                                                          \
          }                                                                    \
        } else {                                                               \
          for (uint k = 0; k < LSK_SIMD; ++k)                                  \
            if (i0 + k < left) {                                               \
              T x = src[i0 + k];                                               \
              dst[i0 + k] = inclusive ? pre + x : pre;                         \
              pre += x;                                                        \
            }                                                                  \
        }                                                                      \
        carry += total;                                                        \
      }                                                                        \
      lsk_sync();                                                              \
    }                                                                          \
  }

LSK__SCAN_KERNEL(int)
LSK__SCAN_KERNEL(uint)
LSK__SCAN_KERNEL(float)
