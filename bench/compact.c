/*
 * bench/compact.c: stream compaction of 2^log2n uints with about half of
 * them selected (lsk_compact, the indices of x[i] % 100 < 50), against a
 * plain single-threaded C compaction of the same data, interleaved. Both
 * are timed on the host clock, from the call to the count in hand (lsk's
 * three launches and the read of the count included), and both results
 * are checked against each other before and after the timed rounds.
 * Where the device is a GPU (or LSK_COMPACT_LOOKBACK=1 is set), both GPU
 * paths in the same rounds: the row "compact uint, 50% selected" times the
 * path without the look-back (LSK_COMPACT_LOOKBACK=0: on a GPU the three
 * passes, the path of the earlier GPU figures; on PoCL the CPU path), the
 * row "compact uint, 50% selected, look-back" the single pass
 * (LSK_COMPACT_LOOKBACK=1), each against the same C compaction.
 */
#define _XOPEN_SOURCE 700 /* setenv, strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define PERCENT 50u

static const char *predicate = "int lsk_select(uint i, __global const uint *x, ulong pct)\n"
                               "{\n"
                               "  return x[i] % 100u < (uint)pct;\n"
                               "}\n";

typedef struct compact_case {
  size_t n;
  unsigned *x, *ref, *got; /* input, C result, lsk result read back */
  lsk_compactor *c;
  lsk_buffer *dx, *dout;
} compact_case;

static void teardown(compact_case *k)
{
  lsk_compactor_destroy(k->c);
  lsk_buffer_destroy(k->dx);
  lsk_buffer_destroy(k->dout);
  free(k->x);
  free(k->ref);
  free(k->got);
}

/* The reference: branch-free, as a careful C programmer writes it (a
 * branch per element mispredicts half the time on this data). */
static size_t compact_c(const unsigned *restrict x, size_t n, unsigned *restrict out)
{
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    out[k] = (unsigned)i;
    k += x[i] % 100u < PERCENT;
  }
  return k;
}

static int setup(bench *bn, compact_case *k)
{
  k->n = (size_t)1 << bn->log2n;
  size_t bytes = k->n * sizeof(unsigned);
  k->x = malloc(bytes);
  k->ref = malloc(bytes);
  k->got = malloc(bytes);
  if (!k->x || !k->ref || !k->got)
    return cli_fail("bench", "compact: out of host memory for %zu uints", k->n);
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < k->n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    k->x[i] = (unsigned)(s >> 33);
  }
  memset(k->got, 0, bytes);
  if (lsk_compactor_create(bn->ctx, predicate,
                           &(lsk_compactor_options){.name = "bench_compact", .data_type = "uint"},
                           &k->c) ||
      lsk_buffer_create(bn->ctx, bytes, &k->dx) || lsk_buffer_create(bn->ctx, bytes, &k->dout) ||
      lsk_buffer_write(k->dx, 0, k->x, bytes, NULL) ||
      lsk_buffer_write(k->dout, 0, k->got, bytes, NULL))
    return cli_fail("bench", "compact setup: %s", lsk_context_errmsg(bn->ctx));
  return 0;
}

/* lookback: LSK_COMPACT_LOOKBACK for this call, or NULL (as it is). */
static int run_lsk(bench *bn, compact_case *k, const char *lookback, size_t *count, double *secs)
{
  if (lookback)
    setenv("LSK_COMPACT_LOOKBACK", lookback, 1);
  lsk_algo_options opt = {.workers = bn->workers, .simd = bn->simd};
  double t0 = cli_now();
  int rc = lsk_compact(k->c, k->dx, k->n, PERCENT, k->dout, 0, k->n, count, &opt, NULL);
  *secs = cli_now() - t0;
  return rc ? cli_fail("bench", "compact: %s", lsk_context_errmsg(bn->ctx)) : 0;
}

/* lsk's output against the C result of count elements. */
static int check(bench *bn, compact_case *k, size_t count, size_t want)
{
  if (count != want)
    return cli_fail("bench", "compact: lsk selected %zu, C %zu", count, want);
  if (count && lsk_buffer_read(k->dout, 0, k->got, count * sizeof(unsigned), NULL))
    return cli_fail("bench", "compact: read back: %s", lsk_context_errmsg(bn->ctx));
  for (size_t i = 0; i < count; ++i)
    if (k->got[i] != k->ref[i])
      return cli_fail("bench", "compact: element %zu is %u, C has %u", i, k->got[i], k->ref[i]);
  return 0;
}

int bench_case_compact(bench *bn)
{
  compact_case k = {0};
  size_t want = 0, count = 0;
  double secs = 0;
  const lsk_device_info *dev = lsk_context_device(bn->ctx);
  const char *user = getenv("LSK_COMPACT_LOOKBACK");
  char *saved = user ? strdup(user) : NULL;
  int both = user && *user ? strcmp(user, "1") == 0 : dev->is_gpu;
  const char *plain = both ? "0" : NULL;
  int rc = setup(bn, &k);
  if (!rc) {
    want = compact_c(k.x, k.n, k.ref);
    rc = run_lsk(bn, &k, plain, &count, &secs) || check(bn, &k, count, want);
    if (!rc && both)
      rc = run_lsk(bn, &k, "1", &count, &secs) || check(bn, &k, count, want);
  }
  char name[64];
  snprintf(name, sizeof name, "compact uint, %u%% selected", PERCENT);
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C, one thread", "compact vs C", "Gelem/s",
                                    (double)k.n);
  rc = rc || !r;
  result *lb = NULL;
  if (!rc && both) {
    snprintf(name, sizeof name, "compact uint, %u%% selected, look-back", PERCENT);
    lb = bench_new_result(bn, KIND_RATE, name, "C, one thread", "compact vs C", "Gelem/s",
                          (double)k.n);
    rc = !lb;
  }
  /* Two warm-up rounds, then timed ones; the order alternates each round. */
  for (unsigned round = 0; !rc && round < bn->repeat + 2; ++round) {
    bench_progress(bn, "compact", round, bn->repeat + 2);
    for (unsigned j = 0; !rc && j < 2; ++j) {
      if ((round + j) % 2 == 0) {
        rc = run_lsk(bn, &k, plain, &count, &secs);
        if (!rc && round >= 2)
          bench_add(&r->lsk, secs);
        if (!rc && lb) {
          rc = run_lsk(bn, &k, "1", &count, &secs);
          if (!rc && round >= 2)
            bench_add(&lb->lsk, secs);
        }
      } else {
        double t0 = cli_now();
        size_t got = compact_c(k.x, k.n, k.ref);
        double t = cli_now() - t0;
        if (got != want)
          rc = cli_fail("bench", "compact: the C reference changed its count");
        else if (round >= 2) {
          bench_add(&r->ref, t);
          if (lb)
            bench_add(&lb->ref, t);
        }
      }
    }
  }
  bench_progress(bn, "compact", bn->repeat + 2, bn->repeat + 2);
  if (!rc)
    rc = check(bn, &k, count, want);
  if (!rc && lb)
    rc = run_lsk(bn, &k, plain, &count, &secs) || check(bn, &k, count, want);
  if (saved)
    setenv("LSK_COMPACT_LOOKBACK", saved, 1);
  else if (both)
    unsetenv("LSK_COMPACT_LOOKBACK");
  free(saved);
  teardown(&k);
  return rc;
}
