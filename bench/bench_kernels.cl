/* bench_kernels.cl: the lsk kernels of `lsk bench`; the raw OpenCL ones it
 * compares with are in triad.c and launch.c, built without lsk (raw.c). */

/* Triad through ForEach: each block takes data blocks of LSK_DOMAIN_SIZE
 * elements in a grid-strided loop. Two habits that CPUs reward
 * (docs/lockstep.md, "The last data block"; figures: docs/perf/triad.md,
 * "The triad on AVX2"):
 * - The tail is ForEach's count, not an `if (i < n)` in the body. Every
 *   full data block then runs unguarded; a guard in the body becomes
 *   masked loads and stores (vmaskmovpd) on AVX2, microcoded on AMD Zen.
 * - lsk_sync() ends each data block. PoCL runs a barrier-free kernel as one
 *   loop over the workers around the whole body, so without it each worker
 *   sweeps every data block of its block alone; with it, all workers finish
 *   one data block before the next. */
LSK_KERNEL void triad(LSK_CTX, __global double *restrict a, __global const double *restrict b,
                      __global const double *restrict c, double s, uint n)
{
  LSK_BLOCKS(blk, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    uint base = blk * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, min((uint)LSK_DOMAIN_SIZE, n - base)) {
      uint i = base + it.idx;
      a[i] = b[i] + s * c[i];
    }
    lsk_sync();
  }
}

LSK_KERNEL void empty(LSK_CTX) {}
