/*
 * queue.c: a context's queues, their verify records, and events.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

const lsk__htype LSK__H_QUEUE = {"lsk_queue", &LSK__H_CONTEXT, 0};
const lsk__htype LSK__H_EVENT = {"lsk_event", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_queue);
LSK__HANDLE_FIRST(lsk_event);

/* ------------------------------------------------------------------ */
/* Queues.                                                             */

void lsk__queue_free(lsk_queue *q)
{
  for (unsigned i = 0; i < LSK__VSLOTS; ++i)
    if (q->vmem[i])
      clReleaseMemObject(q->vmem[i]);
  if (q->cl)
    clReleaseCommandQueue(q->cl);
  free(q);
}

/* A queue of ctx around cl (retained by the caller for it), entered in the
 * context's list; on failure cl is released and the message set. */
static int new_queue(lsk_context *ctx, cl_command_queue cl, const char *name, int is_default,
                     const char *fn, lsk_queue **out)
{
  lsk_queue *q = calloc(1, sizeof *q);
  if (!q) {
    clReleaseCommandQueue(cl);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  }
  q->ctx = ctx;
  q->cl = cl;
  q->is_default = is_default;
  q->vlo = 1;
  q->vhi = 0;
  if (lsk__handle_add(q, &LSK__H_QUEUE, ctx)) {
    lsk__queue_free(q);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  }
  lsk__lock(ctx);
  q->index = ctx->queues_made++;
  if (name)
    snprintf(q->name, sizeof q->name, "%s", name);
  else if (is_default)
    snprintf(q->name, sizeof q->name, "default");
  else
    snprintf(q->name, sizeof q->name, "queue %u", q->index);
  /* The default queue first, the others in the order made. */
  lsk_queue **p = &ctx->queues;
  while (*p)
    p = &(*p)->next;
  *p = q;
  lsk__unlock(ctx);
  *out = q;
  return LSK_OK;
}

int lsk__queue_default(lsk_context *ctx, const char *fn)
{
  clRetainCommandQueue(ctx->queue);
  return new_queue(ctx, ctx->queue, NULL, 1, fn, &ctx->dq);
}

int lsk_queue_create(lsk_context *ctx, const lsk_queue_options *opt, lsk_queue **out)
{
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (opt && opt->name && strlen(opt->name) >= sizeof ctx->dq->name)
    return lsk__fail(ctx, LSK_EINVAL, "%s: name '%.20s...' is longer than %zu bytes", __func__,
                     opt->name, sizeof ctx->dq->name - 1);
  cl_int err;
  cl_command_queue cl = clCreateCommandQueue(ctx->cl, ctx->device,
                                             ctx->profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
  if (err)
    return lsk__fail_cl(ctx, err, "clCreateCommandQueue", " (%s)", __func__);
  return new_queue(ctx, cl, opt ? opt->name : NULL, 0, __func__, out);
}

static void unlink_queue(lsk_queue *q)
{
  lsk_context *ctx = q->ctx;
  lsk__lock(ctx);
  for (lsk_queue **p = &ctx->queues; *p; p = &(*p)->next)
    if (*p == q) {
      *p = q->next;
      break;
    }
  lsk__unlock(ctx);
}

int lsk_queue_destroy(lsk_queue *q)
{
  if (!q)
    return LSK_OK;
  if (!lsk__handle_live(q, &LSK__H_QUEUE))
    return lsk__handle_check(NULL, q, &LSK__H_QUEUE, __func__, "q");
  /* An orphan (its context destroyed first) was finished then; only its
   * own memory is left. */
  if (!lsk__handle_live(q->ctx, &LSK__H_CONTEXT)) {
    if (lsk__handle_remove(q, &LSK__H_QUEUE, __func__))
      return LSK_EINVAL;
    lsk__queue_free(q);
    return LSK_OK;
  }
  lsk_context *ctx = q->ctx;
  if (q->is_default)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: '%s' is the context's default queue; it goes with the context", __func__,
                     q->name);
  /* Nothing may be lost: work still pending (a command waiting for a user
   * event, say) would run against freed records, and waiting for it could
   * wait for ever. A marker tells: an idle queue passes it at once. */
  cl_event m;
  cl_int err = clEnqueueMarkerWithWaitList(q->cl, 0, NULL, &m);
  if (!err)
    err = clFlush(q->cl);
  if (err)
    return lsk__fail_cl(ctx, err, "clEnqueueMarkerWithWaitList", " (%s '%s')", __func__, q->name);
  cl_int st = CL_QUEUED;
  for (int i = 0; i < 200; ++i) {
    if (clGetEventInfo(m, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) ||
        st <= CL_COMPLETE)
      break;
    struct timespec ts = {0, 500000};
    nanosleep(&ts, NULL);
  }
  clReleaseEvent(m);
  if (st > CL_COMPLETE)
    return lsk__fail(ctx, LSK_EBUSY,
                     "%s: queue '%s' still has work pending; lsk_queue_finish it first (the queue "
                     "is left as it was)",
                     __func__, q->name);
  /* A failure its kernels recorded is reported here, before the records
   * go; if several kernels failed, the first, and how many more. */
  int rc = lsk__verify_check(q);
  if (rc == LSK_EVERIFY) {
    char first[512];
    snprintf(first, sizeof first, "%s", lsk_context_errmsg(ctx));
    unsigned more = 0;
    while (more < LSK__VSLOTS && lsk__verify_check(q) == LSK_EVERIFY)
      ++more;
    if (more)
      rc = lsk__fail(ctx, LSK_EVERIFY, "%s: %s; and %u more kernel%s failed on the queue", __func__,
                     first, more, more == 1 ? "" : "s");
    else
      rc = lsk__fail(ctx, LSK_EVERIFY, "%s: %s", __func__, first);
  }
  if (lsk__handle_remove(q, &LSK__H_QUEUE, __func__))
    return LSK_EINVAL;
  unlink_queue(q);
  lsk__bcache_forget_queue(ctx, q);
  lsk__queue_free(q);
  return rc;
}

void lsk__queues_wait(lsk_context *ctx)
{
  for (lsk_queue *q = ctx->queues; q; q = q->next)
    lsk__queue_wait(q);
}

lsk_queue *lsk_context_queue(lsk_context *ctx)
{
  LSK__LIVE_OR(NULL, ctx, CONTEXT, __func__, "ctx");
  return ctx->dq;
}

cl_int lsk__queue_wait(lsk_queue *q)
{
  if (q->ctx->finish_by_marker) {
    cl_event m;
    cl_int err = clEnqueueMarkerWithWaitList(q->cl, 0, NULL, &m);
    if (!err) {
      err = clWaitForEvents(1, &m);
      clReleaseEvent(m);
    }
    /* A failed command before the marker fails the wait: clFinish below
     * reports what the queue says. */
    (void)err;
  }
  return clFinish(q->cl);
}

int lsk_queue_finish(lsk_queue *q)
{
  LSK__LIVE(NULL, q, QUEUE, __func__, "q");
  cl_int err = lsk__queue_wait(q);
  if (err)
    return lsk__fail_cl(q->ctx, err, "clFinish", " (queue '%s')", q->name);
  return lsk__verify_check(q);
}

int lsk_queue_flush(lsk_queue *q)
{
  LSK__LIVE(NULL, q, QUEUE, __func__, "q");
  cl_int err = clFlush(q->cl);
  return err ? lsk__fail_cl(q->ctx, err, "clFlush", " (queue '%s')", q->name) : LSK_OK;
}

const char *lsk_queue_name(const lsk_queue *q)
{
  LSK__LIVE_OR("", q, QUEUE, __func__, "q");
  return q->name;
}

cl_command_queue lsk_queue_cl(const lsk_queue *q)
{
  LSK__LIVE_OR(NULL, q, QUEUE, __func__, "q");
  return q->cl;
}

/* ------------------------------------------------------------------ */
/* Verify records.                                                     */

unsigned lsk__kernel_id(lsk_context *ctx, const char *name)
{
  unsigned id = UINT32_MAX;
  lsk__lock(ctx);
  for (unsigned i = 0; i < ctx->nknames; ++i)
    if (strcmp(ctx->knames[i], name) == 0) {
      id = i;
      break;
    }
  if (id == UINT32_MAX) {
    if (ctx->nknames == ctx->capknames) {
      unsigned cap = ctx->capknames ? 2 * ctx->capknames : 16;
      char **p = realloc(ctx->knames, cap * sizeof *p);
      if (p) {
        ctx->knames = p;
        ctx->capknames = cap;
      }
    }
    char *copy = ctx->nknames < ctx->capknames ? lsk__strdup(name) : NULL;
    if (copy) {
      id = ctx->nknames++;
      ctx->knames[id] = copy;
    }
  }
  lsk__unlock(ctx);
  return id;
}

/* Slot to be read at the next check (under ctx->lock). */
static void mark(lsk_queue *q, unsigned slot)
{
  q->vdirty[slot] = 1;
  if (q->vlo > q->vhi)
    q->vlo = q->vhi = slot;
  else if (slot < q->vlo)
    q->vlo = slot;
  else if (slot > q->vhi)
    q->vhi = slot;
}

int lsk__verify_slot(lsk_queue *q, unsigned kid, cl_mem *mem)
{
  unsigned slot = kid < LSK__VSLOTS - 1 ? kid : LSK__VSLOTS - 1;
  if (!q->vmem[slot]) {
    /* Zeroed with a write, in queue order (oclgrind counts no fill as
     * initializing); never waited for. */
    static const cl_uint zeros[LSK__VREC_WORDS];
    cl_int err;
    q->vmem[slot] = clCreateBuffer(q->ctx->cl, CL_MEM_READ_WRITE, sizeof zeros, NULL, &err);
    if (!err)
      err = clEnqueueWriteBuffer(q->cl, q->vmem[slot], CL_FALSE, 0, sizeof zeros, zeros, 0, NULL,
                                 NULL);
    if (err) {
      if (q->vmem[slot])
        clReleaseMemObject(q->vmem[slot]);
      q->vmem[slot] = NULL;
      return lsk__fail_cl(q->ctx, err, "clCreateBuffer", " (verify record of queue '%s')", q->name);
    }
  }
  *mem = q->vmem[slot];
  return LSK_OK;
}

void lsk__verify_mark(lsk_queue *q, unsigned kid)
{
  unsigned slot = kid < LSK__VSLOTS - 1 ? kid : LSK__VSLOTS - 1;
  if (slot == LSK__VSLOTS - 1 && (!q->vdirty[slot] || q->vshared_last != kid)) {
    q->vshared_kernels += 1;
    q->vshared_last = kid;
  }
  mark(q, slot);
}

static int report(lsk_queue *q, unsigned slot, const cl_uint *rec, unsigned shared_kernels,
                  unsigned shared_last)
{
  lsk_context *ctx = q->ctx;
  char msg[LSK__VREC_MSG_BYTES];
  memcpy(msg, rec + LSK__VREC_MSG, sizeof msg);
  msg[sizeof msg - 1] = 0;
  char values[160] = "";
  size_t used = 0;
  unsigned nv =
      rec[LSK__VREC_NVALUES] > LSK__VREC_MAX_VALUES ? LSK__VREC_MAX_VALUES : rec[LSK__VREC_NVALUES];
  for (unsigned k = 0; k < nv; ++k) {
    const cl_uint *w = rec + LSK__VREC_VALUES + 2 * k;
    int64_t v = (int64_t)((uint64_t)w[0] | ((uint64_t)w[1] << 32));
    used += (size_t)snprintf(values + used, sizeof values - used, "%s%lld", k ? ", " : " [",
                             (long long)v);
  }
  if (nv)
    snprintf(values + used, sizeof values - used, "]");
  int shared = slot == LSK__VSLOTS - 1 && shared_kernels > 1;
  unsigned kid = slot == LSK__VSLOTS - 1 ? shared_last : slot;
  char name[LSK_NAME_MAX] = "?";
  lsk__lock(ctx);
  if (kid < ctx->nknames)
    snprintf(name, sizeof name, "%s", ctx->knames[kid]);
  lsk__unlock(ctx);
  return lsk__fail(ctx, LSK_EVERIFY,
                   "verify failed on queue '%s' in %s '%s' at line %u: %s%s (%u failure%s)",
                   q->name, shared ? "one of several kernels, the last being" : "kernel", name,
                   rec[LSK__VREC_LINE], msg, values, rec[LSK__VREC_FAILURES],
                   rec[LSK__VREC_FAILURES] == 1 ? "" : "s");
}

int lsk__verify_check(lsk_queue *q)
{
  lsk_context *ctx = q->ctx;
  /* Which slots to read, taken under the lock that launches mark them
   * under; the reads go unlocked behind the queue's work. */
  unsigned char dirty[LSK__VSLOTS];
  lsk__lock(ctx);
  unsigned lo = q->vlo, hi = q->vhi, shared_kernels = q->vshared_kernels,
           shared_last = q->vshared_last;
  if (lo <= hi) {
    memcpy(dirty, q->vdirty, sizeof dirty);
    memset(q->vdirty, 0, sizeof q->vdirty);
    q->vlo = 1;
    q->vhi = 0;
    q->vshared_kernels = 0;
  }
  lsk__unlock(ctx);
  if (lo > hi)
    return LSK_OK;
  /* The failure word of every slot launched into, read without waiting
   * but the last (hi): one wait behind the queue's work, as one read. */
  cl_uint w[LSK__VSLOTS] = {0};
  cl_int err = CL_SUCCESS;
  for (unsigned s = lo; s <= hi && !err; ++s)
    if (dirty[s])
      err = clEnqueueReadBuffer(q->cl, q->vmem[s], s == hi ? CL_TRUE : CL_FALSE, 0, sizeof *w,
                                &w[s], 0, NULL, NULL);
  if (err)
    clFinish(q->cl); /* no read may still be writing into w */
  else if (ctx->finish_by_marker)
    err = lsk__queue_wait(q);
  int rc = LSK_OK;
  if (err)
    rc = lsk__fail_cl(ctx, err, "clEnqueueReadBuffer", " (verify records of queue '%s')", q->name);
  for (unsigned s = lo; !rc && s <= hi; ++s) {
    if (!dirty[s] || w[s] == 0)
      continue;
    /* The record and its clearing back to back under the lock that
     * launches enqueue under: a launch of another thread on this queue
     * cannot fall between them and have its failure wiped. */
    cl_uint rec[LSK__VREC_WORDS];
    static const cl_uint zeros[LSK__VREC_WORDS];
    cl_event cleared = NULL;
    lsk__lock(ctx);
    err = clEnqueueReadBuffer(q->cl, q->vmem[s], CL_FALSE, 0, sizeof rec, rec, 0, NULL, NULL);
    if (!err)
      err = clEnqueueWriteBuffer(q->cl, q->vmem[s], CL_FALSE, 0, sizeof zeros, zeros, 0, NULL,
                                 &cleared);
    lsk__unlock(ctx);
    if (cleared) {
      if (!err)
        err = clWaitForEvents(1, &cleared);
      clReleaseEvent(cleared);
    } else {
      clFinish(q->cl);
    }
    rc = err ? lsk__fail_cl(ctx, err, "lsk_queue_finish", " (verify record of queue '%s')", q->name)
             : report(q, s, rec, shared_kernels, shared_last);
    /* One failure per check: the other failed records stay to be read by
     * the next check, so that none is lost. */
    lsk__lock(ctx);
    for (unsigned t = s + 1; t <= hi; ++t)
      if (dirty[t] && w[t] != 0) {
        mark(q, t);
        if (t == LSK__VSLOTS - 1) {
          q->vshared_kernels += shared_kernels;
          q->vshared_last = shared_last;
        }
      }
    lsk__unlock(ctx);
  }
  return rc;
}

/* ------------------------------------------------------------------ */
/* Events.                                                             */

static lsk_event *new_event(lsk_context *ctx, cl_event ev, const char *what)
{
  lsk_event *e = lsk__handle_new(sizeof *e, &LSK__H_EVENT, ctx);
  if (!e)
    return NULL;
  e->ctx = ctx;
  e->ev = ev;
  snprintf(e->what, sizeof e->what, "%s", what);
  return e;
}

int lsk__queue_check(lsk_context *ctx, const lsk_queue *q, const char *fn, const char *what)
{
  int rc = lsk__handle_check(ctx, q, &LSK__H_QUEUE, fn, what);
  if (!rc && q->ctx != ctx)
    rc = lsk__fail(ctx, LSK_EINVAL, "%s: %s: queue '%s' belongs to another context", fn, what,
                   q->name);
  return rc;
}

int lsk__queue_usable(lsk_context *ctx, const lsk_queue *q, const char *fn)
{
  lsk__hset_lock(&ctx->kids);
  int live = lsk__hset_has(&ctx->kids, q, &LSK__H_QUEUE);
  lsk__hset_unlock(&ctx->kids);
  return live ? LSK_OK
              : lsk__fail(ctx, LSK_EINVAL,
                          "%s: its queue was destroyed (an object's queue must outlive the "
                          "object)",
                          fn);
}

int lsk__on_resolve(lsk_context *ctx, const lsk_async *on, const char *fn, lsk__on *out)
{
  out->q = ctx->dq;
  out->nwait = 0;
  out->event = NULL;
  if (!on)
    return LSK_OK;
  out->event = on->event;
  if (on->event)
    *on->event = NULL;
  if (on->queue) {
    int rc = lsk__queue_check(ctx, on->queue, fn, "on->queue");
    if (rc)
      return rc;
    out->q = on->queue;
  }
  if (on->nwait > LSK_WAIT_MAX)
    return lsk__fail(ctx, LSK_EINVAL, "%s: a wait list of %zu events; at most %d", fn, on->nwait,
                     LSK_WAIT_MAX);
  if (on->nwait && !on->wait)
    return lsk__fail(ctx, LSK_EINVAL, "%s: on->wait is NULL with nwait %zu", fn, on->nwait);
  /* Every event in one pass over the context's set (no process-wide lock);
   * a miss is looked up again for its message. */
  size_t i = 0;
  lsk__hset_lock(&ctx->kids);
  while (i < on->nwait && on->wait[i] && lsk__hset_has(&ctx->kids, on->wait[i], &LSK__H_EVENT))
    ++i;
  lsk__hset_unlock(&ctx->kids);
  if (i < on->nwait) {
    char what[48];
    snprintf(what, sizeof what, "on->wait[%zu]", i);
    if (!on->wait[i])
      return lsk__fail(ctx, LSK_EINVAL, "%s: %s is NULL", fn, what);
    int rc = lsk__handle_check(ctx, on->wait[i], &LSK__H_EVENT, fn, what);
    return rc ? rc : lsk__fail(ctx, LSK_EINVAL, "%s: %s is an event of another context", fn, what);
  }
  for (i = 0; i < on->nwait; ++i)
    out->wait[i] = on->wait[i]->ev;
  out->nwait = (cl_uint)on->nwait;
  return LSK_OK;
}

int lsk__on_done(lsk_context *ctx, lsk__on *o, cl_event ev, const char *what, const char *fn)
{
  if (!ev)
    return LSK_OK;
  if (!o->event) {
    clReleaseEvent(ev);
    return LSK_OK;
  }
  /* A command whose event another queue may wait for must be submitted:
   * OpenCL leaves flushing to the application, and a wait on an unflushed
   * command of another queue can wait for ever (rusticl does). */
  clFlush(o->q->cl);
  lsk_event *e = new_event(ctx, ev, what);
  if (!e) {
    clReleaseEvent(ev);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory for the event (the command is enqueued)",
                     fn);
  }
  *o->event = e;
  return LSK_OK;
}

static int event_error(lsk_event *e, cl_int status, const char *fn)
{
  return lsk__fail(e->ctx, status < 0 ? status : LSK_EINVAL, "%s: %s failed: %s", fn, e->what,
                   lsk_status_name(status));
}

int lsk_event_wait(lsk_event *ev)
{
  LSK__LIVE(NULL, ev, EVENT, __func__, "ev");
  cl_int err = clWaitForEvents(1, &ev->ev), st = CL_COMPLETE;
  if (err && clGetEventInfo(ev->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) == 0 &&
      st < 0)
    return event_error(ev, st, __func__);
  return err ? lsk__fail_cl(ev->ctx, err, "clWaitForEvents", " (%s)", ev->what) : LSK_OK;
}

int lsk_event_wait_all(lsk_event *const *evs, size_t n)
{
  if (n == 0)
    return LSK_OK;
  if (!evs)
    return lsk__fail(NULL, LSK_EINVAL, "%s: evs is NULL with n %zu", __func__, n);
  if (n > LSK_WAIT_MAX)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %zu events; at most %d", __func__, n, LSK_WAIT_MAX);
  for (size_t i = 0; i < n; ++i) {
    char what[32];
    snprintf(what, sizeof what, "evs[%zu]", i);
    int rc = lsk__handle_check(NULL, evs[i], &LSK__H_EVENT, __func__, what);
    if (rc)
      return rc;
    if (evs[i]->ctx != evs[0]->ctx)
      return lsk__fail(evs[0]->ctx, LSK_EINVAL, "%s: %s is an event of another context than evs[0]",
                       __func__, what);
  }
  for (size_t i = 0; i < n; ++i) {
    int rc = lsk_event_wait(evs[i]);
    if (rc)
      return rc;
  }
  return LSK_OK;
}

int lsk_event_state_get(lsk_event *ev, lsk_event_state *state)
{
  LSK__LIVE(NULL, ev, EVENT, __func__, "ev");
  if (!state)
    return lsk__fail(ev->ctx, LSK_EINVAL, "%s: state is NULL", __func__);
  cl_int st;
  cl_int err = clGetEventInfo(ev->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  if (err)
    return lsk__fail_cl(ev->ctx, err, "clGetEventInfo", " (%s)", ev->what);
  *state = st == CL_COMPLETE    ? LSK_EVENT_COMPLETE
           : st == CL_RUNNING   ? LSK_EVENT_RUNNING
           : st == CL_SUBMITTED ? LSK_EVENT_SUBMITTED
           : st == CL_QUEUED    ? LSK_EVENT_QUEUED
                                : LSK_EVENT_FAILED;
  return LSK_OK;
}

cl_int lsk__event_times(cl_event ev, lsk_event_times *out)
{
  static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED,
                                            CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                                            CL_PROFILING_COMMAND_END};
  uint64_t *t[4] = {&out->queued, &out->submitted, &out->start, &out->end};
  cl_int first = CL_SUCCESS;
  for (int i = 0; i < 4; ++i) {
    cl_ulong v = 0;
    cl_int err = clGetEventProfilingInfo(ev, what[i], sizeof v, &v, NULL);
    *t[i] = err ? 0 : v;
    if (err && !first)
      first = err;
  }
  return first;
}

int lsk_event_times_get(lsk_event *ev, lsk_event_times *out)
{
  if (out)
    memset(out, 0, sizeof *out);
  LSK__LIVE(NULL, ev, EVENT, __func__, "ev");
  if (!out)
    return lsk__fail(ev->ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  if (ev->user)
    return lsk__fail(ev->ctx, LSK_EINVAL, "%s: a user event has no device times", __func__);
  int rc = lsk_event_wait(ev);
  if (rc)
    return rc;
  cl_int err = lsk__event_times(ev->ev, out);
  if (err == CL_PROFILING_INFO_NOT_AVAILABLE)
    return lsk__fail(ev->ctx, LSK_EINVAL,
                     "%s: %s: its queue has no profiling (set lsk_context_options.profiling)",
                     __func__, ev->what);
  if (err)
    return lsk__fail_cl(ev->ctx, err, "clGetEventProfilingInfo", " (%s)", ev->what);
  return LSK_OK;
}

const char *lsk_event_what(const lsk_event *ev)
{
  LSK__LIVE_OR("", ev, EVENT, __func__, "ev");
  return ev->what;
}

cl_event lsk_event_cl(const lsk_event *ev)
{
  LSK__LIVE_OR(NULL, ev, EVENT, __func__, "ev");
  return ev->ev;
}

void lsk_event_release(lsk_event *ev)
{
  LSK__DESTROY(ev, EVENT, __func__);
  /* A user event that commands wait for and that was never completed
   * would hold them for ever: complete it as failed, so that they end. */
  if (ev->user == 1)
    clSetUserEventStatus(ev->ev, CL_INVALID_EVENT);
  clReleaseEvent(ev->ev);
  free(ev);
}

int lsk_event_user_create(lsk_context *ctx, lsk_event **out)
{
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  cl_int err;
  cl_event ev = clCreateUserEvent(ctx->cl, &err);
  if (err)
    return lsk__fail_cl(ctx, err, "clCreateUserEvent", " (%s)", __func__);
  lsk_event *e = new_event(ctx, ev, "user");
  if (!e) {
    clSetUserEventStatus(ev, CL_INVALID_EVENT);
    clReleaseEvent(ev);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  e->user = 1;
  *out = e;
  return LSK_OK;
}

int lsk_event_user_complete(lsk_event *ev)
{
  LSK__LIVE(NULL, ev, EVENT, __func__, "ev");
  if (ev->user != 1)
    return lsk__fail(ev->ctx, LSK_EINVAL, "%s: %s", __func__,
                     ev->user ? "the user event is complete already"
                              : "not a user event (lsk_event_user_create)");
  cl_int err = clSetUserEventStatus(ev->ev, CL_COMPLETE);
  if (err)
    return lsk__fail_cl(ev->ctx, err, "clSetUserEventStatus", " (%s)", __func__);
  ev->user = 2;
  return LSK_OK;
}

int lsk_queue_marker(const lsk_async *on)
{
  if (!on || !on->event)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, on ? "on->event" : "on");
  *on->event = NULL;
  lsk_context *ctx = NULL;
  if (on->queue) {
    LSK__LIVE(NULL, on->queue, QUEUE, __func__, "on->queue");
    ctx = on->queue->ctx;
  } else if (on->nwait && on->wait && on->wait[0]) {
    LSK__LIVE(NULL, on->wait[0], EVENT, __func__, "on->wait[0]");
    ctx = on->wait[0]->ctx;
  } else {
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: on->queue is NULL and there is no wait list to name "
                     "the context",
                     __func__);
  }
  lsk__on o;
  int rc = lsk__on_resolve(ctx, on, __func__, &o);
  if (rc)
    return rc;
  cl_event ev;
  cl_int err = clEnqueueMarkerWithWaitList(o.q->cl, o.nwait, o.nwait ? o.wait : NULL, &ev);
  if (err)
    return lsk__fail_cl(ctx, err, "clEnqueueMarkerWithWaitList", " (queue '%s')", o.q->name);
  if (ctx->trace)
    lsk__trace_add(o.q, LSK__OP_MARKER, "marker", NULL, 0, ev);
  return lsk__on_done(ctx, &o, ev, "marker", __func__);
}
