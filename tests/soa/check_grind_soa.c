/*
 * check_grind_soa.c: suite grind_soa, every kind of generated SoA accessor
 * (lsk_layout_emit_cl, lsk_layout_emit_view_cl) at a small size, for
 * oclgrind (tests/oclgrind.sh): the const view's getters and every setter
 * (column, matrix, scalar; float, double, uint and a double2 column, whose
 * element is one 16-byte load), a view of two layouts, with the range
 * checks compiled in and out, and a failing range check (LSK_VERIFY's
 * failure path). Kernels: tests/grind_soa.cl and tests/soa_kernels.cl.
 * Results against plain C from the same host arrays.
 */
#include <math.h>
#include <stdio.h>

#include "parts.h"
#include "testutil.h"

static char *read_all(const char *path)
{
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  static char buf[2][1 << 16];
  static int which;
  char *b = buf[which ^= 1];
  b[fread(b, 1, sizeof buf[0] - 1, f)] = 0;
  fclose(f);
  return b;
}

/* The views' code, concatenated: one prelude for grind_soa.cl. */
typedef struct views {
  lsk_layout *parts, *hits, *clus, *cplx;
  char *cl;
} views;

static void views_make(views *v)
{
  char *a = NULL, *b = NULL, *c = NULL;
  TU_OK(NULL, parts_describe(&v->parts));
  TU_OK(NULL, lsk_layout_parse("layout hits\ncolumn float x\ncolumn float y\ncolumn int skip\n",
                               "hits", &v->hits));
  TU_OK(NULL, lsk_layout_parse("layout clus align 64\nmatrix float 2 1 q\ncolumn double charge\n",
                               "clus", &v->clus));
  TU_OK(NULL, lsk_layout_parse("layout cplx\ncolumn double2 z\n", "cplx", &v->cplx));
  TU_OK(NULL, lsk_layout_emit_cl(v->parts, NULL, &a));
  TU_OK(NULL, lsk_layout_emit_view_cl("hc", 2, (const lsk_layout *const[]){v->hits, v->clus},
                                      (const char *[]){"x,y", NULL}, &b));
  TU_OK(NULL, lsk_layout_emit_cl(v->cplx, NULL, &c));
  size_t len = strlen(a) + strlen(b) + strlen(c) + 3;
  v->cl = malloc(len);
  snprintf(v->cl, len, "%s\n%s\n%s", a, b, c);
  lsk_free(a);
  lsk_free(b);
  lsk_free(c);
}

static void views_free(views *v)
{
  free(v->cl);
  lsk_layout_destroy(v->parts);
  lsk_layout_destroy(v->hits);
  lsk_layout_destroy(v->clus);
  lsk_layout_destroy(v->cplx);
}

static lsk_program *build(lsk_context *ctx, const char *file, const char *prelude, const char *opts)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", LSK_TEST_DIR, file);
  lsk_program *p = NULL;
  TU_OK(ctx,
        lsk_program_create(
            ctx, read_all(path),
            &(lsk_program_options){.name = file, .prelude = prelude, .build_options = opts}, &p));
  return p;
}

/* An soa of one part of n elements of layout l (zeros), host memory in *h. */
static lsk_soa *soa_of(lsk_context *ctx, const lsk_layout *l, size_t n)
{
  lsk_soa *s = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){l}, &n, &s));
  memset(lsk_soa_host(s, 0), 0, lsk_soa_bytes(s));
  return s;
}

/* copy_all from src to dst, both of n elements, and every member checked. */
static void check_copy_all(lsk_context *ctx, const views *v, const char *opts, size_t n,
                           const lsk_launch *cfg)
{
  lsk_program *p = build(ctx, "grind_soa.cl", v->cl, opts);
  lsk_kernel *k = tu_kernel(p, "copy_all");
  lsk_soa *src = soa_of(ctx, v->parts, n), *dst = soa_of(ctx, v->parts, n);
  parts x = {0}, y = {0};
  TU_OK(NULL, parts_bind(&x, lsk_soa_host(src, 0), n));
  TU_OK(NULL, parts_bind(&y, lsk_soa_host(dst, 0), n));
  parts_fill(&x, n);
  TU_OK(ctx, lsk_soa_upload(src, NULL));
  TU_OK(ctx, lsk_soa_upload(dst, NULL));
  lsk_arg args[24];
  size_t na = 0, nb = 0;
  TU_OK(ctx, lsk_soa_args(src, 0, NULL, args, 24, &na));
  TU_OK(ctx, lsk_soa_args(dst, 0, NULL, args + na, 24 - na, &nb));
  TU_OK(ctx, lsk_kernel_run(k, cfg, args, na + nb, NULL));
  TU_OK(ctx, lsk_soa_download(dst, NULL));
  for (size_t i = 0; i < n; ++i) {
    ck_assert_msg(y.a[i] == x.a[i] + 1.0 && y.b[i] == x.b[i] * 2.0f, "%s: a or b of %zu", opts, i);
    for (size_t r = 0; r < 3; ++r) {
      for (size_t c = 0; c < 3; ++c)
        ck_assert_msg(y.m[i + (r + 3 * c) * y.m_stride] == x.m[i + (c + 3 * r) * x.m_stride],
                      "%s: m(%zu, %zu) of %zu", opts, r, c, i);
      ck_assert_msg(y.v[i + r * y.v_stride] == x.v[i + r * x.v_stride] - 1.0, "%s: v(%zu) of %zu",
                    opts, r, i);
    }
    ck_assert_msg(y.w[i].s[0] == x.w[i].s[1] && y.w[i].s[1] == x.w[i].s[0], "%s: w of %zu", opts,
                  i);
    ck_assert_msg(y.id[i] == (x.id[i] ^ 5u), "%s: id of %zu", opts, i);
    ck_assert_msg(y.out[i] == x.out[i] + x.s[0], "%s: out of %zu", opts, i);
  }
  ck_assert_msg(y.s[0] == x.s[0] * 3.0, "%s: s = %g", opts, y.s[0]);
  lsk_soa_destroy(src);
  lsk_soa_destroy(dst);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
}

/* Const getters and all setters, checks in and out, two shapes (one of a
 * single worker), a count that fills no block. */
START_TEST(test_grind_soa_copy_all)
{
  lsk_context *ctx = tu_context();
  views v;
  views_make(&v);
  check_copy_all(ctx, &v, "-DPARTS_CHECK=1", 37,
                 &(lsk_launch){.domain = {16}, .blocks = {2}, .workers = 4, .simd = 2});
  check_copy_all(ctx, &v, "-DPARTS_CHECK=0 -DPARTS_RESTRICT=0", 21,
                 &(lsk_launch){.domain = {8}, .blocks = {3}, .workers = 1, .simd = 1});
  views_free(&v);
  lsk_context_destroy(ctx);
}
END_TEST

/* A view of two layouts (parts 0 and 2 of three) and the double2 column. */
START_TEST(test_grind_soa_two_layouts_and_double2)
{
  lsk_context *ctx = tu_context();
  views v;
  views_make(&v);
  lsk_program *p = build(ctx, "grind_soa.cl", v.cl, "-DHC_CHECK=1 -DCPLX_CHECK=1");
  lsk_kernel *k = tu_kernel(p, "merged");
  size_t counts[3] = {30, 29, 30};
  lsk_soa *soa = NULL;
  TU_OK(ctx,
        lsk_soa_create(ctx, 3, (const lsk_layout *const[]){v.hits, v.clus, v.clus}, counts, &soa));
  memset(lsk_soa_host(soa, 0), 0, lsk_soa_bytes(soa));
  lsk_member_info mx, my, mq, mc;
  TU_OK(NULL, lsk_layout_member(v.hits, 0, 30, &mx));
  TU_OK(NULL, lsk_layout_member(v.hits, 1, 30, &my));
  TU_OK(NULL, lsk_layout_member(v.clus, 0, 30, &mq));
  TU_OK(NULL, lsk_layout_member(v.clus, 1, 30, &mc));
  unsigned char *h0 = lsk_soa_host(soa, 0), *h2 = lsk_soa_host(soa, 2);
  float *x = (float *)(h0 + mx.offset), *y = (float *)(h0 + my.offset);
  float *q1 = (float *)(h2 + mq.offset) + mq.stride;
  for (size_t i = 0; i < 30; ++i) {
    x[i] = (float)i;
    y[i] = 0.5f * (float)i;
    q1[i] = 100.0f + (float)(i % 3);
  }
  TU_OK(ctx, lsk_soa_upload(soa, NULL));
  lsk_arg args[16];
  size_t na = 0;
  TU_OK(ctx,
        lsk_soa_view_args(soa, 2, (size_t[]){0, 2}, (const char *[]){"x,y", NULL}, args, 16, &na));
  lsk_launch cfg = {.domain = {8}, .blocks = {2}, .workers = 2, .simd = 2};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, args, na, NULL));
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  double *charge = (double *)(h2 + mc.offset);
  for (size_t i = 0; i < 30; ++i)
    ck_assert_msg(charge[i] == 1.5 * (double)i + 100.0 + (double)(i % 3), "charge[%zu] = %g", i,
                  charge[i]);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);

  /* double2: out = re^2 + im^2, and each element swapped. */
  k = tu_kernel(p, "cplx_swap");
  size_t n = 19;
  soa = soa_of(ctx, v.cplx, n);
  cl_double2 *z = lsk_soa_host(soa, 0);
  for (size_t i = 0; i < n; ++i) {
    z[i].s[0] = (double)i + 0.5;
    z[i].s[1] = -(double)(i % 4);
  }
  TU_OK(ctx, lsk_soa_upload(soa, NULL));
  lsk_buffer *out = NULL;
  double zero[19] = {0};
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof zero, &out));
  TU_OK(ctx, lsk_buffer_write(out, 0, zero, sizeof zero, NULL));
  TU_OK(ctx, lsk_soa_args(soa, 0, NULL, args, 15, &na));
  args[na++] = LSK_ARG_BUFFER(out);
  TU_OK(ctx, lsk_kernel_run(k, &cfg, args, na, NULL));
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  double got[19];
  TU_OK(ctx, lsk_buffer_read(out, 0, got, sizeof got, NULL));
  for (size_t i = 0; i < n; ++i) {
    double re = (double)i + 0.5, im = -(double)(i % 4);
    ck_assert_msg(got[i] == re * re + im * im, "re^2 + im^2 of %zu: %g", i, got[i]);
    ck_assert_msg(z[i].s[0] == im && z[i].s[1] == re, "swapped %zu: (%g, %g)", i, z[i].s[0],
                  z[i].s[1]);
  }
  lsk_buffer_destroy(out);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  views_free(&v);
  lsk_context_destroy(ctx);
}
END_TEST

/* A failing range check: LSK_EVERIFY naming the member, index and count,
 * the failed read gives 0, and nothing is written. */
START_TEST(test_grind_soa_range_check_fails)
{
  lsk_context *ctx = tu_context();
  views v;
  views_make(&v);
  char *cl = NULL;
  TU_OK(NULL, lsk_layout_emit_cl(v.parts, NULL, &cl));
  lsk_program *p = build(ctx, "soa_kernels.cl", cl, "-DPARTS_CHECK=1");
  lsk_kernel *k = tu_kernel(p, "out_of_range");
  size_t n = 9;
  lsk_soa *soa = soa_of(ctx, v.parts, n);
  parts h = {0};
  TU_OK(NULL, parts_bind(&h, lsk_soa_host(soa, 0), n));
  parts_fill(&h, n);
  TU_OK(ctx, lsk_soa_upload(soa, NULL));
  lsk_buffer *got = NULL;
  double sentinel = 1234.5, g = 0;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof g, &got));
  TU_OK(ctx, lsk_buffer_write(got, 0, &sentinel, sizeof sentinel, NULL));
  lsk_arg args[16];
  size_t na = 0;
  TU_OK(ctx, lsk_soa_args(soa, 0, NULL, args, 14, &na));
  args[na++] = LSK_ARG_INT(9);
  args[na++] = LSK_ARG_BUFFER(got);
  TU_FAILS(ctx, lsk_kernel_run(k, &(lsk_launch){.domain = {4}, .blocks = {1}}, args, na, NULL),
           LSK_EVERIFY,
           "at soa_kernels.cl:39: layout 'parts' member 'a': index 9 out of range [0, 9) (3 "
           "failures)");
  TU_OK(ctx, lsk_buffer_read(got, 0, &g, sizeof g, NULL));
  ck_assert_msg(g == 0.0, "the failed read gives 0, got %g", g);
  unsigned char *before = malloc(lsk_soa_bytes(soa));
  memcpy(before, lsk_soa_host(soa, 0), lsk_soa_bytes(soa));
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  ck_assert_int_eq(memcmp(before, lsk_soa_host(soa, 0), lsk_soa_bytes(soa)), 0);
  free(before);
  lsk_buffer_destroy(got);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_free(cl);
  views_free(&v);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_grind_soa(void)
{
  Suite *s = suite_create("grind_soa");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_soa_copy_all);
  tcase_add_test(tc, test_grind_soa_two_layouts_and_double2);
  tcase_add_test(tc, test_grind_soa_range_check_fails);
  suite_add_tcase(s, tc);
  return s;
}
