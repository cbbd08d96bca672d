/*
 * random.cl: lsk_random_fill (host/algo/random.c): a buffer filled with
 * counter-based random numbers (cl/lsk_random.h). Element j of the buffer
 * (its position, offset included) takes its words from
 * lsk_random4(seed, stream, j / per, 0), per being the elements that one
 * counter's four words serve (4 words, 2 floats of a normal pair, ...): a
 * value depends on (seed, stream, j) alone, never on the launch shape, and
 * a fill split in two gives what one fill gives.
 *
 * Each work-item index is one counter: its four words are computed once
 * and give the `per` elements they serve that lie in [base, base + n)
 * (computing Philox per element made the uniform fill four times the
 * work). Block b takes tiles [b * per_block, (b + 1) * per_block) of
 * LSK_DOMAIN_SIZE counters, from the first counter base / per; no block
 * waits for another.
 */

/* The loop of every fill kernel over its counters, PER elements each;
 * BODY sees r (the counter's words), k (the element within the counter)
 * and j (the element's position), for the elements in [base, base + n).
 * The host's plan counts the counters (host/algo/random.c). */
#define LSK__RANDOM_LOOP(PER, BODY)                                            \
  uint q0 = base / (PER), nq = (base + n + (PER)-1u) / (PER)-q0;               \
  uint tiles = (nq + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE;                   \
  uint first = lsk_block_idx() * per_block;                                    \
  uint end = per_block < tiles - min(first, tiles) ? first + per_block : tiles;\
  for (uint t = first; t < end; ++t) {                                         \
    LSK_FOREACH(it) {                                                          \
      uint i = t * LSK_DOMAIN_SIZE + it.idx;                                   \
      if (i < nq) {                                                            \
        uint q = q0 + i;                                                       \
        uint4 r = lsk_random4(seed, stream, q, 0u);                            \
        for (uint k = 0; k < (PER); ++k) {                                     \
          uint j = q * (PER) + k;                                              \
          if (j - base < n && j >= base) {                                     \
            BODY                                                               \
          }                                                                    \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  }

/* Word k (0 to 3) of r, by halves: (oclgrind 21.10 got a chain of
 * conditionals on the components wrong, the last component for k = 0.) */
LSK_INLINE uint lsk__word(uint4 r, uint k)
{
  uint2 h = (k & 2u) ? r.zw : r.xy;
  return (k & 1u) ? h.y : h.x;
}

/* Raw words: four elements per counter. */
LSK_KERNEL void lsk_random_uint(LSK_CTX, __global uint *out, uint base, uint n, uint per_block,
                                ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(4u, out[j] = lsk__word(r, k);)
}

/* Uniform floats: the same words, one each. */
LSK_KERNEL void lsk_random_uniform_float(LSK_CTX, __global float *out, uint base, uint n,
                                         uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(4u, out[j] = lsk_uniform_float(lsk__word(r, k));)
}

/* Normal floats: two words each, two elements per counter. */
LSK_KERNEL void lsk_random_normal_float(LSK_CTX, __global float *out, uint base, uint n,
                                        uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(2u, out[j] = k ? lsk_normal_float(r.z, r.w) : lsk_normal_float(r.x, r.y);)
}

#ifdef LSK_HAS_FP64
/* Uniform doubles: two words each, two elements per counter. */
LSK_KERNEL void lsk_random_uniform_double(LSK_CTX, __global double *out, uint base, uint n,
                                          uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(2u, out[j] = k ? lsk_uniform_double(r.z, r.w) : lsk_uniform_double(r.x, r.y);)
}

/* Normal doubles: four words each, one element per counter. */
LSK_KERNEL void lsk_random_normal_double(LSK_CTX, __global double *out, uint base, uint n,
                                         uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(1u, (void)k; out[j] = lsk_normal_double(r);)
}
#endif
