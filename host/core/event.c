/*
 * event.c: where a command runs and what it waits for: the resolution of
 * an lsk_async (its queue, its wait list, the event the caller wants),
 * the checks of a queue given for a command, waiting for a queue, and
 * events (include/lsk/queue.h) with their profiling times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

const lsk__htype LSK__H_EVENT = {"lsk_event", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_event);

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

cl_int lsk__queue_wait(lsk_queue *q)
{
  if (q->ctx->wait_by_event) {
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
  return lsk__on_resolve_flags(ctx, on, 0, fn, out);
}

int lsk__on_resolve_flags(lsk_context *ctx, const lsk_async *on, unsigned allowed, const char *fn,
                          lsk__on *out)
{
  out->q = ctx->dq;
  out->nwait = 0;
  out->event = NULL;
  if (!on)
    return LSK_OK;
  out->event = on->event;
  if (on->event)
    *on->event = NULL;
  if (on->flags & ~LSK_ASYNC_NONBLOCKING)
    return lsk__fail(ctx, LSK_EINVAL, "%s: on->flags 0x%x has bits lsk does not know", fn,
                     on->flags);
  if (on->flags & ~allowed)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: LSK_ASYNC_NONBLOCKING in on->flags, but %s is no host transfer (only "
                     "buffer write, read and map and soa upload and download are)",
                     fn, fn);
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
  LSK__API();
  LSK__LIVE(NULL, ev, EVENT, __func__, "ev");
  cl_int err = clWaitForEvents(1, &ev->ev), st = CL_COMPLETE;
  if (err && clGetEventInfo(ev->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) == 0 &&
      st < 0)
    return event_error(ev, st, __func__);
  return err ? lsk__fail_cl(ev->ctx, err, "clWaitForEvents", " (%s)", ev->what) : LSK_OK;
}

int lsk_event_wait_all(lsk_event *const *evs, size_t n)
{
  LSK__API();
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
  LSK__API();
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
  LSK__API();
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
  LSK__API();
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
  LSK__API();
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

int lsk__on_wants_event(lsk_context *ctx, const lsk__on *o)
{
  return o->event != NULL || ctx->trace != NULL;
}

int lsk__on_marker(lsk_context *ctx, lsk__on *o, cl_event *ev, const char *fn)
{
  cl_int err = clEnqueueMarkerWithWaitList(o->q->cl, o->nwait, o->nwait ? o->wait : NULL, ev);
  if (err)
    return lsk__fail_cl(ctx, err, "clEnqueueMarkerWithWaitList", " (%s, queue '%s')", fn,
                        o->q->name);
  o->nwait = 0;
  return LSK_OK;
}
