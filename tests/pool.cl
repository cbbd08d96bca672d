/*
 * pool.cl: test kernels for the pool and the chunked list
 * (tests/mem/check_pool.c, tests/mem/check_pool_cache.c, tests/mem/check_chunklist.c,
 * tests/mem/check_grind_pool.c).
 *
 * The block collectives are called by every block, with the batched items
 * selected by their flags, never inside an if: PoCL 3.1 miscompiles a
 * collective in one branch of a uniform if (with 64 workers of simd 1, a
 * context variable read after the collective's barrier gives another
 * worker's value), and crashes when both branches hold one.
 */

/* Items [0, n) each allocate one cell: blocks with an odd index through
 * the block-batched lsk_pool_alloc_var, the others one atomic each, so both
 * paths share the cursor. Only items with out[i] == LSK_POOL_INVALID ask
 * (a rerun after exhaustion asks again for those). A new cell must read as
 * zeros; it gets tag + i in word 0 and i in its last word. */
LSK_KERNEL void pool_alloc(LSK_CTX, __global uint *pool, __global uint *out, uint n, uint tag)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_VAR(uint, want);
  LSK_VAR(uint, batched);
  LSK_VAR(uint, cell);
  uint cw = pool[LSK__POOL_CELL_WORDS];
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      LSK_VAR_AT(want, it) = i < n && out[i] == LSK_POOL_INVALID;
      LSK_VAR_AT(batched, it) = LSK_VAR_AT(want, it) && (b & 1u);
    }
    lsk_pool_alloc_var(s, pool, batched, cell, LSK_DOMAIN_SIZE);
    LSK_FOREACH(it) {
      if (LSK_VAR_AT(want, it) && !LSK_VAR_AT(batched, it))
        LSK_VAR_AT(cell, it) = lsk_pool_alloc(pool);
    }
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx, c = LSK_VAR_AT(cell, it);
      if (LSK_VAR_AT(want, it)) {
        out[i] = c;
        if (c != LSK_POOL_INVALID) {
          __global uint *p = lsk_pool_cell(pool, c);
          LSK_VERIFY3(p[0] == 0 && p[cw - 1] == 0, "allocated cell not zero", c, p[0], p[cw - 1]);
          p[0] = tag + i;
          p[cw - 1] = i;
        }
      }
    }
  }
}

/* Items [0, n) recycle cells[i] (LSK_POOL_INVALID: nothing); odd blocks
 * batched. */
LSK_KERNEL void pool_recycle(LSK_CTX, __global uint *pool, __global const uint *cells, uint n)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_VAR(uint, cell);
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      LSK_VAR_AT(cell, it) = i < n && (b & 1u) ? cells[i] : LSK_POOL_INVALID;
    }
    lsk_pool_recycle_var(s, pool, cell, LSK_DOMAIN_SIZE);
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < n && !(b & 1u))
        lsk_pool_recycle(pool, cells[i]);
    }
  }
}

/* Items [0, n) each allocate a cell through their worker's cache
 * (lsk_pool_cache): out[i] gets the cell, which must read as zeros, and
 * its word 0 gets tag + i; items with i % 3 == 0 recycle theirs at once,
 * through the same cache. */
LSK_KERNEL void pool_cache_churn(LSK_CTX, __global uint *pool, __global uint *out, uint n,
                                 uint tag)
{
  lsk_pool_cache pc;
  lsk_pool_cache_begin(&pc, pool);
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH_N(it, lsk_domain_count(b * LSK_DOMAIN_SIZE, n)) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx, c = lsk_pool_cache_alloc(&pc);
      out[i] = c;
      if (c != LSK_POOL_INVALID) {
        __global uint *p = lsk_pool_cell(pool, c);
        LSK_VERIFY2(p[0] == 0, "allocated cell not zero", c, p[0]);
        p[0] = tag + i;
      }
      if (i % 3 == 0)
        lsk_pool_cache_recycle(&pc, c);
    }
  }
  lsk_pool_cache_end(&pc);
}

/* Items [0, n) with vals[i] % 3 != 0 append vals[i] to the list: odd blocks
 * through lsk_list_append_var (one atomic per block), the others one by
 * one. An element without storage is recorded in missed. */
LSK_KERNEL void list_append(LSK_CTX, __global uint *pool, __global uint *list,
                            __global const uint *vals, uint n, __global uint *missed)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_VAR(uint, want);
  LSK_VAR(uint, batched);
  LSK_VAR(__global uchar *, at);
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      LSK_VAR_AT(want, it) = i < n && vals[i] % 3u != 0;
      LSK_VAR_AT(batched, it) = LSK_VAR_AT(want, it) && (b & 1u);
    }
    uint count;
    lsk_list_append_var(s, pool, list, batched, at, LSK_DOMAIN_SIZE, &count);
    LSK_FOREACH(it) {
      uint e;
      if (LSK_VAR_AT(want, it) && !LSK_VAR_AT(batched, it))
        LSK_VAR_AT(at, it) = lsk_list_append(pool, list, &e);
    }
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (LSK_VAR_AT(want, it)) {
        __global uint *p = (__global uint *)LSK_VAR_AT(at, it);
        if (p) {
          p[0] = vals[i];
          p[1] = ~vals[i];
        } else {
          atomic_inc(missed);
        }
      }
    }
  }
}

/* The sum of word 0 of elements [0, length) through lsk_list_at, per block
 * into sums[block] (elements without storage count as zero). */
LSK_KERNEL void list_sum(LSK_CTX, __global uint *pool, __global const uint *list,
                         __global uint *sums)
{
  LSK_BLOCK_SCRATCH(uint, s);
  uint n = lsk_list_length(list), acc = 0;
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      __global const uint *p = i < n ? (__global const uint *)lsk_list_at(pool, list, i) : 0;
      acc += p ? p[0] : 0u;
    }
  }
  uint total = lsk_block_reduce_add_uint(s, acc);
  LSK_MASTER sums[lsk_block_idx()] = total;
}
