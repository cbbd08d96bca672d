/*
 * cmd_bench.c: `lsk bench`, the one measure of lsk's speed. Each case
 * times lsk against hand-written raw OpenCL (and plain C where it makes
 * sense) in the same run, interleaved, after warm-up; device times come
 * from OpenCL profiling events, host-side costs from a monotonic clock.
 * Results are checked against a C reference before anything is timed.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli.h"

extern const char cli_bench_source[];

static const char *raw_source =
    "__kernel void raw_triad(__global double *restrict a, __global const double *restrict b,\n"
    "                        __global const double *restrict c, double s, uint n)\n"
    "{\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    a[i] = b[i] + s * c[i];\n"
    "}\n"
    "__kernel void raw_empty(void) {}\n";

#define MAX_REPEAT 64

typedef struct samples {
  double v[MAX_REPEAT];
  unsigned n;
} samples;

typedef struct result {
  const char *name, *ref_name, *unit;
  double work; /* bytes or items per run, for the rate */
  samples lsk, ref;
  struct result *next;
} result;

typedef struct bench {
  lsk_context *ctx;
  lsk_program *prog;
  cl_program raw;
  unsigned log2n, repeat, domain, workers, simd;
  size_t blocks;
  int quick, progress;
  result *results, **tail;
} bench;

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double best(const samples *s)
{
  double b = s->v[0];
  for (unsigned i = 1; i < s->n; ++i)
    b = s->v[i] < b ? s->v[i] : b;
  return b;
}
static double median(const samples *s)
{
  double t[MAX_REPEAT];
  memcpy(t, s->v, s->n * sizeof t[0]);
  qsort(t, s->n, sizeof t[0], cmp_double);
  return s->n % 2 ? t[s->n / 2] : 0.5 * (t[s->n / 2 - 1] + t[s->n / 2]);
}
static void add(samples *s, double v)
{
  if (s->n < MAX_REPEAT)
    s->v[s->n++] = v;
}

/* Device time of a finished event, in seconds. */
static double event_time(cl_event e)
{
  cl_ulong t0 = 0, t1 = 0;
  clWaitForEvents(1, &e);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  clReleaseEvent(e);
  return 1e-9 * (double)(t1 - t0);
}

static void progress(bench *b, const char *what, unsigned i, unsigned n)
{
  if (b->progress)
    fprintf(stderr, "\r  %-40s %3u/%u", what, i, n);
  if (b->progress && i == n)
    fprintf(stderr, "\r%60s\r", "");
}

static result *new_result(bench *b, const char *name, const char *ref_name, const char *unit,
                          double work)
{
  result *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->name = name;
  r->ref_name = ref_name;
  r->unit = unit;
  r->work = work;
  *b->tail = r;
  b->tail = &r->next;
  return r;
}

/* ---------------------------------------------------------------- */
/* Triad: a = b + s*c over 2^log2n doubles.                          */

typedef struct triad {
  size_t n;
  double *a, *b, *c;
  lsk_buffer *da, *db, *dc;
  lsk_kernel *k;
  cl_kernel raw;
} triad;

static int triad_check(bench *bn, triad *t, const char *who)
{
  double *got = malloc(t->n * sizeof *got);
  if (!got || lsk_buffer_read(t->da, 0, got, t->n * sizeof *got)) {
    free(got);
    return cli_fail("bench", "triad (%s): read back failed: %s", who, lsk_context_errmsg(bn->ctx));
  }
  size_t bad = 0;
  for (size_t i = 0; i < t->n; ++i)
    bad += got[i] != t->b[i] + 3.0 * t->c[i];
  free(got);
  double zero = 0;
  lsk_buffer_fill(t->da, &zero, sizeof zero, 0, t->n * sizeof zero);
  return bad ? cli_fail("bench", "triad (%s): %zu wrong elements", who, bad) : 0;
}

static int triad_lsk(triad *t, const lsk_launch *cfg, cl_event *ev)
{
  return lsk_kernel_launch(t->k, cfg,
                           LSK_ARGS(LSK_ARG_BUFFER(t->da), LSK_ARG_BUFFER(t->db),
                                    LSK_ARG_BUFFER(t->dc), LSK_ARG_DOUBLE(3.0),
                                    LSK_ARG_UINT((unsigned)t->n)),
                           ev);
}

static int triad_raw(bench *bn, triad *t, cl_event *ev)
{
  size_t global = t->n;
  return clEnqueueNDRangeKernel(lsk_context_cl_queue(bn->ctx), t->raw, 1, NULL, &global, NULL, 0,
                                NULL, ev);
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

static lsk_launch triad_launch(const bench *bn, size_t n, unsigned domain, unsigned w, unsigned s)
{
  size_t data_blocks = (n + domain - 1) / domain;
  size_t blocks = bn->blocks ? bn->blocks : data_blocks;
  return (lsk_launch){.domain = {domain},
                      .blocks = {blocks < data_blocks ? blocks : data_blocks},
                      .workers = w,
                      .simd = s};
}

static int triad_setup(bench *bn, triad *t)
{
  t->n = (size_t)1 << bn->log2n;
  size_t bytes = t->n * sizeof(double);
  t->a = malloc(bytes);
  t->b = malloc(bytes);
  t->c = malloc(bytes);
  if (!t->a || !t->b || !t->c)
    return cli_fail("bench", "out of host memory for %zu doubles", t->n);
  for (size_t i = 0; i < t->n; ++i) {
    t->a[i] = 0;
    t->b[i] = (double)(i % 1000) * 0.5;
    t->c[i] = 1.0 / (double)(1 + i % 7);
  }
  cl_int err;
  if (lsk_buffer_create(bn->ctx, bytes, &t->da) || lsk_buffer_create(bn->ctx, bytes, &t->db) ||
      lsk_buffer_create(bn->ctx, bytes, &t->dc) || lsk_buffer_write(t->db, 0, t->b, bytes) ||
      lsk_buffer_write(t->dc, 0, t->c, bytes) || triad_check(bn, t, "setup") < 0 ||
      lsk_kernel_create(bn->prog, "triad", &t->k))
    return cli_fail("bench", "triad setup: %s", lsk_context_errmsg(bn->ctx));
  t->raw = clCreateKernel(bn->raw, "raw_triad", &err);
  unsigned n32 = (unsigned)t->n;
  double s = 3.0;
  cl_mem m[3] = {lsk_buffer_cl(t->da), lsk_buffer_cl(t->db), lsk_buffer_cl(t->dc)};
  for (cl_uint i = 0; i < 3 && !err; ++i)
    err = clSetKernelArg(t->raw, i, sizeof(cl_mem), &m[i]);
  if (!err)
    err = clSetKernelArg(t->raw, 3, sizeof s, &s);
  if (!err)
    err = clSetKernelArg(t->raw, 4, sizeof n32, &n32);
  return err ? cli_fail("bench", "raw triad: %s", lsk_status_name(err)) : 0;
}

static void triad_teardown(triad *t)
{
  lsk_kernel_destroy(t->k);
  if (t->raw)
    clReleaseKernel(t->raw);
  lsk_buffer_destroy(t->da);
  lsk_buffer_destroy(t->db);
  lsk_buffer_destroy(t->dc);
  free(t->a);
  free(t->b);
  free(t->c);
}

/* One lsk configuration against raw OpenCL, interleaved. */
static int triad_measure(bench *bn, triad *t, const lsk_launch *cfg, samples *lsk, samples *raw,
                         samples *c, const char *label)
{
  cl_event ev;
  /* Check both results, then warm up (first launches build and compile). */
  if (triad_lsk(t, cfg, NULL) || lsk_context_finish(bn->ctx))
    return cli_fail("bench", "triad: %s", lsk_context_errmsg(bn->ctx));
  if (triad_check(bn, t, "lsk") || triad_raw(bn, t, NULL) ||
      clFinish(lsk_context_cl_queue(bn->ctx)) || triad_check(bn, t, "raw OpenCL"))
    return 1;
  for (unsigned i = 0; i < 2; ++i) {
    triad_lsk(t, cfg, NULL);
    triad_raw(bn, t, NULL);
  }
  clFinish(lsk_context_cl_queue(bn->ctx));
  /* The order rotates each round, so that no contender always runs right
   * after another (after the C run, PoCL's threads have to wake up). */
  for (unsigned r = 0; r < bn->repeat; ++r) {
    progress(bn, label, r, bn->repeat);
    for (unsigned j = 0; j < 3; ++j) {
      unsigned who = (r + j) % 3;
      if (who == 0 && triad_lsk(t, cfg, &ev))
        return cli_fail("bench", "triad: %s", lsk_context_errmsg(bn->ctx));
      if (who == 0)
        add(lsk, event_time(ev));
      if (who == 1 && triad_raw(bn, t, &ev))
        return cli_fail("bench", "raw triad failed");
      if (who == 1)
        add(raw, event_time(ev));
      if (who == 2 && c)
        add(c, triad_c(t));
    }
  }
  progress(bn, label, bn->repeat, bn->repeat);
  return 0;
}

static int case_triad(bench *bn)
{
  triad t = {0};
  int rc = triad_setup(bn, &t);
  if (rc) {
    triad_teardown(&t);
    return rc;
  }
  double bytes = 3.0 * sizeof(double) * (double)t.n;
  result *raw = new_result(bn, "triad (ForEach, auto shape)", "raw OpenCL", "GB/s", bytes);
  result *c = new_result(bn, "triad (ForEach, auto shape)", "C OpenMP", "GB/s", bytes);
  lsk_launch cfg = triad_launch(bn, t.n, bn->domain, bn->workers, bn->simd);
  rc = !raw || !c ? 1 : triad_measure(bn, &t, &cfg, &raw->lsk, &raw->ref, &c->ref, "triad");
  if (!rc) {
    c->lsk = raw->lsk;
    /* The C reference must have computed the same. */
    for (size_t i = 0; i < t.n && !rc; ++i)
      rc = t.a[i] != t.b[i] + 3.0 * t.c[i];
    if (rc)
      cli_fail("bench", "C triad disagrees");
  }
  triad_teardown(&t);
  return rc;
}

/* The triad over a grid of (domain, workers, simd): the measurements behind
 * the automatic rule. */
static int case_sweep(bench *bn)
{
  static const unsigned domains[] = {256, 1024, 4096}, workers[] = {1, 2, 4, 8, 16, 32, 64, 256};
  triad t = {0};
  int rc = triad_setup(bn, &t);
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
        lsk_launch cfg = triad_launch(bn, t.n, domains[d], W, simds[s]);
        rc = triad_measure(bn, &t, &cfg, &l, &r, NULL, "sweep");
        if (!rc)
          printf("%-8u %-8u %-6u %10.1f %10.1f %7.2f%s\n", domains[d], W, simds[s],
                 bytes / best(&l) * 1e-9, bytes / best(&r) * 1e-9, best(&r) / best(&l),
                 (W == aw && simds[s] == as) ? "  <- automatic" : "");
        fflush(stdout);
      }
    }
  }
  triad_teardown(&t);
  return rc;
}

/* ---------------------------------------------------------------- */
/* Launch overhead: many asynchronous launches of an empty kernel.   */

static int case_launch(bench *bn)
{
  unsigned count = bn->quick ? 200 : 10000;
  lsk_kernel *k = NULL;
  cl_int err;
  cl_kernel raw = clCreateKernel(bn->raw, "raw_empty", &err);
  if (err || lsk_kernel_create(bn->prog, "empty", &k))
    return cli_fail("bench", "empty kernels: %s", lsk_context_errmsg(bn->ctx));
  result *r = new_result(bn, "launch, empty kernel", "raw clEnqueueNDRangeKernel", "us/launch", 0);
  cl_command_queue q = lsk_context_cl_queue(bn->ctx);
  lsk_launch cfg = {.domain = {1}, .blocks = {1}, .workers = 1, .simd = 1};
  size_t one = 1;
  int rc = lsk_kernel_run(k, &cfg, NULL, 0) ||
           clEnqueueNDRangeKernel(q, raw, 1, NULL, &one, &one, 0, NULL, NULL) || clFinish(q);
  unsigned rounds = bn->quick ? 2 : 5;
  for (unsigned round = 0; !rc && round < rounds; ++round) {
    progress(bn, "launch overhead", round, rounds);
    double t0 = cli_now();
    for (unsigned i = 0; i < count && !rc; ++i)
      rc = lsk_kernel_launch(k, &cfg, NULL, 0, NULL);
    rc = rc || lsk_context_finish(bn->ctx);
    double t1 = cli_now();
    for (unsigned i = 0; i < count && !rc; ++i)
      rc = clEnqueueNDRangeKernel(q, raw, 1, NULL, &one, &one, 0, NULL, NULL);
    rc = rc || clFinish(q);
    double t2 = cli_now();
    add(&r->lsk, (t1 - t0) / count * 1e6);
    add(&r->ref, (t2 - t1) / count * 1e6);
  }
  progress(bn, "launch overhead", rounds, rounds);
  if (rc)
    cli_fail("bench", "launch overhead: %s", lsk_context_errmsg(bn->ctx));
  lsk_kernel_destroy(k);
  clReleaseKernel(raw);
  return rc;
}

/* ---------------------------------------------------------------- */

static void print_table(const bench *bn)
{
  printf("%-30s %-28s %11s %11s %7s %7s %10s\n", "case", "against", "lsk best", "ref best", "ratio",
         "median", "lsk rate");
  for (const result *r = bn->results; r; r = r->next) {
    if (!r->lsk.n)
      continue;
    double lb = best(&r->lsk), rb = best(&r->ref), lm = median(&r->lsk), rm = median(&r->ref);
    if (r->work > 0)
      printf("%-30s %-28s %9.3f ms %8.3f ms %7.3f %7.3f %5.1f %s\n", r->name, r->ref_name, lb * 1e3,
             rb * 1e3, rb / lb, rm / lm, r->work / lb * 1e-9, r->unit);
    else
      printf("%-30s %-28s %8.2f us %8.2f us %+7.2f %+7.2f  us more per launch\n", r->name,
             r->ref_name, lb, rb, lb - rb, lm - rm);
  }
}

static void json_samples(FILE *f, const samples *s)
{
  fputc('[', f);
  for (unsigned i = 0; i < s->n; ++i)
    fprintf(f, "%s%.9g", i ? ", " : "", s->v[i]);
  fputc(']', f);
}

static int write_json(const bench *bn, const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return cli_fail("bench", "cannot write '%s'", path);
  const lsk_device_info *d = lsk_context_device(bn->ctx);
  char date[32];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  fprintf(f, "{\n  \"lsk_version\": \"%s\",\n  \"date\": \"%s\",\n", lsk_version(), date);
  fprintf(f, "  \"device\": \"%s\",\n  \"platform\": \"%s\",\n  \"driver\": \"%s\",\n", d->name,
          d->platform_name, d->driver_version);
  fprintf(f, "  \"elements_log2\": %u,\n  \"repeat\": %u,\n  \"cases\": [", bn->log2n, bn->repeat);
  for (const result *r = bn->results; r; r = r->next) {
    fprintf(f,
            "%s\n    {\"case\": \"%s\", \"against\": \"%s\", \"unit\": \"%s\", \"work\": %.0f,\n",
            r == bn->results ? "" : ",", r->name, r->ref_name, r->unit, r->work);
    fprintf(f, "     \"lsk\": ");
    json_samples(f, &r->lsk);
    fprintf(f, ",\n     \"ref\": ");
    json_samples(f, &r->ref);
    fprintf(f, "}");
  }
  fprintf(f, "\n  ]\n}\n");
  return fclose(f) ? cli_fail("bench", "error writing '%s'", path) : 0;
}

static const char usage_text[] =
    "usage: lsk bench [--quick] [--sweep] [--size LOG2] [--repeat N] [--domain D]\n"
    "                 [--workers W] [--simd S] [--blocks B] [--json FILE]\n";

int cmd_bench(int argc, char **argv)
{
  bench bn = {.log2n = 25, .repeat = 15, .domain = 4096, .progress = 1};
  bn.tail = &bn.results;
  const char *json = NULL;
  int sweep = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--quick") == 0)
      bn.quick = 1;
    else if (strcmp(a, "--sweep") == 0)
      sweep = 1;
    else if (strcmp(a, "--size") == 0 && v && atoi(v) >= 10 && atoi(v) <= 31)
      bn.log2n = (unsigned)atoi(argv[++i]);
    else if (strcmp(a, "--repeat") == 0 && v && atoi(v) >= 1 && atoi(v) <= MAX_REPEAT)
      bn.repeat = (unsigned)atoi(argv[++i]);
    else if (strcmp(a, "--domain") == 0 && v && atoi(v) >= 1)
      bn.domain = (unsigned)atoi(argv[++i]);
    else if (strcmp(a, "--workers") == 0 && v && atoi(v) >= 1)
      bn.workers = (unsigned)atoi(argv[++i]);
    else if (strcmp(a, "--simd") == 0 && v && atoi(v) >= 1)
      bn.simd = (unsigned)atoi(argv[++i]);
    else if (strcmp(a, "--blocks") == 0 && v && atoi(v) >= 1)
      bn.blocks = (size_t)atol(argv[++i]);
    else if (strcmp(a, "--json") == 0 && v)
      json = argv[++i];
    else
      return cli_usage("bench", usage_text, "bad option or value '%s'", a);
  }
  if (bn.quick) {
    bn.log2n = bn.log2n < 16 ? bn.log2n : 16;
    bn.repeat = 3;
  }
  bn.progress = !bn.quick;
  lsk_context_options copt = {.profiling = 1};
  if (lsk_context_create(&copt, &bn.ctx))
    return cli_fail("bench", "%s", lsk_context_errmsg(NULL));
  const lsk_device_info *d = lsk_context_device(bn.ctx);
  printf("lsk %s bench on %s (%s, driver %s); 2^%u elements, best of %u after warm-up\n",
         lsk_version(), d->name, d->platform_name, d->driver_version, bn.log2n, bn.repeat);
#ifdef _OPENMP
  printf("C reference: OpenMP, %d threads\n", omp_get_max_threads());
#endif
  cl_int err;
  const char *src[1] = {raw_source};
  bn.raw = clCreateProgramWithSource(lsk_context_cl(bn.ctx), 1, src, NULL, &err);
  if (!err)
    err = clBuildProgram(bn.raw, 0, NULL, "-cl-std=CL1.2", NULL, NULL);
  int rc = err ? cli_fail("bench", "raw kernels: %s", lsk_status_name(err)) : 0;
  if (!rc && lsk_program_create(bn.ctx, cli_bench_source,
                                &(lsk_program_options){.name = "bench_kernels.cl"}, &bn.prog))
    rc = cli_fail("bench", "%s", lsk_context_errmsg(bn.ctx));
  if (!rc && sweep)
    rc = case_sweep(&bn);
  if (!rc && !sweep)
    rc = case_triad(&bn) || case_launch(&bn);
  if (!rc && !sweep)
    print_table(&bn);
  if (!rc && json)
    rc = write_json(&bn, json);
  for (result *r = bn.results, *next; r; r = next) {
    next = r->next;
    free(r);
  }
  lsk_program_destroy(bn.prog);
  if (bn.raw)
    clReleaseProgram(bn.raw);
  lsk_context_destroy(bn.ctx);
  return rc ? 1 : 0;
}
