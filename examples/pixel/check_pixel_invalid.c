/*
 * check_pixel_invalid.c: invalid digis (LSK_PIXEL_INVALID, CMS's 9999):
 * skipped by every stage, cluster LSK_PIXEL_INVALID_CLUSTER, counted.
 *
 * - pixel_invalid: a module worked by hand (an invalid digi between two
 *   pixels that it would join, one on a valid pixel, one outside the
 *   module with adc 0, one first in its module) in the reference; the
 *   device against the reference on ordinary and large modules with
 *   invalid digis, one lsk_pixel and a stream; the rules (check, index),
 *   the file format (version 2 keeps where each invalid digi sits), and
 *   module 9999 as an ordinary module in a set of 10,000 modules; the
 *   generator's marks (lsk_pixel_gen_options.invalid) against the same seed
 *   unmarked, and the device on them.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pixel.h"
#include "testing.h"

#define TOL 1e-4f
#define INV LSK_PIXEL_INVALID

/* Module 0: digis (x, y, adc, module id); module 1: one valid digi. */
static const uint32_t hand_px[][4] = {
    {5, 5, 100, INV},    /* invalid, first in the module */
    {10, 10, 3000, 0},   /* cluster 0 */
    {10, 11, 9000, INV}, /* invalid: would join (10, 10) and (10, 12) */
    {10, 12, 2500, 0},   /* cluster 1 */
    {10, 10, 7000, INV}, /* invalid, on (10, 10)'s pixel */
    {11, 13, 2000, 0},   /* cluster 1: touches (10, 12) */
    {65535, 9, 0, INV},  /* invalid, outside the module, adc 0 */
    {100, 200, 5000, 1}, /* module 1 */
};
#define HAND_N (sizeof hand_px / sizeof hand_px[0])

static lsk_pixel_events *hand_events(void)
{
  lsk_pixel_events *ev = NULL;
  ck_assert_int_eq(lsk_pixel_events_create(1, 2, HAND_N, 0, &ev), LSK_OK);
  for (size_t i = 0; i < HAND_N; ++i) {
    ev->x[i] = (uint16_t)hand_px[i][0];
    ev->y[i] = (uint16_t)hand_px[i][1];
    ev->adc[i] = (uint16_t)hand_px[i][2];
    ev->module[i] = hand_px[i][3];
  }
  uint32_t per[1] = {HAND_N};
  EX_OK(NULL, lsk_pixel_events_index(ev, per));
  return ev;
}

/* The index puts the invalid digis where they sit (the last one in
 * module 0, before module 1's digi); the reference, worked by hand:
 * module 0 has clusters {(10, 10)} of 3000 (masked: below 4000) and
 * {(10, 12), (11, 13)} of 4500, module 1 one of 5000; 4 digis skipped. */
START_TEST(test_pixel_invalid_by_hand)
{
  lsk_pixel_events *ev = hand_events();
  ck_assert_uint_eq(ev->start[0], 0);
  ck_assert_uint_eq(ev->start[1], 7);
  ck_assert_uint_eq(ev->start[2], 8);
  EX_OK(NULL, lsk_pixel_events_check(ev));
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &r), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, r));
  static const uint32_t want[HAND_N] = {LSK_PIXEL_INVALID_CLUSTER, 0, LSK_PIXEL_INVALID_CLUSTER, 1,
                                        LSK_PIXEL_INVALID_CLUSTER, 1, LSK_PIXEL_INVALID_CLUSTER, 0};
  for (size_t i = 0; i < HAND_N; ++i)
    ck_assert_msg(r->clus[i] == want[i], "digi %zu: cluster %u, want %u", i, r->clus[i], want[i]);
  ck_assert_uint_eq(LSK_PIXEL_INVALID_CLUSTER, (uint32_t)-9999);
  ck_assert_uint_eq(r->skipped, 4);
  ck_assert_uint_eq(r->nclus[0], 2);
  ck_assert_uint_eq(r->nclus[1], 1);
  ck_assert_uint_eq(r->clusters, 3);
  ck_assert_uint_eq(r->charge[0], 3000);
  ck_assert_uint_eq(r->charge[1], 4500);
  ck_assert_uint_eq(r->charge[2], 5000);
  ck_assert_uint_eq(r->hit[0], LSK_PIXEL_NONE);
  ck_assert_uint_eq(r->nhits, 2);
  /* The hit of {(10, 12) 2500, (11, 13) 2000}: x = 10 + 2000/4500. */
  float x = (10.0f + 2000.0f / 4500.0f + 0.5f - 80.0f) * LSK_PIXEL_PITCH_X;
  ck_assert_float_eq_tol(r->hits[0].x, x, 1e-5f);
  /* Cluster sizes: the invalid digis are in none. */
  uint32_t counts[4];
  EX_OK(NULL, lsk_pixel_reference_sizes(ev, r, 3, counts));
  ck_assert_uint_eq(counts[1], 2);
  ck_assert_uint_eq(counts[2], 1);
  ck_assert_uint_eq(counts[3], 0);
  /* A valid digi on (10, 10) twice is still a repeat; an invalid one is
   * not looked at. */
  ev->module[4] = 0;
  EX_FAILS(NULL, lsk_pixel_events_check(ev), LSK_EINVAL, "digi 4 at (10, 10) repeats digi 1");
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(ev);
}
END_TEST

/* Generated events, every 7th digi of each module then marked invalid
 * (ordinary modules), plus a module of 3000 digis with every 5th invalid
 * (large path); the device, one lsk_pixel at several shapes and a stream,
 * against the reference. */
static lsk_pixel_events *mixed_events(void)
{
  lsk_pixel_events *g = NULL, *ev = NULL;
  ck_assert_int_eq(
      lsk_pixel_generate(&(lsk_pixel_gen_options){.events = 3, .modules = 40, .seed = 5}, &g),
      LSK_OK);
  /* Event 1's module 7 becomes 3000 digis: rebuilt into a new set. */
  uint32_t big = 3000, k7 = 1 * 40 + 7, n7 = g->start[k7 + 1] - g->start[k7];
  size_t d = g->digis - n7 + big;
  ck_assert_int_eq(lsk_pixel_events_create(3, 40, d, 0, &ev), LSK_OK);
  size_t o = 0;
  uint64_t s = 17;
  for (size_t k = 0; k < 120; ++k) {
    ev->start[k] = (uint32_t)o;
    if (k == k7) {
      for (uint32_t i = 0; i < big; ++i, ++o) {
        ev->x[o] = (uint16_t)(i % 150);
        ev->y[o] = (uint16_t)(i / 150 * 2 + (i % 3 == 0)); /* touching rows */
        ev->adc[o] = (uint16_t)(1 + ex_rng(&s) % 2000);
        ev->module[o] = i % 5 == 2 ? INV : 7;
      }
      continue;
    }
    for (uint32_t i = g->start[k]; i < g->start[k + 1]; ++i, ++o) {
      ev->x[o] = g->x[i];
      ev->y[o] = g->y[i];
      ev->adc[o] = g->adc[i];
      ev->module[o] = (i - g->start[k]) % 7 == 3 ? INV : g->module[i];
    }
  }
  ev->start[120] = (uint32_t)o;
  ck_assert_uint_eq(o, d);
  lsk_pixel_events_destroy(g);
  return ev;
}

/* The generator's marks: about invalid / 10,000 of the digis, on the
 * same digis as the seed gives without marks (positions, charges), the
 * reference skipping exactly the marked ones and the device agreeing;
 * more than 10,000, or marks with 9,999 modules, refused. */
START_TEST(test_pixel_invalid_generated)
{
  lsk_pixel_gen_options o = {
      .events = 4, .modules = 96, .seed = 11, .preset = LSK_PIXEL_PRESET_PU50};
  lsk_pixel_events *plain = NULL, *ev = NULL;
  EX_OK(NULL, lsk_pixel_generate(&o, &plain));
  o.invalid = 500;
  EX_OK(NULL, lsk_pixel_generate(&o, &ev));
  ck_assert_uint_eq(ev->digis, plain->digis);
  size_t marked = 0, can = 0;
  for (size_t i = 0; i < ev->digis; ++i) {
    ck_assert_uint_eq(ev->x[i], plain->x[i]);
    ck_assert_uint_eq(ev->adc[i], plain->adc[i]);
    ck_assert(ev->module[i] == plain->module[i] || ev->module[i] == INV);
    /* A module's first digi is never marked (its marks stay in it). */
    int first = i == 0 || plain->module[i - 1] != plain->module[i];
    ck_assert(!first || ev->module[i] != INV);
    can += !first;
    marked += ev->module[i] == INV;
  }
  for (size_t k = 0; k <= 4 * 96; ++k)
    ck_assert_uint_eq(ev->start[k], plain->start[k]);
  /* 5% of the digis that may be marked, within six standard deviations. */
  double want_n = 0.05 * (double)can, sd = sqrt(want_n * 0.95);
  ck_assert_msg(fabs((double)marked - want_n) < 6 * sd, "%zu marked of %zu", marked, can);
  EX_OK(NULL, lsk_pixel_events_check(ev));
  lsk_pixel_result *want = NULL, *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want));
  ck_assert_uint_eq(want->skipped, marked);
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_OK(ctx, lsk_pixel_run(px, ev, NULL));
  EX_OK(ctx, lsk_pixel_read(px, got));
  ck_assert_uint_eq(got->skipped, marked);
  ck_assert_int_eq(lsk_pixel_compare(want, got, TOL), LSK_OK);
  lsk_pixel_destroy(px);
  lsk_context_destroy(ctx);
  lsk_pixel_result_destroy(want);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(ev);
  lsk_pixel_events_destroy(plain);
  lsk_pixel_events *none = NULL;
  o.invalid = 10001;
  ck_assert_int_eq(lsk_pixel_generate(&o, &none), LSK_EINVAL);
  o = (lsk_pixel_gen_options){.events = 1, .modules = 9999, .invalid = 1};
  ck_assert_int_eq(lsk_pixel_generate(&o, &none), LSK_EINVAL);
  ck_assert(strstr(lsk_context_errmsg(NULL), "9999 modules") != NULL);
  ck_assert_ptr_null(none);
}
END_TEST

START_TEST(test_pixel_invalid_device)
{
  lsk_pixel_events *ev = mixed_events();
  EX_OK(NULL, lsk_pixel_events_check(ev));
  lsk_pixel_result *want = NULL, *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &want), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, want));
  size_t marked = 0;
  for (size_t i = 0; i < ev->digis; ++i)
    marked += ev->module[i] == INV;
  ck_assert_uint_gt(marked, 600);
  ck_assert_uint_eq(want->skipped, marked);
  lsk_context *ctx = ex_context();
  static const lsk_pixel_options shapes[] = {
      {0},
      {.workers = 1, .simd = 1, .lookup = LSK_PIXEL_LOOKUP_HASH},
      {.workers = 4, .simd = 16, .blocks = 2},
      {.workers = 32, .simd = 1, .lookup = LSK_PIXEL_LOOKUP_HASH},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    lsk_pixel *px = NULL;
    int rc = lsk_pixel_create(ctx, &shapes[i], &px);
    if (ex_over_limits(ctx, rc))
      continue;
    EX_OK(ctx, rc);
    rc = lsk_pixel_run(px, ev, NULL);
    if (!ex_over_limits(ctx, rc)) {
      EX_OK(ctx, rc);
      memset(got->clus, 0, ev->digis * 4);
      EX_OK(ctx, lsk_pixel_read(px, got));
      ck_assert_uint_eq(got->skipped, marked);
      rc = lsk_pixel_compare(want, got, TOL);
      ck_assert_msg(rc == LSK_OK, "shape %zu: %s", i, lsk_context_errmsg(NULL));
      /* Sizes: the invalid digis are in no cluster. */
      uint32_t dc[9], rcnt[9];
      EX_OK(ctx, lsk_pixel_cluster_sizes(px, 8, dc));
      EX_OK(NULL, lsk_pixel_reference_sizes(ev, want, 8, rcnt));
      for (int b = 0; b <= 8; ++b)
        ck_assert_msg(dc[b] == rcnt[b], "sizes bin %d: %u, C %u", b, dc[b], rcnt[b]);
    }
    lsk_pixel_destroy(px);
  }
  /* A stream of batches of one event: the same, and as many skipped. */
  lsk_pixel_stream *st = NULL;
  EX_OK(ctx, lsk_pixel_stream_create(
                 ctx, &(lsk_pixel_stream_options){.streams = 2, .batch_events = 1}, &st));
  got->skipped = 0;
  EX_OK(ctx, lsk_pixel_stream_run(st, ev, got));
  ck_assert_uint_eq(got->skipped, marked);
  ck_assert_int_eq(lsk_pixel_compare(want, got, TOL), LSK_OK);
  lsk_pixel_stream_destroy(st);
  lsk_pixel_result_destroy(want);
  lsk_pixel_result_destroy(got);
  lsk_pixel_events_destroy(ev);
  lsk_context_destroy(ctx);
}
END_TEST

/* Files: invalid digis make a version 2 file that gives back the same set
 * (start included: the first digi of module 0 and the last of module 0
 * are invalid); a set without them is still version 1. */
START_TEST(test_pixel_invalid_file)
{
  char path[] = "/tmp/lsk_pixel_invalid_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  lsk_pixel_events *ev = hand_events(), *back = NULL;
  /* An invalid digi at the start of module 1: the file must say so. */
  ev->module[6] = 0;
  ev->x[6] = 50;
  ev->adc[6] = 9;
  ev->module[7] = INV;
  ev->start[1] = 7;
  EX_OK(NULL, lsk_pixel_events_check(ev));
  EX_OK(NULL, lsk_pixel_events_write(ev, path));
  unsigned char head[12];
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fread(head, 1, 12, f), 12);
  fclose(f);
  ck_assert_uint_eq(head[8], 2);
  EX_OK(NULL, lsk_pixel_events_read(path, &back));
  ck_assert_uint_eq(back->digis, ev->digis);
  ck_assert_int_eq(memcmp(back->start, ev->start, 3 * 4), 0);
  ck_assert_int_eq(memcmp(back->module, ev->module, ev->digis * 4), 0);
  ck_assert_uint_eq(back->start[1], 7); /* not 8: digi 7 sits in module 1 */
  lsk_pixel_events_destroy(back);
  back = NULL;
  /* No invalid digi: version 1. */
  for (size_t i = 0; i < ev->digis; ++i)
    if (ev->module[i] == INV) {
      ev->module[i] = i < 7 ? 0 : 1;
      ev->x[i] = (uint16_t)(60 + i);
      ev->y[i] = 300;
      ev->adc[i] = 5;
    }
  EX_OK(NULL, lsk_pixel_events_write(ev, path));
  f = fopen(path, "rb");
  ck_assert_uint_eq(fread(head, 1, 12, f), 12);
  fclose(f);
  ck_assert_uint_eq(head[8], 1);
  EX_OK(NULL, lsk_pixel_events_read(path, &back));
  lsk_pixel_events_destroy(back);
  back = NULL;
  /* One file per set: the same bytes as version 2 are refused (no invalid
   * digi), and so is module 9999 written as such. */
  f = fopen(path, "r+b");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseek(f, 8, SEEK_SET), 0);
  ck_assert_int_eq(fputc(2, f), 2);
  fclose(f);
  EX_FAILS(NULL, lsk_pixel_events_read(path, &back), LSK_EIO, "version 2 without invalid digis");
  ev->module[7] = INV;
  ev->start[1] = 8;
  EX_OK(NULL, lsk_pixel_events_write(ev, path)); /* version 2: digi 7 is 0x80000000 | 0 */
  f = fopen(path, "r+b");
  ck_assert_int_eq(fseek(f, 40 + 4 + 7 * 4 + 3, SEEK_SET), 0);
  ck_assert_int_eq(fputc(0, f), 0); /* 0x80000000 | 0 -> 0: then module 9999 */
  ck_assert_int_eq(fseek(f, 40 + 4 + 7 * 4, SEEK_SET), 0);
  ck_assert_int_eq(fputc(0x0f, f), 0x0f);
  ck_assert_int_eq(fputc(0x27, f), 0x27); /* 9999 = 0x270f */
  fclose(f);
  EX_FAILS(NULL, lsk_pixel_events_read(path, &back), LSK_EIO, "digi 7: module 9999");
  unlink(path);
  lsk_pixel_events_destroy(ev);
}
END_TEST

/* In a set of 10,000 modules per event, 9999 is a module: its digis are
 * clustered, none skipped. */
START_TEST(test_pixel_invalid_many_modules)
{
  lsk_pixel_events *ev = NULL;
  ck_assert_int_eq(lsk_pixel_events_create(1, 10000, 2, 0, &ev), LSK_OK);
  ev->x[0] = 1;
  ev->x[1] = 2;
  ev->adc[0] = ev->adc[1] = 3000;
  ev->module[0] = ev->module[1] = 9999;
  uint32_t per[1] = {2};
  EX_OK(NULL, lsk_pixel_events_index(ev, per));
  ck_assert_uint_eq(ev->start[9999], 0);
  ck_assert_uint_eq(ev->start[9998], 0);
  EX_OK(NULL, lsk_pixel_events_check(ev));
  lsk_pixel_result *r = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &r), LSK_OK);
  EX_OK(NULL, lsk_pixel_reference(ev, LSK_PIXEL_THRESHOLD, r));
  ck_assert_uint_eq(r->skipped, 0);
  ck_assert_uint_eq(r->nclus[9999], 1);
  ck_assert_uint_eq(r->charge[0], 6000);
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  lsk_pixel_result *got = NULL;
  ck_assert_int_eq(lsk_pixel_result_create(ev, &got), LSK_OK);
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_OK(ctx, lsk_pixel_run(px, ev, NULL));
  EX_OK(ctx, lsk_pixel_read(px, got));
  ck_assert_int_eq(lsk_pixel_compare(r, got, TOL), LSK_OK);
  lsk_pixel_destroy(px);
  lsk_context_destroy(ctx);
  lsk_pixel_result_destroy(got);
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(ev);
}
END_TEST

Suite *suite_pixel_invalid(void)
{
  Suite *s = suite_create("pixel_invalid");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_pixel_invalid_by_hand);
  tcase_add_test(tc, test_pixel_invalid_generated);
  tcase_add_test(tc, test_pixel_invalid_device);
  tcase_add_test(tc, test_pixel_invalid_file);
  tcase_add_test(tc, test_pixel_invalid_many_modules);
  suite_add_tcase(s, tc);
  return s;
}
