/* check_iota.c: placeholder, being written. */
#include "testutil.h"

START_TEST(test_iota_placeholder) { ck_assert_int_eq(lsk_strerror(0)[0], 's'); }
END_TEST

Suite *suite_iota(void)
{
  Suite *s = suite_create("iota");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_iota_placeholder);
  suite_add_tcase(s, tc);
  return s;
}
