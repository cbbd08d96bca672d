/*
 * check_assoc.c: the one-to-many association (lsk_assoc_*) against a
 * plain C count-then-fill on fixed-seed random keys. Offsets and the
 * stored and skipped counts must be exact; the content is compared as a
 * set per key (each key's range sorted, against the reference's, which a
 * sequential fill leaves sorted). Keys at and above nkeys, up to
 * 0xffffffff, are in most inputs. The build for sorted keys
 * (lsk_assoc_build_sorted) against the same reference, its content exactly
 * in element order, and keys that are not sorted. Also: the device
 * helpers of cl/lsk_assoc.h, rebuilds through one handle, bad input, and
 * a call whose queue is gone (named as the call).
 *
 * tcase_assoc_grind (small sizes, several blocks and shapes) also runs in
 * the grind suite, under oclgrind.
 */
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"

/* xorshift32: fixed seeds, the same keys on every run. */
static uint32_t next(uint32_t *s)
{
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

/* n keys: mostly in [0, nkeys), about one in eight at or above it (some
 * at 0xffffffff) when skips is set. */
static uint32_t *random_keys(size_t n, uint32_t nkeys, int skips, uint32_t seed)
{
  uint32_t *k = malloc((n ? n : 1) * sizeof *k), s = seed;
  ck_assert_ptr_nonnull(k);
  for (size_t i = 0; i < n; ++i) {
    uint32_t r = next(&s);
    if (skips && (r & 7) == 0)
      k[i] = (r & 8) ? 0xffffffffu : nkeys + (next(&s) & 3);
    else
      k[i] = next(&s) % nkeys;
  }
  return k;
}

/* The reference: count, exclusive scan, fill in element order. */
typedef struct ref {
  uint32_t *offsets, *content;
  size_t stored, skipped;
} ref;

static ref ref_build(const uint32_t *keys, size_t n, uint32_t nkeys)
{
  ref r = {calloc((size_t)nkeys + 1, 4), malloc((n ? n : 1) * 4), 0, 0};
  uint32_t *cursor = calloc((size_t)nkeys + 1, 4);
  ck_assert(r.offsets && r.content && cursor);
  for (size_t i = 0; i < n; ++i)
    if (keys[i] < nkeys)
      ++r.offsets[keys[i] + 1];
  for (uint32_t k = 0; k < nkeys; ++k)
    r.offsets[k + 1] += r.offsets[k];
  for (size_t i = 0; i < n; ++i)
    if (keys[i] < nkeys)
      r.content[r.offsets[keys[i]] + cursor[keys[i]]++] = (uint32_t)i;
  r.stored = r.offsets[nkeys];
  r.skipped = n - r.stored;
  free(cursor);
  return r;
}

static void ref_free(ref *r)
{
  free(r->offsets);
  free(r->content);
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* A keys buffer holding keys at element offset `at`, the elements before
 * it set to 0 (written whole: oclgrind counts no partial write). */
static lsk_buffer *upload(lsk_context *ctx, const uint32_t *keys, size_t n, size_t at)
{
  uint32_t *all = calloc(at + n + 1, 4);
  ck_assert_ptr_nonnull(all);
  if (n)
    memcpy(all + at, keys, n * 4);
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, (at + n + 1) * 4, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, all, (at + n + 1) * 4, NULL));
  free(all);
  return b;
}

/* The association a against the reference of keys: offsets, sizes, every
 * key's set, and lsk_assoc_range for up to 2000 keys spread over all. */
static void check_assoc(lsk_context *ctx, lsk_assoc *a, const uint32_t *keys, size_t n,
                        const char *what)
{
  uint32_t nkeys = (uint32_t)lsk_assoc_nkeys(a);
  ref r = ref_build(keys, n, nkeys);
  size_t stored = 99, skipped = 99;
  TU_OK(ctx, lsk_assoc_size(a, &stored, &skipped, NULL));
  ck_assert_msg(stored == r.stored && skipped == r.skipped,
                "%s: stored %zu skipped %zu, want %zu %zu", what, stored, skipped, r.stored,
                r.skipped);
  uint32_t *off = malloc(((size_t)nkeys + 1) * 4), *got = malloc((r.stored ? r.stored : 1) * 4);
  ck_assert(off && got);
  TU_OK(ctx, lsk_buffer_read(lsk_assoc_offsets(a), 0, off, ((size_t)nkeys + 1) * 4, NULL));
  /* The first difference, then one assertion: libcheck's asserts cost a
   * write to a pipe each, too much for millions of elements. */
  uint32_t k = 0;
  while (k <= nkeys && off[k] == r.offsets[k])
    ++k;
  ck_assert_msg(k > nkeys, "%s: offsets[%u] = %u, want %u", what, k, k > nkeys ? 0 : off[k],
                k > nkeys ? 0 : r.offsets[k]);
  if (r.stored)
    TU_OK(ctx, lsk_buffer_read(lsk_assoc_content(a), 0, got, r.stored * 4, NULL));
  size_t bad = SIZE_MAX;
  for (k = 0; k < nkeys && bad == SIZE_MAX; ++k) {
    uint32_t b = r.offsets[k], e = r.offsets[k + 1];
    if (e - b > 1) /* 2^24 mostly empty keys: qsort calls cost seconds under ASan */
      qsort(got + b, e - b, 4, cmp_u32);
    for (uint32_t j = b; j < e && bad == SIZE_MAX; ++j)
      if (got[j] != r.content[j])
        bad = j;
  }
  ck_assert_msg(bad == SIZE_MAX, "%s: key %u, sorted position %zu: element %u, want %u", what,
                k - 1, bad == SIZE_MAX ? 0 : bad - r.offsets[k - 1], got[bad], r.content[bad]);
  uint32_t step = nkeys > 2000 ? nkeys / 2000 : 1;
  for (k = 0; k < nkeys; k += step) {
    size_t b = 99, e = 99;
    TU_OK(ctx, lsk_assoc_range(a, k, &b, &e, NULL));
    if (b != r.offsets[k] || e != r.offsets[k + 1])
      ck_abort_msg("%s: range of %u [%zu, %zu), want [%u, %u)", what, k, b, e, r.offsets[k],
                   r.offsets[k + 1]);
  }
  free(off);
  free(got);
  ref_free(&r);
}

/* The content of a sorted build: element i at i, exactly. */
static void check_identity(lsk_context *ctx, lsk_assoc *a, const char *what)
{
  size_t stored = 0;
  TU_OK(ctx, lsk_assoc_size(a, &stored, NULL, NULL));
  uint32_t *got = malloc((stored ? stored : 1) * 4);
  ck_assert_ptr_nonnull(got);
  if (stored)
    TU_OK(ctx, lsk_buffer_read(lsk_assoc_content(a), 0, got, stored * 4, NULL));
  size_t i = 0;
  while (i < stored && got[i] == i)
    ++i;
  ck_assert_msg(i == stored, "%s: content[%zu] = %u, want %zu", what, i, i < stored ? got[i] : 0,
                i);
  free(got);
}

/* lsk_assoc_build_sorted of n keys (put at element offset at of their
 * buffer) into a, checked against the reference and for content in
 * element order. */
static void sorted_check(lsk_context *ctx, lsk_assoc *a, const uint32_t *keys, size_t n, size_t at,
                         const char *what)
{
  lsk_buffer *kb = upload(ctx, keys, n, at);
  TU_OK(ctx, lsk_assoc_build_sorted(a, kb, at, n, NULL));
  check_assoc(ctx, a, keys, n, what);
  check_identity(ctx, a, what);
  lsk_buffer_destroy(kb);
}

/* Sorted keys for lsk_assoc_build_sorted: random ones (with keys to skip,
 * which sort last), sorted. */
static uint32_t *sorted_keys(size_t n, uint32_t nkeys, int skips, uint32_t seed)
{
  uint32_t *k = random_keys(n, nkeys, skips, seed);
  qsort(k, n, 4, cmp_u32);
  return k;
}

/* One build of n random keys into nkeys, checked; the keys sit at an
 * offset in their buffer. */
static void build_and_check(lsk_context *ctx, size_t n, uint32_t nkeys, int skips,
                            const lsk_assoc_options *opt, const char *shape)
{
  if (tu_algo_capped(ctx, shape, n, opt ? &opt->algo : NULL))
    return;
  uint32_t *keys = random_keys(n, nkeys, skips, (uint32_t)(n * 2654435761u + nkeys + 1));
  lsk_buffer *kb = upload(ctx, keys, n, 5);
  lsk_assoc *a = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, nkeys, n, opt, &a));
  TU_OK(ctx, lsk_assoc_build(a, kb, 5, n, NULL));
  char what[96];
  snprintf(what, sizeof what, "%s, n %zu, nkeys %u", shape, n, nkeys);
  check_assoc(ctx, a, keys, n, what);
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(kb);
  free(keys);
}

/* The sizes of the issue, each with keys to skip, through one shape. */
static void sizes_case(const lsk_algo_options *algo, const char *shape)
{
  static const struct {
    size_t n;
    uint32_t nkeys;
  } cases[] = {{0, 5}, {1, 1}, {7, 3}, {1000, 100}, {1000, 1}, {(1u << 20) + 3, (1u << 16) + 1}};
  lsk_context *ctx = tu_context();
  lsk_assoc_options opt = {.algo = *algo};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
    build_and_check(ctx, cases[c].n, cases[c].nkeys, 1, &opt, shape);
  lsk_context_destroy(ctx);
}

/* The shapes both builds are checked at: the automatic one; one worker,
 * one index per step, small tiles (many blocks, and the scan of the
 * counts over several blocks); a tile that is no multiple of the step,
 * over 3 blocks; one index per worker. */
static const struct {
  lsk_algo_options algo;
  const char *name;
} shapes[] = {{{0}, "auto"},
              {{.workers = 1, .simd = 1, .tile = 64}, "1x1 tile 64"},
              {{.workers = 8, .simd = 4, .tile = 96, .blocks = 3}, "8x4 tile 96"},
              {{.workers = 32, .simd = 1}, "32x1"}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

START_TEST(test_assoc_sizes) { sizes_case(&shapes[_i].algo, shapes[_i].name); }
END_TEST

/* lsk_assoc_build_sorted against the reference (which a sequential fill
 * of sorted keys leaves in element order: the content must be 0, 1, 2...
 * exactly) at each shape: the sizes of the other builds, keys with gaps
 * (few elements over many keys: the first element writes the offsets
 * before it, the last those after), and one key. */
static void sorted_case(const lsk_algo_options *algo, const char *shape)
{
  static const struct {
    size_t n;
    uint32_t nkeys;
    int skips;
  } cases[] = {{0, 5, 1},     {1, 1, 1},       {7, 3, 1},       {1000, 100, 1},
               {1000, 1, 1},  {50, 100000, 0}, {50, 100000, 1}, {(1u << 20) + 3, (1u << 16) + 1, 1},
               {200000, 4, 0}};
  lsk_context *ctx = tu_context();
  lsk_assoc_options opt = {.algo = *algo};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    size_t n = cases[c].n;
    uint32_t nkeys = cases[c].nkeys;
    if (tu_algo_capped(ctx, shape, n, algo))
      continue;
    uint32_t *keys = sorted_keys(n, nkeys, cases[c].skips, (uint32_t)(c * 7919u + 3u));
    lsk_assoc *a = NULL;
    TU_OK(ctx, lsk_assoc_create(ctx, nkeys, n, &opt, &a));
    char what[96];
    snprintf(what, sizeof what, "sorted, %s, n %zu, nkeys %u", shape, n, nkeys);
    sorted_check(ctx, a, keys, n, 2, what);
    lsk_assoc_destroy(a);
    free(keys);
  }
  lsk_context_destroy(ctx);
}

START_TEST(test_assoc_sorted) { sorted_case(&shapes[_i].algo, shapes[_i].name); }
END_TEST

/* The CPU path's edges (kernels/assoc.cl, the _segments kernels; on GPUs
 * and under LSK_SHAPES=nvidia the same cases run the device-wide passes):
 * n not a multiple of the segments, fewer elements than segments (empty
 * ones), one block, several workers a block, many blocks; nkeys 1, small,
 * 65536 (a column of counters of 256 KiB) and 200000 (past PoCL's local
 * memory: the atomic passes); both builds, the sorted one with runs of a
 * key across segments and skipped keys at the end. */
START_TEST(test_assoc_segments)
{
  static const lsk_algo_options opts[] = {
      {0}, {.blocks = 1}, {.blocks = 3}, {.blocks = 5, .workers = 3}, {.blocks = 64}};
  static const size_t ns[] = {1, 5, 63, 1001, 70001};
  static const uint32_t nks[] = {1, 37, 65536, 200000};
  lsk_context *ctx = tu_context();
  for (size_t o = 0; o < sizeof opts / sizeof *opts; ++o)
    for (size_t kk = 0; kk < sizeof nks / sizeof *nks; ++kk)
      for (size_t s = 0; s < sizeof ns / sizeof *ns; ++s) {
        size_t n = ns[s];
        uint32_t nkeys = nks[kk];
        if ((nkeys > 100 && n < 1000 && o > 1) || tu_algo_capped(ctx, "segments", n, &opts[o]))
          continue;
        lsk_assoc_options opt = {.algo = opts[o]};
        lsk_assoc *a = NULL;
        TU_OK(ctx, lsk_assoc_create(ctx, nkeys, n, &opt, &a));
        uint32_t *keys = random_keys(n, nkeys, 1, (uint32_t)(o * 131 + kk * 17 + s + 1));
        lsk_buffer *kb = upload(ctx, keys, n, 1);
        char what[96];
        snprintf(what, sizeof what, "segments, options %zu, n %zu, nkeys %u", o, n, nkeys);
        TU_OK(ctx, lsk_assoc_build(a, kb, 1, n, NULL));
        check_assoc(ctx, a, keys, n, what);
        qsort(keys, n, 4, cmp_u32);
        snprintf(what, sizeof what, "segments sorted, options %zu, n %zu, nkeys %u", o, n, nkeys);
        sorted_check(ctx, a, keys, n, 3, what);
        lsk_assoc_destroy(a);
        lsk_buffer_destroy(kb);
        free(keys);
      }
  lsk_context_destroy(ctx);
}
END_TEST

/* n sorted keys below 40 (seed) with a decrease at element at, built
 * sorted with opt: LSK_EVERIFY at the next wait, naming the element and
 * both keys. */
static void expect_decrease(lsk_context *ctx, size_t n, size_t at, unsigned seed,
                            const lsk_assoc_options *opt)
{
  uint32_t *k = sorted_keys(n, 40, 0, seed);
  k[at] = k[at - 1] - 1;
  lsk_buffer *kb = upload(ctx, k, n, 0);
  lsk_assoc *a = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, 40, n, opt, &a));
  TU_OK(ctx, lsk_assoc_build_sorted(a, kb, 0, n, NULL));
  TU_FAILS(ctx, lsk_context_finish(ctx), LSK_EVERIFY, "keys decrease");
  char want[48];
  snprintf(want, sizeof want, "[%zu, %u, %u]", at, k[at - 1], k[at]);
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), want), "%s", lsk_context_errmsg(ctx));
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(kb);
  free(k);
}

/* A decrease of the keys exactly where a segment starts (two blocks of
 * one worker, 500 elements each, on the CPU path): LSK_EVERIFY names it. */
START_TEST(test_assoc_sorted_segment_decrease)
{
  lsk_context *ctx = tu_context();
  expect_decrease(ctx, 1000, 500, 81, &(lsk_assoc_options){.algo = {.blocks = 2, .workers = 1}});
  lsk_context_destroy(ctx);
}
END_TEST

/* Keys that decrease: LSK_EVERIFY at the next wait, naming the element and
 * both keys; one build after it, of either kind, is right again, and the
 * two kinds alternate on one handle (the sorted build leaves the counts
 * alone). */
START_TEST(test_assoc_sorted_unsorted_keys)
{
  lsk_context *ctx = tu_context();
  uint32_t bad[6] = {0, 1, 1, 3, 2, 4};
  uint32_t *k = sorted_keys(3000, 40, 1, 77), *r = random_keys(3000, 40, 1, 78);
  lsk_buffer *bb = upload(ctx, bad, 6, 0), *kb = upload(ctx, k, 3000, 0),
             *rb = upload(ctx, r, 3000, 0);
  lsk_assoc *a = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, 5, 3000, NULL, &a));
  TU_OK(ctx, lsk_assoc_build_sorted(a, bb, 0, 6, NULL));
  TU_FAILS(ctx, lsk_context_finish(ctx), LSK_EVERIFY, "keys decrease");
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), "[4, 3, 2]"), "%s", lsk_context_errmsg(ctx));
  lsk_assoc_destroy(a);
  /* A decrease inside a later whole tile (tiles of 64): the fast path. */
  expect_decrease(ctx, 3000, 2001, 79, &(lsk_assoc_options){.algo = {.tile = 64}});
  TU_OK(ctx, lsk_assoc_create(ctx, 40, 3000, NULL, &a));
  TU_OK(ctx, lsk_assoc_build_sorted(a, kb, 0, 3000, NULL));
  check_assoc(ctx, a, k, 3000, "sorted");
  check_identity(ctx, a, "sorted");
  TU_OK(ctx, lsk_assoc_build(a, rb, 0, 3000, NULL));
  check_assoc(ctx, a, r, 3000, "counted after sorted");
  TU_OK(ctx, lsk_assoc_build_sorted(a, kb, 0, 1000, NULL));
  check_assoc(ctx, a, k, 1000, "sorted after counted");
  TU_OK(ctx, lsk_assoc_build(a, kb, 0, 3000, NULL));
  check_assoc(ctx, a, k, 3000, "counted, sorted keys");
  TU_OK(ctx, lsk_assoc_build_sorted(a, kb, 0, 0, NULL));
  check_assoc(ctx, a, k, 0, "sorted, empty");
  lsk_assoc_destroy(a);
  /* One key far inside 2^20: long gaps before and after it. */
  for (size_t i = 0; i < 3000; ++i)
    k[i] = 777777;
  TU_OK(ctx, lsk_assoc_create(ctx, 1u << 20, 3000, NULL, &a));
  sorted_check(ctx, a, k, 3000, 0, "one key of 2^20");
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(bb);
  lsk_buffer_destroy(kb);
  lsk_buffer_destroy(rb);
  free(k);
  free(r);
  lsk_context_destroy(ctx);
}
END_TEST

/* The large case: 2^24 + 1 elements into 2^16 keys (no skips). */
START_TEST(test_assoc_large)
{
  lsk_context *ctx = tu_context();
  build_and_check(ctx, (1u << 24) + 1, 1u << 16, 0, NULL, "large");
  lsk_context_destroy(ctx);
}
END_TEST

/* The extreme key counts: one key, and 2^24 keys with few elements. */
START_TEST(test_assoc_key_extremes)
{
  lsk_context *ctx = tu_context();
  build_and_check(ctx, 5000, 1, 1, NULL, "one key");
  build_and_check(ctx, 1000, LSK_ASSOC_MAX_KEYS, 1, NULL, "2^24 keys");
  build_and_check(ctx, 1000, LSK_ASSOC_MAX_KEYS, 0, NULL, "2^24 keys, none skipped");
  /* Every key skipped. */
  uint32_t keys[300];
  for (size_t i = 0; i < 300; ++i)
    keys[i] = i & 1 ? 0xffffffffu : 7 + (uint32_t)i;
  lsk_buffer *kb = upload(ctx, keys, 300, 0);
  lsk_assoc *a = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, 7, 300, NULL, &a));
  TU_OK(ctx, lsk_assoc_build(a, kb, 0, 300, NULL));
  check_assoc(ctx, a, keys, 300, "all skipped");
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(kb);
  lsk_context_destroy(ctx);
}
END_TEST

/* One handle through several builds: other keys, other offsets and sizes,
 * the same keys twice (the counts must be back at zero), empty, after
 * growing; lsk_assoc_range must follow every build. */
START_TEST(test_assoc_rebuild)
{
  lsk_context *ctx = tu_context();
  const uint32_t nkeys = 300;
  uint32_t *k1 = random_keys(5000, nkeys, 1, 11), *k2 = random_keys(20000, nkeys, 1, 22);
  lsk_buffer *b1 = upload(ctx, k1, 5000, 0), *b2 = upload(ctx, k2, 20000, 0);
  lsk_assoc *a = NULL;
  size_t b, e, stored, skipped;
  TU_OK(ctx, lsk_assoc_create(ctx, nkeys, 5000, NULL, &a));
  /* New: empty. */
  TU_OK(ctx, lsk_assoc_range(a, nkeys - 1, &b, &e, NULL));
  ck_assert(b == 0 && e == 0);
  TU_OK(ctx, lsk_assoc_size(a, &stored, &skipped, NULL));
  ck_assert(stored == 0 && skipped == 0);
  TU_OK(ctx, lsk_assoc_build(a, b1, 0, 5000, NULL));
  check_assoc(ctx, a, k1, 5000, "first build");
  lsk_buffer *content = lsk_assoc_content(a), *offsets = lsk_assoc_offsets(a);
  TU_OK(ctx, lsk_assoc_build(a, b2, 1234, 4321, NULL));
  check_assoc(ctx, a, k2 + 1234, 4321, "other keys at an offset");
  TU_OK(ctx, lsk_assoc_build(a, b2, 1234, 4321, NULL));
  check_assoc(ctx, a, k2 + 1234, 4321, "the same again");
  ck_assert_ptr_eq(lsk_assoc_content(a), content);
  ck_assert_ptr_eq(lsk_assoc_offsets(a), offsets);
  TU_OK(ctx, lsk_assoc_build(a, b1, 17, 0, NULL));
  check_assoc(ctx, a, k1, 0, "empty");
  TU_OK(ctx, lsk_assoc_build(a, b1, 0, 5000, NULL));
  check_assoc(ctx, a, k1, 5000, "first keys again");
  /* Growing empties the association and keeps the offsets buffer. */
  TU_OK(ctx, lsk_assoc_reserve(a, 100));
  ck_assert_uint_eq(lsk_assoc_capacity(a), 5000);
  TU_OK(ctx, lsk_assoc_reserve(a, 20000));
  ck_assert_uint_eq(lsk_assoc_capacity(a), 20000);
  ck_assert_ptr_eq(lsk_assoc_offsets(a), offsets);
  TU_OK(ctx, lsk_assoc_size(a, &stored, &skipped, NULL));
  ck_assert(stored == 0 && skipped == 0);
  TU_OK(ctx, lsk_assoc_build(a, b2, 0, 20000, NULL));
  check_assoc(ctx, a, k2, 20000, "after growing");
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(b1);
  lsk_buffer_destroy(b2);
  free(k1);
  free(k2);
  lsk_context_destroy(ctx);
}
END_TEST

/* Device helpers: per key, the sum and the number of its elements and how
 * many of them do not have the key; once by the whole block
 * (LSK_ASSOC_FOREACH, one key per block) and once by one worker per key
 * (lsk_assoc_begin / end / length). */
static const char *helpers_src =
    "LSK_KERNEL void per_block(LSK_CTX, __global const uint *offsets, __global const uint "
    "*content,\n"
    "                          __global const uint *keys, uint nkeys, __global uint *out)\n"
    "{\n"
    "  LSK_BLOCK_SCRATCH(uint, s);\n"
    "  LSK_BLOCKS(key, nkeys) {\n"
    "    uint sum = 0, cnt = 0, bad = 0;\n"
    "    LSK_ASSOC_FOREACH(it, j, offsets, key) {\n"
    "      uint e = content[j];\n"
    "      sum += e;\n"
    "      cnt += 1;\n"
    "      bad += keys[e] != key;\n"
    "    }\n"
    "    sum = lsk_block_reduce_add_uint(s, sum);\n"
    "    cnt = lsk_block_reduce_add_uint(s, cnt);\n"
    "    bad = lsk_block_reduce_add_uint(s, bad);\n"
    "    LSK_MASTER {\n"
    "      out[3 * key] = sum;\n"
    "      out[3 * key + 1] = cnt;\n"
    "      out[3 * key + 2] = bad;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void per_worker(LSK_CTX, __global const uint *offsets, __global const uint "
    "*content,\n"
    "                           __global const uint *keys, uint nkeys, __global uint *out)\n"
    "{\n"
    "  LSK_BLOCKS(b, (nkeys + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint key = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (key >= nkeys) continue;\n"
    "      uint sum = 0, bad = 0;\n"
    "      for (uint j = lsk_assoc_begin(offsets, key); j < lsk_assoc_end(offsets, key); ++j) {\n"
    "        sum += content[j];\n"
    "        bad += keys[content[j]] != key;\n"
    "      }\n"
    "      out[3 * key] = sum;\n"
    "      out[3 * key + 1] = lsk_assoc_length(offsets, key);\n"
    "      out[3 * key + 2] = bad;\n"
    "    }\n"
    "  }\n"
    "}\n";

static void helpers_case(lsk_context *ctx, size_t n, uint32_t nkeys, unsigned domain,
                         const unsigned (*shapes)[2], size_t nshapes)
{
  uint32_t *keys = random_keys(n, nkeys, 1, 99);
  lsk_buffer *kb = upload(ctx, keys, n, 0);
  lsk_assoc *a = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, nkeys, n, NULL, &a));
  TU_OK(ctx, lsk_assoc_build(a, kb, 0, n, NULL));
  ref r = ref_build(keys, n, nkeys);
  lsk_program *p = tu_program(ctx, "assoc_helpers.cl", helpers_src);
  const char *names[] = {"per_block", "per_worker"};
  uint32_t *zero = calloc(3 * (size_t)nkeys, 4), *got = malloc(3 * (size_t)nkeys * 4);
  ck_assert(zero && got);
  lsk_buffer *out = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, 3 * (size_t)nkeys * 4, &out));
  for (size_t kn = 0; kn < 2; ++kn) {
    lsk_kernel *k = tu_kernel(p, names[kn]);
    for (size_t s = 0; s < nshapes; ++s) {
      TU_OK(ctx, lsk_buffer_write(out, 0, zero, 3 * (size_t)nkeys * 4, NULL));
      lsk_launch cfg = {
          .domain = {domain}, .blocks = {3}, .workers = shapes[s][0], .simd = shapes[s][1]};
      TU_OK(ctx, lsk_kernel_run(k, &cfg,
                                LSK_ARGS(LSK_ARG_BUFFER(lsk_assoc_offsets(a)),
                                         LSK_ARG_BUFFER(lsk_assoc_content(a)), LSK_ARG_BUFFER(kb),
                                         LSK_ARG_UINT(nkeys), LSK_ARG_BUFFER(out)),
                                NULL));
      TU_OK(ctx, lsk_buffer_read(out, 0, got, 3 * (size_t)nkeys * 4, NULL));
      for (uint32_t key = 0; key < nkeys; ++key) {
        uint32_t sum = 0, cnt = r.offsets[key + 1] - r.offsets[key];
        for (uint32_t j = r.offsets[key]; j < r.offsets[key + 1]; ++j)
          sum += r.content[j];
        if (got[3 * key] != sum || got[3 * key + 1] != cnt || got[3 * key + 2] != 0)
          ck_abort_msg("%s %ux%u key %u: sum %u count %u bad %u, want %u %u 0", names[kn],
                       shapes[s][0], shapes[s][1], key, got[3 * key], got[3 * key + 1],
                       got[3 * key + 2], sum, cnt);
      }
    }
    lsk_kernel_destroy(k);
  }
  free(zero);
  free(got);
  ref_free(&r);
  lsk_buffer_destroy(out);
  lsk_program_destroy(p);
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(kb);
  free(keys);
}

START_TEST(test_assoc_device_helpers)
{
  static const unsigned shapes[][2] = {{1, 1}, {4, 1}, {2, 8}, {16, 1}};
  lsk_context *ctx = tu_context();
  /* About 20 elements a key: several domain chunks per key. */
  helpers_case(ctx, 5000, 250, 8, shapes, 4);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_assoc_bad_input)
{
  lsk_context *ctx = tu_context(), *other = tu_context();
  lsk_assoc *a = (lsk_assoc *)&a;
  TU_FAILS(NULL, lsk_assoc_create(NULL, 4, 4, NULL, &a), LSK_EINVAL,
           "lsk_assoc_create: ctx is NULL");
  TU_FAILS(ctx, lsk_assoc_create(ctx, 4, 4, NULL, NULL), LSK_EINVAL,
           "lsk_assoc_create: out is NULL");
  TU_FAILS(ctx, lsk_assoc_create(ctx, 0, 4, NULL, &a), LSK_EINVAL, "lsk_assoc_create: nkeys is 0");
  ck_assert_ptr_null(a);
  TU_FAILS(ctx, lsk_assoc_create(ctx, (1u << 24) + 1, 4, NULL, &a), LSK_ERANGE,
           "lsk_assoc_create: nkeys 16777217 exceeds 2^24");
  TU_FAILS(ctx, lsk_assoc_create(ctx, 4, (1u << 28) + 1, NULL, &a), LSK_ERANGE,
           "lsk_assoc_create: capacity 268435457 exceeds 2^28 elements");
  TU_FAILS(
      ctx,
      lsk_assoc_create(ctx, 4, 4, &(lsk_assoc_options){.algo = {.tile = LSK_MAX_DOMAIN + 1}}, &a),
      LSK_EINVAL, "lsk_assoc_create: tile");
  ck_assert_ptr_null(a);

  TU_OK(ctx, lsk_assoc_create(ctx, 10, 100, NULL, &a));
  lsk_buffer *keys = tu_zeros(ctx, 200), *foreign = tu_zeros(other, 200);
  TU_FAILS(NULL, lsk_assoc_build(NULL, keys, 0, 1, NULL), LSK_EINVAL, "lsk_assoc_build: a is NULL");
  TU_FAILS(ctx, lsk_assoc_build(a, NULL, 0, 1, NULL), LSK_EINVAL, "lsk_assoc_build: keys is NULL");
  TU_FAILS(ctx, lsk_assoc_build(a, foreign, 0, 1, NULL), LSK_EINVAL,
           "lsk_assoc_build: keys belongs to another context");
  TU_FAILS(ctx, lsk_assoc_build(a, keys, 0, 101, NULL), LSK_ERANGE,
           "lsk_assoc_build: n 101 exceeds the capacity of 100 elements");
  TU_FAILS(ctx, lsk_assoc_build(a, keys, 150, 51, NULL), LSK_ERANGE,
           "lsk_assoc_build: keys: elements [150, 201) of 4 bytes exceed the buffer's 800 bytes");
  TU_FAILS(ctx, lsk_assoc_build(a, lsk_assoc_content(a), 0, 10, NULL), LSK_EINVAL,
           "lsk_assoc_build: keys is one of the association's own buffers");
  TU_FAILS(ctx, lsk_assoc_build(a, lsk_assoc_offsets(a), 0, 10, NULL), LSK_EINVAL,
           "lsk_assoc_build: keys is one of the association's own buffers");
  size_t b, e;
  TU_FAILS(NULL, lsk_assoc_range(NULL, 0, &b, &e, NULL), LSK_EINVAL, "lsk_assoc_range: a is NULL");
  TU_FAILS(ctx, lsk_assoc_range(a, 0, NULL, &e, NULL), LSK_EINVAL,
           "lsk_assoc_range: begin is NULL");
  TU_FAILS(ctx, lsk_assoc_range(a, 0, &b, NULL, NULL), LSK_EINVAL, "lsk_assoc_range: end is NULL");
  TU_FAILS(ctx, lsk_assoc_range(a, 10, &b, &e, NULL), LSK_ERANGE,
           "lsk_assoc_range: key 10 is not below nkeys 10");
  TU_FAILS(NULL, lsk_assoc_size(NULL, &b, &e, NULL), LSK_EINVAL, "lsk_assoc_size: a is NULL");
  TU_FAILS(NULL, lsk_assoc_reserve(NULL, 5), LSK_EINVAL, "lsk_assoc_reserve: a is NULL");
  TU_FAILS(ctx, lsk_assoc_reserve(a, (1u << 28) + 1), LSK_ERANGE,
           "lsk_assoc_reserve: capacity 268435457 exceeds 2^28 elements");
  ck_assert_ptr_null(lsk_assoc_offsets(NULL));
  ck_assert_ptr_null(lsk_assoc_content(NULL));
  ck_assert_uint_eq(lsk_assoc_nkeys(NULL), 0);
  ck_assert_uint_eq(lsk_assoc_capacity(NULL), 0);
  ck_assert_uint_eq(lsk_assoc_nkeys(a), 10);
  /* The failures left the handle usable. */
  TU_OK(ctx, lsk_assoc_build(a, keys, 0, 100, NULL));
  TU_OK(ctx, lsk_assoc_range(a, 0, &b, &e, NULL));
  ck_assert(b == 0 && e == 100);
  lsk_assoc_destroy(NULL);
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(keys);
  lsk_buffer_destroy(foreign);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

/* A library call whose launch fails is named in the message, not the
 * launch inside it (the one launch path takes the call's name): here the
 * build's queue was destroyed before the call. */
START_TEST(test_assoc_dead_queue)
{
  lsk_context *ctx = tu_context();
  lsk_queue *q;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  lsk_assoc *a = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, 10, 100, NULL, &a));
  lsk_buffer *keys = tu_zeros(ctx, 100);
  TU_OK(ctx, lsk_queue_finish(q));
  TU_OK(ctx, lsk_queue_destroy(q));
  TU_FAILS(ctx, lsk_assoc_build_sorted(a, keys, 0, 0, &(lsk_async){.queue = q}), LSK_EINVAL,
           "lsk_assoc_build_sorted: on->queue");
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(keys);
  lsk_context_destroy(ctx);
}
END_TEST

/* Small, for oclgrind: several blocks per pass, a scan of the counts over
 * several blocks, two shapes, a rebuild (counts reused without zeroing),
 * and the device helpers. */
START_TEST(test_assoc_grind)
{
  static const lsk_algo_options shapes[] = {{.workers = 8, .simd = 4, .tile = 32, .blocks = 3},
                                            {.workers = 1, .simd = 1, .tile = 16}};
  static const unsigned helper_shapes[][2] = {{4, 1}, {1, 2}};
  lsk_context *ctx = tu_context();
  for (size_t s = 0; s < 2; ++s) {
    lsk_assoc_options opt = {.algo = shapes[s]};
    uint32_t *k1 = random_keys(200, 37, 1, 5), *k2 = random_keys(150, 37, 1, 6);
    lsk_buffer *b1 = upload(ctx, k1, 200, 0), *b2 = upload(ctx, k2, 150, 3);
    lsk_assoc *a = NULL;
    TU_OK(ctx, lsk_assoc_create(ctx, 37, 200, &opt, &a));
    TU_OK(ctx, lsk_assoc_build(a, b1, 0, 200, NULL));
    check_assoc(ctx, a, k1, 200, "grind, first");
    TU_OK(ctx, lsk_assoc_build(a, b2, 3, 150, NULL));
    check_assoc(ctx, a, k2, 150, "grind, second");
    qsort(k1, 200, 4, cmp_u32);
    sorted_check(ctx, a, k1, 200, 1, "grind, sorted");
    /* Runs of about 100 elements a key: whole chunks of one key (the CPU
     * walk's branch-free loops). */
    uint32_t *k3 = sorted_keys(200, 2, 0, 7);
    sorted_check(ctx, a, k3, 200, 0, "grind, sorted runs");
    free(k3);
    lsk_assoc_destroy(a);
    lsk_buffer_destroy(b1);
    lsk_buffer_destroy(b2);
    free(k1);
    free(k2);
  }
  helpers_case(ctx, 120, 11, 8, helper_shapes, 2);
  lsk_context_destroy(ctx);
}
END_TEST

TCase *tcase_assoc_grind(void)
{
  TCase *tc = tcase_create("assoc");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_assoc_grind);
  return tc;
}

Suite *suite_assoc(void)
{
  Suite *s = suite_create("assoc");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_assoc_sizes, 0, NSHAPES);
  tcase_add_test(tc, test_assoc_large);
  tcase_add_test(tc, test_assoc_key_extremes);
  tcase_add_test(tc, test_assoc_rebuild);
  tcase_add_loop_test(tc, test_assoc_sorted, 0, NSHAPES);
  tcase_add_test(tc, test_assoc_sorted_unsorted_keys);
  tcase_add_test(tc, test_assoc_segments);
  tcase_add_test(tc, test_assoc_sorted_segment_decrease);
  tcase_add_test(tc, test_assoc_device_helpers);
  tcase_add_test(tc, test_assoc_bad_input);
  tcase_add_test(tc, test_assoc_dead_queue);
  suite_add_tcase(s, tc);
  return s;
}
