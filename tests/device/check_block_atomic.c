/*
 * check_block_atomic.c: appends (lsk_block_append, lsk_append) and the
 * float and double atomics (cl/lsk_atomic.h) from many blocks, against
 * plain C on fixed-seed random data; part of the block suite (see
 * check_block.h).
 */
#include <math.h>
#include <stdio.h>

#include "check_block.h"

static const char *op_names[] = {"add", "min", "max"};

/*
 * kernel (append_block or append_each) on nb blocks, each worker asking for
 * 0..5 items, into cap slots: total + 3 when fits, else about half the
 * total. The count must end at the total (the host's overflow is count -
 * cap); each slot below min(cap, total) must be stored exactly once, the
 * others never; the stored items must be distinct requested ones (so, when
 * all fit, exactly the requested ones); append_block must keep each block's
 * items together, in worker order.
 */
void bt_check_append(bt *t, const bt_shape *s, const char *kernel, unsigned nb, int fits)
{
  const unsigned W = s->workers, n = nb * W, block = strcmp(kernel, "append_block") == 0;
  uint32_t *req = malloc(n * sizeof *req), *first = malloc(n * sizeof *first), total = 0;
  uint64_t rng = bt_seed(s, 5);
  for (unsigned i = 0; i < n; ++i) {
    first[i] = i % W ? first[i - 1] + req[i - 1] : 0;
    req[i] = (uint32_t)(bt_next(&rng) % 6);
    total += req[i];
  }
  const uint32_t cap = fits ? total + 3 : total / 2 + 1, stored = cap < total ? cap : total;
  lsk_buffer *br = bt_buf(t, req, n * sizeof *req), *bc = bt_buf(t, NULL, sizeof(uint32_t));
  lsk_buffer *bi = bt_buf(t, NULL, cap * sizeof(uint32_t)),
             *bh = bt_buf(t, NULL, cap * sizeof(uint32_t));
  bt_run(t, kernel, s, nb,
         LSK_ARGS(LSK_ARG_BUFFER(br), LSK_ARG_BUFFER(bc), LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bh),
                  LSK_ARG_UINT(cap)));
  lsk_buffer_destroy(br);
  uint32_t *count = bt_get(t, bc, sizeof *count), *items = bt_get(t, bi, cap * sizeof *items);
  uint32_t *hits = bt_get(t, bh, cap * sizeof *hits);
  ck_assert_msg(*count == total, "%s W=%u cap %u: count %u, want %u", kernel, W, cap, *count,
                total);
  unsigned char *seen = calloc(n * 6, 1);
  int64_t *base = malloc(nb * sizeof *base);
  for (unsigned b = 0; b < nb; ++b)
    base[b] = -1;
  for (uint32_t slot = 0; slot < cap; ++slot) {
    ck_assert_msg(hits[slot] == (slot < stored), "%s W=%u cap %u total %u: slot %u stored %u times",
                  kernel, W, cap, total, slot, hits[slot]);
    if (slot >= stored)
      continue;
    uint32_t i = items[slot] >> 8, j = items[slot] & 255;
    ck_assert_msg(i < n && j < req[i] && !seen[i * 6 + j],
                  "%s W=%u: slot %u holds %#x: not a requested item, or a second copy", kernel, W,
                  slot, items[slot]);
    seen[i * 6 + j] = 1;
    if (block) {
      int64_t at = (int64_t)slot - first[i] - j, *bb = &base[i / W];
      ck_assert_msg(*bb < 0 || *bb == at,
                    "append_block W=%u: block %u's items are not together "
                    "in worker order (slot %u)",
                    W, i / W, slot);
      *bb = at;
    }
  }
  free(base);
  free(seen);
  free(hits);
  free(items);
  free(count);
  free(first);
  free(req);
}

START_TEST(test_block_append_overflow)
{
  bt t = bt_open();
  BT_FOR_SHAPES(s)
  {
    bt_check_append(&t, s, "append_block", 64, 0);
    bt_check_append(&t, s, "append_each", 64, 0);
  }
  bt_close(&t);
}
END_TEST

START_TEST(test_block_append_fits)
{
  bt t = bt_open();
  BT_FOR_SHAPES(s)
  {
    bt_check_append(&t, s, "append_block", 64, 1);
    bt_check_append(&t, s, "append_each", 64, 1);
  }
  bt_close(&t);
}
END_TEST

/*
 * Float atomics from every worker of nb blocks, 4 values each, integers in
 * [-50, 50] (every partial sum is exact): global add, min, max and their
 * local versions per block; and a global counter of adds of 1, whose
 * returned old values must be 0 .. N-1, each once.
 */
#define ATOMICS_M 4 /* as in block.cl */
void bt_check_atomics_float(bt *t, const bt_shape *s, unsigned nb)
{
  const unsigned W = s->workers, n = nb * W * ATOMICS_M;
  /* The global min and max start as NaNs, which they ignore, as fmin and
   * fmax do (cl/lsk_atomic.h): the first value replaces them. */
  float *in = malloc(n * sizeof *in), g[4] = {0, NAN, -NAN, 0};
  uint64_t rng = bt_seed(s, 6);
  for (unsigned i = 0; i < n; ++i)
    in[i] = (float)((int)(bt_next(&rng) % 101) - 50);
  lsk_buffer *bi = bt_buf(t, in, n * sizeof *in), *bg = bt_buf(t, g, sizeof g);
  lsk_buffer *bb = bt_buf(t, NULL, 3 * nb * sizeof *in), *br = bt_buf(t, NULL, n * sizeof *in);
  bt_run(t, "atomics_float", s, nb,
         LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bg), LSK_ARG_BUFFER(bb), LSK_ARG_BUFFER(br)));
  lsk_buffer_destroy(bi);
  float *gg = bt_get(t, bg, sizeof g), *blk = bt_get(t, bb, 3 * nb * sizeof *blk);
  float *ret = bt_get(t, br, n * sizeof *ret), all[3] = {0, INFINITY, -INFINITY};
  for (unsigned b = 0; b < nb; ++b) {
    float want[3] = {0, INFINITY, -INFINITY};
    for (unsigned i = b * W * ATOMICS_M; i < (b + 1) * W * ATOMICS_M; ++i) {
      want[0] += in[i];
      want[1] = fminf(want[1], in[i]);
      want[2] = fmaxf(want[2], in[i]);
    }
    for (int j = 0; j < 3; ++j)
      ck_assert_msg(blk[b * 3 + j] == want[j], "local atomic %s_float W=%u block %u: %g, want %g",
                    op_names[j], W, b, blk[b * 3 + j], want[j]);
    all[0] += want[0];
    all[1] = fminf(all[1], want[1]);
    all[2] = fmaxf(all[2], want[2]);
  }
  for (int j = 0; j < 3; ++j)
    ck_assert_msg(gg[j] == all[j], "atomic %s_float W=%u, %u blocks: %g, want %g", op_names[j], W,
                  nb, gg[j], all[j]);
  ck_assert_msg(gg[3] == (float)n, "counter: %g, want %u", gg[3], n);
  unsigned char *seen = calloc(n, 1);
  for (unsigned i = 0; i < n; ++i) {
    ck_assert_msg(ret[i] >= 0 && ret[i] < n && ret[i] == floorf(ret[i]) && !seen[(unsigned)ret[i]],
                  "W=%u: add %u returned %g: not a fresh old value", W, i, ret[i]);
    seen[(unsigned)ret[i]] = 1;
  }
  free(seen);
  free(ret);
  free(blk);
  free(gg);
  free(in);
}

START_TEST(test_block_atomic_float)
{
  bt t = bt_open();
  BT_FOR_SHAPES(s)
  bt_check_atomics_float(&t, s, 64);
  bt_close(&t);
}
END_TEST

/* The double atomics where the device has them, integers in [-10^6, 10^6]. */
START_TEST(test_block_atomic_double)
{
  bt t = bt_open();
  int fp64, datomics;
  bt_features(&t, &bt_shapes[0], &fp64, &datomics);
  if (!datomics) {
    printf("test_block_atomic_double: skipped: no cl_khr_int64_base_atomics and fp64 here\n");
    bt_close(&t);
    return;
  }
  BT_FOR_SHAPES(s)
  {
    const unsigned W = s->workers, nb = 64, n = nb * W * ATOMICS_M;
    double *in = malloc(n * sizeof *in), g[4] = {0, NAN, -NAN, 0}; /* NaN: ignored */
    double want[4] = {0, INFINITY, -INFINITY, n};
    uint64_t rng = bt_seed(s, 7);
    for (unsigned i = 0; i < n; ++i) {
      in[i] = (double)((int)(bt_next(&rng) % 2000001) - 1000000);
      want[0] += in[i];
      want[1] = fmin(want[1], in[i]);
      want[2] = fmax(want[2], in[i]);
    }
    lsk_buffer *bi = bt_buf(&t, in, n * sizeof *in), *bg = bt_buf(&t, g, sizeof g);
    lsk_buffer *br = bt_buf(&t, NULL, n * sizeof *in);
    bt_run(&t, "atomics_double", s, nb,
           LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bg), LSK_ARG_BUFFER(br)));
    lsk_buffer_destroy(bi);
    double *gg = bt_get(&t, bg, sizeof g), *ret = bt_get(&t, br, n * sizeof *ret);
    for (int j = 0; j < 4; ++j)
      ck_assert_msg(gg[j] == want[j], "atomic %s_double W=%u: %g, want %g",
                    j < 3 ? op_names[j] : "counter", W, gg[j], want[j]);
    unsigned char *seen = calloc(n, 1);
    for (unsigned i = 0; i < n; ++i) {
      ck_assert_msg(ret[i] >= 0 && ret[i] < n && ret[i] == floor(ret[i]) && !seen[(unsigned)ret[i]],
                    "W=%u: add %u returned %g: not a fresh old value", W, i, ret[i]);
      seen[(unsigned)ret[i]] = 1;
    }
    free(seen);
    free(ret);
    free(gg);
    free(in);
  }
  bt_close(&t);
}
END_TEST

void bt_add_atomic_tests(TCase *tc)
{
  tcase_add_test(tc, test_block_append_overflow);
  tcase_add_test(tc, test_block_append_fits);
  tcase_add_test(tc, test_block_atomic_float);
  tcase_add_test(tc, test_block_atomic_double);
}
