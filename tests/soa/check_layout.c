/*
 * check_layout.c: the SoA byte rule (docs/soa.md, The byte rule, and
 * cases worked out by hand), the dump, the text format, and bad input. No device.
 */
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"

static lsk_layout *make(const char *name, size_t align)
{
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_create(name, align, &l));
  return l;
}

static size_t offset_of(const lsk_layout *l, const char *member, size_t n)
{
  size_t i;
  lsk_member_info m;
  TU_OK(NULL, lsk_layout_find(l, member, &i));
  TU_OK(NULL, lsk_layout_member(l, i, n, &m));
  return m.offset;
}

static size_t size_of(const lsk_layout *l, size_t n)
{
  size_t bytes = 0;
  TU_OK(NULL, lsk_layout_size(l, n, &bytes));
  return bytes;
}

/* Four float columns, n = 66, A = 128: 264 bytes + 120 padding each,
 * offsets 0, 384, 768, 1152; total 1536. */
START_TEST(test_layout_design_four_floats)
{
  lsk_layout *l = make("four", 0);
  const char *names[] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; ++i)
    TU_OK(NULL, lsk_layout_add_column(l, "float", names[i]));
  for (size_t i = 0; i < 4; ++i) {
    lsk_member_info m;
    TU_OK(NULL, lsk_layout_member(l, i, 66, &m));
    ck_assert_uint_eq(m.offset, 384 * i);
    ck_assert_uint_eq(m.size, 384);
    ck_assert_uint_eq(m.padding, 120);
  }
  ck_assert_uint_eq(size_of(l, 66), 1536);
  ck_assert_uint_eq(lsk_layout_align(l), 128);
  lsk_layout_destroy(l);
}
END_TEST

/* Three float columns and a 3-vector of double, n = 17, A = 64: offsets 0,
 * 128, 256, 384; each component 136 + 56 padding, stride 24; total 960. */
START_TEST(test_layout_design_vector_double)
{
  lsk_layout *l = make("mixed", 64);
  TU_OK(NULL, lsk_layout_add_column(l, "float", "a"));
  TU_OK(NULL, lsk_layout_add_column(l, "float", "b"));
  TU_OK(NULL, lsk_layout_add_column(l, "float", "c"));
  TU_OK(NULL, lsk_layout_add_matrix(l, "double", 3, 1, "v"));
  ck_assert_uint_eq(offset_of(l, "a", 17), 0);
  ck_assert_uint_eq(offset_of(l, "b", 17), 128);
  ck_assert_uint_eq(offset_of(l, "c", 17), 256);
  lsk_member_info m;
  TU_OK(NULL, lsk_layout_member(l, 3, 17, &m));
  ck_assert_uint_eq(m.offset, 384);
  ck_assert_uint_eq(m.padding, 56);
  ck_assert_uint_eq(m.size, 3 * 192);
  ck_assert_uint_eq(m.stride, 24);
  ck_assert_uint_eq(size_of(l, 17), 960);
  lsk_layout_destroy(l);
}
END_TEST

/* A 3x3 float matrix, n = 100, A = 128: 400 + 112 padding per component,
 * stride 128, total 4608. Scalars: 128 bytes each whatever n. */
START_TEST(test_layout_design_matrix_and_scalars)
{
  lsk_layout *l = make("mat", 128);
  TU_OK(NULL, lsk_layout_add_matrix(l, "float", 3, 3, "m"));
  lsk_member_info m;
  TU_OK(NULL, lsk_layout_member(l, 0, 100, &m));
  ck_assert_uint_eq(m.padding, 112);
  ck_assert_uint_eq(m.stride, 128);
  ck_assert_uint_eq(size_of(l, 100), 4608);
  lsk_layout_destroy(l);

  l = make("scalars", 0);
  TU_OK(NULL, lsk_layout_add_scalar(l, "double", "s1"));
  ck_assert_uint_eq(size_of(l, 0), 128);
  ck_assert_uint_eq(size_of(l, 1000000), 128);
  TU_OK(NULL, lsk_layout_add_scalar(l, "double", "s2"));
  ck_assert_uint_eq(size_of(l, 7), 256);
  TU_OK(NULL, lsk_layout_member(l, 1, 5, &m));
  ck_assert_uint_eq(m.offset, 128);
  ck_assert_uint_eq(m.padding, 120);
  lsk_layout_destroy(l);
}
END_TEST

/* Worked by hand: uchar column, double2 column, 2x2 short matrix, uint
 * scalar, A = 32, n = 5 and n = 0. n = 5: uchar 5 -> 32; double2 80 -> 96
 * at 32; short 10 -> 32, x4 = 128 at 128 (stride 16); uint scalar 4 -> 32
 * at 256; total 288. n = 0: 0, 0, 0 (offsets 0, 0, 0), scalar 32 at 0. */
START_TEST(test_layout_by_hand)
{
  lsk_layout *l = make("hand", 32);
  TU_OK(NULL, lsk_layout_add_column(l, "uchar", "c"));
  TU_OK(NULL, lsk_layout_add_column(l, "double2", "z"));
  TU_OK(NULL, lsk_layout_add_matrix(l, "short", 2, 2, "m"));
  TU_OK(NULL, lsk_layout_add_scalar(l, "uint", "count"));
  ck_assert_uint_eq(offset_of(l, "z", 5), 32);
  ck_assert_uint_eq(offset_of(l, "m", 5), 128);
  ck_assert_uint_eq(offset_of(l, "count", 5), 256);
  ck_assert_uint_eq(size_of(l, 5), 288);
  lsk_member_info m;
  TU_OK(NULL, lsk_layout_member(l, 2, 5, &m));
  ck_assert_uint_eq(m.stride, 16);
  ck_assert_uint_eq(m.padding, 22);
  ck_assert_uint_eq(offset_of(l, "count", 0), 0);
  ck_assert_uint_eq(size_of(l, 0), 32);
  /* float3 takes the room of float4 */
  TU_OK(NULL, lsk_layout_add_column(l, "float3", "p"));
  TU_OK(NULL, lsk_layout_member(l, 4, 5, &m));
  ck_assert_uint_eq(m.type_size, 16);
  ck_assert_uint_eq(m.size, 96);
  lsk_layout_destroy(l);
}
END_TEST

/* nextByte: the size is a multiple of the alignment, so a second layout can
 * start where the first ends; the largest n before overflow. */
START_TEST(test_layout_overflow)
{
  lsk_layout *l = make("big", 128);
  TU_OK(NULL, lsk_layout_add_column(l, "double", "a"));
  TU_OK(NULL, lsk_layout_add_matrix(l, "float", 3, 3, "m"));
  size_t max = lsk_layout_max_elements(l, 0);
  ck_assert_uint_gt(max, 0);
  size_t bytes;
  TU_OK(NULL, lsk_layout_size(l, max, &bytes));
  /* 8 + 36 bytes per element (up to padding): max is about SIZE_MAX / 44. */
  ck_assert_uint_ge(max, SIZE_MAX / 44 - 1024);
  ck_assert_uint_le(max, SIZE_MAX / 44);
  TU_FAILS(NULL, lsk_layout_size(l, max + 1, &bytes), LSK_ERANGE, "does not fit in size_t");
  TU_FAILS(NULL, lsk_layout_size(l, SIZE_MAX, &bytes), LSK_ERANGE, "big");
  lsk_member_info m;
  TU_FAILS(NULL, lsk_layout_member(l, 1, SIZE_MAX / 2, &m), LSK_ERANGE, "overflows");
  /* n = 32: 256 + 9 * 128 = 1408 fits in 1536; n = 33: 384 + 9 * 256 does not. */
  ck_assert_uint_eq(lsk_layout_max_elements(l, 1536), 32);
  /* 17 to 32 all take 1408 bytes; 16 takes 128 + 9 * 128 = 1280. */
  ck_assert_uint_eq(lsk_layout_max_elements(l, 1407), 16);
  lsk_layout_destroy(l);
}
END_TEST

START_TEST(test_layout_describe_dump)
{
  lsk_layout *l = make("soa", 128);
  TU_OK(NULL, lsk_layout_add_column(l, "double", "x"));
  TU_OK(NULL, lsk_layout_add_matrix(l, "double", 3, 1, "a"));
  TU_OK(NULL, lsk_layout_add_scalar(l, "double", "description"));
  char *text = NULL;
  TU_OK(NULL, lsk_layout_describe(l, 32, &text));
  ck_assert_msg(strstr(text, "Column x at offset 0 has size 256 and padding 0\n"), "%s", text);
  ck_assert_msg(strstr(text, "Eigen value a at offset 256 has dimension (3 x 1) and per column "
                             "size 256 and padding 0"),
                "%s", text);
  ck_assert_msg(strstr(text, "Scalar description at offset 1024 has size 8 and padding 120\n"),
                "%s", text);
  ck_assert_msg(strstr(text, "Final offset = 1152 computeDataSize(...): 1152\n"), "%s", text);
  lsk_free(text);
  lsk_layout_destroy(l);
}
END_TEST

START_TEST(test_layout_parse_file_format)
{
  const char *text = "# a comment\n"
                     "\n"
                     "layout hits align 64   # trailing comment\n"
                     "column float x\n"
                     "matrix double 3 1 pos\n"
                     "  scalar   uint   count\n";
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_parse(text, "hits.layout", &l));
  ck_assert_str_eq(lsk_layout_name(l), "hits");
  ck_assert_uint_eq(lsk_layout_align(l), 64);
  ck_assert_uint_eq(lsk_layout_member_count(l), 3);
  lsk_member_info m;
  TU_OK(NULL, lsk_layout_member(l, 1, 10, &m));
  ck_assert_str_eq(m.name, "pos");
  ck_assert_str_eq(m.type, "double");
  ck_assert_int_eq(m.kind, LSK_MEMBER_MATRIX);
  ck_assert_uint_eq(m.rows, 3);
  ck_assert_uint_eq(m.offset, 64);
  lsk_layout_destroy(l);
}
END_TEST

START_TEST(test_layout_bad_input)
{
  lsk_layout *l = make("ok", 0);
  TU_FAILS(NULL, lsk_layout_add_column(l, "float", "1x"), LSK_EINVAL, "'1x' is not a C identifier");
  TU_FAILS(NULL, lsk_layout_add_column(l, "float", "global"), LSK_EINVAL, "keyword");
  TU_FAILS(NULL, lsk_layout_add_column(l, "float", "int"), LSK_EINVAL, "keyword");
  TU_FAILS(NULL, lsk_layout_add_column(l, "float", "float4"), LSK_EINVAL, "type name");
  TU_FAILS(NULL, lsk_layout_add_column(l, "float", "lsk_n"), LSK_EINVAL, "reserved");
  TU_FAILS(NULL, lsk_layout_add_column(l, "quad", "q"), LSK_EINVAL, "unknown type 'quad'");
  TU_FAILS(NULL, lsk_layout_add_column(l, "float5", "q"), LSK_EINVAL, "unknown type 'float5'");
  TU_FAILS(NULL, lsk_layout_add_column(l, NULL, "q"), LSK_EINVAL, "unknown type");
  TU_FAILS(NULL, lsk_layout_add_matrix(l, "float2", 2, 2, "q"), LSK_EINVAL, "scalar type");
  TU_FAILS(NULL, lsk_layout_add_matrix(l, "float", 0, 2, "q"), LSK_EINVAL, "dimension 0 x 2");
  TU_OK(NULL, lsk_layout_add_column(l, "float", "x"));
  TU_FAILS(NULL, lsk_layout_add_scalar(l, "int", "x"), LSK_EINVAL, "duplicate member name 'x'");
  TU_FAILS(NULL, lsk_layout_set_align(l, 96), LSK_EINVAL, "not a power of two");
  lsk_layout_destroy(l);
  lsk_layout *bad = (lsk_layout *)&bad;
  TU_FAILS(NULL, lsk_layout_create("x", 48, &bad), LSK_EINVAL, "alignment 48 of layout 'x'");
  ck_assert_ptr_null(bad);
  TU_FAILS(NULL, lsk_layout_create("kernel", 0, &bad), LSK_EINVAL, "keyword");
  l = make("small", 8);
  TU_FAILS(NULL, lsk_layout_add_column(l, "double2", "z"), LSK_EINVAL,
           "larger than the layout's alignment 8");
  lsk_layout_destroy(l);
  TU_FAILS(NULL, lsk_layout_create(NULL, 0, NULL), LSK_EINVAL, "out is NULL");
}
END_TEST

START_TEST(test_layout_bad_files)
{
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"column float x\n", "f.layout:1: expected 'layout NAME' first"},
      {"layout a\ncolumn float\n", "f.layout:2: expected 'column TYPE NAME'"},
      {"layout a\n\ncolumn float x\ncolumn int x\n", "f.layout:4: layout 'a': duplicate member"},
      {"layout a\nmatrix float 3 x m\n", "f.layout:2: expected 'matrix TYPE ROWS COLS NAME'"},
      {"layout a\nvector float v\n", "f.layout:2: unknown keyword 'vector'"},
      {"layout a align 100\n", "f.layout:1: alignment 100 of layout 'a' is not a power of two"},
      {"layout a align 0\n", "f.layout:1: expected 'layout NAME [align A]'"},
      {"layout 9a\n", "f.layout:1: layout name '9a' is not a C identifier"},
      {"layout a\nlayout b\n", "f.layout:2: a second 'layout' line"},
      {"# nothing\n", "f.layout: no 'layout NAME' line"},
      {"layout a\ncolumn doubel x\n",
       "f.layout:2: layout 'a': member 'x' has unknown type 'doubel'"},
      {"layout a\ncolumn float x y z w v u t s\n", "f.layout:2: too many words"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    lsk_layout *l = (lsk_layout *)&l;
    int rc = lsk_layout_parse(cases[i].text, "f.layout", &l);
    ck_assert_msg(rc == LSK_EINVAL, "case %zu: %s", i, lsk_status_name(rc));
    ck_assert_ptr_null(l);
    ck_assert_msg(strstr(lsk_context_errmsg(NULL), cases[i].want), "case %zu: '%s' lacks '%s'", i,
                  lsk_context_errmsg(NULL), cases[i].want);
  }
  lsk_layout *l = NULL;
  TU_FAILS(NULL, lsk_layout_load("/no/such/file.layout", &l), LSK_EIO, "/no/such/file.layout");
}
END_TEST

START_TEST(test_layout_emit_options)
{
  lsk_layout *l = make("p", 0);
  TU_OK(NULL, lsk_layout_add_column(l, "float", "x"));
  TU_OK(NULL, lsk_layout_add_column(l, "float", "y"));
  char *text = NULL;
  TU_OK(NULL, lsk_layout_emit_cl(l, &(lsk_emit_options){.members = "y", .view_name = "py"}, &text));
  ck_assert_msg(strstr(text, "#define PY_PARAMS(p) __global float *PY__R p##_y, ulong p##_base"),
                "%s", text);
  ck_assert_ptr_null(strstr(text, "p##_x"));
  lsk_free(text);
  TU_FAILS(NULL, lsk_layout_emit_cl(l, &(lsk_emit_options){.members = "y,z"}, &text), LSK_EINVAL,
           "no member 'z'");
  TU_FAILS(NULL, lsk_layout_emit_c(l, &(lsk_emit_options){.members = "y,y"}, &text), LSK_EINVAL,
           "named twice");
  TU_FAILS(NULL, lsk_layout_emit_cl(l, &(lsk_emit_options){.view_name = "2d"}, &text), LSK_EINVAL,
           "view name '2d'");
  lsk_layout_destroy(l);
}
END_TEST

Suite *suite_layout(void)
{
  Suite *s = suite_create("layout");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_layout_design_four_floats);
  tcase_add_test(tc, test_layout_design_vector_double);
  tcase_add_test(tc, test_layout_design_matrix_and_scalars);
  tcase_add_test(tc, test_layout_by_hand);
  tcase_add_test(tc, test_layout_overflow);
  tcase_add_test(tc, test_layout_describe_dump);
  tcase_add_test(tc, test_layout_parse_file_format);
  tcase_add_test(tc, test_layout_bad_input);
  tcase_add_test(tc, test_layout_bad_files);
  tcase_add_test(tc, test_layout_emit_options);
  suite_add_tcase(s, tc);
  return s;
}
