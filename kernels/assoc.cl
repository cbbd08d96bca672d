/*
 * assoc.cl: the passes of a one-to-many association built by first count,
 * then fill (host/algo/assoc.c; docs/assoc.md). The host orders them on
 * its queue; no block waits for another, and there is no lock:
 *   lsk_assoc_zero   counts (and, once, the offsets) to zero;
 *   lsk_assoc_count  one atomic_inc per element on its key's count;
 *   (lsk_scan of the nkeys + 1 counts into the offsets, from scan.cl;
 *    counts[nkeys] stays 0, so offsets[nkeys] is the number stored)
 *   lsk_assoc_fill   one atomic_dec per element on its key's count: the
 *                    old value c (1..count) names the slot offsets[key] +
 *                    c - 1, so every slot of the range is taken once and
 *                    the counts are back to zero for the next build.
 * Elements whose key is >= nkeys are skipped by both passes.
 *
 * Keys already in order (lsk_assoc_build_sorted) need no count, scan or
 * atomics: lsk_assoc_sorted_offsets searches each key's first element,
 * lsk_assoc_sorted_content stores each element's index and checks the
 * order.
 *
 * All three are device-wide passes in the shape of reduce.cl: block b
 * takes tiles [b * per_block, (b + 1) * per_block) of LSK_DOMAIN_SIZE
 * elements below n; a full tile runs without the bound check.
 */

/* lsk_assoc_zero(x, n, per_block): x[i] = 0 for i < n. */
LSK_KERNEL void lsk_assoc_zero(LSK_CTX, __global uint *restrict x, uint n, uint per_block)
{
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    __global uint *tile = x + (size_t)t * LSK_DOMAIN_SIZE;
    if (t < tiles.full) {
      LSK_FOREACH(it) tile[it.idx] = 0;
    } else {
      uint left = n - t * LSK_DOMAIN_SIZE;
      LSK_FOREACH(it) if (it.idx < left) tile[it.idx] = 0;
    }
  }
}

/* lsk_assoc_count(keys, base, n, per_block, counts, nkeys): counts[k] +=
 * the number of i < n with keys[base + i] == k, for k < nkeys. */
LSK_KERNEL void lsk_assoc_count(LSK_CTX, __global const uint *restrict keys, uint base, uint n,
                                volatile __global uint *counts, uint nkeys, uint per_block)
{
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    __global const uint *tile = keys + base + (size_t)t * LSK_DOMAIN_SIZE;
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;
    LSK_FOREACH(it)
    {
      if (it.idx < left) {
        uint k = tile[it.idx];
        if (k < nkeys)
          atomic_inc(&counts[k]);
      }
    }
  }
}

/* lsk_assoc_fill(keys, base, n, per_block, offsets, counts, content,
 * nkeys): content[offsets[k] + atomic_dec(&counts[k]) - 1] = i for every
 * i < n whose key k = keys[base + i] is below nkeys.
 *
 * A tile takes its slots first (a context variable), then stores: on CPUs
 * an atomic is a full fence, and a store miss between two of them stalls
 * until it completes; stores issued together overlap their misses (PoCL,
 * 2^24 elements into 2^16 keys: the fill in about 0.55 of the time of
 * atomic and store side by side). No slot is 0xffffffff: the capacity is
 * at most 2^28. */
LSK_KERNEL void lsk_assoc_fill(LSK_CTX, __global const uint *restrict keys, uint base, uint n,
                               __global const uint *restrict offsets,
                               volatile __global uint *counts, __global uint *restrict content,
                               uint nkeys, uint per_block)
{
  LSK_VAR(uint, slot);
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    uint at = t * LSK_DOMAIN_SIZE;
    __global const uint *tile = keys + base + at;
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - at;
    LSK_FOREACH(it)
    {
      uint s = 0xffffffffu;
      if (it.idx < left) {
        uint k = tile[it.idx];
        if (k < nkeys)
          s = offsets[k] + atomic_dec(&counts[k]) - 1u;
      }
      LSK_VAR_AT(slot, it) = s;
    }
    LSK_FOREACH(it)
    {
      uint s = LSK_VAR_AT(slot, it);
      if (s != 0xffffffffu)
        content[s] = at + it.idx;
    }
  }
}

/* The keys' order for the sorted build: a key >= nkeys counts as nkeys. */
LSK_INLINE uint lsk__assoc_key(__global const uint *keys, uint i, uint nkeys)
{
  return min(keys[i], nkeys);
}

/* The first p in [lo, hi) whose key is j or more, hi if none (keys sorted). */
LSK_INLINE uint lsk__assoc_lower(__global const uint *keys, uint nkeys, uint lo, uint hi, uint j)
{
  while (lo < hi) {
    uint mid = lo + (hi - lo) / 2u;
    if (lsk__assoc_key(keys, mid, nkeys) < j)
      lo = mid + 1u;
    else
      hi = mid;
  }
  return lo;
}

/* lsk_assoc_sorted_offsets(keys, base, n, offsets, nkeys, run, per_block):
 * for keys that never decrease (keys[base, base + n), n >= 1), offsets[j] = the first
 * element whose key is j or more (n for none), j = 0..nkeys. Each index
 * takes a run of `run` keys: a binary search for the first, then
 * for each next one a search that gallops from the last answer (keys
 * close together cost a probe or two). Bounded either way: at most about
 * 2 log2(n) probes per key, whatever the gaps between keys or the
 * elements per key, so no work-item loops long (GPUs; llvmpipe ends a
 * work-item's loops after 65535 iterations). */
LSK_KERNEL void lsk_assoc_sorted_offsets(LSK_CTX, __global const uint *restrict keys, uint base,
                                         uint n, __global uint *restrict offsets, uint nkeys,
                                         uint run, uint per_block)
{
  const uint runs = nkeys / run + 1u; /* nkeys + 1 offsets */
  keys += base;
  lsk__tiles tiles = lsk__tile_run(runs, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : runs - t * LSK_DOMAIN_SIZE;
    LSK_FOREACH(it)
    {
      if (it.idx < left) {
        uint j = (t * LSK_DOMAIN_SIZE + it.idx) * run;
        uint jend = min(j + run, nkeys + 1u);
        uint pos = lsk__assoc_lower(keys, nkeys, 0u, n, j);
        offsets[j] = pos;
        for (++j; j < jend; ++j) {
          /* Every element before pos has a key below j - 1. Gallop while
           * the element at a is below j: then the answer is in (a, hi]. */
          if (pos < n && lsk__assoc_key(keys, pos, nkeys) < j) {
            uint a = pos, step = 1u, hi;
            for (;;) {
              hi = a + step;
              if (hi >= n) {
                hi = n;
                break;
              }
              if (lsk__assoc_key(keys, hi, nkeys) >= j)
                break;
              a = hi;
              step <<= 1;
            }
            pos = lsk__assoc_lower(keys, nkeys, a + 1u, hi, j);
          }
          offsets[j] = pos;
        }
      }
    }
  }
}

/* lsk_assoc_sorted_content(keys, base, n, per_block, content, nkeys):
 * content[i] = i for the stored elements (keys[base + i]), and the check
 * that the keys never decrease: a key below the one before it is a verify
 * failure (LSK_EVERIFY) naming the first such element a work-item met,
 * and the association is then undefined. The loop has no branch on the
 * data (the failure is counted, and looked for again only when there is
 * one), so it vectorizes. */
LSK_KERNEL void lsk_assoc_sorted_content(LSK_CTX, __global const uint *restrict keys, uint base,
                                         uint n, __global uint *restrict content, uint nkeys,
                                         uint per_block)
{
  keys += base;
  lsk__tiles tiles = lsk__tile_run(n, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    uint at = t * LSK_DOMAIN_SIZE, bad = 0;
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - at;
    if (t < tiles.full && at) {
      /* A whole tile with an element before it: contiguous loads. */
      LSK_FOREACH(it)
      {
        uint i = at + it.idx, k = lsk__assoc_key(keys, i, nkeys);
        bad += lsk__assoc_key(keys, i - 1u, nkeys) > k;
        if (k < nkeys)
          content[i] = i;
      }
    } else {
      LSK_FOREACH(it)
      {
        uint i = at + it.idx, in = it.idx < left, j = in ? i : at;
        uint k = lsk__assoc_key(keys, j, nkeys),
             before = j ? lsk__assoc_key(keys, j - 1u, nkeys) : 0u;
        bad += in & (before > k);
        if (in & (k < nkeys))
          content[i] = i;
      }
    }
    if (bad) {
      LSK_FOREACH(it)
      {
        uint i = at + it.idx;
        if (it.idx < left && i) {
          uint k = lsk__assoc_key(keys, i, nkeys), before = lsk__assoc_key(keys, i - 1u, nkeys);
          LSK_VERIFY3(before <= k, "lsk_assoc_build_sorted: keys decrease", i, before, k);
        }
      }
    }
  }
}

/*
 * The CPU kernels (host/algo/assoc.c chooses them where the device is not
 * a GPU; docs/assoc.md). On PoCL a block is one thread looping over its
 * work-items, and an atomic is a locked instruction: the host launches
 * one worker per block, a few blocks per compute unit, and each
 * work-item walks a segment, the contiguous run of seglen elements
 * [s * seglen, (s + 1) * seglen) below n, s = block * LSK_WORKERS +
 * worker, with counters and cursors of its own (no atomics):
 *   lsk_assoc_count_segments  the segment's count of each key k < nkeys
 *                             in local memory, then to starts[k * nseg
 *                             + s] (key-major), and starts[nkeys * nseg]
 *                             = 0 by segment 0;
 *   (lsk_scan, exclusive, of the nkeys * nseg + 1 starts, in place: each
 *    becomes the segment's first slot for its key, the last the number
 *    stored)
 *   lsk_assoc_fill_segments   the segment's cursors from the starts in
 *                             local memory, segment 0 writing the offsets
 *                             (offsets[k] = starts[k * nseg]), then each
 *                             element's index at its key's cursor.
 * A key's elements are stored in index order.
 *   lsk_assoc_sorted_segments (keys in order) each element's index, and
 *                             the offsets where the key changes, in one
 *                             walk of the segment.
 */

/* lsk_assoc_count_segments(keys, base, n, seglen, nkeys, starts, nseg,
 * cnt): cnt holds nkeys uints per worker. */
LSK_KERNEL void lsk_assoc_count_segments(LSK_CTX, __global const uint *restrict keys, uint base,
                                         uint n, uint seglen, uint nkeys,
                                         __global uint *restrict starts, uint nseg,
                                         __local uint *restrict cnt)
{
  uint first, end, s = lsk__segment(n, seglen, &first, &end);
  __local uint *restrict c = cnt + lsk_worker() * nkeys;
  for (uint k = 0; k < nkeys; ++k)
    c[k] = 0u;
  keys += base;
  for (uint i = first; i < end; ++i) {
    uint k = keys[i];
    if (k < nkeys)
      ++c[k];
  }
  for (uint k = 0; k < nkeys; ++k)
    starts[(size_t)k * nseg + s] = c[k];
  if (s == 0)
    starts[(size_t)nkeys * nseg] = 0u;
}

/* lsk_assoc_fill_segments(keys, base, n, seglen, nkeys, starts, nseg,
 * offsets, content, cur): cur holds nkeys uints per worker. */
LSK_KERNEL void lsk_assoc_fill_segments(LSK_CTX, __global const uint *restrict keys, uint base,
                                        uint n, uint seglen, uint nkeys,
                                        __global const uint *restrict starts, uint nseg,
                                        __global uint *restrict offsets,
                                        __global uint *restrict content, __local uint *restrict cur)
{
  uint first, end, s = lsk__segment(n, seglen, &first, &end);
  __local uint *restrict c = cur + lsk_worker() * nkeys;
  for (uint k = 0; k < nkeys; ++k)
    c[k] = starts[(size_t)k * nseg + s];
  if (s == 0) {
    for (uint k = 0; k < nkeys; ++k)
      offsets[k] = c[k];
    offsets[nkeys] = starts[(size_t)nkeys * nseg];
  }
  keys += base;
  for (uint i = first; i < end; ++i) {
#ifdef LSK__PREFETCH_W
    /* Each key's next slot is a line of its own (with many keys, long
     * gone from the cache): asked for ahead, the lines of several slots
     * come in together (the fill in about 0.75 of the time, 2^24
     * elements into 2^16 keys, 2 cores). */
    if (i + LSK__SCATTER_AHEAD < end) {
      uint ka = keys[i + LSK__SCATTER_AHEAD];
      if (ka < nkeys)
        LSK__PREFETCH_W(content + c[ka]);
    }
#endif
    uint k = keys[i];
    if (k < nkeys)
      content[c[k]++] = i;
  }
}

/* lsk_assoc_sorted_segments(keys, base, n, seglen, nkeys, offsets,
 * content): for keys that never decrease, content[i] = i for the stored
 * elements, and offsets[j] = i for every j in (key(i - 1), key(i)] (from
 * 0 for i = 0; key(i) = min(keys[i], nkeys)), then n for the j past the
 * last key, by the segment holding the last element. A key below the
 * largest before it in the segment is looked at: below the one just
 * before it, a verify failure (as lsk_assoc_sorted_content's), and the
 * association is then undefined (no offset is written out of range). */
LSK_KERNEL void lsk_assoc_sorted_segments(LSK_CTX, __global const uint *restrict keys, uint base,
                                          uint n, uint seglen, uint nkeys,
                                          __global uint *restrict offsets,
                                          __global uint *restrict content)
{
  uint first, end;
  lsk__segment(n, seglen, &first, &end);
  if (first >= end)
    return;
  keys += base;
  /* j: the next offset to write, one past the largest key met. */
  uint j = first ? lsk__assoc_key(keys, first - 1u, nkeys) + 1u : 0u;
  for (uint i = first; i < end;) {
    uint m = min(i + 64u, end), k0 = keys[i];
    /* A chunk of 64 whose keys all equal the largest key met, a stored
     * one: only its content, in loops without a branch (they vectorize). */
    if (k0 < nkeys && k0 + 1u == j) {
      uint diff = 0u;
      for (uint t = i; t < m; ++t)
        diff |= keys[t] ^ k0;
      if (!diff) {
        for (uint t = i; t < m; ++t)
          content[t] = t;
        i = m;
        continue;
      }
    }
    for (; i < m; ++i) {
      uint k = min(keys[i], nkeys);
      if (k + 1u < j) {
        uint before = lsk__assoc_key(keys, i - 1u, nkeys);
        LSK_VERIFY3(before <= k, "lsk_assoc_build_sorted: keys decrease", i, before, k);
      }
      for (; j <= k; ++j)
        offsets[j] = i;
      if (k < nkeys)
        content[i] = i;
    }
  }
  if (end == n)
    for (; j <= nkeys; ++j)
      offsets[j] = n;
}
