/*
 * check_grind_types.c: suite grind_types, the kernel library's reduce and
 * scan kernels for every type and operation (kernels/reduce.cl,
 * kernels/scan.cl) at small sizes, for oclgrind (tests/oclgrind.sh), on
 * three shapes:
 *   scalar: 4 workers x 2, several blocks (two passes), a partial tile;
 *   vector: 2 workers x 8 (the vload8 paths: LSK_SIMD % 8 == 0 and the
 *           tile a multiple of the stride), several blocks, the last
 *           tile partial so the scalar tail runs too;
 *   one:    one worker x 8, one block (one pass).
 * Integers are random (sums wrap around); floats and doubles are small
 * integers, so every sum is exact whatever the order. References in plain
 * C. Also: the block collectives of every type (check_block.c). The scans
 * on both their GPU paths (LSK_SCAN_LOOKBACK 0 and 1: reduce-then-scan
 * and the look-back kernel, which oclgrind's device, a GPU with 64-bit
 * atomics, takes by itself out of place).
 *
 * Suite grind_vsum is the sums of the vector paths alone (reduce of float
 * and double, scan of every type): LLVM folds their lanes with
 * shufflevectors that have undef lanes, and oclgrind 21.10's uninitialized
 * checker crashes on those (a segmentation fault), so the
 * oclgrind_grind_vsum test runs them with --data-races only
 * (LSK_GRIND_FLAGS in tests/CMakeLists.txt).
 */
#define _XOPEN_SOURCE 700 /* setenv */
#include <inttypes.h>
#include <stdio.h>

#include "testutil.h"

static const lsk_algo_options shapes[] = {
    {.workers = 4, .simd = 2, .tile = 24, .blocks = 3},
    {.workers = 2, .simd = 8, .tile = 32, .blocks = 3},
    {.workers = 1, .simd = 8, .tile = 64, .blocks = 1},
};
static const char *shape_names[] = {"scalar", "vector", "one"};
static const char *op_names[] = {"sum", "min", "max"};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

enum { N = 150, OFF = 3 };

/* Suite grind_vsum's cases: on a vector shape, a float or double reduce
 * sum (scan 0), or any scan (scan 1). */
static int vsum(lsk_type t, int sum, int scan, size_t s)
{
  return shapes[s].simd % 8 == 0 &&
         (scan || (sum && (t == LSK_TYPE_FLOAT || t == LSK_TYPE_DOUBLE)));
}

static uint64_t next(uint64_t *r)
{
  uint64_t z = (*r += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* n values of type t into x (size bytes each). */
static void fill(lsk_type t, void *x, size_t n, uint64_t seed)
{
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = next(&seed);
    int small = (int)(r % 2001) - 1000;
    switch (t) {
    case LSK_TYPE_INT:
    case LSK_TYPE_UINT: ((uint32_t *)x)[i] = (uint32_t)r; break;
    case LSK_TYPE_LONG:
    case LSK_TYPE_ULONG: ((uint64_t *)x)[i] = r; break;
    case LSK_TYPE_FLOAT: ((float *)x)[i] = (float)small; break;
    case LSK_TYPE_DOUBLE: ((double *)x)[i] = (double)small; break;
    }
  }
}

/* Sums wrap in the unsigned type of the same size (S), min and max in C. */
#define FOLD(C, S, x, n, op, out)                                                                  \
  do {                                                                                             \
    const C *v_ = (const C *)(x);                                                                  \
    C acc_ = v_[0];                                                                                \
    for (size_t i_ = 1; i_ < (n); ++i_)                                                            \
      acc_ = (op) == LSK_OP_SUM   ? (C)((S)acc_ + (S)v_[i_])                                       \
             : (op) == LSK_OP_MIN ? (v_[i_] < acc_ ? v_[i_] : acc_)                                \
                                  : (acc_ < v_[i_] ? v_[i_] : acc_);                               \
    memcpy((out), &acc_, sizeof acc_);                                                             \
  } while (0)

static void reference(lsk_type t, lsk_op op, const void *x, size_t n, void *out)
{
  switch (t) {
  case LSK_TYPE_INT: FOLD(int32_t, uint32_t, x, n, op, out); break;
  case LSK_TYPE_UINT: FOLD(uint32_t, uint32_t, x, n, op, out); break;
  case LSK_TYPE_LONG: FOLD(int64_t, uint64_t, x, n, op, out); break;
  case LSK_TYPE_ULONG: FOLD(uint64_t, uint64_t, x, n, op, out); break;
  case LSK_TYPE_FLOAT: FOLD(float, float, x, n, op, out); break;
  case LSK_TYPE_DOUBLE: FOLD(double, double, x, n, op, out); break;
  }
}

static lsk_buffer *upload(lsk_context *ctx, const void *x, size_t bytes)
{
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, bytes, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, x, bytes, NULL));
  return b;
}

/* Every type (double where the device has it) and operation, every shape:
 * lsk_reduce of elements [OFF, OFF + N) of a buffer of N + 2 * OFF; the
 * vector sums only (want_vsum) or all but those. */
static void reduce_types(int want_vsum)
{
  static const lsk_op ops[] = {LSK_OP_SUM, LSK_OP_MIN, LSK_OP_MAX};
  lsk_context *ctx = tu_context();
  int fp64 = lsk_context_device(ctx)->has_fp64;
  /* 8-byte types first: the reduction's scratch buffer then never grows in
   * this context. (oclgrind 21.10 keeps stale shadow state when a buffer
   * that was a kernel argument is released and a larger one takes its
   * place, and reports the new one as uninitialized.) */
  static const lsk_type types[] = {LSK_TYPE_DOUBLE, LSK_TYPE_LONG, LSK_TYPE_ULONG,
                                   LSK_TYPE_INT,    LSK_TYPE_UINT, LSK_TYPE_FLOAT};
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ++ti) {
    lsk_type t = types[ti];
    if (t == LSK_TYPE_DOUBLE && !fp64) {
      printf("grind_types: no fp64 on this device: double not checked\n");
      continue;
    }
    size_t sz = lsk_type_size(t);
    unsigned char x[(N + 2 * OFF) * 8];
    fill(t, x, N + 2 * OFF, 100 + (uint64_t)t);
    lsk_buffer *b = upload(ctx, x, (N + 2 * OFF) * sz);
    for (size_t s = 0; s < NSHAPES; ++s)
      for (size_t o = 0; o < 3; ++o) {
        uint64_t got = 0, want = 0;
        reference(t, ops[o], x + OFF * sz, N, &want);
        if (vsum(t, ops[o] == LSK_OP_SUM, 0, s) != want_vsum)
          continue;
        TU_OK(ctx, lsk_reduce(ctx, t, ops[o], b, OFF, N, &got, lsk_type_size(t), &shapes[s], NULL));
        ck_assert_msg(memcmp(&got, &want, sz) == 0,
                      "reduce %s %s, %s shape: got 0x%" PRIx64 ", want 0x%" PRIx64,
                      lsk_type_name(t), op_names[o], shape_names[s], got, want);
      }
    lsk_buffer_destroy(b);
  }
  lsk_context_destroy(ctx);
}

START_TEST(test_grind_reduce_types) { reduce_types(0); }
END_TEST

START_TEST(test_grind_reduce_vsum) { reduce_types(1); }
END_TEST

/* int, uint and float, exclusive and inclusive, every shape: in[OFF..]
 * into out[2 * OFF..]; the rest of out keeps its sentinel. */
static void scan_types(int want_vsum)
{
  static const lsk_type types[] = {LSK_TYPE_INT, LSK_TYPE_UINT, LSK_TYPE_FLOAT};
  enum { M = N + 4 * OFF };
  lsk_context *ctx = tu_context();
  for (size_t tp = 0; tp < 6; ++tp) {
    size_t ti = tp % 3;
    setenv("LSK_SCAN_LOOKBACK", tp < 3 ? "0" : "1", 1);
    lsk_type t = types[ti];
    uint32_t x[M], sentinel[M], got[M];
    fill(t, x, M, 200 + (uint64_t)t);
    for (size_t i = 0; i < M; ++i)
      sentinel[i] = 0xa5a5a5a5u;
    lsk_buffer *in = upload(ctx, x, sizeof x);
    for (size_t s = 0; s < NSHAPES; ++s)
      for (int incl = 0; incl < 2; ++incl) {
        if (vsum(t, 1, 1, s) != want_vsum)
          continue;
        lsk_buffer *out = upload(ctx, sentinel, sizeof sentinel);
        TU_OK(ctx, lsk_scan(ctx, t, incl ? LSK_SCAN_INCLUSIVE : LSK_SCAN_EXCLUSIVE, in, OFF, out,
                            2 * OFF, N, &shapes[s], NULL));
        TU_OK(ctx, lsk_buffer_read(out, 0, got, sizeof got, NULL));
        uint32_t run = 0;
        float frun = 0;
        for (size_t i = 0; i < M; ++i) {
          uint32_t want = sentinel[i];
          if (i >= 2 * OFF && i < 2 * OFF + N) {
            uint32_t v = x[i - OFF];
            float fv;
            memcpy(&fv, &v, 4);
            float fnext = frun + fv;
            uint32_t next_run = run + v;
            if (t == LSK_TYPE_FLOAT)
              memcpy(&want, incl ? &fnext : &frun, 4);
            else
              want = incl ? next_run : run;
            run = next_run;
            frun = fnext;
          }
          ck_assert_msg(got[i] == want, "scan %s %s, %s shape: out[%zu] = 0x%08x, want 0x%08x",
                        lsk_type_name(t), incl ? "inclusive" : "exclusive", shape_names[s], i,
                        got[i], want);
        }
        lsk_buffer_destroy(out);
      }
    lsk_buffer_destroy(in);
  }
  unsetenv("LSK_SCAN_LOOKBACK");
  lsk_context_destroy(ctx);
}

START_TEST(test_grind_scan_types) { scan_types(0); }
END_TEST

START_TEST(test_grind_scan_vsum) { scan_types(1); }
END_TEST

/* The block collectives of every type, predicates, a user-defined
 * operation, appends and the float and double atomics (check_block.c). */
Suite *suite_grind_types(void)
{
  Suite *s = suite_create("grind_types");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_reduce_types);
  tcase_add_test(tc, test_grind_scan_types);
  suite_add_tcase(s, tc);
  suite_add_tcase(s, tcase_block_grind());
  return s;
}

Suite *suite_grind_vsum(void)
{
  Suite *s = suite_create("grind_vsum");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_reduce_vsum);
  tcase_add_test(tc, test_grind_scan_vsum);
  suite_add_tcase(s, tc);
  return s;
}
