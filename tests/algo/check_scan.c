/*
 * check_scan.c: device-wide prefix sums against plain C, for int, uint
 * (wrapping) and float (integer values whose prefix sums are exact, and
 * arbitrary values within the documented bound), inclusive and exclusive,
 * in place and not, sizes 0, 1, 7, 1000, 2^20 + 3 and one large case,
 * several launch shapes including one worker; the CPU path's edges (sizes
 * around its segments and chunks) with each path forced (LSK_SCAN_CPU);
 * the look-back path (LSK_SCAN_LOOKBACK=1) in each test order of its
 * kernel (LSK_SCAN_LOOKBACK_HOOK: tiles taken last first, every look-back
 * through the fallback), with the tile states it leaves behind.
 */
#define _XOPEN_SOURCE 700 /* setenv */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "algo/algo.h"
#include "testutil.h"

static uint64_t rng_state;
static uint32_t rng(void) { return tu_rng(&rng_state); }

/* n elements of 4 bytes: ints, uints, or floats (integers in [-8, 8] when
 * exact, else in [0.5, 1.5)). */
static uint32_t *make_data(lsk_type t, size_t n, int exact)
{
  uint32_t *p = malloc(n * 4 + 4);
  for (size_t i = 0; i < n; ++i) {
    uint32_t r = rng();
    if (t == LSK_TYPE_FLOAT) {
      float f = exact ? (float)((int)(r % 17) - 8) : (float)(r % 1000000) / 1e6f + 0.5f;
      memcpy(&p[i], &f, 4);
    } else
      p[i] = r;
  }
  return p;
}

/* Checks out against the C prefix sums of in (wrapping for integers; long
 * double for floats, exactly or within height * u * prefix of |x|). */
static void check_prefix(lsk_type t, int inclusive, const uint32_t *in, const uint32_t *out,
                         size_t n, int exact, size_t tile)
{
  uint32_t run = 0;
  long double frun = 0, fabs_run = 0;
  long double h = (long double)2 * tile + 64 + (long double)n / (long double)tile;
  for (size_t i = 0; i < n; ++i) {
    if (t == LSK_TYPE_FLOAT) {
      float x, got;
      memcpy(&x, &in[i], 4);
      memcpy(&got, &out[i], 4);
      if (inclusive) {
        frun += x;
        fabs_run += fabsl((long double)x);
      }
      long double err = fabsl((long double)got - frun);
      long double bound = exact ? 0 : h * (FLT_EPSILON / 2) * fabs_run;
      /* if + ck_abort: a passing ck_assert messages the parent process,
       * which costs seconds over a million elements. */
      if (!(err <= bound))
        ck_abort_msg("float %s scan of %zu: [%zu] = %g, want %Lg (bound %Lg)",
                     inclusive ? "inclusive" : "exclusive", n, i, got, frun, bound);
      if (!inclusive) {
        frun += x;
        fabs_run += fabsl((long double)x);
      }
    } else {
      if (inclusive)
        run += in[i];
      if (out[i] != run)
        ck_abort_msg("%s %s scan of %zu: [%zu] = %u, want %u", lsk_type_name(t),
                     inclusive ? "inclusive" : "exclusive", n, i, out[i], run);
      if (!inclusive)
        run += in[i];
    }
  }
}

static void check_one(lsk_context *ctx, lsk_type t, int inclusive, size_t n,
                      const lsk_algo_options *o, int exact, int in_place)
{
  if (tu_algo_capped(ctx, "scan", n, o))
    return;
  uint32_t *data = make_data(t, n, exact);
  lsk_buffer *in, *out;
  /* The input sits at offset 5, the output at 2; in place both at 5. */
  TU_OK(ctx, lsk_buffer_create(ctx, (n + 8) * 4, &in));
  TU_OK(ctx, lsk_buffer_create(ctx, (n + 8) * 4, &out));
  uint32_t *pad = malloc((n + 8) * 4);
  memset(pad, 0xa5, (n + 8) * 4);
  memcpy(pad + 5, data, n * 4);
  TU_OK(ctx, lsk_buffer_write(in, 0, pad, (n + 8) * 4, NULL));
  memset(pad, 0xa5, (n + 8) * 4);
  TU_OK(ctx, lsk_buffer_write(out, 0, pad, (n + 8) * 4, NULL));
  lsk_buffer *dst = in_place ? in : out;
  size_t at = in_place ? 5 : 2;
  TU_OK(ctx, lsk_scan(ctx, t, inclusive ? LSK_SCAN_INCLUSIVE : LSK_SCAN_EXCLUSIVE, in, 5, dst, at,
                      n, o, NULL));
  TU_OK(ctx, lsk_context_finish(ctx));
  uint32_t *got = malloc((n + 8) * 4);
  TU_OK(ctx, lsk_buffer_read(dst, 0, got, (n + 8) * 4, NULL));
  check_prefix(t, inclusive, data, got + at, n, exact, o->tile ? o->tile : 2048);
  /* Nothing outside the range was written. */
  for (size_t i = 0; i < n + 8; ++i)
    if (i < at || i >= at + n)
      if (got[i] != 0xa5a5a5a5u)
        ck_abort_msg("element %zu outside the range changed", i);
  free(got);
  free(pad);
  free(data);
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
}

static const lsk_type types[] = {LSK_TYPE_INT, LSK_TYPE_UINT, LSK_TYPE_FLOAT};

START_TEST(test_scan_matches_c)
{
  lsk_context *ctx = tu_context();
  rng_state = 1234 + (uint64_t)_i;
  const lsk_algo_options *o = &tu_shapes[_i];
  for (size_t ti = 0; ti < 3; ++ti)
    for (int incl = 0; incl < 2; ++incl)
      for (size_t si = 0; si < TU_NSIZES; ++si)
        check_one(ctx, types[ti], incl, tu_sizes[si], o, 1, (si + (size_t)incl) % 2);
  for (size_t si = 0; si < TU_NSIZES; ++si)
    check_one(ctx, LSK_TYPE_FLOAT, 1, tu_sizes[si], o, 0, 0);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_scan_large)
{
  lsk_context *ctx = tu_context();
  rng_state = 99;
  check_one(ctx, LSK_TYPE_UINT, 0, ((size_t)1 << 25) + 11, &tu_shapes[0], 1, 1);
  lsk_context_destroy(ctx);
}
END_TEST

/* The CPU path (host/algo/scan.c, scan_cpu) at its edges: chunks of
 * tile x blocks elements when both are set, here 32 (segments of 8 or
 * 16), so the sizes cross segments and chunks; then the default chunk
 * (2^20) and one past two of them. Each with the path the device takes,
 * the CPU path forced and the lockstep path forced. */
START_TEST(test_scan_cpu_edges)
{
  static const char *const paths[] = {NULL, "1", "0"};
  static const size_t sizes[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 129, 1000};
  static const lsk_algo_options tiny = {.tile = 16, .blocks = 2};
  for (size_t k = 0; k < 3; ++k) {
    if (paths[k])
      setenv("LSK_SCAN_CPU", paths[k], 1);
    lsk_context *ctx = tu_context();
    rng_state = 77 + k;
    for (size_t ti = 0; ti < 3; ++ti)
      for (int incl = 0; incl < 2; ++incl)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si)
          check_one(ctx, types[ti], incl, sizes[si], &tiny, 1, (si + (size_t)incl) % 2);
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si)
      check_one(ctx, LSK_TYPE_FLOAT, si % 2, sizes[si], &tiny, 0, si % 3 == 0);
    static const size_t big[] = {((size_t)1 << 20) - 1, ((size_t)1 << 20) + 1,
                                 ((size_t)2 << 20) + 5};
    for (size_t si = 0; si < 3; ++si) {
      check_one(ctx, LSK_TYPE_UINT, 0, big[si], &tu_shapes[0], 1, si != 1);
      check_one(ctx, LSK_TYPE_INT, 1, big[si], &tu_shapes[0], 1, si == 1);
    }
    check_one(ctx, LSK_TYPE_FLOAT, 1, big[2], &tu_shapes[0], 0, 1);
    lsk_context_destroy(ctx);
    unsetenv("LSK_SCAN_CPU");
  }
}
END_TEST

/* The CPU path's streaming stores (LSK_SCAN_STREAM=1; on x86 PoCL
 * non-temporal, where the output is 32-byte aligned): uint scans with the
 * output at elements 0 and 8 (aligned) and 3 (not), sizes within a chunk
 * and across chunks, both kinds, against a plain C prefix sum; nothing
 * outside the output's range written. */
START_TEST(test_scan_cpu_stream)
{
  setenv("LSK_SCAN_CPU", "1", 1);
  setenv("LSK_SCAN_STREAM", "1", 1);
  lsk_context *ctx = tu_context();
  static const size_t sizes[] = {1000, 4099, ((size_t)1 << 20) + 13, ((size_t)2 << 20) + 40};
  static const size_t ats[] = {0, 8, 3};
  uint64_t st = 99;
  for (size_t si = 0; si < 4; ++si) {
    size_t n = sizes[si], cap = n + 16;
    if (tu_algo_capped(ctx, "scan", n, &tu_shapes[0]))
      continue;
    uint32_t *in = malloc(n * 4), *got = malloc(cap * 4);
    ck_assert(in && got);
    for (size_t i = 0; i < n; ++i)
      in[i] = tu_rng(&st) % 1000u;
    lsk_buffer *bin = NULL, *bout = NULL;
    TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &bin));
    TU_OK(ctx, lsk_buffer_write(bin, 0, in, n * 4, NULL));
    TU_OK(ctx, lsk_buffer_create(ctx, cap * 4, &bout));
    for (size_t ai = 0; ai < 3; ++ai)
      for (int incl = 0; incl < 2; ++incl) {
        memset(got, 0xa5, cap * 4);
        TU_OK(ctx, lsk_buffer_write(bout, 0, got, cap * 4, NULL));
        TU_OK(ctx, lsk_scan(ctx, LSK_TYPE_UINT, incl ? LSK_SCAN_INCLUSIVE : LSK_SCAN_EXCLUSIVE, bin,
                            0, bout, ats[ai], n, &tu_shapes[0], NULL));
        TU_OK(ctx, lsk_buffer_read(bout, 0, got, cap * 4, NULL));
        uint32_t run = 0;
        for (size_t i = 0; i < cap; ++i) {
          if (i < ats[ai] || i >= ats[ai] + n) {
            ck_assert_msg(got[i] == 0xa5a5a5a5u, "n %zu at %zu: element %zu outside changed", n,
                          ats[ai], i);
            continue;
          }
          uint32_t x = in[i - ats[ai]], want = incl ? run + x : run;
          ck_assert_msg(got[i] == want, "n %zu at %zu %s: element %zu is %u, want %u", n, ats[ai],
                        incl ? "inclusive" : "exclusive", i - ats[ai], got[i], want);
          run += x;
        }
      }
    lsk_buffer_destroy(bin);
    lsk_buffer_destroy(bout);
    free(in);
    free(got);
  }
  lsk_context_destroy(ctx);
  unsetenv("LSK_SCAN_STREAM");
  unsetenv("LSK_SCAN_CPU");
}
END_TEST

/* The look-back path (kernels/scan.cl, host/algo/scan.c scan_lookback),
 * forced on whatever device runs the tests, in the four test orders of
 * its kernel (LSK_SCAN_LOOKBACK_HOOK, _i): 0 as the device runs it (in
 * order on PoCL and oclgrind), 1 tiles taken last first (every look-back
 * meets NOT_READY words: the fallback sums them and its CAS installs
 * them; owners find their aggregate installed), 2 every word the window
 * reads taken for NOT_READY (each step's fallback CAS decides: in order,
 * it fails on the published word), 3 both. Sizes around the tile (64)
 * and many tiles (more than a window of 32), one worker and several,
 * scalar and vload8 lanes; in-place calls take reduce-then-scan. */
static const lsk_algo_options lb_shapes[] = {
    {.tile = 64, .blocks = 3},
    {.tile = 64, .workers = 1},
    {.tile = 64, .blocks = 4, .workers = 8, .simd = 8},
    {.tile = 256, .blocks = 2, .workers = 32, .simd = 8},
};
static const size_t lb_sizes[] = {1, 63, 64, 65, 127, 128, 129, 1000, 64 * 40 + 7, 64 * 300};

START_TEST(test_scan_lookback)
{
  char hook[2] = {(char)('0' + _i), 0};
  setenv("LSK_SCAN_LOOKBACK", "1", 1);
  setenv("LSK_SCAN_LOOKBACK_HOOK", hook, 1);
  lsk_context *ctx = tu_context();
  if (!lsk_context_device(ctx)->has_int64_atomics) {
    lsk_context_destroy(ctx);
    unsetenv("LSK_SCAN_LOOKBACK");
    unsetenv("LSK_SCAN_LOOKBACK_HOOK");
    return; /* reduce-then-scan: the other cases */
  }
  rng_state = 555 + (uint64_t)_i;
  for (size_t k = 0; k < sizeof lb_shapes / sizeof *lb_shapes; ++k)
    for (size_t ti = 0; ti < 3; ++ti)
      for (int incl = 0; incl < 2; ++incl)
        for (size_t si = 0; si < sizeof lb_sizes / sizeof *lb_sizes; ++si)
          if (lb_shapes[k].tile == 64 || si % 3 == 0)
            check_one(ctx, types[ti], incl, lb_sizes[si], &lb_shapes[k], 1, si % 4 == 3 && ti == 0);
  for (size_t si = 0; si < sizeof lb_sizes / sizeof *lb_sizes; ++si)
    check_one(ctx, LSK_TYPE_FLOAT, (int)(si % 2), lb_sizes[si], &lb_shapes[si % 4], 0, 0);
  /* The default tile (8192) over several tiles. */
  check_one(ctx, LSK_TYPE_UINT, 0, 8192 * 5 + 3, &tu_shapes[0], 1, 0);
  lsk_context_destroy(ctx);
  unsetenv("LSK_SCAN_LOOKBACK");
  unsetenv("LSK_SCAN_LOOKBACK_HOOK");
}
END_TEST

/* What the look-back kernel leaves behind: every tile's word INCLUSIVE
 * (flag 2 in the high half) with the inclusive prefix at the tile's end
 * (no fallback's AGGREGATE overwrote a published word), and the ticket
 * at tiles (one block per tile, one ticket each). In each test order
 * (_i), uints, out of place, several shapes. */
START_TEST(test_scan_lookback_states)
{
  char hook[2] = {(char)('0' + _i), 0};
  setenv("LSK_SCAN_LOOKBACK_HOOK", hook, 1);
  lsk_context *ctx = tu_context();
  if (!lsk_context_device(ctx)->has_int64_atomics) {
    lsk_context_destroy(ctx);
    unsetenv("LSK_SCAN_LOOKBACK_HOOK");
    return;
  }
  rng_state = 4242 + (uint64_t)_i;
  static const size_t sizes[] = {64, 65, 64 * 37 + 5, 64 * 100};
  static const lsk_algo_options shapes[] = {
      {.tile = 64}, {.tile = 64, .workers = 8, .simd = 8}, {.tile = 64, .workers = 1}};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si)
    for (size_t bi = 0; bi < 3; ++bi) {
      size_t n = sizes[si], tiles = (n + 63) / 64;
      const lsk_algo_options *o = &shapes[bi];
      uint32_t *data = make_data(LSK_TYPE_UINT, n, 1);
      lsk_buffer *in, *out, *cells;
      TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &in));
      TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &out));
      TU_OK(ctx, lsk_buffer_create(ctx, (tiles + 1) * 8, &cells));
      TU_OK(ctx, lsk_buffer_write(in, 0, data, n * 4, NULL));
      TU_OK(ctx,
            lsk__scan_lookback(ctx, LSK_TYPE_UINT, LSK_SCAN_INCLUSIVE, in, 0, out, 0, n, o, cells));
      uint32_t *got = malloc(n * 4);
      uint64_t *words = malloc((tiles + 1) * 8);
      TU_OK(ctx, lsk_buffer_read(out, 0, got, n * 4, NULL));
      TU_OK(ctx, lsk_buffer_read(cells, 0, words, (tiles + 1) * 8, NULL));
      check_prefix(LSK_TYPE_UINT, 1, data, got, n, 1, 64);
      ck_assert_uint_eq((uint32_t)words[0], tiles);
      uint32_t run = 0;
      for (size_t i = 0; i < n; ++i) {
        run += data[i];
        if (i % 64 == 63 || i == n - 1) {
          uint64_t want = (uint64_t)2 << 32 | run;
          if (words[1 + i / 64] != want)
            ck_abort_msg("hook %d, %zu elements, shape %zu: tile %zu's word %#llx, want %#llx", _i,
                         n, bi, i / 64, (unsigned long long)words[1 + i / 64],
                         (unsigned long long)want);
        }
      }
      free(words);
      free(got);
      free(data);
      lsk_buffer_destroy(in);
      lsk_buffer_destroy(out);
      lsk_buffer_destroy(cells);
    }
  lsk_context_destroy(ctx);
  unsetenv("LSK_SCAN_LOOKBACK_HOOK");
}
END_TEST

START_TEST(test_scan_bad_input)
{
  lsk_context *ctx = tu_context(), *other = tu_context();
  lsk_buffer *a = tu_zeros(ctx, 16), *foreign = tu_zeros(other, 16);
  TU_FAILS(NULL, lsk_scan(NULL, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, a, 0, 4, NULL, NULL),
           LSK_EINVAL, "lsk_scan: ctx is NULL");
  TU_FAILS(ctx, lsk_scan(ctx, LSK_TYPE_LONG, LSK_SCAN_EXCLUSIVE, a, 0, a, 0, 4, NULL, NULL),
           LSK_EINVAL, "lsk_scan: type 3 is not supported");
  TU_FAILS(ctx, lsk_scan(ctx, LSK_TYPE_UINT, (lsk_scan_kind)2, a, 0, a, 0, 4, NULL, NULL),
           LSK_EINVAL, "lsk_scan: kind 2 is not");
  TU_FAILS(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, NULL, 0, a, 0, 4, NULL, NULL),
           LSK_EINVAL, "lsk_scan: in is NULL");
  TU_FAILS(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, NULL, 0, 4, NULL, NULL),
           LSK_EINVAL, "lsk_scan: out is NULL");
  TU_FAILS(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, foreign, 0, 4, NULL, NULL),
           LSK_EINVAL, "lsk_scan: out belongs to another context");
  TU_FAILS(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, a, 13, 4, NULL, NULL),
           LSK_ERANGE, "lsk_scan: out: elements [13, 17) of 4 bytes exceed the buffer's 64 bytes");
  TU_FAILS(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, a, 2, 4, NULL, NULL),
           LSK_EINVAL, "lsk_scan: in [0, 4) and out [2, 6) overlap");
  /* Overlap is fine across buffers, and in place. */
  TU_OK(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 0, a, 4, 4, NULL, NULL));
  TU_OK(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a, 3, a, 3, 4, NULL, NULL));
  TU_OK(ctx, lsk_context_finish(ctx));
  lsk_buffer_destroy(a);
  lsk_buffer_destroy(foreign);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_scan(void)
{
  Suite *s = suite_create("scan");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, test_scan_matches_c, 0, TU_NSHAPES);
  tcase_add_test(tc, test_scan_large);
  tcase_add_test(tc, test_scan_cpu_edges);
  tcase_add_test(tc, test_scan_cpu_stream);
  tcase_add_test(tc, test_scan_bad_input);
  suite_add_tcase(s, tc);
  TCase *lb = tcase_create("lookback");
  tcase_set_timeout(lb, 600);
  tcase_add_loop_test(lb, test_scan_lookback, 0, 4);
  tcase_add_loop_test(lb, test_scan_lookback_states, 0, 4);
  suite_add_tcase(s, lb);
  return s;
}
