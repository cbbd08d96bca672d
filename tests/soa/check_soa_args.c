/*
 * check_soa_args.c: SoA arguments that compose. A layout written once in C
 * (LSK_SOA_DEFINE) gives LSK_SOA_ARGS, the arguments of its view, which
 * splice into LSK_ARGS beside other arguments; LSK_ARG_SOA does the same
 * for a part of an lsk_soa; lsk_tune expands them too. Results are compared
 * with a plain C computation of the same kernel.
 */
#include <stdio.h>

#include "testutil.h"

#define PTS_MEMBERS(COLUMN, MATRIX, SCALAR)                                                        \
  COLUMN(float, x)                                                                                 \
  COLUMN(float, y)                                                                                 \
  SCALAR(float, shift)
LSK_SOA_DEFINE(pts, 64, PTS_MEMBERS)

/* y = a * x + y + shift + c over the view, with arguments before and after
 * it; the last, partial data block through lsk_domain_count. */
static const char *src =
    "LSK_KERNEL void axpy(LSK_CTX, float a, PTS_PARAMS(p), float c)\n"
    "{\n"
    "  pts_view v = PTS_VIEW(p);\n"
    "  LSK_BLOCKS(b, (p_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    uint base = b * LSK_DOMAIN_SIZE;\n"
    "    LSK_FOREACH_N(it, lsk_domain_count(base, p_n)) {\n"
    "      uint i = base + it.idx;\n"
    "      pts_set_y(v, i, a * pts_x(v, i) + pts_y(v, i) + pts_shift(v) + c);\n"
    "    }\n"
    "  }\n"
    "}\n";

/* Part 1 of a soa of two parts (so its base is not 0), filled with small
 * integers: every sum below is exact in float. */
#define N0 40
#define N1 333

static void fill(lsk_soa *soa, pts *v0, pts *v1)
{
  TU_OK(NULL, pts_bind(v0, lsk_soa_host(soa, 0), N0));
  TU_OK(NULL, pts_bind(v1, lsk_soa_host(soa, 1), N1));
  for (size_t i = 0; i < N0; ++i)
    v0->x[i] = v0->y[i] = -1.0f;
  v0->shift[0] = -1.0f;
  for (size_t i = 0; i < N1; ++i) {
    v1->x[i] = (float)i;
    v1->y[i] = (float)(3 * i);
  }
  v1->shift[0] = 5.0f;
}

/* Checks part 1 after `runs` launches with a and c (the plain C reference)
 * and part 0 untouched. */
static void check(lsk_context *ctx, lsk_soa *soa, int runs, float a, float c)
{
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  pts v0 = {0}, v1 = {0};
  TU_OK(NULL, pts_bind(&v0, lsk_soa_host(soa, 0), N0));
  TU_OK(NULL, pts_bind(&v1, lsk_soa_host(soa, 1), N1));
  for (size_t i = 0; i < N1; ++i) {
    float y = (float)(3 * i);
    for (int r = 0; r < runs; ++r)
      y = a * (float)i + y + 5.0f + c;
    ck_assert_msg(v1.y[i] == y && v1.x[i] == (float)i, "y[%zu] = %g, want %g", i, v1.y[i], y);
  }
  for (size_t i = 0; i < N0; ++i)
    ck_assert_msg(v0.x[i] == -1.0f && v0.y[i] == -1.0f, "part 0 changed at %zu", i);
}

typedef struct fixture {
  lsk_context *ctx;
  lsk_layout *layout;
  char *cl;
  lsk_program *prog;
  lsk_kernel *k;
  lsk_soa *soa;
} fixture;

static void setup(fixture *f)
{
  f->ctx = tu_context();
  TU_OK(NULL, pts_describe(&f->layout));
  TU_OK(NULL, lsk_layout_emit_cl(f->layout, NULL, &f->cl));
  TU_OK(f->ctx, lsk_program_create(f->ctx, src,
                                   &(lsk_program_options){.name = "axpy.cl",
                                                          .prelude = f->cl,
                                                          .build_options = "-Werror -DPTS_CHECK=1"},
                                   &f->prog));
  f->k = tu_kernel(f->prog, "axpy");
  TU_OK(f->ctx, lsk_soa_create(f->ctx, 2, (const lsk_layout *const[]){f->layout, f->layout},
                               (size_t[]){N0, N1}, &f->soa));
  pts v0 = {0}, v1 = {0};
  fill(f->soa, &v0, &v1);
  TU_OK(f->ctx, lsk_soa_upload(f->soa, NULL));
}

static void teardown(fixture *f)
{
  lsk_soa_destroy(f->soa);
  lsk_kernel_destroy(f->k);
  lsk_program_destroy(f->prog);
  lsk_free(f->cl);
  lsk_layout_destroy(f->layout);
  lsk_context_destroy(f->ctx);
}

/* LSK_SOA_ARGS between two floats, as --emit-c's PTS_ARGS would give. */
START_TEST(test_soa_args_splice)
{
  fixture f;
  setup(&f);
  ck_assert_int_eq(pts_NMEMBERS, 3);
  lsk_launch cfg = {.domain = {64}, .blocks = {3}};
  TU_OK(f.ctx, lsk_kernel_run(
                   f.k, &cfg,
                   LSK_ARGS(LSK_ARG_FLOAT(2.0f),
                            LSK_SOA_ARGS(pts, lsk_soa_buffer(f.soa), lsk_soa_base(f.soa, 1), N1),
                            LSK_ARG_FLOAT(1.0f)),
                   NULL));
  check(f.ctx, f.soa, 1, 2.0f, 1.0f);
  teardown(&f);
}
END_TEST

/* LSK_ARG_SOA of part 1, twice (asynchronously, then a run), and the same
 * arguments as lsk_soa_args gives. */
START_TEST(test_soa_args_arg_soa)
{
  fixture f;
  setup(&f);
  lsk_launch cfg = {.domain = {32}, .blocks = {2}};
  TU_OK(f.ctx,
        lsk_kernel_launch(
            f.k, &cfg, LSK_ARGS(LSK_ARG_FLOAT(3.0f), LSK_ARG_SOA(f.soa, 1), LSK_ARG_FLOAT(-2.0f)),
            NULL));
  TU_OK(f.ctx,
        lsk_kernel_run(f.k, &cfg,
                       LSK_ARGS(LSK_ARG_FLOAT(3.0f), LSK_ARG_SOA(f.soa, 1), LSK_ARG_FLOAT(-2.0f)),
                       NULL));
  check(f.ctx, f.soa, 2, 3.0f, -2.0f);
  teardown(&f);
}
END_TEST

/* lsk_tune takes the composite kinds: its snapshot and restore see the
 * soa's buffer, so each candidate's result is the automatic shape's and
 * the soa ends with the result of one run. */
START_TEST(test_soa_args_tune)
{
  fixture f;
  setup(&f);
  lsk_launch cfg = {.domain = {64}, .blocks = {2}};
  lsk_tune_shape cands[] = {{.workers = 8, .simd = 8}, {.workers = 16, .simd = 4}};
  lsk_tune_result out;
  TU_OK(f.ctx,
        lsk_tune(
            f.k, &cfg, LSK_ARGS(LSK_ARG_FLOAT(2.0f), LSK_ARG_SOA(f.soa, 1), LSK_ARG_FLOAT(1.0f)),
            &(lsk_tune_options){.repeat = 1, .candidates = cands, .ncandidates = 2, .no_store = 1},
            &out, NULL));
  ck_assert_uint_ge(out.nentries, 1);
  for (size_t i = 0; i < out.nentries; ++i)
    ck_assert_msg(out.entries[i].status != LSK_OK || out.entries[i].identical,
                  "candidate %zu differs", i);
  lsk_tune_result_free(&out);
  /* Restored before each run: the soa holds the result of one. */
  check(f.ctx, f.soa, 1, 2.0f, 1.0f);
  teardown(&f);
}
END_TEST

Suite *suite_soa_args(void)
{
  Suite *s = suite_create("soa_args");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_soa_args_splice);
  tcase_add_test(tc, test_soa_args_arg_soa);
  tcase_add_test(tc, test_soa_args_tune);
  suite_add_tcase(s, tc);
  return s;
}
