/*
 * lsk_idx.h: who am I. Worker, block and grid indices, and the N-D view of
 * the block domain. None of these synchronizes.
 */
#ifndef LSK_CL_IDX_H
#define LSK_CL_IDX_H

#include "lsk_config.h"

/* One index of a ForEach: idx in the domain, slot in the worker's context
 * variables. Read-only for the body. */
typedef struct lsk_idx {
  uint idx;
  uint slot;
} lsk_idx;

/* This work-item's worker number in [0, LSK_WORKERS). */
LSK_INLINE uint lsk_worker(void) { return (uint)get_local_id(0); }

/* The block's index: the grid of blocks linearized, x fastest. */
LSK_INLINE uint lsk_block_idx(void)
{
  return (uint)(get_group_id(0) +
                get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
}

/* The block's N-D position in the grid. */
LSK_INLINE uint3 lsk_block_nd(void)
{
  return (uint3)((uint)get_group_id(0), (uint)get_group_id(1), (uint)get_group_id(2));
}

/* Number of blocks launched (the grid domain size). */
LSK_INLINE uint lsk_grid_size(void)
{
  return (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2));
}

/* Size and extents of the block domain. */
LSK_INLINE uint lsk_domain_size(void) { return LSK_DOMAIN_SIZE; }
LSK_INLINE uint3 lsk_domain_extent(void)
{
  return (uint3)(LSK_DOMAIN_X, LSK_DOMAIN_Y, LSK_DOMAIN_Z);
}

/* A linear domain index as (x, y, z), x fastest. Remainders are written
 * as i - q*X: with both i / X and i % X the optimizer emits LLVM's
 * `freeze`, which oclgrind 21.10's uninitialized-value checker rejects. */
LSK_INLINE uint3 lsk_domain_nd(uint i)
{
  uint q = i / LSK_DOMAIN_X, z = q / LSK_DOMAIN_Y;
  return (uint3)(i - q * LSK_DOMAIN_X, q - z * LSK_DOMAIN_Y, z);
}

/*
 * lsk_domain_count(base, n): how many indices of a data block that starts at
 * base lie below n: min(LSK_DOMAIN_SIZE, n - base), and 0 where base >= n.
 * The count for ForEach over an array's last, partial data block:
 *   LSK_FOREACH_N(it, lsk_domain_count(base, n)) x[base + it.idx] *= a;
 * rather than an `if (base + it.idx < n)` in the body: full data blocks then
 * run with no test per index (on AVX2 CPUs a test in the body becomes masked
 * loads and stores, several times slower on AMD Zen; docs/lockstep.md,
 * "The last data block").
 */
LSK_INLINE uint lsk_domain_count(uint base, uint n)
{
  return n > base ? min((uint)LSK_DOMAIN_SIZE, n - base) : 0u;
}

/*
 * LSK_BLOCKS(b, nblocks): a grid-strided loop over data blocks, so a kernel
 * is correct for any number of launched blocks. Uniform across the block:
 * every worker runs the same iterations, so barriers inside are allowed.
 */
#define LSK_BLOCKS(b, nblocks)                                                                     \
  for (uint b = lsk_block_idx(); b < (uint)(nblocks); b += lsk_grid_size())

/*
 * lsk__tile_run(n, per_block): the device side of the host's lsk__algo_plan
 * (host/algo/algo.c), for the kernel library's device-wide passes: the
 * tiles [first, end) of LSK_DOMAIN_SIZE elements below n that this block
 * takes (per_block consecutive ones), and full, the number of tiles with
 * no element at or past n. The remainder is written as n - full * D: a
 * div/rem pair trips oclgrind (see lsk_domain_nd).
 */
typedef struct lsk__tiles {
  uint first, full, end;
} lsk__tiles;

LSK_INLINE lsk__tiles lsk__tile_run(uint n, uint per_block)
{
  lsk__tiles r;
  r.first = lsk_block_idx() * per_block;
  r.full = n / LSK_DOMAIN_SIZE;
  r.end = min(r.first + per_block, r.full + (n - r.full * LSK_DOMAIN_SIZE != 0));
  return r;
}

/*
 * lsk__segment(n, seglen, &first, &end): for the kernel library's CPU
 * passes, where a work-item walks a contiguous run: this work-item's
 * segment s = block * LSK_WORKERS + worker, the indices [first, end) of
 * [s * seglen, (s + 1) * seglen) below n (empty past n). Returns s.
 */
LSK_INLINE uint lsk__segment(uint n, uint seglen, uint *first, uint *end)
{
  uint s = lsk_block_idx() * LSK_WORKERS + lsk_worker();
  ulong a = (ulong)s * seglen;
  *first = (uint)min(a, (ulong)n);
  *end = (uint)min(a + seglen, (ulong)n);
  return s;
}

#endif /* LSK_CL_IDX_H */
