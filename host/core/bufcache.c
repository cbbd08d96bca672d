/*
 * bufcache.c: the queue-ordered caching allocator behind lsk_buffer_alloc
 * and lsk_buffer_free (buffer.h).
 *
 * A freed buffer goes to a list of its size class with the queue it was
 * freed on. The same queue may take it again at once: its later commands
 * run after the ones that used it. Another queue may take it only once the
 * freeing queue has passed the point of the free: the first time another
 * queue asks, a marker is enqueued on the freeing queue (it covers the
 * free and anything after, so it can only be late, never early), and the
 * buffer is handed out once that marker is complete. No allocation waits.
 */
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

/* Size classes: four per power of two from 256 bytes (256, 320, 384, 448,
 * 512, ...), so a buffer holds at most a quarter more than asked. */
#define NCLASS 168
static size_t class_size(unsigned c) { return (size_t)(4 + c % 4) << (c / 4 + 6); }
static unsigned class_of(size_t size)
{
  unsigned c = 0;
  while (c < NCLASS - 1 && class_size(c) < size)
    ++c;
  return c;
}

typedef struct centry {
  cl_mem mem;
  size_t cap;
  lsk_queue *q;   /* the queue it was freed on; NULL once that is destroyed */
  cl_event ready; /* a marker on q after the free; NULL: none asked yet */
  struct centry *next;
} centry;

struct lsk__bcache {
  pthread_mutex_t lock;
  int off;
  centry *idle[NCLASS];
  lsk_buffer_cache_stats stats;
};

static size_t trim(lsk_context *ctx);

int lsk__bcache_init(lsk_context *ctx, int off)
{
  struct lsk__bcache *c = calloc(1, sizeof *c);
  if (!c || pthread_mutex_init(&c->lock, NULL)) {
    free(c);
    return LSK_ENOMEM;
  }
  c->off = off;
  ctx->bcache = c;
  ctx->reclaim = trim;
  return LSK_OK;
}

static void drop(lsk_context *ctx, centry *e)
{
  if (e->ready)
    clReleaseEvent(e->ready);
  lsk__mem_release(ctx, e->mem, e->cap);
  free(e);
}

/* Under the lock. */
static size_t trim_locked(lsk_context *ctx, struct lsk__bcache *c)
{
  size_t freed = 0;
  for (unsigned k = 0; k < NCLASS; ++k)
    for (centry *e = c->idle[k], *next; e; e = next) {
      next = e->next;
      freed += e->cap;
      drop(ctx, e);
    }
  memset(c->idle, 0, sizeof c->idle);
  c->stats.bytes_held = 0;
  c->stats.buffers_held = 0;
  return freed;
}

/* The context's reclaim hook: its idle buffers released (bytes freed). */
static size_t trim(lsk_context *ctx)
{
  struct lsk__bcache *c = ctx->bcache;
  if (!c)
    return 0;
  pthread_mutex_lock(&c->lock);
  size_t freed = trim_locked(ctx, c);
  pthread_mutex_unlock(&c->lock);
  return freed;
}

void lsk__bcache_free(lsk_context *ctx)
{
  struct lsk__bcache *c = ctx->bcache;
  if (!c)
    return;
  trim_locked(ctx, c);
  pthread_mutex_destroy(&c->lock);
  free(c);
  ctx->bcache = NULL;
  ctx->reclaim = NULL;
}

void lsk__bcache_forget_queue(lsk_context *ctx, const lsk_queue *q)
{
  struct lsk__bcache *c = ctx->bcache;
  pthread_mutex_lock(&c->lock);
  for (unsigned k = 0; k < NCLASS; ++k)
    for (centry *e = c->idle[k]; e; e = e->next)
      if (e->q == q)
        e->q = NULL;
  pthread_mutex_unlock(&c->lock);
}

/* Whether e may go to queue q now (under the lock). */
static int usable(centry *e, const lsk_queue *q)
{
  /* Its queue destroyed (lsk__bcache_forget_queue: it was idle then), or
   * the same queue, whose later commands run after the free. */
  if (!e->q || e->q == q)
    return 1;
  if (!e->ready && clEnqueueMarkerWithWaitList(e->q->cl, 0, NULL, &e->ready) != CL_SUCCESS) {
    e->ready = NULL;
    return 0;
  }
  if (!e->ready)
    return 0;
  /* Markers are not flushed by themselves: without this one could stay
   * queued for as long as the queue sees nothing else. */
  clFlush(e->q->cl);
  cl_int st;
  return clGetEventInfo(e->ready, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) ==
             CL_SUCCESS &&
         st == CL_COMPLETE;
}

static void account_use(struct lsk__bcache *c, size_t cap)
{
  c->stats.bytes_in_use += cap;
  uint64_t total = c->stats.bytes_in_use + c->stats.bytes_held;
  if (total > c->stats.high_water)
    c->stats.high_water = total;
}

static void release(lsk_buffer *buf);

/* on of lsk_buffer_alloc, which enqueues nothing: its queue only. */
static int alloc_queue(lsk_context *ctx, const lsk_async *on, lsk_queue **q)
{
  const char *fn = "lsk_buffer_alloc";
  if (on && (on->nwait || on->wait || on->event || on->flags))
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: on has a%s; an allocation enqueues nothing, so on names only its queue",
                     fn,
                     on->nwait || on->wait ? " wait list"
                     : on->event           ? "n event"
                                           : " flag");
  *q = on && on->queue ? on->queue : ctx->dq;
  return on && on->queue ? lsk__queue_check(ctx, on->queue, fn, "on->queue") : LSK_OK;
}

int lsk_buffer_alloc(lsk_context *ctx, size_t size, lsk_buffer **out, const lsk_async *on)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (size == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: size is 0", __func__);
  lsk_queue *q = NULL;
  int qrc = alloc_queue(ctx, on, &q);
  if (qrc)
    return qrc;
  struct lsk__bcache *c = ctx->bcache;
  unsigned k = class_of(size);
  size_t cap = class_size(k);
  /* Beyond the classes, or where the class would pass the device's limit:
   * the exact size, not cached when freed. */
  int cacheable = !c->off && cap >= size && cap <= ctx->info.max_alloc_size;
  if (!cacheable)
    cap = size;
  centry *hit = NULL;
  pthread_mutex_lock(&c->lock);
  if (cacheable) {
    for (centry **p = &c->idle[k]; *p; p = &(*p)->next)
      if (usable(*p, q)) {
        hit = *p;
        *p = hit->next;
        break;
      }
  }
  if (hit) {
    c->stats.hits++;
    c->stats.bytes_held -= hit->cap;
    c->stats.buffers_held--;
  } else {
    c->stats.misses++;
  }
  pthread_mutex_unlock(&c->lock);
  cl_mem mem;
  int rc = LSK_OK;
  if (hit) {
    mem = hit->mem;
    if (hit->ready)
      clReleaseEvent(hit->ready);
    free(hit);
  } else if ((rc = lsk__mem_create(ctx, cap, __func__, &mem)) != LSK_OK) {
    return rc;
  }
  lsk_buffer *b;
  if ((rc = lsk__buffer_wrap(ctx, mem, size, __func__, &b)) != LSK_OK) {
    lsk__mem_release(ctx, mem, cap);
    return rc;
  }
  b->cap = cap;
  b->release = release;
  b->q = q;
  b->qidx = q->index;
  pthread_mutex_lock(&c->lock);
  account_use(c, cap);
  pthread_mutex_unlock(&c->lock);
  *out = b;
  return LSK_OK;
}

/* Takes back buf's memory, freed on q (NULL: the queue it was allocated
 * for, as at lsk_buffer_destroy). */
static void put(lsk_buffer *buf, lsk_queue *q)
{
  lsk_context *ctx = buf->ctx;
  struct lsk__bcache *c = ctx->bcache;
  if (!q) {
    /* The queue it was allocated for, or, if that is gone (finished when
     * it went), any: the default. */
    q = lsk__handle_live(buf->q, &LSK__H_QUEUE) && buf->q->index == buf->qidx ? buf->q : ctx->dq;
  }
  centry *e = NULL;
  if (!c->off && class_size(class_of(buf->cap)) == buf->cap)
    e = calloc(1, sizeof *e);
  pthread_mutex_lock(&c->lock);
  c->stats.bytes_in_use -= buf->cap;
  if (e) {
    e->mem = buf->mem;
    e->cap = buf->cap;
    e->q = q;
    unsigned k = class_of(buf->cap);
    e->next = c->idle[k];
    c->idle[k] = e;
    c->stats.bytes_held += buf->cap;
    c->stats.buffers_held++;
  }
  pthread_mutex_unlock(&c->lock);
  /* Not cacheable (or no memory for the entry): released, which OpenCL
   * defers until the commands that use it are done. */
  if (!e)
    lsk__mem_release(ctx, buf->mem, buf->cap);
}

/* The release hook of the cache's buffers (lsk_buffer_destroy of an
 * lsk_buffer_alloc'ed buffer: as lsk_buffer_free on its own queue). */
static void release(lsk_buffer *buf) { put(buf, NULL); }

int lsk_buffer_free(lsk_buffer *buf, const lsk_async *on)
{
  LSK__API();
  if (on && on->event)
    *on->event = NULL;
  if (!buf)
    return LSK_OK;
  LSK__LIVE(NULL, buf, BUFFER, __func__, "buf");
  lsk_context *ctx = buf->ctx;
  if (buf->release != release)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: the buffer was made by lsk_buffer_create; lsk_buffer_destroy frees it",
                     __func__);
  lsk__on o;
  int rc = lsk__on_resolve(ctx, on, __func__, &o);
  if (rc)
    return rc;
  /* on->queue NULL: the queue it was allocated for (put), not the
   * default, which might take it again before that queue is done. */
  lsk_queue *q = on && on->queue ? o.q : NULL;
  /* A wait list or an event: a marker on the queue after the list holds
   * the queue's later commands, so a reuse there comes after it too. */
  if (o.nwait || o.event) {
    if (!q)
      o.q =
          lsk__handle_live(buf->q, &LSK__H_QUEUE) && buf->q->index == buf->qidx ? buf->q : ctx->dq;
    cl_event ev = NULL;
    if ((rc = lsk__on_marker(ctx, &o, o.event ? &ev : NULL, __func__)) != LSK_OK ||
        (rc = lsk__on_done(ctx, &o, ev, "marker", __func__)) != LSK_OK)
      return rc;
    q = o.q;
  }
  if (lsk__handle_remove(buf, &LSK__H_BUFFER, __func__))
    return LSK_EINVAL;
  put(buf, q);
  free(buf);
  return LSK_OK;
}

int lsk_buffer_cache_stats_get(lsk_context *ctx, lsk_buffer_cache_stats *out)
{
  LSK__API();
  if (out)
    memset(out, 0, sizeof *out);
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  pthread_mutex_lock(&ctx->bcache->lock);
  *out = ctx->bcache->stats;
  pthread_mutex_unlock(&ctx->bcache->lock);
  return LSK_OK;
}

int lsk_buffer_cache_trim(lsk_context *ctx)
{
  LSK__API();
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  trim(ctx);
  return LSK_OK;
}
