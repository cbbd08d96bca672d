/*
 * vector.c: the host side of the fixed-capacity device vector: a data
 * buffer and a uint count that kernels append to (cl/lsk_vector.h).
 */
#include <stdlib.h>

#include "mem/mem.h"
#include "lsk/vector.h"

struct lsk_vector {
  lsk__handle h;
  lsk_context *ctx;
  size_t elem_size, capacity;
  lsk_buffer *data, *count;
};
static const lsk__htype LSK__H_VECTOR = {"lsk_vector", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_vector);

int lsk_vector_create(lsk_context *ctx, size_t elem_size, size_t capacity, lsk_vector **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (elem_size == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: elem_size is 0", __func__);
  if (capacity > LSK_VECTOR_MAX_CAPACITY)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: capacity %zu exceeds LSK_VECTOR_MAX_CAPACITY (%u: the count is a uint)",
                     __func__, capacity, LSK_VECTOR_MAX_CAPACITY);
  if (capacity > SIZE_MAX / elem_size)
    return lsk__fail(ctx, LSK_ERANGE, "%s: %zu elements of %zu bytes overflow size_t", __func__,
                     capacity, elem_size);
  if (capacity * elem_size > lsk__context_info(ctx)->max_alloc_size)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: %zu elements of %zu bytes exceed the largest allocation of %s (%llu "
                     "bytes)",
                     __func__, capacity, elem_size, lsk__context_info(ctx)->name,
                     (unsigned long long)lsk__context_info(ctx)->max_alloc_size);
  lsk_vector *v = lsk__handle_new(sizeof *v, &LSK__H_VECTOR, ctx);
  if (!v)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  v->ctx = ctx;
  v->elem_size = elem_size;
  v->capacity = capacity;
  /* A buffer cannot be empty: capacity 0 still gets one element. The count
   * is written whole, so it is defined from the start (oclgrind). */
  uint32_t zero = 0;
  int rc = lsk_buffer_create(ctx, (capacity ? capacity : 1) * elem_size, &v->data);
  if (!rc)
    rc = lsk_buffer_create(ctx, sizeof zero, &v->count);
  if (!rc)
    rc = lsk_buffer_write(v->count, 0, &zero, sizeof zero, NULL);
  if (rc) {
    lsk_vector_destroy(v);
    return rc;
  }
  *out = v;
  return LSK_OK;
}

void lsk_vector_destroy(lsk_vector *v)
{
  LSK__DESTROY(v, VECTOR, __func__);
  lsk_buffer_destroy(v->data);
  lsk_buffer_destroy(v->count);
  free(v);
}

int lsk_vector_clear(lsk_vector *v, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  uint32_t zero = 0;
  lsk__on o;
  int rc = lsk__lib_begin(v->ctx, on, __func__, &o);
  if (!rc)
    rc = lsk_buffer_fill(v->count, &zero, sizeof zero, 0, sizeof zero, &(lsk_async){.queue = o.q});
  return lsk__lib_end(v->ctx, &o, rc, __func__);
}

/* The raw count on o's queue, with the reads of that queue's verify
 * records enqueued before it (vc; lsk__verify_done reports them after the
 * call's last blocking read): one round trip, not two. */
static int read_count(lsk_vector *v, lsk__on *o, lsk__vcheck *vc, uint32_t *count, const char *fn)
{
  int rc = lsk__verify_defer(o->q, vc);
  return rc ? rc : lsk__buffer_rw(v->count, 0, 0, count, sizeof *count, o->q, 1, fn);
}

/* The size and overflow of a count. */
static void size_of(const lsk_vector *v, uint32_t count, size_t *size, size_t *overflow)
{
  *size = count < v->capacity ? count : v->capacity;
  if (overflow)
    *overflow = count > v->capacity ? count - v->capacity : 0;
}

int lsk_vector_size(lsk_vector *v, size_t *size, size_t *overflow, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  if (!size)
    return lsk__fail(v->ctx, LSK_EINVAL, "%s: size is NULL", __func__);
  uint32_t count = 0;
  lsk__on o = {0};
  lsk__vcheck vc = {.lo = 1, .hi = 0};
  int rc = lsk__lib_begin(v->ctx, on, __func__, &o);
  if (!rc)
    rc = read_count(v, &o, &vc, &count, __func__);
  rc = lsk__verify_done(o.q, &vc, rc);
  if (!rc)
    size_of(v, count, size, overflow);
  return lsk__lib_end(v->ctx, &o, rc, __func__);
}

int lsk_vector_read(lsk_vector *v, void *dst, size_t max, size_t *n, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  if (!n)
    return lsk__fail(v->ctx, LSK_EINVAL, "%s: n is NULL", __func__);
  *n = 0;
  if (!dst && max)
    return lsk__fail(v->ctx, LSK_EINVAL, "%s: dst is NULL with max %zu", __func__, max);
  uint32_t count = 0;
  size_t size = 0;
  lsk__on o = {0};
  lsk__vcheck vc = {.lo = 1, .hi = 0};
  int rc = lsk__lib_begin(v->ctx, on, __func__, &o);
  if (!rc && !(rc = read_count(v, &o, &vc, &count, __func__))) {
    size_of(v, count, &size, NULL);
    size = size < max ? size : max;
    if (size)
      rc = lsk__buffer_rw(v->data, 0, 0, dst, size * v->elem_size, o.q, 1, __func__);
  }
  rc = lsk__verify_done(o.q, &vc, rc);
  if (!rc)
    *n = size;
  return lsk__lib_end(v->ctx, &o, rc, __func__);
}

size_t lsk_vector_capacity(const lsk_vector *v)
{
  LSK__LIVE_OR(0, v, VECTOR, __func__, "vector");
  return v->capacity;
}
size_t lsk_vector_elem_size(const lsk_vector *v)
{
  LSK__LIVE_OR(0, v, VECTOR, __func__, "vector");
  return v->elem_size;
}
lsk_buffer *lsk_vector_data(const lsk_vector *v)
{
  LSK__LIVE_OR(NULL, v, VECTOR, __func__, "vector");
  return v->data;
}
lsk_buffer *lsk_vector_count(const lsk_vector *v)
{
  LSK__LIVE_OR(NULL, v, VECTOR, __func__, "vector");
  return v->count;
}

int lsk_vector_args(const lsk_vector *v, lsk_arg args[3])
{
  LSK__API();
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  if (!args)
    return lsk__fail(v->ctx, LSK_EINVAL, "%s: args is NULL", __func__);
  args[0] = LSK_ARG_BUFFER(v->data);
  args[1] = LSK_ARG_BUFFER(v->count);
  args[2] = LSK_ARG_UINT((uint32_t)v->capacity);
  return LSK_OK;
}
