/*
 * front.cl: the sparse front's three struct-fors (front.h), its initial
 * state and the probe of active blocks, on the structure `grid` that
 * front.c defines (pointer block ij over dense cell ij 16 16; fields u, v,
 * b): its generated OpenCL C (lsk_sparse_source) is this program's
 * prelude. Each struct-for
 * visits the active 16 x 16 blocks, one lockstep block each, ForEach over
 * the block's 256 cells.
 *
 * Data-race freedom, kernel by kernel: diffuse reads u (its own cells and,
 * through the ambient get, the neighbours', in any block) and writes only
 * its own cells' v and b; settle reads and writes its own block only, and
 * deactivates only itself; spread reads its own u and only activates
 * (many work-items may activate one block at once: the core installs the
 * block with a compare-and-swap). Activation and deactivation never meet in
 * one kernel: a block that settle deactivates may be activated again by
 * the spread that follows (with zeros), as the C model does.
 *
 * Contraction into fused multiply-adds is off: the C model (front_ref.c)
 * computes every cell with the same roundings, so device and model agree
 * bit for bit, thresholds included.
 */
#pragma OPENCL FP_CONTRACT OFF

#define FRONT_BLOCK 16u

/* u of cell (i, j) as the ambient get reads it, 0 beyond the grid (an
 * index below 0 wraps to a huge one). */
LSK_INLINE float front_u(grid s, uint i, uint j, uint n)
{
  return i < n && j < n ? grid_u_get(s, i, j) : 0.0f;
}

/* v = (u + alpha lap u) keep + heat burn; b += burn (front.h). A
 * neighbour inside the block is read from the block's column (cell (x, y)
 * of the block at x + 16 y: the first axis fastest), one across its edge
 * with the ambient get, which walks from the root. */
LSK_KERNEL void front_diffuse(LSK_CTX, GRID_PARAMS, uint n, float alpha, float keep, float heat,
                              float rate, float ignite)
{
  GRID_VIEW(s);
  GRID_FOR_CELL(s, blk)
  {
    __global float *u = grid_u_block(s, blk), *v = grid_v_block(s, blk), *b = grid_b_block(s, blk);
    GRID_FOREACH_CELL(it, s, blk)
    {
      uint3 p = grid_cell_pos(blk, it);
      uint x = it.idx % FRONT_BLOCK, y = it.idx / FRONT_BLOCK, c = it.idx;
      float uc = u[c], bc = b[c];
      float w = x > 0u ? u[c - 1u] : front_u(s, p.x - 1u, p.y, n);
      float e = x < FRONT_BLOCK - 1u ? u[c + 1u] : front_u(s, p.x + 1u, p.y, n);
      float so = y > 0u ? u[c - FRONT_BLOCK] : front_u(s, p.x, p.y - 1u, n);
      float no = y < FRONT_BLOCK - 1u ? u[c + FRONT_BLOCK] : front_u(s, p.x, p.y + 1u, n);
      float lap = ((w + e) + (so + no)) - 4.0f * uc;
      float burn = uc > ignite ? rate * (1.0f - bc) : 0.0f;
      v[c] = (uc + alpha * lap) * keep + heat * burn;
      b[c] = bc + burn;
    }
  }
}

/* u = v; the block deactivates itself when no cell is above off (one
 * block-wide vote; worker 0 deactivates, at any cell of the block). */
LSK_KERNEL void front_settle(LSK_CTX, GRID_PARAMS, float off)
{
  GRID_VIEW(s);
  LSK_BLOCK_SCRATCH(uint, scratch);
  GRID_FOR_CELL(s, blk)
  {
    __global float *u = grid_u_block(s, blk), *v = grid_v_block(s, blk);
    int warm = 0;
    uint3 at = (uint3)(0u, 0u, 0u);
    GRID_FOREACH_CELL(it, s, blk)
    {
      float x = v[it.idx];
      u[it.idx] = x;
      warm |= x > off;
      at = grid_cell_pos(blk, it);
    }
    if (!lsk_block_any(scratch, warm)) {
      LSK_MASTER { grid_block_deactivate(s, at.x, at.y); }
    }
  }
}

/* A cell with u > on activates the blocks of its neighbours inside the
 * grid; only a cell on its block's edge has a neighbour in another one. */
LSK_KERNEL void front_spread(LSK_CTX, GRID_PARAMS, uint n, float on)
{
  GRID_VIEW(s);
  GRID_FOR_CELL(s, blk)
  {
    __global const float *u = grid_u_block(s, blk);
    GRID_FOREACH_CELL(it, s, blk)
    {
      if (u[it.idx] > on) {
        uint3 p = grid_cell_pos(blk, it);
        uint x = p.x % FRONT_BLOCK, y = p.y % FRONT_BLOCK;
        if (x == 0u && p.x > 0u)
          (void)grid_block_activate(s, p.x - 1u, p.y);
        if (x == FRONT_BLOCK - 1u && p.x + 1u < n)
          (void)grid_block_activate(s, p.x + 1u, p.y);
        if (y == 0u && p.y > 0u)
          (void)grid_block_activate(s, p.x, p.y - 1u);
        if (y == FRONT_BLOCK - 1u && p.y + 1u < n)
          (void)grid_block_activate(s, p.x, p.y + 1u);
      }
    }
  }
}

/* The initial state: u = 1 on the cells of the disc of radius r around
 * the grid's centre (the model's in_disc: twice the distances, exactly),
 * one work-item per cell of the disc's bounding box. grid_u_set activates
 * the block; cells off the disc are neither read nor written, so the only
 * meeting of work-items is the activation's compare-and-swap. */
LSK_KERNEL void front_init(LSK_CTX, GRID_PARAMS, uint n, uint r)
{
  GRID_VIEW(s);
  const uint side = 2u * r + 2u, lo = n / 2u - r - 1u, total = side * side;
  LSK_BLOCKS(bk, (total + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint k = bk * LSK_DOMAIN_SIZE + it.idx, y = k / side, x = k - y * side;
      uint i = lo + x, j = lo + y;
      uint dx = 2u * i + 1u > n ? 2u * i + 1u - n : n - 2u * i - 1u;
      uint dy = 2u * j + 1u > n ? 2u * j + 1u - n : n - 2u * j - 1u;
      if (k < total && dx * dx + dy * dy <= 4u * r * r)
        (void)grid_u_set(s, i, j, 1.0f);
    }
  }
}

/* active[bi + nb bj] = whether block (bi, bj) is active (a plain launch on
 * the structure's argument, lsk_sparse_use). */
LSK_KERNEL void front_probe(LSK_CTX, GRID_PARAMS, uint nb, __global uint *active)
{
  GRID_VIEW(s);
  const uint total = nb * nb;
  LSK_BLOCKS(bk, (total + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      /* bi from bj, not k % nb: LLVM pairs a division with its remainder
       * through a `freeze`, which oclgrind 21.10 cannot run. */
      uint k = bk * LSK_DOMAIN_SIZE + it.idx, bj = k / nb, bi = k - bj * nb;
      if (k < total)
        active[k] = grid_block_is_active(s, bi * FRONT_BLOCK, bj * FRONT_BLOCK) ? 1u : 0u;
    }
  }
}
