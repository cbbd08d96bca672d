/*
 * check_badinput_group.c: bad input to every public function of group.h
 * (rows: badinput.h): NULLs, handles of the wrong type or destroyed,
 * selectors that match nothing or have an empty part, partitions a device
 * cannot make, members out of range, buffers of no member or of the
 * buffer cache, weights that are not positive and finite, and a member's
 * verify failure named by lsk_group_finish. Two platforms (a buffer that
 * cannot be shared, a device that cannot be partitioned at all):
 * tests/launch/check_group.c, suite group_devices.
 */
#include <math.h>
#include <stdio.h>

#include "badinput.h"

static const char *src = "LSK_KERNEL void check(LSK_CTX, uint v)\n"
                         "{\n"
                         "  LSK_FOREACH(it) {\n"
                         "    LSK_VERIFY1(v == 0u, \"v is not 0\", v);\n"
                         "  }\n"
                         "}\n";

/* Whether the device can be split equally (CL_DEVICE_PARTITION_PROPERTIES). */
static int can_partition(lsk_context *ctx)
{
  cl_device_partition_property kinds[8] = {0};
  size_t size = 0;
  if (clGetDeviceInfo(lsk_context_cl_device(ctx), CL_DEVICE_PARTITION_PROPERTIES, sizeof kinds,
                      kinds, &size) != CL_SUCCESS)
    return 0;
  for (size_t i = 0; i < size / sizeof kinds[0]; ++i)
    if (kinds[i] == CL_DEVICE_PARTITION_EQUALLY)
      return 1;
  return 0;
}

START_TEST(test_bi_group_create)
{
  lsk_context *ctx = tu_context();
  lsk_group *out = (lsk_group *)&out;
  BAD(NULL, "lsk_group_create", lsk_group_create(NULL, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_group_create", lsk_group_create("no-such-device-xyz", NULL, &out), LSK_ENODEV,
      "no such device: 'no-such-device-xyz' (part 1 of 'no-such-device-xyz')");
  ck_assert_ptr_null(out);
  BAD(NULL, "lsk_group_create", lsk_group_create("0,999", NULL, &out), LSK_ENODEV,
      "no such device: '999' (part 2 of '0,999')");
  BAD(NULL, "lsk_group_create", lsk_group_create("0,,0", NULL, &out), LSK_EINVAL,
      "device list '0,,0': part 2 is empty");
  BAD(NULL, "lsk_group_create", lsk_group_create(" ", NULL, &out), LSK_EINVAL, "part 1 is empty");
  BAD(NULL, "lsk_group_create", lsk_group_create(NULL, &(lsk_group_options){.partition = 1}, &out),
      LSK_EINVAL, "opt->partition is 1: 0 for whole devices, or 2 to 64");
  BAD(NULL, "lsk_group_create", lsk_group_create(NULL, &(lsk_group_options){.partition = 65}, &out),
      LSK_EINVAL, "opt->partition is 65");
  BAD(NULL, "lsk_group_create",
      lsk_group_create(NULL, &(lsk_group_options){.context.device = "0"}, &out), LSK_EINVAL,
      "opt->context.device is '0': the selector names the devices");
  /* More sub-devices than the device has compute units, or none at all. */
  const lsk_device_info *d = lsk_context_device(ctx);
  unsigned k = d->compute_units + 1 <= 64 ? d->compute_units + 1 : 64;
  char sel[16];
  snprintf(sel, sizeof sel, "%u", d->index);
  BAD(NULL, "lsk_group_create", lsk_group_create(sel, &(lsk_group_options){.partition = k}, &out),
      LSK_EINVAL,
      can_partition(ctx) ? "compute units and at most" : "cannot be partitioned equally");
  ck_assert_ptr_null(out);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_bi_group_calls)
{
  lsk_context *ctx = tu_context(); /* not a member */
  lsk_buffer *foreign = tu_zeros(ctx, 4);
  lsk_group *g = NULL, *dead = NULL;
  TU_OK(NULL, lsk_group_create(NULL, NULL, &g));
  ck_assert_uint_eq(lsk_group_size(g), 1);
  lsk_context *m0 = lsk_group_context(g, 0);
  lsk_buffer *buf = tu_zeros(m0, 4), *cached = NULL, *out = (lsk_buffer *)&out;
  TU_OK(m0, lsk_buffer_alloc(m0, 16, &cached, NULL));

  /* destroy, size, context */
  QUIET("lsk_group_destroy", (lsk_group_destroy(NULL), 1));
  BADV("lsk_group_destroy", (lsk_group_destroy((lsk_group *)buf), 0), 0, WRONG("group", "buffer"));
  ck_assert_uint_eq(lsk_buffer_size(buf), 16); /* untouched */
  QUIET("lsk_group_size", lsk_group_size(NULL) == 0);
  BADV("lsk_group_size", lsk_group_size((lsk_group *)ctx), 0, WRONG("group", "context"));
  QUIET("lsk_group_context", lsk_group_context(NULL, 0) == NULL);
  BADV("lsk_group_context", lsk_group_context(g, 1), NULL,
       "member 1 is out of range: the group has 1");
  BADV("lsk_group_context", lsk_group_context((lsk_group *)buf, 0), NULL, WRONG("group", "buffer"));

  /* share */
  BAD(NULL, "lsk_group_share", lsk_group_share(g, buf, 0, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_group_share", lsk_group_share(NULL, buf, 0, &out), LSK_EINVAL, "g is NULL");
  ck_assert_ptr_null(out);
  BAD(NULL, "lsk_group_share", lsk_group_share(g, NULL, 0, &out), LSK_EINVAL, "buf is NULL");
  BAD(NULL, "lsk_group_share", lsk_group_share(g, (lsk_buffer *)ctx, 0, &out), LSK_EINVAL,
      WRONG("buffer", "context"));
  BAD(NULL, "lsk_group_share", lsk_group_share(g, bi_dead_buffer(m0), 0, &out), LSK_EINVAL,
      DEAD("buffer"));
  BAD(NULL, "lsk_group_share", lsk_group_share(g, foreign, 0, &out), LSK_EINVAL,
      "buf belongs to no member of the group");
  BAD(NULL, "lsk_group_share", lsk_group_share(g, buf, 2, &out), LSK_EINVAL,
      "member 2 is out of range: the group has 1");
  BAD(NULL, "lsk_group_share", lsk_group_share(g, cached, 0, &out), LSK_EINVAL,
      "buf comes from the buffer cache (lsk_buffer_alloc)");
  ck_assert_ptr_null(out);
  /* (A member of its own group: another handle of the same memory.) */
  TU_OK(NULL, lsk_group_share(g, buf, 0, &out));
  ck_assert_ptr_eq(lsk_buffer_cl(out), lsk_buffer_cl(buf));
  lsk_buffer_destroy(out);

  /* finish: a member's verify failure, named with its member */
  BAD(NULL, "lsk_group_finish", lsk_group_finish(NULL), LSK_EINVAL, "g is NULL");
  BAD(NULL, "lsk_group_finish", lsk_group_finish((lsk_group *)buf), LSK_EINVAL,
      WRONG("group", "buffer"));
  lsk_program *p = tu_program(m0, "check.cl", src);
  lsk_kernel *k = tu_kernel(p, "check");
  TU_OK(m0, lsk_kernel_launch(k, &(lsk_launch){.domain = {4}, .blocks = {1}},
                              LSK_ARGS(LSK_ARG_UINT(7)), NULL));
  BAD(NULL, "lsk_group_finish", lsk_group_finish(g), LSK_EVERIFY, "member 0 (");
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(NULL), "v is not 0"));
  TU_OK(NULL, lsk_group_finish(g)); /* reported once */
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);

  /* weights and split */
  double w[1];
  size_t first[2];
  BAD(NULL, "lsk_group_weights", lsk_group_weights(NULL, w), LSK_EINVAL, "g is NULL");
  BAD(NULL, "lsk_group_weights", lsk_group_weights(g, NULL), LSK_EINVAL, "weights is NULL");
  BAD(NULL, "lsk_group_weights", lsk_group_weights((lsk_group *)ctx, w), LSK_EINVAL,
      WRONG("group", "context"));
  BAD(NULL, "lsk_group_split", lsk_group_split(NULL, 10, NULL, first), LSK_EINVAL, "g is NULL");
  BAD(NULL, "lsk_group_split", lsk_group_split(g, 10, w, NULL), LSK_EINVAL, "first is NULL");
  BAD(NULL, "lsk_group_split", lsk_group_split(g, 10, (double[]){-1}, first), LSK_EINVAL,
      "weights[0] is -1: each weight must be positive and finite");
  BAD(NULL, "lsk_group_split", lsk_group_split(g, 10, (double[]){0}, first), LSK_EINVAL,
      "weights[0] is 0:");
  BAD(NULL, "lsk_group_split", lsk_group_split(g, 10, (double[]){NAN}, first), LSK_EINVAL,
      "weights[0] is nan:");
  BAD(NULL, "lsk_group_split", lsk_group_split(g, 10, (double[]){INFINITY}, first), LSK_EINVAL,
      "weights[0] is inf:");

  /* A destroyed group refuses everything. */
  TU_OK(NULL, lsk_group_create(NULL, NULL, &dead));
  lsk_group_destroy(dead);
  BAD(NULL, "lsk_group_split", lsk_group_split(dead, 10, NULL, first), LSK_EINVAL, DEAD("group"));
  BADV("lsk_group_size", lsk_group_size(dead), 0, DEAD("group"));
  BADV("lsk_group_destroy", (lsk_group_destroy(dead), 0), 0, DEAD("group"));

  lsk_buffer_destroy(cached);
  lsk_buffer_destroy(buf);
  lsk_group_destroy(g);
  lsk_buffer_destroy(foreign);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_bi_split_range)
{
  size_t first[4];
  const double w[3] = {1, 2, 3};
  BAD(NULL, "lsk_split_range", lsk_split_range(10, NULL, 3, first), LSK_EINVAL, "weights is NULL");
  BAD(NULL, "lsk_split_range", lsk_split_range(10, w, 3, NULL), LSK_EINVAL, "first is NULL");
  BAD(NULL, "lsk_split_range", lsk_split_range(10, w, 0, first), LSK_EINVAL, "parts is 0");
  BAD(NULL, "lsk_split_range", lsk_split_range(10, (double[]){1, -2, 3}, 3, first), LSK_EINVAL,
      "weights[1] is -2: each weight must be positive and finite");
  BAD(NULL, "lsk_split_range", lsk_split_range(10, (double[]){1, 2, 0}, 3, first), LSK_EINVAL,
      "weights[2] is 0:");
  BAD(NULL, "lsk_split_range", lsk_split_range(10, (double[]){NAN, 2, 3}, 3, first), LSK_EINVAL,
      "weights[0] is nan:");
  BAD(NULL, "lsk_split_range", lsk_split_range(10, (double[]){1, -INFINITY, 3}, 3, first),
      LSK_EINVAL, "weights[1] is -inf:");
  BAD(NULL, "lsk_split_range", lsk_split_range(10, (double[]){1e308, 1e308, 1}, 3, first),
      LSK_EINVAL, "the 3 weights sum to inf: scale them down");
}
END_TEST

/* lsk_launch_for (program.h): thread messages naming the value, *out
 * all zeros after each failure. */
START_TEST(test_bi_launch_for)
{
  lsk_launch l;
  const unsigned d256[3] = {256, 0, 0};
  BAD(NULL, "lsk_launch_for", lsk_launch_for(10, d256, NULL, NULL), LSK_EINVAL, "out is NULL");
  memset(&l, 0xff, sizeof l);
  BAD(NULL, "lsk_launch_for", lsk_launch_for(10, NULL, NULL, &l), LSK_EINVAL, "domain is NULL");
  ck_assert(l.domain[0] == 0 && l.blocks[0] == 0 && l.workers == 0 && l.local_bytes == 0);
  BAD(NULL, "lsk_launch_for", lsk_launch_for(10, (unsigned[3]){0, 0, 0}, NULL, &l), LSK_EINVAL,
      "domain[0] is 0 (the kernel's declared domain) and per_block is 0");
  BAD(NULL, "lsk_launch_for", lsk_launch_for(10, (unsigned[3]){4096, 4096, 2}, NULL, &l),
      LSK_EDOMAIN, "domain 4096 x 4096 x 2 is 33554432 indices, above 16777216");
  ck_assert(l.domain[0] == 0 && l.blocks[0] == 0);
  BAD(NULL, "lsk_launch_for",
      lsk_launch_for((size_t)1 << 40, d256, &(lsk_launch_for_options){.per_block = 1}, &l),
      LSK_ERANGE, "count 1099511627776 in data blocks of 1 needs 1099511627776 blocks");
  ck_assert(l.domain[0] == 0 && l.blocks[0] == 0);
}
END_TEST

Suite *suite_badinput_group(void)
{
  Suite *s = suite_create("badinput_group");
  TCase *tc = bi_tcase("group");
  tcase_add_test(tc, test_bi_group_create);
  tcase_add_test(tc, test_bi_group_calls);
  tcase_add_test(tc, test_bi_split_range);
  tcase_add_test(tc, test_bi_launch_for);
  suite_add_tcase(s, tc);
  return s;
}
