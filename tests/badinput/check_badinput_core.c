/*
 * check_badinput_core.c: bad input to every public function of context.h,
 * device.h, status.h, buffer.h, program.h, tune.h, algo.h, reduce.h,
 * scan.h, compact.h, random.h, histogram.h and sort.h, one row per bad argument
 * (badinput.h): NULL handles, out-parameters and inputs; zero sizes;
 * too-large values; handles of the wrong type or of another context; destroyed handles.
 * check_badinput_data.c has the other headers and the handle lifetimes.
 * One context per test; every object made is destroyed (ASan-clean).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "badinput.h"

static const char *src = "LSK_KERNEL void fill(LSK_CTX, __global uint *data, uint n)\n"
                         "{\n"
                         "  LSK_FOREACH(it) {\n"
                         "    if (it.idx < n)\n"
                         "      data[it.idx] = it.idx;\n"
                         "  }\n"
                         "}\n";

/* ------------------------------------------------------------------ */
/* context.h, device.h, status.h, algo.h                               */

START_TEST(test_bi_context)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *buf = tu_zeros(ctx, 4);
  lsk_context *out = (lsk_context *)&out;

  BAD(NULL, "lsk_context_create", lsk_context_create(NULL, NULL), LSK_EINVAL, "out is NULL");
  lsk_context_options o = {.device = "no-such-device-xyz"};
  BAD(NULL, "lsk_context_create", lsk_context_create(&o, &out), LSK_ENODEV, "no-such-device-xyz");
  ck_assert_ptr_null(out);
  o = (lsk_context_options){.device = "99"};
  BAD(NULL, "lsk_context_create", lsk_context_create(&o, &out), LSK_ENODEV, "'99'");
  o = (lsk_context_options){.shapes = (lsk_shapes)3};
  BAD(NULL, "lsk_context_create", lsk_context_create(&o, &out), LSK_EINVAL,
      "shapes 3 is none of LSK_SHAPES_*");
  ck_assert_ptr_null(out);

  cl_context cl = lsk_context_cl(ctx);
  cl_device_id dev = lsk_context_cl_device(ctx);
  cl_command_queue q = lsk_context_cl_queue(ctx);
  BAD(NULL, "lsk_context_wrap", lsk_context_wrap(cl, dev, q, NULL, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_context_wrap", lsk_context_wrap(NULL, dev, q, NULL, &out), LSK_EINVAL,
      "context is NULL");
  BAD(NULL, "lsk_context_wrap", lsk_context_wrap(cl, NULL, q, NULL, &out), LSK_EINVAL,
      "device is NULL");
  BAD(NULL, "lsk_context_wrap", lsk_context_wrap(cl, dev, NULL, NULL, &out), LSK_EINVAL,
      "queue is NULL");
  BAD(NULL, "lsk_context_wrap",
      lsk_context_wrap(cl, dev, q, &(lsk_context_options){.shapes = (lsk_shapes)-1}, &out),
      LSK_EINVAL, "lsk_context_wrap: shapes -1 is none of LSK_SHAPES_*");
  /* lsk_device_model */
  lsk_device_info dm;
  BAD(NULL, "lsk_device_model", lsk_device_model(LSK_SHAPES_NVIDIA, NULL, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_device_model", lsk_device_model((lsk_shapes)9, NULL, &dm), LSK_EINVAL,
      "shapes 9 is none of LSK_SHAPES_*");
  BAD(NULL, "lsk_device_model", lsk_device_model(LSK_SHAPES_DEVICE, NULL, &dm), LSK_EINVAL,
      "real is NULL with the device's own shapes");
  /* A queue of another OpenCL context. */
  cl_int err;
  cl_context cl2 = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  BAD(NULL, "lsk_context_wrap", lsk_context_wrap(cl2, dev, q, NULL, &out), LSK_EINVAL,
      "the queue belongs to another context");
  clReleaseContext(cl2);
  ck_assert_ptr_null(out);

  /* Destroy: NULL is a no-op; a wrong type is reported and left alone. */
  bi_clear(NULL);
  lsk_context_destroy(NULL);
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(NULL), "bi_sentinel"));
  BADV("lsk_context_destroy", (lsk_context_destroy((lsk_context *)buf), 0), 0,
       "context " /* the pointer */);
  ck_assert_uint_eq(lsk_buffer_size(buf), 16); /* untouched */

  /* errmsg: NULL is the thread's message; a handle that is not a live
   * context reads the thread's message too and writes nothing (the
   * thread's last failure stays what it was). lsk_errmsg takes nothing. */
  bi_clear(NULL);
  QUIET("lsk_context_errmsg", strstr(lsk_context_errmsg(NULL), "bi_sentinel") != NULL);
  QUIET("lsk_errmsg", lsk_errmsg() == lsk_context_errmsg(NULL));
  bi_clear(NULL);
  const char *m = lsk_context_errmsg((lsk_context *)buf);
  QUIET("lsk_context_errmsg", strstr(m, "bi_sentinel") != NULL && m == lsk_errmsg());
  bi_clear(NULL);
  m = lsk_context_errmsg((lsk_context *)&out);
  QUIET("lsk_context_errmsg", strstr(m, "bi_sentinel") != NULL && m == lsk_errmsg());

  /* set_error: returns the status; a NULL or dead context, or a handle of
   * another type, writes the thread's message; a NULL format says so. */
  QUIET("lsk_context_set_error",
        lsk_context_set_error(ctx, LSK_ERANGE, "my_fn: %d", 7) == LSK_ERANGE &&
            strcmp(lsk_context_errmsg(ctx), "my_fn: 7") == 0);
  bi_clear(NULL);
  QUIET("lsk_context_set_error",
        lsk_context_set_error(NULL, LSK_EIO, "my_fn: %s", "io") == LSK_EIO &&
            strcmp(lsk_context_errmsg(NULL), "my_fn: io") == 0);
  QUIET("lsk_context_set_error",
        lsk_context_set_error((lsk_context *)buf, LSK_EINVAL, "my_fn: wrong") == LSK_EINVAL &&
            strcmp(lsk_context_errmsg(NULL), "my_fn: wrong") == 0);
  QUIET("lsk_context_set_error",
        lsk_context_set_error((lsk_context *)&out, LSK_EINVAL, "my_fn: dead") == LSK_EINVAL &&
            strcmp(lsk_context_errmsg(NULL), "my_fn: dead") == 0);
  QUIET("lsk_context_set_error", lsk_context_set_error(NULL, LSK_EINVAL, NULL) == LSK_EINVAL &&
                                     strcmp(lsk_context_errmsg(NULL), "(no message)") == 0);

  /* Getters: NULL gives the neutral value silently; a wrong handle also
   * explains in the thread's message. */
  const lsk_device_info *none = lsk_context_device(NULL);
  ck_assert_ptr_nonnull(none);
  QUIET("lsk_context_device", none->name[0] == 0);
  BADV("lsk_context_device", lsk_context_device((lsk_context *)buf)->name[0], 0,
       WRONG("context", "buffer"));
  bi_clear(NULL);
  QUIET("lsk_context_cl",
        lsk_context_cl(NULL) == NULL && strstr(lsk_context_errmsg(NULL), "bi_sentinel") != NULL);
  BADV("lsk_context_cl", lsk_context_cl((lsk_context *)buf), NULL, WRONG("context", "buffer"));
  QUIET("lsk_context_cl_device", lsk_context_cl_device(NULL) == NULL);
  BADV("lsk_context_cl_device", lsk_context_cl_device((lsk_context *)buf), NULL,
       WRONG("context", "buffer"));
  QUIET("lsk_context_cl_queue", lsk_context_cl_queue(NULL) == NULL);
  BADV("lsk_context_cl_queue", lsk_context_cl_queue((lsk_context *)buf), NULL,
       WRONG("context", "buffer"));
  BAD(NULL, "lsk_context_finish", lsk_context_finish(NULL), LSK_EINVAL, "ctx is NULL");
  BAD(NULL, "lsk_context_finish", lsk_context_finish((lsk_context *)buf), LSK_EINVAL,
      WRONG("context", "buffer"));
  int never;
  BAD(NULL, "lsk_context_finish", lsk_context_finish((lsk_context *)&never), LSK_EINVAL,
      DEAD("context"));

  /* device.h */
  lsk_device_info *list = (lsk_device_info *)&list;
  size_t count = 7;
  BAD(NULL, "lsk_device_list", lsk_device_list(NULL, &count), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_device_list", lsk_device_list(&list, NULL), LSK_EINVAL, "count is NULL");
  lsk_device_list_free(NULL);
  QUIET("lsk_device_list_free", 1);
  unsigned index = 5;
  BAD(NULL, "lsk_device_select", lsk_device_select("0", NULL), LSK_EINVAL, "index is NULL");
  BAD(NULL, "lsk_device_select", lsk_device_select("no-such-device-xyz", &index), LSK_ENODEV,
      "no-such-device-xyz");
  BAD(NULL, "lsk_device_select", lsk_device_select("4294967296", &index), LSK_ENODEV, "4294967296");
  unsigned all[4];
  size_t nall = 9;
  BAD(NULL, "lsk_device_select_all", lsk_device_select_all("0", NULL, 4, &nall), LSK_EINVAL,
      "indices is NULL");
  BAD(NULL, "lsk_device_select_all", lsk_device_select_all("0", all, 4, NULL), LSK_EINVAL,
      "count is NULL");
  BAD(NULL, "lsk_device_select_all", lsk_device_select_all("0", all, 0, &nall), LSK_EINVAL,
      "cap is 0");
  BAD(NULL, "lsk_device_select_all", lsk_device_select_all("0,,0", all, 4, &nall), LSK_EINVAL,
      "part 2 is empty");
  BAD(NULL, "lsk_device_select_all", lsk_device_select_all("0,no-such-device-xyz", all, 4, &nall),
      LSK_ENODEV, "no-such-device-xyz");
  ck_assert_uint_eq(nall, 0);
  /* "*" names every device, once each, in list order. */
  ck_assert_int_eq(lsk_device_select_all("*,0", all, 4, &nall), LSK_OK);
  ck_assert_uint_ge(nall, 1);
  for (size_t i = 0; i < nall; ++i)
    ck_assert_uint_eq(all[i], i);
  BAD(NULL, "lsk_device_select", lsk_device_select("0:99", &index), LSK_ENODEV, "0:99");

  /* status.h, version, algo.h: total functions, checked for their
   * neutral answers. */
  QUIET("lsk_strerror", strcmp(lsk_strerror(-123456), "unknown error") == 0);
  QUIET("lsk_status_name", strcmp(lsk_status_name(12345), "unknown") == 0);
  char nb[32];
  QUIET("lsk_status_name_r", lsk_status_name_r(LSK_EINVAL, NULL, 8) == NULL);
  QUIET("lsk_status_name_r", lsk_status_name_r(LSK_EINVAL, nb, 0) == nb);
  QUIET("lsk_status_name_r",
        strcmp(lsk_status_name_r(-99999, nb, sizeof nb), "unknown (-99999)") == 0);
  QUIET("lsk_status_name_r", strcmp(lsk_status_name_r(LSK_EINVAL, nb, 5), "LSK_") == 0);
  QUIET("lsk_version", lsk_version() != NULL && *lsk_version());
  QUIET("lsk_type_size", lsk_type_size((lsk_type)0) == 0);
  QUIET("lsk_type_size", lsk_type_size((lsk_type)99) == 0);
  QUIET("lsk_type_name", strcmp(lsk_type_name((lsk_type)99), "?") == 0);
  QUIET("lsk_type_name", strcmp(lsk_type_name((lsk_type)-1), "?") == 0);
  lsk_free(NULL);
  QUIET("lsk_free", 1);

  lsk_buffer_destroy(buf);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* handle.h: handles of code built on lsk                              */

typedef struct thing {
  lsk_handle h;
  int payload;
} thing;
static const lsk_handle_type thing_type = {"my_thing", &lsk_context_handle_type, 0};
static const lsk_handle_type loose_type = {"my_loose", NULL, 0};

/* A check made for the caller's own function (fn "my_run"): the status
 * and the text, on msg (NULL: the thread's message). */
static int user_fails(lsk_context *msg, int rc, int want, const char *text)
{
  const char *m = lsk_context_errmsg(msg);
  if (rc != want || !strstr(m, text)) {
    fprintf(stderr, "got %s '%s', wanted %s '%s'\n", lsk_status_name(rc), m, lsk_status_name(want),
            text);
    return 0;
  }
  return 1;
}

START_TEST(test_bi_handle)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *buf = tu_zeros(ctx, 4);
  thing *t = calloc(1, sizeof *t), *u = calloc(1, sizeof *u);
  static const lsk_handle_type nameless = {NULL, NULL, 0}, with_kids = {"k", NULL, 8};
  BAD(NULL, "lsk_handle_add", lsk_handle_add(NULL, &thing_type, ctx), LSK_EINVAL, "h is NULL");
  BAD(NULL, "lsk_handle_add", lsk_handle_add(t, NULL, ctx), LSK_EINVAL, "type is NULL");
  BAD(NULL, "lsk_handle_add", lsk_handle_add(t, &nameless, NULL), LSK_EINVAL, "no name");
  BAD(NULL, "lsk_handle_add", lsk_handle_add(t, &with_kids, NULL), LSK_EINVAL, "kids must be 0");
  BAD(NULL, "lsk_handle_add", lsk_handle_add(t, &thing_type, NULL), LSK_EINVAL, "parent is NULL");
  BAD(NULL, "lsk_handle_add", lsk_handle_add(t, &thing_type, buf), LSK_EINVAL,
      WRONG("context", "buffer"));
  BAD(NULL, "lsk_handle_add", lsk_handle_add(t, &loose_type, ctx), LSK_EINVAL,
      "has no parent type");
  QUIET("lsk_handle_add", lsk_handle_add(t, &thing_type, ctx) == LSK_OK);
  BAD(NULL, "lsk_handle_add", lsk_handle_add(t, &thing_type, ctx), LSK_EINVAL,
      "a live handle already");
  BAD(NULL, "lsk_handle_add", lsk_handle_add(buf, &thing_type, ctx), LSK_EINVAL,
      "a live handle already");

  /* Checks: a live thing passes; NULL, a buffer, a never-made and a
   * removed thing get lsk's own messages, on the context given. */
  QUIET("lsk_handle_check", lsk_handle_check(ctx, t, &thing_type, "my_run", "t") == LSK_OK);
  QUIET("lsk_handle_check", user_fails(ctx, lsk_handle_check(ctx, NULL, &thing_type, "my_run", "t"),
                                       LSK_EINVAL, "my_run: t is NULL"));
  QUIET("lsk_handle_check",
        user_fails(NULL, lsk_handle_check(NULL, buf, &thing_type, "my_run", "t"), LSK_EINVAL,
                   "is not a live my_thing (it is a live lsk_buffer)"));
  QUIET("lsk_handle_check",
        user_fails(NULL, lsk_handle_check(NULL, u, &thing_type, "my_run", "t"), LSK_EINVAL,
                   "is not a live my_thing (destroyed or never created)"));
  QUIET("lsk_handle_check", user_fails(NULL, lsk_handle_check(NULL, t, NULL, "my_run", "t"),
                                       LSK_EINVAL, "type is NULL"));
  QUIET("lsk_handle_check",
        user_fails(NULL, lsk_handle_check(NULL, t, &lsk_context_handle_type, "my_run", "t"),
                   LSK_EINVAL, "is not a live lsk_context (it is a live my_thing)"));

  /* Remove: once; a buffer or a NULL is refused and left alone. */
  QUIET("lsk_handle_remove", user_fails(NULL, lsk_handle_remove(NULL, &thing_type, "my_destroy"),
                                        LSK_EINVAL, "my_destroy: handle is NULL"));
  QUIET("lsk_handle_remove",
        user_fails(NULL, lsk_handle_remove(t, NULL, "my_destroy"), LSK_EINVAL, "type is NULL"));
  QUIET("lsk_handle_remove",
        user_fails(NULL, lsk_handle_remove(buf, &thing_type, "my_destroy"), LSK_EINVAL,
                   "is not a live my_thing (it is a live lsk_buffer)"));
  ck_assert_uint_eq(lsk_buffer_size(buf), 4 * sizeof(uint32_t)); /* untouched */
  /* A context is lsk's to remove: refused, and still live. */
  QUIET("lsk_handle_remove",
        user_fails(NULL, lsk_handle_remove(ctx, &lsk_context_handle_type, "my_destroy"), LSK_EINVAL,
                   "'lsk_context' is lsk's own") &&
            lsk_handle_check(NULL, ctx, &lsk_context_handle_type, "my_run", "ctx") == LSK_OK);
  QUIET("lsk_handle_remove", lsk_handle_remove(t, &thing_type, "my_destroy") == LSK_OK);
  QUIET("lsk_handle_remove",
        user_fails(NULL, lsk_handle_remove(t, &thing_type, "my_destroy"), LSK_EINVAL,
                   "is not a live my_thing (destroyed or never created)"));

  /* An object of a destroyed context is orphaned: every check fails. */
  lsk_context *c2 = tu_context();
  QUIET("lsk_handle_add", lsk_handle_add(u, &thing_type, c2) == LSK_OK);
  lsk_context_destroy(c2);
  QUIET("lsk_handle_check", user_fails(NULL, lsk_handle_check(NULL, u, &thing_type, "my_run", "t"),
                                       LSK_EINVAL, "was destroyed"));
  QUIET("lsk_handle_remove", lsk_handle_remove(u, &thing_type, "my_destroy") == LSK_OK);
  free(t);
  free(u);
  lsk_buffer_destroy(buf);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* buffer.h                                                            */

START_TEST(test_bi_buffer)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *b = tu_zeros(ctx, 4); /* 16 bytes */
  lsk_buffer *out = (lsk_buffer *)&out;
  char data[32] = {0};
  void *ptr = &ptr;
  const size_t big = (size_t)lsk_context_device(ctx)->max_alloc_size + 1;

  BAD(ctx, "lsk_buffer_create", lsk_buffer_create(ctx, 16, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_buffer_create", lsk_buffer_create(NULL, 16, &out), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(out);
  BAD(ctx, "lsk_buffer_create", lsk_buffer_create(ctx, 0, &out), LSK_EINVAL, "size is 0");
  BAD(ctx, "lsk_buffer_create", lsk_buffer_create(ctx, big, &out), LSK_ERANGE, "exceeds");
  BAD(NULL, "lsk_buffer_create", lsk_buffer_create((lsk_context *)b, 16, &out), LSK_EINVAL,
      WRONG("context", "buffer"));

  bi_clear(NULL);
  lsk_buffer_destroy(NULL);
  QUIET("lsk_buffer_destroy", strstr(lsk_context_errmsg(NULL), "bi_sentinel") != NULL);
  BADV("lsk_buffer_destroy", (lsk_buffer_destroy((lsk_buffer *)ctx), 0), 0,
       WRONG("buffer", "context"));
  lsk_buffer *dead = bi_dead_buffer(ctx);
  BADV("lsk_buffer_destroy", (lsk_buffer_destroy(dead), 0), 0, DEAD("buffer"));

  QUIET("lsk_buffer_size", lsk_buffer_size(NULL) == 0);
  dead = bi_dead_buffer(ctx);
  BADV("lsk_buffer_size", lsk_buffer_size(dead), 0, DEAD("buffer"));
  BADV("lsk_buffer_size", lsk_buffer_size((lsk_buffer *)ctx), 0, WRONG("buffer", "context"));
  QUIET("lsk_buffer_cl", lsk_buffer_cl(NULL) == NULL);
  dead = bi_dead_buffer(ctx);
  BADV("lsk_buffer_cl", lsk_buffer_cl(dead), NULL, DEAD("buffer"));

  /* write and read: NULL buffer, NULL host pointer, range, overflow,
   * dead, wrong type. */
  BAD(NULL, "lsk_buffer_write", lsk_buffer_write(NULL, 0, data, 4, NULL), LSK_EINVAL,
      "buf is NULL");
  BAD(ctx, "lsk_buffer_write", lsk_buffer_write(b, 0, NULL, 4, NULL), LSK_EINVAL,
      "host pointer is NULL");
  BAD(ctx, "lsk_buffer_write", lsk_buffer_write(b, 8, data, 12, NULL), LSK_ERANGE,
      "offset 8 + size 12 exceeds the buffer's 16 bytes");
  BAD(ctx, "lsk_buffer_write", lsk_buffer_write(b, SIZE_MAX, data, 4, NULL), LSK_ERANGE,
      "offset 18446744073709551615");
  BAD(ctx, "lsk_buffer_write", lsk_buffer_write(b, 4, data, SIZE_MAX - 2, NULL), LSK_ERANGE,
      "size 18446744073709551613");
  dead = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_write", lsk_buffer_write(dead, 0, data, 4, NULL), LSK_EINVAL,
      DEAD("buffer"));
  BAD(NULL, "lsk_buffer_write", lsk_buffer_write((lsk_buffer *)ctx, 0, data, 4, NULL), LSK_EINVAL,
      WRONG("buffer", "context"));
  BAD(NULL, "lsk_buffer_read", lsk_buffer_read(NULL, 0, data, 4, NULL), LSK_EINVAL, "buf is NULL");
  BAD(ctx, "lsk_buffer_read", lsk_buffer_read(b, 0, NULL, 4, NULL), LSK_EINVAL,
      "host pointer is NULL");
  BAD(ctx, "lsk_buffer_read", lsk_buffer_read(b, 17, data, 0, NULL), LSK_ERANGE, "offset 17");
  BAD(ctx, "lsk_buffer_read", lsk_buffer_read(b, 0, data, 17, NULL), LSK_ERANGE, "size 17");
  BAD(ctx, "lsk_buffer_read", lsk_buffer_read(b, SIZE_MAX - 1, data, 2, NULL), LSK_ERANGE,
      "offset 18446744073709551614");
  dead = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_read", lsk_buffer_read(dead, 0, data, 4, NULL), LSK_EINVAL, DEAD("buffer"));
  BAD(NULL, "lsk_buffer_read", lsk_buffer_read((lsk_buffer *)ctx, 0, data, 4, NULL), LSK_EINVAL,
      WRONG("buffer", "context"));

  uint32_t pat = 7;
  BAD(NULL, "lsk_buffer_fill", lsk_buffer_fill(NULL, &pat, 4, 0, 4, NULL), LSK_EINVAL,
      "buf is NULL");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(b, NULL, 4, 0, 4, NULL), LSK_EINVAL,
      "pattern is NULL");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(b, &pat, 0, 0, 4, NULL), LSK_EINVAL,
      "pattern_size 0");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(b, &pat, 3, 0, 3, NULL), LSK_EINVAL,
      "pattern_size 3");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(b, data, 256, 0, 16, NULL), LSK_EINVAL,
      "pattern_size 256");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(b, &pat, 4, 2, 4, NULL), LSK_EINVAL, "offset 2");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(b, &pat, 4, 0, 20, NULL), LSK_ERANGE, "size 20");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(b, &pat, 4, SIZE_MAX - 3, 4, NULL), LSK_ERANGE,
      "offset 18446744073709551612");
  dead = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_fill", lsk_buffer_fill(dead, &pat, 4, 0, 4, NULL), LSK_EINVAL,
      DEAD("buffer"));

  BAD(NULL, "lsk_buffer_map", lsk_buffer_map(NULL, 0, 4, &ptr, NULL), LSK_EINVAL, "buf is NULL");
  ck_assert_ptr_null(ptr);
  BAD(ctx, "lsk_buffer_map", lsk_buffer_map(b, 0, 4, NULL, NULL), LSK_EINVAL, "ptr is NULL");
  BAD(ctx, "lsk_buffer_map", lsk_buffer_map(b, 0, 0, &ptr, NULL), LSK_EINVAL, "size is 0");
  BAD(ctx, "lsk_buffer_map", lsk_buffer_map(b, 12, 8, &ptr, NULL), LSK_ERANGE,
      "offset 12 + size 8");
  BAD(ctx, "lsk_buffer_map", lsk_buffer_map(b, 8, SIZE_MAX, &ptr, NULL), LSK_ERANGE,
      "size 18446744073709551615");
  dead = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_map", lsk_buffer_map(dead, 0, 4, &ptr, NULL), LSK_EINVAL, DEAD("buffer"));
  BAD(NULL, "lsk_buffer_unmap", lsk_buffer_unmap(NULL, data, NULL), LSK_EINVAL, "buf is NULL");
  BAD(ctx, "lsk_buffer_unmap", lsk_buffer_unmap(b, NULL, NULL), LSK_EINVAL, "ptr is NULL");
  dead = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_unmap", lsk_buffer_unmap(dead, data, NULL), LSK_EINVAL, DEAD("buffer"));
  BAD(NULL, "lsk_buffer_unmap", lsk_buffer_unmap((lsk_buffer *)ctx, data, NULL), LSK_EINVAL,
      WRONG("buffer", "context"));

  /* The buffer still works. */
  TU_OK(ctx, lsk_buffer_write(b, 0, "abcdefghijklmnop", 16, NULL));
  TU_OK(ctx, lsk_buffer_read(b, 0, data, 16, NULL));
  ck_assert_int_eq(memcmp(data, "abcdefghijklmnop", 16), 0);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* program.h, tune.h                                                   */

START_TEST(test_bi_program)
{
  lsk_context *ctx = tu_context();
  lsk_program *prog = tu_program(ctx, "fill.cl", src);
  lsk_kernel *k = tu_kernel(prog, "fill");
  lsk_buffer *b = tu_zeros(ctx, 64);
  lsk_program *pout = (lsk_program *)&pout;
  lsk_kernel *kout = (lsk_kernel *)&kout;

  BAD(ctx, "lsk_program_create", lsk_program_create(ctx, src, NULL, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_program_create", lsk_program_create(NULL, src, NULL, &pout), LSK_EINVAL,
      "ctx is NULL");
  ck_assert_ptr_null(pout);
  BAD(ctx, "lsk_program_create", lsk_program_create(ctx, NULL, NULL, &pout), LSK_EINVAL,
      "source is NULL");
  BAD(ctx, "lsk_program_create", lsk_program_create(ctx, "", NULL, &pout), LSK_EINVAL,
      "source is empty");
  BAD(NULL, "lsk_program_create", lsk_program_create((lsk_context *)prog, src, NULL, &pout),
      LSK_EINVAL, WRONG("context", "program"));
  BAD(ctx, "lsk_program_create",
      lsk_program_create(ctx, "LSK_DECLARE_DOMAIN(fill, 0);\n", NULL, &pout), LSK_EINVAL,
      "LSK_DECLARE_DOMAIN");
  BAD(ctx, "lsk_program_create_file", lsk_program_create_file(ctx, "x.cl", NULL, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_program_create_file", lsk_program_create_file(NULL, "x.cl", NULL, &pout),
      LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_program_create_file", lsk_program_create_file(ctx, NULL, NULL, &pout), LSK_EINVAL,
      "path is NULL");
  BAD(ctx, "lsk_program_create_file",
      lsk_program_create_file(ctx, "/nonexistent/dir/x.cl", NULL, &pout), LSK_EIO,
      "/nonexistent/dir/x.cl");
  BAD(NULL, "lsk_program_create_file",
      lsk_program_create_file((lsk_context *)b, "x.cl", NULL, &pout), LSK_EINVAL,
      WRONG("context", "buffer"));

  BADV("lsk_program_destroy", (lsk_program_destroy((lsk_program *)k), 0), 0,
       WRONG("program", "kernel"));
  QUIET("lsk_program_destroy", (lsk_program_destroy(NULL), 1));

  lsk_program_stats st;
  BAD(NULL, "lsk_program_stats_get", lsk_program_stats_get(NULL, &st), LSK_EINVAL, "prog is NULL");
  BAD(ctx, "lsk_program_stats_get", lsk_program_stats_get(prog, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_program_stats_get", lsk_program_stats_get((lsk_program *)k, &st), LSK_EINVAL,
      WRONG("program", "kernel"));

  lsk_launch cfg = {.domain = {32}, .blocks = {2}};
  BAD(NULL, "lsk_program_build", lsk_program_build(NULL, "fill", &cfg), LSK_EINVAL, "prog is NULL");
  BAD(ctx, "lsk_program_build", lsk_program_build(prog, NULL, &cfg), LSK_EINVAL,
      "name is NULL or empty");
  BAD(ctx, "lsk_program_build", lsk_program_build(prog, "fill", NULL), LSK_EINVAL, "cfg is NULL");
  BAD(ctx, "lsk_program_build", lsk_program_build(prog, "nosuch", &cfg), LSK_ENOKERNEL, "'nosuch'");
  lsk_launch huge = {.domain = {1u << 30}, .blocks = {1}};
  BAD(ctx, "lsk_program_build", lsk_program_build(prog, "fill", &huge), LSK_EDOMAIN, "1073741824");
  BAD(NULL, "lsk_program_build", lsk_program_build((lsk_program *)ctx, "fill", &cfg), LSK_EINVAL,
      WRONG("program", "context"));

  /* lsk_program_kernel_names: a live program and a domain (given or
   * declared); the names of a good one. */
  char *names = (char *)&names;
  BAD(NULL, "lsk_program_kernel_names", lsk_program_kernel_names(NULL, &cfg, &names), LSK_EINVAL,
      "prog is NULL");
  ck_assert_ptr_null(names);
  BAD(ctx, "lsk_program_kernel_names", lsk_program_kernel_names(prog, NULL, &names), LSK_EINVAL,
      "cfg is NULL");
  BAD(ctx, "lsk_program_kernel_names", lsk_program_kernel_names(prog, &cfg, NULL), LSK_EINVAL,
      "names is NULL");
  lsk_launch nodom = {.blocks = {1}};
  BAD(ctx, "lsk_program_kernel_names", lsk_program_kernel_names(prog, &nodom, &names), LSK_EDOMAIN,
      "declares no block domain and cfg gives none");
  lsk_launch zero_x = {.domain = {0, 4}, .blocks = {1}};
  BAD(ctx, "lsk_program_kernel_names", lsk_program_kernel_names(prog, &zero_x, &names), LSK_EINVAL,
      "domain 0x4x0 has a zero extent");
  BAD(ctx, "lsk_program_kernel_names", lsk_program_kernel_names(prog, &huge, &names), LSK_EDOMAIN,
      "1073741824");
  lsk_launch wide_w = {.domain = {32}, .blocks = {1}, .workers = 1u << 20};
  BAD(ctx, "lsk_program_kernel_names", lsk_program_kernel_names(prog, &wide_w, &names), LSK_ELAUNCH,
      "workers 1048576");
  BAD(NULL, "lsk_program_kernel_names", lsk_program_kernel_names((lsk_program *)ctx, &cfg, &names),
      LSK_EINVAL, WRONG("program", "context"));
  TU_OK(ctx, lsk_program_kernel_names(prog, &cfg, &names));
  ck_assert_msg(strstr(names, "fill") != NULL, "kernel names: %s", names);
  lsk_free(names);

  /* lsk_program_text and lsk_source_declared_domain: no context; the
   * messages go to the thread. */
  static const unsigned dom64[3] = {64, 0, 0};
  char *text = (char *)&text, *topts = (char *)&topts;
  BAD(NULL, "lsk_program_text", lsk_program_text("x", NULL, dom64, 64, 1, NULL, &topts), LSK_EINVAL,
      "text is NULL");
  ck_assert_ptr_null(topts);
  BAD(NULL, "lsk_program_text", lsk_program_text("x", NULL, dom64, 64, 1, &text, NULL), LSK_EINVAL,
      "options is NULL");
  ck_assert_ptr_null(text);
  BAD(NULL, "lsk_program_text", lsk_program_text(NULL, NULL, dom64, 64, 1, &text, &topts),
      LSK_EINVAL, "source is NULL");
  BAD(NULL, "lsk_program_text", lsk_program_text("", NULL, dom64, 64, 1, &text, &topts), LSK_EINVAL,
      "source is empty");
  BAD(NULL, "lsk_program_text", lsk_program_text("x", NULL, NULL, 64, 1, &text, &topts), LSK_EINVAL,
      "domain is NULL");
  BAD(NULL, "lsk_program_text",
      lsk_program_text("x", NULL, (const unsigned[3]){0, 2, 0}, 64, 1, &text, &topts), LSK_EINVAL,
      "domain 0x2x1: domain[0] is 0");
  BAD(NULL, "lsk_program_text",
      lsk_program_text("x", NULL, (const unsigned[3]){1u << 13, 1u << 12, 0}, 64, 1, &text, &topts),
      LSK_EINVAL, "domain 8192x4096x1: more indices than LSK_MAX_DOMAIN");
  BAD(NULL, "lsk_program_text", lsk_program_text("x", NULL, dom64, 0, 1, &text, &topts), LSK_EINVAL,
      "workers is 0");
  BAD(NULL, "lsk_program_text", lsk_program_text("x", NULL, dom64, 64, 0, &text, &topts),
      LSK_EINVAL, "simd is 0");
  BAD(NULL, "lsk_program_text",
      lsk_program_text("x", NULL, dom64, 1u << 16, 1u << 16, &text, &topts), LSK_EINVAL,
      "simd 65536 x 65536 workers exceeds 2^30");
  unsigned got[3] = {9, 9, 9};
  int declared = 9;
  BAD(NULL, "lsk_source_declared_domain", lsk_source_declared_domain(NULL, "k", got, &declared),
      LSK_EINVAL, "source is NULL");
  ck_assert_int_eq(declared, 0);
  BAD(NULL, "lsk_source_declared_domain", lsk_source_declared_domain("", "k", NULL, &declared),
      LSK_EINVAL, "domain is NULL");
  BAD(NULL, "lsk_source_declared_domain", lsk_source_declared_domain("", "k", got, NULL),
      LSK_EINVAL, "declared is NULL");
  BAD(NULL, "lsk_source_declared_domain",
      lsk_source_declared_domain("\nLSK_DECLARE_DOMAIN2(k, 4);\n", "k", got, &declared), LSK_EINVAL,
      "line 2: malformed LSK_DECLARE_DOMAIN");
  char *report = (char *)&report;
  BAD(NULL, "lsk_source_check", lsk_source_check(NULL, "k.cl", 0, &report), LSK_EINVAL,
      "source is NULL");
  ck_assert_ptr_null(report);
  BAD(NULL, "lsk_source_check", lsk_source_check("", "k.cl", 0, NULL), LSK_EINVAL,
      "report is NULL");
  BAD(NULL, "lsk_source_check", lsk_source_check("", "k.cl", 6u, &report), LSK_EINVAL,
      "flags 0x6: unknown bits");
  ck_assert_ptr_null(report);
  /* A program whose text is refused: lsk_program_text's EBUILD names the line. */
  BAD(NULL, "lsk_program_text",
      lsk_program_text("LSK_KERNEL void k(LSK_CTX)\n{\n  LSK_FOREACH(it) lsk_sync();\n}\n",
                       &(lsk_program_options){.name = "k.cl"}, dom64, 64, 1, &text, &topts),
      LSK_EBUILD, "k.cl:3: lsk_sync inside LSK_FOREACH (line 3)");
  ck_assert_ptr_null(text);

  BAD(ctx, "lsk_kernel_create", lsk_kernel_create(prog, "fill", NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_kernel_create", lsk_kernel_create(NULL, "fill", &kout), LSK_EINVAL,
      "prog is NULL");
  ck_assert_ptr_null(kout);
  BAD(ctx, "lsk_kernel_create", lsk_kernel_create(prog, NULL, &kout), LSK_EINVAL,
      "name is NULL or empty");
  BAD(ctx, "lsk_kernel_create", lsk_kernel_create(prog, "", &kout), LSK_EINVAL,
      "name is NULL or empty");
  BAD(NULL, "lsk_kernel_create", lsk_kernel_create((lsk_program *)ctx, "fill", &kout), LSK_EINVAL,
      WRONG("program", "context"));
  BADV("lsk_kernel_destroy", (lsk_kernel_destroy((lsk_kernel *)prog), 0), 0,
       WRONG("kernel", "program"));
  QUIET("lsk_kernel_destroy", (lsk_kernel_destroy(NULL), 1));

  unsigned dom[3] = {9, 9, 9};
  QUIET("lsk_kernel_declared_domain", lsk_kernel_declared_domain(NULL, dom) == 0);
  QUIET("lsk_kernel_declared_domain", lsk_kernel_declared_domain(k, NULL) == 0);
  BADV("lsk_kernel_declared_domain", lsk_kernel_declared_domain((lsk_kernel *)prog, dom), 0,
       WRONG("kernel", "program"));

  /* Launches: the same checks for launch and run. */
  lsk_layout *soa_l = NULL;
  lsk_soa *soa = NULL, *dead_soa = NULL;
  TU_OK(NULL, lsk_layout_create("bi", 16, &soa_l));
  TU_OK(NULL, lsk_layout_add_column(soa_l, "float", "x"));
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){soa_l}, (size_t[]){4}, &soa));
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){soa_l}, (size_t[]){4}, &dead_soa));
  lsk_soa_destroy(dead_soa);
  const char *fns[] = {"lsk_kernel_launch", "lsk_kernel_run"};
  for (int r = 0; r < 2; ++r) {
#define LAUNCH(kk, c, ...)                                                                         \
  (r ? lsk_kernel_run(kk, c, __VA_ARGS__, NULL) : lsk_kernel_launch(kk, c, __VA_ARGS__, NULL))
    BAD(NULL, fns[r], LAUNCH(NULL, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64))), LSK_EINVAL,
        "kernel is NULL");
    BAD(NULL, fns[r],
        LAUNCH((lsk_kernel *)prog, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64))), LSK_EINVAL,
        WRONG("kernel", "program"));
    BAD(ctx, fns[r], LAUNCH(k, NULL, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64))), LSK_EINVAL,
        "cfg is NULL");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, NULL, 2), LSK_EINVAL, "args is NULL");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b))), LSK_EARGS,
        "takes 2 arguments after LSK_CTX; the launch gives 1");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(NULL), LSK_ARG_UINT(64))), LSK_EINVAL,
        "argument 0: buffer is NULL");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_UINT(1), LSK_ARG_UINT(64))), LSK_EARGS,
        "argument 0");
    lsk_buffer *dead = bi_dead_buffer(ctx);
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(dead), LSK_ARG_UINT(64))), LSK_EINVAL,
        "argument 0: buffer");
    BAD(ctx, fns[r],
        LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER((lsk_buffer *)prog), LSK_ARG_UINT(64))), LSK_EINVAL,
        WRONG("buffer", "program"));
    /* The composite kinds: expanded first, each bad value named with its
     * argument (the soa rows after an lsk_soa_create, which makes the
     * launch know the kind). */
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_BUFFERS(b, 0), LSK_ARG_UINT(64))), LSK_EINVAL,
        "argument 0: LSK_ARG_BUFFERS count 0 is not in 1..1024");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_UINT(64), LSK_ARG_BUFFERS(b, 1025))),
        LSK_EINVAL, "argument 1: LSK_ARG_BUFFERS count 1025 is not in 1..1024");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_BUFFERS(NULL, 1), LSK_ARG_UINT(64))),
        LSK_EINVAL, "argument 0: buffer is NULL");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_SOA(NULL, 0), LSK_ARG_UINT(64))), LSK_EINVAL,
        "argument 0: LSK_ARG_SOA of NULL");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_SOA(soa, 1))), LSK_EINVAL,
        "argument 1: LSK_ARG_SOA part 1: the soa has 1");
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_SOA(prog, 0), LSK_ARG_UINT(64))), LSK_EINVAL,
        WRONG("soa", "program"));
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_SOA(dead_soa, 0), LSK_ARG_UINT(64))),
        LSK_EINVAL, DEAD("soa"));
    /* A soa of one column gives 3 arguments: the count is checked after. */
    BAD(ctx, fns[r], LAUNCH(k, &cfg, LSK_ARGS(LSK_ARG_SOA(soa, 0))), LSK_EARGS,
        "takes 2 arguments after LSK_CTX; the launch gives 3");
    lsk_launch zero = {.domain = {32}, .blocks = {0}};
    BAD(ctx, fns[r], LAUNCH(k, &zero, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64))), LSK_EINVAL,
        "blocks[0] is 0");
    lsk_launch nodom = {.blocks = {1}};
    BAD(ctx, fns[r], LAUNCH(k, &nodom, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64))), LSK_EDOMAIN,
        "fill");
    lsk_launch wide = {.domain = {32}, .blocks = {1}, .workers = 1u << 20};
    BAD(ctx, fns[r], LAUNCH(k, &wide, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64))), LSK_ELAUNCH,
        "1048576");
    lsk_launch grid = {.domain = {32}, .blocks = {SIZE_MAX}};
    BAD(ctx, fns[r], LAUNCH(k, &grid, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64))), LSK_ELAUNCH,
        "18446744073709551615");
#undef LAUNCH
  }
  lsk_soa_destroy(soa);
  lsk_layout_destroy(soa_l);

  unsigned w = 0, s = 0;
  BAD(NULL, "lsk_kernel_shape", lsk_kernel_shape(NULL, &cfg, &w, &s), LSK_EINVAL, "kernel is NULL");
  BAD(ctx, "lsk_kernel_shape", lsk_kernel_shape(k, NULL, &w, &s), LSK_EINVAL, "cfg is NULL");
  BAD(ctx, "lsk_kernel_shape", lsk_kernel_shape(k, &cfg, NULL, &s), LSK_EINVAL, "workers is NULL");
  BAD(ctx, "lsk_kernel_shape", lsk_kernel_shape(k, &cfg, &w, NULL), LSK_EINVAL, "simd is NULL");
  lsk_launch wide = {.domain = {32}, .blocks = {1}, .workers = 1u << 20};
  BAD(ctx, "lsk_kernel_shape", lsk_kernel_shape(k, &wide, &w, &s), LSK_ELAUNCH, "1048576");
  BAD(NULL, "lsk_kernel_shape", lsk_kernel_shape((lsk_kernel *)b, &cfg, &w, &s), LSK_EINVAL,
      WRONG("kernel", "buffer"));

  /* lsk_kernel_query: lsk_kernel_shape's checks, and the same shape. */
  lsk_kernel_info ki;
  BAD(NULL, "lsk_kernel_query", lsk_kernel_query(NULL, &cfg, &ki), LSK_EINVAL, "k is NULL");
  BAD(ctx, "lsk_kernel_query", lsk_kernel_query(k, NULL, &ki), LSK_EINVAL, "cfg is NULL");
  BAD(ctx, "lsk_kernel_query", lsk_kernel_query(k, &cfg, NULL), LSK_EINVAL, "out is NULL");
  BAD(ctx, "lsk_kernel_query", lsk_kernel_query(k, &wide, &ki), LSK_ELAUNCH, "1048576");
  BAD(NULL, "lsk_kernel_query", lsk_kernel_query((lsk_kernel *)b, &cfg, &ki), LSK_EINVAL,
      WRONG("kernel", "buffer"));
  QUIET("lsk_kernel_query", lsk_kernel_shape(k, &cfg, &w, &s) == LSK_OK &&
                                lsk_kernel_query(k, &cfg, &ki) == LSK_OK && ki.workers == w &&
                                ki.simd == s && ki.work_group_max >= w);

  /* lsk_auto_blocks: no status; a NULL device counts one compute unit of
   * a CPU (4 blocks), nothing still gives one block, and the count stays
   * below 2^32 whatever is asked. */
  QUIET("lsk_auto_blocks",
        lsk_auto_blocks(NULL, 0, 0, 0) == 1 && lsk_auto_blocks(NULL, 100, 10, 0) == 4 &&
            lsk_auto_blocks(NULL, 100, 10, 64) == 10 &&
            lsk_auto_blocks(NULL, 101, 0, 1000) == 101 &&
            lsk_auto_blocks(lsk_context_device(ctx), SIZE_MAX, 1, UINT_MAX) <= UINT32_MAX);

  /* lsk_auto_shape and lsk_tune_candidates: no status; NULL device or
   * outputs are ignored, a zero domain gives nothing. */
  w = s = 7;
  lsk_auto_shape(NULL, 64, 0, &w, &s);
  QUIET("lsk_auto_shape", w == 1 && s == 1);
  lsk_auto_shape(lsk_context_device(ctx), 64, 0, NULL, NULL);
  QUIET("lsk_auto_shape", 1);
  w = s = 7;
  lsk_auto_shape(lsk_context_device(ctx), 0, 0, &w, &s);
  QUIET("lsk_auto_shape", w == 1 && s == 1);
  lsk_tune_shape shapes[4];
  QUIET("lsk_tune_candidates", lsk_tune_candidates(NULL, 64, 0, shapes, 4) == 0);
  QUIET("lsk_tune_candidates", lsk_tune_candidates(lsk_context_device(ctx), 0, 0, shapes, 4) == 0);
  QUIET("lsk_tune_candidates", lsk_tune_candidates(lsk_context_device(ctx), 64, 0, NULL, 0) > 0);
  lsk_tune_result_free(NULL);
  QUIET("lsk_tune_result_free", 1);

  lsk_tune_result tr;
  BAD(NULL, "lsk_tune",
      lsk_tune(NULL, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL, &tr, NULL),
      LSK_EINVAL, "kernel is NULL");
  BAD(ctx, "lsk_tune",
      lsk_tune(k, NULL, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL, &tr, NULL), LSK_EINVAL,
      "cfg is NULL");
  BAD(ctx, "lsk_tune",
      lsk_tune(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL, NULL, NULL),
      LSK_EINVAL, "out is NULL");
  BAD(ctx, "lsk_tune", lsk_tune(k, &cfg, NULL, 2, NULL, &tr, NULL), LSK_EINVAL, "args is NULL");
  lsk_tune_options to = {.ncandidates = 3};
  BAD(ctx, "lsk_tune",
      lsk_tune(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), &to, &tr, NULL), LSK_EINVAL,
      "3 candidates but candidates is NULL");
  to = (lsk_tune_options){.repeat = 1000000};
  BAD(ctx, "lsk_tune",
      lsk_tune(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), &to, &tr, NULL), LSK_EINVAL,
      "repeat 1000000");
  lsk_buffer *dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_tune",
      lsk_tune(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(dead), LSK_ARG_UINT(64)), NULL, &tr, NULL),
      LSK_EINVAL, DEAD("buffer"));
  BAD(NULL, "lsk_tune",
      lsk_tune((lsk_kernel *)b, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL, &tr,
               NULL),
      LSK_EINVAL, WRONG("kernel", "buffer"));

  int found = 5;
  BAD(NULL, "lsk_tune_stored", lsk_tune_stored(NULL, &cfg, &found, &w, &s), LSK_EINVAL,
      "kernel is NULL");
  ck_assert_int_eq(found, 0);
  BAD(ctx, "lsk_tune_stored", lsk_tune_stored(k, NULL, &found, &w, &s), LSK_EINVAL, "cfg is NULL");
  BAD(ctx, "lsk_tune_stored", lsk_tune_stored(k, &cfg, NULL, &w, &s), LSK_EINVAL, "found is NULL");
  BAD(ctx, "lsk_tune_stored", lsk_tune_stored(k, &cfg, &found, NULL, &s), LSK_EINVAL,
      "workers is NULL");
  BAD(ctx, "lsk_tune_stored", lsk_tune_stored(k, &cfg, &found, &w, NULL), LSK_EINVAL,
      "simd is NULL");
  BAD(NULL, "lsk_tune_stored", lsk_tune_stored((lsk_kernel *)b, &cfg, &found, &w, &s), LSK_EINVAL,
      WRONG("kernel", "buffer"));
  QUIET("lsk_tune_dir", lsk_tune_dir(NULL) == NULL);
  BADV("lsk_tune_dir", lsk_tune_dir((lsk_context *)b), NULL, WRONG("context", "buffer"));

  /* Everything still works. */
  TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL));
  unsigned *h = tu_read_uints(ctx, b, 64);
  for (unsigned i = 0; i < 64; ++i)
    ck_assert_uint_eq(h[i], i < 32 ? i : 0); /* the kernel writes its domain only */
  free(h);
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* reduce.h, scan.h, compact.h                                         */

START_TEST(test_bi_algo)
{
  lsk_context *ctx = tu_context();
  lsk_context *other = tu_context();
  lsk_buffer *in = tu_zeros(ctx, 64), *out = tu_zeros(ctx, 64);
  lsk_buffer *foreign = tu_zeros(other, 64);
  uint32_t res = 0;
  const lsk_type U = LSK_TYPE_UINT;

  BAD(NULL, "lsk_reduce", lsk_reduce(NULL, U, LSK_OP_SUM, in, 0, 64, &res, sizeof res, NULL, NULL),
      LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_reduce",
      lsk_reduce(ctx, LSK_TYPE_ULONG, LSK_OP_SUM, in, 0, 32, &res, sizeof res, NULL, NULL),
      LSK_EINVAL, "result_size 4 does not match LSK_TYPE_ULONG (8 bytes)");
  BAD(ctx, "lsk_reduce", lsk_reduce(ctx, U, LSK_OP_SUM, in, 0, 64, &res, 0, NULL, NULL), LSK_EINVAL,
      "result_size 0 does not match LSK_TYPE_UINT (4 bytes)");
  BAD(NULL, "lsk_reduce",
      lsk_reduce((lsk_context *)in, U, LSK_OP_SUM, in, 0, 64, &res, sizeof res, NULL, NULL),
      LSK_EINVAL, WRONG("context", "buffer"));
  BAD(ctx, "lsk_reduce", lsk_reduce(ctx, U, LSK_OP_SUM, in, 0, 64, NULL, 0, NULL, NULL), LSK_EINVAL,
      "result is NULL");
  BAD(ctx, "lsk_reduce", lsk_reduce(ctx, U, LSK_OP_SUM, NULL, 0, 64, &res, sizeof res, NULL, NULL),
      LSK_EINVAL, "is NULL");
  BAD(ctx, "lsk_reduce",
      lsk_reduce(ctx, (lsk_type)99, LSK_OP_SUM, in, 0, 64, &res, sizeof res, NULL, NULL),
      LSK_EINVAL, "type 99");
  BAD(ctx, "lsk_reduce", lsk_reduce(ctx, U, (lsk_op)99, in, 0, 64, &res, sizeof res, NULL, NULL),
      LSK_EINVAL, "99");
  BAD(ctx, "lsk_reduce", lsk_reduce(ctx, U, LSK_OP_SUM, in, 0, 65, &res, sizeof res, NULL, NULL),
      LSK_ERANGE, "[0, 65)");
  BAD(ctx, "lsk_reduce",
      lsk_reduce(ctx, U, LSK_OP_SUM, in, SIZE_MAX, 2, &res, sizeof res, NULL, NULL), LSK_ERANGE,
      "offset 18446744073709551615");
  BAD(ctx, "lsk_reduce",
      lsk_reduce(ctx, U, LSK_OP_SUM, foreign, 0, 64, &res, sizeof res, NULL, NULL), LSK_EINVAL,
      "belongs to another context");
  lsk_buffer *dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_reduce", lsk_reduce(ctx, U, LSK_OP_SUM, dead, 0, 64, &res, sizeof res, NULL, NULL),
      LSK_EINVAL, DEAD("buffer"));

  BAD(NULL, "lsk_reduce_to", lsk_reduce_to(NULL, U, LSK_OP_SUM, in, 0, 64, out, 0, NULL, NULL),
      LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_reduce_to", lsk_reduce_to(ctx, U, LSK_OP_SUM, in, 0, 64, NULL, 0, NULL, NULL),
      LSK_EINVAL, "is NULL");
  BAD(ctx, "lsk_reduce_to", lsk_reduce_to(ctx, U, LSK_OP_SUM, in, 0, 64, out, 64, NULL, NULL),
      LSK_ERANGE, "[64, 65)");
  BAD(ctx, "lsk_reduce_to", lsk_reduce_to(ctx, U, LSK_OP_SUM, in, 0, 64, foreign, 0, NULL, NULL),
      LSK_EINVAL, "belongs to another context");
  BAD(ctx, "lsk_reduce_to",
      lsk_reduce_to(ctx, (lsk_type)0, LSK_OP_SUM, in, 0, 64, out, 0, NULL, NULL), LSK_EINVAL,
      "type 0");
  dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_reduce_to", lsk_reduce_to(ctx, U, LSK_OP_SUM, in, 0, 64, dead, 0, NULL, NULL),
      LSK_EINVAL, DEAD("buffer"));
  BAD(NULL, "lsk_reduce_to",
      lsk_reduce_to((lsk_context *)in, U, LSK_OP_SUM, in, 0, 64, out, 0, NULL, NULL), LSK_EINVAL,
      WRONG("context", "buffer"));

  /* lsk_random_fill */
  const lsk_random_dist RU = LSK_RANDOM_UNIFORM;
  BAD(NULL, "lsk_random_fill", lsk_random_fill(NULL, out, 0, 64, U, RU, 1, 0, NULL, NULL),
      LSK_EINVAL, "ctx is NULL");
  BAD(NULL, "lsk_random_fill",
      lsk_random_fill((lsk_context *)in, out, 0, 64, U, RU, 1, 0, NULL, NULL), LSK_EINVAL,
      WRONG("context", "buffer"));
  BAD(ctx, "lsk_random_fill", lsk_random_fill(ctx, NULL, 0, 64, U, RU, 1, 0, NULL, NULL),
      LSK_EINVAL, "is NULL");
  BAD(ctx, "lsk_random_fill", lsk_random_fill(ctx, out, 0, 64, LSK_TYPE_INT, RU, 1, 0, NULL, NULL),
      LSK_EINVAL, "type 1");
  BAD(ctx, "lsk_random_fill",
      lsk_random_fill(ctx, out, 0, 64, U, (lsk_random_dist)7, 1, 0, NULL, NULL), LSK_EINVAL,
      "dist 7");
  BAD(ctx, "lsk_random_fill",
      lsk_random_fill(ctx, out, 0, 64, U, LSK_RANDOM_NORMAL, 1, 0, NULL, NULL), LSK_EINVAL,
      "uint takes LSK_RANDOM_UNIFORM");
  BAD(ctx, "lsk_random_fill", lsk_random_fill(ctx, out, 1, 64, U, RU, 1, 0, NULL, NULL), LSK_ERANGE,
      "[1, 65)");
  BAD(ctx, "lsk_random_fill", lsk_random_fill(ctx, foreign, 0, 64, U, RU, 1, 0, NULL, NULL),
      LSK_EINVAL, "belongs to another context");
  lsk_algo_options wide_fill = {.workers = 1u << 20};
  BAD(ctx, "lsk_random_fill", lsk_random_fill(ctx, out, 0, 64, U, RU, 1, 0, &wide_fill, NULL),
      LSK_ELAUNCH, "1048576");
  QUIET("lsk_random_fill", lsk_random_fill(ctx, out, 64, 0, U, RU, 1, 0, NULL, NULL) == LSK_OK);

  /* lsk_histogram_uint, lsk_histogram_real (out: 64 counters) */
  BAD(NULL, "lsk_histogram_uint", lsk_histogram_uint(NULL, in, 0, 64, 7, out, 0, NULL, NULL),
      LSK_EINVAL, "ctx is NULL");
  BAD(NULL, "lsk_histogram_uint",
      lsk_histogram_uint((lsk_context *)in, in, 0, 64, 7, out, 0, NULL, NULL), LSK_EINVAL,
      WRONG("context", "buffer"));
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, NULL, 0, 64, 7, out, 0, NULL, NULL),
      LSK_EINVAL, "keys is NULL");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 0, 64, 7, NULL, 0, NULL, NULL),
      LSK_EINVAL, "bins_out is NULL");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 0, 64, 0, out, 0, NULL, NULL),
      LSK_EINVAL, "lsk_histogram_uint: nbins is 0");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 1, 64, 7, out, 0, NULL, NULL),
      LSK_ERANGE, "keys: elements [1, 65)");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 0, 64, 64, out, 0, NULL, NULL),
      LSK_ERANGE, "bins_out: elements [0, 65)");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 0, 64, 7, out, 60, NULL, NULL),
      LSK_ERANGE, "bins_out: elements [60, 68)");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 0, 64, UINT32_MAX, out, 0, NULL, NULL),
      LSK_ERANGE, "nbins 4294967295 + 1 extra counters exceed 2^32 - 1");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, SIZE_MAX, 2, 7, out, 0, NULL, NULL),
      LSK_ERANGE, "offset 18446744073709551615");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 0, 64, 7, foreign, 0, NULL, NULL),
      LSK_EINVAL, "belongs to another context");
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, in, 0, 64, 7, out, 0, &wide_fill, NULL),
      LSK_ELAUNCH, "1048576");
  dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_histogram_uint", lsk_histogram_uint(ctx, dead, 0, 64, 7, out, 0, NULL, NULL),
      LSK_EINVAL, DEAD("buffer"));
  QUIET("lsk_histogram_uint", lsk_histogram_uint(ctx, in, 64, 0, 7, out, 0, NULL, NULL) == LSK_OK);

  const lsk_type F = LSK_TYPE_FLOAT;
  BAD(NULL, "lsk_histogram_real",
      lsk_histogram_real(NULL, F, in, 0, 64, 0, 1, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "ctx is NULL");
  BAD(ctx, "lsk_histogram_real", lsk_histogram_real(ctx, U, in, 0, 64, 0, 1, 7, out, 0, NULL, NULL),
      LSK_EINVAL, "lsk_histogram_real: type 2");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, NULL, 0, 64, 0, 1, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "values is NULL");
  BAD(ctx, "lsk_histogram_real", lsk_histogram_real(ctx, F, in, 0, 64, 0, 1, 0, out, 0, NULL, NULL),
      LSK_EINVAL, "nbins is 0");
  BAD(ctx, "lsk_histogram_real", lsk_histogram_real(ctx, F, in, 0, 64, 1, 1, 7, out, 0, NULL, NULL),
      LSK_EINVAL, "lo 1 is not below hi 1");
  BAD(ctx, "lsk_histogram_real", lsk_histogram_real(ctx, F, in, 0, 64, 2, 1, 7, out, 0, NULL, NULL),
      LSK_EINVAL, "lo 2 is not below hi 1");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, in, 0, 64, NAN, 1, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "lo nan and hi 1 must be finite");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, in, 0, 64, 0, INFINITY, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "hi inf must be finite");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, in, 0, 64, 0, 1e39, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "hi 1e+39 is not finite as a float");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, in, 0, 64, -3e38, 3e38, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "hi - lo (inf)");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, in, 0, 64, 0, 1e-44, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "nbins / (hi - lo) is not finite");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, in, 0, 64, 0, 1, 62, out, 0, NULL, NULL), LSK_ERANGE,
      "bins_out: elements [0, 65)");
  BAD(ctx, "lsk_histogram_real", lsk_histogram_real(ctx, F, in, 1, 64, 0, 1, 7, out, 0, NULL, NULL),
      LSK_ERANGE, "values: elements [1, 65)");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, in, 0, 64, 0, 1, UINT32_MAX - 2, out, 0, NULL, NULL), LSK_ERANGE,
      "nbins 4294967293 + 3 extra counters");
  BAD(ctx, "lsk_histogram_real",
      lsk_histogram_real(ctx, F, foreign, 0, 64, 0, 1, 7, out, 0, NULL, NULL), LSK_EINVAL,
      "belongs to another context");
  if (lsk_context_device(ctx)->has_fp64)
    BAD(ctx, "lsk_histogram_real",
        lsk_histogram_real(ctx, LSK_TYPE_DOUBLE, in, 0, 64, 0, 1, 7, out, 0, NULL, NULL),
        LSK_ERANGE, "values: elements [0, 64) of 8 bytes");
  else
    BAD(ctx, "lsk_histogram_real",
        lsk_histogram_real(ctx, LSK_TYPE_DOUBLE, in, 0, 8, 0, 1, 7, out, 0, NULL, NULL), LSK_EINVAL,
        "double needs cl_khr_fp64");
  QUIET("lsk_histogram_real",
        lsk_histogram_real(ctx, F, in, 0, 0, 0, 1, 7, out, 0, NULL, NULL) == LSK_OK);

  BAD(NULL, "lsk_scan", lsk_scan(NULL, U, LSK_SCAN_INCLUSIVE, in, 0, out, 0, 64, NULL, NULL),
      LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, NULL, 0, out, 0, 64, NULL, NULL),
      LSK_EINVAL, "is NULL");
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, in, 0, NULL, 0, 64, NULL, NULL),
      LSK_EINVAL, "is NULL");
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, (lsk_scan_kind)99, in, 0, out, 0, 64, NULL, NULL),
      LSK_EINVAL, "99");
  BAD(ctx, "lsk_scan",
      lsk_scan(ctx, (lsk_type)99, LSK_SCAN_INCLUSIVE, in, 0, out, 0, 64, NULL, NULL), LSK_EINVAL,
      "type 99");
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, in, 1, out, 0, 64, NULL, NULL),
      LSK_ERANGE, "[1, 65)");
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, in, 0, out, SIZE_MAX, 64, NULL, NULL),
      LSK_ERANGE, "offset 18446744073709551615");
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, in, 0, foreign, 0, 64, NULL, NULL),
      LSK_EINVAL, "belongs to another context");
  dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, dead, 0, out, 0, 64, NULL, NULL),
      LSK_EINVAL, DEAD("buffer"));
  lsk_algo_options ao = {.workers = 1u << 20};
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, in, 0, out, 0, 64, &ao, NULL),
      LSK_ELAUNCH, "workers 1048576");
  BAD(ctx, "lsk_reduce", lsk_reduce(ctx, U, LSK_OP_SUM, in, 0, 64, &res, sizeof res, &ao, NULL),
      LSK_ELAUNCH, "workers 1048576");
  ao = (lsk_algo_options){.tile = (1u << 24) + 1};
  BAD(ctx, "lsk_reduce_to", lsk_reduce_to(ctx, U, LSK_OP_SUM, in, 0, 64, out, 0, &ao, NULL),
      LSK_EINVAL, "tile 16777217");
  ao = (lsk_algo_options){.blocks = (size_t)1 << 40};
  BAD(ctx, "lsk_scan", lsk_scan(ctx, U, LSK_SCAN_INCLUSIVE, in, 0, out, 0, 64, &ao, NULL),
      LSK_ERANGE, "blocks 1099511627776");

  /* compact.h */
  static const char pred[] = "int lsk_select(uint i, LSK_COMPACT_IN in, ulong arg)\n"
                             "{ return in[i] != 0u; }\n";
  lsk_compactor_options co = {.data_type = "uint"};
  lsk_compactor *c = (lsk_compactor *)&c;
  BAD(NULL, "lsk_compactor_create", lsk_compactor_create(NULL, pred, &co, &c), LSK_EINVAL,
      "ctx is NULL");
  ck_assert_ptr_null(c);
  BAD(ctx, "lsk_compactor_create", lsk_compactor_create(ctx, pred, &co, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(ctx, "lsk_compactor_create", lsk_compactor_create(ctx, NULL, &co, &c), LSK_EINVAL,
      "source is NULL");
  BAD(ctx, "lsk_compactor_create", lsk_compactor_create(ctx, "int f(void);", &co, &c), LSK_EINVAL,
      "the source defines no lsk_select");
  lsk_compactor_options bad_type = {.data_type = "uint; evil"};
  BAD(ctx, "lsk_compactor_create", lsk_compactor_create(ctx, pred, &bad_type, &c), LSK_EINVAL,
      "'uint; evil'");
  BAD(NULL, "lsk_compactor_create", lsk_compactor_create((lsk_context *)in, pred, &co, &c),
      LSK_EINVAL, WRONG("context", "buffer"));
  /* lsk_compactor_source: the same checks of source and options, no
   * context. */
  char *cprog = (char *)&cprog, *cpre = (char *)&cpre;
  BAD(NULL, "lsk_compactor_source", lsk_compactor_source(pred, &co, NULL, &cpre), LSK_EINVAL,
      "program is NULL");
  ck_assert_ptr_null(cpre);
  BAD(NULL, "lsk_compactor_source", lsk_compactor_source(pred, &co, &cprog, NULL), LSK_EINVAL,
      "prelude is NULL");
  ck_assert_ptr_null(cprog);
  BAD(NULL, "lsk_compactor_source", lsk_compactor_source(NULL, &co, &cprog, &cpre), LSK_EINVAL,
      "source is NULL");
  BAD(NULL, "lsk_compactor_source", lsk_compactor_source("int f(void);", &co, &cprog, &cpre),
      LSK_EINVAL, "the source defines no lsk_select");
  BAD(NULL, "lsk_compactor_source", lsk_compactor_source(pred, &bad_type, &cprog, &cpre),
      LSK_EINVAL, "'uint; evil'");
  BAD(NULL, "lsk_compactor_source",
      lsk_compactor_source(pred, &(lsk_compactor_options){.layout = (lsk_layout *)in}, &cprog,
                           &cpre),
      LSK_EINVAL, WRONG("layout", "buffer"));
  TU_OK(NULL, lsk_compactor_source(pred, &co, &cprog, &cpre));
  ck_assert_msg(strstr(cprog, "lsk_compact_indices") && strstr(cpre, "LSK_COMPACT_DATA_T uint"),
                "compactor source: %s\n%s", cpre, cprog);
  lsk_free(cprog);
  lsk_free(cpre);
  TU_OK(ctx, lsk_compactor_create(ctx, pred, &co, &c));
  BADV("lsk_compactor_destroy", (lsk_compactor_destroy((lsk_compactor *)in), 0), 0,
       WRONG("compactor", "buffer"));
  QUIET("lsk_compactor_destroy", (lsk_compactor_destroy(NULL), 1));

  size_t count = 9;
  BAD(NULL, "lsk_compact", lsk_compact(NULL, in, 64, 0, out, 0, 64, &count, NULL, NULL), LSK_EINVAL,
      "compactor is NULL");
  BAD(NULL, "lsk_compact",
      lsk_compact((lsk_compactor *)in, in, 64, 0, out, 0, 64, &count, NULL, NULL), LSK_EINVAL,
      WRONG("compactor", "buffer"));
  BAD(ctx, "lsk_compact", lsk_compact(c, in, 64, 0, out, 0, 64, NULL, NULL, NULL), LSK_EINVAL,
      "count is NULL");
  BAD(ctx, "lsk_compact", lsk_compact(c, in, 64, 0, NULL, 0, 64, &count, NULL, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(ctx, "lsk_compact", lsk_compact(c, in, 64, 0, out, 1, 64, &count, NULL, NULL), LSK_ERANGE,
      "[1, 65)");
  BAD(ctx, "lsk_compact", lsk_compact(c, in, 64, 0, foreign, 0, 64, &count, NULL, NULL), LSK_EINVAL,
      "belongs to another context");
  BAD(ctx, "lsk_compact", lsk_compact(c, foreign, 64, 0, out, 0, 64, &count, NULL, NULL),
      LSK_EINVAL, "belongs to another context");
  BAD(ctx, "lsk_compact", lsk_compact(c, in, (size_t)1 << 33, 0, out, 0, 64, &count, NULL, NULL),
      LSK_ERANGE, "8589934592");
  dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_compact", lsk_compact(c, in, 64, 0, dead, 0, 64, &count, NULL, NULL), LSK_EINVAL,
      DEAD("buffer"));

  BAD(NULL, "lsk_compact_to", lsk_compact_to(NULL, in, 64, 0, out, 0, 32, out, 40, NULL, NULL),
      LSK_EINVAL, "compactor is NULL");
  BAD(ctx, "lsk_compact_to", lsk_compact_to(c, in, 64, 0, out, 0, 32, NULL, 40, NULL, NULL),
      LSK_EINVAL, "count_buf is NULL");
  BAD(ctx, "lsk_compact_to", lsk_compact_to(c, in, 64, 0, out, 0, 32, out, 64, NULL, NULL),
      LSK_ERANGE, "[64, 65)");
  BAD(ctx, "lsk_compact_to", lsk_compact_to(c, in, 64, 0, out, 0, 32, out, 10, NULL, NULL),
      LSK_EINVAL, "count_index 10");
  BAD(ctx, "lsk_compact_to", lsk_compact_to(c, in, 64, 0, out, 0, 32, in, 0, NULL, NULL),
      LSK_EINVAL, "count_buf is the input's buffer");
  BAD(ctx, "lsk_compact_to", lsk_compact_to(c, in, 64, 0, out, 0, 32, foreign, 0, NULL, NULL),
      LSK_EINVAL, "belongs to another context");
  dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_compact_to", lsk_compact_to(c, in, 64, 0, out, 0, 32, dead, 0, NULL, NULL),
      LSK_EINVAL, DEAD("buffer"));

  /* The SoA forms need a layout compactor: this one is not. */
  BAD(NULL, "lsk_compact_soa", lsk_compact_soa(NULL, NULL, 0, 0, out, 0, 64, &count, NULL, NULL),
      LSK_EINVAL, "compactor is NULL");
  BAD(ctx, "lsk_compact_soa", lsk_compact_soa(c, NULL, 0, 0, out, 0, 64, &count, NULL, NULL),
      LSK_EINVAL, "the compactor reads a plain buffer");
  BAD(NULL, "lsk_compact_soa_to",
      lsk_compact_soa_to(NULL, NULL, 0, 0, out, 0, 32, out, 40, NULL, NULL), LSK_EINVAL,
      "compactor is NULL");
  BAD(ctx, "lsk_compact_soa_to", lsk_compact_soa_to(c, NULL, 0, 0, out, 0, 32, out, 40, NULL, NULL),
      LSK_EINVAL, "the compactor reads a plain buffer");
  BAD(NULL, "lsk_compact_rows", lsk_compact_rows(NULL, NULL, 0, NULL, 0, 0, &count, NULL, NULL),
      LSK_EINVAL, "compactor is NULL");
  BAD(ctx, "lsk_compact_rows", lsk_compact_rows(c, NULL, 0, NULL, 0, 0, &count, NULL, NULL),
      LSK_EINVAL, "the compactor reads a plain buffer");
  BAD(NULL, "lsk_compact_rows_to",
      lsk_compact_rows_to(NULL, NULL, 0, NULL, 0, 0, out, 0, NULL, NULL), LSK_EINVAL,
      "compactor is NULL");
  BAD(ctx, "lsk_compact_rows_to", lsk_compact_rows_to(c, NULL, 0, NULL, 0, 0, out, 0, NULL, NULL),
      LSK_EINVAL, "the compactor reads a plain buffer");

  /* A layout compactor for the SoA forms. */
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_create("row", 0, &l));
  TU_OK(NULL, lsk_layout_add_column(l, "uint", "v"));
  lsk_compactor *cs = NULL;
  lsk_compactor_options so = {.layout = l};
  static const char spred[] = "int lsk_select(uint i, LSK_COMPACT_IN in, ulong arg)\n"
                              "{ return 1; }\n";
  BAD(ctx, "lsk_compactor_create",
      lsk_compactor_create(ctx, spred, &(lsk_compactor_options){.layout = (lsk_layout *)in}, &cs),
      LSK_EINVAL, WRONG("layout", "buffer"));
  TU_OK(ctx, lsk_compactor_create(ctx, spred, &so, &cs));
  size_t rows = 16;
  lsk_soa *soa = NULL, *fsoa = NULL;
  const lsk_layout *ls[1] = {l};
  TU_OK(ctx, lsk_soa_create(ctx, 1, ls, &rows, &soa));
  TU_OK(other, lsk_soa_create(other, 1, ls, &rows, &fsoa));
  lsk_soa *wsoa = (lsk_soa *)in;
  BAD(ctx, "lsk_compact_soa", lsk_compact_soa(cs, NULL, 0, 0, out, 0, 64, &count, NULL, NULL),
      LSK_EINVAL, "src is NULL");
  BAD(ctx, "lsk_compact_soa", lsk_compact_soa(cs, wsoa, 0, 0, out, 0, 64, &count, NULL, NULL),
      LSK_EINVAL, WRONG("soa", "buffer"));
  BAD(ctx, "lsk_compact_soa", lsk_compact_soa(cs, soa, 1, 0, out, 0, 64, &count, NULL, NULL),
      LSK_EINVAL, "src has no part 1 (it has 1)");
  BAD(ctx, "lsk_compact_soa", lsk_compact_soa(cs, fsoa, 0, 0, out, 0, 64, &count, NULL, NULL),
      LSK_EINVAL, "src belongs to another context");
  BAD(ctx, "lsk_compact_soa", lsk_compact_soa(cs, soa, 0, 0, out, 0, 64, NULL, NULL, NULL),
      LSK_EINVAL, "count is NULL");
  BAD(ctx, "lsk_compact_soa", lsk_compact_soa(cs, soa, 0, 0, out, 60, 8, &count, NULL, NULL),
      LSK_ERANGE, "[60, 68)");
  BAD(ctx, "lsk_compact_soa_to",
      lsk_compact_soa_to(cs, NULL, 0, 0, out, 0, 32, out, 40, NULL, NULL), LSK_EINVAL,
      "src is NULL");
  BAD(ctx, "lsk_compact_soa_to",
      lsk_compact_soa_to(cs, soa, 0, 0, out, 0, 32, NULL, 40, NULL, NULL), LSK_EINVAL,
      "count_buf is NULL");
  BAD(ctx, "lsk_compact_soa_to",
      lsk_compact_soa_to(cs, soa, 0, 0, out, 0, 32, foreign, 0, NULL, NULL), LSK_EINVAL,
      "belongs to another context");
  BAD(ctx, "lsk_compact_rows", lsk_compact_rows(cs, soa, 0, NULL, 0, 0, &count, NULL, NULL),
      LSK_EINVAL, "dst is NULL");
  BAD(ctx, "lsk_compact_rows", lsk_compact_rows(cs, NULL, 0, soa, 0, 0, &count, NULL, NULL),
      LSK_EINVAL, "src is NULL");
  BAD(ctx, "lsk_compact_rows", lsk_compact_rows(cs, soa, 0, soa, 3, 0, &count, NULL, NULL),
      LSK_EINVAL, "dst has no part 3");
  BAD(ctx, "lsk_compact_rows", lsk_compact_rows(cs, soa, 0, fsoa, 0, 0, &count, NULL, NULL),
      LSK_EINVAL, "dst belongs to another context");
  BAD(ctx, "lsk_compact_rows", lsk_compact_rows(cs, soa, 0, soa, 0, 0, NULL, NULL, NULL),
      LSK_EINVAL, "count is NULL");
  BAD(ctx, "lsk_compact_rows_to", lsk_compact_rows_to(cs, soa, 0, wsoa, 0, 0, out, 0, NULL, NULL),
      LSK_EINVAL, WRONG("soa", "buffer"));
  BAD(ctx, "lsk_compact_rows_to", lsk_compact_rows_to(cs, soa, 0, soa, 0, 0, NULL, 0, NULL, NULL),
      LSK_EINVAL, "count_buf is NULL");
  BAD(ctx, "lsk_compact_rows_to", lsk_compact_rows_to(cs, soa, 0, soa, 0, 0, out, 64, NULL, NULL),
      LSK_ERANGE, "[64, 65)");
  BAD(ctx, "lsk_compact", lsk_compact(cs, in, 64, 0, out, 0, 64, &count, NULL, NULL), LSK_EINVAL,
      "layout 'row'");
  lsk_soa_destroy(fsoa);
  lsk_soa_destroy(soa);
  lsk_compactor_destroy(cs);
  lsk_layout_destroy(l);

  lsk_compactor_destroy(c);
  lsk_buffer_destroy(foreign);
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* sort.h                                                              */

START_TEST(test_bi_sort)
{
  lsk_context *ctx = tu_context();
  lsk_context *other = tu_context();
  /* keys, values and outputs of 64 uints; small of 8 */
  lsk_buffer *k = tu_zeros(ctx, 64), *v = tu_zeros(ctx, 64), *ko = tu_zeros(ctx, 64);
  lsk_buffer *vo = tu_zeros(ctx, 64), *small = tu_zeros(ctx, 8), *foreign = tu_zeros(other, 64);
  const lsk_type U = LSK_TYPE_UINT;
  const char *S = "lsk_sort", *SK = "lsk_sort_by_key";

  BAD(NULL, S, lsk_sort(NULL, U, k, 64, NULL, NULL, NULL), LSK_EINVAL, "ctx is NULL");
  BAD(NULL, S, lsk_sort((lsk_context *)k, U, k, 64, NULL, NULL, NULL), LSK_EINVAL,
      WRONG("context", "buffer"));
  BAD(ctx, S, lsk_sort(ctx, U, NULL, 64, NULL, NULL, NULL), LSK_EINVAL, "keys is NULL");
  BAD(ctx, S, lsk_sort(ctx, (lsk_type)99, k, 64, NULL, NULL, NULL), LSK_EINVAL, "type 99");
  BAD(ctx, S, lsk_sort(ctx, (lsk_type)0, k, 64, NULL, NULL, NULL), LSK_EINVAL, "type 0");
  BAD(ctx, S, lsk_sort(ctx, U, k, 65, NULL, NULL, NULL), LSK_ERANGE, "keys: elements [0, 65)");
  BAD(ctx, S, lsk_sort(ctx, LSK_TYPE_ULONG, k, 33, NULL, NULL, NULL), LSK_ERANGE,
      "keys: elements [0, 33) of 8 bytes");
  BAD(ctx, S, lsk_sort(ctx, U, k, (size_t)1 << 32, NULL, NULL, NULL), LSK_ERANGE,
      "count 4294967296 exceeds 2^32 - 1");
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, small, NULL, NULL), LSK_ERANGE, "out_keys: elements [0, 64)");
  BAD(ctx, S, lsk_sort(ctx, U, foreign, 64, NULL, NULL, NULL), LSK_EINVAL,
      "keys belongs to another context");
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, foreign, NULL, NULL), LSK_EINVAL,
      "out_keys belongs to another context");
  lsk_buffer *dead = bi_dead_buffer(ctx);
  BAD(ctx, S, lsk_sort(ctx, U, dead, 64, NULL, NULL, NULL), LSK_EINVAL, DEAD("buffer"));
  dead = bi_dead_buffer(ctx);
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, dead, NULL, NULL), LSK_EINVAL, DEAD("buffer"));
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, (lsk_buffer *)ctx, NULL, NULL), LSK_EINVAL,
      WRONG("buffer", "context"));
  if (lsk_context_device(ctx)->has_fp64)
    BAD(ctx, S, lsk_sort(ctx, LSK_TYPE_DOUBLE, k, 64, NULL, NULL, NULL), LSK_ERANGE,
        "keys: elements [0, 64) of 8 bytes");
  else
    BAD(ctx, S, lsk_sort(ctx, LSK_TYPE_DOUBLE, k, 8, NULL, NULL, NULL), LSK_EINVAL,
        "double needs cl_khr_fp64");
  lsk_sort_options so = {.digit_bits = 17};
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, NULL, &so, NULL), LSK_EINVAL,
      "digit_bits 17 is not 0 (automatic) or 1 to 16");
  /* 2^16 + 1 counters of 4 bytes for each of 16 workers: 4 MiB of local
   * memory, more than any device has. */
  so = (lsk_sort_options){.digit_bits = 16, .algo = {.workers = 16}};
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, NULL, &so, NULL), LSK_ELAUNCH,
      "digit_bits 16: 65536 counters for each of 16 workers need 4194368 bytes of local memory");
  so = (lsk_sort_options){.algo = {.workers = 1u << 20}};
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, NULL, &so, NULL), LSK_ELAUNCH, "workers 1048576");
  so = (lsk_sort_options){.algo = {.tile = (1u << 24) + 1}};
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, ko, &so, NULL), LSK_EINVAL, "tile 16777217");
  lsk_queue *q = NULL;
  TU_OK(other, lsk_queue_create(other, NULL, &q));
  lsk_event *stale = (lsk_event *)&stale;
  BAD(ctx, S, lsk_sort(ctx, U, k, 64, NULL, NULL, &(lsk_async){.queue = q, .event = &stale}),
      LSK_EINVAL, "belongs to another context");
  ck_assert_ptr_null(stale);
  TU_OK(other, lsk_queue_destroy(q));
  QUIET(S, lsk_sort(ctx, U, k, 0, NULL, NULL, NULL) == LSK_OK);
  QUIET(S, lsk_sort(ctx, U, k, 64, k, NULL, NULL) == LSK_OK); /* in place, spelled out */

  BAD(NULL, SK, lsk_sort_by_key(NULL, U, k, v, 64, NULL, NULL, NULL, NULL), LSK_EINVAL,
      "ctx is NULL");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, NULL, v, 64, NULL, NULL, NULL, NULL), LSK_EINVAL,
      "keys is NULL");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, NULL, 64, NULL, NULL, NULL, NULL), LSK_EINVAL,
      "values is NULL");
  BAD(ctx, SK, lsk_sort_by_key(ctx, (lsk_type)7, k, v, 64, NULL, NULL, NULL, NULL), LSK_EINVAL,
      "type 7");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, small, 64, NULL, NULL, NULL, NULL), LSK_ERANGE,
      "values: elements [0, 64)");
  BAD(ctx, SK, lsk_sort_by_key(ctx, LSK_TYPE_LONG, k, small, 9, NULL, NULL, NULL, NULL), LSK_ERANGE,
      "values: elements [0, 9) of 4 bytes");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, ko, small, NULL, NULL), LSK_ERANGE,
      "out_values: elements [0, 64)");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, k, 64, NULL, NULL, NULL, NULL), LSK_EINVAL,
      "keys and values are the same buffer");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, ko, NULL, NULL, NULL), LSK_EINVAL,
      "out_keys is a buffer and out_values is in place: both in place or neither");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, NULL, vo, NULL, NULL), LSK_EINVAL,
      "out_keys is in place and out_values is a buffer");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, k, vo, NULL, NULL), LSK_EINVAL,
      "out_keys is in place and out_values is a buffer");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, ko, ko, NULL, NULL), LSK_EINVAL,
      "out_keys and out_values are the same buffer");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, v, vo, NULL, NULL), LSK_EINVAL,
      "out_keys and values are the same buffer");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, ko, k, NULL, NULL), LSK_EINVAL,
      "out_values and keys are the same buffer");
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, foreign, 64, NULL, NULL, NULL, NULL), LSK_EINVAL,
      "values belongs to another context");
  dead = bi_dead_buffer(ctx);
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, ko, dead, NULL, NULL), LSK_EINVAL, DEAD("buffer"));
  so = (lsk_sort_options){.digit_bits = 99};
  BAD(ctx, SK, lsk_sort_by_key(ctx, U, k, v, 64, NULL, NULL, &so, NULL), LSK_EINVAL,
      "digit_bits 99");
  QUIET(SK, lsk_sort_by_key(ctx, U, k, v, 0, NULL, NULL, NULL, NULL) == LSK_OK);
  QUIET(SK, lsk_sort_by_key(ctx, U, k, v, 64, k, v, NULL, NULL) == LSK_OK);

  lsk_buffer_destroy(k);
  lsk_buffer_destroy(v);
  lsk_buffer_destroy(ko);
  lsk_buffer_destroy(vo);
  lsk_buffer_destroy(small);
  lsk_buffer_destroy(foreign);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_badinput_core(void)
{
  Suite *s = suite_create("badinput_core");
  TCase *tc = bi_tcase("core");
  tcase_add_test(tc, test_bi_context);
  tcase_add_test(tc, test_bi_buffer);
  tcase_add_test(tc, test_bi_handle);
  tcase_add_test(tc, test_bi_program);
  tcase_add_test(tc, test_bi_algo);
  tcase_add_test(tc, test_bi_sort);
  suite_add_tcase(s, tc);
  return s;
}
