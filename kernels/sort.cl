/*
 * sort.cl: the passes of a stable LSD radix sort (host/algo/sort.c;
 * docs/sort.md). Keys are 32 bits (uint and int: the u32 kernels;
 * float: f32) or 64 bits (ulong and long: u64; double: f64), optionally
 * with a uint value each. No block waits for another: the host orders the
 * kernels on its queue.
 *
 * Segments. Every work-item of the launch owns one segment, a contiguous
 * run of seglen elements: segment s = block * LSK_WORKERS + worker, over
 * [s * seglen, min((s + 1) * seglen, n)). Segments in index order, and a
 * segment's elements in index order, are what makes the scatter stable.
 *
 * Order. A key k is mapped to an unsigned t whose order is the sort's
 * (lsk__sort_t_K): ints with their sign bit flipped, floats in IEEE
 * total order (negative ones with every bit flipped, the others with the
 * sign bit set), every bit flipped for descending, then every NaN, whatever
 * its sign or payload, mapped to the largest t: last in both directions,
 * in input order. The keys themselves move unchanged (a NaN keeps its bits).
 *
 * The passes of one sort, for digits of `bits` bits (the last one may be
 * narrower), digit p being bits [p * bits, p * bits + width) of t:
 *   lsk_sort_count_K  (first = 1) per segment the counts of digit 0, and
 *                     the OR and the AND of its t;
 *   lsk_sort_plan     one block: a digit whose bits are equal in the OR
 *                     and the AND is the same for every key (one bucket
 *                     holds all n): its pass is skipped. For the others
 *                     it writes where each pass reads and writes, and
 *                     whether a copy ends the sort (state, below);
 *   then for every digit p:
 *   lsk_sort_count_K  (first = 0) the counts of digit p per segment, if
 *                     the pass runs and its source is not the first
 *                     kernel's (the counts of digit 0 are made already);
 *   (lsk_scan, exclusive, of the counts, digit-major: counts[d * S + s],
 *    so that each count becomes the segment's first slot for digit d)
 *   lsk_sort_scatter_K  if the pass runs: every segment walks its
 *                     elements in order and stores each at its digit's
 *                     next slot;
 *   lsk_sort_copy_T   if the plan says so: the last copy (T: uint or
 *                     ulong, the key's width).
 * On GPUs the count and scatter are lsk_sort_bcount_K and
 * lsk_sort_bscatter_K instead: a block's counters, not a work-item's (below,
 * "The GPU path"); the plan, the scan and the copy are the same.
 *
 * Buffers: a pass reads one of IN (the caller's keys), OUT (the caller's
 * output: IN again when sorting in place) and TMP (scratch), by the plan's
 * selectors, and writes another; the values follow the same way.
 *
 * state[p] for pass p: bit 0 the pass runs, bit 1 it counts, bits 2-3 its
 * source, bits 4-5 its destination (0 IN, 1 OUT, 2 TMP); state[LSK__SORT_COPY]:
 * bit 0 a copy ends the sort, bits 2-3 from, bits 4-5 to.
 *
 * Counters live in local memory, a column of mask + 2 per work-item
 * (counter d of worker w at w * (mask + 2) + d: contiguous on CPUs, and on
 * GPUs workers at the same digit fall in different banks): a work-item
 * touches only its own, so the count and scatter kernels have no barrier.
 *
 * Written once over the key's class K: the host builds one program per
 * class, -D LSK_SORT_KEY=u32 (uint and int keys), f32 (float), u64 (ulong
 * and long) or f64 (double: its bits only, so no fp64 is needed), with
 * lsk_sort_count_K, lsk_sort_scatter_K, lsk_sort_copy_T (T: uint or ulong,
 * the key's width) and lsk_sort_plan. The builds (tests/oclgrind_coverage.sh
 * and tests/devicelib.sh read this line):
 * lsk-builds: LSK_SORT_KEY=u32,f32,u64,f64
 */
#ifndef LSK_SORT_KEY
#error "kernels/sort.cl is built per key class: -D LSK_SORT_KEY=u32|f32|u64|f64"
#endif

#define LSK__SORT_MAX_PASSES 64
#define LSK__SORT_COPY LSK__SORT_MAX_PASSES

#define LSK__SORT_SEL(sel, a, b, c) ((sel) == 0u ? (a) : (sel) == 1u ? (b) : (c))
/* A pass's source and destination of keys (ks, kd) and values (vs, vd),
 * chosen by its state word st among the kernel's parameters kin, kout,
 * ktmp and vin, vout, vtmp. */
#define LSK__SORT_BUFFERS(st)                                                                      \
  uint from = (st) >> 2 & 3u, to = (st) >> 4 & 3u;                                                 \
  __global const LSK__SORT_T *restrict ks = LSK__SORT_SEL(from, kin, kout, ktmp);                  \
  __global LSK__SORT_T *restrict kd = LSK__SORT_SEL(to, kin, kout, ktmp);                          \
  __global const uint *restrict vs = LSK__SORT_SEL(from, vin, vout, vtmp);                         \
  __global uint *restrict vd = LSK__SORT_SEL(to, vin, vout, vtmp)

/* The key's bits: T, its unsigned type of the key's width. */
#define LSK__SORT_T LSK__PASTE(LSK__SORT_T_, LSK_SORT_KEY)
#define LSK__SORT_T_u32 uint
#define LSK__SORT_T_f32 uint
#define LSK__SORT_T_u64 ulong
#define LSK__SORT_T_f64 ulong

/* The order-preserving map of a key (above), of its bits k. Integers:
 * k ^ x, x holding the sign bit for int and long, and every bit for
 * descending. Floats: a negative one with every bit flipped, the others
 * with the sign bit set, then every bit flipped for descending (dmask),
 * and a NaN to the largest value. */
#define lsk__sort_t_u32(k, x) ((k) ^ (x))
#define lsk__sort_t_u64(k, x) ((k) ^ (x))
LSK_INLINE uint lsk__sort_t_f32(uint k, uint dmask)
{
  uint t = k ^ ((uint)(as_int(k) >> 31) | 0x80000000u) ^ dmask;
  return (k & 0x7fffffffu) > 0x7f800000u ? 0xffffffffu : t;
}
LSK_INLINE ulong lsk__sort_t_f64(ulong k, ulong dmask)
{
  ulong t = k ^ ((ulong)(as_long(k) >> 63) | 0x8000000000000000ul) ^ dmask;
  return (k & 0x7ffffffffffffffful) > 0x7ff0000000000000ul ? 0xfffffffffffffffful : t;
}
/* The build's map. */
#define lsk__sort_t LSK__PASTE(lsk__sort_t_, LSK_SORT_KEY)
/* A pass's digit: of mapped bits t, and of key k (count, scatter and the
 * GPU block scatter must agree on it bit for bit). */
LSK_INLINE uint lsk__sort_digit_of(LSK__SORT_T t, uint shift, uint mask)
{
  return (uint)(t >> shift) & mask;
}
LSK_INLINE uint lsk__sort_digit(LSK__SORT_T k, LSK__SORT_T x, uint shift, uint mask)
{
  return lsk__sort_digit_of(lsk__sort_t(k, x), shift, mask);
}

/*
 * lsk_sort_count_K(state, pass, first, in, out, tmp, n, seglen, x, shift,
 * mask, counts, nseg, oa, cnt): the counts of digit (t >> shift) & mask of
 * the segment's keys into counts[d * nseg + s], every d <= mask; x is the
 * map's argument (lsk__sort_t_K). first: the keys are in, state is not
 * read, and the segment's OR and AND of t go to oa[2 s] and oa[2 s + 1]
 * (as ulong). Otherwise the kernel runs only where state[pass] says the
 * pass counts, on the pass's source. cnt: (mask + 2) * LSK_WORKERS uints
 * of local memory, a column of mask + 2 per worker (one more than the
 * digits: on GPUs, workers at the same digit fall in different banks).
 */
#define LSK__SORT_COUNT LSK__PASTE(lsk_sort_count_, LSK_SORT_KEY)
LSK_KERNEL void LSK__SORT_COUNT(LSK_CTX, __global const uint *state, uint pass, uint first,
                                __global const LSK__SORT_T *in, __global const LSK__SORT_T *out,
                                __global const LSK__SORT_T *tmp, uint n, uint seglen, LSK__SORT_T x,
                                uint shift, uint mask, __global uint *restrict counts, uint nseg,
                                __global ulong *restrict oa, __local uint *restrict cnt)
{
  __global const LSK__SORT_T *src = in;
  if (!first) {
    uint st = state[pass];
    if ((st & 3u) != 3u)
      return;
    src = LSK__SORT_SEL(st >> 2 & 3u, in, out, tmp);
  }
  uint lo, hi, col = lsk_worker() * (mask + 2u);
  uint s = lsk__segment(n, seglen, &lo, &hi);
  __local uint *restrict c = cnt + col;
  for (uint d = 0; d <= mask; ++d)
    c[d] = 0u;
  if (first) {
    LSK__SORT_T any = 0, all = ~(LSK__SORT_T)0;
    for (uint i = lo; i < hi; ++i) {
      LSK__SORT_T t = lsk__sort_t(src[i], x);
      any |= t;
      all &= t;
      ++c[lsk__sort_digit_of(t, shift, mask)];
    }
    oa[2 * (size_t)s] = (ulong)any;
    oa[2 * (size_t)s + 1] = (ulong)all;
  } else {
    for (uint i = lo; i < hi; ++i)
      ++c[lsk__sort_digit(src[i], x, shift, mask)];
  }
  for (uint d = 0; d <= mask; ++d)
    counts[(size_t)d * nseg + s] = c[d];
}

/*
 * lsk_sort_scatter_K(state, pass, kin, kout, ktmp, vin, vout, vtmp,
 * values, n, seglen, x, shift, mask, counts, nseg, off): if state[pass]
 * says the pass runs, each segment stores its keys (and values, where
 * values is nonzero), in order, at counts[d * nseg + s] + (how many of its
 * keys before this one have digit d): the scanned counts are the
 * segment's first slot per digit. off: local memory as cnt above.
 */
#define LSK__SORT_SCATTER LSK__PASTE(lsk_sort_scatter_, LSK_SORT_KEY)
LSK_KERNEL void LSK__SORT_SCATTER(LSK_CTX, __global const uint *state, uint pass,
                                  __global LSK__SORT_T *kin, __global LSK__SORT_T *kout,
                                  __global LSK__SORT_T *ktmp, __global uint *vin,
                                  __global uint *vout, __global uint *vtmp, uint values, uint n,
                                  uint seglen, LSK__SORT_T x, uint shift, uint mask,
                                  __global const uint *restrict counts, uint nseg,
                                  __local uint *restrict off)
{
  uint st = state[pass];
  if (!(st & 1u))
    return;
  uint from = st >> 2 & 3u, to = st >> 4 & 3u;
  __global const LSK__SORT_T *restrict ks = LSK__SORT_SEL(from, kin, kout, ktmp);
  __global LSK__SORT_T *restrict kd = LSK__SORT_SEL(to, kin, kout, ktmp);
  uint lo, hi, col = lsk_worker() * (mask + 2u);
  uint s = lsk__segment(n, seglen, &lo, &hi);
  __local uint *restrict o = off + col;
  for (uint d = 0; d <= mask; ++d)
    o[d] = counts[(size_t)d * nseg + s];
  LSK__SORT_T k;
  /* The walk twice, with and without values: no test per element. Slots
   * are asked for ahead where the CPU can (the digits' write fronts are
   * more than its prefetchers follow: the scatter in about 0.9 of the
   * time, 2^24 keys, 11-bit digits, 2 cores). */
  if (values) {
    __global const uint *restrict vs = LSK__SORT_SEL(from, vin, vout, vtmp);
    __global uint *restrict vd = LSK__SORT_SEL(to, vin, vout, vtmp);
    for (uint i = lo; i < hi; ++i) {
#ifdef LSK__PREFETCH_W
      if (i + LSK__SCATTER_AHEAD < hi) {
        uint da = lsk__sort_digit(ks[i + LSK__SCATTER_AHEAD], x, shift, mask);
        LSK__PREFETCH_W(kd + o[da]);
        LSK__PREFETCH_W(vd + o[da]);
      }
#endif
      k = ks[i];
      uint d = lsk__sort_digit(k, x, shift, mask);
      uint at = o[d];
      o[d] = at + 1u;
      kd[at] = k;
      vd[at] = vs[i];
    }
  } else {
    for (uint i = lo; i < hi; ++i) {
#ifdef LSK__PREFETCH_W
      if (i + LSK__SCATTER_AHEAD < hi)
        LSK__PREFETCH_W(kd + o[lsk__sort_digit(ks[i + LSK__SCATTER_AHEAD], x, shift, mask)]);
#endif
      k = ks[i];
      uint d = lsk__sort_digit(k, x, shift, mask);
      uint at = o[d];
      o[d] = at + 1u;
      kd[at] = k;
    }
  }
}

/*
 * The GPU path (host/algo/sort.c chooses it on GPUs, LSK_SORT_GPU forces
 * it): the same passes, but a block, not a work-item, owns a range: block
 * b the elements [b * blen, min((b + 1) * blen, n)), blen a multiple of
 * LSK_WORKERS, and counts[d * nblocks + b] its count of digit d. The
 * counters are the block's, in local memory, one copy per group of 32
 * workers (a warp on NVIDIA: keys that share a digit in different warps
 * do not meet on one counter), counted with local atomics; nothing per
 * worker, so 8-bit digits fit beside 1024 workers.
 *
 * lsk_sort_bcount_K(state, pass, first, in, out, tmp, n, blen, x, shift,
 * mask, counts, nblocks, oa, cnt): as lsk_sort_count_K, per block; the
 * OR and AND per work-item, to oa[2 s] and oa[2 s + 1], s = b *
 * LSK_WORKERS + worker (the plan takes nblocks * LSK_WORKERS of them).
 * cnt: groups * (mask + 1) uints, groups = ceil(LSK_WORKERS / 32).
 */
#define LSK__SORT_GROUPS ((LSK_WORKERS + 31u) / 32u)
#define LSK__SORT_BCOUNT LSK__PASTE(lsk_sort_bcount_, LSK_SORT_KEY)
LSK_KERNEL void LSK__SORT_BCOUNT(LSK_CTX, __global const uint *state, uint pass, uint first,
                                 __global const LSK__SORT_T *in, __global const LSK__SORT_T *out,
                                 __global const LSK__SORT_T *tmp, uint n, uint blen, LSK__SORT_T x,
                                 uint shift, uint mask, __global uint *restrict counts,
                                 uint nblocks, __global ulong *restrict oa, __local uint *cnt)
{
  __global const LSK__SORT_T *src = in;
  if (!first) {
    uint st = state[pass];
    if ((st & 3u) != 3u)
      return;
    src = LSK__SORT_SEL(st >> 2 & 3u, in, out, tmp);
  }
  uint w = lsk_worker(), b = lsk_block_idx(), radix = mask + 1u;
  for (uint i = w; i < LSK__SORT_GROUPS * radix; i += LSK_WORKERS)
    cnt[i] = 0u;
  lsk_sync_local();
  ulong a = (ulong)b * blen;
  uint lo = (uint)min(a, (ulong)n), hi = (uint)min(a + blen, (ulong)n);
  __local uint *c = cnt + (w / 32u) * radix;
  LSK__SORT_T any = 0, all = ~(LSK__SORT_T)0;
  for (uint i = lo + w; i < hi; i += LSK_WORKERS) {
    LSK__SORT_T t = lsk__sort_t(src[i], x);
    any |= t;
    all &= t;
    atomic_inc(&c[lsk__sort_digit_of(t, shift, mask)]);
  }
  if (first) {
    size_t s = (size_t)b * LSK_WORKERS + w;
    oa[2 * s] = (ulong)any;
    oa[2 * s + 1] = (ulong)all;
  }
  lsk_sync_local();
  for (uint d = w; d < radix; d += LSK_WORKERS) {
    uint sum = 0u;
    for (uint g = 0; g < LSK__SORT_GROUPS; ++g)
      sum += cnt[g * radix + d];
    counts[(size_t)d * nblocks + b] = sum;
  }
}

/*
 * lsk_sort_bscatter_K(state, pass, kin, kout, ktmp, vin, vout, vtmp,
 * values, n, blen, x, shift, mask, counts, nblocks, loc): as
 * lsk_sort_scatter_K, per block. The block walks its range in chunks of
 * LSK_WORKERS elements, worker w taking element chunk + w. Stable ranks
 * without waiting on anyone: each worker writes its digit to dig[w]; its
 * rank in its group of 32 is the number of workers before it in the group
 * with the same digit (read from dig, in worker order), and the group's
 * last worker of a digit writes the group's count of it; then one worker
 * per digit turns the groups' counts into their first slots, in group
 * order from the block's next slot of that digit (base[d]), and moves
 * base[d] past the chunk. Element order is chunk, group, worker: the
 * order of the keys. loc: mask + 1 (base), groups * (mask + 1) (cnt) and
 * LSK_WORKERS (dig) uints.
 */
#define LSK__SORT_BSCATTER LSK__PASTE(lsk_sort_bscatter_, LSK_SORT_KEY)
LSK_KERNEL void LSK__SORT_BSCATTER(LSK_CTX, __global const uint *state, uint pass,
                                   __global LSK__SORT_T *kin, __global LSK__SORT_T *kout,
                                   __global LSK__SORT_T *ktmp, __global uint *vin,
                                   __global uint *vout, __global uint *vtmp, uint values, uint n,
                                   uint blen, LSK__SORT_T x, uint shift, uint mask,
                                   __global const uint *restrict counts, uint nblocks,
                                   __local uint *loc)
{
  uint st = state[pass];
  if (!(st & 1u))
    return;
  LSK__SORT_BUFFERS(st);
  uint w = lsk_worker(), b = lsk_block_idx(), radix = mask + 1u;
  uint g = w / 32u, first = g * 32u, last = min(first + 32u, (uint)LSK_WORKERS);
  __local uint *base = loc, *cnt = loc + radix, *dig = cnt + LSK__SORT_GROUPS * radix;
  for (uint d = w; d < radix; d += LSK_WORKERS)
    base[d] = counts[(size_t)d * nblocks + b];
  ulong a = (ulong)b * blen;
  uint lo = (uint)min(a, (ulong)n), hi = (uint)min(a + blen, (ulong)n);
  for (uint chunk = lo; chunk < hi; chunk += LSK_WORKERS) {
    for (uint i = w; i < LSK__SORT_GROUPS * radix; i += LSK_WORKERS)
      cnt[i] = 0u;
    uint i = chunk + w, d = radix; /* radix: no element, no digit */
    LSK__SORT_T k = 0;
    if (i < hi) {
      k = ks[i];
      d = lsk__sort_digit(k, x, shift, mask);
    }
    dig[w] = d;
    lsk_sync_local();
    uint before = 0u, after = 0u;
    for (uint j = first; j < w; ++j)
      before += dig[j] == d;
    for (uint j = w + 1u; j < last; ++j)
      after += dig[j] == d;
    if (i < hi && after == 0u)
      cnt[g * radix + d] = before + 1u;
    lsk_sync_local();
    for (uint e = w; e < radix; e += LSK_WORKERS) {
      uint run = base[e];
      for (uint h = 0; h < LSK__SORT_GROUPS; ++h) {
        uint c = cnt[h * radix + e];
        cnt[h * radix + e] = run;
        run += c;
      }
      base[e] = run;
    }
    lsk_sync_local();
    if (i < hi) {
      uint at = cnt[g * radix + d] + before;
      kd[at] = k;
      if (values)
        vd[at] = vs[i];
    }
    lsk_sync_local();
  }
}

/*
 * lsk_sort_copy_T(state, kin, kout, ktmp, vin, vout, vtmp, values, n,
 * per_block): if state says so, the keys (and values) from one buffer to
 * another; block b copies tiles [b * per_block, (b + 1) * per_block).
 */
#define LSK__SORT_COPY_K LSK__PASTE(lsk_sort_copy_, LSK__SORT_T)
LSK_KERNEL void LSK__SORT_COPY_K(LSK_CTX, __global const uint *state, __global LSK__SORT_T *kin,
                                 __global LSK__SORT_T *kout, __global LSK__SORT_T *ktmp,
                                 __global uint *vin, __global uint *vout, __global uint *vtmp,
                                 uint values, uint n, uint per_block)
{
  uint st = state[LSK__SORT_COPY];
  if (!(st & 1u))
    return;
  LSK__SORT_BUFFERS(st);
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    LSK_FOREACH(it)
    {
      uint i = t * LSK_DOMAIN_SIZE + it.idx;
      if (i < n) {
        kd[i] = ks[i];
        if (values)
          vd[i] = vs[i];
      }
    }
  }
}

/* OR and AND over the workers (the plan's block reductions). */
#define lsk__sort_or(a, b) ((a) | (b))
#define lsk__sort_and(a, b) ((a) & (b))
LSK_BLOCK_DEFINE(sortor, ulong, lsk__sort_or, 0ul)
LSK_BLOCK_DEFINE(sortand, ulong, lsk__sort_and, ~0ul)

/*
 * lsk_sort_plan(oa, nseg, keybits, bits, in_place, state): one block. The
 * OR and the AND of every key's t (from the segments' in oa); digit p,
 * bits [p * bits, min((p + 1) * bits, keybits)), runs where they differ
 * there. With m passes running, the k-th of them (from 0) reads where the
 * one before wrote (the first: IN) and writes so that the last lands in
 * the output: out of place, OUT when m - 1 - k is even, else TMP (m = 0:
 * a copy IN -> OUT); in place, TMP when k is even, else IN (m odd: a copy
 * TMP -> IN at the end). A pass counts unless it is digit 0 (counted by
 * the first kernel, on IN).
 */
LSK_KERNEL void lsk_sort_plan(LSK_CTX, __global const ulong *oa, uint nseg, uint keybits, uint bits,
                              uint in_place, __global uint *state)
{
  LSK_BLOCK_SCRATCH(ulong, scratch);
  ulong any = 0, all = ~0ul;
  for (uint s = lsk_worker(); s < nseg; s += LSK_WORKERS) {
    any |= oa[2 * (size_t)s];
    all &= oa[2 * (size_t)s + 1];
  }
  any = lsk_block_reduce_sortor_ulong(scratch, any);
  all = lsk_block_reduce_sortand_ulong(scratch, all);
  LSK_MASTER
  {
    ulong diff = any ^ all;
    uint passes = (keybits + bits - 1) / bits, m = 0;
    for (uint p = 0; p < passes; ++p)
      m += (diff >> (p * bits) & ((1ul << bits) - 1ul)) != 0ul;
    uint k = 0, at = 0u; /* the running pass and where the keys are */
    for (uint p = 0; p < passes; ++p) {
      uint st = 0u;
      if ((diff >> (p * bits) & ((1ul << bits) - 1ul)) != 0ul) {
        uint to = in_place ? (k % 2u == 0u ? 2u : 0u) : ((m - 1u - k) % 2u == 0u ? 1u : 2u);
        st = 1u | (p != 0u ? 2u : 0u) | at << 2 | to << 4;
        at = to;
        ++k;
      }
      state[p] = st;
    }
    uint copy = 0u;
    if (in_place && at != 0u)
      copy = 1u | at << 2 | 0u << 4;
    else if (!in_place && at != 1u)
      copy = 1u | at << 2 | 1u << 4;
    state[LSK__SORT_COPY] = copy;
  }
}
