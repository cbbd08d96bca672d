/*
 * check_status.c: status codes, their names and messages, the per-thread
 * message and the version. Needs no device: nothing here touches OpenCL.
 */
#include <stdio.h>
#include <threads.h>

#include "testutil.h"

/* The public table, spelled out once more as the expectation. */
static const struct {
  int code;
  const char *name;
  const char *msg;
} lsk_codes[] = {
#define XX(name, value, msg) {LSK_##name, "LSK_" #name, msg},
    LSK_STATUS_MAP(XX)
#undef XX
};
#define NCODES (sizeof lsk_codes / sizeof lsk_codes[0])

START_TEST(test_status_lsk_codes_names_and_messages)
{
  ck_assert_uint_eq(NCODES, 15);
  for (size_t i = 0; i < NCODES; ++i) {
    char buf[64];
    ck_assert_str_eq(lsk_status_name(lsk_codes[i].code), lsk_codes[i].name);
    ck_assert_str_eq(lsk_strerror(lsk_codes[i].code), lsk_codes[i].msg);
    ck_assert_ptr_eq(lsk_status_name_r(lsk_codes[i].code, buf, sizeof buf), buf);
    ck_assert_str_eq(buf, lsk_codes[i].name);
  }
}
END_TEST

/* A few spelled out by hand, independent of the X-macro. */
START_TEST(test_status_lsk_codes_by_hand)
{
  ck_assert_int_eq(LSK_OK, 0);
  ck_assert_int_eq(LSK_EINVAL, -4001);
  ck_assert_int_eq(LSK_ERANGE, -4011);
  ck_assert_str_eq(lsk_status_name(0), "LSK_OK");
  ck_assert_str_eq(lsk_strerror(0), "success");
  ck_assert_str_eq(lsk_status_name(-4001), "LSK_EINVAL");
  ck_assert_str_eq(lsk_strerror(-4001), "invalid argument");
  ck_assert_str_eq(lsk_status_name(-4004), "LSK_EBUILD");
  ck_assert_str_eq(lsk_strerror(-4004), "program build failed");
  ck_assert_str_eq(lsk_status_name(-4011), "LSK_ERANGE");
  ck_assert_str_eq(lsk_strerror(-4011), "offset or size out of range");
  ck_assert_int_eq(LSK_ENOSPC, -4014);
  ck_assert_str_eq(lsk_status_name(-4014), "LSK_ENOSPC");
  ck_assert_str_eq(lsk_strerror(-4014), "a device pool ran out of space");
}
END_TEST

/* lsk's own codes: distinct, in -4000 ... -4099, clear of OpenCL's. */
START_TEST(test_status_lsk_codes_range)
{
  for (size_t i = 0; i < NCODES; ++i) {
    int c = lsk_codes[i].code;
    if (c == LSK_OK)
      continue;
    ck_assert_msg(c <= -4000 && c >= -4099, "%s = %d outside -4000...-4099", lsk_codes[i].name, c);
    for (size_t j = i + 1; j < NCODES; ++j)
      ck_assert_int_ne(c, lsk_codes[j].code);
  }
  /* A code between the known ones is unknown, not a neighbour's name. */
  ck_assert_str_eq(lsk_status_name(-4000), "unknown");
  ck_assert_str_eq(lsk_status_name(-4015), "unknown");
}
END_TEST

START_TEST(test_status_opencl_codes)
{
  char buf[64];
  ck_assert_str_eq(lsk_status_name(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
  ck_assert_str_eq(lsk_strerror(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
  ck_assert_str_eq(lsk_status_name_r(-54, buf, sizeof buf), "CL_INVALID_WORK_GROUP_SIZE");
  ck_assert_str_eq(lsk_status_name(-11), "CL_BUILD_PROGRAM_FAILURE");
  ck_assert_str_eq(lsk_strerror(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
  ck_assert_str_eq(lsk_status_name_r(CL_BUILD_PROGRAM_FAILURE, buf, sizeof buf),
                   "CL_BUILD_PROGRAM_FAILURE");
  ck_assert_str_eq(lsk_status_name(-1), "CL_DEVICE_NOT_FOUND");
  ck_assert_str_eq(lsk_status_name(-5), "CL_OUT_OF_RESOURCES");
  ck_assert_str_eq(lsk_status_name(-30), "CL_INVALID_VALUE");
  ck_assert_str_eq(lsk_status_name(-46), "CL_INVALID_KERNEL_NAME");
  ck_assert_str_eq(lsk_status_name(-68), "CL_INVALID_DEVICE_PARTITION_COUNT");
  ck_assert_str_eq(lsk_status_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
}
END_TEST

START_TEST(test_status_unknown_code)
{
  char buf[64];
  ck_assert_str_eq(lsk_status_name(-12345), "unknown");
  ck_assert_str_eq(lsk_strerror(-12345), "unknown error");
  ck_assert_str_eq(lsk_status_name_r(-12345, buf, sizeof buf), "unknown (-12345)");
  /* Gaps in OpenCL's range and positive values are unknown too. */
  ck_assert_str_eq(lsk_status_name(-20), "unknown");
  ck_assert_str_eq(lsk_status_name(-73), "unknown");
  ck_assert_str_eq(lsk_strerror(7), "unknown error");
  ck_assert_str_eq(lsk_status_name_r(7, buf, sizeof buf), "unknown (7)");
  /* Fixed strings: the same pointer each time, nothing to free. */
  ck_assert_ptr_eq(lsk_status_name(-12345), lsk_status_name(-54321));
  ck_assert_ptr_eq(lsk_strerror(-12345), lsk_strerror(-54321));
}
END_TEST

START_TEST(test_status_name_r_truncates)
{
  char buf[32];
  /* len counts the terminating zero. */
  memset(buf, 'x', sizeof buf);
  ck_assert_str_eq(lsk_status_name_r(-12345, buf, 8), "unknown");
  ck_assert_int_eq(buf[8], 'x');
  memset(buf, 'x', sizeof buf);
  ck_assert_str_eq(lsk_status_name_r(-12345, buf, 12), "unknown (-1");
  ck_assert_int_eq(buf[12], 'x');
  memset(buf, 'x', sizeof buf);
  ck_assert_str_eq(lsk_status_name_r(LSK_EINVAL, buf, 5), "LSK_");
  ck_assert_int_eq(buf[5], 'x');
  memset(buf, 'x', sizeof buf);
  ck_assert_str_eq(lsk_status_name_r(CL_INVALID_VALUE, buf, 1), "");
  ck_assert_int_eq(buf[1], 'x');
  /* Exactly enough room. */
  ck_assert_str_eq(lsk_status_name_r(-12345, buf, sizeof "unknown (-12345)"), "unknown (-12345)");
  /* len 0 writes nothing. */
  memset(buf, 'x', sizeof buf);
  ck_assert_ptr_eq(lsk_status_name_r(-12345, buf, 0), buf);
  ck_assert_int_eq(buf[0], 'x');
}
END_TEST

START_TEST(test_status_version)
{
  char want[32];
  ck_assert_str_eq(lsk_version(), LSK_VERSION_STRING);
  snprintf(want, sizeof want, "%d.%d.%d", LSK_VERSION_MAJOR, LSK_VERSION_MINOR, LSK_VERSION_PATCH);
  ck_assert_str_eq(lsk_version(), want);
}
END_TEST

/* Messages of calls without a context are per thread. lsk_device_list and
 * lsk_device_select reject NULL outputs before they touch OpenCL. */
static int other_thread(void *arg)
{
  char *seen = arg;
  snprintf(seen, 256, "%s", lsk_context_errmsg(NULL));
  int rc = lsk_device_select("0", NULL);
  snprintf(seen + 256, 256, "%s", lsk_context_errmsg(NULL));
  return rc;
}

START_TEST(test_status_thread_message)
{
  size_t n;
  ck_assert_int_eq(lsk_device_list(NULL, &n), LSK_EINVAL);
  const char *mine = lsk_context_errmsg(NULL);
  ck_assert_ptr_nonnull(strstr(mine, "lsk_device_list"));
  ck_assert_ptr_nonnull(strstr(mine, "out"));

  char seen[512];
  thrd_t t;
  int rc = -1;
  ck_assert_int_eq(thrd_create(&t, other_thread, seen), thrd_success);
  ck_assert_int_eq(thrd_join(t, &rc), thrd_success);
  ck_assert_int_eq(rc, LSK_EINVAL);
  ck_assert_str_eq(seen, ""); /* a new thread starts with no message */
  ck_assert_ptr_nonnull(strstr(seen + 256, "lsk_device_select"));
  ck_assert_ptr_nonnull(strstr(seen + 256, "index"));
  /* The other thread's failure left this thread's message alone. */
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(NULL), "lsk_device_list"));
  ck_assert_ptr_null(strstr(lsk_context_errmsg(NULL), "lsk_device_select"));
}
END_TEST

Suite *suite_status(void)
{
  Suite *s = suite_create("status");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_status_lsk_codes_names_and_messages);
  tcase_add_test(tc, test_status_lsk_codes_by_hand);
  tcase_add_test(tc, test_status_lsk_codes_range);
  tcase_add_test(tc, test_status_opencl_codes);
  tcase_add_test(tc, test_status_unknown_code);
  tcase_add_test(tc, test_status_name_r_truncates);
  tcase_add_test(tc, test_status_version);
  tcase_add_test(tc, test_status_thread_message);
  suite_add_tcase(s, tc);
  return s;
}
