/*
 * bench/stats.c: the numbers of `lsk bench`: samples and their statistics
 * (best and median; NaN where there is no sample, which the JSON writer
 * writes as null), the device time of a profiled event, the progress line
 * and the list of result rows the report writers read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_best(const samples *s)
{
  if (!s->n)
    return NAN;
  double b = s->v[0];
  for (unsigned i = 1; i < s->n; ++i)
    b = s->v[i] < b ? s->v[i] : b;
  return b;
}

double bench_median(const samples *s)
{
  if (!s->n)
    return NAN;
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

int bench_launch(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                 cl_event *ev)
{
  if (!ev)
    return lsk_kernel_launch(k, cfg, args, nargs, NULL);
  lsk_event *e = NULL;
  int rc = lsk_kernel_launch(k, cfg, args, nargs, &(lsk_async){.event = &e});
  *ev = rc ? NULL : lsk_event_cl(e);
  if (*ev)
    clRetainEvent(*ev);
  lsk_event_release(e);
  return rc;
}

/* The progress line on stderr, rewritten in place with \r: only where
 * stderr is a terminal (b->progress, set by cmd_bench), never into a file
 * or a pipe. */
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

void bench_limit_offer(bench *b, double work, const samples *s, const char *from)
{
  double best = work / bench_best(s), median = work / bench_median(s);
  if (s->n && best > b->limit_best) {
    b->limit_best = best;
    b->limit_from = from;
  }
  if (s->n && median > b->limit_median)
    b->limit_median = median;
}

result *bench_bandwidth(result *r)
{
  if (r)
    r->bandwidth = 1;
  return r;
}

void bench_free_results(bench *b)
{
  for (result *r = b->results, *next; r; r = next) {
    next = r->next;
    free(r);
  }
  b->results = NULL;
  b->tail = &b->results;
}

/* The median over rounds of ref[i] / lsk[i]. */
double bench_paired(const samples *ref, const samples *lsk)
{
  samples q = {.n = 0};
  for (unsigned i = 0; i < ref->n && i < lsk->n; ++i)
    bench_add(&q, ref->v[i] / lsk->v[i]);
  return bench_median(&q);
}
