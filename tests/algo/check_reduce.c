/*
 * check_reduce.c: device-wide reduce against plain C, for every type and
 * operation, sizes 0, 1, 7, 1000, 2^20 + 3 and one large case, and several
 * launch shapes (including one worker). Integer sums wrap around and must
 * match exactly; float sums of integer values (whose partial sums are all
 * exact) must match exactly, and sums of arbitrary floats must lie within
 * the bound documented in docs/algorithms.md.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"

static uint64_t rng_state;
static uint64_t rng(void)
{
  uint64_t hi = tu_rng(&rng_state);
  return hi << 21 ^ tu_rng(&rng_state);
}

/* Random data of type t; floats are integers in [-8, 8] when exact. */
static void *make_data(lsk_type t, size_t n, int exact)
{
  void *p = malloc(n * 8 + 8);
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = rng();
    switch (t) {
    case LSK_TYPE_INT: ((int32_t *)p)[i] = (int32_t)(uint32_t)r; break;
    case LSK_TYPE_UINT: ((uint32_t *)p)[i] = (uint32_t)r; break;
    case LSK_TYPE_LONG: ((int64_t *)p)[i] = (int64_t)(r << 11 ^ r); break;
    case LSK_TYPE_ULONG: ((uint64_t *)p)[i] = r << 11 ^ r; break;
    case LSK_TYPE_FLOAT:
      ((float *)p)[i] = exact ? (float)((int)(r % 17) - 8) : (float)(r % 1000000) / 1e6f + 0.5f;
      break;
    case LSK_TYPE_DOUBLE:
      ((double *)p)[i] = exact ? (double)((int)(r % 17) - 8) : (double)(r % 1000000) / 1e6 + 0.5;
      break;
    }
  }
  return p;
}

/* The C reference: integers in their own type (unsigned arithmetic for the
 * wrap-around), floats in long double; identities for n = 0. */
typedef union value {
  int32_t i;
  uint32_t u;
  int64_t l;
  uint64_t ul;
  float f;
  double d;
} value;

#define FOLD(field, T, data, n, op, idmin, idmax)                                                  \
  do {                                                                                             \
    const T *x = (const T *)(data);                                                                \
    T acc = op == LSK_OP_SUM ? (T)0 : op == LSK_OP_MIN ? (idmin) : (idmax);                        \
    for (size_t i = 0; i < (n); ++i)                                                               \
      acc = op == LSK_OP_SUM   ? (T)(acc + x[i])                                                   \
            : op == LSK_OP_MIN ? (x[i] < acc ? x[i] : acc)                                         \
                               : (x[i] > acc ? x[i] : acc);                                        \
    v.field = acc;                                                                                 \
  } while (0)

static value reference(lsk_type t, lsk_op op, const void *data, size_t n, long double *abs_sum,
                       long double *exact_sum)
{
  value v = {0};
  *abs_sum = *exact_sum = 0;
  switch (t) {
  case LSK_TYPE_INT: {
    /* Wrap-around in uint32, then the same bits as int. */
    if (op == LSK_OP_SUM) {
      uint32_t s = 0;
      for (size_t i = 0; i < n; ++i)
        s += (uint32_t)((const int32_t *)data)[i];
      memcpy(&v.i, &s, 4);
    } else
      FOLD(i, int32_t, data, n, op, INT32_MAX, INT32_MIN);
    break;
  }
  case LSK_TYPE_UINT: FOLD(u, uint32_t, data, n, op, UINT32_MAX, 0); break;
  case LSK_TYPE_LONG:
    if (op == LSK_OP_SUM) {
      uint64_t s = 0;
      for (size_t i = 0; i < n; ++i)
        s += (uint64_t)((const int64_t *)data)[i];
      memcpy(&v.l, &s, 8);
    } else
      FOLD(l, int64_t, data, n, op, INT64_MAX, INT64_MIN);
    break;
  case LSK_TYPE_ULONG: FOLD(ul, uint64_t, data, n, op, UINT64_MAX, 0); break;
  case LSK_TYPE_FLOAT:
    FOLD(f, float, data, n, op, INFINITY, -INFINITY);
    for (size_t i = 0; i < n; ++i) {
      *exact_sum += ((const float *)data)[i];
      *abs_sum += fabsl((long double)((const float *)data)[i]);
    }
    break;
  case LSK_TYPE_DOUBLE:
    FOLD(d, double, data, n, op, INFINITY, -INFINITY);
    for (size_t i = 0; i < n; ++i) {
      *exact_sum += ((const double *)data)[i];
      *abs_sum += fabsl((long double)((const double *)data)[i]);
    }
    break;
  }
  return v;
}

/* The documented bound on the error of a float sum: height * u * sum|x|,
 * with height = ceil(n / (tile * blocks)) + 2 * (tile + 32). */
static long double sum_bound(lsk_type t, size_t n, const lsk_algo_options *o, long double abs_sum)
{
  size_t tile = o->tile ? o->tile : 2048;
  size_t blocks = o->blocks ? o->blocks : 1;
  long double h = (long double)((n + tile * blocks - 1) / (tile * blocks)) + 2.0L * (tile + 32);
  long double u = t == LSK_TYPE_FLOAT ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
  return h * u * abs_sum;
}

static int same(lsk_type t, value a, value b) { return memcmp(&a, &b, lsk_type_size(t)) == 0; }

static void check_one(lsk_context *ctx, lsk_type t, lsk_op op, size_t n, const lsk_algo_options *o,
                      int exact)
{
  if (tu_algo_capped(ctx, "reduce", n, o))
    return;
  size_t size = lsk_type_size(t);
  void *data = make_data(t, n, exact);
  lsk_buffer *in;
  /* 3 elements of padding on each side: the range is read at an offset. */
  TU_OK(ctx, lsk_buffer_create(ctx, (n + 6) * size, &in));
  void *pad = calloc(n + 6, size);
  memset(pad, 0x5a, (n + 6) * size);
  memcpy((char *)pad + 3 * size, data, n * size);
  TU_OK(ctx, lsk_buffer_write(in, 0, pad, (n + 6) * size, NULL));
  value got = {0};
  TU_OK(ctx, lsk_reduce(ctx, t, op, in, 3, n, &got, lsk_type_size(t), o, NULL));
  long double abs_sum, exact_sum;
  value want = reference(t, op, data, n, &abs_sum, &exact_sum);
  int is_float = t == LSK_TYPE_FLOAT || t == LSK_TYPE_DOUBLE;
  if (op == LSK_OP_SUM && is_float && !exact) {
    long double g = t == LSK_TYPE_FLOAT ? got.f : got.d;
    long double err = fabsl(g - exact_sum), bound = sum_bound(t, n, o, abs_sum);
    ck_assert_msg(err <= bound, "%s sum of %zu: error %Lg above the bound %Lg", lsk_type_name(t), n,
                  err, bound);
  } else {
    ck_assert_msg(same(t, got, want),
                  "%s %d of %zu (workers %u simd %u tile %u): got %llx want %llx", lsk_type_name(t),
                  (int)op, n, o->workers, o->simd, o->tile, (unsigned long long)got.ul,
                  (unsigned long long)want.ul);
  }
  lsk_buffer_destroy(in);
  free(pad);
  free(data);
}

static const lsk_type types[] = {LSK_TYPE_INT,   LSK_TYPE_UINT,  LSK_TYPE_LONG,
                                 LSK_TYPE_ULONG, LSK_TYPE_FLOAT, LSK_TYPE_DOUBLE};

/* Every type and operation on the automatic shape; on the others, which
 * cost a build each, one operation per type. */
START_TEST(test_reduce_matches_c)
{
  lsk_context *ctx = tu_context();
  rng_state = 42 + (uint64_t)_i;
  const lsk_algo_options *o = &tu_shapes[_i];
  int fp64 = lsk_context_device(ctx)->has_fp64;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ++ti) {
    if (types[ti] == LSK_TYPE_DOUBLE && !fp64) {
      printf("test_reduce_matches_c: skipped double: no fp64 on %s\n",
             lsk_context_device(ctx)->name);
      continue;
    }
    for (lsk_op op = LSK_OP_SUM; op <= LSK_OP_MAX; ++op)
      if (_i == 0 || op == (lsk_op)(LSK_OP_SUM + ti % 3))
        for (size_t si = 0; si < TU_NSIZES; ++si)
          check_one(ctx, types[ti], op, tu_sizes[si], o, 1);
    if (types[ti] == LSK_TYPE_FLOAT || types[ti] == LSK_TYPE_DOUBLE)
      for (size_t si = 0; si < TU_NSIZES; ++si)
        check_one(ctx, types[ti], LSK_OP_SUM, tu_sizes[si], o, 0);
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* A large case on the automatic shape, and the asynchronous form into an
 * element of a device buffer. */
START_TEST(test_reduce_large_and_async)
{
  lsk_context *ctx = tu_context();
  rng_state = 7;
  size_t n = (size_t)1 << 25;
  check_one(ctx, LSK_TYPE_UINT, LSK_OP_SUM, n, &tu_shapes[0], 1);
  check_one(ctx, LSK_TYPE_FLOAT, LSK_OP_MAX, n, &tu_shapes[0], 0);
  uint32_t *data = make_data(LSK_TYPE_UINT, 5000, 1);
  lsk_buffer *in, *out;
  TU_OK(ctx, lsk_buffer_create(ctx, 5000 * 4, &in));
  TU_OK(ctx, lsk_buffer_write(in, 0, data, 5000 * 4, NULL));
  out = tu_zeros(ctx, 4);
  TU_OK(ctx, lsk_reduce_to(ctx, LSK_TYPE_UINT, LSK_OP_MIN, in, 0, 5000, out, 2, NULL, NULL));
  TU_OK(ctx, lsk_reduce_to(ctx, LSK_TYPE_UINT, LSK_OP_MAX, in, 0, 5000, out, 1, NULL, NULL));
  TU_OK(ctx, lsk_context_finish(ctx));
  unsigned *got = tu_read_uints(ctx, out, 4);
  uint32_t mn = UINT32_MAX, mx = 0;
  for (int i = 0; i < 5000; ++i) {
    mn = data[i] < mn ? data[i] : mn;
    mx = data[i] > mx ? data[i] : mx;
  }
  ck_assert_uint_eq(got[0], 0);
  ck_assert_uint_eq(got[1], mx);
  ck_assert_uint_eq(got[2], mn);
  ck_assert_uint_eq(got[3], 0);
  free(got);
  free(data);
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
  lsk_context_destroy(ctx);
}
END_TEST

/* Float min and max ignore NaNs (reduce.h): the result is the smallest
 * (largest) value that is not a NaN, and the identity, +inf (-inf), where
 * every value is a NaN. Patterns: a NaN first, last, every third element,
 * all but one, all; NaNs of both signs. Every shape at the small sizes
 * (the vector and the scalar paths, one worker), the automatic one at
 * 2^20 + 3. */
static double nan_value(int pattern, size_t i, size_t n, uint64_t *s)
{
  int nan = pattern == 0   ? i == 0
            : pattern == 1 ? i == n - 1
            : pattern == 2 ? i % 3 == 0
            : pattern == 3 ? i != n / 2
                           : 1;
  double v = (double)((int)(tu_rng(s) % 2001) - 1000) / 8;
  return nan ? (tu_rng(s) & 1 ? NAN : -NAN) : v;
}

START_TEST(test_reduce_nan)
{
  lsk_context *ctx = tu_context();
  const lsk_type ts[] = {LSK_TYPE_FLOAT, LSK_TYPE_DOUBLE};
  for (size_t ti = 0; ti < 2; ++ti) {
    lsk_type t = ts[ti];
    if (t == LSK_TYPE_DOUBLE && !tu_fp64(ctx, "reduce of doubles with NaNs"))
      continue;
    size_t size = lsk_type_size(t);
    for (size_t si = 1; si < TU_NSIZES; ++si)
      for (size_t sh = 0; sh < TU_NSHAPES; ++sh) {
        size_t n = tu_sizes[si];
        if ((n > 1000 && sh > 0) || tu_algo_capped(ctx, "reduce", n, &tu_shapes[sh]))
          continue;
        for (int pattern = 0; pattern < 5; ++pattern) {
          uint64_t seed = 11 + pattern + si * 5;
          void *data = malloc(n * size);
          double mn = INFINITY, mx = -INFINITY;
          for (size_t i = 0; i < n; ++i) {
            double v = nan_value(pattern, i, n, &seed);
            if (t == LSK_TYPE_FLOAT)
              ((float *)data)[i] = (float)v;
            else
              ((double *)data)[i] = v;
            if (!isnan(v)) {
              mn = v < mn ? v : mn;
              mx = v > mx ? v : mx;
            }
          }
          lsk_buffer *in;
          TU_OK(ctx, lsk_buffer_create(ctx, n * size, &in));
          TU_OK(ctx, lsk_buffer_write(in, 0, data, n * size, NULL));
          for (lsk_op op = LSK_OP_MIN; op <= LSK_OP_MAX; ++op) {
            value got = {0};
            TU_OK(ctx,
                  lsk_reduce(ctx, t, op, in, 0, n, &got, lsk_type_size(t), &tu_shapes[sh], NULL));
            double g = t == LSK_TYPE_FLOAT ? got.f : got.d, want = op == LSK_OP_MIN ? mn : mx;
            ck_assert_msg(g == want,
                          "%s %s of %zu, NaN pattern %d, shape %zu: got %g, want %g (NaNs "
                          "ignored; all NaN: %s)",
                          lsk_type_name(t), op == LSK_OP_MIN ? "min" : "max", n, pattern, sh, g,
                          want, op == LSK_OP_MIN ? "+inf" : "-inf");
          }
          lsk_buffer_destroy(in);
          free(data);
        }
      }
  }
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_reduce_bad_input)
{
  lsk_context *ctx = tu_context(), *other = tu_context();
  lsk_buffer *in = tu_zeros(ctx, 16), *foreign = tu_zeros(other, 16);
  uint32_t r;
  TU_FAILS(NULL, lsk_reduce(NULL, LSK_TYPE_UINT, LSK_OP_SUM, in, 0, 4, &r, sizeof r, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: ctx is NULL");
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, in, 0, 4, NULL, 0, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: result is NULL");
  TU_FAILS(ctx, lsk_reduce(ctx, (lsk_type)0, LSK_OP_SUM, in, 0, 4, &r, sizeof r, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: type 0 is not supported");
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, (lsk_op)9, in, 0, 4, &r, sizeof r, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: op 9 is not");
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, NULL, 0, 4, &r, sizeof r, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: in is NULL");
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, foreign, 0, 4, &r, sizeof r, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: in belongs to another context");
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, in, 10, 7, &r, sizeof r, NULL, NULL),
           LSK_ERANGE, "elements [10, 17) of 4 bytes exceed the buffer's 64 bytes");
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_ULONG, LSK_OP_SUM, in, 0, 9, &r, sizeof r, NULL, NULL),
           LSK_ERANGE, "elements [0, 9) of 8 bytes exceed");
  TU_FAILS(ctx,
           lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, in, 1, UINT32_MAX, &r, sizeof r, NULL, NULL),
           LSK_ERANGE, "exceeds 2^32 - 1 elements");
  TU_FAILS(ctx,
           lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, in, 0, 4, &r, sizeof r,
                      &(lsk_algo_options){.tile = LSK_MAX_DOMAIN + 1}, NULL),
           LSK_EINVAL, "lsk_reduce: tile 16777217 exceeds LSK_MAX_DOMAIN");
  TU_FAILS(ctx, lsk_reduce_to(ctx, LSK_TYPE_UINT, LSK_OP_SUM, in, 0, 4, in, 16, NULL, NULL),
           LSK_ERANGE, "lsk_reduce_to: out: elements [16, 17)");
  /* Nothing was left behind: a good call still works. */
  TU_OK(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, in, 0, 16, &r, sizeof r, NULL, NULL));
  ck_assert_uint_eq(r, 0);
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(foreign);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

/* LSK_REDUCE with a result of C type T: LSK_TYPE_OF picks want_type (at
 * compile time), and the max of data of that type matches reference(). */
#define TYPED_MAX(ctx, T, want_type)                                                               \
  do {                                                                                             \
    _Static_assert(LSK_TYPE_OF((T *)0) == (want_type), "LSK_TYPE_OF(" #T " *)");                   \
    size_t n_ = 1000;                                                                              \
    void *data_ = make_data(want_type, n_, 1);                                                     \
    lsk_buffer *in_;                                                                               \
    TU_OK(ctx, lsk_buffer_create(ctx, n_ * sizeof(T), &in_));                                      \
    TU_OK(ctx, lsk_buffer_write(in_, 0, data_, n_ * sizeof(T), NULL));                                   \
    T got_ = 0;                                                                                    \
    TU_OK(ctx, LSK_REDUCE(ctx, LSK_OP_MAX, in_, 0, n_, &got_, NULL, NULL));                        \
    long double a_, e_;                                                                            \
    value want_ = reference(want_type, LSK_OP_MAX, data_, n_, &a_, &e_);                           \
    ck_assert_msg(memcmp(&got_, &want_, sizeof got_) == 0, "LSK_REDUCE into " #T);                 \
    lsk_buffer_destroy(in_);                                                                       \
    free(data_);                                                                                   \
  } while (0)

/* Typed results (issue 27 point 5): result_size is checked against the
 * type before anything runs, and LSK_REDUCE takes both from the result's
 * C type, int64_t and the other <stdint.h> names included. */
START_TEST(test_reduce_typed_result)
{
  lsk_context *ctx = tu_context();
  float data[4] = {1, 2, 3, 4};
  lsk_buffer *in;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof data, &in));
  TU_OK(ctx, lsk_buffer_write(in, 0, data, sizeof data, NULL));
  double d = 42;
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_FLOAT, LSK_OP_SUM, in, 0, 4, &d, sizeof d, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: result_size 8 does not match LSK_TYPE_FLOAT (4 bytes)");
  ck_assert(d == 42); /* not written */
  int i = 0;
  TU_FAILS(ctx, lsk_reduce(ctx, LSK_TYPE_LONG, LSK_OP_SUM, in, 0, 2, &i, sizeof i, NULL, NULL),
           LSK_EINVAL, "lsk_reduce: result_size 4 does not match LSK_TYPE_LONG (8 bytes)");
  float f = 0;
  TU_OK(ctx, LSK_REDUCE(ctx, LSK_OP_SUM, in, 0, 4, &f, NULL, NULL));
  ck_assert(f == 10);
  lsk_buffer_destroy(in);
  TYPED_MAX(ctx, int, LSK_TYPE_INT);
  TYPED_MAX(ctx, unsigned, LSK_TYPE_UINT);
  TYPED_MAX(ctx, long long, LSK_TYPE_LONG);
  TYPED_MAX(ctx, unsigned long long, LSK_TYPE_ULONG);
  TYPED_MAX(ctx, int32_t, LSK_TYPE_INT);
  TYPED_MAX(ctx, uint32_t, LSK_TYPE_UINT);
  TYPED_MAX(ctx, int64_t, LSK_TYPE_LONG);
  TYPED_MAX(ctx, uint64_t, LSK_TYPE_ULONG);
  TYPED_MAX(ctx, float, LSK_TYPE_FLOAT);
  TYPED_MAX(ctx, long, sizeof(long) == 8 ? LSK_TYPE_LONG : LSK_TYPE_INT);
  TYPED_MAX(ctx, unsigned long, sizeof(long) == 8 ? LSK_TYPE_ULONG : LSK_TYPE_UINT);
  _Static_assert(LSK_TYPE_OF((double *)0) == LSK_TYPE_DOUBLE, "LSK_TYPE_OF(double *)");
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_reduce(void)
{
  Suite *s = suite_create("reduce");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, test_reduce_matches_c, 0, TU_NSHAPES);
  tcase_add_test(tc, test_reduce_large_and_async);
  tcase_add_test(tc, test_reduce_nan);
  tcase_add_test(tc, test_reduce_bad_input);
  tcase_add_test(tc, test_reduce_typed_result);
  suite_add_tcase(s, tc);
  return s;
}
