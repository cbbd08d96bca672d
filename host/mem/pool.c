/*
 * pool.c: pools of fixed-size cells for device-side allocation (include/lsk/
 * pool.h, cl/lsk_pool.h): the buffer's layout, creation, the GC (kernels/
 * pool.cl), growth, usage and read-back.
 *
 * Buffer layout, in uints: a header of LSK__POOL_HEADER_WORDS, the free
 * list and the recycled list (capacity entries each, rounded up to 32), the
 * run table (a word per LSK__POOL_RUN entries of a list, zero when no GC
 * is pending; cl/lsk_pool.h), then the cells, starting at a multiple of
 * the cell alignment. Every offset fits 32 bits, so device code indexes
 * with uint.
 */
#include <stdlib.h>
#include <string.h>

#include "mem/pool.h"

const lsk__htype LSK__H_POOL = {"lsk_pool", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_pool);

#define MAX_WORDS 0xffffffffu
/* The GC kernels' block domain: large tiles on CPUs, as PoCL pays for
 * every data block (a barrier, and its work-item loops restarting), and
 * each tile reads and writes runs of memory that the prefetchers follow
 * further when they are long. The GC of 2^22 one-word cells: 256 ran at
 * about half the speed of 2048; 8192 took 0.83-0.99 ms against 2048's
 * 1.27-1.45 (five alternating runs), 16384 no less than 8192. GPUs keep
 * 2048 (not measured there). Large cells are zero-filled one per data
 * block, so their tile is smaller. */
#define GC_TILE_CPU 8192u
#define GC_TILE_GPU 2048u
#define LARGE_TILE 256u

static size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Offsets for capacity cells of cell_bytes at align; LSK_ERANGE if the
 * buffer would pass 2^32 - 1 words or the device's largest allocation. */
static int plan(lsk_context *ctx, const char *fn, size_t capacity, size_t cell_bytes, lsk_pool *p)
{
  /* Before the rounding, which would wrap. */
  if (cell_bytes > (size_t)MAX_WORDS * 4)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: cell_bytes %zu: the pool would pass 2^32 - 1 words (16 GiB)", fn,
                     cell_bytes);
  size_t cw = round_up(cell_bytes, p->align) / 4;
  size_t lists = round_up(capacity, 32);
  p->capacity = capacity;
  p->cell_words = cw;
  p->free_off = LSK__POOL_HEADER_WORDS;
  p->rec_off = p->free_off + lists;
  p->runs_off = p->rec_off + lists;
  p->cells_off = round_up(p->runs_off + lists / LSK__POOL_RUN, p->align / 4);
  if (capacity >= MAX_WORDS || cw > (MAX_WORDS - p->cells_off) / capacity)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: %zu cells of %zu bytes: the pool would pass 2^32 - 1 words (16 GiB)", fn,
                     capacity, cw * 4);
  p->words = p->cells_off + capacity * cw;
  if (p->words * 4 > lsk__context_info(ctx)->max_alloc_size)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: %zu cells of %zu bytes need %zu bytes, more than the device's largest "
                     "allocation (%llu)",
                     fn, capacity, cw * 4, p->words * 4,
                     (unsigned long long)lsk__context_info(ctx)->max_alloc_size);
  return LSK_OK;
}

static void header(const lsk_pool *p, uint32_t *h)
{
  h[LSK__POOL_CAPACITY] = (uint32_t)p->capacity;
  h[LSK__POOL_CELL_WORDS] = (uint32_t)p->cell_words;
  h[LSK__POOL_FREE_OFF] = (uint32_t)p->free_off;
  h[LSK__POOL_REC_OFF] = (uint32_t)p->rec_off;
  h[LSK__POOL_RUNS_OFF] = (uint32_t)p->runs_off;
  h[LSK__POOL_CELLS_OFF] = (uint32_t)p->cells_off;
  h[LSK__POOL_FRAME_SIZE] = p->frame_size;
  h[LSK__POOL_FRAME_HEAD] = (uint32_t)p->frame_head_words;
}

/* A whole-buffer write (oclgrind counts no partial write or fill as
 * initializing memory). */
static int make_buffer(lsk_pool *p, const uint32_t *image, lsk_buffer **out)
{
  int rc = lsk_buffer_create(p->ctx, p->words * 4, out);
  if (!rc && (rc = lsk_buffer_write(*out, 0, image, p->words * 4, NULL))) {
    lsk_buffer_destroy(*out);
    *out = NULL;
  }
  return rc;
}

static int create(lsk_context *ctx, const char *fn, size_t cell_bytes, size_t capacity,
                  lsk_pool *tmpl, lsk_pool **out)
{
  int rc = plan(ctx, fn, capacity, cell_bytes, tmpl);
  if (rc)
    return rc;
  lsk_pool *p = malloc(sizeof *p);
  uint32_t *image = p ? calloc(tmpl->words, 4) : NULL;
  if (!image) {
    free(p);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory for %zu bytes", fn, tmpl->words * 4);
  }
  *p = *tmpl;
  header(p, image);
  if (!(rc = make_buffer(p, image, &p->buf)) && lsk__handle_add(p, &LSK__H_POOL, ctx)) {
    lsk_buffer_destroy(p->buf);
    rc = lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  }
  if (rc)
    free(p);
  else
    *out = p;
  free(image);
  return rc;
}

static int check_common(lsk_context *ctx, const char *fn, size_t capacity, lsk_pool **out)
{
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, fn, "ctx");
  if (capacity == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: capacity is 0: a pool needs at least one cell", fn);
  return LSK_OK;
}

/* The largest cell alignment: the device's base address alignment. */
static size_t max_align(const lsk_context *ctx)
{
  return lsk__context_info(ctx)->base_addr_align > 128 ? lsk__context_info(ctx)->base_addr_align
                                                       : 128;
}

int lsk_pool_create(lsk_context *ctx, size_t cell_bytes, size_t capacity,
                    const lsk_pool_options *opt, lsk_pool **out)
{
  LSK__API();
  int rc = check_common(ctx, __func__, capacity, out);
  if (rc)
    return rc;
  size_t align = opt && opt->align ? opt->align : 4;
  if (cell_bytes == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: cell_bytes is 0", __func__);
  if (align < 4 || (align & (align - 1)) || align > max_align(ctx))
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: align %zu: must be a power of two from 4 to %zu (the device's base "
                     "address alignment)",
                     __func__, align, max_align(ctx));
  lsk_pool t = {.ctx = ctx, .align = align};
  return create(ctx, __func__, cell_bytes, capacity, &t, out);
}

int lsk_pool_create_frames(lsk_context *ctx, const lsk_layout *layout, unsigned frame_size,
                           size_t capacity, lsk_pool **out)
{
  LSK__API();
  int rc = check_common(ctx, __func__, capacity, out);
  if (rc)
    return rc;
  LSK__LIVE(ctx, layout, LAYOUT, __func__, "layout");
  if (frame_size == 0 || (frame_size & (frame_size - 1)) || frame_size > LSK_MAX_DOMAIN)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: frame size %u: must be a power of two from 1 to LSK_MAX_DOMAIN (%u)",
                     __func__, frame_size, LSK_MAX_DOMAIN);
  size_t align = lsk_layout_align(layout), soa = 0;
  if (align < 4)
    align = 4;
  if (align > max_align(ctx))
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: layout '%s' aligns to %zu bytes, more than the device's %zu", __func__,
                     lsk_layout_name(layout), align, max_align(ctx));
  if (lsk_layout_size(layout, frame_size, &soa))
    return lsk__fail(ctx, LSK_ERANGE, "%s: %s", __func__, lsk_context_errmsg(NULL));
  /* The header (cl/lsk_shared.h: the next link, a count and two user
   * words), rounded up so that the SoA chunk after it is aligned. */
  size_t head = round_up(LSK__FRAME_HEAD_WORDS * 4, align);
  if (soa > SIZE_MAX - head)
    return lsk__fail(ctx, LSK_ERANGE, "%s: frame size overflows", __func__);
  lsk_pool t = {.ctx = ctx,
                .align = align,
                .layout = layout,
                .frame_size = frame_size,
                .frame_head_words = head / 4};
  return create(ctx, __func__, head + soa, capacity, &t, out);
}

void lsk_pool_destroy(lsk_pool *pool)
{
  LSK__DESTROY(pool, POOL, __func__);
  lsk_buffer_destroy(pool->buf);
  free(pool);
}

lsk_buffer *lsk_pool_buffer(const lsk_pool *pool)
{
  LSK__LIVE_OR(NULL, pool, POOL, __func__, "pool");
  return pool->buf;
}
size_t lsk_pool_capacity(const lsk_pool *pool)
{
  LSK__LIVE_OR(0, pool, POOL, __func__, "pool");
  return pool->capacity;
}
size_t lsk_pool_cell_stride(const lsk_pool *pool)
{
  LSK__LIVE_OR(0, pool, POOL, __func__, "pool");
  return pool->cell_words * 4;
}
size_t lsk_pool_cell_offset(const lsk_pool *pool, uint32_t cell)
{
  LSK__LIVE_OR(0, pool, POOL, __func__, "pool");
  return (pool->cells_off + (size_t)cell * pool->cell_words) * 4;
}
unsigned lsk_pool_frame_size(const lsk_pool *pool)
{
  LSK__LIVE_OR(0, pool, POOL, __func__, "pool");
  return pool->frame_size;
}
size_t lsk_pool_frame_base(const lsk_pool *pool, uint32_t f)
{
  LSK__LIVE_OR(0, pool, POOL, __func__, "pool");
  return lsk_pool_cell_offset(pool, f) + pool->frame_head_words * 4;
}

/* The header, on o's queue. */
static int read_header(lsk_pool *p, const lsk__on *o, uint32_t *h, const char *fn)
{
  return lsk__buffer_rw(p->buf, 0, 0, h, LSK__POOL_HEADER_WORDS * 4, o->q, 1, fn);
}

/* The same arithmetic as kernels/pool.cl's lsk__gc_state. */
static void usage_of(const uint32_t *h, lsk_pool_usage *u)
{
  size_t cap = h[LSK__POOL_CAPACITY], nfree = h[LSK__POOL_FREE_LEN], fresh = h[LSK__POOL_FRESH];
  size_t cursor = h[LSK__POOL_CURSOR], avail = nfree + (cap - fresh);
  size_t used = cursor < nfree ? cursor : nfree;
  size_t taken = cursor < avail ? cursor : avail;
  size_t recycled = h[LSK__POOL_RECYCLED] < cap ? h[LSK__POOL_RECYCLED] : cap;
  memset(u, 0, sizeof *u);
  u->capacity = cap;
  u->high_water = fresh + (taken - used);
  u->free = nfree - used;
  u->fresh = cap - u->high_water;
  u->allocated = taken;
  u->shortfall = cursor - taken;
  u->refused = (uint64_t)h[LSK__POOL_REFUSED] + u->shortfall;
  u->misuse = h[LSK__POOL_MISUSE];
  u->gcs = h[LSK__POOL_GCS];
  u->exhausted = u->shortfall > 0;
  /* Recycles past the free list's room can only be cells recycled twice. */
  size_t room = cap > u->free + u->fresh ? cap - u->free - u->fresh : 0;
  u->recycled = recycled < room ? recycled : room;
  u->live = room - u->recycled;
}

int lsk_pool_usage_get(lsk_pool *pool, lsk_pool_usage *out, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, pool, POOL, __func__, "pool");
  if (!out)
    return lsk__fail(pool->ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  uint32_t h[LSK__POOL_HEADER_WORDS];
  lsk__on o;
  lsk__vcheck v;
  int rc = lsk__lib_read_begin(pool->ctx, on, __func__, &o, &v);
  if (!rc)
    rc = read_header(pool, &o, h, __func__);
  rc = lsk__lib_read_end(pool->ctx, &o, &v, rc, __func__);
  if (!rc)
    usage_of(h, out);
  return rc;
}

static int launch(lsk_pool *p, lsk_queue *q, const char *fn, const char *name, unsigned domain,
                  size_t blocks)
{
  lsk_kernel *k;
  int rc = lsk__lib_kernel(p->ctx, LSK__LIB_POOL, name, &k);
  if (rc)
    return rc;
  lsk_launch l = {.domain = {domain}, .blocks = {blocks}};
  return lsk__launch_q(k, q, fn, &l, LSK_ARGS(LSK_ARG_BUFFER(p->buf)));
}

/* The GC enqueued on q, without argument checks; messages name fn. */
static int gc(lsk_pool *p, lsk_queue *q, const char *fn)
{
  unsigned tile = lsk__context_info(p->ctx)->is_gpu ? GC_TILE_GPU : GC_TILE_CPU;
  int rc = launch(p, q, fn, "lsk_pool_gc_gather", tile,
                  lsk_auto_blocks(lsk__context_info(p->ctx), p->capacity, tile, 0));
  if (!rc)
    rc = launch(p, q, fn, "lsk_pool_gc_recycle", tile,
                lsk_auto_blocks(lsk__context_info(p->ctx), p->capacity, tile, 0));
  if (!rc && p->cell_words >= LSK__POOL_LARGE_WORDS)
    rc = launch(p, q, fn, "lsk_pool_gc_zero_large", LARGE_TILE,
                lsk_auto_blocks(lsk__context_info(p->ctx), p->capacity, 1, 0));
  if (!rc)
    rc = launch(p, q, fn, "lsk_pool_gc_finish", 1, 1);
  return rc;
}

int lsk_pool_gc(lsk_pool *pool, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, pool, POOL, __func__, "pool");
  lsk__on o;
  int rc = lsk__lib_begin(pool->ctx, on, __func__, &o);
  if (!rc)
    rc = gc(pool, o.q, __func__);
  return lsk__lib_end(pool->ctx, &o, rc, __func__);
}

int lsk_pool_grow(lsk_pool *pool, size_t capacity)
{
  LSK__API();
  LSK__LIVE(NULL, pool, POOL, __func__, "pool");
  lsk_context *ctx = pool->ctx;
  if (capacity <= pool->capacity)
    return lsk__fail(ctx, LSK_EINVAL, "%s: capacity %zu: must be more than the current %zu",
                     __func__, capacity, pool->capacity);
  lsk_pool next = *pool;
  int rc = plan(ctx, __func__, capacity, pool->cell_words * 4, &next);
  lsk_queue *q = lsk__context_queue(ctx);
  if (rc || (rc = gc(pool, q, __func__)) || (rc = lsk__context_wait(ctx, __func__)) ||
      (rc = lsk__verify_check(q)))
    return rc;
  uint32_t *old = malloc(pool->words * 4), *image = old ? calloc(next.words, 4) : NULL;
  if (!image) {
    free(old);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory for %zu bytes", __func__,
                     (pool->words + next.words) * 4);
  }
  /* After the GC the recycled list is empty and the cursor 0: the header's
   * counts, the free list and the cells are all there is. */
  lsk_buffer *buf = NULL;
  if (!(rc = lsk_buffer_read(pool->buf, 0, old, pool->words * 4, NULL))) {
    memcpy(image, old, LSK__POOL_HEADER_WORDS * 4);
    header(&next, image);
    /* The free list is where the header says (the GC swaps the lists). */
    memcpy(image + next.free_off, old + old[LSK__POOL_FREE_OFF], old[LSK__POOL_FREE_LEN] * 4);
    memcpy(image + next.cells_off, old + pool->cells_off, pool->capacity * pool->cell_words * 4);
    rc = make_buffer(&next, image, &buf);
  }
  free(old);
  free(image);
  if (rc)
    return rc;
  lsk_buffer_destroy(pool->buf);
  next.buf = buf;
  *pool = next;
  return LSK_OK;
}

/* One of the two lists, as the header says: free (the entries not yet
 * taken) or recycled; at most cap uints to dst, the length to *n. */
static int read_list(lsk_pool *p, int free_list, uint32_t *dst, size_t cap, size_t *n,
                     const lsk_async *on, const char *fn)
{
  lsk__lib_clear(on);
  LSK__LIVE(NULL, p, POOL, fn, "pool");
  if (!n || (!dst && cap))
    return lsk__fail(p->ctx, LSK_EINVAL, "%s: %s is NULL", fn, n ? "dst" : "n");
  uint32_t h[LSK__POOL_HEADER_WORDS];
  lsk__on o;
  lsk__vcheck v;
  int rc = lsk__lib_read_begin(p->ctx, on, fn, &o, &v);
  if (!rc && !(rc = read_header(p, &o, h, fn))) {
    size_t nfree = h[LSK__POOL_FREE_LEN];
    size_t used = h[LSK__POOL_CURSOR] < nfree ? h[LSK__POOL_CURSOR] : nfree;
    size_t r = h[LSK__POOL_RECYCLED] < p->capacity ? h[LSK__POOL_RECYCLED] : p->capacity;
    size_t at = free_list ? h[LSK__POOL_FREE_OFF] + used : h[LSK__POOL_REC_OFF];
    *n = free_list ? nfree - used : r;
    size_t k = *n < cap ? *n : cap;
    if (k)
      rc = lsk__buffer_rw(p->buf, 0, at * 4, dst, k * 4, o.q, 1, fn);
  }
  return lsk__lib_read_end(p->ctx, &o, &v, rc, fn);
}

int lsk_pool_read_free(lsk_pool *pool, uint32_t *dst, size_t cap, size_t *n, const lsk_async *on)
{
  LSK__API();
  return read_list(pool, 1, dst, cap, n, on, __func__);
}

int lsk_pool_read_recycled(lsk_pool *pool, uint32_t *dst, size_t cap, size_t *n,
                           const lsk_async *on)
{
  LSK__API();
  return read_list(pool, 0, dst, cap, n, on, __func__);
}

int lsk_pool_read_cells(lsk_pool *pool, size_t first, size_t count, void *dst, size_t dst_bytes,
                        const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, pool, POOL, __func__, "pool");
  if (!dst && count)
    return lsk__fail(pool->ctx, LSK_EINVAL, "%s: dst is NULL", __func__);
  if (first > pool->capacity || count > pool->capacity - first)
    return lsk__fail(pool->ctx, LSK_ERANGE, "%s: first %zu + count %zu exceed the capacity %zu",
                     __func__, first, count, pool->capacity);
  size_t bytes = count * pool->cell_words * 4;
  if (dst_bytes < bytes)
    return lsk__fail(pool->ctx, LSK_EINVAL,
                     "%s: dst_bytes %zu is less than the %zu bytes of %zu cells of %zu", __func__,
                     dst_bytes, bytes, count, pool->cell_words * 4);
  lsk__on o;
  lsk__vcheck v;
  int rc = lsk__lib_read_begin(pool->ctx, on, __func__, &o, &v);
  if (!rc && count)
    rc = lsk__buffer_rw(pool->buf, 0, lsk_pool_cell_offset(pool, (uint32_t)first), dst, bytes, o.q,
                        1, __func__);
  return lsk__lib_read_end(pool->ctx, &o, &v, rc, __func__);
}
