/*
 * check_pixel_badinput.c: bad input to every public function of pixel.h
 * (the suite badinput_pixel): each row calls one function with one bad
 * argument and checks the status and the message (EX_BAD and its kin,
 * testing.h); and the lifetimes: after lsk_context_destroy a clusterizer
 * and a stream refuse every call but their own _destroy, which still frees
 * them (leak-free under ASan). Moved from lsk's
 * tests/badinput/check_badinput_objects.c, rows unchanged.
 */
#include "pixel.h"
#include "testing.h"

START_TEST(test_bi_pixel)
{
  lsk_context *ctx = ex_context();
  /* A live handle of another type (a buffer), for the wrong-type rows. */
  lsk_buffer *b = NULL;
  EX_OK(ctx, lsk_buffer_create(ctx, 4 * sizeof(unsigned), &b));

  /* pixel.h: the host-side sets and results. */
  lsk_pixel_events *ev = NULL, *eout = (lsk_pixel_events *)&eout;
  lsk_pixel_gen_options go = {.events = 2, .modules = 8, .seed = 1};
  EX_OK(NULL, lsk_pixel_generate(&go, &ev));
  EX_BAD(NULL, "lsk_pixel_events_create", lsk_pixel_events_create(1, 1, 1, 0, NULL), LSK_EINVAL,
         "out is NULL");
  EX_BAD(NULL, "lsk_pixel_events_create", lsk_pixel_events_create(0, 1, 1, 0, &eout), LSK_EINVAL,
         "0 events");
  ck_assert_ptr_null(eout);
  EX_BAD(NULL, "lsk_pixel_events_create", lsk_pixel_events_create(1, 0, 1, 0, &eout), LSK_EINVAL,
         "0 modules");
  EX_BAD(NULL, "lsk_pixel_events_create", lsk_pixel_events_create(UINT32_MAX, 1, 1, 0, &eout),
         LSK_EINVAL, "4294967295 events");
  EX_BAD(NULL, "lsk_pixel_events_create", lsk_pixel_events_create(1, 1, SIZE_MAX, 0, &eout),
         LSK_EINVAL, "18446744073709551615 digis");
  EX_QUIET("lsk_pixel_events_destroy", (lsk_pixel_events_destroy(NULL), 1));
  uint32_t per[2] = {0, 0};
  EX_BAD(NULL, "lsk_pixel_events_index", lsk_pixel_events_index(NULL, per), LSK_EINVAL,
         "ev is NULL");
  EX_BAD(NULL, "lsk_pixel_events_index", lsk_pixel_events_index(ev, NULL), LSK_EINVAL,
         "per_event is NULL");
  EX_BAD(NULL, "lsk_pixel_events_index", lsk_pixel_events_index(ev, per), LSK_EINVAL, "digis");
  EX_BAD(NULL, "lsk_pixel_events_check", lsk_pixel_events_check(NULL), LSK_EINVAL, "ev is NULL");
  lsk_pixel_events broken = *ev;
  broken.x = NULL;
  EX_BAD(NULL, "lsk_pixel_events_check", lsk_pixel_events_check(&broken), LSK_EINVAL,
         "a digi column or start is NULL");
  broken = *ev;
  broken.events = 0;
  EX_BAD(NULL, "lsk_pixel_events_check", lsk_pixel_events_check(&broken), LSK_EINVAL, "0");
  EX_BAD(NULL, "lsk_pixel_generate", lsk_pixel_generate(&go, NULL), LSK_EINVAL, "out is NULL");
  lsk_pixel_gen_options big = {.events = UINT32_MAX};
  EX_BAD(NULL, "lsk_pixel_generate", lsk_pixel_generate(&big, &eout), LSK_EINVAL, "4294967295");
  /* pixel_file.c (a fuzzed parser, not changed here) reports a bad set
   * under the name of the check it calls. */
  EX_BAD_AT(NULL, "lsk_pixel_events_write", "lsk_pixel_events_check",
            lsk_pixel_events_write(NULL, "/tmp/x.px"), LSK_EINVAL, "ev is NULL");
  EX_BAD(NULL, "lsk_pixel_events_write", lsk_pixel_events_write(ev, NULL), LSK_EINVAL,
         "path is NULL");
  EX_BAD(NULL, "lsk_pixel_events_write", lsk_pixel_events_write(ev, "/nonexistent/dir/x.px"),
         LSK_EIO, "/nonexistent/dir/x.px");
  EX_BAD(NULL, "lsk_pixel_events_read", lsk_pixel_events_read("/tmp/x.px", NULL), LSK_EINVAL,
         "out is NULL");
  EX_BAD(NULL, "lsk_pixel_events_read", lsk_pixel_events_read(NULL, &eout), LSK_EINVAL,
         "path is NULL");
  EX_BAD(NULL, "lsk_pixel_events_read", lsk_pixel_events_read("/nonexistent/x.px", &eout), LSK_EIO,
         "/nonexistent/x.px");
  lsk_pixel_geometry(8, NULL);
  EX_QUIET("lsk_pixel_geometry", 1);
  lsk_pixel_placement pl[1];
  lsk_pixel_geometry(0, pl);
  EX_QUIET("lsk_pixel_geometry", 1);

  lsk_pixel_result *r = NULL, *rout = (lsk_pixel_result *)&rout;
  EX_OK(NULL, lsk_pixel_result_create(ev, &r));
  EX_BAD(NULL, "lsk_pixel_result_create", lsk_pixel_result_create(ev, NULL), LSK_EINVAL,
         "out is NULL");
  EX_BAD(NULL, "lsk_pixel_result_create", lsk_pixel_result_create(NULL, &rout), LSK_EINVAL,
         "ev is NULL");
  ck_assert_ptr_null(rout);
  broken = *ev;
  broken.modules = 0;
  EX_BAD(NULL, "lsk_pixel_result_create", lsk_pixel_result_create(&broken, &rout), LSK_EINVAL,
         "0 modules");
  EX_QUIET("lsk_pixel_result_destroy", (lsk_pixel_result_destroy(NULL), 1));
  EX_BAD(NULL, "lsk_pixel_reference", lsk_pixel_reference(NULL, 0, r), LSK_EINVAL, "ev is NULL");
  EX_BAD(NULL, "lsk_pixel_reference", lsk_pixel_reference(ev, 0, NULL), LSK_EINVAL, "r is NULL");
  broken = *ev;
  broken.digis = ev->digis + 1000;
  EX_BAD(NULL, "lsk_pixel_reference", lsk_pixel_reference(&broken, 0, r), LSK_EINVAL,
         "the result holds");
  EX_BAD(NULL, "lsk_pixel_compare", lsk_pixel_compare(NULL, r, 0), LSK_EINVAL, "want is NULL");
  EX_BAD(NULL, "lsk_pixel_compare", lsk_pixel_compare(r, NULL, 0), LSK_EINVAL, "got is NULL");

  lsk_pixel *px = NULL, *xout = (lsk_pixel *)&xout;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  lsk_pixel *wx = (lsk_pixel *)b;
  EX_BAD(ctx, "lsk_pixel_create", lsk_pixel_create(ctx, NULL, NULL), LSK_EINVAL, "out is NULL");
  EX_BAD(NULL, "lsk_pixel_create", lsk_pixel_create(NULL, NULL, &xout), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(xout);
  lsk_pixel_options xo = {.workers = 1u << 20};
  EX_BAD(ctx, "lsk_pixel_create", lsk_pixel_create(ctx, &xo, &xout), LSK_ELAUNCH,
         "workers 1048576");
  xo = (lsk_pixel_options){.blocks = (size_t)1 << 40};
  EX_BAD(ctx, "lsk_pixel_create", lsk_pixel_create(ctx, &xo, &xout), LSK_ERANGE,
         "blocks 1099511627776");
  xo = (lsk_pixel_options){.lookup = 3};
  EX_BAD(ctx, "lsk_pixel_create", lsk_pixel_create(ctx, &xo, &xout), LSK_EINVAL,
         "lookup 3 is none of LSK_PIXEL_LOOKUP_*");
  EX_BAD(NULL, "lsk_pixel_create", lsk_pixel_create((lsk_context *)b, NULL, &xout), LSK_EINVAL,
         EX_WRONG("context", "buffer"));
  EX_QUIET("lsk_pixel_destroy", (lsk_pixel_destroy(NULL), 1));
  EX_BADV("lsk_pixel_destroy", (lsk_pixel_destroy(wx), 0), 0, EX_WRONG("pixel", "buffer"));
  lsk_pixel_times t;
  EX_BAD(NULL, "lsk_pixel_run", lsk_pixel_run(NULL, ev, &t), LSK_EINVAL, "px is NULL");
  EX_BAD(ctx, "lsk_pixel_run", lsk_pixel_run(px, NULL, &t), LSK_EINVAL, "ev or one of its arrays");
  broken = *ev;
  broken.start = NULL;
  EX_BAD(ctx, "lsk_pixel_run", lsk_pixel_run(px, &broken, &t), LSK_EINVAL,
         "ev or one of its arrays");
  EX_BAD(NULL, "lsk_pixel_run", lsk_pixel_run(wx, ev, &t), LSK_EINVAL, EX_WRONG("pixel", "buffer"));
  EX_BAD(NULL, "lsk_pixel_read", lsk_pixel_read(NULL, r), LSK_EINVAL, "px is NULL");
  EX_BAD(ctx, "lsk_pixel_read", lsk_pixel_read(px, NULL), LSK_EINVAL, "r is NULL");
  EX_BAD(ctx, "lsk_pixel_read", lsk_pixel_read(px, r), LSK_EINVAL, "no run to read");
  EX_BAD(NULL, "lsk_pixel_read", lsk_pixel_read(wx, r), LSK_EINVAL, EX_WRONG("pixel", "buffer"));
  EX_QUIET("lsk_pixel_lookup", lsk_pixel_lookup(NULL) == 0);
  EX_BADV("lsk_pixel_lookup", lsk_pixel_lookup(wx), 0, EX_WRONG("pixel", "buffer"));
  EX_QUIET("lsk_pixel_threshold", lsk_pixel_threshold(NULL) == 0);
  EX_BADV("lsk_pixel_threshold", lsk_pixel_threshold(wx), 0, EX_WRONG("pixel", "buffer"));
  unsigned sw, ss;
  size_t sb;
  EX_BAD(NULL, "lsk_pixel_shape", lsk_pixel_shape(NULL, &sw, &ss, &sb), LSK_EINVAL, "px is NULL");
  EX_BAD(ctx, "lsk_pixel_shape", lsk_pixel_shape(px, NULL, &ss, &sb), LSK_EINVAL,
         "workers is NULL");
  EX_BAD(ctx, "lsk_pixel_shape", lsk_pixel_shape(px, &sw, NULL, &sb), LSK_EINVAL, "simd is NULL");
  EX_BAD(ctx, "lsk_pixel_shape", lsk_pixel_shape(px, &sw, &ss, NULL), LSK_EINVAL, "blocks is NULL");
  EX_BAD(NULL, "lsk_pixel_shape", lsk_pixel_shape(wx, &sw, &ss, &sb), LSK_EINVAL,
         EX_WRONG("pixel", "buffer"));
  EX_QUIET("lsk_pixel_assoc", lsk_pixel_assoc(NULL) == NULL);
  EX_BADV("lsk_pixel_assoc", lsk_pixel_assoc(wx), NULL, EX_WRONG("pixel", "buffer"));
  EX_QUIET("lsk_pixel_queue", lsk_pixel_queue(NULL) == NULL);
  EX_BADV("lsk_pixel_queue", lsk_pixel_queue(wx), NULL, EX_WRONG("pixel", "buffer"));
  xo = (lsk_pixel_options){.queue = (lsk_queue *)b};
  EX_BAD(ctx, "lsk_pixel_create", lsk_pixel_create(ctx, &xo, &xout), LSK_EINVAL,
         EX_WRONG("queue", "buffer"));

  /* pixel.h: the streams. */
  lsk_pixel_stream *ps = NULL, *sout = (lsk_pixel_stream *)&sout, *ws = (lsk_pixel_stream *)b;
  EX_OK(ctx, lsk_pixel_stream_create(ctx, NULL, &ps));
  EX_BAD(ctx, "lsk_pixel_stream_create", lsk_pixel_stream_create(ctx, NULL, NULL), LSK_EINVAL,
         "out is NULL");
  EX_BAD(NULL, "lsk_pixel_stream_create", lsk_pixel_stream_create(NULL, NULL, &sout), LSK_EINVAL,
         "ctx is NULL");
  ck_assert_ptr_null(sout);
  EX_BAD(NULL, "lsk_pixel_stream_create", lsk_pixel_stream_create((lsk_context *)b, NULL, &sout),
         LSK_EINVAL, EX_WRONG("context", "buffer"));
  lsk_pixel_stream_options so = {.streams = 17};
  EX_BAD(ctx, "lsk_pixel_stream_create", lsk_pixel_stream_create(ctx, &so, &sout), LSK_EINVAL,
         "17 streams; at most 16");
  so = (lsk_pixel_stream_options){.batch_events = LSK_PIXEL_MAX_EVENTS + 1};
  EX_BAD(ctx, "lsk_pixel_stream_create", lsk_pixel_stream_create(ctx, &so, &sout), LSK_EINVAL,
         "batches of 1000001 events");
  so = (lsk_pixel_stream_options){.pixel = {.queue = lsk_context_queue(ctx)}};
  EX_BAD(ctx, "lsk_pixel_stream_create", lsk_pixel_stream_create(ctx, &so, &sout), LSK_EINVAL,
         "opt->pixel.queue is set");
  so = (lsk_pixel_stream_options){.streams = 2, .pixel = {.lookup = 3}};
  EX_BAD(ctx, "lsk_pixel_create", lsk_pixel_stream_create(ctx, &so, &sout), LSK_EINVAL,
         "lookup 3 is none of LSK_PIXEL_LOOKUP_*");
  ck_assert_ptr_null(sout);
  EX_QUIET("lsk_pixel_stream_destroy", (lsk_pixel_stream_destroy(NULL), 1));
  EX_BADV("lsk_pixel_stream_destroy", (lsk_pixel_stream_destroy(ws), 0), 0,
          EX_WRONG("pixel_stream", "buffer"));
  EX_BAD(NULL, "lsk_pixel_stream_run", lsk_pixel_stream_run(NULL, ev, r), LSK_EINVAL, "s is NULL");
  EX_BAD(NULL, "lsk_pixel_stream_run", lsk_pixel_stream_run(ws, ev, r), LSK_EINVAL,
         EX_WRONG("pixel_stream", "buffer"));
  EX_BAD(ctx, "lsk_pixel_stream_run", lsk_pixel_stream_run(ps, NULL, r), LSK_EINVAL,
         "ev or one of its arrays");
  broken = *ev;
  broken.modules = 0;
  EX_BAD(ctx, "lsk_pixel_stream_run", lsk_pixel_stream_run(ps, &broken, r), LSK_EINVAL,
         "2 events of 0 modules");
  broken = *ev;
  broken.digis = ev->digis + 1;
  EX_BAD(ctx, "lsk_pixel_stream_run", lsk_pixel_stream_run(ps, &broken, r), LSK_EINVAL,
         "start runs from 0 to");
  lsk_pixel_events *ev3 = NULL;
  go.events = 3;
  EX_OK(NULL, lsk_pixel_generate(&go, &ev3));
  EX_BAD(ctx, "lsk_pixel_stream_run", lsk_pixel_stream_run(ps, ev3, r), LSK_EINVAL,
         "the result holds");
  lsk_pixel_events_destroy(ev3);
  EX_QUIET("lsk_pixel_stream_count", lsk_pixel_stream_count(NULL) == 0);
  EX_BADV("lsk_pixel_stream_count", lsk_pixel_stream_count(ws), 0,
          EX_WRONG("pixel_stream", "buffer"));
  EX_QUIET("lsk_pixel_stream_batch", lsk_pixel_stream_batch(NULL) == 0);
  EX_BADV("lsk_pixel_stream_batch", lsk_pixel_stream_batch(ws), 0,
          EX_WRONG("pixel_stream", "buffer"));
  EX_QUIET("lsk_pixel_stream_pixel", lsk_pixel_stream_pixel(NULL, 0) == NULL);
  EX_QUIET("lsk_pixel_stream_pixel", lsk_pixel_stream_pixel(ps, 1) == NULL);
  EX_BADV("lsk_pixel_stream_pixel", lsk_pixel_stream_pixel(ws, 0), NULL,
          EX_WRONG("pixel_stream", "buffer"));
  lsk_pixel_stream_destroy(ps);

  lsk_pixel_destroy(px);
  lsk_pixel_result_destroy(r);
  lsk_pixel_events_destroy(ev);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

/* A clusterizer and a stream, then their context goes. */
START_TEST(test_bi_pixel_orphans)
{
  lsk_context *ctx = ex_context();
  lsk_pixel *px = NULL;
  lsk_pixel_stream *ps = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  EX_OK(ctx, lsk_pixel_stream_create(ctx, &(lsk_pixel_stream_options){.streams = 2}, &ps));
  lsk_context_destroy(ctx);

  /* Every call but _destroy is refused, naming the dead context. */
  EX_BAD(NULL, "lsk_pixel_read", lsk_pixel_read(px, NULL), LSK_EINVAL, EX_ORPHAN("context"));
  EX_BAD(NULL, "lsk_pixel_stream_run", lsk_pixel_stream_run(ps, NULL, NULL), LSK_EINVAL,
         EX_ORPHAN("context"));
  /* ... and their _destroy still frees them (ASan: no leak, no
   * use-after-free). */
  lsk_pixel_stream_destroy(ps);
  lsk_pixel_destroy(px);
}
END_TEST

Suite *suite_badinput_pixel(void)
{
  Suite *s = suite_create("badinput_pixel");
  TCase *tc = tcase_create("objects");
  tcase_add_test(tc, test_bi_pixel);
  suite_add_tcase(s, tc);
  tc = tcase_create("lifetime");
  tcase_add_test(tc, test_bi_pixel_orphans);
  suite_add_tcase(s, tc);
  return s;
}
