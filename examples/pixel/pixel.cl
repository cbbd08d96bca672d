/*
 * pixel.cl: the pixel-detector clustering pipeline (examples/pixel/pixel.c runs it;
 * docs/example-pixel.md and docs/example-pixel-cluster.md explain it).
 * examples/pixel/pixel.c builds this file with the module's constants
 * (PX_NX, PX_NY, PX_PITCH_X, PX_PITCH_Y), PX_GRID
 * (how px_module finds a pixel's neighbours: "Finding a pixel's
 * neighbours" below) and the generated OpenCL C views of its three
 * layouts in front:
 *   pxdigi  x, y, adc, module, clus          one row per digi
 *   pxclus  charge, hit (dense rows: the results); sq, hr, lx, ly,
 *           lxerr, lyerr (sparse rows: module k's cluster id at its first
 *           digi plus id, so no block needs another's counts)
 *   pxhit   hx, hy, xerr, yerr, g (3x1), hcharge, hmodule, cluster
 * The block domain is the most digis a module may have (PX_D): every
 * per-module kernel walks the modules (PX_MODULES), a module's digis
 * (or clusters) being the domain, the indices past its count masked.
 *
 *   px_module   one pass per module: clusters by union-find over the 8
 *               neighbours (ids dense per module in the order of each
 *               cluster's first digi), then each cluster's charge,
 *               lowest pixel and moments while the labels are in local
 *               memory; clusters and hits (clusters at or above the
 *               threshold) per module, each hit's rank in its module
 *   lsk_scan    clusters, hits per module -> first cluster, hit (host)
 *   px_hits     dense cluster rows, and one hit per unmasked cluster at
 *               the module's first hit plus its rank
 * Blocks share nothing and never wait for each other.
 */
#define PX_D LSK_DOMAIN_SIZE
/* An invalid digi's parent (no digi's index), and its cluster id
 * (LSK_PIXEL_INVALID_CLUSTER: CMS's -9999). */
#define PX_SKIP 0xffffffffu
#define PX_INVALID_CLUSTER 0xffffd8f1u
/*
 * Two builds of this file (examples/pixel/pixel.c):
 *   ordinary  PX_LARGE 0: the block domain is LSK_PIXEL_BLOCK_DIGIS (256),
 *             the working arrays in local memory; px_module skips a module
 *             of more digis than the domain (the large build's)
 *   large     PX_LARGE 1: px_large, the same clusterizer over the modules
 *             of more than 256 digis that the host lists, a block per
 *             module at a time with a domain of LSK_PIXEL_MAX_DIGIS
 *             (4096), its grid and working arrays in global memory (a
 *             slice of a scratch buffer per block: 4096 digis' arrays
 *             take 176 KiB, past any GPU's local memory)
 * The helpers below work on PX_MEM memory, local or global.
 */
#ifndef PX_LARGE
#define PX_LARGE 0
#endif
#if PX_LARGE
#define PX_MEM __global
#undef PX_GRID
#define PX_GRID 1 /* a grid in global memory: one load per neighbour */
#else
#define PX_MEM __local
#endif
#define PX_H (2 * PX_D) /* hash slots: at most half full */
/* The occupancy filter: a bit per pixel of PX_FX columns, onto which
 * the module's columns fold (x mod PX_FX): bits 0 to PX_FX * NY (see
 * px_fold), and one more word for px_earlier's two-word reads. */
#define PX_FX 16u
#define PX_W ((PX_FX * PX_NY + 1) / 32 + 2)

/*
 * Finding a pixel's neighbours: px_module needs, for each digi, the digis
 * at its four earlier neighbours. Two ways, chosen by the host:
 *   PX_GRID 1  a grid of the module in local memory: the digi (plus 1,
 *              0 for none) at each pixel, 2 * PX_NX * PX_NY = 133,120
 *              bytes. A neighbour is one load, as in the C reference.
 *              For devices whose local memory is plain memory and large
 *              (PoCL: 1 MiB), where a block walks many modules, so the
 *              grid is zeroed once per block, and each module clears
 *              only its own pixels.
 *   PX_GRID 0  a hash table (pixel -> digi, twice the digis' slots) and an
 *              occupancy filter: 3 KiB, for GPUs (48 KiB per block on
 *              NVIDIA) and llvmpipe (32 KiB). A neighbour costs a filter
 *              test and, when it may be there, a probe.
 * On PoCL the grid makes px_module about a quarter faster
 * (docs/perf/pixel.md).
 */
#if (PX_D & (PX_D - 1)) != 0
#error "pixel.cl: the block domain (the most digis per module) must be a power of two"
#endif

/*
 * PX_MODULES(m, nmod): the modules of this block, a contiguous run (block
 * b of G takes [b * nmod / G, (b + 1) * nmod / G)), not LSK_BLOCKS's
 * stride of G: a block then reads the digis in memory order, which a CPU's
 * prefetcher follows (strided, each module's columns were a cache miss
 * each). With one block per module (GPUs) both are the same. Uniform
 * across the block, so barriers inside are allowed.
 */
LSK_INLINE uint px_first(uint nmod, uint b) { return (uint)((ulong)nmod * b / lsk_grid_size()); }
#define PX_MODULES(m, nmod)                                                                        \
  for (uint m = px_first(nmod, lsk_block_idx()), m##_end = px_first(nmod, lsk_block_idx() + 1u);   \
       m < m##_end; ++m)

/* The hash of a pixel key (x * NY + y + 1, never 0): Fibonacci hashing. */
LSK_INLINE uint px_slot(uint key) { return ((key * 0x9E3779B1u) >> 16) & (PX_H - 1u); }

/*
 * Local memory that more than one worker may update at once. With one
 * worker per block (the CPU shape) nothing else in the block can touch it
 * between barriers, so these are plain operations: on x86 every local
 * atomic is a locked instruction, and one module costs a few hundred of
 * them. With more workers they are atomics; reads of what another worker
 * may be updating are atomic too (oclgrind calls a plain read a race).
 * Either way the results are the same: only integer sums and minima, and
 * links that the algorithm makes order-free.
 */
#if LSK_WORKERS == 1
LSK_INLINE uint px_ld(PX_MEM uint *p) { return *p; }
LSK_INLINE uint px_cas(PX_MEM uint *p, uint old, uint v)
{
  uint seen = *p;
  if (seen == old)
    *p = v;
  return seen;
}
LSK_INLINE void px_add(PX_MEM uint *p, uint v) { *p += v; }
LSK_INLINE void px_min(PX_MEM uint *p, uint v) { *p = min(*p, v); }
LSK_INLINE void px_or(PX_MEM uint *p, uint v) { *p |= v; }
LSK_INLINE void px_and(PX_MEM uint *p, uint v) { *p &= v; }
#else
LSK_INLINE uint px_ld(PX_MEM uint *p) { return atomic_or((volatile PX_MEM uint *)p, 0u); }
LSK_INLINE uint px_cas(PX_MEM uint *p, uint old, uint v)
{
  return atomic_cmpxchg((volatile PX_MEM uint *)p, old, v);
}
LSK_INLINE void px_add(PX_MEM uint *p, uint v) { atomic_add((volatile PX_MEM uint *)p, v); }
LSK_INLINE void px_min(PX_MEM uint *p, uint v) { atomic_min((volatile PX_MEM uint *)p, v); }
LSK_INLINE void px_or(PX_MEM uint *p, uint v) { atomic_or((volatile PX_MEM uint *)p, v); }
LSK_INLINE void px_and(PX_MEM uint *p, uint v) { atomic_and((volatile PX_MEM uint *)p, v); }
#endif

/* The digi whose pixel key (x * NY + y + 1) is key, or self if none. An
 * entry of tab is key * PX_D + digi; 0 is free. */
LSK_INLINE uint px_find(__local const uint *tab, uint key, uint self)
{
  /* Ends: the table is at most half full, so a free slot comes. One exit:
   * with a return for each outcome inside the loop, Mesa 22.3's llvmpipe
   * gave wrong digis (0) where the lanes of a vector left the loop at
   * different probes, which merged clusters with more than one worker. */
  uint h = px_slot(key), e = tab[h];
  while (e != 0u && e / PX_D != key) {
    h = (h + 1u) & (PX_H - 1u);
    e = tab[h];
  }
  return e ? e & (PX_D - 1u) : self;
}

/* The filter's bit of pixel (x, y): its key with x folded. */
LSK_INLINE uint px_fold(uint x, uint y) { return (x & (PX_FX - 1u)) * PX_NY + y + 1u; }

/* Which of the pixel's four earlier neighbours may have fired, as bits 0
 * to 3: (x-1, y-1), (x-1, y), (x-1, y+1), (x, y-1); their keys are
 * key - NY - 1, key - NY, key - NY + 1 and key - 1, and their filter bits
 * c, c + 1, c + 2 and d. From the occupancy filter, two words and no
 * branches: most neighbours are empty, and a bit is cheaper than a probe.
 * The filter folds the module's 160 columns onto 16 (6657 bits, 840
 * bytes), not a bit per pixel (66560 bits, 8 KB: a quarter of the 32 KiB
 * that the kernel may use), so a set bit may be another pixel's, a
 * multiple of 16 columns away: the caller's probe then finds no digi and
 * the neighbour counts for nothing. A clear bit is always right. A
 * neighbour off the module never counts (without the masks (1, 0)'s
 * lower left would be (0, 415)). */
LSK_INLINE uint px_earlier(__local const uint *occ, uint x, uint y)
{
  uint c = x ? px_fold(x - 1u, y) - 1u : 0u, d = px_fold(x, y) - 1u;
  ulong w = (ulong)occ[c >> 5] | (ulong)occ[(c >> 5) + 1u] << 32;
  uint m = (uint)(w >> (c & 31u)) & 7u;
  m |= ((occ[d >> 5] >> (d & 31u)) & 1u) << 3;
  return m & (x ? 15u : 8u) & (y ? 15u : 6u) & (y + 1u < PX_NY ? 15u : 11u);
}

/* Adds v to a 64-bit sum in local memory. OpenCL 1.2 has no 64-bit
 * local atomics: with more than one worker the sum is added as its two
 * uint halves, exactly (the add that wraps the low word carries into the
 * high one); with one, it is a plain add. */
#ifdef __ENDIAN_LITTLE__
#define PX_LO 0
#else
#define PX_LO 1
#endif
LSK_INLINE void px_add64(PX_MEM ulong *p, ulong v)
{
#if LSK_WORKERS == 1
  *p += v;
#else
  volatile PX_MEM uint *w = (volatile PX_MEM uint *)p;
  uint l = (uint)v, h = (uint)(v >> 32);
  uint old = atomic_add(&w[PX_LO], l);
  h += old + l < old;
  if (h)
    atomic_add(&w[1 - PX_LO], h);
#endif
}

/* The root of digi i. Every link points to a smaller digi (a root is
 * linked under a smaller root), so a root is the smallest digi of its
 * tree. Path halving only ever points a digi at a farther ancestor, and
 * with atomic_min two workers halving at once keep the farther one. */
LSK_INLINE uint px_root(PX_MEM uint *parent, uint i)
{
  for (;;) {
    uint p = px_ld(&parent[i]);
    if (p == i)
      return i;
    uint g = px_ld(&parent[p]);
    if (g != p)
      px_min(&parent[i], g);
    i = g;
  }
}

/* Joins the trees of digis i and j: the larger root under the smaller.
 * The swap succeeds only on a root that is still one, so a retry means
 * that another worker linked first (lock-free: nobody waits for anyone). */
LSK_INLINE void px_union(PX_MEM uint *parent, uint i, uint j)
{
  for (;;) {
    uint a = px_root(parent, i), b = px_root(parent, j);
    if (a == b)
      return;
    uint lo = min(a, b), hi = max(a, b);
    if (px_cas(&parent[hi], hi, lo) == hi)
      return;
  }
}

/* A cluster's row j (sparse: its module's first digi plus its id): its
 * charge, its hit's rank among the module's hits and, unless the charge is
 * below the threshold (masked: no hit), the hit's local position and
 * errors, here where the sums are at hand (px_hits then reads 16 bytes,
 * not 36): the same float operations as px_hit_of
 * (examples/pixel/pixel_ref.c). The sums are raw (about the module's corner); sum
 * w (x - x0)^2 = sum w x^2 - 2 x0 sum w x + x0^2 sum w moves them to the
 * lowest pixel, exactly modulo 2^64, and the true value fits. */
LSK_INLINE void px_row(pxclus_view cv, uint j, uint qr, uint hr, uint threshold, ulong x0, ulong y0,
                       ulong sx, ulong sy, ulong sxx, ulong syy)
{
  pxclus_set_sq(cv, j, qr);
  pxclus_set_hr(cv, j, hr);
  if (qr < threshold)
    return;
  ulong w = qr;
  float fq = (float)qr;
  float mx = (float)(sx - x0 * w) / fq, my = (float)(sy - y0 * w) / fq;
  float vx = fmax((float)(sxx - 2u * x0 * sx + x0 * x0 * w) / fq - mx * mx, 0.0f);
  float vy = fmax((float)(syy - 2u * y0 * sy + y0 * y0 * w) / fq - my * my, 0.0f);
  pxclus_set_lx(cv, j, ((float)x0 + mx + 0.5f - 0.5f * (float)PX_NX) * PX_PITCH_X);
  pxclus_set_ly(cv, j, ((float)y0 + my + 0.5f - 0.5f * (float)PX_NY) * PX_PITCH_Y);
  pxclus_set_lxerr(cv, j, sqrt(vx + 1.0f / 12.0f) * PX_PITCH_X);
  pxclus_set_lyerr(cv, j, sqrt(vy + 1.0f / 12.0f) * PX_PITCH_Y);
}

/* Frees a digi's pixel for the next module: its grid cell, or its hash
 * slot and its filter bit (a bit that two pixels share is cleared twice). */
#if PX_GRID
LSK_INLINE void px_free(PX_MEM ushort *grid, uint x, uint y) { grid[x * PX_NY + y] = 0u; }
#define PX_PIXELS grid /* px_free's first arguments in px_module */
#else
LSK_INLINE void px_free(__local uint *tab, __local uint *occ, uint slot, uint x, uint y)
{
  uint f = px_fold(x, y);
  tab[slot] = 0u;
  px_and(&occ[f >> 5], ~(1u << (f & 31u)));
}
#define PX_PIXELS tab, occ, LSK_VAR_AT(sl, it)
#endif

/*
 * px_module: one module per block: its clusters (union-find over the 8
 * neighbours), then each cluster's charge, lowest pixel and moments,
 * while the module's labels are still in local memory. A cluster's row
 * goes at its module's first digi plus its id (a module has no more
 * clusters than digis), so no block needs another's counts; px_hits
 * moves what the results need to dense rows.
 *
 * Passes, each over the module's digis: index the pixels; join each digi
 * with its earlier neighbours; sum per root; rank the roots (a block
 * scan); rows per root; labels per digi. With one worker (the CPU shape)
 * the digis go in order and a root, the smallest digi of its cluster,
 * comes before its other digis: the root starts its sums (nothing to zero
 * first), and counting ranks the roots, so rows and labels are one pass
 * with no scan. That took the cluster stage of lsk demo from about 35 to
 * 30 ms on PoCL (docs/perf/pixel.md).
 *
 * Local memory, the hash way (PX_GRID 0): 14,152 bytes plus the scan's
 * scratch (8 per worker); the grid way has the grid (133,120) instead of
 * tab and occ (2,888). The hash way must stay within 32 KiB, the least
 * that lsk's OpenCL devices give a block (llvmpipe; NVIDIA gives 48 KiB),
 * and Mesa 22's rusticl reports
 * twice what a kernel declares, so there it must stay within 16 KiB
 * (examples/pixel/check_pixel.c checks the reported figure). It was 25,736 bytes
 * (51,488 as rusticl reported them); what made room, each explained
 * where it is done:
 *   occ     a filter: columns folded onto 16 (px_earlier) 8328 ->  840
 *   la      each digi's root kept in parent               1024 ->    0
 *   lb      each cluster's id kept in q                   1024 ->    0
 *   sl      each digi's slot: a context variable          1024 ->    0
 *           (private memory: only the digi's own index reads it)
 *   msx     sum w x in 32 bits                            2048 -> 1024
 */
#if PX_LARGE
/* A block's slice of px_large's scratch, in uints: the grid (ushort per
 * pixel), then parent, q, xmin, ymin (uint) and the four moments (ulong:
 * sum w x of 4096 digis may pass 2^32), each PX_D long. */
#define PX_GRID_WORDS (PX_NX * PX_NY / 2u)
#define PX_SLICE (PX_GRID_WORDS + 12u * PX_D)
#define PX_ADDX px_add64
LSK_KERNEL void px_large(LSK_CTX, PXDIGI_PARAMS(d), PXCLUS_PARAMS(c), __global const uint *start,
                         __global uint *nclus, __global uint *nhit, uint thr1, uint nmod,
                         uint inv, __global const uint *thr, uint per_event,
                         __global const uint *list, uint nlist, __global uint *scratch)
#else
#define PX_ADDX px_add
LSK_KERNEL void px_module(LSK_CTX, PXDIGI_PARAMS(d), PXCLUS_PARAMS(c), __global const uint *start,
                          __global uint *nclus, __global uint *nhit, uint thr1, uint nmod,
                          uint inv, __global const uint *thr, uint per_event)
#endif
{
#if LSK_WORKERS > 1
  LSK_BLOCK_SCRATCH(uint, s); /* the ranks' scan */
  LSK_VAR(uint, root);
#endif
#if PX_LARGE
  __global uint *slice = scratch + (size_t)lsk_block_idx() * PX_SLICE;
  __global ushort *grid = (__global ushort *)slice; /* pixel -> digi + 1 */
  __global uint *parent = slice + PX_GRID_WORDS, *q = parent + PX_D, *xmin = q + PX_D;
  __global uint *ymin = xmin + PX_D;
  __global ulong *msx = (__global ulong *)(ymin + PX_D), *msy = msx + PX_D, *msxx = msy + PX_D;
  __global ulong *msyy = msxx + PX_D;
#elif PX_GRID
  LSK_SHARED(ushort, grid, PX_NX * PX_NY); /* pixel -> digi + 1 */
#else
  LSK_SHARED(uint, tab, PX_H); /* pixel -> digi */
  LSK_SHARED(uint, occ, PX_W); /* the occupancy filter (px_earlier) */
  LSK_VAR(uint, sl);           /* each digi's slot in tab */
#endif
#if !PX_LARGE
  LSK_SHARED(uint, parent, PX_D); /* union-find links; then each digi's root */
  LSK_SHARED(uint, q, PX_D);      /* per root: charge; then its cluster id */
  LSK_SHARED(uint, xmin, PX_D);   /* per root: lowest x and y */
  LSK_SHARED(uint, ymin, PX_D);
  /* Raw moments per root: sum w x, w y, w x^2, w y^2. Four arrays, not
   * one of 4 * PX_D, whose four zeroing stores LLVM made into an AVX-512
   * scatter on PoCL. sum w x fits 32 bits: at most 256 digis of adc below
   * 2^16 and x below 160 make under 2^31.4; sum w y (y below 416) may
   * not. */
  LSK_SHARED(uint, msx, PX_D);
  LSK_SHARED(ulong, msy, PX_D);
  LSK_SHARED(ulong, msxx, PX_D);
  LSK_SHARED(ulong, msyy, PX_D);
#endif
  pxdigi_view v = PXDIGI_VIEW(d);
  pxclus_view cv = PXCLUS_VIEW(c);
  /* The scans' last entries, so that they end with the totals. */
  if (lsk_block_idx() == 0)
    LSK_MASTER
    {
      nclus[nmod] = 0u;
      nhit[nmod] = 0u;
    }
  /* Free once; each module frees the slots it took. The large build's
   * grid is in global memory, zeroed by the host when it is made and left
   * so by each module: no 66,560 stores per block and launch (on llvmpipe,
   * whose loop cap counts every iteration of a work-item, they alone came
   * near it). */
#if !PX_LARGE
  LSK_FOREACH(it)
  {
#if PX_GRID
    for (uint j = it.idx; j < PX_NX * PX_NY; j += PX_D)
      grid[j] = 0u;
#else
    tab[it.idx] = 0u;
    tab[it.idx + PX_D] = 0u;
    for (uint j = it.idx; j < PX_W; j += PX_D)
      occ[j] = 0u;
#endif
  }
  lsk_sync();
#endif
  /* Only the module's n digis: a ForEach over n, not over the domain,
   * costs in proportion to the digis (most modules have few). */
#if PX_LARGE
  /* The listed modules (more digis than the ordinary domain), a run of
   * them per block as PX_MODULES takes its modules. */
  for (uint li = px_first(nlist, lsk_block_idx()), li_end = px_first(nlist, lsk_block_idx() + 1u);
       li < li_end; ++li) {
    uint m = list[li], a = start[m], n = min(start[m + 1] - a, (uint)PX_D);
    uint threshold = per_event ? thr[m % per_event] : thr1;
#else
  PX_MODULES(m, nmod)
  {
    uint a = start[m], n = start[m + 1] - a;
    if (n > PX_D)
      continue; /* a large module: px_large's (uniform: no barrier skipped by some) */
    /* Its threshold: per module where the host gave them (per_event not
     * 0: a cut per range of module ids, or strict), else thr1 for all. */
    uint threshold = per_event ? thr[m % per_event] : thr1;
#endif
    /* Pixels are distinct, so each digi has a grid cell, or claims a free
     * hash slot, of its own. */
    LSK_FOREACH_N(it, n)
    {
      /* An invalid digi (module inv): no pixel, and PX_SKIP for a parent,
       * which every later pass tests first. Its x and y are never read. */
      if (pxdigi_module(v, a + it.idx) == inv) {
        parent[it.idx] = PX_SKIP;
#if LSK_WORKERS > 1
        q[it.idx] = 0u; /* read (and dropped) by the ranks' scan */
#endif
        continue;
      }
      uint key = (uint)pxdigi_x(v, a + it.idx) * PX_NY + pxdigi_y(v, a + it.idx) + 1u;
#if PX_GRID
      grid[key - 1u] = (ushort)(it.idx + 1u);
#else
      uint h = px_slot(key);
      while (px_cas(&tab[h], 0u, key * PX_D + it.idx) != 0u)
        h = (h + 1u) & (PX_H - 1u);
      LSK_VAR_AT(sl, it) = h;
      uint f = px_fold(pxdigi_x(v, a + it.idx), pxdigi_y(v, a + it.idx));
      px_or(&occ[f >> 5], 1u << (f & 31u));
#endif
      parent[it.idx] = it.idx;
#if LSK_WORKERS > 1 /* one worker: each root starts its own sums */
      q[it.idx] = 0u;
      xmin[it.idx] = 0xffffu;
      ymin[it.idx] = 0xffffu;
      msx[it.idx] = 0u;
      msy[it.idx] = 0u;
      msxx[it.idx] = 0u;
      msyy[it.idx] = 0u;
#endif
    }
    lsk_sync();
    /* Half the neighbours each (the lower x, and the lower y at the same
     * x), so that every touching pair is joined once. A filter bit set by
     * another pixel finds no digi: px_find gives it.idx, and the union of
     * a digi with itself does nothing. */
    LSK_FOREACH_N(it, n)
    {
      if (px_ld(&parent[it.idx]) == PX_SKIP)
        continue;
      uint x = pxdigi_x(v, a + it.idx), y = pxdigi_y(v, a + it.idx), key = x * PX_NY + y + 1u;
#if PX_GRID
      /* Cell key - 1; off the module counts as empty. A branch per
       * neighbour: one mask and a loop over its bits was no faster. */
      uint c = key - 1u;
      uint o0 = x && y ? grid[c - PX_NY - 1u] : 0u;
      uint o1 = x ? grid[c - PX_NY] : 0u;
      uint o2 = x && y + 1u < PX_NY ? grid[c - PX_NY + 1u] : 0u;
      uint o3 = y ? grid[c - 1u] : 0u;
      if (o0)
        px_union(parent, it.idx, o0 - 1u);
      if (o1)
        px_union(parent, it.idx, o1 - 1u);
      if (o2)
        px_union(parent, it.idx, o2 - 1u);
      if (o3)
        px_union(parent, it.idx, o3 - 1u);
#else
      for (uint fired = px_earlier(occ, x, y); fired; fired &= fired - 1u) {
        uint bit = 31u - clz(fired & (0u - fired)); /* the lowest left */
        uint nk = bit < 3u ? key - PX_NY - 1u + bit : key - 1u;
        px_union(parent, it.idx, px_find(tab, nk, it.idx));
      }
#endif
    }
    lsk_sync();
    /* Roots are final. One pass sums, per root, the charge, the lowest
     * pixel and the raw moments (about the module's corner); the root
     * moves them to its lowest pixel below, exactly, in 64 bits. Each
     * digi also points itself at its root: parent then holds every
     * digi's root, no array of its own. Safe while other workers walk
     * their paths through it: it is what path halving does (the root is
     * the smallest of the digi's ancestors, so px_min sets it), and
     * px_root only ever reads an ancestor there. */
    LSK_FOREACH_N(it, n)
    {
      if (px_ld(&parent[it.idx]) == PX_SKIP)
        continue;
      uint r = px_root(parent, it.idx), i = a + it.idx;
      uint w = pxdigi_adc(v, i), x = pxdigi_x(v, i), y = pxdigi_y(v, i);
      ulong wx = (ulong)w * x, wy = (ulong)w * y;
#if LSK_WORKERS == 1
      /* The root comes first (see above): it starts the sums. */
      if (r == it.idx) {
        q[r] = w;
        xmin[r] = x;
        ymin[r] = y;
        msx[r] = w * x;
        msy[r] = wy;
        msxx[r] = wx * x;
        msyy[r] = wy * y;
        continue;
      }
#endif
      px_min(&parent[it.idx], r);
      px_add(&q[r], w);
      px_min(&xmin[r], x);
      px_min(&ymin[r], y);
      PX_ADDX(&msx[r], w * x);
      px_add64(&msy[r], wy);
      px_add64(&msxx[r], wx * x);
      px_add64(&msyy[r], wy * y);
    }
    lsk_sync();
    /* Cluster ids: the rank of each root among the roots, the order of the
     * clusters' first digis (the C reference's too); each hit's rank among
     * the module's hits (roots at or above the threshold), so that px_hits
     * needs no scan. At most PX_D of each: the low and high 16 bits of k
     * count them. Then each root writes its cluster's row (px_row) and
     * puts its id in q[r], where its digis read it. */
#if LSK_WORKERS == 1
    /* One worker goes through the digis in order, and a root (the
     * smallest digi of its cluster) comes before its digis: counting gives
     * the ranks, and one pass does the rows and the labels. */
    uint k = 0;
    LSK_FOREACH_N(it, n)
    {
      uint r = it.idx;
      if (parent[r] == PX_SKIP) {
        pxdigi_set_clus(v, a + r, PX_INVALID_CLUSTER);
        continue;
      }
      uint x = pxdigi_x(v, a + r), y = pxdigi_y(v, a + r);
      if (parent[r] == r) {
        uint qr = q[r];
        px_row(cv, a + (k & 0xffffu), qr, k >> 16, threshold, xmin[r], ymin[r], msx[r], msy[r],
               msxx[r], msyy[r]);
        q[r] = k & 0xffffu;
        k += 1u + ((uint)(qr >= threshold) << 16);
      }
      pxdigi_set_clus(v, a + r, q[parent[r]]);
      px_free(PX_PIXELS, x, y);
    }
#else
    /* The ranks by one block scan of both flags. */
    LSK_FOREACH_N(it, n)
    {
      uint r = it.idx, root1 = parent[r] == r;
      LSK_VAR_AT(root, it) = root1 | (root1 & (q[r] >= threshold)) << 16;
    }
    uint k = lsk_block_scan_var_add_uint(s, root, n, 0);
    /* Each root: its row, then its id in q[r] (for the last pass): only
     * the root's own index reads or writes q[r] here, and the scan above,
     * the other reader, is past. */
    LSK_FOREACH_N(it, n)
    {
      uint r = it.idx, rank = LSK_VAR_AT(root, it);
      if (parent[r] != r)
        continue;
      px_row(cv, a + (rank & 0xffffu), q[r], rank >> 16, threshold, xmin[r], ymin[r], msx[r],
             msy[r], msxx[r], msyy[r]);
      q[r] = rank & 0xffffu;
    }
    lsk_sync();
    /* Each digi: its cluster's id (q at its root), and frees its pixel. */
    LSK_FOREACH_N(it, n)
    {
      if (parent[it.idx] == PX_SKIP) {
        pxdigi_set_clus(v, a + it.idx, PX_INVALID_CLUSTER);
        continue;
      }
      uint x = pxdigi_x(v, a + it.idx), y = pxdigi_y(v, a + it.idx);
      pxdigi_set_clus(v, a + it.idx, q[parent[it.idx]]);
      px_free(PX_PIXELS, x, y);
    }
#endif
    LSK_MASTER
    {
      nclus[m] = k & 0xffffu;
      nhit[m] = k >> 16;
    }
    lsk_sync(); /* the next module reuses the local arrays */
  }
}

/* atan2(y, x) within 3e-8 radians (a 1/3000 of iphi's count): the
 * polynomial of Abramowitz and Stegun 4.4.49 for atan on [0, 1], folded
 * to the circle. PoCL's atan2 made px_hits 6 times slower (a library call
 * per hit that kept the loop from vectorizing); this is multiplies and
 * selects. The C reference uses atan2f: the same iphi, or one count off
 * where the rounding falls between them (lsk_pixel_compare allows 1). */
LSK_INLINE float px_atan2(float y, float x)
{
  float ax = fabs(x), ay = fabs(y), hi = fmax(ax, ay), lo = fmin(ax, ay);
  float z = hi > 0.0f ? lo / hi : 0.0f, z2 = z * z;
  float p = 0.0028662257f;
  p = p * z2 - 0.0161657367f;
  p = p * z2 + 0.0429096138f;
  p = p * z2 - 0.0752896400f;
  p = p * z2 + 0.1065626393f;
  p = p * z2 - 0.1420889944f;
  p = p * z2 + 0.1999355085f;
  p = p * z2 - 0.3333314528f;
  float a = z + z * z2 * p;
  a = ay > ax ? 1.57079632679f - a : a;
  a = x < 0.0f ? 3.14159265359f - a : a;
  return y < 0.0f ? -a : a;
}

LSK_KERNEL void px_hits(LSK_CTX, PXCLUS_PARAMS(c), PXHIT_PARAMS(h), __global const uint *start,
                        __global const uint *coff, __global const uint *hoff,
                        __global const float *place, __global const uint *thr, float bx,
                        float by, float bz, uint per_event, uint nmod)
{
  pxclus_view cv = PXCLUS_VIEW(c);
  pxhit_view hv = PXHIT_VIEW(h);
  /* PX_MODULES, with the module's place in its event counted along (with a
   * division per module, modules of one cluster took twice as long). */
  uint m0 = px_first(nmod, lsk_block_idx()), m1 = px_first(nmod, lsk_block_idx() + 1u);
  uint pm = m0 - m0 / per_event * per_event;
  for (uint m = m0; m < m1; ++m, pm = pm + 1u == per_event ? 0u : pm + 1u) {
    /* The module's clusters: sparse rows from a, dense ones from c0. */
    uint a = start[m], c0 = coff[m], nk = min(coff[m + 1] - c0, start[m + 1] - a), h0 = hoff[m];
    __global const float *p = place + 12u * pm;
    uint threshold = thr[pm]; /* the module's (px_module's test) */
    /* A large module's clusters may pass the domain: data blocks of PX_D
     * (each cluster is on its own here). */
    for (uint b0 = 0; b0 < nk; b0 += PX_D)
      LSK_FOREACH_N(it, min(nk - b0, (uint)PX_D))
      {
        uint i = a + b0 + it.idx, k = c0 + b0 + it.idx;
        uint qi = pxclus_sq(cv, i);
        pxclus_set_charge(cv, k, qi);
        if (qi < threshold) {
          pxclus_set_hit(cv, k, 0xffffffffu); /* masked: no hit */
          continue;
        }
        uint j = h0 + pxclus_hr(cv, i); /* its rank among the hits: px_module */
        float x = pxclus_lx(cv, i), y = pxclus_ly(cv, i);
        pxhit_set_hx(hv, j, x);
        pxhit_set_hy(hv, j, y);
        pxhit_set_xerr(hv, j, pxclus_lxerr(cv, i));
        pxhit_set_yerr(hv, j, pxclus_lyerr(cv, i));
        /* Global, then about the beam spot: its radius and its phi as
         * CMS's int16 (phi2short; px_iphi, examples/pixel/pixel_internal.h). */
        float g0 = p[0] * x + p[1] * y + p[9], g1 = p[3] * x + p[4] * y + p[10];
        float g2 = p[6] * x + p[7] * y + p[11], u = g0 - bx, w = g1 - by;
        pxhit_set_g(hv, j, 0, 0, g0);
        pxhit_set_g(hv, j, 1, 0, g1);
        pxhit_set_g(hv, j, 2, 0, g2);
        pxhit_set_gb(hv, j, 0, 0, u);
        pxhit_set_gb(hv, j, 1, 0, w);
        pxhit_set_gb(hv, j, 2, 0, g2 - bz);
        pxhit_set_r(hv, j, sqrt(u * u + w * w));
        int ip = convert_int_rte(px_atan2(w, u) * 10430.378350470453f); /* 2^15 / pi */
        pxhit_set_iphi(hv, j, as_short((ushort)((uint)ip & 0xffffu)));
        pxhit_set_hcharge(hv, j, qi);
        pxhit_set_hmodule(hv, j, m);
        pxhit_set_cluster(hv, j, k);
        pxclus_set_hit(cv, k, j);
      }
  }
}

/* Each digi's cluster as a number over the whole run: coff[m] + its
 * cluster within module m (lsk_pixel_cluster_sizes counts them with a
 * histogram: the clusters' sizes, then the sizes' histogram). */
LSK_KERNEL void px_cluster_ids(LSK_CTX, PXDIGI_PARAMS(d), __global const uint *start,
                               __global const uint *coff, __global uint *ids, uint nmod)
{
  pxdigi_view dv = PXDIGI_VIEW(d);
  uint m0 = px_first(nmod, lsk_block_idx()), m1 = px_first(nmod, lsk_block_idx() + 1u);
  for (uint m = m0; m < m1; ++m) {
    uint a = start[m], c0 = coff[m], n = start[m + 1] - a;
    for (uint b0 = 0; b0 < n; b0 += PX_D)
      LSK_FOREACH_N(it, min(n - b0, (uint)PX_D))
      {
        /* An invalid digi: past every bin (c0 + its id could wrap into one). */
      uint k = pxdigi_clus(dv, a + b0 + it.idx);
      ids[a + b0 + it.idx] = k == PX_INVALID_CLUSTER ? 0xffffffffu : c0 + k;
      }
  }
}
