/* check_grind.c: placeholder, being written. */
#include "testutil.h"

START_TEST(test_grind_placeholder) { ck_assert_int_eq(lsk_strerror(0)[0], 's'); }
END_TEST

Suite *suite_grind(void)
{
  Suite *s = suite_create("grind");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_grind_placeholder);
  suite_add_tcase(s, tc);
  return s;
}
