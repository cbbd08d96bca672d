/*
 * check_grind_algo.c: the kernel library's kernels at small sizes, for
 * tests/oclgrind.sh (races, uninitialized reads, out-of-range accesses);
 * it also runs as an ordinary suite. Sizes and tiles are chosen so that
 * every pass runs with several blocks and a partial last tile.
 */
#define _XOPEN_SOURCE 700 /* setenv */
#include <stdint.h>

#include "testutil.h"

static const lsk_algo_options small = {.tile = 64, .blocks = 3};

START_TEST(test_grind_reduce)
{
  lsk_context *ctx = tu_context();
  enum { N = 300 };
  uint32_t h[N];
  float f[N];
  uint32_t sum = 0;
  float mx = -1;
  for (uint32_t i = 0; i < N; ++i) {
    h[i] = i * 2654435761u;
    sum += h[i];
    f[i] = (float)((i * 37) % 101);
    mx = f[i] > mx ? f[i] : mx;
  }
  lsk_buffer *a, *b;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof h, &a));
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof f, &b));
  TU_OK(ctx, lsk_buffer_write(a, 0, h, sizeof h, NULL));
  TU_OK(ctx, lsk_buffer_write(b, 0, f, sizeof f, NULL));
  uint32_t got = 0;
  TU_OK(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, a, 0, N, &got, sizeof got, &small, NULL));
  ck_assert_uint_eq(got, sum);
  float fgot = 0;
  TU_OK(ctx,
        lsk_reduce(ctx, LSK_TYPE_FLOAT, LSK_OP_MAX, b, 1, N - 1, &fgot, sizeof fgot, &small, NULL));
  ck_assert(fgot == mx);
  lsk_buffer_destroy(a);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_grind_scan)
{
  lsk_context *ctx = tu_context();
  enum { N = 300 };
  uint32_t h[N], out[N];
  for (uint32_t i = 0; i < N; ++i)
    h[i] = i % 7 + 1;
  lsk_buffer *a, *b;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof h, &a));
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof h, &b));
  TU_OK(ctx, lsk_buffer_write(a, 0, h, sizeof h, NULL));
  TU_OK(ctx, lsk_buffer_write(b, 0, h, sizeof h, NULL));
  TU_OK(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, b, 0, N, &small, NULL));
  TU_OK(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_INCLUSIVE, a, 0, a, 0, N, &small, NULL));
  TU_OK(ctx, lsk_context_finish(ctx));
  uint32_t run = 0, incl[N];
  TU_OK(ctx, lsk_buffer_read(b, 0, out, sizeof out, NULL));
  TU_OK(ctx, lsk_buffer_read(a, 0, incl, sizeof incl, NULL));
  for (int i = 0; i < N; ++i) {
    ck_assert_uint_eq(out[i], run);
    run += h[i];
    ck_assert_uint_eq(incl[i], run);
  }
  lsk_buffer_destroy(a);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

/* The scan's look-back kernel (kernels/scan.cl), out of place: the path
 * oclgrind's device takes by itself (a GPU with 64-bit atomics), in the
 * order LSK_SCAN_LOOKBACK_HOOK gives (in order by default; CMake's
 * oclgrind_grind_algo_scan_lookback_hook runs it with tiles taken last
 * first and every look-back through the fallback); uint exclusive and
 * float inclusive (integer values: exact), one lane per worker (the
 * vload8 path, on which oclgrind's uninitialized checker crashes, is
 * suite grind_vsum's). LSK_SCAN_LOOKBACK=1 so that it runs on every
 * device with the atomics. */
START_TEST(test_grind_scan_lookback)
{
  setenv("LSK_SCAN_LOOKBACK", "1", 1);
  lsk_context *ctx = tu_context();
  enum { N = 300 };
  static const lsk_algo_options shapes[] = {{.tile = 64}, {.tile = 32, .blocks = 2}};
  uint32_t h[N], out[N];
  float f[N], fout[N];
  for (uint32_t i = 0; i < N; ++i) {
    h[i] = i * 2654435761u;
    f[i] = (float)(i % 5) - 2.0f;
  }
  lsk_buffer *a, *b, *fa, *fb;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof h, &a));
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof h, &b));
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof f, &fa));
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof f, &fb));
  TU_OK(ctx, lsk_buffer_write(a, 0, h, sizeof h, NULL));
  TU_OK(ctx, lsk_buffer_write(fa, 0, f, sizeof f, NULL));
  for (int k = 0; k < 2; ++k) {
    TU_OK(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, b, 0, N, &shapes[k], NULL));
    TU_OK(ctx,
          lsk_scan(ctx, LSK_TYPE_FLOAT, LSK_SCAN_INCLUSIVE, fa, 1, fb, 1, N - 1, &shapes[k], NULL));
    TU_OK(ctx, lsk_context_finish(ctx));
    TU_OK(ctx, lsk_buffer_read(b, 0, out, sizeof out, NULL));
    TU_OK(ctx, lsk_buffer_read(fb, 4, fout + 1, sizeof fout - 4, NULL));
    uint32_t run = 0;
    float frun = 0;
    for (int i = 0; i < N; ++i) {
      ck_assert_uint_eq(out[i], run);
      run += h[i];
      if (i > 0) {
        frun += f[i];
        ck_assert(fout[i] == frun);
      }
    }
  }
  lsk_buffer_destroy(a);
  lsk_buffer_destroy(b);
  lsk_buffer_destroy(fa);
  lsk_buffer_destroy(fb);
  lsk_context_destroy(ctx);
  unsetenv("LSK_SCAN_LOOKBACK");
}
END_TEST

Suite *suite_grind_algo(void)
{
  Suite *s = suite_create("grind_algo");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_reduce);
  tcase_add_test(tc, test_grind_scan);
  tcase_add_test(tc, test_grind_scan_lookback);
  suite_add_tcase(s, tc);
  return s;
}
