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
 */
#define LSK__HALO_ROW 8

/* The storage index and packed index of flat element i. */
#define LSK__HALO_LOCATE(i)                                                                        \
  uint r_ = 0;                                                                                     \
  while (r_ + 1u < nreg && tab[LSK__HALO_ROW * (r_ + 1u) + 7u] <= (i))                             \
    ++r_;                                                                                          \
  __global const uint *e_ = tab + LSK__HALO_ROW * r_;                                              \
  uint q_ = (i)-e_[7];                                                                             \
  uint yz_ = q_ / e_[4], z_ = yz_ / e_[5];                                                         \
  uint cell = ((e_[3] + z_) * s1 + e_[2] + yz_ - z_ * e_[5]) * s0 + e_[1] + q_ - yz_ * e_[4];      \
  uint at = pbase + e_[0] + q_

/* Every packed element of this block's tiles, with cell and at located
 * (pack and unpack differ only in the direction of STMT). */
#define LSK__HALO_EACH(STMT)                                                                       \
  LSK__TILE_RUN(total, per_block);                                                                 \
  (void)full;                                                                                      \
  for (uint t = first; t < end; ++t) {                                                             \
    uint base_ = t * LSK_DOMAIN_SIZE;                                                              \
    LSK_FOREACH_N(it, lsk_domain_count(base_, total))                                              \
    {                                                                                              \
      LSK__HALO_LOCATE(base_ + it.idx);                                                            \
      STMT;                                                                                        \
    }                                                                                              \
  }

#define LSK__HALO_KERNELS(T)                                                                       \
  LSK_KERNEL void lsk_halo_pack_##T(LSK_CTX, __global const T *restrict col, uint s0, uint s1,     \
                                    __global const uint *restrict tab, uint nreg, uint total,      \
                                    uint per_block, __global T *restrict packed, uint pbase)       \
  {                                                                                                \
    LSK__HALO_EACH(packed[at] = col[cell]);                                                        \
  }                                                                                                \
  LSK_KERNEL void lsk_halo_unpack_##T(                                                             \
      LSK_CTX, __global T *restrict col, uint s0, uint s1, __global const uint *restrict tab,      \
      uint nreg, uint total, uint per_block, __global const T *restrict packed, uint pbase)        \
  {                                                                                                \
    LSK__HALO_EACH(col[cell] = packed[at]);                                                        \
  }

LSK__HALO_KERNELS(uint)
LSK__HALO_KERNELS(ulong)
