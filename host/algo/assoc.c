/*
 * assoc.c: the one-to-many association (include/lsk/assoc.h): its own
 * device buffers, and a build as four passes on the queue the call names:
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
  /* A marker after the last build's commands (NULL before the first):
   * reads wait for it, whatever queue they run on. */
  cl_event built;
  lsk_buffer *counts;  /* nkeys + 1 uints; zero between builds */
  lsk_buffer *offsets; /* nkeys + 1 uints */
  lsk_buffer *content; /* capacity uints, at least 1 */
  /* The CPU build's per-segment starts (nkeys * segments + 1 uints),
   * made at the first build that needs them, larger when needed. */
  lsk_buffer *starts;
  size_t starts_len;
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
static int run(lsk_assoc *a, lsk_queue *q, const char *fn, const char *name, size_t items,
               const lsk_arg *args, size_t nargs)
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
  return lsk__launch_q(k, q, fn, &l, all, nargs + 1);
}

/* x[0, n) = 0 on q, with whole-buffer kernel writes (oclgrind does not
 * count clEnqueueFillBuffer as initializing). */
static int zero(lsk_assoc *a, lsk_queue *q, const char *fn, lsk_buffer *x, size_t n)
{
  return run(a, q, fn, "lsk_assoc_zero", n, LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT((uint32_t)n)));
}

/* Waits for the last build's commands (all of them: an in-order queue
 * completes the marker last). */
static int wait_built(lsk_assoc *a, const char *fn)
{
  cl_int err = a->built ? clWaitForEvents(1, &a->built) : CL_SUCCESS;
  return err ? lsk__fail_cl(a->ctx, err, "clWaitForEvents", " (%s: the last build)", fn) : LSK_OK;
}

/* New offsets, all zero when it returns: every range empty. Made with
 * their content on no queue, so create and reserve are synchronous (the
 * association is ready on every queue) and wait for no queue's work. */
static int zero_offsets(lsk_context *ctx, size_t nkeys, const char *fn, lsk_buffer **out)
{
  uint32_t *zeros = calloc(nkeys + 1, sizeof *zeros);
  if (!zeros)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory for %zu offsets", fn, nkeys + 1);
  int rc = lsk__buffer_create_init(ctx, (nkeys + 1) * sizeof *zeros, zeros, fn, out);
  free(zeros);
  return rc;
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
  lsk_assoc *a = lsk__handle_new(sizeof *a, &LSK__H_ASSOC, ctx);
  if (!a)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  a->ctx = ctx;
  a->nkeys = (uint32_t)nkeys;
  a->capacity = capacity;
  a->algo = opt ? opt->algo : (lsk_algo_options){0};
  a->counts_dirty = 1;
  size_t bytes = (nkeys + 1) * sizeof(uint32_t);
  rc = lsk_buffer_create(ctx, bytes, &a->counts);
  /* Empty until the first build: every range [0, 0). */
  if (!rc)
    rc = zero_offsets(ctx, nkeys, __func__, &a->offsets);
  if (!rc)
    rc = lsk_buffer_create(ctx, (capacity ? capacity : 1) * sizeof(uint32_t), &a->content);
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
  lsk_buffer_destroy(a->starts);
  free(a->host_offsets);
  if (a->built)
    clReleaseEvent(a->built);
  free(a);
}

int lsk_assoc_reserve(lsk_assoc *a, size_t capacity)
{
  LSK__API();
  LSK__LIVE(NULL, a, ASSOC, __func__, "a");
  int rc = check_capacity(a->ctx, __func__, capacity);
  if (rc || capacity <= a->capacity)
    return rc;
  size_t nc = (size_t)a->nkeys + 1;
  uint32_t *zeros = calloc(nc, sizeof *zeros);
  if (!zeros)
    return lsk__fail(a->ctx, LSK_ENOMEM, "%s: out of memory for %zu offsets", __func__, nc);
  lsk_buffer *b = NULL;
  /* Safe with work queued: OpenCL keeps the old memory until it is done.
   * The offsets still describe the old content, which is gone: empty the
   * association rather than leave ranges over undefined memory, once the
   * last build (which writes them) is done; a blocking write on the
   * default queue, so the offsets are zero on every queue on return. */
  if (!(rc = wait_built(a, __func__)) &&
      !(rc = lsk_buffer_create(a->ctx, capacity * sizeof(uint32_t), &b)) &&
      !(rc = lsk__buffer_rw(a->offsets, 1, 0, zeros, nc * sizeof *zeros, lsk__context_queue(a->ctx),
                            1, __func__))) {
    lsk_buffer_destroy(a->content);
    a->content = b;
    a->capacity = capacity;
    a->n = 0;
    a->host_valid = 0;
  } else if (b) {
    lsk_buffer_destroy(b);
  }
  free(zeros);
  return rc;
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
  if (keys == a->counts || keys == a->offsets || keys == a->content ||
      (a->starts && keys == a->starts))
    return lsk__fail(ctx, LSK_EINVAL, "%s: keys is one of the association's own buffers", fn);
  if (n > a->capacity)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: n %zu exceeds the capacity of %zu elements (see lsk_assoc_reserve)", fn,
                     n, a->capacity);
  a->host_valid = 0;
  a->n = 0;
  return LSK_OK;
}

/* A build's commands on o's queue, then the marker reads wait for (and
 * the caller's event, where asked). */
static int build_end(lsk_assoc *a, lsk__on *o, int rc, const char *fn)
{
  cl_event ev = NULL;
  if (!rc)
    rc = lsk__on_marker(a->ctx, o, &ev, fn);
  if (rc)
    return rc;
  if (a->built)
    clReleaseEvent(a->built);
  clRetainEvent(ev);
  a->built = ev;
  /* Another queue's read waits for the marker: submit it (event.c). */
  clFlush(lsk__queue_cl(o->q));
  return lsk__on_done(a->ctx, o, ev, fn, fn);
}

/*
 * The CPU path (kernels/assoc.cl's _segments kernels; docs/assoc.md): on
 * devices that say they are CPUs (PoCL; oclgrind, which says it is every
 * kind, so that it checks these kernels, while LSK_SHAPES=nvidia, a GPU
 * and no CPU, runs the GPU ones), not where loops are capped (llvmpipe:
 * a work-item walks a long segment).
 * One worker per block unless the association's options ask for more;
 * blocks: the options', else ASSOC_CPU_BLOCKS_PER_CU per compute unit.
 * Measured on PoCL, 2 cores, 2026-11-27.
 */
#define ASSOC_CPU_BLOCKS_PER_CU 2

typedef struct seg_launch {
  lsk_kernel *k;
  lsk_launch l;
  size_t nseg, seglen;
} seg_launch;

static int cpu_path(const lsk_assoc *a)
{
  const lsk_device_info *dev = lsk__context_info(a->ctx);
  return dev->is_cpu && !dev->loops_capped;
}

/* The launch of kernel `name` over n elements in segments; with `column`
 * bytes of local memory per worker (0: none). NOT_CHOSEN where the
 * columns do not fit the device's local memory. */
#define NOT_CHOSEN 1
static int seg_shape(lsk_assoc *a, const char *name, size_t n, uint64_t column, seg_launch *s)
{
  const lsk_device_info *dev = lsk__context_info(a->ctx);
  int rc = lsk__lib_kernel(a->ctx, LSK__LIB_ASSOC, name, &s->k);
  if (rc)
    return rc;
  size_t blocks =
      a->algo.blocks ? a->algo.blocks : lsk_auto_blocks(dev, n, 1, ASSOC_CPU_BLOCKS_PER_CU);
  s->l = (lsk_launch){.domain = {1},
                      .blocks = {blocks},
                      .workers = a->algo.workers ? a->algo.workers : 1,
                      .simd = 1};
  lsk_kernel_info info;
  if ((rc = lsk_kernel_query(s->k, &s->l, &info)))
    return rc;
  s->l.workers = info.workers;
  if (column) {
    uint64_t local = dev->local_mem_size;
    if (info.local_static_bytes > local || column > local - info.local_static_bytes)
      return NOT_CHOSEN;
    uint64_t fit = (local - info.local_static_bytes) / column;
    if (fit < s->l.workers) {
      s->l.workers = (unsigned)fit;
      if ((rc = lsk_kernel_query(s->k, &s->l, &info)))
        return rc;
      s->l.workers = info.workers;
    }
    s->l.local_bytes = (size_t)column * s->l.workers;
  }
  s->nseg = blocks * s->l.workers;
  s->seglen = (n + s->nseg - 1) / s->nseg;
  return s->seglen > UINT32_MAX ? NOT_CHOSEN : LSK_OK;
}

/* The sorted build's CPU path: one walk (lsk_assoc_sorted_segments). */
static int build_sorted_cpu(lsk_assoc *a, lsk_queue *q, const char *fn, lsk_buffer *keys,
                            size_t offset, size_t n)
{
  seg_launch s;
  int rc = seg_shape(a, "lsk_assoc_sorted_segments", n, 0, &s);
  if (rc)
    return rc;
  return lsk__launch_q(s.k, q, fn, &s.l,
                       LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_UINT((uint32_t)s.seglen),
                                LSK_ARG_UINT(a->nkeys), LSK_ARG_BUFFER(a->offsets),
                                LSK_ARG_BUFFER(a->content)));
}

/* The build's CPU path: count per segment, scan the starts in place,
 * fill per segment. NOT_CHOSEN where a column of nkeys counters does not
 * fit local memory. */
static int build_cpu(lsk_assoc *a, lsk_queue *q, const char *fn, lsk_buffer *keys, size_t offset,
                     size_t n)
{
  seg_launch c, f;
  uint64_t column = (uint64_t)a->nkeys * 4;
  int rc = seg_shape(a, "lsk_assoc_count_segments", n, column, &c);
  if (rc || (rc = seg_shape(a, "lsk_assoc_fill_segments", n, column, &f)))
    return rc;
  /* Both kernels take the same segments: the fewer workers. */
  if (c.l.workers != f.l.workers) {
    c.l.workers = f.l.workers = c.l.workers < f.l.workers ? c.l.workers : f.l.workers;
    c.l.local_bytes = f.l.local_bytes = (size_t)column * c.l.workers;
    c.nseg = f.nseg = c.l.blocks[0] * c.l.workers;
    c.seglen = f.seglen = (n + c.nseg - 1) / c.nseg;
  }
  if ((uint64_t)a->nkeys * c.nseg >= UINT32_MAX)
    return NOT_CHOSEN;
  size_t len = (size_t)a->nkeys * c.nseg + 1;
  if (len > a->starts_len) {
    lsk_buffer *b = NULL;
    if ((rc = lsk_buffer_create(a->ctx, len * sizeof(uint32_t), &b)))
      return rc;
    lsk_buffer_destroy(a->starts);
    a->starts = b;
    a->starts_len = len;
  }
  if ((rc = lsk__launch_q(c.k, q, fn, &c.l,
                          LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_UINT((uint32_t)c.seglen),
                                   LSK_ARG_UINT(a->nkeys), LSK_ARG_BUFFER(a->starts),
                                   LSK_ARG_UINT((uint32_t)c.nseg), LSK_ARG_DYN_LOCAL))) ||
      (rc = lsk__scan_q(a->ctx, q, fn, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a->starts, 0, a->starts,
                        0, len, &a->algo)))
    return rc;
  return lsk__launch_q(f.k, q, fn, &f.l,
                       LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_UINT((uint32_t)f.seglen),
                                LSK_ARG_UINT(a->nkeys), LSK_ARG_BUFFER(a->starts),
                                LSK_ARG_UINT((uint32_t)f.nseg), LSK_ARG_BUFFER(a->offsets),
                                LSK_ARG_BUFFER(a->content), LSK_ARG_DYN_LOCAL));
}

static int build_sorted(lsk_assoc *a, lsk_queue *q, lsk_buffer *keys, size_t offset, size_t n)
{
  /* No element: every offset is 0. The counts are not used (nor dirtied).
   * Else the offsets, a run of keys per index, then the content and the
   * check of the order. */
  const char *fn = "lsk_assoc_build_sorted";
  size_t runs = ((size_t)a->nkeys + SORTED_RUN) / SORTED_RUN; /* nkeys + 1 offsets */
  int rc;
  if (n == 0)
    rc = zero(a, q, fn, a->offsets, (size_t)a->nkeys + 1);
  else if (cpu_path(a))
    rc = build_sorted_cpu(a, q, fn, keys, offset, n);
  else if (!(rc = run(a, q, fn, "lsk_assoc_sorted_offsets", runs,
                      LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->offsets),
                               LSK_ARG_UINT(a->nkeys), LSK_ARG_UINT(SORTED_RUN)))))
    rc = run(
        a, q, fn, "lsk_assoc_sorted_content", n,
        LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->content), LSK_ARG_UINT(a->nkeys)));
  if (!rc)
    a->n = n;
  return rc;
}

static int build(lsk_assoc *a, lsk_queue *q, lsk_buffer *keys, size_t offset, size_t n);

/* Both public builds: the arguments checked, on's queue after its wait
 * list, the build (sorted keys or any), its end (build_end). */
static int build_call(lsk_assoc *a, lsk_buffer *keys, size_t offset, size_t n, const lsk_async *on,
                      int sorted, const char *fn)
{
  lsk__lib_clear(on);
  LSK__LIVE(NULL, a, ASSOC, fn, "a");
  int rc = build_args(a, fn, keys, offset, n);
  lsk__on o;
  if (rc || (rc = lsk__lib_begin(a->ctx, on, fn, &o)))
    return rc;
  rc = sorted ? build_sorted(a, o.q, keys, offset, n) : build(a, o.q, keys, offset, n);
  return build_end(a, &o, rc, fn);
}

int lsk_assoc_build_sorted(lsk_assoc *a, lsk_buffer *keys, size_t offset, size_t n,
                           const lsk_async *on)
{
  LSK__API();
  return build_call(a, keys, offset, n, on, 1, __func__);
}

static int build(lsk_assoc *a, lsk_queue *q, lsk_buffer *keys, size_t offset, size_t n)
{
  const char *fn = "lsk_assoc_build";
  size_t nc = (size_t)a->nkeys + 1;
  int rc;
  /* The CPU path leaves the counts as they are. */
  if (n && cpu_path(a) && (rc = build_cpu(a, q, fn, keys, offset, n)) != NOT_CHOSEN) {
    if (!rc)
      a->n = n;
    return rc;
  }
  if (a->counts_dirty && (rc = zero(a, q, fn, a->counts, nc)))
    return rc;
  a->counts_dirty = 1;
  /* counts[nkeys] is never counted, so the exclusive scan's last offset is
   * the number stored. n = 0 still scans: the offsets become all zero. */
  if ((n && (rc = run(a, q, fn, "lsk_assoc_count", n,
                      LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->counts),
                               LSK_ARG_UINT(a->nkeys))))) ||
      (rc = lsk_scan(a->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, a->counts, 0, a->offsets, 0, nc,
                     &a->algo, &(lsk_async){.queue = q})) ||
      (n && (rc = run(a, q, fn, "lsk_assoc_fill", n,
                      LSK_ARGS(KEYS_HEAD(keys, offset, n), LSK_ARG_BUFFER(a->offsets),
                               LSK_ARG_BUFFER(a->counts), LSK_ARG_BUFFER(a->content),
                               LSK_ARG_UINT(a->nkeys))))))
    return rc;
  a->counts_dirty = 0;
  a->n = n;
  return LSK_OK;
}

int lsk_assoc_build(lsk_assoc *a, lsk_buffer *keys, size_t offset, size_t n, const lsk_async *on)
{
  LSK__API();
  return build_call(a, keys, offset, n, on, 0, __func__);
}

/* bytes of the offsets from byte offset into dst, on on's queue after the
 * last build (wherever it ran): what both reads do. */
static int read_offsets(lsk_assoc *a, const char *fn, size_t offset, void *dst, size_t bytes,
                        const lsk_async *on)
{
  lsk__on o;
  int rc = lsk__lib_begin(a->ctx, on, fn, &o);
  if (!rc)
    rc = wait_built(a, fn);
  if (!rc)
    rc = lsk__buffer_rw(a->offsets, 0, offset, dst, bytes, o.q, 1, fn);
  return lsk__lib_end(a->ctx, &o, rc, fn);
}

int lsk_assoc_range(lsk_assoc *a, size_t key, size_t *begin, size_t *end, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
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
    int rc = read_offsets(a, __func__, 0, a->host_offsets, nc * sizeof(uint32_t), on);
    if (rc)
      return rc;
    a->host_valid = 1;
  } else {
    /* Nothing to read; the caller's wait list and event still hold. */
    lsk__on o;
    int rc = lsk__lib_begin(a->ctx, on, __func__, &o);
    if ((rc = lsk__lib_end(a->ctx, &o, rc, __func__)))
      return rc;
  }
  *begin = a->host_offsets[key];
  *end = a->host_offsets[key + 1];
  return LSK_OK;
}

int lsk_assoc_size(lsk_assoc *a, size_t *stored, size_t *skipped, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, a, ASSOC, __func__, "a");
  uint32_t total = 0;
  int rc = read_offsets(a, __func__, (size_t)a->nkeys * sizeof total, &total, sizeof total, on);
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
