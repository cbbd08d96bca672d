/*
 * check_sparse_tree.c: sparse structures whose nodes form a tree
 * (docs/sparse.md, "Trees"): a pointer node with two children, a dense
 * field and a dense node of particle lists, as a particle-in-cell code
 * keeps them. Against a plain C model written here (a dense array for the
 * field, per cell the sum and count of the appended ids, the set of
 * blocks): what a kernel set and appended, the struct-for over each
 * branch, the dense read-back of each field, counts per node, and the GC's
 * cascade, which must give back the lists' chunks of every recycled block
 * (both pools empty after deactivate_all). Also the rules only a tree can
 * break.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define N 128   /* extent along i and j */
#define B 8     /* cells per block side */
#define LEN 512 /* a list's largest length */

static const char tree_text[] = "sparse t\n"
                                "pointer block ij 16 16\n"
                                "dense cell ij 8 8\n"
                                "place float x\n"
                                "dense pc ij 8 8 under block\n"
                                "dynamic parts k 512 chunk 8\n"
                                "place uint id\n";

/* Point g's cell for the field (g < nx) and for the lists (every g): a
 * different cell for every g below 16384 (one writer per cell: the field
 * has no last writer to agree on); the lists' points are whole blocks'
 * corners, so that many ids go to one list and the lists span several
 * chunks. */
static const char src[] =
    "LSK_KERNEL void fill(LSK_CTX, T_PARAMS, uint n, uint nx, uint salt) {\n"
    "  T_VIEW(s);\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (g < n) {\n"
    "        uint i = ((g & 127u) * 37u + salt) & 127u, j = ((g >> 7) * 91u + 7u + i) & 127u;\n"
    "        if (g < nx) t_x_set(s, i, j, (float)(g + 1u));\n"
    "        t_parts_append(s, i & ~7u, j & ~7u, g);\n"
    "      }\n"
    "    }\n"
    "    lsk_sync();\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void visit_x(LSK_CTX, T_PARAMS, __global float *out) {\n"
    "  T_VIEW(s);\n"
    "  T_FOR_CELL(s, b) {\n"
    "    __global float *x = t_x_block(s, b);\n"
    "    T_FOREACH_CELL(it, s, b) {\n"
    "      uint3 p = t_cell_pos(b, it);\n"
    "      out[p.x + 128u * p.y] += x[it.idx] + 1.0f;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void visit_parts(LSK_CTX, T_PARAMS, __global uint *sum, __global uint *cnt) {\n"
    "  T_VIEW(s);\n"
    "  T_FOR_PARTS(s, b) {\n"
    "    __global uint *id = t_id_block(s, b);\n"
    "    T_FOREACH_PARTS(it, s, b) {\n"
    "      uint3 p = t_parts_pos(b, it);\n"
    "      atomic_add(sum + p.x + 128u * p.y, id[it.idx] + 1u);\n"
    "      atomic_inc(cnt + p.x + 128u * p.y);\n"
    "    }\n"
    "  }\n"
    "}\n";

typedef struct model {
  float x[N * N];
  uint32_t sum[N * N], cnt[N * N];
  int block[(N / B) * (N / B)];
  uint64_t blocks;
} model;

static void model_fill(model *m, unsigned n, unsigned nx, unsigned salt)
{
  memset(m, 0, sizeof *m);
  for (unsigned g = 0; g < n; ++g) {
    unsigned i = ((g & 127u) * 37u + salt) & 127u, j = ((g >> 7) * 91u + 7u + i) & 127u;
    if (g < nx) {
      m->x[i + N * j] = (float)(g + 1u);
      m->block[i / B + (N / B) * (j / B)] = 1;
    }
    unsigned ci = i & ~7u, cj = j & ~7u;
    m->sum[ci + N * cj] += g + 1u;
    m->cnt[ci + N * cj]++;
    m->block[ci / B + (N / B) * (cj / B)] = 1;
  }
  for (unsigned b = 0; b < (N / B) * (N / B); ++b)
    m->blocks += (uint64_t)m->block[b];
}

typedef struct tree {
  lsk_context *ctx;
  lsk_sparse_def *def;
  lsk_sparse *sp;
  lsk_program *prog;
  lsk_kernel *fill, *vx, *vp;
} tree;

static void tree_open(tree *t)
{
  t->ctx = tu_context();
  TU_OK(NULL, lsk_sparse_def_parse(tree_text, "tree.sparse", &t->def));
  TU_OK(t->ctx, lsk_sparse_create(t->ctx, t->def, &(lsk_sparse_options){.fraction = 1.0}, &t->sp));
  lsk_program_options po = {.name = "check_sparse_tree", .prelude = lsk_sparse_source(t->sp)};
  TU_OK(t->ctx, lsk_program_create(t->ctx, src, &po, &t->prog));
  t->fill = tu_kernel(t->prog, "fill");
  t->vx = tu_kernel(t->prog, "visit_x");
  t->vp = tu_kernel(t->prog, "visit_parts");
}

static void tree_close(tree *t)
{
  lsk_kernel_destroy(t->fill);
  lsk_kernel_destroy(t->vx);
  lsk_kernel_destroy(t->vp);
  lsk_program_destroy(t->prog);
  lsk_sparse_destroy(t->sp);
  lsk_sparse_def_destroy(t->def);
  lsk_context_destroy(t->ctx);
}

static void run_fill(tree *t, unsigned n, unsigned nx, unsigned salt)
{
  lsk_arg a;
  TU_OK(t->ctx, lsk_sparse_use(t->sp, &a, NULL));
  lsk_launch l = {.domain = {64}, .blocks = {8}};
  TU_OK(t->ctx,
        lsk_kernel_run(t->fill, &l,
                       LSK_ARGS(a, LSK_ARG_UINT(n), LSK_ARG_UINT(nx), LSK_ARG_UINT(salt)), NULL));
  TU_OK(t->ctx, lsk_sparse_check(t->sp, NULL));
}

/* The counts, both struct-fors and both read-backs against the model. */
static void check_state(tree *t, const model *m, unsigned n, const char *what)
{
  uint64_t cells, parts, blocks;
  TU_OK(t->ctx, lsk_sparse_count(t->sp, "cell", &cells, NULL));
  TU_OK(t->ctx, lsk_sparse_count(t->sp, "parts", &parts, NULL));
  TU_OK(t->ctx, lsk_sparse_count(t->sp, "block", &blocks, NULL));
  ck_assert_msg(blocks == m->blocks, "%s: %llu blocks, model %llu", what,
                (unsigned long long)blocks, (unsigned long long)m->blocks);
  ck_assert_msg(cells == m->blocks * B * B, "%s: %llu cells", what, (unsigned long long)cells);
  ck_assert_msg(parts == n, "%s: %llu elements, appended %u", what, (unsigned long long)parts, n);

  lsk_buffer *ox = tu_zeros(t->ctx, N * N), *os = tu_zeros(t->ctx, N * N),
             *oc = tu_zeros(t->ctx, N * N);
  TU_OK(t->ctx, lsk_sparse_for(t->sp, t->vx, &(lsk_sparse_for_options){.level = "cell"},
                               LSK_ARGS(LSK_ARG_BUFFER(ox)), NULL));
  TU_OK(t->ctx, lsk_sparse_for(t->sp, t->vp, &(lsk_sparse_for_options){.level = "parts"},
                               LSK_ARGS(LSK_ARG_BUFFER(os), LSK_ARG_BUFFER(oc)), NULL));
  unsigned *rx = tu_read_uints(t->ctx, ox, N * N), *rs = tu_read_uints(t->ctx, os, N * N),
           *rc = tu_read_uints(t->ctx, oc, N * N);
  static float dx[N * N];
  TU_OK(t->ctx, lsk_sparse_read(t->sp, "x", dx, sizeof dx, NULL));
  uint32_t *did = malloc((size_t)N * N * LEN * 4);
  ck_assert_ptr_nonnull(did);
  TU_OK(t->ctx, lsk_sparse_read(t->sp, "id", did, (size_t)N * N * LEN * 4, NULL));
  for (unsigned q = 0; q < N * N; ++q) {
    unsigned i = q % N, j = q / N;
    /* Every cell of an active block once: its value + 1; others 0. */
    float want = m->block[i / B + (N / B) * (j / B)] ? m->x[q] + 1.0f : 0.0f, got;
    memcpy(&got, &rx[q], 4);
    ck_assert_msg(got == want, "%s: struct-for over cell at (%u, %u): %g, model %g", what, i, j,
                  got, want);
    ck_assert_msg(dx[q] == m->x[q], "%s: x(%u, %u) read %g, model %g", what, i, j, dx[q], m->x[q]);
    ck_assert_msg(rs[q] == m->sum[q] && rc[q] == m->cnt[q],
                  "%s: list (%u, %u): struct-for sum %u count %u, model %u %u", what, i, j, rs[q],
                  rc[q], m->sum[q], m->cnt[q]);
    /* The dense array of id: element k of the list at (i, j) at
     * i + N * (j + N * k); k below the length, the rest zero. */
    uint32_t s = 0, c = 0;
    for (unsigned k = 0; k < LEN; ++k) {
      uint32_t v = did[q + (size_t)N * N * k];
      ck_assert_msg(k < m->cnt[q] || v == 0, "%s: id(%u, %u, %u) = %u past the length %u", what, i,
                    j, k, v, m->cnt[q]);
      s += k < m->cnt[q] ? v + 1u : 0u;
      c += k < m->cnt[q];
    }
    ck_assert_msg(s == m->sum[q] && c == m->cnt[q], "%s: read list (%u, %u): sum %u, model %u",
                  what, i, j, s, m->sum[q]);
  }
  free(did);
  free(rx);
  free(rs);
  free(rc);
  lsk_buffer_destroy(ox);
  lsk_buffer_destroy(os);
  lsk_buffer_destroy(oc);
}

START_TEST(test_sparse_tree_two_branches)
{
  tree t;
  tree_open(&t);
  static model m;
  /* Rounds on one structure: all deactivated between them, so that the
   * second round takes recycled blocks and chunks (zero-filled, or the
   * field and lists would show the first round's). */
  for (unsigned round = 0; round < 3; ++round) {
    unsigned n = 1500 + 400 * round, nx = 300 + 100 * round, salt = 11u * round;
    char what[32];
    snprintf(what, sizeof what, "round %u", round);
    run_fill(&t, n, nx, salt);
    model_fill(&m, n, nx, salt);
    check_state(&t, &m, n, what);
    lsk_sparse_level_stats st[4];
    TU_OK(t.ctx, lsk_sparse_deactivate_all(t.sp, NULL));
    TU_OK(t.ctx, lsk_sparse_stats_get(t.sp, st, 4, NULL));
    /* The GC's cascade: the recycled blocks gave back their lists' chunks. */
    ck_assert_msg(st[0].pool_live == 0 && st[3].pool_live == 0,
                  "%s: after deactivate_all %zu blocks and %zu chunks still in use", what,
                  st[0].pool_live, st[3].pool_live);
    ck_assert_msg(st[1].active == 0 && st[3].active == 0, "%s: %llu cells, %llu elements active",
                  what, (unsigned long long)st[1].active, (unsigned long long)st[3].active);
  }
  tree_close(&t);
}
END_TEST

/* Deactivating one branch's lists leaves the other branch's field. */
START_TEST(test_sparse_tree_one_branch)
{
  tree t;
  tree_open(&t);
  static model m;
  run_fill(&t, 1200, 400, 5);
  model_fill(&m, 1200, 400, 5);
  TU_OK(t.ctx, lsk_sparse_deactivate(t.sp, "parts", NULL));
  memset(m.sum, 0, sizeof m.sum);
  memset(m.cnt, 0, sizeof m.cnt);
  check_state(&t, &m, 0, "lists emptied");
  lsk_sparse_level_stats st[4];
  TU_OK(t.ctx, lsk_sparse_stats_get(t.sp, st, 4, NULL));
  ck_assert_msg(st[3].pool_live == 0, "%zu chunks in use after the lists were emptied",
                st[3].pool_live);
  ck_assert_uint_eq(st[0].pool_live, (size_t)m.blocks);
  tree_close(&t);
}
END_TEST

static void refused(const char *text, const char *why)
{
  lsk_sparse_def *d = NULL;
  TU_FAILS(NULL, lsk_sparse_def_parse(text, "t.sparse", &d), LSK_EINVAL, why);
  ck_assert_ptr_null(d);
}

/* What only a tree can get wrong, each refused naming the rule. */
START_TEST(test_sparse_tree_rules)
{
  /* Leaves at different extents along i. */
  refused("sparse t\npointer b i 16\ndense c i 8\nplace float x\ndense d i 4 under b\n"
          "place float y\n",
          "every leaf of a tree divides each axis to the same extent");
  /* Axis j a list's on one branch, divided on the other. */
  refused("sparse t\npointer b i 16\ndense c ij 8 4\nplace float x\ndense d i 8 under b\n"
          "dynamic l j 64\nplace uint y\n",
          "an axis is one or the other");
  /* A node under a leaf. */
  refused("sparse t\ndense b i 16\nplace float x\ndense c i 4 under b\nplace float y\n",
          "goes under a node with fields");
  /* A parent that does not exist. */
  refused("sparse t\ndense b i 16\ndense c i 4 under nowhere\nplace float y\n",
          "goes under 'nowhere'");
  /* A node left without fields or nodes under it. */
  refused("sparse t\npointer b i 16\ndense c i 8\nplace float x\ndense d i 8 under b\n",
          "has neither nodes nor fields");
  /* A field in a node with nodes under it (C: placed after the child). */
  lsk_sparse_def *d = NULL;
  TU_OK(NULL, lsk_sparse_def_create("t", 0, &d));
  TU_OK(NULL, lsk_sparse_def_add_node(d, &(lsk_snode){LSK_SNODE_POINTER, "b", "i", {16}, 0, NULL}));
  TU_OK(NULL, lsk_sparse_def_add_node(d, &(lsk_snode){LSK_SNODE_DENSE, "c", "i", {8}, 0, NULL}));
  TU_OK(NULL, lsk_sparse_def_place(d, "float", "x"));
  TU_OK(NULL,
        lsk_sparse_def_add_node(d, &(lsk_snode){LSK_SNODE_DENSE, "e", "i", {8}, .parent = "b"}));
  lsk_snode got;
  TU_OK(NULL, lsk_sparse_def_node(d, 2, &got));
  ck_assert_str_eq(got.parent, "b");
  TU_OK(NULL, lsk_sparse_def_node(d, 0, &got));
  ck_assert_ptr_null(got.parent);
  TU_OK(NULL, lsk_sparse_def_place(d, "uint", "y"));
  TU_FAILS(NULL,
           lsk_sparse_def_add_node(d, &(lsk_snode){LSK_SNODE_DENSE, "f", "i", {1}, .parent = "e"}),
           LSK_EINVAL, "goes under a node with fields");
  lsk_sparse_def_destroy(d);
}
END_TEST

Suite *suite_sparse_tree(void)
{
  Suite *s = suite_create("sparse_tree");
  TCase *tc = tcase_create("tree");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_sparse_tree_two_branches);
  tcase_add_test(tc, test_sparse_tree_one_branch);
  tcase_add_test(tc, test_sparse_tree_rules);
  suite_add_tcase(s, tc);
  return s;
}
