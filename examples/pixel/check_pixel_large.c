/*
 * check_pixel_large.c: modules of more digis than the ordinary block
 * domain (LSK_PIXEL_BLOCK_DIGIS, 256), up to LSK_PIXEL_MAX_DIGIS (4096):
 * the large-module path (px_large, examples/pixel/pixel.cl).
 *
 * - pixel_large: modules of 257, 4000 and 4096 digis (noise, small
 *   clusters, and a cross of a whole row and a whole column that spans the
 *   module) beside ordinary ones, in one set: the C reference against a
 *   flood fill written here, the device against the reference at several
 *   shapes and both lookups, cluster sizes; past 4096 the error names event,
 *   module and count;
 * - grind_pixel_large: the same at small sizes (300 and 520 digis) for
 *   oclgrind, with invalid digis (check_pixel_invalid.c) on both paths.
 */
#include <stdlib.h>
#include <string.h>

#include "pixel.h"
#include "testing.h"

#define TOL 1e-4f

/* A module of n digis at digi index a of ev, module k: a cross (row
 * y = 200 and column x = 80, when cross is set: 575 pixels, one cluster
 * that spans the module), then random distinct pixels, shuffled, adc 1 to
 * 3000. */
static void fill_module(lsk_pixel_events *ev, uint32_t k, size_t a, uint32_t n, int cross,
                        uint64_t seed)
{
  static uint8_t used[LSK_PIXEL_NX * LSK_PIXEL_NY];
  memset(used, 0, sizeof used);
  uint64_t s = seed;
  uint32_t i = 0;
  for (uint32_t x = 0; cross && x < LSK_PIXEL_NX && i < n; ++x, ++i) {
    ev->x[a + i] = (uint16_t)x;
    ev->y[a + i] = 200;
    used[x * LSK_PIXEL_NY + 200] = 1;
  }
  for (uint32_t y = 0; cross && y < LSK_PIXEL_NY && i < n; ++y) {
    if (used[80 * LSK_PIXEL_NY + y])
      continue;
    ev->x[a + i] = 80;
    ev->y[a + i] = (uint16_t)y;
    used[80 * LSK_PIXEL_NY + y] = 1;
    ++i;
  }
  while (i < n) {
    uint32_t x = ex_rng(&s) % LSK_PIXEL_NX, y = ex_rng(&s) % LSK_PIXEL_NY;
    if (used[x * LSK_PIXEL_NY + y])
      continue;
    used[x * LSK_PIXEL_NY + y] = 1;
    ev->x[a + i] = (uint16_t)x;
    ev->y[a + i] = (uint16_t)y;
    ++i;
  }
  for (i = 0; i < n; ++i)
    ev->adc[a + i] = (uint16_t)(1 + ex_rng(&s) % 3000);
  for (i = n; i > 1; --i) {
    uint32_t j = ex_rng(&s) % i;
    uint16_t tx = ev->x[a + i - 1], ty = ev->y[a + i - 1];
    ev->x[a + i - 1] = ev->x[a + j];
    ev->y[a + i - 1] = ev->y[a + j];
    ev->x[a + j] = tx;
    ev->y[a + j] = ty;
  }
  for (i = 0; i < n; ++i)
    ev->module[a + i] = k;
}

/* One event of modules of the given sizes (cross: those of 500 or more). */
static lsk_pixel_events *make_set(const uint32_t *sizes, uint32_t nmod)
{
  size_t d = 0;
  for (uint32_t k = 0; k < nmod; ++k)
    d += sizes[k];
  lsk_pixel_events *ev = NULL;
  ck_assert_int_eq(lsk_pixel_events_create(1, nmod, d, 0, &ev), LSK_OK);
  size_t a = 0;
  for (uint32_t k = 0; k < nmod; ++k) {
    ev->start[k] = (uint32_t)a;
    fill_module(ev, k, a, sizes[k], sizes[k] >= 500, 1000 + k);
    a += sizes[k];
  }
  ev->start[nmod] = (uint32_t)a;
  EX_OK(NULL, lsk_pixel_events_check(ev));
  return ev;
}

/* The reference against a flood fill over the 8 neighbours, written here:
 * two digis of a module share a cluster id exactly when the fill puts
 * them in one component; ids are dense in the order of first digis. */
static void check_by_fill(const lsk_pixel_events *ev, const lsk_pixel_result *r)
{
  static int32_t comp[LSK_PIXEL_NX * LSK_PIXEL_NY];
  static uint32_t stack[LSK_PIXEL_NX * LSK_PIXEL_NY], at[LSK_PIXEL_MAX_DIGIS];
  size_t nm = (size_t)ev->events * ev->modules;
  for (size_t k = 0; k < nm; ++k) {
    uint32_t a = ev->start[k], n = ev->start[k + 1] - a, nc = 0;
    for (size_t p = 0; p < sizeof comp / sizeof comp[0]; ++p)
      comp[p] = -1;
    for (uint32_t i = 0; i < n; ++i)
      comp[ev->x[a + i] * LSK_PIXEL_NY + ev->y[a + i]] = -2 - (int32_t)i; /* unvisited */
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t p0 = ev->x[a + i] * LSK_PIXEL_NY + ev->y[a + i];
      if (comp[p0] >= 0) {
        at[i] = (uint32_t)comp[p0];
        continue;
      }
      /* A new component, found from digi i (its first digi). */
      uint32_t top = 0;
      comp[p0] = (int32_t)nc;
      stack[top++] = p0;
      while (top) {
        uint32_t p = stack[--top], x = p / LSK_PIXEL_NY, y = p % LSK_PIXEL_NY;
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy) {
            int u = (int)x + dx, v = (int)y + dy;
            if (u < 0 || v < 0 || u >= (int)LSK_PIXEL_NX || v >= (int)LSK_PIXEL_NY)
              continue;
            uint32_t q = (uint32_t)u * LSK_PIXEL_NY + (uint32_t)v;
            if (comp[q] <= -2) {
              comp[q] = (int32_t)nc;
              stack[top++] = q;
            }
          }
      }
      at[i] = nc++;
    }
    ck_assert_msg(r->nclus[k] == nc, "module %zu: %u clusters, the fill %u", k, r->nclus[k], nc);
    for (uint32_t i = 0; i < n; ++i)
      ck_assert_msg(r->clus[a + i] == at[i], "module %zu digi %u: cluster %u, the fill %u", k, i,
                    r->clus[a + i], at[i]);
  }
}

/* The device at a shape against the reference; cluster sizes too. 0
 * where the shape is past the device's limits. */
static int device_vs_reference(lsk_context *ctx, const lsk_pixel_options *opt,
                               const lsk_pixel_events *ev, const lsk_pixel_result *want, int sizes)
{
  lsk_pixel *px = NULL;
  lsk_pixel_result *got = NULL;
  int rc = lsk_pixel_create(ctx, opt, &px);
  if (ex_over_limits(ctx, rc) || ex_skip_on(ctx, rc, LSK_ELAUNCH, "the grid lookup needs"))
    return 0;
  EX_OK(ctx, rc);
  rc = lsk_pixel_run(px, ev, NULL);
  if (ex_over_limits(ctx, rc)) {
    lsk_pixel_destroy(px);
    return 0;
  }
  EX_OK(ctx, rc);
  for (uint32_t nb = 2; sizes && nb <= 600; nb += 598) {
    uint32_t dev[601], ref[601];
    EX_OK(ctx, lsk_pixel_cluster_sizes(px, nb, dev));
    EX_OK(NULL, lsk_pixel_reference_sizes(ev, want, nb, ref));
    for (uint32_t i = 0; i <= nb; ++i)
      ck_assert_msg(dev[i] == ref[i], "sizes, %u bins: bin %u is %u, C %u", nb, i, dev[i], ref[i]);
  }
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  EX_OK(ctx, lsk_pixel_read(px, got));
  rc = lsk_pixel_compare(want, got, TOL);
  ck_assert_msg(rc == LSK_OK, "workers %u simd %u blocks %zu lookup %u: %s", opt->workers,
                opt->simd, opt->blocks, lsk_pixel_lookup(px), lsk_context_errmsg(NULL));
  lsk_pixel_result_destroy(got);
  lsk_pixel_destroy(px);
  return 1;
}

START_TEST(test_pixel_large_modules)
{
  /* Ordinary modules around large ones: 256 stays on the ordinary path,
   * 257 is the smallest large one, 4000 CMS's limit, 4096 lsk's. */
  static const uint32_t sizes[] = {12, 4000, 0, 257, 256, 4096, 3, 1500};
  uint32_t nmod = sizeof sizes / sizeof sizes[0];
  lsk_pixel_events *ev = make_set(sizes, nmod);
  lsk_pixel_result *want = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want));
  check_by_fill(ev, want);
  /* The cross is one cluster of at least its 575 pixels: one id. */
  uint32_t cross = UINT32_MAX;
  for (uint32_t i = ev->start[1]; i < ev->start[2]; ++i)
    if (ev->y[i] == 200 || ev->x[i] == 80) {
      if (cross == UINT32_MAX)
        cross = want->clus[i];
      ck_assert_uint_eq(want->clus[i], cross);
    }
  lsk_context *ctx = ex_context();
  static const lsk_pixel_options shapes[] = {
      {0},
      {.workers = 1, .simd = 1},
      {.workers = 4, .simd = 16, .blocks = 2},
      {.workers = 256, .simd = 1, .lookup = LSK_PIXEL_LOOKUP_HASH},
      {.workers = 32, .simd = 4, .blocks = 1, .lookup = LSK_PIXEL_LOOKUP_GRID},
  };
  int ran = 0;
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
    ran += device_vs_reference(ctx, &shapes[i], ev, want, i == 0);
  ck_assert_int_gt(ran, 0);
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(ev);
  lsk_context_destroy(ctx);
}
END_TEST

/* Past 4096 digis: the run and the check name event, module and count. */
START_TEST(test_pixel_large_limit)
{
  lsk_pixel_events *ev = NULL;
  ck_assert_int_eq(lsk_pixel_events_create(2, 3, 4097, 0, &ev), LSK_OK);
  for (uint32_t i = 0; i < 4097; ++i) {
    ev->x[i] = (uint16_t)(i % LSK_PIXEL_NX);
    ev->y[i] = (uint16_t)(i / LSK_PIXEL_NX);
    ev->adc[i] = 10;
    ev->module[i] = 1;
  }
  for (int k = 0; k <= 5; ++k)
    ev->start[k] = k < 5 ? 0u : 4097u; /* event 1 module 1: 4097 digis */
  EX_FAILS(NULL, lsk_pixel_events_check(ev), LSK_EINVAL,
           "lsk_pixel_events_check: event 1 module 1: 4097 digis, more than 4096");
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &r), LSK_OK);
  EX_FAILS(NULL, lsk_pixel_reference(ev, 1, r), LSK_EINVAL,
           "lsk_pixel_reference: event 1 module 1: 4097 digis, more than 4096");
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_FAILS(ctx, lsk_pixel_run(px, ev, NULL), LSK_EINVAL,
           "lsk_pixel_run: event 1 module 1: 4097 digis, more than 4096 (digis 0 to 4097)");
  lsk_pixel_destroy(px);
  lsk_context_destroy(ctx);
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(ev);
}
END_TEST

/* The PU50 preset: 1856 modules, hits per event within 3 sigma of
 * 18,300 (+- 3,500), the first layer's 96 modules over four times as busy
 * as the others, a module of at least 1000 digis in every event; the
 * device's results the reference's exactly. */
START_TEST(test_pixel_pu50)
{
  lsk_pixel_events *ev = NULL;
  EX_FAILS(NULL, lsk_pixel_generate(&(lsk_pixel_gen_options){.preset = 2, .events = 1}, &ev),
           LSK_EINVAL, "preset 2 is none of LSK_PIXEL_PRESET_*");
  ck_assert_int_eq(
      lsk_pixel_generate(
          &(lsk_pixel_gen_options){.preset = LSK_PIXEL_PRESET_PU50, .events = 3, .seed = 7}, &ev),
      LSK_OK);
  ck_assert_uint_eq(ev->modules, 1856);
  EX_OK(NULL, lsk_pixel_events_check(ev));
  lsk_pixel_result *want = NULL, *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want));
  for (uint32_t e = 0; e < 3; ++e) {
    size_t k0 = (size_t)e * 1856, inner = 0, outer = 0, most = 0;
    uint32_t hits = want->hit_start[k0 + 1856] - want->hit_start[k0];
    ck_assert_msg(hits >= 18300 - 3 * 3500 && hits <= 18300 + 3 * 3500, "event %u: %u hits", e,
                  hits);
    for (size_t m = 0; m < 1856; ++m) {
      size_t n = ev->start[k0 + m + 1] - ev->start[k0 + m];
      *(m < 96 ? &inner : &outer) += n;
      most = n > most ? n : most;
    }
    ck_assert_msg(inner / 96.0 > 4.0 * (outer / 1760.0), "event %u: %zu and %zu digis", e, inner,
                  outer);
    ck_assert_msg(most >= 1000, "event %u: at most %zu digis in a module", e, most);
  }
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_OK(ctx, lsk_pixel_run(px, ev, NULL));
  EX_OK(ctx, lsk_pixel_read(px, got));
  int rc = lsk_pixel_compare(want, got, TOL);
  ck_assert_msg(rc == LSK_OK, "%s", lsk_context_errmsg(NULL));
  lsk_pixel_destroy(px);
  lsk_context_destroy(ctx);
  lsk_pixel_result_destroy(want);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(ev);
}
END_TEST

/* Small large modules for oclgrind: 300 and 520 digis beside ordinary
 * ones, three shapes (one worker, 4 x 16 over two blocks, automatic). */
START_TEST(test_grind_pixel_large)
{
  static const uint32_t sizes[] = {5, 300, 0, 520, 40};
  lsk_pixel_events *ev = make_set(sizes, 5);
  /* Invalid digis too (LSK_PIXEL_INVALID), on both paths: every 9th
   * digi of modules 1 (large) and 4 (ordinary). */
  for (uint32_t k = 1; k <= 4; k += 3)
    for (uint32_t i = ev->start[k]; i < ev->start[k + 1]; i += 9)
      ev->module[i] = LSK_PIXEL_INVALID;
  lsk_pixel_result *want = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want));
  lsk_context *ctx = ex_context();
  static const lsk_pixel_options shapes[] = {
      {.workers = 4, .simd = 16, .blocks = 2, .lookup = LSK_PIXEL_LOOKUP_HASH},
      {.workers = 1, .simd = 1, .lookup = LSK_PIXEL_LOOKUP_HASH},
      {0},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
    device_vs_reference(ctx, &shapes[i], ev, want, 0);
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(ev);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_pixel_large(void)
{
  Suite *s = suite_create("pixel_large");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_pixel_large_modules);
  tcase_add_test(tc, test_pixel_large_limit);
  tcase_add_test(tc, test_pixel_pu50);
  suite_add_tcase(s, tc);
  return s;
}

Suite *suite_grind_pixel_large(void)
{
  Suite *s = suite_create("grind_pixel_large");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, test_grind_pixel_large);
  suite_add_tcase(s, tc);
  return s;
}
