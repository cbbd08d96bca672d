/*
 * queue.c: a context's in-order queues (include/lsk/queue.h): made,
 * named, flushed, finished (their verify records read: verify.c), given a
 * marker, destroyed once idle. What a command needs of a queue (its
 * checks, the wait for it) is in event.c.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/objects.h"

const lsk__htype LSK__H_QUEUE = {"lsk_queue", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_queue);

void lsk__queue_free(lsk_queue *q)
{
  lsk__verify_free(q);
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
  LSK__API();
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
  LSK__API();
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
   * go. */
  int rc = lsk__verify_last(q, __func__);
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

int lsk_queue_finish(lsk_queue *q)
{
  LSK__API();
  LSK__LIVE(NULL, q, QUEUE, __func__, "q");
  cl_int err = lsk__queue_wait(q);
  if (err)
    return lsk__fail_cl(q->ctx, err, "clFinish", " (queue '%s')", q->name);
  return lsk__verify_check(q);
}

int lsk_queue_flush(lsk_queue *q)
{
  LSK__API();
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

int lsk_queue_marker(const lsk_async *on)
{
  LSK__API();
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

cl_command_queue lsk__queue_cl(const lsk_queue *q) { return q->cl; }
