/*
 * check_barrier.c: a barrier that not every worker of the block reaches is
 * an error that names the user's line, never a crash (issue 27). The
 * issue's kernel (lsk_sync() inside a ForEach body) and a helper with a
 * barrier called from one are refused by lsk_kernel_run with LSK_EBUILD
 * and "NAME:LINE" (lsk_source_check's reading, kept by
 * lsk_program_create); a barrier behind a macro of the source, which that
 * reading cannot see, fails in the compiler through the device library's
 * guard, at the same line. The guard changes no result: a kernel with
 * continue, a master with else and a barrier after the ForEach gives what
 * the host computes. lsk_source_check and lsk_program_text are checked on
 * the text alone. Also under LSK_SHAPES=nvidia (ctest gpushape_barrier).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define N 256u

/* The issue's kernel: line 7 holds the lsk_sync(). */
static const char issue_src[] = "LSK_DECLARE_DOMAIN(bump, 256);\n"
                                "LSK_KERNEL void bump(LSK_CTX, __global float *x)\n"
                                "{\n"
                                "  LSK_FOREACH(it)\n"
                                "  {\n"
                                "    x[it.idx] += 1.0f;\n"
                                "    lsk_sync();\n"
                                "  }\n"
                                "}\n";

/* A helper with a barrier, called on line 9 inside a ForEach body. */
static const char helper_src[] = "LSK_DECLARE_DOMAIN(bump, 256);\n"
                                 "float pass(__local float *s, float v)\n"
                                 "{\n"
                                 "  s[lsk_worker()] = v; lsk_sync_local(); return s[0];\n"
                                 "}\n"
                                 "LSK_KERNEL void bump(LSK_CTX, __global float *x)\n"
                                 "{\n"
                                 "  __local float s[LSK_WORKERS];\n"
                                 "  LSK_FOREACH(it) { x[it.idx] = pass(s, x[it.idx]); }\n"
                                 "}\n";

/* A barrier behind the source's own macro, on line 5 inside LSK_MASTER. */
static const char macro_src[] = "#define STEP() barrier(CLK_LOCAL_MEM_FENCE)\n"
                                "LSK_DECLARE_DOMAIN(bump, 256);\n"
                                "LSK_KERNEL void bump(LSK_CTX, __global float *x)\n"
                                "{\n"
                                "  LSK_MASTER { x[0] = 1.0f; STEP(); }\n"
                                "}\n";

/* lsk_kernel_run of bump (name.cl) fails with LSK_EBUILD naming want. */
static void refused(const char *name, const char *src, const char *want1, const char *want2)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(ctx, src, &(lsk_program_options){.name = name}, &p));
  lsk_kernel *k = tu_kernel(p, "bump");
  lsk_buffer *x = tu_zeros(ctx, N);
  lsk_launch cfg = {.blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(x)), NULL), LSK_EBUILD, want1);
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), want2), "message '%s' lacks '%s'",
                lsk_context_errmsg(ctx), want2);
  /* Again: the same refusal, not a half-built program. */
  TU_FAILS(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(x)), NULL), LSK_EBUILD, want1);
  lsk_buffer_destroy(x);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}

START_TEST(test_barrier_issue_kernel_refused)
{
  refused("bump.cl", issue_src, "bump.cl:7: lsk_sync inside LSK_FOREACH (line 4)",
          "workers run different numbers of indices");
}
END_TEST

START_TEST(test_barrier_helper_refused)
{
  refused("helper.cl", helper_src, "helper.cl:9: pass (a function with a barrier) inside",
          "LSK_FOREACH (line 9)");
}
END_TEST

/* The reading misses the macro; the compiler's guard names line 5. */
START_TEST(test_barrier_macro_guard)
{
  char *report = NULL;
  ck_assert_int_eq(lsk_source_check(macro_src, "m.cl", 0, &report), 0);
  ck_assert_ptr_null(report);
  refused("macro.cl", macro_src, "macro.cl:5", "lsk_error_barrier_inside_LSK_MASTER");
}
END_TEST

/* The guard keeps results: per index 2 * x + 1 except index 3 (continue),
 * after a barrier the neighbour's value, worker 0's master writes out[0],
 * the else branch out[1]. */
static const char keep_src[] =
    "LSK_DECLARE_DOMAIN(keep, 256);\n"
    "LSK_KERNEL void keep(LSK_CTX, __global const uint *x, __global uint *y, __global uint *out)\n"
    "{\n"
    "  __local uint s[LSK_DOMAIN_SIZE];\n"
    "  LSK_FOREACH(it) {\n"
    "    s[it.idx] = 0;\n"
    "    if (it.idx == 3)\n"
    "      continue;\n"
    "    s[it.idx] = 2 * x[it.idx] + 1;\n"
    "  }\n"
    "  lsk_sync();\n"
    "  LSK_FOREACH(it) { y[it.idx] = s[(it.idx + 1) % LSK_DOMAIN_SIZE]; }\n"
    "  LSK_MASTER out[0] = 7;\n"
    "  else atomic_inc(&out[1]);\n"
    "}\n";

START_TEST(test_barrier_guard_keeps_results)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "keep.cl", keep_src);
  lsk_kernel *k = tu_kernel(p, "keep");
  unsigned hx[N];
  for (unsigned i = 0; i < N; ++i)
    hx[i] = i * 3u + 5u;
  lsk_buffer *x = tu_zeros(ctx, N), *y = tu_zeros(ctx, N), *out = tu_zeros(ctx, 2);
  TU_OK(ctx, lsk_buffer_write(x, 0, hx, sizeof hx, NULL));
  lsk_launch cfg = {.blocks = {1}};
  TU_OK(ctx,
        lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_BUFFER(y), LSK_ARG_BUFFER(out)),
                       NULL));
  lsk_kernel_info info;
  TU_OK(ctx, lsk_kernel_query(k, &cfg, &info));
  unsigned *hy = tu_read_uints(ctx, y, N), *ho = tu_read_uints(ctx, out, 2);
  for (unsigned i = 0; i < N; ++i) {
    unsigned j = (i + 1) % N, want = j == 3 ? 0u : 2u * hx[j] + 1u;
    ck_assert_msg(hy[i] == want, "y[%u] = %u, want %u", i, hy[i], want);
  }
  ck_assert_uint_eq(ho[0], 7u);
  ck_assert_uint_eq(ho[1], info.workers - 1u);
  free(hy);
  free(ho);
  lsk_buffer_destroy(x);
  lsk_buffer_destroy(y);
  lsk_buffer_destroy(out);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* The reading alone: each finding's line, none for the right places. */
START_TEST(test_barrier_source_check)
{
  char *r = NULL;
  ck_assert_int_eq(lsk_source_check(issue_src, "a.cl", 0, &r), 1);
  ck_assert_str_eq(r, "a.cl:7: lsk_sync inside LSK_FOREACH (line 4): workers run different "
                      "numbers of indices; a barrier must be reached by every worker\n");
  lsk_free(r);
  ck_assert_int_eq(lsk_source_check(helper_src, NULL, 0, &r), 1);
  ck_assert_ptr_nonnull(strstr(r, "source:9: pass"));
  lsk_free(r);
  static const char more[] = "LSK_COLLECTIVE int c1(__local int *s) { return 0; }\n"
                             "int c2(__local int *s) { return c1(s); }\n"
                             "LSK_KERNEL void k(LSK_CTX, __global int *x)\n"
                             "{\n"
                             "  __local int s[2 * LSK_WORKERS];\n"
                             "  LSK_FOREACH_N(it, 10) {\n"
                             "    x[it.idx] = c2(s) + lsk_block_idx();\n"
                             "    for (;;) break;\n"
                             "    switch (it.idx) { case 1: break; }\n"
                             "    if (x[0]) break;\n"
                             "  }\n"
                             "  LSK_MASTER x[0] = lsk_block_count((__local uint *)s, 1);\n"
                             "  if (get_local_id(0) == 0) lsk_sync();\n"
                             "  lsk_sync(); /* lsk_sync() in LSK_MASTER { } */\n"
                             "}\n";
  ck_assert_int_eq(lsk_source_check(more, "m.cl", 0, &r), 3);
  ck_assert_ptr_nonnull(strstr(r, "m.cl:7: c2 (a function with a barrier) inside LSK_FOREACH"));
  ck_assert_ptr_nonnull(strstr(r, "m.cl:10: break inside LSK_FOREACH (line 6)"));
  ck_assert_ptr_nonnull(strstr(r, "m.cl:12: lsk_block_count inside LSK_MASTER (line 12)"));
  lsk_free(r);
  ck_assert_int_eq(lsk_source_check(more, "m.cl", LSK_SOURCE_CHECK_DIVERGENT, &r), 4);
  ck_assert_ptr_nonnull(strstr(r, "m.cl:13: lsk_sync under a condition on the worker (line 13)"));
  lsk_free(r);
  /* A collective of the source's own LSK_BLOCK_DEFINE. */
  static const char defined[] = "LSK_BLOCK_DEFINE(hi, int, max, INT_MIN);\n"
                                "LSK_KERNEL void k(LSK_CTX, __global int *x)\n"
                                "{\n"
                                "  LSK_BLOCK_SCRATCH(int, s);\n"
                                "  LSK_FOREACH(it) { x[it.idx] = lsk_block_reduce_hi_int(s, 1); }\n"
                                "}\n";
  ck_assert_int_eq(lsk_source_check(defined, "d.cl", 0, &r), 1);
  ck_assert_ptr_nonnull(strstr(r, "d.cl:5: lsk_block_reduce_hi_int inside LSK_FOREACH (line 5)"));
  lsk_free(r);
  /* In a master body (a loop of one pass): break and continue of its own
   * are refused, a ForEach's continue and a loop's break inside it are not. */
  static const char master[] = "LSK_KERNEL void k(LSK_CTX, __global int *x)\n"
                               "{\n"
                               "  for (int r = 0; r < 4; ++r) {\n"
                               "    LSK_MASTER {\n"
                               "      if (x[r]) continue;\n"
                               "      LSK_FOREACH(it) { if (it.idx) continue; }\n"
                               "      while (x[0]) { if (x[1]) continue; break; }\n"
                               "      if (x[2]) break;\n"
                               "    }\n"
                               "  }\n"
                               "}\n";
  ck_assert_int_eq(lsk_source_check(master, "c.cl", 0, &r), 2);
  ck_assert_ptr_nonnull(strstr(r, "c.cl:5: continue inside LSK_MASTER (line 4)"));
  ck_assert_ptr_nonnull(strstr(r, "c.cl:8: break inside LSK_MASTER (line 4)"));
  lsk_free(r);
  static const char fine[] = "LSK_KERNEL void k(LSK_CTX, __global int *x)\n"
                             "{\n"
                             "  LSK_FOREACH(it) { x[it.idx] = 1; }\n"
                             "  lsk_sync();\n"
                             "  if (x[0]) lsk_sync();\n"
                             "}\n";
  ck_assert_int_eq(lsk_source_check(fine, "f.cl", LSK_SOURCE_CHECK_DIVERGENT, &r), 0);
  ck_assert_ptr_null(r);
}
END_TEST

/* lsk_program_text (lsk check's NVPTX route) refuses the same. */
START_TEST(test_barrier_program_text)
{
  char *text = NULL, *opts = NULL;
  unsigned dom[3] = {256, 1, 1};
  int rc =
      lsk_program_text(issue_src, &(lsk_program_options){.name = "t.cl"}, dom, 8, 1, &text, &opts);
  ck_assert_int_eq(rc, LSK_EBUILD);
  ck_assert_ptr_null(text);
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(NULL), "t.cl:7: lsk_sync inside LSK_FOREACH"));
}
END_TEST

Suite *suite_barrier(void)
{
  Suite *s = suite_create("barrier");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_barrier_issue_kernel_refused);
  tcase_add_test(tc, test_barrier_helper_refused);
  tcase_add_test(tc, test_barrier_macro_guard);
  tcase_add_test(tc, test_barrier_guard_keeps_results);
  tcase_add_test(tc, test_barrier_source_check);
  tcase_add_test(tc, test_barrier_program_text);
  suite_add_tcase(s, tc);
  return s;
}
