/*
 * check_ledger.c: the ledger's canary (ledger.c): a test that leaks one
 * cl_mem on purpose (retained through lsk_buffer_cl, never released), so
 * that ctest can show the ledger fails it (ledger_canary expects the
 * ledger's message). Run only when named: `lsk_tests ledger_canary`.
 * Apart from ledger.c, which the examples' test binaries link too.
 */
#include "testutil.h"

START_TEST(test_ledger_canary_leaks_one_mem)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *b = tu_zeros(ctx, 16);
  clRetainMemObject(lsk_buffer_cl(b));
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_ledger_canary(void)
{
  Suite *s = suite_create("ledger_canary");
  TCase *tc = tcase_create("canary");
  tcase_add_test(tc, test_ledger_canary_leaks_one_mem);
  suite_add_tcase(s, tc);
  return s;
}
