/*
 * front.c: the sparse front (front.h) on lsk's public API: the structure
 * from its definition text, the program of front.cl with the structure's
 * generated OpenCL C as prelude, the initial disc, the step's three
 * struct-fors, the pool's growth where a kernel that activates ran out,
 * and the reads. The C model is front_ref.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"

extern const char front_kernel_source[];

struct lsk_front {
  lsk_handle h; /* first: lsk checks the handle on every call */
  lsk_context *ctx;
  unsigned n, nb;
  lsk_front_params p;
  lsk_queue *q;
  lsk_sparse *sp;
  lsk_program *prog;
  lsk_kernel *init, *diffuse, *settle, *spread, *probe;
  lsk_buffer *act; /* nb * nb uints: front_probe's answer */
  size_t pool;     /* the pointer node's pool, in blocks (changed by a grow only) */
};
static const lsk_handle_type front_type = {"lsk_front", &lsk_context_handle_type, 0};

/* The pointer node's index (the root's child), the one with a pool. */
#define NODE_BLOCK 0u
/* Most growths of the pool in one step before giving up. */
#define MAX_GROWS 16u

void lsk_front_destroy(lsk_front *f)
{
  if (!f || lsk_handle_remove(f, &front_type, "lsk_front_destroy"))
    return;
  lsk_kernel_destroy(f->init);
  lsk_kernel_destroy(f->diffuse);
  lsk_kernel_destroy(f->settle);
  lsk_kernel_destroy(f->spread);
  lsk_kernel_destroy(f->probe);
  lsk_program_destroy(f->prog);
  lsk_buffer_destroy(f->act);
  lsk_sparse_destroy(f->sp);
  free(f);
}

/* The parameters' ranges (front.h); 0 or the message's status. */
static int check_params(lsk_context *ctx, const lsk_front_params *p)
{
  static const char fn[] = "lsk_front_create";
  if (!(p->alpha > 0 && p->alpha <= 0.25f))
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: alpha %g is not in (0, 0.25]", fn,
                                 (double)p->alpha);
  if (!(p->keep > 0 && p->keep <= 1))
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: keep %g is not in (0, 1]", fn,
                                 (double)p->keep);
  if (!(p->rate >= 0 && p->rate <= 1))
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: rate %g is not in [0, 1]", fn,
                                 (double)p->rate);
  if (!(p->heat >= 0) || !(p->ignite >= 0) || !(p->on >= 0) || !(p->off >= 0))
    return lsk_context_set_error(
        ctx, LSK_EINVAL, "%s: heat %g, ignite %g, on %g and off %g must not be negative", fn,
        (double)p->heat, (double)p->ignite, (double)p->on, (double)p->off);
  return LSK_OK;
}

/* The structure: its definition as text, as a user would write it. */
static int make_structure(lsk_front *f, size_t pool_blocks)
{
  char text[256];
  snprintf(text, sizeof text,
           "sparse grid\n"
           "pointer block ij %u %u\n"
           "dense cell ij %u %u\n"
           "place float u\n"
           "place float v\n"
           "place float b\n",
           f->nb, f->nb, LSK_FRONT_BLOCK, LSK_FRONT_BLOCK);
  lsk_sparse_def *def = NULL;
  int rc = lsk_sparse_def_parse(text, "front.sparse", &def);
  if (!rc) {
    lsk_sparse_options so = {0};
    so.blocks[NODE_BLOCK] = pool_blocks;
    rc = lsk_sparse_create(f->ctx, def, &so, &f->sp);
  }
  lsk_sparse_def_destroy(def);
  return rc;
}

/* f->pool from the structure's statistics (on f's queue). */
static int read_pool(lsk_front *f)
{
  lsk_async on = {.queue = f->q};
  lsk_sparse_level_stats st[2];
  int rc = lsk_sparse_stats_get(f->sp, st, 2, &on);
  if (!rc)
    f->pool = st[NODE_BLOCK].pool_blocks;
  return rc;
}

/* After a kernel that activates: lsk_sparse_check; where the pool ran out,
 * grow it and return 1 (run the kernel again: activation is idempotent and
 * what was activated stays), else 0 or the error. */
static int room(lsk_front *f, const lsk_async *on, unsigned *grows, int *again)
{
  *again = 0;
  int rc = lsk_sparse_check(f->sp, on);
  if (rc != LSK_ENOSPC || *grows == MAX_GROWS)
    return rc;
  /* Doubled, but not past every block of the grid unless it is there
   * already (the blocks that lost an install race wait in the spares, or
   * in the recycled list when the spares are full, until the GC). Not lsk_sparse_grow's 0, which
   * sizes by the refused activations: one per work-item, up to 256 per block. */
  size_t all = (size_t)f->nb * f->nb, want = 2 * f->pool;
  if (f->pool < all && want > all)
    want = all;
  if ((rc = lsk_sparse_grow(f->sp, NODE_BLOCK, want)) || (rc = read_pool(f)))
    return rc;
  ++*grows;
  *again = 1;
  return LSK_OK;
}

/* The initial state: u = 1 on the disc (front_init, a plain launch over
 * the disc's bounding box; grid_u_set activates the blocks it writes). */
static int init_disc(lsk_front *f, unsigned radius)
{
  lsk_async on = {.queue = f->q};
  size_t side = 2 * (size_t)radius + 2, tiles = (side * side + 255) / 256;
  lsk_launch l = {.domain = {256}, .blocks = {tiles < 4096 ? tiles : 4096}};
  unsigned grows = 0;
  for (int again = 1; again;) {
    lsk_arg grid;
    int rc = lsk_sparse_use(f->sp, &grid, &on);
    lsk_arg args[] = {grid, LSK_ARG_UINT(f->n), LSK_ARG_UINT(radius)};
    if (rc || (rc = lsk_kernel_launch(f->init, &l, args, 3, &on)) ||
        (rc = room(f, &on, &grows, &again)))
      return rc;
  }
  return LSK_OK;
}

int lsk_front_create(lsk_context *ctx, const lsk_front_options *opt, lsk_front **out)
{
  static const char fn[] = "lsk_front_create";
  if (out)
    *out = NULL;
  int rc = lsk_handle_check(NULL, ctx, &lsk_context_handle_type, fn, "ctx");
  if (rc)
    return rc;
  if (!out)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: out is NULL", fn);
  lsk_front_options o = opt ? *opt : (lsk_front_options){0};
  unsigned n = o.size ? o.size : 1024, radius = o.radius ? o.radius : 8;
  if (n < LSK_FRONT_MIN || n > LSK_FRONT_MAX || (n & (n - 1)))
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: size %u is not a power of two from %u to %u",
                                 fn, n, LSK_FRONT_MIN, LSK_FRONT_MAX);
  if (radius >= n / 2)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: radius %u is not below half the size %u", fn,
                                 radius, n);
  lsk_front_params p;
  if (o.params)
    p = *o.params;
  else
    lsk_front_params_default(&p);
  if ((rc = check_params(ctx, &p)))
    return rc;
  lsk_front *f = calloc(1, sizeof *f);
  if (!f)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if ((rc = lsk_handle_add(f, &front_type, ctx))) {
    free(f);
    return rc;
  }
  f->ctx = ctx;
  f->n = n;
  f->nb = n / LSK_FRONT_BLOCK;
  f->p = p;
  f->q = o.queue;
  if (!(rc = make_structure(f, o.pool_blocks))) {
    lsk_program_options po = {.name = "front.cl", .prelude = lsk_sparse_source(f->sp)};
    if (!(rc = lsk_program_create(ctx, front_kernel_source, &po, &f->prog)) &&
        !(rc = lsk_kernel_create(f->prog, "front_init", &f->init)) &&
        !(rc = lsk_kernel_create(f->prog, "front_diffuse", &f->diffuse)) &&
        !(rc = lsk_kernel_create(f->prog, "front_settle", &f->settle)) &&
        !(rc = lsk_kernel_create(f->prog, "front_spread", &f->spread)) &&
        !(rc = lsk_kernel_create(f->prog, "front_probe", &f->probe)) &&
        !(rc = lsk_buffer_create(ctx, (size_t)f->nb * f->nb * sizeof(uint32_t), &f->act)) &&
        !(rc = read_pool(f)))
      rc = init_disc(f, radius);
  }
  if (rc) {
    lsk_front_destroy(f);
    return rc;
  }
  *out = f;
  return LSK_OK;
}

lsk_sparse *lsk_front_sparse(const lsk_front *f)
{
  if (!f || lsk_handle_check(NULL, f, &front_type, "lsk_front_sparse", "f"))
    return NULL;
  return f->sp;
}

/* The spread, until the pool had room for it. */
static int spread(lsk_front *f, const lsk_async *on, unsigned *grows)
{
  lsk_sparse_for_options fo = {.level = "cell", .flags = LSK_SPARSE_FOR_NO_DEACTIVATE};
  lsk_arg args[] = {LSK_ARG_UINT(f->n), LSK_ARG_FLOAT(f->p.on)};
  int rc = LSK_OK;
  for (int again = 1; !rc && again;)
    if (!(rc = lsk_sparse_for(f->sp, f->spread, &fo, args, 2, on)))
      rc = room(f, on, grows, &again);
  return rc;
}

int lsk_front_step(lsk_front *f, lsk_front_step_info *info)
{
  int rc = lsk_handle_check(NULL, f, &front_type, "lsk_front_step", "f");
  if (rc)
    return rc;
  if (info)
    *info = (lsk_front_step_info){0};
  lsk_async on = {.queue = f->q};
  /* diffuse and spread deactivate nothing: no GC before the next. */
  lsk_sparse_for_options quiet = {.level = "cell", .flags = LSK_SPARSE_FOR_NO_DEACTIVATE};
  lsk_sparse_for_options settle = {.level = "cell"};
  lsk_arg d[] = {LSK_ARG_UINT(f->n),       LSK_ARG_FLOAT(f->p.alpha), LSK_ARG_FLOAT(f->p.keep),
                 LSK_ARG_FLOAT(f->p.heat), LSK_ARG_FLOAT(f->p.rate),  LSK_ARG_FLOAT(f->p.ignite)};
  lsk_arg s[] = {LSK_ARG_FLOAT(f->p.off)};
  unsigned grows = 0;
  if ((rc = lsk_sparse_for(f->sp, f->diffuse, &quiet, d, 6, &on)) ||
      (rc = lsk_sparse_for(f->sp, f->settle, &settle, s, 1, &on)) || (rc = spread(f, &on, &grows)))
    return rc;
  if (info)
    *info = (lsk_front_step_info){.grows = grows, .pool = f->pool};
  return LSK_OK;
}

int lsk_front_read(lsk_front *f, float *u, float *b, uint8_t *active)
{
  int rc = lsk_handle_check(NULL, f, &front_type, "lsk_front_read", "f");
  if (rc)
    return rc;
  lsk_async on = {.queue = f->q};
  size_t cells = (size_t)f->n * f->n, nbb = (size_t)f->nb * f->nb;
  if (u && (rc = lsk_sparse_read(f->sp, "u", u, cells * sizeof *u, &on)))
    return rc;
  if (b && (rc = lsk_sparse_read(f->sp, "b", b, cells * sizeof *b, &on)))
    return rc;
  if (!active)
    return LSK_OK;
  lsk_arg grid;
  if ((rc = lsk_sparse_use(f->sp, &grid, &on)))
    return rc;
  size_t blocks = (nbb + 255) / 256;
  lsk_launch l = {.domain = {256}, .blocks = {blocks < 4096 ? blocks : 4096}};
  lsk_arg args[] = {grid, LSK_ARG_UINT(f->nb), LSK_ARG_BUFFER(f->act)};
  uint32_t *a = malloc(nbb * sizeof *a);
  if (!a)
    return lsk_context_set_error(f->ctx, LSK_ENOMEM, "lsk_front_read: out of host memory");
  if (!(rc = lsk_kernel_run(f->probe, &l, args, 3, &on)) &&
      !(rc = lsk_buffer_read(f->act, 0, a, nbb * sizeof *a, &on)))
    for (size_t k = 0; k < nbb; ++k)
      active[k] = a[k] != 0;
  free(a);
  return rc;
}
