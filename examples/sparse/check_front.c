/*
 * check_front.c: the sparse front (front.h) against its C model
 * (front_ref.c) after every step: every cell of u and b equal (within
 * 1e-6 relative; in fact bit for bit, which is counted too), the same set
 * of active blocks (asked on the device with grid_block_is_active), and
 * lsk_sparse_count and the pool's statistics agreeing with it. Each run
 * must see blocks activated and deactivated; one starts with a pool too
 * small, which must grow (lsk_sparse_check's LSK_ENOSPC, lsk_sparse_grow,
 * the initial kernel or the spread run again) without changing the
 * result. Bad options refused.
 * Suite grind_sparse_front: a 64 x 64 grid for 3 steps under oclgrind.
 */
#include <string.h>

#include "front.h"
#include "testing.h"
#include "sparse_suites.h"

/* The device's state after step s against the model's, and the counts. */
static void check_state(lsk_context *ctx, lsk_front *f, const lsk_front_model *m, unsigned s,
                        float *u, float *b, uint8_t *act)
{
  EX_OK(ctx, lsk_front_read(f, u, b, act));
  lsk_front_diff d;
  int same = lsk_front_compare(m, u, b, act, 1e-6f, &d);
  ck_assert_msg(d.blocks == 0,
                "%ux%u step %u: %zu blocks differ, first (%u, %u) active %u on "
                "the device",
                m->n, m->n, s, d.blocks, d.bi, d.bj, d.active);
  ck_assert_msg(same, "%ux%u step %u: %zu cells differ, first %c(%u, %u) = %.9g, model %.9g", m->n,
                m->n, s, d.cells, d.field, d.i, d.j, (double)d.got, (double)d.want);
  ck_assert_msg(d.inexact == 0,
                "%ux%u step %u: %zu cells within the tolerance but not bit for "
                "bit (largest difference %g)",
                m->n, m->n, s, d.inexact, d.max_diff);
  size_t want = lsk_front_model_active(m);
  uint64_t blocks = 0, cells = 0;
  EX_OK(ctx, lsk_sparse_count(lsk_front_sparse(f), "block", &blocks, NULL));
  EX_OK(ctx, lsk_sparse_count(lsk_front_sparse(f), NULL, &cells, NULL));
  ck_assert_msg(blocks == want, "step %u: lsk_sparse_count(block) %llu, model %zu", s,
                (unsigned long long)blocks, want);
  ck_assert_msg(cells == want * LSK_FRONT_BLOCK * LSK_FRONT_BLOCK,
                "step %u: lsk_sparse_count(leaf) %llu, model %zu blocks", s,
                (unsigned long long)cells, want);
  lsk_sparse_level_stats st[2];
  EX_OK(ctx, lsk_sparse_stats_get(lsk_front_sparse(f), st, 2, NULL));
  ck_assert_msg(st[0].pool_live == want && st[0].pool_blocks >= want,
                "step %u: the pool has %zu live of %zu blocks, model %zu active", s,
                st[0].pool_live, st[0].pool_blocks, want);
}

/* steps steps of an n x n grid (radius, pool: as lsk_front_options),
 * checked after each; returns the pool's growths. */
static unsigned front_case(lsk_context *ctx, unsigned n, unsigned radius, unsigned steps,
                           size_t pool)
{
  lsk_front *f = NULL;
  lsk_front_model m;
  lsk_front_options o = {.size = n, .radius = radius, .pool_blocks = pool};
  EX_OK(ctx, lsk_front_create(ctx, &o, &f));
  EX_OK(NULL, lsk_front_model_init(&m, n, radius));
  lsk_front_params p;
  lsk_front_params_default(&p);
  float *u = malloc((size_t)n * n * sizeof *u), *b = malloc((size_t)n * n * sizeof *b);
  uint8_t *act = malloc((size_t)m.nb * m.nb);
  ck_assert(u && b && act);
  check_state(ctx, f, &m, 0, u, b, act);
  /* Where loops are capped (llvmpipe, whose kernels run several times
   * slower) every fourth step and the last are compared (CI's time): the
   * steps between still run, and feed the ones compared. */
  unsigned every = lsk_context_device(ctx)->loops_capped ? 4 : 1;
  unsigned grows = 0, rose = 0, fell = 0;
  for (unsigned s = 1; s <= steps; ++s) {
    size_t before = lsk_front_model_active(&m);
    lsk_front_step_info info;
    EX_OK(ctx, lsk_front_step(f, &info));
    grows += info.grows;
    lsk_front_model_step(&m, &p);
    if (s % every == 0 || s == steps)
      check_state(ctx, f, &m, s, u, b, act);
    size_t after = lsk_front_model_active(&m);
    rose += after > before;
    fell += after < before;
  }
  /* The run did what it is for: blocks came and went. */
  ck_assert_msg(rose > 0 && (steps < 100 || fell > 0),
                "%ux%u, %u steps: the active blocks rose in %u steps and fell in %u", n, n, steps,
                rose, fell);
  free(u);
  free(b);
  free(act);
  lsk_front_model_free(&m);
  lsk_front_destroy(f);
  return grows;
}

START_TEST(test_front)
{
  lsk_context *ctx = ex_context();
  /* 8 x 8 blocks: the ring reaches the edge and burns out behind. */
  front_case(ctx, 128, 8, 150, 0);
  /* A smaller grid and disc: 16 blocks at most, 4 at the end. */
  front_case(ctx, 64, 3, 100, 0);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_front_pool_grows)
{
  lsk_context *ctx = ex_context();
  /* 8 blocks at first, 56 at most in use: the spread runs out and is rerun. */
  unsigned grows = front_case(ctx, 128, 8, 120, 8);
  ck_assert_msg(grows > 0, "the pool of 8 blocks never grew");
  /* A disc on 32 blocks from a pool of 8: front_init grows it (checked at
   * step 0), then the spread. */
  front_case(ctx, 128, 40, 20, 8);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_front_bad_input)
{
  lsk_context *ctx = ex_context();
  lsk_front *f = NULL;
  EX_FAILS(ctx, lsk_front_create(ctx, &(lsk_front_options){.size = 100}, &f), LSK_EINVAL,
           "size 100 is not a power of two");
  EX_FAILS(ctx, lsk_front_create(ctx, &(lsk_front_options){.size = 16}, &f), LSK_EINVAL, "size 16");
  EX_FAILS(ctx, lsk_front_create(ctx, &(lsk_front_options){.size = 64, .radius = 32}, &f),
           LSK_EINVAL, "radius 32");
  lsk_front_params p;
  lsk_front_params_default(&p);
  p.alpha = 0.3f;
  EX_FAILS(ctx, lsk_front_create(ctx, &(lsk_front_options){.params = &p}, &f), LSK_EINVAL,
           "alpha 0.3");
  lsk_front_params_default(&p);
  p.keep = 0;
  EX_FAILS(ctx, lsk_front_create(ctx, &(lsk_front_options){.params = &p}, &f), LSK_EINVAL,
           "keep 0 is not in (0, 1]");
  lsk_front_params_default(&p);
  p.rate = 1.5f;
  EX_FAILS(ctx, lsk_front_create(ctx, &(lsk_front_options){.params = &p}, &f), LSK_EINVAL,
           "rate 1.5 is not in [0, 1]");
  lsk_front_params_default(&p);
  p.off = -1;
  EX_FAILS(ctx, lsk_front_create(ctx, &(lsk_front_options){.params = &p}, &f), LSK_EINVAL,
           "must not be negative");
  EX_FAILS(ctx, lsk_front_create(ctx, NULL, NULL), LSK_EINVAL, "out is NULL");
  ck_assert_ptr_null(f);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_grind_front)
{
  lsk_context *ctx = ex_context();
  /* The disc reaches the edge of its 4 blocks: 8 more in the second step. */
  front_case(ctx, 64, 14, 3, 0);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_sparse_front(void)
{
  Suite *s = suite_create("sparse_front");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_front);
  tcase_add_test(tc, test_front_pool_grows);
  tcase_add_test(tc, test_front_bad_input);
  suite_add_tcase(s, tc);
  return s;
}

Suite *suite_grind_sparse_front(void)
{
  Suite *s = suite_create("grind_sparse_front");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_front);
  suite_add_tcase(s, tc);
  return s;
}

EX_MAIN(SPARSE_SUITES)
