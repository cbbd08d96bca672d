/*
 * assoc.c: the one-to-many association (include/lsk/assoc.h): its own
 * device buffers, and a build as four passes on the context's queue:
 * zero the counts (only when the last build did not leave them at zero),
 * count (kernels/assoc.cl), scan the counts into offsets (lsk_scan), fill;
 * or, for keys in order, a search for each key's first element and a
 * pass that stores the elements (lsk_assoc_sorted_offsets, _content).
 */
#include <stdlib.h>
#include <string.h>

#include "algo/algo.h"

struct lsk_assoc {
  lsk__handle h;
  lsk_context *ctx;
  uint32_t nkeys;
  size_t capacity;
  lsk_algo_options algo;
  lsk_async on; /* algo.on: the queue below */
  lsk_queue *q;
  lsk_buffer *counts;  /* nkeys + 1 uints; zero between builds */
  lsk_buffer *offsets; /* nkeys + 1 uints */
  lsk_buffer *content; /* capacity uints, at least 1 */
  /* The counts may not be zero: new, or the last build stopped between
   * its count and its fill (an enqueue failed). */
  int counts_dirty;
  size_t n; /* elements of the last build */
  /* The offsets read back for lsk_assoc_range; valid until a build. */
  uint32_t *host_offsets;
  int host_valid;
};
static const lsk__htype LSK__H_ASSOC = {"lsk_assoc", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_assoc);

/* The capacity limits: lsk's, then the device's largest buffer. */
static int check_capacity(lsk_context *ctx, const char *fn, size_t capacity)
{
  if (capacity > LSK_ASSOC_MAX_ELEMENTS)
    return lsk__fail(ctx, LSK_ERANGE, "%s: capacity %zu exceeds 2^28 elements", fn, capacity);
  if ((uint64_t)capacity * 4 > lsk__context_info(ctx)->max_alloc_size)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: capacity %zu needs %zu bytes, more than the device's largest buffer "
                     "(%llu bytes)",
                     fn, capacity, capacity * 4,
                     (unsigned long long)lsk__context_info(ctx)->max_alloc_size);
  return LSK_OK;
}

/* Most arguments of a pass (run() adds per_block). */
#define RUN_ARGS 7

/* Launches kernels/assoc.cl's kernel `name`, a device-wide pass over
 * `items` (planned with the association's algo options), with the
 * arguments args..., then per_block (every pass ends with it). */
static int run(lsk_assoc *a, const char *fn, const char *name, size_t items, const lsk_arg *args,
               size_t nargs)
{
  lsk__plan p;
  lsk_kernel *k;
  lsk_arg all[RUN_ARGS + 1];
  int rc = lsk__algo_plan(a->ctx, fn, items, &a->algo, &p);
  if (!rc)
    rc = lsk__lib_kernel(a->ctx, LSK__LIB_ASSOC, name, &k);
  if (rc)
    return rc;
  memcpy(all, args, nargs * sizeof *all);
  all[nargs] = LSK_ARG_UINT((uint32_t)p.per_block);
  lsk_launch l = lsk__plan_launch(&p, p.blocks);
  return lsk__launch_q(k, a->q, fn, &l, all, nargs + 1);
}

/* x[0, n) = 0 on the device, with whole-buffer kernel writes (oclgrind
 * does not count clEnqueueFillBuffer as initializing). */
static int zero(lsk_assoc *a, const char *fn, lsk_buffer *x, size_t n)
{
  return run(a, fn, "lsk_assoc_zero", n, LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT((uint32_t)n)));
}

int lsk_assoc_create(lsk_context *ctx, size_t nkeys, size_t capacity, const lsk_assoc_options *opt,
                     lsk_assoc **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (nkeys == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: nkeys is 0", __func__);
  if (nkeys > LSK_ASSOC_MAX_KEYS)
    return lsk__fail(ctx, LSK_ERANGE, "%s: nkeys %zu exceeds 2^24", __func__, nkeys);
  int rc = check_capacity(ctx, __func__, capacity);
  lsk__plan p;
  if (rc || (rc = lsk__algo_plan(ctx, __func__, 0, opt ? &opt->algo : NULL, &p)))
    return rc;
  if (opt && opt->algo.on)
    return lsk__fail(ctx, LSK_EINVAL, "%s: opt->algo.on is set; an association takes opt->queue",
                     __func__);
  if (opt && opt->queue) {
    if ((rc = lsk__queue_check(ctx, opt->queue, __func__, "opt->queue")))
      return rc;
  }
  lsk_assoc *a = lsk__handle_new(sizeof *a, &LSK__H_ASSOC, ctx);
  if (!a)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  a->ctx = ctx;
  a->nkeys = (uint32_t)nkeys;
  a->capacity = capacity;
  a->algo = opt ? opt->algo : (lsk_algo_options){0};
  a->q = opt && opt->queue ? opt->queue : lsk__context_queue(ctx);
  a->on.queue = a->q;
  a->algo.on = &a->on;
  a->counts_dirty = 1;
  size_t bytes = (nkeys + 1) * sizeof(uint32_t);
  rc = lsk_buffer_create(ctx, bytes, &a->counts);
  if (!rc)
    rc = lsk_buffer_create(ctx, bytes, &a->offsets);
  if (!rc)
    rc = lsk_buffer_create(ctx, (capacity ? capacity : 1) * sizeof(uint32_t), &a->content);
  /* Empty until the first build: every range [0, 0). */
  if (!rc)
    rc = zero(a, __func__, a->offsets, nkeys + 1);
  if (rc) {
    lsk_assoc_destroy(a);
    return rc;
  }
  *out = a;
  return LSK_OK;
}

void lsk_assoc_destroy(lsk_assoc *a)
{
  LSK__DESTROY(a, ASSOC, __func__);
  lsk_buffer_destroy(a->counts);
  lsk_buffer_destroy(a->offsets);
  lsk_buffer_destroy(a->content);
  free(a->host_offsets);
  free(a);
}

int lsk_assoc_reserve(lsk_assoc *a, size_t capacity)
{
  LSK__API();
  LSK__LIVE(NULL, a, ASSOC, __func__, "a");
  int rc = check_capacity(a->ctx, __func__, capacity);
  if (rc || capacity <= a->capacity)
    return rc;
  lsk_buffer *b;
  if ((rc = lsk_buffer_create(a->ctx, capacity * sizeof(uint32_t), &b)))
    return rc;
  /* Safe with work queued: OpenCL keeps the old memory until it is done.
   * The offsets still describe the old content, which is gone: empty the
   * association rather than leave ranges over undefined memory. */
  lsk_buffer_destroy(a->content);
  a->content = b;
  a->capacity = capacity;
  a->n = 0;
  a->host_valid = 0;
  return zero(a, __func__, a->offsets, (size_t)a->nkeys + 1);
}

/* The keys of a build: the head of every pass's arguments but zero's. */
#define KEYS_HEAD(keys, offset, n)                                                                 \
  LSK_ARG_BUFFER(keys), LSK_ARG_UINT((uint32_t)(offset)), LSK_ARG_UINT((uint32_t)(n))

/* Keys per index of lsk_assoc_sorted_offsets. */
#define SORTED_RUN 16u

/* The checks that both builds make, and the state they both reset. */
static int build_args(lsk_assoc *a, const char *fn, lsk_buffer *keys, size_t offset, size_t n)
{
  lsk_context *ctx = a->ctx;
  int rc = lsk__check_span(ctx, fn, "keys", keys, offset, n, sizeof(uint32_t));
  if (rc)
    return rc;
  if (keys == a->counts || keys == a->offsets || keys == a->content)
    return lsk__fail(ctx, LSK_EINVAL, "%s: keys is one of the association's own buffers", fn);
  if (n > a->capacity)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: n %zu exceeds the capacity of %zu elements (see lsk_assoc_reserve)", fn,
                     n, a->capacity);
  a->host_valid = 0;
  a->n = 0;
  return LSK_OK;
}

int lsk_assoc_build_sorted(lsk_assoc *a, lsk_buffer *keys, size_t offset, size_t n)
{
  LSK__API();
  LSK__LIVE(NULL, a, ASSOC, __func__, "a");
  int rc = build_args(a, __func__, keys, offset, n);
  if (rc)
    return rc;
  /* No element: every offset is 0. The counts are not used (nor dirtied).
   * Else the offsets, a run of keys per index, then the content and the
   * check of the order. */
  size_t runs = ((size_t)a->nkeys + SORTED_RUN) / SORTED_RUN; /* nkeys + 1 offsets */
  if (n == 0)
    rc = zero(a, __func__, a->offsets, (size_t)a->nkeys + 1);
  else if (!(rc = run(a, __func__, "lsk_assoc_sorted_offsets", runs,
                      LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->offsets),
                               LSK_ARG_UINT(a->nkeys), LSK_ARG_UINT(SORTED_RUN)))))
    rc = run(
        a, __func__, "lsk_assoc_sorted_content", n,
        LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->content), LSK_ARG_UINT(a->nkeys)));
  if (!rc)
    a->n = n;
  return rc;
}

int lsk_assoc_build(lsk_assoc *a, lsk_buffer *keys, size_t offset, size_t n)
{
  LSK__API();
  LSK__LIVE(NULL, a, ASSOC, __func__, "a");
  lsk_context *ctx = a->ctx;
  int rc = build_args(a, __func__, keys, offset, n);
  if (rc)
    return rc;
  size_t nc = (size_t)a->nkeys + 1;
  if (a->counts_dirty && (rc = zero(a, __func__, a->counts, nc)))
    return rc;
  a->counts_dirty = 1;
  /* counts[nkeys] is never counted, so the exclusive scan's last offset is
   * the number stored. n = 0 still scans: the offsets become all zero. */
  if ((n && (rc = run(a, __func__, "lsk_assoc_count", n,
                      LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->counts),
                               LSK_ARG_UINT(a->nkeys))))) ||
      (rc = lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a->counts, 0, a->offsets, 0, nc,
                     &a->algo)) ||
      (n && (rc = run(a, __func__, "lsk_assoc_fill", n,
                      LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->offsets),
                               LSK_ARG_BUFFER(a->counts), LSK_ARG_BUFFER(a->content),
                               LSK_ARG_UINT(a->nkeys))))))
    return rc;
  a->counts_dirty = 0;
  a->n = n;
  return LSK_OK;
}

int lsk_assoc_range(lsk_assoc *a, size_t key, size_t *begin, size_t *end)
{
  LSK__API();
  LSK__LIVE(NULL, a, ASSOC, __func__, "a");
  if (!begin || !end)
    return lsk__fail(a->ctx, LSK_EINVAL, "%s: %s is NULL", __func__, begin ? "end" : "begin");
  if (key >= a->nkeys)
    return lsk__fail(a->ctx, LSK_ERANGE, "%s: key %zu is not below nkeys %u", __func__, key,
                     (unsigned)a->nkeys);
  size_t nc = (size_t)a->nkeys + 1;
  if (!a->host_valid) {
    if (!a->host_offsets && !(a->host_offsets = malloc(nc * sizeof(uint32_t))))
      return lsk__fail(a->ctx, LSK_ENOMEM, "%s: out of memory for %zu offsets", __func__, nc);
    int rc =
        lsk__buffer_rw(a->offsets, 0, 0, a->host_offsets, nc * sizeof(uint32_t), a->q, 1, __func__);
    if (rc)
      return rc;
    a->host_valid = 1;
  }
  *begin = a->host_offsets[key];
  *end = a->host_offsets[key + 1];
  return LSK_OK;
}

int lsk_assoc_size(lsk_assoc *a, size_t *stored, size_t *skipped)
{
  LSK__API();
  LSK__LIVE(NULL, a, ASSOC, __func__, "a");
  uint32_t total = 0;
  int rc = LSK_OK;
  if (a->host_valid)
    total = a->host_offsets[a->nkeys];
  else
    rc = lsk__buffer_rw(a->offsets, 0, (size_t)a->nkeys * sizeof total, &total, sizeof total, a->q,
                        1, __func__);
  if (rc)
    return rc;
  /* Every element is either stored or skipped. */
  if (stored)
    *stored = total;
  if (skipped)
    *skipped = a->n > total ? a->n - total : 0;
  return LSK_OK;
}

lsk_buffer *lsk_assoc_offsets(const lsk_assoc *a)
{
  LSK__LIVE_OR(NULL, a, ASSOC, __func__, "a");
  return a->offsets;
}
lsk_buffer *lsk_assoc_content(const lsk_assoc *a)
{
  LSK__LIVE_OR(NULL, a, ASSOC, __func__, "a");
  return a->content;
}
size_t lsk_assoc_nkeys(const lsk_assoc *a)
{
  LSK__LIVE_OR(0, a, ASSOC, __func__, "a");
  return a->nkeys;
}
size_t lsk_assoc_capacity(const lsk_assoc *a)
{
  LSK__LIVE_OR(0, a, ASSOC, __func__, "a");
  return a->capacity;
}
