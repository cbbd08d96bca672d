/*
 * pinned.c: host memory allocated by the OpenCL runtime and mapped for the
 * life of the allocation (pinned.h says what that buys on each runtime).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

struct lsk_pinned {
  lsk__handle h;
  lsk_context *ctx;
  cl_mem mem;
  void *map; /* the mapping */
  void *ptr; /* the caller's: map rounded up to 64 bytes */
  size_t size;
};
static const lsk__htype LSK__H_PINNED = {"lsk_pinned", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_pinned);

int lsk_pinned_create(lsk_context *ctx, size_t size, lsk_pinned **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (size == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: size is 0", __func__);
  if (size > ctx->info.max_alloc_size)
    return lsk__fail(ctx, LSK_ERANGE, "%s: size %zu exceeds the largest allocation of %s (%llu)",
                     __func__, size, ctx->info.name, (unsigned long long)ctx->info.max_alloc_size);
  lsk_pinned *p = calloc(1, sizeof *p);
  if (!p)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  /* OpenCL promises no alignment of a mapping (oclgrind gives 32 bytes):
   * where the first one is not on 64, a second with room to round up. */
  cl_int err = CL_SUCCESS;
  for (size_t extra = 0; extra <= 64 && !err; extra += 64) {
    if (p->map) {
      clEnqueueUnmapMemObject(ctx->queue, p->mem, p->map, 0, NULL, NULL);
      clReleaseMemObject(p->mem);
      p->map = NULL;
    }
    p->mem = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size + extra, NULL,
                            &err);
    if (!err) {
      /* Waited for by its own event, on every runtime: a blocking map may
       * return early where another thread flushes the queue (rusticl 22.3,
       * docs/rusticl.md), and this is no hot path. */
      cl_event mev = NULL;
      p->map = clEnqueueMapBuffer(ctx->queue, p->mem, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                  size + extra, 0, NULL, &mev, &err);
      if (!err)
        err = clWaitForEvents(1, &mev);
      if (mev)
        clReleaseEvent(mev);
    }
    if (err)
      p->map = NULL;
    else if ((uintptr_t)p->map % 64 == 0 || extra)
      break;
  }
  if (!err)
    p->ptr = (char *)p->map + (64 - (uintptr_t)p->map % 64) % 64;
  if (err || lsk__handle_add(p, &LSK__H_PINNED, ctx)) {
    int rc = err ? lsk__fail_cl(ctx, err, p->mem ? "clEnqueueMapBuffer" : "clCreateBuffer",
                                " (%zu bytes of pinned memory)", size)
                 : lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
    if (p->map)
      clEnqueueUnmapMemObject(ctx->queue, p->mem, p->map, 0, NULL, NULL);
    if (p->mem)
      clReleaseMemObject(p->mem);
    free(p);
    return rc;
  }
  /* Zeroed, as the header promises: the runtime's memory may hold anything
   * (and tools count it as uninitialized). */
  memset(p->ptr, 0, size);
  p->ctx = ctx;
  p->size = size;
  *out = p;
  return LSK_OK;
}

void lsk_pinned_destroy(lsk_pinned *p)
{
  LSK__DESTROY(p, PINNED, __func__);
  /* An orphan's context finished its queues when it went; the mapping
   * ends with the buffer. */
  if (lsk__handle_live(p->ctx, &LSK__H_CONTEXT)) {
    clEnqueueUnmapMemObject(p->ctx->queue, p->mem, p->map, 0, NULL, NULL);
    lsk__queue_wait(p->ctx->dq);
  }
  clReleaseMemObject(p->mem);
  free(p);
}

void *lsk_pinned_ptr(const lsk_pinned *p)
{
  LSK__LIVE_OR(NULL, p, PINNED, __func__, "p");
  return p->ptr;
}

size_t lsk_pinned_size(const lsk_pinned *p)
{
  LSK__LIVE_OR(0, p, PINNED, __func__, "p");
  return p->size;
}
