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
 *
 * Written once over the element type; the host builds one program per
 * type, -D LSK_T=<type>, whose kernel is lsk_scan_<type>. The builds
 * (tests/oclgrind_coverage.sh and tests/devicelib.sh read this line):
 * lsk-builds: LSK_T=int,uint,float
 */
#ifndef LSK_T
#error "kernels/scan.cl is built per type: -D LSK_T=int|uint|float"
#endif
/* The type the scan adds in (integers in the unsigned twin, where
 * wrap-around is defined), its vectors, the conversions. */
#define LSK__S_ACC LSK__ADD_T(LSK_T)
#define LSK__S_ACC8 LSK__PASTE(LSK__S_ACC, 8)
#define LSK__S_ACC4 LSK__PASTE(LSK__S_ACC, 4)
#define LSK__S_ACC2 LSK__PASTE(LSK__S_ACC, 2)
#define LSK__S_AS_ACC LSK__PASTE(as_, LSK__S_ACC)
#define LSK__S_AS_ACC8 LSK__PASTE(as_, LSK__S_ACC8)
#define LSK__S_AS_T LSK__PASTE(as_, LSK_T)
#define LSK__S_AS_T8 LSK__PASTE3(as_, LSK_T, 8)

#define LSK__SCAN_KERNEL LSK__PASTE(lsk_scan_, LSK_T)
LSK_KERNEL void LSK__SCAN_KERNEL(LSK_CTX, __global const LSK_T *in, uint base, uint n,
                                 uint per_block, __global LSK_T *out, uint out_base,
                                 __global const LSK_T *carries, uint use_carries, uint inclusive)
{
  LSK_BLOCK_SCRATCH(LSK__S_ACC, scratch);
  uint b = lsk_block_idx();
  LSK__S_ACC carry = use_carries ? LSK__S_AS_ACC(carries[b]) : (LSK__S_ACC)0;
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    __global const LSK_T *src = in + base + t * LSK_DOMAIN_SIZE;
    __global LSK_T *dst = out + out_base + t * LSK_DOMAIN_SIZE;
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;
    for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {
      uint i0 = LSK__INDEX(step, 0);
      int whole = i0 + LSK_SIMD <= left;
      LSK__S_ACC run = 0;
      if (whole) {
        /* Full lanes: with 8-aligned runs (CPU shapes) 8 at a time through
         * vload8. */
#if LSK_SIMD % 8 == 0
        LSK__S_ACC8 acc8 = (LSK__S_ACC8)(0);
        for (uint k = 0; k < LSK_SIMD; k += 8)
          acc8 += LSK__S_AS_ACC8(vload8(0, src + i0 + k));
        LSK__S_ACC4 h4 = acc8.lo + acc8.hi;
        LSK__S_ACC2 h2 = h4.lo + h4.hi;
        run = h2.x + h2.y;
#else
        __global const LSK_T *lanes = src + i0;
        for (uint k = 0; k < LSK_SIMD; ++k)
          run += LSK__S_AS_ACC(lanes[k]);
#endif
      } else {
        for (uint k = 0; k < LSK_SIMD; ++k)
          if (i0 + k < left)
            run += LSK__S_AS_ACC(src[i0 + k]);
      }
      LSK__S_ACC total;
      LSK__S_ACC pre = carry + LSK__PASTE(lsk_block_scan_add_, LSK__S_ACC)(scratch, run, &total);
      if (whole) {
        /* Their prefixes from pre; with 8-aligned runs through vload8 and
         * vstore8, the prefix inside a vector a short chain in registers. */
#if LSK_SIMD % 8 == 0
        for (uint k = 0; k < LSK_SIMD; k += 8) {
          LSK__S_ACC8 x = LSK__S_AS_ACC8(vload8(0, src + i0 + k));
          LSK__S_ACC8 p = x;
          p.s1 += p.s0;
          p.s2 += p.s1;
          p.s3 += p.s2;
          p.s4 += p.s3;
          p.s5 += p.s4;
          p.s6 += p.s5;
          p.s7 += p.s6;
          LSK__S_ACC8 e = (LSK__S_ACC8)((LSK__S_ACC)0, p.s0, p.s1, p.s2, p.s3, p.s4, p.s5, p.s6);
          vstore8(LSK__S_AS_T8((LSK__S_ACC8)(pre) + (inclusive ? p : e)), 0, dst + i0 + k);
          pre += p.s7;
        }
#else
        __global const LSK_T *lanes = src + i0;
        __global LSK_T *outs = dst + i0;
        for (uint k = 0; k < LSK_SIMD; ++k) {
          LSK__S_ACC x = LSK__S_AS_ACC(lanes[k]);
          outs[k] = LSK__S_AS_T(inclusive ? pre + x : pre);
          pre += x;
        }
#endif
      } else {
        for (uint k = 0; k < LSK_SIMD; ++k)
          if (i0 + k < left) {
            LSK__S_ACC x = LSK__S_AS_ACC(src[i0 + k]);
            dst[i0 + k] = LSK__S_AS_T(inclusive ? pre + x : pre);
            pre += x;
          }
      }
      carry += total;
    }
  }
}

#ifdef LSK_SCAN_CPU
/*
 * The CPU path (host/algo/scan.c, cpu_path; built with -D LSK_SCAN_CPU=1
 * besides LSK_T): the host walks the array in chunks of nseg segments of
 * seglen elements (a multiple of 8), one segment per work-item, and per
 * chunk enqueues
 *   lsk_scan_sums_T  segment s of the chunk from `first` sums its elements
 *                    into sums[s];
 *   lsk_scan_segs_T  segment s starts from the chunk's carry (sums[nseg +
 *                    cell], 0 in the first chunk) plus sums[0, s) and
 *                    scans its elements serially into out; the last one
 *                    leaves the next chunk's carry in sums[nseg + 1 - cell].
 * The chunk fits the caches, so the second pass reads it from there: the
 * array is read from memory once, not twice. No work-item waits for
 * another; the host orders the passes. In place (out the same elements as
 * in) each element is read before it is written, by the work-item that
 * writes it.
 */
/* This work-item's segment [a, e) of the chunk, below n: k whole segments
 * of seglen are left from first, then the rest (in 32 bits: k * seglen
 * does not pass n - first). */
#define LSK__SCAN_SEGMENT(s, a, e)                                                                 \
  uint s = lsk_block_idx() * LSK_WORKERS + lsk_worker();                                           \
  uint lsk__k = (n - first) / seglen;                                                              \
  uint a = s <= lsk__k ? first + s * seglen : n;                                                   \
  uint e = s < lsk__k ? a + seglen : n

#define LSK__SCAN_SUMS LSK__PASTE(lsk_scan_sums_, LSK_T)
LSK_KERNEL void LSK__SCAN_SUMS(LSK_CTX, __global const LSK_T *in, uint base, uint n, uint first,
                               uint seglen, __global LSK__S_ACC *sums)
{
  LSK__SCAN_SEGMENT(s, a, e);
  __global const LSK_T *src = in + base;
  /* Two vectors of 8, so that float adds overlap. */
  LSK__S_ACC8 x = (LSK__S_ACC8)(0), y = (LSK__S_ACC8)(0);
  uint i = a;
  for (; e - i >= 16u; i += 16u) {
    x += LSK__S_AS_ACC8(vload8(0, src + i));
    y += LSK__S_AS_ACC8(vload8(0, src + i + 8));
  }
  x += y;
  LSK__S_ACC4 h4 = x.lo + x.hi;
  LSK__S_ACC2 h2 = h4.lo + h4.hi;
  LSK__S_ACC run = h2.x + h2.y;
  for (; i < e; ++i)
    run += LSK__S_AS_ACC(src[i]);
  sums[s] = run;
}

#define LSK__SCAN_SEGS LSK__PASTE(lsk_scan_segs_, LSK_T)
LSK_KERNEL void LSK__SCAN_SEGS(LSK_CTX, __global const LSK_T *in, uint base, uint n, uint first,
                               uint seglen, __global LSK_T *out, uint out_base,
                               __global LSK__S_ACC *sums, uint nseg, uint cell, uint fresh,
                               uint inclusive)
{
  LSK__SCAN_SEGMENT(s, a, e);
  LSK__S_ACC pre = fresh ? (LSK__S_ACC)0 : sums[nseg + cell];
  for (uint j = 0; j < s; ++j)
    pre += sums[j];
  if (s == nseg - 1u)
    sums[nseg + 1u - cell] = pre + sums[s];
  __global const LSK_T *src = in + base;
  __global LSK_T *dst = out + out_base;
  uint i = a;
  /* 8 at a time, as two vectors of 4: the prefix inside each in two
   * shifted adds, which stay within a 128-bit lane (cheap shuffles on
   * AVX2); the loop twice, so that the kind is no select per store. */
#define LSK__SCAN_BY8(PICK)                                                                        \
  for (; e - i >= 8u; i += 8u) {                                                                   \
    LSK__S_ACC8 v = LSK__S_AS_ACC8(vload8(0, src + i));                                            \
    LSK__S_ACC4 x = v.lo, y = v.hi, z = (LSK__S_ACC4)(0);                                          \
    LSK__S_ACC4 p = x + (LSK__S_ACC4)(z.x, x.s0, x.s1, x.s2);                                      \
    LSK__S_ACC4 q = y + (LSK__S_ACC4)(z.x, y.s0, y.s1, y.s2);                                      \
    p += (LSK__S_ACC4)(z.x, z.x, p.s0, p.s1);                                                      \
    q += (LSK__S_ACC4)(z.x, z.x, q.s0, q.s1);                                                      \
    LSK__S_ACC4 lo = (LSK__S_ACC4)(pre) + PICK(p, z);                                              \
    pre += p.s3;                                                                                   \
    LSK__S_ACC4 hi = (LSK__S_ACC4)(pre) + PICK(q, z);                                              \
    pre += q.s3;                                                                                   \
    vstore8(LSK__S_AS_T8((LSK__S_ACC8)(lo, hi)), 0, dst + i);                                      \
  }
#define LSK__SCAN_INCL(p, z) (p)
#define LSK__SCAN_EXCL(p, z) ((LSK__S_ACC4)(z.x, p.s0, p.s1, p.s2))
  if (inclusive) {
    LSK__SCAN_BY8(LSK__SCAN_INCL)
  } else {
    LSK__SCAN_BY8(LSK__SCAN_EXCL)
  }
  for (; i < e; ++i) {
    LSK__S_ACC x = LSK__S_AS_ACC(src[i]);
    dst[i] = LSK__S_AS_T(inclusive ? pre + x : pre);
    pre += x;
  }
}
#endif /* LSK_SCAN_CPU */
