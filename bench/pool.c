/*
 * bench/pool.c: device-side dynamic memory in `lsk bench`.
 *
 * Rows, each checked before it is timed:
 *   - allocations plus recycles per second: every work-item allocates a
 *     cell, writes it and recycles it (one atomic per block for each, one
 *     per item, or per item through a worker's cache, lsk_pool_cache),
 *     then the GC runs; the GC is in the time. Against a
 *     plain C single-threaded free-list allocator doing the same work: n
 *     allocations (from the free list, else fresh cells), a write to each
 *     cell, then n frees. The device checks that each cell it gets reads as
 *     zero in the checked rounds only (the C allocator reads nothing in its
 *     timed rounds either); each row has a pool of its own.
 *   - the particle-in-cell binning step (lsk_pic_step: frames from a pool,
 *     one wait per step) in particles per second, against the plain C
 *     reference step: the pic example's part of this case
 *     (examples/pic/bench_pic.c).
 * Times are wall clock of whole rounds (several kernels each). Work is
 * counted in thousands, so the rates read in millions per second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char source[] =
    "/* Each item: a cell, a write, a recycle; one atomic per block for each. */\n"
    "LSK_KERNEL void churn_block(LSK_CTX, __global uint *pool, uint n, __global uint *got,\n"
    "                            uint check)\n"
    "{\n"
    "  LSK_BLOCK_SCRATCH(uint, s);\n"
    "  LSK_VAR(uint, want);\n"
    "  LSK_VAR(uint, cell);\n"
    "  /* The cells' base and stride once (a store to a cell could alias the header). */\n"
    "  __global uint *cells = lsk_pool_cell(pool, 0);\n"
    "  const uint cw = lsk_pool_cell_words(pool);\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) LSK_VAR_AT(want, it) = b * LSK_DOMAIN_SIZE + it.idx < n;\n"
    "    lsk_pool_alloc_var(s, pool, want, cell, LSK_DOMAIN_SIZE);\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx, c = LSK_VAR_AT(cell, it);\n"
    "      if (c != LSK_POOL_INVALID) {\n"
    "        __global uint *p = cells + (ulong)c * cw;\n"
    "        LSK_VERIFY2(!check || p[0] == 0, \"allocated cell not zero\", c, p[0]);\n"
    "        p[0] = i + 1;\n"
    "      }\n"
    "      if (check && i < n) got[i] = c;\n"
    "    }\n"
    "    lsk_pool_recycle_var(s, pool, cell, LSK_DOMAIN_SIZE);\n"
    "    lsk_sync(); /* PoCL: all work-items take the data block together */\n"
    "  }\n"
    "}\n"
    "/* Each item of [0, n): a cell from ALLOC, checked zero (check) and\n"
    " * written, then given to RECYCLE. */\n"
    "#define CHURN_ITEMS(ALLOC, RECYCLE)                                          \\\n"
    "  __global uint *cells = lsk_pool_cell(pool, 0);                            \\\n"
    "  const uint cw = lsk_pool_cell_words(pool);                                \\\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {               \\\n"
    "    LSK_FOREACH_N(it, lsk_domain_count(b * LSK_DOMAIN_SIZE, n)) {          \\\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx, c = ALLOC;                     \\\n"
    "      if (c != LSK_POOL_INVALID) {                                          \\\n"
    "        __global uint *p = cells + (ulong)c * cw;                           \\\n"
    "        LSK_VERIFY2(!check || p[0] == 0, \"allocated cell not zero\", c, p[0]); \\\n"
    "        p[0] = i + 1;                                                       \\\n"
    "      }                                                                     \\\n"
    "      if (check) got[i] = c;                                                \\\n"
    "      RECYCLE;                                                              \\\n"
    "    }                                                                       \\\n"
    "  }\n"
    "/* The same with one atomic per allocation and per recycle. */\n"
    "LSK_KERNEL void churn_item(LSK_CTX, __global uint *pool, uint n, __global uint *got,\n"
    "                           uint check)\n"
    "{\n"
    "  CHURN_ITEMS(lsk_pool_alloc(pool), lsk_pool_recycle(pool, c))\n"
    "}\n"
    "/* The same per item through a worker's cache (lsk_pool_cache). */\n"
    "LSK_KERNEL void churn_cache(LSK_CTX, __global uint *pool, uint n, __global uint *got,\n"
    "                            uint check)\n"
    "{\n"
    "  lsk_pool_cache pc;\n"
    "  lsk_pool_cache_begin(&pc, pool);\n"
    "  CHURN_ITEMS(lsk_pool_cache_alloc(&pc), lsk_pool_cache_recycle(&pc, c))\n"
    "  lsk_pool_cache_end(&pc);\n"
    "}\n";

/* The C reference: a free list (a stack) over cells of 4 bytes. */
typedef struct cpool {
  uint32_t *cells, *free_list, *held;
  uint32_t nfree, fresh, cap;
} cpool;

static double c_churn(cpool *p, size_t n)
{
  double t0 = cli_now();
  for (size_t i = 0; i < n; ++i) {
    uint32_t c = p->nfree ? p->free_list[--p->nfree] : p->fresh < p->cap ? p->fresh++ : 0;
    p->cells[c] = (uint32_t)i + 1;
    p->held[i] = c;
  }
  for (size_t i = 0; i < n; ++i)
    p->free_list[p->nfree++] = p->held[i];
  return cli_now() - t0;
}

/* One device round, kernel and GC, waited for. A block takes 4096 items at
 * a time: each tile then reads and writes 16 KiB runs of the lists, which
 * the CPU's prefetchers follow further than 4 KiB ones (the kernel took
 * about 17% less time than with 1024, five alternating runs on PoCL). */
static lsk_launch churn_launch(const bench *bn)
{
  return (lsk_launch){.domain = {4096}, .blocks = {bn->blocks ? bn->blocks : 64}};
}

static int churn(bench *bn, lsk_kernel *k, lsk_pool *pool, size_t n, lsk_buffer *got, int check)
{
  lsk_launch l = churn_launch(bn);
  int rc =
      lsk_kernel_launch(k, &l,
                        LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)), LSK_ARG_UINT((unsigned)n),
                                 LSK_ARG_BUFFER(got), LSK_ARG_UINT((unsigned)check)),
                        NULL);
  if (!rc)
    rc = lsk_pool_gc(pool, NULL);
  return rc ? rc : lsk_context_finish(bn->ctx);
}

/* A checked round: n distinct cells of the pool's cap handed out, all
 * free again after (on the free list or never used). */
static int churn_check(bench *bn, lsk_kernel *k, lsk_pool *pool, size_t n, size_t cap,
                       lsk_buffer *got)
{
  uint32_t *cells = malloc(n * 4);
  unsigned char *seen = calloc(cap, 1);
  lsk_pool_usage u;
  int rc = !cells || !seen ? cli_fail("bench", "pool: out of host memory") : 0;
  if (!rc && (churn(bn, k, pool, n, got, 1) || lsk_buffer_read(got, 0, cells, n * 4, NULL) ||
              lsk_pool_usage_get(pool, &u, NULL)))
    rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
  for (size_t i = 0; !rc && i < n; ++i) {
    if (cells[i] >= cap || seen[cells[i]]++)
      rc =
          cli_fail("bench", "pool: item %zu got cell %u: invalid or handed out twice", i, cells[i]);
  }
  if (!rc && (u.live != 0 || u.free + u.fresh != cap || u.refused != 0))
    rc = cli_fail("bench",
                  "pool: after the GC %zu live, %zu free or fresh, %llu refused; want 0, %zu, 0",
                  u.live, u.free + u.fresh, (unsigned long long)u.refused, cap);
  free(cells);
  free(seen);
  return rc;
}

/* The churn rows: kernel, row name's suffix and the bench's group. */
enum { NCHURN = 3 };
static const struct {
  const char *kernel, *what, *group;
} churn_rows[NCHURN] = {
    {"churn_block", "block", "pool alloc+recycle (block)"},
    {"churn_item", "item", "pool alloc+recycle (item)"},
    {"churn_cache", "item, cache", "pool alloc+recycle (item, cache)"},
};

static int case_churn(bench *bn)
{
  unsigned lg = bn->log2n < 22 ? bn->log2n : 22;
  size_t n = (size_t)1 << lg;
  lsk_program *prog = NULL;
  lsk_kernel *k[NCHURN] = {NULL};
  /* A pool per row: the order of a free list is the history of its
   * allocations, and one atomic per item interleaves the work-items'
   * cells finely, which would scatter the other rows' writes too. */
  lsk_pool *pool[NCHURN] = {NULL};
  result *row[NCHURN] = {NULL};
  /* The cache row's pool has room for what the caches hold back: up to
   * LSK_POOL_CACHE_BATCH - 1 cells each (LSK__POOL_CACHE_CPU_BATCH - 1 on
   * PoCL; one cache per work-item of the launch: 16 workers of 64 blocks
   * on PoCL, about 261 000 cells), free again only after the GC. */
  size_t cap[NCHURN] = {n, n, n};
  lsk_buffer *got = NULL;
  cpool cp = {.cap = (uint32_t)n};
  cp.cells = calloc(n, 4);
  cp.free_list = malloc(n * 4);
  cp.held = malloc(n * 4);
  int rc = !cp.cells || !cp.free_list || !cp.held;
  if (rc)
    cli_fail("bench", "pool: out of host memory");
  if (!rc && (lsk_program_create(bn->ctx, source, &(lsk_program_options){.name = "bench_pool.cl"},
                                 &prog) ||
              lsk_buffer_create(bn->ctx, n * 4, &got)))
    rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
  lsk_launch l = churn_launch(bn);
  lsk_kernel_info info;
  if (!rc &&
      (lsk_kernel_create(prog, churn_rows[2].kernel, &k[2]) || lsk_kernel_query(k[2], &l, &info)))
    rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
  if (!rc)
    cap[2] += (size_t)(LSK__POOL_CACHE_CPU_BATCH - 1) * info.workers * l.blocks[0];
  for (int j = 0; !rc && j < NCHURN; ++j)
    if ((!k[j] && lsk_kernel_create(prog, churn_rows[j].kernel, &k[j])) ||
        lsk_pool_create(bn->ctx, 4, cap[j], NULL, &pool[j]))
      rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
  /* Checked first (the first round takes fresh cells, later ones the free
   * list), then a warm-up round of each. */
  for (int j = 0; !rc && j < NCHURN; ++j)
    rc = churn_check(bn, k[j], pool[j], n, cap[j], got) ||
         churn_check(bn, k[j], pool[j], n, cap[j], got);
  c_churn(&cp, n);
  for (int j = 0; !rc && j < NCHURN; ++j) {
    char name[64];
    snprintf(name, sizeof name, "pool alloc+recycle, 2^%u (%s)", lg, churn_rows[j].what);
    row[j] = bench_new_result(bn, KIND_RATE, name, "C free list, 1 thread", churn_rows[j].group,
                              "M ops/s", 2e3 * (double)n);
    rc = !row[j];
  }
  for (unsigned r = 0; !rc && r < bn->repeat; ++r) {
    bench_progress(bn, "pool alloc+recycle", r, bn->repeat);
    for (int j = 0; !rc && j < NCHURN; ++j) {
      double t0 = cli_now();
      if (churn(bn, k[j], pool[j], n, got, 0)) {
        rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
        break;
      }
      bench_add(&row[j]->lsk, cli_now() - t0);
      bench_add(&row[j]->ref, c_churn(&cp, n));
    }
  }
  bench_progress(bn, "pool alloc+recycle", bn->repeat, bn->repeat);
  /* After the timed rounds: still nothing live, nothing refused. */
  for (int j = 0; !rc && j < NCHURN; ++j) {
    lsk_pool_usage u;
    if (lsk_pool_usage_get(pool[j], &u, NULL) || u.live || u.refused || u.free + u.fresh != cap[j])
      rc = cli_fail("bench", "pool: after the timed rounds %zu live, %llu refused", u.live,
                    (unsigned long long)u.refused);
  }
  lsk_buffer_destroy(got);
  for (int j = 0; j < NCHURN; ++j) {
    lsk_pool_destroy(pool[j]);
    lsk_kernel_destroy(k[j]);
  }
  lsk_program_destroy(prog);
  free(cp.cells);
  free(cp.free_list);
  free(cp.held);
  return rc;
}

/* The pool case: the churn rows here, then the binning step's row, which
 * runs the pic example (examples/pic/bench_pic.c). */
int bench_case_pool(bench *bn) { return case_churn(bn) || bench_pic_step(bn); }
