/*
 * bench/cases.c: the table of `lsk bench`'s cases, expanded from list.h,
 * and what goes through it: the case names of the usage and --help text,
 * the --only selection, and the run of the chosen cases. Also the run's
 * set-up and tear-down that every case shares: the context (profiling on),
 * the raw OpenCL kernels the triad and launch cases compare with, built
 * without lsk, and bench_kernels.cl through lsk.
 */
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"

#define BENCH_ENTRY(name, flags, help) {#name, bench_case_##name, flags, help},
const bench_case bench_cases[] = {BENCH_CASES(BENCH_ENTRY)};
#undef BENCH_ENTRY
const size_t bench_case_count = sizeof bench_cases / sizeof bench_cases[0];

static const char *raw_source =
    "__kernel void raw_triad(__global double *restrict a, __global const double *restrict b,\n"
    "                        __global const double *restrict c, double s, uint n)\n"
    "{\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n)\n"
    "    a[i] = b[i] + s * c[i];\n"
    "}\n"
    "__kernel void raw_triad_exact(__global double *restrict a, __global const double *restrict "
    "b,\n"
    "                              __global const double *restrict c, double s)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = b[i] + s * c[i];\n"
    "}\n"
    "__kernel void raw_empty(void) {}\n";

void bench_case_list(char *buf, size_t len, int help)
{
  size_t n = 0;
#define ADD(...)                                                                                   \
  do {                                                                                             \
    int w = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__);                                 \
    n = w < 0 ? n : n + (size_t)w < len ? n + (size_t)w : len;                                     \
  } while (0)
  ADD("cases:");
  for (size_t i = 0; i < bench_case_count; ++i)
    ADD(" %s", bench_cases[i].name);
  ADD("\n");
  for (size_t i = 0; help && i < bench_case_count; ++i)
    ADD("  %-8s %s%s\n", bench_cases[i].name, bench_cases[i].help,
        bench_cases[i].flags & BENCH_CASE_BUILD ? " (not with --no-build)" : "");
#undef ADD
}

/* Whether the n characters at name are a case's name. */
static int is_case(const char *name, size_t n)
{
  for (size_t i = 0; i < bench_case_count; ++i)
    if (strlen(bench_cases[i].name) == n && strncmp(bench_cases[i].name, name, n) == 0)
      return 1;
  return 0;
}

const char *bench_unknown_case(const char *only, size_t *len)
{
  for (const char *p = only; *p;) {
    size_t n = strcspn(p, ",");
    if (!is_case(p, n)) {
      *len = n;
      return p;
    }
    p += n + (p[n] == ',');
  }
  if (!*only) {
    *len = 0;
    return only;
  }
  return NULL;
}

/* Whether case name is in the comma-separated list only (NULL: all). */
static int listed(const char *only, const char *name)
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

/* Whether case name runs: named by only (NULL: all), not by skip. */
static int want(const char *only, const char *skip, const char *name)
{
  return listed(only, name) && !(skip && listed(skip, name));
}

int bench_open(bench *bn)
{
  /* One context for every case: with --trace it records them all. */
  lsk_context_options copt = {.profiling = 1, .trace = bn->trace != NULL};
  if (lsk_context_create(&copt, &bn->ctx))
    return cli_fail("bench", "%s", lsk_context_errmsg(NULL));
  const lsk_device_info *d = lsk_context_device(bn->ctx);
  printf("lsk %s bench on %s (%s, driver %s); 2^%u elements, best of %u after warm-up\n",
         lsk_version(), d->name, d->platform_name, d->driver_version, bn->log2n, bn->repeat);
#ifdef _OPENMP
  printf("C reference: OpenMP, %d threads\n", omp_get_max_threads());
#endif
  /* The triad, SoA and reduce cases are in double, like the codes they
   * stand for: say so rather than fail in the compiler. */
  if (cli_need_fp64("bench", bn->ctx, "the bench's kernels use double")) {
    bn->ctx = NULL; /* destroyed */
    return 1;
  }
  cl_int err;
  const char *src[1] = {raw_source};
  bn->raw = clCreateProgramWithSource(lsk_context_cl(bn->ctx), 1, src, NULL, &err);
  if (!err)
    err = clBuildProgram(bn->raw, 0, NULL, "-cl-std=CL1.2", NULL, NULL);
  if (err)
    return cli_fail("bench", "raw kernels: %s", lsk_status_name(err));
  if (lsk_program_create(bn->ctx, bench_kernels_source,
                         &(lsk_program_options){.name = "bench_kernels.cl"}, &bn->prog))
    return cli_fail("bench", "%s", lsk_context_errmsg(bn->ctx));
  return 0;
}

int bench_run(bench *bn, const char *only, const char *skip, int no_build)
{
  /* The limit first wherever a row will be read against it (--skip limit
   * too). */
  int limit = want(only, skip, "limit");
  for (size_t i = 0; i < bench_case_count; ++i)
    limit |= want(only, skip, bench_cases[i].name) && (bench_cases[i].flags & BENCH_CASE_BANDWIDTH);
  for (size_t i = 0; i < bench_case_count; ++i) {
    const bench_case *c = &bench_cases[i];
    int run = c->run == bench_case_limit ? limit : want(only, skip, c->name);
    if (run && !(no_build && (c->flags & BENCH_CASE_BUILD)) && c->run(bn))
      return 1;
  }
  return 0;
}

void bench_close(bench *bn)
{
  bench_free_results(bn);
  lsk_program_destroy(bn->prog);
  if (bn->raw)
    clReleaseProgram(bn->raw);
  lsk_context_destroy(bn->ctx);
  bn->prog = NULL;
  bn->raw = NULL;
  bn->ctx = NULL;
}
