/*
 * maskstore.c: the triad with plain and with masked AVX2 stores and loads,
 * in C, without OpenCL: the evidence behind docs/pocl-masked-stores.md.
 *   gcc -O2 -mavx2 -mfma docs/tools/maskstore.c -o maskstore && ./maskstore 25
 * The mask is all ones, so all three loops compute the same thing.
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

__attribute__((noinline)) static void plain(double *a, const double *b, const double *c, long n)
{
  __m256d s = _mm256_set1_pd(3);
  for (long i = 0; i < n; i += 4)
    _mm256_storeu_pd(a + i, _mm256_fmadd_pd(s, _mm256_loadu_pd(c + i), _mm256_loadu_pd(b + i)));
}

__attribute__((noinline)) static void mstore(double *a, const double *b, const double *c, long n)
{
  __m256d s = _mm256_set1_pd(3);
  __m256i m = _mm256_set1_epi64x(-1);
  for (long i = 0; i < n; i += 4)
    _mm256_maskstore_pd(a + i, m,
                        _mm256_fmadd_pd(s, _mm256_loadu_pd(c + i), _mm256_loadu_pd(b + i)));
}

__attribute__((noinline)) static void mboth(double *a, const double *b, const double *c, long n)
{
  __m256d s = _mm256_set1_pd(3);
  __m256i m = _mm256_set1_epi64x(-1);
  for (long i = 0; i < n; i += 4)
    _mm256_maskstore_pd(
        a + i, m, _mm256_fmadd_pd(s, _mm256_maskload_pd(c + i, m), _mm256_maskload_pd(b + i, m)));
}

int main(int argc, char **argv)
{
  long n = 1L << (argc > 1 ? atoi(argv[1]) : 25);
  double *a = aligned_alloc(64, (size_t)n * 8), *b = aligned_alloc(64, (size_t)n * 8),
         *c = aligned_alloc(64, (size_t)n * 8);
  if (!a || !b || !c)
    return 1;
  for (long i = 0; i < n; i++) {
    a[i] = 0;
    b[i] = (double)(i % 1000);
    c[i] = 1.0 / (double)(1 + i % 7);
  }
  void (*f[3])(double *, const double *, const double *, long) = {plain, mstore, mboth};
  const char *name[3] = {"vmovupd loads and stores", "vmaskmovpd stores", "vmaskmovpd both"};
  double best[3] = {1e9, 1e9, 1e9};
  for (int r = 0; r < 15; r++)
    for (int k = 0; k < 3; k++) {
      double t0 = now();
      f[k](a, b, c, n);
      double t = now() - t0;
      best[k] = t < best[k] ? t : best[k];
    }
  for (int k = 0; k < 3; k++)
    printf("%-26s %8.2f ms %6.1f GB/s  %.2f of plain\n", name[k], best[k] * 1e3,
           3.0 * (double)n * 8 / best[k] / 1e9, best[0] / best[k]);
  return 0;
}
