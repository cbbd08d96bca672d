/*
 * check_verify.c: device verify failures become LSK_EVERIFY on the host,
 * with the kernel, the line of the user's source, the message and values.
 */
#include <stdio.h>

#include "testutil.h"

#define N 4096u

/* The line of the first occurrence of needle in src, counted from 1. */
static unsigned line_of(const char *src, const char *needle)
{
  const char *at = strstr(src, needle);
  ck_assert_ptr_nonnull(at);
  unsigned line = 1;
  for (const char *p = src; p < at; ++p)
    line += *p == '\n';
  return line;
}

static char *read_text(const char *path)
{
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return buf;
}

/* data[5] = 1 before the iota: one failure at the line that invokes the
 * check (IOTA_STORE, a macro, so __LINE__ is where it is used), with
 * the values 5 and 1; every other element still equals its index. */
START_TEST(test_verify_planted_failure)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create_file(ctx, LSK_TEST_DIR "/iota.cl", NULL, &p));
  lsk_kernel *k = tu_kernel(p, "iota");
  lsk_buffer *data = tu_zeros(ctx, N);
  unsigned one = 1;
  TU_OK(ctx, lsk_buffer_write(data, 5 * sizeof one, &one, sizeof one, NULL));
  lsk_launch cfg = {.domain = {128}, .blocks = {8}};
  int rc = lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N)), NULL);
  ck_assert_int_eq(rc, LSK_EVERIFY);
  const char *msg = lsk_context_errmsg(ctx);
  /* The file is the program's name: its path, whose tail is kept. */
  char want[64];
  snprintf(want, sizeof want, "iota.cl:%u: target not zero",
           line_of(read_text(LSK_TEST_DIR "/iota.cl"), "      IOTA_STORE(g)"));
  ck_assert_msg(strstr(msg, want), "'%s' lacks '%s'", msg, want);
  ck_assert_msg(strstr(msg, "kernel 'iota'"), "%s", msg);
  ck_assert_msg(strstr(msg, "target not zero [5, 1]"), "%s", msg);
  ck_assert_msg(strstr(msg, "(1 failure)"), "%s", msg);
  unsigned *h = tu_read_uints(ctx, data, N);
  for (unsigned i = 0; i < N; ++i)
    if (i != 5)
      ck_assert_msg(h[i] == i, "data[%u] = %u", i, h[i]);
  free(h);
  /* The record is cleared: the next clean run succeeds. */
  unsigned zero = 0;
  TU_OK(ctx, lsk_buffer_fill(data, &zero, 4, 0, N * 4, NULL));
  TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N)), NULL));
  lsk_buffer_destroy(data);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

static const char *src =
    "LSK_KERNEL void check(LSK_CTX, __global const int *v, uint n)\n"
    "{\n"
    "  LSK_FOREACH(it) {\n"
    "    if (it.idx < n) {\n"
    "      LSK_VERIFY4(v[it.idx] >= 0, \"negative\", it.idx, v[it.idx], -7, (long)1 << 40);\n"
    "    }\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void plain(LSK_CTX, __global const int *v)\n"
    "{\n"
    "  LSK_MASTER { LSK_VERIFY(v[0] == 0, \"first is not zero\"); }\n"
    "}\n";

/* Asynchronous launches: the failure is reported by lsk_context_finish,
 * counted, with four values (negative and 64-bit); then cleared. */
START_TEST(test_verify_async_and_values)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "check.cl", src);
  lsk_kernel *k = tu_kernel(p, "check");
  int host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = (i == 9 || i == 17 || i == 40) ? -i : i;
  lsk_buffer *v = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof host, &v));
  TU_OK(ctx, lsk_buffer_write(v, 0, host, sizeof host, NULL));
  lsk_launch cfg = {.domain = {64}, .blocks = {1}, .workers = 8, .simd = 1};
  TU_OK(ctx, lsk_kernel_launch(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(v), LSK_ARG_UINT(64)), NULL));
  TU_FAILS(ctx, lsk_context_finish(ctx), LSK_EVERIFY, "(3 failures)");
  const char *msg = lsk_context_errmsg(ctx);
  ck_assert_msg(strstr(msg, "at check.cl:5: negative ["), "%s", msg);
  ck_assert_msg(strstr(msg, ", -7, 1099511627776]"), "%s", msg);
  /* One of the three failing indices, with its own value. */
  ck_assert_msg(strstr(msg, "[9, -9,") || strstr(msg, "[17, -17,") || strstr(msg, "[40, -40,"),
                "%s", msg);
  TU_OK(ctx, lsk_context_finish(ctx));
  lsk_buffer_destroy(v);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Two different kernels launched before the check: the message names the
 * one that failed (each kernel has its own record on each queue), not
 * the last launched; a check without values prints none. */
START_TEST(test_verify_several_kernels)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "check.cl", src);
  lsk_kernel *k = tu_kernel(p, "check"), *plain = tu_kernel(p, "plain");
  int host[4] = {5, 1, 2, 3};
  lsk_buffer *v = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof host, &v));
  TU_OK(ctx, lsk_buffer_write(v, 0, host, sizeof host, NULL));
  lsk_launch cfg = {.domain = {4}, .blocks = {1}};
  TU_OK(ctx, lsk_kernel_launch(plain, &cfg, LSK_ARGS(LSK_ARG_BUFFER(v)), NULL));
  TU_OK(ctx, lsk_kernel_launch(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(v), LSK_ARG_UINT(4)), NULL));
  TU_FAILS(
      ctx, lsk_context_finish(ctx), LSK_EVERIFY,
      "verify failed on queue 'default' in kernel 'plain' at check.cl:11: first is not zero (1 "
      "failure)");
  TU_FAILS(ctx, lsk_kernel_run(plain, &cfg, LSK_ARGS(LSK_ARG_BUFFER(v)), NULL), LSK_EVERIFY,
           "in kernel 'plain' at check.cl:11: first is not zero (1 failure)");
  lsk_buffer_destroy(v);
  lsk_kernel_destroy(plain);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Where a failure was: the program's name and line in its source, the
 * prelude's name (NAME.prelude) and line there, an #include'd header's path
 * and line there (after the build's #line markers, __FILE__ is each). */
static const char *pos_prelude = "\n"
                                 "LSK_INLINE void check_small(LSK_CTX, int x)\n"
                                 "{\n"
                                 "  LSK_VERIFY1(x < 100, \"too big\", x);\n"
                                 "}\n";
static const char *pos_src = "#include \"verify_header.h\"\n"
                             "LSK_KERNEL void pos(LSK_CTX, int which, int x)\n"
                             "{\n"
                             "  LSK_MASTER {\n"
                             "    if (which == 0)\n"
                             "      LSK_VERIFY1(x == 0, \"not zero\", x);\n"
                             "    if (which == 1)\n"
                             "      check_positive(LSK_CTX_FWD, x);\n"
                             "    if (which == 2)\n"
                             "      check_small(LSK_CTX_FWD, x);\n"
                             "  }\n"
                             "}\n";

START_TEST(test_verify_file_and_line)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  TU_OK(ctx,
        lsk_program_create(ctx, pos_src,
                           &(lsk_program_options){.name = "pos.cl",
                                                  .prelude = pos_prelude,
                                                  .build_options = "-I" LSK_TEST_DIR "/device"},
                           &p));
  lsk_kernel *k = tu_kernel(p, "pos");
  lsk_launch cfg = {.domain = {4}, .blocks = {1}};
  static const struct {
    int which, x;
    const char *want;
  } cases[] = {
      {0, 3, "in kernel 'pos' at pos.cl:6: not zero [3] (1 failure)"},
      {1, -2, "/device/verify_header.h:5: not positive [-2] (1 failure)"},
      {2, 500, "in kernel 'pos' at pos.cl.prelude:4: too big [500] (1 failure)"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
    TU_FAILS(ctx,
             lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_INT(cases[c].which), LSK_ARG_INT(cases[c].x)),
                            NULL),
             LSK_EVERIFY, cases[c].want);
  TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_INT(1), LSK_ARG_INT(1)), NULL));
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_verify(void)
{
  Suite *s = suite_create("verify");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_verify_planted_failure);
  tcase_add_test(tc, test_verify_async_and_values);
  tcase_add_test(tc, test_verify_several_kernels);
  tcase_add_test(tc, test_verify_file_and_line);
  suite_add_tcase(s, tc);
  return s;
}
