/*
 * buffer.c: device buffers with size checks on every transfer.
 */
#include <stdlib.h>

#include "core/objects.h"

const lsk__htype LSK__H_BUFFER = {"lsk_buffer", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_buffer);

/* Reserves bytes of the device's global memory for ctx (a CAS: several
 * threads may create buffers at once): PoCL accepts more than it can back
 * and aborts at first use. */
static int reserve(lsk_context *ctx, size_t bytes)
{
  uint64_t held = atomic_load(&ctx->allocated), global = ctx->info.global_mem_size;
  do {
    if (global && (bytes > global || held > global - bytes))
      return LSK_ERANGE;
  } while (!atomic_compare_exchange_weak(&ctx->allocated, &held, held + bytes));
  return LSK_OK;
}

static cl_int try_create(lsk_context *ctx, size_t bytes, const void *init, cl_mem *out)
{
  if (reserve(ctx, bytes))
    return 1;
  cl_int err;
  *out = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                        (void *)init, &err);
  if (err) {
    *out = NULL;
    atomic_fetch_sub(&ctx->allocated, bytes);
  }
  return err;
}

int lsk__mem_create(lsk_context *ctx, size_t bytes, const char *fn, cl_mem *out)
{
  return lsk__mem_create_init(ctx, bytes, NULL, fn, out);
}

int lsk__mem_create_init(lsk_context *ctx, size_t bytes, const void *init, const char *fn,
                         cl_mem *out)
{
  if (bytes > ctx->info.max_alloc_size)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: size %zu exceeds the largest allocation of %s (%llu bytes)", fn, bytes,
                     ctx->info.name, (unsigned long long)ctx->info.max_alloc_size);
  cl_int err = try_create(ctx, bytes, init, out);
  /* Memory held idle (by the buffer cache) is the first to give back. */
  if (err && ctx->reclaim && ctx->reclaim(ctx) > 0)
    err = try_create(ctx, bytes, init, out);
  if (err == 1)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: size %zu with the %llu bytes this context's buffers hold exceeds the "
                     "global memory of %s (%llu bytes)",
                     fn, bytes, (unsigned long long)atomic_load(&ctx->allocated), ctx->info.name,
                     (unsigned long long)ctx->info.global_mem_size);
  if (err)
    return lsk__fail_cl(ctx, err, "clCreateBuffer", " (%s, %zu bytes)", fn, bytes);
  return LSK_OK;
}

void lsk__mem_release(lsk_context *ctx, cl_mem mem, size_t bytes)
{
  clReleaseMemObject(mem);
  /* An orphan (its context destroyed first) has no count to give back. */
  if (lsk__handle_live(ctx, &LSK__H_CONTEXT))
    atomic_fetch_sub(&ctx->allocated, bytes);
}

int lsk__buffer_wrap(lsk_context *ctx, cl_mem mem, size_t size, const char *fn, lsk_buffer **out)
{
  lsk_buffer *b = calloc(1, sizeof *b);
  if (!b || lsk__handle_add(b, &LSK__H_BUFFER, ctx)) {
    free(b);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  }
  b->ctx = ctx;
  b->mem = mem;
  b->size = size;
  b->cap = size;
  *out = b;
  return LSK_OK;
}

int lsk_buffer_create(lsk_context *ctx, size_t size, lsk_buffer **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (size == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: size is 0", __func__);
  cl_mem mem;
  int rc = lsk__mem_create(ctx, size, __func__, &mem);
  if (!rc && (rc = lsk__buffer_wrap(ctx, mem, size, __func__, out)) != LSK_OK)
    lsk__mem_release(ctx, mem, size);
  return rc;
}

void lsk_buffer_destroy(lsk_buffer *buf)
{
  LSK__DESTROY(buf, BUFFER, __func__);
  if (buf->release && lsk__handle_live(buf->ctx, &LSK__H_CONTEXT))
    buf->release(buf);
  else
    lsk__mem_release(buf->ctx, buf->mem, buf->cap);
  free(buf);
}

size_t lsk_buffer_size(const lsk_buffer *buf)
{
  LSK__LIVE_OR(0, buf, BUFFER, __func__, "buf");
  return buf->size;
}

cl_mem lsk_buffer_cl(const lsk_buffer *buf)
{
  LSK__LIVE_OR(NULL, buf, BUFFER, __func__, "buf");
  return buf->mem;
}

/* The common checks: buffer, pointer, range. */
static int check_range(const char *fn, lsk_buffer *buf, size_t offset, size_t size, const void *ptr,
                       int need_ptr)
{
  LSK__LIVE(NULL, buf, BUFFER, fn, "buf");
  if (need_ptr && !ptr && size)
    return lsk__fail(buf->ctx, LSK_EINVAL, "%s: host pointer is NULL", fn);
  if (offset > buf->size || size > buf->size - offset)
    return lsk__fail(buf->ctx, LSK_ERANGE,
                     "%s: offset %zu + size %zu exceeds the buffer's %zu bytes", fn, offset, size,
                     buf->size);
  return LSK_OK;
}

/* One command of the transfers below: a write or read between host memory
 * (ptr) and buf, a fill of buf with the pattern at ptr, a copy from src
 * into buf, a map of buf (its pointer to *mapped) or the unmap of ptr. */
typedef struct cmd {
  lsk__op op; /* LSK__OP_WRITE, _READ, _FILL, _COPY, _MAP or _UNMAP */
  lsk_buffer *buf;
  const lsk_buffer *src;
  size_t offset, src_offset, size;
  void *ptr;
  size_t pattern_size;
  cl_bool blocking;
  void **mapped;
} cmd;

/* c on o's queue, after its wait list, its event to the caller if asked
 * and to the trace if it records. A transfer of size 0 moves nothing: a
 * marker stands in where a wait list or an event needs a command, else
 * nothing is enqueued. Where the queue's blocking calls may return early
 * (ctx->wait_by_event), a blocking one is enqueued without blocking and
 * waited for by its own event. */
static int enqueue_on(const cmd *c, lsk__on *o, const char *fn)
{
  static const char *const what[] = {
      [LSK__OP_WRITE] = "write", [LSK__OP_READ] = "read", [LSK__OP_FILL] = "fill",
      [LSK__OP_COPY] = "copy",   [LSK__OP_MAP] = "map",   [LSK__OP_UNMAP] = "unmap"};
  lsk_context *ctx = c->buf->ctx;
  int own = c->blocking && ctx->wait_by_event;
  cl_bool blocking = own ? CL_FALSE : c->blocking;
  cl_event ev = NULL, *evp = own || lsk__on_wants_event(ctx, o) ? &ev : NULL;
  const cl_event *wl = o->nwait ? o->wait : NULL;
  cl_command_queue q = o->q->cl;
  cl_mem mem = c->buf->mem;
  cl_int err;
  const char *call;
  if (c->size == 0 && c->op != LSK__OP_UNMAP) {
    if (!o->nwait && !o->event)
      return LSK_OK;
    call = "clEnqueueMarkerWithWaitList";
    err = clEnqueueMarkerWithWaitList(q, o->nwait, wl, evp);
  } else if (c->op == LSK__OP_WRITE) {
    call = "clEnqueueWriteBuffer";
    err = clEnqueueWriteBuffer(q, mem, blocking, c->offset, c->size, c->ptr, o->nwait, wl, evp);
  } else if (c->op == LSK__OP_READ) {
    call = "clEnqueueReadBuffer";
    err = clEnqueueReadBuffer(q, mem, blocking, c->offset, c->size, c->ptr, o->nwait, wl, evp);
  } else if (c->op == LSK__OP_FILL) {
    call = "clEnqueueFillBuffer";
    err =
        clEnqueueFillBuffer(q, mem, c->ptr, c->pattern_size, c->offset, c->size, o->nwait, wl, evp);
  } else if (c->op == LSK__OP_COPY) {
    call = "clEnqueueCopyBuffer";
    err = clEnqueueCopyBuffer(q, c->src->mem, mem, c->src_offset, c->offset, c->size, o->nwait, wl,
                              evp);
  } else if (c->op == LSK__OP_MAP) {
    call = "clEnqueueMapBuffer";
    *c->mapped = clEnqueueMapBuffer(q, mem, blocking, CL_MAP_READ | CL_MAP_WRITE, c->offset,
                                    c->size, o->nwait, wl, evp, &err);
    if (err)
      *c->mapped = NULL;
  } else {
    call = "clEnqueueUnmapMemObject";
    err = clEnqueueUnmapMemObject(q, mem, c->ptr, o->nwait, wl, evp);
  }
  if (!err && own && ev && (err = clWaitForEvents(1, &ev)) != CL_SUCCESS) {
    call = "clWaitForEvents";
    clReleaseEvent(ev);
    if (c->op == LSK__OP_MAP)
      *c->mapped = NULL;
  }
  if (err)
    return lsk__fail_cl(ctx, err, call, " (%zu bytes, queue '%s')", c->size, o->q->name);
  if (ctx->trace && ev)
    lsk__trace_add(o->q, c->op, what[c->op], NULL, c->size, ev);
  return lsk__on_done(ctx, o, ev, what[c->op], fn);
}

/* enqueue_on after the caller's lsk_async is checked and resolved; a host
 * transfer (write, read, map) blocks unless on asks it not to, and only it
 * may ask. */
static int enqueue(const cmd *c, const lsk_async *on, const char *fn)
{
  int host = c->op == LSK__OP_WRITE || c->op == LSK__OP_READ || c->op == LSK__OP_MAP;
  lsk__on o;
  int rc = lsk__on_resolve_flags(c->buf->ctx, on, host ? LSK_ASYNC_NONBLOCKING : 0, fn, &o);
  if (rc)
    return rc;
  cmd cb = *c;
  cb.blocking = host && !(on && (on->flags & LSK_ASYNC_NONBLOCKING)) ? CL_TRUE : CL_FALSE;
  return enqueue_on(&cb, &o, fn);
}

static int transfer(lsk__op op, lsk_buffer *buf, size_t offset, void *ptr, size_t size,
                    const lsk_async *on, const char *fn)
{
  if (on && on->event)
    *on->event = NULL;
  int rc = check_range(fn, buf, offset, size, ptr, 1);
  if (rc)
    return rc;
  cmd c = {.op = op, .buf = buf, .offset = offset, .size = size, .ptr = ptr};
  return enqueue(&c, on, fn);
}

/* The library's own transfers on a queue it holds: no lsk_async to check,
 * only the buffer, the range and that the queue still lives. */
int lsk__buffer_rw(lsk_buffer *buf, int write, size_t offset, void *ptr, size_t size, lsk_queue *q,
                   int blocking, const char *fn)
{
  int rc = check_range(fn, buf, offset, size, ptr, 1);
  if (!rc)
    rc = lsk__queue_usable(buf->ctx, q, fn);
  if (rc)
    return rc;
  cmd c = {.op = write ? LSK__OP_WRITE : LSK__OP_READ,
           .buf = buf,
           .offset = offset,
           .size = size,
           .ptr = ptr,
           .blocking = blocking ? CL_TRUE : CL_FALSE};
  lsk__on o = {.q = q};
  return enqueue_on(&c, &o, fn);
}

int lsk_buffer_write(lsk_buffer *buf, size_t offset, const void *src, size_t size,
                     const lsk_async *on)
{
  LSK__API();
  return transfer(LSK__OP_WRITE, buf, offset, (void *)src, size, on, __func__);
}

int lsk_buffer_read(lsk_buffer *buf, size_t offset, void *dst, size_t size, const lsk_async *on)
{
  LSK__API();
  return transfer(LSK__OP_READ, buf, offset, dst, size, on, __func__);
}

int lsk_buffer_fill(lsk_buffer *buf, const void *pattern, size_t pattern_size, size_t offset,
                    size_t size, const lsk_async *on)
{
  LSK__API();
  const char *fn = __func__;
  if (on && on->event)
    *on->event = NULL;
  LSK__LIVE(NULL, buf, BUFFER, fn, "buf");
  if (!pattern)
    return lsk__fail(buf->ctx, LSK_EINVAL, "%s: pattern is NULL", fn);
  int rc = check_range(fn, buf, offset, size, pattern, 1);
  if (rc)
    return rc;
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
    return lsk__fail(buf->ctx, LSK_EINVAL, "%s: pattern_size %zu is not a power of two up to 128",
                     fn, pattern_size);
  if (offset % pattern_size || size % pattern_size)
    return lsk__fail(buf->ctx, LSK_EINVAL,
                     "%s: offset %zu and size %zu must be multiples of pattern_size %zu", fn,
                     offset, size, pattern_size);
  cmd c = {.op = LSK__OP_FILL,
           .buf = buf,
           .offset = offset,
           .size = size,
           .ptr = (void *)pattern,
           .pattern_size = pattern_size};
  return enqueue(&c, on, fn);
}

int lsk_buffer_copy(lsk_buffer *dst, size_t dst_offset, const lsk_buffer *src, size_t src_offset,
                    size_t size, const lsk_async *on)
{
  LSK__API();
  if (on && on->event)
    *on->event = NULL;
  LSK__LIVE(NULL, dst, BUFFER, __func__, "dst");
  lsk_context *ctx = dst->ctx;
  int rc = lsk__handle_check(ctx, src, &LSK__H_BUFFER, __func__, "src");
  if (rc)
    return rc;
  if (src->ctx != ctx)
    return lsk__fail(ctx, LSK_EINVAL, "%s: src belongs to another context than dst", __func__);
  if (dst_offset > dst->size || size > dst->size - dst_offset || src_offset > src->size ||
      size > src->size - src_offset)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: %zu bytes from offset %zu of %zu (src) to offset %zu of %zu (dst) "
                     "exceed a buffer",
                     __func__, size, src_offset, src->size, dst_offset, dst->size);
  if (src == dst && size && src_offset < dst_offset + size && dst_offset < src_offset + size)
    return lsk__fail(ctx, LSK_EINVAL, "%s: [%zu, +%zu) and [%zu, +%zu) of one buffer overlap",
                     __func__, src_offset, size, dst_offset, size);
  cmd c = {.op = LSK__OP_COPY,
           .buf = dst,
           .src = src,
           .offset = dst_offset,
           .src_offset = src_offset,
           .size = size};
  return enqueue(&c, on, __func__);
}

int lsk_buffer_map(lsk_buffer *buf, size_t offset, size_t size, void **ptr, const lsk_async *on)
{
  LSK__API();
  const char *fn = __func__;
  if (ptr)
    *ptr = NULL;
  if (on && on->event)
    *on->event = NULL;
  LSK__LIVE(NULL, buf, BUFFER, fn, "buf");
  if (!ptr)
    return lsk__fail(buf->ctx, LSK_EINVAL, "%s: ptr is NULL", fn);
  int rc = check_range(fn, buf, offset, size, NULL, 0);
  if (rc)
    return rc;
  if (size == 0)
    return lsk__fail(buf->ctx, LSK_EINVAL, "%s: size is 0", fn);
  cmd c = {.op = LSK__OP_MAP, .buf = buf, .offset = offset, .size = size, .mapped = ptr};
  return enqueue(&c, on, fn);
}

int lsk_buffer_unmap(lsk_buffer *buf, void *ptr, const lsk_async *on)
{
  LSK__API();
  if (on && on->event)
    *on->event = NULL;
  LSK__LIVE(NULL, buf, BUFFER, __func__, "buf");
  if (!ptr)
    return lsk__fail(buf->ctx, LSK_EINVAL, "%s: ptr is NULL", __func__);
  cmd c = {.op = LSK__OP_UNMAP, .buf = buf, .ptr = ptr};
  return enqueue(&c, on, __func__);
}

int lsk__buffer_share(lsk_context *ctx, const lsk_buffer *src, const char *fn, lsk_buffer **out)
{
  if (reserve(ctx, src->size))
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: %zu bytes with the %llu bytes this context's buffers hold exceed the "
                     "global memory of %s (%llu bytes)",
                     fn, src->size, (unsigned long long)atomic_load(&ctx->allocated),
                     ctx->info.name, (unsigned long long)ctx->info.global_mem_size);
  cl_int err = clRetainMemObject(src->mem);
  if (err) {
    atomic_fetch_sub(&ctx->allocated, src->size);
    return lsk__fail_cl(ctx, err, "clRetainMemObject", " (%s)", fn);
  }
  int rc = lsk__buffer_wrap(ctx, src->mem, src->size, fn, out);
  if (rc)
    lsk__mem_release(ctx, src->mem, src->size);
  return rc;
}

/* The accessors of core.h, for the layers above: no checks. */
cl_mem lsk__buffer_mem(const lsk_buffer *buf) { return buf->mem; }
size_t lsk__buffer_size(const lsk_buffer *buf) { return buf->size; }
lsk_context *lsk__buffer_context(const lsk_buffer *buf) { return buf->ctx; }
int lsk__buffer_cached(const lsk_buffer *buf) { return buf->release != NULL; }

size_t lsk__buffers_live(lsk_context *ctx, const lsk_arg *args, size_t nargs)
{
  size_t i = 0;
  lsk__hset_lock(&ctx->kids);
  while (i < nargs && (args[i].kind != LSK_ARG_KIND_BUFFER ||
                       lsk__hset_has(&ctx->kids, args[i].v.buffer, &LSK__H_BUFFER)))
    ++i;
  lsk__hset_unlock(&ctx->kids);
  return i;
}

int lsk__buffer_create_init(lsk_context *ctx, size_t size, const void *init, const char *fn,
                            lsk_buffer **out)
{
  cl_mem mem;
  int rc = lsk__mem_create_init(ctx, size, init, fn, &mem);
  if (!rc && (rc = lsk__buffer_wrap(ctx, mem, size, fn, out)) != LSK_OK)
    lsk__mem_release(ctx, mem, size);
  return rc;
}
