/*
 * heat.cl: one explicit step of 2-D heat diffusion (the 5-point stencil)
 * on a box of a grid with guard cells (examples/heat/heat.c, grid.h's
 * column layout). Two kernels write the new field v from the old one u:
 * heat_interior the cells at least one cell from the box's edge (they read
 * no guard, so they may run while the halo travels), heat_rim the others
 * (after the guards have arrived). Contraction into fused multiply-adds is
 * off, so that every cell is computed with the same roundings as the
 * plain C reference (heat.c) on every device: the checksums of different
 * decompositions then agree bit for bit.
 */
#pragma OPENCL FP_CONTRACT OFF

LSK_INLINE float heat_new(__global const float *restrict u, uint c, uint s0, float a)
{
  float s = (u[c - 1u] + u[c + 1u]) + (u[c - s0] + u[c + s0]);
  return u[c] + a * (s - 4.0f * u[c]);
}

/* Cells (i, j), 1 <= i < ex - 1 and 1 <= j < ey - 1 of the box. */
LSK_KERNEL void heat_interior(LSK_CTX, __global const float *restrict u, __global float *restrict v,
                              uint ex, uint ey, uint s0, float a)
{
  const uint w = ex - 2u, n = w * (ey - 2u);
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint k = b * LSK_DOMAIN_SIZE + it.idx;
      if (k < n) {
        uint j = k / w, i = k - j * w;
        uint c = (j + 2u) * s0 + i + 2u; /* guard 1: cell (i + 1, j + 1) */
        v[c] = heat_new(u, c, s0, a);
      }
    }
  }
}

/* The rim: rows 0 and ey - 1 whole, then columns 0 and ex - 1 between
 * them (rows and columns counted once where the box is 1 wide). */
LSK_KERNEL void heat_rim(LSK_CTX, __global const float *restrict u, __global float *restrict v,
                         uint ex, uint ey, uint s0, float a)
{
  const uint rows = min(ey, 2u), cols = min(ex, 2u);
  /* ey - rows, not a select: LLVM makes that a saturating subtraction,
   * which oclgrind 21.10 cannot run. */
  const uint inner = ey - rows, n = ex * rows + inner * cols;
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint k = b * LSK_DOMAIN_SIZE + it.idx;
      if (k < n) {
        uint i, j;
        if (k < ex * rows) {
          uint r = k / ex;
          i = k - r * ex;
          j = r ? ey - 1u : 0u;
        } else {
          uint q = k - ex * rows, r = q / cols;
          j = 1u + r;
          i = q - r * cols ? ex - 1u : 0u;
        }
        uint c = (j + 1u) * s0 + i + 1u;
        v[c] = heat_new(u, c, s0, a);
      }
    }
  }
}
