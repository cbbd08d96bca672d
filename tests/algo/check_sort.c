/*
 * check_sort.c: lsk_sort and lsk_sort_by_key (include/lsk/sort.h) against
 * a plain C reference: a stable merge sort by a comparison written from
 * the documented order (integers by value; floats with -0.0 before +0.0
 * and every NaN last, in input order, in both directions), with the
 * original index as the value, so that stability is checked element by
 * element. Every type, ascending and descending, in place and out of
 * place, at the algorithms' sizes and one of 2^22; keys with many equal
 * ones, all equal, in order, reversed, narrow (passes skipped), any bits;
 * float specials; digit widths 1 to 16; launch shapes; a named queue with
 * an event. The output is compared bit for bit, the elements past n and
 * an out-of-place input must be untouched. Suite grind_sort: small cases
 * of every kernel, for oclgrind.
 */
#define _XOPEN_SOURCE 700 /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#define GUARD_WORDS 3 /* uints past n in every buffer, to stay untouched */
#define GUARD 0xa5a5a5a5u

static const lsk_type all_types[] = {LSK_TYPE_UINT,  LSK_TYPE_INT,  LSK_TYPE_FLOAT,
                                     LSK_TYPE_ULONG, LSK_TYPE_LONG, LSK_TYPE_DOUBLE};
#define NTYPES (sizeof all_types / sizeof all_types[0])

/* ---- the reference ---- */

/* Key i of an array of type t, as the comparison sees it. */
typedef struct ref_key {
  lsk_type t;
  const unsigned char *p;
} ref_key;

static int is_nan_at(lsk_type t, const void *k)
{
  if (t == LSK_TYPE_FLOAT)
    return isnan(*(const float *)k);
  if (t == LSK_TYPE_DOUBLE)
    return isnan(*(const double *)k);
  return 0;
}

/* -1, 0, 1: a before, equal to, after b in ascending order, NaNs aside. */
static int cmp_value(lsk_type t, const void *a, const void *b)
{
#define CMP(T)                                                                                     \
  {                                                                                                \
    T x = *(const T *)a, y = *(const T *)b;                                                        \
    return x < y ? -1 : y < x ? 1 : 0;                                                             \
  }
  switch (t) {
  case LSK_TYPE_UINT: CMP(uint32_t)
  case LSK_TYPE_INT: CMP(int32_t)
  case LSK_TYPE_ULONG: CMP(uint64_t)
  case LSK_TYPE_LONG: CMP(int64_t)
  case LSK_TYPE_FLOAT: {
    float x = *(const float *)a, y = *(const float *)b;
    if (x < y)
      return -1;
    if (y < x)
      return 1;
    /* Equal as numbers: -0.0 before +0.0. */
    return signbit(x) && !signbit(y) ? -1 : signbit(y) && !signbit(x) ? 1 : 0;
  }
  case LSK_TYPE_DOUBLE: {
    double x = *(const double *)a, y = *(const double *)b;
    if (x < y)
      return -1;
    if (y < x)
      return 1;
    return signbit(x) && !signbit(y) ? -1 : signbit(y) && !signbit(x) ? 1 : 0;
  }
  }
#undef CMP
  return 0;
}

/* Stable merge sort of the indices idx[0, n) by keys of type T, ascending:
 * an element moves ahead of those before it only if its key is LESS.
 * (Pairs of key and index, so that the passes read in order.) */
#define REF_SORT(NAME, T, LESS)                                                                    \
  typedef struct NAME##_pair {                                                                     \
    T key;                                                                                         \
    uint32_t i;                                                                                    \
  } NAME##_pair;                                                                                   \
  static void NAME(const T *keys, uint32_t *idx, size_t n)                                         \
  {                                                                                                \
    NAME##_pair *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b), *t;    \
    ck_assert(a &&b);                                                                              \
    for (size_t i = 0; i < n; ++i)                                                                 \
      a[i] = (NAME##_pair){keys[i], (uint32_t)i};                                                  \
    /* Runs of 16 by insertion, then merges. */                                                    \
    for (size_t lo = 0; lo < n; lo += 16)                                                          \
      for (size_t i = lo + 1; i < lo + 16 && i < n; ++i) {                                         \
        NAME##_pair x = a[i];                                                                      \
        size_t j = i;                                                                              \
        for (; j > lo && LESS(x.key, a[j - 1].key); --j)                                           \
          a[j] = a[j - 1];                                                                         \
        a[j] = x;                                                                                  \
      }                                                                                            \
    for (size_t width = 16; width < n; width *= 2) {                                               \
      for (size_t lo = 0; lo < n; lo += 2 * width) {                                               \
        size_t mid = lo + width < n ? lo + width : n;                                              \
        size_t hi = lo + 2 * width < n ? lo + 2 * width : n, i = lo, j = mid, k = lo;              \
        while (i < mid && j < hi)                                                                  \
          b[k++] = LESS(a[j].key, a[i].key) ? a[j++] : a[i++];                                     \
        while (i < mid)                                                                            \
          b[k++] = a[i++];                                                                         \
        while (j < hi)                                                                             \
          b[k++] = a[j++];                                                                         \
      }                                                                                            \
      t = a;                                                                                       \
      a = b;                                                                                       \
      b = t;                                                                                       \
    }                                                                                              \
    for (size_t i = 0; i < n; ++i)                                                                 \
      idx[i] = a[i].i;                                                                             \
    free(a);                                                                                       \
    free(b);                                                                                       \
  }
/* Floats: a NaN is less than nothing and everything else is less than a
 * NaN; -0.0 is less than +0.0. */
#define LESS_INT(x, y) ((x) < (y))
#define LESS_FLT(x, y)                                                                             \
  (!isnan(x) && (isnan(y) || (x) < (y) || ((x) == (y) && signbit(x) && !signbit(y))))
REF_SORT(ref_uint, uint32_t, LESS_INT)
REF_SORT(ref_int, int32_t, LESS_INT)
REF_SORT(ref_ulong, uint64_t, LESS_INT)
REF_SORT(ref_long, int64_t, LESS_INT)
REF_SORT(ref_float, float, LESS_FLT)
REF_SORT(ref_double, double, LESS_FLT)

/* The permutation that sorts keys ascending: perm[i] is the input index of
 * output i. */
static uint32_t *reference(lsk_type t, const void *keys, size_t n)
{
  uint32_t *idx = malloc((n ? n : 1) * 4);
  ck_assert_ptr_nonnull(idx);
  switch (t) {
  case LSK_TYPE_UINT: ref_uint(keys, idx, n); break;
  case LSK_TYPE_INT: ref_int(keys, idx, n); break;
  case LSK_TYPE_ULONG: ref_ulong(keys, idx, n); break;
  case LSK_TYPE_LONG: ref_long(keys, idx, n); break;
  case LSK_TYPE_FLOAT: ref_float(keys, idx, n); break;
  case LSK_TYPE_DOUBLE: ref_double(keys, idx, n); break;
  }
  return idx;
}

/* The descending permutation from the ascending one: its runs of equal
 * keys before the NaNs in reverse order, each run, and the NaNs, as they
 * are. */
static uint32_t *reference_desc(lsk_type t, const void *keys, size_t n, const uint32_t *asc)
{
  uint32_t *idx = malloc((n ? n : 1) * 4);
  ck_assert_ptr_nonnull(idx);
  size_t size = lsk_type_size(t), m = n, k = 0;
  const unsigned char *kb = keys;
  while (m > 0 && is_nan_at(t, kb + (size_t)asc[m - 1] * size))
    --m;
  for (size_t end = m; end > 0;) {
    size_t begin = end - 1;
    while (begin > 0 &&
           cmp_value(t, kb + (size_t)asc[begin - 1] * size, kb + (size_t)asc[end - 1] * size) == 0)
      --begin;
    for (size_t i = begin; i < end; ++i)
      idx[k++] = asc[i];
    end = begin;
  }
  memcpy(idx + m, asc + m, (n - m) * sizeof *idx);
  return idx;
}

/* ---- data ---- */

typedef enum kind {
  K_RANDOM, /* any bits */
  K_DUPS,   /* few distinct keys, spread over the whole range */
  K_NARROW, /* small values: the high digits are all equal */
  K_EQUAL,  /* one key */
  K_SORTED, /* ascending */
  K_REVERSED,
  K_SPECIAL, /* floats: +-0.0, +-inf, NaNs of both signs and payloads, denormals, mixed in */
  K_COUNT
} kind;
static const char *kind_names[] = {"random", "dups",     "narrow",  "equal",
                                   "sorted", "reversed", "special", "?"};

static uint64_t rng64(uint64_t *s) { return (uint64_t)tu_rng(s) << 32 | tu_rng(s); }

/* Key bits of type t for element i of kind k. */
static void make_key(lsk_type t, kind k, size_t i, size_t n, uint64_t *s, void *out)
{
  size_t size = lsk_type_size(t);
  int flt = t == LSK_TYPE_FLOAT, dbl = t == LSK_TYPE_DOUBLE;
  uint64_t r = rng64(s);
  static const uint64_t pool[] = {
      0x0123456789abcdefu, 0xfedcba9876543210u, 0x8000000000000000u, 0x7fffffffffffffffu, 0, 1,
      0xffffffffffffffffu};
  double v = 0;
  int use_v = 0;
  switch (k) {
  case K_RANDOM: break;
  case K_DUPS:
    r = pool[r % (sizeof pool / sizeof pool[0])] ^ (r >> 61); /* some 21 distinct */
    if (flt || dbl) {
      v = (double)((int)(r % 9) - 4) * 0.5;
      use_v = 1;
    }
    break;
  case K_NARROW:
    r %= 3000;
    if (flt || dbl) {
      v = (double)r;
      use_v = 1;
    }
    break;
  case K_EQUAL:
    r = 0x5a5a5a5a5a5a5a5au;
    if (flt || dbl) {
      v = -1.5;
      use_v = 1;
    }
    break;
  case K_SORTED:
  case K_REVERSED: {
    size_t j = k == K_SORTED ? i : n - 1 - i;
    /* Increasing in the type's order, with runs of 3 equal keys. */
    uint64_t u = (uint64_t)(j / 3) * 0x10001u;
    r = t == LSK_TYPE_INT    ? (uint64_t)(uint32_t)((int32_t)u - 0x40000000)
        : t == LSK_TYPE_LONG ? (uint64_t)((int64_t)u * 4099 - ((int64_t)1 << 40))
                             : u;
    if (flt || dbl) {
      v = (double)(j / 3) - (double)n / 6;
      use_v = 1;
    }
    break;
  }
  case K_SPECIAL: {
    static const uint64_t f32[] = {0x80000000u, 0x00000000u, 0x7f800000u, 0xff800000u,
                                   0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffffffffu,
                                   0x00000001u, 0x80000001u, 0x7f7fffffu, 0xff7fffffu};
    static const uint64_t f64[] = {0x8000000000000000u,
                                   0,
                                   0x7ff0000000000000u,
                                   0xfff0000000000000u,
                                   0x7ff8000000000000u,
                                   0xfff8000000000000u,
                                   0x7ff0000000000001u,
                                   0xffffffffffffffffu,
                                   1,
                                   0x8000000000000001u,
                                   0x7fefffffffffffffu,
                                   0xffefffffffffffffu};
    if (r % 3 == 0) {
      r = flt ? f32[(r >> 8) % 12] : dbl ? f64[(r >> 8) % 12] : r;
    } else if (flt || dbl) {
      v = (double)((int64_t)(r >> 40) - (1 << 23)) / 64;
      use_v = 1;
    }
    break;
  }
  default: break;
  }
  if (use_v && flt) {
    float f = (float)v;
    memcpy(out, &f, 4);
  } else if (use_v && dbl)
    memcpy(out, &v, 8);
  else if (size == 4) {
    uint32_t u = (uint32_t)r;
    memcpy(out, &u, 4);
  } else
    memcpy(out, &r, 8);
}

static void *make_keys(lsk_type t, kind k, size_t n, uint64_t seed)
{
  size_t size = lsk_type_size(t);
  unsigned char *keys = malloc(n * size + 1);
  ck_assert_ptr_nonnull(keys);
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i)
    make_key(t, k, i, n, &s, keys + i * size);
  return keys;
}

/* ---- one case ---- */

/* A buffer of n elements of size bytes from h, and GUARD_WORDS guards. */
static lsk_buffer *upload(lsk_context *ctx, const void *h, size_t n, size_t size)
{
  size_t bytes = n * size + GUARD_WORDS * 4;
  unsigned char *all = malloc(bytes);
  ck_assert_ptr_nonnull(all);
  memcpy(all, h, n * size);
  for (size_t i = 0; i < GUARD_WORDS; ++i)
    memcpy(all + n * size + i * 4, &(uint32_t){GUARD}, 4);
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, bytes, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, all, bytes, NULL));
  free(all);
  return b;
}

/* Reads b's n elements into a malloc'd copy and checks its guards. */
static void *download(lsk_context *ctx, lsk_buffer *b, size_t n, size_t size, const char *what)
{
  size_t bytes = n * size + GUARD_WORDS * 4;
  unsigned char *all = malloc(bytes);
  ck_assert_ptr_nonnull(all);
  TU_OK(ctx, lsk_buffer_read(b, 0, all, bytes, NULL));
  for (size_t i = 0; i < GUARD_WORDS; ++i) {
    uint32_t g;
    memcpy(&g, all + n * size + i * 4, 4);
    ck_assert_msg(g == GUARD, "%s: the word %zu past the elements is %#x", what, i, g);
  }
  return all;
}

typedef struct sort_case {
  lsk_type type;
  int desc, values, in_place;
  unsigned bits;
  const lsk_algo_options *shape;
} sort_case;

/* Sorts keys[0, n) as c says and compares with the reference perm: the
 * keys bit for bit, the values (the input indices) exactly. */
static void check(lsk_context *ctx, const sort_case *c, const void *keys, size_t n,
                  const uint32_t *perm, const char *what)
{
  size_t size = lsk_type_size(c->type);
  uint32_t *idx = malloc((n ? n : 1) * 4);
  ck_assert_ptr_nonnull(idx);
  for (size_t i = 0; i < n; ++i)
    idx[i] = (uint32_t)i;
  lsk_buffer *k = upload(ctx, keys, n, size), *v = c->values ? upload(ctx, idx, n, 4) : NULL;
  lsk_buffer *ko = c->in_place ? NULL : upload(ctx, keys, n, size); /* junk to overwrite */
  lsk_buffer *vo = c->in_place || !c->values ? NULL : upload(ctx, keys, n, 4);
  lsk_sort_options o = {.descending = c->desc, .digit_bits = c->bits};
  if (c->shape)
    o.algo = *c->shape;
  int rc = c->values ? lsk_sort_by_key(ctx, c->type, k, v, n, ko, vo, &o, NULL)
                     : lsk_sort(ctx, c->type, k, n, ko, &o, NULL);
  if (tu_over_limits(ctx, rc) || tu_skip_on(ctx, rc, LSK_ELAUNCH, "local memory"))
    goto done;
  TU_OK(ctx, rc);
  unsigned char *got = download(ctx, ko ? ko : k, n, size, what);
  uint32_t *gotv = c->values ? download(ctx, vo ? vo : v, n, 4, what) : NULL;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char *want = (const unsigned char *)keys + (size_t)perm[i] * size;
    uint64_t g = 0, w = 0;
    if (size == 4) {
      memcpy(&g, got + i * 4, 4);
      memcpy(&w, want, 4);
    } else {
      memcpy(&g, got + i * 8, 8);
      memcpy(&w, want, 8);
    }
    if (g != w) {
      ck_abort_msg("%s: key %zu of %zu is %#llx, want %#llx (input %u)", what, i, n,
                   (unsigned long long)g, (unsigned long long)w, perm[i]);
    }
    /* (ck_assert writes to libcheck's log on every call: not per element.) */
    if (gotv && gotv[i] != perm[i])
      ck_abort_msg("%s: value %zu of %zu is %u, want %u (not stable?)", what, i, n, gotv[i],
                   perm[i]);
  }
  if (!c->in_place) {
    /* The input is unchanged. */
    unsigned char *in = download(ctx, k, n, size, what);
    ck_assert_msg(n == 0 || memcmp(in, keys, n * size) == 0, "%s: the input keys changed", what);
    free(in);
    if (c->values) {
      uint32_t *vin = download(ctx, v, n, 4, what);
      ck_assert_msg(n == 0 || memcmp(vin, idx, n * 4) == 0, "%s: the input values changed", what);
      free(vin);
    }
  }
  free(got);
  free(gotv);
done:
  lsk_buffer_destroy(k);
  lsk_buffer_destroy(v);
  lsk_buffer_destroy(ko);
  lsk_buffer_destroy(vo);
  free(idx);
}

/* The data of (type, kind, n), its references both ways, and the cases
 * asked: keys only in place and by key out of place, by default. */
static void check_data(lsk_context *ctx, lsk_type t, kind k, size_t n, uint64_t seed,
                       const lsk_algo_options *shape, unsigned bits, int all_four)
{
  void *keys = make_keys(t, k, n, seed);
  uint32_t *asc = reference(t, keys, n);
  for (int desc = 0; desc < 2; ++desc) {
    uint32_t *perm = desc ? reference_desc(t, keys, n, asc) : asc;
    for (int m = 0; m < 4; ++m) {
      int values = m & 1, in_place = !(m >> 1);
      /* By default keys only in place (m 0) and by key out of place (m 3). */
      if (!all_four && m != 0 && m != 3)
        continue;
      sort_case c = {t, desc, values, in_place, bits, shape};
      char what[160];
      snprintf(what, sizeof what, "%s %s n=%zu %s %s %s bits %u", lsk_type_name(t), kind_names[k],
               n, desc ? "desc" : "asc", values ? "by key" : "keys",
               in_place ? "in place" : "out of place", bits);
      check(ctx, &c, keys, n, perm, what);
    }
    if (desc)
      free(perm);
  }
  free(asc);
  free(keys);
}

static int skip_type(lsk_context *ctx, lsk_type t)
{
  return t == LSK_TYPE_DOUBLE && !tu_fp64(ctx, "sort of doubles");
}

/* Every type at the algorithms' sizes, both directions, keys only in place
 * and by key out of place; random keys and keys with many equal ones
 * (stability), and at 1000 every kind in all four ways. */
START_TEST(test_sort_types)
{
  lsk_context *ctx = tu_context();
  for (size_t ti = 0; ti < NTYPES; ++ti) {
    lsk_type t = all_types[ti];
    if (skip_type(ctx, t))
      continue;
    for (size_t s = 0; s < TU_NSIZES; ++s) {
      size_t n = tu_sizes[s];
      check_data(ctx, t, n > 100000 && ti % 2 ? K_DUPS : K_RANDOM, n, 10 + ti * 7 + s, NULL, 0, 0);
      if (n == 1000)
        for (int k = 0; k < K_COUNT; ++k)
          check_data(ctx, t, (kind)k, n, 100 + ti * 7 + k, NULL, 0, 1);
    }
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* The kinds that skip passes or sort nothing new, and the specials, at
 * 100003 (float, uint and double), the specials also at 2^20 + 3. */
START_TEST(test_sort_kinds)
{
  lsk_context *ctx = tu_context();
  const lsk_type ts[] = {LSK_TYPE_FLOAT, LSK_TYPE_UINT, LSK_TYPE_DOUBLE};
  const kind ks[] = {K_DUPS, K_NARROW, K_EQUAL, K_SORTED, K_REVERSED, K_SPECIAL};
  for (size_t ti = 0; ti < 3; ++ti) {
    if (skip_type(ctx, ts[ti]))
      continue;
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; ++k)
      if (ti == 0 || ks[k] == K_SPECIAL || ks[k] == K_NARROW)
        check_data(ctx, ts[ti], ks[k], 100003, 300 + ti * 11 + k, NULL, 0, 0);
    check_data(ctx, ts[ti], K_SPECIAL, tu_sizes[TU_NSIZES - 1], 400 + ti, NULL, 0, 0);
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* Float specials alone, spelled out: the order the header promises. */
START_TEST(test_sort_float_order)
{
  lsk_context *ctx = tu_context();
  const float nan1 = NAN, nan2 = -NAN;
  uint32_t nan3 = 0x7f800001u, nan4 = 0xffffffffu;
  float in[12] = {1.0f, nan1, -0.0f, INFINITY, 0.0f, -INFINITY, nan2, -1.0f, 0.0f, -0.0f, 0, 0};
  memcpy(&in[10], &nan3, 4);
  memcpy(&in[11], &nan4, 4);
  /* Ascending: -inf -1 -0 -0 +0 +0 1 inf, then the NaNs in input order;
   * descending: inf 1 +0 +0 -0 -0 -1 -inf, then the NaNs. */
  const uint32_t want_idx[2][12] = {{5, 7, 2, 9, 4, 8, 0, 3, 1, 6, 10, 11},
                                    {3, 0, 4, 8, 2, 9, 7, 5, 1, 6, 10, 11}};
  for (int desc = 0; desc < 2; ++desc) {
    uint32_t idx[12];
    for (uint32_t i = 0; i < 12; ++i)
      idx[i] = i;
    lsk_buffer *k = upload(ctx, in, 12, 4), *v = upload(ctx, idx, 12, 4);
    lsk_sort_options o = {.descending = desc};
    TU_OK(ctx, lsk_sort_by_key(ctx, LSK_TYPE_FLOAT, k, v, 12, NULL, NULL, &o, NULL));
    uint32_t *gk = download(ctx, k, 12, 4, "float order"), *gv = download(ctx, v, 12, 4, "order");
    for (int i = 0; i < 12; ++i) {
      ck_assert_msg(gv[i] == want_idx[desc][i], "%s: position %d holds input %u, want %u",
                    desc ? "descending" : "ascending", i, gv[i], want_idx[desc][i]);
      ck_assert_msg(memcmp(&gk[i], &in[want_idx[desc][i]], 4) == 0, "position %d: bits %#x", i,
                    gk[i]);
    }
    free(gk);
    free(gv);
    lsk_buffer_destroy(k);
    lsk_buffer_destroy(v);
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* Digit widths from 1 to 16 bits (16 with one worker: 256 KiB of
 * counters; devices with less local memory refuse it, and the case is
 * skipped) and the launch shapes: the same result. */
START_TEST(test_sort_digits_shapes)
{
  lsk_context *ctx = tu_context();
  static const unsigned bits[] = {1, 3, 4, 5, 8, 11, 16};
  static const lsk_algo_options one = {.workers = 1};
  for (size_t b = 0; b < sizeof bits / sizeof bits[0]; ++b) {
    size_t n = bits[b] < 3 ? 1000 : 20011;
    const lsk_algo_options *o = bits[b] > 12 ? &one : NULL;
    check_data(ctx, LSK_TYPE_UINT, K_DUPS, n, 40 + b, o, bits[b], 0);
    check_data(ctx, LSK_TYPE_FLOAT, K_SPECIAL, n, 50 + b, o, bits[b], 0);
    if (!skip_type(ctx, LSK_TYPE_DOUBLE))
      check_data(ctx, LSK_TYPE_DOUBLE, K_SPECIAL, n, 60 + b, o, bits[b], 0);
    check_data(ctx, LSK_TYPE_LONG, K_RANDOM, n, 70 + b, o, bits[b], 0);
  }
  for (size_t sh = 1; sh < TU_NSHAPES; ++sh)
    for (size_t s = 1; s < TU_NSIZES; ++s) {
      size_t n = tu_sizes[s];
      if (tu_algo_capped(ctx, "sort", n, &tu_shapes[sh]))
        continue;
      check_data(ctx, LSK_TYPE_INT, K_DUPS, n, 80 + sh * 5 + s, &tu_shapes[sh], 0, 0);
      if (n <= 1000)
        check_data(ctx, skip_type(ctx, LSK_TYPE_DOUBLE) ? LSK_TYPE_FLOAT : LSK_TYPE_DOUBLE,
                   K_SPECIAL, n, 90 + sh * 5 + s, &tu_shapes[sh], 0, 1);
    }
  lsk_context_destroy(ctx);
}
END_TEST

/* One large case: 2^22 uint pairs, both directions. */
START_TEST(test_sort_large)
{
  lsk_context *ctx = tu_context();
  check_data(ctx, LSK_TYPE_UINT, K_RANDOM, (size_t)1 << 22, 7, NULL, 0, 0);
  lsk_context_destroy(ctx);
}
END_TEST

/* On a queue of its own, with an event; the second time also waiting for
 * a user event, completed only once the keys are written: sorting before
 * it would sort the zeros that the buffer holds until then. */
START_TEST(test_sort_queue)
{
  lsk_context *ctx = tu_context();
  enum { N = 50000 };
  void *keys = make_keys(LSK_TYPE_LONG, K_DUPS, N, 5), *zeros = calloc(N, 8);
  uint32_t *asc = reference(LSK_TYPE_LONG, keys, N);
  uint32_t *perm = reference_desc(LSK_TYPE_LONG, keys, N, asc), *idx = malloc(N * 4);
  free(asc);
  ck_assert(zeros && idx);
  for (uint32_t i = 0; i < N; ++i)
    idx[i] = i;
  lsk_queue *q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  for (int round = 0; round < 2; ++round) {
    lsk_buffer *k = upload(ctx, round ? zeros : keys, N, 8), *v = upload(ctx, idx, N, 4);
    lsk_buffer *ko = upload(ctx, zeros, N, 8), *vo = upload(ctx, idx, N, 4);
    lsk_event *ev = NULL, *user = NULL;
    lsk_async on = {.queue = q, .event = &ev};
    if (round) {
      TU_OK(ctx, lsk_event_user_create(ctx, &user));
      on.wait = &user;
      on.nwait = 1;
    }
    lsk_sort_options o = {.descending = 1};
    TU_OK(ctx, lsk_sort_by_key(ctx, LSK_TYPE_LONG, k, v, N, ko, vo, &o, &on));
    ck_assert_ptr_nonnull(ev);
    if (round) {
      TU_OK(ctx, lsk_buffer_write(k, 0, keys, (size_t)N * 8, NULL));
      TU_OK(ctx, lsk_event_user_complete(user));
      lsk_event_release(user);
    }
    TU_OK(ctx, lsk_event_wait(ev));
    lsk_event_release(ev);
    TU_OK(ctx, lsk_queue_finish(q));
    uint64_t *gk = download(ctx, ko, N, 8, "queue");
    uint32_t *gv = download(ctx, vo, N, 4, "queue");
    for (size_t i = 0; i < N; ++i)
      if (gv[i] != perm[i] || memcmp(&gk[i], (const char *)keys + (size_t)perm[i] * 8, 8) != 0)
        ck_abort_msg("queue round %d: element %zu holds input %u, want %u", round, i, gv[i],
                     perm[i]);
    free(gk);
    free(gv);
    lsk_buffer_destroy(k);
    lsk_buffer_destroy(v);
    lsk_buffer_destroy(ko);
    lsk_buffer_destroy(vo);
  }
  TU_OK(ctx, lsk_queue_destroy(q));
  free(perm);
  free(idx);
  free(keys);
  free(zeros);
  lsk_context_destroy(ctx);
}
END_TEST

/* The GPU path (host/algo/sort.c, sort_gpu_plan; LSK_SORT_GPU=1 forces it
 * here): a block's counters in local memory, ranks within a block's chunk
 * of LSK_WORKERS keys by groups of 32 workers. Every type at the usual
 * sizes, every kind at 1000 in all four ways; digit widths (8 the GPU's,
 * the others where they fit); shapes whose workers are not a multiple of
 * 32 (a short last group), one block (many chunks), one worker; and keys
 * with few distinct values at 2^20 + 3, whose input indices (the values)
 * check stability one by one. */
START_TEST(test_sort_gpu_path)
{
  setenv("LSK_SORT_GPU", "1", 1);
  lsk_context *ctx = tu_context();
  /* llvmpipe (loops capped): a GPU path of many small blocks there, whose
   * large cases take minutes: the small ones only. */
  int small = lsk_context_device(ctx)->loops_capped;
  for (size_t ti = 0; ti < NTYPES; ++ti) {
    lsk_type t = all_types[ti];
    if (skip_type(ctx, t))
      continue;
    for (size_t s = 0; s < TU_NSIZES; ++s) {
      size_t n = tu_sizes[s];
      if (small && n > 100000)
        continue;
      check_data(ctx, t, n > 100000 && ti % 2 ? K_DUPS : K_RANDOM, n, 510 + ti * 7 + s, NULL, 0, 0);
      if (n == 1000)
        for (int k = 0; k < K_COUNT; ++k)
          check_data(ctx, t, (kind)k, n, 600 + ti * 7 + k, NULL, 0, 1);
    }
  }
  /* Where loops are capped, 5 and 8 bits (a partial last digit and a
   * whole one) for CI's time: 1 bit is 32 to 64 passes. */
  static const unsigned bits[] = {5, 8, 1, 4, 11};
  size_t nbits = small ? 2 : sizeof bits / sizeof bits[0];
  for (size_t b = 0; b < nbits; ++b) {
    check_data(ctx, LSK_TYPE_UINT, K_DUPS, 20011, 700 + b, NULL, bits[b], 0);
    check_data(ctx, LSK_TYPE_FLOAT, K_SPECIAL, 20011, 710 + b, NULL, bits[b], 0);
    check_data(ctx, LSK_TYPE_LONG, K_RANDOM, 20011, 720 + b, NULL, bits[b], 0);
  }
  static const lsk_algo_options shapes[] = {
      {.workers = 32}, {.workers = 33}, {.workers = 100, .blocks = 3}, {.workers = 64, .blocks = 1},
      {.workers = 1},  {.blocks = 7},   {.workers = 256, .blocks = 2}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh) {
    check_data(ctx, LSK_TYPE_INT, K_DUPS, 30011, 730 + sh, &shapes[sh], 0, 1);
    check_data(ctx, skip_type(ctx, LSK_TYPE_DOUBLE) ? LSK_TYPE_FLOAT : LSK_TYPE_DOUBLE, K_SPECIAL,
               1000, 740 + sh, &shapes[sh], 8, 1);
  }
  if (!small) {
    check_data(ctx, LSK_TYPE_UINT, K_DUPS, (size_t)1 << 20, 750, NULL, 0, 0);
    check_data(ctx, LSK_TYPE_ULONG, K_NARROW, 100003, 751, NULL, 0, 1);
  }
  lsk_context_destroy(ctx);
  unsetenv("LSK_SORT_GPU");
}
END_TEST

/* Small cases of every kernel (oclgrind): both key widths, integer and
 * float, keys only and by key, in place (an odd number of passes: the
 * last copy) and out of place, passes skipped, and nothing to sort (the
 * copy of the input). */
START_TEST(test_grind_sort)
{
  lsk_context *ctx = tu_context();
  /* oclgrind 21.10 takes words that kernels write into a buffer created
   * after another was released for uninitialized, unless the host wrote
   * the buffer first (host/algo/compact.c). The sort's temporary buffers
   * come from the buffer cache: it is stocked with buffers the host wrote,
   * three of each size class (host/core/bufcache.c: 256, 320, 384, 448,
   * 512, ... bytes) up to 64 KiB, which is all these cases take. */
  enum { PER_CLASS = 3, CLASSES = 36 };
  static unsigned char junk[1 << 16];
  lsk_buffer *stock[PER_CLASS * CLASSES];
  size_t nstock = 0;
  for (unsigned c = 0; c < CLASSES; ++c)
    for (int i = 0; i < PER_CLASS; ++i) {
      size_t size = (size_t)(4 + c % 4) << (c / 4 + 6);
      TU_OK(ctx, lsk_buffer_alloc(ctx, size, &stock[nstock], NULL));
      TU_OK(ctx, lsk_buffer_write(stock[nstock++], 0, junk, size, NULL));
    }
  for (size_t i = 0; i < nstock; ++i)
    TU_OK(ctx, lsk_buffer_free(stock[i], NULL));
  lsk_algo_options o = {.tile = 64, .blocks = 2, .workers = 4};
  /* Few counters per segment (4 to 6 bits): under oclgrind the counters'
   * zeroing and scan cost more than the keys (10 bits took a minute). */
  check_data(ctx, LSK_TYPE_INT, K_DUPS, 150, 1, &o, 6, 1);
  check_data(ctx, LSK_TYPE_FLOAT, K_SPECIAL, 150, 2, &o, 5, 1);
  check_data(ctx, LSK_TYPE_UINT, K_EQUAL, 70, 3, &o, 4, 0);
  check_data(ctx, LSK_TYPE_LONG, K_NARROW, 100, 4, &o, 5, 1);
  if (tu_fp64(ctx, "grind double"))
    check_data(ctx, LSK_TYPE_DOUBLE, K_SPECIAL, 120, 5, &o, 6, 0);
  /* The GPU path's kernels (LSK_SORT_GPU, read at each call; the same
   * context, for its stocked buffers): 40 workers, a group of 32 and a
   * short one; 2 blocks of 2 chunks each, the last chunk part empty. */
  setenv("LSK_SORT_GPU", "1", 1);
  lsk_algo_options og = {.tile = 64, .blocks = 2, .workers = 40};
  check_data(ctx, LSK_TYPE_INT, K_DUPS, 150, 11, &og, 6, 1);
  check_data(ctx, LSK_TYPE_FLOAT, K_SPECIAL, 150, 12, &og, 5, 0);
  check_data(ctx, LSK_TYPE_LONG, K_NARROW, 100, 14, &og, 4, 1);
  if (tu_fp64(ctx, "grind double"))
    check_data(ctx, LSK_TYPE_DOUBLE, K_SPECIAL, 120, 15, &og, 8, 0);
  lsk_context_destroy(ctx);
  unsetenv("LSK_SORT_GPU");
}
END_TEST

Suite *suite_sort(void)
{
  Suite *s = suite_create("sort");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_sort_types);
  tcase_add_test(tc, test_sort_kinds);
  tcase_add_test(tc, test_sort_float_order);
  tcase_add_test(tc, test_sort_digits_shapes);
  tcase_add_test(tc, test_sort_large);
  tcase_add_test(tc, test_sort_queue);
  suite_add_tcase(s, tc);
  TCase *gpu = tcase_create("gpu");
  tcase_set_timeout(gpu, 600);
  tcase_add_test(gpu, test_sort_gpu_path);
  suite_add_tcase(s, gpu);
  return s;
}

Suite *suite_grind_sort(void)
{
  Suite *s = suite_create("grind_sort");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_sort);
  suite_add_tcase(s, tc);
  return s;
}
