/*
 * compact.cl: stable stream compaction by a user predicate (host:
 * host/algo/compact.c, reference: include/lsk/compact.h). Unlike the other
 * families this file is never built alone: each compactor builds it after
 * its user's source, which defines
 *     int lsk_select(uint i, LSK_COMPACT_IN in, ulong arg)
 * and a prelude that the host generates: for a plain buffer it defines
 * LSK_COMPACT_DATA_T and LSK_COMPACT_IN; for SoA rows the layout's views,
 * LSK_COMPACT_SOA, LSK_COMPACT_IN (the const view), the LSK_COMPACT_SRC_* /
 * LSK_COMPACT_DST_* names and lsk__compact_copy_row.
 *
 * Reduce-then-scan with the predicate's flags as the values, three passes
 * ordered by the host, no block waiting for another:
 *   lsk_compact_count    block b counts the selected indices of its run of
 *                        per_block consecutive tiles into counts[b];
 *   lsk_compact_scan     one block scans counts in place (exclusive);
 *   lsk_compact_indices  block b evaluates the predicate again per tile,
 *   / lsk_compact_rows   scans the flags in the block and writes index i (or
 *                        row i) to slot carry + prefix; the carry starts at
 *                        counts[b]. Slots at or past the capacity are not
 *                        written; the last block writes the total count.
 * With one block the host runs only the last pass, from a carry of 0.
 */

/* The input's parameters and what the predicate gets (LSK_COMPACT_IN,
 * defined by the prelude). */
#ifdef LSK_COMPACT_SOA
#define LSK__CIN_PARAMS LSK_COMPACT_SRC_PARAMS(src)
#define LSK__CIN_OPEN LSK_COMPACT_IN lsk__in = LSK_COMPACT_SRC_VIEW(src)
#else
#define LSK__CIN_PARAMS __global const LSK_COMPACT_DATA_T *data
#define LSK__CIN_OPEN LSK_COMPACT_IN lsk__in = data
#endif

#define LSK__SELECTED(i) (lsk_select((i), lsk__in, arg) != 0)

LSK_KERNEL void lsk_compact_count(LSK_CTX, LSK__CIN_PARAMS, ulong arg, uint n, uint per_block,
                                  __global uint *counts)
{
  LSK_BLOCK_SCRATCH(uint, scratch);
  LSK__CIN_OPEN;
  uint b = lsk_block_idx();
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  uint c = 0;
  for (uint t = tiles.first; t < tiles.end; ++t) {
    uint base = t * LSK_DOMAIN_SIZE;
    if (t < tiles.full) {
      LSK_FOREACH(it) c += LSK__SELECTED(base + it.idx);
    } else {
      uint left = n - base;
      LSK_FOREACH(it) if (it.idx < left) c += LSK__SELECTED(base + it.idx);
    }
    lsk_sync(); /* keeps the block's reads contiguous on PoCL (reduce.cl) */
  }
  uint total = lsk_block_reduce_add_uint(scratch, c);
  LSK_MASTER counts[b] = total;
}

/* One block: counts[0, nblocks) becomes its exclusive prefix sum. */
LSK_KERNEL void lsk_compact_scan(LSK_CTX, __global uint *counts, uint nblocks)
{
  LSK_BLOCK_SCRATCH(uint, scratch);
  LSK_VAR(uint, v);
  uint carry = 0;
  for (uint base = 0; base < nblocks; base += LSK_DOMAIN_SIZE) {
    uint left = nblocks - base;
    LSK_FOREACH(it) LSK_VAR_AT(v, it) = it.idx < left ? counts[base + it.idx] : 0u;
    uint total = lsk_block_scan_var_add_uint(scratch, v, LSK_DOMAIN_SIZE, 0);
    LSK_FOREACH(it) if (it.idx < left) counts[base + it.idx] = carry + LSK_VAR_AT(v, it);
    carry += total;
  }
}

/*
 * The last pass, shared by both outputs. Per step of a tile, each worker
 * counts the selected indices of its lanes, the block scans the workers'
 * counts, and each worker evaluates its lanes again and writes the selected
 * ones from its prefix on: WRITE(base, i0, slot, c, left, cap) writes the c
 * selected ones of indices base + i0 + k, k < LSK_SIMD, i0 + k < left, to
 * slots from slot on, below cap (the bound is checked per lane: a clamped
 * lane count becomes a saturating subtraction, which oclgrind 21.10 cannot
 * run). No flags are kept in
 * context variables: on CPU back-ends those live in memory across the
 * scan's barriers, and a second evaluation of the predicate is cheaper.
 */
#define LSK__COMPACT_SCATTER(WRITE, cap)                                                           \
  LSK_BLOCK_SCRATCH(uint, scratch);                                                                \
  uint b = lsk_block_idx();                                                                        \
  uint carry = use_carries ? carries[b] : 0u;                                                      \
  lsk__tiles tiles = lsk__tile_run(n, per_block);                                                  \
  for (uint t = tiles.first; t < tiles.end; ++t) {                                                 \
    uint base = t * LSK_DOMAIN_SIZE;                                                               \
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - base;                                       \
    for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {                              \
      uint i0 = LSK__INDEX(step, 0);                                                               \
      uint c = 0;                                                                                  \
      if (i0 + LSK_SIMD <= left) {                                                                 \
        for (uint k = 0; k < LSK_SIMD; ++k)                                                        \
          c += LSK__SELECTED(base + i0 + k);                                                       \
      } else {                                                                                     \
        for (uint k = 0; k < LSK_SIMD; ++k)                                                        \
          if (i0 + k < left)                                                                       \
            c += LSK__SELECTED(base + i0 + k);                                                     \
      }                                                                                            \
      uint total;                                                                                  \
      uint slot = carry + lsk_block_scan_add_uint(scratch, c, &total);                             \
      WRITE(base, i0, slot, c, left, cap);                                                         \
      carry += total;                                                                              \
    }                                                                                              \
  }                                                                                                \
  if (b == lsk_grid_size() - 1)                                                                    \
  LSK_MASTER count[count_index] = carry

/* Indices, without a branch on the predicate (half selected at random
 * would mispredict every other lane): every lane stores its index at the
 * current slot and the slot moves on only when it is selected, so a later
 * selected lane overwrites an unselected one. The stores stay below the
 * worker's last slot (slot + c), so no other worker's slots are touched. */
#define LSK__WRITE_INDEX(base, i0, slot, c, left, cap)                                                  \
  {                                                                                                \
    uint lim = min((slot) + (c), (cap));                                                           \
    uint at = (slot);                                                                              \
    for (uint k = 0; k < LSK_SIMD; ++k)                                                            \
      if ((i0) + k < (left)) {                                                                     \
        uint i = (base) + (i0) + k;                                                                \
        if (at < lim)                                                                              \
          out[out_base + at] = i;                                                                  \
        at += LSK__SELECTED(i);                                                                    \
      }                                                                                            \
  }

LSK_KERNEL void lsk_compact_indices(LSK_CTX, LSK__CIN_PARAMS, ulong arg, uint n, uint per_block,
                                    __global const uint *carries, uint use_carries,
                                    __global uint *out, uint out_base, uint cap,
                                    __global uint *count, uint count_index)
{
  LSK__CIN_OPEN;
  LSK__COMPACT_SCATTER(LSK__WRITE_INDEX, cap);
}

#ifdef LSK_COMPACT_SOA
#define LSK__WRITE_ROW(base, i0, slot, c, left, cap)                                                    \
  {                                                                                                \
    uint at = (slot);                                                                              \
    for (uint k = 0; k < LSK_SIMD; ++k)                                                            \
      if ((i0) + k < (left) && LSK__SELECTED((base) + (i0) + k)) {                                 \
        if (at < (cap))                                                                            \
          lsk__compact_copy_row(lsk__in, (base) + (i0) + k, lsk__out, at);                         \
        ++at;                                                                                      \
      }                                                                                            \
  }

/* The destination part's element count is the capacity. */
LSK_KERNEL void lsk_compact_rows(LSK_CTX, LSK__CIN_PARAMS, ulong arg, uint n, uint per_block,
                                 __global const uint *carries, uint use_carries,
                                 LSK_COMPACT_DST_PARAMS(dst), __global uint *count,
                                 uint count_index)
{
  LSK__CIN_OPEN;
  LSK_COMPACT_DST_T lsk__out = LSK_COMPACT_DST_VIEW(dst);
  LSK__COMPACT_SCATTER(LSK__WRITE_ROW, dst_n);
}
#endif
