/*
 * verify.c: the verify records of the kernels on each queue, and the ids
 * that name their kernels.
 *
 * A queue keeps one small zeroed buffer per kernel id (the last slot
 * shared by the ids beyond), bound to each launch as LSK_CTX; a failed
 * LSK_VERIFY writes its file, line, message and values there. A check reads the
 * failure word of each slot launched into since the last one, with one
 * wait, and reports the first failure with its queue and kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

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

/* rec's text at word w of bytes bytes, NUL-terminated in out. */
static void rec_text(const cl_uint *rec, unsigned w, size_t bytes, char *out)
{
  memcpy(out, rec + w, bytes);
  out[bytes - 1] = 0;
}

/* The failure's values as " [a, b]", or for a range check ": index i out
 * of range [0, n)". */
static void rec_values(const cl_uint *rec, char *out, size_t cap)
{
  int64_t v[LSK__VREC_MAX_VALUES];
  unsigned nv =
      rec[LSK__VREC_NVALUES] > LSK__VREC_MAX_VALUES ? LSK__VREC_MAX_VALUES : rec[LSK__VREC_NVALUES];
  for (unsigned k = 0; k < nv; ++k) {
    const cl_uint *w = rec + LSK__VREC_VALUES + 2 * k;
    v[k] = (int64_t)((uint64_t)w[0] | ((uint64_t)w[1] << 32));
  }
  out[0] = 0;
  if (rec[LSK__VREC_KIND] == LSK__VKIND_RANGE && nv == 2) {
    snprintf(out, cap, ": index %lld out of range [0, %lld)", (long long)v[0], (long long)v[1]);
    return;
  }
  size_t used = 0;
  for (unsigned k = 0; k < nv && used < cap; ++k)
    used += (size_t)snprintf(out + used, cap - used, "%s%lld", k ? ", " : " [", (long long)v[k]);
  if (nv && used < cap)
    snprintf(out + used, cap - used, "]");
}

static int report(lsk_queue *q, unsigned slot, const cl_uint *rec, unsigned shared_kernels,
                  unsigned shared_last)
{
  lsk_context *ctx = q->ctx;
  char msg[LSK__VREC_MSG_BYTES], file[LSK__VREC_FILE_BYTES], values[160];
  rec_text(rec, LSK__VREC_MSG, sizeof msg, msg);
  rec_text(rec, LSK__VREC_FILE, sizeof file, file);
  rec_values(rec, values, sizeof values);
  int shared = slot == LSK__VSLOTS - 1 && shared_kernels > 1;
  unsigned kid = slot == LSK__VSLOTS - 1 ? shared_last : slot;
  char name[LSK_NAME_MAX] = "?";
  lsk__lock(ctx);
  if (kid < ctx->nknames)
    snprintf(name, sizeof name, "%s", ctx->knames[kid]);
  lsk__unlock(ctx);
  /* "at FILE:LINE", as compilers print positions; "at line N" where the
   * device gave no file. */
  return lsk__fail(ctx, LSK_EVERIFY,
                   "verify failed on queue '%s' in %s '%s' at %s%s%u: %s%s (%u failure%s)", q->name,
                   shared ? "one of several kernels, the last being" : "kernel", name,
                   file[0] ? file : "line ", file[0] ? ":" : "", rec[LSK__VREC_LINE], msg, values,
                   rec[LSK__VREC_FAILURES], rec[LSK__VREC_FAILURES] == 1 ? "" : "s");
}

/* Takes the slots marked on q since the last check (under the lock that
 * launches mark them under) into v, and enqueues the reads of their
 * failure words behind the queue's work, the last one blocking if block. */
static int take_and_read(lsk_queue *q, lsk__vcheck *v, int block)
{
  lsk_context *ctx = q->ctx;
  lsk__lock(ctx);
  v->lo = q->vlo;
  v->hi = q->vhi;
  v->shared_kernels = q->vshared_kernels;
  v->shared_last = q->vshared_last;
  if (v->lo <= v->hi) {
    memcpy(v->dirty, q->vdirty, sizeof v->dirty);
    memset(q->vdirty, 0, sizeof q->vdirty);
    q->vlo = 1;
    q->vhi = 0;
    q->vshared_kernels = 0;
  }
  lsk__unlock(ctx);
  if (v->lo > v->hi)
    return LSK_OK;
  memset(v->w, 0, sizeof v->w);
  cl_int err = CL_SUCCESS;
  for (unsigned s = v->lo; s <= v->hi && !err; ++s)
    if (v->dirty[s])
      err = clEnqueueReadBuffer(q->cl, q->vmem[s], block && s == v->hi ? CL_TRUE : CL_FALSE, 0,
                                sizeof *v->w, &v->w[s], 0, NULL, NULL);
  if (!err)
    return LSK_OK;
  clFinish(q->cl); /* no read may still be writing into v */
  v->lo = 1;
  v->hi = 0;
  return lsk__fail_cl(ctx, err, "clEnqueueReadBuffer", " (verify records of queue '%s')", q->name);
}

/* v's failed slots from slot `from` on marked again on q, to be read by
 * the next check. */
static void mark_again(lsk_queue *q, const lsk__vcheck *v, unsigned from)
{
  lsk__lock(q->ctx);
  for (unsigned t = from; t <= v->hi; ++t)
    if (v->dirty[t] && v->w[t] != 0) {
      mark(q, t);
      if (t == LSK__VSLOTS - 1) {
        q->vshared_kernels += v->shared_kernels;
        q->vshared_last = v->shared_last;
      }
    }
  lsk__unlock(q->ctx);
}

/* The failure words in v, read: LSK_EVERIFY with the first failure (its
 * record read and cleared), the later ones kept for the next check. */
static int report_first(lsk_queue *q, const lsk__vcheck *v)
{
  lsk_context *ctx = q->ctx;
  for (unsigned s = v->lo; s <= v->hi; ++s) {
    if (!v->dirty[s] || v->w[s] == 0)
      continue;
    /* The record and its clearing back to back under the lock that
     * launches enqueue under: a launch of another thread on this queue
     * cannot fall between them and have its failure wiped. */
    cl_uint rec[LSK__VREC_WORDS];
    static const cl_uint zeros[LSK__VREC_WORDS];
    cl_event cleared = NULL;
    lsk__lock(ctx);
    cl_int err =
        clEnqueueReadBuffer(q->cl, q->vmem[s], CL_FALSE, 0, sizeof rec, rec, 0, NULL, NULL);
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
    int rc =
        err ? lsk__fail_cl(ctx, err, "lsk_queue_finish", " (verify record of queue '%s')", q->name)
            : report(q, s, rec, v->shared_kernels, v->shared_last);
    /* One failure per check: the other failed records stay to be read by
     * the next check, so that none is lost. */
    mark_again(q, v, s + 1);
    return rc;
  }
  return LSK_OK;
}

int lsk__verify_check(lsk_queue *q)
{
  lsk__vcheck v;
  int rc = take_and_read(q, &v, 1);
  if (rc || v.lo > v.hi)
    return rc;
  cl_int err = q->ctx->wait_by_event ? lsk__queue_wait(q) : CL_SUCCESS;
  if (err)
    return lsk__fail_cl(q->ctx, err, "clEnqueueReadBuffer", " (verify records of queue '%s')",
                        q->name);
  return report_first(q, &v);
}

int lsk__verify_defer(lsk_queue *q, lsk__vcheck *v) { return take_and_read(q, v, 0); }

int lsk__verify_done(lsk_queue *q, lsk__vcheck *v, int rc)
{
  if (!q || v->lo > v->hi)
    return rc;
  /* The reads are behind the queue's work: after the call's own blocking
   * read they are done, and the wait returns at once. */
  cl_int err = lsk__queue_wait(q);
  if (!rc && err)
    rc = lsk__fail_cl(q->ctx, err, "clFinish", " (verify records of queue '%s')", q->name);
  else if (!rc)
    rc = report_first(q, v);
  else if (!err)
    mark_again(q, v, v->lo);
  v->lo = 1;
  v->hi = 0;
  return rc;
}

int lsk__verify_last(lsk_queue *q, const char *fn)
{
  /* If several kernels failed, the first, and how many more. */
  lsk_context *ctx = q->ctx;
  int rc = lsk__verify_check(q);
  if (rc != LSK_EVERIFY)
    return rc;
  char first[512];
  snprintf(first, sizeof first, "%s", lsk_context_errmsg(ctx));
  unsigned more = 0;
  while (more < LSK__VSLOTS && lsk__verify_check(q) == LSK_EVERIFY)
    ++more;
  if (more)
    return lsk__fail(ctx, LSK_EVERIFY, "%s: %s; and %u more kernel%s failed on the queue", fn,
                     first, more, more == 1 ? "" : "s");
  return lsk__fail(ctx, LSK_EVERIFY, "%s: %s", fn, first);
}

void lsk__verify_free(lsk_queue *q)
{
  for (unsigned i = 0; i < LSK__VSLOTS; ++i)
    if (q->vmem[i])
      clReleaseMemObject(q->vmem[i]);
}

void lsk__kernel_ids_free(lsk_context *ctx)
{
  for (unsigned i = 0; i < ctx->nknames; ++i)
    free(ctx->knames[i]);
  free(ctx->knames);
  ctx->knames = NULL;
  ctx->nknames = ctx->capknames = 0;
}
