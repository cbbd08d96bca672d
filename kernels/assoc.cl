/*
 * assoc.cl: the passes of a one-to-many association built by first count,
 * then fill (host/assoc.c, DESIGN.md section 3). The host orders them on
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
 * All three are device-wide passes in the shape of reduce.cl: block b
 * takes tiles [b * per_block, (b + 1) * per_block) of LSK_DOMAIN_SIZE
 * elements below n; a full tile runs without the bound check.
 */

/* lsk_assoc_zero(x, n, per_block): x[i] = 0 for i < n. */
LSK_KERNEL void lsk_assoc_zero(LSK_CTX, __global uint *restrict x, uint n, uint per_block)
{
  LSK__TILE_RUN(n, per_block);
  for (uint t = first; t < end; ++t) {
    __global uint *tile = x + (size_t)t * LSK_DOMAIN_SIZE;
    if (t < full) {
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
                                uint per_block, volatile __global uint *counts, uint nkeys)
{
  LSK__TILE_RUN(n, per_block);
  for (uint t = first; t < end; ++t) {
    __global const uint *tile = keys + base + (size_t)t * LSK_DOMAIN_SIZE;
    uint left = t < full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;
    LSK_FOREACH(it) {
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
                               uint per_block, __global const uint *restrict offsets,
                               volatile __global uint *counts, __global uint *restrict content,
                               uint nkeys)
{
  LSK_VAR(uint, slot);
  LSK__TILE_RUN(n, per_block);
  for (uint t = first; t < end; ++t) {
    uint at = t * LSK_DOMAIN_SIZE;
    __global const uint *tile = keys + base + at;
    uint left = t < full ? LSK_DOMAIN_SIZE : n - at;
    LSK_FOREACH(it) {
      uint s = 0xffffffffu;
      if (it.idx < left) {
        uint k = tile[it.idx];
        if (k < nkeys)
          s = offsets[k] + atomic_dec(&counts[k]) - 1u;
      }
      LSK_VAR_AT(slot, it) = s;
    }
    LSK_FOREACH(it) {
      uint s = LSK_VAR_AT(slot, it);
      if (s != 0xffffffffu)
        content[s] = at + it.idx;
    }
  }
}
