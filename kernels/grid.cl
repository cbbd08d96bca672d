/*
 * grid.cl: the halo's copies between a column and the packed form
 * (host/algo/grid.c, include/lsk/grid.h). A table names the regions of one
 * call, LSK__HALO_ROW words each: the packed offset of the region's
 * segment, its first storage cell (lo0, lo1, lo2), its extents (n0, n1,
 * n2) and its first index in the flat range of the call (the regions'
 * cells one after another). Block b takes tiles [b * per_block, (b + 1) *
 * per_block) of that range; an element finds its region by a walk of at
 * most 26 rows (the table is in constant-like global memory every worker
 * reads), then its cell. Elements are copied by size: uint or ulong.
 * Each element is written once; no block waits for another. Remainders
 * are written as i - q*n (a div/rem pair trips oclgrind: cl/lsk_idx.h).
 *
 * Written once over the element type; the host builds one program per
 * size, -D LSK_T=uint or ulong, with lsk_halo_pack_<type> and
 * lsk_halo_unpack_<type>. The builds (tests/oclgrind_coverage.sh and
 * tests/devicelib.sh read this line):
 * lsk-builds: LSK_T=uint,ulong
 */
#ifndef LSK_T
#error "kernels/grid.cl is built per element size: -D LSK_T=uint|ulong"
#endif
#define LSK__HALO_ROW 8

/* Where flat element i of the call lives: its storage cell and its
 * packed index. */
typedef struct lsk__halo_place {
  uint cell, at;
} lsk__halo_place;

LSK_INLINE lsk__halo_place lsk__halo_locate(__global const uint *tab, uint nreg, uint s0, uint s1,
                                            uint pbase, uint i)
{
  uint r = 0;
  while (r + 1u < nreg && tab[LSK__HALO_ROW * (r + 1u) + 7u] <= i)
    ++r;
  __global const uint *e = tab + LSK__HALO_ROW * r;
  uint q = i - e[7];
  uint yz = q / e[4], z = yz / e[5];
  lsk__halo_place p;
  p.cell = ((e[3] + z) * s1 + e[2] + yz - z * e[5]) * s0 + e[1] + q - yz * e[4];
  p.at = pbase + e[0] + q;
  return p;
}

/* Every packed element of this block's tiles, from the column to the
 * packed form (pack) or back (unpack). */
#define LSK__HALO_PACK LSK__PASTE(lsk_halo_pack_, LSK_T)
LSK_KERNEL void LSK__HALO_PACK(LSK_CTX, __global const LSK_T *restrict col, uint s0, uint s1,
                               __global const uint *restrict tab, uint nreg, uint total,
                               uint per_block, __global LSK_T *restrict packed, uint pbase)
{
  lsk__tiles tiles = lsk__tile_run(total, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    uint base = t * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, lsk_domain_count(base, total))
    {
      lsk__halo_place p = lsk__halo_locate(tab, nreg, s0, s1, pbase, base + it.idx);
      packed[p.at] = col[p.cell];
    }
  }
}

#define LSK__HALO_UNPACK LSK__PASTE(lsk_halo_unpack_, LSK_T)
LSK_KERNEL void LSK__HALO_UNPACK(LSK_CTX, __global LSK_T *restrict col, uint s0, uint s1,
                                 __global const uint *restrict tab, uint nreg, uint total,
                                 uint per_block, __global const LSK_T *restrict packed, uint pbase)
{
  lsk__tiles tiles = lsk__tile_run(total, per_block);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    uint base = t * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, lsk_domain_count(base, total))
    {
      lsk__halo_place p = lsk__halo_locate(tab, nreg, s0, s1, pbase, base + it.idx);
      col[p.cell] = packed[p.at];
    }
  }
}
