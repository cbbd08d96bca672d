/*
 * pixel.c: the pixel example's device pipeline (examples/pixel/pixel.h): its
 * three SoA layouts (digis, clusters, hits), one lsk_soa each, the program
 * (examples/pixel/pixel.cl behind the layouts' generated views), the stages of a
 * run, and reading the results back. Everything a run enqueues goes on the
 * lsk_pixel's queue (px->q), and it waits for that queue alone.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pixel_internal.h"

/* The layouts, written once: host views here, generated OpenCL C views for
 * the kernels. */
#define PXDIGI_MEMBERS(COLUMN, MATRIX, SCALAR)                                                     \
  COLUMN(ushort, x) COLUMN(ushort, y) COLUMN(ushort, adc) COLUMN(uint, module) COLUMN(uint, clus)
LSK_SOA_DEFINE(pxdigi, 128, PXDIGI_MEMBERS)
/* charge and hit: dense rows (a module's clusters from its first
 * cluster); the rest sparse (from its first digi), see examples/pixel/pixel.cl. */
#define PXCLUS_MEMBERS(COLUMN, MATRIX, SCALAR)                                                     \
  COLUMN(uint, charge)                                                                             \
  COLUMN(uint, hit)                                                                                \
  COLUMN(uint, sq)                                                                                 \
  COLUMN(uint, hr) COLUMN(float, lx) COLUMN(float, ly) COLUMN(float, lxerr) COLUMN(float, lyerr)
LSK_SOA_DEFINE(pxclus, 128, PXCLUS_MEMBERS)
#define PXHIT_MEMBERS(COLUMN, MATRIX, SCALAR)                                                      \
  COLUMN(float, hx)                                                                                \
  COLUMN(float, hy)                                                                                \
  COLUMN(float, xerr)                                                                              \
  COLUMN(float, yerr)                                                                              \
  MATRIX(float, 3, 1, g)                                                                           \
  COLUMN(uint, hcharge)                                                                            \
  COLUMN(uint, hmodule)                                                                            \
  COLUMN(uint, cluster) MATRIX(float, 3, 1, gb) COLUMN(float, r) COLUMN(short, iphi)
LSK_SOA_DEFINE(pxhit, 128, PXHIT_MEMBERS)

#define MAX_ARGS 40

extern const char pixel_kernel_source[];

/* The grid lookup's local memory (examples/pixel/pixel.cl, PX_GRID), and what a
 * device must have for it: the grid plus the 32 KiB that the hash way is
 * held to. */
#define GRID_BYTES (2u * LSK_PIXEL_NX * LSK_PIXEL_NY)
#define GRID_NEED (GRID_BYTES + 32768u)

struct lsk_pixel {
  lsk_handle h; /* first: lsk checks the handle on every call (lsk/handle.h) */
  lsk_context *ctx;
  /* The queue of every command, as an lsk_async and as the kernel
   * library's options (on = &on). */
  lsk_queue *q;
  lsk_async on;
  lsk_async xfer; /* on, for host transfers that return at once */
  lsk_algo_options algo;
  uint32_t threshold;
  /* The charge cut per range of module ids (opt.cuts, copied; ncuts 0:
   * threshold for all), and thr: each module of an event's threshold for
   * a keep-at-or-above test (a strict cut's plus 1), for the placed
   * modules per event. */
  lsk_pixel_cut cuts[LSK_PIXEL_MAX_CUTS];
  uint32_t ncuts;
  lsk_buffer *thr;
  /* The options, resolved for the device once (resolve_shape): blocks is
   * the most per launch, workers and simd as launches take them; lookup is
   * LSK_PIXEL_LOOKUP_GRID or _HASH. */
  lsk_pixel_options opt;
  lsk_layout *layout[3];
  lsk_program *prog;
  lsk_kernel *module, *hits, *ids;
  /* The large-module path (pixel.cl, PX_LARGE), built at the first run
   * that has a module of more than LSK_PIXEL_BLOCK_DIGIS digis: px_large,
   * the list of those modules (host copy list_host, room list_cap), and
   * a scratch slice (LARGE_SLICE bytes) per block, scratch_blocks of
   * them. */
  lsk_program *prog_large;
  lsk_kernel *large;
  lsk_buffer *list, *scratch;
  uint32_t *list_host;
  size_t list_cap, scratch_blocks, nlarge;
  lsk_soa *soa[3]; /* digis, clusters, hits; cap_digis rows each */
  size_t cap_digis, cap_modules;
  /* Per module (cap_modules + 1): first digi, clusters, first cluster,
   * hits, first hit. */
  lsk_buffer *start, *nclus, *coff, *nhit, *hoff;
  lsk_buffer *place; /* 12 floats per module of an event */
  uint32_t placed;   /* modules per event that place holds */
  lsk_assoc *assoc;
  /* The pinned staging area of the uploads: the digi buffer's layout for
   * stage_digis rows from stage_off (its alignment), then stage_modules + 1
   * module starts from stage_start. */
  lsk_pinned *stage;
  size_t stage_digis, stage_modules, stage_off, stage_start;
  /* Commands may still be in flight on q (a run or read that failed before
   * its wait): the next call waits first. */
  int pending;
  /* The last run. */
  uint32_t per_event;
  size_t modules, digis, clusters, nhits;
};
/* The handle type: lsk's checks name it in their messages. */
static const lsk_handle_type pixel_type = {"lsk_pixel", &lsk_context_handle_type, 0};
_Static_assert(offsetof(lsk_pixel, h) == 0, "the handle header comes first");

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void lsk_pixel_destroy(lsk_pixel *px)
{
  if (!px || lsk_handle_remove(px, &pixel_type, "lsk_pixel_destroy"))
    return;
  /* No transfer from the staging area may be in flight when it goes. */
  if (px->pending)
    lsk_queue_finish(px->q);
  lsk_pinned_destroy(px->stage);
  lsk_kernel_destroy(px->module);
  lsk_kernel_destroy(px->hits);
  lsk_kernel_destroy(px->ids);
  lsk_program_destroy(px->prog);
  lsk_kernel_destroy(px->large);
  lsk_program_destroy(px->prog_large);
  lsk_buffer_destroy(px->list);
  lsk_buffer_destroy(px->scratch);
  free(px->list_host);
  for (int i = 0; i < 3; ++i)
    lsk_soa_destroy(px->soa[i]);
  lsk_buffer *b[] = {px->start, px->nclus, px->coff, px->nhit, px->hoff, px->place, px->thr};
  for (size_t i = 0; i < sizeof b / sizeof b[0]; ++i)
    lsk_buffer_destroy(b[i]);
  lsk_assoc_destroy(px->assoc);
  for (int i = 0; i < 3; ++i)
    lsk_layout_destroy(px->layout[i]);
  free(px);
}

unsigned lsk_pixel_lookup(const lsk_pixel *px)
{
  if (!px || lsk_handle_check(NULL, px, &pixel_type, "lsk_pixel_lookup", "px"))
    return 0u;
  return px->opt.lookup;
}

uint32_t lsk_pixel_threshold(const lsk_pixel *px)
{
  if (!px || lsk_handle_check(NULL, px, &pixel_type, "lsk_pixel_threshold", "px"))
    return 0u;
  return px->threshold;
}

int lsk_pixel_shape(const lsk_pixel *px, unsigned *workers, unsigned *simd, size_t *blocks)
{
  static const char fn[] = "lsk_pixel_shape";
  int hrc = lsk_handle_check(NULL, px, &pixel_type, fn, "px");
  if (hrc)
    return hrc;
  if (!workers || !simd || !blocks)
    return lsk_context_set_error(px->ctx, LSK_EINVAL, "%s: %s is NULL", fn,
                                 !workers ? "workers"
                                 : !simd  ? "simd"
                                          : "blocks");
  *workers = px->opt.workers;
  *simd = px->opt.simd;
  *blocks = px->opt.blocks;
  return LSK_OK;
}

lsk_assoc *lsk_pixel_assoc(const lsk_pixel *px)
{
  if (!px || lsk_handle_check(NULL, px, &pixel_type, "lsk_pixel_assoc", "px"))
    return NULL;
  return px->modules ? px->assoc : NULL;
}

lsk_queue *lsk_pixel_queue(const lsk_pixel *px)
{
  if (!px || lsk_handle_check(NULL, px, &pixel_type, "lsk_pixel_queue", "px"))
    return NULL;
  return px->q;
}

static lsk_launch shape(const lsk_pixel *px, size_t nm);
static void resolve_shape(lsk_pixel *px);

/* pixel.cl behind the layouts' views, into *prog: the ordinary build,
 * or with large the large-module one (PX_LARGE). */
static int build_program(lsk_pixel *px, int large, const char *fn, lsk_program **prog)
{
  char *view[3] = {NULL, NULL, NULL}, *prelude = NULL;
  int rc = LSK_OK;
  for (int i = 0; i < 3 && !rc; ++i)
    rc = lsk_layout_emit_cl(px->layout[i], NULL, &view[i]);
  if (rc)
    return lsk_context_set_error(px->ctx, rc, "%s: layouts: %s", fn, lsk_context_errmsg(NULL));
  static const char fmt[] = "#define PX_NX %u\n#define PX_NY %u\n#define PX_PITCH_X %.9gf\n"
                            "#define PX_PITCH_Y %.9gf\n#define PX_GRID %d\n#define PX_LARGE %d\n"
                            "%s\n%s\n%s\n";
  int grid = px->opt.lookup == LSK_PIXEL_LOOKUP_GRID;
  int n = snprintf(NULL, 0, fmt, LSK_PIXEL_NX, LSK_PIXEL_NY, (double)LSK_PIXEL_PITCH_X,
                   (double)LSK_PIXEL_PITCH_Y, grid, large, view[0], view[1], view[2]);
  if (n >= 0 && (prelude = malloc((size_t)n + 1)) != NULL)
    snprintf(prelude, (size_t)n + 1, fmt, LSK_PIXEL_NX, LSK_PIXEL_NY, (double)LSK_PIXEL_PITCH_X,
             (double)LSK_PIXEL_PITCH_Y, grid, large, view[0], view[1], view[2]);
  for (int i = 0; i < 3; ++i)
    lsk_free(view[i]);
  if (!prelude)
    return lsk_context_set_error(px->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  lsk_program_options po = {.name = large ? "pixel-large.cl" : "pixel.cl", .prelude = prelude};
  rc = lsk_program_create(px->ctx, pixel_kernel_source, &po, prog);
  free(prelude);
  return rc;
}

static int build(lsk_pixel *px)
{
  static const char fn[] = "lsk_pixel_create";
  int rc = pxdigi_describe(&px->layout[0]);
  if (!rc)
    rc = pxclus_describe(&px->layout[1]);
  if (!rc)
    rc = pxhit_describe(&px->layout[2]);
  if (!rc)
    rc = build_program(px, 0, fn, &px->prog);
  if (!rc)
    rc = lsk_kernel_create(px->prog, "px_module", &px->module);
  if (!rc)
    rc = lsk_kernel_create(px->prog, "px_hits", &px->hits);
  if (!rc)
    rc = lsk_kernel_create(px->prog, "px_cluster_ids", &px->ids);
  /* Builds the configuration now, so that a run times no build. */
  unsigned w, s;
  lsk_launch l = shape(px, 1);
  if (!rc)
    rc = lsk_kernel_shape(px->module, &l, &w, &s);
  return rc;
}

/* rc, with the failure's message current again on ctx if an lsk call
 * that succeeded after it (a cleanup) has marked it "(earlier) ": each
 * lsk call made here is a call of its own (docs/errors.md, "Messages"). */
static int reraise(lsk_context *ctx, int rc)
{
  const char *e = lsk_errmsg();
  if (rc && strncmp(e, "(earlier) ", 10) == 0)
    return lsk_context_set_error(ctx, rc, "%s", e + 10);
  return rc;
}

int lsk_pixel_create(lsk_context *ctx, const lsk_pixel_options *opt, lsk_pixel **out)
{
  static const char fn[] = "lsk_pixel_create";
  if (!out)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  int hrc = lsk_handle_check(NULL, ctx, &lsk_context_handle_type, fn, "ctx");
  if (hrc)
    return hrc;
  const lsk_device_info *dev = lsk_context_device(ctx);
  /* The device's limit on workers, as lsk's launches apply it. */
  size_t most = dev->max_work_group_size;
  if (dev->max_work_item_sizes[0] && dev->max_work_item_sizes[0] < most)
    most = dev->max_work_item_sizes[0];
  if (opt && opt->workers && most && opt->workers > most)
    return lsk_context_set_error(ctx, LSK_ELAUNCH, "%s: workers %u exceed the %zu that %s allows",
                                 fn, opt->workers, most, dev->name);
  if (opt && opt->blocks > UINT32_MAX)
    return lsk_context_set_error(ctx, LSK_ERANGE, "%s: blocks %zu exceed 2^32 - 1", fn,
                                 opt->blocks);
  int rc;
  if (opt && opt->lookup > LSK_PIXEL_LOOKUP_HASH)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: lookup %u is none of LSK_PIXEL_LOOKUP_*", fn,
                                 opt->lookup);
  /* The grid where local memory is the host's memory (CPUs: there a block
   * walks many modules, and zeroes the grid once) and holds it. */
  int grid_fits = dev->local_mem_size >= GRID_NEED;
  unsigned lookup = opt ? opt->lookup : LSK_PIXEL_LOOKUP_AUTO;
  if (lookup == LSK_PIXEL_LOOKUP_GRID && !grid_fits)
    return lsk_context_set_error(ctx, LSK_ELAUNCH,
                                 "%s: the grid lookup needs %u bytes of local memory, %s has %llu",
                                 fn, GRID_NEED, dev->name, (unsigned long long)dev->local_mem_size);
  if (lookup == LSK_PIXEL_LOOKUP_AUTO)
    lookup = dev->is_cpu && grid_fits ? LSK_PIXEL_LOOKUP_GRID : LSK_PIXEL_LOOKUP_HASH;
  if (opt && (opt->cuts || opt->ncuts)) {
    if (!opt->cuts)
      return lsk_context_set_error(ctx, LSK_EINVAL, "%s: opt->cuts is NULL, ncuts %u", fn,
                                   opt->ncuts);
    if ((rc = px_cuts_usable(ctx, fn, opt->cuts, opt->ncuts)))
      return rc;
  }
  lsk_pixel *px = calloc(1, sizeof *px);
  if (!px)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if ((hrc = lsk_handle_add(px, &pixel_type, ctx)) != LSK_OK) {
    free(px);
    return lsk_context_set_error(ctx, hrc, "%s: %s", fn, lsk_context_errmsg(NULL));
  }
  px->ctx = ctx;
  if (opt)
    px->opt = *opt;
  px->q = px->opt.queue ? px->opt.queue : lsk_context_queue(ctx);
  px->on = (lsk_async){.queue = px->q};
  px->xfer = (lsk_async){.queue = px->q, .flags = LSK_ASYNC_NONBLOCKING};
  px->algo = (lsk_algo_options){0};
  px->opt.lookup = lookup;
  px->threshold = px->opt.threshold ? px->opt.threshold : LSK_PIXEL_THRESHOLD;
  if (px->opt.cuts) {
    memcpy(px->cuts, px->opt.cuts, px->opt.ncuts * sizeof *px->cuts);
    px->ncuts = px->opt.ncuts;
  }
  px->opt.cuts = NULL; /* the caller's array need not outlive px */
  resolve_shape(px);
  /* The queue is live and the context's: the buffer cache checks both
   * (and keeps the buffer for the first run). */
  lsk_buffer *probe = NULL;
  rc = lsk_buffer_alloc(ctx, 4, &probe, &(lsk_async){.queue = px->q});
  if (rc)
    rc = lsk_context_set_error(ctx, rc, "%s: opt->queue: %s", fn, lsk_context_errmsg(ctx));
  lsk_buffer_free(probe, &(lsk_async){.queue = px->q});
  if (!rc)
    rc = build(px);
  if (rc) {
    lsk_pixel_destroy(px);
    return reraise(ctx, rc);
  }
  *out = px;
  return LSK_OK;
}

/* A wait for px's queue after a failure, for the commands already
 * enqueued (host memory they use may go when the caller returns); the
 * failure's message is kept. */
static int settle(lsk_pixel *px, int rc)
{
  if (!px->pending)
    return rc;
  if (!rc) {
    rc = lsk_queue_finish(px->q);
    px->pending = rc != LSK_OK;
    return rc;
  }
  char msg[512];
  snprintf(msg, sizeof msg, "%s", lsk_context_errmsg(px->ctx));
  if (lsk_queue_finish(px->q) == LSK_OK)
    px->pending = 0;
  return lsk_context_set_error(px->ctx, rc, "%s", msg);
}

/* Rounds up to a multiple of a (a power of two). */
static size_t round_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

/* The pinned staging area for nm modules and the digi buffer's cap_digis
 * rows, grown by a quarter when it is too small (and never shrunk: pinned
 * memory is slow to get). No transfer from it is in flight here. */
static int stage_reserve(lsk_pixel *px, size_t nm)
{
  if (px->stage && px->stage_digis >= px->cap_digis && px->stage_modules >= nm)
    return LSK_OK;
  size_t digis = px->cap_digis > px->stage_digis ? px->cap_digis : px->stage_digis;
  size_t mods = nm > px->stage_modules ? nm + nm / 4 : px->stage_modules;
  size_t align = 128; /* the layouts' (LSK_SOA_DEFINE) */
  size_t soa = round_up(pxdigi_bytes(digis), 64);
  lsk_pinned_destroy(px->stage);
  px->stage = NULL;
  px->stage_digis = px->stage_modules = 0;
  int rc = lsk_pinned_create(px->ctx, align + soa + 4 * (mods + 1), &px->stage);
  if (rc)
    return rc;
  uintptr_t p = (uintptr_t)lsk_pinned_ptr(px->stage);
  px->stage_off = (size_t)(round_up(p, align) - p);
  px->stage_start = px->stage_off + soa;
  px->stage_digis = digis;
  px->stage_modules = mods;
  return LSK_OK;
}

/* Each module of an event's threshold for the kernels' keep-at-or-above
 * test: its range's (or px's one threshold), plus 1 for a strict cut
 * (a charge is below 2^28, so UINT32_MAX keeps nothing either way). */
static void module_thresholds(const lsk_pixel *px, uint32_t modules, uint32_t *thr)
{
  for (uint32_t m = 0, r = 0; m < modules; ++m) {
    uint32_t t = px->threshold;
    if (px->ncuts) {
      while (r + 1 < px->ncuts && px->cuts[r + 1].first_module <= m)
        ++r;
      t = px->cuts[r].threshold;
    }
    thr[m] = px->opt.strict && t < UINT32_MAX ? t + 1u : t;
  }
}

/* Room for ev: device buffers (the SoA grown, never shrunk), the placements
 * of its modules, the association of its modules, the staging area. Its
 * own writes on px's queue, waited for at the end (the host memory written
 * from goes then). */
static int reserve(lsk_pixel *px, const lsk_pixel_events *ev, size_t nm)
{
  int rc = LSK_OK, wrote = 0;
  uint32_t *z = NULL, *thr = NULL;
  lsk_pixel_placement *pl = NULL;
  if (ev->digis > px->cap_digis || !px->soa[0]) {
    size_t cap = ev->digis + ev->digis / 4 + 1;
    px->cap_digis = 0;
    for (int i = 0; i < 3; ++i) {
      lsk_soa_destroy(px->soa[i]);
      px->soa[i] = NULL;
      /* lsk_soa_create writes the whole buffer (zero, so every byte is
       * defined) on the default queue, waiting for it: the one command of
       * an lsk_pixel not on its queue, when the set outgrows the buffers. */
      if (!rc)
        rc = lsk_soa_create(px->ctx, 1, (const lsk_layout *const *)&px->layout[i], &cap,
                            &px->soa[i]);
    }
    if (!rc)
      px->cap_digis = cap;
  }
  /* nm + 1 uints each, written whole before any use; from the buffer
   * cache on px's queue, so that a size seen before (a stream's shorter
   * last batch, then the others) costs no new buffer. The cache's buffer
   * may be larger: nothing reads past nm + 1. */
  if (!rc && nm != px->cap_modules) {
    lsk_buffer **b[] = {&px->start, &px->nclus, &px->coff, &px->nhit, &px->hoff};
    px->cap_modules = 0;
    if (!(z = calloc(nm + 1, 4)))
      rc = lsk_context_set_error(px->ctx, LSK_ENOMEM, "lsk_pixel_run: out of host memory");
    for (size_t i = 0; i < 5; ++i) {
      lsk_buffer_destroy(*b[i]); /* lsk_buffer_free on the queue it came from */
      *b[i] = NULL;
      if (!rc)
        rc = lsk_buffer_alloc(px->ctx, (nm + 1) * 4, b[i], &(lsk_async){.queue = px->q});
      if (!rc)
        rc = lsk_buffer_write(*b[i], 0, z, (nm + 1) * 4, &px->xfer);
      wrote |= !rc;
    }
    if (!rc)
      px->cap_modules = nm;
  }
  if (!rc && px->placed != ev->modules) {
    lsk_buffer_destroy(px->place);
    lsk_buffer_destroy(px->thr);
    px->place = px->thr = NULL;
    px->placed = 0;
    if (!(pl = malloc(ev->modules * sizeof *pl)) || !(thr = malloc(ev->modules * 4u)))
      rc = lsk_context_set_error(px->ctx, LSK_ENOMEM, "lsk_pixel_run: out of host memory");
    if (!rc) {
      lsk_pixel_geometry(ev->modules, pl);
      module_thresholds(px, ev->modules, thr);
      rc = lsk_buffer_create(px->ctx, ev->modules * sizeof *pl, &px->place);
    }
    if (!rc)
      rc = lsk_buffer_create(px->ctx, ev->modules * 4u, &px->thr);
    if (!rc)
      rc = lsk_buffer_write(px->thr, 0, thr, ev->modules * 4u, &px->xfer);
    if (!rc)
      rc = lsk_buffer_write(px->place, 0, pl, ev->modules * sizeof *pl, &px->xfer);
    wrote |= !rc;
    if (!rc)
      px->placed = ev->modules;
  }
  if (!rc && (!px->assoc || lsk_assoc_nkeys(px->assoc) != nm)) {
    lsk_assoc_destroy(px->assoc);
    px->assoc = NULL;
    rc = lsk_assoc_create(px->ctx, nm, px->cap_digis, NULL, &px->assoc);
  }
  if (!rc)
    rc = lsk_assoc_reserve(px->assoc, px->cap_digis);
  if (!rc)
    rc = stage_reserve(px, nm);
  if (wrote) {
    px->pending = 1;
    rc = settle(px, rc);
  }
  free(z);
  free(pl);
  free(thr);
  return rc;
}

/* The byte offset of a member of layout j in its buffer, through a host
 * view. */
static size_t at(const lsk_pixel *px, size_t j, const void *member)
{
  return (size_t)((const unsigned char *)member -
                  (const unsigned char *)lsk_soa_host(px->soa[j], 0));
}

/* The digis into the pinned staging area, in the digi buffer's layout,
 * and from there to the device without waiting: the columns x, y, adc in
 * full and module up to the last digi in one write (the rest of the
 * buffer, clus, is the kernels'), and the module starts. Every byte of the
 * buffer was defined once by lsk_soa_create's whole write (oclgrind's
 * --uninitialized, grind_pixel, is clean with this partial write). */
/* Where the device's memory is the host's (CPUs), the digis go straight
 * into the mapped digi buffer on px's queue, with no copy but the one from
 * the events: a staging copy would be a second memcpy there. 1 if done
 * (rc set), 0 to take the staging path (a map not aligned for the view,
 * as oclgrind's). */
static int upload_mapped(lsk_pixel *px, const lsk_pixel_events *ev, int *rc)
{
  lsk_buffer *b = lsk_soa_buffer(px->soa[0]);
  void *mem = NULL;
  lsk_event *mapped = NULL;
  pxdigi v = {0};
  *rc = lsk_buffer_map(
      b, 0, lsk_buffer_size(b), &mem,
      &(lsk_async){.queue = px->q, .event = &mapped, .flags = LSK_ASYNC_NONBLOCKING});
  if (!*rc)
    *rc = lsk_event_wait(mapped);
  lsk_event_release(mapped);
  if (*rc)
    return 1;
  int bound = pxdigi_bind(&v, mem, px->cap_digis) == LSK_OK;
  size_t d = ev->digis;
  if (bound && d) {
    memcpy(v.x, ev->x, d * 2);
    memcpy(v.y, ev->y, d * 2);
    memcpy(v.adc, ev->adc, d * 2);
    memcpy(v.module, ev->module, d * 4);
  }
  *rc = lsk_buffer_unmap(b, mem, &px->on);
  return bound || *rc;
}

static int upload(lsk_pixel *px, const lsk_pixel_events *ev, size_t nm)
{
  pxdigi v = {0};
  size_t d = ev->digis;
  unsigned char *base = (unsigned char *)lsk_pinned_ptr(px->stage) + px->stage_off;
  uint32_t *start = (uint32_t *)((unsigned char *)lsk_pinned_ptr(px->stage) + px->stage_start);
  int rc;
  if (lsk_context_device(px->ctx)->is_cpu && upload_mapped(px, ev, &rc)) {
    px->pending = 1;
    memcpy(start, ev->start, (nm + 1) * 4);
    return rc ? rc : lsk_buffer_write(px->start, 0, start, (nm + 1) * 4, &px->xfer);
  }
  rc = pxdigi_bind(&v, base, px->cap_digis);
  if (rc)
    return lsk_context_set_error(px->ctx, rc, "lsk_pixel_run: the staging area: %s",
                                 lsk_context_errmsg(NULL));
  if (d) {
    memcpy(v.x, ev->x, d * 2);
    memcpy(v.y, ev->y, d * 2);
    memcpy(v.adc, ev->adc, d * 2);
    memcpy(v.module, ev->module, d * 4);
  }
  memcpy(start, ev->start, (nm + 1) * 4);
  px->pending = 1;
  size_t bytes = (size_t)((unsigned char *)(v.module + d) - base);
  rc = lsk_buffer_write(lsk_soa_buffer(px->soa[0]), 0, base, bytes, &px->xfer);
  if (!rc)
    rc = lsk_buffer_write(px->start, 0, start, (nm + 1) * 4, &px->xfer);
  return rc;
}

typedef struct arglist {
  lsk_arg a[MAX_ARGS];
  size_t n;
  int rc;
} arglist;

static void add_view(lsk_pixel *px, arglist *l, size_t part)
{
  size_t c = 0;
  if (!l->rc)
    l->rc = lsk_soa_args(px->soa[part], 0, NULL, l->a + l->n, MAX_ARGS - l->n, &c);
  l->n += l->rc ? 0 : c;
}

static void add(arglist *l, lsk_arg a)
{
  if (l->n < MAX_ARGS)
    l->a[l->n++] = a;
}

/* The per-module kernels' shape on px's device, into px->opt at create. */
static void resolve_shape(lsk_pixel *px)
{
  /* On CPUs a few blocks per compute unit, each walking many modules
   * (PoCL pays per work-group); on GPUs one per module, and on llvmpipe,
   * whose loop cap a block of many modules passes (merged clusters). */
  const lsk_device_info *dev = lsk_context_device(px->ctx);
  if (!px->opt.blocks)
    px->opt.blocks = dev->is_gpu || dev->loops_capped
                         ? 65535
                         : 8 * (size_t)(dev->compute_units ? dev->compute_units : 1);
  /* On CPUs one worker of one index: a block is then a plain loop over
   * a module's digis, px_module's local updates are plain operations (no
   * locked instructions), and no step has a masked tail. It beat 1 x 2,
   * 4, 8, 16 and 64 on PoCL (docs/perf/pixel.md); results never
   * depend on it. */
  if (!dev->is_gpu && !px->opt.workers && !px->opt.simd) {
    px->opt.workers = 1;
    px->opt.simd = 1;
  }
}

/* A block per module over nm modules, at most `most` blocks (each then
 * takes several modules in turn), the domain `domain` digis: PMacc's
 * block configuration from a count (lsk_launch_for; it cannot fail here:
 * the domain is a constant and the blocks are capped). */
static lsk_launch per_module(size_t nm, unsigned domain, size_t most)
{
  lsk_launch l = {0};
  (void)lsk_launch_for(nm, (const unsigned[3]){domain, 0, 0},
                       &(lsk_launch_for_options){.per_block = 1, .max_blocks = most}, &l);
  return l;
}

/* The launch of the per-module kernels over nm modules. */
static lsk_launch shape(const lsk_pixel *px, size_t nm)
{
  lsk_launch l = per_module(nm, LSK_PIXEL_BLOCK_DIGIS, px->opt.blocks);
  l.workers = px->opt.workers;
  l.simd = px->opt.simd;
  return l;
}

/* The large-module path: a block's scratch slice (pixel.cl, PX_SLICE: the
 * grid, four uint and four ulong arrays of LSK_PIXEL_MAX_DIGIS), and the
 * most blocks a launch takes (on GPUs a block per large module up to 256
 * of them, 84 MB of scratch; elsewhere the ordinary path's blocks). */
#define LARGE_SLICE (GRID_BYTES + 48u * LSK_PIXEL_MAX_DIGIS)
#define LARGE_GPU_BLOCKS 256u

static lsk_launch shape_large(const lsk_pixel *px, size_t nl)
{
  size_t most = lsk_context_device(px->ctx)->is_gpu ? LARGE_GPU_BLOCKS : px->opt.blocks;
  if (most > LARGE_GPU_BLOCKS)
    most = LARGE_GPU_BLOCKS;
  /* Where loops are capped (llvmpipe: 65,535 iterations per work-item,
   * docs/rusticl.md), one worker over 4096 digis would pass the cap
   * (about 16 iterations per digi): lsk's automatic shape there. */
  int capped = lsk_context_device(px->ctx)->loops_capped;
  lsk_launch l = per_module(nl, LSK_PIXEL_MAX_DIGIS, most);
  l.workers = capped ? 0 : px->opt.workers;
  l.simd = capped ? 0 : px->opt.simd;
  return l;
}

/* The list of ev's large modules (more than LSK_PIXEL_BLOCK_DIGIS digis)
 * into px->list_host, px->nlarge; then, if there are any, the large build
 * (once), the list on the device and the scratch of the blocks. */
static int reserve_large(lsk_pixel *px, const lsk_pixel_events *ev, size_t nm)
{
  static const char fn[] = "lsk_pixel_run";
  px->nlarge = 0;
  for (size_t k = 0; k < nm; ++k) {
    if (ev->start[k + 1] - ev->start[k] <= LSK_PIXEL_BLOCK_DIGIS)
      continue;
    if (px->nlarge == px->list_cap) {
      size_t cap = px->list_cap ? 2 * px->list_cap : 64;
      uint32_t *l = realloc(px->list_host, cap * 4);
      if (!l)
        return lsk_context_set_error(px->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
      px->list_host = l;
      px->list_cap = cap;
      lsk_buffer_destroy(px->list); /* regrown below */
      px->list = NULL;
    }
    px->list_host[px->nlarge++] = (uint32_t)k;
  }
  if (!px->nlarge)
    return LSK_OK;
  int rc = LSK_OK;
  if (!px->prog_large) {
    rc = build_program(px, 1, fn, &px->prog_large);
    if (!rc)
      rc = lsk_kernel_create(px->prog_large, "px_large", &px->large);
    if (rc) {
      lsk_program_destroy(px->prog_large);
      px->prog_large = NULL;
      return rc;
    }
  }
  if (!px->list)
    rc = lsk_buffer_create(px->ctx, px->list_cap * 4, &px->list);
  lsk_launch l = shape_large(px, px->nlarge);
  size_t blocks = l.blocks[0];
  if (!rc && blocks > px->scratch_blocks) {
    lsk_buffer_destroy(px->scratch);
    px->scratch = NULL;
    px->scratch_blocks = 0;
    rc = lsk_buffer_create(px->ctx, blocks * LARGE_SLICE, &px->scratch);
    /* Zeroed here, once, by a whole write (oclgrind takes no fill as
     * initializing): px_large leaves each block's grid as it found it
     * (each module frees its pixels), and never zeroes it itself. */
    void *z = rc ? NULL : calloc(blocks, LARGE_SLICE);
    if (!rc && !z)
      rc = lsk_context_set_error(px->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
    if (!rc)
      rc = lsk_buffer_write(px->scratch, 0, z, blocks * LARGE_SLICE, &px->on);
    free(z);
    if (!rc)
      px->scratch_blocks = blocks;
  }
  if (!rc)
    rc = lsk_buffer_write(px->list, 0, px->list_host, px->nlarge * 4, &px->xfer);
  return rc;
}

int px_module_local(lsk_pixel *px, uint64_t *bytes)
{
  lsk_launch cfg = shape(px, 1);
  lsk_kernel_info ki;
  int rc = lsk_kernel_query(px->module, &cfg, &ki);
  *bytes = rc ? 0 : ki.local_static_bytes;
  return rc;
}

static int launch(lsk_pixel *px, lsk_kernel *k, const arglist *l, size_t nm)
{
  if (l->rc)
    return l->rc;
  lsk_launch cfg = shape(px, nm);
  return lsk_kernel_launch(k, &cfg, l->a, l->n, &px->on);
}

/* Wait and charge the time since *t0 to *stage, when timing. */
static int lap(lsk_pixel *px, lsk_pixel_times *t, double *stage, double *t0)
{
  if (!t)
    return LSK_OK;
  int rc = lsk_queue_finish(px->q);
  double t1 = now();
  *stage = t1 - *t0;
  *t0 = t1;
  return rc;
}

int px_events_usable(lsk_context *ctx, const char *fn, const lsk_pixel_events *ev,
                     uint32_t max_digis)
{
  if (!ev || !ev->x || !ev->y || !ev->adc || !ev->module || !ev->start)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: ev or one of its arrays is NULL", fn);
  if (ev->events == 0 || ev->modules == 0 || ev->events > LSK_PIXEL_MAX_EVENTS ||
      ev->modules > LSK_PIXEL_MAX_MODULES || ev->digis > UINT32_MAX)
    return lsk_context_set_error(ctx, LSK_EINVAL,
                                 "%s: %u events of %u modules, %zu digis: out of range", fn,
                                 ev->events, ev->modules, ev->digis);
  size_t nm = (size_t)ev->events * ev->modules;
  for (size_t k = 0; k < nm; ++k) {
    size_t e = k / ev->modules, m = k - e * ev->modules;
    if (ev->start[k + 1] < ev->start[k])
      return lsk_context_set_error(ctx, LSK_EINVAL, "%s: event %zu module %zu: digis %u to %u", fn,
                                   e, m, ev->start[k], ev->start[k + 1]);
    if (ev->start[k + 1] - ev->start[k] > max_digis)
      return lsk_context_set_error(
          ctx, LSK_EINVAL, "%s: event %zu module %zu: %u digis, more than %u (digis %u to %u)", fn,
          e, m, ev->start[k + 1] - ev->start[k], max_digis, ev->start[k], ev->start[k + 1]);
  }
  if (ev->start[0] != 0 || ev->start[nm] != ev->digis)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: start runs from %u to %u, want 0 to %zu", fn,
                                 ev->start[0], ev->start[nm], ev->digis);
  return LSK_OK;
}

int lsk_pixel_run(lsk_pixel *px, const lsk_pixel_events *ev, lsk_pixel_times *times)
{
  static const char fn[] = "lsk_pixel_run";
  int hrc = lsk_handle_check(NULL, px, &pixel_type, fn, "px");
  if (hrc)
    return hrc;
  /* What the kernels' memory safety rests on; the rest of the rules
   * (lsk_pixel_events_check) decide only whether results are right. */
  int erc = px_events_usable(px->ctx, fn, ev, LSK_PIXEL_MAX_DIGIS);
  if (erc)
    return erc;
  size_t nm = (size_t)ev->events * ev->modules;
  px->modules = 0;
  double t0 = now(), first = t0;
  lsk_pixel_times t = {0};
  /* A failed call's commands first: the staging area is rewritten below. */
  int rc = settle(px, LSK_OK);
  px->pending = 1;
  if (!rc)
    rc = reserve(px, ev, nm);
  if (!rc)
    rc = reserve_large(px, ev, nm);
  if (!rc)
    rc = upload(px, ev, nm);
  if (!rc)
    rc = lap(px, times, &t.upload, &t0);
  uint32_t m32 = (uint32_t)nm, thr = px->threshold;
  arglist l = {.n = 0};
  add_view(px, &l, 0);
  add_view(px, &l, 1);
  add(&l, LSK_ARG_BUFFER(px->start));
  add(&l, LSK_ARG_BUFFER(px->nclus));
  add(&l, LSK_ARG_BUFFER(px->nhit));
  add(&l, LSK_ARG_UINT(thr));
  add(&l, LSK_ARG_UINT(m32));
  add(&l, LSK_ARG_UINT(px_invalid_id(ev))); /* the invalid digis' module id */
  /* Per module thresholds (px->thr) where a cut is per range or strict;
   * else thr for all, with no division per module. */
  add(&l, LSK_ARG_BUFFER(px->thr));
  add(&l, LSK_ARG_UINT(px->ncuts || px->opt.strict ? ev->modules : 0u));
  if (!rc)
    rc = launch(px, px->module, &l, nm);
  /* The large modules, after the others (px_module skipped them). */
  if (!rc && px->nlarge) {
    add(&l, LSK_ARG_BUFFER(px->list));
    add(&l, LSK_ARG_UINT((uint32_t)px->nlarge));
    add(&l, LSK_ARG_BUFFER(px->scratch));
    lsk_launch cfg = shape_large(px, px->nlarge);
    rc = l.rc ? l.rc : lsk_kernel_launch(px->large, &cfg, l.a, l.n, &px->on);
  }
  if (!rc)
    rc = lap(px, times, &t.cluster, &t0);
  if (!rc)
    rc = lsk_scan(px->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, px->nclus, 0, px->coff, 0, nm + 1,
                  &px->algo, &px->on);
  if (!rc)
    rc = lsk_scan(px->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, px->nhit, 0, px->hoff, 0, nm + 1,
                  &px->algo, &px->on);
  if (!rc)
    rc = lap(px, times, &t.charge, &t0);
  l = (arglist){.n = 0};
  add_view(px, &l, 1);
  add_view(px, &l, 2);
  add(&l, LSK_ARG_BUFFER(px->start));
  add(&l, LSK_ARG_BUFFER(px->coff));
  add(&l, LSK_ARG_BUFFER(px->hoff));
  add(&l, LSK_ARG_BUFFER(px->place));
  add(&l, LSK_ARG_BUFFER(px->thr));
  for (int i = 0; i < 3; ++i)
    add(&l, LSK_ARG_FLOAT(px->opt.beam_spot[i]));
  add(&l, LSK_ARG_UINT(ev->modules));
  add(&l, LSK_ARG_UINT(m32));
  if (!rc)
    rc = launch(px, px->hits, &l, nm);
  /* The association needs the number of hits: the first wait of a run. */
  uint32_t total[2] = {0, 0};
  if (!rc)
    rc = lsk_buffer_read(px->coff, nm * 4, &total[0], 4, &px->xfer);
  if (!rc)
    rc = lsk_buffer_read(px->hoff, nm * 4, &total[1], 4, &px->xfer);
  rc = settle(px, rc); /* total is read into: waited for, failure or not */
  if (!rc)
    rc = lap(px, times, &t.hits, &t0);
  pxhit hv = {0};
  if (!rc)
    rc = pxhit_bind(&hv, lsk_soa_host(px->soa[2], 0), px->cap_digis);
  px->pending = 1;
  if (!rc)
    rc = lsk_assoc_build_sorted(px->assoc, lsk_soa_buffer(px->soa[2]), at(px, 2, hv.hmodule) / 4,
                                total[1], &px->on);
  rc = settle(px, rc);
  if (!rc)
    rc = lap(px, times, &t.assoc, &t0);
  if (rc)
    return rc;
  t.total = now() - first;
  if (times)
    *times = t;
  px->per_event = ev->modules;
  px->modules = nm;
  px->digis = ev->digis;
  px->clusters = total[0];
  px->nhits = total[1];
  return LSK_OK;
}

/* The association (off: nm + 1 offsets, content: nh elements, read
 * back) against the hit order: module k's hits are exactly hit_start[k]
 * up to hit_start[k + 1] - 1. */
static int check_assoc(lsk_pixel *px, const lsk_pixel_result *r, const uint32_t *off,
                       const uint32_t *content)
{
  static const char fn[] = "lsk_pixel_read";
  size_t nm = px->modules;
  int rc = LSK_OK;
  for (size_t k = 0; !rc && k < nm; ++k) {
    uint32_t a = r->hit_start[k], b = r->hit_start[k + 1];
    if (off[k] != a || off[k + 1] != b)
      rc = lsk_context_set_error(px->ctx, LSK_EVERIFY,
                                 "%s: module %zu: associated hits %u to %u, want %u to %u", fn, k,
                                 off[k], off[k + 1], a, b);
    /* A permutation of [a, b): every element in range, none twice. */
    uint64_t sum = 0;
    for (uint32_t j = a; !rc && j < b; ++j) {
      if (content[j] < a || content[j] >= b)
        rc = lsk_context_set_error(px->ctx, LSK_EVERIFY,
                                   "%s: module %zu: associated hit %u is not its own", fn, k,
                                   content[j]);
      sum += content[j];
    }
    if (!rc && sum != ((uint64_t)a + b - 1) * (b - a) / 2)
      rc = lsk_context_set_error(px->ctx, LSK_EVERIFY, "%s: module %zu: an associated hit repeats",
                                 fn, k);
  }
  return rc;
}

int lsk_pixel_cluster_sizes(lsk_pixel *px, uint32_t nbins, uint32_t *counts)
{
  static const char fn[] = "lsk_pixel_cluster_sizes";
  int rc = lsk_handle_check(NULL, px, &pixel_type, fn, "px");
  if (rc)
    return rc;
  if (!counts || nbins < 2 || nbins > 65536)
    return lsk_context_set_error(px->ctx, LSK_EINVAL, "%s: %s", fn,
                                 !counts ? "counts is NULL" : "nbins is not 2 to 65536");
  if (!px->modules)
    return lsk_context_set_error(px->ctx, LSK_EINVAL, "%s: no run to count", fn);
  /* The digis' cluster numbers, the clusters' sizes (a histogram of those
   * numbers), the sizes' histogram: all on px's queue, one read. */
  size_t nm = px->modules, nd = px->digis, nc = px->clusters;
  lsk_buffer *ids = NULL, *sizes = NULL, *hist = NULL;
  if (!(rc = lsk_buffer_alloc(px->ctx, (nd ? nd : 1) * 4, &ids, &(lsk_async){.queue = px->q})) &&
      !(rc = lsk_buffer_alloc(px->ctx, (nc + 1) * 4, &sizes, &(lsk_async){.queue = px->q})))
    rc = lsk_buffer_alloc(px->ctx, ((size_t)nbins + 1) * 4, &hist, &(lsk_async){.queue = px->q});
  arglist l = {.n = 0};
  add_view(px, &l, 0);
  add(&l, LSK_ARG_BUFFER(px->start));
  add(&l, LSK_ARG_BUFFER(px->coff));
  add(&l, LSK_ARG_BUFFER(ids));
  add(&l, LSK_ARG_UINT((uint32_t)nm));
  if (!rc)
    rc = launch(px, px->ids, &l, nm);
  /* The library's own shapes (not the pipeline's): their kernels are
   * built once, whatever shape px's kernels take. */
  if (!rc)
    rc = lsk_histogram_uint(px->ctx, ids, 0, nd, nc ? nc : 1, sizes, 0, NULL, &px->on);
  if (!rc)
    rc = lsk_histogram_uint(px->ctx, sizes, 0, nc, nbins, hist, 0, NULL, &px->on);
  px->pending = 1;
  if (!rc)
    rc = lsk_buffer_read(hist, 0, counts, ((size_t)nbins + 1) * 4, &px->xfer);
  rc = settle(px, rc);
  lsk_buffer_free(ids, &(lsk_async){.queue = px->q});
  lsk_buffer_free(sizes, &(lsk_async){.queue = px->q});
  lsk_buffer_free(hist, &(lsk_async){.queue = px->q});
  return rc;
}

int lsk_pixel_read(lsk_pixel *px, lsk_pixel_result *r)
{
  static const char fn[] = "lsk_pixel_read";
  int hrc = lsk_handle_check(NULL, px, &pixel_type, fn, "px");
  if (hrc)
    return hrc;
  if (!r)
    return lsk_context_set_error(px->ctx, LSK_EINVAL, "%s: r is NULL", fn);
  if (!px->modules)
    return lsk_context_set_error(px->ctx, LSK_EINVAL, "%s: no run to read", fn);
  if (r->cap_digis < px->digis || r->cap_modules < px->modules)
    return lsk_context_set_error(
        px->ctx, LSK_EINVAL, "%s: the result holds %zu digis and %zu modules, the run %zu and %zu",
        fn, r->cap_digis, r->cap_modules, px->digis, px->modules);
  lsk_buffer *b[3] = {lsk_soa_buffer(px->soa[0]), lsk_soa_buffer(px->soa[1]),
                      lsk_soa_buffer(px->soa[2])};
  size_t nm = px->modules, nc = px->clusters, nh = px->nhits, cap = px->cap_digis;
  pxdigi dv = {0};
  pxclus cv = {0};
  pxhit hv = {0};
  uint32_t *off = malloc((nm + 1) * 4), *content = malloc((nh ? nh : 1) * 4);
  int rc = !off || !content
               ? lsk_context_set_error(px->ctx, LSK_ENOMEM, "%s: out of host memory", fn)
               : LSK_OK;
  if (!rc)
    rc = pxdigi_bind(&dv, lsk_soa_host(px->soa[0], 0), cap);
  if (!rc)
    rc = pxclus_bind(&cv, lsk_soa_host(px->soa[1], 0), cap);
  if (!rc)
    rc = pxhit_bind(&hv, lsk_soa_host(px->soa[2], 0), cap);
  /* Every read on px's queue, then one wait. */
  const lsk_async *xfer = &px->xfer;
  px->pending = 1;
  if (!rc && px->digis)
    rc = lsk_buffer_read(b[0], at(px, 0, dv.clus), r->clus, px->digis * 4, xfer);
  if (!rc)
    rc = lsk_buffer_read(px->nclus, 0, r->nclus, nm * 4, xfer);
  if (!rc)
    rc = lsk_buffer_read(px->coff, 0, r->clus_start, (nm + 1) * 4, xfer);
  if (!rc)
    rc = lsk_buffer_read(px->hoff, 0, r->hit_start, (nm + 1) * 4, xfer);
  if (!rc && nc)
    rc = lsk_buffer_read(b[1], at(px, 1, cv.charge), r->charge, nc * 4, xfer);
  if (!rc && nc)
    rc = lsk_buffer_read(b[1], at(px, 1, cv.hit), r->hit, nc * 4, xfer);
  /* The hit columns into the host view, then to structs. */
  void *col[] = {hv.hx, hv.hy, hv.xerr, hv.yerr, hv.hcharge, hv.hmodule, hv.cluster, hv.r};
  for (size_t j = 0; !rc && nh && j < sizeof col / sizeof col[0]; ++j)
    rc = lsk_buffer_read(b[2], at(px, 2, col[j]), col[j], nh * 4, xfer);
  for (size_t j = 0; !rc && nh && j < 3; ++j)
    rc = lsk_buffer_read(b[2], at(px, 2, hv.g + j * hv.g_stride), hv.g + j * hv.g_stride, nh * 4,
                         xfer);
  for (size_t j = 0; !rc && nh && j < 3; ++j)
    rc = lsk_buffer_read(b[2], at(px, 2, hv.gb + j * hv.gb_stride), hv.gb + j * hv.gb_stride,
                         nh * 4, xfer);
  if (!rc && nh)
    rc = lsk_buffer_read(b[2], at(px, 2, hv.iphi), hv.iphi, nh * 2, xfer);
  /* The association, to check it against the hit order. */
  if (!rc)
    rc = lsk_buffer_read(lsk_assoc_offsets(px->assoc), 0, off, (nm + 1) * 4, xfer);
  if (!rc && nh)
    rc = lsk_buffer_read(lsk_assoc_content(px->assoc), 0, content, nh * 4, xfer);
  rc = settle(px, rc);
  for (size_t i = 0; !rc && i < nh; ++i)
    r->hits[i] =
        (lsk_pixel_hit){.x = hv.hx[i],
                        .y = hv.hy[i],
                        .xerr = hv.xerr[i],
                        .yerr = hv.yerr[i],
                        .g = {hv.g[i], hv.g[i + hv.g_stride], hv.g[i + 2 * hv.g_stride]},
                        .gb = {hv.gb[i], hv.gb[i + hv.gb_stride], hv.gb[i + 2 * hv.gb_stride]},
                        .r = hv.r[i],
                        .iphi = hv.iphi[i],
                        .charge = hv.hcharge[i],
                        .module = hv.hmodule[i],
                        .cluster = hv.cluster[i]};
  if (!rc) {
    r->modules = nm;
    r->digis = px->digis;
    r->clusters = nc;
    r->nhits = nh;
    rc = check_assoc(px, r, off, content);
  }
  /* The invalid digis: marked by the kernels, counted here. */
  r->skipped = 0;
  for (size_t i = 0; !rc && i < px->digis; ++i)
    r->skipped += r->clus[i] == LSK_PIXEL_INVALID_CLUSTER;
  free(off);
  free(content);
  return rc;
}
