/*
 * check_pic.c: the particle-in-cell binning example on frames
 * (examples/pic/pic.h, examples/pic/pic.cl): 100 times, after one, two or three
 * steps (so pic_move fills in the last step's incoming, or lsk_pic_read
 * does), the invariants of pic_check.h (nothing lost or duplicated, every particle
 * in its cell, pool usage equal to the frames in use, the state equal to
 * the plain C reference's). The pool starts too small, so it grows, and a
 * run that starts with every particle in one column empties those cells
 * (their frames recycled) while filling the others.
 */
#include "pic_check.h"

static void run(unsigned gx, unsigned gy, size_t n, unsigned fs, size_t frames, unsigned spread,
                unsigned steps, unsigned seed, int compacts)
{
  lsk_context *ctx = tu_context();
  lsk_particle *p = malloc(n * sizeof *p), *got = malloc(n * sizeof *p),
               *binned = malloc(n * sizeof *p);
  uint32_t *cell = malloc(n * 4), *start = malloc(((size_t)gx * gy + 1) * 4);
  ck_assert(p && got && binned && cell && start);
  pc_make(p, n, gx, gy, spread, LSK_PIC_UNIT / 4, 2 * LSK_PIC_UNIT, 10, seed);
  lsk_pic *pic = NULL;
  TU_OK(ctx, lsk_pic_create(ctx, gx, gy, p, n,
                            &(lsk_pic_options){.frame_size = fs, .frames = frames}, &pic));
  lsk_pic_stats st;
  TU_OK(ctx, lsk_pic_read(pic, got, cell, n, &st));
  ck_assert_uint_eq(st.particles, n);
  ck_assert_uint_eq(st.pool.live, st.frames);
  size_t most = 0, least = SIZE_MAX;
  for (unsigned s = 0; s < steps; ++s) {
    pc_step_and_check(ctx, pic, gx, gy, p, n, got, cell, binned, start, s, s % 3);
    TU_OK(ctx, lsk_pic_read(pic, NULL, NULL, 0, &st));
    most = st.frames > most ? st.frames : most;
    least = st.frames < least ? st.frames : least;
    ck_assert_uint_gt(st.left, 0);
  }
  /* The runs are built to make the pool grow and frames come and go. */
  ck_assert_uint_gt(st.grows, 0);
  if (compacts)
    ck_assert_uint_gt(st.compacted, 0);
  ck_assert_uint_gt(most, least);
  ck_assert_uint_gt(st.pool.gcs, steps);
  lsk_pic_destroy(pic);
  free(p);
  free(got);
  free(binned);
  free(cell);
  free(start);
  lsk_context_destroy(ctx);
}

/* 30 cells, 50 particles per cell on average in frames of 16. */
START_TEST(test_pic_100_steps_invariants) { run(6, 5, 1500, 16, 8, 6, 100, 2024u, 0); }
END_TEST

/* Everything starts in the first column of 8 cells and spreads over 64:
 * those lists thin out and are compacted. */
START_TEST(test_pic_spreading_recycles_frames) { run(8, 8, 1000, 8, 4, 1, 100, 77u, 1); }
END_TEST

/* The largest extent: x + vx passes 2^31 (x near w = 32767 * 2^16, vx up
 * to w - 1), which int32 arithmetic got wrong (and C's is undefined). The
 * positions after one step are worked out by hand: x + vx - w, or x + vx
 * + w below 0. Device and C reference both. */
START_TEST(test_pic_largest_extent)
{
  const int32_t w = (int32_t)(LSK_PIC_MAX_EXTENT * LSK_PIC_UNIT);
  lsk_particle p[4] = {{1, w - 1000, 5, w - 1, 0},
                       {2, w - 1, 7, w - 1, 0},
                       {3, 1000, 9, -(w - 1), 0},
                       {4, w / 2, 11, w / 2 + 3, 0}};
  const int32_t want[4] = {w - 1001, w - 2, 1001, 3}; /* w is even */
  lsk_particle ref[4], binned[4];
  uint32_t start[LSK_PIC_MAX_EXTENT + 1];
  memcpy(ref, p, sizeof p);
  ck_assert_int_eq(lsk_pic_reference_step(LSK_PIC_MAX_EXTENT, 1, ref, 4, binned, start), LSK_OK);
  for (int i = 0; i < 4; ++i)
    ck_assert_msg(ref[i].x == want[i], "C reference: particle %d at %d, want %d", i + 1, ref[i].x,
                  want[i]);
  lsk_context *ctx = tu_context();
  lsk_pic *pic = NULL;
  TU_OK(ctx, lsk_pic_create(ctx, LSK_PIC_MAX_EXTENT, 1, p, 4, &(lsk_pic_options){.frame_size = 8},
                            &pic));
  TU_OK(ctx, lsk_pic_step(pic));
  lsk_particle got[4];
  uint32_t cell[4];
  TU_OK(ctx, lsk_pic_read(pic, got, cell, 4, NULL));
  for (int i = 0; i < 4; ++i) {
    int k = (int)got[i].id - 1;
    ck_assert(k >= 0 && k < 4);
    ck_assert_msg(got[i].x == want[k], "device: particle %d at %d, want %d", k + 1, got[i].x,
                  want[k]);
    ck_assert_uint_eq(cell[i], (uint32_t)want[k] / LSK_PIC_UNIT);
  }
  lsk_pic_destroy(pic);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_pic_bad_arguments)
{
  lsk_context *ctx = tu_context();
  lsk_particle p[2] = {{1, 10, 10, 5, 5}, {2, 70000, 20, -3, 0}};
  lsk_pic *pic = NULL;
  TU_FAILS(ctx, lsk_pic_create(ctx, 0, 4, p, 2, NULL, &pic), LSK_EINVAL,
           "grid 0x4: extents must be from 1");
  TU_FAILS(ctx, lsk_pic_create(ctx, 2, 1, p, 0, NULL, &pic), LSK_EINVAL, "0 particles");
  TU_FAILS(ctx, lsk_pic_create(ctx, 2, 1, p, 2, &(lsk_pic_options){.frame_size = 12}, &pic),
           LSK_EINVAL, "frame size 12: must be a power of two");
  TU_FAILS(ctx, lsk_pic_create(ctx, 1, 1, p, 2, NULL, &pic), LSK_EINVAL,
           "particle 1 (id 2 at 70000,20 moving -3,0)");
  p[1].x = 10;
  p[1].id = 0;
  TU_FAILS(ctx, lsk_pic_create(ctx, 2, 1, p, 2, NULL, &pic), LSK_EINVAL, "id 0");
  TU_FAILS(ctx, lsk_pic_create(ctx, 2, 1, NULL, 2, NULL, &pic), LSK_EINVAL, "particles is NULL");
  TU_FAILS(NULL, lsk_pic_step(NULL), LSK_EINVAL, "pic is NULL");
  ck_assert_ptr_null(pic);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_pic(void)
{
  Suite *s = suite_create("pic");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pic_100_steps_invariants);
  tcase_add_test(tc, test_pic_spreading_recycles_frames);
  tcase_add_test(tc, test_pic_largest_extent);
  tcase_add_test(tc, test_pic_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}
