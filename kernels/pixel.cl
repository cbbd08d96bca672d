/*
 * pixel.cl: the pixel-detector clustering pipeline (host/pixel.c runs it;
 * docs/example-pixel.md explains it). host/pixel.c builds this file with
 * the module's constants (PX_NX, PX_NY, PX_PITCH_X, PX_PITCH_Y) and the
 * generated OpenCL C views of its three layouts in front:
 *   pxdigi  x, y, adc, module, clus          one row per digi
 *   pxclus  charge, xmin, ymin, sx, sy, sxx, syy, hit   one row per cluster
 *   pxhit   hx, hy, xerr, yerr, g (3x1), hcharge, hmodule, cluster
 * The block domain is the most digis a module may have (PX_D): every
 * per-module kernel walks the modules with LSK_BLOCKS, a module's digis
 * (or clusters) being the domain, the indices past its count masked.
 *
 *   px_cluster  connected components over the 8 neighbours, to
 *               convergence inside the block; ids dense per module in the
 *               order of each cluster's first digi; clusters per module
 *   lsk_scan    clusters per module -> each module's first cluster (host)
 *   px_charge   each cluster's charge, lowest pixel and moments, with
 *               local atomics over the digis; hits per module (clusters
 *               at or above the threshold)
 *   lsk_scan    hits per module -> each module's first hit (host)
 *   px_hits     one hit per unmasked cluster, at the module's first hit
 *               plus its rank (a block scan): count, then fill
 * Blocks share nothing and never wait for each other.
 */
#define PX_D LSK_DOMAIN_SIZE
#define PX_H (2 * PX_D) /* hash slots: at most half full */

#if (PX_D & (PX_D - 1)) != 0
#error "pixel.cl: the block domain (the most digis per module) must be a power of two"
#endif

/* The hash of a pixel key (x * NY + y + 1, never 0): Fibonacci hashing. */
LSK_INLINE uint px_slot(uint key) { return ((key * 0x9E3779B1u) >> 16) & (PX_H - 1u); }

/* The digi at pixel (x, y) of the module, or self where there is none (or
 * the pixel is off the module). An entry is key * PX_D + digi; 0 is free. */
LSK_INLINE uint px_find(__local const uint *tab, int x, int y, uint self)
{
  if (x < 0 || y < 0 || x >= PX_NX || y >= PX_NY)
    return self;
  uint key = (uint)x * PX_NY + (uint)y + 1u;
  /* Ends: the table is at most half full, so a free slot comes. */
  for (uint h = px_slot(key);; h = (h + 1u) & (PX_H - 1u)) {
    uint e = tab[h];
    if (e == 0u)
      return self;
    if (e / PX_D == key)
      return e & (PX_D - 1u);
  }
}

LSK_KERNEL void px_cluster(LSK_CTX, PXDIGI_PARAMS(d), __global const uint *start,
                           __global uint *nclus, uint nmod)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_SHARED(uint, tab, PX_H);      /* pixel -> digi */
  LSK_SHARED(ushort, nb, 8 * PX_D); /* the 8 neighbours' digis (self if none) */
  LSK_SHARED(uint, la, PX_D);       /* labels */
  LSK_SHARED(uint, lb, PX_D);       /* labels after hooking; then ranks */
  LSK_VAR(uint, root);
  LSK_VAR(uint, slot); /* the digi's slot in tab */
  pxdigi_view v = PXDIGI_VIEW(d);
  /* The scan's last entry, so that it ends with the total. */
  if (lsk_block_idx() == 0)
    LSK_MASTER nclus[nmod] = 0u;
  /* Free once; each module frees the slots it took. */
  LSK_FOREACH(it)
  {
    tab[it.idx] = 0u;
    tab[it.idx + PX_D] = 0u;
  }
  lsk_sync();
  LSK_BLOCKS(m, nmod)
  {
    /* Only the module's n digis: a ForEach over n, not over the domain,
     * costs in proportion to the digis (most modules have few). */
    uint a = start[m], n = min(start[m + 1] - a, (uint)PX_D);
    /* Pixels are distinct, so each insert claims a free slot of its own. */
    LSK_FOREACH_N(it, n)
    {
      uint key = (uint)pxdigi_x(v, a + it.idx) * PX_NY + pxdigi_y(v, a + it.idx) + 1u;
      uint h = px_slot(key);
      while (atomic_cmpxchg(&tab[h], 0u, key * PX_D + it.idx) != 0u)
        h = (h + 1u) & (PX_H - 1u);
      LSK_VAR_AT(slot, it) = h;
      la[it.idx] = it.idx;
    }
    lsk_sync();
    /* Neighbours once, so that the rounds below read only local memory. */
    LSK_FOREACH_N(it, n)
    {
      int x = pxdigi_x(v, a + it.idx), y = pxdigi_y(v, a + it.idx), k = 0;
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          if (dx || dy)
            nb[PX_D * k++ + it.idx] = (ushort)px_find(tab, x + dx, y + dy, it.idx);
    }
    lsk_sync();
    /* Hook (the least label around), then jump (the label's label), until
     * no label moves. Labels only fall and stay in the component, so this
     * ends with every digi labelled by its component's first digi. */
    for (;;) {
      LSK_FOREACH_N(it, n)
      {
        uint l = la[it.idx];
        for (uint k = 0; k < 8u; ++k)
          l = min(l, la[nb[PX_D * k + it.idx]]);
        lb[it.idx] = l;
      }
      lsk_sync();
      uint moved = 0;
      LSK_FOREACH_N(it, n)
      {
        uint l = lb[lb[it.idx]];
        moved |= l != la[it.idx];
        la[it.idx] = l;
      }
      /* Every worker, every round: also the barrier before the next hook. */
      if (!lsk_block_any(s, moved))
        break;
    }
    /* Cluster ids: the rank of each first digi among the first digis. */
    LSK_FOREACH_N(it, n) LSK_VAR_AT(root, it) = la[it.idx] == it.idx;
    uint k = lsk_block_scan_var_add_uint(s, root, n, 0);
    LSK_FOREACH_N(it, n)
    {
      if (la[it.idx] == it.idx)
        lb[it.idx] = LSK_VAR_AT(root, it);
    }
    lsk_sync();
    LSK_FOREACH_N(it, n)
    {
      pxdigi_set_clus(v, a + it.idx, lb[la[it.idx]]);
      tab[LSK_VAR_AT(slot, it)] = 0u;
    }
    LSK_MASTER nclus[m] = k;
    lsk_sync(); /* the next module reuses the local arrays */
  }
}

/* A 64-bit sum in two uints of local memory, exact: the add that wraps the
 * low word carries into the high one. */
LSK_INLINE void px_add64(volatile __local uint *lo, volatile __local uint *hi, ulong v)
{
  uint l = (uint)v, h = (uint)(v >> 32);
  uint old = atomic_add(lo, l);
  h += old + l < old;
  if (h)
    atomic_add(hi, h);
}

LSK_INLINE ulong px_u64(__local const uint *lo, __local const uint *hi, uint k)
{
  return (ulong)lo[k] | (ulong)hi[k] << 32;
}

LSK_KERNEL void px_charge(LSK_CTX, PXDIGI_CONST_PARAMS(d), PXCLUS_PARAMS(c),
                          __global const uint *start, __global const uint *coff,
                          __global uint *nhit, uint threshold, uint nmod)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_SHARED(uint, q, PX_D);
  LSK_SHARED(uint, xmin, PX_D);
  LSK_SHARED(uint, ymin, PX_D);
  LSK_SHARED(uint, mom, 8 * PX_D); /* sx, sy, sxx, syy: low words, high words */
  LSK_VAR(uint, pass);
  pxdigi_const_view dv = PXDIGI_CONST_VIEW(d);
  pxclus_view cv = PXCLUS_VIEW(c);
  if (lsk_block_idx() == 0)
    LSK_MASTER nhit[nmod] = 0u;
  LSK_BLOCKS(m, nmod)
  {
    uint a = start[m], n = min(start[m + 1] - a, (uint)PX_D);
    uint c0 = coff[m], nk = min(coff[m + 1] - c0, (uint)PX_D);
    LSK_FOREACH_N(it, nk)
    {
      q[it.idx] = 0u;
      xmin[it.idx] = 0xffffu;
      ymin[it.idx] = 0xffffu;
      for (uint j = 0; j < 8u; ++j)
        mom[PX_D * j + it.idx] = 0u;
    }
    lsk_sync();
    /* The loop is over digis: each adds itself to its cluster. */
    LSK_FOREACH_N(it, n)
    {
      uint i = a + it.idx, k = pxdigi_const_clus(dv, i) & (PX_D - 1u);
      atomic_add(&q[k], pxdigi_const_adc(dv, i));
      atomic_min(&xmin[k], pxdigi_const_x(dv, i));
      atomic_min(&ymin[k], pxdigi_const_y(dv, i));
    }
    lsk_sync();
    /* Moments about the cluster's lowest pixel: small numbers, exact. */
    LSK_FOREACH_N(it, n)
    {
      uint i = a + it.idx, k = pxdigi_const_clus(dv, i) & (PX_D - 1u);
      ulong w = pxdigi_const_adc(dv, i);
      ulong dx = pxdigi_const_x(dv, i) - xmin[k], dy = pxdigi_const_y(dv, i) - ymin[k];
      px_add64(&mom[k], &mom[4 * PX_D + k], w * dx);
      px_add64(&mom[PX_D + k], &mom[5 * PX_D + k], w * dy);
      px_add64(&mom[2 * PX_D + k], &mom[6 * PX_D + k], w * dx * dx);
      px_add64(&mom[3 * PX_D + k], &mom[7 * PX_D + k], w * dy * dy);
    }
    lsk_sync();
    LSK_FOREACH_N(it, nk)
    {
      uint k = it.idx;
      LSK_VAR_AT(pass, it) = q[k] >= threshold;
      pxclus_set_charge(cv, c0 + k, q[k]);
      pxclus_set_xmin(cv, c0 + k, (ushort)xmin[k]);
      pxclus_set_ymin(cv, c0 + k, (ushort)ymin[k]);
      pxclus_set_sx(cv, c0 + k, px_u64(mom, mom + 4 * PX_D, k));
      pxclus_set_sy(cv, c0 + k, px_u64(mom + PX_D, mom + 5 * PX_D, k));
      pxclus_set_sxx(cv, c0 + k, px_u64(mom + 2 * PX_D, mom + 6 * PX_D, k));
      pxclus_set_syy(cv, c0 + k, px_u64(mom + 3 * PX_D, mom + 7 * PX_D, k));
    }
    /* Ends with a barrier: the next module may clear the arrays. */
    uint h = lsk_block_reduce_var_add_uint(s, pass, nk);
    LSK_MASTER nhit[m] = h;
  }
}

LSK_KERNEL void px_hits(LSK_CTX, PXCLUS_PARAMS(c), PXHIT_PARAMS(h), __global const uint *coff,
                        __global const uint *hoff, __global const float *place, uint threshold,
                        uint per_event, uint nmod)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_VAR(uint, rank);
  pxclus_view cv = PXCLUS_VIEW(c);
  pxhit_view hv = PXHIT_VIEW(h);
  LSK_BLOCKS(m, nmod)
  {
    uint c0 = coff[m], nk = min(coff[m + 1] - c0, (uint)PX_D), h0 = hoff[m];
    __global const float *p = place + 12u * (m - m / per_event * per_event);
    LSK_FOREACH_N(it, nk) { LSK_VAR_AT(rank, it) = pxclus_charge(cv, c0 + it.idx) >= threshold; }
    lsk_block_scan_var_add_uint(s, rank, nk, 0);
    LSK_FOREACH_N(it, nk)
    {
      uint k = c0 + it.idx;
      uint qi = pxclus_charge(cv, k);
      if (qi < threshold) {
        pxclus_set_hit(cv, k, 0xffffffffu); /* masked: no hit */
        continue;
      }
      uint j = h0 + LSK_VAR_AT(rank, it);
      /* The same float operations as lsk__pixel_hit_of (host/pixel_ref.c). */
      float q = (float)qi;
      float mx = (float)pxclus_sx(cv, k) / q, my = (float)pxclus_sy(cv, k) / q;
      float vx = fmax((float)pxclus_sxx(cv, k) / q - mx * mx, 0.0f);
      float vy = fmax((float)pxclus_syy(cv, k) / q - my * my, 0.0f);
      float x = ((float)pxclus_xmin(cv, k) + mx + 0.5f - 0.5f * (float)PX_NX) * PX_PITCH_X;
      float y = ((float)pxclus_ymin(cv, k) + my + 0.5f - 0.5f * (float)PX_NY) * PX_PITCH_Y;
      pxhit_set_hx(hv, j, x);
      pxhit_set_hy(hv, j, y);
      pxhit_set_xerr(hv, j, sqrt(vx + 1.0f / 12.0f) * PX_PITCH_X);
      pxhit_set_yerr(hv, j, sqrt(vy + 1.0f / 12.0f) * PX_PITCH_Y);
      for (uint r = 0; r < 3u; ++r)
        pxhit_set_g(hv, j, r, 0, p[3 * r] * x + p[3 * r + 1] * y + p[9 + r]);
      pxhit_set_hcharge(hv, j, qi);
      pxhit_set_hmodule(hv, j, m);
      pxhit_set_cluster(hv, j, k);
      pxclus_set_hit(cv, k, j);
    }
  }
}
