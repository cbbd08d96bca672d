/*
 * lsk_pool.h: device-side dynamic memory: a pool of fixed-size cells in one
 * buffer, and frames (cells that hold an SoA chunk of a layout).
 *
 * A pool is one __global uint buffer (lsk_pool_buffer on the host): a
 * header, the free list, the recycled list, then the cells. A cell is named
 * by its uint index; LSK_POOL_INVALID names none. Semantics (docs/dynamic-memory.md,
 * after Taichi's sparse runtime):
 *   - lsk_pool_alloc takes a cursor with one atomic add. Cursor values below
 *     the free list's length reuse freed cells, the next ones take fresh
 *     cells from the data list (never used before), and past those the pool
 *     is exhausted: the call returns LSK_POOL_INVALID and the cursor keeps
 *     counting, so the host learns the shortfall (lsk_pool_usage_get).
 *   - lsk_pool_recycle appends the index to the recycled list. The cell is
 *     not reused before the host runs the GC (lsk_pool_gc), which moves the
 *     recycled indices to the free list and zero-fills those cells.
 * So an allocated cell always reads as zeros, a kernel never sees a cell
 * come back to life while it runs, and nothing waits for anything: every
 * operation is one atomic add (a worker's cache: a compare-and-swap tried
 * at most four times) and plain loads and stores (no locks; OpenCL
 * guarantees no forward progress between work-items, so there could be none).
 *
 * The free list's length and the data list's start are read, never written,
 * while user kernels run (only the GC's kernels change them), so reading
 * them needs no atomics.
 *
 * All functions may be called by any work-item, in any control flow, except
 * the _var ones (block collectives: every worker, uniform control flow, a
 * LSK_BLOCK_SCRATCH(uint) scratch; they include barriers).
 */
#ifndef LSK_CL_POOL_H
#define LSK_CL_POOL_H

#include "lsk_block.h"
#include "lsk_config.h"
#include "lsk_idx.h"
#include "lsk_shared.h"

/* No cell. The header's words (LSK__POOL_*) are in lsk_shared.h, which
 * the host reads too. */
#define LSK_POOL_INVALID LSK__POOL_NONE

LSK_INLINE uint lsk_pool_capacity(__global const uint *pool) { return pool[LSK__POOL_CAPACITY]; }

/* The cell that cursor value c stands for: the free list first, then the
 * data list, then none. */
LSK_INLINE uint lsk__pool_take(__global const uint *pool, uint c)
{
  uint nfree = pool[LSK__POOL_FREE_LEN];
  if (c < nfree)
    return pool[pool[LSK__POOL_FREE_OFF] + c];
  uint fresh = pool[LSK__POOL_FRESH];
  return c - nfree < pool[LSK__POOL_CAPACITY] - fresh ? fresh + (c - nfree) : LSK_POOL_INVALID;
}

/* The same from the header's words already read: the free list fl of
 * nfree entries, then the data list's left cells from fresh. */
LSK_INLINE uint lsk__pool_cell_at(__global const uint *fl, uint nfree, uint fresh, uint left,
                                  uint c)
{
  return c < nfree ? fl[c] : c - nfree < left ? fresh + (c - nfree) : LSK_POOL_INVALID;
}

/* lsk_pool_alloc: a zero-filled cell, or LSK_POOL_INVALID when the pool is
 * exhausted (counted for the host). One global atomic. */
LSK_INLINE uint lsk_pool_alloc(__global uint *pool)
{
  return lsk__pool_take(pool, atomic_inc((volatile __global uint *)pool + LSK__POOL_CURSOR));
}

/* Records cell in the recycled list, if it fits (it does unless a cell is
 * recycled twice); anything else is counted as misuse, which the GC turns
 * into a verify failure. */
LSK_INLINE void lsk__pool_put(__global uint *pool, uint slot, uint cell)
{
  uint cap = pool[LSK__POOL_CAPACITY];
  if (slot < cap && cell < cap)
    pool[pool[LSK__POOL_REC_OFF] + slot] = cell;
  else
    atomic_inc((volatile __global uint *)pool + LSK__POOL_MISUSE);
}

/* A recycle of a cell at or past the capacity: misuse, unless it is
 * LSK_POOL_INVALID (which is past every capacity: no pool has 2^32 - 1
 * cells), so a valid cell meets one test on its way. */
LSK_INLINE void lsk__pool_recycle_bad(__global uint *pool, uint cell)
{
  if (cell != LSK_POOL_INVALID)
    atomic_inc((volatile __global uint *)pool + LSK__POOL_MISUSE);
}

/* lsk_pool_recycle: give cell back; it becomes free at the next GC.
 * LSK_POOL_INVALID is ignored (as free(NULL)). One global atomic. */
LSK_INLINE void lsk_pool_recycle(__global uint *pool, uint cell)
{
  if (cell >= pool[LSK__POOL_CAPACITY]) {
    lsk__pool_recycle_bad(pool, cell);
    return;
  }
  lsk__pool_put(pool, atomic_inc((volatile __global uint *)pool + LSK__POOL_RECYCLED), cell);
}

/* Where a cell is: its byte offset in the pool buffer, and a pointer. To
 * address many cells, take lsk_pool_cell(pool, 0) and lsk_pool_cell_words
 * once: a store to a cell may otherwise make the compiler read the header
 * again for the next one. */
LSK_INLINE uint lsk_pool_cell_words(__global const uint *pool)
{
  return pool[LSK__POOL_CELL_WORDS];
}
LSK_INLINE ulong lsk_pool_cell_offset(__global const uint *pool, uint cell)
{
  return 4 * ((ulong)pool[LSK__POOL_CELLS_OFF] + (ulong)cell * pool[LSK__POOL_CELL_WORDS]);
}
LSK_INLINE __global uint *lsk_pool_cell(__global uint *pool, uint cell)
{
  return pool + pool[LSK__POOL_CELLS_OFF] + (ulong)cell * pool[LSK__POOL_CELL_WORDS];
}

/* The number of this worker's indices of a ForEach over [0, n) that have
 * flag[slot] != 0 (flag a context variable over n). */
LSK_INLINE uint lsk__pool_count_var(const uint *flag, uint n)
{
  uint k = 0;
  for (uint step = 0; step < LSK__STEPS(n); ++step)
    for (uint j = 0; j < LSK_SIMD; ++j)
      if (LSK__IN(step, j, n) && flag[LSK__SLOT(step, j)] != 0)
        ++k;
  return k;
}

/* The number of this worker's indices of a ForEach over [0, n): its slots
 * in range, which are always the first ones. */
LSK_INLINE uint lsk__pool_in_count(uint n)
{
  uint full = LSK__FULL(n) * LSK_SIMD, done = LSK__FULL(n) * LSK__STRIDE + lsk_worker() * LSK_SIMD;
  return full + (n > done ? min(n - done, (uint)LSK_SIMD) : 0u);
}

/*
 * lsk_pool_alloc_var(s, pool, want, cell, n): block-batched allocation. For
 * every index of a ForEach over [0, n) with want[slot] != 0, cell[slot]
 * gets a cell (or LSK_POOL_INVALID when the pool is exhausted); the other
 * slots get LSK_POOL_INVALID. want and cell are context variables over n
 * (LSK_VAR_N) and may be the same one. One global atomic for the block.
 * @attention every worker, uniform control flow; includes barriers.
 */
LSK_COLLECTIVE void lsk_pool_alloc_var(__local uint *s, __global uint *pool, const uint *want,
                                       uint *cell, uint n)
{
  uint first, total, k = lsk__pool_count_var(want, n);
  uint c =
      lsk_block_append_ex(s, (volatile __global uint *)pool + LSK__POOL_CURSOR, k, &first, &total);
  /* The header once, in registers: PoCL flattens address spaces, so every
   * store to cell[] would otherwise make the compiler read it again. */
  uint nfree = pool[LSK__POOL_FREE_LEN], fresh = pool[LSK__POOL_FRESH];
  uint left = pool[LSK__POOL_CAPACITY] - fresh;
  __global const uint *fl = pool + pool[LSK__POOL_FREE_OFF];
  /* Every slot of this worker wants a cell (the slots in range are a
   * prefix), and all come from one list: a plain copy, which vectorizes. */
  if (k == lsk__pool_in_count(n) && c + k <= nfree) {
    for (uint i = 0; i < k; ++i)
      cell[i] = fl[c + i];
  } else if (k == lsk__pool_in_count(n) && c >= nfree && c - nfree + k <= left) {
    for (uint i = 0; i < k; ++i)
      cell[i] = fresh + (c - nfree) + i;
  } else {
    for (uint step = 0; step < LSK__STEPS(n); ++step)
      for (uint j = 0; j < LSK_SIMD; ++j)
        if (LSK__IN(step, j, n)) {
          uint slot = LSK__SLOT(step, j), x = LSK_POOL_INVALID;
          if (want[slot] != 0) {
            x = lsk__pool_cell_at(fl, nfree, fresh, left, c);
            ++c;
          }
          cell[slot] = x;
        }
  }
}

/* x86 CPUs (PoCL): the run table. When a worker's batched recycle writes a
 * whole aligned line of the recycled list (LSK__POOL_RUN entries) that
 * names 16 consecutive one-word cells filling an aligned line, it records
 * the first cell + 1 in that line's word of the table; the GC then
 * zero-fills those cells without reading the recycled list again (reading
 * it was about two thirds of the GC's CPU time in a churn), and clears the
 * word. A zero word says nothing, and the GC reads the list as before.
 * Same condition as the GC's non-temporal lines (kernels/pool.cl), but not
 * on the launch shape: the GC clears the table on every path. */
#if defined(__x86_64__) && defined(__clang__) && __has_builtin(__builtin_nontemporal_store) &&     \
    __has_builtin(__builtin_ia32_sfence)
#define LSK__POOL_RUNS 1

/* cell[0..k) were just written to the recycled list at [r, r + k). */
LSK_INLINE void lsk__pool_note_runs(__global uint *pool, const uint *cell, uint r, uint k)
{
  if (pool[LSK__POOL_CELL_WORDS] != 1)
    return;
  __global uint *runs = pool + pool[LSK__POOL_RUNS_OFF];
  uint cells_off = pool[LSK__POOL_CELLS_OFF];
  for (uint j = (LSK__POOL_RUN - r % LSK__POOL_RUN) % LSK__POOL_RUN; j + LSK__POOL_RUN <= k;
       j += LSK__POOL_RUN) {
    /* Two 8-wide compares (a loop of 16 scalar ones cost the kernel about
     * a tenth of its time; 16-wide vectors change the ABI without AVX-512). */
    uint8 lo = vload8(0, cell + j), hi = vload8(1, cell + j);
    uint c0 = lo.s0;
    uint8 up = (uint8)(c0) + (uint8)(0, 1, 2, 3, 4, 5, 6, 7);
    if (all((lo == up) & (hi == up + 8u)) && (cells_off + c0) % LSK__POOL_RUN == 0)
      runs[(r + j) / LSK__POOL_RUN] = c0 + 1;
  }
}
#endif

/* cell[0..k) to the recycled list at [r, r + k), when they all fit in its
 * cap entries (noting whole runs on x86); 0, writing nothing, when not. */
LSK_INLINE int lsk__pool_put_all(__global uint *pool, const uint *cell, uint r, uint k, uint cap)
{
  if (r >= cap || cap - r < k)
    return 0;
  __global uint *rl = pool + pool[LSK__POOL_REC_OFF] + r;
  for (uint i = 0; i < k; ++i)
    rl[i] = cell[i];
#ifdef LSK__POOL_RUNS
  lsk__pool_note_runs(pool, cell, r, k);
#endif
  return 1;
}

/*
 * lsk_pool_recycle_var(s, pool, cell, n): block-batched recycle of every
 * cell[slot] that is not LSK_POOL_INVALID, for the indices of a ForEach
 * over [0, n). One global atomic for the block.
 * @attention every worker, uniform control flow; includes barriers.
 */
LSK_COLLECTIVE void lsk_pool_recycle_var(__local uint *s, __global uint *pool, const uint *cell,
                                         uint n)
{
  uint k = 0, cap = pool[LSK__POOL_CAPACITY];
  for (uint step = 0; step < LSK__STEPS(n); ++step)
    for (uint j = 0; j < LSK_SIMD; ++j)
      if (LSK__IN(step, j, n) && cell[LSK__SLOT(step, j)] < cap)
        ++k;
  uint first, total;
  uint r = lsk_block_append_ex(s, (volatile __global uint *)pool + LSK__POOL_RECYCLED, k, &first,
                               &total);
  /* As in lsk_pool_alloc_var: a plain copy when every slot holds a cell
   * and they all fit, else the header in registers and slot by slot. */
  if (k == lsk__pool_in_count(n) && lsk__pool_put_all(pool, cell, r, k, cap))
    return;
  __global uint *rl = pool + pool[LSK__POOL_REC_OFF];
  uint bad = 0;
  for (uint step = 0; step < LSK__STEPS(n); ++step)
    for (uint j = 0; j < LSK_SIMD; ++j)
      if (LSK__IN(step, j, n)) {
        uint x = cell[LSK__SLOT(step, j)];
        if (x < cap) {
          if (r < cap)
            rl[r] = x;
          else
            ++bad;
          ++r;
        } else if (x != LSK_POOL_INVALID) {
          ++bad;
        }
      }
  if (bad)
    atomic_add((volatile __global uint *)pool + LSK__POOL_MISUSE, bad);
}

/*
 * A worker's pool cache: lsk_pool_alloc and lsk_pool_recycle per item, with
 * the atomics taken LSK_POOL_CACHE_BATCH at a time.
 *
 *     lsk_pool_cache pc;
 *     lsk_pool_cache_begin(&pc, pool);
 *     LSK_FOREACH(it) { uint c = lsk_pool_cache_alloc(&pc); ... lsk_pool_cache_recycle(&pc, c); }
 *     lsk_pool_cache_end(&pc);
 *
 * An allocation takes a cursor value from the cache's reservation; an
 * empty cache reserves 16 values, the next time 32, and so on up to BATCH,
 * each time with one compare-and-swap made only while that many cells
 * remain available (so a reservation never makes the pool look exhausted
 * or counts a refusal); otherwise, or when the compare-and-swap failed
 * four times, it takes one value with an atomic add, as lsk_pool_alloc.
 * Recycles collect in the cache and go to the recycled list BATCH at a
 * time, one atomic add each. lsk_pool_cache_end sends the rest, and
 * recycles the cells of values it reserved and never handed out: they
 * were never written, and they are free again after the next GC, which
 * counts them as allocated and recycled.
 *
 * The cells and their order are the pool's as above (a cell handed out
 * reads as zeros, nothing is reused before the GC). What a cache adds: an
 * allocation may fail while other caches hold reserved cells (each at
 * most BATCH - 1, and at most 15 more than it has handed out), and a
 * recycled cell reaches the recycled list only when its cache flushes.
 * Any control flow, no barriers.
 * @attention every lsk_pool_cache_begin needs its lsk_pool_cache_end by
 * the same work-item before the kernel returns; otherwise the cache's
 * reserved and recycled cells are lost to the pool (they stay live).
 *
 * LSK_POOL_CACHE_BATCH: 256 where the device compiles for a CPU's own
 * instruction set (PoCL), where a locked instruction per item costs more
 * than the item's work, and where each reservation's first line is a wait
 * for memory that a larger reservation spreads over more items
 * (docs/dynamic-memory.md); 1 elsewhere, where the calls are
 * lsk_pool_alloc and lsk_pool_recycle. A program may define it (a build
 * option -DLSK_POOL_CACHE_BATCH=N, N from 1 to 1024).
 */
#ifndef LSK_POOL_CACHE_BATCH
#if LSK__CPU_ISA
#define LSK_POOL_CACHE_BATCH LSK__POOL_CACHE_CPU_BATCH
#else
#define LSK_POOL_CACHE_BATCH 1
#endif
#endif
#if LSK_POOL_CACHE_BATCH < 1 || LSK_POOL_CACHE_BATCH > 1024
#error "LSK_POOL_CACHE_BATCH must be 1 to 1024"
#endif

typedef struct lsk_pool_cache {
  __global uint *pool;
  /* The header's words that no user kernel changes, read once: PoCL
   * flattens address spaces, so every store to a cell would otherwise make
   * the compiler read them again. */
  __global const uint *free_list;
  uint nfree, fresh, left, cap;
  /* The reservation's entries of the free list not handed out yet, as
   * pointers: the common allocation is then a compare, a load and an
   * increment, fewer instructions than through the cursor values
   * (counted on PoCL: docs/perf/pool-pic.md). */
  __global const uint *run, *run_end;
  uint next, end;       /* the reservation's other cursor values: [next, end) */
  uint grab;            /* the next reservation's size */
  uint nrec;            /* recycled cells waiting in rec */
  __global uint *cells; /* cell 0, and the words of a cell */
  uint cw;
  uint rec[LSK_POOL_CACHE_BATCH];
} lsk_pool_cache;

LSK_INLINE void lsk_pool_cache_begin(lsk_pool_cache *pc, __global uint *pool)
{
  pc->pool = pool;
  pc->free_list = pool + pool[LSK__POOL_FREE_OFF];
  pc->nfree = pool[LSK__POOL_FREE_LEN];
  pc->fresh = pool[LSK__POOL_FRESH];
  pc->cap = pool[LSK__POOL_CAPACITY];
  pc->left = pc->cap - pc->fresh;
  pc->run = pc->run_end = pc->free_list;
  pc->next = pc->end = 0;
  pc->grab = min(16u, (uint)LSK_POOL_CACHE_BATCH);
  pc->nrec = 0;
  pc->cells = lsk_pool_cell(pool, 0);
  pc->cw = lsk_pool_cell_words(pool);
}

#if LSK_POOL_CACHE_BATCH > 1
/* Hints, where the CPU takes them, for the reservation [from, to) of the
 * free list's values. */
LSK_INLINE void lsk__pool_cache_ask(const lsk_pool_cache *pc, uint from, uint to)
{
#ifdef LSK__PREFETCH_W
  /* The free list's entries [from, to) of a new reservation, asked for at
   * once: on a CPU their lines were last written by the GC or by another
   * core, and the allocations would otherwise wait for them one after
   * another. Then their cells' lines, for writing, a line's worth of cells
   * at a time: the GC's non-temporal zero-fill left them in memory, and
   * the caller's first store to each would otherwise wait for it. */
  for (uint q = from; q < to; q += 16)
    LSK__PREFETCH_R(pc->free_list + q);
  uint step = pc->cw >= 16u ? 1u : 16u / pc->cw;
  for (uint q = from; q < to; q += step)
    LSK__PREFETCH_W(pc->cells + (ulong)pc->free_list[q] * pc->cw);
#else
  (void)pc;
  (void)from;
  (void)to;
#endif
}

/* The next cursor value. A cache reserves 16 values, then 32, 64, ... up
 * to BATCH (so it holds back at most 15 cells more than it has handed
 * out), each reservation a compare-and-swap made only while that many
 * cells are available, tried again at most 3 times when another work-item
 * moved the cursor (each failure is someone else's progress: nothing
 * waits on anyone), else one value with an atomic add. The first try
 * guesses that the cursor is where this cache's last reservation ended: a
 * plain read would race with the others' atomics, and a failed
 * compare-and-swap reads it too. */
LSK_INLINE uint lsk__pool_cache_take(lsk_pool_cache *pc)
{
  if (pc->next != pc->end)
    return pc->next++;
  volatile __global uint *cursor = (volatile __global uint *)pc->pool + LSK__POOL_CURSOR;
  uint avail = pc->nfree + pc->left, want = pc->grab, c = pc->end;
  pc->grab = min(want * 2, (uint)LSK_POOL_CACHE_BATCH);
  for (uint tries = 0; want > 1 && tries < 4; ++tries) {
    /* Reservations end on a multiple of 16 (a single value taken before
     * may have moved the cursor off one): the cursor then hands out whole
     * lines of the free list, and a cache that recycles in the order it
     * allocated sends whole lines back, which the GC zero-fills from the
     * run table (one-word cells on PoCL: the GC took two to four times
     * longer when the lines came apart). */
    uint w = want < 16 ? want : want - (c + want) % 16;
    if (c >= avail || avail - c < w)
      break;
    uint seen = atomic_cmpxchg(cursor, c, c + w);
    if (seen == c) {
      /* Values below nfree name free-list entries: after c, the run; the
       * rest (fresh cells) stay cursor values. */
      uint listed = min(c + w, pc->nfree), after = max(listed, c + 1);
      lsk__pool_cache_ask(pc, c, listed);
      pc->run = pc->free_list + c + 1;
      pc->run_end = pc->free_list + after;
      pc->next = after;
      pc->end = c + w;
      return c;
    }
    c = seen;
  }
  return atomic_inc(cursor);
}

/* The waiting recycles to the recycled list: one atomic add. */
LSK_INLINE void lsk__pool_cache_flush(lsk_pool_cache *pc)
{
  if (pc->nrec == 0)
    return;
  uint r = atomic_add((volatile __global uint *)pc->pool + LSK__POOL_RECYCLED, pc->nrec);
  if (!lsk__pool_put_all(pc->pool, pc->rec, r, pc->nrec, pc->cap))
    for (uint i = 0; i < pc->nrec; ++i)
      lsk__pool_put(pc->pool, r + i, pc->rec[i]);
  pc->nrec = 0;
}

/* lsk__pool_take with the header's words from the cache. */
LSK_INLINE uint lsk__pool_cache_cell(const lsk_pool_cache *pc, uint c)
{
  return lsk__pool_cell_at(pc->free_list, pc->nfree, pc->fresh, pc->left, c);
}
#endif

/* lsk_pool_cache_alloc: as lsk_pool_alloc, through the cache. */
LSK_INLINE uint lsk_pool_cache_alloc(lsk_pool_cache *pc)
{
#if LSK_POOL_CACHE_BATCH > 1
  if (pc->run != pc->run_end)
    return *pc->run++;
  return lsk__pool_cache_cell(pc, lsk__pool_cache_take(pc));
#else
  return lsk_pool_alloc(pc->pool);
#endif
}

/* lsk_pool_cache_recycle: as lsk_pool_recycle, through the cache. */
LSK_INLINE void lsk_pool_cache_recycle(lsk_pool_cache *pc, uint cell)
{
#if LSK_POOL_CACHE_BATCH > 1
  if (cell >= pc->cap) {
    lsk__pool_recycle_bad(pc->pool, cell);
    return;
  }
  pc->rec[pc->nrec++] = cell;
  if (pc->nrec == LSK_POOL_CACHE_BATCH)
    lsk__pool_cache_flush(pc);
#else
  lsk_pool_recycle(pc->pool, cell);
#endif
}

/* lsk_pool_cache_end: the waiting recycles sent, the reserved cells that
 * were not handed out recycled. The cache is empty after it. */
LSK_INLINE void lsk_pool_cache_end(lsk_pool_cache *pc)
{
#if LSK_POOL_CACHE_BATCH > 1
  while (pc->run != pc->run_end)
    lsk_pool_cache_recycle(pc, *pc->run++);
  while (pc->next != pc->end) {
    uint cell = lsk__pool_cache_cell(pc, pc->next++);
    if (cell != LSK_POOL_INVALID)
      lsk_pool_cache_recycle(pc, cell);
  }
  lsk__pool_cache_flush(pc);
#else
  (void)pc;
#endif
}

/*
 * Frames: in a pool made by lsk_pool_create_frames, each cell is a frame: a
 * header of a few words, then an SoA chunk of lsk_frame_size elements of
 * the pool's layout, aligned to the layout's alignment. Build the
 * generated view of frame f with the pool buffer as every member pointer
 * and lsk_frame_base(pool, f) as the base:
 *     NAME_view v = NAME_view_make(P, P, ..., lsk_frame_base(pool, f),
 *                                  lsk_frame_size(pool), LSK_CTX_FWD);
 * with P = (__global void *)pool. Frames link into lists through the
 * header's next word, which stores next + 1 so that a fresh, zero-filled
 * frame ends a list (lsk_frame_next gives LSK_POOL_INVALID).
 */
/* The header's words, LSK_FRAME_NEXT, LSK_FRAME_COUNT and LSK_FRAME_USER,
 * are in lsk_shared.h. */

LSK_INLINE uint lsk_frame_size(__global const uint *pool) { return pool[LSK__POOL_FRAME_SIZE]; }
LSK_INLINE ulong lsk_frame_base(__global const uint *pool, uint f)
{
  return lsk_pool_cell_offset(pool, f) + 4 * (ulong)pool[LSK__POOL_FRAME_HEAD];
}
LSK_INLINE __global uint *lsk_frame_header(__global uint *pool, uint f)
{
  return lsk_pool_cell(pool, f);
}
LSK_INLINE uint lsk_frame_next(__global uint *pool, uint f)
{
  return lsk_pool_cell(pool, f)[LSK_FRAME_NEXT] - 1u;
}
LSK_INLINE void lsk_frame_set_next(__global uint *pool, uint f, uint next)
{
  lsk_pool_cell(pool, f)[LSK_FRAME_NEXT] = next + 1u;
}

#endif /* LSK_CL_POOL_H */
