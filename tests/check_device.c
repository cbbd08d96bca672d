/* check_device.c: placeholder, being written. */
#include "testutil.h"

START_TEST(test_device_placeholder) { ck_assert_int_eq(lsk_strerror(0)[0], 's'); }
END_TEST

Suite *suite_device(void)
{
  Suite *s = suite_create("device");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_device_placeholder);
  suite_add_tcase(s, tc);
  return s;
}
