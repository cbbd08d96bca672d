/*
 * check_sparse_def.c: sparse definitions (include/lsk/sparse.h) without a
 * device: the text format against the same definition built from C, the
 * index space's extents worked out by hand, and every rule of
 * lsk_sparse_def_add_node, _place and _parse refused with the node or the
 * line and the rule in the message.
 */
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"

/* The example: a 4096 x 4096 grid of 16 x 16 blocks. */
static const char example[] = "# the issue's grid\n"
                              "sparse grid\n"
                              "\n"
                              "pointer block ij 256 256   # blocks that exist where something is\n"
                              "dense cell ij 16 16\n"
                              "place float x\n"
                              "place uint tag\n";

static lsk_sparse_def *parse_ok(const char *text)
{
  lsk_sparse_def *d = NULL;
  TU_OK(NULL, lsk_sparse_def_parse(text, "grid.sparse", &d));
  ck_assert_ptr_nonnull(d);
  return d;
}

static lsk_sparse_def *create_ok(const char *name)
{
  lsk_sparse_def *d = NULL;
  TU_OK(NULL, lsk_sparse_def_create(name, 0, &d));
  return d;
}

static void add_ok(lsk_sparse_def *d, lsk_snode_kind kind, const char *name, const char *axes,
                   unsigned s0, unsigned s1, unsigned s2, unsigned chunk)
{
  lsk_snode n = {kind, name, axes, {s0, s1, s2}, chunk, NULL};
  TU_OK(NULL, lsk_sparse_def_add_node(d, &n));
}

/* Node i of a and of b are the same (kind, name, axes, sizes per axis). */
static void same_defs(const lsk_sparse_def *a, const lsk_sparse_def *b)
{
  ck_assert_str_eq(lsk_sparse_def_name(a), lsk_sparse_def_name(b));
  ck_assert_uint_eq(lsk_sparse_def_axes(a), lsk_sparse_def_axes(b));
  ck_assert_uint_eq(lsk_sparse_def_nodes(a), lsk_sparse_def_nodes(b));
  ck_assert_uint_eq(lsk_sparse_def_fields(a), lsk_sparse_def_fields(b));
  for (unsigned i = 0; i < lsk_sparse_def_nodes(a); ++i) {
    lsk_snode x, y;
    TU_OK(NULL, lsk_sparse_def_node(a, i, &x));
    TU_OK(NULL, lsk_sparse_def_node(b, i, &y));
    ck_assert_int_eq(x.kind, y.kind);
    ck_assert_str_eq(x.name, y.name);
    ck_assert_str_eq(x.axes, y.axes);
    for (size_t k = 0; k < strlen(x.axes); ++k)
      ck_assert_uint_eq(x.sizes[k], y.sizes[k]);
    if (x.kind == LSK_SNODE_DYNAMIC)
      ck_assert_uint_eq(x.chunk, y.chunk);
  }
  for (unsigned i = 0; i < lsk_sparse_def_fields(a); ++i) {
    const char *ta, *na, *tb, *nb;
    TU_OK(NULL, lsk_sparse_def_field(a, i, &ta, &na));
    TU_OK(NULL, lsk_sparse_def_field(b, i, &tb, &nb));
    ck_assert_str_eq(ta, tb);
    ck_assert_str_eq(na, nb);
  }
  uint64_t ea[LSK_SPARSE_MAX_AXES], eb[LSK_SPARSE_MAX_AXES];
  TU_OK(NULL, lsk_sparse_def_extent(a, ea));
  TU_OK(NULL, lsk_sparse_def_extent(b, eb));
  for (int k = 0; k < LSK_SPARSE_MAX_AXES; ++k)
    ck_assert_uint_eq(ea[k], eb[k]);
}

/* The example, parsed and built from C: the same definition, extents
 * 4096 x 4096 x 1, comments and blank lines skipped. */
START_TEST(test_sparse_def_parse_equals_c)
{
  lsk_sparse_def *p = parse_ok(example);
  lsk_sparse_def *c = create_ok("grid");
  add_ok(c, LSK_SNODE_POINTER, "block", "ij", 256, 256, 0, 0);
  add_ok(c, LSK_SNODE_DENSE, "cell", "ij", 16, 16, 0, 0);
  TU_OK(NULL, lsk_sparse_def_place(c, "float", "x"));
  TU_OK(NULL, lsk_sparse_def_place(c, "uint", "tag"));
  same_defs(p, c);
  ck_assert_uint_eq(lsk_sparse_def_axes(p), 2);
  ck_assert_uint_eq(lsk_sparse_def_nodes(p), 2);
  ck_assert_uint_eq(lsk_sparse_def_fields(p), 2);
  uint64_t e[LSK_SPARSE_MAX_AXES];
  TU_OK(NULL, lsk_sparse_def_extent(p, e));
  ck_assert_uint_eq(e[0], 4096);
  ck_assert_uint_eq(e[1], 4096);
  ck_assert_uint_eq(e[2], 1);
  lsk_snode n;
  TU_OK(NULL, lsk_sparse_def_node(p, 0, &n));
  ck_assert_int_eq(n.kind, LSK_SNODE_POINTER);
  ck_assert_str_eq(n.name, "block");
  ck_assert_uint_eq(n.sizes[0], 256);
  TU_FAILS(NULL, lsk_sparse_def_node(p, 2, &n), LSK_ERANGE, "2");
  const char *t, *nm;
  TU_FAILS(NULL, lsk_sparse_def_field(p, 2, &t, &nm), LSK_ERANGE, "2");
  lsk_sparse_def_destroy(p);
  lsk_sparse_def_destroy(c);
  lsk_sparse_def_destroy(NULL);
}
END_TEST

/* Every kind, three axes, a dynamic leaf with its chunk, an alignment:
 * extents worked out by hand (i: 4 * 8 = 32; j: 2 * 16 = 32; k: the list's
 * length 100). */
START_TEST(test_sparse_def_all_kinds)
{
  lsk_sparse_def *p = parse_ok("sparse deep align 16\n"
                               "dense top ij 4 2\n"
                               "bitmasked mid i 8\n"
                               "pointer ptr j 16\n"
                               "dynamic list k 100 chunk 8\n"
                               "place int a\n"
                               "place double b\n");
  lsk_sparse_def *c = NULL;
  TU_OK(NULL, lsk_sparse_def_create("deep", 16, &c));
  add_ok(c, LSK_SNODE_DENSE, "top", "ij", 4, 2, 0, 0);
  add_ok(c, LSK_SNODE_BITMASKED, "mid", "i", 8, 0, 0, 0);
  add_ok(c, LSK_SNODE_POINTER, "ptr", "j", 16, 0, 0, 0);
  add_ok(c, LSK_SNODE_DYNAMIC, "list", "k", 100, 0, 0, 8);
  TU_OK(NULL, lsk_sparse_def_place(c, "int", "a"));
  TU_OK(NULL, lsk_sparse_def_place(c, "double", "b"));
  same_defs(p, c);
  uint64_t e[LSK_SPARSE_MAX_AXES];
  TU_OK(NULL, lsk_sparse_def_extent(p, e));
  ck_assert_uint_eq(e[0], 32);
  ck_assert_uint_eq(e[1], 32);
  ck_assert_uint_eq(e[2], 100);
  ck_assert_uint_eq(lsk_sparse_def_axes(p), 3);
  /* A dynamic node's chunk defaults to 32. */
  lsk_sparse_def *d = parse_ok("sparse l\ndense c i 4\ndynamic e j 10\nplace uint v\n");
  lsk_snode n;
  TU_OK(NULL, lsk_sparse_def_node(d, 1, &n));
  ck_assert_uint_eq(n.chunk, 32);
  lsk_sparse_def_destroy(d);
  lsk_sparse_def_destroy(p);
  lsk_sparse_def_destroy(c);
}
END_TEST

/* The largest extent allowed: 2^31 along an axis (2^16 x 2^15). */
START_TEST(test_sparse_def_largest_extent)
{
  lsk_sparse_def *p = parse_ok("sparse big\npointer a i 65536\ndense b i 32768\nplace uchar v\n");
  uint64_t e[LSK_SPARSE_MAX_AXES];
  TU_OK(NULL, lsk_sparse_def_extent(p, e));
  ck_assert_uint_eq(e[0], UINT64_C(1) << 31);
  lsk_sparse_def_destroy(p);
}
END_TEST

/* The description and the generated OpenCL C name the structure, its
 * levels and fields (the names of sparse-spec: grid_x_get, GRID_PARAMS). */
START_TEST(test_sparse_def_describe_emit)
{
  lsk_sparse_def *p = parse_ok(example);
  char *text = NULL;
  TU_OK(NULL, lsk_sparse_def_describe(p, &text));
  ck_assert_ptr_nonnull(strstr(text, "block"));
  ck_assert_ptr_nonnull(strstr(text, "cell"));
  lsk_free(text);
  text = NULL;
  TU_OK(NULL, lsk_sparse_def_emit_cl(p, &text));
  static const char *const names[] = {"GRID_PARAMS",         "GRID_VIEW",
                                      "grid_x_get",          "grid_x_set",
                                      "grid_x_ref",          "grid_x_ptr",
                                      "grid_tag_get",        "grid_block_is_active",
                                      "grid_block_activate", "grid_block_deactivate",
                                      "GRID_FOR_CELL",       "GRID_FOREACH_CELL",
                                      "grid_cell_pos",       "grid_x_block",
                                      "grid_x_cell"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    ck_assert_msg(strstr(text, names[i]) != NULL, "generated OpenCL C lacks %s", names[i]);
  lsk_free(text);
  lsk_sparse_def_destroy(p);
}
END_TEST

/* The struct-for's step at the cells hints both fields of the next block
 * on CPUs (offsets worked by hand: x's 256 floats take bytes 0 to 1023,
 * tag's column starts at 1024); the step at the blocks, whose node holds
 * no field, hints nothing. */
START_TEST(test_sparse_def_emit_ahead)
{
  lsk_sparse_def *p = parse_ok(example);
  char *text = NULL;
  TU_OK(NULL, lsk_sparse_def_emit_cl(p, &text));
  char *cell = tu_function_text(text, "int grid__step1(");
  ck_assert_ptr_nonnull(strstr(cell, "#ifdef LSK__PREFETCH_R"));
  ck_assert_ptr_nonnull(strstr(cell, "b->e + lsk_grid_size()"));
  ck_assert_ptr_nonnull(
      strstr(cell, "lsk__sp_ahead(c + 0 + (ulong)n.first * 4u, (ulong)n.count * 4u)"));
  ck_assert_ptr_nonnull(
      strstr(cell, "lsk__sp_ahead(c + 1024 + (ulong)n.first * 4u, (ulong)n.count * 4u)"));
  char *block = tu_function_text(text, "int grid__step0(");
  ck_assert_ptr_null(strstr(block, "lsk__sp_ahead"));
  ck_assert_ptr_nonnull(strstr(text, "grid__step1((v), &b)"));
  free(cell);
  free(block);
  lsk_free(text);
  lsk_sparse_def_destroy(p);
}
END_TEST

/* A definition from a file; a missing file is LSK_EIO naming it. */
START_TEST(test_sparse_def_load)
{
  char dir[512], path[600];
  tu_tempdir(dir, sizeof dir, "sparse");
  snprintf(path, sizeof path, "%s/grid.sparse", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(example, f);
  fclose(f);
  lsk_sparse_def *a = NULL;
  TU_OK(NULL, lsk_sparse_def_load(path, &a));
  lsk_sparse_def *b = parse_ok(example);
  same_defs(a, b);
  lsk_sparse_def_destroy(a);
  lsk_sparse_def_destroy(b);
  /* An error in a file names the file and the line. */
  f = fopen(path, "w");
  fputs("sparse g\ndense c i 3\n", f);
  fclose(f);
  lsk_sparse_def *bad = (lsk_sparse_def *)&bad;
  char want[700];
  snprintf(want, sizeof want, "%s:2: ", path);
  TU_FAILS(NULL, lsk_sparse_def_load(path, &bad), LSK_EINVAL, want);
  ck_assert_ptr_null(bad);
  ck_assert_int_eq(tu_remove_tree(dir), 0);
  TU_FAILS(NULL, lsk_sparse_def_load("/no/such/dir/grid.sparse", &bad), LSK_EIO,
           "/no/such/dir/grid.sparse");
  ck_assert_ptr_null(bad);
}
END_TEST

/* The text's rules, each refused at its line ("grid.sparse:N: ") with the
 * offending value in the message. */
static const struct {
  const char *text;
  unsigned line;
  const char *want; /* in the message, after the line */
} bad_texts[] = {
    /* sizes: powers of two (the index math uses shifts and masks) */
    {"sparse g\npointer b ij 16 16\ndense c ij 16 12\nplace float x\n", 3,
     "node 'c' has a size of 12 along j, not a power of two"},
    {"sparse g\ndense c i 0\nplace float x\n", 2, "0"},
    {"sparse g\ndense c i 3\nplace float x\n", 2, "power of two"},
    {"sparse g\ndynamic l i 10 chunk 6\nplace float x\n", 2,
     "node 'l' has a chunk of 6, not a power of two"},
    /* a dynamic node's axis: one, and none of its ancestors' */
    {"sparse g\ndense a ij 4 4\ndynamic l j 8\nplace float x\n", 3,
     "node 'l' is dynamic on axis j, which ancestor 'a' divides"},
    {"sparse g\ndense a i 4\ndynamic l ij 8 8\nplace float x\n", 3, "dynamic NAME AXIS LENGTH"},
    {"sparse g\ndynamic l i 0\nplace float x\n", 2, "0"},
    /* nothing but fields after a dynamic node */
    {"sparse g\ndense a i 4\ndynamic l j 8\ndense c k 2\nplace float x\n", 4, "'c'"},
    /* fields: in a dense, bitmasked or dynamic leaf, never a pointer's */
    {"sparse g\npointer b i 16\nplace float x\n", 3, "pointer"},
    /* known scalar types only */
    {"sparse g\ndense c i 4\nplace quat x\n", 3, "'quat'"},
    {"sparse g\ndense c i 4\nplace float4 x\n", 3, "'float4'"},
    /* unique names: nodes, fields, and between them */
    {"sparse g\ndense c i 4\ndense c i 4\nplace float x\n", 3, "'c'"},
    {"sparse g\ndense c i 4\nplace float x\nplace int x\n", 4, "'x'"},
    {"sparse g\ndense c i 4\nplace float c\n", 3, "'c'"},
    /* names are C identifiers */
    {"sparse 9g\ndense c i 4\nplace float x\n", 1, "'9g'"},
    {"sparse g\ndense c-d i 4\nplace float x\n", 2, "'c-d'"},
    {"sparse g\ndense c i 4\nplace float 2x\n", 3, "'2x'"},
    /* at most LSK_SPARSE_MAX_NODES (8) nodes */
    {"sparse g\ndense a i 2\ndense b i 2\ndense c i 2\ndense d i 2\ndense e i 2\n"
     "dense f i 2\ndense h i 2\ndense m i 2\ndense n i 2\nplace float x\n",
     10, "8"},
    /* the extent per axis at most 2^31 */
    {"sparse g\npointer a i 65536\ndense b i 65536\nplace float x\n", 3, "2^31"},
    {"sparse g\npointer a j 2\npointer b ij 65536 2\ndense c i 65536\nplace float x\n", 4,
     "node 'c' makes the extent along i 4294967296, past 2^31"},
    /* axes: letters of ijk, in increasing order, each once, one size each */
    {"sparse g\ndense a ji 4 4\nplace float x\n", 2, "node 'a' has bad axes 'ji'"},
    {"sparse g\ndense a ii 4 4\nplace float x\n", 2, "node 'a' has bad axes 'ii'"},
    {"sparse g\ndense a ix 4 4\nplace float x\n", 2, "node 'a' has bad axes 'ix'"},
    {"sparse g\ndense a ij 4\nplace float x\n", 2, "one size per letter of AXES"},
    {"sparse g\ndense a i 4 4\nplace float x\n", 2, "i"},
    /* a node after a field */
    {"sparse g\ndense a i 4\nplace float x\ndense b i 2\n", 4, "'b'"},
    /* the statements */
    {"sparse g\ncolumn float x\n", 2, "'column'"},
    {"sparse g\nsparse h\n", 2, "sparse"},
    {"dense a i 4\nsparse g\n", 1, "sparse"},
    {"sparse g\ndense a i 4\nplace float x y\n", 3, "place"},
    {"sparse g\ndense a i 4x\nplace float x\n", 2, "'4x'"},
    {"sparse g\ndense a i -4\nplace float x\n", 2, "'-4'"},
    {"sparse g\ndense a i 99999999999999999999\nplace float x\n", 2, "99999999999999999999"},
    {"sparse g align 12\ndense a i 4\nplace float x\n", 1, "12"},
    {"sparse g align 256\ndense a i 4\nplace float x\n", 1, "256"},
    {"sparse g\ndynamic l i 10 chunk\nplace float x\n", 2, "chunk"},
};

START_TEST(test_sparse_def_bad_texts)
{
  for (size_t i = 0; i < sizeof bad_texts / sizeof bad_texts[0]; ++i) {
    lsk_sparse_def *d = (lsk_sparse_def *)&d;
    int rc = lsk_sparse_def_parse(bad_texts[i].text, "grid.sparse", &d);
    const char *msg = lsk_context_errmsg(NULL);
    char at[64];
    snprintf(at, sizeof at, "grid.sparse:%u: ", bad_texts[i].line);
    ck_assert_msg(rc == LSK_EINVAL, "case %zu: %s (%s)", i, lsk_status_name(rc), msg);
    ck_assert_msg(d == NULL, "case %zu: *out not NULL on failure", i);
    ck_assert_msg(strncmp(msg, at, strlen(at)) == 0, "case %zu: '%s' does not start with '%s'", i,
                  msg, at);
    ck_assert_msg(strstr(msg + strlen(at), bad_texts[i].want) != NULL, "case %zu: '%s' lacks '%s'",
                  i, msg, bad_texts[i].want);
  }
  /* Every axis of the index space divided by some node: k without j is
   * refused when the text ends (the file, no line). */
  lsk_sparse_def *gap = (lsk_sparse_def *)&gap;
  TU_FAILS(NULL,
           lsk_sparse_def_parse("sparse g\ndense a ik 4 4\nplace float x\n", "grid.sparse", &gap),
           LSK_EINVAL, "grid.sparse: sparse 'g': no node divides axis j");
  ck_assert_ptr_null(gap);
  /* No statement at all: the file, no line. */
  lsk_sparse_def *d = (lsk_sparse_def *)&d;
  TU_FAILS(NULL, lsk_sparse_def_parse("# nothing\n\n", "grid.sparse", &d), LSK_EINVAL,
           "grid.sparse");
  ck_assert_ptr_null(d);
}
END_TEST

/* The C API's rules: each refused with the node (or field) named. */
START_TEST(test_sparse_def_bad_nodes)
{
  lsk_sparse_def *d = create_ok("g");
  lsk_snode n = {LSK_SNODE_DENSE, "a", "ij", {4, 6, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "'a'");
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL,
           "has a size of 6 along j, not a power of two");
  n = (lsk_snode){LSK_SNODE_DENSE, "a", "ji", {4, 4, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "node 'a' has bad axes 'ji'");
  n = (lsk_snode){LSK_SNODE_DENSE, "a", "", {4, 4, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "node 'a' has bad axes");
  n = (lsk_snode){LSK_SNODE_DENSE, "a", NULL, {4, 4, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "node 'a' has bad axes");
  n = (lsk_snode){LSK_SNODE_DENSE, "not a name", "i", {4, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "'not a name'");
  n = (lsk_snode){(lsk_snode_kind)9, "a", "i", {4, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "node 'a' has an unknown kind 9");
  add_ok(d, LSK_SNODE_POINTER, "a", "ij", 4, 4, 0, 0);
  /* duplicate node name */
  n = (lsk_snode){LSK_SNODE_DENSE, "a", "i", {4, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "node name 'a' is taken");
  /* a field under a pointer leaf */
  TU_FAILS(NULL, lsk_sparse_def_place(d, "float", "x"), LSK_EINVAL, "pointer");
  /* the dynamic node's axis: not an ancestor's, and only one */
  n = (lsk_snode){LSK_SNODE_DYNAMIC, "l", "j", {8, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL,
           "node 'l' is dynamic on axis j, which ancestor 'a' divides");
  n = (lsk_snode){LSK_SNODE_DYNAMIC, "l", "jk", {8, 8, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL,
           "node 'l' is dynamic over 2 axes ('jk')");
  n = (lsk_snode){LSK_SNODE_DYNAMIC, "l", "k", {8, 0, 0}, 3, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "chunk of 3, not a power of two");
  add_ok(d, LSK_SNODE_DYNAMIC, "l", "k", 1000, 0, 0, 16);
  /* nothing but fields after it */
  n = (lsk_snode){LSK_SNODE_DENSE, "c", "i", {2, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL,
           "node 'c' goes under dynamic node 'l'");
  /* fields: known types, unique names (a node's too) */
  TU_FAILS(NULL, lsk_sparse_def_place(d, "quat", "x"), LSK_EINVAL, "'quat'");
  TU_FAILS(NULL, lsk_sparse_def_place(d, NULL, "x"), LSK_EINVAL, "type '(null)'");
  TU_FAILS(NULL, lsk_sparse_def_place(d, "float", "l"), LSK_EINVAL, "field name 'l' is taken");
  TU_FAILS(NULL, lsk_sparse_def_place(d, "float", NULL), LSK_EINVAL, "name '(null)'");
  TU_OK(NULL, lsk_sparse_def_place(d, "float", "x"));
  TU_FAILS(NULL, lsk_sparse_def_place(d, "int", "x"), LSK_EINVAL, "field name 'x' is taken");
  ck_assert_uint_eq(lsk_sparse_def_nodes(d), 2);
  ck_assert_uint_eq(lsk_sparse_def_fields(d), 1);
  lsk_sparse_def_destroy(d);

  /* too many nodes: the ninth */
  d = create_ok("g");
  static const char *const names[] = {"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"};
  for (int i = 0; i < LSK_SPARSE_MAX_NODES; ++i)
    add_ok(d, LSK_SNODE_DENSE, names[i], "i", 2, 0, 0, 0);
  n = (lsk_snode){LSK_SNODE_DENSE, "n8", "i", {2, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL, "node 'n8' is one too many");
  lsk_sparse_def_destroy(d);

  /* the extent past 2^31 */
  d = create_ok("g");
  add_ok(d, LSK_SNODE_POINTER, "a", "i", 1u << 16, 0, 0, 0);
  n = (lsk_snode){LSK_SNODE_DENSE, "b", "i", {1u << 16, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL,
           "node 'b' makes the extent along i 4294967296, past 2^31");
  add_ok(d, LSK_SNODE_DENSE, "b", "i", 1u << 15, 0, 0, 0);
  /* a node after a field */
  TU_OK(NULL, lsk_sparse_def_place(d, "float", "x"));
  n = (lsk_snode){LSK_SNODE_DENSE, "c", "i", {2, 0, 0}, 0, NULL};
  TU_FAILS(NULL, lsk_sparse_def_add_node(d, &n), LSK_EINVAL,
           "node 'c' goes under a node with fields ('b')");
  lsk_sparse_def_destroy(d);

  /* the definition's own name and alignment */
  lsk_sparse_def *bad = (lsk_sparse_def *)&bad;
  TU_FAILS(NULL, lsk_sparse_def_create("2g", 0, &bad), LSK_EINVAL, "'2g'");
  ck_assert_ptr_null(bad);
  TU_FAILS(NULL, lsk_sparse_def_create("g", 24, &bad), LSK_EINVAL, "align 24");
  TU_FAILS(NULL, lsk_sparse_def_create("g", 2, &bad), LSK_EINVAL, "align 2");
  TU_FAILS(NULL, lsk_sparse_def_create("g", 256, &bad), LSK_EINVAL, "align 256");
}
END_TEST

Suite *suite_sparse_def(void)
{
  Suite *s = suite_create("sparse_def");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_sparse_def_parse_equals_c);
  tcase_add_test(tc, test_sparse_def_all_kinds);
  tcase_add_test(tc, test_sparse_def_largest_extent);
  tcase_add_test(tc, test_sparse_def_describe_emit);
  tcase_add_test(tc, test_sparse_def_emit_ahead);
  tcase_add_test(tc, test_sparse_def_load);
  tcase_add_test(tc, test_sparse_def_bad_texts);
  tcase_add_test(tc, test_sparse_def_bad_nodes);
  suite_add_tcase(s, tc);
  return s;
}
