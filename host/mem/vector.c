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
  lsk_queue *q; /* NULL: the default queue */
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
    rc = lsk_buffer_write(v->count, 0, &zero, sizeof zero);
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

int lsk_vector_set_queue(lsk_vector *v, lsk_queue *q)
{
  LSK__API();
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  int rc = q ? lsk__queue_check(v->ctx, q, __func__, "q") : LSK_OK;
  if (!rc)
    v->q = q;
  return rc;
}

/* The vector's queue, checked (it may have been destroyed since). */
static int queue_of(lsk_vector *v, const char *fn, lsk_queue **q)
{
  *q = v->q ? v->q : lsk__context_queue(v->ctx);
  return v->q ? lsk__queue_check(v->ctx, v->q, fn, "the vector's queue") : LSK_OK;
}

int lsk_vector_clear(lsk_vector *v)
{
  LSK__API();
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  lsk_queue *q;
  int rc = queue_of(v, __func__, &q);
  uint32_t zero = 0;
  return rc ? rc
            : lsk_buffer_fill_async(v->count, &zero, sizeof zero, 0, sizeof zero,
                                    &(lsk_async){.queue = q});
}

/* The raw count after the queue is done, and earlier device verify failures. */
static int read_count(lsk_vector *v, uint32_t *count, const char *fn)
{
  lsk_queue *q;
  int rc = queue_of(v, fn, &q);
  if (!rc)
    rc = lsk__buffer_rw(v->count, 0, 0, count, sizeof *count, q, 1, fn);
  return rc ? rc : lsk__verify_check(q);
}

int lsk_vector_size(lsk_vector *v, size_t *size, size_t *overflow)
{
  LSK__API();
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  if (!size)
    return lsk__fail(v->ctx, LSK_EINVAL, "%s: size is NULL", __func__);
  uint32_t count = 0;
  int rc = read_count(v, &count, __func__);
  if (rc)
    return rc;
  *size = count < v->capacity ? count : v->capacity;
  if (overflow)
    *overflow = count > v->capacity ? count - v->capacity : 0;
  return LSK_OK;
}

int lsk_vector_read(lsk_vector *v, void *dst, size_t max, size_t *n)
{
  LSK__API();
  LSK__LIVE(NULL, v, VECTOR, __func__, "vector");
  if (!n)
    return lsk__fail(v->ctx, LSK_EINVAL, "%s: n is NULL", __func__);
  *n = 0;
  if (!dst && max)
    return lsk__fail(v->ctx, LSK_EINVAL, "%s: dst is NULL with max %zu", __func__, max);
  size_t size;
  int rc = lsk_vector_size(v, &size, NULL);
  if (rc)
    return rc;
  size = size < max ? size : max;
  lsk_queue *q;
  if (size && ((rc = queue_of(v, __func__, &q)) ||
               (rc = lsk__buffer_rw(v->data, 0, 0, dst, size * v->elem_size, q, 1, __func__))))
    return rc;
  *n = size;
  return LSK_OK;
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
