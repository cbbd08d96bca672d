/*
 * check_badinput_sparse.c: bad input to every public function of
 * sparse.h (rows: badinput.h): NULLs, wrong and destroyed handles,
 * values out of range, unknown names, a queue of another context; every
 * row checks the status and that the message starts with the function's
 * name and names the offending value. The rules of the definitions
 * themselves are tests/sparse/check_sparse_def.c's.
 */
#include <stdint.h>
#include <stdio.h>

#include "badinput.h"

static lsk_sparse_def *make_def(const char *name)
{
  lsk_sparse_def *d = NULL;
  TU_OK(NULL, lsk_sparse_def_parse("sparse g\npointer blk i 16\ndense cell i 8\nplace float x\n",
                                   name, &d));
  return d;
}

static lsk_sparse_def *dead_def(void)
{
  lsk_sparse_def *d = make_def("gone");
  lsk_sparse_def_destroy(d);
  return d;
}

/* ------------------------------------------------------------------ */
/* the definition                                                      */

START_TEST(test_bi_sparse_def)
{
  lsk_sparse_def *d = make_def("g.sparse"), *out = (lsk_sparse_def *)&out, *dead;
  lsk_context *ctx = tu_context();
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_sparse_def *wrong = (lsk_sparse_def *)b;
  lsk_snode node = {LSK_SNODE_DENSE, "more", "i", {2, 0, 0}, 0, NULL};

  BAD(NULL, "lsk_sparse_def_create", lsk_sparse_def_create("a", 0, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_sparse_def_create", lsk_sparse_def_create(NULL, 0, &out), LSK_EINVAL, "'(null)'");
  ck_assert_ptr_null(out);
  BAD(NULL, "lsk_sparse_def_create", lsk_sparse_def_create("", 0, &out), LSK_EINVAL, "''");
  BAD(NULL, "lsk_sparse_def_create", lsk_sparse_def_create("a b", 0, &out), LSK_EINVAL, "'a b'");
  BAD(NULL, "lsk_sparse_def_create", lsk_sparse_def_create("a", 48, &out), LSK_EINVAL, "48");
  BAD(NULL, "lsk_sparse_def_create", lsk_sparse_def_create("a", SIZE_MAX, &out), LSK_EINVAL,
      "18446744073709551615");
  QUIET("lsk_sparse_def_destroy", (lsk_sparse_def_destroy(NULL), 1));
  BADV("lsk_sparse_def_destroy", (lsk_sparse_def_destroy(wrong), 0), 0,
       WRONG("sparse_def", "buffer"));
  dead = dead_def();
  BADV("lsk_sparse_def_destroy", (lsk_sparse_def_destroy(dead), 0), 0, DEAD("sparse_def"));

  BAD(NULL, "lsk_sparse_def_add_node", lsk_sparse_def_add_node(NULL, &node), LSK_EINVAL,
      "def is NULL");
  BAD(NULL, "lsk_sparse_def_add_node", lsk_sparse_def_add_node(d, NULL), LSK_EINVAL,
      "node is NULL");
  BAD(NULL, "lsk_sparse_def_add_node", lsk_sparse_def_add_node(d, &node), LSK_EINVAL, "'more'");
  BAD(NULL, "lsk_sparse_def_add_node", lsk_sparse_def_add_node(wrong, &node), LSK_EINVAL,
      WRONG("sparse_def", "buffer"));
  dead = dead_def();
  BAD(NULL, "lsk_sparse_def_add_node", lsk_sparse_def_add_node(dead, &node), LSK_EINVAL,
      DEAD("sparse_def"));
  BAD(NULL, "lsk_sparse_def_place", lsk_sparse_def_place(NULL, "float", "y"), LSK_EINVAL,
      "def is NULL");
  BAD(NULL, "lsk_sparse_def_place", lsk_sparse_def_place(d, "quat", "y"), LSK_EINVAL, "'quat'");
  BAD(NULL, "lsk_sparse_def_place", lsk_sparse_def_place(d, "float", "x"), LSK_EINVAL, "'x'");
  BAD(NULL, "lsk_sparse_def_place", lsk_sparse_def_place(d, "float", "1y"), LSK_EINVAL, "'1y'");
  BAD(NULL, "lsk_sparse_def_place", lsk_sparse_def_place(wrong, "float", "y"), LSK_EINVAL,
      WRONG("sparse_def", "buffer"));

  BAD(NULL, "lsk_sparse_def_parse", lsk_sparse_def_parse("sparse a\n", "f.sparse", NULL),
      LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_sparse_def_parse", lsk_sparse_def_parse(NULL, "f.sparse", &out), LSK_EINVAL,
      "text is NULL");
  ck_assert_ptr_null(out);
  BAD_AT(NULL, "lsk_sparse_def_parse", "f.sparse",
         lsk_sparse_def_parse("sparse a\ndense c i 6\nplace float x\n", "f.sparse", &out),
         LSK_EINVAL, "node 'c' has a size of 6 along i, not a power of two");
  BAD_AT(NULL, "lsk_sparse_def_parse", "f.sparse",
         lsk_sparse_def_parse("sparse a\ndense c i 4\nplace quat x\n", "f.sparse", &out),
         LSK_EINVAL, "'quat'");
  BAD(NULL, "lsk_sparse_def_load", lsk_sparse_def_load("x.sparse", NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_sparse_def_load", lsk_sparse_def_load(NULL, &out), LSK_EINVAL, "path is NULL");
  BAD(NULL, "lsk_sparse_def_load", lsk_sparse_def_load("/nonexistent/x.sparse", &out), LSK_EIO,
      "/nonexistent/x.sparse");

  QUIET("lsk_sparse_def_name", lsk_sparse_def_name(NULL) == NULL);
  BADV("lsk_sparse_def_name", lsk_sparse_def_name(wrong), NULL, WRONG("sparse_def", "buffer"));
  QUIET("lsk_sparse_def_axes", lsk_sparse_def_axes(NULL) == 0);
  BADV("lsk_sparse_def_axes", lsk_sparse_def_axes(wrong), 0, WRONG("sparse_def", "buffer"));
  QUIET("lsk_sparse_def_nodes", lsk_sparse_def_nodes(NULL) == 0);
  dead = dead_def();
  BADV("lsk_sparse_def_nodes", lsk_sparse_def_nodes(dead), 0, DEAD("sparse_def"));
  QUIET("lsk_sparse_def_fields", lsk_sparse_def_fields(NULL) == 0);
  BADV("lsk_sparse_def_fields", lsk_sparse_def_fields(wrong), 0, WRONG("sparse_def", "buffer"));

  lsk_snode n;
  const char *t, *nm;
  uint64_t ext[LSK_SPARSE_MAX_AXES];
  char *text = (char *)&text;
  BAD(NULL, "lsk_sparse_def_node", lsk_sparse_def_node(NULL, 0, &n), LSK_EINVAL, "def is NULL");
  BAD(NULL, "lsk_sparse_def_node", lsk_sparse_def_node(d, 0, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_sparse_def_node", lsk_sparse_def_node(d, 2, &n), LSK_ERANGE, "2");
  BAD(NULL, "lsk_sparse_def_node", lsk_sparse_def_node(wrong, 0, &n), LSK_EINVAL,
      WRONG("sparse_def", "buffer"));
  BAD(NULL, "lsk_sparse_def_field", lsk_sparse_def_field(NULL, 0, &t, &nm), LSK_EINVAL,
      "def is NULL");
  BAD(NULL, "lsk_sparse_def_field", lsk_sparse_def_field(d, 0, NULL, &nm), LSK_EINVAL,
      "type is NULL");
  BAD(NULL, "lsk_sparse_def_field", lsk_sparse_def_field(d, 0, &t, NULL), LSK_EINVAL,
      "name is NULL");
  BAD(NULL, "lsk_sparse_def_field", lsk_sparse_def_field(d, 1, &t, &nm), LSK_ERANGE, "1");
  BAD(NULL, "lsk_sparse_def_extent", lsk_sparse_def_extent(NULL, ext), LSK_EINVAL, "def is NULL");
  BAD(NULL, "lsk_sparse_def_extent", lsk_sparse_def_extent(d, NULL), LSK_EINVAL, "extent is NULL");
  BAD(NULL, "lsk_sparse_def_extent", lsk_sparse_def_extent(wrong, ext), LSK_EINVAL,
      WRONG("sparse_def", "buffer"));
  BAD(NULL, "lsk_sparse_def_describe", lsk_sparse_def_describe(NULL, &text), LSK_EINVAL,
      "def is NULL");
  BAD(NULL, "lsk_sparse_def_describe", lsk_sparse_def_describe(d, NULL), LSK_EINVAL,
      "text is NULL");
  BAD(NULL, "lsk_sparse_def_describe", lsk_sparse_def_describe(wrong, &text), LSK_EINVAL,
      WRONG("sparse_def", "buffer"));
  BAD(NULL, "lsk_sparse_def_emit_cl", lsk_sparse_def_emit_cl(NULL, &text), LSK_EINVAL,
      "def is NULL");
  BAD(NULL, "lsk_sparse_def_emit_cl", lsk_sparse_def_emit_cl(d, NULL), LSK_EINVAL, "text is NULL");
  dead = dead_def();
  BAD(NULL, "lsk_sparse_def_emit_cl", lsk_sparse_def_emit_cl(dead, &text), LSK_EINVAL,
      DEAD("sparse_def"));
  /* A definition without fields cannot be emitted either. */
  lsk_sparse_def *bare = NULL;
  TU_OK(NULL, lsk_sparse_def_create("bare", 0, &bare));
  BAD(NULL, "lsk_sparse_def_emit_cl", lsk_sparse_def_emit_cl(bare, &text), LSK_EINVAL, "'bare'");
  lsk_sparse_def_destroy(bare);

  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
  lsk_sparse_def_destroy(d);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the structure                                                       */

START_TEST(test_bi_sparse)
{
  lsk_context *ctx = tu_context(), *other = tu_context();
  lsk_sparse_def *d = make_def("g.sparse");
  lsk_sparse *sp = NULL, *out = (lsk_sparse *)&out;
  TU_OK(ctx, lsk_sparse_create(ctx, d, NULL, &sp));
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_sparse *wrong = (lsk_sparse *)b;
  lsk_queue *oq = lsk_context_queue(other);
  const lsk_async *foreign = &(lsk_async){.queue = oq};

  BAD(ctx, "lsk_sparse_create", lsk_sparse_create(ctx, d, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_sparse_create", lsk_sparse_create(NULL, d, NULL, &out), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(out);
  BAD(ctx, "lsk_sparse_create", lsk_sparse_create(ctx, NULL, NULL, &out), LSK_EINVAL,
      "def is NULL");
  BAD(ctx, "lsk_sparse_create", lsk_sparse_create(ctx, (lsk_sparse_def *)b, NULL, &out), LSK_EINVAL,
      WRONG("sparse_def", "buffer"));
  lsk_sparse_def *nofields = NULL;
  TU_OK(NULL, lsk_sparse_def_create("e", 0, &nofields));
  TU_OK(NULL, lsk_sparse_def_add_node(nofields,
                                      &(lsk_snode){LSK_SNODE_DENSE, "c", "i", {4, 0, 0}, 0, NULL}));
  BAD(ctx, "lsk_sparse_create", lsk_sparse_create(ctx, nofields, NULL, &out), LSK_EINVAL, "'e'");
  lsk_sparse_def_destroy(nofields);
  /* Every axis of the index space must be divided by some node: k without
   * j, built from C (the parser refuses it at the end of the text). */
  lsk_sparse_def *gap = NULL;
  TU_OK(NULL, lsk_sparse_def_create("gap", 0, &gap));
  TU_OK(NULL,
        lsk_sparse_def_add_node(gap, &(lsk_snode){LSK_SNODE_DENSE, "c", "ik", {4, 4, 0}, 0, NULL}));
  TU_OK(NULL, lsk_sparse_def_place(gap, "float", "x"));
  BAD(ctx, "lsk_sparse_create", lsk_sparse_create(ctx, gap, NULL, &out), LSK_EINVAL,
      "no node divides axis j");
  lsk_sparse_def_destroy(gap);
  BAD(ctx, "lsk_sparse_create",
      lsk_sparse_create(ctx, d, &(lsk_sparse_options){.fraction = -1}, &out), LSK_EINVAL, "-1");
  BAD(ctx, "lsk_sparse_create",
      lsk_sparse_create(ctx, d, &(lsk_sparse_options){.fraction = 2}, &out), LSK_EINVAL, "2");
  BAD(ctx, "lsk_sparse_create",
      lsk_sparse_create(ctx, d, &(lsk_sparse_options){.blocks = {SIZE_MAX / 2}}, &out), LSK_ERANGE,
      "9223372036854775807");
  BAD(NULL, "lsk_sparse_create", lsk_sparse_create((lsk_context *)b, d, NULL, &out), LSK_EINVAL,
      WRONG("context", "buffer"));
  QUIET("lsk_sparse_destroy", (lsk_sparse_destroy(NULL), 1));
  BADV("lsk_sparse_destroy", (lsk_sparse_destroy(wrong), 0), 0, WRONG("sparse", "buffer"));
  QUIET("lsk_sparse_source", lsk_sparse_source(NULL) == NULL);
  BADV("lsk_sparse_source", lsk_sparse_source(wrong), NULL, WRONG("sparse", "buffer"));

  lsk_arg arg;
  BAD(NULL, "lsk_sparse_use", lsk_sparse_use(NULL, &arg, NULL), LSK_EINVAL, "sp is NULL");
  BAD(ctx, "lsk_sparse_use", lsk_sparse_use(sp, NULL, NULL), LSK_EINVAL, "arg is NULL");
  BAD(NULL, "lsk_sparse_use", lsk_sparse_use(wrong, &arg, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));
  BAD(ctx, "lsk_sparse_use", lsk_sparse_use(sp, &arg, foreign), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");

  lsk_program *prog = NULL;
  TU_OK(ctx, lsk_program_create(ctx,
                                "LSK_KERNEL void k(LSK_CTX, G_PARAMS, uint n) { G_VIEW(s); "
                                "G_FOR_CELL(s, b) { G_FOREACH_CELL(it, s, b) { (void)n; } } }\n",
                                &(lsk_program_options){.prelude = lsk_sparse_source(sp)}, &prog));
  lsk_kernel *k = NULL;
  TU_OK(ctx, lsk_kernel_create(prog, "k", &k));
  lsk_arg one[] = {LSK_ARG_UINT(1)};
  BAD(NULL, "lsk_sparse_for", lsk_sparse_for(NULL, k, NULL, one, 1, NULL), LSK_EINVAL,
      "sp is NULL");
  BAD(ctx, "lsk_sparse_for", lsk_sparse_for(sp, NULL, NULL, one, 1, NULL), LSK_EINVAL, "k is NULL");
  BAD(ctx, "lsk_sparse_for",
      lsk_sparse_for(sp, k, &(lsk_sparse_for_options){.level = "nope"}, one, 1, NULL), LSK_EINVAL,
      "'nope'");
  BAD(ctx, "lsk_sparse_for", lsk_sparse_for(sp, k, NULL, NULL, 1, NULL), LSK_EINVAL,
      "args is NULL");
  BAD(NULL, "lsk_sparse_for", lsk_sparse_for(wrong, k, NULL, one, 1, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));
  BAD(ctx, "lsk_sparse_for", lsk_sparse_for(sp, k, NULL, one, 1, foreign), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");

  BAD(NULL, "lsk_sparse_check", lsk_sparse_check(NULL, NULL), LSK_EINVAL, "sp is NULL");
  BAD(NULL, "lsk_sparse_check", lsk_sparse_check(wrong, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));
  BAD(ctx, "lsk_sparse_check", lsk_sparse_check(sp, foreign), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");

  BAD(NULL, "lsk_sparse_grow", lsk_sparse_grow(NULL, 0, 100), LSK_EINVAL, "sp is NULL");
  BAD(ctx, "lsk_sparse_grow", lsk_sparse_grow(sp, 1, 100), LSK_EINVAL, "node 1");
  BAD(ctx, "lsk_sparse_grow", lsk_sparse_grow(sp, 7, 100), LSK_EINVAL, "7");
  BAD(ctx, "lsk_sparse_grow", lsk_sparse_grow(sp, 0, 1), LSK_EINVAL, "1");
  BAD(ctx, "lsk_sparse_grow", lsk_sparse_grow(sp, 0, SIZE_MAX / 2), LSK_ERANGE,
      "9223372036854775807");
  BAD(NULL, "lsk_sparse_grow", lsk_sparse_grow(wrong, 0, 100), LSK_EINVAL,
      WRONG("sparse", "buffer"));

  lsk_sparse_level_stats st[2];
  uint64_t active;
  BAD(NULL, "lsk_sparse_stats_get", lsk_sparse_stats_get(NULL, st, 2, NULL), LSK_EINVAL,
      "sp is NULL");
  BAD(ctx, "lsk_sparse_stats_get", lsk_sparse_stats_get(sp, NULL, 2, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_sparse_stats_get", lsk_sparse_stats_get(wrong, st, 2, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));
  BAD(ctx, "lsk_sparse_stats_get", lsk_sparse_stats_get(sp, st, 2, foreign), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");
  BAD(NULL, "lsk_sparse_count", lsk_sparse_count(NULL, NULL, &active, NULL), LSK_EINVAL,
      "sp is NULL");
  BAD(ctx, "lsk_sparse_count", lsk_sparse_count(sp, NULL, NULL, NULL), LSK_EINVAL,
      "active is NULL");
  BAD(ctx, "lsk_sparse_count", lsk_sparse_count(sp, "nope", &active, NULL), LSK_EINVAL, "'nope'");
  BAD(NULL, "lsk_sparse_count", lsk_sparse_count(wrong, NULL, &active, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));

  float dense[128];
  BAD(NULL, "lsk_sparse_read", lsk_sparse_read(NULL, "x", dense, sizeof dense, NULL), LSK_EINVAL,
      "sp is NULL");
  BAD(ctx, "lsk_sparse_read", lsk_sparse_read(sp, NULL, dense, sizeof dense, NULL), LSK_EINVAL,
      "no field '(null)'");
  BAD(ctx, "lsk_sparse_read", lsk_sparse_read(sp, "y", dense, sizeof dense, NULL), LSK_EINVAL,
      "'y'");
  BAD(ctx, "lsk_sparse_read", lsk_sparse_read(sp, "x", NULL, sizeof dense, NULL), LSK_EINVAL,
      "dst is NULL");
  BAD(ctx, "lsk_sparse_read", lsk_sparse_read(sp, "x", dense, sizeof dense - 1, NULL), LSK_EINVAL,
      "511 bytes: field 'x' of sparse 'g' takes 512");
  BAD(NULL, "lsk_sparse_read", lsk_sparse_read(wrong, "x", dense, sizeof dense, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));
  BAD(NULL, "lsk_sparse_write", lsk_sparse_write(NULL, "x", dense, sizeof dense, NULL), LSK_EINVAL,
      "sp is NULL");
  BAD(ctx, "lsk_sparse_write", lsk_sparse_write(sp, "y", dense, sizeof dense, NULL), LSK_EINVAL,
      "'y'");
  BAD(ctx, "lsk_sparse_write", lsk_sparse_write(sp, "x", NULL, sizeof dense, NULL), LSK_EINVAL,
      "src is NULL");
  BAD(ctx, "lsk_sparse_write", lsk_sparse_write(sp, "x", dense, 4, NULL), LSK_EINVAL,
      "4 bytes: field 'x' of sparse 'g' takes 512");
  BAD(ctx, "lsk_sparse_write", lsk_sparse_write(sp, "x", dense, sizeof dense, foreign), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");

  BAD(NULL, "lsk_sparse_deactivate", lsk_sparse_deactivate(NULL, "blk", NULL), LSK_EINVAL,
      "sp is NULL");
  BAD(ctx, "lsk_sparse_deactivate", lsk_sparse_deactivate(sp, "cell", NULL), LSK_EINVAL, "'cell'");
  BAD(ctx, "lsk_sparse_deactivate", lsk_sparse_deactivate(sp, "nope", NULL), LSK_EINVAL, "'nope'");
  BAD(NULL, "lsk_sparse_deactivate", lsk_sparse_deactivate(wrong, NULL, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));
  BAD(NULL, "lsk_sparse_deactivate_all", lsk_sparse_deactivate_all(NULL, NULL), LSK_EINVAL,
      "sp is NULL");
  BAD(NULL, "lsk_sparse_deactivate_all", lsk_sparse_deactivate_all(wrong, NULL), LSK_EINVAL,
      WRONG("sparse", "buffer"));
  BAD(ctx, "lsk_sparse_deactivate_all", lsk_sparse_deactivate_all(sp, foreign), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");

  /* A dynamic node's fields are read only. */
  lsk_sparse_def *ld = NULL;
  lsk_sparse *ls = NULL;
  TU_OK(NULL, lsk_sparse_def_parse("sparse l\ndense r i 4\ndynamic e j 16\nplace uint v\n",
                                   "l.sparse", &ld));
  TU_OK(ctx, lsk_sparse_create(ctx, ld, NULL, &ls));
  uint32_t lv[64] = {0};
  BAD(ctx, "lsk_sparse_write", lsk_sparse_write(ls, "v", lv, sizeof lv, NULL), LSK_EINVAL, "'v'");
  lsk_sparse_destroy(ls);
  lsk_sparse_def_destroy(ld);

  /* A destroyed structure. */
  lsk_sparse *gone = NULL;
  TU_OK(ctx, lsk_sparse_create(ctx, d, NULL, &gone));
  lsk_sparse_destroy(gone);
  BAD(NULL, "lsk_sparse_check", lsk_sparse_check(gone, NULL), LSK_EINVAL, DEAD("sparse"));

  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_sparse_destroy(sp);
  lsk_sparse_def_destroy(d);
  lsk_buffer_destroy(b);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_badinput_sparse(void)
{
  Suite *s = suite_create("badinput_sparse");
  TCase *tc = bi_tcase("core");
  tcase_add_test(tc, test_bi_sparse_def);
  tcase_add_test(tc, test_bi_sparse);
  suite_add_tcase(s, tc);
  return s;
}
