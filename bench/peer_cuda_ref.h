/*
 * bench/peer_cuda_ref.h: the data and the C references of the cuda case,
 * shared by its two sides: `lsk bench --only cuda` (peer_cuda.c, C11) and
 * lsk-peer-cuda (peer_cuda.cu, compiled by nvcc as C++), so that lsk's
 * results and CUDA's are checked against one and the same plain C code.
 * The data are those of the bench's own cases, the same formulas:
 *   triad      b[i] = (i % 1000) / 2, c[i] = 1 / (1 + i % 7), a = b + 3c
 *              (triad.c), doubles; compared exactly (no fused multiply-add)
 *   reduce     x[i] = (i * 2654435761 % 17) - 8, doubles (algo.c): the
 *              sum is an integer, exact in any order
 *   scan       x[i] = i * 2654435761 >> 28, uints (algo.c), exclusive
 *   sort       2^min(log2n, 24) keys, the high words of a 64-bit LCG,
 *              values the indices (sort.c); the reference is a stable LSD
 *              radix sort, so the pairs' values are fixed too
 *   histogram  keys (LCG >> 33) % (bins + bins / 64) for 256 and 65536
 *              bins, the keys past the bins in one more counter
 *              (histogram.c)
 *   compact    the indices i of x[i] % 100 < 50, x[i] = LCG >> 33
 *              (compact.c)
 *   random     uniform floats; lsk's are Philox4x32-10 with lsk's counter
 *              mapping (random.c checks every bit), cuRAND's follow its
 *              own: both are held against the uniform distribution
 *              (peer_random_check), not against each other.
 * Everything here is static inline: each side compiles its own copy.
 */
#ifndef LSK_BENCH_PEER_CUDA_REF_H
#define LSK_BENCH_PEER_CUDA_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PEER_SORT_LOG2_MAX 24
#define PEER_COMPACT_PERCENT 50u
#define PEER_RANDOM_BINS 64

static inline double peer_triad_b(size_t i) { return (double)(i % 1000) * 0.5; }
static inline double peer_triad_c(size_t i) { return 1.0 / (double)(1 + i % 7); }

static inline double peer_reduce_x(size_t i) { return (double)(int)(i * 2654435761u % 17) - 8.0; }

static inline unsigned peer_scan_x(size_t i) { return (unsigned)(i * 2654435761u >> 28); }

/* The LCG of sort.c, histogram.c and compact.c: the state after step i + 1
 * is what element i is taken from. */
static inline uint64_t peer_lcg(uint64_t s)
{
  return s * 6364136223846793005ull + 1442695040888963407ull;
}

static inline void peer_sort_data(uint32_t *keys, uint32_t *vals, size_t n)
{
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; ++i) {
    s = peer_lcg(s);
    keys[i] = (uint32_t)(s >> 32);
    vals[i] = (uint32_t)i;
  }
}

static inline void peer_hist_data(unsigned *x, size_t n, size_t nbins)
{
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; ++i) {
    s = peer_lcg(s);
    x[i] = (unsigned)((s >> 33) % (nbins + nbins / 64));
  }
}

static inline void peer_compact_data(unsigned *x, size_t n)
{
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; ++i) {
    s = peer_lcg(s);
    x[i] = (unsigned)(s >> 33);
  }
}

/* The references. */
static inline double peer_reduce_ref(size_t n)
{
  double sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum += peer_reduce_x(i);
  return sum;
}

static inline void peer_scan_ref(const unsigned *in, unsigned *out, size_t n)
{
  unsigned run = 0;
  for (size_t i = 0; i < n; ++i) {
    out[i] = run;
    run += in[i];
  }
}

/* Stable LSD radix sort, 8-bit digits, of k (and v where not NULL) in
 * place; tk and tv are scratch of n each (tv may be NULL with v). */
static inline void peer_radix_ref(uint32_t *k, uint32_t *v, uint32_t *tk, uint32_t *tv, size_t n)
{
  for (unsigned shift = 0; shift < 32; shift += 8) {
    size_t count[257] = {0};
    for (size_t i = 0; i < n; ++i)
      ++count[((k[i] >> shift) & 255u) + 1];
    for (unsigned d = 0; d < 256; ++d)
      count[d + 1] += count[d];
    for (size_t i = 0; i < n; ++i) {
      size_t at = count[(k[i] >> shift) & 255u]++;
      tk[at] = k[i];
      if (v)
        tv[at] = v[i];
    }
    memcpy(k, tk, n * sizeof *k);
    if (v)
      memcpy(v, tv, n * sizeof *v);
  }
}

/* nbins + 1 counters: the last one counts the keys past the bins. */
static inline void peer_hist_ref(const unsigned *x, size_t n, size_t nbins, unsigned *bins)
{
  memset(bins, 0, (nbins + 1) * sizeof *bins);
  for (size_t i = 0; i < n; ++i)
    ++bins[x[i] < nbins ? x[i] : nbins];
}

/* The selected indices in order; returns how many. */
static inline size_t peer_compact_ref(const unsigned *x, size_t n, unsigned *out)
{
  size_t m = 0;
  for (size_t i = 0; i < n; ++i)
    if (x[i] % 100u < PEER_COMPACT_PERCENT)
      out[m++] = (unsigned)i;
  return m;
}

/* Uniform floats in [0, 1] (either end may be in or out, as lsk's
 * [0, 1) and cuRAND's (0, 1] differ): every value in range, and each of
 * PEER_RANDOM_BINS equal bins within 6 standard deviations of n / bins
 * (for n >= 2^16; a wrong mapping, a constant or a stuck word fails it).
 * Returns the first bad index, or n when all is well; *bin gets the first
 * bad bin's index, or PEER_RANDOM_BINS. */
static inline size_t peer_random_check(const float *x, size_t n, unsigned *bin)
{
  size_t count[PEER_RANDOM_BINS] = {0};
  *bin = PEER_RANDOM_BINS;
  for (size_t i = 0; i < n; ++i) {
    if (!(x[i] >= 0.0f && x[i] <= 1.0f))
      return i;
    unsigned b = (unsigned)(x[i] * PEER_RANDOM_BINS);
    ++count[b < PEER_RANDOM_BINS ? b : PEER_RANDOM_BINS - 1];
  }
  if (n < ((size_t)1 << 16))
    return n;
  double mean = (double)n / PEER_RANDOM_BINS, sd = 0;
  /* sqrt(n p (1 - p)) without libm: Newton from above. */
  double var = mean * (1.0 - 1.0 / PEER_RANDOM_BINS);
  sd = var;
  for (int it = 0; it < 64; ++it)
    sd = 0.5 * (sd + var / sd);
  for (unsigned b = 0; b < PEER_RANDOM_BINS; ++b) {
    double d = (double)count[b] - mean;
    if (d > 6 * sd || d < -6 * sd) {
      *bin = b;
      return 0;
    }
  }
  return n;
}

#endif /* LSK_BENCH_PEER_CUDA_REF_H */
