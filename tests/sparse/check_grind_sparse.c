/*
 * check_grind_sparse.c: small cases of every kernel of sparse structures
 * (kernels/sparse.cl: the GC, the element lists, counts, copies, and the
 * generated accessors in the test kernels), for oclgrind (ctest
 * oclgrind_grind_sparse: races, bounds, uninitialized reads) and under
 * LSK_SHAPES=nvidia (gpushape_grind_sparse); each checked against the
 * model as in the unit suites, at sizes that oclgrind runs in seconds.
 */
#include <stdio.h>

#include "sparse_fixture.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NODE(kind, name, axes, ...)                                                                \
  {                                                                                                \
    LSK_SNODE_##kind, name, axes, {__VA_ARGS__}, 0, NULL                                           \
  }

/* dense over bitmasked over pointer, 2 axes, 16 x 16 cells */
static const lsk_snode small_2d[] = {
    NODE(DENSE, "top", "i", 2), NODE(BITMASKED, "mask", "ij", 2, 2),
    NODE(POINTER, "ptr", "ij", 2, 2), NODE(DENSE, "cell", "ij", 2, 4)};

static void struct_for_once(spfx *f, unsigned lv)
{
  lsk_program *p = spfx_program(f, (int)lv);
  lsk_kernel *k = tu_kernel(p, "sp_for");
  lsk_buffer *hits = tu_zeros(f->ctx, f->m.total), *visits = tu_zeros(f->ctx, 1);
  lsk_snode node;
  TU_OK(NULL, lsk_sparse_def_node(f->def, lv, &node));
  lsk_arg args[] = {LSK_ARG_BUFFER(hits), LSK_ARG_UINT((unsigned)f->m.ext[0]),
                    LSK_ARG_UINT((unsigned)f->m.ext[1]), LSK_ARG_BUFFER(visits)};
  TU_OK(f->ctx, lsk_sparse_for(f->sp, k, &(lsk_sparse_for_options){.level = node.name}, args,
                               N(args), NULL));
  unsigned *v = tu_read_uints(f->ctx, visits, 1);
  ck_assert_uint_eq(v[0], sm_count(&f->m, (int)lv));
  if (lv == f->m.nodes - 1) {
    uint32_t c[3];
    for (uint64_t i = 0; i < f->m.total; ++i) {
      sm_unflat(&f->m, i, c);
      if (sm_active(&f->m, (int)lv, c))
        f->m.val[i] += 1;
    }
  }
  free(v);
  lsk_buffer_destroy(hits);
  lsk_buffer_destroy(visits);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
}

/* Writes, reads, a struct-for at the leaf and at a middle level,
 * deactivations (the GC), host copies and counts, a pool that runs out
 * and grows. */
START_TEST(test_grind_sparse_levels)
{
  spfx f;
  spfx_open(&f, small_2d, N(small_2d), &(lsk_sparse_options){.blocks = {0, 0, 3}});
  f.cfg.blocks[0] = 3;
  enum { K = 40 };
  uint32_t pts[3 * K], vals[K], got[K];
  int ok[K];
  /* distinct points: one writer per cell */
  for (unsigned i = 0; i < K; ++i) {
    pts[3 * i] = i % 16, pts[3 * i + 1] = (7 * i + i / 16) % 16, pts[3 * i + 2] = 0;
    vals[i] = i + 1;
  }
  spfx_set(&f, pts, vals, K, ok);
  unsigned failed = 0;
  for (unsigned i = 0; i < K; ++i) {
    if (ok[i])
      sm_set(&f.m, pts + 3 * i, vals[i]);
    failed += !ok[i];
  }
  ck_assert_uint_gt(failed, 0);
  TU_FAILS(f.ctx, lsk_sparse_check(f.sp, NULL), LSK_ENOSPC, "'ptr'");
  TU_OK(f.ctx, lsk_sparse_grow(f.sp, 2, 0));
  spfx_set(&f, pts, vals, K, ok);
  for (unsigned i = 0; i < K; ++i)
    sm_set(&f.m, pts + 3 * i, vals[i]);
  TU_OK(f.ctx, lsk_sparse_check(f.sp, NULL));
  spfx_check(&f, "written");
  spfx_get(&f, pts, K, got);
  for (unsigned i = 0; i < K; ++i)
    ck_assert_uint_eq(got[i], (uint32_t)sm_get(&f.m, pts + 3 * i));
  struct_for_once(&f, 3);
  struct_for_once(&f, 1);
  spfx_check(&f, "struct-for");
  /* deactivations at both sparse levels, the GC, reactivation */
  spfx_level(&f, 2, SP_DEACTIVATE, pts, 3, ok);
  for (unsigned i = 0; i < 3; ++i)
    if (sm_active(&f.m, 2, pts + 3 * i))
      sm_deactivate(&f.m, 2, pts + 3 * i);
  spfx_level(&f, 1, SP_DEACTIVATE, pts + 9, 1, ok);
  if (sm_active(&f.m, 1, pts + 9))
    sm_deactivate(&f.m, 1, pts + 9);
  spfx_check(&f, "deactivated");
  spfx_level(&f, 3, SP_ACTIVATE, pts, 4, ok);
  for (unsigned i = 0; i < 4; ++i)
    sm_activate(&f.m, 3, pts + 3 * i);
  spfx_check(&f, "reactivated");
  /* host copies */
  uint32_t *all = spfx_read(&f);
  for (uint64_t i = 0; i < f.m.total; i += 5)
    all[i] = (uint32_t)i + 3;
  TU_OK(f.ctx, lsk_sparse_write(f.sp, "x", all, f.m.total * 4, NULL));
  uint32_t c[3];
  for (uint64_t i = 0; i < f.m.total; ++i) {
    sm_unflat(&f.m, i, c);
    if (all[i])
      sm_set(&f.m, c, all[i]);
    else if (sm_active(&f.m, 3, c))
      f.m.val[i] = 0;
  }
  free(all);
  spfx_check(&f, "host write");
  lsk_sparse_level_stats st[4];
  TU_OK(f.ctx, lsk_sparse_stats_get(f.sp, st, 4, NULL));
  ck_assert_uint_eq(st[2].active, sm_count(&f.m, 2));
  TU_OK(f.ctx, lsk_sparse_deactivate_all(f.sp, NULL));
  TU_OK(f.ctx, lsk_sparse_count(f.sp, "ptr", &st[0].active, NULL));
  ck_assert_uint_eq(st[0].active, 0);
  spfx_close(&f);
}
END_TEST

/* A dynamic leaf with chunks of 4: appends across chunk boundaries from
 * 3 groups, the struct-for over the elements, a list emptied. */
START_TEST(test_grind_sparse_lists)
{
  static const lsk_snode nodes[] = {NODE(POINTER, "row", "i", 2),
                                    {LSK_SNODE_DYNAMIC, "list", "j", {40}, 4, NULL}};
  spfx f;
  spfx_open(&f, nodes, N(nodes), &(lsk_sparse_options){.fraction = 1.0});
  f.cfg.blocks[0] = 3;
  enum { K = 50 };
  uint32_t pts[3 * K], vals[K], idx[K];
  for (unsigned i = 0; i < K; ++i)
    pts[3 * i] = i % 3 == 0, pts[3 * i + 1] = 0, pts[3 * i + 2] = 0, vals[i] = i + 1;
  spfx_append(&f, pts, vals, K, idx);
  for (unsigned i = 0; i < K; ++i) {
    ck_assert_uint_ne(idx[i], LSK_SPARSE_NONE);
    uint32_t at[3] = {pts[3 * i], idx[i], 0};
    f.m.val[sm_flat(&f.m, at)] = vals[i];
    f.m.on[0][pts[3 * i]] = 1;
    if (idx[i] + 1 > f.m.len[pts[3 * i]])
      f.m.len[pts[3 * i]] = idx[i] + 1;
  }
  spfx_check(&f, "appended");
  struct_for_once(&f, 1);
  spfx_check(&f, "struct-for");
  spfx_level(&f, 1, SP_DEACTIVATE, pts, 1, NULL);
  sm_deactivate(&f.m, 1, pts);
  spfx_check(&f, "emptied");
  spfx_close(&f);
}
END_TEST

Suite *suite_grind_sparse(void)
{
  Suite *s = suite_create("grind_sparse");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, test_grind_sparse_levels);
  tcase_add_test(tc, test_grind_sparse_lists);
  suite_add_tcase(s, tc);
  return s;
}
