/*
 * check_sparse_for.c: the struct-for (lsk_sparse_for) and dynamic nodes
 * against the plain-C model (sparse_model.h): every active cell of the
 * level visited exactly once, at its own position, at several shapes (one
 * worker included; under LSK_SHAPES=nvidia as the ctest label gpushape
 * runs it); appends from many groups to one list and to many, counted and
 * stored exactly across chunk boundaries; a chunk pool that runs out, the
 * error, grow, rerun.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sparse_fixture.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NODE(kind, name, axes, ...)                                                                \
  {                                                                                                \
    LSK_SNODE_##kind, name, axes, {__VA_ARGS__}, 0, NULL                                           \
  }

static const lsk_snode for_1d[] = {NODE(POINTER, "blk", "i", 32), NODE(DENSE, "cell", "i", 16)};
static const lsk_snode for_2d[] = {
    NODE(DENSE, "top", "ij", 2, 2), NODE(BITMASKED, "mask", "ij", 4, 4),
    NODE(POINTER, "ptr", "ij", 2, 2), NODE(BITMASKED, "cell", "ij", 4, 8)};
static const lsk_snode for_3d[] = {NODE(POINTER, "blk", "ijk", 4, 4, 4),
                                   NODE(DENSE, "cell", "ijk", 4, 4, 2)};
static const struct {
  const char *name;
  const lsk_snode *nodes;
  unsigned n;
} for_shapes[] = {{"1d", for_1d, N(for_1d)}, {"2d", for_2d, N(for_2d)}, {"3d", for_3d, N(for_3d)}};

/* The shapes of the launches: automatic, one worker, odd workers with
 * simd, many workers. */
static const lsk_sparse_for_options for_opts[] = {
    {0}, {.workers = 1, .simd = 1}, {.workers = 3, .simd = 2}, {.workers = 32, .simd = 1}};

/* One struct-for over level lv with options o, checked: each active cell
 * of the level hit once at its origin and nowhere else, the visits'
 * count, and at the leaf each active cell's field one more (the model
 * follows). */
static void struct_for_checked(spfx *f, lsk_kernel *k, unsigned lv, const lsk_sparse_for_options *o,
                               const char *what)
{
  sparse_model *m = &f->m;
  lsk_buffer *hits = tu_zeros(f->ctx, m->total), *visits = tu_zeros(f->ctx, 1);
  lsk_snode node;
  TU_OK(NULL, lsk_sparse_def_node(f->def, lv, &node));
  lsk_sparse_for_options opt = *o;
  opt.level = node.name;
  lsk_arg args[] = {LSK_ARG_BUFFER(hits), LSK_ARG_UINT((unsigned)m->ext[0]),
                    LSK_ARG_UINT((unsigned)m->ext[1]), LSK_ARG_BUFFER(visits)};
  TU_OK(f->ctx, lsk_sparse_for(f->sp, k, &opt, args, N(args), NULL));
  unsigned *h = tu_read_uints(f->ctx, hits, m->total), *v = tu_read_uints(f->ctx, visits, 1);
  uint64_t want = sm_count(m, (int)lv);
  ck_assert_msg(v[0] == want, "%s: %u visits, model %llu active cells", what, v[0],
                (unsigned long long)want);
  uint32_t c[3], org[3];
  int leaf = lv == m->nodes - 1;
  for (uint64_t i = 0; i < m->total; ++i) {
    sm_unflat(m, i, c);
    sm_origin(m, (int)lv, c, org);
    int origin = leaf || (org[0] == c[0] && org[1] == c[1] && org[2] == c[2]);
    unsigned expect = origin && sm_active(m, (int)lv, c);
    ck_assert_msg(h[i] == expect, "%s: (%u, %u, %u) visited %u times, model %u", what, c[0], c[1],
                  c[2], h[i], expect);
    if (leaf && expect)
      m->val[i] += 1;
  }
  free(h);
  free(v);
  lsk_buffer_destroy(hits);
  lsk_buffer_destroy(visits);
}

/* Random cells written on a shape; the struct-for over every level at
 * every shape of for_opts; then half the active cells deactivated and
 * again. The field is read whole after each leaf pass. */
START_TEST(test_sparse_for_every_cell_once)
{
  spfx f;
  spfx_open(&f, for_shapes[_i].nodes, for_shapes[_i].n, &(lsk_sparse_options){.fraction = 1.0});
  uint64_t rng = 4242u + (unsigned)_i;
  enum { K = 400 };
  uint32_t pts[3 * K], vals[K];
  int ok[K];
  char what[160];
  for (unsigned round = 0; round < 2; ++round) {
    for (unsigned i = 0; i < K; ++i) {
      spfx_point(&f, &rng, pts + 3 * i);
      vals[i] = 100 * (round + 1);
    }
    /* Repeated points write the same value. */
    spfx_set(&f, pts, vals, K, ok);
    for (unsigned i = 0; i < K; ++i) {
      ck_assert_msg(ok[i], "%s round %u: write %u refused", for_shapes[_i].name, round, i);
      sm_set(&f.m, pts + 3 * i, vals[i]);
    }
    for (unsigned lv = 0; lv < f.m.nodes; ++lv) {
      lsk_program *p = spfx_program(&f, (int)lv);
      lsk_kernel *k = tu_kernel(p, "sp_for");
      for (size_t o = 0; o < N(for_opts); ++o) {
        snprintf(what, sizeof what, "%s round %u level %u, %u x %u", for_shapes[_i].name, round, lv,
                 for_opts[o].workers, for_opts[o].simd);
        struct_for_checked(&f, k, lv, &for_opts[o], what);
        if (lv == f.m.nodes - 1)
          spfx_check(&f, what);
      }
      lsk_kernel_destroy(k);
      lsk_program_destroy(p);
    }
    /* Half of the leaf's written cells deactivated at the level above. */
    unsigned lv = f.m.nodes >= 2 ? f.m.nodes - 2 : 0;
    if (f.m.node[lv].kind == LSK_SNODE_DENSE)
      lv = 0;
    unsigned d = 0;
    for (unsigned i = 0; i < K; i += 2) {
      if (sm_active(&f.m, (int)lv, pts + 3 * i)) {
        spfx_level(&f, lv, SP_DEACTIVATE, pts + 3 * i, 1, ok);
        sm_deactivate(&f.m, (int)lv, pts + 3 * i);
        if (++d == 8)
          break;
      }
    }
    spfx_check(&f, "deactivated between struct-fors");
  }
  spfx_close(&f);
}
END_TEST

/* No active cell: the struct-for visits nothing (and launches fine). */
START_TEST(test_sparse_for_empty)
{
  spfx f;
  spfx_open(&f, for_1d, N(for_1d), NULL);
  lsk_program *p = spfx_program(&f, 1);
  lsk_kernel *k = tu_kernel(p, "sp_for");
  struct_for_checked(&f, k, 1, &for_opts[0], "empty");
  /* One cell in the last block only (the struct-for must reach it). */
  uint32_t pt[3] = {(uint32_t)f.m.ext[0] - 1, 0, 0}, v = 9;
  int ok;
  spfx_set(&f, pt, &v, 1, &ok);
  sm_set(&f.m, pt, v);
  for (size_t o = 0; o < N(for_opts); ++o)
    struct_for_checked(&f, k, 1, &for_opts[o], "last block");
  spfx_check(&f, "last block");
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  spfx_close(&f);
}
END_TEST

/* A dynamic leaf: 4 lists of at most 1000 elements in chunks of 8. */
static const lsk_snode list_nodes[] = {NODE(DENSE, "row", "i", 4),
                                       {LSK_SNODE_DYNAMIC, "list", "j", {1000}, 8, NULL}};

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Appends from 7 groups: 700 to list 0, the others spread over lists 1 to
 * 3, every value unique. Per list, the indices returned are exactly 0 ..
 * length - 1, the lengths are the counts, and the element at each index
 * holds the value appended there (so the multiset of values is right).
 * Then list 2 emptied and appended to again (recycled chunks read zero
 * past the new length). */
START_TEST(test_sparse_dynamic_appends)
{
  spfx f;
  /* every chunk (4 lists x 125) */
  spfx_open(&f, list_nodes, N(list_nodes), &(lsk_sparse_options){.blocks = {0, 500}});
  enum { K = 1500 };
  uint32_t *pts = calloc(3 * K, 4), vals[K], idx[K], want_len[4] = {0};
  uint64_t rng = 99;
  for (unsigned i = 0; i < K; ++i) {
    pts[3 * i] = i < 700 ? 0 : 1 + tu_rng(&rng) % 3;
    vals[i] = 10 * i + 7;
    ++want_len[pts[3 * i]];
  }
  spfx_append(&f, pts, vals, K, idx);
  uint32_t *got = spfx_read(&f);
  for (unsigned l = 0; l < 4; ++l) {
    uint32_t *seen = calloc(K, 4), ns = 0;
    for (unsigned i = 0; i < K; ++i) {
      if (pts[3 * i] != l)
        continue;
      ck_assert_msg(idx[i] != LSK_SPARSE_NONE, "list %u: append %u refused", l, i);
      seen[ns++] = idx[i];
      uint32_t at[3] = {l, idx[i], 0};
      ck_assert_msg(got[sm_flat(&f.m, at)] == vals[i], "list %u element %u: %u, appended %u", l,
                    idx[i], got[sm_flat(&f.m, at)], vals[i]);
      f.m.val[sm_flat(&f.m, at)] = vals[i];
    }
    qsort(seen, ns, 4, cmp_u32);
    for (uint32_t j = 0; j < ns; ++j)
      ck_assert_msg(seen[j] == j, "list %u: indices not 0..%u (sorted [%u] = %u)", l, ns - 1, j,
                    seen[j]);
    f.m.len[l] = ns;
    ck_assert_uint_eq(ns, want_len[l]);
    free(seen);
  }
  free(got);
  uint32_t lp[3 * 4] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0}, len[4];
  spfx_length(&f, lp, 4, len);
  for (unsigned l = 0; l < 4; ++l)
    ck_assert_uint_eq(len[l], want_len[l]);
  spfx_check(&f, "appended");
  /* The struct-for over the list elements: each once. */
  lsk_program *p = spfx_program(&f, 1);
  lsk_kernel *k = tu_kernel(p, "sp_for");
  for (size_t o = 0; o < N(for_opts); ++o)
    struct_for_checked(&f, k, 1, &for_opts[o], "list elements");
  spfx_check(&f, "after the struct-fors");
  /* List 2 emptied, then 5 appends: a length of 5, zeros past it. */
  spfx_level(&f, 1, SP_DEACTIVATE, lp + 6, 1, NULL);
  sm_deactivate(&f.m, 1, lp + 6);
  spfx_check(&f, "list 2 emptied");
  uint32_t five[3 * 5], fv[5] = {1, 2, 3, 4, 5}, fi[5];
  for (unsigned i = 0; i < 5; ++i)
    five[3 * i] = 2, five[3 * i + 1] = 0, five[3 * i + 2] = 0;
  spfx_append(&f, five, fv, 5, fi);
  got = spfx_read(&f);
  for (unsigned i = 0; i < 5; ++i) {
    uint32_t at[3] = {2, fi[i], 0};
    ck_assert_uint_lt(fi[i], 5);
    ck_assert_uint_eq(got[sm_flat(&f.m, at)], fv[i]);
    f.m.val[sm_flat(&f.m, at)] = fv[i];
  }
  f.m.len[2] = 5;
  free(got);
  spfx_check(&f, "list 2 again");
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  free(pts);
  spfx_close(&f);
}
END_TEST

/* A list's length is its limit: 1200 appends to a list of 1000 give 1000
 * elements and 200 LSK_SPARSE_NONE, which lsk_sparse_check reports once
 * (LSK_ERANGE) naming the node. */
START_TEST(test_sparse_dynamic_past_length)
{
  spfx f;
  spfx_open(&f, list_nodes, N(list_nodes), &(lsk_sparse_options){.blocks = {0, 500}});
  enum { K = 1200 };
  uint32_t *pts = calloc(3 * K, 4), vals[K], idx[K];
  for (unsigned i = 0; i < K; ++i)
    pts[3 * i] = 3, vals[i] = i + 1;
  spfx_append(&f, pts, vals, K, idx);
  unsigned none = 0;
  for (unsigned i = 0; i < K; ++i)
    none += idx[i] == LSK_SPARSE_NONE;
  ck_assert_uint_eq(none, 200);
  TU_FAILS(f.ctx, lsk_sparse_check(f.sp, NULL), LSK_ERANGE,
           "sparse 'sp': node 'list' (dynamic): 200 appends past its length 1000");
  TU_OK(f.ctx, lsk_sparse_check(f.sp, NULL));
  uint32_t len;
  spfx_length(&f, pts, 1, &len);
  ck_assert_uint_eq(len, 1000);
  free(pts);
  spfx_close(&f);
}
END_TEST

/* A chunk pool of 8 chunks (64 elements): 400 appends over two lists run
 * out. What docs/sparse.md promises: the stored values are where their
 * indices say, a refused append keeps its index (the length counts it, it
 * reads 0); the check names structure and node; then, as it says, the
 * lists emptied, the pool grown, the kernel run again: every value once
 * in its list and nothing else. */
START_TEST(test_sparse_dynamic_exhaustion)
{
  spfx f;
  spfx_open(&f, list_nodes, N(list_nodes), &(lsk_sparse_options){.blocks = {0, 8}});
  ck_assert_uint_eq(spfx_stats(&f, 1).pool_blocks, 8);
  enum { K = 400 };
  uint32_t *pts = calloc(3 * K, 4), vals[K], idx[K];
  for (unsigned i = 0; i < K; ++i)
    pts[3 * i] = i % 2, vals[i] = i + 1;
  spfx_append(&f, pts, vals, K, idx);
  unsigned stored = 0;
  uint32_t *got = spfx_read(&f);
  for (unsigned i = 0; i < K; ++i) {
    if (idx[i] == LSK_SPARSE_NONE)
      continue;
    ++stored;
    uint32_t at[3] = {pts[3 * i], idx[i], 0};
    /* Every stored element reads back, though the lists' lengths count
     * the refused ones too (the chunks that exist are listed, no more). */
    ck_assert_msg(got[sm_flat(&f.m, at)] == vals[i],
                  "before the grow: list %u element %u: %u, appended %u (%u of %u stored)", at[0],
                  at[1], got[sm_flat(&f.m, at)], vals[i], stored, K);
  }
  free(got);
  ck_assert_uint_le(stored, 64);
  uint32_t lp[6] = {0, 0, 0, 1, 0, 0}, len[2];
  spfx_length(&f, lp, 2, len);
  ck_assert_uint_eq(len[0] + len[1], K);
  TU_FAILS(f.ctx, lsk_sparse_check(f.sp, NULL), LSK_ENOSPC, "'sp'");
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(f.ctx), "'list'"));
  /* Emptied, grown (enough for what was refused), run again. */
  TU_OK(f.ctx, lsk_sparse_deactivate(f.sp, "list", NULL));
  TU_OK(f.ctx, lsk_sparse_grow(f.sp, 1, 0));
  ck_assert_uint_ge(spfx_stats(&f, 1).pool_blocks, 50);
  spfx_append(&f, pts, vals, K, idx);
  TU_OK(f.ctx, lsk_sparse_check(f.sp, NULL));
  got = spfx_read(&f);
  spfx_length(&f, lp, 2, len);
  for (unsigned l = 0; l < 2; ++l) {
    ck_assert_uint_eq(len[l], K / 2);
    uint32_t *vs = calloc(K / 2, 4);
    for (unsigned j = 0; j < K / 2; ++j) {
      uint32_t at[3] = {l, j, 0};
      vs[j] = got[sm_flat(&f.m, at)];
    }
    qsort(vs, K / 2, 4, cmp_u32);
    for (unsigned j = 0; j < K / 2; ++j)
      ck_assert_msg(vs[j] == 2 * j + l + 1, "list %u: sorted value %u is %u, want %u", l, j, vs[j],
                    2 * j + l + 1);
    free(vs);
  }
  free(got);
  free(pts);
  spfx_close(&f);
}
END_TEST

static void add_case(Suite *s, const char *name, const TTest *t, int loops)
{
  TCase *tc = tcase_create(name);
  tcase_set_timeout(tc, 600);
  if (loops)
    tcase_add_loop_test(tc, t, 0, loops);
  else
    tcase_add_test(tc, t);
  suite_add_tcase(s, tc);
}

Suite *suite_sparse_for(void)
{
  Suite *s = suite_create("sparse_for");
  add_case(s, "every_cell", test_sparse_for_every_cell_once, (int)N(for_shapes));
  add_case(s, "empty", test_sparse_for_empty, 0);
  add_case(s, "appends", test_sparse_dynamic_appends, 0);
  add_case(s, "past_length", test_sparse_dynamic_past_length, 0);
  add_case(s, "dyn_exhaustion", test_sparse_dynamic_exhaustion, 0);
  return s;
}
