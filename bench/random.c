/*
 * bench/random.c: lsk_random_fill of 2^log2n uniform floats (counter-based
 * Philox4x32-10, cl/lsk_random.h) against a plain single-threaded C
 * Philox making the same numbers (four floats per counter), interleaved,
 * both timed on the host clock from the call to the numbers in device or
 * host memory (lsk: to lsk_context_finish; no read back). Both results
 * are compared, every element, before and after the timed rounds. Then
 * one line sets the fill's bytes per second beside the raw OpenCL triad's
 * (bytes of its three arrays), the memory rate it could reach.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define SEED 0x5eedull
#define STREAM 3u

/* Philox4x32-10 as published (cl/lsk_random.h's lsk_philox4x32_10), the
 * rounds written out as Random123 writes them: one round, two 32x32 ->
 * 64-bit products, the words crossed; round r's key bumped r times. (The
 * 10 rounds as a loop: gcc -O2 leaves it rolled and the fill took twice
 * as long; so did a test per element in the store loop.) */
static inline void philox_round(uint32_t c[4], uint32_t k0, uint32_t k1)
{
  uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
  uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1;
  c[0] = n0, c[1] = (uint32_t)p1, c[2] = n2, c[3] = (uint32_t)p0;
}

/* Round r's key: the seed's words bumped r times by the Weyl constants. */
#define ROUND(r) philox_round(c, k0 + (r)*0x9E3779B9u, k1 + (r)*0xBB67AE85u)

static inline void philox(uint32_t c[4], uint32_t k0, uint32_t k1)
{
  ROUND(0u), ROUND(1u), ROUND(2u), ROUND(3u), ROUND(4u);
  ROUND(5u), ROUND(6u), ROUND(7u), ROUND(8u), ROUND(9u);
}

/* Element j: word j % 4 of counter (j / 4, 0, STREAM, 0), its top 24 bits
 * as a float in [0, 1) (include/lsk/random.h). Whole counters, then the
 * last partial one. */
static void fill_c(float *restrict out, size_t n)
{
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    uint32_t c[4] = {(uint32_t)(i / 4), 0u, STREAM, 0u};
    philox(c, (uint32_t)SEED, (uint32_t)(SEED >> 32));
    for (int w = 0; w < 4; ++w)
      out[i + w] = (float)(c[w] >> 8) * 0x1.0p-24f;
  }
  if (i < n) {
    uint32_t c[4] = {(uint32_t)(i / 4), 0u, STREAM, 0u};
    philox(c, (uint32_t)SEED, (uint32_t)(SEED >> 32));
    for (size_t w = 0; i + w < n; ++w)
      out[i + w] = (float)(c[w] >> 8) * 0x1.0p-24f;
  }
}

static int run_lsk(bench *bn, lsk_buffer *d, size_t n, double *secs)
{
  lsk_algo_options opt = {.workers = bn->workers, .simd = bn->simd};
  double t0 = cli_now();
  int rc = lsk_random_fill(bn->ctx, d, 0, n, LSK_TYPE_FLOAT, LSK_RANDOM_UNIFORM, SEED, STREAM, &opt,
                           NULL);
  if (!rc)
    rc = lsk_context_finish(bn->ctx);
  *secs = cli_now() - t0;
  return rc ? cli_fail("bench", "random: %s", lsk_context_errmsg(bn->ctx)) : 0;
}

static int check(bench *bn, lsk_buffer *d, const float *want, float *got, size_t n)
{
  if (lsk_buffer_read(d, 0, got, n * sizeof *got, NULL))
    return cli_fail("bench", "random: %s", lsk_context_errmsg(bn->ctx));
  for (size_t i = 0; i < n; ++i)
    if (memcmp(&got[i], &want[i], sizeof *got))
      return cli_fail("bench", "random: element %zu is %.9g, the C Philox's %.9g", i,
                      (double)got[i], (double)want[i]);
  return 0;
}

int bench_case_random(bench *bn)
{
  size_t n = (size_t)1 << bn->log2n;
  float *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
  lsk_buffer *d = NULL;
  double secs = 0;
  int rc = !want || !got ? cli_fail("bench", "random: out of host memory for %zu floats", n) : 0;
  if (!rc && lsk_buffer_create(bn->ctx, n * sizeof(float), &d))
    rc = cli_fail("bench", "random: %s", lsk_context_errmsg(bn->ctx));
  if (!rc) {
    fill_c(want, n);
    rc = run_lsk(bn, d, n, &secs) || check(bn, d, want, got, n);
  }
  const char *name = "random fill, uniform float";
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C Philox, one thread", "random fill vs C",
                                    "Gelem/s", (double)n);
  rc = rc || !r;
  for (unsigned round = 0; !rc && round < bn->repeat + 2; ++round) {
    bench_progress(bn, name, round, bn->repeat + 2);
    for (unsigned j = 0; !rc && j < 2; ++j) {
      if ((round + j) % 2 == 0) {
        rc = run_lsk(bn, d, n, &secs);
        if (!rc && round >= 2)
          bench_add(&r->lsk, secs);
      } else {
        double t0 = cli_now();
        fill_c(want, n);
        double t = cli_now() - t0;
        if (round >= 2)
          bench_add(&r->ref, t);
      }
    }
  }
  bench_progress(bn, name, bn->repeat + 2, bn->repeat + 2);
  if (!rc)
    rc = check(bn, d, want, got, n);
  /* Beside the memory rate: the raw triad on as many elements, unguarded
   * (the guarded one measures PoCL's masked stores:
   * docs/pocl-masked-stores.md). */
  triad t = {0};
  if (!rc && !bench_triad_setup(bn, &t)) {
    double best = 0;
    for (unsigned i = 0; i < 3; ++i) {
      cl_event ev = NULL;
      if (bench_triad_exact(bn, &t, &ev))
        break;
      double s = bench_event_time(ev);
      best = i == 0 || s < best ? s : best;
    }
    if (best > 0)
      printf("random fill: %.1f GB/s written (best %.3f ms for %zu floats); the raw triad on "
             "as many doubles: %.1f GB/s (three arrays): %.2f of it\n",
             n * 4.0 / bench_best(&r->lsk) / 1e9, 1e3 * bench_best(&r->lsk), n,
             n * 24.0 / best / 1e9, (n * 4.0 / bench_best(&r->lsk)) / (n * 24.0 / best));
  }
  bench_triad_teardown(&t);
  lsk_buffer_destroy(d);
  free(want);
  free(got);
  return rc;
}
