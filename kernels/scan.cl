/*
 * scan.cl: the scan pass of a device-wide prefix sum. The host runs it as
 * reduce-then-scan: lsk_reduce_add_T (reduce.cl) sums each block's run of
 * tiles, one block scans those sums (this kernel, in place), then every
 * block scans its run again starting from its sum's prefix (this kernel
 * with carries). No block waits for another. On GPUs with 64-bit atomics
 * the host runs the look-back kernel instead (lsk_scan_lookback_T, below:
 * one pass by decoupled look-back with fallback, which needs no forward
 * progress between blocks because no block waits: a block that finds a
 * predecessor's sum unpublished computes it itself).
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

/* One tile of the scan: the left (<= LSK_DOMAIN_SIZE) elements of src,
 * scanned from carry into dst; returns carry plus their sum. A collective
 * (scratch: LSK_BLOCK_SCRATCH of the accumulator), shared by lsk_scan_T
 * and the look-back kernel below. */
LSK_COLLECTIVE LSK__S_ACC lsk__scan_tile(__local LSK__S_ACC *scratch, __global const LSK_T *src,
                                         __global LSK_T *dst, uint left, LSK__S_ACC carry,
                                         uint inclusive)
{
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
  return carry;
}

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
    carry = lsk__scan_tile(scratch, src, dst, left, carry, inclusive);
  }
}

/* The look-back's 64-bit atomics: cl_khr_int64_base_atomics' atom_*;
 * where clang compiles for nvptx without the extension (the nvptx check's
 * route to sm_90's registers and occupancy, tests/nvptx.sh: libclc has no
 * 64-bit atom_*), clang's builtins, which give the same PTX atomics.
 * NVIDIA's own compiler reports the extension and takes atom_*. */
#if defined(LSK_HAS_INT64_ATOMICS)
#define LSK__LOOKBACK 1
#define lsk__lookback_cas(p, cmp, v) atom_cmpxchg(p, cmp, v)
#define lsk__lookback_xchg(p, v) atom_xchg(p, v)
#define lsk__lookback_load(p) atom_add(p, 0ul)
#elif defined(__clang__) && defined(__NVPTX__)
#define LSK__LOOKBACK 1
#define lsk__lookback_cas(p, cmp, v) __sync_val_compare_and_swap(p, cmp, v)
#define lsk__lookback_xchg(p, v) __sync_lock_test_and_set(p, v)
#define lsk__lookback_load(p) __sync_fetch_and_add(p, 0ul)
#endif

#ifdef LSK__LOOKBACK
/*
 * The look-back kernel (host/algo/scan.c, lookback_path): a single pass by
 * decoupled look-back with fallback (Smith, Levien and Owens, SPAA 2025).
 * Built where the device has cl_khr_int64_base_atomics (LSK__LOOKBACK).
 *
 * lsk_scan_lookback_T(in, base, n, out, out_base, cells, inclusive): cells
 * holds a ticket (the low word of cells[0]) and one state word per tile of
 * LSK_DOMAIN_SIZE elements (cells[1 + t]), all zero on entry
 * (lsk_lookback_clear, enqueued before it). One block per tile: it
 * takes a ticket (atomic_inc, so tiles are taken in the order blocks
 * start, whatever their ids, and a tile's predecessors were taken earlier,
 * by blocks that are running or done);
 * sum the tile; publish that aggregate; look back for the sum of all
 * earlier tiles; publish the inclusive prefix; scan the tile from the sum
 * (lsk__scan_tile, reading the tile a second time, from the cache).
 *
 * A state word is the flag in the high 32 bits (NOT_READY 0, AGGREGATE 1,
 * INCLUSIVE 2) and the value's bits in the low 32, so a publication is
 * one 64-bit atomic and nobody sees a flag without its value. The owner
 * publishes its aggregate with a compare-and-swap from NOT_READY and its
 * inclusive prefix with an exchange; words only move NOT_READY ->
 * AGGREGATE -> INCLUSIVE.
 *
 * The look-back needs no forward progress: nobody waits. One worker reads
 * a window of up to 32 predecessors' words (the others' reads, into local
 * memory) and walks them nearest first, adding AGGREGATE values until an
 * INCLUSIVE one (or tile 0) ends the sum. A NOT_READY word is not waited
 * for: the whole block sums that predecessor's tile from the input itself
 * (the fallback) and installs the sum with a compare-and-swap from
 * NOT_READY. If the CAS fails, someone published first (its owner, or
 * another block's fallback), and the published word is used instead, so
 * every block sees one value per tile; the owner too uses whatever
 * aggregate is installed for its tile when it forms its inclusive prefix.
 * For floats the fallback's sum is the owner's to the bit anyway (the same
 * code over the same elements, lsk__lookback_sum). A block whose
 * predecessors never ran (they are not yet resident) still finishes: it
 * sums their tiles itself, at worst back to tile 0.
 *
 * Out of place only (the host takes reduce-then-scan for in-place calls):
 * then the input is read-only during the kernel and every value that
 * passes between blocks is one 64-bit atomic word, so the method needs
 * the atomicity of those words and no ordering of plain memory accesses
 * across work-groups, which OpenCL 1.2 does not define. In place, a
 * fallback would read a predecessor's input while its owner may be
 * overwriting it, and the proof that such a read is never used (the CAS
 * fails) would rest on such an ordering.
 *
 * LSK_SCAN_LOOKBACK_HOOK (tests only, host: LSK_SCAN_LOOKBACK_HOOK): bit 0
 * maps ticket k to tile tiles - 1 - k, so blocks take tiles last first
 * and every look-back finds its predecessors NOT_READY (the fallback and
 * its successful CAS run; owners find their aggregate installed); bit 1
 * takes every word the window reads for NOT_READY, so each step of the
 * look-back runs the fallback and its CAS decides (in order: it fails on
 * the published word). PoCL and oclgrind run blocks in order, where
 * neither happens by itself.
 */
#ifndef LSK_SCAN_LOOKBACK_HOOK
#define LSK_SCAN_LOOKBACK_HOOK 0
#endif
#define LSK__LOOKBACK_AGGREGATE 1u
#define LSK__LOOKBACK_INCLUSIVE 2u
/* The predecessors' words one look-back step reads at once. */
#define LSK__LOOKBACK_WINDOW (LSK_WORKERS < 32 ? LSK_WORKERS : 32)

LSK_INLINE ulong lsk__lookback_pack(uint flag, LSK__S_ACC v)
{
  return (ulong)flag << 32 | (ulong)as_uint(v);
}
LSK_INLINE uint lsk__lookback_flag(ulong s) { return (uint)(s >> 32); }
LSK_INLINE LSK__S_ACC lsk__lookback_value(ulong s) { return LSK__S_AS_ACC((uint)s); }

/* The sum of tile t's elements (in[base + t * D + i], i < left), to every
 * worker: the owner's aggregate and the fallback's, the same code. */
LSK_COLLECTIVE LSK__S_ACC lsk__lookback_sum(__local LSK__S_ACC *scratch, __global const LSK_T *src,
                                            uint left)
{
  LSK__S_ACC run = 0;
  for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {
    uint i0 = LSK__INDEX(step, 0);
    if (i0 + LSK_SIMD <= left) {
#if LSK_SIMD % 8 == 0
      LSK__S_ACC8 acc8 = (LSK__S_ACC8)(0);
      for (uint k = 0; k < LSK_SIMD; k += 8)
        acc8 += LSK__S_AS_ACC8(vload8(0, src + i0 + k));
      LSK__S_ACC4 h4 = acc8.lo + acc8.hi;
      LSK__S_ACC2 h2 = h4.lo + h4.hi;
      run += h2.x + h2.y;
#else
      for (uint k = 0; k < LSK_SIMD; ++k)
        run += LSK__S_AS_ACC(src[i0 + k]);
#endif
    } else {
      for (uint k = 0; k < LSK_SIMD; ++k)
        if (i0 + k < left)
          run += LSK__S_AS_ACC(src[i0 + k]);
    }
  }
  return LSK__PASTE(lsk_block_reduce_add_, LSK__S_ACC)(scratch, run);
}

/* The next ticket, to every worker (talk: a local word). */
LSK_COLLECTIVE uint lsk__lookback_claim(volatile __global uint *ticket, __local uint *talk)
{
  if (lsk_worker() == 0)
    *talk = atomic_inc(ticket);
  lsk_sync_local();
  uint k = *talk;
  lsk_sync_local();
  return k;
}

#define LSK__LOOKBACK_KERNEL LSK__PASTE(lsk_scan_lookback_, LSK_T)
LSK_KERNEL void LSK__LOOKBACK_KERNEL(LSK_CTX, __global const LSK_T *in, uint base, uint n,
                                     __global LSK_T *out, uint out_base, __global ulong *cells,
                                     uint inclusive)
{
  LSK_BLOCK_SCRATCH(LSK__S_ACC, scratch);
  LSK_SHARED(ulong, window, LSK__LOOKBACK_WINDOW);
  LSK_SHARED(uint, talk, 2);
  LSK_SHARED(LSK__S_ACC, prefix, 1);
  uint w = lsk_worker();
  uint full = n / LSK_DOMAIN_SIZE;
  uint tiles = full + (n - full * LSK_DOMAIN_SIZE != 0);
  volatile __global uint *ticket = (volatile __global uint *)cells;
  volatile __global ulong *states = (volatile __global ulong *)(cells + 1);
  __global const LSK_T *src = in + base;
  /* One tile per block (the host launches as many blocks as tiles; a loop
   * over tickets kept more registers live: 48 on sm_90, half the warps). */
  uint k = lsk__lookback_claim(ticket, talk);
  if (k < tiles) {
#if LSK_SCAN_LOOKBACK_HOOK & 1
    uint t = tiles - 1u - k;
#else
    uint t = k;
#endif
    uint left = t < full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;
    LSK__S_ACC mine = lsk__lookback_sum(scratch, src + t * LSK_DOMAIN_SIZE, left);
    /* Worker 0 publishes and looks back; excl (its own) gathers the sum. */
    LSK__S_ACC excl = 0;
    if (w == 0) {
      ulong old = lsk__lookback_cas(&states[t], 0ul, lsk__lookback_pack(LSK__LOOKBACK_AGGREGATE, mine));
      if (old != 0ul)
        mine = lsk__lookback_value(old); /* a fallback's, installed first */
    }
    /* Tiles [0, j) are not yet in excl; j is uniform (through talk). */
    uint j = t;
    while (j > 0u) {
      uint m = j < LSK__LOOKBACK_WINDOW ? j : LSK__LOOKBACK_WINDOW;
      if (w < m)
        window[w] = lsk__lookback_load(&states[j - 1u - w]);
      lsk_sync_local();
      if (w == 0) {
        /* next: the new j; talk[1]: 1 when tile next - 1 needs the fallback. */
        uint next = j - m, fallback = 0;
        for (uint i = 0; i < m; ++i) {
          ulong s = window[i];
          uint flag = lsk__lookback_flag(s);
#if LSK_SCAN_LOOKBACK_HOOK & 2
          flag = 0u;
#endif
          if (flag == 0u) {
            next = j - i;
            fallback = 1;
            break;
          }
          excl += lsk__lookback_value(s);
          if (flag == LSK__LOOKBACK_INCLUSIVE || j - 1u - i == 0u) {
            next = 0;
            break;
          }
        }
        talk[0] = next;
        talk[1] = fallback;
      }
      lsk_sync_local();
      j = talk[0];
      uint fallback = talk[1];
      lsk_sync_local();
      if (fallback) {
        /* Tile f's word was NOT_READY: sum its input, install the sum
         * unless someone published first, and take the installed word. */
        uint f = j - 1u;
        uint fl = f < full ? LSK_DOMAIN_SIZE : n - f * LSK_DOMAIN_SIZE;
        LSK__S_ACC a = lsk__lookback_sum(scratch, src + f * LSK_DOMAIN_SIZE, fl);
        if (w == 0) {
          ulong want = lsk__lookback_pack(LSK__LOOKBACK_AGGREGATE, a);
          ulong old = lsk__lookback_cas(&states[f], 0ul, want);
          ulong s = old != 0ul ? old : want;
          excl += lsk__lookback_value(s);
          talk[0] = lsk__lookback_flag(s) == LSK__LOOKBACK_INCLUSIVE ? 0u : f;
        }
        lsk_sync_local();
        j = talk[0];
        lsk_sync_local();
      }
    }
    if (w == 0) {
      lsk__lookback_xchg(&states[t], lsk__lookback_pack(LSK__LOOKBACK_INCLUSIVE, excl + mine));
      prefix[0] = excl;
    }
    lsk_sync_local();
    LSK__S_ACC carry = prefix[0];
    lsk__scan_tile(scratch, src + t * LSK_DOMAIN_SIZE, out + out_base + t * LSK_DOMAIN_SIZE, left,
                   carry, inclusive);
  }
}

/* lsk_lookback_clear(cells, count): cells[i] = 0 for i < count (the
 * look-back's ticket and states, before each scan; a kernel, not a fill,
 * so that oclgrind takes them for initialized). Not named lsk_scan_*: it
 * has no vload8 path for tests/oclgrind_coverage.sh to look for. */
LSK_KERNEL void lsk_lookback_clear(LSK_CTX, __global ulong *cells, uint count)
{
  for (uint t = lsk_block_idx(); t < (count + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE;
       t += lsk_grid_size()) {
    uint at = t * LSK_DOMAIN_SIZE;
    LSK_FOREACH(it) if (at + it.idx < count) cells[at + it.idx] = 0ul;
  }
}
#endif /* LSK__LOOKBACK */

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
 * array is read from memory once, not twice; with `stream` (an output
 * larger than the caches) the second pass writes with non-temporal stores
 * on x86 (below). No work-item waits for another; the host orders the
 * passes. In place (out the same elements as
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

/* x86 CPUs (PoCL): where the host asks for it (stream: an output larger
 * than the caches), the second pass writes its output with non-temporal
 * stores, which skip reading each line before writing it: that read was a
 * third of the pass's memory traffic (input, the line's read, its write).
 * Such stores are weakly ordered, even against locked instructions on
 * some CPUs: the work-item ends them with a fence. */
#if defined(__x86_64__) && defined(__clang__) && __has_builtin(__builtin_nontemporal_store) &&     \
    __has_builtin(__builtin_ia32_sfence)
#define LSK__SCAN_NT 1
#define LSK__SCAN_NT_STORE(v, p)                                                                   \
  __builtin_nontemporal_store(v, (__global LSK__PASTE(LSK_T, 8) *)(p))
#endif

#define LSK__SCAN_SEGS LSK__PASTE(lsk_scan_segs_, LSK_T)
LSK_KERNEL void LSK__SCAN_SEGS(LSK_CTX, __global const LSK_T *in, uint base, uint n, uint first,
                               uint seglen, __global LSK_T *out, uint out_base,
                               __global LSK__S_ACC *sums, uint nseg, uint cell, uint fresh,
                               uint inclusive, uint stream)
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
#define LSK__SCAN_BY8(PICK, STORE)                                                                 \
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
    STORE(LSK__S_AS_T8((LSK__S_ACC8)(lo, hi)), dst + i);                                           \
  }
#define LSK__SCAN_INCL(p, z) (p)
#define LSK__SCAN_EXCL(p, z) ((LSK__S_ACC4)(z.x, p.s0, p.s1, p.s2))
#define LSK__SCAN_PLAIN(v, p) vstore8(v, 0, p)
#ifdef LSK__SCAN_NT
  /* Streaming: whole 32-byte vectors, aligned, in order, two to a line. */
  if (stream && ((ulong)(dst + i) & 31) == 0) {
    if (inclusive) {
      LSK__SCAN_BY8(LSK__SCAN_INCL, LSK__SCAN_NT_STORE)
    } else {
      LSK__SCAN_BY8(LSK__SCAN_EXCL, LSK__SCAN_NT_STORE)
    }
    __builtin_ia32_sfence();
  }
#endif
  if (inclusive) {
    LSK__SCAN_BY8(LSK__SCAN_INCL, LSK__SCAN_PLAIN)
  } else {
    LSK__SCAN_BY8(LSK__SCAN_EXCL, LSK__SCAN_PLAIN)
  }
  for (; i < e; ++i) {
    LSK__S_ACC x = LSK__S_AS_ACC(src[i]);
    dst[i] = LSK__S_AS_T(inclusive ? pre + x : pre);
    pre += x;
  }
}
#endif /* LSK_SCAN_CPU */
