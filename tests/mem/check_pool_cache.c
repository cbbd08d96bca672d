/*
 * check_pool_cache.c: a worker's pool cache (lsk_pool_cache in
 * cl/lsk_pool.h) against the pool's own accounting worked out here: every
 * cell handed out once and holding what its item wrote; the cells a cache
 * reserved and never handed out back on the recycled list, never one that
 * an item got; the recycled items' cells there too; live, refused and
 * allocated exact, also when the pool runs out (a reservation never makes
 * the pool look exhausted); after the GC every cell free again and handed
 * out as zeros. With the batch the device chooses (256 on PoCL, 1 on GPUs
 * and rusticl), 1 and 4, on three shapes; small enough for oclgrind.
 */
#include <stdio.h>

#include "testutil.h"

#define INVALID LSK_POOL_INVALID

/* Runs pool_cache_churn over n items (tag) and returns the cells. */
static void churn(lsk_context *ctx, lsk_kernel *k, const lsk_launch *cfg, lsk_pool *pool,
                  unsigned *out, unsigned n, unsigned tag)
{
  lsk_buffer *b = NULL;
  for (unsigned i = 0; i < n; ++i)
    out[i] = 0x5a5a5a5au;
  TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, out, n * 4, NULL));
  TU_OK(ctx, lsk_kernel_run(k, cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)), LSK_ARG_BUFFER(b),
                                     LSK_ARG_UINT(n), LSK_ARG_UINT(tag)),
                            NULL));
  TU_OK(ctx, lsk_buffer_read(b, 0, out, n * 4, NULL));
  lsk_buffer_destroy(b);
}

/*
 * Two churns of n items on a fresh pool of cap two-word cells, each
 * checked, each followed by a GC; the second must find every cell it gets
 * zero (the kernel verifies) while the first churn's kept cells stay live.
 * caches: work-items of the launch; batch: the build's
 * LSK_POOL_CACHE_BATCH (0: the device's choice, at most 256).
 */
static void cache_case(lsk_context *ctx, lsk_kernel *k, const lsk_launch *cfg, unsigned batch,
                       unsigned caches, unsigned cap, unsigned n, int roomy)
{
  unsigned *out = malloc(n * 4), *cells = malloc((size_t)cap * 8), *rec = malloc(cap * 4);
  /* Per cell: 0 untouched this round, 1 kept, 2 recycled by its item, 3
   * seen on the recycled list; live[]: kept in any round. */
  unsigned char *mark = calloc(cap, 1), *live = calloc(cap, 1);
  ck_assert(out && cells && rec && mark && live);
  size_t spare = (batch ? batch : LSK__POOL_CACHE_CPU_BATCH) - 1; /* cells a cache may hold back */
  size_t refused = 0, kept = 0;
  lsk_pool *pool = NULL;
  lsk_pool_usage u;
  TU_OK(ctx, lsk_pool_create(ctx, 8, cap, NULL, &pool));
  for (unsigned round = 0; round < 2; ++round) {
    unsigned tag = 1000000u * (round + 1);
    TU_OK(ctx, lsk_pool_usage_get(pool, &u, NULL));
    size_t avail = u.free + u.fresh;
    churn(ctx, k, cfg, pool, out, n, tag);
    TU_OK(ctx, lsk_pool_read_cells(pool, 0, cap, cells, (size_t)cap * 8, NULL));
    size_t got = 0, back = 0;
    memset(mark, 0, cap);
    for (unsigned i = 0; i < n; ++i) {
      if (out[i] == INVALID)
        continue;
      unsigned c = out[i];
      ck_assert_msg(c < cap, "batch %u: item %u got cell %u of %u", batch, i, c, cap);
      ck_assert_msg(!mark[c] && !live[c], "batch %u: cell %u handed out twice", batch, c);
      ck_assert_msg(cells[2 * c] == tag + i && cells[2 * c + 1] == 0,
                    "batch %u: cell %u holds %u/%u, item %u wrote %u", batch, c, cells[2 * c],
                    cells[2 * c + 1], i, tag + i);
      mark[c] = i % 3 == 0 ? 2 : 1;
      ++got;
      back += i % 3 == 0;
    }
    for (unsigned c = 0; c < cap; ++c)
      live[c] |= mark[c] == 1;
    kept += got - back;
    refused += n - got;
    TU_OK(ctx, lsk_pool_usage_get(pool, &u, NULL));
    /* The cursor values the caches reserved beyond what they handed out. */
    ck_assert_msg(u.allocated >= got, "batch %u: %zu allocated, %zu handed out", batch, u.allocated,
                  got);
    size_t held = u.allocated - got;
    ck_assert_msg(held <= spare * caches && held <= got + 15 * caches,
                  "batch %u: %zu cells held back by %u caches that handed out %zu", batch, held,
                  caches, got);
    ck_assert_msg(u.live == kept && u.refused == refused,
                  "batch %u round %u: live %zu refused %zu, want %zu and %zu", batch, round, u.live,
                  (size_t)u.refused, kept, refused);
    if (roomy)
      ck_assert_msg(refused == 0, "batch %u: %zu refused from a pool with room", batch, refused);
    /* Refusals only once every available cell was reserved or handed out. */
    if (got < n)
      ck_assert_msg(u.allocated == avail, "batch %u: refused with %zu of %zu cells allocated",
                    batch, u.allocated, avail);
    /* The recycled list: the recycled items' cells and the held-back ones,
     * each once, none that is live. */
    size_t nrec = 0, seen_back = 0;
    TU_OK(ctx, lsk_pool_read_recycled(pool, rec, cap, &nrec, NULL));
    ck_assert_uint_eq(nrec, back + held);
    for (size_t j = 0; j < nrec; ++j) {
      ck_assert_uint_lt(rec[j], cap);
      ck_assert_msg(!live[rec[j]] && mark[rec[j]] != 3,
                    "batch %u: recycled cell %u is live, or recycled twice", batch, rec[j]);
      seen_back += mark[rec[j]] == 2;
      mark[rec[j]] = 3;
    }
    ck_assert_uint_eq(seen_back, back);
    TU_OK(ctx, lsk_pool_gc(pool, NULL));
    TU_OK(ctx, lsk_pool_usage_get(pool, &u, NULL));
    ck_assert_uint_eq(u.live, kept);
    ck_assert_uint_eq(u.free + u.fresh + kept, cap);
  }
  lsk_pool_destroy(pool);
  free(out);
  free(cells);
  free(rec);
  free(mark);
  free(live);
}

/* Each batch and shape: room to spare, and a pool that runs out. */
static void cache_all(unsigned cap_roomy, unsigned cap_short, unsigned n)
{
  static const unsigned batches[] = {0, 1, 4};
  static const unsigned shapes[][3] = {{64, 8, 1}, {64, 4, 16}, {8, 4, 2}};
  lsk_context *ctx = tu_context();
  for (size_t b = 0; b < 3; ++b) {
    char opt[64] = "";
    if (batches[b])
      snprintf(opt, sizeof opt, "-DLSK_POOL_CACHE_BATCH=%u", batches[b]);
    lsk_program *prog = NULL;
    TU_OK(ctx, lsk_program_create_file(ctx, LSK_TEST_DIR "/pool.cl",
                                       &(lsk_program_options){.build_options = opt}, &prog));
    lsk_kernel *k = tu_kernel(prog, "pool_cache_churn");
    for (size_t sh = 0; sh < 3; ++sh) {
      lsk_launch cfg = {.domain = {shapes[sh][0]},
                        .blocks = {6},
                        .workers = shapes[sh][1],
                        .simd = shapes[sh][2]};
      if (!tu_fits(ctx, k, &cfg))
        continue;
      unsigned caches = 6 * shapes[sh][1];
      cache_case(ctx, k, &cfg, batches[b], caches, cap_roomy, n, 1);
      cache_case(ctx, k, &cfg, batches[b], caches, cap_short, n, 0);
    }
    lsk_kernel_destroy(k);
    lsk_program_destroy(prog);
  }
  lsk_context_destroy(ctx);
}

/* 1000 items a round: 3000 cells hold the first round's kept cells
 * (about 667) and the second round's 1000 with what the caches hold back
 * (no more than they hand out); 400 run out in the first round. */
START_TEST(test_pool_cache_counts) { cache_all(3000, 400, 1000); }
END_TEST

/* The device's batch at its full size: 6 caches of 1000 items each, so
 * that on PoCL (256) each cache's reservations grow to the batch and its
 * recycles fill it once (the cases above hand out about 20 to 40 items
 * per cache). 16000 cells hold the first round's kept cells (about 4000),
 * the second round's 6000 and what the caches hold back; 2500 run out. */
START_TEST(test_pool_cache_full_batch)
{
  lsk_context *ctx = tu_context();
  lsk_program *prog = NULL;
  TU_OK(ctx, lsk_program_create_file(ctx, LSK_TEST_DIR "/pool.cl", NULL, &prog));
  lsk_kernel *k = tu_kernel(prog, "pool_cache_churn");
  lsk_launch cfg = {.domain = {64}, .blocks = {6}, .workers = 1, .simd = 64};
  if (tu_fits(ctx, k, &cfg)) {
    cache_case(ctx, k, &cfg, 0, 6, 16000, 6000, 1);
    cache_case(ctx, k, &cfg, 0, 6, 2500, 6000, 0);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_pool_cache(void)
{
  Suite *s = suite_create("pool_cache");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_pool_cache_counts);
  tcase_add_test(tc, test_pool_cache_full_batch);
  suite_add_tcase(s, tc);
  return s;
}
