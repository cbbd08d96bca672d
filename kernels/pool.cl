/*
 * pool.cl: the pool's garbage collection and the chunked list's clear
 * (cl/lsk_pool.h, cl/lsk_list.h; host/mem/pool.c and host/mem/chunklist.c run them).
 *
 * The GC is three steps (four kernels for large cells) that the host
 * enqueues in order between user kernels; each reads the header as the
 * last user kernel left it, and only the last one writes it, so no block
 * ever waits for another:
 *   1. gather:  the unused part of the free list moves to its front;
 *   2. recycle: the recycled indices are appended to the free list, and
 *               their cells zero-filled (large cells by a kernel of their
 *               own, a block per cell); when nothing of the free list is
 *               left, nothing is copied: finish swaps the two lists' places;
 *   3. finish:  one work-item updates the header (free list length, data
 *               list start, cursor and recycled count reset) and reports
 *               misuse through LSK_VERIFY.
 * With n free entries of which u were handed out and r = n - u remain,
 * gather never copies a range onto itself: if r < u it copies the r
 * remaining entries [u, n) to [0, r) (order kept); otherwise it fills the
 * u holes at the front with the last u entries [n - u, n) (as Taichi's
 * gc_parallel_0 does). Both are plain parallel copies between disjoint
 * ranges.
 *
 * Every grid-strided loop here ends with a barrier: PoCL runs a work-group
 * as a loop over its work-items, and without a barrier in the loop each
 * work-item would walk the whole grid alone, with a stride (3 to 9% of
 * the speed, measured when lsk was designed); with it, all work-items take
 * one data block together.
 */

/* What the last user kernel used, from the header. */
typedef struct lsk__gc {
  uint cap, nfree, used, rem, fresh_used, nrec;
} lsk__gc;

LSK_INLINE lsk__gc lsk__gc_state(__global const uint *pool)
{
  lsk__gc g;
  g.cap = pool[LSK__POOL_CAPACITY];
  g.nfree = pool[LSK__POOL_FREE_LEN];
  uint cursor = pool[LSK__POOL_CURSOR];
  uint avail = g.nfree + (g.cap - pool[LSK__POOL_FRESH]);
  g.used = min(cursor, g.nfree);
  g.rem = g.nfree - g.used;
  g.fresh_used = min(cursor, avail) - g.used;
  /* Recycles beyond the list, or beyond the room the free list has left,
   * can only come from cells recycled twice: they are dropped (misuse). */
  g.nrec = min(min(pool[LSK__POOL_RECYCLED], g.cap), g.cap - g.rem);
  return g;
}

LSK_KERNEL void lsk_pool_gc_gather(LSK_CTX, __global uint *pool)
{
  lsk__gc g = lsk__gc_state(pool);
  uint n = g.rem < g.used ? g.rem : g.used;
  uint src = g.rem < g.used ? g.used : g.nfree - g.used;
  __global uint *fl = pool + pool[LSK__POOL_FREE_OFF];
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < n)
        fl[i] = fl[src + i];
    }
    lsk_sync();
  }
}

/* x86 CPUs (PoCL): the zero-fill writes whole cache lines with
 * non-temporal stores, which skip reading the line first (its old contents
 * are of no use): a third of the zero-fill's memory traffic. Only whole,
 * aligned lines (partial ones are what such stores do worst), where each
 * worker's slots of a step are 16-aligned runs of consecutive indices (the
 * simd a multiple of 16, every step full). Such stores are weakly ordered,
 * even against locked instructions on some CPUs: each work-item ends with
 * a fence. */
#if defined(__x86_64__) && defined(__clang__) && __has_builtin(__builtin_nontemporal_store) &&     \
    __has_builtin(__builtin_ia32_sfence)
#define LSK__POOL_NT_LINES 1
#if LSK_SIMD % 16 == 0 && LSK_DOMAIN_SIZE % (LSK_SIMD * LSK_WORKERS) == 0
#define LSK__POOL_NT_ZERO 1
#endif
#endif
#ifdef LSK__POOL_NT_ZERO

/* Zero-fills the one-word cells named by rl[0..16): one non-temporal line
 * when they are 16 consecutive cells that fill an aligned line, else one
 * store each. The run table's word for these entries (lsk_pool.h), when
 * set, names the line without a read of the list; it is cleared. */
LSK_INLINE void lsk__gc_zero16(__global uint *cells, __global const uint *rl, __global uint *runw)
{
#ifdef LSK__POOL_RUNS
  uint t = *runw;
  if (t != 0) {
    *runw = 0;
    __global uint *tl = cells + (t - 1);
    if (((ulong)tl & 63) == 0) {
      __builtin_nontemporal_store((uint16)(0), (__global uint16 *)tl);
      return;
    }
  }
#endif
  uint c0 = rl[0], run = 1;
  for (uint q = 1; q < 16; ++q)
    run &= rl[q] == c0 + q;
  __global uint *line = cells + c0;
  if (run && ((ulong)line & 63) == 0) {
    __builtin_nontemporal_store((uint16)(0), (__global uint16 *)line);
    return;
  }
  for (uint q = 0; q < 16; ++q)
    cells[rl[q]] = 0;
}
#endif

/* The recycled indices join the free list; cells under
 * LSK__POOL_LARGE_WORDS are zero-filled here too, one recycled cell per
 * index with its words in a loop (no division per word). */
LSK_KERNEL void lsk_pool_gc_recycle(LSK_CTX, __global uint *pool)
{
  lsk__gc g = lsk__gc_state(pool);
  __global uint *fl = pool + pool[LSK__POOL_FREE_OFF] + g.rem;
  __global const uint *rl = pool + pool[LSK__POOL_REC_OFF];
  __global uint *cells = pool + pool[LSK__POOL_CELLS_OFF];
#ifdef LSK__POOL_RUNS
  __global uint *runs = pool + pool[LSK__POOL_RUNS_OFF];
#endif
  uint cw = pool[LSK__POOL_CELL_WORDS], small = cw < LSK__POOL_LARGE_WORDS;
  LSK_BLOCKS(b, (g.nrec + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    uint i0 = b * LSK_DOMAIN_SIZE;
    if (i0 + LSK_DOMAIN_SIZE <= g.nrec && cw == 1) {
      /* The common whole tile of one-word cells: the copy is contiguous
       * (it vectorizes), the zero-fill a scatter without an inner loop.
       * With no free entry left, the lists swap places instead (finish). */
      if (g.rem != 0)
        LSK_FOREACH(it) fl[i0 + it.idx] = rl[i0 + it.idx];
#ifdef LSK__POOL_NT_ZERO
      for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step)
        for (uint k = 0; k < LSK_SIMD; k += 16) {
          uint i = i0 + LSK__INDEX(step, k);
          lsk__gc_zero16(cells, rl + i, runs + i / LSK__POOL_RUN);
        }
#else
      LSK_FOREACH(it)
      {
        uint i = i0 + it.idx;
        cells[rl[i]] = 0;
#ifdef LSK__POOL_RUNS
        if (i % LSK__POOL_RUN == 0)
          runs[i / LSK__POOL_RUN] = 0;
#endif
      }
#endif
    } else {
      LSK_FOREACH(it)
      {
        uint i = i0 + it.idx;
        if (i < g.nrec) {
          uint cell = rl[i];
          if (g.rem != 0)
            fl[i] = cell;
          if (small) {
            __global uint *c = cells + (ulong)cell * cw;
            for (uint w = 0; w < cw; ++w)
              c[w] = 0;
          }
#ifdef LSK__POOL_RUNS
          if (cw == 1 && i % LSK__POOL_RUN == 0)
            runs[i / LSK__POOL_RUN] = 0;
#endif
        }
      }
    }
    lsk_sync();
  }
#ifdef LSK__POOL_NT_ZERO
  __builtin_ia32_sfence();
#endif
}

/* Larger cells: one cell per data block, a ForEach over its words
 * (contiguous; coalesced on GPUs). On CPUs (PoCL runs a block's
 * work-items one after another) a work-item zeroes whole cells instead,
 * one contiguous loop each, with no barrier per cell: 3076 cells of 1 KiB
 * took 0.85 ms the other way, a barrier and a guarded ForEach per cell. */
LSK_KERNEL void lsk_pool_gc_zero_large(LSK_CTX, __global uint *pool)
{
  lsk__gc g = lsk__gc_state(pool);
  __global const uint *rl = pool + pool[LSK__POOL_REC_OFF];
  __global uint *cells = pool + pool[LSK__POOL_CELLS_OFF];
  uint cw = pool[LSK__POOL_CELL_WORDS];
#if LSK__CPU_ISA
  uint stride = lsk_grid_size() * LSK_WORKERS;
  for (uint r = lsk_block_idx() * LSK_WORKERS + lsk_worker(); r < g.nrec; r += stride) {
    __global uint *c = cells + (ulong)rl[r] * cw;
#ifdef LSK__POOL_NT_LINES
    /* Whole aligned lines: non-temporal stores, as gc_recycle's. */
    if (cw % 16 == 0 && ((ulong)c & 63) == 0) {
      for (uint w = 0; w < cw; w += 16)
        __builtin_nontemporal_store((uint16)(0), (__global uint16 *)(c + w));
      continue;
    }
#endif
    for (uint w = 0; w < cw; ++w)
      c[w] = 0;
  }
#ifdef LSK__POOL_NT_LINES
  __builtin_ia32_sfence();
#endif
#else
  LSK_BLOCKS(r, g.nrec)
  {
    __global uint *c = cells + (ulong)rl[r] * cw;
    for (uint w0 = 0; w0 < cw; w0 += LSK_DOMAIN_SIZE)
      LSK_FOREACH(it) if (w0 + it.idx < cw) c[w0 + it.idx] = 0;
    lsk_sync();
  }
#endif
}

LSK_KERNEL void lsk_pool_gc_finish(LSK_CTX, __global uint *pool)
{
  LSK_MASTER if (lsk_block_idx() == 0)
  {
    lsk__gc g = lsk__gc_state(pool);
    uint cursor = pool[LSK__POOL_CURSOR], avail = g.used + g.fresh_used;
    uint recycled = pool[LSK__POOL_RECYCLED];
    uint dropped = min(recycled, g.cap) - g.nrec;
    uint misuse = pool[LSK__POOL_MISUSE] + dropped;
    if (cursor > avail) {
      uint refused = pool[LSK__POOL_REFUSED];
      uint more = cursor - avail;
      pool[LSK__POOL_REFUSED] = refused + min(more, 0xffffffffu - refused);
    }
#ifdef LSK__POOL_RUNS
    /* Recycles the GC dropped (misuse) may have set run words. */
    if (g.cap > 0 && pool[LSK__POOL_CELL_WORDS] == 1) {
      __global uint *runs = pool + pool[LSK__POOL_RUNS_OFF];
      for (uint i = g.nrec / LSK__POOL_RUN; i * LSK__POOL_RUN < min(recycled, g.cap); ++i)
        runs[i] = 0;
    }
#endif
    pool[LSK__POOL_FREE_LEN] = g.rem + g.nrec;
    if (g.rem == 0) {
      /* Nothing of the free list is left: the recycled list, in place, is
       * the new free list (gc_recycle copied nothing), and the old free
       * list's room takes the next recycles. Both have capacity entries. */
      uint f = pool[LSK__POOL_FREE_OFF];
      pool[LSK__POOL_FREE_OFF] = pool[LSK__POOL_REC_OFF];
      pool[LSK__POOL_REC_OFF] = f;
    }
    pool[LSK__POOL_FRESH] += g.fresh_used;
    pool[LSK__POOL_CURSOR] = 0;
    pool[LSK__POOL_RECYCLED] = 0;
    pool[LSK__POOL_MISUSE] = 0;
    pool[LSK__POOL_GCS] += 1;
    LSK_VERIFY2(misuse == 0, "lsk_pool: bad recycles (index out of range or recycled twice)",
                misuse, recycled);
  }
}

/* The list's chunks go back to the pool; the list is empty again. */
LSK_KERNEL void lsk_list_clear(LSK_CTX, __global uint *pool, __global uint *list)
{
  uint chunks = list[LSK__LIST_CHUNKS];
  __global uint *table = list + LSK__LIST_HEADER_WORDS;
  LSK_BLOCKS(b, (chunks + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint c = b * LSK_DOMAIN_SIZE + it.idx;
      if (c < chunks && table[c] != LSK_POOL_INVALID) {
        lsk_pool_recycle(pool, table[c]);
        table[c] = LSK_POOL_INVALID;
      }
    }
    lsk_sync();
  }
  LSK_MASTER if (lsk_block_idx() == 0)
  {
    list[LSK__LIST_LEN] = 0;
    list[LSK__LIST_LOST] = 0;
  }
}
