/*
 * pic.c: the particle-in-cell binning example (examples/pic/pic.h): the
 * frame layout, the program (examples/pic/pic.cl behind the layout's generated
 * view), the step's sequence of kernels, the window's outbox (take) and
 * arrivals (put), read-back with shape checks, and the plain C reference
 * step. (The generator and the checksum: pic_gen.c.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pic.h"

/* The frame layout, written once: the host view (pframe_bind) reads frames
 * back, pframe_describe gives the layout whose generated OpenCL C view the
 * kernels use. */
#define PFRAME_MEMBERS(COLUMN, MATRIX, SCALAR)                                                     \
  COLUMN(uint, id)                                                                                 \
  COLUMN(int, x)                                                                                   \
  COLUMN(int, y)                                                                                   \
  COLUMN(int, vx)                                                                                  \
  COLUMN(int, vy)
LSK_SOA_DEFINE(pframe, 128, PFRAME_MEMBERS)

/* The exchange: a row of ROW words per particle (id, x, y, vx, vy; one
 * cache line half: one vector store in pic_bucket), then the
 * destination and rank columns. */
#define ROW 8
#define EX_WORDS (ROW + 2)
#define CTL_WORDS 32
#define CTL_LEFT 1
#define CTL_COMPACTED 2
#define TILE 256u
/* The exchange's least capacity, in particles (a pic may start empty). */
#define MIN_EXCHANGE 64u
/* pic_frames' first: a step's first run, a put's, a rerun after growth. */
#define FIRST_STEP 1u
#define FIRST_PUT 2u
#define RERUN 0u

extern const char pic_kernel_source[];

struct lsk_pic {
  lsk_handle h; /* first: lsk checks the handle on every call (lsk/handle.h) */
  lsk_context *ctx;
  lsk_layout *layout;
  lsk_program *prog;
  lsk_kernel *move, *bucket, *frames, *fill, *compact;
  lsk_pool *pool;
  lsk_buffer *head, *count, *incoming, *offs, *ex, *bk, *ctl;
  lsk_buffer *nfr; /* frames per cell, from pic_frames for pic_compact */
  unsigned gx, gy, fs;
  unsigned x0, y0, wx, wy; /* the window: cells [x0, x0 + wx) x [y0, y0 + wy) */
  /* n: the particles in the frames and buckets (not the outbox); cap: the
   * exchange's and buckets' capacity (>= n); cells: the window's. The
   * counts and offsets (incoming, offs) have cells + 2 entries: the
   * cells', the outbox's (the particles of the last step that left the
   * window, nout of them from row out_at of bk until lsk_pic_take), and
   * one more for the total. */
  size_t n, cap, cells, grows, nout, out_at;
  lsk_buffer *in; /* lsk_pic_put's exchange, of incap particles */
  size_t incap;
  /* The last step's incoming particles wait in the buckets: the next
   * pic_move fills them in (or pic_fill, before a read). */
  uint32_t pending;
};
/* The handle type: lsk's checks name it in their messages. */
static const lsk_handle_type pic_type = {"lsk_pic", &lsk_context_handle_type, 0};
_Static_assert(offsetof(lsk_pic, h) == 0, "the handle header comes first");

static int valid(const lsk_particle *q, unsigned gx, unsigned gy)
{
  int64_t w = (int64_t)gx * LSK_PIC_UNIT, h = (int64_t)gy * LSK_PIC_UNIT;
  return q->id != 0 && q->x >= 0 && q->x < w && q->y >= 0 && q->y < h && q->vx > -w && q->vx < w &&
         q->vy > -h && q->vy < h;
}

static uint32_t cell_of(const lsk_particle *q, unsigned gx)
{
  return (uint32_t)(q->y / LSK_PIC_UNIT) * gx + (uint32_t)(q->x / LSK_PIC_UNIT);
}

/* A valid particle inside the window, and its cell's index there. */
static int in_window(const lsk_pic *p, const lsk_particle *q)
{
  uint32_t cx = (uint32_t)(q->x / LSK_PIC_UNIT) - p->x0,
           cy = (uint32_t)(q->y / LSK_PIC_UNIT) - p->y0;
  return cx < p->wx && cy < p->wy;
}

static uint32_t window_cell(const lsk_pic *p, const lsk_particle *q)
{
  return ((uint32_t)(q->y / LSK_PIC_UNIT) - p->y0) * p->wx + (uint32_t)(q->x / LSK_PIC_UNIT) -
         p->x0;
}

/* Whether the window is less than the grid (only then can a step take
 * particles out of it). */
static int windowed(const lsk_pic *p) { return p->wx != p->gx || p->wy != p->gy; }

static void program_put(lsk_program *prog);

void lsk_pic_destroy(lsk_pic *pic)
{
  if (!pic || lsk_handle_remove(pic, &pic_type, "lsk_pic_destroy"))
    return;
  lsk_kernel_destroy(pic->move);
  lsk_kernel_destroy(pic->bucket);
  lsk_kernel_destroy(pic->frames);
  lsk_kernel_destroy(pic->fill);
  lsk_kernel_destroy(pic->compact);
  program_put(pic->prog);
  lsk_pool_destroy(pic->pool);
  lsk_buffer *b[] = {pic->head, pic->count, pic->incoming, pic->offs, pic->ex,
                     pic->bk,   pic->ctl,   pic->nfr,      pic->in};
  for (size_t i = 0; i < sizeof b / sizeof b[0]; ++i)
    lsk_buffer_destroy(b[i]);
  lsk_layout_destroy(pic->layout);
  free(pic);
}

lsk_pool *lsk_pic_pool(const lsk_pic *pic)
{
  if (!pic || lsk_handle_check(NULL, pic, &pic_type, "lsk_pic_pool", "pic"))
    return NULL;
  return pic->pool;
}

/* A device buffer holding words[0..n), written whole. */
static int buffer_of(lsk_context *ctx, const uint32_t *words, size_t n, lsk_buffer **out)
{
  int rc = lsk_buffer_create(ctx, n * 4, out);
  return rc ? rc : lsk_buffer_write(*out, 0, words, n * 4, NULL);
}

/* The pics of a context share one program, so its builds (one per frame
 * size, and the flat kernels') are made once: windows of one grid in one
 * process, or many pics, build as one. An entry lives while a pic of its
 * context does (pics go before their context), so a context's address
 * cannot come back while its entry is there. */
typedef struct shared_prog {
  lsk_context *ctx;
  lsk_program *prog;
  size_t users;
  struct shared_prog *next;
} shared_prog;
static shared_prog *shared_progs;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

/* The context's program, made if it has none; counted. */
static int program_get(lsk_context *ctx, const lsk_layout *layout, lsk_program **out)
{
  pthread_mutex_lock(&shared_lock);
  shared_prog *e = shared_progs;
  while (e && e->ctx != ctx)
    e = e->next;
  int rc = LSK_OK;
  if (!e) {
    char *view = NULL;
    lsk_program *prog = NULL;
    if ((rc = lsk_layout_emit_cl(layout, NULL, &view)))
      rc = lsk_context_set_error(ctx, rc, "lsk_pic_create: frame layout: %s",
                                 lsk_context_errmsg(NULL));
    lsk_program_options po = {.name = "pic.cl", .prelude = view};
    if (!rc)
      rc = lsk_program_create(ctx, pic_kernel_source, &po, &prog);
    lsk_free(view);
    if (!rc && !(e = malloc(sizeof *e))) {
      lsk_program_destroy(prog);
      rc = lsk_context_set_error(ctx, LSK_ENOMEM, "lsk_pic_create: out of host memory");
    }
    if (!rc) {
      *e = (shared_prog){.ctx = ctx, .prog = prog, .next = shared_progs};
      shared_progs = e;
    }
  }
  if (!rc) {
    ++e->users;
    *out = e->prog;
  }
  pthread_mutex_unlock(&shared_lock);
  return rc;
}

/* A pic's program given back (its kernels destroyed first); the last
 * user destroys it. */
static void program_put(lsk_program *prog)
{
  if (!prog)
    return;
  pthread_mutex_lock(&shared_lock);
  for (shared_prog **at = &shared_progs; *at; at = &(*at)->next)
    if ((*at)->prog == prog) {
      shared_prog *e = *at;
      if (--e->users == 0) {
        *at = e->next;
        lsk_program_destroy(e->prog);
        free(e);
      }
      break;
    }
  pthread_mutex_unlock(&shared_lock);
}

static int build(lsk_pic *p)
{
  int rc = pframe_describe(&p->layout);
  if (rc)
    return lsk_context_set_error(p->ctx, rc, "lsk_pic_create: frame layout: %s",
                                 lsk_context_errmsg(NULL));
  rc = program_get(p->ctx, p->layout, &p->prog);
  if (!rc)
    rc = lsk_kernel_create(p->prog, "pic_move", &p->move);
  if (!rc)
    rc = lsk_kernel_create(p->prog, "pic_bucket", &p->bucket);
  if (!rc)
    rc = lsk_kernel_create(p->prog, "pic_frames", &p->frames);
  if (!rc)
    rc = lsk_kernel_create(p->prog, "pic_fill", &p->fill);
  if (!rc)
    rc = lsk_kernel_create(p->prog, "pic_compact", &p->compact);
  return rc;
}

/* A zero-filled device buffer of n words (written, not filled: oclgrind
 * takes only host writes for initialization). */
static int zeros(lsk_context *ctx, size_t n, lsk_buffer **out)
{
  uint32_t *w = calloc(n ? n : 1, 4);
  if (!w)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "lsk_pic: out of host memory");
  int rc = buffer_of(ctx, w, n, out);
  free(w);
  return rc;
}

/* The exchange and the buckets for cap particles, zero-filled (what they
 * held is dead: the buckets filled in). */
static int exchange_alloc(lsk_pic *p, size_t cap)
{
  lsk_buffer *ex = NULL, *bk = NULL;
  int rc = zeros(p->ctx, EX_WORDS * cap, &ex);
  if (!rc)
    rc = zeros(p->ctx, ROW * cap, &bk);
  if (rc) {
    lsk_buffer_destroy(ex);
    lsk_buffer_destroy(bk);
    return rc;
  }
  lsk_buffer_destroy(p->ex);
  lsk_buffer_destroy(p->bk);
  p->ex = ex;
  p->bk = bk;
  p->cap = cap;
  return LSK_OK;
}

/* k particles q (valid, in the window) into an exchange of their own, dst
 * (room for cap >= k), bound for their cells as a step's leavers are:
 * rows, destinations, and ranks among each cell's incoming, with the
 * counts (the device's are all zero between steps); the second half of a
 * step (insert, from dst with stride and length k) then puts them in
 * frames. dst is written whole, at once: oclgrind (21.10) takes a buffer
 * written in parts, or from an offset, for uninitialized in places that
 * kernels wrote since. */
static int exchange_in(lsk_pic *p, const lsk_particle *q, size_t k, lsk_buffer *dst, size_t cap,
                       const char *fn)
{
  size_t cells = p->cells;
  uint32_t *rows = calloc(EX_WORDS * cap, 4), *per = calloc(cells + 2, 4);
  if (!rows || !per) {
    free(rows);
    free(per);
    return lsk_context_set_error(p->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  }
  uint32_t *dest = rows + ROW * k, *rank = dest + k;
  for (size_t i = 0; i < k; ++i) {
    uint32_t c = window_cell(p, &q[i]), *r = rows + ROW * i;
    r[0] = q[i].id;
    r[1] = (uint32_t)q[i].x;
    r[2] = (uint32_t)q[i].y;
    r[3] = (uint32_t)q[i].vx;
    r[4] = (uint32_t)q[i].vy;
    dest[i] = c;
    rank[i] = per[c]++;
  }
  int rc = lsk_buffer_write(dst, 0, rows, EX_WORDS * 4 * cap, NULL);
  if (!rc)
    rc = lsk_buffer_write(p->incoming, 0, per, (cells + 2) * 4, NULL);
  free(rows);
  free(per);
  return rc;
}

/* The device state for n particles: all of them in the exchange, bound
 * for their cells, the cells empty; the second half of a step then puts
 * them in frames. */
static int setup(lsk_pic *p, const lsk_particle *q)
{
  size_t cells = p->cells;
  int rc = zeros(p->ctx, cells, &p->nfr);
  if (!rc)
    rc = zeros(p->ctx, cells, &p->count);
  if (!rc)
    rc = zeros(p->ctx, cells + 2, &p->offs);
  if (!rc)
    rc = zeros(p->ctx, cells + 2, &p->incoming);
  if (!rc)
    rc = zeros(p->ctx, CTL_WORDS, &p->ctl);
  if (!rc)
    rc = exchange_alloc(p, p->n > MIN_EXCHANGE ? p->n : MIN_EXCHANGE);
  if (!rc && p->n)
    rc = exchange_in(p, q, p->n, p->ex, p->cap, "lsk_pic_create");
  uint32_t *w = rc ? NULL : malloc(cells * 4);
  if (!rc && !w)
    rc = lsk_context_set_error(p->ctx, LSK_ENOMEM, "lsk_pic_create: out of host memory");
  if (!rc) {
    memset(w, 0xff, cells * 4);
    rc = buffer_of(p->ctx, w, cells, &p->head);
  }
  free(w);
  return rc;
}

/* Blocks for the per-cell kernels: on CPUs a few per core, each looping
 * over many cells (PoCL pays per work-group); on GPUs up to one per cell. */
static lsk_launch per_cell(const lsk_pic *p)
{
  const lsk_device_info *dev = lsk_context_device(p->ctx);
  size_t blocks =
      dev->is_gpu ? (p->cells < 65535 ? p->cells : 65535) : lsk_auto_blocks(dev, p->cells, 1, 8);
  return (lsk_launch){.domain = {p->fs}, .blocks = {blocks}};
}

/* Blocks for the per-frame kernels: each takes a contiguous run of the
 * pool's frames; as many as for the per-cell kernels. */
static lsk_launch per_frame(const lsk_pic *p)
{
  lsk_launch l = per_cell(p);
  size_t cap = lsk_pool_capacity(p->pool);
  l.blocks[0] = l.blocks[0] < cap ? l.blocks[0] : cap;
  if (!lsk_context_device(p->ctx)->is_gpu)
    l.workers = 1;
  return l;
}

static lsk_launch flat(const lsk_pic *p, size_t n)
{
  return (lsk_launch){.domain = {TILE},
                      .blocks = {lsk_auto_blocks(lsk_context_device(p->ctx), n, TILE, 0)}};
}

/* Frames for every cell, growing the pool until they fit. */
static int frames(lsk_pic *p, uint32_t first)
{
  for (;; first = RERUN) {
    lsk_launch l = flat(p, p->cells);
    lsk_pool_usage u;
    int rc = lsk_kernel_launch(p->frames, &l,
                               LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(p->pool)),
                                        LSK_ARG_BUFFER(p->head), LSK_ARG_BUFFER(p->count),
                                        LSK_ARG_BUFFER(p->offs), LSK_ARG_BUFFER(p->incoming),
                                        LSK_ARG_BUFFER(p->nfr), LSK_ARG_UINT((uint32_t)p->cells),
                                        LSK_ARG_BUFFER(p->ctl), LSK_ARG_UINT(first)),
                               NULL);
    if (!rc)
      rc = lsk_pool_usage_get(p->pool, &u, NULL);
    if (rc || !u.exhausted)
      return rc;
    /* The frames that were linked stay linked; the rerun links the rest. */
    size_t cap = lsk_pool_capacity(p->pool), more = cap / 2 > u.shortfall ? cap / 2 : u.shortfall;
    if ((rc = lsk_pool_grow(p->pool, cap + more)))
      return rc;
    ++p->grows;
  }
}

/* The incoming particles that still wait in the buckets into the frames'
 * holes; nothing when none wait. (pic_compact has filled the lists it
 * compacted and marked their frames PIC_FILLED: pic_fill passes them by.) */
static int fill(lsk_pic *p)
{
  if (!p->pending)
    return LSK_OK;
  lsk_launch l = per_frame(p);
  int rc = lsk_kernel_launch(p->fill, &l,
                             LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(p->pool)),
                                      LSK_ARG_BUFFER(p->offs), LSK_ARG_BUFFER(p->bk)),
                             NULL);
  if (!rc)
    p->pending = 0;
  return rc;
}

/* The second half of a step (and of lsk_pic_create and lsk_pic_put): the
 * exchange bucketed, each cell's frames made ready for its incoming, lists
 * compacted, the GC. The incoming particles go into the frames in the next
 * step's pic_move (or fill, before a read). A step's exchange has the
 * capacity's stride and its length on the device; the host's (put) has
 * stride and length k, given. */
static int insert(lsk_pic *p, uint32_t first, lsk_buffer *ex, size_t stride, size_t k)
{
  lsk_buffer *pool;
  uint32_t cap = (uint32_t)stride, nc = (uint32_t)p->cells;
  lsk_launch lb = flat(p, p->n), lc = per_cell(p);
  /* cells + 2 counts: the cells', the outbox's, and a 0 for the total. */
  int rc = lsk_scan(p->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, p->incoming, 0, p->offs, 0,
                    p->cells + 2, NULL, NULL);
  if (!rc)
    rc = lsk_kernel_launch(p->bucket, &lb,
                           LSK_ARGS(LSK_ARG_BUFFER(ex), LSK_ARG_BUFFER(p->ctl),
                                    LSK_ARG_BUFFER(p->offs), LSK_ARG_BUFFER(p->bk),
                                    LSK_ARG_UINT(cap), LSK_ARG_UINT((uint32_t)k)),
                           NULL);
  if (!rc)
    rc = frames(p, first);
  if (!rc)
    p->pending = 1;
  /* A step's leavers of the window: their bucket's place and length (the
   * queue is idle: frames waited). */
  uint32_t ob[2];
  if (!rc && first == FIRST_STEP && windowed(p) &&
      !(rc = lsk_buffer_read(p->offs, 4 * p->cells, ob, sizeof ob, NULL))) {
    p->out_at = ob[0];
    p->nout = ob[1] - ob[0];
  }
  pool = lsk_pool_buffer(p->pool);
  if (!rc)
    rc = lsk_kernel_launch(
        p->compact, &lc,
        LSK_ARGS(LSK_ARG_BUFFER(pool), LSK_ARG_BUFFER(p->head), LSK_ARG_BUFFER(p->count),
                 LSK_ARG_BUFFER(p->nfr), LSK_ARG_BUFFER(p->ctl), LSK_ARG_UINT(nc),
                 LSK_ARG_BUFFER(p->offs), LSK_ARG_BUFFER(p->bk), LSK_ARG_UINT(p->pending)),
        NULL);
  if (!rc)
    rc = lsk_pool_gc(p->pool, NULL);
  return rc;
}

int lsk_pic_settle(lsk_pic *pic)
{
  int hrc = lsk_handle_check(NULL, pic, &pic_type, "lsk_pic_settle", "pic");
  if (hrc)
    return hrc;
  return fill(pic);
}

int lsk_pic_step(lsk_pic *pic)
{
  int hrc = lsk_handle_check(NULL, pic, &pic_type, "lsk_pic_step", "pic");
  if (hrc)
    return hrc;
  if (pic->nout)
    return lsk_context_set_error(pic->ctx, LSK_EBUSY,
                                 "lsk_pic_step: %zu particles that left the window in the last "
                                 "step wait in the outbox: lsk_pic_take them first",
                                 pic->nout);
  lsk_launch l = per_frame(pic);
  int rc = lsk_kernel_launch(
      pic->move, &l,
      LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pic->pool)), LSK_ARG_BUFFER(pic->incoming),
               LSK_ARG_BUFFER(pic->ex), LSK_ARG_BUFFER(pic->ctl), LSK_ARG_UINT((uint32_t)pic->cap),
               LSK_ARG_UINT(pic->gx), LSK_ARG_UINT(pic->gy), LSK_ARG_BUFFER(pic->offs),
               LSK_ARG_BUFFER(pic->bk), LSK_ARG_UINT(pic->pending), LSK_ARG_UINT(pic->x0),
               LSK_ARG_UINT(pic->y0), LSK_ARG_UINT(pic->wx), LSK_ARG_UINT(pic->wy)),
      NULL);
  if (!rc)
    pic->pending = 0;
  return rc ? rc : insert(pic, FIRST_STEP, pic->ex, pic->cap, 0);
}

/* The particles of the outbox sorted by id (ties: the whole row). */
static int cmp_particle(const void *a, const void *b)
{
  const lsk_particle *x = a, *y = b;
  if (x->id != y->id)
    return (x->id > y->id) - (x->id < y->id);
  return memcmp(x, y, sizeof *x);
}

int lsk_pic_take(lsk_pic *pic, lsk_particle *out, size_t cap, size_t *n)
{
  static const char fn[] = "lsk_pic_take";
  int hrc = lsk_handle_check(NULL, pic, &pic_type, fn, "pic");
  if (hrc)
    return hrc;
  if (!n)
    return lsk_context_set_error(pic->ctx, LSK_EINVAL, "%s: n is NULL", fn);
  *n = pic->nout;
  if (!out && cap)
    return lsk_context_set_error(pic->ctx, LSK_EINVAL, "%s: out is NULL with cap %zu", fn, cap);
  if (cap == 0 || pic->nout == 0)
    return LSK_OK;
  if (cap < pic->nout)
    return lsk_context_set_error(pic->ctx, LSK_ERANGE,
                                 "%s: %zu particles left the window, cap is %zu: nothing taken", fn,
                                 pic->nout, cap);
  size_t k = pic->nout;
  uint32_t *rows = malloc(ROW * 4 * k);
  if (!rows)
    return lsk_context_set_error(pic->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  int rc = lsk_buffer_read(pic->bk, ROW * 4 * pic->out_at, rows, ROW * 4 * k, NULL);
  for (size_t i = 0; !rc && i < k; ++i) {
    const uint32_t *r = rows + ROW * i;
    out[i] = (lsk_particle){r[0], (int32_t)r[1], (int32_t)r[2], (int32_t)r[3], (int32_t)r[4]};
  }
  free(rows);
  if (rc)
    return rc;
  qsort(out, k, sizeof *out, cmp_particle);
  pic->n -= k;
  pic->nout = 0;
  return LSK_OK;
}

/* A particle that create or put refuses: invalid, or outside the window. */
static int refuse(const lsk_pic *p, lsk_context *ctx, const char *fn, const lsk_particle *q,
                  size_t i)
{
  if (!valid(q, p->gx, p->gy))
    return lsk_context_set_error(
        ctx, LSK_EINVAL,
        "%s: particle %zu (id %u at %d,%d moving %d,%d): id 0, outside the %ux%u "
        "grid, or a cell width or more per step",
        fn, i, q->id, q->x, q->y, q->vx, q->vy, p->gx, p->gy);
  if (!in_window(p, q))
    return lsk_context_set_error(ctx, LSK_EINVAL,
                                 "%s: particle %zu (id %u at %d,%d, cell %d,%d): outside the "
                                 "window of %ux%u cells at %u,%u",
                                 fn, i, q->id, q->x, q->y, q->x / LSK_PIC_UNIT, q->y / LSK_PIC_UNIT,
                                 p->wx, p->wy, p->x0, p->y0);
  return LSK_OK;
}

int lsk_pic_put(lsk_pic *pic, const lsk_particle *p, size_t n)
{
  static const char fn[] = "lsk_pic_put";
  int hrc = lsk_handle_check(NULL, pic, &pic_type, fn, "pic");
  if (hrc)
    return hrc;
  lsk_context *ctx = pic->ctx;
  if (!p && n)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: p is NULL", fn);
  if (n == 0)
    return LSK_OK;
  if (pic->nout)
    return lsk_context_set_error(ctx, LSK_EBUSY,
                                 "%s: %zu particles that left the window in the last step wait "
                                 "in the outbox: lsk_pic_take them first",
                                 fn, pic->nout);
  for (size_t i = 0; i < n; ++i)
    if ((hrc = refuse(pic, ctx, fn, &p[i], i)))
      return hrc;
  if (n > (1u << 31) - pic->n)
    return lsk_context_set_error(
        ctx, LSK_ERANGE, "%s: %zu particles more than the %zu held pass 2^31", fn, n, pic->n);
  /* The last step's incoming into their frames: the buckets are free, and
   * the exchange and buckets may move to larger buffers. */
  int rc = fill(pic);
  size_t need = pic->n + n, more = pic->cap + pic->cap / 2;
  if (!rc && need > pic->cap)
    rc = exchange_alloc(pic, need > more ? need : more);
  /* The arrivals' own exchange, kept between puts, grown as they need. */
  more = pic->incap + pic->incap / 2;
  more = more > MIN_EXCHANGE ? more : MIN_EXCHANGE;
  if (!rc && n > pic->incap) {
    lsk_buffer *in = NULL;
    size_t cap = n > more ? n : more;
    if (!(rc = zeros(pic->ctx, EX_WORDS * cap, &in))) {
      lsk_buffer_destroy(pic->in);
      pic->in = in;
      pic->incap = cap;
    }
  }
  if (!rc)
    rc = exchange_in(pic, p, n, pic->in, pic->incap, fn);
  if (rc)
    return rc;
  pic->n = need;
  return insert(pic, FIRST_PUT, pic->in, n, n);
}

int lsk_pic_create(lsk_context *ctx, unsigned gx, unsigned gy, const lsk_particle *p, size_t n,
                   const lsk_pic_options *opt, lsk_pic **out)
{
  static const char fn[] = "lsk_pic_create";
  if (!out)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  int hrc = lsk_handle_check(NULL, ctx, &lsk_context_handle_type, fn, "ctx");
  if (hrc)
    return hrc;
  if (!p && n)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: particles is NULL", fn);
  if (gx == 0 || gy == 0 || gx > LSK_PIC_MAX_EXTENT || gy > LSK_PIC_MAX_EXTENT)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: grid %ux%u: extents must be from 1 to %u",
                                 fn, gx, gy, LSK_PIC_MAX_EXTENT);
  if (n > (1u << 31))
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: %zu particles: must be at most 2^31", fn, n);
  unsigned x0 = opt ? opt->x0 : 0, y0 = opt ? opt->y0 : 0, wx = opt ? opt->wx : 0,
           wy = opt ? opt->wy : 0;
  if (!(x0 | y0 | wx | wy)) {
    wx = gx;
    wy = gy;
  } else if (wx == 0 || wy == 0) {
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: window of %ux%u cells at %u,%u is empty", fn,
                                 wx, wy, x0, y0);
  } else if (x0 >= gx || wx > gx - x0 || y0 >= gy || wy > gy - y0) {
    return lsk_context_set_error(ctx, LSK_EINVAL,
                                 "%s: window of %ux%u cells at %u,%u: not inside the %ux%u grid",
                                 fn, wx, wy, x0, y0, gx, gy);
  }
  unsigned fs = opt && opt->frame_size ? opt->frame_size : 128;
  if (fs < 8 || fs > 4096 || (fs & (fs - 1)))
    return lsk_context_set_error(
        ctx, LSK_EINVAL, "%s: frame size %u: must be a power of two from 8 to 4096", fn, fs);
  const lsk_pic win = {.gx = gx, .gy = gy, .x0 = x0, .y0 = y0, .wx = wx, .wy = wy};
  for (size_t i = 0; i < n; ++i)
    if ((hrc = refuse(&win, ctx, fn, &p[i], i)))
      return hrc;
  lsk_pic *pic = calloc(1, sizeof *pic);
  if (!pic)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if ((hrc = lsk_handle_add(pic, &pic_type, ctx)) != LSK_OK) {
    free(pic);
    return lsk_context_set_error(ctx, hrc, "%s: %s", fn, lsk_context_errmsg(NULL));
  }
  *pic = (lsk_pic){.h = pic->h,
                   .ctx = ctx,
                   .gx = gx,
                   .gy = gy,
                   .fs = fs,
                   .x0 = x0,
                   .y0 = y0,
                   .wx = wx,
                   .wy = wy,
                   .n = n,
                   .cells = (size_t)wx * wy};
  /* By default the frames the particles need now, and a quarter more. */
  size_t frames = opt ? opt->frames : 0;
  uint32_t *per = frames ? NULL : calloc(pic->cells, 4);
  if (!frames && !per) {
    lsk_pic_destroy(pic);
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  }
  for (size_t i = 0; per && i < n; ++i)
    ++per[window_cell(pic, &p[i])];
  for (size_t c = 0; per && c < pic->cells; ++c)
    frames += (per[c] + fs - 1) / fs;
  if (per)
    frames += frames / 4 + 1;
  free(per);
  int rc = build(pic);
  if (!rc)
    rc = lsk_pool_create_frames(ctx, pic->layout, fs, frames, &pic->pool);
  if (!rc)
    rc = setup(pic, p);
  if (!rc)
    rc = insert(pic, FIRST_PUT, pic->ex, n, n);
  if (!rc)
    rc = lsk_context_finish(ctx);
  if (rc) {
    lsk_pic_destroy(pic);
    return rc;
  }
  *out = pic;
  return LSK_OK;
}

int lsk_pic_read(lsk_pic *pic, lsk_particle *p, uint32_t *cell, size_t cap, lsk_pic_stats *stats)
{
  static const char fn[] = "lsk_pic_read";
  int hrc = lsk_handle_check(NULL, pic, &pic_type, fn, "pic");
  if (hrc)
    return hrc;
  lsk_context *ctx = pic->ctx;
  if (!p && cap)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: p is NULL", fn);
  size_t cells = pic->cells, cap_f = lsk_pool_capacity(pic->pool);
  size_t stride = lsk_pool_cell_stride(pic->pool), base = lsk_pool_cell_offset(pic->pool, 0);
  uint32_t *head = malloc(cells * 8), *count = head ? head + cells : NULL, ctl[CTL_WORDS] = {0};
  unsigned char *frames = aligned_alloc(128, (cap_f * stride + 127) / 128 * 128);
  int rc =
      !head || !frames ? lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn) : 0;
  /* The last step's incoming are still in the buckets: into the frames. */
  if (!rc)
    rc = fill(pic);
  if (!rc && !(rc = lsk_buffer_read(pic->head, 0, head, cells * 4, NULL)) &&
      !(rc = lsk_buffer_read(pic->count, 0, count, cells * 4, NULL)) &&
      !(rc = lsk_buffer_read(pic->ctl, 0, ctl, sizeof ctl, NULL)))
    rc = lsk_pool_read_cells(pic->pool, 0, cap_f, frames, cap_f * stride, NULL);
  lsk_pic_stats st = {.left = ctl[CTL_LEFT], .compacted = ctl[CTL_COMPACTED], .grows = pic->grows};
  size_t fs = pic->fs;
  for (size_t c = 0; !rc && c < cells; ++c) {
    size_t k = 0, in_cell = 0;
    for (uint32_t f = head[c]; !rc && f != LSK_POOL_INVALID; ++k) {
      pframe v = {0};
      if (f >= cap_f || k > cap_f) {
        rc = lsk_context_set_error(ctx, LSK_EVERIFY, "%s: cell %zu: frame %zu is %u (capacity %zu)",
                                   fn, c, k, f, cap_f);
        break;
      }
      unsigned char *cellp = frames + (lsk_pool_cell_offset(pic->pool, f) - base);
      size_t head_bytes = lsk_pool_frame_base(pic->pool, f) - lsk_pool_cell_offset(pic->pool, f);
      if (pframe_bind(&v, cellp + head_bytes, fs))
        rc = lsk_context_set_error(ctx, LSK_EINVAL, "%s: %s", fn, lsk_context_errmsg(NULL));
      uint32_t hdr[LSK_FRAME_COUNT + 1], occupied = 0; /* the header's first words */
      memcpy(hdr, cellp, sizeof hdr);
      for (size_t i = 0; !rc && i < fs; ++i) {
        if (!v.id[i])
          continue;
        if (st.particles < cap) {
          p[st.particles] = (lsk_particle){v.id[i], v.x[i], v.y[i], v.vx[i], v.vy[i]};
          if (cell) /* the whole grid's index */
            cell[st.particles] =
                (uint32_t)((pic->y0 + c / pic->wx) * pic->gx + pic->x0 + c % pic->wx);
        }
        ++st.particles;
        ++occupied;
      }
      if (!rc && (occupied == 0 || occupied != hdr[LSK_FRAME_COUNT]))
        rc = lsk_context_set_error(ctx, LSK_EVERIFY,
                                   "%s: cell %zu: frame %zu holds %u particles, its header "
                                   "says %u",
                                   fn, c, k, occupied, hdr[LSK_FRAME_COUNT]);
      in_cell += occupied;
      f = hdr[LSK_FRAME_NEXT] - 1u;
      ++st.frames;
    }
    if (!rc && in_cell != count[c])
      rc = lsk_context_set_error(ctx, LSK_EVERIFY,
                                 "%s: cell %zu holds %zu particles, its count is %u", fn, c,
                                 in_cell, count[c]);
    if (!rc && k * fs >= 2 * (size_t)count[c] + 2 * fs)
      rc = lsk_context_set_error(ctx, LSK_EVERIFY, "%s: cell %zu has %zu frames for %u particles",
                                 fn, c, k, count[c]);
  }
  if (!rc && stats && !(rc = lsk_pool_usage_get(pic->pool, &st.pool, NULL)))
    *stats = st;
  free(head);
  free(frames);
  return rc;
}

int lsk_pic_reference_step(unsigned gx, unsigned gy, lsk_particle *p, size_t n,
                           lsk_particle *binned, uint32_t *start)
{
  if (!p || !binned || !start)
    return lsk_context_set_error(NULL, LSK_EINVAL, "lsk_pic_reference_step: %s is NULL",
                                 !p        ? "p"
                                 : !binned ? "binned"
                                           : "start");
  if (gx == 0 || gy == 0 || gx > LSK_PIC_MAX_EXTENT || gy > LSK_PIC_MAX_EXTENT)
    return lsk_context_set_error(NULL, LSK_EINVAL,
                                 "lsk_pic_reference_step: grid %ux%u: extents must be from 1 to %u",
                                 gx, gy, LSK_PIC_MAX_EXTENT);
  /* An invalid particle would index past start and binned. */
  for (size_t i = 0; i < n; ++i)
    if (!valid(&p[i], gx, gy))
      return lsk_context_set_error(
          NULL, LSK_EINVAL,
          "lsk_pic_reference_step: particle %zu (id %u at %d,%d moving %d,%d): id 0, "
          "outside the %ux%u grid, or a cell width or more per step",
          i, p[i].id, p[i].x, p[i].y, p[i].vx, p[i].vy, gx, gy);
  int64_t w = (int64_t)gx * LSK_PIC_UNIT, h = (int64_t)gy * LSK_PIC_UNIT;
  size_t cells = (size_t)gx * gy;
  memset(start, 0, (cells + 1) * sizeof *start);
  for (size_t i = 0; i < n; ++i) {
    /* In 64 bits: x + vx reaches 2w - 2, past 2^31 on the widest grids. */
    int64_t x = (int64_t)p[i].x + p[i].vx, y = (int64_t)p[i].y + p[i].vy;
    p[i].x = (int32_t)(x < 0 ? x + w : x >= w ? x - w : x);
    p[i].y = (int32_t)(y < 0 ? y + h : y >= h ? y - h : y);
    ++start[cell_of(&p[i], gx) + 1];
  }
  for (size_t c = 0; c < cells; ++c)
    start[c + 1] += start[c];
  /* start[c] is then the next free place of cell c; restore after. */
  for (size_t i = 0; i < n; ++i)
    binned[start[cell_of(&p[i], gx)]++] = p[i];
  for (size_t c = cells; c > 0; --c)
    start[c] = start[c - 1];
  start[0] = 0;
  return LSK_OK;
}
