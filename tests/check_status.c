/* check_status.c: placeholder, being written. */
#include "testutil.h"

START_TEST(test_status_placeholder) { ck_assert_int_eq(lsk_strerror(0)[0], 's'); }
END_TEST

Suite *suite_status(void)
{
  Suite *s = suite_create("status");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_status_placeholder);
  suite_add_tcase(s, tc);
  return s;
}
