/*
 * random.cl: lsk_random_fill (host/algo/random.c): a buffer filled with
 * counter-based random numbers (cl/lsk_random.h). Element j of the buffer
 * (its position, offset included) takes its words from
 * lsk_random4(seed, stream, j / per, 0), per being the elements that one
 * counter's four words serve (4 words, 2 floats of a normal pair, ...): a
 * value depends on (seed, stream, j) alone, never on the launch shape, and
 * a fill split in two gives what one fill gives.
 *
 * Block b fills tiles [b * per_block, (b + 1) * per_block) of
 * LSK_DOMAIN_SIZE elements, below n; no block waits for another.
 */

/* The loop of every fill kernel; BODY sees j, the element's position. */
#define LSK__RANDOM_LOOP(BODY)                                                 \
  uint tiles = (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE;                    \
  uint first = lsk_block_idx() * per_block;                                    \
  uint end = per_block < tiles - min(first, tiles) ? first + per_block : tiles;\
  for (uint t = first; t < end; ++t) {                                         \
    LSK_FOREACH(it) {                                                          \
      uint i = t * LSK_DOMAIN_SIZE + it.idx;                                   \
      if (i < n) {                                                             \
        uint j = base + i;                                                     \
        BODY                                                                   \
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
  LSK__RANDOM_LOOP(out[j] = lsk__word(lsk_random4(seed, stream, j >> 2, 0u), j & 3u);)
}

/* Uniform floats: the same words, one each. */
LSK_KERNEL void lsk_random_uniform_float(LSK_CTX, __global float *out, uint base, uint n,
                                         uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(
      out[j] = lsk_uniform_float(lsk__word(lsk_random4(seed, stream, j >> 2, 0u), j & 3u));)
}

/* Normal floats: two words each, two elements per counter. */
LSK_KERNEL void lsk_random_normal_float(LSK_CTX, __global float *out, uint base, uint n,
                                        uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(uint4 r = lsk_random4(seed, stream, j >> 1, 0u);
                   out[j] = (j & 1u) ? lsk_normal_float(r.z, r.w) : lsk_normal_float(r.x, r.y);)
}

#ifdef LSK_HAS_FP64
/* Uniform doubles: two words each, two elements per counter. */
LSK_KERNEL void lsk_random_uniform_double(LSK_CTX, __global double *out, uint base, uint n,
                                          uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(uint4 r = lsk_random4(seed, stream, j >> 1, 0u);
                   out[j] = (j & 1u) ? lsk_uniform_double(r.z, r.w) : lsk_uniform_double(r.x, r.y);)
}

/* Normal doubles: four words each, one element per counter. */
LSK_KERNEL void lsk_random_normal_double(LSK_CTX, __global double *out, uint base, uint n,
                                         uint per_block, ulong seed, uint stream)
{
  LSK__RANDOM_LOOP(out[j] = lsk_normal_double(lsk_random4(seed, stream, j, 0u));)
}
#endif
