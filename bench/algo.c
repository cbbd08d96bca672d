/*
 * bench/algo.c: the kernel library's reduce and scan in `lsk bench`.
 *   - reduce of 2^log2n doubles: lsk_reduce against a hand-written raw
 *     OpenCL reduction (each work-item folds a contiguous run, the pattern
 *     CPU back-ends like best (docs/lockstep.md); then a local tree; the
 *     host adds the groups' sums) and against C OpenMP `parallel for simd
 *     reduction(+)`;
 *   - exclusive scan of 2^log2n uints: lsk_scan, whose bytes per second
 *     (8 per element: a read and a write) are compared with a raw uint
 *     triad's (12 per element) on the same buffers in the same run, and
 *     against a single-threaded C scan. Where the device is a GPU with
 *     64-bit atomics (or LSK_SCAN_LOOKBACK=1 is set), both GPU paths in
 *     the same rounds: the rows "exclusive scan (uint)" time the path
 *     without it (LSK_SCAN_LOOKBACK=0: on a GPU the three passes of
 *     reduce-then-scan, the path of the earlier GPU figures; on PoCL the
 *     CPU path), the row "exclusive scan (uint), look-back" the single
 *     pass (LSK_SCAN_LOOKBACK=1), against the same triad; elsewhere the
 *     rows time the device's default path (the CPU path on PoCL).
 * Every contender is timed on the host's monotonic clock, result read back
 * included, so that they pay the same; the order rotates each round.
 */
#define _XOPEN_SOURCE 700 /* setenv, unsetenv, strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"

static const char *raw_reduce_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void raw_reduce(__global const double *x, uint n, uint chunk,\n"
    "                         __global double *partial, __local double *s)\n"
    "{\n"
    "  uint l = get_local_id(0), L = get_local_size(0), g = get_group_id(0);\n"
    "  uint each = (chunk + L - 1) / L;\n"
    "  uint begin = g * chunk + l * each;\n"
    "  uint end = min(min(begin + each, g * chunk + chunk), n);\n"
    "  double acc = 0;\n"
    "  for (uint i = begin; i < end; ++i)\n"
    "    acc += x[i];\n"
    "  s[l] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint h = L / 2; h > 0; h >>= 1) {\n"
    "    if (l < h)\n"
    "      s[l] += s[l + h];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0)\n"
    "    partial[g] = s[0];\n"
    "}\n";

/* A contender: runs once and returns its seconds, or < 0 on failure. */
typedef double (*contender)(void *state);

/* Warm-up, then repeat rounds of every contender in rotating order. */
static int interleave(bench *bn, const char *label, void *state, unsigned k, const contender *fn,
                      samples *const *out)
{
  for (unsigned j = 0; j < k; ++j)
    if (fn[j](state) < 0)
      return 1;
  for (unsigned r = 0; r < bn->repeat; ++r) {
    bench_progress(bn, label, r, bn->repeat);
    for (unsigned j = 0; j < k; ++j) {
      unsigned who = (r + j) % k;
      double t = fn[who](state);
      if (t < 0)
        return 1;
      if (out[who])
        bench_add(out[who], t);
    }
  }
  bench_progress(bn, label, bn->repeat, bn->repeat);
  return 0;
}

/* ---------------------------------------------------------------- */

typedef struct reduce_state {
  bench *bn;
  size_t n;
  double *x, want, got;
  lsk_buffer *dx, *dpartial;
  cl_program prog;
  cl_kernel raw;
  size_t groups, local;
  double *partial;
} reduce_state;

static double reduce_lsk(void *p)
{
  reduce_state *s = p;
  double t0 = cli_now();
  if (lsk_reduce(s->bn->ctx, LSK_TYPE_DOUBLE, LSK_OP_SUM, s->dx, 0, s->n, &s->got, sizeof s->got,
                 NULL, NULL))
    return cli_fail("bench", "reduce: %s", lsk_context_errmsg(s->bn->ctx)), -1;
  double t = cli_now() - t0;
  return s->got == s->want
             ? t
             : (cli_fail("bench", "lsk reduce: %.17g, want %.17g", s->got, s->want), -1);
}

static double reduce_raw(void *p)
{
  reduce_state *s = p;
  double t0 = cli_now();
  size_t global = s->groups * s->local;
  cl_command_queue q = lsk_context_cl_queue(s->bn->ctx);
  cl_int err = clEnqueueNDRangeKernel(q, s->raw, 1, NULL, &global, &s->local, 0, NULL, NULL);
  if (!err)
    err = clEnqueueReadBuffer(q, lsk_buffer_cl(s->dpartial), CL_TRUE, 0, s->groups * sizeof(double),
                              s->partial, 0, NULL, NULL);
  double sum = 0;
  for (size_t g = 0; g < s->groups; ++g)
    sum += s->partial[g];
  double t = cli_now() - t0;
  if (err)
    return cli_fail("bench", "raw reduce: %s", lsk_status_name(err)), -1;
  return sum == s->want ? t
                        : (cli_fail("bench", "raw reduce: %.17g, want %.17g", sum, s->want), -1);
}

/* The C reduction reads the device buffer's own memory, mapped (outside
 * the timed region; on PoCL a map is the buffer's address): on this VM
 * two allocations of the same size can differ in bandwidth by 20%, which
 * would otherwise show in the ratio. */
static double reduce_c(void *p)
{
  reduce_state *s = p;
  void *mapped;
  if (lsk_buffer_map(s->dx, 0, s->n * sizeof(double), &mapped, NULL))
    return cli_fail("bench", "reduce: map: %s", lsk_context_errmsg(s->bn->ctx)), -1;
  double t0 = cli_now(), sum = 0;
  const double *restrict x = mapped;
  const long n = (long)s->n;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
  for (long i = 0; i < n; ++i)
    sum += x[i];
  double t = cli_now() - t0;
  /* The unmap enqueued and done before the next timed call (an unmap
   * never blocks). */
  if (lsk_buffer_unmap(s->dx, mapped, NULL) || lsk_queue_finish(lsk_context_queue(s->bn->ctx)))
    return cli_fail("bench", "reduce: unmap: %s", lsk_context_errmsg(s->bn->ctx)), -1;
  return sum == s->want ? t : (cli_fail("bench", "C reduce: %.17g, want %.17g", sum, s->want), -1);
}

int bench_case_reduce(bench *bn)
{
  if (!lsk_context_device(bn->ctx)->has_fp64) {
    printf("reduce: skipped, the device has no double precision\n");
    return 0;
  }
  reduce_state s = {.bn = bn, .n = (size_t)1 << bn->log2n, .local = 64};
  const lsk_device_info *d = lsk_context_device(bn->ctx);
  if (d->max_work_group_size < s.local)
    s.local = d->max_work_group_size;
  s.groups = (d->compute_units ? d->compute_units : 1) * (d->is_gpu ? 8 : 16);
  unsigned chunk = (unsigned)((s.n + s.groups - 1) / s.groups);
  s.x = malloc(s.n * sizeof(double));
  s.partial = malloc(s.groups * sizeof(double));
  int rc = !s.x || !s.partial;
  /* Integer values: every order of summation gives the same exact sum. */
  for (size_t i = 0; !rc && i < s.n; ++i) {
    s.x[i] = (double)(int)(i * 2654435761u % 17) - 8.0;
    s.want += s.x[i];
  }
  const char *src[1] = {raw_reduce_source};
  cl_int err = CL_SUCCESS;
  if (!rc)
    rc = lsk_buffer_create(bn->ctx, s.n * sizeof(double), &s.dx) ||
         lsk_buffer_write(s.dx, 0, s.x, s.n * sizeof(double), NULL) ||
         lsk_buffer_create(bn->ctx, s.groups * sizeof(double), &s.dpartial);
  if (!rc) {
    s.prog = clCreateProgramWithSource(lsk_context_cl(bn->ctx), 1, src, NULL, &err);
    if (!err)
      err = clBuildProgram(s.prog, 0, NULL, "-cl-std=CL1.2", NULL, NULL);
    if (!err)
      s.raw = clCreateKernel(s.prog, "raw_reduce", &err);
    cl_mem mx = lsk_buffer_cl(s.dx), mp = lsk_buffer_cl(s.dpartial);
    unsigned n32 = (unsigned)s.n;
    if (!err)
      err = clSetKernelArg(s.raw, 0, sizeof mx, &mx) | clSetKernelArg(s.raw, 1, 4, &n32) |
            clSetKernelArg(s.raw, 2, 4, &chunk) | clSetKernelArg(s.raw, 3, sizeof mp, &mp) |
            clSetKernelArg(s.raw, 4, s.local * sizeof(double), NULL);
    rc = err != CL_SUCCESS;
  }
  if (rc)
    cli_fail("bench", "reduce setup: %s %s", err ? lsk_status_name(err) : "",
             lsk_context_errmsg(bn->ctx));
  double bytes = (double)s.n * sizeof(double);
  result *raw = rc ? NULL
                   : bench_new_result(bn, KIND_RATE, "reduce sum (double)", "raw OpenCL",
                                      "reduce vs raw OpenCL", "GB/s", bytes);
  result *c = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, "reduce sum (double)", "C OpenMP reduction",
                                    "reduce vs C OpenMP", "GB/s", bytes);
  bench_bandwidth(raw);
  bench_bandwidth(c);
  if (!rc && raw && c) {
    const contender fn[3] = {reduce_lsk, reduce_raw, reduce_c};
    samples *const out[3] = {&raw->lsk, &raw->ref, &c->ref};
    rc = interleave(bn, "reduce", &s, 3, fn, out);
    c->lsk = raw->lsk;
  }
  if (s.raw)
    clReleaseKernel(s.raw);
  if (s.prog)
    clReleaseProgram(s.prog);
  lsk_buffer_destroy(s.dx);
  lsk_buffer_destroy(s.dpartial);
  free(s.x);
  free(s.partial);
  return rc;
}

/* ---------------------------------------------------------------- */

/* The triad's comparison runs on the scan's own buffers: on this VM two
 * allocations of the same size can differ in bandwidth by far more than
 * the ratio's margin, so a triad over other memory would measure where the
 * buffers landed. It is the STREAM triad in uint, a = b + 3c, with b the
 * scan's input, a its output and c one more buffer of the same size; once
 * guarded (the row the scan's goal was set against) and once without the
 * guard on a grid of exactly n (n is a power of two): PoCL does not
 * vectorize the guarded store (docs/pocl-masked-stores.md), and the
 * guarded kernel runs at about half the unguarded one's rate. */
static const char *raw_triad_uint_source =
    "__kernel void raw_triad_uint(__global uint *restrict a, __global const uint *restrict b,\n"
    "                             __global const uint *restrict c, uint n)\n"
    "{\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    a[i] = b[i] + 3u * c[i];\n"
    "}\n"
    "__kernel void raw_triad_uint_exact(__global uint *restrict a,\n"
    "                                   __global const uint *restrict b,\n"
    "                                   __global const uint *restrict c)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = b[i] + 3u * c[i];\n"
    "}\n";

typedef struct scan_state {
  bench *bn;
  size_t n;
  unsigned *in, *out;
  lsk_buffer *din, *dout, *dthird;
  cl_program prog;
  cl_kernel triad, exact;
  int both;           /* time both GPU paths (look-back and reduce-then-scan) */
  const char *forced; /* LSK_SCAN_LOOKBACK for scan_lsk: NULL, "0" or "1" */
  char *user;         /* the caller's LSK_SCAN_LOOKBACK, restored after */
} scan_state;

static double scan_run(scan_state *s, const char *lookback)
{
  if (lookback)
    setenv("LSK_SCAN_LOOKBACK", lookback, 1);
  double t0 = cli_now();
  if (lsk_scan(s->bn->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, s->din, 0, s->dout, 0, s->n, NULL,
               NULL) ||
      lsk_context_finish(s->bn->ctx))
    return cli_fail("bench", "scan: %s", lsk_context_errmsg(s->bn->ctx)), -1;
  return cli_now() - t0;
}

/* The rows "exclusive scan (uint)": reduce-then-scan where both paths are
 * timed, else the default path. */
static double scan_lsk(void *p)
{
  scan_state *s = p;
  return scan_run(s, s->both ? "0" : NULL);
}

/* The row "exclusive scan (uint), look-back". */
static double scan_lookback(void *p) { return scan_run(p, "1"); }

/* The raw uint triad, scaled to the scan's bytes (8 per element against
 * its 12): the ratio then reads as scan bytes/s over triad bytes/s. */
static double triad_uint(scan_state *s, cl_kernel k)
{
  size_t global = s->n;
  cl_command_queue q = lsk_context_cl_queue(s->bn->ctx);
  double t0 = cli_now();
  if (clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) || clFinish(q))
    return cli_fail("bench", "raw triad failed"), -1;
  return (cli_now() - t0) * 8.0 / 12.0;
}

static double scan_triad(void *p)
{
  scan_state *s = p;
  return triad_uint(s, s->triad);
}

static double scan_triad_exact(void *p)
{
  scan_state *s = p;
  return triad_uint(s, s->exact);
}

static int scan_triad_setup(scan_state *s)
{
  const char *src[1] = {raw_triad_uint_source};
  cl_int err;
  s->prog = clCreateProgramWithSource(lsk_context_cl(s->bn->ctx), 1, src, NULL, &err);
  if (!err)
    err = clBuildProgram(s->prog, 0, NULL, "-cl-std=CL1.2", NULL, NULL);
  if (!err)
    s->triad = clCreateKernel(s->prog, "raw_triad_uint", &err);
  if (!err)
    s->exact = clCreateKernel(s->prog, "raw_triad_uint_exact", &err);
  cl_mem m[3] = {lsk_buffer_cl(s->dout), lsk_buffer_cl(s->din), lsk_buffer_cl(s->dthird)};
  unsigned n32 = (unsigned)s->n;
  for (cl_uint i = 0; i < 3 && !err; ++i)
    err = clSetKernelArg(s->triad, i, sizeof(cl_mem), &m[i]) |
          clSetKernelArg(s->exact, i, sizeof(cl_mem), &m[i]);
  if (!err)
    err = clSetKernelArg(s->triad, 3, sizeof n32, &n32);
  return err ? cli_fail("bench", "scan: raw uint triad: %s", lsk_status_name(err)) : 0;
}

static double scan_c(void *p)
{
  scan_state *s = p;
  double t0 = cli_now();
  unsigned run = 0;
  for (size_t i = 0; i < s->n; ++i) {
    s->out[i] = run;
    run += s->in[i];
  }
  return cli_now() - t0;
}

int bench_case_scan(bench *bn)
{
  scan_state s = {.bn = bn, .n = (size_t)1 << bn->log2n};
  const lsk_device_info *dev = lsk_context_device(bn->ctx);
  const char *user = getenv("LSK_SCAN_LOOKBACK");
  s.user = user ? strdup(user) : NULL;
  s.both = dev->has_int64_atomics && (user && *user ? strcmp(user, "1") == 0 : dev->is_gpu);
  size_t bytes = s.n * sizeof(unsigned);
  s.in = malloc(bytes);
  s.out = malloc(bytes);
  int rc = !s.in || !s.out;
  for (size_t i = 0; !rc && i < s.n; ++i)
    s.in[i] = (unsigned)(i * 2654435761u >> 28);
  if (!rc)
    rc = lsk_buffer_create(bn->ctx, bytes, &s.din) || lsk_buffer_create(bn->ctx, bytes, &s.dout) ||
         lsk_buffer_create(bn->ctx, bytes, &s.dthird) ||
         lsk_buffer_write(s.din, 0, s.in, bytes, NULL) ||
         lsk_buffer_write(s.dthird, 0, s.in, bytes, NULL);
  if (rc)
    cli_fail("bench", "scan setup: %s", lsk_context_errmsg(bn->ctx));
  if (!rc)
    rc = scan_triad_setup(&s);
  /* Check lsk's scan against C's before timing (the triad overwrites the
   * output, so once before the rounds is what can be checked). */
  if (!rc && scan_lsk(&s) >= 0 && scan_c(&s) >= 0) {
    unsigned *got = malloc(bytes);
    rc = !got || lsk_buffer_read(s.dout, 0, got, bytes, NULL) || memcmp(got, s.out, bytes) != 0;
    if (rc)
      cli_fail("bench", "scan: lsk and C disagree");
    if (!rc && s.both) {
      rc = scan_lookback(&s) < 0 || lsk_buffer_read(s.dout, 0, got, bytes, NULL) ||
           memcmp(got, s.out, bytes) != 0;
      if (rc)
        cli_fail("bench", "scan: lsk's look-back and C disagree");
    }
    /* Both raw uint triads: out = in + 3 in (c holds the input too). */
    for (int k = 0; k < 2 && !rc; ++k) {
      size_t bad = 0;
      rc =
          triad_uint(&s, k ? s.exact : s.triad) < 0 || lsk_buffer_read(s.dout, 0, got, bytes, NULL);
      for (size_t i = 0; !rc && i < s.n; ++i)
        bad += got[i] != s.in[i] + 3u * s.in[i];
      if (rc || bad)
        rc = cli_fail("bench", "scan: raw uint triad%s: %zu wrong elements", k ? ", no guard" : "",
                      bad);
    }
    free(got);
  }
  double work = 8.0 * (double)s.n;
  result *tr =
      rc ? NULL
         : bench_new_result(bn, KIND_RATE, "exclusive scan (uint)", "raw uint triad, bytes/s",
                            "scan vs triad bytes/s", "GB/s", work);
  result *ex = rc ? NULL
                  : bench_new_result(bn, KIND_RATE, "exclusive scan (uint)",
                                     "raw uint triad, no guard, bytes/s",
                                     "scan vs unguarded triad bytes/s", "GB/s", work);
  result *c = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, "exclusive scan (uint)", "C, 1 thread",
                                    "scan vs C 1 thread", "GB/s", work);
  result *lb = rc || !s.both ? NULL
                             : bench_new_result(bn, KIND_RATE, "exclusive scan (uint), look-back",
                                                "raw uint triad, bytes/s",
                                                "look-back scan vs triad bytes/s", "GB/s", work);
  bench_bandwidth(tr);
  bench_bandwidth(ex);
  bench_bandwidth(c);
  if (lb)
    bench_bandwidth(lb);
  if (!rc && tr && ex && c && (lb || !s.both)) {
    const contender fn[5] = {scan_lsk, scan_triad, scan_triad_exact, scan_c, scan_lookback};
    samples *const out[5] = {&tr->lsk, &tr->ref, &ex->ref, &c->ref, lb ? &lb->lsk : NULL};
    rc = interleave(bn, "scan", &s, lb ? 5 : 4, fn, out);
    ex->lsk = tr->lsk;
    c->lsk = tr->lsk;
    if (lb)
      lb->ref = tr->ref;
  }
  if (s.user)
    setenv("LSK_SCAN_LOOKBACK", s.user, 1);
  else
    unsetenv("LSK_SCAN_LOOKBACK");
  free(s.user);
  if (s.triad)
    clReleaseKernel(s.triad);
  if (s.exact)
    clReleaseKernel(s.exact);
  if (s.prog)
    clReleaseProgram(s.prog);
  lsk_buffer_destroy(s.din);
  lsk_buffer_destroy(s.dout);
  lsk_buffer_destroy(s.dthird);
  free(s.in);
  free(s.out);
  return rc;
}
