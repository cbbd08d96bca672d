/*
 * check_grind_planted.c: suite grind_planted, three kernels with planted
 * defects, for the oclgrind_planted test (tests/oclgrind.sh --expect):
 * that test passes only if oclgrind reports all three, so it shows that
 * the oclgrind tests can fail.
 *   planted_race: the workers of one block all write the same global word,
 *     with no atomic and no barrier between them (a write-write race);
 *   planted_oob: worker 0 reads one uint past the end of its buffer;
 *   planted_uninit: worker 0 stores a value read from local memory that
 *     nothing wrote (for --uninitialized).
 * Each kernel also writes markers that the test reads back, so the test
 * fails (and so does oclgrind_planted) if a kernel did not run; the script
 * also wants the line "grind_planted: all three kernels ran".
 *
 * The out-of-range read is undefined behaviour on a real device (and the
 * uninitialized one gives an unspecified value): on any device but
 * oclgrind's simulator the test runs the race kernel only.
 * It is in no unit test, only in the oclgrind_planted one.
 */
#include <stdio.h>

#include "testutil.h"

static const char *src =
    "LSK_KERNEL void planted_race(LSK_CTX, __global uint *word, __global uint *ran)\n"
    "{\n"
    "  LSK_FOREACH(it) {\n"
    "    word[0] = it.idx + 1; /* every worker: the race */\n"
    "    ran[it.idx] = 1;\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void planted_oob(LSK_CTX, __global const uint *x, uint n, __global uint *ran)\n"
    "{\n"
    "  LSK_MASTER {\n"
    "    uint past = x[n]; /* one past the end: the out-of-range read */\n"
    "    ran[0] = 7;\n"
    "    ran[1] = past == 0xdeadbeefu ? 0 : 1;\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void planted_uninit(LSK_CTX, __global uint *ran, uint k)\n"
    "{\n"
    "  LSK_SHARED(uint, never_written, 4);\n"
    "  /* A store that never happens (k is 1): without it, the compiler folds\n"
    "   * the load of memory nothing stores to, and there is nothing to see. */\n"
    "  if (k > 100)\n"
    "    never_written[0] = k;\n"
    "  lsk_sync();\n"
    "  LSK_MASTER {\n"
    "    ran[0] = 7;\n"
    "    ran[1] = never_written[k] + k; /* the uninitialized read */\n"
    "  }\n"
    "}\n";

enum { D = 8 };

START_TEST(test_grind_planted)
{
  lsk_context *ctx = tu_context();
  int sim = strstr(lsk_context_device(ctx)->name, "Oclgrind") != NULL;
  lsk_program *p = tu_program(ctx, "planted.cl", src);
  lsk_kernel *race = tu_kernel(p, "planted_race"), *oob = tu_kernel(p, "planted_oob"),
             *uninit = tu_kernel(p, "planted_uninit");
  /* Four workers of simd 2 in one block: the race is inside a work-group. */
  lsk_launch cfg = {.domain = {D}, .blocks = {1}, .workers = 4, .simd = 2};
  lsk_buffer *word = tu_zeros(ctx, 1), *ran = tu_zeros(ctx, D);
  TU_OK(ctx, lsk_kernel_run(race, &cfg, LSK_ARGS(LSK_ARG_BUFFER(word), LSK_ARG_BUFFER(ran)), NULL));
  unsigned *w = tu_read_uints(ctx, word, 1), *r = tu_read_uints(ctx, ran, D);
  ck_assert_msg(w[0] >= 1 && w[0] <= D, "planted_race wrote %u", w[0]);
  for (unsigned i = 0; i < D; ++i)
    ck_assert_msg(r[i] == 1, "planted_race: index %u did not run", i);
  free(w);
  free(r);
  if (sim) {
    /* x holds exactly 5 uints; the kernel reads x[5]. */
    unsigned x[5] = {1, 2, 3, 4, 5};
    lsk_buffer *xb = NULL, *ran2 = tu_zeros(ctx, 2);
    TU_OK(ctx, lsk_buffer_create(ctx, sizeof x, &xb));
    TU_OK(ctx, lsk_buffer_write(xb, 0, x, sizeof x, NULL));
    TU_OK(ctx, lsk_kernel_run(oob, &cfg,
                              LSK_ARGS(LSK_ARG_BUFFER(xb), LSK_ARG_UINT(5), LSK_ARG_BUFFER(ran2)),
                              NULL));
    r = tu_read_uints(ctx, ran2, 2);
    ck_assert_msg(r[0] == 7, "planted_oob did not run (marker %u)", r[0]);
    free(r);
    lsk_buffer *ran3 = tu_zeros(ctx, 2);
    TU_OK(ctx, lsk_kernel_run(uninit, &cfg, LSK_ARGS(LSK_ARG_BUFFER(ran3), LSK_ARG_UINT(1)), NULL));
    r = tu_read_uints(ctx, ran3, 2);
    ck_assert_msg(r[0] == 7, "planted_uninit did not run (marker %u)", r[0]);
    free(r);
    lsk_buffer_destroy(ran3);
    lsk_buffer_destroy(xb);
    lsk_buffer_destroy(ran2);
    printf("grind_planted: all three kernels ran\n");
  } else {
    printf("grind_planted: not oclgrind's simulator: the out-of-range and uninitialized kernels "
           "not run\n");
  }
  fflush(stdout);
  lsk_buffer_destroy(word);
  lsk_buffer_destroy(ran);
  lsk_kernel_destroy(race);
  lsk_kernel_destroy(oob);
  lsk_kernel_destroy(uninit);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_grind_planted(void)
{
  Suite *s = suite_create("grind_planted");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_grind_planted);
  suite_add_tcase(s, tc);
  return s;
}
