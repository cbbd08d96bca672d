/*
 * sparse.cl: the kernels of a sparse structure (host/sparse/ runs them),
 * generic over the structure: its generated code and node table come first
 * (the program's prelude, host/sparse/emit.c), as LSK__SP_T, LSK__SP_VIEW,
 * lsk__sp_node and lsk__sp_field.
 *
 *   listgen     node m's element list from its parents' (Taichi's listgen):
 *               every active cell of a listed parent block gives one block
 *               of m, or under a dynamic node one entry per chunk (with
 *               all, for deactivation, every block that exists);
 *   cascade     the GC's first step for a pointer node: the blocks its
 *               pool recycled since the last GC give back what hangs
 *               below them (the next pool's blocks, a list's chunks),
 *               before the pools' own GC zero-fills them;
 *   deactivate  every cell of node m deactivated;
 *   count       node m's active cells, into the lists' sum words;
 *   read, write a field to and from a dense array;
 *   zero        words of a buffer zeroed (oclgrind does not take
 *               clEnqueueFillBuffer as initializing memory);
 *   spares      the GC's first step: the blocks kept by installs that
 *               lost a race (cl/lsk_sparse.h) go back to their pools.
 *
 * Every grid-strided loop ends with a barrier (see kernels/pool.cl), and
 * each kernel's block domain is LSK__SP_TILE, but listgen's and
 * deactivate's, whose tile is their block domain (larger on CPUs:
 * host/sparse/structure.c).
 */
#define LSK__SP_TILE 256u
/* Node m's row; row 0 is the root's one cell, so that T(PAR(m), ...) is
 * node m's parent's for every m, the root's included (no load from
 * outside the table, which the optimizer would speculate). */
#define T(m, col) lsk__sp_node[(m) + 1u][LSK__SPN_##col]
#define PAR(m) T(m, PARENT)

/* The container at pool p's cell (LSK_POOL_INVALID: the root's). */
LSK_INLINE __global uchar *lsk__sp_base(LSK__SP_T v, uint p, uint cell)
{
  return p == LSK_POOL_INVALID ? (__global uchar *)v.root
                               : (__global uchar *)lsk_pool_cell(v.pool[p], cell);
}

/* Node m's parents: its parent's listed blocks, or the root's one cell. */
LSK_INLINE uint lsk__sp_nparents(LSK__SP_T v, uint m)
{
  uint p = PAR(m);
  return p != LSK_POOL_INVALID ? min(v.lists[LSK__SPL_COUNT + p], v.lists[LSK__SPL_CAP + p]) : 1u;
}
LSK_INLINE void lsk__sp_parent(LSK__SP_T v, uint m, uint e, lsk_sparse_block *b)
{
  if (PAR(m) != LSK_POOL_INVALID) {
    lsk__sp_load(v.lists, PAR(m), e, b);
    return;
  }
  b->e = 0;
  b->cont = LSK_POOL_INVALID;
  b->first = 0;
  b->count = 1;
  b->base[0] = b->base[1] = b->base[2] = 0;
}

/* The child of a parent cell (container pc, flat index pf) that holds
 * node m's block or list: its container's cell (*cell) and the block's or
 * list's index there. 0 if the parent cell is inactive, or with all (the
 * blocks that exist, for deactivation) if it has no child block: a
 * bitmasked cell's bit then does not count, so that what hides under a
 * cleared bit is reached too. */
LSK_INLINE int lsk__sp_child(LSK__SP_T v, uint m, __global uchar *pc, uint pcont, uint pf, uint all,
                             uint *cell, uint *index)
{
  uint kind = T(PAR(m), KIND);
  *cell = pcont;
  *index = pf;
  if (kind == LSK__SP_BITMASKED)
    return all || lsk__sp_bit(pc + T(PAR(m), OFF), pf);
  if (kind == LSK__SP_POINTER) {
    uint r = ((__global const uint *)(pc + T(PAR(m), OFF)))[pf];
    *cell = r - 1u;
    *index = 0;
    return r != 0;
  }
  return 1;
}

/* A dynamic node m's list (container c, index l): its length and head. */
LSK_INLINE uint lsk__sp_len(uint m, __global uchar *c, uint l)
{
  return min(((__global const uint *)(c + T(m, OFF)))[l], T(m, MAX));
}

/* A dynamic node m's list (container lc, index l): how many of its chunks
 * exist, at most those its length needs. A chunk is made only after the
 * ones before it, so they are a prefix of the chain: a chunk the pool
 * could not give ends it (its elements read 0), and takes no entry. */
LSK_INLINE uint lsk__sp_nchunks(LSK__SP_T v, uint m, __global uchar *lc, uint l)
{
  uint need = (lsk__sp_len(m, lc, l) + T(m, NCELLS) - 1u) >> T(m, LOG2CHUNK), q = 0;
  __global uint *pool = v.pool[T(m, POOL)];
  for (uint r = ((__global const uint *)(lc + T(m, OFF2)))[l]; r && q < need; ++q)
    r = *lsk_pool_cell(pool, r - 1u);
  return q;
}

/* How many entries of node m one parent cell gives. */
LSK_INLINE uint lsk__sp_nchildren(LSK__SP_T v, uint m, __global uchar *pc, uint pcont, uint pf,
                                  uint all)
{
  uint cell, l;
  if (!lsk__sp_child(v, m, pc, pcont, pf, all, &cell, &l))
    return 0;
  if (T(m, KIND) != LSK__SP_DYNAMIC)
    return 1;
  return lsk__sp_nchunks(v, m, lsk__sp_base(v, T(m, CPOOL), cell), l);
}

/* Entry slot of node m's list (dropped past its room). The coordinates as
 * scalars, here and below: oclgrind's uninitialized-value checker crashes
 * on the shuffles that 3-vectors become. */
LSK_INLINE void lsk__sp_put(LSK__SP_T v, uint m, uint slot, uint cont, uint first, uint count,
                            uint b0, uint b1, uint b2)
{
  if (slot >= v.lists[LSK__SPL_CAP + m])
    return;
  __global uint *p = v.lists + v.lists[LSK__SPL_OFF + m] + (ulong)slot * LSK__SPL_ENTRY_WORDS;
  p[LSK__SPL_E_CONT] = cont;
  p[LSK__SPL_E_FIRST] = first;
  p[LSK__SPL_E_COUNT] = count;
  p[LSK__SPL_E_BASE] = b0;
  p[LSK__SPL_E_BASE + 1] = b1;
  p[LSK__SPL_E_BASE + 2] = b2;
}

/* Axis a's coordinate of cell c of node m's block b (m = -1u: the root's
 * one cell, no digits; a dynamic node: the chunk's element c). */
LSK_INLINE uint lsk__sp_coord(uint m, lsk_sparse_block b, uint c, uint a)
{
  if (T(m, KIND) == LSK__SP_DYNAMIC)
    return b.base[a] + (a == T(m, DAXIS) ? c : 0u);
  return b.base[a] + (((c >> T(m, MULT + a)) & ((1u << T(m, LG + a)) - 1u)) << T(m, SHIFT + a));
}

/* The entries of one parent cell (cell c of parent block p) from slot. */
LSK_INLINE uint lsk__sp_emit(LSK__SP_T v, uint m, lsk_sparse_block p, __global uchar *pc, uint c,
                             uint all, uint slot)
{
  uint cell, l;
  if (!lsk__sp_child(v, m, pc, p.cont, p.first + c, all, &cell, &l))
    return slot;
  uint b0 = lsk__sp_coord(PAR(m), p, c, 0), b1 = lsk__sp_coord(PAR(m), p, c, 1),
       b2 = lsk__sp_coord(PAR(m), p, c, 2);
  if (T(m, KIND) != LSK__SP_DYNAMIC) {
    lsk__sp_put(v, m, slot, cell, l * T(m, NCELLS), T(m, NCELLS), b0, b1, b2);
    return slot + 1;
  }
  __global uchar *lc = lsk__sp_base(v, T(m, CPOOL), cell);
  uint len = lsk__sp_len(m, lc, l), ch = T(m, NCELLS), ax = T(m, DAXIS);
  uint n = lsk__sp_nchunks(v, m, lc, l);
  __global uint *pool = v.pool[T(m, POOL)];
  uint r = ((__global const uint *)(lc + T(m, OFF2)))[l];
  for (uint q = 0; q < n; ++q) {
    lsk__sp_put(v, m, slot++, r - 1u, 0, min(ch, len - q * ch), ax == 0 ? q * ch : b0,
                ax == 1 ? q * ch : b1, ax == 2 ? q * ch : b2);
    r = *lsk_pool_cell(pool, r - 1u);
  }
  return slot;
}

#if LSK__CPU_ISA
/* CPUs: this worker's run [*lo, *hi) of tile t's cells below n (one run
 * per worker, plain loops instead of a ForEach). */
LSK_INLINE void lsk__sp_run(uint t, uint n, uint *lo, uint *hi)
{
  uint per = (LSK_DOMAIN_SIZE + LSK_WORKERS - 1u) / LSK_WORKERS;
  uint end = min(t * LSK_DOMAIN_SIZE + LSK_DOMAIN_SIZE, n);
  *lo = min(t * LSK_DOMAIN_SIZE + lsk_worker() * per, end);
  *hi = min(*lo + per, end);
}

/* Are the eight references from x on, all below hi, empty? One vector
 * load: most references of a sparse level are. */
LSK_INLINE int lsk__sp_empty8(__global const uint *refs, uint x, uint hi)
{
  return x + 8u <= hi && !any(vload8(0, refs + x) != (uint8)0u);
}
#endif

/* Does cell c of the parent's block (references refs, with ptr) give
 * node m entries? With ptr (a pointer parent over node m's blocks, not
 * lists) that is its reference's test alone, which the loops below can
 * run on their own; most references of a sparse level are empty. */
#define LSK__SP_GIVES(ptr, refs, c) (!(ptr) || (refs)[c] != 0u)

LSK_KERNEL void lsk_sparse_listgen(LSK_CTX, LSK__SP_PARAMS, uint m, uint all)
{
  LSK__SP_VIEW(v);
  LSK_BLOCK_SCRATCH(uint, s);
  uint pcells = T(PAR(m), NCELLS), tiles = (pcells + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE;
  uint pcpool = T(PAR(m), CPOOL);
  int ptr = PAR(m) != LSK_POOL_INVALID && T(PAR(m), KIND) == LSK__SP_POINTER &&
            T(m, KIND) != LSK__SP_DYNAMIC;
  LSK_BLOCKS(u, lsk__sp_nparents(v, m) * tiles)
  {
    uint e = u / tiles, t = u - e * tiles;
    lsk_sparse_block p;
    lsk__sp_parent(v, m, e, &p);
    __global uchar *pc = lsk__sp_base(v, pcpool, p.cont);
    __global const uint *refs = (__global const uint *)(pc + T(PAR(m), OFF)) + p.first;
    volatile __global uint *count = (volatile __global uint *)v.lists + LSK__SPL_COUNT + m;
    uint n = 0;
#if LSK__CPU_ISA
    /* CPUs: each worker takes one run of the tile's cells in plain loops,
     * the emitting one skipping eight empty references at a time (a
     * ForEach's loop tested every cell twice: 0.2 ms for a 65536-cell
     * root). */
    uint lo, hi;
    lsk__sp_run(t, pcells, &lo, &hi);
    for (uint c = lo; c < hi; ++c)
      n += ptr ? refs[c] != 0u : lsk__sp_nchildren(v, m, pc, p.cont, p.first + c, all);
    uint slot = lsk_block_append(s, count, n);
    for (uint c = lo; n && c < hi; c += 8u) {
      if (ptr && lsk__sp_empty8(refs, c, hi))
        continue;
      for (uint k = c; k < min(c + 8u, hi); ++k)
        if (LSK__SP_GIVES(ptr, refs, k))
          slot = lsk__sp_emit(v, m, p, pc, k, all, slot);
    }
#else
    LSK_FOREACH(it)
    {
      uint c = t * LSK_DOMAIN_SIZE + it.idx;
      if (c < pcells)
        n += ptr ? refs[c] != 0u : lsk__sp_nchildren(v, m, pc, p.cont, p.first + c, all);
    }
    uint slot = lsk_block_append(s, count, n);
    LSK_FOREACH(it)
    {
      uint c = t * LSK_DOMAIN_SIZE + it.idx;
      if (c < pcells && LSK__SP_GIVES(ptr, refs, c))
        slot = lsk__sp_emit(v, m, p, pc, c, all, slot);
    }
#endif
    lsk_sync();
  }
}
#undef LSK__SP_GIVES

/* The GC's cascade for pointer node m and node n with a pool in m's
 * blocks: what hangs below the blocks m's pool recycled since the last GC
 * (n's blocks, or its lists' chunks) goes back to n's pool. */
LSK_KERNEL void lsk_sparse_cascade(LSK_CTX, LSK__SP_PARAMS, uint m, uint n)
{
  LSK__SP_VIEW(v);
  __global uint *pool = v.pool[T(m, POOL)], *next = v.pool[T(n, POOL)];
  uint nrec = min(pool[LSK__POOL_RECYCLED], pool[LSK__POOL_CAPACITY]);
  __global const uint *rec = pool + pool[LSK__POOL_REC_OFF];
  int dyn = T(n, KIND) == LSK__SP_DYNAMIC;
  uint nrefs = dyn ? T(n, INL) : T(n, INL) * T(n, NCELLS);
  uint tiles = (nrefs + LSK__SP_TILE - 1u) / LSK__SP_TILE;
  LSK_BLOCKS(u, nrec * tiles)
  {
    uint e = u / tiles, t = u - e * tiles;
    __global uchar *c = (__global uchar *)lsk_pool_cell(pool, rec[e]);
    __global uint *refs = (__global uint *)(c + T(n, OFF));
    LSK_FOREACH(it)
    {
      uint r = t * LSK__SP_TILE + it.idx;
      if (r < nrefs && dyn)
        lsk__sp_clear_list(next, refs + r, (__global uint *)(c + T(n, OFF2)) + r);
      else if (r < nrefs && refs[r])
        lsk_pool_recycle(next, refs[r] - 1u);
    }
    lsk_sync();
  }
}

/* A pointer node's cell deactivated by the one work-item that touches it
 * (lsk_sparse_deactivate): a plain read and store, not lsk__sp_unlink's
 * exchange, a locked instruction on CPUs; two work-items of a user's
 * kernel may unlink one cell, no two of this kernel's. Its block goes back
 * through the work-item's cache. */
LSK_INLINE void lsk__sp_drop(lsk_pool_cache *pc, __global uint *link)
{
  uint r = lsk__sp_ref(*link);
  *link = 0;
  if (r)
    lsk_pool_cache_recycle(pc, r - 1u);
}

/* Every cell of node m deactivated: over node m's blocks (a dynamic node:
 * over its parents' cells, whose lists are emptied), a tile of cells per
 * block domain. */
LSK_KERNEL void lsk_sparse_deactivate(LSK_CTX, LSK__SP_PARAMS, uint m)
{
  LSK__SP_VIEW(v);
  uint kind = T(m, KIND), dyn = kind == LSK__SP_DYNAMIC;
  uint cells = dyn ? T(PAR(m), NCELLS) : T(m, NCELLS);
  uint tiles = (cells + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE;
  uint nb =
      dyn ? lsk__sp_nparents(v, m) : min(v.lists[LSK__SPL_COUNT + m], v.lists[LSK__SPL_CAP + m]);
  /* A pointer node's blocks go back through a cache: on CPUs one atomic
   * add to the recycled list per batch, not per block (both cores' adds to
   * one word were a fifth of the kernel's time). */
  lsk_pool_cache pc;
  if (kind == LSK__SP_POINTER)
    lsk_pool_cache_begin(&pc, v.pool[T(m, POOL)]);
  LSK_BLOCKS(u, nb * tiles)
  {
    uint e = u / tiles, t = u - e * tiles;
    lsk_sparse_block b;
    if (dyn)
      lsk__sp_parent(v, m, e, &b);
    else
      lsk__sp_load(v.lists, m, e, &b);
    uint bpool = dyn ? T(PAR(m), CPOOL) : T(m, CPOOL);
    __global uchar *c = lsk__sp_base(v, bpool, b.cont);
    __global uint *links = (__global uint *)(c + T(m, OFF)) + b.first; /* a pointer node's */
#if LSK__CPU_ISA
    /* CPUs, a pointer node: each worker one run of the tile's cells, eight
     * empty links (most of a sparse node's) skipped at a time. */
    uint lo, hi;
    lsk__sp_run(t, cells, &lo, &hi);
    for (uint x = lo; kind == LSK__SP_POINTER && x < hi; x += 8u) {
      if (lsk__sp_empty8(links, x, hi))
        continue;
      for (uint k = x; k < min(x + 8u, hi); ++k)
        if (links[k])
          lsk__sp_drop(&pc, links + k);
    }
    if (kind != LSK__SP_POINTER)
#endif
      LSK_FOREACH(it)
      {
        uint x = t * LSK_DOMAIN_SIZE + it.idx, f = b.first + x, cell, l;
        if (x < cells && kind == LSK__SP_BITMASKED)
          lsk__sp_bit_clear(c + T(m, OFF), f);
        else if (x < cells && kind == LSK__SP_POINTER && links[x])
          lsk__sp_drop(&pc, links + x);
        else if (x < cells && dyn && lsk__sp_child(v, m, c, b.cont, f, 1, &cell, &l)) {
          __global uchar *lc = lsk__sp_base(v, T(m, CPOOL), cell);
          lsk__sp_clear_list(v.pool[T(m, POOL)], (__global uint *)(lc + T(m, OFF)) + l,
                             (__global uint *)(lc + T(m, OFF2)) + l);
        }
      }
    lsk_sync();
  }
  if (kind == LSK__SP_POINTER)
    lsk_pool_cache_end(&pc);
}

/* Is cell x of node m's block b (container c) active? */
LSK_INLINE int lsk__sp_active(uint m, lsk_sparse_block b, __global uchar *c, uint x)
{
  uint kind = T(m, KIND);
  if (x >= b.count)
    return 0;
  if (kind == LSK__SP_BITMASKED)
    return lsk__sp_bit(c + T(m, OFF), b.first + x);
  if (kind == LSK__SP_POINTER)
    return ((__global const uint *)(c + T(m, OFF)))[b.first + x] != 0;
  return 1;
}

/* The container of node m's block b (a dynamic node: its chunk). */
LSK_INLINE __global uchar *lsk__sp_bbase(LSK__SP_T v, uint m, lsk_sparse_block b)
{
  return lsk__sp_base(v, T(m, KIND) == LSK__SP_DYNAMIC ? T(m, POOL) : T(m, CPOOL), b.cont);
}

/* Node m's active cells. A node that is neither bitmasked nor a pointer
 * has every cell of a listed block active: its count is the sum of its
 * entries' counts, a tile of entries per block, not a tile of cells (the
 * cells of 5220 blocks of 256 took 0.3 to 0.45 ms on PoCL). */
LSK_KERNEL void lsk_sparse_count(LSK_CTX, LSK__SP_PARAMS, uint m)
{
  LSK__SP_VIEW(v);
  LSK_BLOCK_SCRATCH(uint, s);
  uint kind = T(m, KIND), all = kind != LSK__SP_BITMASKED && kind != LSK__SP_POINTER;
  uint cells = T(m, NCELLS), tiles = (cells + LSK__SP_TILE - 1u) / LSK__SP_TILE;
  uint nb = min(v.lists[LSK__SPL_COUNT + m], v.lists[LSK__SPL_CAP + m]);
  __global const uint *list = v.lists + v.lists[LSK__SPL_OFF + m];
  LSK_BLOCKS(u, all ? (nb + LSK__SP_TILE - 1u) / LSK__SP_TILE : nb * tiles)
  {
    uint n = 0;
    if (all) {
      LSK_FOREACH_N(it, lsk_domain_count(u * LSK__SP_TILE, nb))
      {
        ulong e = u * LSK__SP_TILE + it.idx;
        n += min(list[e * LSK__SPL_ENTRY_WORDS + LSK__SPL_E_COUNT], cells);
      }
    } else {
      uint e = u / tiles, t = u - e * tiles;
      lsk_sparse_block b;
      lsk__sp_load(v.lists, m, e, &b);
      __global uchar *c = lsk__sp_bbase(v, m, b);
      LSK_FOREACH(it) n += lsk__sp_active(m, b, c, t * LSK__SP_TILE + it.idx);
    }
    uint total = lsk_block_reduce_add_uint(s, n);
    LSK_MASTER
    {
      if (total)
        lsk__sp_add64(v.lists + LSK__SPL_SUM, total);
    }
    lsk_sync();
  }
}

/* Field f of the leaf's active cells into a dense array (first axis
 * fastest), over the leaf's element list. */
LSK_KERNEL void lsk_sparse_read(LSK_CTX, LSK__SP_PARAMS, uint f, __global uchar *dst)
{
  LSK__SP_VIEW(v);
  uint m = lsk__sp_field[f][2], cells = T(m, NCELLS);
  uint tiles = (cells + LSK__SP_TILE - 1u) / LSK__SP_TILE, size = lsk__sp_field[f][1];
  uint nb = min(v.lists[LSK__SPL_COUNT + m], v.lists[LSK__SPL_CAP + m]);
  LSK_BLOCKS(u, nb * tiles)
  {
    uint e = u / tiles, t = u - e * tiles;
    lsk_sparse_block b;
    lsk__sp_load(v.lists, m, e, &b);
    __global uchar *c = lsk__sp_bbase(v, m, b);
    LSK_FOREACH(it)
    {
      uint x = t * LSK__SP_TILE + it.idx;
      if (lsk__sp_active(m, b, c, x)) {
        /* The field's dense array: its own axes (extent 1 along others). */
        ulong at =
            ((ulong)lsk__sp_coord(m, b, x, 2) * lsk__sp_field[f][4] + lsk__sp_coord(m, b, x, 1)) *
                lsk__sp_field[f][3] +
            lsk__sp_coord(m, b, x, 0);
        __global const uchar *src = c + lsk__sp_field[f][0] + (ulong)(b.first + x) * size;
        for (uint k = 0; k < size; ++k)
          dst[at * size + k] = src[k];
      }
    }
    lsk_sync();
  }
}

/* Field f from a dense array of n cells (its own axes, first fastest), in
 * two passes: pass 0 activates and writes the cells whose value is not
 * zero; pass 1 writes the zeros into cells that are active. Two kernels,
 * so that no plain read of a reference meets another work-item's
 * install. */
LSK_KERNEL void lsk_sparse_write(LSK_CTX, LSK__SP_PARAMS, uint f, __global const uchar *src, uint n,
                                 uint pass)
{
  LSK__SP_VIEW(v);
  uint size = lsk__sp_field[f][1], e0 = lsk__sp_field[f][3], e1 = lsk__sp_field[f][4];
  LSK_BLOCKS(u, (n + LSK__SP_TILE - 1u) / LSK__SP_TILE)
  {
    LSK_FOREACH(it)
    {
      uint g = u * LSK__SP_TILE + it.idx, q = g / e0;
      uint c0 = g - q * e0, c2 = q / e1, c1 = q - c2 * e1;
      uint any = 0, fl;
      for (uint k = 0; g < n && k < size; ++k)
        any |= src[(ulong)g * size + k];
      __global uchar *c = g < n && (any != 0) == (pass == 0)
                              ? lsk__sp_leaf_cell(v, f, c0, c1, c2, pass == 0, &fl)
                              : 0;
      if (c)
        for (uint k = 0; k < size; ++k)
          c[lsk__sp_field[f][0] + (ulong)fl * size + k] = src[(ulong)g * size + k];
    }
    lsk_sync();
  }
}

LSK_KERNEL void lsk_sparse_zero(LSK_CTX, LSK__SP_PARAMS, __global uint *x, uint first, uint n)
{
  LSK_BLOCKS(u, (n + LSK__SP_TILE - 1u) / LSK__SP_TILE)
  {
    LSK_FOREACH(it)
    {
      uint i = u * LSK__SP_TILE + it.idx;
      if (i < n)
        x[first + i] = 0;
    }
    lsk_sync();
  }
}
/* Every node's spare blocks back to its pool: one block of workers, a
 * slot per index (LSK_SPARSE_MAX_NODES x LSK__SPL_SPARES = 256). */
LSK_KERNEL void lsk_sparse_spares(LSK_CTX, LSK__SP_PARAMS)
{
  LSK__SP_VIEW(v);
  LSK_FOREACH(it)
  {
    uint m = it.idx / LSK__SPL_SPARES;
    if (m < LSK__SP_NODES && T(m, POOL) != LSK_POOL_INVALID) {
      uint r = atomic_xchg((volatile __global uint *)v.lists + LSK__SPL_SPARE + it.idx, 0u);
      if (r)
        lsk_pool_recycle(v.pool[T(m, POOL)], r - 1u);
    }
  }
}

#undef PAR
#undef T
