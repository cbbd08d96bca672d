/*
 * bench/pool.c: device-side dynamic memory in `lsk bench`.
 *
 * Rows, each checked before it is timed:
 *   - allocations plus recycles per second: every work-item allocates a
 *     cell, writes it and recycles it (one atomic per block for each, or
 *     one per item), then the GC runs; the GC is in the time. Against a
 *     plain C single-threaded free-list allocator doing the same work: n
 *     allocations (from the free list, else fresh cells), a write to each
 *     cell, then n frees. The device checks that each cell it gets reads as
 *     zero in the checked rounds only (the C allocator reads nothing in its
 *     timed rounds either); each row has a pool of its own.
 *   - the particle-in-cell binning step (lsk_pic_step: frames from a pool,
 *     one wait per step) in particles per second, against the plain C
 *     reference step (move, then a counting sort by cell). The device's
 *     state is compared with the reference's after the timed steps.
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
    "/* The same with one atomic per allocation and per recycle. */\n"
    "LSK_KERNEL void churn_item(LSK_CTX, __global uint *pool, uint n, __global uint *got,\n"
    "                           uint check)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n) {\n"
    "        uint c = lsk_pool_alloc(pool);\n"
    "        if (c != LSK_POOL_INVALID) {\n"
    "          __global uint *p = lsk_pool_cell(pool, c);\n"
    "          LSK_VERIFY2(!check || p[0] == 0, \"allocated cell not zero\", c, p[0]);\n"
    "          p[0] = i + 1;\n"
    "        }\n"
    "        if (check) got[i] = c;\n"
    "        lsk_pool_recycle(pool, c);\n"
    "      }\n"
    "    }\n"
    "  }\n"
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
static int churn(bench *bn, lsk_kernel *k, lsk_pool *pool, size_t n, lsk_buffer *got, int check)
{
  lsk_launch l = {.domain = {4096}, .blocks = {bn->blocks ? bn->blocks : 64}};
  int rc =
      lsk_kernel_launch(k, &l,
                        LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)), LSK_ARG_UINT((unsigned)n),
                                 LSK_ARG_BUFFER(got), LSK_ARG_UINT((unsigned)check)),
                        NULL);
  if (!rc)
    rc = lsk_pool_gc(pool);
  return rc ? rc : lsk_context_finish(bn->ctx);
}

/* A checked round: n distinct cells handed out, all free again after. */
static int churn_check(bench *bn, lsk_kernel *k, lsk_pool *pool, size_t n, lsk_buffer *got)
{
  uint32_t *cells = malloc(n * 4);
  unsigned char *seen = calloc(n, 1);
  lsk_pool_usage u;
  int rc = !cells || !seen ? cli_fail("bench", "pool: out of host memory") : 0;
  if (!rc && (churn(bn, k, pool, n, got, 1) || lsk_buffer_read(got, 0, cells, n * 4) ||
              lsk_pool_usage_get(pool, &u)))
    rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
  for (size_t i = 0; !rc && i < n; ++i) {
    if (cells[i] >= n || seen[cells[i]]++)
      rc =
          cli_fail("bench", "pool: item %zu got cell %u: invalid or handed out twice", i, cells[i]);
  }
  if (!rc && (u.live != 0 || u.free != n || u.refused != 0))
    rc = cli_fail("bench", "pool: after the GC %zu live, %zu free, %llu refused; want 0, %zu, 0",
                  u.live, u.free, (unsigned long long)u.refused, n);
  free(cells);
  free(seen);
  return rc;
}

static int case_churn(bench *bn)
{
  unsigned lg = bn->log2n < 22 ? bn->log2n : 22;
  size_t n = (size_t)1 << lg;
  lsk_program *prog = NULL;
  lsk_kernel *k[2] = {NULL, NULL};
  /* A pool per row: the order of a free list is the history of its
   * allocations, and one atomic per item interleaves the work-items'
   * cells finely, which would scatter the other row's writes too. */
  lsk_pool *pool[2] = {NULL, NULL};
  lsk_buffer *got = NULL;
  cpool cp = {.cap = (uint32_t)n};
  cp.cells = calloc(n, 4);
  cp.free_list = malloc(n * 4);
  cp.held = malloc(n * 4);
  int rc = !cp.cells || !cp.free_list || !cp.held;
  if (rc)
    cli_fail("bench", "pool: out of host memory");
  if (!rc &&
      (lsk_program_create(bn->ctx, source, &(lsk_program_options){.name = "bench_pool.cl"},
                          &prog) ||
       lsk_kernel_create(prog, "churn_block", &k[0]) ||
       lsk_kernel_create(prog, "churn_item", &k[1]) ||
       lsk_pool_create(bn->ctx, 4, n, NULL, &pool[0]) ||
       lsk_pool_create(bn->ctx, 4, n, NULL, &pool[1]) || lsk_buffer_create(bn->ctx, n * 4, &got)))
    rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
  /* Checked first (the first round takes fresh cells, later ones the free
   * list), then a warm-up round of each. */
  for (int j = 0; !rc && j < 2; ++j)
    rc = churn_check(bn, k[j], pool[j], n, got) || churn_check(bn, k[j], pool[j], n, got);
  c_churn(&cp, n);
  double work = 2e3 * (double)n;
  char name[64];
  snprintf(name, sizeof name, "pool alloc+recycle, 2^%u (block)", lg);
  result *rb = rc ? NULL
                  : bench_new_result(bn, KIND_RATE, name, "C free list, 1 thread",
                                     "pool alloc+recycle (block)", "M ops/s", work);
  snprintf(name, sizeof name, "pool alloc+recycle, 2^%u (item)", lg);
  result *ri = rc ? NULL
                  : bench_new_result(bn, KIND_RATE, name, "C free list, 1 thread",
                                     "pool alloc+recycle (item)", "M ops/s", work);
  rc = rc || !rb || !ri;
  for (unsigned r = 0; !rc && r < bn->repeat; ++r) {
    bench_progress(bn, "pool alloc+recycle", r, bn->repeat);
    for (int j = 0; !rc && j < 2; ++j) {
      double t0 = cli_now();
      if (churn(bn, k[j], pool[j], n, got, 0)) {
        rc = cli_fail("bench", "pool: %s", lsk_context_errmsg(bn->ctx));
        break;
      }
      bench_add(j ? &ri->lsk : &rb->lsk, cli_now() - t0);
      bench_add(j ? &ri->ref : &rb->ref, c_churn(&cp, n));
    }
  }
  bench_progress(bn, "pool alloc+recycle", bn->repeat, bn->repeat);
  /* After the timed rounds: still nothing live, nothing refused. */
  for (int j = 0; !rc && j < 2; ++j) {
    lsk_pool_usage u;
    if (lsk_pool_usage_get(pool[j], &u) || u.live || u.refused || u.free != n)
      rc = cli_fail("bench", "pool: after the timed rounds %zu live, %llu refused", u.live,
                    (unsigned long long)u.refused);
  }
  lsk_buffer_destroy(got);
  lsk_pool_destroy(pool[0]);
  lsk_pool_destroy(pool[1]);
  lsk_kernel_destroy(k[0]);
  lsk_kernel_destroy(k[1]);
  lsk_program_destroy(prog);
  free(cp.cells);
  free(cp.free_list);
  free(cp.held);
  return rc;
}

static int cmp_id(const void *a, const void *b)
{
  uint32_t x = ((const lsk_particle *)a)->id, y = ((const lsk_particle *)b)->id;
  return (x > y) - (x < y);
}

/* The device's state against the reference's, cell by cell. */
static int pic_same(lsk_context *ctx, lsk_pic *pic, size_t n, size_t cells, lsk_particle *got,
                    uint32_t *cell, lsk_particle *binned, const uint32_t *start)
{
  lsk_pic_stats st;
  if (lsk_pic_read(pic, got, cell, n, &st))
    return cli_fail("bench", "pic: %s", lsk_context_errmsg(ctx));
  if (st.particles != n || st.pool.live != st.frames)
    return cli_fail("bench", "pic: %zu particles (want %zu), %zu live cells for %zu frames",
                    st.particles, n, st.pool.live, st.frames);
  for (size_t c = 0; c < cells; ++c) {
    size_t a = start[c], k = start[c + 1] - a;
    qsort(got + a, k, sizeof *got, cmp_id);
    qsort(binned + a, k, sizeof *binned, cmp_id);
    for (size_t i = a; i < a + k; ++i)
      if (cell[i] != c || memcmp(&got[i], &binned[i], sizeof *got))
        return cli_fail("bench", "pic: cell %zu differs from the C reference", c);
  }
  return 0;
}

static int case_pic(bench *bn)
{
  unsigned lg = (bn->log2n < 24 ? bn->log2n : 24) - 4;
  size_t n = (size_t)1 << lg;
  /* About 256 particles per cell, frames of 128. */
  unsigned side = 1;
  while ((size_t)side * side * 256 < n)
    side *= 2;
  size_t cells = (size_t)side * side;
  lsk_particle *p = malloc(n * sizeof *p), *got = malloc(n * sizeof *p),
               *binned = malloc(n * sizeof *p);
  uint32_t *cell = malloc(n * 4), *start = malloc((cells + 1) * 4);
  lsk_pic *pic = NULL;
  int rc = !p || !got || !binned || !cell || !start;
  if (rc)
    cli_fail("bench", "pic: out of host memory");
  uint64_t s = 12345;
  for (size_t i = 0; !rc && i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t a = (uint32_t)(s >> 32), b = (uint32_t)s;
    int v = (a & 0xff) < 26 ? 2 * LSK_PIC_UNIT : LSK_PIC_UNIT / 4;
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = (lsk_particle){(uint32_t)i + 1, (int32_t)(a % (side * (uint32_t)LSK_PIC_UNIT)),
                          (int32_t)(b % (side * (uint32_t)LSK_PIC_UNIT)),
                          (int32_t)((uint32_t)(s >> 33) % (2u * (uint32_t)v + 1)) - v,
                          (int32_t)((uint32_t)s % (2u * (uint32_t)v + 1)) - v};
  }
  if (!rc && lsk_pic_create(bn->ctx, side, side, p, n, &(lsk_pic_options){.frame_size = 128}, &pic))
    rc = cli_fail("bench", "pic: %s", lsk_context_errmsg(bn->ctx));
  /* A checked step first (it builds the kernels), then the timed ones. */
  if (!rc && (lsk_pic_step(pic) || lsk_context_finish(bn->ctx)))
    rc = cli_fail("bench", "pic: %s", lsk_context_errmsg(bn->ctx));
  if (!rc)
    lsk_pic_reference_step(side, side, p, n, binned, start);
  rc = rc || pic_same(bn->ctx, pic, n, cells, got, cell, binned, start);
  char name[64];
  snprintf(name, sizeof name, "pic binning step, 2^%u particles", lg);
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C reference step, 1 thread", "pic step",
                                    "M particles/s", 1e3 * (double)n);
  rc = rc || !r;
  for (unsigned i = 0; !rc && i < bn->repeat; ++i) {
    bench_progress(bn, "pic step", i, bn->repeat);
    double t0 = cli_now();
    if (lsk_pic_step(pic) || lsk_context_finish(bn->ctx)) {
      rc = cli_fail("bench", "pic: %s", lsk_context_errmsg(bn->ctx));
      break;
    }
    double t1 = cli_now();
    lsk_pic_reference_step(side, side, p, n, binned, start);
    bench_add(&r->lsk, t1 - t0);
    bench_add(&r->ref, cli_now() - t1);
  }
  bench_progress(bn, "pic step", bn->repeat, bn->repeat);
  rc = rc || pic_same(bn->ctx, pic, n, cells, got, cell, binned, start);
  lsk_pic_destroy(pic);
  free(p);
  free(got);
  free(binned);
  free(cell);
  free(start);
  return rc;
}

int bench_case_pool(bench *bn) { return case_churn(bn) || case_pic(bn); }
