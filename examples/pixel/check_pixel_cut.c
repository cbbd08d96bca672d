/*
 * check_pixel_cut.c: the charge cut per range of module ids
 * (lsk_pixel_options.cuts, .strict; CMS's clusterChargeCut).
 *
 * - pixel_cut: clusters at and around each range's threshold worked by
 *   hand in the reference, strict (CMS's charge > cut) and not; the device
 *   against the reference with CMS's Phase-1 ranges on generated events
 *   of 200 modules, at several shapes; bad ranges;
 * - and the hits' columns about the beam spot (gb, r, iphi: CMS's int16
 *   phi) worked out here from the module's placement, and the device
 *   against the reference (lsk_pixel_reference_opt) with a beam spot.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pixel.h"
#include "testing.h"

#define TOL 1e-4f

/* Two events of 4 modules, one single-pixel cluster each, charges: */
static const uint16_t cut_q[2][4] = {{2000, 2001, 4000, 4001}, {1999, 2000, 3999, 4000}};
/* Ranges: modules 0 and 1 at 2000, 2 and 3 at 4000. */
static const lsk_pixel_cut cut_ranges[] = {{0, 2000}, {2, 4000}};

static lsk_pixel_events *cut_events(void)
{
  lsk_pixel_events *ev = NULL;
  ck_assert_int_eq(lsk_pixel_events_create(2, 4, 8, 0, &ev), LSK_OK);
  for (uint32_t k = 0; k < 8; ++k) {
    ev->x[k] = 7;
    ev->y[k] = 9;
    ev->adc[k] = cut_q[k / 4][k % 4];
    ev->module[k] = k % 4;
    ev->start[k] = k;
  }
  return ev;
}

/* By hand: strict keeps 2001, 4001 (event 0) and nothing in event 1; not
 * strict also keeps each charge equal to its threshold: 2000, 4000
 * (event 0), 2000, 4000 (event 1). */
START_TEST(test_pixel_cut_by_hand)
{
  lsk_pixel_events *ev = cut_events();
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &r), LSK_OK);
  static const int keep[2][8] = {{0, 1, 0, 1, 0, 0, 0, 0}, {1, 1, 1, 1, 0, 1, 0, 1}};
  for (int strict = 1; strict >= 0; --strict) {
    EX_OK(NULL, lsk_pixel_reference_cuts(ev, cut_ranges, 2, strict, r));
    size_t hits = 0;
    for (int k = 0; k < 8; ++k) {
      ck_assert_uint_eq(r->charge[k], cut_q[k / 4][k % 4]);
      ck_assert_msg((r->hit[k] != LSK_PIXEL_NONE) == keep[1 - strict][k], "strict %d module %d",
                    strict, k);
      hits += keep[1 - strict][k];
    }
    ck_assert_uint_eq(r->nhits, hits);
  }
  /* One range at 4000, not strict: lsk_pixel_reference's rule. */
  lsk_pixel_result *one = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &one), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, 4000, one));
  EX_OK(NULL, lsk_pixel_reference_cuts(ev, &(lsk_pixel_cut){0, 4000}, 1, 0, r));
  ck_assert_int_eq(lsk_pixel_compare(one, r, 0.0f), LSK_OK);
  ck_assert_uint_eq(one->nhits, 3); /* 4000, 4001 and 4000 (3999 is not) */
  /* Bad ranges. */
  EX_FAILS(NULL, lsk_pixel_reference_cuts(ev, (lsk_pixel_cut[]){{1, 5}}, 1, 0, r), LSK_EINVAL,
           "cuts[0].first_module is 1, want 0");
  EX_FAILS(NULL, lsk_pixel_reference_cuts(ev, (lsk_pixel_cut[]){{0, 5}, {3, 6}, {3, 7}}, 3, 0, r),
           LSK_EINVAL, "cuts[2].first_module 3 is not above cuts[1]'s 3");
  EX_FAILS(NULL, lsk_pixel_reference_cuts(ev, cut_ranges, 0, 0, r), LSK_EINVAL,
           "ncuts 0: must be 1 to 64");
  lsk_pixel_result_destroy(one);
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(ev);
}
END_TEST

START_TEST(test_pixel_cut_device)
{
  lsk_context *ctx = ex_context();
  static const lsk_pixel_cut cms[] = LSK_PIXEL_CMS_CUTS;
  ck_assert_uint_eq(cms[1].first_module, 96);
  lsk_pixel_events *hand = cut_events(), *gen = NULL;
  ck_assert_int_eq(
      lsk_pixel_generate(&(lsk_pixel_gen_options){.events = 2, .modules = 200, .seed = 11}, &gen),
      LSK_OK);
  /* The hand-made set with its ranges, the generated one with CMS's,
   * both strict and not. */
  struct {
    lsk_pixel_events *ev;
    const lsk_pixel_cut *cuts;
    uint32_t n;
  } sets[] = {{hand, cut_ranges, 2}, {gen, cms, 2}};
  static const lsk_pixel_options shapes[] = {
      {0},
      {.workers = 1, .simd = 1},
      /* Blocks automatic: two blocks of 200 modules each pass llvmpipe's
       * loop cap (docs/rusticl.md). */
      {.workers = 4, .simd = 16, .lookup = LSK_PIXEL_LOOKUP_HASH},
  };
  for (size_t si = 0; si < 2; ++si) {
    lsk_pixel_events *ev = sets[si].ev;
    lsk_pixel_result *want = NULL, *got = NULL;
    ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
    ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
    for (int strict = 0; strict <= 1; ++strict) {
      EX_OK(NULL, lsk_pixel_reference_cuts(ev, sets[si].cuts, sets[si].n, strict, want));
      for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        lsk_pixel_options o = shapes[i];
        o.cuts = sets[si].cuts;
        o.ncuts = sets[si].n;
        o.strict = strict;
        lsk_pixel *px = NULL;
        int rc = lsk_pixel_create(ctx, &o, &px);
        if (ex_over_limits(ctx, rc))
          continue;
        EX_OK(ctx, rc);
        rc = lsk_pixel_run(px, ev, NULL);
        if (!ex_over_limits(ctx, rc)) {
          ck_assert_msg(rc == LSK_OK, "set %zu strict %d shape %zu: run: %s", si, strict, i,
                        lsk_context_errmsg(ctx));
          EX_OK(ctx, lsk_pixel_read(px, got));
          rc = lsk_pixel_compare(want, got, TOL);
          ck_assert_msg(rc == LSK_OK, "set %zu strict %d shape %zu: %s", si, strict, i,
                        lsk_context_errmsg(NULL));
        }
        lsk_pixel_destroy(px);
      }
    }
    lsk_pixel_result_destroy(want);
    lsk_pixel_result_destroy(got);
  }
  /* Bad ranges at create. */
  lsk_pixel *px = NULL;
  EX_FAILS(ctx, lsk_pixel_create(ctx, &(lsk_pixel_options){.ncuts = 2}, &px), LSK_EINVAL,
           "lsk_pixel_create: opt->cuts is NULL, ncuts 2");
  EX_FAILS(
      ctx,
      lsk_pixel_create(
          ctx, &(lsk_pixel_options){.cuts = (lsk_pixel_cut[]){{0, 1}, {0, 2}}, .ncuts = 2}, &px),
      LSK_EINVAL, "lsk_pixel_create: cuts[1].first_module 0 is not above cuts[0]'s 0");
  lsk_pixel_events_destroy(hand);
  lsk_pixel_events_destroy(gen);
  lsk_context_destroy(ctx);
}
END_TEST

/* One pixel at (80, 208) of module 1 of 4: local (0.005, 0.0075) cm, its
 * global position through the placement, then about the beam spot
 * (0.1, -0.2, 0.5): gb, r = |gb| in x-y, iphi = round(phi * 2^15 / pi)
 * within 1, worked here in double. */
START_TEST(test_pixel_beam_spot)
{
  lsk_pixel_events *ev = NULL;
  ck_assert_int_eq(lsk_pixel_events_create(1, 4, 1, 0, &ev), LSK_OK);
  ev->x[0] = 80;
  ev->y[0] = 208;
  ev->adc[0] = 9000;
  ev->module[0] = 1;
  ev->start[0] = 0;
  ev->start[1] = 0;
  ev->start[2] = ev->start[3] = 1;
  lsk_pixel_placement pl[4];
  lsk_pixel_geometry(4, pl);
  double lx = 0.5 * LSK_PIXEL_PITCH_X, ly = 0.5 * LSK_PIXEL_PITCH_Y, bs[3] = {0.1, -0.2, 0.5};
  double g[3], gb[3];
  for (int i = 0; i < 3; ++i) {
    g[i] = pl[1].r[3 * i] * lx + pl[1].r[3 * i + 1] * ly + pl[1].t[i];
    gb[i] = g[i] - bs[i];
  }
  double phi = atan2(gb[1], gb[0]), r = hypot(gb[0], gb[1]);
  long want_iphi = lround(phi * 32768.0 / 3.14159265358979323846);
  lsk_pixel_options o = {.beam_spot = {0.1f, -0.2f, 0.5f}};
  lsk_pixel_result *res = NULL, *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &res), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference_opt(ev, &o, res));
  ck_assert_uint_eq(res->nhits, 1);
  const lsk_pixel_hit *h = &res->hits[0];
  for (int i = 0; i < 3; ++i) {
    ck_assert_float_eq_tol(h->g[i], g[i], 1e-5);
    ck_assert_float_eq_tol(h->gb[i], gb[i], 1e-5);
  }
  ck_assert_float_eq_tol(h->r, r, 1e-5);
  ck_assert_msg(labs(h->iphi - want_iphi) <= 1, "iphi %d, want %ld", h->iphi, want_iphi);
  ck_assert_float_eq_tol(h->iphi * 3.14159265358979323846 / 32768.0, phi, 2e-4);
  /* The device, on this and on generated events. */
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, &o, &px));
  EX_OK(ctx, lsk_pixel_run(px, ev, NULL));
  EX_OK(ctx, lsk_pixel_read(px, got));
  ck_assert_int_eq(lsk_pixel_compare(res, got, TOL), LSK_OK);
  lsk_pixel_destroy(px);
  lsk_pixel_result_destroy(res);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(ev);
  ck_assert_int_eq(
      lsk_pixel_generate(&(lsk_pixel_gen_options){.events = 2, .modules = 300, .seed = 3}, &ev),
      LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &res), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  static const lsk_pixel_options shapes[] = {{.beam_spot = {0.3f, 0.2f, -1.0f}},
                                             {.workers = 1,
                                              .simd = 1,
                                              .beam_spot = {-0.05f, 0.0f, 2.0f},
                                              .lookup = LSK_PIXEL_LOOKUP_HASH}};
  for (size_t i = 0; i < 2; ++i) {
    EX_OK(NULL, lsk_pixel_reference_opt(ev, &shapes[i], res));
    int rc = lsk_pixel_create(ctx, &shapes[i], &px);
    if (ex_over_limits(ctx, rc))
      continue;
    EX_OK(ctx, rc);
    EX_OK(ctx, lsk_pixel_run(px, ev, NULL));
    EX_OK(ctx, lsk_pixel_read(px, got));
    rc = lsk_pixel_compare(res, got, TOL);
    ck_assert_msg(rc == LSK_OK, "shape %zu: %s", i, lsk_context_errmsg(NULL));
    lsk_pixel_destroy(px);
  }
  lsk_pixel_result_destroy(res);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(ev);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_pixel_cut(void)
{
  Suite *s = suite_create("pixel_cut");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_pixel_cut_by_hand);
  tcase_add_test(tc, test_pixel_cut_device);
  tcase_add_test(tc, test_pixel_beam_spot);
  suite_add_tcase(s, tc);
  return s;
}
