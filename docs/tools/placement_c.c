/*
 * placement_c.c: where the three arrays of a C OpenMP triad a = b + 3c sit,
 * and what it costs (docs/performance.md, "Where the arrays sit"). Each
 * placement holds its own copy of the arrays (2^25 doubles each); the
 * placements are timed in rotation, ROUNDS rounds, best and median per
 * placement and the median over rounds of (the first placement's time /
 * this one's, same round), which cancels the drift of other load. The
 * arrays hold non-zero bytes (0x3f): filled with zeros, separate mallocs
 * ran at twice one allocation on the KVM guest of docs/performance.md,
 * and the difference went away with data in them (zero pages measure
 * the host's memory management, not the placement).
 *
 *   cc -O3 -march=native -fopenmp -o placement_c docs/tools/placement_c.c
 *   OMP_NUM_THREADS=2 ./placement_c 9
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { SEPARATE, SEPARATE_STAGGERED, BLOCK_0, BLOCK_4224, BLOCK_4224_16, MMAP_3, NP };
static const char *names[NP] = {"malloc x3 (glibc: a page + 16)",
                                "malloc x3, staggered 1408",
                                "one block, no gap",
                                "one block, gap 4224",
                                "one block +16, gap 4224",
                                "mmap x3 (page-aligned)"};

static double run(double *restrict a, const double *restrict b, const double *restrict c, long n)
{
  double t0 = omp_get_wtime();
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + 3.0 * c[i];
  return omp_get_wtime() - t0;
}

static int cmp(const void *x, const void *y)
{
  double u = *(const double *)x, v = *(const double *)y;
  return u < v ? -1 : u > v;
}

int main(int argc, char **argv)
{
  long n = 1L << 25;
  size_t bytes = (size_t)n * 8, g = 4224;
  int rounds = argc > 1 ? atoi(argv[1]) : 9;
  if (rounds < 1 || rounds > 64)
    return 2;
  double *p[NP][3];
  for (int k = 0; k < NP; ++k) {
    if (k == SEPARATE || k == SEPARATE_STAGGERED || k == MMAP_3) {
      for (int j = 0; j < 3; ++j) {
        size_t sz = bytes + 4096;
        char *m = k == MMAP_3
                      ? mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                      : malloc(sz);
        if (!m || m == MAP_FAILED)
          return 1;
        memset(m, 0x3f, sz);
        p[k][j] = (double *)(m + (k == SEPARATE_STAGGERED ? 1408 * j : 0));
      }
    } else {
      size_t sz = 3 * (bytes + g) + 4096;
      char *m = aligned_alloc(4096, sz);
      if (!m)
        return 1;
      memset(m, 0x3f, sz);
      size_t gap = k == BLOCK_0 ? 0 : g, off = k == BLOCK_4224_16 ? 16 : 0;
      for (int j = 0; j < 3; ++j)
        p[k][j] = (double *)(m + off + j * (bytes + gap));
    }
  }
  static double t[NP][64], q[NP][64];
  for (int r = 0; r < rounds; ++r) {
    for (int j = 0; j < NP; ++j) {
      int k = (r + j) % NP;
      t[k][r] = run(p[k][0], p[k][1], p[k][2], n);
    }
    for (int k = 0; k < NP; ++k)
      q[k][r] = t[0][r] / t[k][r];
  }
  printf("%-32s %-15s %-15s %-15s %7s %7s %7s\n", "placement", "a", "b", "c", "best", "median",
         "paired");
  for (int k = 0; k < NP; ++k) {
    qsort(t[k], rounds, sizeof(double), cmp);
    qsort(q[k], rounds, sizeof(double), cmp);
    printf("%-32s %-15p %-15p %-15p %7.1f %7.1f %7.2f\n", names[k], (void *)p[k][0],
           (void *)p[k][1], (void *)p[k][2], 24.0 * n / t[k][0] * 1e-9,
           24.0 * n / t[k][rounds / 2] * 1e-9, q[k][rounds / 2]);
  }
  return 0;
}
