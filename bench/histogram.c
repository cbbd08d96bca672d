/*
 * bench/histogram.c: lsk_histogram_uint of 2^log2n uniform random uint
 * keys into 256 bins and into 65536 bins (a few keys past the bins, in the
 * out-of-range counter), against a plain single-threaded C count of the
 * same keys, interleaved. Both are timed on the host clock, from the call
 * to the counts in hand (lsk's zeroing, its pass and the read of the
 * counters included); both results are checked against each other before
 * and after the timed rounds.
 *
 * On GPUs (the device's or LSK_SHAPES=nvidia's) also: beside each row a
 * "(one copy)" row, the earlier local kernel with one copy of the
 * counters per block (LSK_HISTOGRAM_GPU=0 around its calls), timed in the
 * same rounds; and a 256-bin case with skewed keys (nine in ten in one
 * bin), where the GPU kernel's copies matter most (docs/histogram.md).
 */
#define _XOPEN_SOURCE 700 /* setenv */
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

static int setup(bench *bn, hist_case *k, size_t nbins, int skew)
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
    if (skew && i % 10)
      k->x[i] = (unsigned)(nbins / 3);
  }
  if (lsk_buffer_create(bn->ctx, bytes, &k->dx) || lsk_buffer_create(bn->ctx, bbytes, &k->dbins) ||
      lsk_buffer_write(k->dx, 0, k->x, bytes, NULL))
    return cli_fail("bench", "histogram setup: %s", lsk_context_errmsg(bn->ctx));
  return 0;
}

/* old: the one-copy local kernel (LSK_HISTOGRAM_GPU=0 for the call, the
 * caller's setting restored after it). */
static int run_lsk_path(bench *bn, hist_case *k, int old, double *secs)
{
  lsk_algo_options opt = {.workers = bn->workers, .simd = bn->simd};
  char saved[16] = "";
  const char *env = getenv("LSK_HISTOGRAM_GPU");
  if (old) {
    if (env)
      snprintf(saved, sizeof saved, "%s", env);
    setenv("LSK_HISTOGRAM_GPU", "0", 1);
  }
  double t0 = cli_now();
  int rc = lsk_histogram_uint(bn->ctx, k->dx, 0, k->n, k->nbins, k->dbins, 0, &opt, NULL);
  if (!rc)
    rc = lsk_buffer_read(k->dbins, 0, k->got, (k->nbins + 1) * sizeof(unsigned), NULL);
  *secs = cli_now() - t0;
  if (old) {
    if (env)
      setenv("LSK_HISTOGRAM_GPU", saved, 1);
    else
      unsetenv("LSK_HISTOGRAM_GPU");
  }
  return rc ? cli_fail("bench", "histogram: %s", lsk_context_errmsg(bn->ctx)) : 0;
}

static int run_lsk(bench *bn, hist_case *k, double *secs) { return run_lsk_path(bn, k, 0, secs); }

static int check(hist_case *k)
{
  for (size_t i = 0; i <= k->nbins; ++i)
    if (k->got[i] != k->ref[i])
      return cli_fail("bench", "histogram of %zu bins: counter %zu is %u, C has %u", k->nbins, i,
                      k->got[i], k->ref[i]);
  return 0;
}

static int one(bench *bn, size_t nbins, int skew)
{
  hist_case k = {0};
  double secs = 0;
  int rc = setup(bn, &k, nbins, skew);
  if (!rc) {
    hist_c(k.x, k.n, k.nbins, k.ref);
    rc = run_lsk(bn, &k, &secs) || check(&k);
  }
  char name[64];
  snprintf(name, sizeof name, "histogram uint, %zu bins%s", nbins, skew ? ", skewed" : "");
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C, one thread", "histogram vs C",
                                    "Gelem/s", (double)k.n);
  rc = rc || !r;
  /* GPUs: the one-copy kernel beside it, checked like the other. */
  int old = !rc && lsk_context_device(bn->ctx)->is_gpu;
  result *ro = NULL;
  if (old) {
    char oname[64];
    snprintf(oname, sizeof oname, "histogram uint, %zu bins%s (one copy)", nbins,
             skew ? ", skewed" : "");
    rc = run_lsk_path(bn, &k, 1, &secs) || check(&k);
    ro = rc ? NULL
            : bench_new_result(bn, KIND_RATE, oname, "C, one thread", "histogram, one copy, vs C",
                               "Gelem/s", (double)k.n);
    rc = rc || !ro;
  }
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
    if (old && !rc && round >= 2) {
      rc = run_lsk_path(bn, &k, 1, &secs);
      bench_add(&ro->lsk, secs);
      bench_add(&ro->ref, r->ref.v[r->ref.n - 1]);
    }
  }
  bench_progress(bn, name, bn->repeat + 2, bn->repeat + 2);
  if (!rc)
    rc = check(&k);
  teardown(&k);
  return rc;
}

int bench_case_histogram(bench *bn)
{
  return one(bn, 256, 0) || one(bn, 65536, 0) ||
         (lsk_context_device(bn->ctx)->is_gpu && one(bn, 256, 1));
}
