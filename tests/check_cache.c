/* check_cache.c: placeholder, being written. */
#include "testutil.h"

START_TEST(test_cache_placeholder) { ck_assert_int_eq(lsk_strerror(0)[0], 's'); }
END_TEST

Suite *suite_cache(void)
{
  Suite *s = suite_create("cache");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_cache_placeholder);
  suite_add_tcase(s, tc);
  return s;
}
