/*
 * lsk_random.h: counter-based random numbers: Philox4x32-10 (Salmon,
 * Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3",
 * SC'11), and uniform and normal variates on top of it.
 *
 * A counter-based generator has no state: the numbers are a function of a
 * counter and a key. So a particle's random numbers can depend on what it
 * is (its id, the step, which draw), never on which worker, simd lane,
 * block, device or rank computes them, and every run gives the same ones.
 * No synchronization; any worker may call any function here.
 *
 * lsk_philox4x32_10 is the published function exactly: the counter's first
 * word (.x) is the low one, the key's first word (.x) is the one bumped by
 * the first Weyl constant, and its outputs equal the published known-answer
 * values (tests/device/check_random.c checks three of them).
 */
#ifndef LSK_CL_RANDOM_H
#define LSK_CL_RANDOM_H

#include "lsk_config.h"

#define LSK__PHILOX_M0 0xD2511F53u /* multipliers */
#define LSK__PHILOX_M1 0xCD9E8D57u
#define LSK__PHILOX_W0 0x9E3779B9u /* Weyl constants: the key's bumps */
#define LSK__PHILOX_W1 0xBB67AE85u

/* One round: two 32x32 -> 64-bit products, the words crossed. The
 * products as ulong multiplies, not mul_hi: PoCL calls mul_hi out of line
 * (the fill ran at a fifth of the speed); NVIDIA makes either one
 * mul.wide.u32. */
LSK_INLINE uint4 lsk__philox_round(uint4 c, uint2 k)
{
  ulong p0 = (ulong)LSK__PHILOX_M0 * c.x, p1 = (ulong)LSK__PHILOX_M1 * c.z;
  return (uint4)((uint)(p1 >> 32) ^ c.y ^ k.x, (uint)p1, (uint)(p0 >> 32) ^ c.w ^ k.y, (uint)p0);
}

/* Philox4x32 with 10 rounds: four 32-bit random words for one counter and
 * key. */
LSK_INLINE uint4 lsk_philox4x32_10(uint4 counter, uint2 key)
{
  uint4 c = counter;
  uint2 k = key;
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k.x += LSK__PHILOX_W0;
      k.y += LSK__PHILOX_W1;
    }
    c = lsk__philox_round(c, k);
  }
  return c;
}

/*
 * lsk_random4(seed, stream, index, draw): four random words for item index
 * of stream (a particle id, a cell, ...) at draw (a step, or which of its
 * numbers), from a 64-bit seed: counter (index, draw, stream, 0), key the
 * seed's (low, high) words. Different (stream, index, draw) never share a
 * counter, so their words are independent.
 */
LSK_INLINE uint4 lsk_random4(ulong seed, uint stream, uint index, uint draw)
{
  return lsk_philox4x32_10((uint4)(index, draw, stream, 0u),
                           (uint2)((uint)seed, (uint)(seed >> 32)));
}

/* A float in [0, 1) from a random word: its top 24 bits, so every value is
 * a multiple of 2^-24 and exactly representable (never 1). */
LSK_INLINE float lsk_uniform_float(uint r) { return (float)(r >> 8) * 0x1.0p-24f; }

/* A float in (0, 1]: for logarithms (Box-Muller). */
LSK_INLINE float lsk__uniform_float_open0(uint r) { return (float)((r >> 8) + 1u) * 0x1.0p-24f; }

/*
 * A standard normal float from two random words (Box-Muller: the cosine
 * branch). The device's log and cos: results may differ from another
 * device's in the last bits, never in distribution.
 */
LSK_INLINE float lsk_normal_float(uint r0, uint r1)
{
  float u = lsk__uniform_float_open0(r0), v = lsk_uniform_float(r1);
  return sqrt(-2.0f * log(u)) * cospi(2.0f * v);
}

#ifdef LSK_HAS_FP64
/* A double in [0, 1) from two random words: 53 bits (27 of hi, 26 of lo),
 * every value a multiple of 2^-53. */
LSK_INLINE double lsk_uniform_double(uint hi, uint lo)
{
  return (double)(((ulong)(hi >> 5) << 26) | (lo >> 6)) * 0x1.0p-53;
}

/* A standard normal double from four random words (Box-Muller). */
LSK_INLINE double lsk_normal_double(uint4 r)
{
  double u = (double)((((ulong)(r.x >> 5) << 26) | (r.y >> 6)) + 1ul) * 0x1.0p-53;
  double v = lsk_uniform_double(r.z, r.w);
  return sqrt(-2.0 * log(u)) * cospi(2.0 * v);
}
#endif

#endif /* LSK_CL_RANDOM_H */
