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
 * That is the lockstep path, which GPUs ran before the look-back path
 * (one pass, "The look-back path" below) and devices that are neither GPU
 * nor CPU-path still run; on other devices the host builds the CPU path's
 * kernels too (LSK_COMPACT_CPU, at the end of this file).
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
/* One tile's steps: the left (<= LSK_DOMAIN_SIZE) indices from base,
 * written by WRITE from slot carry on (carry moves on by their count). */
#define LSK__COMPACT_TILE(WRITE, cap, base, left, carry)                                          \
  for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {                                \
    uint i0 = LSK__INDEX(step, 0);                                                                 \
    uint c = 0;                                                                                    \
    if (i0 + LSK_SIMD <= (left)) {                                                                 \
      for (uint k = 0; k < LSK_SIMD; ++k)                                                          \
        c += LSK__SELECTED((base) + i0 + k);                                                       \
    } else {                                                                                       \
      for (uint k = 0; k < LSK_SIMD; ++k)                                                          \
        if (i0 + k < (left))                                                                       \
          c += LSK__SELECTED((base) + i0 + k);                                                     \
    }                                                                                              \
    uint total;                                                                                    \
    uint slot = (carry) + lsk_block_scan_add_uint(scratch, c, &total);                             \
    WRITE((base), i0, slot, c, (left), cap);                                                       \
    (carry) += total;                                                                              \
  }

#define LSK__COMPACT_SCATTER(WRITE, cap)                                                           \
  LSK_BLOCK_SCRATCH(uint, scratch);                                                                \
  uint b = lsk_block_idx();                                                                        \
  uint carry = use_carries ? carries[b] : 0u;                                                      \
  lsk__tiles tiles = lsk__tile_run(n, per_block);                                                  \
  for (uint t = tiles.first; t < tiles.end; ++t) {                                                 \
    uint base = t * LSK_DOMAIN_SIZE;                                                               \
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - base;                                       \
    LSK__COMPACT_TILE(WRITE, cap, base, left, carry)                                               \
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

/*
 * The look-back path (host/algo/compact.c, lookback_path): one pass by
 * decoupled look-back with fallback, as the scan's (kernels/scan.cl, "The
 * look-back kernel"), with the predicate's counts as the values. It reads
 * the input once from memory where the passes above read it twice.
 *
 * lsk_compact_lookback_indices / lsk_compact_lookback_rows(input, arg, n,
 * cells, output, count, count_index): cells holds a ticket (cells[0]) and
 * one state word per tile (cells[1 + t]), all zero on entry
 * (lsk_compact_lookback_clear, enqueued before). One block per tile: it
 * takes a ticket (atomic_inc: tiles are taken in the order blocks start,
 * so a tile's predecessors were taken by blocks running or done); counts
 * its tile's selected indices; publishes that count; looks back for the
 * count of all earlier tiles; publishes its inclusive count; then writes
 * its selected indices (or rows) from the exclusive count on, evaluating
 * the predicate again (LSK__COMPACT_TILE, the input from the cache). The
 * last tile writes the total to count[count_index]; n = 0 is one empty
 * tile, which writes 0.
 *
 * A state word is 32 bits: the flag in bits 30 and 31 (NOT_READY 0,
 * AGGREGATE 1, INCLUSIVE 2) and the count in bits 0 to 29, so a
 * publication is one OpenCL 1.2 atomic (atomic_cmpxchg, atomic_xchg; read
 * by atomic_or with 0) on a 32-bit word and needs no extension. The
 * inclusive counts reach n, so the host takes this path for n < 2^30
 * only. Words move NOT_READY -> AGGREGATE -> INCLUSIVE only.
 *
 * Nobody waits (OpenCL promises no forward progress): worker 0 reads a
 * window of up to 32 predecessors' words (the others' reads, into local
 * memory) and walks them nearest first, adding AGGREGATE counts until an
 * INCLUSIVE one (or tile 0). A NOT_READY word is not waited for: the
 * block counts that predecessor's tile itself (the fallback, the owner's
 * code over the same indices) and installs the count with a
 * compare-and-swap from NOT_READY; when that fails the installed word is
 * used, so every block sees one count per tile, the owner too. Every
 * value passing between blocks is one atomic word and the input is
 * read-only here (the output is never the input: the calls check), so no
 * ordering of plain memory across work-groups is needed.
 *
 * LSK_COMPACT_LOOKBACK_HOOK (tests only; the host's prelude from the
 * variable of that name): bit 0 maps ticket k to tile tiles - 1 - k, so
 * every look-back finds its predecessors NOT_READY and the fallback's CAS
 * succeeds; bit 1 reads every window word as NOT_READY, so every step
 * runs the fallback and its CAS decides. PoCL and oclgrind run blocks in
 * order, where neither happens by itself.
 */
#ifndef LSK_COMPACT_LOOKBACK_HOOK
#define LSK_COMPACT_LOOKBACK_HOOK 0
#endif
#define LSK__CLB_AGGREGATE 1u
#define LSK__CLB_INCLUSIVE 2u
#define LSK__CLB_PACK(flag, v) ((flag) << 30 | (v))
#define LSK__CLB_FLAG(s) ((s) >> 30)
#define LSK__CLB_VALUE(s) ((s) & 0x3fffffffu)
#define LSK__CLB_WINDOW (LSK_WORKERS < 32 ? LSK_WORKERS : 32)

/* The selected indices of [base, base + left) counted, to every worker. */
#define LSK__COMPACT_TILE_COUNT(base, left, sum)                                                  \
  {                                                                                                \
    uint c_ = 0;                                                                                   \
    if ((left) == LSK_DOMAIN_SIZE) {                                                               \
      LSK_FOREACH(it) c_ += LSK__SELECTED((base) + it.idx);                                        \
    } else {                                                                                       \
      LSK_FOREACH(it) if (it.idx < (left)) c_ += LSK__SELECTED((base) + it.idx);                   \
    }                                                                                              \
    (sum) = lsk_block_reduce_add_uint(scratch, c_);                                                \
  }

#if LSK_COMPACT_LOOKBACK_HOOK & 2
#define LSK__CLB_SEEN(flag) 0u
#else
#define LSK__CLB_SEEN(flag) (flag)
#endif
#if LSK_COMPACT_LOOKBACK_HOOK & 1
#define LSK__CLB_TILE(k, tiles) ((tiles) - 1u - (k))
#else
#define LSK__CLB_TILE(k, tiles) (k)
#endif

#define LSK__COMPACT_LOOKBACK(WRITE, cap)                                                          \
  LSK_BLOCK_SCRATCH(uint, scratch);                                                                \
  LSK_SHARED(uint, window, LSK__CLB_WINDOW);                                                       \
  LSK_SHARED(uint, talk, 3);                                                                       \
  uint w = lsk_worker();                                                                           \
  uint full = n / LSK_DOMAIN_SIZE;                                                                 \
  uint tiles = full + (n - full * LSK_DOMAIN_SIZE != 0);                                           \
  tiles += tiles == 0u;                                                                            \
  volatile __global uint *states = (volatile __global uint *)(cells + 1);                          \
  if (w == 0)                                                                                      \
    talk[0] = atomic_inc((volatile __global uint *)cells);                                         \
  lsk_sync_local();                                                                                \
  uint k = talk[0];                                                                                \
  lsk_sync_local();                                                                                \
  if (k < tiles) {                                                                                 \
    uint t = LSK__CLB_TILE(k, tiles);                                                              \
    uint base = t * LSK_DOMAIN_SIZE;                                                               \
    uint left = t < full ? LSK_DOMAIN_SIZE : n - base;                                             \
    uint mine;                                                                                     \
    LSK__COMPACT_TILE_COUNT(base, left, mine);                                                     \
    uint excl = 0;                                                                                 \
    if (w == 0) {                                                                                  \
      uint old = atomic_cmpxchg(&states[t], 0u, LSK__CLB_PACK(LSK__CLB_AGGREGATE, mine));          \
      if (old != 0u)                                                                               \
        mine = LSK__CLB_VALUE(old); /* a fallback's, installed first */                            \
    }                                                                                              \
    /* Tiles [0, j) are not yet in excl; j is uniform (through talk). */                           \
    uint j = t;                                                                                    \
    while (j > 0u) {                                                                               \
      uint m = j < LSK__CLB_WINDOW ? j : LSK__CLB_WINDOW;                                          \
      if (w < m)                                                                                   \
        window[w] = atomic_or(&states[j - 1u - w], 0u);                                            \
      lsk_sync_local();                                                                            \
      if (w == 0) {                                                                                \
        uint next = j - m, fallback = 0;                                                           \
        for (uint i = 0; i < m; ++i) {                                                             \
          uint s = window[i];                                                                      \
          uint flag = LSK__CLB_SEEN(LSK__CLB_FLAG(s));                                             \
          if (flag == 0u) {                                                                        \
            next = j - i;                                                                          \
            fallback = 1;                                                                          \
            break;                                                                                 \
          }                                                                                        \
          excl += LSK__CLB_VALUE(s);                                                               \
          if (flag == LSK__CLB_INCLUSIVE || j - 1u - i == 0u) {                                    \
            next = 0;                                                                              \
            break;                                                                                 \
          }                                                                                        \
        }                                                                                          \
        talk[0] = next;                                                                            \
        talk[1] = fallback;                                                                        \
      }                                                                                            \
      lsk_sync_local();                                                                            \
      j = talk[0];                                                                                 \
      uint fallback = talk[1];                                                                     \
      lsk_sync_local();                                                                            \
      if (fallback) {                                                                              \
        /* Tile f's word was NOT_READY: count its selected indices, install                        \
         * the count unless someone published first, take the installed. */                       \
        uint f = j - 1u;                                                                           \
        uint fbase = f * LSK_DOMAIN_SIZE;                                                          \
        uint fl = f < full ? LSK_DOMAIN_SIZE : n - fbase;                                          \
        uint a;                                                                                    \
        LSK__COMPACT_TILE_COUNT(fbase, fl, a);                                                     \
        if (w == 0) {                                                                              \
          uint want = LSK__CLB_PACK(LSK__CLB_AGGREGATE, a);                                        \
          uint old = atomic_cmpxchg(&states[f], 0u, want);                                         \
          uint s = old != 0u ? old : want;                                                         \
          excl += LSK__CLB_VALUE(s);                                                               \
          talk[0] = LSK__CLB_FLAG(s) == LSK__CLB_INCLUSIVE ? 0u : f;                               \
        }                                                                                          \
        lsk_sync_local();                                                                          \
        j = talk[0];                                                                               \
        lsk_sync_local();                                                                          \
      }                                                                                            \
    }                                                                                              \
    if (w == 0) {                                                                                  \
      atomic_xchg(&states[t], LSK__CLB_PACK(LSK__CLB_INCLUSIVE, excl + mine));                     \
      talk[2] = excl;                                                                              \
    }                                                                                              \
    lsk_sync_local();                                                                              \
    uint carry = talk[2];                                                                          \
    LSK__COMPACT_TILE(WRITE, cap, base, left, carry)                                               \
    if (t == tiles - 1u)                                                                           \
      LSK_MASTER count[count_index] = carry;                                                       \
  }

LSK_KERNEL void lsk_compact_lookback_indices(LSK_CTX, LSK__CIN_PARAMS, ulong arg, uint n,
                                             __global uint *cells, __global uint *out,
                                             uint out_base, uint cap, __global uint *count,
                                             uint count_index)
{
  LSK__CIN_OPEN;
  LSK__COMPACT_LOOKBACK(LSK__WRITE_INDEX, cap);
}

#ifdef LSK_COMPACT_SOA
LSK_KERNEL void lsk_compact_lookback_rows(LSK_CTX, LSK__CIN_PARAMS, ulong arg, uint n,
                                          __global uint *cells, LSK_COMPACT_DST_PARAMS(dst),
                                          __global uint *count, uint count_index)
{
  LSK__CIN_OPEN;
  LSK_COMPACT_DST_T lsk__out = LSK_COMPACT_DST_VIEW(dst);
  LSK__COMPACT_LOOKBACK(LSK__WRITE_ROW, dst_n);
}
#endif

/* lsk_compact_lookback_clear(cells, count): cells[i] = 0 for i < count
 * (the ticket and the states, before each pass; a kernel, not a fill, so
 * that oclgrind takes them for initialized). */
LSK_KERNEL void lsk_compact_lookback_clear(LSK_CTX, __global uint *cells, uint count)
{
  for (uint t = lsk_block_idx(); t < (count + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE;
       t += lsk_grid_size()) {
    uint at = t * LSK_DOMAIN_SIZE;
    LSK_FOREACH(it) if (at + it.idx < count) cells[at + it.idx] = 0u;
  }
}

#ifdef LSK_COMPACT_CPU
/*
 * The CPU path (host/algo/compact.c chooses it where the device is no GPU;
 * the prelude then defines LSK_COMPACT_CPU). Every work-item owns a
 * segment, a contiguous run of seglen indices (a multiple of 32): segment
 * s = block * LSK_WORKERS + worker, over [s * seglen, min((s + 1) * seglen,
 * n)), as the sort's segments. No barrier, so PoCL's work-group function
 * is each work-item's plain loop:
 *   lsk_compact_flags   evaluates the predicate once per index, stores the
 *                       flags as bits (word w: indices [32 w, 32 w + 32))
 *                       and the segment's count in counts[s];
 *   lsk_compact_scan    (above) one block scans the counts;
 *   lsk_compact_bits_indices / lsk_compact_bits_rows
 *                       each segment walks the set bits of its words in
 *                       order and writes index i (or row i) to its next
 *                       slot, from counts[s] on, below the capacity; the
 *                       last segment writes the total.
 * The input is read once (the rows' kernel reads the selected rows again)
 * and the output written once, in order, by one work-item per segment.
 */

LSK_KERNEL void lsk_compact_flags(LSK_CTX, LSK__CIN_PARAMS, ulong arg, uint n, uint seglen,
                                  __global uint *bits, __global uint *counts)
{
  LSK__CIN_OPEN;
  uint first, end, s = lsk__segment(n, seglen, &first, &end);
  uint c = 0;
  uint i = first;
  for (; end - i >= 32u; i += 32u) {
    uint w = 0;
    for (uint k = 0; k < 32u; ++k)
      w |= (uint)LSK__SELECTED(i + k) << k;
    bits[i / 32u] = w;
    c += popcount(w);
  }
  if (i < end) {
    uint w = 0;
    for (uint k = 0; k < 32u; ++k)
      if (i + k < end)
        w |= (uint)LSK__SELECTED(i + k) << k;
    bits[i / 32u] = w;
    c += popcount(w);
  }
  counts[s] = c;
}

/* (The loops step by 32 without passing end, which may be near 2^32.)
 * The set bits of the segment's words in order: for each, with k the bit's
 * place and `at` the segment's next slot, STORE(i, at) with i = 32 w + k;
 * then, in the grid's last segment, the total to count[count_index]. */
#define LSK__COMPACT_BITS(STORE)                                                                   \
  uint first, end, s = lsk__segment(n, seglen, &first, &end);                                      \
  uint at = carries[s];                                                                            \
  for (uint i = first; i < end; i = (end - i > 32u) ? i + 32u : end) {                             \
    uint w = bits[i / 32u];                                                                        \
    while (w) {                                                                                    \
      uint k = popcount((w & (0u - w)) - 1u);                                                      \
      STORE(i + k, at);                                                                            \
      ++at;                                                                                        \
      w &= w - 1u;                                                                                 \
    }                                                                                              \
  }                                                                                                \
  if (s == lsk_grid_size() * LSK_WORKERS - 1u)                                                     \
  count[count_index] = at

/*
 * Indices, a byte of flags at a time: while 8 slots from the next one are
 * the segment's and below the capacity, one store of 8 indices (the byte's
 * selected ones first, their places from lsk__compact_lut, which the
 * prelude defines: byte b's k-th set bit's place in bits 4k to 4k + 3) and
 * the slot moves on by the byte's count, so the next store overwrites the
 * rest; the segment's last slots one index at a time. The segment's count
 * comes from its words first (a few KiB, read again from cache).
 */
LSK_KERNEL void lsk_compact_bits_indices(LSK_CTX, uint n, uint seglen, __global const uint *bits,
                                         __global const uint *carries, __global uint *out,
                                         uint out_base, uint cap, __global uint *count,
                                         uint count_index)
{
  uint first, end, s = lsk__segment(n, seglen, &first, &end);
  uint at = carries[s], c = 0;
  for (uint i = first; i < end; i = (end - i > 32u) ? i + 32u : end)
    c += popcount(bits[i / 32u]);
  uint lim = min(at + c, cap);
  const uint8 place = (uint8)(0u, 4u, 8u, 12u, 16u, 20u, 24u, 28u);
  for (uint i = first; i < end; i = (end - i > 32u) ? i + 32u : end) {
    uint w = bits[i / 32u];
    for (uint j = 0; j < 32u; j += 8u) {
      uint b = (w >> j) & 0xffu;
      if (at <= lim && lim - at >= 8u) {
        uint8 v = (uint8)(i + j) + (((uint8)(lsk__compact_lut[b]) >> place) & 0xfu);
        vstore8(v, 0, out + out_base + at);
        at += popcount(b);
      } else {
        for (; b; b &= b - 1u) {
          if (at < lim)
            out[out_base + at] = i + j + popcount((b & (0u - b)) - 1u);
          ++at;
        }
      }
    }
  }
  if (s == lsk_grid_size() * LSK_WORKERS - 1u)
    count[count_index] = at;
}

#ifdef LSK_COMPACT_SOA
LSK_KERNEL void lsk_compact_bits_rows(LSK_CTX, LSK__CIN_PARAMS, uint n, uint seglen,
                                      __global const uint *bits, __global const uint *carries,
                                      LSK_COMPACT_DST_PARAMS(dst), __global uint *count,
                                      uint count_index)
{
  LSK__CIN_OPEN;
  LSK_COMPACT_DST_T lsk__out = LSK_COMPACT_DST_VIEW(dst);
#define LSK__STORE_ROW(i, at)                                                                      \
  if ((at) < dst_n)                                                                                \
  lsk__compact_copy_row(lsk__in, (i), lsk__out, (at))
  LSK__COMPACT_BITS(LSK__STORE_ROW);
#undef LSK__STORE_ROW
}
#endif
#endif /* LSK_COMPACT_CPU */
