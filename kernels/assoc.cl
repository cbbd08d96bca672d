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
