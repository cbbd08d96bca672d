/*
 * cmd_bench.c: `lsk bench`, the one measure of lsk's speed. Each case
 * times lsk against hand-written raw OpenCL (and plain C where it makes
 * sense) in the same run, interleaved, after warm-up; device times come
 * from OpenCL profiling events, host-side costs from a monotonic clock.
 * Results are checked against a C reference before anything is timed.
 *
 * The build-cost case runs its builds in child processes (this program
 * again, with --internal-build-child), each with its own environment: the
 * disk cache directories and the driver's kernel cache switched on or off.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"

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

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
double bench_best(const samples *s)
{
  double b = s->v[0];
  for (unsigned i = 1; i < s->n; ++i)
    b = s->v[i] < b ? s->v[i] : b;
  return b;
}
double bench_median(const samples *s)
{
  double t[MAX_REPEAT];
  memcpy(t, s->v, s->n * sizeof t[0]);
  qsort(t, s->n, sizeof t[0], cmp_double);
  return s->n % 2 ? t[s->n / 2] : 0.5 * (t[s->n / 2 - 1] + t[s->n / 2]);
}
void bench_add(samples *s, double v)
{
  if (s->n < MAX_REPEAT)
    s->v[s->n++] = v;
}

/* Device time of a finished event, in seconds. */
double bench_event_time(cl_event e)
{
  cl_ulong t0 = 0, t1 = 0;
  clWaitForEvents(1, &e);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  clReleaseEvent(e);
  return 1e-9 * (double)(t1 - t0);
}

void bench_progress(bench *b, const char *what, unsigned i, unsigned n)
{
  if (b->progress)
    fprintf(stderr, "\r  %-40s %3u/%u", what, i, n);
  if (b->progress && i == n)
    fprintf(stderr, "\r%60s\r", "");
}

result *bench_new_result(bench *b, kind kind, const char *name, const char *ref_name,
                         const char *label, const char *unit, double work)
{
  result *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->kind = kind;
  snprintf(r->name, sizeof r->name, "%s", name);
  snprintf(r->ref_name, sizeof r->ref_name, "%s", ref_name);
  snprintf(r->label, sizeof r->label, "%s", label);
  r->unit = unit;
  r->work = work;
  *b->tail = r;
  b->tail = &r->next;
  return r;
}

/* ---------------------------------------------------------------- */
/* Triad: a = b + s*c over 2^log2n doubles.                          */

int bench_triad_check(bench *bn, triad *t, const char *who)
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

int bench_triad_raw(bench *bn, triad *t, cl_event *ev)
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
  double zero = 0;
  if (lsk_buffer_create(bn->ctx, bytes, &t->da) || lsk_buffer_create(bn->ctx, bytes, &t->db) ||
      lsk_buffer_create(bn->ctx, bytes, &t->dc) || lsk_buffer_write(t->db, 0, t->b, bytes) ||
      lsk_buffer_write(t->dc, 0, t->c, bytes) ||
      lsk_buffer_fill(t->da, &zero, sizeof zero, 0, bytes) ||
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

void bench_triad_teardown(triad *t)
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
  if (bench_triad_check(bn, t, "lsk") || bench_triad_raw(bn, t, NULL) ||
      clFinish(lsk_context_cl_queue(bn->ctx)) || bench_triad_check(bn, t, "raw OpenCL"))
    return 1;
  for (unsigned i = 0; i < 2; ++i) {
    triad_lsk(t, cfg, NULL);
    bench_triad_raw(bn, t, NULL);
  }
  clFinish(lsk_context_cl_queue(bn->ctx));
  /* The order rotates each round, so that no contender always runs right
   * after another (after the C run, PoCL's threads have to wake up). */
  for (unsigned r = 0; r < bn->repeat; ++r) {
    bench_progress(bn, label, r, bn->repeat);
    for (unsigned j = 0; j < 3; ++j) {
      unsigned who = (r + j) % 3;
      if (who == 0 && triad_lsk(t, cfg, &ev))
        return cli_fail("bench", "triad: %s", lsk_context_errmsg(bn->ctx));
      if (who == 0)
        bench_add(lsk, bench_event_time(ev));
      if (who == 1 && bench_triad_raw(bn, t, &ev))
        return cli_fail("bench", "raw triad failed");
      if (who == 1)
        bench_add(raw, bench_event_time(ev));
      if (who == 2 && c)
        bench_add(c, triad_c(t));
    }
  }
  bench_progress(bn, label, bn->repeat, bn->repeat);
  return 0;
}

static int case_triad(bench *bn)
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
  result *raw =
      bench_new_result(bn, KIND_RATE, name, "raw OpenCL", "triad vs raw OpenCL", "GB/s", bytes);
  result *c = bench_new_result(bn, KIND_RATE, name, "C OpenMP", "triad vs C OpenMP", "GB/s", bytes);
  rc = !raw || !c ? 1 : triad_measure(bn, &t, &cfg, &raw->lsk, &raw->ref, &c->ref, "triad");
  if (!rc) {
    c->lsk = raw->lsk;
    /* The C reference must have computed the same. */
    for (size_t i = 0; i < t.n && !rc; ++i)
      rc = t.a[i] != t.b[i] + 3.0 * t.c[i];
    if (rc)
      cli_fail("bench", "C triad disagrees");
  }
  bench_triad_teardown(&t);
  return rc;
}

/* The triad over a grid of (domain, workers, simd): the measurements behind
 * the automatic rule. */
static int case_sweep(bench *bn)
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
        rc = triad_measure(bn, &t, &cfg, &l, &r, NULL, "sweep");
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
  result *r =
      bench_new_result(bn, KIND_LAUNCH, "launch, empty kernel", "raw clEnqueueNDRangeKernel",
                       "launch vs raw enqueue", "us/launch", 0);
  cl_command_queue q = lsk_context_cl_queue(bn->ctx);
  lsk_launch cfg = {.domain = {1}, .blocks = {1}, .workers = 1, .simd = 1};
  size_t one = 1;
  int rc = lsk_kernel_run(k, &cfg, NULL, 0) ||
           clEnqueueNDRangeKernel(q, raw, 1, NULL, &one, &one, 0, NULL, NULL) || clFinish(q);
  unsigned rounds = bn->quick ? 2 : 5;
  for (unsigned round = 0; !rc && round < rounds; ++round) {
    bench_progress(bn, "launch overhead", round, rounds);
    double t0 = cli_now();
    for (unsigned i = 0; i < count && !rc; ++i)
      rc = lsk_kernel_launch(k, &cfg, NULL, 0, NULL);
    rc = rc || lsk_context_finish(bn->ctx);
    double t1 = cli_now();
    for (unsigned i = 0; i < count && !rc; ++i)
      rc = clEnqueueNDRangeKernel(q, raw, 1, NULL, &one, &one, 0, NULL, NULL);
    rc = rc || clFinish(q);
    double t2 = cli_now();
    bench_add(&r->lsk, (t1 - t0) / count * 1e6);
    bench_add(&r->ref, (t2 - t1) / count * 1e6);
  }
  bench_progress(bn, "launch overhead", rounds, rounds);
  if (rc)
    cli_fail("bench", "launch overhead: %s", lsk_context_errmsg(bn->ctx));
  lsk_kernel_destroy(k);
  clReleaseKernel(raw);
  return rc;
}

/* ---------------------------------------------------------------- */
/* Build cost: a cold build, the same configuration again in the      */
/* same process, a cold build that also stores into lsk's disk cache, */
/* and a new process with and without that cache, each with the       */
/* driver's own kernel cache on and off.                              */

/* What one child reports. */
typedef struct build_report {
  double build, second, first_run; /* seconds */
  unsigned compiled, cache_loads, configurations;
} build_report;

#define BUILD_CHILD_FLAG "--internal-build-child"

/* The child: build the bench kernels with a nonce comment in front (a
 * source no cache has seen, unless this nonce's parent made it so), build
 * the same configuration again, run the triad once and check it, and print
 * one line for the parent. */
static int build_child(const char *nonce, unsigned domain)
{
  lsk_context *ctx;
  if (lsk_context_create(NULL, &ctx))
    return cli_fail("bench", "build child: %s", lsk_context_errmsg(NULL));
  char *src = malloc(strlen(cli_bench_source) + 128);
  lsk_program *prog = NULL;
  lsk_kernel *k = NULL;
  lsk_buffer *da = NULL, *db = NULL, *dc = NULL;
  size_t n = (size_t)domain * 4;
  double *h = malloc(3 * n * sizeof *h);
  int rc = !src || !h;
  if (rc) {
    cli_fail("bench", "build child: out of memory");
    goto child_out;
  }
  sprintf(src, "/* lsk bench build, nonce %s */\n%s", nonce, cli_bench_source);
  lsk_launch cfg = {.domain = {domain}, .blocks = {4}};
  build_report rep = {0};
  lsk_program_stats st;
  rc = lsk_program_create(ctx, src, &(lsk_program_options){.name = "bench_kernels.cl"}, &prog);
  double t0 = cli_now();
  rc = rc || lsk_program_build(prog, "triad", &cfg);
  double t1 = cli_now();
  rc = rc || lsk_program_build(prog, "triad", &cfg);
  double t2 = cli_now();
  rc = rc || lsk_program_stats_get(prog, &st);
  for (size_t i = 0; i < n && !rc; ++i) {
    h[n + i] = (double)i;
    h[2 * n + i] = 0.25 * (double)(i % 13);
  }
  rc = rc || lsk_buffer_create(ctx, n * sizeof *h, &da) ||
       lsk_buffer_create(ctx, n * sizeof *h, &db) || lsk_buffer_create(ctx, n * sizeof *h, &dc) ||
       lsk_buffer_write(db, 0, h + n, n * sizeof *h) ||
       lsk_buffer_write(dc, 0, h + 2 * n, n * sizeof *h) || lsk_kernel_create(prog, "triad", &k);
  double t3 = cli_now();
  rc = rc || lsk_kernel_run(k, &cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(da), LSK_ARG_BUFFER(db), LSK_ARG_BUFFER(dc),
                                     LSK_ARG_DOUBLE(3.0), LSK_ARG_UINT((unsigned)n)));
  double t4 = cli_now();
  rc = rc || lsk_buffer_read(da, 0, h, n * sizeof *h);
  if (rc) {
    cli_fail("bench", "build child: %s", lsk_context_errmsg(ctx));
    goto child_out;
  }
  for (size_t i = 0; i < n; ++i)
    if (h[i] != h[n + i] + 3.0 * h[2 * n + i]) {
      rc = cli_fail("bench", "build child: triad element %zu is wrong", i);
      goto child_out;
    }
  rep = (build_report){t1 - t0, t2 - t1, t4 - t3, st.compiled, st.cache_loads, st.configurations};
  printf("build %.9f %.9f %.9f %u %u %u\n", rep.build, rep.second, rep.first_run, rep.compiled,
         rep.cache_loads, rep.configurations);
child_out:
  lsk_buffer_destroy(da);
  lsk_buffer_destroy(db);
  lsk_buffer_destroy(dc);
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
  free(src);
  free(h);
  return rc ? 1 : 0;
}

extern char **environ;

/* Variables the child gets from the parent, not from the caller. */
static int child_owned(const char *entry)
{
  static const char *const names[] = {"LSK_CACHE_DIR=", "LSK_TUNE=", "POCL_KERNEL_CACHE=",
                                      "POCL_CACHE_DIR=", "CUDA_CACHE_DISABLE="};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (strncmp(entry, names[i], strlen(names[i])) == 0)
      return 1;
  return 0;
}

/* Runs this program as a build child and parses its line. */
static int run_build_child(const char *nonce, unsigned domain, const char *lsk_cache,
                           const char *driver_cache, int driver_cache_on, build_report *out)
{
  size_t n = 0;
  while (environ[n])
    ++n;
  char **envp = calloc(n + 6, sizeof *envp);
  char vars[5][1200];
  if (!envp)
    return cli_fail("bench", "out of memory");
  size_t m = 0;
  for (size_t i = 0; i < n; ++i)
    if (!child_owned(environ[i]))
      envp[m++] = environ[i];
  snprintf(vars[0], sizeof vars[0], "LSK_CACHE_DIR=%s", lsk_cache);
  snprintf(vars[1], sizeof vars[1], "LSK_TUNE=0");
  snprintf(vars[2], sizeof vars[2], "POCL_KERNEL_CACHE=%d", driver_cache_on);
  snprintf(vars[3], sizeof vars[3], "POCL_CACHE_DIR=%s", driver_cache);
  snprintf(vars[4], sizeof vars[4], "CUDA_CACHE_DISABLE=%d", !driver_cache_on);
  for (int i = 0; i < 5; ++i)
    envp[m++] = vars[i];
  envp[m] = NULL;
  char dom[16];
  snprintf(dom, sizeof dom, "%u", domain);
  char *argv[] = {"lsk", "bench", BUILD_CHILD_FLAG, (char *)nonce, dom, NULL};
  int fd[2];
  if (pipe(fd)) {
    free(envp);
    return cli_fail("bench", "pipe: %s", strerror(errno));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addclose(&fa, fd[1]);
  pid_t pid;
  fflush(stdout);
  int err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  free(envp);
  close(fd[1]);
  char line[256] = "";
  size_t got = 0;
  ssize_t r;
  while (!err && (r = read(fd[0], line + got, sizeof line - 1 - got)) != 0) {
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      break;
    got += (size_t)r;
    if (got == sizeof line - 1)
      break;
  }
  line[got] = 0;
  close(fd[0]);
  if (err)
    return cli_fail("bench", "cannot start a build child (/proc/self/exe): %s", strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("bench", "build child failed (status %d)", status);
  if (sscanf(line, "build %lf %lf %lf %u %u %u", &out->build, &out->second, &out->first_run,
             &out->compiled, &out->cache_loads, &out->configurations) != 6)
    return cli_fail("bench", "build child: unexpected output '%s'", line);
  return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* The rows of one driver-cache setting. */
typedef struct build_rows {
  result *same, *store, *disk, *nodisk;
} build_rows;

/* One round with the driver's cache on or off, four children: source A
 * built cold without lsk's disk cache (the reference), source B built cold
 * into an empty disk cache, B again in a new process (loaded from it), and
 * A again in a new process without it (only the driver's cache can help). */
static int build_round(bench *bn, const char *base, unsigned round, int driver_on,
                       const build_rows *rows)
{
  char nonce_a[64], nonce_b[64], lsk_dir[1100], drv_dir[1100];
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  snprintf(nonce_a, sizeof nonce_a, "%ld-%u-%d-%ld-a", (long)getpid(), round, driver_on,
           (long)ts.tv_nsec);
  snprintf(nonce_b, sizeof nonce_b, "%ld-%u-%d-%ld-b", (long)getpid(), round, driver_on,
           (long)ts.tv_nsec);
  snprintf(lsk_dir, sizeof lsk_dir, "%s/lsk-%u-%d", base, round, driver_on);
  snprintf(drv_dir, sizeof drv_dir, "%s/driver-%u-%d", base, round, driver_on);
  build_report cold, store, warm, fresh;
  if (run_build_child(nonce_a, bn->domain, "", drv_dir, driver_on, &cold) ||
      run_build_child(nonce_b, bn->domain, lsk_dir, drv_dir, driver_on, &store) ||
      run_build_child(nonce_b, bn->domain, lsk_dir, drv_dir, driver_on, &warm) ||
      run_build_child(nonce_a, bn->domain, "", drv_dir, driver_on, &fresh))
    return 1;
  /* What each child must have done for its time to mean what the table
   * says. A build is one configuration, or two where the automatic shape
   * exceeds the kernel's own work-group limit, known only once built (on a
   * GPU, registers can cap it): then every child builds or loads both. */
  unsigned c = cold.configurations;
  if (c < 1 || c > 2 || cold.compiled != c || cold.cache_loads != 0)
    return cli_fail("bench",
                    "cold build: %u compiled, %u loaded, %u configurations; wanted as many "
                    "compiled as configurations (1 or 2), none loaded",
                    cold.compiled, cold.cache_loads, c);
  if (store.compiled != c || store.cache_loads != 0)
    return cli_fail("bench", "cold build into the disk cache: %u compiled, %u loaded; wanted %u, 0",
                    store.compiled, store.cache_loads, c);
  if (warm.compiled != 0 || warm.cache_loads != c)
    return cli_fail("bench",
                    "new process with the disk cache compiled %u and loaded %u; wanted "
                    "%u loaded from the cache",
                    warm.compiled, warm.cache_loads, c);
  if (fresh.compiled != c || fresh.cache_loads != 0)
    return cli_fail("bench",
                    "new process without the disk cache: %u compiled, %u loaded; wanted %u, 0",
                    fresh.compiled, fresh.cache_loads, c);
  bench_add(&rows->same->lsk, cold.second);
  bench_add(&rows->store->lsk, store.build);
  bench_add(&rows->store->lsk_first, store.first_run);
  bench_add(&rows->disk->lsk, warm.build);
  bench_add(&rows->disk->lsk_first, warm.first_run);
  bench_add(&rows->nodisk->lsk, fresh.build);
  bench_add(&rows->nodisk->lsk_first, fresh.first_run);
  result *all[] = {rows->same, rows->store, rows->disk, rows->nodisk};
  for (int i = 0; i < 4; ++i) {
    bench_add(&all[i]->ref, cold.build);
    bench_add(&all[i]->ref_first, cold.first_run);
  }
  return 0;
}

static int case_build(bench *bn)
{
  if (access("/proc/self/exe", X_OK) != 0) {
    printf("build cost: skipped (no /proc/self/exe to start a new process with)\n");
    return 0;
  }
  const char *tmp = getenv("TMPDIR");
  char base[1024];
  snprintf(base, sizeof base, "%s/lsk-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(base))
    return cli_fail("bench", "mkdtemp %s: %s", base, strerror(errno));
  int is_pocl = strstr(lsk_context_device(bn->ctx)->platform_name, "Portable") != NULL;
  const char *drv = is_pocl ? "PoCL" : "driver";
  unsigned rounds = bn->quick ? 1 : (bn->repeat < 5 ? bn->repeat : 5);
  int rc = 0;
  for (int on = 1; on >= 0 && !rc; --on) {
    char what[64], tag[32], l[4][64];
    snprintf(tag, sizeof tag, "%s cache %s", drv, on ? "on" : "off");
    snprintf(what, sizeof what, "cold build, %s", tag);
    const char *state = on ? "on" : "off";
    snprintf(l[0], sizeof l[0], "build again vs cold (%s %s)", drv, state);
    snprintf(l[1], sizeof l[1], "cold + lsk store vs cold (%s %s)", drv, state);
    snprintf(l[2], sizeof l[2], "lsk cache vs cold (%s %s)", drv, state);
    snprintf(l[3], sizeof l[3], "no lsk cache vs cold (%s %s)", drv, state);
    build_rows rows = {
        bench_new_result(bn, KIND_BUILD, "build: same config again", what, l[0], "ms", 0),
        bench_new_result(bn, KIND_BUILD, "build: cold, into lsk cache", what, l[1], "ms", 0),
        bench_new_result(bn, KIND_BUILD, "build: new process, lsk cache", what, l[2], "ms", 0),
        bench_new_result(bn, KIND_BUILD, "build: new process, no lsk cache", what, l[3], "ms", 0)};
    if (!rows.same || !rows.store || !rows.disk || !rows.nodisk)
      rc = cli_fail("bench", "out of memory");
    for (unsigned r = 0; r < rounds && !rc; ++r) {
      snprintf(what, sizeof what, "build cost (%s)", tag);
      bench_progress(bn, what, r, rounds);
      rc = build_round(bn, base, r, on, &rows);
    }
    bench_progress(bn, what, rounds, rounds);
  }
  nftw(base, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  return rc;
}

/* ---------------------------------------------------------------- */

static void print_table(const bench *bn)
{
  printf("%-34s %-28s %11s %11s %9s %9s  %s\n", "case", "against", "lsk best", "ref best", "ratio",
         "median", "lsk rate");
  for (const result *r = bn->results; r; r = r->next) {
    if (!r->lsk.n)
      continue;
    double lb = bench_best(&r->lsk), rb = bench_best(&r->ref), lm = bench_median(&r->lsk),
           rm = bench_median(&r->ref);
    switch (r->kind) {
    case KIND_RATE:
      printf("%-34s %-28s %8.3f ms %8.3f ms %9.3f %9.3f  %.1f %s\n", r->name, r->ref_name, lb * 1e3,
             rb * 1e3, rb / lb, rm / lm, r->work / lb * 1e-9, r->unit);
      break;
    case KIND_LAUNCH:
      printf("%-34s %-28s %8.2f us %8.2f us %+9.2f %+9.2f  us more per launch\n", r->name,
             r->ref_name, lb, rb, lb - rb, lm - rm);
      break;
    case KIND_BUILD:
      printf("%-34s %-28s %8.3f ms %8.1f ms %9.4g %9.4g  ", r->name, r->ref_name, lb * 1e3,
             rb * 1e3, rb / lb, rm / lm);
      if (r->lsk_first.n)
        printf("first run %.1f ms (cold: %.1f ms)\n", bench_best(&r->lsk_first) * 1e3,
               bench_best(&r->ref_first) * 1e3);
      else
        printf("\n");
      break;
    }
  }
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void json_samples(FILE *f, const samples *s)
{
  fputc('[', f);
  for (unsigned i = 0; i < s->n; ++i)
    fprintf(f, "%s%.9g", i ? ", " : "", s->v[i]);
  fputc(']', f);
}

static const char *kind_name(kind k)
{
  return k == KIND_RATE ? "rate" : k == KIND_LAUNCH ? "launch" : "build";
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
  fprintf(f, "{\n  \"lsk_version\": ");
  json_string(f, lsk_version());
  fprintf(f, ",\n  \"date\": \"%s\",\n  \"device\": ", date);
  json_string(f, d->name);
  fprintf(f, ",\n  \"platform\": ");
  json_string(f, d->platform_name);
  fprintf(f, ",\n  \"platform_version\": ");
  json_string(f, d->platform_version);
  fprintf(f, ",\n  \"driver\": ");
  json_string(f, d->driver_version);
  fprintf(f, ",\n  \"elements_log2\": %u,\n  \"repeat\": %u,\n  \"domain\": %u,\n", bn->log2n,
          bn->repeat, bn->domain);
  fprintf(f, "  \"units\": {\"rate\": \"seconds\", \"launch\": \"microseconds per launch\", "
             "\"build\": \"seconds\"},\n  \"cases\": [");
  for (const result *r = bn->results; r; r = r->next) {
    fprintf(f, "%s\n    {\"case\": ", r == bn->results ? "" : ",");
    json_string(f, r->name);
    fprintf(f, ", \"against\": ");
    json_string(f, r->ref_name);
    fprintf(f, ", \"kind\": \"%s\", \"unit\": \"%s\", \"work\": %.0f,\n", kind_name(r->kind),
            r->unit, r->work);
    fprintf(f, "     \"lsk\": ");
    json_samples(f, &r->lsk);
    fprintf(f, ",\n     \"ref\": ");
    json_samples(f, &r->ref);
    if (r->kind == KIND_BUILD) {
      fprintf(f, ",\n     \"lsk_first_run\": ");
      json_samples(f, &r->lsk_first);
      fprintf(f, ",\n     \"ref_first_run\": ");
      json_samples(f, &r->ref_first);
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n  ]\n}\n");
  return fclose(f) ? cli_fail("bench", "error writing '%s'", path) : 0;
}

/* Is there an executable name in PATH? */
static int in_path(const char *name)
{
  const char *path = getenv("PATH");
  if (!path || !*path)
    return 0;
  char dir[4096];
  for (const char *p = path; *p;) {
    size_t len = strcspn(p, ":");
    snprintf(dir, sizeof dir, "%.*s/%s", (int)len, len ? p : ".", name);
    if (access(dir, X_OK) == 0)
      return 1;
    p += len;
    if (*p == ':')
      ++p;
  }
  return 0;
}

/* --plot FILE.png: a gnuplot script (FILE.gp, kept) with the speed ratio of
 * every row, best and median, on a log scale, and gnuplot run on it. */
static int write_plot(const bench *bn, const char *png)
{
  char script[4096];
  size_t len = strlen(png);
  if (len > 4 && strcmp(png + len - 4, ".png") == 0)
    len -= 4;
  snprintf(script, sizeof script, "%.*s.gp", (int)len, png);
  FILE *f = fopen(script, "w");
  if (!f)
    return cli_fail("bench", "cannot write '%s'", script);
  const lsk_device_info *d = lsk_context_device(bn->ctx);
  char date[32];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
  fprintf(f, "# written by lsk bench --plot; run: gnuplot %s\n", script);
  fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
             "  set terminal pngcairo size 1200,700 font ',10'\n"
             "} else {\n"
             "  set terminal png size 1200,700\n"
             "}\n");
  fprintf(f, "set output '");
  for (const char *p = png; *p; ++p)
    fprintf(f, *p == '\'' ? "''" : "%c", *p);
  fprintf(f, "'\n");
  fprintf(f, "set title \"lsk %s bench on ", lsk_version());
  for (const char *p = d->name; *p; ++p)
    if (*p != '"' && *p != '\\')
      fputc(*p, f);
  fprintf(f, " (driver ");
  for (const char *p = d->driver_version; *p; ++p)
    if (*p != '"' && *p != '\\')
      fputc(*p, f);
  fprintf(f, "), %s\\nspeed ratio: comparison time / lsk time (above 1: lsk faster)\"\n", date);
  fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
             "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset logscale y\n"
             "set grid ytics\nset key top left\nset xtics rotate by 30 right noenhanced\n"
             "set ylabel 'ratio (log scale)'\nset bmargin 10\nset lmargin 22\n");
  fprintf(f, "$data << EOD\n");
  for (const result *r = bn->results; r; r = r->next) {
    if (!r->lsk.n || !r->ref.n)
      continue;
    double rb = bench_best(&r->ref) / bench_best(&r->lsk),
           rm = bench_median(&r->ref) / bench_median(&r->lsk);
    fputc('"', f);
    for (const char *p = r->label; *p; ++p)
      if (*p != '"')
        fputc(*p, f);
    fprintf(f, "\" %.6g %.6g\n", rb, rm);
  }
  fprintf(f, "EOD\n");
  fprintf(f, "plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', "
             "1 with lines lc 'black' dt 2 notitle\n");
  if (fclose(f))
    return cli_fail("bench", "error writing '%s'", script);
  if (!in_path("gnuplot"))
    return cli_fail("bench",
                    "--plot needs gnuplot (apt-get install gnuplot-nox); the script is "
                    "in %s",
                    script);
  char *argv[] = {"gnuplot", script, NULL};
  pid_t pid;
  fflush(stdout);
  int err = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
  int status = 0;
  if (err)
    return cli_fail("bench", "cannot run gnuplot: %s", strerror(err));
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("bench", "gnuplot %s failed (status %d)", script, status);
  printf("plot: %s (script %s)\n", png, script);
  return 0;
}

/* Whether case name is in the comma-separated list only (NULL: all). */
static int want(const char *only, const char *name)
{
  if (!only)
    return 1;
  size_t len = strlen(name);
  for (const char *p = only; *p;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == len && strncmp(p, name, n) == 0)
      return 1;
    p += n + (end != NULL);
  }
  return 0;
}

static const char usage_text[] =
    "usage: lsk bench [--quick] [--sweep] [--size LOG2] [--repeat N] [--domain D]\n"
    "                 [--workers W] [--simd S] [--blocks B] [--json FILE] [--plot FILE.png]\n"
    "                 [--no-build] [--only CASE,...]\n"
    "cases: triad soa reduce scan boost compact assoc pool pixel launch build\n";

int cmd_bench(int argc, char **argv)
{
  bench bn = {.log2n = 25, .repeat = 15, .domain = 4096, .progress = 1};
  bn.tail = &bn.results;
  const char *json = NULL, *plot = NULL;
  int sweep = 0, no_build = 0;
  const char *only = NULL;
  /* A child of the build-cost case (see case_build). */
  if (argc == 4 && strcmp(argv[1], BUILD_CHILD_FLAG) == 0 && atoi(argv[3]) >= 1)
    return build_child(argv[2], (unsigned)atoi(argv[3]));
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    } else if (strcmp(a, "--quick") == 0)
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
    else if (strcmp(a, "--plot") == 0 && v)
      plot = argv[++i];
    else if (strcmp(a, "--no-build") == 0)
      no_build = 1;
    else if (strcmp(a, "--only") == 0 && v)
      only = argv[++i];
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
  /* The triad, SoA and reduce cases are in double, like the codes they
   * stand for: say so rather than fail in the compiler. */
  if (cli_need_fp64("bench", bn.ctx, "the bench's kernels use double"))
    return 1;
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
    rc = (want(only, "triad") && case_triad(&bn)) || (want(only, "soa") && bench_case_soa(&bn)) ||
         (want(only, "reduce") && bench_case_reduce(&bn)) ||
         (want(only, "scan") && bench_case_scan(&bn)) ||
         (want(only, "boost") && bench_case_boost(&bn)) ||
         (want(only, "compact") && bench_case_compact(&bn)) ||
         (want(only, "assoc") && bench_case_assoc(&bn)) ||
         (want(only, "pool") && bench_case_pool(&bn)) ||
         (want(only, "pixel") && bench_case_pixel(&bn)) ||
         (want(only, "launch") && case_launch(&bn)) ||
         (!no_build && want(only, "build") && case_build(&bn));
  if (!rc && !sweep)
    print_table(&bn);
  if (!rc && json)
    rc = write_json(&bn, json);
  if (!rc && plot && !sweep)
    rc = write_plot(&bn, plot);
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
