/* bench_kernels.cl: the lsk kernels of `lsk bench`; the raw OpenCL ones it
 * compares with are in triad.c and launch.c, built without lsk (raw.c). */

/* Triad through ForEach: each block takes data blocks of LSK_DOMAIN_SIZE
 * elements in a grid-strided loop. */
LSK_KERNEL void triad(LSK_CTX, __global double *restrict a, __global const double *restrict b,
                      __global const double *restrict c, double s, uint n)
{
  LSK_BLOCKS(blk, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = blk * LSK_DOMAIN_SIZE + it.idx;
      if (i < n)
        a[i] = b[i] + s * c[i];
    }
  }
}

LSK_KERNEL void empty(LSK_CTX) {}
