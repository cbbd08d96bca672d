/*
 * check_compact.c: stream compaction (compact.h) against a plain C
 * reference on fixed-seed random inputs: indices of a plain buffer and of
 * SoA parts, SoA rows, every size class (0, 1, 7, 1000, 2^20 + 3, 2^24 + 7),
 * several (tile, workers, simd, blocks) shapes including one worker,
 * capacities below the count, the device-side count, build errors that
 * name the predicate's line, and every argument check.
 *
 * Suite grind_compact is the small cases alone, for oclgrind
 * (tests/oclgrind.sh); suite compact runs them too.
 */
#define _XOPEN_SOURCE 700 /* setenv */
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"

#define SENTINEL 0xdeadbeefu

/* The plain-buffer predicate: d[i] % 100 < arg, so arg is the percentage
 * selected on uniform data. */
static const char *pred_src = "int lsk_select(uint i, __global const uint *d, ulong arg)\n"
                              "{\n"
                              "  return d[i] % 100u < (uint)arg;\n"
                              "}\n";

#define rng_next tu_rng

static unsigned *random_uints(size_t n, uint64_t seed)
{
  unsigned *x = malloc((n ? n : 1) * sizeof *x);
  ck_assert_ptr_nonnull(x);
  for (size_t i = 0; i < n; ++i)
    x[i] = rng_next(&seed);
  return x;
}

/* The C reference: selected indices into want (room for n); their count. */
static size_t reference(const unsigned *x, size_t n, unsigned pct, unsigned *want)
{
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (x[i] % 100u < pct)
      want[k++] = (unsigned)i;
  return k;
}

static lsk_buffer *upload(lsk_context *ctx, const unsigned *x, size_t n)
{
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, (n ? n : 1) * sizeof *x, &b));
  if (n)
    TU_OK(ctx, lsk_buffer_write(b, 0, x, n * sizeof *x, NULL));
  return b;
}

/* A buffer of n uints, all SENTINEL, written whole (oclgrind). */
static lsk_buffer *sentinels(lsk_context *ctx, size_t n)
{
  unsigned *s = malloc(n * sizeof *s);
  ck_assert_ptr_nonnull(s);
  for (size_t i = 0; i < n; ++i)
    s[i] = SENTINEL;
  lsk_buffer *b = upload(ctx, s, n);
  free(s);
  return b;
}

static lsk_compactor *plain_compactor(lsk_context *ctx)
{
  lsk_compactor *c = NULL;
  TU_OK(ctx,
        lsk_compactor_create(ctx, pred_src, &(lsk_compactor_options){.data_type = "uint"}, &c));
  return c;
}

/* One compaction of x[0, n) with pct, out at offset 3 with the given
 * capacity, checked against the reference, the slots past the count and
 * the capacity, and the elements around the span. */
static void check_one(lsk_context *ctx, lsk_compactor *c, const unsigned *x, lsk_buffer *data,
                      size_t n, unsigned pct, size_t capacity, const lsk_algo_options *opt,
                      const char *what)
{
  if (tu_algo_capped(ctx, what, n, opt))
    return;
  const size_t off = 3, total = off + capacity + 2;
  unsigned *want = malloc((n ? n : 1) * sizeof *want);
  ck_assert_ptr_nonnull(want);
  size_t nwant = reference(x, n, pct, want);
  lsk_buffer *out = sentinels(ctx, total);
  size_t count = SIZE_MAX;
  TU_OK(ctx, lsk_compact(c, data, n, pct, out, off, capacity, &count, opt, NULL));
  ck_assert_msg(count == nwant, "%s n=%zu pct=%u: count %zu, want %zu", what, n, pct, count, nwant);
  unsigned *got = tu_read_uints(ctx, out, total);
  for (size_t k = 0; k < total; ++k) {
    unsigned w = k >= off && k - off < capacity && k - off < nwant ? want[k - off] : SENTINEL;
    if (got[k] != w)
      ck_abort_msg("%s n=%zu pct=%u cap=%zu: out[%zu] = %u, want %u", what, n, pct, capacity,
                   k - off, got[k], w);
  }
  free(got);
  free(want);
  lsk_buffer_destroy(out);
}

/* Automatic; one worker with simd 1; one worker over its whole tile; odd
 * shapes; several tiles per block. */
static const lsk_algo_options shapes[] = {
    {0},
    {.tile = 64, .workers = 1, .simd = 1},
    {.tile = 64, .workers = 1, .simd = 64},
    {.tile = 100, .workers = 7, .simd = 3},
    {.tile = 256, .workers = 32, .simd = 2, .blocks = 5},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

START_TEST(test_compact_sizes_and_shapes)
{
  lsk_context *ctx = tu_context();
  lsk_compactor *c = plain_compactor(ctx);
  for (size_t s = 0; s < TU_NSIZES; ++s) {
    size_t n = tu_sizes[s];
    unsigned *x = random_uints(n, 1234 + s);
    lsk_buffer *data = upload(ctx, x, n);
    for (size_t h = 0; h < NSHAPES; ++h) {
      lsk_algo_options o = shapes[h];
      char what[64];
      snprintf(what, sizeof what, "tile %u W=%u S=%u blocks %zu", o.tile, o.workers, o.simd,
               o.blocks);
      check_one(ctx, c, x, data, n, 50, n, &o, what);
    }
    free(x);
    lsk_buffer_destroy(data);
  }
  lsk_compactor_destroy(c);
  lsk_context_destroy(ctx);
}
END_TEST

/* Densities (none, all, sparse), one block over many tiles, capacities
 * below the count, and one large input. */
START_TEST(test_compact_density_capacity_large)
{
  lsk_context *ctx = tu_context();
  lsk_compactor *c = plain_compactor(ctx);
  size_t n = 1000;
  unsigned *x = random_uints(n, 77);
  lsk_buffer *data = upload(ctx, x, n);
  static const unsigned pcts[] = {0, 100, 3, 50};
  for (size_t p = 0; p < 4; ++p)
    for (size_t h = 0; h < 2; ++h)
      check_one(ctx, c, x, data, n, pcts[p], n, &shapes[h], "density");
  static const size_t caps[] = {0, 1, 250, 499};
  for (size_t k = 0; k < 4; ++k)
    check_one(ctx, c, x, data, n, 50, caps[k], &shapes[3], "capacity");
  /* More blocks than the automatic plan uses (the counts grow) and than a
   * tile holds (the scan of the counts takes several tiles). */
  check_one(ctx, c, x, data, n, 50, n, &(lsk_algo_options){.tile = 8, .blocks = 125}, "blocks");
  free(x);
  lsk_buffer_destroy(data);
  n = (1u << 24) + 7;
  x = random_uints(n, 99);
  data = upload(ctx, x, n);
  check_one(ctx, c, x, data, n, 50, n, NULL, "large");
  check_one(ctx, c, x, data, n, 50, n / 3, &(lsk_algo_options){.blocks = 1}, "one block");
  free(x);
  lsk_buffer_destroy(data);
  lsk_compactor_destroy(c);
  lsk_context_destroy(ctx);
}
END_TEST

/* The count on the device: two calls in a row without waiting, each count
 * to its own element, the elements around them untouched; the predicate
 * reads no data (data NULL). */
START_TEST(test_compact_count_on_device)
{
  static const char *src = "int lsk_select(uint i, LSK_COMPACT_IN d, ulong arg)\n"
                           "{\n"
                           "  return (i * 2654435761u) >> 28 < (uint)arg;\n"
                           "}\n";
  lsk_context *ctx = tu_context();
  lsk_compactor *c = NULL;
  TU_OK(ctx, lsk_compactor_create(ctx, src, NULL, &c));
  const size_t n = 5003;
  lsk_buffer *counts = sentinels(ctx, 8), *a = sentinels(ctx, n), *b = sentinels(ctx, n + 10);
  lsk_algo_options o = {.tile = 256};
  TU_OK(ctx, lsk_compact_to(c, NULL, n, 5, a, 0, n, counts, 2, &o, NULL));
  TU_OK(ctx, lsk_compact_to(c, NULL, n, 11, b, 10, n, counts, 5, NULL, NULL));
  unsigned *h = tu_read_uints(ctx, counts, 8), *ga = tu_read_uints(ctx, a, n),
           *gb = tu_read_uints(ctx, b, n + 10);
  size_t ka = 0, kb = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned r = (unsigned)(i * 2654435761u) >> 28;
    if (r < 5 && ga[ka++] != i)
      ck_abort_msg("a[%zu] = %u, want %u", ka - 1, ga[ka - 1], i);
    if (r < 11 && gb[10 + kb++] != i)
      ck_abort_msg("b[%zu] = %u, want %u", kb - 1, gb[9 + kb], i);
  }
  for (unsigned i = 0; i < 8; ++i)
    ck_assert_uint_eq(h[i], i == 2 ? ka : i == 5 ? kb : SENTINEL);
  ck_assert_uint_eq(ga[ka], SENTINEL);
  for (unsigned i = 0; i < 10; ++i)
    ck_assert_uint_eq(gb[i], SENTINEL);
  free(h);
  free(ga);
  free(gb);
  lsk_buffer_destroy(counts);
  lsk_buffer_destroy(a);
  lsk_buffer_destroy(b);
  lsk_compactor_destroy(c);
  lsk_context_destroy(ctx);
}
END_TEST

/* The CPU path's segments (kernels/compact.cl, "The CPU path": a
 * work-item per segment of whole 32-index words, 8 slots per store): n
 * not a multiple of a word or a segment, none, all and almost all
 * selected, one block of one worker, segments past n, capacities that end
 * inside a store. On GPUs (LSK_SHAPES=nvidia) the same cases run the
 * lockstep path. */
START_TEST(test_compact_cpu_segments)
{
  static const size_t sizes[] = {1, 8, 31, 32, 33, 64, 65, 255, 257, 1000, 4099, 33000};
  static const lsk_algo_options segs[] = {{.tile = 64, .workers = 1, .blocks = 1},
                                          {.tile = 64, .workers = 1, .blocks = 3},
                                          {.tile = 64, .workers = 4, .blocks = 7},
                                          {0}};
  static const unsigned pcts[] = {0, 100, 97, 50, 9};
  lsk_context *ctx = tu_context();
  lsk_compactor *c = plain_compactor(ctx);
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
    size_t n = sizes[s];
    /* Where loops end early (llvmpipe), one worker's lockstep pass over
     * 33000 indices evaluates the predicate past the cap. */
    if (n > 5000 && tu_loop_capped(ctx))
      continue;
    unsigned *x = random_uints(n, 4321 + s);
    lsk_buffer *data = upload(ctx, x, n);
    unsigned *want = malloc(n * sizeof *want);
    ck_assert_ptr_nonnull(want);
    for (size_t h = 0; h < sizeof segs / sizeof *segs; ++h)
      for (size_t p = 0; p < sizeof pcts / sizeof *pcts; ++p) {
        size_t k = reference(x, n, pcts[p], want);
        size_t caps[] = {n, k, k > 3 ? k - 3 : 0, k > 9 ? k - 9 : 1, 5};
        for (size_t q = 0; q < 5; ++q) {
          char what[80];
          snprintf(what, sizeof what, "segments W=%u blocks %zu cap %zu", segs[h].workers,
                   segs[h].blocks, caps[q]);
          check_one(ctx, c, x, data, n, pcts[p], caps[q], &segs[h], what);
        }
      }
    free(want);
    free(x);
    lsk_buffer_destroy(data);
  }
  lsk_compactor_destroy(c);
  lsk_context_destroy(ctx);
}
END_TEST

/* ---------------------------------------------------------------- */
/* SoA rows.                                                          */

#define ROWS_MEMBERS(COLUMN, MATRIX, SCALAR)                                                       \
  COLUMN(float, x)                                                                                 \
  COLUMN(uint, id)                                                                                 \
  MATRIX(float, 2, 3, m)                                                                           \
  COLUMN(short2, s)                                                                                \
  COLUMN(uchar, u)                                                                                 \
  SCALAR(uint, total)
LSK_SOA_DEFINE(rows, 128, ROWS_MEMBERS)

/* Selected: x < arg / 1000. */
static const char *rows_src = "int lsk_select(uint i, rows_const_view v, ulong arg)\n"
                              "{\n"
                              "  return rows_const_x(v, i) * 1000.0f < (float)arg;\n"
                              "}\n";

static void rows_fill(rows *r, size_t n, uint64_t seed)
{
  for (size_t i = 0; i < n; ++i) {
    r->x[i] = (float)(rng_next(&seed) % 1000u) / 1000.0f;
    r->id[i] = (cl_uint)(i * 7 + 1);
    for (size_t k = 0; k < 6; ++k)
      r->m[i + k * r->m_stride] = (float)(i + 1) + 0.25f * (float)k;
    r->s[i].s[0] = (cl_short)(i & 0x7fff);
    r->s[i].s[1] = (cl_short) - (cl_short)(i & 0xff);
    r->u[i] = (cl_uchar)(i * 13);
  }
  r->total[0] = 4242;
}

/* Row i of a equals row j of b, member by member. */
static int rows_equal(const rows *a, size_t i, const rows *b, size_t j)
{
  int eq = a->x[i] == b->x[j] && a->id[i] == b->id[j] && a->s[i].s[0] == b->s[j].s[0] &&
           a->s[i].s[1] == b->s[j].s[1] && a->u[i] == b->u[j];
  for (size_t k = 0; k < 6; ++k)
    eq = eq && a->m[i + k * a->m_stride] == b->m[j + k * b->m_stride];
  return eq;
}

static int row_zero(const rows *a, size_t i)
{
  int z = a->x[i] == 0 && a->id[i] == 0 && a->s[i].s[0] == 0 && a->s[i].s[1] == 0 && a->u[i] == 0;
  for (size_t k = 0; k < 6; ++k)
    z = z && a->m[i + k * a->m_stride] == 0;
  return z;
}

/* n source rows in part 0, a destination of cap rows in part 1 of the same
 * soa (or of another soa), with arg/1000 selected; every member checked,
 * rows past the count left zero, the destination's scalar untouched. */
static void check_rows(lsk_context *ctx, lsk_compactor *c, const lsk_layout *l, size_t n,
                       size_t cap, int same, unsigned arg, const lsk_algo_options *opt)
{
  lsk_soa *a = NULL, *b = NULL;
  const lsk_layout *const two[2] = {l, l};
  TU_OK(ctx, lsk_soa_create(ctx, same ? 2 : 1, two, (size_t[]){n, cap}, &a));
  if (!same)
    TU_OK(ctx, lsk_soa_create(ctx, 1, two, &cap, &b));
  lsk_soa *d = same ? a : b;
  size_t dj = same ? 1 : 0;
  rows src, dst;
  TU_OK(NULL, rows_bind(&src, lsk_soa_host(a, 0), n));
  TU_OK(NULL, rows_bind(&dst, lsk_soa_host(d, dj), cap));
  rows_fill(&src, n, 5 + n);
  dst.total[0] = 77;
  TU_OK(ctx, lsk_soa_upload(a, NULL));
  if (b)
    TU_OK(ctx, lsk_soa_upload(b, NULL));
  size_t count = SIZE_MAX;
  TU_OK(ctx, lsk_compact_rows(c, a, 0, d, dj, arg, &count, opt, NULL));
  TU_OK(ctx, lsk_soa_download(d, NULL));
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (src.x[i] * 1000.0f < (float)arg) {
      if (k < cap && !rows_equal(&src, i, &dst, k))
        ck_abort_msg("n=%zu cap=%zu: row %zu should be source row %zu", n, cap, k, i);
      ++k;
    }
  ck_assert_msg(count == k, "n=%zu cap=%zu: count %zu, want %zu", n, cap, count, k);
  for (size_t j = k; j < cap; ++j)
    if (!row_zero(&dst, j))
      ck_abort_msg("n=%zu cap=%zu: row %zu past the count written", n, cap, j);
  ck_assert_uint_eq(dst.total[0], 77);
  lsk_soa_destroy(a);
  lsk_soa_destroy(b);
}

static lsk_compactor *rows_compactor(lsk_context *ctx, lsk_layout **l, const char *opts)
{
  TU_OK(NULL, rows_describe(l));
  lsk_compactor *c = NULL;
  TU_OK(ctx,
        lsk_compactor_create(
            ctx, rows_src,
            &(lsk_compactor_options){.layout = *l, .name = "rows.cl", .build_options = opts}, &c));
  return c;
}

START_TEST(test_compact_rows)
{
  static const size_t sizes[] = {0, 1, 7, 1000, (1u << 17) + 3};
  lsk_context *ctx = tu_context();
  lsk_layout *l = NULL;
  lsk_compactor *c = rows_compactor(ctx, &l, NULL);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    for (size_t h = 0; h < 4; ++h) {
      size_t n = sizes[s];
      check_rows(ctx, c, l, n, n, h & 1, 500, &shapes[h]);
      check_rows(ctx, c, l, n, n / 3, !(h & 1), 500, &shapes[h]);
    }
  check_rows(ctx, c, l, 1000, 1000, 1, 0, NULL);
  check_rows(ctx, c, l, 1000, 1000, 0, 1000, NULL);
  lsk_compactor_destroy(c);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

/* Indices of an SoA part, waiting and on the device. */
START_TEST(test_compact_soa_indices)
{
  lsk_context *ctx = tu_context();
  lsk_layout *l = NULL;
  lsk_compactor *c = rows_compactor(ctx, &l, NULL);
  size_t n = 3001;
  lsk_soa *a = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){l}, &n, &a));
  rows r;
  TU_OK(NULL, rows_bind(&r, lsk_soa_host(a, 0), n));
  rows_fill(&r, n, 3);
  TU_OK(ctx, lsk_soa_upload(a, NULL));
  lsk_buffer *out = sentinels(ctx, n + 1);
  size_t count = 0;
  TU_OK(ctx, lsk_compact_soa(c, a, 0, 300, out, 0, n, &count, &shapes[3], NULL));
  TU_OK(ctx, lsk_compact_soa_to(c, a, 0, 300, out, 0, n, out, n, NULL, NULL));
  unsigned *got = tu_read_uints(ctx, out, n + 1);
  size_t k = 0;
  for (unsigned i = 0; i < n; ++i)
    if (r.x[i] * 1000.0f < 300.0f && got[k++] != i)
      ck_abort_msg("out[%zu] = %u, want %u", k - 1, got[k - 1], i);
  ck_assert_uint_eq(count, k);
  ck_assert_uint_eq(got[n], k);
  ck_assert_uint_eq(got[k], SENTINEL);
  free(got);
  lsk_buffer_destroy(out);
  lsk_soa_destroy(a);
  lsk_compactor_destroy(c);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The look-back path (host/algo/compact.c, lookback_path), forced by
 * LSK_COMPACT_LOOKBACK=1, in the test orders of loop index hook
 * (LSK_COMPACT_LOOKBACK_HOOK: 0 in order, 1 tiles last first, 2 every
 * window word read as NOT_READY, 3 both): indices of a plain buffer at
 * sizes around tile boundaries and past a look-back window of tiles,
 * capacities below the count, the device-side count, SoA indices and
 * rows, each against the C reference.                                */

static void lookback_env(int hook)
{
  char h[2] = {(char)('0' + hook), 0};
  setenv("LSK_COMPACT_LOOKBACK", "1", 1);
  setenv("LSK_COMPACT_LOOKBACK_HOOK", h, 1);
}

START_TEST(test_compact_lookback)
{
  static const size_t sizes[] = {0, 1, 63, 64, 65, 127, 128, 129, 64 * 33 + 1, 100 * 70 + 99};
  lookback_env(_i);
  lsk_context *ctx = tu_context();
  lsk_compactor *c = plain_compactor(ctx);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    size_t n = sizes[s];
    unsigned *x = random_uints(n, 99 + s);
    lsk_buffer *data = upload(ctx, x, n);
    for (size_t h = 0; h < NSHAPES; ++h) {
      char what[64];
      snprintf(what, sizeof what, "look-back %d shape %zu", _i, h);
      check_one(ctx, c, x, data, n, 50, n, &shapes[h], what);
      check_one(ctx, c, x, data, n, 30, n / 4, &shapes[h], what);
    }
    check_one(ctx, c, x, data, n, 0, n, &shapes[1], "look-back none");
    check_one(ctx, c, x, data, n, 100, n, &shapes[1], "look-back all");
    /* The count on the device, at count_index of another buffer. */
    lsk_buffer *out = sentinels(ctx, n + 1), *cnt = sentinels(ctx, 4);
    TU_OK(ctx, lsk_compact_to(c, data, n, 50, out, 0, n, cnt, 2, &shapes[3], NULL));
    unsigned *got = tu_read_uints(ctx, cnt, 4);
    unsigned *want = malloc((n ? n : 1) * sizeof *want);
    ck_assert_ptr_nonnull(want);
    ck_assert_uint_eq(got[2], reference(x, n, 50, want));
    ck_assert_uint_eq(got[1], SENTINEL);
    ck_assert_uint_eq(got[3], SENTINEL);
    free(got);
    free(want);
    lsk_buffer_destroy(out);
    lsk_buffer_destroy(cnt);
    free(x);
    lsk_buffer_destroy(data);
  }
  lsk_compactor_destroy(c);
  lsk_layout *l = NULL;
  c = rows_compactor(ctx, &l, NULL);
  static const size_t rsizes[] = {0, 1, 64, 65, 64 * 33 + 1, 3001};
  for (size_t s = 0; s < sizeof rsizes / sizeof rsizes[0]; ++s)
    for (size_t h = 0; h < 4; ++h) {
      size_t n = rsizes[s];
      check_rows(ctx, c, l, n, n, h & 1, 500, &shapes[h]);
      check_rows(ctx, c, l, n, n / 3, !(h & 1), 500, &shapes[h]);
    }
  /* SoA indices. */
  size_t n = 3001;
  lsk_soa *a = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){l}, &n, &a));
  rows r;
  TU_OK(NULL, rows_bind(&r, lsk_soa_host(a, 0), n));
  rows_fill(&r, n, 3);
  TU_OK(ctx, lsk_soa_upload(a, NULL));
  lsk_buffer *out = sentinels(ctx, n + 1);
  size_t count = 0;
  TU_OK(ctx, lsk_compact_soa(c, a, 0, 300, out, 0, n, &count, &shapes[1], NULL));
  unsigned *got = tu_read_uints(ctx, out, n + 1);
  size_t k = 0;
  for (unsigned i = 0; i < n; ++i)
    if (r.x[i] * 1000.0f < 300.0f && got[k++] != i)
      ck_abort_msg("out[%zu] = %u, want %u", k - 1, got[k - 1], i);
  ck_assert_uint_eq(count, k);
  ck_assert_uint_eq(got[k], SENTINEL);
  free(got);
  lsk_buffer_destroy(out);
  lsk_soa_destroy(a);
  lsk_compactor_destroy(c);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
  unsetenv("LSK_COMPACT_LOOKBACK");
  unsetenv("LSK_COMPACT_LOOKBACK_HOOK");
}
END_TEST

/* ---------------------------------------------------------------- */
/* Errors.                                                            */

START_TEST(test_compact_build_errors)
{
  lsk_context *ctx = tu_context();
  lsk_compactor *c = NULL;
  static const char *bad = "int lsk_select(uint i, __global const uint *d, ulong arg)\n"
                           "{\n"
                           "  return d[i] < no_such_name;\n"
                           "}\n";
  TU_FAILS(ctx,
           lsk_compactor_create(
               ctx, bad, &(lsk_compactor_options){.name = "mypred.cl", .data_type = "uint"}, &c),
           LSK_EBUILD, "mypred.cl:3:");
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), "no_such_name"), "%s", lsk_context_errmsg(ctx));
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), "mypred.cl:3 |   return d[i] < no_such_name;"),
                "%s", lsk_context_errmsg(ctx));
  ck_assert_ptr_null(c);
  TU_FAILS(ctx, lsk_compactor_create(ctx, "int f(void) { return 0; }\n", NULL, &c), LSK_EINVAL,
           "lsk_compactor_create: the source defines no lsk_select");
  TU_FAILS(ctx, lsk_compactor_create(ctx, NULL, NULL, &c), LSK_EINVAL, "source is NULL");
  TU_FAILS(ctx, lsk_compactor_create(ctx, pred_src, NULL, NULL), LSK_EINVAL, "out is NULL");
  TU_FAILS(NULL, lsk_compactor_create(NULL, pred_src, NULL, &c), LSK_EINVAL, "ctx is NULL");
  TU_FAILS(ctx,
           lsk_compactor_create(ctx, pred_src, &(lsk_compactor_options){.data_type = "uint;"}, &c),
           LSK_EINVAL, "data_type 'uint;' is not an OpenCL C type name");
  lsk_layout *l = NULL;
  TU_OK(NULL, rows_describe(&l));
  TU_FAILS(ctx,
           lsk_compactor_create(ctx, rows_src,
                                &(lsk_compactor_options){.layout = l, .data_type = "uint"}, &c),
           LSK_EINVAL, "data_type 'uint' is for plain buffers");
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

/* A range-checked view read out of range by the predicate: the device's
 * verify record reaches the host as LSK_EVERIFY, naming the predicate's
 * line, the layout and the member. */
START_TEST(test_compact_verify)
{
  static const char *src = "int lsk_select(uint i, rows_const_view v, ulong arg)\n"
                           "{\n"
                           "  return rows_const_id(v, i + (uint)arg) != 0;\n"
                           "}\n";
  lsk_context *ctx = tu_context();
  lsk_layout *l = NULL;
  TU_OK(NULL, rows_describe(&l));
  lsk_compactor *c = NULL;
  TU_OK(ctx, lsk_compactor_create(
                 ctx, src, &(lsk_compactor_options){.layout = l, .build_options = "-DROWS_CHECK=1"},
                 &c));
  size_t n = 100, count = 0;
  lsk_soa *s = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 2, (const lsk_layout *const[]){l, l}, (size_t[]){n, n}, &s));
  TU_OK(ctx, lsk_compact_rows(c, s, 0, s, 1, 0, &count, NULL, NULL));
  ck_assert_uint_eq(count, 0); /* ids are all 0 */
  TU_FAILS(ctx, lsk_compact_rows(c, s, 0, s, 1, 1, &count, NULL, NULL), LSK_EVERIFY,
           "at predicate:3: layout 'rows' member 'id': index 100 out of range [0, 100)");
  lsk_soa_destroy(s);
  lsk_compactor_destroy(c);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_compact_argument_errors)
{
  lsk_context *ctx = tu_context();
  lsk_compactor *c = plain_compactor(ctx);
  lsk_layout *l = NULL;
  lsk_compactor *rc = rows_compactor(ctx, &l, NULL);
  lsk_buffer *data = sentinels(ctx, 100), *out = sentinels(ctx, 100), *cnt = sentinels(ctx, 4);
  size_t count = 0, n = 10, small = 3;
  lsk_soa *s = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 2, (const lsk_layout *const[]){l, l}, (size_t[]){n, small}, &s));

  TU_FAILS(NULL, lsk_compact(NULL, data, 10, 0, out, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact: compactor is NULL");
  TU_FAILS(ctx, lsk_compact(c, data, 10, 0, out, 0, 10, NULL, NULL, NULL), LSK_EINVAL,
           "lsk_compact: count is NULL");
  TU_FAILS(ctx, lsk_compact(c, data, 10, 0, NULL, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact: out is NULL");
  TU_FAILS(ctx, lsk_compact(c, data, 10, 0, out, 95, 10, &count, NULL, NULL), LSK_ERANGE,
           "lsk_compact: out: elements [95, 105) of 4 bytes exceed the buffer's 400 bytes");
  TU_FAILS(ctx, lsk_compact(c, data, (size_t)UINT32_MAX + 1, 0, out, 0, 10, &count, NULL, NULL),
           LSK_ERANGE, "lsk_compact: n 4294967296 exceeds 2^32 - 1 elements");
  TU_FAILS(ctx, lsk_compact(c, out, 10, 0, out, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact: out is the input's buffer");
  TU_FAILS(ctx,
           lsk_compact(c, data, 10, 0, out, 0, 10, &count,
                       &(lsk_algo_options){.tile = LSK_MAX_DOMAIN + 1}, NULL),
           LSK_EINVAL, "lsk_compact: tile 16777217 exceeds LSK_MAX_DOMAIN");
  TU_FAILS(ctx, lsk_compact_to(c, data, 10, 0, out, 0, 10, NULL, 0, NULL, NULL), LSK_EINVAL,
           "lsk_compact_to: count_buf is NULL");
  TU_FAILS(ctx, lsk_compact_to(c, data, 10, 0, out, 0, 10, cnt, 4, NULL, NULL), LSK_ERANGE,
           "lsk_compact_to: count_buf: elements [4, 5)");
  TU_FAILS(ctx, lsk_compact_to(c, data, 10, 0, out, 0, 10, out, 9, NULL, NULL), LSK_EINVAL,
           "lsk_compact_to: count_index 9 is inside out [0, 10)");
  TU_FAILS(ctx, lsk_compact_to(c, data, 10, 0, out, 0, 10, data, 0, NULL, NULL), LSK_EINVAL,
           "lsk_compact_to: count_buf is the input's buffer");
  TU_FAILS(ctx, lsk_compact_soa(c, s, 0, 0, out, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact_soa: the compactor reads a plain buffer");
  TU_FAILS(ctx, lsk_compact_rows(c, s, 0, s, 1, 0, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact_rows: the compactor reads a plain buffer");
  TU_FAILS(ctx, lsk_compact(rc, data, 10, 0, out, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact: the compactor reads SoA parts of layout 'rows'");
  TU_FAILS(ctx, lsk_compact_soa(rc, NULL, 0, 0, out, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact_soa: src is NULL");
  TU_FAILS(ctx, lsk_compact_soa(rc, s, 2, 0, out, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact_soa: src has no part 2 (it has 2)");
  TU_FAILS(ctx, lsk_compact_soa(rc, s, 0, 0, lsk_soa_buffer(s), 0, 10, &count, NULL, NULL),
           LSK_EINVAL, "lsk_compact_soa: out is the input's buffer");
  TU_FAILS(ctx, lsk_compact_rows(rc, s, 0, s, 0, 0, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact_rows: dst part 0 is the src part");
  TU_FAILS(ctx, lsk_compact_rows(rc, s, 0, NULL, 0, 0, &count, NULL, NULL), LSK_EINVAL,
           "lsk_compact_rows: dst is NULL");
  TU_FAILS(ctx, lsk_compact_rows_to(rc, s, 0, s, 1, 0, lsk_soa_buffer(s), 0, NULL, NULL),
           LSK_EINVAL, "lsk_compact_rows_to: count_buf is a soa's buffer");
  TU_FAILS(ctx, lsk_compact_rows_to(rc, s, 0, s, 1, 0, NULL, 0, NULL, NULL), LSK_EINVAL,
           "lsk_compact_rows_to: count_buf is NULL");
  /* A part of another layout, larger than the compactor's layout allows
   * for its count at its place: refused. */
  lsk_layout *big = NULL;
  TU_OK(NULL, lsk_layout_parse("layout big\ncolumn uchar a\n", "big", &big));
  lsk_soa *other = NULL;
  size_t many = 1000;
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){big}, &many, &other));
  TU_FAILS(ctx, lsk_compact_soa(rc, other, 0, 0, out, 0, 10, &count, NULL, NULL), LSK_EINVAL,
           "is not of layout 'rows'");
  /* Nothing was written by the refused calls. */
  unsigned *h = tu_read_uints(ctx, out, 100);
  for (unsigned i = 0; i < 100; ++i)
    ck_assert_uint_eq(h[i], SENTINEL);
  free(h);
  lsk_soa_destroy(other);
  lsk_layout_destroy(big);
  lsk_soa_destroy(s);
  lsk_buffer_destroy(data);
  lsk_buffer_destroy(out);
  lsk_buffer_destroy(cnt);
  lsk_compactor_destroy(c);
  lsk_compactor_destroy(rc);
  lsk_layout_destroy(l);
  lsk_compactor_destroy(NULL);
  lsk_context_destroy(ctx);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Small cases for oclgrind: every kernel, one and several blocks,
 * range-checked views.                                               */

static void grind_cases(void)
{
  static const lsk_algo_options small[] = {{.tile = 16, .workers = 4, .simd = 2},
                                           {.tile = 7, .workers = 1, .simd = 1},
                                           {.tile = 32, .blocks = 1}};
  lsk_context *ctx = tu_context();
  lsk_compactor *c = plain_compactor(ctx);
  size_t n = 150;
  unsigned *x = random_uints(n, 11);
  lsk_buffer *data = upload(ctx, x, n);
  for (size_t h = 0; h < 3; ++h) {
    check_one(ctx, c, x, data, n, 50, n, &small[h], "grind");
    check_one(ctx, c, x, data, 5, 50, 2, &small[h], "grind");
  }
  /* Segments of the CPU path: three of 64 (the last one short), every
   * capacity near the count (stores of 8 ending at it), all selected. */
  const lsk_algo_options three = {.tile = 64, .workers = 1, .blocks = 3};
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    k += x[i] % 100u < 50;
  for (size_t cap = k - 9; cap <= k; ++cap)
    check_one(ctx, c, x, data, n, 50, cap, &three, "grind segments");
  check_one(ctx, c, x, data, n, 100, n, &three, "grind segments");
  free(x);
  lsk_buffer_destroy(data);
  lsk_compactor_destroy(c);
  lsk_layout *l = NULL;
  c = rows_compactor(ctx, &l, "-DROWS_CHECK=1");
  for (size_t h = 0; h < 2; ++h) {
    check_rows(ctx, c, l, 40, 40, 1, 500, &small[h]);
    check_rows(ctx, c, l, 40, 9, 0, 500, &small[h]);
  }
  check_rows(ctx, c, l, 150, 41, 1, 500, &three);
  lsk_compactor_destroy(c);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}

/* Each case on the device's path, then the CPU path, the lockstep path
 * and the look-back path forced (LSK_COMPACT_CPU, LSK_COMPACT_LOOKBACK,
 * host/algo/compact.c): oclgrind's device is a GPU, so it takes the
 * look-back by itself and the others only when forced. CMake's
 * oclgrind_grind_compact_lookback_hook runs the look-back in the test
 * orders (LSK_COMPACT_LOOKBACK_HOOK=3). */
START_TEST(test_compact_grind)
{
  static const char *const cpu[] = {NULL, "1", "0", NULL};
  static const char *const lookback[] = {NULL, NULL, "0", "1"};
  for (size_t k = 0; k < 4; ++k) {
    if (cpu[k])
      setenv("LSK_COMPACT_CPU", cpu[k], 1);
    if (lookback[k])
      setenv("LSK_COMPACT_LOOKBACK", lookback[k], 1);
    grind_cases();
    unsetenv("LSK_COMPACT_CPU");
    unsetenv("LSK_COMPACT_LOOKBACK");
  }
}
END_TEST

static TCase *grind_tcase(void)
{
  TCase *tc = tcase_create("grind");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_compact_grind);
  return tc;
}

Suite *suite_compact(void)
{
  Suite *s = suite_create("compact");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_compact_sizes_and_shapes);
  tcase_add_test(tc, test_compact_density_capacity_large);
  tcase_add_test(tc, test_compact_count_on_device);
  tcase_add_test(tc, test_compact_cpu_segments);
  tcase_add_test(tc, test_compact_rows);
  tcase_add_test(tc, test_compact_soa_indices);
  tcase_add_loop_test(tc, test_compact_lookback, 0, 4);
  tcase_add_test(tc, test_compact_build_errors);
  tcase_add_test(tc, test_compact_verify);
  tcase_add_test(tc, test_compact_argument_errors);
  suite_add_tcase(s, tc);
  suite_add_tcase(s, grind_tcase());
  return s;
}

Suite *suite_grind_compact(void)
{
  Suite *s = suite_create("grind_compact");
  suite_add_tcase(s, grind_tcase());
  return s;
}
