/*
 * enqueue.c: the one path of every launch. lsk_kernel_run,
 * lsk_kernel_launch and the kernel library's lsk__launch_q differ only in
 * where the launch goes and whether it waits; each names itself (the
 * library: its public call) in messages.
 * The path checks the kernel, resolves the queue and wait list, takes the
 * context's lock (resolving, binding a shared cl_kernel's arguments and
 * enqueueing must not interleave between threads: docs/threads.md),
 * resolves the launch (resolve.c), binds the arguments (args.c) with the
 * queue's verify record (core/verify.c) and enqueues.
 */
#include <stdio.h>
#include <stdlib.h>

#include "launch/kernel.h"

/* k is live, o resolved and the context's lock held. *clev gets the
 * command's event if clev is not NULL. */
static int enqueue(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                   const lsk__on *o, cl_event *clev, const char *fn)
{
  if (!cfg)
    return lsk__fail(k->ctx, LSK_EINVAL, "%s: cfg is NULL", fn);
  lsk_context *ctx = k->ctx;
  size_t blocks[3] = {cfg->blocks[0], cfg->blocks[1] ? cfg->blocks[1] : 1,
                      cfg->blocks[2] ? cfg->blocks[2] : 1};
  if (blocks[0] == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: kernel '%s': blocks[0] is 0", fn, k->name);
  lsk__kentry *e;
  unsigned w, s;
  int rc = lsk__kernel_resolve(k, cfg, fn, 1, &e, &w, &s);
  if (rc)
    return rc;
  /* lsk_block_idx() is a uint on the device: the grid must fit in 32 bits. */
  if (blocks[0] > UINT32_MAX || blocks[1] > UINT32_MAX || blocks[2] > UINT32_MAX ||
      (uint64_t)blocks[0] * blocks[1] * blocks[2] > UINT32_MAX ||
      (uint64_t)blocks[0] * w > ((uint64_t)1 << 40))
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: kernel '%s': grid %zux%zux%zu is too large", fn,
                     k->name, blocks[0], blocks[1], blocks[2]);
  cl_mem verify;
  if ((rc = lsk__verify_slot(o->q, k->kid, &verify)) ||
      (rc = lsk__args_bind(k, e, cfg, args, nargs, verify, fn)))
    return rc;
  size_t global[3] = {blocks[0] * w, blocks[1], blocks[2]};
  size_t local[3] = {w, 1, 1};
  cl_uint dims = blocks[2] > 1 ? 3 : blocks[1] > 1 ? 2 : 1;
  cl_event ev = NULL;
  cl_int err = clEnqueueNDRangeKernel(lsk__queue_cl(o->q), e->kernel, dims, NULL, global, local,
                                      o->nwait, o->nwait ? o->wait : NULL,
                                      (clev || lsk__context_tracing(ctx)) ? &ev : NULL);
  if (err)
    return lsk__fail_cl(ctx, err, "clEnqueueNDRangeKernel",
                        " (kernel '%s', %zux%zux%zu blocks of %u workers, queue '%s')", k->name,
                        blocks[0], blocks[1], blocks[2], w, lsk_queue_name(o->q));
  lsk__verify_mark(o->q, k->kid);
  if (lsk__context_tracing(ctx)) {
    lsk__shape sh = {{lsk__build_domain(e->build)[0], lsk__build_domain(e->build)[1],
                      lsk__build_domain(e->build)[2]},
                     {blocks[0], blocks[1], blocks[2]},
                     w,
                     s};
    lsk__trace_add(o->q, LSK__OP_KERNEL, k->name, &sh, 0, ev);
  }
  if (clev)
    *clev = ev;
  else if (ev)
    clReleaseEvent(ev);
  return LSK_OK;
}

/* Where a launch goes and what it gives back; all zero: the context's
 * default queue, nothing. */
typedef struct route {
  const lsk_async *on; /* the caller's queue, wait list and event */
  lsk_queue *q;        /* a queue the library holds for one of its calls */
  int finish;          /* the queue finished and checked after (lsk_kernel_run) */
} route;

static int launch(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                  const route *r, const char *fn)
{
  if (r->on && r->on->event)
    *r->on->event = NULL;
  /* Checked before the lock: a dead kernel's context may be gone. */
  LSK__LIVE(NULL, k, KERNEL, fn, "kernel");
  lsk_context *ctx = k->ctx;
  LSK__ARGS_PLAIN(ctx, args, nargs, fn); /* LSK_ARG_BUFFERS, LSK_ARG_SOA made plain */
  lsk__on o = {.q = r->q ? r->q : lsk__context_queue(ctx)};
  int rc = r->on  ? lsk__on_resolve(ctx, r->on, fn, &o)
           : r->q ? lsk__queue_usable(ctx, r->q, fn)
                  : LSK_OK;
  if (rc)
    return rc;
  cl_event ev = NULL;
  lsk__lock(ctx);
  rc = enqueue(k, cfg, args, nargs, &o, o.event ? &ev : NULL, fn);
  lsk__unlock(ctx);
  if (rc)
    return rc;
  if (r->on) {
    char what[80];
    snprintf(what, sizeof what, "kernel '%s'", k->name);
    if ((rc = lsk__on_done(ctx, &o, ev, what, fn)) != LSK_OK)
      return rc;
  }
  rc = r->finish ? lsk_queue_finish(o.q) : LSK_OK;
  /* A failed run gives no event, as every failed call (none to release). */
  if (rc && o.event) {
    lsk_event_release(*o.event);
    *o.event = NULL;
  }
  return rc;
}

int lsk_kernel_run(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                   const lsk_async *on)
{
  LSK__API();
  return launch(k, cfg, args, nargs, &(route){.on = on, .finish = 1}, __func__);
}

int lsk_kernel_launch(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                      const lsk_async *on)
{
  LSK__API();
  return launch(k, cfg, args, nargs, &(route){.on = on}, __func__);
}

int lsk__launch_q(lsk_kernel *k, lsk_queue *q, const char *fn, const lsk_launch *cfg,
                  const lsk_arg *args, size_t nargs)
{
  return launch(k, cfg, args, nargs, &(route){.q = q}, fn);
}
