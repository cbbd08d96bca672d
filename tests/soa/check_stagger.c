/*
 * check_stagger.c: the column stagger of SoA layouts (lsk's own option,
 * not CMSSW's; docs/soa.md). Offsets and sizes worked out by hand and from
 * a reference written here, the default unchanged byte for byte, bad
 * input, and data through kernels: host views from LSK_SOA_DEFINE_STAGGERED,
 * device views from lsk_layout_emit_cl of the same layout, compared with
 * plain C (two implementations of the stagger that must agree).
 */
#include <math.h>
#include <stdio.h>

#include "parts.h"
#include "testutil.h"

/* The parts layout of the other SoA tests, staggered by 3 * 128 bytes. */
LSK_SOA_DEFINE_STAGGERED(sparts, 128, 384, PARTS_MEMBERS)

/* A staggered host view seen as a parts view (same members), so that
 * parts_fill and parts_reference serve both. */
#define AS_C(T, name) p->name = s->name;
#define AS_M(T, R, C, name)                                                                        \
  p->name = s->name;                                                                               \
  p->name##_stride = s->name##_stride;
static void as_parts(parts *p, const sparts *s)
{
  PARTS_MEMBERS(AS_C, AS_M, AS_C)
  p->lsk_n = s->lsk_n;
}

static size_t offset_of(const lsk_layout *l, size_t i, size_t n)
{
  lsk_member_info m;
  TU_OK(NULL, lsk_layout_member(l, i, n, &m));
  return m.offset;
}

static size_t size_of(const lsk_layout *l, size_t n)
{
  size_t bytes = 0;
  TU_OK(NULL, lsk_layout_size(l, n, &bytes));
  return bytes;
}

/* The rule written again, plainly: sub-columns (columns, matrix components)
 * take align(n * t) + s, scalars align(t). kinds: 'c', 'm' (rows * cols in
 * comps), 's'. */
static size_t ref_offset(const char *kinds, const size_t *tsize, const unsigned *comps, size_t k,
                         size_t n, size_t a, size_t s)
{
  size_t off = 0;
  for (size_t i = 0; i < k; ++i) {
    size_t raw = kinds[i] == 's' ? tsize[i] : n * tsize[i];
    size_t one = (raw + a - 1) / a * a;
    off += kinds[i] == 's' ? one : comps[i] * (one + s);
  }
  return off;
}

/* n = 100, A = 128, stagger 128: x float 400 -> 512 + 128 = 640 at 0
 * (padding 240); p float 2x1: 2 * 640 = 1280 at 640 (stride 160); count
 * uint 128 at 1920 (scalars take no stagger); z double2 1600 -> 1664 + 128
 * = 1792 at 2048; total 3840. n = 0: 128, 256, 128 at 384, 128 at 512;
 * total 640. Unstaggered (the byte rule): 0, 512, 1536, 1664; 3328. */
START_TEST(test_stagger_by_hand)
{
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_parse("layout small align 128 stagger 128\ncolumn float x\n"
                               "matrix float 2 1 p\nscalar uint count\ncolumn double2 z\n",
                               "small.layout", &l));
  ck_assert_uint_eq(lsk_layout_stagger(l), 128);
  static const size_t want100[] = {0, 640, 1920, 2048}, want0[] = {0, 128, 384, 512};
  for (size_t i = 0; i < 4; ++i) {
    ck_assert_uint_eq(offset_of(l, i, 100), want100[i]);
    ck_assert_uint_eq(offset_of(l, i, 0), want0[i]);
    ck_assert_uint_eq(offset_of(l, i, 100) % 128, 0);
  }
  ck_assert_uint_eq(size_of(l, 100), 3840);
  ck_assert_uint_eq(size_of(l, 0), 640);
  lsk_member_info m;
  TU_OK(NULL, lsk_layout_member(l, 0, 100, &m));
  ck_assert_uint_eq(m.size, 640);
  ck_assert_uint_eq(m.padding, 240);
  TU_OK(NULL, lsk_layout_member(l, 1, 100, &m));
  ck_assert_uint_eq(m.size, 1280);
  ck_assert_uint_eq(m.stride, 160);
  char *text = NULL;
  TU_OK(NULL, lsk_layout_describe(l, 100, &text));
  ck_assert_msg(strstr(text, "alignment 128, stagger 128 (lsk's, not CMSSW's):\n") &&
                    strstr(text, "Column z at offset 2048 has size 1600 and padding 192\n") &&
                    strstr(text, "Final offset = 3840 computeDataSize(...): 3840\n"),
                "%s", text);
  lsk_free(text);
  /* Back to 0: the byte rule, as CMSSW. */
  TU_OK(NULL, lsk_layout_set_stagger(l, 0));
  static const size_t plain[] = {0, 512, 1536, 1664};
  for (size_t i = 0; i < 4; ++i)
    ck_assert_uint_eq(offset_of(l, i, 100), plain[i]);
  ck_assert_uint_eq(size_of(l, 100), 3328);
  lsk_layout_destroy(l);
}
END_TEST

/* n = 2^25 doubles: the byte rule puts three columns exactly 2^28 bytes
 * apart; stagger S moves column k by k * S, so they are 2^28 + S apart,
 * S from 128 up, every offset still a multiple of 128. n = 2^25 + 1: each
 * column 2^28 + 128 (alignment) + S. */
START_TEST(test_stagger_large_power_of_two)
{
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_parse("layout tri\ncolumn double a\ncolumn double b\ncolumn double c\n",
                               "tri", &l));
  const size_t n = (size_t)1 << 25, col = (size_t)1 << 28;
  for (size_t k = 0; k < 3; ++k)
    ck_assert_uint_eq(offset_of(l, k, n), k * col);
  static const size_t staggers[] = {128, 384, 4096 + 128};
  for (size_t s = 0; s < 3; ++s) {
    size_t S = staggers[s];
    TU_OK(NULL, lsk_layout_set_stagger(l, S));
    for (size_t k = 0; k < 3; ++k) {
      ck_assert_uint_eq(offset_of(l, k, n), k * (col + S));
      ck_assert_uint_eq(offset_of(l, k, n + 1), k * (col + 128 + S));
      ck_assert_uint_eq(offset_of(l, k, n) % 128, 0);
    }
    /* The point: columns no longer agree in their low 12 address bits. */
    ck_assert_uint_ne((offset_of(l, 1, n) - offset_of(l, 0, n)) % 4096, 0);
    ck_assert_uint_eq(size_of(l, n), 3 * (col + S));
    ck_assert_uint_eq(size_of(l, n + 1), 3 * (col + 128 + S));
  }
  lsk_layout_destroy(l);
}
END_TEST

/* Against the reference above for many counts, alignments and staggers;
 * stagger 0 gives the byte rule exactly, and the generated code of a
 * layout whose stagger went back to 0 is byte for byte that of one never
 * staggered. */
START_TEST(test_stagger_reference_and_default)
{
  static const char kinds[] = {'c', 'm', 's', 'c', 'm', 'c'};
  static const char *types[] = {"uchar", "float", "double", "double2", "short", "float3"};
  static const size_t tsize[] = {1, 4, 8, 16, 2, 16};
  static const unsigned rows[] = {1, 3, 1, 1, 2, 1}, cols[] = {1, 3, 1, 1, 2, 1};
  unsigned comps[6];
  static const size_t aligns[] = {16, 64, 128, 4096};
  static const size_t counts[] = {0, 1, 5, 100, 1000, 4096, 65536, 1000003};
  for (size_t ai = 0; ai < 4; ++ai) {
    size_t a = aligns[ai];
    lsk_layout *l = NULL, *fresh = NULL;
    TU_OK(NULL, lsk_layout_create("ref", a, &l));
    TU_OK(NULL, lsk_layout_create("ref", a, &fresh));
    for (size_t i = 0; i < 6; ++i) {
      char name[8];
      snprintf(name, sizeof name, "m%zu", i);
      comps[i] = rows[i] * cols[i];
      lsk_layout *both[2] = {l, fresh};
      for (int b = 0; b < 2; ++b)
        TU_OK(NULL, kinds[i] == 'c' ? lsk_layout_add_column(both[b], types[i], name)
                    : kinds[i] == 'm'
                        ? lsk_layout_add_matrix(both[b], types[i], rows[i], cols[i], name)
                        : lsk_layout_add_scalar(both[b], types[i], name));
    }
    for (size_t s = 0; s <= 3; ++s) {
      size_t S = s * a;
      TU_OK(NULL, lsk_layout_set_stagger(l, S));
      for (size_t c = 0; c < 8; ++c) {
        size_t n = counts[c];
        for (size_t i = 0; i < 6; ++i) {
          size_t off = offset_of(l, i, n);
          ck_assert_msg(off == ref_offset(kinds, tsize, comps, i, n, a, S),
                        "A=%zu S=%zu n=%zu member %zu at %zu", a, S, n, i, off);
          ck_assert_uint_eq(off % a, 0);
        }
        ck_assert_uint_eq(size_of(l, n), ref_offset(kinds, tsize, comps, 6, n, a, S));
      }
    }
    TU_OK(NULL, lsk_layout_set_stagger(l, 0));
    for (int cl = 0; cl < 2; ++cl) {
      char *t1 = NULL, *t2 = NULL;
      TU_OK(NULL, cl ? lsk_layout_emit_cl(l, NULL, &t1) : lsk_layout_emit_c(l, NULL, &t1));
      TU_OK(NULL, cl ? lsk_layout_emit_cl(fresh, NULL, &t2) : lsk_layout_emit_c(fresh, NULL, &t2));
      ck_assert_str_eq(t1, t2);
      ck_assert_ptr_null(strstr(t1, "stagger"));
      lsk_free(t1);
      lsk_free(t2);
    }
    char *d1 = NULL, *d2 = NULL;
    TU_OK(NULL, lsk_layout_describe(l, 1000, &d1));
    TU_OK(NULL, lsk_layout_describe(fresh, 1000, &d2));
    ck_assert_str_eq(d1, d2);
    lsk_free(d1);
    lsk_free(d2);
    lsk_layout_destroy(l);
    lsk_layout_destroy(fresh);
  }
  /* The macro form agrees with the runtime layout it describes. */
  lsk_layout *l = NULL;
  TU_OK(NULL, sparts_describe(&l));
  ck_assert_uint_eq(lsk_layout_stagger(l), 384);
  for (size_t c = 0; c < 8; ++c)
    ck_assert_uint_eq(sparts_bytes(counts[c]), size_of(l, counts[c]));
  lsk_layout_destroy(l);
}
END_TEST

START_TEST(test_stagger_bad_input)
{
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_create("b", 64, &l));
  TU_FAILS(NULL, lsk_layout_set_stagger(l, 96), LSK_EINVAL,
           "stagger 96 of layout 'b' is not a multiple of its alignment 64");
  TU_FAILS(NULL, lsk_layout_set_stagger(l, (size_t)LSK_LAYOUT_MAX_STAGGER + 64), LSK_EINVAL,
           "from 0 to 16777216");
  TU_OK(NULL, lsk_layout_set_stagger(l, 192));
  TU_FAILS(NULL, lsk_layout_set_align(l, 128), LSK_EINVAL,
           "alignment 128 of layout 'b' does not divide its stagger 192");
  ck_assert_uint_eq(lsk_layout_align(l), 64);
  lsk_layout_destroy(l);
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"layout a stagger 100\n", "f.layout:1: stagger 100 of layout 'a' is not a multiple"},
      {"layout a align 256 stagger 128\n", "f.layout:1: stagger 128 of layout 'a'"},
      {"layout a stagger\n", "f.layout:1: expected 'layout NAME [align A]'"},
      {"layout a stagger 128 stagger 128\n", "and optionally 'stagger S'"},
      {"layout a stagger -128\n", "f.layout:1: expected"},
      {"layout a stagger 99999999999\n", "f.layout:1: expected"},
      {"layout a align 64 skew 64\n", "f.layout:1: expected"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    lsk_layout *p = (lsk_layout *)&p;
    int rc = lsk_layout_parse(cases[i].text, "f.layout", &p);
    ck_assert_msg(rc == LSK_EINVAL, "case %zu: %s", i, lsk_status_name(rc));
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(lsk_context_errmsg(NULL), cases[i].want), "case %zu: '%s' lacks '%s'", i,
                  lsk_context_errmsg(NULL), cases[i].want);
  }
  /* Either order, and stagger 0 explicitly. */
  TU_OK(NULL, lsk_layout_parse("layout a stagger 128 align 64\ncolumn float x\n", "f", &l));
  ck_assert_uint_eq(lsk_layout_align(l), 64);
  ck_assert_uint_eq(lsk_layout_stagger(l), 128);
  lsk_layout_destroy(l);
  TU_OK(NULL, lsk_layout_parse("layout a stagger 0\n", "f", &l));
  ck_assert_uint_eq(lsk_layout_stagger(l), 0);
  lsk_layout_destroy(l);
}
END_TEST

static char *read_all(const char *path)
{
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  static char buf[1 << 16];
  buf[fread(buf, 1, sizeof buf - 1, f)] = 0;
  fclose(f);
  return buf;
}

/* The compute kernel of tests/soa_kernels.cl on the staggered layout (its
 * views generated under the name parts), counts of one element, a
 * partial block and a power of two; host pointers from the macro's bind
 * must be where the device's offset functions put the members. */
START_TEST(test_stagger_round_trip)
{
  lsk_context *ctx = tu_context();
  if (!tu_fp64(ctx, "the parts layout holds doubles")) {
    lsk_context_destroy(ctx);
    return;
  }
  lsk_layout *l = NULL;
  char *cl = NULL;
  TU_OK(NULL, sparts_describe(&l));
  TU_OK(NULL, lsk_layout_emit_cl(l, &(lsk_emit_options){.view_name = "parts"}, &cl));
  lsk_program *prog = NULL;
  TU_OK(ctx,
        lsk_program_create(ctx, read_all(LSK_TEST_DIR "/soa_kernels.cl"),
                           &(lsk_program_options){
                               .name = "soa_kernels.cl", .prelude = cl, .build_options = "-Werror"},
                           &prog));
  lsk_kernel *k = tu_kernel(prog, "compute");
  static const size_t counts[] = {1, 37, 4096};
  for (size_t c = 0; c < 3; ++c) {
    size_t n = counts[c];
    lsk_soa *soa = NULL;
    TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){l}, &n, &soa));
    ck_assert_uint_eq(lsk_soa_bytes(soa), sparts_bytes(n));
    sparts s = {0};
    parts h = {0};
    TU_OK(NULL, sparts_bind(&s, lsk_soa_host(soa, 0), n));
    as_parts(&h, &s);
    lsk_member_info m;
    TU_OK(NULL, lsk_layout_member(l, 5, n, &m)); /* id: after five staggered slots and more */
    ck_assert_uint_eq((size_t)((unsigned char *)h.id - (unsigned char *)lsk_soa_host(soa, 0)),
                      m.offset);
    parts_fill(&h, n);
    TU_OK(ctx, lsk_soa_upload(soa, NULL));
    lsk_arg args[16];
    size_t na = 0;
    TU_OK(ctx, lsk_soa_args(soa, 0, NULL, args, 16, &na));
    lsk_launch cfg = {.domain = {64}, .blocks = {(n + 63) / 64 < 8 ? (n + 63) / 64 : 8}};
    TU_OK(ctx, lsk_kernel_run(k, &cfg, args, na, NULL));
    TU_OK(ctx, lsk_soa_download(soa, NULL));
    for (size_t i = 0; i < n; ++i) {
      double want = parts_reference(&h, i);
      ck_assert_msg(fabs(h.out[i] - want) <= 1e-12 * (1 + fabs(want)),
                    "n=%zu: out[%zu] = %.17g, want %.17g", n, i, h.out[i], want);
      ck_assert_msg(h.m[i + 4 * h.m_stride] == (float)i, "n=%zu: m(1,1) of %zu", n, i);
    }
    lsk_soa_destroy(soa);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_free(cl);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

/* A view over two staggered layouts (grind_soa.cl's merged, parts 0 and 2
 * of three, different staggers) and a staggered double2 column (its
 * cplx_swap: one 16-byte element per index, still 16-byte aligned). */
START_TEST(test_stagger_views)
{
  lsk_context *ctx = tu_context();
  if (!tu_fp64(ctx, "the layouts hold doubles")) {
    lsk_context_destroy(ctx);
    return;
  }
  lsk_layout *pl = NULL, *hits = NULL, *clus = NULL, *cplx = NULL;
  TU_OK(NULL, parts_describe(&pl));
  TU_OK(NULL, lsk_layout_parse("layout hits stagger 256\ncolumn float x\ncolumn float y\n"
                               "column int skip\n",
                               "hits", &hits));
  TU_OK(NULL, lsk_layout_parse("layout clus align 64 stagger 64\nmatrix float 2 1 q\n"
                               "column double charge\n",
                               "clus", &clus));
  TU_OK(NULL, lsk_layout_parse("layout cplx stagger 128\ncolumn double2 z\n", "cplx", &cplx));
  char *a = NULL, *b = NULL, *c = NULL;
  TU_OK(NULL, lsk_layout_emit_cl(pl, NULL, &a));
  TU_OK(NULL, lsk_layout_emit_view_cl("hc", 2, (const lsk_layout *const[]){hits, clus},
                                      (const char *[]){"x,y", NULL}, &b));
  TU_OK(NULL, lsk_layout_emit_cl(cplx, NULL, &c));
  size_t len = strlen(a) + strlen(b) + strlen(c) + 3;
  char *cl = malloc(len);
  snprintf(cl, len, "%s\n%s\n%s", a, b, c);
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(
                 ctx, read_all(LSK_TEST_DIR "/grind_soa.cl"),
                 &(lsk_program_options){.name = "grind_soa.cl",
                                        .prelude = cl,
                                        .build_options = "-Werror -DHC_CHECK=1 -DCPLX_CHECK=1"},
                 &p));
  lsk_kernel *k = tu_kernel(p, "merged");
  size_t counts[3] = {64, 63, 64};
  lsk_soa *soa = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 3, (const lsk_layout *const[]){hits, clus, clus}, counts, &soa));
  lsk_member_info mx, my, mq, mc;
  TU_OK(NULL, lsk_layout_member(hits, 0, 64, &mx));
  TU_OK(NULL, lsk_layout_member(hits, 1, 64, &my));
  TU_OK(NULL, lsk_layout_member(clus, 0, 64, &mq));
  TU_OK(NULL, lsk_layout_member(clus, 1, 64, &mc));
  /* y after x's 256 bytes and the stagger; charge after q's two slots. */
  ck_assert_uint_eq(my.offset, 256 + 256);
  ck_assert_uint_eq(mq.stride, (256 + 64) / 4);
  ck_assert_uint_eq(mc.offset, 2 * (256 + 64));
  unsigned char *h0 = lsk_soa_host(soa, 0), *h2 = lsk_soa_host(soa, 2);
  float *x = (float *)(h0 + mx.offset), *y = (float *)(h0 + my.offset);
  float *q1 = (float *)(h2 + mq.offset) + mq.stride;
  for (size_t i = 0; i < 64; ++i) {
    x[i] = (float)i;
    y[i] = 0.5f * (float)i;
    q1[i] = 100.0f + (float)(i % 3);
  }
  TU_OK(ctx, lsk_soa_upload(soa, NULL));
  lsk_arg args[16];
  size_t na = 0;
  TU_OK(ctx,
        lsk_soa_view_args(soa, 2, (size_t[]){0, 2}, (const char *[]){"x,y", NULL}, args, 16, &na));
  lsk_launch cfg = {.domain = {16}, .blocks = {2}};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, args, na, NULL));
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  double *charge = (double *)(h2 + mc.offset);
  for (size_t i = 0; i < 64; ++i)
    ck_assert_msg(charge[i] == 1.5 * (double)i + 100.0 + (double)(i % 3), "charge[%zu] = %g", i,
                  charge[i]);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);

  k = tu_kernel(p, "cplx_swap");
  size_t n = 32;
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){cplx}, &n, &soa));
  ck_assert_uint_eq(lsk_soa_bytes(soa), 512 + 128);
  cl_double2 *z = lsk_soa_host(soa, 0);
  for (size_t i = 0; i < n; ++i) {
    z[i].s[0] = (double)i + 0.5;
    z[i].s[1] = -(double)(i % 4);
  }
  TU_OK(ctx, lsk_soa_upload(soa, NULL));
  lsk_buffer *out = NULL;
  double got[32] = {0};
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof got, &out));
  TU_OK(ctx, lsk_buffer_write(out, 0, got, sizeof got, NULL));
  TU_OK(ctx, lsk_soa_args(soa, 0, NULL, args, 15, &na));
  args[na++] = LSK_ARG_BUFFER(out);
  TU_OK(ctx, lsk_kernel_run(k, &cfg, args, na, NULL));
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  TU_OK(ctx, lsk_buffer_read(out, 0, got, sizeof got, NULL));
  for (size_t i = 0; i < n; ++i) {
    double re = (double)i + 0.5, im = -(double)(i % 4);
    ck_assert_msg(got[i] == re * re + im * im, "re^2 + im^2 of %zu: %g", i, got[i]);
    ck_assert_msg(z[i].s[0] == im && z[i].s[1] == re, "swapped %zu", i);
  }
  lsk_buffer_destroy(out);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  free(cl);
  lsk_free(a);
  lsk_free(b);
  lsk_free(c);
  lsk_layout_destroy(pl);
  lsk_layout_destroy(hits);
  lsk_layout_destroy(clus);
  lsk_layout_destroy(cplx);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_stagger(void)
{
  Suite *s = suite_create("stagger");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_stagger_by_hand);
  tcase_add_test(tc, test_stagger_large_power_of_two);
  tcase_add_test(tc, test_stagger_reference_and_default);
  tcase_add_test(tc, test_stagger_bad_input);
  tcase_add_test(tc, test_stagger_round_trip);
  tcase_add_test(tc, test_stagger_views);
  suite_add_tcase(s, tc);
  return s;
}
