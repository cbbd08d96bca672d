/*
 * bench/histogram.c: lsk_histogram_uint of 2^log2n uniform random uint
 * keys into 256 bins and into 65536 bins (a few keys past the bins, in the
 * out-of-range counter), against a plain single-threaded C count of the
 * same keys, interleaved. Both are timed on the host clock, from the call
 * to the counts in hand (lsk's zeroing, its pass and the read of the
 * counters included); both results are checked against each other before
 * and after the timed rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct hist_case {
  size_t n, nbins;
  unsigned *x, *ref, *got; /* keys, C counts, lsk counts read back (nbins + 1) */
  lsk_buffer *dx, *dbins;
} hist_case;

static void teardown(hist_case *k)
{
  lsk_buffer_destroy(k->dx);
  lsk_buffer_destroy(k->dbins);
  free(k->x);
  free(k->ref);
  free(k->got);
}

/* The reference: one increment per key, the out-of-range ones last. */
static void hist_c(const unsigned *restrict x, size_t n, size_t nbins, unsigned *restrict bins)
{
  memset(bins, 0, (nbins + 1) * sizeof(unsigned));
  for (size_t i = 0; i < n; ++i)
    ++bins[x[i] < nbins ? x[i] : nbins];
}

static int setup(bench *bn, hist_case *k, size_t nbins)
{
  k->n = (size_t)1 << bn->log2n;
  k->nbins = nbins;
  size_t bytes = k->n * sizeof(unsigned), bbytes = (nbins + 1) * sizeof(unsigned);
  k->x = malloc(bytes);
  k->ref = malloc(bbytes);
  k->got = malloc(bbytes);
  if (!k->x || !k->ref || !k->got)
    return cli_fail("bench", "histogram: out of host memory for %zu uints", k->n);
  /* Keys below nbins + nbins / 64: about 1.5% out of range. */
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < k->n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    k->x[i] = (unsigned)((s >> 33) % (nbins + nbins / 64));
  }
  if (lsk_buffer_create(bn->ctx, bytes, &k->dx) || lsk_buffer_create(bn->ctx, bbytes, &k->dbins) ||
      lsk_buffer_write(k->dx, 0, k->x, bytes, NULL))
    return cli_fail("bench", "histogram setup: %s", lsk_context_errmsg(bn->ctx));
  return 0;
}

static int run_lsk(bench *bn, hist_case *k, double *secs)
{
  lsk_algo_options opt = {.workers = bn->workers, .simd = bn->simd};
  double t0 = cli_now();
  int rc = lsk_histogram_uint(bn->ctx, k->dx, 0, k->n, k->nbins, k->dbins, 0, &opt, NULL);
  if (!rc)
    rc = lsk_buffer_read(k->dbins, 0, k->got, (k->nbins + 1) * sizeof(unsigned), NULL);
  *secs = cli_now() - t0;
  return rc ? cli_fail("bench", "histogram: %s", lsk_context_errmsg(bn->ctx)) : 0;
}

static int check(hist_case *k)
{
  for (size_t i = 0; i <= k->nbins; ++i)
    if (k->got[i] != k->ref[i])
      return cli_fail("bench", "histogram of %zu bins: counter %zu is %u, C has %u", k->nbins, i,
                      k->got[i], k->ref[i]);
  return 0;
}

static int one(bench *bn, size_t nbins)
{
  hist_case k = {0};
  double secs = 0;
  int rc = setup(bn, &k, nbins);
  if (!rc) {
    hist_c(k.x, k.n, k.nbins, k.ref);
    rc = run_lsk(bn, &k, &secs) || check(&k);
  }
  char name[64];
  snprintf(name, sizeof name, "histogram uint, %zu bins", nbins);
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C, one thread", "histogram vs C",
                                    "Gelem/s", (double)k.n);
  rc = rc || !r;
  /* Two warm-up rounds, then timed ones; the order alternates each round. */
  for (unsigned round = 0; !rc && round < bn->repeat + 2; ++round) {
    bench_progress(bn, name, round, bn->repeat + 2);
    for (unsigned j = 0; !rc && j < 2; ++j) {
      if ((round + j) % 2 == 0) {
        rc = run_lsk(bn, &k, &secs);
        if (!rc && round >= 2)
          bench_add(&r->lsk, secs);
      } else {
        double t0 = cli_now();
        hist_c(k.x, k.n, k.nbins, k.ref);
        double t = cli_now() - t0;
        if (round >= 2)
          bench_add(&r->ref, t);
      }
    }
  }
  bench_progress(bn, name, bn->repeat + 2, bn->repeat + 2);
  if (!rc)
    rc = check(&k);
  teardown(&k);
  return rc;
}

int bench_case_histogram(bench *bn) { return one(bn, 256) || one(bn, 65536); }
