/*
 * check_pic_badinput.c: bad input to every public function of pic.h (the
 * suite badinput_pic): each row calls one function with one bad argument
 * and checks the status and the message (EX_BAD and its kin, testing.h).
 * Moved from lsk's tests/badinput/check_badinput_objects.c, rows unchanged.
 */
#include "pic.h"
#include "testing.h"

START_TEST(test_bi_pic)
{
  lsk_context *ctx = ex_context();
  /* A live handle of another type (a buffer), for the wrong-type rows. */
  lsk_buffer *b = NULL;
  EX_OK(ctx, lsk_buffer_create(ctx, 4 * sizeof(unsigned), &b));
  lsk_particle p[4] = {
      {1, 10, 10, 1, 1}, {2, 70000, 20, -5, 3}, {3, 5, 140000, 0, 0}, {4, 1, 1, 0, 0}};
  lsk_particle bad[1] = {{0, 10, 10, 0, 0}};
  lsk_particle binned[4];
  uint32_t start[4 * 4 + 1];
  lsk_pic *pic = NULL, *out = (lsk_pic *)&out;
  EX_OK(ctx, lsk_pic_create(ctx, 4, 4, p, 4, NULL, &pic));
  lsk_pic *wp = (lsk_pic *)b;

  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 4, 4, p, 4, NULL, NULL), LSK_EINVAL,
         "out is NULL");
  EX_BAD(NULL, "lsk_pic_create", lsk_pic_create(NULL, 4, 4, p, 4, NULL, &out), LSK_EINVAL,
         "ctx is NULL");
  ck_assert_ptr_null(out);
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 4, 4, NULL, 4, NULL, &out), LSK_EINVAL,
         "particles is NULL");
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 0, 4, p, 4, NULL, &out), LSK_EINVAL,
         "grid 0x4");
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 4, 40000, p, 4, NULL, &out), LSK_EINVAL,
         "grid 4x40000");
  lsk_pic_options pw = {.x0 = 3, .wx = 2, .wy = 1};
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 4, 4, p, 4, &pw, &out), LSK_EINVAL,
         "window of 2x1 cells at 3,0: not inside the 4x4 grid");
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 4, 4, p, SIZE_MAX, NULL, &out), LSK_EINVAL,
         "18446744073709551615 particles");
  lsk_pic_options po = {.frame_size = 12};
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 4, 4, p, 4, &po, &out), LSK_EINVAL,
         "frame size 12");
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 4, 4, bad, 1, NULL, &out), LSK_EINVAL,
         "particle 0 (id 0");
  EX_BAD(ctx, "lsk_pic_create", lsk_pic_create(ctx, 1, 1, p, 4, NULL, &out), LSK_EINVAL,
         "particle 1 (id 2 at 70000");
  EX_BAD(NULL, "lsk_pic_create", lsk_pic_create((lsk_context *)b, 4, 4, p, 4, NULL, &out),
         LSK_EINVAL, EX_WRONG("context", "buffer"));
  EX_QUIET("lsk_pic_destroy", (lsk_pic_destroy(NULL), 1));
  EX_BADV("lsk_pic_destroy", (lsk_pic_destroy(wp), 0), 0, EX_WRONG("pic", "buffer"));
  EX_BAD(NULL, "lsk_pic_step", lsk_pic_step(NULL), LSK_EINVAL, "pic is NULL");
  EX_BAD(NULL, "lsk_pic_step", lsk_pic_step(wp), LSK_EINVAL, EX_WRONG("pic", "buffer"));
  EX_BAD(NULL, "lsk_pic_settle", lsk_pic_settle(NULL), LSK_EINVAL, "pic is NULL");
  EX_BAD(NULL, "lsk_pic_settle", lsk_pic_settle(wp), LSK_EINVAL, EX_WRONG("pic", "buffer"));
  lsk_particle back[4];
  uint32_t cell[4];
  EX_BAD(NULL, "lsk_pic_read", lsk_pic_read(NULL, back, cell, 4, NULL), LSK_EINVAL, "pic is NULL");
  EX_BAD(ctx, "lsk_pic_read", lsk_pic_read(pic, NULL, cell, 4, NULL), LSK_EINVAL, "p is NULL");
  EX_BAD(NULL, "lsk_pic_read", lsk_pic_read(wp, back, cell, 4, NULL), LSK_EINVAL,
         EX_WRONG("pic", "buffer"));
  size_t np = 0;
  EX_BAD(NULL, "lsk_pic_take", lsk_pic_take(NULL, back, 4, &np), LSK_EINVAL, "pic is NULL");
  EX_BAD(NULL, "lsk_pic_take", lsk_pic_take(wp, back, 4, &np), LSK_EINVAL,
         EX_WRONG("pic", "buffer"));
  EX_BAD(ctx, "lsk_pic_take", lsk_pic_take(pic, back, 4, NULL), LSK_EINVAL, "n is NULL");
  EX_BAD(ctx, "lsk_pic_take", lsk_pic_take(pic, NULL, 4, &np), LSK_EINVAL,
         "out is NULL with cap 4");
  EX_BAD(NULL, "lsk_pic_put", lsk_pic_put(NULL, p, 1), LSK_EINVAL, "pic is NULL");
  EX_BAD(NULL, "lsk_pic_put", lsk_pic_put(wp, p, 1), LSK_EINVAL, EX_WRONG("pic", "buffer"));
  EX_BAD(ctx, "lsk_pic_put", lsk_pic_put(pic, NULL, 1), LSK_EINVAL, "p is NULL");
  EX_BAD(ctx, "lsk_pic_put", lsk_pic_put(pic, bad, 1), LSK_EINVAL, "particle 0 (id 0");
  lsk_particle gen[1];
  EX_BAD(NULL, "lsk_pic_generate", lsk_pic_generate(NULL, 4, 4, 1, 1, 1, NULL, gen), LSK_EINVAL,
         "ctx is NULL");
  EX_BAD(ctx, "lsk_pic_generate", lsk_pic_generate(ctx, 4, 4, 1, 1, 1, NULL, NULL), LSK_EINVAL,
         "out is NULL");
  EX_BAD(ctx, "lsk_pic_generate", lsk_pic_generate(ctx, 4, 0, 1, 1, 1, NULL, gen), LSK_EINVAL,
         "grid 4x0");
  EX_BAD(ctx, "lsk_pic_generate", lsk_pic_generate(ctx, 4, 4, 1, 0, 1, NULL, gen), LSK_EINVAL,
         "first id 0");
  uint64_t sum;
  EX_BAD(NULL, "lsk_pic_checksum", lsk_pic_checksum(p, 4, NULL), LSK_EINVAL, "out is NULL");
  EX_BAD(NULL, "lsk_pic_checksum", lsk_pic_checksum(NULL, 4, &sum), LSK_EINVAL, "p is NULL");
  EX_QUIET("lsk_pic_pool", lsk_pic_pool(NULL) == NULL);
  EX_BADV("lsk_pic_pool", lsk_pic_pool(wp), NULL, EX_WRONG("pic", "buffer"));
  EX_BAD(NULL, "lsk_pic_reference_step", lsk_pic_reference_step(4, 4, NULL, 4, binned, start),
         LSK_EINVAL, "p is NULL");
  EX_BAD(NULL, "lsk_pic_reference_step", lsk_pic_reference_step(4, 4, p, 4, NULL, start),
         LSK_EINVAL, "binned is NULL");
  EX_BAD(NULL, "lsk_pic_reference_step", lsk_pic_reference_step(4, 4, p, 4, binned, NULL),
         LSK_EINVAL, "start is NULL");
  EX_BAD(NULL, "lsk_pic_reference_step", lsk_pic_reference_step(0, 4, p, 4, binned, start),
         LSK_EINVAL, "grid 0x4");
  EX_BAD(NULL, "lsk_pic_reference_step", lsk_pic_reference_step(4, 70000, p, 4, binned, start),
         LSK_EINVAL, "grid 4x70000");
  EX_BAD(NULL, "lsk_pic_reference_step", lsk_pic_reference_step(4, 4, bad, 1, binned, start),
         LSK_EINVAL, "particle 0 (id 0");

  lsk_pic_destroy(pic);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_badinput_pic(void)
{
  Suite *s = suite_create("badinput_pic");
  TCase *tc = tcase_create("objects");
  tcase_add_test(tc, test_bi_pic);
  suite_add_tcase(s, tc);
  return s;
}
