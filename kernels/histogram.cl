/*
 * histogram.cl: lsk_histogram_uint and lsk_histogram_real
 * (host/algo/histogram.c). Each element goes to one of `slots` counters
 * (the nbins bins, then the extra counters of include/lsk/histogram.h):
 * lsk__hist_slot_T says which.
 *
 * lsk_histogram_zero clears the counters (a kernel, in queue order: a
 * fill is no write for oclgrind). Then one pass: block b takes tiles
 * [b * per_block, (b + 1) * per_block) of LSK_DOMAIN_SIZE elements, below
 * n. The _local kernels count a block's elements in local memory (one
 * counter per slot, zeroed by the block) and add each nonzero counter to
 * the output with one global atomic; the _global kernels add every element
 * to the output with one global atomic. No block waits for another.
 */

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

/* uint keys: key k < nbins in bin k, the others in the one after. */
LSK_INLINE uint lsk__hist_slot_uint(uint v, uint lo, uint hi, uint scale, uint nbins)
{
  (void)lo;
  (void)hi;
  (void)scale;
  return min(v, nbins);
}

/* Reals (include/lsk/histogram.h): NaN, below lo, at or above hi, else
 * floor((v - lo) * scale), rounded once each and kept below nbins. The
 * comparison with (T)nbins comes before the conversion, which would be
 * undefined past the uint range. */
#define LSK__HIST_SLOT_REAL(T)                                                                     \
  LSK_INLINE uint lsk__hist_slot_##T(T v, T lo, T hi, T scale, uint nbins)                         \
  {                                                                                                \
    if (isnan(v))                                                                                  \
      return nbins + 2u;                                                                           \
    if (v < lo)                                                                                    \
      return nbins;                                                                                \
    if (v >= hi)                                                                                   \
      return nbins + 1u;                                                                           \
    T d = v - lo;                                                                                  \
    T f = floor(d * scale);                                                                        \
    uint bin = f < (T)nbins ? (uint)f : nbins - 1u;                                                \
    return min(bin, nbins - 1u);                                                                   \
  }

LSK__HIST_SLOT_REAL(float)
#ifdef LSK_HAS_FP64
LSK__HIST_SLOT_REAL(double)
#endif

/* The loop over a block's elements; BODY sees s, the element's slot. */
#define LSK__HIST_LOOP(T, BODY)                                                                    \
  LSK__TILE_RUN(n, per_block);                                                                     \
  (void)full;                                                                                      \
  for (uint t = first; t < end; ++t) {                                                             \
    LSK_FOREACH(it)                                                                                \
    {                                                                                              \
      uint i = t * LSK_DOMAIN_SIZE + it.idx;                                                       \
      if (i < n) {                                                                                 \
        uint s = lsk__hist_slot_##T(in[base + i], lo, hi, scale, nbins);                           \
        BODY                                                                                       \
      }                                                                                            \
    }                                                                                              \
  }

#define LSK__HIST_KERNELS(T)                                                                       \
  LSK_KERNEL void lsk_histogram_##T##_global(                                                      \
      LSK_CTX, __global const T *restrict in, uint base, uint n, uint per_block, T lo, T hi,       \
      T scale, uint nbins, uint slots, __global uint *out, uint out_base)                          \
  {                                                                                                \
    (void)slots;                                                                                   \
    LSK__HIST_LOOP(T, atomic_inc(&out[out_base + s]);)                                             \
  }                                                                                                \
  LSK_KERNEL void lsk_histogram_##T##_local(                                                       \
      LSK_CTX, __global const T *restrict in, uint base, uint n, uint per_block, T lo, T hi,       \
      T scale, uint nbins, uint slots, __global uint *out, uint out_base, __local uint *hist)      \
  {                                                                                                \
    for (uint i = lsk_worker(); i < slots; i += LSK_WORKERS)                                       \
      hist[i] = 0u;                                                                                \
    lsk_sync_local();                                                                              \
    LSK__HIST_LOOP(T, atomic_inc(&hist[s]);)                                                       \
    lsk_sync_local();                                                                              \
    for (uint i = lsk_worker(); i < slots; i += LSK_WORKERS) {                                     \
      uint c = hist[i];                                                                            \
      if (c)                                                                                       \
        atomic_add(&out[out_base + i], c);                                                         \
    }                                                                                              \
  }

LSK__HIST_KERNELS(uint)
LSK__HIST_KERNELS(float)
#ifdef LSK_HAS_FP64
LSK__HIST_KERNELS(double)
#endif
