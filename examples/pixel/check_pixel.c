/*
 * check_pixel.c: the pixel clustering example (examples/pixel/pixel.h,
 * examples/pixel/pixel.cl). Hand-made modules whose clusters are worked out by
 * hand (a single pixel, an L, two squares touching only at a corner, an
 * empty module, pixels on the module's edges, a module at the maximum digi
 * count), in the C reference and on the device at several shapes; the
 * device against the C reference on generated events of fixed seeds; the
 * generator's determinism; event files (round trip, corrupt files); bad
 * arguments. The queue option (every command on it, its waits its own)
 * and the streams (batches over several queues and threads: the same
 * results as one run, whatever the streams and the batches). Suite
 * grind_pixel: the hand-made modules and a small generated event, for
 * oclgrind.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pixel.h"
#include "testing.h"
#include "pixel_suites.h"
#include "pixel_internal.h" /* px_module_local */

#define TOL 2e-5f /* cm: float rounding of positions up to 20 cm */

/* The hand-made event: one module per case. */
enum { M_SINGLE, M_L, M_DIAG, M_EMPTY, M_MAX, M_EDGE, NMOD };

static const uint16_t l_px[][3] = {{20, 20, 1000}, {5, 7, 1000}, {7, 7, 1000},
                                   {5, 5, 1000},   {6, 7, 1000}, {5, 6, 1000}};
static const uint32_t l_want[] = {0, 1, 1, 1, 1, 1};
static const uint16_t diag_px[][3] = {{30, 30, 900}, {12, 12, 900}, {11, 11, 900}, {31, 32, 900},
                                      {13, 13, 900}, {10, 10, 900}, {12, 13, 900}, {11, 10, 900},
                                      {13, 12, 900}, {10, 11, 900}};
static const uint32_t diag_want[] = {0, 1, 1, 2, 1, 1, 1, 1, 1, 1};
/* (1, 0) and (0, NY - 1) would be neighbours if y wrapped around. */
static const uint16_t edge_px[][3] = {{1, 0, 4000},
                                      {0, LSK_PIXEL_NY - 1, 4000},
                                      {LSK_PIXEL_NX - 1, LSK_PIXEL_NY - 1, 4000},
                                      {LSK_PIXEL_NX - 1, 0, 4000}};
static const uint32_t edge_want[] = {0, 1, 2, 3};

/* Two 16 x 8 blocks one row apart (256 digis, two clusters), shuffled;
 * want[i] is the block of digi i's, numbered by first appearance. */
static void max_module(uint16_t px[][3], uint32_t *want)
{
  for (uint32_t i = 0; i < LSK_PIXEL_BLOCK_DIGIS; ++i) {
    uint32_t b = i / 128, j = i % 128;
    px[i][0] = (uint16_t)(40 + j % 16);
    px[i][1] = (uint16_t)(100 + j / 16 + 9 * b);
    px[i][2] = 100;
  }
  uint64_t s = 99;
  for (uint32_t i = LSK_PIXEL_BLOCK_DIGIS; i > 1; --i) {
    uint32_t j = ex_rng(&s) % i;
    for (int c = 0; c < 3; ++c) {
      uint16_t t = px[i - 1][c];
      px[i - 1][c] = px[j][c];
      px[j][c] = t;
    }
  }
  uint32_t first_block = px[0][1] >= 109;
  for (uint32_t i = 0; i < LSK_PIXEL_BLOCK_DIGIS; ++i)
    want[i] = (uint32_t)(px[i][1] >= 109) != first_block;
}

typedef struct hand {
  lsk_pixel_events *ev;
  uint32_t want[LSK_PIXEL_BLOCK_DIGIS + 32];
  uint32_t nclus[NMOD];
} hand;

static void hand_make(hand *h)
{
  static uint16_t mx[LSK_PIXEL_BLOCK_DIGIS][3];
  uint32_t mwant[LSK_PIXEL_BLOCK_DIGIS];
  max_module(mx, mwant);
  const struct {
    const uint16_t (*px)[3];
    const uint32_t *want;
    uint32_t n, nclus;
  } mod[NMOD] = {
      [M_SINGLE] = {(const uint16_t[][3]){{3, 4, 5000}}, (const uint32_t[]){0}, 1, 1},
      [M_L] = {l_px, l_want, 6, 2},
      [M_DIAG] = {diag_px, diag_want, 10, 3},
      [M_EMPTY] = {NULL, NULL, 0, 0},
      [M_MAX] = {(const uint16_t(*)[3])mx, mwant, LSK_PIXEL_BLOCK_DIGIS, 2},
      [M_EDGE] = {edge_px, edge_want, 4, 4},
  };
  size_t d = 0;
  for (int m = 0; m < NMOD; ++m)
    d += mod[m].n;
  ck_assert_int_eq(lsk_pixel_events_create(1, NMOD, d, 0, &h->ev), LSK_OK);
  size_t i = 0;
  for (uint32_t m = 0; m < NMOD; ++m) {
    h->ev->start[m] = (uint32_t)i;
    h->nclus[m] = mod[m].nclus;
    for (uint32_t j = 0; j < mod[m].n; ++j, ++i) {
      h->ev->x[i] = mod[m].px[j][0];
      h->ev->y[i] = mod[m].px[j][1];
      h->ev->adc[i] = mod[m].px[j][2];
      h->ev->module[i] = m;
      h->want[i] = mod[m].want[j];
    }
  }
  ck_assert_int_eq(lsk_pixel_events_check(h->ev), LSK_OK);
}

/* The hand-worked answers in r: clusters, charges, masks, some hits. */
static void hand_check(const hand *h, const lsk_pixel_result *r)
{
  for (size_t i = 0; i < h->ev->digis; ++i)
    ck_assert_msg(r->clus[i] == h->want[i], "digi %zu: cluster %u, want %u", i, r->clus[i],
                  h->want[i]);
  uint32_t first = 0;
  for (int m = 0; m < NMOD; ++m) {
    ck_assert_uint_eq(r->nclus[m], h->nclus[m]);
    ck_assert_uint_eq(r->clus_start[m], first);
    first += h->nclus[m];
  }
  ck_assert_uint_eq(r->clus_start[NMOD], first);
  /* Clusters: single (5000), L: isolated 1000 (masked), L 5000; diag:
   * 900 (masked), 8 * 900 = 7200, 900 (masked); max: 2 x 12800; edge: 4
   * x 4000 (at the threshold: kept). */
  static const uint32_t q[] = {5000,  1000,  5000, 900,  7200, 900,
                               12800, 12800, 4000, 4000, 4000, 4000};
  static const int hit[] = {0, -1, 1, -1, 2, -1, 3, 4, 5, 6, 7, 8};
  ck_assert_uint_eq(r->clusters, 12);
  ck_assert_uint_eq(r->nhits, 9);
  for (int c = 0; c < 12; ++c) {
    ck_assert_uint_eq(r->charge[c], q[c]);
    ck_assert_int_eq((int)r->hit[c], hit[c]);
  }
  /* The single pixel (3, 4): its centre, spread 1/sqrt(12) pitch. */
  const lsk_pixel_hit *s = &r->hits[0];
  ck_assert_float_eq_tol(s->x, (3.5f - 80.0f) * LSK_PIXEL_PITCH_X, TOL);
  ck_assert_float_eq_tol(s->y, (4.5f - 208.0f) * LSK_PIXEL_PITCH_Y, TOL);
  ck_assert_float_eq_tol(s->xerr, 0.28867513f * LSK_PIXEL_PITCH_X, TOL);
  /* A 16 x 8 block of equal charges: centre (47.5 + .5, ...), variance
   * (16^2 - 1) / 12 + 1/12 = 256 / 12 in x. */
  const lsk_pixel_hit *b = &r->hits[3];
  float yc = b->y / LSK_PIXEL_PITCH_Y + 208.0f;
  ck_assert_float_eq_tol(b->x, (48.0f - 80.0f) * LSK_PIXEL_PITCH_X, TOL);
  ck_assert(fabsf(yc - 104.0f) < 1e-3f || fabsf(yc - 113.0f) < 1e-3f);
  ck_assert_float_eq_tol(b->xerr, sqrtf(256.0f / 12.0f) * LSK_PIXEL_PITCH_X, TOL);
  ck_assert_uint_eq(r->hit_start[M_MAX], 3);
  ck_assert_uint_eq(r->hit_start[NMOD], 9);
  ck_assert_uint_eq(r->hits[8].module, M_EDGE);
  ck_assert_uint_eq(r->hits[8].cluster, 11);
}

START_TEST(test_pixel_reference_hand_made)
{
  hand h;
  hand_make(&h);
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(h.ev, &r), LSK_OK);
  ck_assert_int_eq(lsk_pixel_reference(h.ev, LSK_PIXEL_THRESHOLD, r), LSK_OK);
  hand_check(&h, r);
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(h.ev);
}
END_TEST

/* Whether a create failed only because the device has too little local
 * memory for the grid lookup (llvmpipe, oclgrind's default): a skip. */
static int grid_too_big(lsk_context *ctx, int rc)
{
  return ex_skip_on(ctx, rc, LSK_ELAUNCH, "the grid lookup needs");
}

/* The device's results on ev at a shape, compared with the reference's;
 * 0 where the shape is past the device's limits (ex_over_limits, or the
 * grid lookup's local memory). */
/* 0 in grind_pixel: no cluster sizes there (suite grind_pixel_sizes has
 * them). oclgrind 21.10's uninitialized-value check takes the digis'
 * cluster ids (px_module's, right: they equal C's) for uninitialized where
 * px_cluster_ids reads them, though px_module's own stores of them pass;
 * grind_pixel_sizes runs under its race and bounds checks only. */
static int with_sizes = 1;

static int device_run(lsk_context *ctx, const lsk_pixel_options *opt, const lsk_pixel_events *ev,
                      lsk_pixel_result *got, int timed)
{
  lsk_pixel *px = NULL;
  lsk_pixel_result *want = NULL;
  int rc = lsk_pixel_create(ctx, opt, &px);
  if (ex_over_limits(ctx, rc) || grid_too_big(ctx, rc))
    return 0;
  EX_OK(ctx, rc);
  if (opt->lookup)
    ck_assert_uint_eq(lsk_pixel_lookup(px), opt->lookup);
  /* What px says it uses: the threshold asked for (0: the default), the
   * shape asked for, and blocks at least 1. */
  ck_assert_uint_eq(lsk_pixel_threshold(px), opt->threshold ? opt->threshold : LSK_PIXEL_THRESHOLD);
  unsigned sw, ss;
  size_t sb;
  EX_OK(ctx, lsk_pixel_shape(px, &sw, &ss, &sb));
  if (opt->workers)
    ck_assert_uint_eq(sw, opt->workers);
  if (opt->simd)
    ck_assert_uint_eq(ss, opt->simd);
  ck_assert(opt->blocks ? sb == opt->blocks : sb >= 1);
  lsk_pixel_times t;
  rc = lsk_pixel_run(px, ev, timed ? &t : NULL);
  if (ex_over_limits(ctx, rc)) {
    lsk_pixel_destroy(px);
    return 0;
  }
  EX_OK(ctx, rc);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
  ck_assert_int_eq(
      lsk_pixel_reference(ev, opt->threshold ? opt->threshold : LSK_PIXEL_THRESHOLD, want), LSK_OK);
  /* (Before lsk_pixel_read: oclgrind 21.10 takes a buffer that was mapped
   * and unmapped for its host stores to be uninitialized.) */
  /* The cluster sizes counted on the device, against the C reference's
   * clusters: a few bins (sizes past the last counted together) and many. */
  static const uint32_t bins[] = {2, 300};
  for (size_t b = 0; with_sizes && b < sizeof bins / sizeof bins[0]; ++b) {
    uint32_t dev_counts[301], ref_counts[301];
    EX_OK(ctx, lsk_pixel_cluster_sizes(px, bins[b], dev_counts));
    EX_OK(NULL, lsk_pixel_reference_sizes(ev, want, bins[b], ref_counts));
    for (uint32_t i = 0; i <= bins[b]; ++i)
      ck_assert_msg(dev_counts[i] == ref_counts[i], "cluster sizes, %u bins: bin %u is %u, C %u",
                    bins[b], i, dev_counts[i], ref_counts[i]);
    ck_assert_uint_eq(dev_counts[0], 0);
  }
  EX_OK(ctx, lsk_pixel_read(px, got));
  rc = lsk_pixel_compare(want, got, TOL);
  ck_assert_msg(rc == LSK_OK, "workers %u simd %u lookup %u: %s", opt->workers, opt->simd,
                lsk_pixel_lookup(px), lsk_context_errmsg(NULL));
  ck_assert_ptr_nonnull(lsk_pixel_assoc(px));
  if (timed)
    ck_assert(t.total > 0 && t.cluster > 0 && t.assoc > 0);
  lsk_pixel_result_destroy(want);
  lsk_pixel_destroy(px);
  return 1;
}

/* Shapes: automatic; one worker; one index per worker in 4 steps (the GPU
 * mapping); 8 workers of 4 in 8 steps; each lookup with one worker and
 * with several (the automatic one is the grid on PoCL, the hash on GPUs
 * and llvmpipe). */
static const lsk_pixel_options shapes[] = {
    {0},
    {.workers = 1, .lookup = LSK_PIXEL_LOOKUP_HASH},
    {.workers = 64, .simd = 1, .lookup = LSK_PIXEL_LOOKUP_GRID},
    {.workers = 8, .simd = 4, .blocks = 3, .lookup = LSK_PIXEL_LOOKUP_HASH},
    {.workers = 1, .lookup = LSK_PIXEL_LOOKUP_GRID}};

START_TEST(test_pixel_device_hand_made)
{
  lsk_context *ctx = ex_context();
  hand h;
  hand_make(&h);
  lsk_pixel_result *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(h.ev, &got), LSK_OK);
  if (device_run(ctx, &shapes[_i], h.ev, got, _i == 0))
    hand_check(&h, got);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(h.ev);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_pixel_device_matches_reference)
{
  lsk_context *ctx = ex_context();
  lsk_pixel_events *ev = NULL;
  lsk_pixel_gen_options g = {.events = 3, .modules = 96, .seed = 2024u + (uint64_t)_i};
  ck_assert_int_eq(lsk_pixel_generate(&g, &ev), LSK_OK);
  lsk_pixel_result *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  lsk_pixel_options o = shapes[_i];
  o.threshold = _i == 2 ? 9000 : 0;
  if (device_run(ctx, &o, ev, got, 0)) {
    ck_assert_uint_gt(got->nhits, 100);
    ck_assert_uint_lt(got->nhits, got->clusters); /* some masked */
  }
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(ev);
  lsk_context_destroy(ctx);
}
END_TEST

/* One handle over sets of different sizes: grows, and keeps the right
 * totals when the set shrinks again. */
START_TEST(test_pixel_device_reuse)
{
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  uint32_t sizes[][2] = {{1, 40}, {4, 200}, {2, 16}};
  for (int k = 0; k < 3; ++k) {
    lsk_pixel_events *ev = NULL;
    lsk_pixel_gen_options g = {.events = sizes[k][0], .modules = sizes[k][1], .seed = (uint64_t)k};
    ck_assert_int_eq(lsk_pixel_generate(&g, &ev), LSK_OK);
    lsk_pixel_result *got = NULL, *want = NULL;
    ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
    ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
    int rc = lsk_pixel_run(px, ev, NULL);
    if (ex_over_limits(ctx, rc)) {
      lsk_pixel_result_destroy(got);
      lsk_pixel_result_destroy(want);
      lsk_pixel_events_destroy(ev);
      break;
    }
    EX_OK(ctx, rc);
    EX_OK(ctx, lsk_pixel_read(px, got));
    ck_assert_int_eq(lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want), LSK_OK);
    ck_assert_msg(lsk_pixel_compare(want, got, TOL) == LSK_OK, "%s", lsk_context_errmsg(NULL));
    lsk_pixel_result_destroy(got);
    lsk_pixel_result_destroy(want);
    lsk_pixel_events_destroy(ev);
  }
  lsk_pixel_destroy(px);
  lsk_context_destroy(ctx);
}
END_TEST

/* The same seed, the same events; the mix the generator promises. */
START_TEST(test_pixel_generator)
{
  lsk_pixel_events *a = NULL, *b = NULL, *c = NULL;
  lsk_pixel_gen_options g = {.events = 2, .modules = 300, .seed = 7};
  ck_assert_int_eq(lsk_pixel_generate(&g, &a), LSK_OK);
  ck_assert_int_eq(lsk_pixel_generate(&g, &b), LSK_OK);
  g.seed = 8;
  ck_assert_int_eq(lsk_pixel_generate(&g, &c), LSK_OK);
  ck_assert_uint_eq(a->digis, b->digis);
  ck_assert_int_eq(memcmp(a->x, b->x, a->digis * 2), 0);
  ck_assert_int_eq(memcmp(a->adc, b->adc, a->digis * 2), 0);
  ck_assert_int_eq(memcmp(a->truth, b->truth, a->digis * 4), 0);
  ck_assert(c->digis != a->digis || memcmp(a->x, c->x, a->digis * 2) != 0);
  ck_assert_int_eq(lsk_pixel_events_check(a), LSK_OK);
  size_t empty = 0, full = 0, most = 0;
  for (size_t k = 0; k < 600; ++k) {
    size_t n = a->start[k + 1] - a->start[k];
    empty += n == 0;
    full += n == LSK_PIXEL_BLOCK_DIGIS;
    most = n > most ? n : most;
  }
  ck_assert_uint_gt(empty, 20);
  ck_assert_uint_gt(full, 0);
  ck_assert_uint_gt(a->digis, 600 * 5);
  /* The reference finds about as many clusters as were made (merges of
   * neighbouring true clusters aside). */
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(a, &r), LSK_OK);
  ck_assert_int_eq(lsk_pixel_reference(a, LSK_PIXEL_THRESHOLD, r), LSK_OK);
  size_t truth = 0;
  for (size_t k = 0; k < 600; ++k) {
    uint32_t t = 0;
    for (uint32_t i = a->start[k]; i < a->start[k + 1]; ++i)
      t = a->truth[i] + 1 > t ? a->truth[i] + 1 : t;
    truth += t;
  }
  ck_assert_uint_le(r->clusters, truth);
  ck_assert_uint_ge(r->clusters * 10, truth * 9);
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(a);
  lsk_pixel_events_destroy(b);
  lsk_pixel_events_destroy(c);
}
END_TEST

static void temp_path(char *path, size_t cap, const char *name)
{
  const char *dir = getenv("TMPDIR");
  snprintf(path, cap, "%s/lsk-pixel-%ld-%s", dir && *dir ? dir : "/tmp", (long)getpid(), name);
}

static void write_bytes(const char *path, const unsigned char *b, size_t n)
{
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(b, 1, n, f), n);
  ck_assert_int_eq(fclose(f), 0);
}

static unsigned char *read_bytes(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*n);
  ck_assert_uint_eq(fread(b, 1, *n, f), *n);
  fclose(f);
  return b;
}

START_TEST(test_pixel_file_round_trip_and_corrupt)
{
  char path[512], bad[512];
  temp_path(path, sizeof path, "ok.px");
  temp_path(bad, sizeof bad, "bad.px");
  lsk_pixel_events *a = NULL, *b = NULL;
  ck_assert_int_eq(lsk_pixel_generate(&(lsk_pixel_gen_options){.events = 3, .modules = 20}, &a),
                   LSK_OK);
  ck_assert_int_eq(lsk_pixel_events_write(a, path), LSK_OK);
  ck_assert_int_eq(lsk_pixel_events_read(path, &b), LSK_OK);
  ck_assert_uint_eq(b->events, 3);
  ck_assert_uint_eq(b->modules, 20);
  ck_assert_uint_eq(b->digis, a->digis);
  ck_assert_int_eq(memcmp(a->start, b->start, (3 * 20 + 1) * 4), 0);
  ck_assert_int_eq(memcmp(a->x, b->x, a->digis * 2), 0);
  ck_assert_int_eq(memcmp(a->y, b->y, a->digis * 2), 0);
  ck_assert_int_eq(memcmp(a->adc, b->adc, a->digis * 2), 0);
  ck_assert_int_eq(memcmp(a->module, b->module, a->digis * 4), 0);
  ck_assert_int_eq(memcmp(a->truth, b->truth, a->digis * 4), 0);
  lsk_pixel_events_destroy(b);
  b = NULL;
  size_t n, d = a->digis;
  unsigned char *f = read_bytes(path, &n);
  unsigned char *c = malloc(n + 1);
  /* Each corruption, and the words the message must hold. */
  struct {
    size_t at;
    unsigned char v;
    long cut;
    const char *msg;
  } bad_cases[] = {
      {0, 'X', 0, "not a pixel event file"},
      {8, 3, 0, "version 3, this lsk reads versions 1 to 2"},
      {12, 0, 0, "0 events of 20 modules"},
      {18, 0xff, 0, "out of range"},
      {32, 7, 0, "modules of 7x416 pixels"},
      {0, 0, -1, "truncated"},
      {0, 0, 1, "too long"},
      {40, 0, 0, "the events' counts sum to"},
      /* The first digi's x, then the second's y: outside, or a repeat. */
      {40 + 12 + 4 * d + 1, 0xff, 0, "outside 160x416"},
      {40 + 12 + 4 * (d - 1), 0, 0, "after module"},
  };
  for (size_t k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; ++k) {
    memcpy(c, f, n);
    size_t len = n + (size_t)bad_cases[k].cut;
    if (bad_cases[k].cut == 0)
      c[bad_cases[k].at] = bad_cases[k].v;
    else if (bad_cases[k].cut > 0)
      c[n] = 0;
    write_bytes(bad, c, len);
    int rc = lsk_pixel_events_read(bad, &b);
    ck_assert_msg(rc == LSK_EIO, "case %zu: %s", k, lsk_status_name(rc));
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(lsk_context_errmsg(NULL), bad_cases[k].msg), "case %zu: '%s' lacks '%s'",
                  k, lsk_context_errmsg(NULL), bad_cases[k].msg);
    ck_assert(strstr(lsk_context_errmsg(NULL), bad) != NULL);
  }
  /* Two digis of one module on the same pixel. */
  memcpy(c, f, n);
  size_t k0 = 0;
  while (a->start[k0 + 1] < a->start[k0] + 2)
    ++k0;
  size_t i0 = a->start[k0];
  memcpy(c + 40 + 12 + 4 * d + 2 * (i0 + 1), c + 40 + 12 + 4 * d + 2 * i0, 2);
  memcpy(c + 40 + 12 + 6 * d + 2 * (i0 + 1), c + 40 + 12 + 6 * d + 2 * i0, 2);
  write_bytes(bad, c, n);
  ck_assert_int_eq(lsk_pixel_events_read(bad, &b), LSK_EIO);
  ck_assert_msg(strstr(lsk_context_errmsg(NULL), "repeats digi 0"), "%s", lsk_context_errmsg(NULL));
  /* No file, a NULL. */
  unlink(bad);
  ck_assert_int_eq(lsk_pixel_events_read(bad, &b), LSK_EIO);
  ck_assert(strstr(lsk_context_errmsg(NULL), "cannot open") != NULL);
  ck_assert_int_eq(lsk_pixel_events_read(NULL, &b), LSK_EINVAL);
  ck_assert_int_eq(lsk_pixel_events_write(a, NULL), LSK_EINVAL);
  unlink(path);
  free(c);
  free(f);
  lsk_pixel_events_destroy(a);
}
END_TEST

START_TEST(test_pixel_bad_arguments)
{
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  lsk_pixel_events *ev = NULL;
  EX_FAILS(NULL, lsk_pixel_create(NULL, NULL, &px), LSK_EINVAL, "ctx is NULL");
  EX_FAILS(NULL, lsk_pixel_events_create(0, 4, 0, 0, &ev), LSK_EINVAL, "0 events");
  EX_FAILS(NULL, lsk_pixel_events_create(1, 2, 8193, 0, &ev), LSK_EINVAL, "8193 digis");
  ck_assert_int_eq(lsk_pixel_events_create(1, 2, 3, 0, &ev), LSK_OK);
  ev->start[1] = ev->start[2] = 3;
  for (int i = 0; i < 3; ++i) {
    ev->x[i] = (uint16_t)i;
    ev->adc[i] = 10;
  }
  ck_assert_int_eq(lsk_pixel_events_check(ev), LSK_OK);
  ev->module[1] = 1;
  EX_FAILS(NULL, lsk_pixel_events_check(ev), LSK_EINVAL, "digi 1 says module 1");
  ev->module[1] = 0;
  ev->x[2] = 0;
  EX_FAILS(NULL, lsk_pixel_events_check(ev), LSK_EINVAL, "digi 2 at (0, 0) repeats digi 0");
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_FAILS(ctx, lsk_pixel_read(px, NULL), LSK_EINVAL, "r is NULL");
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &r), LSK_OK);
  EX_FAILS(ctx, lsk_pixel_read(px, r), LSK_EINVAL, "no run to read");
  uint32_t counts[9];
  EX_FAILS(ctx, lsk_pixel_cluster_sizes(px, 8, counts), LSK_EINVAL, "no run to count");
  EX_FAILS(ctx, lsk_pixel_cluster_sizes(px, 1, counts), LSK_EINVAL, "nbins is not 2 to 65536");
  EX_FAILS(ctx, lsk_pixel_cluster_sizes(px, 8, NULL), LSK_EINVAL, "counts is NULL");
  ev->start[1] = 0;
  ev->start[2] = 4097;
  EX_FAILS(ctx, lsk_pixel_run(px, ev, NULL), LSK_EINVAL,
           "lsk_pixel_run: event 0 module 1: 4097 digis, more than 4096 (digis 0 to 4097)");
  EX_FAILS(NULL, lsk_pixel_run(NULL, ev, NULL), LSK_EINVAL, "px is NULL");
  EX_FAILS(NULL, lsk_pixel_reference(ev, 1, NULL), LSK_EINVAL, "r is NULL");
  lsk_pixel_result_destroy(r);
  lsk_pixel_destroy(px);
  lsk_pixel_events_destroy(ev);
  lsk_context_destroy(ctx);
}
END_TEST

/* px_module's local memory as the device reports it (CL_KERNEL_LOCAL_MEM_SIZE)
 * with the hash lookup (the one for GPUs): at most 32 KiB, the least among
 * lsk's devices (llvmpipe; NVIDIA gives a block 48 KiB): it was 25744
 * bytes on PoCL and 51488 on rusticl (which reports twice what a kernel
 * declares), and lsk refused the launch on llvmpipe. At the automatic
 * shape, one worker, and one index per worker (32: llvmpipe's most; 256:
 * a GPU's automatic shape, the most scratch). */
START_TEST(test_pixel_module_local_memory)
{
  enum { H = LSK_PIXEL_LOOKUP_HASH };
  static const lsk_pixel_options o[] = {{.lookup = H},
                                        {.workers = 1, .lookup = H},
                                        {.workers = 32, .simd = 1, .lookup = H},
                                        {.workers = 256, .simd = 1, .lookup = H}};
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  int rc = lsk_pixel_create(ctx, &o[_i], &px);
  if (!ex_over_limits(ctx, rc)) {
    EX_OK(ctx, rc);
    uint64_t bytes = 0;
    EX_OK(ctx, px_module_local(px, &bytes));
    printf("px_module on %s, workers %u simd %u: %llu bytes of local memory\n",
           lsk_context_device(ctx)->name, o[_i].workers, o[_i].simd, (unsigned long long)bytes);
    /* At least the hash table and the union-find links, 3 KiB: a figure
     * of 0 would have measured nothing. */
    ck_assert_uint_ge(bytes, 4u * (2u * LSK_PIXEL_BLOCK_DIGIS + LSK_PIXEL_BLOCK_DIGIS));
    ck_assert_uint_le(bytes, 32768);
  }
  lsk_pixel_destroy(px);
  lsk_context_destroy(ctx);
}
END_TEST

/* The automatic lookup: the grid on a CPU whose local memory holds it and
 * the 32 KiB that the hash way may use (PoCL: 1 MiB), else the hash; the
 * grid's kernel then has the grid's 133,120 bytes (ushorts) in local
 * memory, and its create fails with a clear message where they do not
 * fit. */
START_TEST(test_pixel_lookup_choice)
{
  lsk_context *ctx = ex_context();
  const lsk_device_info *dev = lsk_context_device(ctx);
  uint64_t grid = 2u * LSK_PIXEL_NX * LSK_PIXEL_NY;
  int fits = dev->local_mem_size >= grid + 32768;
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  ck_assert_uint_eq(lsk_pixel_lookup(px),
                    dev->is_cpu && fits ? LSK_PIXEL_LOOKUP_GRID : LSK_PIXEL_LOOKUP_HASH);
  lsk_pixel_destroy(px);
  px = NULL;
  int rc = lsk_pixel_create(ctx, &(lsk_pixel_options){.lookup = LSK_PIXEL_LOOKUP_GRID}, &px);
  if (fits) {
    EX_OK(ctx, rc);
    uint64_t bytes = 0;
    EX_OK(ctx, px_module_local(px, &bytes));
    printf("px_module on %s, grid lookup: %llu bytes of local memory\n", dev->name,
           (unsigned long long)bytes);
    ck_assert_uint_ge(bytes, grid + 4u * LSK_PIXEL_BLOCK_DIGIS);
    ck_assert_uint_le(bytes, grid + 32768);
  } else {
    char want[64];
    snprintf(want, sizeof want, "needs %llu bytes of local memory",
             (unsigned long long)(grid + 32768));
    ck_assert_int_eq(rc, LSK_ELAUNCH);
    ck_assert_msg(strstr(lsk_context_errmsg(ctx), want), "%s", lsk_context_errmsg(ctx));
    ck_assert_ptr_null(px);
  }
  lsk_pixel_destroy(px);
  lsk_context_destroy(ctx);
}
END_TEST

/* Whether a and b are the same results, bit for bit. */
static void same_result(const lsk_pixel_result *a, const lsk_pixel_result *b, const char *what)
{
  ck_assert_msg(a->modules == b->modules && a->digis == b->digis && a->clusters == b->clusters &&
                    a->nhits == b->nhits,
                "%s: %zu modules, %zu digis, %zu clusters, %zu hits; want %zu, %zu, %zu, %zu", what,
                b->modules, b->digis, b->clusters, b->nhits, a->modules, a->digis, a->clusters,
                a->nhits);
  ck_assert_msg(memcmp(a->clus, b->clus, a->digis * 4) == 0, "%s: clus", what);
  ck_assert_msg(memcmp(a->nclus, b->nclus, a->modules * 4) == 0, "%s: nclus", what);
  ck_assert_msg(memcmp(a->clus_start, b->clus_start, (a->modules + 1) * 4) == 0, "%s: clus_start",
                what);
  ck_assert_msg(memcmp(a->hit_start, b->hit_start, (a->modules + 1) * 4) == 0, "%s: hit_start",
                what);
  ck_assert_msg(memcmp(a->charge, b->charge, a->clusters * 4) == 0, "%s: charge", what);
  ck_assert_msg(memcmp(a->hit, b->hit, a->clusters * 4) == 0, "%s: hit", what);
  ck_assert_msg(memcmp(a->hits, b->hits, a->nhits * sizeof *a->hits) == 0, "%s: hits", what);
}

/* The set, its C reference and its single-queue run (lsk_pixel_run on the
 * default queue, whole). */
typedef struct ref_set {
  lsk_pixel_events *ev;
  lsk_pixel_result *want, *one, *got;
} ref_set;

static void ref_set_make(lsk_context *ctx, ref_set *t, uint32_t events, uint32_t modules,
                         uint64_t seed)
{
  lsk_pixel_gen_options g = {.events = events, .modules = modules, .seed = seed};
  ck_assert_int_eq(lsk_pixel_generate(&g, &t->ev), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(t->ev, &t->want), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(t->ev, &t->one), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(t->ev, &t->got), LSK_OK);
  ck_assert_int_eq(lsk_pixel_reference(t->ev, LSK_PIXEL_THRESHOLD, t->want), LSK_OK);
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_OK(ctx, lsk_pixel_run(px, t->ev, NULL));
  EX_OK(ctx, lsk_pixel_read(px, t->one));
  ck_assert_msg(lsk_pixel_compare(t->want, t->one, TOL) == LSK_OK, "%s", lsk_context_errmsg(NULL));
  lsk_pixel_destroy(px);
}

static void ref_set_free(ref_set *t)
{
  lsk_pixel_result_destroy(t->want);
  lsk_pixel_result_destroy(t->one);
  lsk_pixel_result_destroy(t->got);
  lsk_pixel_events_destroy(t->ev);
}

/* got against the single-queue run (bit for bit) and C (within TOL). */
static void check_got(const ref_set *t, const char *what)
{
  same_result(t->one, t->got, what);
  ck_assert_msg(lsk_pixel_compare(t->want, t->got, TOL) == LSK_OK, "%s: %s", what,
                lsk_context_errmsg(NULL));
}

/* Every command of an lsk_pixel on a queue of its own goes there: the
 * trace of a run and a read names no other queue, except, in a run that
 * grows the SoA buffers, the whole-buffer writes of lsk_soa_create (on the
 * default queue, waited for: lsk_soa has no queue). */
START_TEST(test_pixel_queue_trace)
{
  lsk_context *ctx = ex_context_opt(&(lsk_context_options){.trace = 1});
  ref_set t = {0};
  ref_set_make(ctx, &t, 3, 40, 11);
  lsk_queue *q = NULL;
  EX_OK(ctx, lsk_queue_create(ctx, &(lsk_queue_options){.name = "pixel q"}, &q));
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, &(lsk_pixel_options){.queue = q}, &px));
  ck_assert_ptr_eq(lsk_pixel_queue(px), q);
  for (int pass = 0; pass < 2; ++pass) {
    EX_OK(ctx, lsk_trace_clear(ctx));
    EX_OK(ctx, lsk_pixel_run(px, t.ev, NULL));
    EX_OK(ctx, lsk_pixel_read(px, t.got));
    check_got(&t, "on a queue of its own");
    size_t n = 0, kernels = 0, writes = 0, reads = 0, soa = 0;
    EX_OK(ctx, lsk_trace_count(ctx, &n));
    for (size_t i = 0; i < n; ++i) {
      lsk_trace_entry e;
      EX_OK(ctx, lsk_trace_get(ctx, i, &e));
      if (pass == 0 && e.kind == LSK_TRACE_WRITE && strcmp(e.queue, "default") == 0 && soa < 3) {
        ++soa;
        continue;
      }
      ck_assert_msg(strcmp(e.queue, "pixel q") == 0, "pass %d: command %zu (%s) on '%s'", pass, i,
                    e.name, e.queue);
      kernels += e.kind == LSK_TRACE_KERNEL;
      /* The digis' upload is a write from the staging area, or on CPUs a
       * map of the digi buffer. */
      writes += e.kind == LSK_TRACE_WRITE || e.kind == LSK_TRACE_MAP;
      reads += e.kind == LSK_TRACE_READ;
    }
    /* The module and hits kernels, the scans' and the association's; the
     * two uploads (and the module buffers' and placements' first writes);
     * the counts and the results. */
    ck_assert_uint_eq(soa, pass == 0 ? 3 : 0);
    ck_assert_uint_ge(kernels, 6);
    ck_assert_uint_ge(writes, pass == 0 ? 8 : 2);
    ck_assert_uint_ge(reads, 10);
  }
  /* A queue of another context, and a destroyed one. */
  lsk_context *other = ex_context();
  lsk_pixel *bad = NULL;
  EX_FAILS(other, lsk_pixel_create(other, &(lsk_pixel_options){.queue = q}, &bad), LSK_EINVAL,
           "opt->queue");
  ck_assert_ptr_null(bad);
  lsk_context_destroy(other);
  lsk_pixel_destroy(px);
  EX_OK(ctx, lsk_queue_destroy(q));
  EX_FAILS(ctx, lsk_pixel_create(ctx, &(lsk_pixel_options){.queue = q}, &bad), LSK_EINVAL,
           "opt->queue");
  ref_set_free(&t);
  lsk_context_destroy(ctx);
}
END_TEST

/* A user event released by a thread after a delay. */
typedef struct release {
  lsk_event *ev;
  double after;
  pthread_t tid;
} release;

static void *release_main(void *arg)
{
  release *r = arg;
  struct timespec ts = {(time_t)r->after, (long)((r->after - (double)(time_t)r->after) * 1e9)};
  nanosleep(&ts, NULL);
  lsk_event_user_complete(r->ev);
  return NULL;
}

/* q held until ev completes: a marker on q waiting for it. */
static void hold(lsk_context *ctx, lsk_queue *q, lsk_event *ev)
{
  lsk_event *m = NULL;
  EX_OK(ctx, lsk_queue_marker(&(lsk_async){.queue = q, .wait = &ev, .nwait = 1, .event = &m}));
  lsk_event_release(m);
}

static double seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The lsk_pixel's waits are its queue's, and they are there: its queue is
 * held for 0.1 s at the start of a run and of a read (so that a result
 * read without a wait would be read before the device has it), and the
 * default queue for 2 s (an upload there would come after the kernels;
 * a wait for the whole context would take the 1.5 s). The run is on a
 * smaller set than the first one, so it needs no new staging area
 * (lsk_pinned_create maps on the default queue). */
START_TEST(test_pixel_queue_waits_are_its_own)
{
  lsk_context *ctx = ex_context();
  ref_set big = {0}, t = {0};
  ref_set_make(ctx, &big, 6, 64, 21);
  ref_set_make(ctx, &t, 3, 64, 22);
  lsk_queue *q = NULL;
  EX_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, &(lsk_pixel_options){.queue = q}, &px));
  EX_OK(ctx, lsk_pixel_run(px, big.ev, NULL));
  EX_OK(ctx, lsk_pixel_read(px, big.got));
  check_got(&big, "first run");
  release r[3] = {{.after = 1.5}, {.after = 0.1}, {.after = 0.1}};
  for (int i = 0; i < 3; ++i)
    EX_OK(ctx, lsk_event_user_create(ctx, &r[i].ev));
  hold(ctx, lsk_context_queue(ctx), r[0].ev);
  hold(ctx, q, r[1].ev);
  double t0 = seconds();
  ck_assert_int_eq(pthread_create(&r[0].tid, NULL, release_main, &r[0]), 0);
  ck_assert_int_eq(pthread_create(&r[1].tid, NULL, release_main, &r[1]), 0);
  EX_OK(ctx, lsk_pixel_run(px, t.ev, NULL));
  pthread_join(r[1].tid, NULL);
  hold(ctx, q, r[2].ev);
  ck_assert_int_eq(pthread_create(&r[2].tid, NULL, release_main, &r[2]), 0);
  EX_OK(ctx, lsk_pixel_read(px, t.got));
  double t1 = seconds();
  pthread_join(r[2].tid, NULL);
  check_got(&t, "behind held queues");
  ck_assert_msg(t1 - t0 < 1.2,
                "the run and the read took %.2f s: they waited for the default queue", t1 - t0);
  pthread_join(r[0].tid, NULL);
  EX_OK(ctx, lsk_context_finish(ctx));
  for (int i = 0; i < 3; ++i)
    lsk_event_release(r[i].ev);
  lsk_pixel_destroy(px);
  EX_OK(ctx, lsk_queue_destroy(q));
  ref_set_free(&big);
  ref_set_free(&t);
  lsk_context_destroy(ctx);
}
END_TEST

/* The streams against the single-queue run and C: 11 events in batches of
 * 4 on one stream, of 5 on two (three batches: stream 0 has two), of 3 on
 * three (four batches: the count does not divide); then a smaller set and
 * the first again on the same streams (their buffers resized, results
 * kept per batch), and a run that reads nothing back. Every result is
 * the single-queue run's, so none depends on the streams or batches. */
START_TEST(test_pixel_stream_matches_single_queue)
{
  static const uint32_t batch[] = {4, 5, 3};
  unsigned n = (unsigned)_i + 1;
  lsk_context *ctx = ex_context();
  ref_set t = {0}, small = {0};
  ref_set_make(ctx, &t, 11, 48, 31);
  ref_set_make(ctx, &small, 4, 48, 32);
  lsk_pixel_stream *s = NULL;
  lsk_pixel_stream_options so = {.streams = n, .batch_events = batch[_i]};
  EX_OK(ctx, lsk_pixel_stream_create(ctx, &so, &s));
  ck_assert_uint_eq(lsk_pixel_stream_count(s), n);
  ck_assert_uint_eq(lsk_pixel_stream_batch(s), batch[_i]);
  for (unsigned k = 0; k < n; ++k) {
    lsk_pixel *px = lsk_pixel_stream_pixel(s, k);
    ck_assert_ptr_nonnull(px);
    char name[32];
    snprintf(name, sizeof name, "stream %u", k);
    ck_assert_str_eq(lsk_queue_name(lsk_pixel_queue(px)), name);
  }
  ck_assert_ptr_null(lsk_pixel_stream_pixel(s, n));
  char what[64];
  snprintf(what, sizeof what, "%u streams, batches of %u", n, batch[_i]);
  EX_OK(ctx, lsk_pixel_stream_run(s, t.ev, t.got));
  check_got(&t, what);
  EX_OK(ctx, lsk_pixel_stream_run(s, small.ev, small.got));
  check_got(&small, what);
  memset(t.got->hits, 0, t.got->cap_digis * sizeof *t.got->hits);
  memset(t.got->clus, 0xff, t.got->cap_digis * 4);
  EX_OK(ctx, lsk_pixel_stream_run(s, t.ev, t.got));
  check_got(&t, what);
  EX_OK(ctx, lsk_pixel_stream_run(s, t.ev, NULL));
  lsk_pixel_stream_destroy(s);
  ref_set_free(&t);
  ref_set_free(&small);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_pixel_stream_bad_arguments)
{
  lsk_context *ctx = ex_context();
  lsk_pixel_stream *s = NULL;
  EX_FAILS(NULL, lsk_pixel_stream_create(NULL, NULL, &s), LSK_EINVAL, "ctx is NULL");
  EX_FAILS(ctx, lsk_pixel_stream_create(ctx, &(lsk_pixel_stream_options){.streams = 17}, &s),
           LSK_EINVAL, "17 streams; at most 16");
  EX_FAILS(ctx,
           lsk_pixel_stream_create(
               ctx, &(lsk_pixel_stream_options){.pixel = {.queue = lsk_context_queue(ctx)}}, &s),
           LSK_EINVAL, "each stream has its own queue");
  ck_assert_ptr_null(s);
  EX_OK(ctx, lsk_pixel_stream_create(ctx, NULL, &s));
  ck_assert_uint_eq(lsk_pixel_stream_count(s), 1);
  ck_assert_uint_eq(lsk_pixel_stream_batch(s), LSK_PIXEL_BATCH_EVENTS);
  lsk_pixel_events *ev = NULL, *big = NULL;
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(
      lsk_pixel_generate(&(lsk_pixel_gen_options){.events = 2, .modules = 10, .seed = 1}, &ev),
      LSK_OK);
  ck_assert_int_eq(
      lsk_pixel_generate(&(lsk_pixel_gen_options){.events = 3, .modules = 10, .seed = 1}, &big),
      LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &r), LSK_OK);
  EX_FAILS(ctx, lsk_pixel_stream_run(s, NULL, r), LSK_EINVAL, "ev or one of its arrays is NULL");
  EX_FAILS(ctx, lsk_pixel_stream_run(s, big, r), LSK_EINVAL, "the result holds");
  EX_FAILS(NULL, lsk_pixel_stream_run(NULL, ev, r), LSK_EINVAL, "s is NULL");
  /* A module of too many digis: the batch's run says so, with the batch. */
  lsk_pixel_events *bad = NULL;
  lsk_pixel_result *rb = NULL;
  ck_assert_int_eq(lsk_pixel_events_create(1, 2, 5000, 0, &bad), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(bad, &rb), LSK_OK);
  bad->start[1] = 0;
  bad->start[2] = 5000;
  EX_FAILS(ctx, lsk_pixel_stream_run(s, bad, rb), LSK_EINVAL,
           "stream 0, batch 0 (events 0 to 0): lsk_pixel_run: event 0 module 1: 5000 digis, more "
           "than 4096");
  bad->start[1] = 5001; /* out of order */
  EX_FAILS(ctx, lsk_pixel_stream_run(s, bad, rb), LSK_EINVAL,
           "event 0 module 1: digis 5001 to 5000");
  /* And the streams go on. */
  EX_OK(ctx, lsk_pixel_stream_run(s, ev, r));
  lsk_pixel_result_destroy(rb);
  lsk_pixel_events_destroy(bad);
  lsk_pixel_stream_destroy(s);
  lsk_pixel_stream_destroy(NULL);
  ck_assert_uint_eq(lsk_pixel_stream_count(s), 0);
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(ev);
  lsk_pixel_events_destroy(big);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_pixel(void)
{
  Suite *s = suite_create("pixel");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pixel_reference_hand_made);
  tcase_add_loop_test(tc, test_pixel_device_hand_made, 0, 5);
  tcase_add_loop_test(tc, test_pixel_device_matches_reference, 0, 5);
  tcase_add_test(tc, test_pixel_device_reuse);
  tcase_add_loop_test(tc, test_pixel_module_local_memory, 0, 4);
  tcase_add_test(tc, test_pixel_lookup_choice);
  tcase_add_test(tc, test_pixel_generator);
  tcase_add_test(tc, test_pixel_file_round_trip_and_corrupt);
  tcase_add_test(tc, test_pixel_bad_arguments);
  tcase_add_test(tc, test_pixel_queue_trace);
  tcase_add_test(tc, test_pixel_queue_waits_are_its_own);
  tcase_add_loop_test(tc, test_pixel_stream_matches_single_queue, 0, 3);
  tcase_add_test(tc, test_pixel_stream_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}

/* For oclgrind: the hand-made modules at a small shape and at one worker
 * (px_module's plain local operations), each lookup, and a small
 * generated event. The grid needs more local memory than oclgrind's
 * default 32 KiB: tests/CMakeLists.txt gives it 1 MiB, as PoCL has. */
/* The cluster sizes of both lookups, small (oclgrind: races and bounds). */
START_TEST(test_grind_pixel_sizes)
{
  lsk_context *ctx = ex_context();
  with_sizes = 1; /* (one process may run grind_pixel first: CK_FORK=no) */
  hand h;
  hand_make(&h);
  lsk_pixel_result *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(h.ev, &got), LSK_OK);
  for (unsigned look = LSK_PIXEL_LOOKUP_GRID; look <= LSK_PIXEL_LOOKUP_HASH; ++look) {
    lsk_pixel_options o = {.workers = 4, .simd = 16, .blocks = 2, .lookup = look};
    device_run(ctx, &o, h.ev, got, 0);
  }
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(h.ev);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_grind_pixel)
{
  lsk_context *ctx = ex_context();
  with_sizes = 0;
  hand h;
  hand_make(&h);
  lsk_pixel_result *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(h.ev, &got), LSK_OK);
  for (unsigned look = LSK_PIXEL_LOOKUP_GRID; look <= LSK_PIXEL_LOOKUP_HASH; ++look) {
    lsk_pixel_options o = {.workers = 4, .simd = 16, .blocks = 2, .lookup = look};
    if (device_run(ctx, &o, h.ev, got, 0))
      hand_check(&h, got);
    o.workers = 1;
    if (device_run(ctx, &o, h.ev, got, 0))
      hand_check(&h, got);
  }
  /* Every choice automatic (lookup, workers, simd, blocks): the device's,
   * or under LSK_SHAPES=nvidia (gpushape_oclgrind_grind_pixel) a GPU's:
   * the hash, 256 workers of one index, a block per module. */
  if (device_run(ctx, &(lsk_pixel_options){0}, h.ev, got, 0))
    hand_check(&h, got);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events *ev = NULL;
  ck_assert_int_eq(
      lsk_pixel_generate(&(lsk_pixel_gen_options){.events = 1, .modules = 6, .seed = 3}, &ev),
      LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  device_run(
      ctx,
      &(lsk_pixel_options){.workers = 4, .simd = 16, .blocks = 2, .lookup = LSK_PIXEL_LOOKUP_HASH},
      ev, got, 0);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(ev);
  lsk_pixel_events_destroy(h.ev);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_grind_pixel_sizes(void)
{
  Suite *s = suite_create("grind_pixel_sizes");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_pixel_sizes);
  suite_add_tcase(s, tc);
  return s;
}

Suite *suite_grind_pixel(void)
{
  Suite *s = suite_create("grind_pixel");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_grind_pixel);
  suite_add_tcase(s, tc);
  return s;
}

EX_MAIN(PIXEL_SUITES)
