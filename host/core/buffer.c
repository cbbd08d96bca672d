/*
 * buffer.c: device buffers with size checks on every transfer.
 */
#include <stdlib.h>

#include "internal.h"

const lsk__htype LSK__H_BUFFER = {"lsk_buffer", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_buffer);

int lsk_buffer_create(lsk_context *ctx, size_t size, lsk_buffer **out)
{
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "lsk_buffer_create: out is NULL");
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, "lsk_buffer_create", "ctx");
  if (size == 0)
    return lsk__fail(ctx, LSK_EINVAL, "lsk_buffer_create: size is 0");
  if (size > ctx->info.max_alloc_size)
    return lsk__fail(
        ctx, LSK_ERANGE,
        "lsk_buffer_create: size %zu exceeds the largest allocation of %s (%llu bytes)", size,
        ctx->info.name, (unsigned long long)ctx->info.max_alloc_size);
  /* The context's buffers together within the device's global memory,
   * reserved before the driver is asked (a CAS, as several threads may
   * create buffers at once). */
  uint64_t held = atomic_load(&ctx->allocated), global = ctx->info.global_mem_size;
  do {
    if (global && (size > global || held > global - size))
      return lsk__fail(ctx, LSK_ERANGE,
                       "lsk_buffer_create: size %zu with the %llu bytes this context's buffers "
                       "hold exceeds the global memory of %s (%llu bytes)",
                       size, (unsigned long long)held, ctx->info.name, (unsigned long long)global);
  } while (!atomic_compare_exchange_weak(&ctx->allocated, &held, held + size));
  lsk_buffer *b = calloc(1, sizeof *b);
  if (!b) {
    atomic_fetch_sub(&ctx->allocated, size);
    return lsk__fail(ctx, LSK_ENOMEM, "lsk_buffer_create: out of memory");
  }
  cl_int err;
  b->mem = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, size, NULL, &err);
  if (err) {
    free(b);
    atomic_fetch_sub(&ctx->allocated, size);
    return lsk__fail_cl(ctx, err, "clCreateBuffer", " (%zu bytes)", size);
  }
  if (lsk__handle_add(b, &LSK__H_BUFFER, ctx)) {
    clReleaseMemObject(b->mem);
    free(b);
    atomic_fetch_sub(&ctx->allocated, size);
    return lsk__fail(ctx, LSK_ENOMEM, "lsk_buffer_create: out of memory");
  }
  b->ctx = ctx;
  b->size = size;
  *out = b;
  return LSK_OK;
}

void lsk_buffer_destroy(lsk_buffer *buf)
{
  LSK__DESTROY(buf, BUFFER, "lsk_buffer_destroy");
  clReleaseMemObject(buf->mem);
  /* An orphan (its context destroyed first) has no count to give back. */
  if (lsk__handle_live(buf->ctx, &LSK__H_CONTEXT))
    atomic_fetch_sub(&buf->ctx->allocated, buf->size);
  free(buf);
}

size_t lsk_buffer_size(const lsk_buffer *buf)
{
  LSK__LIVE_OR(0, buf, BUFFER, "lsk_buffer_size", "buf");
  return buf->size;
}

cl_mem lsk_buffer_cl(const lsk_buffer *buf)
{
  LSK__LIVE_OR(NULL, buf, BUFFER, "lsk_buffer_cl", "buf");
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

int lsk_buffer_write(lsk_buffer *buf, size_t offset, const void *src, size_t size)
{
  int rc = check_range("lsk_buffer_write", buf, offset, size, src, 1);
  if (rc || size == 0)
    return rc;
  cl_int err =
      clEnqueueWriteBuffer(buf->ctx->queue, buf->mem, CL_TRUE, offset, size, src, 0, NULL, NULL);
  return err ? lsk__fail_cl(buf->ctx, err, "clEnqueueWriteBuffer", " (%zu bytes)", size) : LSK_OK;
}

int lsk_buffer_read(lsk_buffer *buf, size_t offset, void *dst, size_t size)
{
  int rc = check_range("lsk_buffer_read", buf, offset, size, dst, 1);
  if (rc || size == 0)
    return rc;
  cl_int err =
      clEnqueueReadBuffer(buf->ctx->queue, buf->mem, CL_TRUE, offset, size, dst, 0, NULL, NULL);
  return err ? lsk__fail_cl(buf->ctx, err, "clEnqueueReadBuffer", " (%zu bytes)", size) : LSK_OK;
}

int lsk_buffer_fill(lsk_buffer *buf, const void *pattern, size_t pattern_size, size_t offset,
                    size_t size)
{
  LSK__LIVE(NULL, buf, BUFFER, "lsk_buffer_fill", "buf");
  if (!pattern)
    return lsk__fail(buf->ctx, LSK_EINVAL, "lsk_buffer_fill: pattern is NULL");
  int rc = check_range("lsk_buffer_fill", buf, offset, size, pattern, 1);
  if (rc)
    return rc;
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
    return lsk__fail(buf->ctx, LSK_EINVAL,
                     "lsk_buffer_fill: pattern_size %zu is not a power of two up to 128",
                     pattern_size);
  if (offset % pattern_size || size % pattern_size)
    return lsk__fail(buf->ctx, LSK_EINVAL,
                     "lsk_buffer_fill: offset %zu and size %zu must be multiples of pattern_size "
                     "%zu",
                     offset, size, pattern_size);
  if (size == 0)
    return LSK_OK;
  cl_int err = clEnqueueFillBuffer(buf->ctx->queue, buf->mem, pattern, pattern_size, offset, size,
                                   0, NULL, NULL);
  return err ? lsk__fail_cl(buf->ctx, err, "clEnqueueFillBuffer", " (%zu bytes)", size) : LSK_OK;
}

int lsk_buffer_map(lsk_buffer *buf, size_t offset, size_t size, void **ptr)
{
  if (ptr)
    *ptr = NULL;
  LSK__LIVE(NULL, buf, BUFFER, "lsk_buffer_map", "buf");
  if (!ptr)
    return lsk__fail(buf->ctx, LSK_EINVAL, "lsk_buffer_map: ptr is NULL");
  int rc = check_range("lsk_buffer_map", buf, offset, size, NULL, 0);
  if (rc)
    return rc;
  if (size == 0)
    return lsk__fail(buf->ctx, LSK_EINVAL, "lsk_buffer_map: size is 0");
  cl_int err;
  *ptr = clEnqueueMapBuffer(buf->ctx->queue, buf->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, offset,
                            size, 0, NULL, NULL, &err);
  if (err) {
    *ptr = NULL;
    return lsk__fail_cl(buf->ctx, err, "clEnqueueMapBuffer", " (%zu bytes)", size);
  }
  return LSK_OK;
}

int lsk_buffer_unmap(lsk_buffer *buf, void *ptr)
{
  LSK__LIVE(NULL, buf, BUFFER, "lsk_buffer_unmap", "buf");
  if (!ptr)
    return lsk__fail(buf->ctx, LSK_EINVAL, "lsk_buffer_unmap: ptr is NULL");
  cl_int err = clEnqueueUnmapMemObject(buf->ctx->queue, buf->mem, ptr, 0, NULL, NULL);
  if (!err)
    err = clFinish(buf->ctx->queue);
  return err ? lsk__fail_cl(buf->ctx, err, "clEnqueueUnmapMemObject", "%s", "") : LSK_OK;
}
