/*
 * check_pool.c: the pool allocator (include/lsk/pool.h, cl/lsk_pool.h)
 * against a plain-C model (pool_model.h): which cells allocations get, the
 * exact free list after each GC, usage counts, zero-filled cells; many
 * work-groups allocating at once with no cell handed out twice; exhaustion
 * and recovery by growing; misuse reported; argument checks.
 */
#include <stdio.h>

#include "pool_model.h"
#include "testutil.h"

#define INVALID LSK_POOL_INVALID

/* A fixed-seed generator (xorshift32). */
static unsigned rnd(unsigned *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static int cmp_uint(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

static void sort_uints(unsigned *v, size_t n) { qsort(v, n, sizeof *v, cmp_uint); }

/* A buffer holding v[0..n) (at least one word), written whole. */
static lsk_buffer *upload(lsk_context *ctx, const unsigned *v, size_t n)
{
  lsk_buffer *b = NULL;
  unsigned one = INVALID;
  TU_OK(ctx, lsk_buffer_create(ctx, (n ? n : 1) * 4, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, n ? v : &one, (n ? n : 1) * 4, NULL));
  return b;
}

typedef struct fixture {
  lsk_context *ctx;
  lsk_program *prog;
  lsk_kernel *alloc, *recycle;
  lsk_launch cfg;
} fixture;

static void fx_open(fixture *f, unsigned domain, unsigned workers, unsigned simd, size_t blocks)
{
  f->ctx = tu_context();
  TU_OK(f->ctx, lsk_program_create_file(f->ctx, LSK_TEST_DIR "/pool.cl", NULL, &f->prog));
  f->alloc = tu_kernel(f->prog, "pool_alloc");
  f->recycle = tu_kernel(f->prog, "pool_recycle");
  f->cfg = (lsk_launch){.domain = {domain}, .blocks = {blocks}, .workers = workers, .simd = simd};
}

static void fx_close(fixture *f)
{
  lsk_kernel_destroy(f->alloc);
  lsk_kernel_destroy(f->recycle);
  lsk_program_destroy(f->prog);
  lsk_context_destroy(f->ctx);
}

/* n allocations on the device (out[i] INVALID in `cells` asks again);
 * the cells come back in cells[0..n). */
static void dev_alloc(fixture *f, lsk_pool *pool, unsigned *cells, unsigned n, unsigned tag)
{
  lsk_buffer *out = upload(f->ctx, cells, n);
  TU_OK(f->ctx, lsk_kernel_run(f->alloc, &f->cfg,
                               LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)), LSK_ARG_BUFFER(out),
                                        LSK_ARG_UINT(n), LSK_ARG_UINT(tag)),
                               NULL));
  if (n)
    TU_OK(f->ctx, lsk_buffer_read(out, 0, cells, n * 4, NULL));
  lsk_buffer_destroy(out);
}

static void dev_recycle(fixture *f, lsk_pool *pool, const unsigned *cells, unsigned n)
{
  lsk_buffer *in = upload(f->ctx, cells, n);
  TU_OK(f->ctx, lsk_kernel_run(f->recycle, &f->cfg,
                               LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)), LSK_ARG_BUFFER(in),
                                        LSK_ARG_UINT(n)),
                               NULL));
  lsk_buffer_destroy(in);
}

/* Asserts that got[0..n) and want[0..n) hold the same values (sorts both). */
static void same_multiset(unsigned *got, unsigned *want, size_t n, const char *what)
{
  sort_uints(got, n);
  sort_uints(want, n);
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(got[i] == want[i], "%s: sorted element %zu: got %u, want %u", what, i, got[i],
                  want[i]);
}

/* The GC, checked against the model: the device's recycle order must be
 * a permutation of rec[0..nrec) (sorted here), the model takes the same
 * order, and the free list after the GC is the model's, entry by entry.
 * order and got: scratch of cap entries. */
static void gc_checked(fixture *f, lsk_pool *pool, pool_model *m, unsigned *rec, unsigned nrec,
                       unsigned *order, unsigned *got, unsigned cap)
{
  size_t n = 0;
  TU_OK(f->ctx, lsk_pool_read_recycled(pool, order, cap, &n, NULL));
  ck_assert_uint_eq(n, nrec);
  memcpy(got, order, nrec * sizeof *got);
  same_multiset(got, rec, nrec, "recycled list");
  TU_OK(f->ctx, lsk_pool_gc(pool, NULL));
  pm_gc(m, order, nrec);
  TU_OK(f->ctx, lsk_pool_read_free(pool, got, cap, &n, NULL));
  ck_assert_uint_eq(n, m->nfree);
  for (size_t j = 0; j < n; ++j)
    ck_assert_msg(got[j] == m->free[j], "free[%zu] = %u, model %u", j, got[j], m->free[j]);
}

/* Random rounds of allocations, recycles and GCs, every step checked
 * against the model; cap 300 cells of 12 bytes. */
static void model_sequence(unsigned domain, unsigned workers, unsigned simd, unsigned seed)
{
  enum { CAP = 300, ROUNDS = 14 };
  fixture f;
  fx_open(&f, domain, workers, simd, 3);
  lsk_pool *pool = NULL;
  TU_OK(f.ctx, lsk_pool_create(f.ctx, 12, CAP, NULL, &pool));
  ck_assert_uint_eq(lsk_pool_cell_stride(pool), 12);
  pool_model m;
  pm_init(&m, CAP);
  unsigned live[CAP], nlive = 0, tags[CAP], rec[CAP], nrec = 0, got[CAP], want[CAP];
  for (unsigned round = 0; round < ROUNDS; ++round) {
    /* Allocate up to what is available (exhaustion is another test). */
    unsigned total = m.nfree + (CAP - m.fresh), avail = total - m.cursor;
    unsigned k = avail ? rnd(&seed) % (avail < 90 ? avail + 1 : 91) : 0;
    for (unsigned j = 0; j < k; ++j)
      got[j] = INVALID;
    dev_alloc(&f, pool, got, k, round << 16);
    pm_alloc(&m, k, want);
    for (unsigned j = 0; j < k; ++j) {
      ck_assert_uint_lt(got[j], CAP);
      tags[got[j]] = (round << 16) + j;
      live[nlive++] = got[j];
    }
    same_multiset(got, want, k, "allocated cells");
    /* Recycle a random part of the live cells, in random order. */
    unsigned r = nlive ? rnd(&seed) % (nlive + 1) : 0, out[CAP];
    for (unsigned j = 0; j < r; ++j) {
      unsigned pick = rnd(&seed) % nlive;
      out[j] = live[pick];
      rec[nrec++] = live[pick];
      live[pick] = live[--nlive];
    }
    dev_recycle(&f, pool, out, r);
    /* Usage before the GC. */
    lsk_pool_usage u;
    TU_OK(f.ctx, lsk_pool_usage_get(pool, &u, NULL));
    ck_assert_uint_eq(u.live, nlive);
    ck_assert_uint_eq(u.recycled, nrec);
    ck_assert_uint_eq(u.live + u.free + u.fresh + u.recycled, CAP);
    ck_assert_int_eq(u.exhausted, 0);
    /* The free list as the next allocations would take it. */
    size_t n = 0;
    TU_OK(f.ctx, lsk_pool_read_free(pool, got, CAP, &n, NULL));
    unsigned used = m.cursor < m.nfree ? m.cursor : m.nfree;
    ck_assert_uint_eq(n, m.nfree - used);
    for (size_t j = 0; j < n; ++j)
      ck_assert_uint_eq(got[j], m.free[used + j]);
    if (round % 3 == 2)
      continue; /* some rounds run no GC: allocations keep taking the cursor */
    unsigned order[CAP];
    gc_checked(&f, pool, &m, rec, nrec, order, got, CAP);
    nrec = 0;
    TU_OK(f.ctx, lsk_pool_usage_get(pool, &u, NULL));
    ck_assert_uint_eq(u.live, nlive);
    ck_assert_uint_eq(u.free, m.nfree);
    ck_assert_uint_eq(u.high_water, m.fresh);
    ck_assert_uint_eq(u.recycled, 0);
    ck_assert_uint_eq(u.allocated, 0);
    /* Free cells are zero again; live ones keep what their kernel wrote. */
    unsigned cells[CAP * 3];
    TU_OK(f.ctx, lsk_pool_read_cells(pool, 0, CAP, cells, sizeof cells, NULL));
    for (size_t j = 0; j < m.nfree; ++j)
      ck_assert_msg(cells[3 * m.free[j]] == 0 && cells[3 * m.free[j] + 2] == 0,
                    "free cell %u not zero", m.free[j]);
    for (unsigned j = 0; j < nlive; ++j)
      ck_assert_uint_eq(cells[3 * live[j]], tags[live[j]]);
  }
  pm_free(&m);
  lsk_pool_destroy(pool);
  fx_close(&f);
}

START_TEST(test_pool_model_sequence) { model_sequence(64, 8, 2, 12345u); }
END_TEST

START_TEST(test_pool_model_sequence_other_shape) { model_sequence(32, 0, 0, 777u); }
END_TEST

/* Many work-groups allocate at once from a pool whose free list and data
 * list both supply cells: every cell handed out once, exactly the model's
 * set, each cell holding what its allocator wrote. */
START_TEST(test_pool_concurrent_no_duplicates)
{
  enum { CAP = 5000, N = 4500 };
  static const unsigned shapes[][2] = {{8, 1}, {64, 1}, {4, 16}};
  for (size_t sh = 0; sh < 3; ++sh) {
    fixture f;
    fx_open(&f, 64, shapes[sh][0], shapes[sh][1], 16);
    if (!tu_fits(f.ctx, f.alloc, &f.cfg) || !tu_fits(f.ctx, f.recycle, &f.cfg)) {
      fx_close(&f);
      continue;
    }
    lsk_pool *pool = NULL;
    TU_OK(f.ctx, lsk_pool_create(f.ctx, 8, CAP, NULL, &pool));
    static unsigned first[1000], back[700], got[N], want[N];
    unsigned seed = 99u + (unsigned)sh;
    for (unsigned j = 0; j < 1000; ++j)
      first[j] = INVALID;
    dev_alloc(&f, pool, first, 1000, 0);
    for (unsigned j = 0; j < 700; ++j) {
      unsigned a = rnd(&seed) % (1000 - j);
      back[j] = first[a];
      first[a] = first[999 - j];
    }
    dev_recycle(&f, pool, back, 700);
    TU_OK(f.ctx, lsk_pool_gc(pool, NULL));
    size_t n;
    unsigned freelist[700];
    TU_OK(f.ctx, lsk_pool_read_free(pool, freelist, 700, &n, NULL));
    ck_assert_uint_eq(n, 700);
    for (unsigned j = 0; j < N; ++j)
      got[j] = INVALID;
    dev_alloc(&f, pool, got, N, 1u << 20);
    unsigned *cells = malloc(CAP * 8);
    ck_assert_ptr_nonnull(cells);
    TU_OK(f.ctx, lsk_pool_read_cells(pool, 0, CAP, cells, CAP * 8, NULL));
    for (unsigned i = 0; i < N; ++i) {
      ck_assert_uint_lt(got[i], CAP);
      ck_assert_msg(cells[2 * got[i]] == (1u << 20) + i && cells[2 * got[i] + 1] == i,
                    "shape %zu: cell %u holds %u/%u, item %u got it", sh, got[i], cells[2 * got[i]],
                    cells[2 * got[i] + 1], i);
    }
    memcpy(want, freelist, sizeof freelist);
    for (unsigned j = 700; j < N; ++j)
      want[j] = 1000 + (j - 700);
    same_multiset(got, want, N, "concurrent allocations");
    for (unsigned i = 1; i < N; ++i)
      ck_assert_msg(got[i] != got[i - 1], "cell %u handed out twice", got[i]);
    free(cells);
    lsk_pool_destroy(pool);
    fx_close(&f);
  }
}
END_TEST

/* 150 allocations from 100 cells: 100 distinct cells, 50 refused and
 * counted; after growing, a rerun of the refused ones succeeds and the
 * first 100 keep their cells and contents. */
START_TEST(test_pool_exhaustion_and_recovery)
{
  fixture f;
  fx_open(&f, 32, 0, 0, 4);
  lsk_pool *pool = NULL;
  TU_OK(f.ctx, lsk_pool_create(f.ctx, 16, 100, &(lsk_pool_options){.align = 16}, &pool));
  unsigned got[150], cells[160 * 4];
  for (unsigned j = 0; j < 150; ++j)
    got[j] = INVALID;
  dev_alloc(&f, pool, got, 150, 1000);
  unsigned ok = 0, v[150];
  for (unsigned j = 0; j < 150; ++j)
    if (got[j] != INVALID)
      v[ok++] = got[j];
  ck_assert_uint_eq(ok, 100);
  sort_uints(v, ok);
  for (unsigned j = 0; j < ok; ++j)
    ck_assert_uint_eq(v[j], j);
  lsk_pool_usage u;
  TU_OK(f.ctx, lsk_pool_usage_get(pool, &u, NULL));
  ck_assert_int_eq(u.exhausted, 1);
  ck_assert_uint_eq(u.shortfall, 50);
  ck_assert_uint_eq(u.refused, 50);
  ck_assert_uint_eq(u.allocated, 100);
  ck_assert_uint_eq(u.live, 100);
  ck_assert_uint_eq(u.fresh, 0);
  /* The GC keeps the count; growing keeps cells and contents. */
  TU_OK(f.ctx, lsk_pool_gc(pool, NULL));
  TU_OK(f.ctx, lsk_pool_usage_get(pool, &u, NULL));
  ck_assert_int_eq(u.exhausted, 0);
  ck_assert_uint_eq(u.refused, 50);
  TU_OK(f.ctx, lsk_pool_grow(pool, 160));
  ck_assert_uint_eq(lsk_pool_capacity(pool), 160);
  dev_alloc(&f, pool, got, 150, 1000);
  TU_OK(f.ctx, lsk_pool_usage_get(pool, &u, NULL));
  ck_assert_int_eq(u.exhausted, 0);
  ck_assert_uint_eq(u.refused, 50);
  ck_assert_uint_eq(u.live, 150);
  ck_assert_uint_eq(u.fresh, 10);
  TU_OK(f.ctx, lsk_pool_read_cells(pool, 0, 160, cells, sizeof cells, NULL));
  memcpy(v, got, sizeof v);
  sort_uints(v, 150);
  for (unsigned j = 0; j < 150; ++j) {
    ck_assert_uint_eq(v[j], j);
    ck_assert_uint_eq(cells[4 * got[j]], 1000 + j);
  }
  for (unsigned c = 150; c < 160; ++c)
    ck_assert_uint_eq(cells[4 * c] | cells[4 * c + 3], 0);
  lsk_pool_destroy(pool);
  fx_close(&f);
}
END_TEST

/* One-word cells recycled in whole GC tiles (8192 on CPUs, 2048 on GPUs:
 * host/mem/pool.c), the zero-fill's fast path: aligned runs of 16 consecutive
 * cells (whole cache lines; on x86 PoCL written with non-temporal stores),
 * a run that starts off a line, and scattered cells, then a partial tile.
 * After the GC: the free list exactly the model's, every free cell zero,
 * every live one as written; then every cell allocated again, each checked
 * zero on the device. With simd 32 a worker's batched recycle writes whole
 * lines of the recycled list, which on x86 PoCL also fills the run table
 * (cl/lsk_pool.h) that the GC zero-fills from; with simd 8 it never does. */
static void gc_one_word_cells(unsigned domain, unsigned simd)
{
  enum { TILE = 8192, CAP = 3 * TILE + 700 };
  fixture f;
  /* One block: PoCL then records the recycles in the order given. */
  fx_open(&f, domain, 8, simd, 1);
  lsk_pool *pool = NULL;
  TU_OK(f.ctx, lsk_pool_create(f.ctx, 4, CAP, NULL, &pool));
  static unsigned got[CAP], want[CAP], rec[CAP], order[CAP], cells[CAP], val[CAP];
  for (unsigned j = 0; j < CAP; ++j)
    got[j] = INVALID;
  dev_alloc(&f, pool, got, CAP, 0);
  for (unsigned j = 0; j < CAP; ++j)
    val[got[j]] = j; /* what item j wrote into its cell */
  pool_model m;
  pm_init(&m, CAP);
  pm_alloc(&m, CAP, want);
  same_multiset(got, want, CAP, "allocated cells");
  /* The first aligned line of cells: a cell's byte offset in the buffer
   * gives its alignment (buffers are aligned further than 64 bytes). */
  unsigned line = 0;
  while (lsk_pool_cell_offset(pool, line) % 64)
    ++line;
  unsigned n = 0, seed = 99u;
  for (unsigned c = line; c < line + TILE; ++c) /* a tile of whole lines */
    rec[n++] = c;
  for (unsigned c = line + TILE + 5; c < line + TILE + 5 + 600; ++c) /* off the lines */
    rec[n++] = c;
  unsigned taken[CAP] = {0};
  for (unsigned j = 0; j < n; ++j)
    taken[rec[j]] = 1;
  while (n < 2 * TILE + 300) { /* scattered, into the second tile and past it */
    unsigned c = rnd(&seed) % CAP;
    if (!taken[c]) {
      taken[c] = 1;
      rec[n++] = c;
    }
  }
  dev_recycle(&f, pool, rec, n);
  gc_checked(&f, pool, &m, rec, n, order, got, CAP);
  ck_assert_uint_eq(m.nfree, n);
  TU_OK(f.ctx, lsk_pool_read_cells(pool, 0, CAP, cells, sizeof cells, NULL));
  for (unsigned c = 0; c < CAP; ++c)
    ck_assert_msg(cells[c] == (taken[c] ? 0 : val[c]), "cell %u (%s) holds %u", c,
                  taken[c] ? "free" : "live", cells[c]);
  /* Allocated again, the free cells read zero on the device (its verify
   * fails the run otherwise). */
  for (unsigned j = 0; j < n; ++j)
    got[j] = INVALID;
  dev_alloc(&f, pool, got, n, 1);
  memcpy(want, rec, n * 4);
  same_multiset(got, want, n, "cells allocated after the GC");
  pm_alloc(&m, n, want);
  /* A second GC, of scattered cells only (every cell is live now, each
   * holding a value that is not zero): a run word that the first GC left
   * set would zero-fill the first tile's old lines instead of these. */
  memset(taken, 0, sizeof taken);
  unsigned n2 = 0;
  while (n2 < TILE + 200) {
    unsigned c = rnd(&seed) % CAP;
    if (!taken[c]) {
      taken[c] = 1;
      rec[n2++] = c;
    }
  }
  dev_recycle(&f, pool, rec, n2);
  gc_checked(&f, pool, &m, rec, n2, order, got, CAP);
  TU_OK(f.ctx, lsk_pool_read_cells(pool, 0, CAP, cells, sizeof cells, NULL));
  for (unsigned c = 0; c < CAP; ++c)
    ck_assert_msg(!taken[c] || cells[c] == 0, "cell %u (free after the second GC) holds %u", c,
                  cells[c]);
  pm_free(&m);
  lsk_pool_destroy(pool);
  fx_close(&f);
}

START_TEST(test_pool_gc_one_word_cells) { gc_one_word_cells(64, 8); }
END_TEST
START_TEST(test_pool_gc_one_word_cells_runs) { gc_one_word_cells(256, 32); }
END_TEST

/* A recycle of an index out of range is counted, and the GC turns it into
 * a device verify failure. */
START_TEST(test_pool_misuse_reported)
{
  fixture f;
  fx_open(&f, 16, 0, 0, 1);
  lsk_pool *pool = NULL;
  TU_OK(f.ctx, lsk_pool_create(f.ctx, 4, 10, NULL, &pool));
  unsigned bad[2] = {INVALID, 10};
  dev_recycle(&f, pool, bad, 2);
  lsk_pool_usage u;
  TU_OK(f.ctx, lsk_pool_usage_get(pool, &u, NULL));
  ck_assert_uint_eq(u.misuse, 1);
  TU_OK(f.ctx, lsk_pool_gc(pool, NULL));
  TU_FAILS(f.ctx, lsk_context_finish(f.ctx), LSK_EVERIFY, "bad recycles");
  TU_OK(f.ctx, lsk_pool_usage_get(pool, &u, NULL));
  ck_assert_uint_eq(u.misuse, 0);
  lsk_pool_destroy(pool);
  fx_close(&f);
}
END_TEST

START_TEST(test_pool_frames_geometry)
{
  lsk_context *ctx = tu_context();
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_parse("layout pt align 128\ncolumn uint id\ncolumn float x\n", "pt", &l));
  lsk_pool *pool = NULL;
  TU_OK(ctx, lsk_pool_create_frames(ctx, l, 64, 10, &pool));
  /* Header 128, two columns of 64 * 4 = 256 bytes. */
  ck_assert_uint_eq(lsk_pool_frame_size(pool), 64);
  ck_assert_uint_eq(lsk_pool_cell_stride(pool), 128 + 512);
  ck_assert_uint_eq(lsk_pool_frame_base(pool, 3) - lsk_pool_cell_offset(pool, 3), 128);
  ck_assert_uint_eq(lsk_pool_cell_offset(pool, 3) - lsk_pool_cell_offset(pool, 0), 3 * 640);
  ck_assert_uint_eq(lsk_pool_cell_offset(pool, 0) % 128, 0);
  lsk_pool_destroy(pool);
  TU_FAILS(ctx, lsk_pool_create_frames(ctx, l, 48, 10, &pool), LSK_EINVAL,
           "frame size 48: must be a power of two");
  ck_assert_ptr_null(pool);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_pool_bad_arguments)
{
  lsk_context *ctx = tu_context();
  lsk_pool *pool = NULL;
  TU_FAILS(ctx, lsk_pool_create(ctx, 4, 0, NULL, &pool), LSK_EINVAL, "capacity is 0");
  TU_FAILS(ctx, lsk_pool_create(ctx, 0, 8, NULL, &pool), LSK_EINVAL, "cell_bytes is 0");
  TU_FAILS(ctx, lsk_pool_create(ctx, 4, 8, &(lsk_pool_options){.align = 12}, &pool), LSK_EINVAL,
           "align 12: must be a power of two");
  TU_FAILS(ctx, lsk_pool_create(ctx, 4, 8, NULL, NULL), LSK_EINVAL, "out is NULL");
  TU_FAILS(NULL, lsk_pool_create(NULL, 4, 8, NULL, &pool), LSK_EINVAL, "ctx is NULL");
  TU_FAILS(ctx, lsk_pool_create(ctx, 1u << 30, 64, NULL, &pool), LSK_ERANGE, "2^32 - 1 words");
  TU_FAILS(ctx, lsk_pool_create_frames(ctx, NULL, 64, 8, &pool), LSK_EINVAL, "layout is NULL");
  TU_OK(ctx, lsk_pool_create(ctx, 4, 8, NULL, &pool));
  TU_FAILS(ctx, lsk_pool_grow(pool, 8), LSK_EINVAL, "capacity 8: must be more than the current 8");
  TU_FAILS(ctx, lsk_pool_usage_get(pool, NULL, NULL), LSK_EINVAL, "out is NULL");
  TU_FAILS(NULL, lsk_pool_usage_get(NULL, NULL, NULL), LSK_EINVAL, "pool is NULL");
  TU_FAILS(NULL, lsk_pool_gc(NULL, NULL), LSK_EINVAL, "lsk_pool_gc: pool is NULL");
  unsigned buf[16];
  size_t n;
  TU_FAILS(ctx, lsk_pool_read_cells(pool, 4, 5, buf, sizeof buf, NULL), LSK_ERANGE,
           "first 4 + count 5 exceed the capacity 8");
  TU_FAILS(ctx, lsk_pool_read_free(pool, buf, 4, NULL, NULL), LSK_EINVAL, "n is NULL");
  TU_OK(ctx, lsk_pool_read_free(pool, NULL, 0, &n, NULL));
  ck_assert_uint_eq(n, 0);
  lsk_pool_destroy(pool);
  lsk_pool_destroy(NULL);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_pool(void)
{
  Suite *s = suite_create("pool");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pool_model_sequence);
  tcase_add_test(tc, test_pool_model_sequence_other_shape);
  tcase_add_test(tc, test_pool_concurrent_no_duplicates);
  tcase_add_test(tc, test_pool_exhaustion_and_recovery);
  tcase_add_test(tc, test_pool_gc_one_word_cells);
  tcase_add_test(tc, test_pool_gc_one_word_cells_runs);
  tcase_add_test(tc, test_pool_misuse_reported);
  tcase_add_test(tc, test_pool_frames_geometry);
  tcase_add_test(tc, test_pool_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}
