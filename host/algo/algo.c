/*
 * algo.c: what the kernel library's algorithms share: the programs of
 * kernels/ (each family built on first use per set of -D options, its
 * type's, and kept by the context), the context's
 * temporary buffers, argument checks, and the plan of a device-wide pass
 * (tile, blocks, tiles per block).
 */
#define _XOPEN_SOURCE 700 /* PTHREAD_MUTEX_RECURSIVE */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algo.h"

size_t lsk_type_size(lsk_type type)
{
  switch (type) {
  case LSK_TYPE_INT:
  case LSK_TYPE_UINT:
  case LSK_TYPE_FLOAT: return 4;
  case LSK_TYPE_LONG:
  case LSK_TYPE_ULONG:
  case LSK_TYPE_DOUBLE: return 8;
  }
  return 0;
}

const char *lsk_type_name(lsk_type type)
{
  static const char *const names[] = {"?", "int", "uint", "long", "ulong", "float", "double"};
  return lsk_type_size(type) ? names[type] : names[0];
}

int lsk__check_result_size(lsk_context *ctx, const char *fn, const char *what, lsk_type type,
                           size_t size)
{
  static const char *const upper[] = {"?", "INT", "UINT", "LONG", "ULONG", "FLOAT", "DOUBLE"};
  if (size != lsk_type_size(type))
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s %zu does not match LSK_TYPE_%s (%zu bytes)", fn, what,
                     size, upper[lsk_type_size(type) ? type : 0], lsk_type_size(type));
  return LSK_OK;
}

/* The embedded sources of kernels/, one per family (generated). */
#define XX(ID, name) extern const char lsk__kernels_##name[];
LSK__LIB_MAP(XX)
#undef XX

static const struct {
  const char *file;
  const char *source;
} families[LSK__LIB_COUNT] = {
#define XX(ID, name) {"kernels/" #name ".cl", lsk__kernels_##name},
    LSK__LIB_MAP(XX)
#undef XX
};

/* A build of a family kept for a context: the family's program with the
 * -D options of one type (kernels/reduce.cl: "-DLSK_T=float -DLSK_OP=ADD"),
 * or with none for a family built once. */
typedef struct lib_build {
  lsk__lib family;
  char options[64];
  lsk_program *program;
  struct lib_build *next;
} lib_build;

/* A library kernel kept for a context, in one build. */
typedef struct lsk__libkernel {
  const lib_build *build;
  char name[64];
  lsk_kernel *kernel;
  struct lsk__libkernel *next;
} lsk__libkernel;

/* What the kernel library keeps per context, in the context's extension
 * slot: made on first use, freed when the context is destroyed. */
typedef struct lib_state {
  pthread_mutex_t lock; /* recursive: lsk__lib_lock */
  lib_build *builds;
  lsk__libkernel *kernels;
} lib_state;

static void *lib_create(lsk_context *ctx)
{
  (void)ctx;
  lib_state *s = calloc(1, sizeof *s);
  pthread_mutexattr_t a;
  int err = !s || pthread_mutexattr_init(&a);
  if (!err) {
    err =
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) || pthread_mutex_init(&s->lock, &a);
    pthread_mutexattr_destroy(&a);
  }
  if (err) {
    free(s);
    return NULL;
  }
  return s;
}

static void lib_destroy(lsk_context *ctx, void *state)
{
  (void)ctx;
  lib_state *s = state;
  for (lsk__libkernel *e = s->kernels, *next; e; e = next) {
    next = e->next;
    lsk_kernel_destroy(e->kernel);
    free(e);
  }
  for (lib_build *b = s->builds, *next; b; b = next) {
    next = b->next;
    lsk_program_destroy(b->program);
    free(b);
  }
  pthread_mutex_destroy(&s->lock);
  free(s);
}

static const lsk__ext_type lib_ext = {"the kernel library", lib_create, lib_destroy};

/* The state of ctx; made by lsk__lib_lock, which every user takes first. */
static lib_state *lib_of(lsk_context *ctx) { return lsk__context_ext(ctx, &lib_ext); }

int lsk__lib_lock(lsk_context *ctx)
{
  lib_state *s = lib_of(ctx);
  if (!s)
    return lsk__fail(ctx, LSK_ENOMEM, "lsk: the kernel library: out of host memory");
  pthread_mutex_lock(&s->lock);
  return LSK_OK;
}

void lsk__lib_unlock(lsk_context *ctx) { pthread_mutex_unlock(&lib_of(ctx)->lock); }

/* The build of family with options, made on first use: its program, named
 * by its file (build logs name the file's own lines; a failed build's
 * message gives the options). */
static int lib_build_of(lsk_context *ctx, lsk__lib family, const char *options,
                        const lib_build **out)
{
  lib_state *st = lib_of(ctx);
  for (lib_build *b = st->builds; b; b = b->next)
    if (b->family == family && strcmp(b->options, options) == 0) {
      *out = b;
      return LSK_OK;
    }
  lib_build *b = calloc(1, sizeof *b);
  if (!b || strlen(options) >= sizeof b->options) {
    free(b);
    return lsk__fail(ctx, b ? LSK_EINVAL : LSK_ENOMEM, "lsk: %s with '%s': %s",
                     families[family].file, options, b ? "options too long" : "out of memory");
  }
  lsk_program_options po = {.name = families[family].file, .build_options = options};
  int rc = lsk_program_create(ctx, families[family].source, &po, &b->program);
  if (rc) {
    free(b);
    return rc;
  }
  b->family = family;
  strcpy(b->options, options);
  b->next = st->builds;
  st->builds = b;
  *out = b;
  return LSK_OK;
}

static int lib_kernel(lsk_context *ctx, lsk__lib family, const char *options, const char *name,
                      lsk_kernel **out)
{
  lib_state *st = lib_of(ctx);
  const lib_build *b = NULL;
  int rc = lib_build_of(ctx, family, options, &b);
  if (rc)
    return rc;
  for (lsk__libkernel *e = st->kernels; e; e = e->next)
    if (e->build == b && strcmp(e->name, name) == 0) {
      *out = e->kernel;
      return LSK_OK;
    }
  lsk__libkernel *e = calloc(1, sizeof *e);
  if (!e || strlen(name) >= sizeof e->name) {
    free(e);
    return lsk__fail(ctx, e ? LSK_EINVAL : LSK_ENOMEM, "lsk: library kernel '%s': %s", name,
                     e ? "name too long" : "out of memory");
  }
  if ((rc = lsk_kernel_create(b->program, name, &e->kernel))) {
    free(e);
    return rc;
  }
  e->build = b;
  strcpy(e->name, name);
  e->next = st->kernels;
  st->kernels = e;
  *out = e->kernel;
  return LSK_OK;
}

int lsk__lib_kernel_for(lsk_context *ctx, lsk__lib family, const char *options, const char *name,
                        lsk_kernel **out)
{
  /* The lists and the programs are the context's: one thread at a time
   * (library calls that keep the kernel past this hold the lock already). */
  int rc = lsk__lib_lock(ctx);
  if (rc)
    return rc;
  rc = lib_kernel(ctx, family, options ? options : "", name, out);
  lsk__lib_unlock(ctx);
  return rc;
}

int lsk__lib_kernel(lsk_context *ctx, lsk__lib family, const char *name, lsk_kernel **out)
{
  return lsk__lib_kernel_for(ctx, family, "", name, out);
}

int lsk__scratch(lsk_context *ctx, lsk_queue *q, size_t bytes, lsk_buffer **out)
{
  return lsk_buffer_alloc(ctx, bytes ? bytes : 1, out, &(lsk_async){.queue = q});
}

void lsk__scratch_free(lsk_buffer *buf, lsk_queue *q)
{
  if (buf)
    lsk_buffer_free(buf, &(lsk_async){.queue = q});
}

int lsk__lib_begin(lsk_context *ctx, const lsk_async *on, const char *fn, lsk__on *o)
{
  int rc = lsk__on_resolve(ctx, on, fn, o);
  if (rc || !o->nwait)
    return rc;
  /* In an in-order queue the marker holds every later command. */
  return lsk__on_marker(ctx, o, NULL, fn);
}

int lsk__lib_end(lsk_context *ctx, lsk__on *o, int rc, const char *fn)
{
  if (rc || !o->event)
    return rc;
  cl_event ev;
  rc = lsk__on_marker(ctx, o, &ev, fn);
  return rc ? rc : lsk__on_done(ctx, o, ev, fn, fn);
}

int lsk__lib_read_begin(lsk_context *ctx, const lsk_async *on, const char *fn, lsk__on *o,
                        lsk__vcheck *v)
{
  v->lo = 1;
  v->hi = 0;
  o->q = NULL;
  int rc = lsk__lib_begin(ctx, on, fn, o);
  if (!rc)
    rc = lsk__context_wait_others(ctx, o->q, fn);
  return rc ? rc : lsk__verify_defer(o->q, v);
}

int lsk__lib_read_end(lsk_context *ctx, lsk__on *o, lsk__vcheck *v, int rc, const char *fn)
{
  return lsk__lib_end(ctx, o, lsk__verify_done(o->q, v, rc), fn);
}

int lsk__check_span(lsk_context *ctx, const char *fn, const char *what, const lsk_buffer *buf,
                    size_t offset, size_t n, size_t elem)
{
  int rc = lsk__handle_check(ctx, buf, &LSK__H_BUFFER, fn, what);
  if (rc)
    return rc;
  if (lsk__buffer_context(buf) != ctx)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s belongs to another context", fn, what);
  if (offset > UINT32_MAX || n > UINT32_MAX - offset)
    return lsk__fail(ctx, LSK_ERANGE, "%s: %s: offset %zu + count %zu exceeds 2^32 - 1 elements",
                     fn, what, offset, n);
  if ((offset + n) * elem > lsk__buffer_size(buf))
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: %s: elements [%zu, %zu) of %zu bytes exceed the buffer's %zu bytes", fn,
                     what, offset, offset + n, elem, lsk__buffer_size(buf));
  return LSK_OK;
}

/* Elements per tile by default: on CPUs, 8 workers of 256 contiguous
 * indices (the automatic rule's best case, docs/lockstep.md); on GPUs,
 * 8 steps of 256 workers. */
#define LSK__TILE 2048u

int lsk__algo_plan(lsk_context *ctx, const char *fn, size_t n, const lsk_algo_options *opt,
                   lsk__plan *p)
{
  lsk_algo_options o = opt ? *opt : (lsk_algo_options){0};
  if (o.tile > LSK_MAX_DOMAIN)
    return lsk__fail(ctx, LSK_EINVAL, "%s: tile %u exceeds LSK_MAX_DOMAIN (%u)", fn, o.tile,
                     LSK_MAX_DOMAIN);
  /* Checked here so that the message names the algorithm, not the
   * launch of one of its kernels. */
  int rc = lsk__check_shape(ctx, fn, o.workers, o.blocks);
  if (rc)
    return rc;
  memset(p, 0, sizeof *p);
  p->fn = fn;
  p->tile = o.tile ? o.tile : LSK__TILE;
  p->workers = o.workers;
  p->simd = o.simd;
  p->tiles = (n + p->tile - 1) / p->tile;
  size_t blocks = o.blocks ? o.blocks : lsk__algo_blocks(lsk__context_info(ctx), p->tiles);
  if (blocks > p->tiles)
    blocks = p->tiles;
  if (blocks == 0)
    blocks = 1;
  /* Whole tiles per block, and no block without a tile. */
  p->per_block = (p->tiles + blocks - 1) / blocks;
  if (p->per_block == 0)
    p->per_block = 1;
  p->blocks = (p->tiles + p->per_block - 1) / p->per_block;
  if (p->blocks == 0)
    p->blocks = 1;
  return LSK_OK;
}

lsk_launch lsk__plan_launch(const lsk__plan *p, size_t blocks)
{
  lsk_launch l = {.domain = {p->tile}, .blocks = {blocks}, .workers = p->workers, .simd = p->simd};
  return l;
}

int lsk__algo_cpu_path(lsk_context *ctx, const char *env)
{
  if (lsk__getenv(env))
    return lsk__getenv_bool(env, 0);
  const lsk_device_info *d = lsk__context_info(ctx);
  return d && !d->is_gpu && !d->loops_capped;
}

int lsk__algo_segments(lsk_context *ctx, const char *fn, lsk_kernel *k, const lsk__plan *p,
                       const lsk_algo_options *opt, size_t n, size_t max_segs, lsk_launch *l,
                       size_t *nseg)
{
  *l = lsk__plan_launch(p, 1);
  lsk_kernel_info ki;
  int rc = lsk_kernel_query(k, l, &ki);
  if (rc)
    return rc;
  l->workers = ki.workers;
  l->simd = ki.simd;
  size_t w = ki.workers;
  size_t blocks = opt && opt->blocks
                      ? opt->blocks
                      : lsk_auto_blocks(lsk__context_info(ctx), n, (size_t)4096 * w, 4);
  if (blocks > max_segs / w)
    return lsk__fail(ctx, LSK_ERANGE, "%s: %zu blocks of %zu workers exceed %zu segments", fn,
                     blocks, w, max_segs);
  l->blocks[0] = blocks;
  *nseg = blocks * w;
  return LSK_OK;
}
