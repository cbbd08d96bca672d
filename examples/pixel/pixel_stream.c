/*
 * pixel_stream.c: a set of pixel events as batches over several queues
 * (examples/pixel/pixel.h, lsk_pixel_stream), on lsk's public API alone.
 *
 * Each stream is a queue, an lsk_pixel on it and a thread (stream 0 runs
 * in the caller's): batch b goes to stream b mod streams. Over a group of
 * devices (lsk/group.h) each member has streams of its own on its
 * context, the batches are split over the members by weights
 * (lsk_group_split: member i takes a run of consecutive batches) and the
 * member's streams take its batches in turn. A thread drives
 * only its own lsk_pixel and queue, so the streams share nothing of the
 * example's; what they share of lsk's is thread-safe on one context
 * (docs/threads.md): launches bind and enqueue under the context's lock,
 * the kernel library finds its kernels under its own lock and takes its
 * temporaries from the buffer cache on the caller's queue (under the
 * cache's lock), transfers and waits are OpenCL's thread-safe calls, and
 * each thread has its own error message. The device's verify record is
 * kept per queue: a stream's lsk_queue_finish reports its own kernels'.
 *
 * Results: each batch is read back on its stream into a result of its own
 * (kept from run to run), then gathered into the caller's in batch order:
 * whichever thread finishes the next batch in order appends it, and the
 * batches after it that are already done, while the others go on. The
 * gathering turns batch indices into the whole set's (module + the
 * batch's first module, cluster + clusters before, hit + hits before),
 * which makes the result independent of streams and batch size.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pixel_internal.h"

struct lsk_pixel_stream {
  lsk_handle h;     /* first: lsk checks the handle on every call (lsk/handle.h) */
  lsk_context *ctx; /* the messages' (a group's member 0) */
  unsigned n;
  uint32_t batch;
  lsk_queue *q[LSK_PIXEL_MAX_STREAMS];
  lsk_pixel *px[LSK_PIXEL_MAX_STREAMS];
  lsk_context *qctx[LSK_PIXEL_MAX_STREAMS]; /* each stream's context */
  /* A group's: its members (stream k on member k / per) and their
   * weights; without a group one member, g NULL, per = n. */
  lsk_group *g;
  unsigned members, per;
  double weights[LSK_PIXEL_MAX_STREAMS];
  /* The last run: each member's first batch (bfirst[members]: all), and
   * what each stream did. */
  size_t bfirst[LSK_PIXEL_MAX_STREAMS + 1];
  size_t sbatches[LSK_PIXEL_MAX_STREAMS];
  uint64_t sevents[LSK_PIXEL_MAX_STREAMS];
  double sseconds[LSK_PIXEL_MAX_STREAMS];
  /* The batches of the current run: views of the set's events with their
   * own start (rebased to 0, in starts), and their results; cap_nb kept. */
  size_t nb, cap_nb;
  lsk_pixel_events *bev;
  lsk_pixel_result **bres;
  unsigned char *done;
  uint32_t *starts;
  size_t cap_starts;
  /* The run's gathering, under lock: the next batch to append, whether a
   * thread is appending, the clusters and hits appended so far; and stop,
   * set by a failure. */
  pthread_mutex_t lock;
  lsk_pixel_result *r;
  size_t next, clusters, hits;
  int merging, stop;
};
static const lsk_handle_type stream_type = {"lsk_pixel_stream", &lsk_context_handle_type, 0};
_Static_assert(offsetof(lsk_pixel_stream, h) == 0, "the handle header comes first");

void lsk_pixel_stream_destroy(lsk_pixel_stream *s)
{
  if (!s || lsk_handle_remove(s, &stream_type, "lsk_pixel_stream_destroy"))
    return;
  for (unsigned k = 0; k < s->n; ++k) {
    lsk_pixel_destroy(s->px[k]);
    if (s->q[k])
      lsk_queue_finish(s->q[k]);
    lsk_queue_destroy(s->q[k]);
  }
  for (size_t b = 0; b < s->cap_nb; ++b)
    lsk_pixel_result_destroy(s->bres[b]);
  free(s->bres);
  free(s->bev);
  free(s->done);
  free(s->starts);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

/* The streams on ctx (a group's member 0 where g is set: members members
 * of per streams each), checked options o; messages on ctx. */
static int make(const char *fn, lsk_context *ctx, lsk_group *g, unsigned members,
                const lsk_pixel_stream_options *o, const double *weights, lsk_pixel_stream **out)
{
  lsk_pixel_stream *s = calloc(1, sizeof *s);
  if (!s)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if (pthread_mutex_init(&s->lock, NULL)) {
    free(s);
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: no mutex", fn);
  }
  int rc = lsk_handle_add(s, &stream_type, ctx);
  if (rc != LSK_OK) {
    pthread_mutex_destroy(&s->lock);
    free(s);
    return lsk_context_set_error(ctx, rc, "%s: %s", fn, lsk_context_errmsg(NULL));
  }
  s->ctx = ctx;
  s->g = g;
  s->members = members;
  s->per = o->streams ? o->streams : 1;
  s->n = members * s->per;
  s->batch = o->batch_events ? o->batch_events : LSK_PIXEL_BATCH_EVENTS;
  for (unsigned m = 0; m < members; ++m)
    s->weights[m] = weights ? weights[m] : 1;
  for (unsigned k = 0; k < s->n && !rc; ++k) {
    lsk_context *qc = g ? lsk_group_context(g, k / s->per) : ctx;
    s->qctx[k] = qc;
    char name[32];
    snprintf(name, sizeof name, "stream %u", k);
    lsk_queue_options qo = {.name = name};
    rc = lsk_queue_create(qc, &qo, &s->q[k]);
    lsk_pixel_options po = o->pixel;
    po.queue = s->q[k];
    if (!rc)
      rc = lsk_pixel_create(qc, &po, &s->px[k]);
    if (rc && g) /* the member's message, on ctx */
      lsk_context_set_error(ctx, rc, "%s: stream %u on member %u (%s): %s", fn, k, k / s->per,
                            lsk_context_device(qc)->name, lsk_context_errmsg(qc));
  }
  if (rc) {
    /* The message of the failure, not of the clean-up. */
    char msg[512];
    snprintf(msg, sizeof msg, "%s", lsk_context_errmsg(ctx));
    lsk_pixel_stream_destroy(s);
    return lsk_context_set_error(ctx, rc, "%s", msg);
  }
  *out = s;
  return LSK_OK;
}

/* The options every stream set takes. */
static int check_options(lsk_context *ctx, const lsk_pixel_stream_options *o, unsigned members,
                         const char *fn)
{
  if (o->streams > LSK_PIXEL_MAX_STREAMS / members)
    return lsk_context_set_error(
        ctx, LSK_EINVAL, "%s: %u streams on each of %u device%s; at most %u in all", fn, o->streams,
        members, members == 1 ? "" : "s", LSK_PIXEL_MAX_STREAMS);
  if (o->batch_events > LSK_PIXEL_MAX_EVENTS)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: batches of %u events; at most %u", fn,
                                 o->batch_events, LSK_PIXEL_MAX_EVENTS);
  if (o->pixel.queue)
    return lsk_context_set_error(ctx, LSK_EINVAL,
                                 "%s: opt->pixel.queue is set; each stream has its own queue", fn);
  return LSK_OK;
}

int lsk_pixel_stream_create(lsk_context *ctx, const lsk_pixel_stream_options *opt,
                            lsk_pixel_stream **out)
{
  static const char fn[] = "lsk_pixel_stream_create";
  if (!out)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  int rc = lsk_handle_check(NULL, ctx, &lsk_context_handle_type, fn, "ctx");
  if (rc)
    return rc;
  lsk_pixel_stream_options o = opt ? *opt : (lsk_pixel_stream_options){0};
  if (o.streams > LSK_PIXEL_MAX_STREAMS)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: %u streams; at most %u", fn, o.streams,
                                 LSK_PIXEL_MAX_STREAMS);
  if (o.weights)
    return lsk_context_set_error(
        ctx, LSK_EINVAL,
        "%s: opt->weights is set: weights are a group's (lsk_pixel_stream_create_group)", fn);
  if ((rc = check_options(ctx, &o, 1, fn)))
    return rc;
  return make(fn, ctx, NULL, 1, &o, NULL, out);
}

int lsk_pixel_stream_create_group(lsk_group *g, const lsk_pixel_stream_options *opt,
                                  lsk_pixel_stream **out)
{
  static const char fn[] = "lsk_pixel_stream_create_group";
  if (!out)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  unsigned members = lsk_group_size(g); /* 0 for a bad g, with the message */
  if (!members)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %s", fn,
                                 g ? lsk_context_errmsg(NULL) : "g is NULL");
  if (members > LSK_PIXEL_MAX_STREAMS)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %u devices; at most %u", fn, members,
                                 LSK_PIXEL_MAX_STREAMS);
  lsk_context *ctx = lsk_group_context(g, 0);
  lsk_pixel_stream_options o = opt ? *opt : (lsk_pixel_stream_options){0};
  int rc = check_options(NULL, &o, members, fn);
  /* The weights checked now (a split of nothing), or measured now. */
  double w[LSK_PIXEL_MAX_STREAMS];
  size_t first[LSK_PIXEL_MAX_STREAMS + 1];
  if (!rc && o.weights && (rc = lsk_group_split(g, 0, o.weights, first)))
    rc = lsk_context_set_error(NULL, rc, "%s: opt->weights: %s", fn, lsk_context_errmsg(NULL));
  if (!rc && !o.weights && (rc = lsk_group_weights(g, w)))
    rc = lsk_context_set_error(NULL, rc, "%s: %s", fn, lsk_context_errmsg(NULL));
  if (!rc && (rc = make(fn, ctx, g, members, &o, o.weights ? o.weights : w, out)))
    rc = lsk_context_set_error(NULL, rc, "%s", lsk_context_errmsg(ctx));
  return rc;
}

unsigned lsk_pixel_stream_count(const lsk_pixel_stream *s)
{
  if (!s || lsk_handle_check(NULL, s, &stream_type, "lsk_pixel_stream_count", "s"))
    return 0;
  return s->n;
}

uint32_t lsk_pixel_stream_batch(const lsk_pixel_stream *s)
{
  if (!s || lsk_handle_check(NULL, s, &stream_type, "lsk_pixel_stream_batch", "s"))
    return 0;
  return s->batch;
}

lsk_pixel *lsk_pixel_stream_pixel(const lsk_pixel_stream *s, unsigned k)
{
  if (!s || lsk_handle_check(NULL, s, &stream_type, "lsk_pixel_stream_pixel", "s") || k >= s->n)
    return NULL;
  return s->px[k];
}

/* The batches of ev: views with their own start, and results with room
 * for them where r is wanted. */
static int cut(lsk_pixel_stream *s, const lsk_pixel_events *ev, int results)
{
  static const char fn[] = "lsk_pixel_stream_run";
  size_t nb = (ev->events + (size_t)s->batch - 1) / s->batch;
  size_t nstarts = (size_t)ev->events * ev->modules + nb;
  if (nb > s->cap_nb) {
    lsk_pixel_events *bev = realloc(s->bev, nb * sizeof *bev);
    if (bev)
      s->bev = bev;
    lsk_pixel_result **bres = bev ? realloc(s->bres, nb * sizeof *bres) : NULL;
    if (bres)
      s->bres = bres;
    unsigned char *done = bres ? realloc(s->done, nb) : NULL;
    if (done)
      s->done = done;
    if (!done)
      return lsk_context_set_error(s->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
    for (size_t b = s->cap_nb; b < nb; ++b)
      s->bres[b] = NULL;
    s->cap_nb = nb;
  }
  if (nstarts > s->cap_starts) {
    uint32_t *st = realloc(s->starts, nstarts * sizeof *st);
    if (!st)
      return lsk_context_set_error(s->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
    s->starts = st;
    s->cap_starts = nstarts;
  }
  uint32_t *st = s->starts;
  for (size_t b = 0; b < nb; ++b) {
    uint32_t e0 = (uint32_t)(b * s->batch),
             ne = ev->events - e0 < s->batch ? ev->events - e0 : s->batch;
    size_t m0 = (size_t)e0 * ev->modules, nm = (size_t)ne * ev->modules;
    uint32_t d0 = ev->start[m0];
    for (size_t k = 0; k <= nm; ++k)
      st[k] = ev->start[m0 + k] - d0;
    s->bev[b] = (lsk_pixel_events){.events = ne,
                                   .modules = ev->modules,
                                   .digis = st[nm],
                                   .x = ev->x + d0,
                                   .y = ev->y + d0,
                                   .adc = ev->adc + d0,
                                   .module = ev->module + d0,
                                   .start = st};
    st += nm + 1;
    s->done[b] = 0;
    lsk_pixel_result *br = s->bres[b];
    if (results && (!br || br->cap_digis < s->bev[b].digis || br->cap_modules < nm)) {
      lsk_pixel_result_destroy(br);
      s->bres[b] = NULL;
      int rc = lsk_pixel_result_create(&s->bev[b], &s->bres[b]);
      if (rc)
        return lsk_context_set_error(s->ctx, rc, "%s: %s", fn, lsk_context_errmsg(NULL));
    }
  }
  s->nb = nb;
  return LSK_OK;
}

/* Appends batch b's result to the run's, in the whole set's indices. */
static void append(lsk_pixel_stream *s, size_t b)
{
  const lsk_pixel_events *be = &s->bev[b];
  const lsk_pixel_result *br = s->bres[b];
  lsk_pixel_result *r = s->r;
  size_t m0 = (size_t)b * s->batch * be->modules, nm = br->modules;
  size_t d0 = (size_t)(be->x - s->bev[0].x);
  uint32_t c0 = (uint32_t)s->clusters, h0 = (uint32_t)s->hits;
  memcpy(r->clus + d0, br->clus, br->digis * sizeof *r->clus);
  memcpy(r->nclus + m0, br->nclus, nm * sizeof *r->nclus);
  for (size_t k = 0; k < nm; ++k) {
    r->clus_start[m0 + k] = br->clus_start[k] + c0;
    r->hit_start[m0 + k] = br->hit_start[k] + h0;
  }
  memcpy(r->charge + c0, br->charge, br->clusters * sizeof *r->charge);
  for (size_t c = 0; c < br->clusters; ++c)
    r->hit[c0 + c] = br->hit[c] == LSK_PIXEL_NONE ? LSK_PIXEL_NONE : br->hit[c] + h0;
  for (size_t h = 0; h < br->nhits; ++h) {
    lsk_pixel_hit x = br->hits[h];
    x.module += (uint32_t)m0;
    x.cluster += c0;
    r->hits[h0 + h] = x;
  }
  s->clusters += br->clusters;
  s->hits += br->nhits;
}

/* Batch b is read back: append it, and what follows it in order, unless
 * another thread is appending (it will take b too). */
static void gather(lsk_pixel_stream *s, size_t b)
{
  pthread_mutex_lock(&s->lock);
  s->done[b] = 1;
  if (!s->merging) {
    s->merging = 1;
    while (s->next < s->nb && s->done[s->next]) {
      size_t m = s->next;
      pthread_mutex_unlock(&s->lock);
      append(s, m);
      pthread_mutex_lock(&s->lock);
      s->next = m + 1;
    }
    s->merging = 0;
  }
  pthread_mutex_unlock(&s->lock);
}

static double stream_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct worker {
  lsk_pixel_stream *s;
  unsigned k;
  int read;
  pthread_t tid;
  int started;
  /* The first failure: its status, batch and message (the thread's). */
  int rc;
  size_t batch;
  char msg[512];
} worker;

/* Stream k's first batch and its stride: the batches of its member, in
 * turn among the member's streams. */
static size_t first_batch(const lsk_pixel_stream *s, unsigned k)
{
  return s->bfirst[k / s->per] + k % s->per;
}

static void *work(void *arg)
{
  worker *w = arg;
  lsk_pixel_stream *s = w->s;
  size_t end = s->bfirst[w->k / s->per + 1];
  lsk_context *ctx = s->qctx[w->k];
  double t0 = stream_now();
  for (size_t b = first_batch(s, w->k); b < end; b += s->per) {
    pthread_mutex_lock(&s->lock);
    int stop = s->stop;
    pthread_mutex_unlock(&s->lock);
    if (stop)
      break;
    int rc = lsk_pixel_run(s->px[w->k], &s->bev[b], NULL);
    if (!rc && w->read)
      rc = lsk_pixel_read(s->px[w->k], s->bres[b]);
    if (rc) {
      w->rc = rc;
      w->batch = b;
      snprintf(w->msg, sizeof w->msg, "%s", lsk_context_errmsg(ctx));
      pthread_mutex_lock(&s->lock);
      s->stop = 1;
      pthread_mutex_unlock(&s->lock);
      break;
    }
    if (w->read)
      gather(s, b);
    s->sbatches[w->k] += 1;
    s->sevents[w->k] += s->bev[b].events;
  }
  s->sseconds[w->k] = stream_now() - t0;
  return NULL;
}

int lsk_pixel_stream_run(lsk_pixel_stream *s, const lsk_pixel_events *ev, lsk_pixel_result *r)
{
  static const char fn[] = "lsk_pixel_stream_run";
  int rc = lsk_handle_check(NULL, s, &stream_type, fn, "s");
  if (rc)
    return rc;
  /* The cut rebases start per batch: it must rise from 0 to digis (each
   * batch's run checks the rest: no limit per module here). */
  if ((rc = px_events_usable(s->ctx, fn, ev, UINT32_MAX)))
    return rc;
  size_t nm = (size_t)ev->events * ev->modules;
  if (r && (rc = px_result_fits(r, ev, fn)))
    return lsk_context_set_error(s->ctx, rc, "%s", lsk_context_errmsg(NULL));
  if ((rc = cut(s, ev, r != NULL)))
    return rc;
  /* The members' batches: all of them for one context. */
  s->bfirst[0] = 0;
  s->bfirst[1] = s->nb;
  if (s->g && (rc = lsk_group_split(s->g, s->nb, s->weights, s->bfirst)))
    return lsk_context_set_error(s->ctx, rc, "%s: %s", fn, lsk_context_errmsg(NULL));
  s->r = r;
  s->next = s->clusters = s->hits = 0;
  s->merging = s->stop = 0;
  worker w[LSK_PIXEL_MAX_STREAMS];
  unsigned nw = s->n;
  for (unsigned k = 0; k < nw; ++k) {
    w[k] = (worker){.s = s, .k = k, .read = r != NULL};
    s->sbatches[k] = 0;
    s->sevents[k] = 0;
    s->sseconds[k] = 0;
  }
  for (unsigned k = 1; k < nw; ++k) {
    if (first_batch(s, k) >= s->bfirst[k / s->per + 1])
      continue; /* no batch for it (w[k].started 0: not joined) */
    w[k].started = pthread_create(&w[k].tid, NULL, work, &w[k]) == 0;
    if (!w[k].started) {
      w[k].rc = LSK_ENOMEM;
      w[k].batch = first_batch(s, k);
      snprintf(w[k].msg, sizeof w[k].msg, "no thread for the stream");
      pthread_mutex_lock(&s->lock);
      s->stop = 1;
      pthread_mutex_unlock(&s->lock);
      break;
    }
  }
  work(&w[0]);
  for (unsigned k = 1; k < nw; ++k)
    if (w[k].started)
      pthread_join(w[k].tid, NULL);
  /* The first failure in stream order. */
  for (unsigned k = 0; k < nw; ++k)
    if (w[k].rc) {
      const lsk_pixel_events *be = &s->bev[w[k].batch];
      uint32_t e0 = (uint32_t)(w[k].batch * s->batch);
      char on[LSK_NAME_MAX + 32] = "";
      if (s->g)
        snprintf(on, sizeof on, " on member %u (%s)", k / s->per,
                 lsk_context_device(s->qctx[k])->name);
      return lsk_context_set_error(s->ctx, w[k].rc,
                                   "%s: stream %u%s, batch %zu (events %u to %u): %s", fn, k, on,
                                   w[k].batch, e0, e0 + be->events - 1, w[k].msg);
    }
  if (r) {
    r->modules = nm;
    r->digis = ev->digis;
    r->clusters = s->clusters;
    r->skipped = 0; /* the batches' invalid digis */
    for (size_t i = 0; i < ev->digis; ++i)
      r->skipped += r->clus[i] == LSK_PIXEL_INVALID_CLUSTER;
    r->nhits = s->hits;
    r->clus_start[nm] = (uint32_t)s->clusters;
    r->hit_start[nm] = (uint32_t)s->hits;
  }
  return LSK_OK;
}

int lsk_pixel_stream_stats_get(const lsk_pixel_stream *s, unsigned k, lsk_pixel_stream_stats *out)
{
  static const char fn[] = "lsk_pixel_stream_stats_get";
  int rc = lsk_handle_check(NULL, s, &stream_type, fn, "s");
  if (rc)
    return rc;
  if (!out)
    return lsk_context_set_error(s->ctx, LSK_EINVAL, "%s: out is NULL", fn);
  if (k >= s->n)
    return lsk_context_set_error(s->ctx, LSK_EINVAL, "%s: stream %u; there are %u", fn, k, s->n);
  *out = (lsk_pixel_stream_stats){.member = k / s->per,
                                  .ctx = s->qctx[k],
                                  .weight = s->weights[k / s->per],
                                  .batches = s->sbatches[k],
                                  .events = s->sevents[k],
                                  .seconds = s->sseconds[k]};
  return LSK_OK;
}
