/*
 * bench/bench.h: what the parts of `lsk bench` share: samples and results
 * (stats.c), the run's state, the case table (list.h, cases.c), the
 * triad's data and raw kernel (triad.c), the report writers (report.c)
 * and the build case's child processes (child.c). bench_main.c, the
 * entry, parses the arguments and runs the table. The cases that run the
 * examples include it from their folders (examples/<x>/bench_<x>.c); the
 * bench's own files include no example's header.
 */
#ifndef LSK_BENCH_H
#define LSK_BENCH_H

#include <stdio.h>

#include "cli.h"
#include "list.h"
#include "triad.h"

#define MAX_REPEAT 64

typedef struct samples {
  double v[MAX_REPEAT];
  unsigned n;
} samples;

/* How a row reads: a rate (device time, bytes moved), a per-launch host
 * cost, a build time with the first run after it, or one contender of the
 * limit (limit.c: lsk holds its samples, ref none). */
typedef enum kind { KIND_RATE, KIND_LAUNCH, KIND_BUILD, KIND_LIMIT } kind;

typedef struct result {
  kind kind;
  char name[64], ref_name[64];
  char label[64]; /* short, for the plot */
  const char *unit;
  double work; /* bytes or items per run, for the rate */
  samples lsk, ref;
  samples lsk_first, ref_first; /* KIND_BUILD: the first run after the build */
  /* A bandwidth-bound row (work in bytes): the report gives its rates also
   * as fractions of the limit (bench_bandwidth). */
  int bandwidth;
  struct result *next;
} result;

typedef struct bench {
  lsk_context *ctx;
  lsk_program *prog; /* bench_kernels.cl through lsk */
  cl_program raw;    /* the raw OpenCL triad and empty kernel (cases.c) */
  unsigned log2n, repeat, domain, workers, simd;
  size_t blocks;
  int quick, progress;
  /* --trace FILE: the context records every lsk command (trace.h) and the
   * timeline goes to trace at the end; NULL (the default): nothing is
   * recorded and the timings are as without the option. */
  const char *trace;
  result *results, **tail;
  /* The limit case's (limit.c): the best triad rate of the run, bytes per
   * second, of the best times and of the medians, and whose the best is;
   * 0 and NULL before it ran. */
  double limit_best, limit_median;
  const char *limit_from;
} bench;

/* stats.c: samples, their statistics (NaN where there are no samples),
 * timing, progress and the list of results. */
void bench_add(samples *s, double v);
double bench_best(const samples *s);
double bench_median(const samples *s);
double bench_event_time(cl_event e); /* device seconds; releases e */
/* lsk_kernel_launch on the default queue with its OpenCL event in *ev (a
 * reference of the caller's), so that lsk's launches and raw OpenCL ones
 * are timed alike by bench_event_time (ev NULL: no event). */
int bench_launch(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                 cl_event *ev);
/* The median over rounds of ref[i] / lsk[i]: the two sides of a round run
 * back to back, so the load of other processes moves it less than the
 * best or median times. */
double bench_paired(const samples *ref, const samples *lsk);
void bench_progress(bench *b, const char *what, unsigned i, unsigned n);
result *bench_new_result(bench *b, kind kind, const char *name, const char *ref_name,
                         const char *label, const char *unit, double work);
void bench_free_results(bench *b);
/* The limit takes samples of a triad on arrays that do not alias, timed in
 * another case (work bytes per run), where they beat it: the limit is the
 * best such triad of the whole run. */
void bench_limit_offer(bench *b, double work, const samples *s, const char *from);
/* Marks a rate row bandwidth-bound (r may be NULL); returns r. */
result *bench_bandwidth(result *r);

/* cases.c: the table expanded from list.h. The limit case (limit.c) runs
 * first whenever a bandwidth-bound case runs (BENCH_CASE_BANDWIDTH). */
#define BENCH_CASE_BUILD 1     /* a case that --no-build leaves out */
#define BENCH_CASE_BANDWIDTH 2 /* a case read against the limit */
typedef struct bench_case {
  const char *name;
  int (*run)(bench *bn); /* 0 on success; 1 after a message */
  int flags;
  const char *help;
} bench_case;
extern const bench_case bench_cases[];
extern const size_t bench_case_count;
#define BENCH_DECLARE(name, flags, help) int bench_case_##name(bench *bn);
BENCH_CASES(BENCH_DECLARE)
#undef BENCH_DECLARE
/* The pool case's row that runs the pic example (examples/pic/bench_pic.c). */
int bench_pic_step(bench *bn);

/* Into buf (len bytes, always terminated where len > 0): the usage text's
 * line "cases: " and the names, space-separated; with help, then one line
 * per case with its help text. */
void bench_case_list(char *buf, size_t len, int help);
/* The first name of the comma-separated list only that is not a case, as
 * a pointer into only and its length in *len; NULL when all are cases. */
const char *bench_unknown_case(const char *only, size_t *len);
/* Opens the device (profiling on, and the trace with --trace; double
 * precision needed) and builds the raw and lsk bench kernels; prints the
 * heading. */
int bench_open(bench *bn);
/* Runs the cases that only names (NULL: all) and skip does not (NULL:
 * none), less the BENCH_CASE_BUILD ones with no_build, in table order,
 * until one fails; returns its 1. */
int bench_run(bench *bn, const char *only, const char *skip, int no_build);
void bench_close(bench *bn);

/* triad.c: the triad fixture (triad.h), with the bench's parts: lsk's
 * kernel and the raw OpenCL ones (bench_triad_setup), the raw launch, the
 * launch of a shape. */
int bench_triad_setup(bench *bn, triad *t);
int bench_triad_raw(bench *bn, triad *t, cl_event *ev);
/* The same without the guard on a grid of exactly n (n is a power of two). */
int bench_triad_exact(bench *bn, triad *t, cl_event *ev);
lsk_launch bench_triad_launch(const bench *bn, size_t n, unsigned domain, unsigned w, unsigned s);
/* --sweep: the triad over a grid of shapes, its own table on stdout. */
int bench_sweep(bench *bn);

/* report.c: the table on stdout (then the fractions of the limit), --json
 * FILE, --plot FILE.png. */
void bench_print_table(const bench *bn);
/* The bandwidth rows' rates as fractions of the limit (nothing where the
 * limit did not run or no such row did). */
void bench_print_fractions(const bench *bn);
int bench_write_json(const bench *bn, const char *path);
int bench_write_plot(const bench *bn, const char *png);

/* child.c: the build case's children. The parent runs this program again
 * as `lsk bench BENCH_BUILD_CHILD_FLAG NONCE DOMAIN` with the given caches;
 * the child (bench_build_child) builds the bench kernels, runs the triad
 * once and reports on one line, which the parent parses into the report. */
#define BENCH_BUILD_CHILD_FLAG "--internal-build-child"
typedef struct build_report {
  double build, second, first_run; /* seconds */
  unsigned compiled, cache_loads, configurations;
} build_report;
int bench_build_child(const char *nonce, unsigned domain);
int bench_run_build_child(const char *nonce, unsigned domain, const char *lsk_cache,
                          const char *driver_cache, int driver_cache_on, build_report *out);

#endif /* LSK_BENCH_H */
