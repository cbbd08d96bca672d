/*
 * pic.c: the particle-in-cell binning example (examples/pic/pic.h): the
 * frame layout, the program (examples/pic/pic.cl behind the layout's generated
 * view), the step's sequence of kernels, read-back with shape checks, and
 * the plain C reference step.
 */
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
  size_t n, cells, grows;
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

void lsk_pic_destroy(lsk_pic *pic)
{
  if (!pic || lsk_handle_remove(pic, &pic_type, "lsk_pic_destroy"))
    return;
  lsk_kernel_destroy(pic->move);
  lsk_kernel_destroy(pic->bucket);
  lsk_kernel_destroy(pic->frames);
  lsk_kernel_destroy(pic->fill);
  lsk_kernel_destroy(pic->compact);
  lsk_program_destroy(pic->prog);
  lsk_pool_destroy(pic->pool);
  lsk_buffer *b[] = {pic->head, pic->count, pic->incoming, pic->offs,
                     pic->ex,   pic->bk,    pic->ctl,      pic->nfr};
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
  return rc ? rc : lsk_buffer_write(*out, 0, words, n * 4);
}

static int build(lsk_pic *p)
{
  char *view = NULL;
  int rc = pframe_describe(&p->layout);
  if (!rc)
    rc = lsk_layout_emit_cl(p->layout, NULL, &view);
  if (rc)
    return lsk_context_set_error(p->ctx, rc, "lsk_pic_create: frame layout: %s",
                                 lsk_context_errmsg(NULL));
  lsk_program_options po = {.name = "pic.cl", .prelude = view};
  rc = lsk_program_create(p->ctx, pic_kernel_source, &po, &p->prog);
  lsk_free(view);
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

/* The device state for n particles: all of them in the exchange, bound
 * for their cells, the cells empty; the second half of a step then puts
 * them in frames. */
static int setup(lsk_pic *p, const lsk_particle *q)
{
  size_t n = p->n, cells = p->cells, big = EX_WORDS * n;
  big = big > cells + 1 ? big : cells + 1;
  uint32_t *w = calloc(big, 4);
  if (!w)
    return lsk_context_set_error(p->ctx, LSK_ENOMEM, "lsk_pic_create: out of host memory");
  int rc = buffer_of(p->ctx, w, cells, &p->nfr);
  if (!rc)
    rc = buffer_of(p->ctx, w, cells, &p->count);
  if (!rc)
    rc = buffer_of(p->ctx, w, cells + 1, &p->offs);
  if (!rc)
    rc = buffer_of(p->ctx, w, ROW * n, &p->bk);
  /* Each particle's rank among its cell's incoming (pic_bucket places it
   * at the cell's offset plus its rank), and the counts, in one loop. */
  uint32_t *per = calloc(cells + 1, 4);
  if (!per) {
    free(w);
    return lsk_context_set_error(p->ctx, LSK_ENOMEM, "lsk_pic_create: out of host memory");
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t c = cell_of(&q[i], p->gx);
    uint32_t *r = w + ROW * i;
    r[0] = q[i].id;
    r[1] = (uint32_t)q[i].x;
    r[2] = (uint32_t)q[i].y;
    r[3] = (uint32_t)q[i].vx;
    r[4] = (uint32_t)q[i].vy;
    w[ROW * n + i] = c;
    w[(ROW + 1) * n + i] = per[c]++;
  }
  if (!rc)
    rc = buffer_of(p->ctx, w, EX_WORDS * n, &p->ex);
  if (!rc)
    rc = buffer_of(p->ctx, per, cells + 1, &p->incoming);
  free(per);
  memset(w, 0, CTL_WORDS * 4);
  w[0] = (uint32_t)n;
  if (!rc)
    rc = buffer_of(p->ctx, w, CTL_WORDS, &p->ctl);
  memset(w, 0xff, cells * 4);
  if (!rc)
    rc = buffer_of(p->ctx, w, cells, &p->head);
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
  return l;
}

static lsk_launch flat(const lsk_pic *p, size_t n)
{
  return (lsk_launch){.domain = {TILE},
                      .blocks = {lsk_auto_blocks(lsk_context_device(p->ctx), n, TILE, 0)}};
}

/* Frames for every cell, growing the pool until they fit. */
static int frames(lsk_pic *p)
{
  for (uint32_t first = 1;; first = 0) {
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
      rc = lsk_pool_usage_get(p->pool, &u);
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

/* The second half of a step (and of lsk_pic_create): the exchange
 * bucketed, each cell's frames made ready for its incoming, lists
 * compacted, the GC. The incoming particles go into the frames in the next
 * step's pic_move (or fill, before a read). */
static int insert(lsk_pic *p)
{
  lsk_buffer *pool;
  uint32_t cap = (uint32_t)p->n, nc = (uint32_t)p->cells;
  lsk_launch lb = flat(p, p->n), lc = per_cell(p);
  int rc = lsk_scan(p->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, p->incoming, 0, p->offs, 0,
                    p->cells + 1, NULL);
  if (!rc)
    rc = lsk_kernel_launch(p->bucket, &lb,
                           LSK_ARGS(LSK_ARG_BUFFER(p->ex), LSK_ARG_BUFFER(p->ctl),
                                    LSK_ARG_BUFFER(p->offs), LSK_ARG_BUFFER(p->bk),
                                    LSK_ARG_UINT(cap)),
                           NULL);
  if (!rc)
    rc = frames(p);
  if (!rc)
    p->pending = 1;
  pool = lsk_pool_buffer(p->pool);
  if (!rc)
    rc = lsk_kernel_launch(
        p->compact, &lc,
        LSK_ARGS(LSK_ARG_BUFFER(pool), LSK_ARG_BUFFER(p->head), LSK_ARG_BUFFER(p->count),
                 LSK_ARG_BUFFER(p->nfr), LSK_ARG_BUFFER(p->ctl), LSK_ARG_UINT(nc),
                 LSK_ARG_BUFFER(p->offs), LSK_ARG_BUFFER(p->bk), LSK_ARG_UINT(p->pending)),
        NULL);
  if (!rc)
    rc = lsk_pool_gc(p->pool);
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
  lsk_launch l = per_frame(pic);
  int rc = lsk_kernel_launch(
      pic->move, &l,
      LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pic->pool)), LSK_ARG_BUFFER(pic->incoming),
               LSK_ARG_BUFFER(pic->ex), LSK_ARG_BUFFER(pic->ctl), LSK_ARG_UINT((uint32_t)pic->n),
               LSK_ARG_UINT(pic->gx), LSK_ARG_UINT(pic->gy), LSK_ARG_BUFFER(pic->offs),
               LSK_ARG_BUFFER(pic->bk), LSK_ARG_UINT(pic->pending)),
      NULL);
  if (!rc)
    pic->pending = 0;
  return rc ? rc : insert(pic);
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
  if (!p)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: particles is NULL", fn);
  if (gx == 0 || gy == 0 || gx > LSK_PIC_MAX_EXTENT || gy > LSK_PIC_MAX_EXTENT)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: grid %ux%u: extents must be from 1 to %u",
                                 fn, gx, gy, LSK_PIC_MAX_EXTENT);
  if (n == 0 || n > (1u << 31))
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: %zu particles: must be from 1 to 2^31", fn,
                                 n);
  unsigned fs = opt && opt->frame_size ? opt->frame_size : 128;
  if (fs < 8 || fs > 4096 || (fs & (fs - 1)))
    return lsk_context_set_error(
        ctx, LSK_EINVAL, "%s: frame size %u: must be a power of two from 8 to 4096", fn, fs);
  for (size_t i = 0; i < n; ++i)
    if (!valid(&p[i], gx, gy))
      return lsk_context_set_error(
          ctx, LSK_EINVAL,
          "%s: particle %zu (id %u at %d,%d moving %d,%d): id 0, outside the %ux%u "
          "grid, or a cell width or more per step",
          fn, i, p[i].id, p[i].x, p[i].y, p[i].vx, p[i].vy, gx, gy);
  lsk_pic *pic = calloc(1, sizeof *pic);
  if (!pic)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if ((hrc = lsk_handle_add(pic, &pic_type, ctx)) != LSK_OK) {
    free(pic);
    return lsk_context_set_error(ctx, hrc, "%s: %s", fn, lsk_context_errmsg(NULL));
  }
  *pic = (lsk_pic){
      .h = pic->h, .ctx = ctx, .gx = gx, .gy = gy, .fs = fs, .n = n, .cells = (size_t)gx * gy};
  /* By default the frames the particles need now, and a quarter more. */
  size_t frames = opt ? opt->frames : 0;
  uint32_t *per = frames ? NULL : calloc(pic->cells, 4);
  if (!frames && !per) {
    lsk_pic_destroy(pic);
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  }
  for (size_t i = 0; per && i < n; ++i)
    ++per[cell_of(&p[i], gx)];
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
    rc = insert(pic);
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
  if (!rc && !(rc = lsk_buffer_read(pic->head, 0, head, cells * 4)) &&
      !(rc = lsk_buffer_read(pic->count, 0, count, cells * 4)) &&
      !(rc = lsk_buffer_read(pic->ctl, 0, ctl, sizeof ctl)))
    rc = lsk_pool_read_cells(pic->pool, 0, cap_f, frames);
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
          if (cell)
            cell[st.particles] = (uint32_t)c;
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
  if (!rc && stats && !(rc = lsk_pool_usage_get(pic->pool, &st.pool)))
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
