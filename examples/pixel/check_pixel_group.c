/*
 * check_pixel_group.c: the pixel streams over a group of devices
 * (lsk_pixel_stream_create_group; docs/devices.md): the batches split over
 * the members by weights, given and measured, and the results the same
 * as the one-device run (bit for bit where every member is the same
 * implementation, within the hits' rounding otherwise) and as the C
 * reference; what each stream did; bad arguments. On the group that
 * LSK_TEST_GROUP names (tests/CMakeLists.txt: two PoCL devices, PoCL with
 * rusticl), else on the default device's two halves (sub-devices).
 */
#include <stdio.h>
#include <string.h>

#include "pixel.h"
#include "testing.h"

#define TOL 2e-5f /* cm, as check_pixel.c */

/* The group, or NULL (skipped, with the reason on stdout). */
static lsk_group *test_group(void)
{
  const char *sel = getenv("LSK_TEST_GROUP");
  lsk_group_options o = {0};
  if (!sel || !*sel) {
    sel = NULL;
    o.partition = 2;
  }
  lsk_group *g = NULL;
  int rc = lsk_group_create(sel, &o, &g);
  const char *msg = lsk_context_errmsg(NULL);
  if (rc == LSK_ENODEV ||
      (rc == LSK_EINVAL && (strstr(msg, "cannot be partitioned") || strstr(msg, "at most")))) {
    printf("skipped: %s\n", msg);
    return NULL;
  }
  ck_assert_msg(rc == LSK_OK, "lsk_group_create: %s", msg);
  if (lsk_group_size(g) < 2) {
    printf("skipped: fewer than two devices in the group '%s'\n", sel);
    lsk_group_destroy(g);
    return NULL;
  }
  return g;
}

/* Whether every member is the same implementation and device (then the
 * results are the one-device run's bit for bit). */
static int one_kind(lsk_group *g)
{
  const lsk_device_info *d0 = lsk_context_device(lsk_group_context(g, 0));
  for (unsigned i = 1; i < lsk_group_size(g); ++i) {
    const lsk_device_info *d = lsk_context_device(lsk_group_context(g, i));
    if (strcmp(d->platform_name, d0->platform_name) || strcmp(d->name, d0->name))
      return 0;
  }
  return 1;
}

typedef struct set {
  lsk_pixel_events *ev;
  lsk_pixel_result *want, *one, *got;
} set;

/* Events, their C reference and the whole set's run on ctx alone. */
static void set_make(lsk_context *ctx, set *t, uint32_t events, uint64_t seed)
{
  lsk_pixel_gen_options go = {.events = events, .modules = 48, .seed = seed};
  ck_assert_int_eq(lsk_pixel_generate(&go, &t->ev), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(t->ev, &t->want), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(t->ev, &t->one), LSK_OK);
  ck_assert_int_eq(lsk_pixel_result_create(t->ev, &t->got), LSK_OK);
  ck_assert_int_eq(lsk_pixel_reference(t->ev, LSK_PIXEL_THRESHOLD, t->want), LSK_OK);
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_OK(ctx, lsk_pixel_run(px, t->ev, NULL));
  EX_OK(ctx, lsk_pixel_read(px, t->one));
  lsk_pixel_destroy(px);
}

static void set_free(set *t)
{
  lsk_pixel_result_destroy(t->want);
  lsk_pixel_result_destroy(t->one);
  lsk_pixel_result_destroy(t->got);
  lsk_pixel_events_destroy(t->ev);
}

/* got against C and against the one-device run. */
static void check(lsk_group *g, const set *t, const char *what)
{
  ck_assert_msg(lsk_pixel_compare(t->want, t->got, TOL) == LSK_OK, "%s against C: %s", what,
                lsk_context_errmsg(NULL));
  ck_assert_msg(lsk_pixel_compare(t->one, t->got, one_kind(g) ? 0.0f : TOL) == LSK_OK,
                "%s against one device: %s", what, lsk_context_errmsg(NULL));
  if (one_kind(g))
    ck_assert(memcmp(t->one->hits, t->got->hits, t->one->nhits * sizeof *t->one->hits) == 0);
}

/* What each stream did: per / member streams, the member's batches (by
 * the split of the batches by w), all the events once. */
static void check_stats(lsk_group *g, lsk_pixel_stream *s, unsigned per, const double *w,
                        const lsk_pixel_events *ev, uint32_t batch)
{
  unsigned m = lsk_group_size(g);
  size_t nb = (ev->events + batch - 1) / batch, first[LSK_PIXEL_MAX_STREAMS + 1];
  EX_OK(NULL, lsk_group_split(g, nb, w, first));
  uint64_t events = 0;
  for (unsigned i = 0; i < m; ++i) {
    size_t batches = 0;
    for (unsigned j = 0; j < per; ++j) {
      lsk_pixel_stream_stats st;
      EX_OK(NULL, lsk_pixel_stream_stats_get(s, i * per + j, &st));
      ck_assert_uint_eq(st.member, i);
      ck_assert_ptr_eq(st.ctx, lsk_group_context(g, i));
      ck_assert(st.weight == w[i]);
      batches += st.batches;
      events += st.events;
      printf("member %u stream %u (%s): weight %.2f, %zu batches, %llu events, %.1f ms\n", i, j,
             lsk_context_device(st.ctx)->name, st.weight, st.batches, (unsigned long long)st.events,
             1e3 * st.seconds);
    }
    ck_assert_uint_eq(batches, first[i + 1] - first[i]);
  }
  ck_assert_uint_eq(events, ev->events);
}

/* Given weights (1, 2, ...: the last member the most), a stream each,
 * then a smaller set on the same streams; then the measured weights, two
 * streams on each member. */
START_TEST(test_pixel_group_matches_one_device)
{
  lsk_group *g = test_group();
  if (!g)
    return;
  unsigned m = lsk_group_size(g);
  lsk_context *c0 = lsk_group_context(g, 0);
  set t = {0}, small = {0};
  set_make(c0, &t, 23, 41);
  set_make(c0, &small, 5, 42);
  double w[LSK_PIXEL_MAX_STREAMS];
  for (unsigned i = 0; i < m; ++i)
    w[i] = 1 + i;
  lsk_pixel_stream *s = NULL;
  lsk_pixel_stream_options so = {.batch_events = 4, .weights = w};
  EX_OK(NULL, lsk_pixel_stream_create_group(g, &so, &s));
  ck_assert_uint_eq(lsk_pixel_stream_count(s), m);
  for (unsigned k = 0; k < m; ++k) {
    char name[32];
    snprintf(name, sizeof name, "stream %u", k);
    ck_assert_str_eq(lsk_queue_name(lsk_pixel_queue(lsk_pixel_stream_pixel(s, k))), name);
  }
  EX_OK(c0, lsk_pixel_stream_run(s, t.ev, t.got));
  check(g, &t, "given weights");
  check_stats(g, s, 1, w, t.ev, 4);
  EX_OK(c0, lsk_pixel_stream_run(s, small.ev, small.got));
  check(g, &small, "given weights, a smaller set");
  check_stats(g, s, 1, w, small.ev, 4);
  lsk_pixel_stream_destroy(s);

  so = (lsk_pixel_stream_options){.streams = 2, .batch_events = 3};
  EX_OK(NULL, lsk_pixel_stream_create_group(g, &so, &s));
  ck_assert_uint_eq(lsk_pixel_stream_count(s), 2 * m);
  EX_OK(NULL, lsk_group_weights(g, w)); /* measured at the create: the same */
  memset(t.got->clus, 0xff, t.got->cap_digis * 4);
  EX_OK(c0, lsk_pixel_stream_run(s, t.ev, t.got));
  check(g, &t, "measured weights");
  check_stats(g, s, 2, w, t.ev, 3);
  lsk_pixel_stream_destroy(s);
  set_free(&t);
  set_free(&small);
  lsk_group_destroy(g);
}
END_TEST

START_TEST(test_pixel_group_bad_arguments)
{
  if (getenv("LSK_TEST_GROUP")) /* the same checks as on the default group */
    return;
  lsk_group *g = test_group();
  if (!g)
    return;
  lsk_context *c0 = lsk_group_context(g, 0);
  lsk_pixel_stream *s = (lsk_pixel_stream *)&s;
  EX_FAILS(NULL, lsk_pixel_stream_create_group(g, NULL, NULL), LSK_EINVAL, "out is NULL");
  EX_FAILS(NULL, lsk_pixel_stream_create_group(NULL, NULL, &s), LSK_EINVAL,
           "lsk_pixel_stream_create_group: g is NULL");
  ck_assert_ptr_null(s);
  EX_FAILS(NULL, lsk_pixel_stream_create_group((lsk_group *)c0, NULL, &s), LSK_EINVAL,
           "is not a live lsk_group (it is a live lsk_context)");
  EX_FAILS(NULL, lsk_pixel_stream_create_group(g, &(lsk_pixel_stream_options){.streams = 9}, &s),
           LSK_EINVAL, "9 streams on each of");
  double w[LSK_PIXEL_MAX_STREAMS];
  for (unsigned i = 0; i < LSK_PIXEL_MAX_STREAMS; ++i)
    w[i] = i == 1 ? -1 : 1;
  EX_FAILS(NULL, lsk_pixel_stream_create_group(g, &(lsk_pixel_stream_options){.weights = w}, &s),
           LSK_EINVAL, "opt->weights: lsk_group_split: weights[1] is -1");
  EX_FAILS(NULL,
           lsk_pixel_stream_create_group(
               g, &(lsk_pixel_stream_options){.pixel = {.queue = lsk_context_queue(c0)}}, &s),
           LSK_EINVAL, "each stream has its own queue");
  ck_assert_ptr_null(s);
  EX_FAILS(c0,
           lsk_pixel_stream_create(c0, &(lsk_pixel_stream_options){.weights = (double[]){1}}, &s),
           LSK_EINVAL, "opt->weights is set");
  /* The stats. */
  lsk_pixel_stream_stats st;
  w[1] = 1;
  EX_OK(NULL, lsk_pixel_stream_create_group(g, &(lsk_pixel_stream_options){.weights = w}, &s));
  EX_FAILS(NULL, lsk_pixel_stream_stats_get(NULL, 0, &st), LSK_EINVAL, "s is NULL");
  EX_FAILS(c0, lsk_pixel_stream_stats_get(s, 0, NULL), LSK_EINVAL, "out is NULL");
  EX_FAILS(c0, lsk_pixel_stream_stats_get(s, lsk_group_size(g), &st), LSK_EINVAL, "stream ");
  EX_OK(c0, lsk_pixel_stream_stats_get(s, 0, &st)); /* before a run: nothing done */
  ck_assert_uint_eq(st.batches, 0);
  lsk_pixel_stream_destroy(s);
  lsk_group_destroy(g);
}
END_TEST

Suite *suite_pixel_group(void)
{
  Suite *s = suite_create("pixel_group");
  TCase *tc = tcase_create("group");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_pixel_group_matches_one_device);
  tcase_add_test(tc, test_pixel_group_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}
