/*
 * check_badinput_data.c: bad input to every public function of layout.h,
 * soa.h and grid.h (rows: badinput.h), and the handle lifetimes: a
 * destroyed context's children refuse every call but their _destroy, which
 * still frees them; double destroys and wrong handle types are reported,
 * never a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "badinput.h"

static lsk_layout *make_layout(const char *name)
{
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_create(name, 0, &l));
  TU_OK(NULL, lsk_layout_add_column(l, "float", "x"));
  TU_OK(NULL, lsk_layout_add_scalar(l, "uint", "tag"));
  return l;
}

/* A layout just destroyed. */
static lsk_layout *dead_layout(void)
{
  lsk_layout *l = make_layout("gone");
  lsk_layout_destroy(l);
  return l;
}

/* ------------------------------------------------------------------ */
/* layout.h                                                            */

START_TEST(test_bi_layout)
{
  lsk_layout *l = make_layout("pt");
  lsk_layout *out = (lsk_layout *)&out;
  lsk_context *ctx = tu_context();
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_layout *wrong = (lsk_layout *)b;
  lsk_layout *small = NULL;
  TU_OK(NULL, lsk_layout_create("small", 4, &small));

  BAD(NULL, "lsk_layout_create", lsk_layout_create("a", 0, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_layout_create", lsk_layout_create(NULL, 0, &out), LSK_EINVAL, "'(null)'");
  ck_assert_ptr_null(out);
  BAD(NULL, "lsk_layout_create", lsk_layout_create("", 0, &out), LSK_EINVAL, "''");
  BAD(NULL, "lsk_layout_create", lsk_layout_create("2x", 0, &out), LSK_EINVAL, "'2x'");
  BAD(NULL, "lsk_layout_create", lsk_layout_create("a", 12, &out), LSK_EINVAL, "alignment 12");
  BAD(NULL, "lsk_layout_create", lsk_layout_create("a", SIZE_MAX, &out), LSK_EINVAL,
      "alignment 18446744073709551615");
  QUIET("lsk_layout_destroy", (lsk_layout_destroy(NULL), 1));
  BADV("lsk_layout_destroy", (lsk_layout_destroy(wrong), 0), 0, WRONG("layout", "buffer"));
  lsk_layout *dead = dead_layout();
  BADV("lsk_layout_destroy", (lsk_layout_destroy(dead), 0), 0, DEAD("layout"));

  const char *adders[] = {"lsk_layout_add_column", "lsk_layout_add_scalar"};
  for (int a = 0; a < 2; ++a) {
#define ADD(ll, t, n) (a ? lsk_layout_add_scalar(ll, t, n) : lsk_layout_add_column(ll, t, n))
    BAD(NULL, adders[a], ADD(NULL, "float", "y"), LSK_EINVAL, "layout is NULL");
    BAD(NULL, adders[a], ADD(l, NULL, "y"), LSK_EINVAL, "unknown type '(null)'");
    BAD(NULL, adders[a], ADD(l, "quaternion", "y"), LSK_EINVAL, "unknown type 'quaternion'");
    BAD(NULL, adders[a], ADD(l, "float", NULL), LSK_EINVAL, "member name '(null)'");
    BAD(NULL, adders[a], ADD(l, "float", "a b"), LSK_EINVAL, "member name 'a b'");
    BAD(NULL, adders[a], ADD(l, "float", "x"), LSK_EINVAL, "duplicate member name 'x'");
    BAD(NULL, adders[a], ADD(small, "double", "big"), LSK_EINVAL,
        "(double, 8 bytes) is larger than the layout's alignment 4");
    BAD(NULL, adders[a], ADD(wrong, "float", "y"), LSK_EINVAL, WRONG("layout", "buffer"));
    dead = dead_layout();
    BAD(NULL, adders[a], ADD(dead, "float", "y"), LSK_EINVAL, DEAD("layout"));
#undef ADD
  }
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(NULL, "float", 2, 2, "m"), LSK_EINVAL,
      "layout is NULL");
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(l, "float", 0, 2, "m"), LSK_EINVAL,
      "0 x 2");
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(l, "float", 2, 65, "m"), LSK_EINVAL,
      "2 x 65");
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(l, "float", UINT32_MAX, 1, "m"),
      LSK_EINVAL, "4294967295 x 1");
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(l, "float2", 2, 2, "m"), LSK_EINVAL,
      "scalar type, not 'float2'");
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(l, NULL, 2, 2, "m"), LSK_EINVAL,
      "'(null)'");
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(l, "float", 2, 2, NULL), LSK_EINVAL,
      "'(null)'");
  BAD(NULL, "lsk_layout_add_matrix", lsk_layout_add_matrix(wrong, "float", 2, 2, "m"), LSK_EINVAL,
      WRONG("layout", "buffer"));

  BAD(NULL, "lsk_layout_set_align", lsk_layout_set_align(NULL, 16), LSK_EINVAL, "layout is NULL");
  BAD(NULL, "lsk_layout_set_align", lsk_layout_set_align(l, 24), LSK_EINVAL, "alignment 24");
  BAD(NULL, "lsk_layout_set_align", lsk_layout_set_align(l, 2), LSK_EINVAL, "member 'x'");
  BAD(NULL, "lsk_layout_set_align", lsk_layout_set_align(wrong, 16), LSK_EINVAL,
      WRONG("layout", "buffer"));

  BAD(NULL, "lsk_layout_set_stagger", lsk_layout_set_stagger(NULL, 128), LSK_EINVAL,
      "layout is NULL");
  BAD(NULL, "lsk_layout_set_stagger", lsk_layout_set_stagger(l, 100), LSK_EINVAL,
      "stagger 100 of layout 'pt' is not a multiple of its alignment 128");
  BAD(NULL, "lsk_layout_set_stagger", lsk_layout_set_stagger(l, SIZE_MAX - 127), LSK_EINVAL,
      "from 0 to 16777216");
  BAD(NULL, "lsk_layout_set_stagger", lsk_layout_set_stagger(wrong, 128), LSK_EINVAL,
      WRONG("layout", "buffer"));
  ck_assert_uint_eq(lsk_layout_stagger(l), 0);
  QUIET("lsk_layout_stagger", lsk_layout_stagger(NULL) == 0);
  BADV("lsk_layout_stagger", lsk_layout_stagger(wrong), 0, WRONG("layout", "buffer"));

  lsk_layout *pout = (lsk_layout *)&pout;
  BAD(NULL, "lsk_layout_parse", lsk_layout_parse("layout a\n", "f.layout", NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_layout_parse", lsk_layout_parse(NULL, "f.layout", &pout), LSK_EINVAL,
      "text is NULL");
  ck_assert_ptr_null(pout);
  BAD_AT(NULL, "lsk_layout_parse", "f.layout", lsk_layout_parse("", "f.layout", &pout), LSK_EINVAL,
         "no 'layout NAME' line");
  BAD_AT(NULL, "lsk_layout_parse", "f.layout",
         lsk_layout_parse("layout a\ncolumn quat q\n", "f.layout", &pout), LSK_EINVAL, "'quat'");
  BAD(NULL, "lsk_layout_load", lsk_layout_load("x.layout", NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_layout_load", lsk_layout_load(NULL, &pout), LSK_EINVAL, "path is NULL");
  BAD(NULL, "lsk_layout_load", lsk_layout_load("/nonexistent/x.layout", &pout), LSK_EIO,
      "/nonexistent/x.layout");

  QUIET("lsk_layout_name", lsk_layout_name(NULL) == NULL);
  BADV("lsk_layout_name", lsk_layout_name(wrong), NULL, WRONG("layout", "buffer"));
  QUIET("lsk_layout_align", lsk_layout_align(NULL) == 0);
  BADV("lsk_layout_align", lsk_layout_align(wrong), 0, WRONG("layout", "buffer"));
  QUIET("lsk_layout_member_count", lsk_layout_member_count(NULL) == 0);
  dead = dead_layout();
  BADV("lsk_layout_member_count", lsk_layout_member_count(dead), 0, DEAD("layout"));
  QUIET("lsk_layout_max_elements", lsk_layout_max_elements(NULL, 1024) == 0);
  QUIET("lsk_layout_max_elements", lsk_layout_max_elements(l, 1) == 0); /* not even the scalar */
  BADV("lsk_layout_max_elements", lsk_layout_max_elements(wrong, 1024), 0,
       WRONG("layout", "buffer"));

  lsk_member_info mi;
  size_t idx, bytes;
  BAD(NULL, "lsk_layout_member", lsk_layout_member(NULL, 0, 4, &mi), LSK_EINVAL, "layout is NULL");
  BAD(NULL, "lsk_layout_member", lsk_layout_member(l, 0, 4, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_layout_member", lsk_layout_member(l, 2, 4, &mi), LSK_ERANGE,
      "index 2 is out of range: layout 'pt' has 2 members");
  BAD(NULL, "lsk_layout_member", lsk_layout_member(l, SIZE_MAX, 4, &mi), LSK_ERANGE,
      "index 18446744073709551615");
  BAD(NULL, "lsk_layout_member", lsk_layout_member(l, 0, SIZE_MAX, &mi), LSK_ERANGE,
      "18446744073709551615 elements");
  BAD(NULL, "lsk_layout_member", lsk_layout_member(wrong, 0, 4, &mi), LSK_EINVAL,
      WRONG("layout", "buffer"));
  BAD(NULL, "lsk_layout_find", lsk_layout_find(NULL, "x", &idx), LSK_EINVAL, "layout is NULL");
  BAD(NULL, "lsk_layout_find", lsk_layout_find(l, NULL, &idx), LSK_EINVAL, "name is NULL");
  BAD(NULL, "lsk_layout_find", lsk_layout_find(l, "x", NULL), LSK_EINVAL, "index is NULL");
  BAD(NULL, "lsk_layout_find", lsk_layout_find(l, "nope", &idx), LSK_EINVAL, "member 'nope'");
  BAD(NULL, "lsk_layout_find", lsk_layout_find(wrong, "x", &idx), LSK_EINVAL,
      WRONG("layout", "buffer"));
  BAD(NULL, "lsk_layout_size", lsk_layout_size(NULL, 4, &bytes), LSK_EINVAL, "layout is NULL");
  BAD(NULL, "lsk_layout_size", lsk_layout_size(l, 4, NULL), LSK_EINVAL, "bytes is NULL");
  BAD(NULL, "lsk_layout_size", lsk_layout_size(l, SIZE_MAX / 2, &bytes), LSK_ERANGE,
      "9223372036854775807 elements");
  dead = dead_layout();
  BAD(NULL, "lsk_layout_size", lsk_layout_size(dead, 4, &bytes), LSK_EINVAL, DEAD("layout"));

  char *text = (char *)&text;
  BAD(NULL, "lsk_layout_describe", lsk_layout_describe(NULL, 4, &text), LSK_EINVAL,
      "layout is NULL");
  BAD(NULL, "lsk_layout_describe", lsk_layout_describe(l, 4, NULL), LSK_EINVAL, "text is NULL");
  BAD(NULL, "lsk_layout_describe", lsk_layout_describe(l, SIZE_MAX, &text), LSK_ERANGE,
      "18446744073709551615");
  BAD(NULL, "lsk_layout_describe", lsk_layout_describe(wrong, 4, &text), LSK_EINVAL,
      WRONG("layout", "buffer"));
  text = NULL;

  lsk_emit_options eo = {.view_name = "bad name"};
  const char *emitters[] = {"lsk_layout_emit_cl", "lsk_layout_emit_c"};
  for (int e = 0; e < 2; ++e) {
#define EMIT(ll, o, t) (e ? lsk_layout_emit_c(ll, o, t) : lsk_layout_emit_cl(ll, o, t))
    BAD(NULL, emitters[e], EMIT(NULL, NULL, &text), LSK_EINVAL, "layout is NULL");
    BAD(NULL, emitters[e], EMIT(l, NULL, NULL), LSK_EINVAL, "text is NULL");
    BAD(NULL, emitters[e], EMIT(l, &eo, &text), LSK_EINVAL, "'bad name'");
    lsk_emit_options em = {.members = "x, nope"};
    BAD(NULL, emitters[e], EMIT(l, &em, &text), LSK_EINVAL, "'nope'");
    BAD(NULL, emitters[e], EMIT(wrong, NULL, &text), LSK_EINVAL, WRONG("layout", "buffer"));
    dead = dead_layout();
    BAD(NULL, emitters[e], EMIT(dead, NULL, &text), LSK_EINVAL, DEAD("layout"));
#undef EMIT
  }
  const lsk_layout *two[2] = {l, NULL};
  BAD(NULL, "lsk_layout_emit_view_cl", lsk_layout_emit_view_cl(NULL, 1, two, NULL, &text),
      LSK_EINVAL, "view_name is NULL");
  BAD(NULL, "lsk_layout_emit_view_cl", lsk_layout_emit_view_cl("v", 1, two, NULL, NULL), LSK_EINVAL,
      "text is NULL");
  BAD(NULL, "lsk_layout_emit_view_cl", lsk_layout_emit_view_cl("v", 0, two, NULL, &text),
      LSK_EINVAL, "no layout");
  BAD(NULL, "lsk_layout_emit_view_cl", lsk_layout_emit_view_cl("v", 2, two, NULL, &text),
      LSK_EINVAL, "layouts[1] is NULL");
  two[1] = wrong;
  BAD(NULL, "lsk_layout_emit_view_cl", lsk_layout_emit_view_cl("v", 2, two, NULL, &text),
      LSK_EINVAL, "layouts[1] " /* the pointer */);
  BAD(NULL, "lsk_layout_emit_view_cl", lsk_layout_emit_view_cl("v w", 1, two, NULL, &text),
      LSK_EINVAL, "'v w'");
  QUIET("lsk_free", (lsk_free(NULL), 1));

  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
  lsk_layout_destroy(small);
  lsk_layout_destroy(l);
}
END_TEST

/* ------------------------------------------------------------------ */
/* views (layout.h, soa.h)                                             */

START_TEST(test_bi_view)
{
  lsk_context *ctx = tu_context();
  lsk_layout *l = make_layout("pt");
  const lsk_layout *ls[1] = {l};
  lsk_view *v = NULL, *out = (lsk_view *)&out, *dead = NULL;
  TU_OK(NULL, lsk_view_create("v", 1, ls, NULL, NULL, &v));
  /* The buffer and the soa first: the dead view's memory must not become
   * either. */
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_soa *s = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 1, ls, (size_t[]){4}, &s));
  TU_OK(NULL, lsk_view_create("d", 1, ls, NULL, NULL, &dead));
  lsk_view_destroy(dead);
  lsk_view *wrong = (lsk_view *)b;
  const lsk_view *vs[1] = {v};
  char *text = NULL;

  BAD(NULL, "lsk_view_create", lsk_view_create("w", 1, ls, NULL, NULL, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_view_create", lsk_view_create("w", 0, ls, NULL, NULL, &out), LSK_EINVAL,
      "no layout");
  ck_assert_ptr_null(out);
  BAD(NULL, "lsk_view_create", lsk_view_create("w", 1, NULL, NULL, NULL, &out), LSK_EINVAL,
      "no layout");
  BAD(NULL, "lsk_view_create", lsk_view_create(NULL, 1, ls, NULL, NULL, &out), LSK_EINVAL,
      "view name '(null)'");
  BAD(NULL, "lsk_view_create",
      lsk_view_create("w", 1, ls, (const char *const[]){"x=nope"}, NULL, &out), LSK_EINVAL,
      "layout 'pt' has no member 'nope'");
  BAD(NULL, "lsk_view_create",
      lsk_view_create("w", 1, ls, (const char *const[]){"x,x"}, NULL, &out), LSK_EINVAL,
      "two columns called 'x'");
  BAD(NULL, "lsk_view_create",
      lsk_view_create("w", 1, ls, (const char *const[]){"1a=x"}, NULL, &out), LSK_EINVAL,
      "column name '1a'");
  BAD(NULL, "lsk_view_create",
      lsk_view_create("w", 1, ls, NULL, &(lsk_view_options){.align = 3}, &out), LSK_EINVAL,
      "alignment 3");
  const lsk_layout *badl[1] = {(const lsk_layout *)b};
  BAD(NULL, "lsk_view_create", lsk_view_create("w", 1, badl, NULL, NULL, &out), LSK_EINVAL,
      WRONG("layout", "buffer"));
  BAD(NULL, "lsk_view_from_views", lsk_view_from_views("w", 1, vs, NULL, NULL, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_view_from_views", lsk_view_from_views("w", 0, vs, NULL, NULL, &out), LSK_EINVAL,
      "no view");
  BAD(NULL, "lsk_view_from_views",
      lsk_view_from_views("w", 1, vs, (const char *const[]){"tag,y"}, NULL, &out), LSK_EINVAL,
      "view 'v' has no column 'y'");
  const lsk_view *badv[1] = {dead};
  BAD(NULL, "lsk_view_from_views", lsk_view_from_views("w", 1, badv, NULL, NULL, &out), LSK_EINVAL,
      DEAD("view"));
  badv[0] = wrong;
  BAD(NULL, "lsk_view_from_views", lsk_view_from_views("w", 1, badv, NULL, NULL, &out), LSK_EINVAL,
      WRONG("view", "buffer"));
  QUIET("lsk_view_destroy", (lsk_view_destroy(NULL), 1));
  BADV("lsk_view_name", lsk_view_name(wrong), NULL, WRONG("view", "buffer"));
  BADV("lsk_view_column_count", lsk_view_column_count(dead), 0, DEAD("view"));
  QUIET("lsk_view_column_name", lsk_view_column_name(NULL, 0) == NULL);
  QUIET("lsk_view_column_name", lsk_view_column_name(v, 2) == NULL);
  BADV("lsk_view_source_count", lsk_view_source_count(wrong), 0, WRONG("view", "buffer"));
  BAD(NULL, "lsk_view_emit_cl", lsk_view_emit_cl(v, NULL), LSK_EINVAL, "text is NULL");
  BAD(NULL, "lsk_view_emit_cl", lsk_view_emit_cl(dead, &text), LSK_EINVAL, DEAD("view"));

  lsk_arg args[8];
  size_t n = 0;
  lsk_view_mem mem[2] = {{b, 0, 0}, {b, 4, 0}};
  BAD(NULL, "lsk_view_args", lsk_view_args(NULL, 1, mem, 2, args, 8, &n), LSK_EINVAL,
      "view is NULL");
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 1, mem, 2, args, 8, NULL), LSK_EINVAL,
      "count is NULL");
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 1, mem, 2, NULL, 8, &n), LSK_EINVAL,
      "args is NULL with cap 8");
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 1, NULL, 2, args, 8, &n), LSK_EINVAL, "mem is NULL");
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 1, mem, 1, args, 8, &n), LSK_EINVAL,
      "has 2 columns; mem has 1");
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 5, mem, 2, args, 8, &n), LSK_ERANGE,
      "column 0 'x': 5 elements need bytes [0, 0 + 20) of a buffer of 16 bytes");
  BAD(NULL, "lsk_view_args", lsk_view_args(v, (size_t)UINT32_MAX + 1, mem, 2, args, 8, &n),
      LSK_ERANGE, "the device count is a uint");
  mem[1].offset = 0;
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 1, mem, 2, args, 8, &n), LSK_EINVAL,
      "columns 'x' (bytes [0, 4)) and 'tag' (bytes [0, 4)) overlap");
  mem[1].offset = 2;
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 1, mem, 2, args, 8, &n), LSK_EINVAL,
      "column 1 'tag': offset 2 is not a multiple of 4");
  mem[1].offset = 4;
  BAD(NULL, "lsk_view_args", lsk_view_args(v, 1, mem, 2, args, 2, &n), LSK_ERANGE,
      "5 arguments needed, room for 2");
  const lsk_soa *soas[1] = {s};
  BAD(NULL, "lsk_view_args_soa", lsk_view_args_soa(v, 1, soas, (size_t[]){0}, args, 8, NULL),
      LSK_EINVAL, "count is NULL");
  BAD(NULL, "lsk_view_args_soa", lsk_view_args_soa(v, 1, NULL, (size_t[]){0}, args, 8, &n),
      LSK_EINVAL, "soas or parts is NULL");
  BAD(NULL, "lsk_view_args_soa", lsk_view_args_soa(v, 2, soas, (size_t[]){0, 0}, args, 8, &n),
      LSK_EINVAL, "view 'v' has 1 sources; k is 2");
  BAD(NULL, "lsk_view_args_soa", lsk_view_args_soa(v, 1, soas, (size_t[]){1}, args, 8, &n),
      LSK_EINVAL, "source 0: no part 1");
  const lsk_soa *bads[1] = {(const lsk_soa *)b};
  BAD(NULL, "lsk_view_args_soa", lsk_view_args_soa(v, 1, bads, (size_t[]){0}, args, 8, &n),
      LSK_EINVAL, WRONG("soa", "buffer"));
  BAD(NULL, "lsk_view_args_soa", lsk_view_args_soa(dead, 1, soas, (size_t[]){0}, args, 8, &n),
      LSK_EINVAL, DEAD("view"));
  TU_OK(NULL, lsk_view_args_soa(v, 1, soas, (size_t[]){0}, args, 8, &n));
  ck_assert_uint_eq(n, 5);
  lsk_soa_destroy(s);
  lsk_buffer_destroy(b);
  lsk_view_destroy(v);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* soa.h                                                               */

typedef struct pt {
  float x;
  uint32_t tag;
} pt;

START_TEST(test_bi_soa)
{
  lsk_context *ctx = tu_context();
  lsk_layout *l = make_layout("pt");
  const lsk_layout *ls[2] = {l, l};
  size_t counts[2] = {8, 4};
  lsk_soa *s = NULL, *out = (lsk_soa *)&out;
  TU_OK(ctx, lsk_soa_create(ctx, 2, ls, counts, &s));
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_soa *wrong = (lsk_soa *)b;

  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, ls, counts, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_soa_create", lsk_soa_create(NULL, 2, ls, counts, &out), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(out);
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 0, ls, counts, &out), LSK_EINVAL, "no layouts");
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, NULL, counts, &out), LSK_EINVAL,
      "layouts or counts is NULL");
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, ls, NULL, &out), LSK_EINVAL,
      "layouts or counts is NULL");
  const lsk_layout *bad_ls[2] = {l, NULL};
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, bad_ls, counts, &out), LSK_EINVAL,
      "layouts[1] is NULL");
  bad_ls[1] = (const lsk_layout *)b;
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, bad_ls, counts, &out), LSK_EINVAL,
      WRONG("layout", "buffer"));
  bad_ls[1] = dead_layout();
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, bad_ls, counts, &out), LSK_EINVAL,
      DEAD("layout"));
  size_t huge[2] = {8, (size_t)1 << 33};
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, ls, huge, &out), LSK_ERANGE, "8589934592");
  /* Just past the device's largest allocation, with few enough elements
   * for 32-bit indices: 32-byte elements (a GPU's largest allocation holds
   * 2^32 elements of the one-float layout). */
  lsk_layout *wide = NULL;
  TU_OK(NULL, lsk_layout_create("wide", 0, &wide));
  TU_OK(NULL, lsk_layout_add_column(wide, "double4", "w"));
  const lsk_layout *wls[2] = {l, wide};
  uint64_t past = lsk_context_device(ctx)->max_alloc_size / 32 + 1;
  ck_assert_uint_le(past, UINT32_MAX);
  size_t large[2] = {8, (size_t)past};
  BAD(ctx, "lsk_soa_create", lsk_soa_create(ctx, 2, wls, large, &out), LSK_ERANGE,
      "exceed the largest allocation");
  lsk_layout_destroy(wide);
  BAD(NULL, "lsk_soa_create", lsk_soa_create((lsk_context *)b, 2, ls, counts, &out), LSK_EINVAL,
      WRONG("context", "buffer"));
  QUIET("lsk_soa_destroy", (lsk_soa_destroy(NULL), 1));
  BADV("lsk_soa_destroy", (lsk_soa_destroy(wrong), 0), 0, WRONG("soa", "buffer"));

  /* Getters: neutral values for NULL, a bad part, a wrong handle. */
  QUIET("lsk_soa_parts", lsk_soa_parts(NULL) == 0);
  BADV("lsk_soa_parts", lsk_soa_parts(wrong), 0, WRONG("soa", "buffer"));
  QUIET("lsk_soa_host", lsk_soa_host(NULL, 0) == NULL);
  QUIET("lsk_soa_host", lsk_soa_host(s, 2) == NULL);
  BADV("lsk_soa_host", lsk_soa_host(wrong, 0), NULL, WRONG("soa", "buffer"));
  QUIET("lsk_soa_count", lsk_soa_count(NULL, 0) == 0);
  QUIET("lsk_soa_count", lsk_soa_count(s, SIZE_MAX) == 0);
  BADV("lsk_soa_count", lsk_soa_count(wrong, 0), 0, WRONG("soa", "buffer"));
  QUIET("lsk_soa_base", lsk_soa_base(NULL, 0) == 0);
  QUIET("lsk_soa_base", lsk_soa_base(s, 2) == 0);
  BADV("lsk_soa_base", lsk_soa_base(wrong, 0), 0, WRONG("soa", "buffer"));
  QUIET("lsk_soa_bytes", lsk_soa_bytes(NULL) == 0);
  BADV("lsk_soa_bytes", lsk_soa_bytes(wrong), 0, WRONG("soa", "buffer"));
  QUIET("lsk_soa_buffer", lsk_soa_buffer(NULL) == NULL);
  BADV("lsk_soa_buffer", lsk_soa_buffer(wrong), NULL, WRONG("soa", "buffer"));

  BAD(NULL, "lsk_soa_upload", lsk_soa_upload(NULL, NULL), LSK_EINVAL, "soa is NULL");
  BAD(NULL, "lsk_soa_upload", lsk_soa_upload(wrong, NULL), LSK_EINVAL, WRONG("soa", "buffer"));
  BAD(NULL, "lsk_soa_download", lsk_soa_download(NULL, NULL), LSK_EINVAL, "soa is NULL");
  BAD(NULL, "lsk_soa_download", lsk_soa_download(wrong, NULL), LSK_EINVAL, WRONG("soa", "buffer"));

  BAD(NULL, "lsk_soa_copy", lsk_soa_copy(NULL, 0, s, 1), LSK_EINVAL, "dst is NULL");
  BAD(ctx, "lsk_soa_copy", lsk_soa_copy(s, 0, NULL, 1), LSK_EINVAL, "src is NULL");
  BAD(ctx, "lsk_soa_copy", lsk_soa_copy(s, 2, s, 1), LSK_EINVAL, "dst has no part 2 (it has 2)");
  BAD(ctx, "lsk_soa_copy", lsk_soa_copy(s, 0, s, SIZE_MAX), LSK_EINVAL,
      "src has no part 18446744073709551615");
  BAD(ctx, "lsk_soa_copy", lsk_soa_copy(s, 1, s, 0), LSK_ERANGE, "holds 4 elements, source 'pt' 8");
  BAD(ctx, "lsk_soa_copy", lsk_soa_copy(s, 0, wrong, 0), LSK_EINVAL, WRONG("soa", "buffer"));
  BAD(NULL, "lsk_soa_copy", lsk_soa_copy(wrong, 0, s, 0), LSK_EINVAL, WRONG("soa", "buffer"));

  pt arr[8] = {{0}};
  lsk_aos_field f[] = {{"x", offsetof(pt, x)}, {"tag", offsetof(pt, tag)}};
  lsk_aos_field bad_member[] = {{"nope", 0}};
  lsk_aos_field bad_offset[] = {{"x", 6}};
  lsk_aos_field wrap_offset[] = {{"x", SIZE_MAX}};
  const char *conv[] = {"lsk_soa_from_aos", "lsk_soa_to_aos"};
  for (int c = 0; c < 2; ++c) {
#define CONV(ss, j, a, n, sz, ff, nf)                                                              \
  (c ? lsk_soa_to_aos(ss, j, a, n, sz, ff, nf) : lsk_soa_from_aos(ss, j, a, n, sz, ff, nf))
    BAD(NULL, conv[c], CONV(NULL, 0, arr, 8, sizeof(pt), f, 2), LSK_EINVAL, "soa is NULL");
    BAD(ctx, conv[c], CONV(s, 2, arr, 8, sizeof(pt), f, 2), LSK_EINVAL, "no part 2");
    BAD(ctx, conv[c], CONV(s, 0, NULL, 8, sizeof(pt), f, 2), LSK_EINVAL, "aos is NULL");
    BAD(ctx, conv[c], CONV(s, 0, arr, 8, sizeof(pt), NULL, 2), LSK_EINVAL, "fields is NULL");
    BAD(ctx, conv[c], CONV(s, 1, arr, 8, sizeof(pt), f, 2), LSK_ERANGE, "8 structs");
    BAD(ctx, conv[c], CONV(s, 0, arr, 8, sizeof(pt), bad_member, 1), LSK_EINVAL, "'nope'");
    BAD(ctx, conv[c], CONV(s, 0, arr, 8, sizeof(pt), bad_offset, 1), LSK_EINVAL, "offset 6");
    BAD(ctx, conv[c], CONV(s, 0, arr, 8, sizeof(pt), wrap_offset, 1), LSK_EINVAL,
        "offset 18446744073709551615");
    BAD(NULL, conv[c], CONV(wrong, 0, arr, 8, sizeof(pt), f, 2), LSK_EINVAL,
        WRONG("soa", "buffer"));
#undef CONV
  }

  lsk_arg args[8];
  size_t n;
  lsk_emit_options eo = {.members = "x"};
  BAD(NULL, "lsk_soa_args", lsk_soa_args(NULL, 0, NULL, args, 8, &n), LSK_EINVAL, "soa is NULL");
  BAD(ctx, "lsk_soa_args", lsk_soa_args(s, 2, NULL, args, 8, &n), LSK_EINVAL, "no part 2");
  BAD(ctx, "lsk_soa_args", lsk_soa_args(s, 0, NULL, args, 8, NULL), LSK_EINVAL, "NULL count");
  BAD(ctx, "lsk_soa_args", lsk_soa_args(s, 0, NULL, NULL, 8, &n), LSK_EINVAL, "args");
  BAD(ctx, "lsk_soa_args", lsk_soa_args(s, 0, &eo, args, 1, &n), LSK_ERANGE, "room for 1");
  BAD(NULL, "lsk_soa_args", lsk_soa_args(wrong, 0, NULL, args, 8, &n), LSK_EINVAL,
      WRONG("soa", "buffer"));
  size_t parts[2] = {0, 1};
  BAD(NULL, "lsk_soa_view_args", lsk_soa_view_args(NULL, 1, parts, NULL, args, 8, &n), LSK_EINVAL,
      "soa is NULL");
  BAD(ctx, "lsk_soa_view_args", lsk_soa_view_args(s, 0, parts, NULL, args, 8, &n), LSK_EINVAL,
      "no parts");
  BAD(ctx, "lsk_soa_view_args", lsk_soa_view_args(s, 1, NULL, NULL, args, 8, &n), LSK_EINVAL,
      "no parts");
  BAD(ctx, "lsk_soa_view_args", lsk_soa_view_args(s, 2, parts, NULL, args, 8, &n), LSK_EINVAL,
      "equal lengths");
  size_t far[1] = {7};
  BAD(ctx, "lsk_soa_view_args", lsk_soa_view_args(s, 1, far, NULL, args, 8, &n), LSK_EINVAL,
      "no part 7");
  BAD(NULL, "lsk_soa_view_args", lsk_soa_view_args(wrong, 1, parts, NULL, args, 8, &n), LSK_EINVAL,
      WRONG("soa", "buffer"));

  /* Reporters of the generated accessors: always an error status. */
  QUIET("lsk_soa_range_error",
        lsk_soa_range_error(NULL, 0, NULL, NULL, 5, 3) == LSK_ERANGE &&
            strstr(lsk_context_errmsg(NULL),
                   "layout '?' member '?': index 5 out of range [0, 3)") != NULL);
  QUIET("lsk_soa_range_error", lsk_soa_range_error("use.c", 7, "hits", "x", 5, 3) == LSK_ERANGE &&
                                   strncmp(lsk_context_errmsg(NULL),
                                           "use.c:7: layout 'hits' member 'x': index 5", 42) == 0);
  QUIET("lsk_soa_misaligned", lsk_soa_misaligned(NULL, NULL, 16) == LSK_EINVAL &&
                                  strstr(lsk_context_errmsg(NULL), "NULL memory") != NULL);
  QUIET("lsk_soa_misaligned",
        lsk_soa_misaligned("v", (void *)(uintptr_t)0x1004, 16) == LSK_EINVAL &&
            strstr(lsk_context_errmsg(NULL), "4 past a boundary") != NULL);

  lsk_soa_destroy(s);
  lsk_buffer_destroy(b);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

/* The grid and its halo (grid.h). */
START_TEST(test_bi_grid)
{
  lsk_context *ctx = tu_context();
  const size_t g[3] = {10, 6, 1};
  const unsigned parts[3] = {2, 1, 1}, c0[3] = {0, 0, 0};
  const int per[3] = {1, 0, 0};
  lsk_grid_box b;
  BAD(NULL, "lsk_grid_split", lsk_grid_split(2, NULL, parts, c0, 1, per, &b), LSK_EINVAL,
      "global is NULL");
  BAD(NULL, "lsk_grid_split", lsk_grid_split(0, g, parts, c0, 1, per, &b), LSK_EINVAL,
      "dims 0 is not 1, 2 or 3");
  BAD(NULL, "lsk_grid_split", lsk_grid_split(2, g, (unsigned[3]){2, 7, 1}, c0, 1, per, &b),
      LSK_EINVAL, "parts[1] is 7 for 6 cells");
  BAD(NULL, "lsk_grid_split", lsk_grid_split(2, g, parts, (unsigned[3]){2, 0, 0}, 1, per, &b),
      LSK_EINVAL, "coord[0] 2 is not below parts[0] 2");
  BAD(NULL, "lsk_grid_split", lsk_grid_split(2, g, parts, c0, 6, per, &b), LSK_EINVAL,
      "guard 6 is wider than the smallest part along axis 0 (5 cells)");
  BAD(NULL, "lsk_grid_split", lsk_grid_split(2, (size_t[3]){10, 0, 1}, parts, c0, 1, per, &b),
      LSK_EINVAL, "global[1] is 0");
  QUIET("lsk_grid_box_storage", lsk_grid_box_storage(NULL, NULL) == 0);
  TU_OK(NULL, lsk_grid_split(2, g, parts, c0, 1, per, &b));
  QUIET("lsk_grid_box_index", lsk_grid_box_index(&b, 0, 0, 0) == 7 + 1);

  lsk_halo *h = NULL;
  BAD(NULL, "lsk_halo_create", lsk_halo_create(NULL, &b, &h), LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_halo_create", lsk_halo_create(ctx, NULL, &h), LSK_EINVAL, "box is NULL");
  BAD(ctx, "lsk_halo_create", lsk_halo_create(ctx, &b, NULL), LSK_EINVAL, "out is NULL");
  lsk_grid_box bad = b;
  bad.offset[0] = 8; /* 5 cells from 8 pass the grid's 10 */
  BAD(ctx, "lsk_halo_create", lsk_halo_create(ctx, &bad, &h), LSK_EINVAL,
      "box axis 0: cells [8, 13) are not inside the grid's 10");
  bad = b;
  bad.guard = 6;
  BAD(ctx, "lsk_halo_create", lsk_halo_create(ctx, &bad, &h), LSK_EINVAL,
      "guard 6 is wider than the box's 5 cells on axis 0");
  bad = b;
  bad.dims = 4;
  BAD(ctx, "lsk_halo_create", lsk_halo_create(ctx, &bad, &h), LSK_EINVAL, "box dims 4");
  bad = b;
  bad.extent[2] = 2;
  BAD(ctx, "lsk_halo_create", lsk_halo_create(ctx, &bad, &h), LSK_EINVAL,
      "box axis 2 is beyond dims 2");
  TU_OK(ctx, lsk_halo_create(ctx, &b, &h));
  size_t n = lsk_grid_box_storage(&b, NULL), tot = lsk_halo_total(h);
  lsk_buffer *col, *packed, *small;
  TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &col));
  TU_OK(ctx, lsk_buffer_create(ctx, tot * 4, &packed));
  TU_OK(ctx, lsk_buffer_create(ctx, 4, &small));
  int d[3];
  BADV("lsk_halo_box", lsk_halo_box((lsk_halo *)col), NULL, WRONG("halo", "buffer"));
  BADV("lsk_halo_dirs", lsk_halo_dirs((lsk_halo *)col), 0u, WRONG("halo", "buffer"));
  BAD(ctx, "lsk_halo_dir", lsk_halo_dir(h, 8, d), LSK_EINVAL, "direction 8 is not below 8");
  BAD(ctx, "lsk_halo_dir", lsk_halo_dir(h, 0, NULL), LSK_EINVAL, "d is NULL");
  BADV("lsk_halo_kind_of", lsk_halo_kind_of((lsk_halo *)col, 0), LSK_HALO_NONE,
       WRONG("halo", "buffer"));
  BADV("lsk_halo_cells", lsk_halo_cells((lsk_halo *)col, 0), 0u, WRONG("halo", "buffer"));
  BADV("lsk_halo_offset", lsk_halo_offset((lsk_halo *)col, 0), 0u, WRONG("halo", "buffer"));
  BADV("lsk_halo_total", lsk_halo_total((lsk_halo *)col), 0u, WRONG("halo", "buffer"));
  BAD(NULL, "lsk_halo_pack", lsk_halo_pack(NULL, LSK_TYPE_UINT, col, packed, 0, NULL, NULL),
      LSK_EINVAL, "h is NULL");
  BAD(ctx, "lsk_halo_pack", lsk_halo_pack(h, (lsk_type)9, col, packed, 0, NULL, NULL), LSK_EINVAL,
      "type 9 is not an lsk_type");
  BAD(ctx, "lsk_halo_pack", lsk_halo_pack(h, LSK_TYPE_UINT, small, packed, 0, NULL, NULL),
      LSK_ERANGE, "column: elements [0, 56) of 4 bytes exceed the buffer's 4 bytes");
  BAD(ctx, "lsk_halo_pack", lsk_halo_pack(h, LSK_TYPE_ULONG, col, packed, 0, NULL, NULL),
      LSK_ERANGE, "column: elements [0, 56) of 8 bytes");
  BAD(ctx, "lsk_halo_pack", lsk_halo_pack(h, LSK_TYPE_UINT, col, packed, 1, NULL, NULL), LSK_ERANGE,
      "packed: elements [1, 13)");
  BAD(ctx, "lsk_halo_pack", lsk_halo_pack(h, LSK_TYPE_UINT, col, NULL, 0, NULL, NULL), LSK_EINVAL,
      "packed is NULL");
  BAD(ctx, "lsk_halo_unpack", lsk_halo_unpack(h, LSK_TYPE_UINT, col, 0, col, NULL, NULL),
      LSK_EINVAL, "column and packed are the same buffer");
  BAD(ctx, "lsk_halo_unpack", lsk_halo_unpack(h, LSK_TYPE_UINT, packed, 0, NULL, NULL, NULL),
      LSK_EINVAL, "column is NULL");
  BAD(ctx, "lsk_halo_wrap", lsk_halo_wrap(h, LSK_TYPE_UINT, small, 0, col, NULL, NULL), LSK_ERANGE,
      "packed: elements [0, 12)");
  BAD(ctx, "lsk_halo_fill", lsk_halo_fill(h, LSK_TYPE_FLOAT, small, NULL, NULL), LSK_ERANGE,
      "column: elements [0, 56)");
  QUIET("lsk_halo_destroy", (lsk_halo_destroy(NULL), 1));
  lsk_halo_destroy(h);
  BAD(NULL, "lsk_halo_fill", lsk_halo_fill(h, LSK_TYPE_UINT, col, NULL, NULL), LSK_EINVAL,
      DEAD("halo"));
  lsk_buffer_destroy(small);
  lsk_buffer_destroy(packed);
  lsk_buffer_destroy(col);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_badinput_data(void)
{
  Suite *s = suite_create("badinput_data");
  TCase *tc = bi_tcase("data");
  tcase_add_test(tc, test_bi_layout);
  tcase_add_test(tc, test_bi_soa);
  tcase_add_test(tc, test_bi_grid);
  tcase_add_test(tc, test_bi_view);
  suite_add_tcase(s, tc);
  return s;
}
