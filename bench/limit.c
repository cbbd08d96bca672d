/*
 * bench/limit.c: the limit row of `lsk bench`: the machine's best
 * STREAM-style triad a = b + 3c over 2^log2n doubles in this run, the
 * measure every bandwidth-bound row is read against (report.c prints each
 * such row's rate as a fraction of it). Four contenders, interleaved, the
 * order rotated each round, each checked before timing:
 *   - C OpenMP on three host arrays, each an allocation of its own at a
 *     stagger (the triad fixture's, bench_triad_host): they never agree in
 *     their low 12 address bits;
 *   - C OpenMP on one allocation, the arrays LIMIT_STAGGER bytes past the
 *     end of the one before (STREAM's static arrays with an offset);
 *   - the raw OpenCL triad on three separate buffers (the fixture's);
 *   - the raw OpenCL triad on sub-buffers of one buffer at the same
 *     stagger (LIMIT_STAGGER is a multiple of 128, PoCL's base address
 *     alignment).
 * The raw triads are the unguarded kernel on a grid of exactly n (n is a
 * power of two): PoCL does not vectorize the guarded one's masked stores
 * (docs/pocl-masked-stores.md), which would make it no limit.
 * The limit is the best of the four (best time) and, apart, the best of
 * their medians; the triad case's two contenders of the same placements
 * (the raw triad without the guard on the fixture's buffers, C OpenMP on
 * its staggered arrays), timed beside lsk's triad, and the soa case's two
 * (the unguarded raw triad on separate buffers and on columns 4224 bytes
 * apart) count too (bench_limit_offer): the limit is the best such triad
 * of the run, never below what those cases' own rounds saw. Which
 * placement wins depends on the machine (on the Zen 3 of
 * docs/performance.md none stood out beyond the load; on the AVX-512
 * machine of issue 30 separate buffers ran at half the staggered ones):
 * so all four.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* One page and 128 bytes: the SoA case's stagger (docs/perf/soa.md). */
#define LIMIT_STAGGER 4224

enum { C_SEPARATE, C_BLOCK, RAW_SEPARATE, RAW_BLOCK, NLIMIT };

static const char *const limit_names[NLIMIT] = {
    "C OpenMP, separate arrays", "C OpenMP, one block +4224", "raw OpenCL, separate buffers",
    "raw OpenCL, sub-buffers +4224"};

typedef struct limit_case {
  triad t;
  double *blk[3]; /* C_BLOCK's arrays in one allocation */
  void *blk_mem;
  cl_mem one, sub[3]; /* RAW_BLOCK's buffer and its sub-buffers */
  cl_kernel raw_block;
} limit_case;

static double c_triad(double *restrict a, const double *restrict b, const double *restrict c,
                      long n)
{
  double t0 = cli_now();
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + 3.0 * c[i];
  return cli_now() - t0;
}

static int enqueue(bench *bn, cl_kernel k, size_t n, cl_event *ev)
{
  return clEnqueueNDRangeKernel(lsk_context_cl_queue(bn->ctx), k, 1, NULL, &n, NULL, 0, NULL, ev);
}

/* Contender who once: its seconds, or < 0 on failure. */
static double run_one(bench *bn, limit_case *l, int who)
{
  triad *t = &l->t;
  if (who == C_SEPARATE)
    return c_triad(t->a, t->b, t->c, (long)t->n);
  if (who == C_BLOCK)
    return c_triad(l->blk[0], l->blk[1], l->blk[2], (long)t->n);
  cl_event ev;
  if (enqueue(bn, who == RAW_SEPARATE ? t->exact : l->raw_block, t->n, &ev))
    return -1;
  return bench_event_time(ev);
}

/* a against b + 3c, then zeroed. */
static size_t check_host(const double *a, const double *b, const double *c, size_t n)
{
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += a[i] != b[i] + 3.0 * c[i];
  return bad;
}

/* Every contender once, its result checked (C's arrays zeroed before). */
static int check_all(bench *bn, limit_case *l)
{
  triad *t = &l->t;
  size_t bytes = t->n * sizeof(double);
  memset(t->a, 0, bytes);
  memset(l->blk[0], 0, bytes);
  for (int who = 0; who < NLIMIT; ++who)
    if (run_one(bn, l, who) < 0)
      return cli_fail("bench", "limit (%s) failed", limit_names[who]);
  size_t bad = check_host(t->a, t->b, t->c, t->n);
  if (bad)
    return cli_fail("bench", "limit (%s): %zu wrong elements", limit_names[C_SEPARATE], bad);
  bad = check_host(l->blk[0], l->blk[1], l->blk[2], t->n);
  if (bad)
    return cli_fail("bench", "limit (%s): %zu wrong elements", limit_names[C_BLOCK], bad);
  double *got = malloc(bytes);
  cl_command_queue q = lsk_context_cl_queue(bn->ctx);
  int rc = !got || clEnqueueReadBuffer(q, l->sub[0], CL_TRUE, 0, bytes, got, 0, NULL, NULL);
  bad = rc ? 0 : check_host(got, t->b, t->c, t->n);
  free(got);
  if (rc || bad)
    return cli_fail("bench", "limit (%s): %zu wrong elements%s", limit_names[RAW_BLOCK], bad,
                    rc ? " (read back failed)" : "");
  return bench_triad_check(bn->ctx, "bench", t, limit_names[RAW_SEPARATE]);
}

static int setup(bench *bn, limit_case *l)
{
  triad *t = &l->t;
  if (bench_triad_setup(bn, t))
    return 1;
  size_t bytes = t->n * sizeof(double), stride = bytes + LIMIT_STAGGER;
  /* C_BLOCK: one allocation, page-aligned, b and c from the fixture. */
  l->blk_mem = malloc(3 * stride + 4096);
  if (!l->blk_mem)
    return cli_fail("bench", "out of host memory for the limit's arrays");
  uintptr_t base = ((uintptr_t)l->blk_mem + 4095) & ~(uintptr_t)4095;
  for (int k = 0; k < 3; ++k)
    l->blk[k] = (double *)(base + (size_t)k * stride);
  memset(l->blk[0], 0, bytes);
  memcpy(l->blk[1], t->b, bytes);
  memcpy(l->blk[2], t->c, bytes);
  /* RAW_BLOCK: one buffer, its sub-buffers at the same places. */
  cl_int err;
  l->one = clCreateBuffer(lsk_context_cl(bn->ctx), CL_MEM_READ_WRITE, 3 * stride, NULL, &err);
  for (int k = 0; k < 3 && !err; ++k) {
    cl_buffer_region r = {(size_t)k * stride, bytes};
    l->sub[k] =
        clCreateSubBuffer(l->one, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  }
  cl_command_queue q = lsk_context_cl_queue(bn->ctx);
  if (!err)
    err = clEnqueueWriteBuffer(q, l->sub[1], CL_TRUE, 0, bytes, t->b, 0, NULL, NULL);
  if (!err)
    err = clEnqueueWriteBuffer(q, l->sub[2], CL_TRUE, 0, bytes, t->c, 0, NULL, NULL);
  if (!err)
    l->raw_block = clCreateKernel(bn->raw, "raw_triad_exact", &err);
  double s = 3.0;
  for (cl_uint k = 0; k < 3 && !err; ++k)
    err = clSetKernelArg(l->raw_block, k, sizeof(cl_mem), &l->sub[k]);
  if (!err)
    err = clSetKernelArg(l->raw_block, 3, sizeof s, &s);
  return err ? cli_fail("bench", "limit: raw triad on sub-buffers: %s", lsk_status_name(err)) : 0;
}

static void teardown(limit_case *l)
{
  if (l->raw_block)
    clReleaseKernel(l->raw_block);
  for (int k = 0; k < 3; ++k)
    if (l->sub[k])
      clReleaseMemObject(l->sub[k]);
  if (l->one)
    clReleaseMemObject(l->one);
  free(l->blk_mem);
  bench_triad_teardown(&l->t);
}

int bench_case_limit(bench *bn)
{
  limit_case l = {0};
  int rc = setup(bn, &l) || check_all(bn, &l);
  double bytes = 3.0 * sizeof(double) * (double)l.t.n;
  result *r[NLIMIT] = {0};
  for (int k = 0; !rc && k < NLIMIT; ++k) {
    r[k] = bench_new_result(bn, KIND_LIMIT, "limit: STREAM triad", limit_names[k], limit_names[k],
                            "GB/s", bytes);
    rc = !r[k];
  }
  /* Two warm-up rounds, then timed ones; the order rotates each round. */
  for (unsigned round = 0; !rc && round < bn->repeat + 2; ++round) {
    bench_progress(bn, "limit", round, bn->repeat + 2);
    for (unsigned j = 0; !rc && j < NLIMIT; ++j) {
      int who = (int)((round + j) % NLIMIT);
      double secs = run_one(bn, &l, who);
      rc = secs < 0 ? cli_fail("bench", "limit (%s) failed", limit_names[who]) : 0;
      if (!rc && round >= 2)
        bench_add(&r[who]->lsk, secs);
    }
  }
  bench_progress(bn, "limit", bn->repeat + 2, bn->repeat + 2);
  rc = rc || check_all(bn, &l);
  /* The best rate of the four, and the best of their medians (the triad
   * case offers its own two such contenders: bench_limit_offer). */
  for (int k = 0; !rc && k < NLIMIT; ++k)
    bench_limit_offer(bn, bytes, &r[k]->lsk, limit_names[k]);
  teardown(&l);
  return rc;
}
