/*
 * lsk_sparse.h: the device side of sparse fields (include/lsk/sparse.h,
 * docs/sparse.md) that the code generated for every structure shares: the
 * struct-for's block, the element lists, and the lock-free steps of
 * activation (a bit set with one atomic, a child block installed with one
 * compare-and-swap, a dynamic list's chunk chain grown the same way).
 *
 * References in a structure's memory are a pool cell + 1, and 0 is none,
 * so that zero-filled memory (a fresh root, a block the GC recycled) is
 * all inactive. Nothing waits for another work-item without bound: one
 * work-item claims an empty link and fills it, the others read it a
 * bounded number of times and then fill it themselves (lsk__sp_install).
 */
#ifndef LSK_CL_SPARSE_H
#define LSK_CL_SPARSE_H

#include "lsk_config.h"
#include "lsk_idx.h"
#include "lsk_pool.h"
#include "lsk_shared.h"

/* No element: a dynamic node's append that found no room. */
#define LSK_SPARSE_NONE 0xffffffffu

/* The columns of the library's node table (lsk__sp_node, generated for
 * the library's kernels, kernels/sparse.cl; row 0 the root, row m + 1
 * node m): kind, its own pool, the pool
 * of its container (LSK_POOL_INVALID: the root's), its arrays' offsets,
 * cells per block (per chunk), log2 of the chunk, a list's largest length,
 * a list's axis, its parent (LSK_POOL_INVALID: the root), its blocks per
 * container, then per axis its bits, shifts and weights. */
enum {
  LSK__SPN_KIND,
  LSK__SPN_POOL,
  LSK__SPN_CPOOL,
  LSK__SPN_OFF,
  LSK__SPN_OFF2,
  LSK__SPN_NCELLS,
  LSK__SPN_LOG2CHUNK,
  LSK__SPN_MAX,
  LSK__SPN_DAXIS,
  LSK__SPN_PARENT,
  LSK__SPN_INL,
  LSK__SPN_LG,
  LSK__SPN_SHIFT = LSK__SPN_LG + 3,
  LSK__SPN_MULT = LSK__SPN_SHIFT + 3,
  LSK__SPN_COLS = LSK__SPN_MULT + 3
};
/* The node kinds, as lsk_snode_kind. */
#define LSK__SP_DENSE 1u
#define LSK__SP_BITMASKED 2u
#define LSK__SP_POINTER 3u
#define LSK__SP_DYNAMIC 4u

/* One block of a struct-for: where its cells are and where it lies. */
typedef struct lsk_sparse_block {
  uint e;     /* its entry in the element list; LSK_SPARSE_NONE: past the end */
  uint cont;  /* its container: a pool cell, or LSK_POOL_INVALID for the root's */
  uint first; /* flat index of its first cell in the container */
  uint count; /* cells to visit (a dynamic node's chunk: its elements) */
  uint base[3];
} lsk_sparse_block;

/* Entry e of node m's element list into *b; 0 (and b->count 0) past the
 * list's end. Through a pointer, not returned: a struct returned by value
 * becomes an LLVM intrinsic that oclgrind cannot run. */
LSK_INLINE int lsk__sp_load(__global const uint *lists, uint m, uint e, lsk_sparse_block *b)
{
  uint n = min(lists[LSK__SPL_COUNT + m], lists[LSK__SPL_CAP + m]);
  __global const uint *p =
      lists + lists[LSK__SPL_OFF + m] + (ulong)(e < n ? e : 0u) * LSK__SPL_ENTRY_WORDS;
  b->e = e;
  b->cont = p[LSK__SPL_E_CONT];
  b->first = p[LSK__SPL_E_FIRST];
  b->count = e < n ? p[LSK__SPL_E_COUNT] : 0u;
  for (uint a = 0; a < 3; ++a)
    b->base[a] = p[LSK__SPL_E_BASE + a];
  return e < n;
}

/* The struct-for's step: *b becomes this block of workers' next block of
 * node m (b->e = LSK_SPARSE_NONE before the first); 0 when none is left.
 * Before every block but the first, a barrier: PoCL runs a work-group as a
 * loop over its work-items, and with a barrier in the loop they take each
 * block together (kernels/pool.cl says what it costs without). Every
 * worker, uniform control flow. */
LSK_INLINE int lsk__sp_step(__global const uint *lists, uint m, lsk_sparse_block *b)
{
  uint e = lsk_block_idx();
  if (b->e != LSK_SPARSE_NONE) {
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    e = b->e + lsk_grid_size();
  }
  return lsk__sp_load(lists, m, e, b);
}

/* The lines a struct-for hints at most per field of its next block: a
 * bound on what the step spends, since the CPU's own prefetcher follows a
 * long run once it has started (the bench's blocks are 16 lines; longer
 * ones were not measured). */
#define LSK__SP_AHEAD_LINES 64u

#ifdef LSK__PREFETCH_R
/* A read hint (LSK__CPU_ISA only) for bytes [p, p + bytes) of one field of
 * a struct-for's next block, the lines shared among the block's workers.
 * Why: the blocks of a pointer or dynamic node lie wherever the pool
 * handed them out, each a short run the CPU's prefetcher cannot foresee,
 * so without it each block's first loads wait on memory (docs/sparse.md).
 * Lines of 64 bytes, counted from the one holding p (buffers start on a
 * line, so that line is inside the buffer). */
LSK_INLINE void lsk__sp_ahead(__global const uchar *p, ulong bytes)
{
  ulong lead = (ulong)p & 63u;
  uint lines = (uint)min((lead + bytes + 63u) / 64u, (ulong)LSK__SP_AHEAD_LINES);
  for (uint k = lsk_worker(); k < lines; k += LSK_WORKERS)
    LSK__PREFETCH_R(p - lead + (ulong)k * 64u);
}
#endif

/* A container's first byte: the root's, or pool cell ref - 1's. */
LSK_INLINE __global uchar *lsk__sp_cont(__global uint *pool, uint ref)
{
  return (__global uchar *)lsk_pool_cell(pool, ref - 1u);
}

/* Bit f of a bitmask (a plain read: for kernels that do not set it). */
LSK_INLINE int lsk__sp_bit(__global const uchar *mask, uint f)
{
  return (((__global const uint *)mask)[f >> 5] >> (f & 31u)) & 1u;
}
LSK_INLINE void lsk__sp_bit_set(__global uchar *mask, uint f)
{
  atomic_or((volatile __global uint *)mask + (f >> 5), 1u << (f & 31u));
}
LSK_INLINE void lsk__sp_bit_clear(__global uchar *mask, uint f)
{
  atomic_and((volatile __global uint *)mask + (f >> 5), ~(1u << (f & 31u)));
}

/*
 * Blocks that lost an install race, kept for the next install of the same
 * node in this kernel (node m's LSK__SPL_SPARES slots in the lists'
 * header; the GC gives back what is left). Such a block was never seen by
 * anyone else, so it may be handed out again at once, unlike a recycled
 * one (a claimer whose claim another filled first keeps its block here).
 * A slot is taken by an exchange and filled by a compare-and-swap into an
 * empty slot: nothing waits, and no block is in two places. Each
 * work-item looks at 4 slots from its own.
 */
LSK_INLINE uint lsk__sp_take(__global uint *pool, __global uint *lists, uint m, uint slots)
{
  volatile __global uint *s =
      (volatile __global uint *)lists + LSK__SPL_SPARE + LSK__SPL_SPARES * m;
  uint h = (uint)get_global_id(0);
  for (uint k = 0; k < slots; ++k) {
    uint r = atomic_xchg(s + ((h + k) & (LSK__SPL_SPARES - 1u)), 0u);
    if (r)
      return r - 1u;
  }
  return slots == 4u ? lsk_pool_alloc(pool) : LSK_POOL_INVALID;
}
LSK_INLINE void lsk__sp_give(__global uint *pool, __global uint *lists, uint m, uint cell)
{
  volatile __global uint *s =
      (volatile __global uint *)lists + LSK__SPL_SPARE + LSK__SPL_SPARES * m;
  uint h = (uint)get_global_id(0);
  for (uint k = 0; k < 4u; ++k)
    if (atomic_cmpxchg(s + ((h + k) & (LSK__SPL_SPARES - 1u)), 0u, cell + 1u) == 0u)
      return;
  lsk_pool_recycle(pool, cell);
}

/*
 * A link being filled: the work-item that found it empty and claimed it
 * with a compare-and-swap takes a block and installs it. Never a
 * reference (a reference is a pool cell + 1, and no pool has 2^32 - 1
 * cells); a plain read of a link takes it as none (lsk__sp_ref, and
 * lsk__sp_block for lookups).
 */
#define LSK__SP_CLAIM 0xffffffffu
/* How many atomic reads a work-item gives another's claim before it fills
 * the link itself: a bound, not a wait (see lsk__sp_install). */
#define LSK__SP_PATIENCE 256u

/* A link's reference as a plain read sees it: a claim is none yet. */
LSK_INLINE uint lsk__sp_ref(uint r) { return r == LSK__SP_CLAIM ? 0u : r; }

/* A link read for a lookup: whether it names a block, and the block's
 * index (the reference minus one) in *b. None (0) and a claim wrap to the
 * two largest values under the minus one, so one compare tells both from
 * a block, and the index the block's address needs comes with it: the
 * generated field pointers' lookup (docs/perf/sparse.md). */
LSK_INLINE int lsk__sp_block(uint link, uint *b)
{
  *b = link - 1u;
  return *b < LSK__SP_CLAIM - 1u;
}

/* The link's value: an atomic read, which sees other work-items' installs
 * where a plain load could hit a stale cache line. A compare-and-swap of
 * 0 for 0 (it changes nothing): one instruction on x86, where a fetch-or
 * whose result is used is a loop of them (the activation of a 4096^2 ring
 * took 1.45 times as long on PoCL). */
LSK_INLINE uint lsk__sp_read(volatile __global uint *l) { return atomic_cmpxchg(l, 0u, 0u); }

/* LSK_SPARSE_FILL_HOOK (tests only, a build option): every
 * LSK_SPARSE_FILL_HOOK-th work-item by global index, holding the block it
 * took for a link, reads the link up to 2^20 times until another has
 * installed over its claim: a claimer descheduled between taking its
 * block and installing it, which PoCL's threads rarely are by themselves.
 * A bounded wait, and only in a test's program. */
#ifndef LSK_SPARSE_FILL_HOOK
#define LSK_SPARSE_FILL_HOOK 0
#endif

/* A block of node m's pool (a spare first) installed over the claim at l:
 * its reference; where another work-item filled the claim first (or a
 * deactivation cleared it), the block goes to the spares and the link's
 * value is returned; LSK__SP_CLAIM where no block came. */
LSK_INLINE uint lsk__sp_fill(__global uint *pool, volatile __global uint *l, __global uint *lists,
                             uint m, uint slots)
{
  uint mine = lsk__sp_take(pool, lists, m, slots);
  if (mine == LSK_POOL_INVALID)
    return LSK__SP_CLAIM;
#if LSK_SPARSE_FILL_HOOK
  if (get_global_id(0) % LSK_SPARSE_FILL_HOOK == 0)
    for (uint k = 0; k < (1u << 20) && lsk__sp_read(l) == LSK__SP_CLAIM; ++k)
      ;
#endif
  uint cur = atomic_cmpxchg(l, LSK__SP_CLAIM, mine + 1u);
  if (cur == LSK__SP_CLAIM)
    return mine + 1u;
  lsk__sp_give(pool, lists, m, mine);
  return cur;
}

/*
 * The reference at link (node m's), made if there is none. One work-item
 * claims an empty link (a compare-and-swap of 0 to LSK__SP_CLAIM), takes a
 * block (a spare, or from the pool) and installs it; the others that find
 * the claim read the link until it holds a reference. Where work-items run
 * in lockstep (a GPU's warp, SIMD lanes), all that activate one block at
 * once would otherwise each take a block and all but one lose it until
 * the GC: on an H200, a pool holding every block the node can have ran out
 * hundreds of blocks short. Nothing waits without bound: after
 * LSK__SP_PATIENCE reads a work-item takes a block itself and installs it
 * over the claim (the claimer's block then goes to the spares). A claimer
 * the pool refused gives the link back (0) and others try once more: a
 * fixed number of tries. 0 when none gave a block (counted in node m's
 * lost count: nothing waits, nothing is lost silently).
 */
LSK_INLINE uint lsk__sp_install(__global uint *pool, __global uint *link, __global uint *lists,
                                uint m)
{
  volatile __global uint *l = (volatile __global uint *)link;
#if LSK__CPU_ISA
  /* A CPU's caches are coherent: a plain load sees other work-items'
   * installs, and costs less than a locked instruction where the link is
   * already set (every cell but a block's first in an activation: the
   * bench's ring kernel took 5 to 8% less time on PoCL). An empty or
   * claimed link goes the atomic way below, as on every other device. */
  uint cur = *l;
#else
  uint cur = lsk__sp_read(l);
#endif
  for (uint attempt = 0; attempt < 3u && (cur == 0u || cur == LSK__SP_CLAIM); ++attempt) {
    uint slots = attempt ? LSK__SPL_SPARES : 4u;
    if (cur == 0u)
      cur = atomic_cmpxchg(l, 0u, LSK__SP_CLAIM);
    /* Ours: a block, or the link given back (0) if none came. An if with
     * no else and no jump out of it, so that lanes in lockstep meet again
     * right after it: the claimer installs while the others stand by, and
     * their first read below then finds the block. */
    if (cur == 0u) {
      cur = lsk__sp_fill(pool, l, lists, m, slots);
      if (cur == LSK__SP_CLAIM)
        cur = atomic_cmpxchg(l, LSK__SP_CLAIM, 0u) == LSK__SP_CLAIM ? 0u : lsk__sp_read(l);
    }
    for (uint k = 0; cur == LSK__SP_CLAIM && k < LSK__SP_PATIENCE; ++k)
      cur = lsk__sp_read(l);
    if (cur == LSK__SP_CLAIM)
      cur = lsk__sp_fill(pool, l, lists, m, slots);
  }
  cur = lsk__sp_ref(cur);
  if (!cur)
    atomic_inc((volatile __global uint *)lists + LSK__SPL_LOST + m);
  return cur;
}

/* A pointer cell's reference cleared, its block recycled (the blocks below
 * it follow at the structure's next GC). */
LSK_INLINE void lsk__sp_unlink(__global uint *pool, __global uint *link)
{
  uint r = lsk__sp_ref(atomic_xchg((volatile __global uint *)link, 0u));
  if (r)
    lsk_pool_recycle(pool, r - 1u);
}

/* The q-th chunk (its reference) of the list whose head link is head: a
 * walk along the chain, each chunk's first word linking the next; with act
 * missing chunks are made (lsk__sp_install). 0: no such chunk. */
LSK_INLINE uint lsk__sp_chunk(__global uint *pool, __global uint *head, uint q, int act,
                              __global uint *lists, uint m)
{
  __global uint *link = head;
  for (uint s = 0;; ++s) {
    uint r = act ? lsk__sp_install(pool, link, lists, m) : lsk__sp_ref(*link);
    if (!r || s == q)
      return r;
    link = lsk_pool_cell(pool, r - 1u);
  }
}

/* A list emptied: its length 0, its chunks recycled. */
LSK_INLINE void lsk__sp_clear_list(__global uint *pool, __global uint *len, __global uint *head)
{
  atomic_xchg((volatile __global uint *)len, 0u);
  uint r = lsk__sp_ref(atomic_xchg((volatile __global uint *)head, 0u));
  while (r) {
    uint next = lsk__sp_ref(*lsk_pool_cell(pool, r - 1u));
    lsk_pool_recycle(pool, r - 1u);
    r = next;
  }
}

/* A 64-bit counter as two words, low first: every carry counted once. */
LSK_INLINE void lsk__sp_add64(__global uint *w, uint v)
{
  uint old = atomic_add((volatile __global uint *)w, v);
  if (old + v < old)
    atomic_inc((volatile __global uint *)w + 1);
}

#endif /* LSK_CL_SPARSE_H */
