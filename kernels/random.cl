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
 *
 * Written once over the distribution: the host builds one program per
 * distribution D, -D LSK_RANDOM=D, whose kernel is lsk_random_D. The
 * builds (tests/oclgrind_coverage.sh and tests/devicelib.sh read this
 * line; the doubles where the device has fp64):
 * lsk-builds: LSK_RANDOM=uint,uniform_float,normal_float,uniform_double,normal_double
 */
#ifndef LSK_RANDOM
#error "kernels/random.cl is built per distribution: -D LSK_RANDOM=uint|uniform_float|..."
#endif

/* Word k (0 to 3) of r, by halves: (oclgrind 21.10 got a chain of
 * conditionals on the components wrong, the last component for k = 0.) */
LSK_INLINE uint lsk__word(uint4 r, uint k)
{
  uint2 h = (k & 2u) ? r.zw : r.xy;
  return (k & 1u) ? h.y : h.x;
}

/* Each distribution: its element type, the elements one counter's four
 * words serve, and element k of the counter's words r (an expression,
 * where the loop over k is unrolled: as a function, LLVM simplified the
 * choice between two calls before the unrolling, and the code differed). */
#define LSK__RND_T LSK__PASTE(LSK__RND_T_, LSK_RANDOM)
#define LSK__RND_PER LSK__PASTE(LSK__RND_PER_, LSK_RANDOM)
#define lsk__random_value LSK__PASTE(lsk__random_, LSK_RANDOM)

/* Raw words: four elements per counter. */
#define LSK__RND_T_uint uint
#define LSK__RND_PER_uint 4u
#define lsk__random_uint(r, k) lsk__word(r, k)

/* Uniform floats: the same words, one each. */
#define LSK__RND_T_uniform_float float
#define LSK__RND_PER_uniform_float 4u
#define lsk__random_uniform_float(r, k) lsk_uniform_float(lsk__word(r, k))

/* Normal floats: two words each, two elements per counter. */
#define LSK__RND_T_normal_float float
#define LSK__RND_PER_normal_float 2u
#define lsk__random_normal_float(r, k)                                                             \
  ((k) ? lsk_normal_float((r).z, (r).w) : lsk_normal_float((r).x, (r).y))

#ifdef LSK_HAS_FP64
/* Uniform doubles: two words each, two elements per counter. */
#define LSK__RND_T_uniform_double double
#define LSK__RND_PER_uniform_double 2u
#define lsk__random_uniform_double(r, k)                                                           \
  ((k) ? lsk_uniform_double((r).z, (r).w) : lsk_uniform_double((r).x, (r).y))

/* Normal doubles: four words each, one element per counter. */
#define LSK__RND_T_normal_double double
#define LSK__RND_PER_normal_double 1u
#define lsk__random_normal_double(r, k) lsk_normal_double(r)
#endif

#if LSK_RANDOM_CPU
/*
 * The CPU path (the host's choice where the device is no GPU: -D
 * LSK_RANDOM_CPU=1). PoCL runs a worker's slots as a loop and vectorizes
 * it across slots (8 counters in the lanes of AVX2) only where the body
 * is straight code with stores it can prove contiguous. The GPU form
 * defeats both: its 10 rounds stay a loop (the key bump under `if (r)`),
 * and each element's store is guarded and addressed by a 32-bit index,
 * so the fill ran one scalar counter at a time. So here: the rounds
 * written out (lsk__philox_cpu: the same words as lsk_philox4x32_10), and
 * a tile whose counters' elements all lie in the range stores them
 * unguarded at a 64-bit offset from the tile's start: LLVM makes each
 * product one vpmuludq per 4 lanes and the stores of 8 counters
 * interleaved full-vector stores. Tiles at the range's ends take the
 * guarded form below. Measured in docs/random.md.
 */
#define LSK__PHILOX_ROUND(c, r)                                                                    \
  do {                                                                                             \
    ulong p0_ = (ulong)LSK__PHILOX_M0 * c.x, p1_ = (ulong)LSK__PHILOX_M1 * c.z;                    \
    c = (uint4)((uint)(p1_ >> 32) ^ c.y ^ (k0 + (r)*LSK__PHILOX_W0), (uint)p1_,                    \
                (uint)(p0_ >> 32) ^ c.w ^ (k1 + (r)*LSK__PHILOX_W1), (uint)p0_);                   \
  } while (0)

LSK_INLINE uint4 lsk__philox_cpu(uint4 c, uint k0, uint k1)
{
  LSK__PHILOX_ROUND(c, 0u);
  LSK__PHILOX_ROUND(c, 1u);
  LSK__PHILOX_ROUND(c, 2u);
  LSK__PHILOX_ROUND(c, 3u);
  LSK__PHILOX_ROUND(c, 4u);
  LSK__PHILOX_ROUND(c, 5u);
  LSK__PHILOX_ROUND(c, 6u);
  LSK__PHILOX_ROUND(c, 7u);
  LSK__PHILOX_ROUND(c, 8u);
  LSK__PHILOX_ROUND(c, 9u);
  return c;
}
#endif

/* lsk_random_D(out, base, n, per_block, seed, stream): the counters of
 * elements [base, base + n) of out, LSK__RND_PER elements each; each
 * counter's words computed once give the elements they serve in that
 * range. The host's plan counts the counters (host/algo/random.c). */
#define LSK__RANDOM_KERNEL LSK__PASTE(lsk_random_, LSK_RANDOM)
LSK_KERNEL void LSK__RANDOM_KERNEL(LSK_CTX, __global LSK__RND_T *out, uint base, uint n,
                                   uint per_block, ulong seed, uint stream)
{
  uint q0 = base / LSK__RND_PER, nq = (base + n + LSK__RND_PER - 1u) / LSK__RND_PER - q0;
  uint tiles = (nq + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE;
  uint first = lsk_block_idx() * per_block;
  uint end = per_block < tiles - min(first, tiles) ? first + per_block : tiles;
#if LSK_RANDOM_CPU
  /* The counters whose elements all lie in the range: [qa, qb). */
  uint qa = (base + LSK__RND_PER - 1u) / LSK__RND_PER, qb = (base + n) / LSK__RND_PER;
#endif
  for (uint t = first; t < end; ++t) {
#if LSK_RANDOM_CPU
    uint lo = q0 + t * LSK_DOMAIN_SIZE;
    if (lo >= qa && qb >= lo && qb - lo >= LSK_DOMAIN_SIZE) {
      __global LSK__RND_T *tile = out + (size_t)lo * LSK__RND_PER;
      LSK_FOREACH(it)
      {
        uint4 r = lsk__philox_cpu((uint4)(lo + it.idx, 0u, stream, 0u), (uint)seed,
                                  (uint)(seed >> 32));
        __global LSK__RND_T *o = tile + (size_t)it.idx * LSK__RND_PER;
        o[0] = lsk__random_value(r, 0u);
        if (LSK__RND_PER > 1u)
          o[1] = lsk__random_value(r, 1u);
        if (LSK__RND_PER > 2u) {
          o[2] = lsk__random_value(r, 2u);
          o[3] = lsk__random_value(r, 3u);
        }
      }
      continue;
    }
#endif
    LSK_FOREACH(it)
    {
      uint i = t * LSK_DOMAIN_SIZE + it.idx;
      if (i < nq) {
        uint q = q0 + i;
        uint4 r = lsk_random4(seed, stream, q, 0u);
        for (uint k = 0; k < LSK__RND_PER; ++k) {
          uint j = q * LSK__RND_PER + k;
          if (j - base < n && j >= base) {
            out[j] = lsk__random_value(r, k);
          }
        }
      }
    }
  }
}
