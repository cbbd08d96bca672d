/*
 * bench_pixel.c: the pixel example's cases of `lsk bench` (bench/list.h;
 * compiled into the bench in lsk's tree, not in the examples' own build),
 * each checked against the C reference before and after it is timed:
 *   pixel    the clustering pipeline (pixel.h) against the single-threaded
 *            C reference on the same generated events, interleaved run by
 *            run; also prints the best time of each stage, from runs that
 *            wait after every stage; then the large-module path (modules
 *            of 1000 to 4000 digis, px_large) against the ordinary path
 *            (the same case's events) per digi, in M digis/s; and the
 *            pipeline on PU50 events (LSK_PIXEL_PRESET_PU50) against the
 *            C reference, in events per second;
 *   streams  the pipeline on the same generated events as batches over 2
 *            and over 4 streams (lsk_pixel_stream: a queue, a thread and an
 *            lsk_pixel each, uploads from pinned memory, every batch read
 *            back and gathered) against 1 stream, interleaved run by run,
 *            in events per second; the results against the C reference,
 *            and bit for bit the same for every stream count. Times are the
 *            host's wall clock from the first enqueue to the last wait;
 *            also printed: the median of the rounds' own ratios
 *            (bench_paired).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "pixel.h"

#define TOL 2e-5f

static int fail(bench *bn, const char *what)
{
  return cli_fail("bench", "pixel: %s: %s", what, lsk_context_errmsg(bn->ctx));
}

/* The device's results against the reference's (computed into want). */
static int same(bench *bn, lsk_pixel *px, const lsk_pixel_events *ev, lsk_pixel_result *got,
                lsk_pixel_result *want)
{
  if (lsk_pixel_read(px, got))
    return fail(bn, "read");
  if (lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want) || lsk_pixel_compare(want, got, TOL))
    return cli_fail("bench", "pixel: %s", lsk_context_errmsg(NULL));
  return 0;
}

/* splitmix64: the large set's randomness. */
static uint64_t mix(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A set of events whose modules all take the large-module path: 1000 to
 * 4000 digis each, in clusters of 1 to 8 pixels around random centres
 * (no pixel twice), in a random order. */
static lsk_pixel_events *large_set(uint32_t events, uint32_t modules)
{
  static uint8_t used[LSK_PIXEL_NX * LSK_PIXEL_NY];
  uint64_t st = 42;
  size_t nm = (size_t)events * modules, d = 0;
  uint32_t *n = malloc(nm * 4);
  for (size_t k = 0; n && k < nm; ++k)
    d += n[k] = 1000 + (uint32_t)(mix(&st) % 3001);
  lsk_pixel_events *ev = NULL;
  if (!n || lsk_pixel_events_create(events, modules, d, 0, &ev)) {
    free(n);
    return NULL;
  }
  size_t o = 0;
  for (size_t k = 0; k < nm; ++k) {
    memset(used, 0, sizeof used);
    ev->start[k] = (uint32_t)o;
    size_t a = o;
    while (o - a < n[k]) {
      int cx = (int)(mix(&st) % LSK_PIXEL_NX), cy = (int)(mix(&st) % LSK_PIXEL_NY);
      for (uint32_t j = 1 + (uint32_t)(mix(&st) % 8); j && o - a < n[k]; --j) {
        int x = cx + (int)(mix(&st) % 3) - 1, y = cy + (int)(mix(&st) % 3) - 1;
        if (x < 0 || y < 0 || x >= (int)LSK_PIXEL_NX || y >= (int)LSK_PIXEL_NY ||
            used[x * LSK_PIXEL_NY + y])
          continue;
        used[x * LSK_PIXEL_NY + y] = 1;
        ev->x[o] = (uint16_t)x;
        ev->y[o] = (uint16_t)y;
        ev->adc[o] = (uint16_t)(500 + mix(&st) % 3000);
        ev->module[o++] = (uint32_t)(k % modules);
      }
    }
    for (size_t i = n[k]; i > 1; --i) { /* the readout's order */
      size_t j = a + mix(&st) % i;
      uint16_t tx = ev->x[a + i - 1], ty = ev->y[a + i - 1], tq = ev->adc[a + i - 1];
      ev->x[a + i - 1] = ev->x[j];
      ev->y[a + i - 1] = ev->y[j];
      ev->adc[a + i - 1] = ev->adc[j];
      ev->x[j] = tx;
      ev->y[j] = ty;
      ev->adc[j] = tq;
    }
  }
  free(n);
  return ev;
}

/* The large-module path against the ordinary one per digi: the pipeline
 * on large_set's events, and on ev (the pixel case's, ordinary modules),
 * interleaved; the C reference on the large set printed alongside. */
static int bench_large(bench *bn, lsk_pixel *px, const lsk_pixel_events *ev)
{
  uint32_t le = bn->quick ? 2 : 8, lm = bn->quick ? 4 : 32;
  lsk_pixel_events *big = large_set(le, lm);
  lsk_pixel_result *got = NULL, *want = NULL;
  int rc = 0;
  if (!big || lsk_pixel_result_create(big, &got) || lsk_pixel_result_create(big, &want))
    rc = cli_fail("bench", "pixel large modules: %s", lsk_context_errmsg(NULL));
  if (!rc && lsk_pixel_run(px, big, NULL))
    rc = fail(bn, "run (large modules)");
  rc = rc || same(bn, px, big, got, want);
  char name[96];
  snprintf(name, sizeof name, "pixel large-module path (%u modules), per 10^6 digis", le * lm);
  /* Seconds per million digis (the table's ms then read as ns per digi);
   * work 1e9 makes the rate M digis/s. */
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "ordinary path (pixel case's events)",
                                    "pixel large vs ordinary", "M digis/s", 1e9);
  rc = rc || !r;
  samples ref = {.n = 0};
  for (unsigned i = 0; !rc && i < bn->repeat; ++i) {
    bench_progress(bn, "pixel large", i, bn->repeat);
    double t0 = cli_now();
    if (lsk_pixel_run(px, big, NULL))
      rc = fail(bn, "run (large modules)");
    double t1 = cli_now();
    if (!rc && lsk_pixel_run(px, ev, NULL))
      rc = fail(bn, "run");
    double t2 = cli_now();
    lsk_pixel_reference(big, LSK_PIXEL_THRESHOLD, want);
    bench_add(&ref, cli_now() - t2);
    bench_add(&r->lsk, 1e6 * (t1 - t0) / (double)big->digis);
    bench_add(&r->ref, 1e6 * (t2 - t1) / (double)ev->digis);
  }
  bench_progress(bn, "pixel large", bn->repeat, bn->repeat);
  /* px ran ev last: the large set again, checked. */
  if (!rc && lsk_pixel_run(px, big, NULL))
    rc = fail(bn, "run (large modules)");
  rc = rc || same(bn, px, big, got, want);
  if (!rc)
    printf("pixel large modules: %.1f ns per digi (best), ordinary modules %.1f; the C reference "
           "on the large modules %.1f ns per digi\n",
           1e3 * bench_best(&r->lsk), 1e3 * bench_best(&r->ref),
           1e9 * bench_best(&ref) / (double)big->digis);
  lsk_pixel_result_destroy(got);
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(big);
  return rc;
}

/* The pipeline on PU50 events against the C reference, interleaved. */
static int bench_pu50(bench *bn, lsk_pixel *px)
{
  lsk_pixel_gen_options g = {
      .events = bn->quick ? 2 : 20, .seed = 1, .preset = LSK_PIXEL_PRESET_PU50};
  lsk_pixel_events *ev = NULL;
  lsk_pixel_result *got = NULL, *want = NULL;
  int rc = 0;
  if (lsk_pixel_generate(&g, &ev) || lsk_pixel_result_create(ev, &got) ||
      lsk_pixel_result_create(ev, &want))
    rc = cli_fail("bench", "pixel PU50: %s", lsk_context_errmsg(NULL));
  if (!rc && lsk_pixel_run(px, ev, NULL))
    rc = fail(bn, "run (PU50)");
  rc = rc || same(bn, px, ev, got, want);
  char name[96];
  snprintf(name, sizeof name, "pixel pipeline, PU50: %u events x 1856 modules", g.events);
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C reference, 1 thread", "pixel PU50",
                                    "k events/s", 1e6 * g.events);
  rc = rc || !r;
  for (unsigned i = 0; !rc && i < bn->repeat; ++i) {
    bench_progress(bn, "pixel PU50", i, bn->repeat);
    double t0 = cli_now();
    if (lsk_pixel_run(px, ev, NULL))
      rc = fail(bn, "run (PU50)");
    double t1 = cli_now();
    lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want);
    bench_add(&r->lsk, t1 - t0);
    bench_add(&r->ref, cli_now() - t1);
  }
  bench_progress(bn, "pixel PU50", bn->repeat, bn->repeat);
  rc = rc || same(bn, px, ev, got, want);
  if (!rc)
    printf("pixel PU50: %zu digis, %zu hits in %u events (%.0f hits per event)\n", ev->digis,
           got->nhits, g.events, (double)got->nhits / g.events);
  lsk_pixel_result_destroy(got);
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(ev);
  return rc;
}

int bench_case_pixel(bench *bn)
{
  lsk_pixel_gen_options g = {
      .events = bn->quick ? 8 : 200, .modules = bn->quick ? 128 : 512, .seed = 1};
  lsk_pixel_events *ev = NULL;
  lsk_pixel_result *got = NULL, *want = NULL;
  lsk_pixel *px = NULL;
  int rc = 0;
  if (lsk_pixel_generate(&g, &ev) || lsk_pixel_result_create(ev, &got) ||
      lsk_pixel_result_create(ev, &want))
    rc = cli_fail("bench", "pixel: %s", lsk_context_errmsg(NULL));
  if (!rc && lsk_pixel_create(bn->ctx, NULL, &px))
    rc = fail(bn, "create");
  /* A checked run first (it allocates), then the timed ones. */
  if (!rc && lsk_pixel_run(px, ev, NULL))
    rc = fail(bn, "run");
  rc = rc || same(bn, px, ev, got, want);
  char name[64];
  snprintf(name, sizeof name, "pixel pipeline, %u events x %u modules", g.events, g.modules);
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C reference, 1 thread", "pixel events",
                                    "k events/s", 1e6 * g.events);
  rc = rc || !r;
  lsk_pixel_times best = {0}, t;
  for (unsigned i = 0; !rc && i < bn->repeat; ++i) {
    bench_progress(bn, "pixel", i, bn->repeat);
    double t0 = cli_now();
    if (lsk_pixel_run(px, ev, NULL)) {
      rc = fail(bn, "run");
      break;
    }
    double t1 = cli_now();
    lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want);
    bench_add(&r->lsk, t1 - t0);
    bench_add(&r->ref, cli_now() - t1);
    if (lsk_pixel_run(px, ev, &t)) {
      rc = fail(bn, "run");
      break;
    }
    if (i == 0 || t.total < best.total)
      best = t;
  }
  bench_progress(bn, "pixel", bn->repeat, bn->repeat);
  rc = rc || same(bn, px, ev, got, want);
  if (!rc)
    printf("pixel stages (best run that waits after each), us per event: upload %.1f, cluster and "
           "charge %.1f, scans %.1f, hits %.1f, association %.1f; %zu digis, %zu clusters, %zu "
           "hits; %s lookup\n",
           1e6 * best.upload / g.events, 1e6 * best.cluster / g.events,
           1e6 * best.charge / g.events, 1e6 * best.hits / g.events, 1e6 * best.assoc / g.events,
           ev->digis, got->clusters, got->nhits,
           lsk_pixel_lookup(px) == LSK_PIXEL_LOOKUP_GRID ? "grid" : "hash");
  rc = rc || bench_large(bn, px, ev);
  rc = rc || bench_pu50(bn, px);
  lsk_pixel_destroy(px);
  lsk_pixel_result_destroy(got);
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(ev);
  return rc;
}

/* ---- streams ---- */

static const unsigned stream_counts[] = {1, 2, 4};
#define NSTREAMS (sizeof stream_counts / sizeof stream_counts[0])

static double stream_time(bench *bn, lsk_pixel_stream *s, const lsk_pixel_events *ev,
                          lsk_pixel_result *r, int *rc)
{
  double t0 = cli_now();
  if (!*rc && lsk_pixel_stream_run(s, ev, r))
    *rc = cli_fail("bench", "streams: %s", lsk_context_errmsg(bn->ctx));
  return cli_now() - t0;
}

/* Every stream count's results: the C reference's, and the first's bit
 * for bit. */
static int stream_check(bench *bn, lsk_pixel_stream *const *s, const lsk_pixel_events *ev,
                        lsk_pixel_result *const *got, const lsk_pixel_result *want)
{
  int rc = 0;
  for (size_t i = 0; i < NSTREAMS && !rc; ++i) {
    stream_time(bn, s[i], ev, got[i], &rc);
    if (!rc && lsk_pixel_compare(want, got[i], TOL))
      rc = cli_fail("bench", "streams: %u streams: %s", stream_counts[i], lsk_context_errmsg(NULL));
    const lsk_pixel_result *a = got[0], *b = got[i];
    if (!rc && (a->clusters != b->clusters || a->nhits != b->nhits ||
                memcmp(a->clus, b->clus, a->digis * 4) || memcmp(a->hit, b->hit, a->clusters * 4) ||
                memcmp(a->hits, b->hits, a->nhits * sizeof *a->hits)))
      rc = cli_fail("bench", "streams: %u streams differ from 1", stream_counts[i]);
  }
  return rc;
}

int bench_case_streams(bench *bn)
{
  lsk_pixel_gen_options g = {
      .events = bn->quick ? 8 : 200, .modules = bn->quick ? 128 : 512, .seed = 1};
  uint32_t batch = bn->quick ? 2 : LSK_PIXEL_BATCH_EVENTS;
  lsk_pixel_events *ev = NULL;
  lsk_pixel_result *want = NULL, *got[NSTREAMS] = {NULL};
  lsk_pixel_stream *s[NSTREAMS] = {NULL};
  int rc = 0;
  if (lsk_pixel_generate(&g, &ev) || lsk_pixel_result_create(ev, &want) ||
      lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want))
    rc = cli_fail("bench", "streams: %s", lsk_context_errmsg(NULL));
  for (size_t i = 0; i < NSTREAMS && !rc; ++i) {
    lsk_pixel_stream_options so = {.streams = stream_counts[i], .batch_events = batch};
    if (lsk_pixel_result_create(ev, &got[i]))
      rc = cli_fail("bench", "streams: %s", lsk_context_errmsg(NULL));
    else if (lsk_pixel_stream_create(bn->ctx, &so, &s[i]))
      rc = cli_fail("bench", "streams: %s", lsk_context_errmsg(bn->ctx));
  }
  /* Checked runs first (they allocate), then the timed ones. */
  rc = rc || stream_check(bn, s, ev, got, want);
  result *r[NSTREAMS] = {NULL};
  for (size_t i = 1; i < NSTREAMS && !rc; ++i) {
    char name[64], label[64];
    snprintf(name, sizeof name, "pixel, %u streams (+ read)", stream_counts[i]);
    snprintf(label, sizeof label, "pixel %u streams vs 1", stream_counts[i]);
    r[i] = bench_new_result(bn, KIND_RATE, name, "1 stream, same batches", label, "k events/s",
                            1e6 * g.events);
    rc = !r[i];
  }
  samples one = {.n = 0};
  for (unsigned k = 0; k < bn->repeat && !rc; ++k) {
    bench_progress(bn, "pixel streams", k, bn->repeat);
    /* A different stream count first in each round: no order is favoured. */
    for (size_t j = 0; j < NSTREAMS && !rc; ++j) {
      size_t i = (j + k) % NSTREAMS;
      double t = stream_time(bn, s[i], ev, got[i], &rc);
      if (i == 0)
        bench_add(&one, t);
      else
        bench_add(&r[i]->lsk, t);
    }
  }
  for (size_t i = 1; i < NSTREAMS && !rc; ++i)
    r[i]->ref = one;
  bench_progress(bn, "pixel streams", bn->repeat, bn->repeat);
  rc = rc || stream_check(bn, s, ev, got, want);
  if (!rc) {
    printf("pixel streams: %u events x %u modules in batches of %u events, results read back; "
           "events/s best (median):",
           g.events, g.modules, batch);
    for (size_t i = 0; i < NSTREAMS; ++i) {
      const samples *x = i == 0 ? &one : &r[i]->lsk;
      printf(" %u stream%s %.0f (%.0f)%s", stream_counts[i], i ? "s" : "", g.events / bench_best(x),
             g.events / bench_median(x), i + 1 < NSTREAMS ? "," : "\n");
    }
    printf("pixel streams: the rounds' ratios to 1 stream, median: 2 streams %.3f, 4 streams "
           "%.3f\n",
           bench_paired(&one, &r[1]->lsk), bench_paired(&one, &r[2]->lsk));
  }
  for (size_t i = 0; i < NSTREAMS; ++i) {
    lsk_pixel_stream_destroy(s[i]);
    lsk_pixel_result_destroy(got[i]);
  }
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(ev);
  return rc;
}
