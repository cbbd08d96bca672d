/*
 * check_histogram.c: lsk_histogram_uint and lsk_histogram_real
 * (include/lsk/histogram.h) against plain C references computing the same
 * bins in the same precision: every counter equal, at the algorithms'
 * sizes and launch shapes, with offsets; nbins 1, 7, 256, 65536 and
 * 200003 (past PoCL's 512 KiB of local memory: the global path); keys all
 * in one bin, out of range, full 32-bit; values at lo, just below hi
 * (where the product rounds up to nbins: the clamp), at hi, -0.0, +-inf,
 * NaN; the counters overwritten, the elements around them untouched; the
 * queue option. Suite grind_histogram: small cases of every kernel, for
 * oclgrind.
 */
#define _XOPEN_SOURCE 700 /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#define GUARD 0xdeadbeefu
#define IN_OFF 2
#define OUT_OFF 3

static lsk_buffer *upload(lsk_context *ctx, const void *h, size_t bytes)
{
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, bytes ? bytes : 4, &b));
  if (bytes)
    TU_OK(ctx, lsk_buffer_write(b, 0, h, bytes, NULL));
  return b;
}

/* The counters' buffer: OUT_OFF guards, slots counters (set to a junk
 * value, to be overwritten), 2 guards. */
static lsk_buffer *counters(lsk_context *ctx, size_t slots)
{
  size_t total = slots + OUT_OFF + 2;
  uint32_t *h = malloc(total * 4);
  ck_assert_ptr_nonnull(h);
  for (size_t i = 0; i < total; ++i)
    h[i] = i < OUT_OFF || i >= OUT_OFF + slots ? GUARD : 12345u;
  lsk_buffer *b = upload(ctx, h, total * 4);
  free(h);
  return b;
}

/* Compares the device's counters with want[slots] and the guards. */
static void compare(lsk_context *ctx, lsk_buffer *out, const uint32_t *want, size_t slots,
                    const char *what)
{
  size_t total = slots + OUT_OFF + 2;
  unsigned *got = tu_read_uints(ctx, out, total);
  for (size_t i = 0; i < total; ++i) {
    if (i < OUT_OFF || i >= OUT_OFF + slots) {
      ck_assert_msg(got[i] == GUARD, "%s: guard %zu is %u", what, i, got[i]);
      continue;
    }
    ck_assert_msg(got[i] == want[i - OUT_OFF], "%s: counter %zu of %zu is %u, want %u", what,
                  i - OUT_OFF, slots, got[i], want[i - OUT_OFF]);
  }
  free(got);
}

/* Whether the case runs into llvmpipe's loop cap: the pass, and the
 * local kernel's two loops over the slots. */
static int capped(lsk_context *ctx, const char *what, size_t n, size_t slots,
                  const lsk_algo_options *o)
{
  if (tu_algo_capped(ctx, what, n, o))
    return 1;
  return tu_loop_steps(ctx, what, 2 * tu_steps(ctx, slots, o ? o->workers : 0, 1));
}

/* ---- uint ---- */

static void check_uint(lsk_context *ctx, const uint32_t *keys, size_t n, size_t nbins,
                       const lsk_algo_options *opt, const char *what)
{
  size_t slots = nbins + LSK_HISTOGRAM_UINT_EXTRA;
  if (capped(ctx, what, n, slots, opt))
    return;
  uint32_t *h = calloc(n + IN_OFF + 1, 4), *want = calloc(slots, 4);
  ck_assert(h && want);
  memcpy(h + IN_OFF, keys, n * 4);
  for (size_t i = 0; i < n; ++i)
    ++want[keys[i] < nbins ? keys[i] : nbins + LSK_HISTOGRAM_OUT_OF_RANGE];
  lsk_buffer *in = upload(ctx, h, (n + IN_OFF + 1) * 4), *out = counters(ctx, slots);
  int rc = lsk_histogram_uint(ctx, in, IN_OFF, n, nbins, out, OUT_OFF, opt, NULL);
  if (!tu_over_limits(ctx, rc)) {
    TU_OK(ctx, rc);
    compare(ctx, out, want, slots, what);
  }
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
  free(h);
  free(want);
}

/* Keys of kind k: 0 random below nbins + nbins / 4 + 1 (some out of
 * range), 1 all in one bin, 2 all out of range, 3 any 32 bits. */
static uint32_t *make_keys(size_t n, size_t nbins, int k, uint64_t seed)
{
  uint32_t *keys = malloc((n ? n : 1) * 4);
  ck_assert_ptr_nonnull(keys);
  for (size_t i = 0; i < n; ++i) {
    uint32_t r = tu_rng(&seed);
    keys[i] = k == 0   ? r % (uint32_t)(nbins + nbins / 4 + 1)
              : k == 1 ? (uint32_t)(nbins / 2)
              : k == 2 ? (uint32_t)nbins + r % 5
                       : r;
  }
  return keys;
}

static const size_t nbins_list[] = {1, 7, 256, 65536, 200003};
#define NNBINS (sizeof nbins_list / sizeof nbins_list[0])

START_TEST(test_histogram_uint)
{
  lsk_context *ctx = tu_context();
  for (size_t b = 0; b < NNBINS; ++b)
    for (size_t s = 0; s < TU_NSIZES; ++s)
      for (int k = 0; k < 4; ++k) {
        size_t n = tu_sizes[s], nbins = nbins_list[b];
        uint32_t *keys = make_keys(n, nbins, k, 1000 + b * 10 + k);
        for (size_t sh = 0; sh < TU_NSHAPES; ++sh) {
          /* The large cases at the automatic shape only. */
          if ((n > 100000 || nbins > 1000) && sh > 0)
            continue;
          if (n > 100000 && k == 3 && nbins > 256)
            continue;
          char what[128];
          snprintf(what, sizeof what, "uint n=%zu nbins=%zu keys %d shape %zu", n, nbins, k, sh);
          check_uint(ctx, keys, n, nbins, &tu_shapes[sh], what);
        }
        free(keys);
      }
  lsk_context_destroy(ctx);
}
END_TEST

/* Every shape gives the same counts for 65536 bins (the local path on
 * PoCL, one loop per worker over many slots) and 200003 (global). */
START_TEST(test_histogram_uint_shapes)
{
  lsk_context *ctx = tu_context();
  size_t n = 100003;
  for (size_t b = 3; b < NNBINS; ++b) {
    uint32_t *keys = make_keys(n, nbins_list[b], 0, 77 + b);
    for (size_t sh = 0; sh < TU_NSHAPES; ++sh) {
      char what[96];
      snprintf(what, sizeof what, "uint nbins=%zu shape %zu", nbins_list[b], sh);
      check_uint(ctx, keys, n, nbins_list[b], &tu_shapes[sh], what);
    }
    free(keys);
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* The CPU path's edges (kernels/histogram.cl, _private; on GPUs, and
 * under LSK_SHAPES=nvidia, the same cases run the local kernel): n not a
 * multiple of the segments or of the four ways, fewer elements than
 * segments (empty segments), one block, several workers a block, slots at
 * the four-way limit (1023 bins: 1024 slots, four columns) and one past
 * it, 65536 bins (one column), keys out of range only at a segment's end
 * and start. */
START_TEST(test_histogram_uint_segments)
{
  static const lsk_algo_options opts[] = {
      {0}, {.blocks = 1}, {.blocks = 3}, {.blocks = 5, .workers = 3}, {.blocks = 64}};
  static const size_t ns[] = {1, 3, 4, 5, 63, 1001, 65539};
  static const size_t nbs[] = {1, 7, 1023, 1024, 65536};
  lsk_context *ctx = tu_context();
  for (size_t b = 0; b < sizeof nbs / sizeof *nbs; ++b)
    for (size_t s = 0; s < sizeof ns / sizeof *ns; ++s) {
      size_t n = ns[s], nb = nbs[b];
      uint32_t *keys = make_keys(n, nb, 0, 500 + b * 16 + s);
      /* Out of range at both ends: the first and last element. */
      keys[0] = (uint32_t)nb;
      keys[n - 1] = 0xffffffffu;
      for (size_t o = 0; o < sizeof opts / sizeof *opts; ++o) {
        char what[96];
        snprintf(what, sizeof what, "segments n=%zu nbins=%zu options %zu", n, nb, o);
        check_uint(ctx, keys, n, nb, &opts[o], what);
      }
      free(keys);
    }
  lsk_context_destroy(ctx);
}
END_TEST

/* ---- real ---- */

/* The reference bins (include/lsk/histogram.h), in each precision; *hit:
 * set where the clamp changed a bin. */
static size_t slot_float(float v, float lo, float hi, float scale, size_t nbins, int *hit)
{
  if (isnan(v))
    return nbins + LSK_HISTOGRAM_NAN;
  if (v < lo)
    return nbins + LSK_HISTOGRAM_BELOW;
  if (v >= hi)
    return nbins + LSK_HISTOGRAM_ABOVE;
  float f = floorf((v - lo) * scale);
  size_t bin = f < (float)nbins ? (size_t)f : nbins;
  if (bin >= nbins)
    *hit = 1;
  return bin < nbins ? bin : nbins - 1;
}

static size_t slot_double(double v, double lo, double hi, double scale, size_t nbins, int *hit)
{
  if (isnan(v))
    return nbins + LSK_HISTOGRAM_NAN;
  if (v < lo)
    return nbins + LSK_HISTOGRAM_BELOW;
  if (v >= hi)
    return nbins + LSK_HISTOGRAM_ABOVE;
  double f = floor((v - lo) * scale);
  size_t bin = f < (double)nbins ? (size_t)f : nbins;
  if (bin >= nbins)
    *hit = 1;
  return bin < nbins ? bin : nbins - 1;
}

/* lo = -1, hi = 1: just below hi, v - lo rounds to 2, the product to
 * nbins, in both precisions and for every nbins here. */
#define LO (-1.0)
#define HI 1.0

/* Values: uniform over [lo - w/4, hi + w/4), with the special ones at
 * fixed places (every 97th element, cycling through them). */
static double special(size_t i, int dbl)
{
  double below_hi = dbl ? nextafter(HI, -INFINITY) : (double)nextafterf((float)HI, -INFINITY);
  double below_lo = dbl ? nextafter(LO, -INFINITY) : (double)nextafterf((float)LO, -INFINITY);
  const double v[] = {LO, below_hi, HI, -0.0, 0.0, INFINITY, -INFINITY, NAN, -NAN, below_lo};
  return v[i % (sizeof v / sizeof v[0])];
}

static void check_real(lsk_context *ctx, lsk_type type, size_t n, size_t nbins,
                       const lsk_algo_options *opt, uint64_t seed, const char *what)
{
  size_t slots = nbins + LSK_HISTOGRAM_REAL_EXTRA, size = lsk_type_size(type);
  if (capped(ctx, what, n, slots, opt))
    return;
  int dbl = type == LSK_TYPE_DOUBLE, hit = 0;
  unsigned char *h = calloc(n + IN_OFF + 1, size);
  uint32_t *want = calloc(slots, 4);
  ck_assert(h && want);
  float flo = (float)LO, fhi = (float)HI, fs = (float)nbins / (fhi - flo);
  double ds = (double)nbins / (HI - LO);
  for (size_t i = 0; i < n; ++i) {
    double u = tu_rng(&seed) / 4294967296.0;
    double v = i % 97 == 0 ? special(i / 97, dbl) : LO - 0.5 + 3.0 * u;
    size_t j = i + IN_OFF;
    if (dbl) {
      ((double *)h)[j] = v;
      ++want[slot_double(v, LO, HI, ds, nbins, &hit)];
    } else {
      ((float *)h)[j] = (float)v;
      ++want[slot_float((float)v, flo, fhi, fs, nbins, &hit)];
    }
  }
  /* The clamp case is in every input of 97 * 2 elements or more. */
  ck_assert_msg(hit || n < 200, "%s: no value reached the clamp", what);
  lsk_buffer *in = upload(ctx, h, (n + IN_OFF + 1) * size), *out = counters(ctx, slots);
  int rc = lsk_histogram_real(ctx, type, in, IN_OFF, n, LO, HI, nbins, out, OUT_OFF, opt, NULL);
  if (!tu_over_limits(ctx, rc)) {
    TU_OK(ctx, rc);
    compare(ctx, out, want, slots, what);
  }
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
  free(h);
  free(want);
}

START_TEST(test_histogram_real)
{
  lsk_context *ctx = tu_context();
  const lsk_type types[] = {LSK_TYPE_FLOAT, LSK_TYPE_DOUBLE};
  for (size_t t = 0; t < 2; ++t) {
    if (types[t] == LSK_TYPE_DOUBLE && !tu_fp64(ctx, "histogram of doubles"))
      continue;
    for (size_t b = 0; b < NNBINS; ++b)
      for (size_t s = 0; s < TU_NSIZES; ++s)
        for (size_t sh = 0; sh < TU_NSHAPES; ++sh) {
          size_t n = tu_sizes[s], nbins = nbins_list[b];
          if ((n > 100000 || nbins > 1000) && sh > 0)
            continue;
          char what[128];
          snprintf(what, sizeof what, "%s n=%zu nbins=%zu shape %zu", lsk_type_name(types[t]), n,
                   nbins, sh);
          check_real(ctx, types[t], n, nbins, &tu_shapes[sh], 5 + b + s, what);
        }
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* Only special values: each lands in its counter. */
START_TEST(test_histogram_real_specials)
{
  lsk_context *ctx = tu_context();
  const float v[] = {-1.0f, 0x1.fffffep-1f, 1.0f, -0.0f, 0.0f, INFINITY, -INFINITY, NAN};
  lsk_buffer *in = upload(ctx, v, sizeof v), *out = counters(ctx, 7);
  TU_OK(ctx,
        lsk_histogram_real(ctx, LSK_TYPE_FLOAT, in, 0, 8, -1.0, 1.0, 4, out, OUT_OFF, NULL, NULL));
  /* bins [-1, -0.5), [-0.5, 0), [0, 0.5), [0.5, 1); below, above, NaN. */
  const uint32_t want[7] = {1, 0, 2, 1, 1, 2, 1};
  compare(ctx, out, want, 7, "specials");
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
  lsk_context_destroy(ctx);
}
END_TEST

/* The NaN rule (docs/algorithms.md): a NaN, whatever its sign and
 * payload, counts in the NaN counter and in no bin, also where every value
 * is one; in both precisions. */
START_TEST(test_histogram_real_all_nan)
{
  lsk_context *ctx = tu_context();
  enum { N = 1000, NB = 5 };
  for (int dbl = 0; dbl < 2; ++dbl) {
    if (dbl && !tu_fp64(ctx, "histogram of double NaNs"))
      continue;
    uint64_t bits[N];
    uint64_t seed = 17;
    for (size_t i = 0; i < N; ++i) {
      uint64_t payload = (uint64_t)tu_rng(&seed) << 20 | tu_rng(&seed) | 1;
      uint64_t sign = i % 2 ? (dbl ? UINT64_C(1) << 63 : UINT64_C(1) << 31) : 0;
      bits[i] = dbl ? sign | UINT64_C(0x7ff0000000000000) | (payload & UINT64_C(0xfffffffffffff))
                    : sign | 0x7f800000u | (payload & 0x7fffffu);
    }
    uint32_t f[N];
    for (size_t i = 0; i < N; ++i)
      f[i] = (uint32_t)bits[i];
    lsk_buffer *in = dbl ? upload(ctx, bits, sizeof bits) : upload(ctx, f, sizeof f);
    lsk_buffer *out = counters(ctx, NB + LSK_HISTOGRAM_REAL_EXTRA);
    TU_OK(ctx, lsk_histogram_real(ctx, dbl ? LSK_TYPE_DOUBLE : LSK_TYPE_FLOAT, in, 0, N, -1.0, 1.0,
                                  NB, out, OUT_OFF, NULL, NULL));
    uint32_t want[NB + LSK_HISTOGRAM_REAL_EXTRA] = {0};
    want[NB + LSK_HISTOGRAM_NAN] = N;
    compare(ctx, out, want, NB + LSK_HISTOGRAM_REAL_EXTRA,
            dbl ? "all NaN double" : "all NaN float");
    lsk_buffer_destroy(in);
    lsk_buffer_destroy(out);
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* On a queue of its own, with an event; then run again: overwritten,
 * not added to. */
START_TEST(test_histogram_queue)
{
  lsk_context *ctx = tu_context();
  enum { N = 5000, NB = 100 };
  uint32_t *keys = make_keys(N, NB, 0, 31), want[NB + 1] = {0};
  for (size_t i = 0; i < N; ++i)
    ++want[keys[i] < NB ? keys[i] : NB];
  lsk_buffer *in = upload(ctx, keys, N * 4), *out = counters(ctx, NB + 1);
  lsk_queue *q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  lsk_event *ev = NULL;
  lsk_async on = {.queue = q, .event = &ev};
  for (int round = 0; round < 2; ++round) {
    TU_OK(ctx, lsk_histogram_uint(ctx, in, 0, N, NB, out, OUT_OFF, NULL, &on));
    ck_assert_ptr_nonnull(ev);
    TU_OK(ctx, lsk_event_wait(ev));
    lsk_event_release(ev);
    ev = NULL;
    TU_OK(ctx, lsk_queue_finish(q));
    compare(ctx, out, want, NB + 1, "on a queue");
  }
  TU_OK(ctx, lsk_queue_destroy(q));
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
  free(keys);
  lsk_context_destroy(ctx);
}
END_TEST

/* The GPU kernel (kernels/histogram.cl, _copies; LSK_HISTOGRAM_GPU=1
 * forces it here): copies of the counters per block for slots up to 1024,
 * the local kernel past that. Keys uniform, all in one bin (skewed: every
 * worker on one slot), a skewed mix (nine in ten on one bin), out of
 * range; nbins around the threshold (1023: 1024 slots, copies; 1024: 1025
 * slots, one copy) and far from it; shapes with 1, 3, 32 and 33 workers
 * (as many copies, up to 32, and one short of a multiple), one block; the
 * reals at 1024 and 1025 slots. */
START_TEST(test_histogram_gpu_path)
{
  setenv("LSK_HISTOGRAM_GPU", "1", 1);
  lsk_context *ctx = tu_context();
  static const size_t nbs[] = {1, 7, 256, 1023, 1024, 65536};
  static const size_t ns[] = {1, 1000, 100003, ((size_t)1 << 20) + 3};
  static const lsk_algo_options opts[] = {{0},
                                          {.workers = 1},
                                          {.workers = 3, .blocks = 2},
                                          {.workers = 32},
                                          {.workers = 33, .blocks = 5},
                                          {.blocks = 1}};
  for (size_t b = 0; b < sizeof nbs / sizeof *nbs; ++b)
    for (size_t s = 0; s < sizeof ns / sizeof *ns; ++s)
      for (int k = 0; k < 5; ++k) {
        size_t n = ns[s], nb = nbs[b];
        uint32_t *keys = make_keys(n, nb, k == 4 ? 0 : k, 900 + b * 40 + s * 5 + (size_t)k);
        if (k == 4) /* nine in ten on one bin */
          for (size_t i = 0; i < n; ++i)
            if (i % 10)
              keys[i] = (uint32_t)(nb - 1);
        for (size_t o = 0; o < sizeof opts / sizeof *opts; ++o) {
          if (n > 100003 && o > 0)
            continue;
          char what[128];
          snprintf(what, sizeof what, "gpu uint n=%zu nbins=%zu keys %d options %zu", n, nb, k, o);
          check_uint(ctx, keys, n, nb, &opts[o], what);
        }
        free(keys);
      }
  const lsk_type types[] = {LSK_TYPE_FLOAT, LSK_TYPE_DOUBLE};
  static const size_t rbs[] = {7, 1021, 1022};
  for (size_t t = 0; t < 2; ++t) {
    if (types[t] == LSK_TYPE_DOUBLE && !tu_fp64(ctx, "histogram of doubles"))
      continue;
    for (size_t b = 0; b < sizeof rbs / sizeof *rbs; ++b)
      for (size_t o = 0; o < sizeof opts / sizeof *opts; ++o) {
        char what[128];
        snprintf(what, sizeof what, "gpu %s nbins=%zu options %zu", lsk_type_name(types[t]), rbs[b],
                 o);
        check_real(ctx, types[t], 100003, rbs[b], &opts[o], 30 + b + o, what);
      }
  }
  lsk_context_destroy(ctx);
  unsetenv("LSK_HISTOGRAM_GPU");
}
END_TEST

/* Small cases of every kernel (oclgrind): both paths for each type. */
START_TEST(test_grind_histogram)
{
  lsk_context *ctx = tu_context();
  lsk_algo_options o = {.tile = 64, .blocks = 2};
  uint32_t *keys = make_keys(150, 7, 0, 3);
  check_uint(ctx, keys, 150, 7, &o, "grind uint");
  /* Several workers a block (on CPUs: a column set each), 3 blocks. */
  lsk_algo_options w3 = {.blocks = 3, .workers = 3};
  check_uint(ctx, keys, 150, 7, &w3, "grind uint, 3 workers");
  free(keys);
  keys = make_keys(97, 2000, 0, 5);
  check_uint(ctx, keys, 97, 2000, &o, "grind uint, one way");
  free(keys);
  keys = make_keys(300, 200003, 0, 4);
  check_uint(ctx, keys, 300, 200003, &o, "grind uint global");
  free(keys);
  /* The reals with the GPU kernel forbidden: under GPU shapes their few
   * slots would take the _copies kernel, and _local would never run. */
  setenv("LSK_HISTOGRAM_GPU", "0", 1);
  check_real(ctx, LSK_TYPE_FLOAT, 250, 7, &o, 9, "grind float");
  check_real(ctx, LSK_TYPE_FLOAT, 300, 200003, &o, 11, "grind float global");
  if (tu_fp64(ctx, "grind double")) {
    check_real(ctx, LSK_TYPE_DOUBLE, 250, 7, &o, 10, "grind double");
    check_real(ctx, LSK_TYPE_DOUBLE, 300, 200003, &o, 12, "grind double global");
  }
  unsetenv("LSK_HISTOGRAM_GPU");
  /* The GPU kernel (LSK_HISTOGRAM_GPU, read at each call): 5 workers, as
   * many copies. */
  setenv("LSK_HISTOGRAM_GPU", "1", 1);
  lsk_algo_options w5 = {.tile = 64, .blocks = 2, .workers = 5};
  keys = make_keys(150, 7, 1, 6);
  check_uint(ctx, keys, 150, 7, &w5, "grind uint copies, one bin");
  free(keys);
  check_real(ctx, LSK_TYPE_FLOAT, 250, 7, &w5, 13, "grind float copies");
  if (tu_fp64(ctx, "grind double"))
    check_real(ctx, LSK_TYPE_DOUBLE, 250, 7, &w5, 14, "grind double copies");
  lsk_context_destroy(ctx);
  unsetenv("LSK_HISTOGRAM_GPU");
}
END_TEST

Suite *suite_histogram(void)
{
  Suite *s = suite_create("histogram");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_histogram_uint);
  tcase_add_test(tc, test_histogram_uint_shapes);
  tcase_add_test(tc, test_histogram_uint_segments);
  tcase_add_test(tc, test_histogram_real);
  tcase_add_test(tc, test_histogram_real_specials);
  tcase_add_test(tc, test_histogram_real_all_nan);
  tcase_add_test(tc, test_histogram_queue);
  suite_add_tcase(s, tc);
  TCase *gpu = tcase_create("gpu");
  tcase_set_timeout(gpu, 600);
  tcase_add_test(gpu, test_histogram_gpu_path);
  suite_add_tcase(s, gpu);
  return s;
}

Suite *suite_grind_histogram(void)
{
  Suite *s = suite_create("grind_histogram");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_histogram);
  suite_add_tcase(s, tc);
  return s;
}
