/*
 * bench.h: what the cases of `lsk bench` share (cmd_bench.c, bench_soa.c):
 * samples and results, timing, and the triad's data and raw kernel.
 */
#ifndef LSK_BENCH_H
#define LSK_BENCH_H

#include "cli.h"

#define MAX_REPEAT 64

typedef struct samples {
  double v[MAX_REPEAT];
  unsigned n;
} samples;

/* How a row reads: a rate (device time, bytes moved), a per-launch host
 * cost, or a build time with the first run after it. */
typedef enum kind { KIND_RATE, KIND_LAUNCH, KIND_BUILD } kind;

typedef struct result {
  kind kind;
  char name[64], ref_name[64];
  char label[64]; /* short, for the plot */
  const char *unit;
  double work; /* bytes or items per run, for the rate */
  samples lsk, ref;
  samples lsk_first, ref_first; /* KIND_BUILD: the first run after the build */
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

typedef struct triad {
  size_t n;
  double *a, *b, *c;
  lsk_buffer *da, *db, *dc;
  lsk_kernel *k;
  cl_kernel raw;
} triad;

/* Timing and results. */
void bench_add(samples *s, double v);
double bench_best(const samples *s);
double bench_median(const samples *s);
double bench_event_time(cl_event e); /* device seconds; releases e */
void bench_progress(bench *b, const char *what, unsigned i, unsigned n);
result *bench_new_result(bench *b, kind kind, const char *name, const char *ref_name,
                         const char *label, const char *unit, double work);

/* The triad a = b + 3c over 2^log2n doubles: host arrays, device buffers,
 * the raw OpenCL kernel (one element per work-item, local size left to the
 * runtime). check compares a with the C result and zeroes it. */
int bench_triad_setup(bench *bn, triad *t);
void bench_triad_teardown(triad *t);
int bench_triad_check(bench *bn, triad *t, const char *who);
int bench_triad_raw(bench *bn, triad *t, cl_event *ev);
lsk_launch bench_triad_launch(const bench *bn, size_t n, unsigned domain, unsigned w, unsigned s);

/* bench_soa.c: the triad through generated SoA views, and through an array
 * of structs, against the raw triad. */
int bench_case_soa(bench *bn);
/* bench_compact.c: compaction of 2^log2n uints, half selected, against C. */
int bench_case_compact(bench *bn);

/* bench_algo.c: the kernel library's reduce and scan. */
int bench_case_reduce(bench *bn);
int bench_case_scan(bench *bn);

/* bench_peer.c: lsk's float reduce and scan against Boost.Compute's, run
 * by the optional lsk-peer-boost next to this program (skipped without). */
int bench_case_boost(bench *bn);

/* bench_pool.c: pool allocation and the binning step against plain C. */
int bench_case_pool(bench *bn);

/* bench_assoc.c: lsk_assoc_build against a single-threaded C count-then-fill. */
int bench_case_assoc(bench *bn);

/* bench_pixel.c: the pixel clustering pipeline against its C reference. */
int bench_case_pixel(bench *bn);

#endif /* LSK_BENCH_H */
