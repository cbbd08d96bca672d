/*
 * tune.c: lsk_tune (measure candidate shapes, verify, pick the fastest,
 * keep the choice in the kernel and store it: tune_file.c) and
 * lsk_tune_stored.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch/tune.h"

#define TUNE_MAX_REPEAT 1000

/* One distinct buffer among the arguments: its snapshot and the result of
 * the rule's shape (NULL: the same bytes as the snapshot). */
typedef struct snap {
  lsk_buffer *buf;
  unsigned char *before, *after;
} snap;

typedef struct tuner {
  lsk_kernel *k;
  lsk_context *ctx;
  lsk_launch cfg;
  const lsk_arg *args;
  size_t nargs;
  snap *snaps;
  size_t nsnaps;
  unsigned char *scratch;
  int profiling;
  lsk_async on; /* the caller's queue, for every command */
} tuner;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int restore(tuner *t)
{
  for (size_t i = 0; i < t->nsnaps; ++i) {
    int rc = lsk_buffer_write(t->snaps[i].buf, 0, t->snaps[i].before,
                              lsk__buffer_size(t->snaps[i].buf), &t->on);
    if (rc)
      return rc;
  }
  return LSK_OK;
}

/* Takes the snapshot of every distinct buffer argument. */
static int take_snapshot(tuner *t)
{
  size_t biggest = 0;
  if (!(t->snaps = calloc(t->nargs ? t->nargs : 1, sizeof *t->snaps)))
    return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
  for (size_t i = 0; i < t->nargs; ++i) {
    if (t->args[i].kind != LSK_ARG_KIND_BUFFER || !t->args[i].v.buffer)
      continue;
    lsk_buffer *b = t->args[i].v.buffer;
    int live = lsk__handle_check(t->ctx, b, &LSK__H_BUFFER, "lsk_tune", "buffer argument");
    if (live)
      return live;
    if (lsk__buffer_context(b) != t->ctx)
      return lsk__fail(t->ctx, LSK_EINVAL, "lsk_tune: argument %zu: buffer of another context", i);
    size_t j = 0;
    while (j < t->nsnaps && t->snaps[j].buf != b)
      ++j;
    if (j < t->nsnaps)
      continue;
    snap *sn = &t->snaps[t->nsnaps++];
    sn->buf = b;
    if (!(sn->before = malloc(lsk__buffer_size(b))))
      return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory for a %zu-byte snapshot",
                       lsk__buffer_size(b));
    int rc = lsk_buffer_read(b, 0, sn->before, lsk__buffer_size(b), &t->on);
    if (rc)
      return rc;
    biggest = lsk__buffer_size(b) > biggest ? lsk__buffer_size(b) : biggest;
  }
  if (biggest && !(t->scratch = malloc(biggest)))
    return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
  return LSK_OK;
}

static void free_snapshot(tuner *t)
{
  for (size_t i = 0; i < t->nsnaps; ++i) {
    free(t->snaps[i].before);
    free(t->snaps[i].after);
  }
  free(t->snaps);
  free(t->scratch);
}

/* Reads every buffer back. With first, keeps the results as the reference;
 * otherwise *same says whether they equal it. */
static int compare(tuner *t, int first, int *same)
{
  *same = 1;
  for (size_t i = 0; i < t->nsnaps; ++i) {
    snap *sn = &t->snaps[i];
    size_t size = lsk__buffer_size(sn->buf);
    int rc = lsk_buffer_read(sn->buf, 0, t->scratch, size, &t->on);
    if (rc)
      return rc;
    const unsigned char *ref = sn->after ? sn->after : sn->before;
    if (first && memcmp(t->scratch, sn->before, size) != 0) {
      if (!(sn->after = malloc(size)))
        return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
      memcpy(sn->after, t->scratch, size);
    } else if (!first && memcmp(t->scratch, ref, size) != 0) {
      *same = 0;
    }
  }
  return LSK_OK;
}

/* One timed run of a shape, in seconds. */
static int timed_run(tuner *t, unsigned w, unsigned s, double *secs)
{
  lsk_launch c = t->cfg;
  c.workers = w;
  c.simd = s;
  if (t->profiling) {
    lsk_event *ev = NULL;
    lsk_event_times tm = {0};
    lsk_async on = t->on;
    on.event = &ev;
    int rc = lsk_kernel_launch(t->k, &c, t->args, t->nargs, &on);
    if (!rc)
      rc = lsk_event_times_get(ev, &tm);
    lsk_event_release(ev);
    *secs = 1e-9 * (double)(tm.end - tm.start);
    return rc;
  }
  double t0 = now();
  int rc = lsk_kernel_launch(t->k, &c, t->args, t->nargs, &t->on);
  if (!rc) {
    cl_int err = lsk__queue_wait(t->on.queue);
    if (err)
      rc = lsk__fail_cl(t->ctx, err, "clFinish", " (lsk_tune)");
  }
  *secs = now() - t0;
  return rc;
}

void lsk_tune_result_free(lsk_tune_result *r)
{
  if (!r)
    return;
  free(r->entries);
  free(r->path);
  memset(r, 0, sizeof *r);
}

/* The candidates: the rule's shape first, then the given or default ones,
 * each once. */
static int make_entries(tuner *t, const lsk_tune_options *opt, const unsigned dom[3], unsigned rw,
                        unsigned rs, size_t wg_max, lsk_tune_result *out)
{
  size_t size = (size_t)dom[0] * dom[1] * dom[2];
  const lsk_tune_shape *cand = opt ? opt->candidates : NULL;
  size_t ncand = cand ? opt->ncandidates : 0;
  lsk_tune_shape *def = NULL;
  if (!cand) {
    ncand = lsk_tune_candidates(lsk__context_info(t->ctx), size, wg_max, NULL, 0);
    if (!(def = calloc(ncand ? ncand : 1, sizeof *def)))
      return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
    lsk_tune_candidates(lsk__context_info(t->ctx), size, wg_max, def, ncand);
    cand = def;
  }
  out->entries = calloc(ncand + 1, sizeof *out->entries);
  if (!out->entries) {
    free(def);
    return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
  }
  out->entries[0] = (lsk_tune_entry){.workers = rw, .simd = rs, .identical = 1};
  size_t n = 1;
  for (size_t i = 0; i < ncand; ++i) {
    int seen = !cand[i].workers || !cand[i].simd;
    for (size_t j = 0; j < n && !seen; ++j)
      seen = out->entries[j].workers == cand[i].workers && out->entries[j].simd == cand[i].simd;
    if (!seen)
      out->entries[n++] = (lsk_tune_entry){.workers = cand[i].workers, .simd = cand[i].simd};
  }
  out->nentries = n;
  free(def);
  return LSK_OK;
}

/* Timed rounds over the entries that verified, the order rotated each
 * round; fills best and median. */
static int time_rounds(tuner *t, lsk_tune_result *out, unsigned repeat, int no_restore)
{
  size_t n = out->nentries;
  double *v = malloc(n * repeat * sizeof *v);
  unsigned *count = calloc(n, sizeof *count);
  int rc = (!v || !count) ? lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory") : LSK_OK;
  for (unsigned r = 0; r < repeat && !rc; ++r)
    for (size_t j = 0; j < n && !rc; ++j) {
      size_t i = (r + j) % n;
      lsk_tune_entry *e = &out->entries[i];
      if (e->status || !e->identical)
        continue;
      if (!no_restore && (rc = restore(t)))
        break;
      rc = timed_run(t, e->workers, e->simd, &v[i * repeat + count[i]]);
      if (!rc)
        count[i]++;
    }
  if (!rc)
    rc = lsk_queue_finish(t->on.queue);
  for (size_t i = 0; i < n && !rc; ++i) {
    if (!count[i])
      continue;
    double *s = &v[i * repeat];
    qsort(s, count[i], sizeof *s, cmp_double);
    out->entries[i].best = s[0];
    out->entries[i].median =
        count[i] % 2 ? s[count[i] / 2] : 0.5 * (s[count[i] / 2 - 1] + s[count[i] / 2]);
  }
  free(v);
  free(count);
  return rc;
}

/* The queue of on for t, its wait list held by a marker there (which
 * holds every later command of the in-order queue). */
static int tune_queue(tuner *t, const lsk_async *on, lsk__on *o)
{
  int rc = lsk__on_resolve(t->ctx, on, "lsk_tune", o);
  if (!rc && o->nwait)
    rc = lsk__on_marker(t->ctx, o, NULL, "lsk_tune");
  t->on = (lsk_async){.queue = o->q};
  return rc;
}

/* *on->event if asked: a marker after the tuning's last command, waited
 * for, since lsk_tune blocks (a marker after finished work is not
 * complete at once on every runtime: rusticl reports it submitted). */
static int tune_event(tuner *t, lsk__on *o)
{
  if (!o->event)
    return LSK_OK;
  cl_event ev = NULL;
  int rc = lsk__on_marker(t->ctx, o, &ev, "lsk_tune");
  if (!rc)
    rc = lsk__on_done(t->ctx, o, ev, "marker", "lsk_tune");
  return rc ? rc : lsk_event_wait(*o->event);
}

int lsk_tune(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
             const lsk_tune_options *opt, lsk_tune_result *out, const lsk_async *on)
{
  LSK__API();
  if (on && on->event)
    *on->event = NULL;
  if (out)
    memset(out, 0, sizeof *out);
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  lsk_context *ctx = lsk__kernel_context(k);
  if (!cfg || !out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s is NULL", __func__, !cfg ? "cfg" : "out");
  if (nargs && !args)
    return lsk__fail(ctx, LSK_EINVAL, "%s: args is NULL", __func__);
  LSK__ARGS_PLAIN(ctx, args, nargs, __func__); /* LSK_ARG_BUFFERS, LSK_ARG_SOA made plain */
  if (opt && opt->candidates == NULL && opt->ncandidates)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %zu candidates but candidates is NULL", __func__,
                     opt->ncandidates);
  unsigned repeat = opt && opt->repeat ? opt->repeat : 5;
  if (repeat > TUNE_MAX_REPEAT)
    return lsk__fail(ctx, LSK_EINVAL, "%s: repeat %u is above %u", __func__, repeat,
                     TUNE_MAX_REPEAT);
  lsk__tune_view v;
  int rc = lsk__kernel_tune_view(k, cfg, 1, __func__, &v);
  if (rc)
    return rc;
  const unsigned *dom = v.domain;
  unsigned rw = v.rule_workers, rs = v.rule_simd;
  tuner t = {.k = k, .ctx = ctx, .cfg = *cfg, .args = args, .nargs = nargs};
  lsk__on o;
  if ((rc = tune_queue(&t, on, &o)) != LSK_OK)
    return rc;
  cl_command_queue_properties qp = 0;
  t.profiling = clGetCommandQueueInfo(lsk__queue_cl(o.q), CL_QUEUE_PROPERTIES, sizeof qp, &qp,
                                      NULL) == CL_SUCCESS &&
                (qp & CL_QUEUE_PROFILING_ENABLE);
  memcpy(out->domain, dom, sizeof out->domain);
  out->rule_workers = rw;
  out->rule_simd = rs;
  if ((rc = make_entries(&t, opt, dom, rw, rs, v.wg_max, out)) || (rc = take_snapshot(&t)))
    goto tune_out;

  /* Each candidate once from the snapshot: builds it, warms it up, and its
   * result is compared with the rule's. */
  for (size_t i = 0; i < out->nentries; ++i) {
    lsk_tune_entry *e = &out->entries[i];
    lsk_launch c = *cfg;
    c.workers = e->workers;
    c.simd = e->simd;
    if ((rc = restore(&t)))
      goto tune_out;
    e->status = lsk_kernel_run(k, &c, args, nargs, &t.on);
    if (e->status && i == 0) {
      rc = e->status;
      goto tune_out;
    }
    if (!e->status && (rc = compare(&t, i == 0, &e->identical)))
      goto tune_out;
  }
  if ((rc = time_rounds(&t, out, repeat, opt && opt->no_restore)))
    goto tune_out;

  size_t pick = 0;
  for (size_t i = 1; i < out->nentries; ++i) {
    const lsk_tune_entry *e = &out->entries[i];
    if (!e->status && e->identical && e->best < out->entries[pick].best)
      pick = i;
  }
  out->workers = out->entries[pick].workers;
  out->simd = out->entries[pick].simd;
  out->best = out->entries[pick].best;
  out->rule_best = out->entries[0].best;
  lsk__kernel_keep_choice(k, dom, out->workers, out->simd);
  if (lsk__context_tune_dir(ctx) && !(opt && opt->no_store)) {
    out->path = lsk__tune_store(v.prog, lsk__context_tune_dir(ctx), v.name, dom, out);
    out->stored = out->path != NULL;
  }
  rc = tune_event(&t, &o);
tune_out:
  free_snapshot(&t);
  if (rc)
    lsk_tune_result_free(out);
  return rc;
}

int lsk_tune_stored(lsk_kernel *k, const lsk_launch *cfg, int *found, unsigned *workers,
                    unsigned *simd)
{
  LSK__API();
  if (found)
    *found = 0;
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  if (!cfg || !found || !workers || !simd)
    return lsk__fail(lsk__kernel_context(k), LSK_EINVAL, "%s: %s is NULL", __func__,
                     !cfg       ? "cfg"
                     : !found   ? "found"
                     : !workers ? "workers"
                                : "simd");
  lsk_launch c = *cfg;
  c.workers = c.simd = 0;
  lsk__tune_view v;
  int rc = lsk__kernel_tune_view(k, &c, 0, __func__, &v);
  if (!rc)
    rc = lsk_kernel_shape(k, &c, workers, simd);
  if (rc)
    return rc;
  *found = v.stored && v.stored_workers == *workers && v.stored_simd == *simd;
  return LSK_OK;
}

const char *lsk_tune_dir(const lsk_context *ctx)
{
  LSK__LIVE_OR(NULL, ctx, CONTEXT, __func__, "ctx");
  return lsk__context_tune_dir(ctx);
}
