/*
 * chunklist.c: chunked lists (include/lsk/chunklist.h, cl/lsk_list.h):
 * the list buffer (header and chunk table), usage, read-back and clear.
 */
#include <stdlib.h>
#include <string.h>

#include "lsk/chunklist.h"
#include "mem/pool.h"

struct lsk_list {
  lsk__handle h;
  lsk_pool *pool;
  lsk_buffer *buf;
  size_t elem_bytes, chunk, chunks;
  unsigned log2;
};
static const lsk__htype LSK__H_LIST = {"lsk_list", &LSK__H_POOL, 0};
LSK__HANDLE_FIRST(lsk_list);

int lsk_list_create(lsk_pool *pool, size_t elem_bytes, size_t chunk, size_t max_length,
                    lsk_list **out)
{
  LSK__API();
  if (out)
    *out = NULL;
  LSK__LIVE(NULL, pool, POOL, __func__, "pool");
  lsk_context *ctx = pool->ctx;
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  if (elem_bytes == 0 || elem_bytes % 4)
    return lsk__fail(ctx, LSK_EINVAL, "%s: elem_bytes %zu: must be a positive multiple of 4",
                     __func__, elem_bytes);
  if (chunk == 0 || (chunk & (chunk - 1)))
    return lsk__fail(ctx, LSK_EINVAL, "%s: chunk %zu: must be a power of two", __func__, chunk);
  if (chunk > pool->cell_words * 4 / elem_bytes)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: a chunk of %zu elements of %zu bytes does not fit the pool's cells of "
                     "%zu bytes",
                     __func__, chunk, elem_bytes, pool->cell_words * 4);
  if (max_length == 0 || max_length > UINT32_MAX)
    return lsk__fail(ctx, LSK_EINVAL, "%s: max_length %zu: must be from 1 to 2^32 - 1", __func__,
                     max_length);
  size_t chunks = (max_length + chunk - 1) / chunk, words = LSK__LIST_HEADER_WORDS + chunks;
  if (words * 4 > lsk__context_info(ctx)->max_alloc_size)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: a table of %zu chunks exceeds the device's largest "
                     "allocation",
                     __func__, chunks);
  lsk_list *l = calloc(1, sizeof *l);
  uint32_t *image = l ? malloc(words * 4) : NULL;
  if (!image) {
    free(l);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory", __func__);
  }
  if (lsk__handle_add(l, &LSK__H_LIST, pool)) {
    free(l);
    free(image);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory", __func__);
  }
  l->pool = pool;
  l->elem_bytes = elem_bytes;
  l->chunk = chunk;
  l->chunks = chunks;
  while ((size_t)1 << l->log2 < chunk)
    ++l->log2;
  memset(image, 0, LSK__LIST_HEADER_WORDS * 4);
  image[LSK__LIST_LOG2] = l->log2;
  image[LSK__LIST_ELEM_BYTES] = (uint32_t)elem_bytes;
  image[LSK__LIST_CHUNKS] = (uint32_t)chunks;
  memset(image + LSK__LIST_HEADER_WORDS, 0xff, chunks * 4);
  int rc = lsk_buffer_create(ctx, words * 4, &l->buf);
  if (!rc)
    rc = lsk_buffer_write(l->buf, 0, image, words * 4, NULL);
  free(image);
  if (rc) {
    lsk_list_destroy(l);
    return rc;
  }
  *out = l;
  return LSK_OK;
}

void lsk_list_destroy(lsk_list *list)
{
  LSK__DESTROY(list, LIST, __func__);
  lsk_buffer_destroy(list->buf);
  free(list);
}

lsk_buffer *lsk_list_buffer(const lsk_list *list)
{
  LSK__LIVE_OR(NULL, list, LIST, __func__, "list");
  return list->buf;
}

/* Header and table on o's queue (a read's: lsk__lib_read_begin waited
 * for the other queues, whose kernels may append); *words malloc'd. */
static int read_all(lsk_list *l, const lsk__on *o, const char *fn, uint32_t **words)
{
  size_t n = LSK__LIST_HEADER_WORDS + l->chunks;
  *words = malloc(n * 4);
  if (!*words)
    return lsk__fail(l->pool->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  int rc = lsk__buffer_rw(l->buf, 0, 0, *words, n * 4, o->q, 1, fn);
  if (rc) {
    free(*words);
    *words = NULL;
  }
  return rc;
}

int lsk_list_usage_get(lsk_list *list, lsk_list_usage *out, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, list, LIST, __func__, "list");
  if (!out)
    return lsk__fail(list->pool->ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  uint32_t *w = NULL;
  lsk__on o;
  lsk__vcheck v;
  int rc = lsk__lib_read_begin(list->pool->ctx, on, __func__, &o, &v);
  if (!rc)
    rc = read_all(list, &o, __func__, &w);
  rc = lsk__lib_read_end(list->pool->ctx, &o, &v, rc, __func__);
  if (rc) {
    free(w);
    return rc;
  }
  memset(out, 0, sizeof *out);
  out->length = w[LSK__LIST_LEN];
  out->max_length = list->chunks * list->chunk;
  out->lost = w[LSK__LIST_LOST];
  for (size_t c = 0; c < list->chunks; ++c)
    out->chunks += w[LSK__LIST_HEADER_WORDS + c] != LSK_POOL_INVALID;
  free(w);
  return LSK_OK;
}

int lsk_list_read(lsk_list *list, size_t first, size_t count, void *dst, size_t dst_bytes,
                  const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, list, LIST, __func__, "list");
  lsk_context *ctx = list->pool->ctx;
  if (!dst && count)
    return lsk__fail(ctx, LSK_EINVAL, "%s: dst is NULL", __func__);
  if (count > dst_bytes / list->elem_bytes)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: dst_bytes %zu holds fewer than count %zu elements of %zu bytes", __func__,
                     dst_bytes, count, list->elem_bytes);
  uint32_t *w = NULL;
  lsk__on o;
  lsk__vcheck v;
  int rc = lsk__lib_read_begin(ctx, on, __func__, &o, &v);
  if (!rc)
    rc = read_all(list, &o, __func__, &w);
  if (rc)
    return lsk__lib_read_end(ctx, &o, &v, rc, __func__);
  size_t len = w[LSK__LIST_LEN];
  if (first > len || count > len - first)
    rc = lsk__fail(ctx, LSK_ERANGE, "%s: first %zu + count %zu pass the length %zu", __func__,
                   first, count, len);
  /* One read per chunk the range touches. */
  unsigned char *out = dst;
  for (size_t i = first; !rc && i < first + count;) {
    size_t c = i >> list->log2, pos = i & (list->chunk - 1);
    size_t k = list->chunk - pos < first + count - i ? list->chunk - pos : first + count - i;
    uint32_t cell = c < list->chunks ? w[LSK__LIST_HEADER_WORDS + c] : LSK_POOL_INVALID;
    if (cell == LSK_POOL_INVALID || cell >= list->pool->capacity)
      rc = lsk__fail(ctx, LSK_ERANGE,
                     "%s: element %zu has no storage (lost: the pool was "
                     "exhausted or the list full when it was appended)",
                     __func__, i);
    else
      rc = lsk__buffer_rw(lsk_pool_buffer(list->pool), 0,
                          lsk_pool_cell_offset(list->pool, cell) + pos * list->elem_bytes,
                          out + (i - first) * list->elem_bytes, k * list->elem_bytes, o.q, 1,
                          __func__);
    i += k;
  }
  free(w);
  return lsk__lib_read_end(ctx, &o, &v, rc, __func__);
}

int lsk_list_clear(lsk_list *list, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, list, LIST, __func__, "list");
  lsk_context *ctx = list->pool->ctx;
  lsk_kernel *k;
  int rc = lsk__lib_kernel(ctx, LSK__LIB_POOL, "lsk_list_clear", &k);
  if (rc)
    return rc;
  lsk_launch l = {.domain = {256},
                  .blocks = {lsk_auto_blocks(lsk__context_info(ctx), list->chunks, 256, 0)}};
  lsk__on o;
  if (!(rc = lsk__lib_begin(ctx, on, __func__, &o)))
    rc = lsk__launch_q(
        k, o.q, __func__, &l,
        LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(list->pool)), LSK_ARG_BUFFER(list->buf)));
  return lsk__lib_end(ctx, &o, rc, __func__);
}
