/*
 * bench/pixel.c: `lsk bench --only pixel`: the pixel clustering pipeline
 * (examples/pixel/pixel.h) against the single-threaded C reference on the
 * same generated events, interleaved run by run; the result is checked
 * against the reference before and after the timed runs. Also prints the
 * best time of each stage, from runs that wait after every stage.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

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
  lsk_pixel_destroy(px);
  lsk_pixel_result_destroy(got);
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(ev);
  return rc;
}
