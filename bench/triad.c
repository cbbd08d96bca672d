/*
 * bench/triad.c: the triad a = b + 3c over 2^log2n doubles: the fixture
 * (triad.h: host arrays and lsk buffers, which `lsk tune` uses too; the
 * bench's parts: lsk's ForEach kernel and the raw OpenCL ones), the case
 * triad (lsk against raw OpenCL and C OpenMP, interleaved) and --sweep
 * (the triad over a grid of shapes: the measurements behind the automatic
 * rule).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

int bench_triad_check(lsk_context *ctx, const char *cmd, triad *t, const char *who)
{
  double *got = malloc(t->n * sizeof *got);
  if (!got || lsk_buffer_read(t->da, 0, got, t->n * sizeof *got, NULL)) {
    free(got);
    return cli_fail(cmd, "triad (%s): read back failed: %s", who, lsk_context_errmsg(ctx));
  }
  size_t bad = 0;
  for (size_t i = 0; i < t->n; ++i)
    bad += got[i] != t->b[i] + 3.0 * t->c[i];
  free(got);
  double zero = 0;
  lsk_buffer_fill(t->da, &zero, sizeof zero, 0, t->n * sizeof zero, NULL);
  return bad ? cli_fail(cmd, "triad (%s): %zu wrong elements", who, bad) : 0;
}

double *bench_triad_host(size_t bytes, unsigned k, void **mem)
{
  *mem = malloc(bytes + 64 + 2 * BENCH_HOST_STAGGER);
  if (!*mem)
    return NULL;
  uintptr_t p = ((uintptr_t)*mem + 63) & ~(uintptr_t)63;
  return (double *)(p + k * BENCH_HOST_STAGGER);
}

int bench_triad_data(lsk_context *ctx, const char *cmd, unsigned log2n, triad *t)
{
  t->n = (size_t)1 << log2n;
  size_t bytes = t->n * sizeof(double);
  t->b = bench_triad_host(bytes, 1, &t->mem[1]);
  t->c = bench_triad_host(bytes, 2, &t->mem[2]);
  if (!t->b || !t->c)
    return cli_fail(cmd, "out of host memory for %zu doubles", t->n);
  for (size_t i = 0; i < t->n; ++i) {
    t->b[i] = (double)(i % 1000) * 0.5;
    t->c[i] = 1.0 / (double)(1 + i % 7);
  }
  double zero = 0;
  if (lsk_buffer_create(ctx, bytes, &t->da) || lsk_buffer_create(ctx, bytes, &t->db) ||
      lsk_buffer_create(ctx, bytes, &t->dc) || lsk_buffer_write(t->db, 0, t->b, bytes, NULL) ||
      lsk_buffer_write(t->dc, 0, t->c, bytes, NULL) ||
      lsk_buffer_fill(t->da, &zero, sizeof zero, 0, bytes, NULL))
    return cli_fail(cmd, "triad setup: %s", lsk_context_errmsg(ctx));
  return 0;
}

static int triad_lsk(triad *t, const lsk_launch *cfg, cl_event *ev)
{
  return bench_launch(t->k, cfg,
                      LSK_ARGS(LSK_ARG_BUFFER(t->da), LSK_ARG_BUFFER(t->db), LSK_ARG_BUFFER(t->dc),
                               LSK_ARG_DOUBLE(3.0), LSK_ARG_UINT((unsigned)t->n)),
                      ev);
}

/* One raw triad over a grid of n (with no local size: PoCL picks). */
static int triad_enqueue(bench *bn, triad *t, cl_kernel k, cl_event *ev)
{
  size_t global = t->n;
  return clEnqueueNDRangeKernel(lsk_context_cl_queue(bn->ctx), k, 1, NULL, &global, NULL, 0, NULL,
                                ev);
}

int bench_triad_raw(bench *bn, triad *t, cl_event *ev) { return triad_enqueue(bn, t, t->raw, ev); }

int bench_triad_exact(bench *bn, triad *t, cl_event *ev)
{
  return triad_enqueue(bn, t, t->exact, ev);
}

static double triad_c(triad *t)
{
  double t0 = cli_now();
  double *restrict a = t->a;
  const double *restrict b = t->b, *restrict c = t->c;
  const long n = (long)t->n;
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + 3.0 * c[i];
  return cli_now() - t0;
}

lsk_launch bench_triad_launch(const bench *bn, size_t n, unsigned domain, unsigned w, unsigned s)
{
  size_t data_blocks = (n + domain - 1) / domain;
  size_t blocks = bn->blocks ? bn->blocks : data_blocks;
  return (lsk_launch){.domain = {domain},
                      .blocks = {blocks < data_blocks ? blocks : data_blocks},
                      .workers = w,
                      .simd = s};
}

int bench_triad_setup(bench *bn, triad *t)
{
  if (bench_triad_data(bn->ctx, "bench", bn->log2n, t))
    return 1;
  /* a: the C OpenMP reference's output, written once here so that no
   * timed run pays its first touch. */
  t->a = bench_triad_host(t->n * sizeof *t->a, 0, &t->mem[0]);
  if (!t->a)
    return cli_fail("bench", "out of host memory for %zu doubles", t->n);
  for (size_t i = 0; i < t->n; ++i)
    t->a[i] = 0;
  cl_int err;
  if (lsk_kernel_create(bn->prog, "triad", &t->k))
    return cli_fail("bench", "triad setup: %s", lsk_context_errmsg(bn->ctx));
  t->raw = clCreateKernel(bn->raw, "raw_triad", &err);
  if (!err)
    t->exact = clCreateKernel(bn->raw, "raw_triad_exact", &err);
  unsigned n32 = (unsigned)t->n;
  double s = 3.0;
  cl_mem m[3] = {lsk_buffer_cl(t->da), lsk_buffer_cl(t->db), lsk_buffer_cl(t->dc)};
  for (cl_uint i = 0; i < 3 && !err; ++i)
    err = clSetKernelArg(t->raw, i, sizeof(cl_mem), &m[i]) |
          clSetKernelArg(t->exact, i, sizeof(cl_mem), &m[i]);
  if (!err)
    err = clSetKernelArg(t->raw, 3, sizeof s, &s) | clSetKernelArg(t->exact, 3, sizeof s, &s);
  if (!err)
    err = clSetKernelArg(t->raw, 4, sizeof n32, &n32);
  return err ? cli_fail("bench", "raw triad: %s", lsk_status_name(err)) : 0;
}

void bench_triad_teardown(triad *t)
{
  lsk_kernel_destroy(t->k);
  if (t->raw)
    clReleaseKernel(t->raw);
  if (t->exact)
    clReleaseKernel(t->exact);
  lsk_buffer_destroy(t->da);
  lsk_buffer_destroy(t->db);
  lsk_buffer_destroy(t->dc);
  for (int k = 0; k < 3; ++k)
    free(t->mem[k]);
}

/* One lsk configuration against raw OpenCL (guarded; and unguarded where
 * exact is given) and C (where c is given), interleaved. */
static int triad_measure(bench *bn, triad *t, const lsk_launch *cfg, samples *lsk, samples *raw,
                         samples *exact, samples *c, const char *label)
{
  cl_event ev;
  /* Check the results, then warm up (first launches build and compile). */
  if (triad_lsk(t, cfg, NULL) || lsk_context_finish(bn->ctx))
    return cli_fail("bench", "triad: %s", lsk_context_errmsg(bn->ctx));
  if (bench_triad_check(bn->ctx, "bench", t, "lsk") || bench_triad_raw(bn, t, NULL) ||
      clFinish(lsk_context_cl_queue(bn->ctx)) ||
      bench_triad_check(bn->ctx, "bench", t, "raw OpenCL"))
    return 1;
  if (exact && (bench_triad_exact(bn, t, NULL) || clFinish(lsk_context_cl_queue(bn->ctx)) ||
                bench_triad_check(bn->ctx, "bench", t, "raw OpenCL, no guard")))
    return 1;
  for (unsigned i = 0; i < 2; ++i) {
    triad_lsk(t, cfg, NULL);
    bench_triad_raw(bn, t, NULL);
    if (exact)
      bench_triad_exact(bn, t, NULL);
  }
  clFinish(lsk_context_cl_queue(bn->ctx));
  /* The order rotates each round, so that no contender always runs right
   * after another (after the C run, PoCL's threads have to wake up). */
  for (unsigned r = 0; r < bn->repeat; ++r) {
    bench_progress(bn, label, r, bn->repeat);
    for (unsigned j = 0; j < 4; ++j) {
      unsigned who = (r + j) % 4;
      int err = 0;
      if (who == 0 && !(err = triad_lsk(t, cfg, &ev)))
        bench_add(lsk, bench_event_time(ev));
      if (who == 1 && !(err = bench_triad_raw(bn, t, &ev)))
        bench_add(raw, bench_event_time(ev));
      if (who == 2 && exact && !(err = bench_triad_exact(bn, t, &ev)))
        bench_add(exact, bench_event_time(ev));
      if (who == 3 && c)
        bench_add(c, triad_c(t));
      if (err)
        return cli_fail("bench", "triad (%s) failed: %s", who ? "raw OpenCL" : "lsk",
                        who ? lsk_status_name(err) : lsk_context_errmsg(bn->ctx));
    }
  }
  bench_progress(bn, label, bn->repeat, bn->repeat);
  return 0;
}

int bench_case_triad(bench *bn)
{
  triad t = {0};
  int rc = bench_triad_setup(bn, &t);
  if (rc) {
    bench_triad_teardown(&t);
    return rc;
  }
  double bytes = 3.0 * sizeof(double) * (double)t.n;
  lsk_launch cfg = bench_triad_launch(bn, t.n, bn->domain, bn->workers, bn->simd);
  /* The shape the launches use, and where it comes from. */
  unsigned w, s, sw, ss;
  int stored = 0;
  if (lsk_kernel_shape(t.k, &cfg, &w, &s) ||
      (!bn->workers && !bn->simd && lsk_tune_stored(t.k, &cfg, &stored, &sw, &ss))) {
    bench_triad_teardown(&t);
    return cli_fail("bench", "triad: %s", lsk_context_errmsg(bn->ctx));
  }
  char name[64];
  snprintf(name, sizeof name, "triad (ForEach, %ux%u %s)", w, s,
           bn->workers || bn->simd ? "given"
           : stored                ? "tuned"
                                   : "auto");
  result *raw = bench_bandwidth(
      bench_new_result(bn, KIND_RATE, name, "raw OpenCL", "triad vs raw OpenCL", "GB/s", bytes));
  result *exact =
      bench_bandwidth(bench_new_result(bn, KIND_RATE, name, "raw OpenCL, no guard",
                                       "triad vs raw OpenCL without the guard", "GB/s", bytes));
  result *c = bench_bandwidth(
      bench_new_result(bn, KIND_RATE, name, "C OpenMP", "triad vs C OpenMP", "GB/s", bytes));
  rc = !raw || !exact || !c
           ? 1
           : triad_measure(bn, &t, &cfg, &raw->lsk, &raw->ref, &exact->ref, &c->ref, "triad");
  if (!rc) {
    exact->lsk = raw->lsk;
    c->lsk = raw->lsk;
    /* The C reference must have computed the same. */
    for (size_t i = 0; i < t.n && !rc; ++i)
      rc = t.a[i] != t.b[i] + 3.0 * t.c[i];
    if (rc)
      cli_fail("bench", "C triad disagrees");
  }
  /* Both references are triads on arrays that do not alias: the limit's
   * placements (limit.c), timed in these rounds. */
  if (!rc) {
    bench_limit_offer(bn, bytes, &exact->ref, "the triad case's raw OpenCL, no guard");
    bench_limit_offer(bn, bytes, &c->ref, "the triad case's C OpenMP");
  }
  bench_triad_teardown(&t);
  return rc;
}

/* The triad over a grid of (domain, workers, simd): the measurements behind
 * the automatic rule. */
int bench_sweep(bench *bn)
{
  static const unsigned domains[] = {256, 1024, 4096}, workers[] = {1, 2, 4, 8, 16, 32, 64, 256};
  triad t = {0};
  int rc = bench_triad_setup(bn, &t);
  printf("%-8s %-8s %-6s %10s %10s %7s\n", "domain", "workers", "simd", "lsk GB/s", "raw GB/s",
         "ratio");
  double bytes = 3.0 * sizeof(double) * (double)t.n;
  for (size_t d = 0; !rc && d < sizeof domains / sizeof domains[0]; ++d) {
    unsigned aw, as;
    lsk_auto_shape(lsk_context_device(bn->ctx), domains[d], 0, &aw, &as);
    for (size_t w = 0; !rc && w < sizeof workers / sizeof workers[0]; ++w) {
      unsigned W = workers[w];
      if (W > domains[d])
        continue;
      unsigned simds[4] = {1, 4, 16, (domains[d] + W - 1) / W};
      for (size_t s = 0; !rc && s < 4; ++s) {
        if ((s > 0 && simds[s] <= simds[s - 1]) || (s == 3 && simds[3] == 16))
          continue;
        samples l = {{0}, 0}, r = {{0}, 0};
        lsk_launch cfg = bench_triad_launch(bn, t.n, domains[d], W, simds[s]);
        rc = triad_measure(bn, &t, &cfg, &l, &r, NULL, NULL, "sweep");
        if (!rc)
          printf("%-8u %-8u %-6u %10.1f %10.1f %7.2f%s\n", domains[d], W, simds[s],
                 bytes / bench_best(&l) * 1e-9, bytes / bench_best(&r) * 1e-9,
                 bench_best(&r) / bench_best(&l),
                 (W == aw && simds[s] == as) ? "  <- automatic" : "");
        fflush(stdout);
      }
    }
  }
  bench_triad_teardown(&t);
  return rc;
}
