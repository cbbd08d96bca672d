/*
 * check_heat.c: the heat example (heat.h) on one device against its plain
 * C reference: every float of the grid equal, bit for bit, after a number
 * of steps, for grids from 1 cell wide to uneven ones (the interior empty,
 * the rim the whole box, both kernels busy), through lsk_heat_step (the
 * guards from lsk_halo_fill); bad boxes refused. Suite grind_heat: a small
 * grid under oclgrind.
 */
#include <string.h>

#include "heat.h"
#include "testing.h"
#include "heat_suites.h"

static void heat_case(lsk_context *ctx, size_t gx, size_t gy, unsigned steps, uint64_t seed)
{
  lsk_grid_box b;
  EX_OK(NULL, lsk_grid_split(2, (size_t[3]){gx, gy, 1}, (unsigned[3]){1, 1, 1},
                             (unsigned[3]){0, 0, 0}, 1, (int[3]){1, 0, 0}, &b));
  lsk_heat *h;
  lsk_halo *halo;
  lsk_heat_options o = {.seed = seed, .alpha = 0.23f};
  EX_OK(ctx, lsk_heat_create(ctx, &b, &o, &h));
  EX_OK(ctx, lsk_halo_create(ctx, &b, &halo));
  for (unsigned s = 0; s < steps; ++s)
    EX_OK(ctx, lsk_heat_step(h, halo));
  size_t st[3], n = lsk_grid_box_storage(&b, st);
  float *col = malloc(n * sizeof *col), *want = malloc(gx * gy * sizeof *want);
  ck_assert_ptr_nonnull(col);
  ck_assert_ptr_nonnull(want);
  EX_OK(ctx, lsk_buffer_read(lsk_heat_field(h), 0, col, n * sizeof *col, NULL));
  for (size_t y = 0; y < gy; ++y)
    for (size_t x = 0; x < gx; ++x)
      want[y * gx + x] = lsk_heat_initial(seed, x, y);
  EX_OK(NULL, lsk_heat_reference(gx, gy, 0.23f, steps, want));
  for (size_t y = 0; y < gy; ++y)
    for (size_t x = 0; x < gx; ++x) {
      float got = col[lsk_grid_box_index(&b, x, y, 0)];
      ck_assert_msg(memcmp(&got, &want[y * gx + x], 4) == 0,
                    "%zux%zu after %u steps: cell (%zu, %zu) %.9g, C %.9g", gx, gy, steps, x, y,
                    (double)got, (double)want[y * gx + x]);
    }
  /* Guards beyond the non-periodic rows stay 0. */
  for (size_t x = 0; x < st[0]; ++x)
    ck_assert(col[x] == 0.0f && col[(st[1] - 1) * st[0] + x] == 0.0f);
  free(col);
  free(want);
  lsk_halo_destroy(halo);
  lsk_heat_destroy(h);
}

START_TEST(test_heat)
{
  lsk_context *ctx = ex_context();
  heat_case(ctx, 37, 23, 20, 7);
  heat_case(ctx, 1, 5, 6, 1); /* one column: no interior */
  heat_case(ctx, 5, 1, 6, 2); /* one row: its guards both 0 */
  heat_case(ctx, 2, 2, 3, 3);
  heat_case(ctx, 3, 3, 4, 4); /* an interior of one cell */
  /* The initial field alone (0 steps). */
  heat_case(ctx, 8, 4, 0, 5);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_heat_bad_input)
{
  lsk_context *ctx = ex_context();
  lsk_grid_box b;
  EX_OK(NULL, lsk_grid_split(2, (size_t[3]){8, 8, 1}, (unsigned[3]){1, 1, 1},
                             (unsigned[3]){0, 0, 0}, 1, (int[3]){1, 1, 0}, &b));
  lsk_heat *h = NULL;
  EX_FAILS(ctx, lsk_heat_create(ctx, &b, NULL, &h), LSK_EINVAL, "periodic in x only");
  b.periodic[1] = 0;
  EX_FAILS(ctx, lsk_heat_create(ctx, &b, &(lsk_heat_options){.alpha = 0.3f}, &h), LSK_EINVAL,
           "alpha 0.3");
  EX_FAILS(ctx, lsk_heat_create(ctx, NULL, NULL, &h), LSK_EINVAL, "box is NULL");
  ck_assert_ptr_null(h);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_grind_heat)
{
  lsk_context *ctx = ex_context();
  heat_case(ctx, 6, 5, 2, 9);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_heat(void)
{
  Suite *s = suite_create("heat");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_heat);
  tcase_add_test(tc, test_heat_bad_input);
  suite_add_tcase(s, tc);
  return s;
}

Suite *suite_grind_heat(void)
{
  Suite *s = suite_create("grind_heat");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_heat);
  suite_add_tcase(s, tc);
  return s;
}

EX_MAIN(HEAT_SUITES)
