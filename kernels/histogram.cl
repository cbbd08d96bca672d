/*
 * histogram.cl: lsk_histogram_uint and lsk_histogram_real
 * (host/algo/histogram.c). Each element goes to one of `slots` counters
 * (the nbins bins, then the extra counters of include/lsk/histogram.h):
 * lsk__hist_slot says which.
 *
 * lsk_histogram_zero clears the counters (a kernel, in queue order: a
 * fill is no write for oclgrind). Then one pass: block b takes tiles
 * [b * per_block, (b + 1) * per_block) of LSK_DOMAIN_SIZE elements, below
 * n. The _local kernels count a block's elements in local memory (one
 * counter per slot, zeroed by the block) and add each nonzero counter to
 * the output with one global atomic; the _global kernels add every element
 * to the output with one global atomic. No block waits for another. On
 * CPUs the pass is the _private kernel instead (at the end: contiguous
 * segments, counters of each work-item's own).
 *
 * Written once over the element type; the host builds one program per
 * type, -D LSK_T=<type>, with lsk_histogram_zero and the type's four
 * kernels, lsk_histogram_<type>_global, _local, _copies and _private. The builds
 * (tests/oclgrind_coverage.sh and tests/devicelib.sh read this line;
 * double where the device has fp64):
 * lsk-builds: LSK_T=uint,float,double
 */
#ifndef LSK_T
#error "kernels/histogram.cl is built per type: -D LSK_T=uint|float|double"
#endif

/* The zeroing: counters [out_base, out_base + slots) of out. */
LSK_KERNEL void lsk_histogram_zero(LSK_CTX, __global uint *out, uint out_base, uint slots)
{
  LSK_BLOCKS(b, (slots + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < slots)
        out[out_base + i] = 0u;
    }
  }
}

/* Whether the type is a real one: its slots are ranges of values. */
#define LSK__H_REAL LSK__PASTE(LSK__H_REAL_, LSK_T)
#define LSK__H_REAL_uint 0
#define LSK__H_REAL_float 1
#define LSK__H_REAL_double 1

#if LSK__H_REAL
/* Reals (include/lsk/histogram.h): NaN, below lo, at or above hi, else
 * floor((v - lo) * scale), rounded once each and kept below nbins. The
 * comparison with (T)nbins comes before the conversion, which would be
 * undefined past the uint range. */
LSK_INLINE uint lsk__hist_slot(LSK_T v, LSK_T lo, LSK_T hi, LSK_T scale, uint nbins)
{
  if (isnan(v))
    return nbins + 2u;
  if (v < lo)
    return nbins;
  if (v >= hi)
    return nbins + 1u;
  LSK_T d = v - lo;
  LSK_T f = floor(d * scale);
  uint bin = f < (LSK_T)nbins ? (uint)f : nbins - 1u;
  return min(bin, nbins - 1u);
}
#else
/* uint keys: key k < nbins in bin k, the others in the one after. */
LSK_INLINE uint lsk__hist_slot(uint v, uint lo, uint hi, uint scale, uint nbins)
{
  (void)lo;
  (void)hi;
  (void)scale;
  return min(v, nbins);
}
#endif

/* Both kernels: block b over tiles [b * per_block, (b + 1) * per_block),
 * each element to its slot. */
#define LSK__HIST_GLOBAL LSK__PASTE3(lsk_histogram_, LSK_T, _global)
LSK_KERNEL void LSK__HIST_GLOBAL(LSK_CTX, __global const LSK_T *restrict in, uint base, uint n,
                                 uint per_block, LSK_T lo, LSK_T hi, LSK_T scale, uint nbins,
                                 uint slots, __global uint *out, uint out_base)
{
  (void)slots;
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    LSK_FOREACH(it)
    {
      uint i = t * LSK_DOMAIN_SIZE + it.idx;
      if (i < n) {
        uint s = lsk__hist_slot(in[base + i], lo, hi, scale, nbins);
        atomic_inc(&out[out_base + s]);
      }
    }
  }
}

#define LSK__HIST_LOCAL LSK__PASTE3(lsk_histogram_, LSK_T, _local)
LSK_KERNEL void LSK__HIST_LOCAL(LSK_CTX, __global const LSK_T *restrict in, uint base, uint n,
                                uint per_block, LSK_T lo, LSK_T hi, LSK_T scale, uint nbins,
                                uint slots, __global uint *out, uint out_base, __local uint *hist)
{
  for (uint i = lsk_worker(); i < slots; i += LSK_WORKERS)
    hist[i] = 0u;
  lsk_sync_local();
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    LSK_FOREACH(it)
    {
      uint i = t * LSK_DOMAIN_SIZE + it.idx;
      if (i < n) {
        uint s = lsk__hist_slot(in[base + i], lo, hi, scale, nbins);
        atomic_inc(&hist[s]);
      }
    }
  }
  lsk_sync_local();
  for (uint i = lsk_worker(); i < slots; i += LSK_WORKERS) {
    uint c = hist[i];
    if (c)
      atomic_add(&out[out_base + i], c);
  }
}

/* The GPU kernel (host/algo/histogram.c chooses it on GPUs where slots are
 * few; LSK_HISTOGRAM_GPU forces it): as _local, but with `copies` copies
 * of the counters per block, `stride` apart (stride >= slots, odd: copy c
 * of a slot falls in another bank than copy c + 1), worker w counting in
 * copy w % copies with local atomics, so that neighbouring workers with
 * the same key (skewed data: many equal keys) do not queue on one counter.
 * Then the block adds the copies up, slot by slot, and each nonzero sum to
 * the output with one global atomic: one merge per block. */
#define LSK__HIST_COPIES LSK__PASTE3(lsk_histogram_, LSK_T, _copies)
LSK_KERNEL void LSK__HIST_COPIES(LSK_CTX, __global const LSK_T *restrict in, uint base, uint n,
                                 uint per_block, LSK_T lo, LSK_T hi, LSK_T scale, uint nbins,
                                 uint slots, uint copies, uint stride, __global uint *out,
                                 uint out_base, __local uint *hist)
{
  for (uint i = lsk_worker(); i < copies * stride; i += LSK_WORKERS)
    hist[i] = 0u;
  lsk_sync_local();
  __local uint *mine = hist + (lsk_worker() % copies) * stride;
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    LSK_FOREACH(it)
    {
      uint i = t * LSK_DOMAIN_SIZE + it.idx;
      if (i < n) {
        uint s = lsk__hist_slot(in[base + i], lo, hi, scale, nbins);
        atomic_inc(&mine[s]);
      }
    }
  }
  lsk_sync_local();
  for (uint i = lsk_worker(); i < slots; i += LSK_WORKERS) {
    uint sum = 0u;
    for (uint c = 0; c < copies; ++c)
      sum += hist[c * stride + i];
    if (sum)
      atomic_add(&out[out_base + i], sum);
  }
}

/* The CPU kernel (host/algo/histogram.c chooses it where the device is
 * not a GPU): every work-item owns a segment, the contiguous run of
 * seglen elements [s * seglen, (s + 1) * seglen) below n, s = block *
 * LSK_WORKERS + worker, and `ways` columns (1 or 4) of `slots` counters
 * of its own in local memory (from hist + worker * ways * slots), plain
 * increments, no atomics; with 4, elements i, i + 1, i + 2, i + 3 go to
 * columns 0-3, so that increments of one slot close together do not wait
 * for each other. Then the block adds its columns up, slot by slot, and
 * each nonzero sum to the output with one global atomic. On PoCL a block is one thread
 * looping over its work-items: the host launches one worker per block, a
 * few blocks per compute unit, so the count is a serial loop like C's. */
#define LSK__HIST_PRIVATE LSK__PASTE3(lsk_histogram_, LSK_T, _private)
LSK_KERNEL void LSK__HIST_PRIVATE(LSK_CTX, __global const LSK_T *restrict in, uint base, uint n,
                                  uint seglen, LSK_T lo, LSK_T hi, LSK_T scale, uint nbins,
                                  uint slots, uint ways, __global uint *out, uint out_base,
                                  __local uint *hist)
{
  __local uint *c = hist + lsk_worker() * ways * slots;
  for (uint i = 0; i < ways * slots; ++i)
    c[i] = 0u;
  uint first, end;
  lsk__segment(n, seglen, &first, &end);
  __global const LSK_T *x = in + base;
  uint i = first;
  if (ways == 4u) {
    __local uint *c1 = c + slots, *c2 = c1 + slots, *c3 = c2 + slots;
    for (; i + 4u <= end; i += 4u) {
      ++c[lsk__hist_slot(x[i], lo, hi, scale, nbins)];
      ++c1[lsk__hist_slot(x[i + 1u], lo, hi, scale, nbins)];
      ++c2[lsk__hist_slot(x[i + 2u], lo, hi, scale, nbins)];
      ++c3[lsk__hist_slot(x[i + 3u], lo, hi, scale, nbins)];
    }
  }
  for (; i < end; ++i)
    ++c[lsk__hist_slot(x[i], lo, hi, scale, nbins)];
  lsk_sync_local();
  uint columns = LSK_WORKERS * ways;
  for (uint i = lsk_worker(); i < slots; i += LSK_WORKERS) {
    uint sum = 0u;
    for (uint w = 0; w < columns; ++w)
      sum += hist[w * slots + i];
    if (sum)
      atomic_add(&out[out_base + i], sum);
  }
}
