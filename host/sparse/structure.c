/*
 * structure.c: sparse structures (include/lsk/sparse.h): creation from a
 * definition (root block, one pool per pointer or dynamic node, element
 * lists, the program of kernels/sparse.cl), the kernel argument, the
 * struct-for, the GC that runs before the next use, checks and growth.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse/structure.h"

const lsk__htype LSK__H_SPARSE = {"lsk_sparse", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_sparse);

extern const char lsk__kernels_sparse[];

static const char *const kernel_names[LSK__SPK_N] = {[LSK__SPK_LISTGEN] = "lsk_sparse_listgen",
                                                     [LSK__SPK_CASCADE] = "lsk_sparse_cascade",
                                                     [LSK__SPK_DEACTIVATE] =
                                                         "lsk_sparse_deactivate",
                                                     [LSK__SPK_COUNT] = "lsk_sparse_count",
                                                     [LSK__SPK_READ] = "lsk_sparse_read",
                                                     [LSK__SPK_WRITE] = "lsk_sparse_write",
                                                     [LSK__SPK_ZERO] = "lsk_sparse_zero",
                                                     [LSK__SPK_SPARES] = "lsk_sparse_spares"};

size_t lsk__sp_args(const lsk_sparse *sp, lsk_arg *a, const lsk_arg *more, size_t nmore)
{
  size_t n = 0;
  for (size_t i = 0; i < sp->nbufs; ++i)
    a[n++] = LSK_ARG_BUFFER(sp->bufs[i]);
  for (size_t i = 0; i < nmore; ++i)
    a[n++] = more[i];
  return n;
}

/* As lsk__sp_launch, with tiles of `tile` cells, the block domain. */
static int launch_tile(lsk_sparse *sp, lsk__spk which, lsk_queue *q, const char *fn, size_t units,
                       unsigned tile, const lsk_arg *more, size_t nmore)
{
  lsk_arg a[2 + LSK_SPARSE_MAX_NODES + 4];
  size_t n = lsk__sp_args(sp, a, more, nmore);
  size_t blocks = lsk_auto_blocks(lsk__context_info(sp->ctx), units * tile, tile, 0);
  lsk_launch l = {.domain = {tile}, .blocks = {blocks}};
  return lsk__launch_q(sp->k[which], q, fn, &l, a, n);
}

int lsk__sp_launch(lsk_sparse *sp, lsk__spk which, lsk_queue *q, const char *fn, size_t units,
                   const lsk_arg *more, size_t nmore)
{
  return launch_tile(sp, which, q, fn, units, LSK__SP_TILE, more, nmore);
}

int lsk__sp_launch_cells(lsk_sparse *sp, lsk__spk which, lsk_queue *q, const char *fn,
                         size_t blocks, size_t cells, const lsk_arg *more, size_t nmore)
{
  /* Tiles of 4096 cells on CPUs: every tile pays for its barriers (and
   * listgen's for a block append), which PoCL makes cost more than the
   * scan of 256 references (a 65536-cell root took 0.5 ms in tiles of
   * 256). */
  unsigned big = lsk__context_info(sp->ctx)->is_gpu ? LSK__SP_TILE : 4096u;
  unsigned tile = cells > LSK__SP_TILE ? big : LSK__SP_TILE;
  return launch_tile(sp, which, q, fn, blocks * ((cells + tile - 1) / tile), tile, more, nmore);
}

/* Entries node m's list may need: its blocks can be no more than its
 * parents' cells, nor than the pool cells that hold them. */
static size_t list_cap(const lsk_sparse *sp, unsigned m)
{
  const lsk__snode *n = &sp->def.node[m];
  const lsk__snode *p = n->parent >= 0 ? &sp->def.node[n->parent] : NULL;
  uint64_t cap;
  if (n->kind == LSK_SNODE_DYNAMIC)
    cap = lsk_pool_capacity(sp->pool[n->pool]);
  else if (!p)
    cap = 1;
  else if (p->kind == LSK_SNODE_POINTER)
    cap = lsk_pool_capacity(sp->pool[p->pool]);
  else
    cap = sp->cap[n->parent] * p->ncells;
  return (size_t)(cap < n->maxblocks ? cap : n->maxblocks);
}

/* A buffer of bytes, zero but for head (a whole-buffer initial image:
 * oclgrind takes nothing else as initialized). */
static int zeroed(lsk_context *ctx, size_t bytes, const void *head, size_t head_bytes,
                  const char *fn, lsk_buffer **out)
{
  unsigned char *image = calloc(bytes, 1);
  if (!image)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory for %zu bytes", fn, bytes);
  if (head_bytes)
    memcpy(image, head, head_bytes);
  int rc = lsk__buffer_create_init(ctx, bytes, image, fn, out);
  free(image);
  return rc;
}

/* The lists buffer for the pools' current sizes: a header, then each
 * node's entries. */
static int make_lists(lsk_sparse *sp, const char *fn)
{
  uint32_t h[LSK__SPL_HEADER_WORDS] = {0};
  uint64_t words = LSK__SPL_HEADER_WORDS;
  for (unsigned m = 0; m < sp->def.nnodes; ++m) {
    sp->cap[m] = list_cap(sp, m);
    h[LSK__SPL_CAP + m] = (uint32_t)sp->cap[m];
    h[LSK__SPL_OFF + m] = (uint32_t)words;
    words += (uint64_t)sp->cap[m] * LSK__SPL_ENTRY_WORDS;
    if (words > UINT32_MAX || words * 4 > lsk__context_info(sp->ctx)->max_alloc_size)
      return lsk__fail(sp->ctx, LSK_ERANGE,
                       "%s: sparse '%s': the element lists (%llu entries of node '%s') pass the "
                       "device's largest allocation",
                       fn, sp->def.name, (unsigned long long)sp->cap[m], sp->def.node[m].name);
  }
  lsk_buffer *b = NULL;
  int rc = zeroed(sp->ctx, (size_t)words * 4, h, sizeof h, fn, &b);
  if (rc)
    return rc;
  lsk_buffer_destroy(sp->lists);
  sp->lists = b;
  sp->bufs[1] = b;
  return LSK_OK;
}

/* The most bytes of blocks a pool takes by default. */
#define LSK__SP_DEFAULT_BYTES (64u << 20)
/* The most blocks a default pool holds beyond every block its node can
 * have: those that lost install races (docs/sparse.md). */
#define LSK__SP_RACE_ROOM 64u

/* The most blocks node n can ever have (a dynamic node: chunks). */
static uint64_t node_most(const lsk__snode *n)
{
  return n->kind == LSK_SNODE_DYNAMIC ? n->maxblocks : n->maxblocks * n->ncells;
}

/* A pool that holds every block node n can have, with room besides for
 * blocks that lost install races: as many again, at most
 * LSK__SP_RACE_ROOM. Without it a claimer descheduled while it holds a
 * block would leave the kernel a block short. */
static uint64_t node_full(const lsk__snode *n)
{
  uint64_t most = node_most(n);
  return most + (most < LSK__SP_RACE_ROOM ? most : LSK__SP_RACE_ROOM);
}

/* Node m's pool: its child blocks (dynamic: its chunks). */
static int make_pool(lsk_sparse *sp, unsigned m, const lsk_sparse_options *opt, const char *fn)
{
  const lsk_sparse_def *d = &sp->def;
  const lsk__snode *n = &d->node[m];
  /* By default a fraction of the blocks the node can have (a dynamic node:
   * of one chunk per list), at least 64, at most LSK__SP_DEFAULT_BYTES of
   * blocks: a pool grows when a kernel finds it short. One that reaches
   * every block the node can have is node_full. */
  uint64_t most = node_most(n);
  uint64_t lists = n->kind == LSK_SNODE_DYNAMIC
                       ? n->maxblocks / ((n->size[n->axis[0]] + n->chunk - 1) / n->chunk)
                       : most;
  double frac = opt && opt->fraction > 0 ? opt->fraction : 0.25;
  uint64_t want = opt && opt->blocks[m] ? opt->blocks[m] : (uint64_t)((double)lists * frac);
  if (!(opt && opt->blocks[m])) {
    uint64_t cap = LSK__SP_DEFAULT_BYTES / d->cont_bytes[n->pool + 1];
    want = want > cap ? cap : want;
    want = want < 64 ? 64 : want;
    want = want >= most ? node_full(n) : want;
  }
  lsk_pool_options po = {.align = d->align};
  int rc =
      lsk_pool_create(sp->ctx, d->cont_bytes[n->pool + 1], (size_t)want, &po, &sp->pool[n->pool]);
  if (rc)
    return lsk__fail(
        sp->ctx, rc, "%s: sparse '%s' node '%s': a pool of %llu blocks of %zu bytes: %s", fn,
        d->name, n->name, (unsigned long long)want, d->cont_bytes[n->pool + 1], lsk_errmsg());
  sp->bufs[2 + n->pool] = lsk_pool_buffer(sp->pool[n->pool]);
  return LSK_OK;
}

static int make_program(lsk_sparse *sp, const char *fn)
{
  char *lib = NULL;
  int rc = lsk__sparse_emit(&sp->def, 0, &sp->source, fn);
  if (!rc)
    rc = lsk__sparse_emit(&sp->def, 1, &lib, fn);
  lsk__sb sb = {0};
  lsk__sb_printf(&sb, "#line 1 \"kernels/sparse.cl\"\n%s", lsk__kernels_sparse);
  char *src = NULL;
  if (!rc)
    rc = lsk__sb_finish(&sb, &src, fn);
  else
    free(sb.buf);
  char name[LSK__SP_NAME + 16];
  snprintf(name, sizeof name, "lsk sparse %s", sp->def.name);
  lsk_program_options po = {.name = name, .prelude = lib};
  if (!rc)
    rc = lsk_program_create(sp->ctx, src, &po, &sp->prog);
  for (int i = 0; !rc && i < LSK__SPK_N; ++i)
    rc = lsk_kernel_create(sp->prog, kernel_names[i], &sp->k[i]);
  free(lib);
  free(src);
  return rc;
}

int lsk_sparse_create(lsk_context *ctx, const lsk_sparse_def *def, const lsk_sparse_options *opt,
                      lsk_sparse **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  LSK__LIVE(ctx, def, SPARSE_DEF, __func__, "def");
  int rc = lsk__sparse_check(def, ctx, __func__);
  if (rc)
    return rc;
  if (opt && (opt->fraction < 0 || opt->fraction > 1))
    return lsk__fail(ctx, LSK_EINVAL, "%s: fraction %g: must be from 0 to 1", __func__,
                     opt->fraction);
  lsk_sparse *sp = calloc(1, sizeof *sp);
  if (!sp)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory", __func__);
  sp->ctx = ctx;
  sp->def = *def;
  sp->nbufs = 2 + def->npools;
  rc = zeroed(ctx, def->cont_bytes[0], NULL, 0, __func__, &sp->root);
  sp->bufs[0] = sp->root;
  for (unsigned m = 0; !rc && m < def->nnodes; ++m)
    if (def->node[m].pool >= 0)
      rc = make_pool(sp, m, opt, __func__);
  if (!rc)
    rc = make_lists(sp, __func__);
  if (!rc)
    rc = make_program(sp, __func__);
  if (!rc && lsk__handle_add(sp, &LSK__H_SPARSE, ctx))
    rc = lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory", __func__);
  if (rc) {
    sp->h.type = NULL;
    lsk_sparse_destroy(sp);
    return rc;
  }
  *out = sp;
  return LSK_OK;
}

static void release(lsk_sparse *sp)
{
  for (int i = 0; i < LSK__SPK_N; ++i)
    lsk_kernel_destroy(sp->k[i]);
  lsk_program_destroy(sp->prog);
  for (unsigned p = 0; p < sp->def.npools; ++p)
    lsk_pool_destroy(sp->pool[p]);
  lsk_buffer_destroy(sp->root);
  lsk_buffer_destroy(sp->lists);
  free(sp->source);
  free(sp);
}

void lsk_sparse_destroy(lsk_sparse *sp)
{
  if (!sp)
    return;
  if (!sp->h.type) { /* a failed create: never added */
    release(sp);
    return;
  }
  if (lsk__handle_remove(sp, &LSK__H_SPARSE, __func__))
    return;
  release(sp);
}

const char *lsk_sparse_source(const lsk_sparse *sp)
{
  LSK__LIVE_OR(NULL, sp, SPARSE, __func__, "sp");
  return sp->source;
}

int lsk__sp_level(const lsk_sparse *sp, const char *level, const char *fn, unsigned *m)
{
  int i = lsk__sparse_node_index(&sp->def, level);
  if (i < 0)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: sparse '%s' has no node '%s'", fn, sp->def.name,
                     level);
  *m = (unsigned)i;
  return LSK_OK;
}

int lsk__sp_zero(lsk_sparse *sp, lsk_queue *q, lsk_buffer *x, size_t first, size_t n,
                 const char *fn)
{
  return lsk__sp_launch(
      sp, LSK__SPK_ZERO, q, fn, (n + LSK__SP_TILE - 1) / LSK__SP_TILE,
      LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT((uint32_t)first), LSK_ARG_UINT((uint32_t)n)));
}

int lsk__sp_listgen(lsk_sparse *sp, lsk_queue *q, unsigned upto, int all, const char *fn)
{
  int rc = lsk__sp_zero(sp, q, sp->lists, LSK__SPL_COUNT, upto + 1, fn);
  /* Every node up to upto, the branches beside its way included: a node's
   * parent comes before it. */
  for (unsigned m = 0; !rc && m <= upto; ++m) {
    int p = sp->def.node[m].parent;
    size_t parents = p >= 0 ? sp->cap[p] : 1;
    size_t cells = p >= 0 ? sp->def.node[p].ncells : 1;
    rc = lsk__sp_launch_cells(sp, LSK__SPK_LISTGEN, q, fn, parents, cells,
                              LSK_ARGS(LSK_ARG_UINT(m), LSK_ARG_UINT(all ? 1u : 0u)));
  }
  return rc;
}

int lsk__sp_gc(lsk_sparse *sp, lsk_queue *q, const char *fn)
{
  if (!sp->dirty)
    return LSK_OK;
  const lsk_sparse_def *d = &sp->def;
  /* The spares first: blocks no one saw, back to their pools. */
  int rc = d->npools ? lsk__sp_launch(sp, LSK__SPK_SPARES, q, fn, 1, NULL, 0) : LSK_OK;
  /* Top down: a pointer's recycled blocks give back what hangs below them
   * (each node with a pool in its blocks) before that pool's cascade reads
   * its recycled list. */
  for (unsigned m = 0; !rc && m < d->nnodes; ++m) {
    if (d->node[m].kind != LSK_SNODE_POINTER)
      continue;
    for (unsigned k = m + 1; !rc && k < d->nnodes; ++k) {
      const lsk__snode *n = &d->node[k];
      if (n->pool < 0 || n->cont != (unsigned)d->node[m].pool + 1)
        continue;
      size_t refs = n->kind == LSK_SNODE_DYNAMIC ? n->inl : n->inl * n->ncells;
      size_t units =
          lsk_pool_capacity(sp->pool[d->node[m].pool]) * ((refs + LSK__SP_TILE - 1) / LSK__SP_TILE);
      rc = lsk__sp_launch(sp, LSK__SPK_CASCADE, q, fn, units,
                          LSK_ARGS(LSK_ARG_UINT(m), LSK_ARG_UINT(k)));
    }
  }
  for (unsigned p = 0; !rc && p < d->npools; ++p)
    rc = lsk_pool_gc(sp->pool[p], &(lsk_async){.queue = q});
  if (!rc)
    sp->dirty = 0;
  return rc;
}

int lsk_sparse_use(lsk_sparse *sp, lsk_arg *arg, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  if (!arg)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: arg is NULL", __func__);
  lsk__on o;
  int rc = lsk__lib_begin(sp->ctx, on, __func__, &o);
  if (!rc)
    rc = lsk__sp_gc(sp, o.q, __func__);
  rc = lsk__lib_end(sp->ctx, &o, rc, __func__);
  if (rc)
    return rc;
  *arg = LSK_ARG_BUFFER_LIST(sp->bufs, sp->nbufs);
  sp->dirty = 1;
  return LSK_OK;
}

/* The struct-for's launch of k over node m's listed blocks, on o's queue. */
static int launch_for(lsk_sparse *sp, lsk_kernel *k, unsigned m, const lsk_sparse_for_options *op,
                      const lsk_arg *args, size_t nargs, lsk_queue *q)
{
  lsk_arg *all = malloc((nargs + 1) * sizeof *all);
  if (!all)
    return lsk__fail(sp->ctx, LSK_ENOMEM, "lsk_sparse_for: out of host memory");
  all[0] = LSK_ARG_BUFFER_LIST(sp->bufs, sp->nbufs);
  if (nargs)
    memcpy(all + 1, args, nargs * sizeof *all);
  const lsk__snode *n = &sp->def.node[m];
  size_t blocks =
      lsk_auto_blocks(lsk__context_info(sp->ctx), sp->cap[m] * n->ncells, (size_t)n->ncells, 16);
  lsk_launch l = {.domain = {(unsigned)n->ncells},
                  .blocks = {blocks},
                  .workers = op->workers,
                  .simd = op->simd,
                  .local_bytes = op->local_bytes};
  /* On CPUs, as few workers as cover the block in one step: a struct-for's
   * blocks are short, and every worker pays for finding its block (the
   * general rule's floor of 8 workers, as it was then, made it 3 times
   * slower, docs/sparse.md). Since the floor is 2 this differs from the
   * rule only for blocks of at most 256 cells: one worker, one lookup. */
  if (!l.workers && !l.simd && !lsk__context_info(sp->ctx)->is_gpu) {
    l.workers = (unsigned)((n->ncells + 255) / 256);
    l.simd = (unsigned)((n->ncells + l.workers - 1) / l.workers);
  }
  int rc = lsk_kernel_launch(k, &l, all, nargs + 1, &(lsk_async){.queue = q});
  free(all);
  if (rc) {
    /* The launch's message, under the struct-for's name (the user called
     * lsk_sparse_for, not lsk_kernel_launch). */
    char *msg = lsk__strdup(lsk_errmsg());
    rc = lsk__fail(sp->ctx, rc,
                   "lsk_sparse_for: sparse '%s' node '%s' (its parameters, the first %zu after "
                   "LSK_CTX, then the %zu given): %s",
                   sp->def.name, n->name, sp->nbufs, nargs, msg ? msg : "launch failed");
    free(msg);
  }
  return rc;
}

int lsk_sparse_for(lsk_sparse *sp, lsk_kernel *k, const lsk_sparse_for_options *opt,
                   const lsk_arg *args, size_t nargs, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  LSK__LIVE(sp->ctx, k, KERNEL, __func__, "k");
  if (!args && nargs)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: args is NULL with nargs %zu", __func__, nargs);
  lsk_sparse_for_options op = opt ? *opt : (lsk_sparse_for_options){0};
  if (op.flags & ~LSK_SPARSE_FOR_NO_DEACTIVATE)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: flags 0x%x: unknown bits", __func__, op.flags);
  unsigned m;
  int rc = lsk__sp_level(sp, op.level, __func__, &m);
  if (rc)
    return rc;
  lsk__on o;
  rc = lsk__lib_begin(sp->ctx, on, __func__, &o);
  if (!rc)
    rc = lsk__sp_gc(sp, o.q, __func__);
  if (!rc)
    rc = lsk__sp_listgen(sp, o.q, m, 0, __func__);
  if (!rc)
    rc = launch_for(sp, k, m, &op, args, nargs, o.q);
  if (!rc && !(op.flags & LSK_SPARSE_FOR_NO_DEACTIVATE))
    sp->dirty = 1;
  return lsk__lib_end(sp->ctx, &o, rc, __func__);
}

/* The message of what the header's counters say, into sb; its status. */
static int report(lsk_sparse *sp, const uint32_t *h, lsk__sb *sb)
{
  int rc = LSK_OK;
  for (unsigned m = 0; m < sp->def.nnodes; ++m) {
    const lsk__snode *n = &sp->def.node[m];
    sp->lost[m] = h[LSK__SPL_LOST + m];
    if (h[LSK__SPL_LOST + m]) {
      lsk__sb_printf(sb,
                     "%snode '%s' (%s): its pool of %zu blocks ran out: %u %s found no room "
                     "(lsk_sparse_grow, then run the kernel again)",
                     rc ? "; " : "", n->name, n->kind == LSK_SNODE_DYNAMIC ? "dynamic" : "pointer",
                     lsk_pool_capacity(sp->pool[n->pool]), h[LSK__SPL_LOST + m],
                     n->kind == LSK_SNODE_DYNAMIC ? "appends" : "activations");
      rc = LSK_ENOSPC;
    }
    if (h[LSK__SPL_PAST + m]) {
      lsk__sb_printf(sb, "%snode '%s' (dynamic): %u appends past its length %u", rc ? "; " : "",
                     n->name, h[LSK__SPL_PAST + m], n->size[n->axis[0]]);
      rc = rc ? rc : LSK_ERANGE;
    }
  }
  return rc;
}

int lsk_sparse_check(lsk_sparse *sp, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  uint32_t h[LSK__SPL_HEADER_WORDS];
  lsk__on o;
  lsk__vcheck v;
  int rc = lsk__lib_read_begin(sp->ctx, on, __func__, &o, &v);
  if (!rc)
    rc = lsk__buffer_rw(sp->lists, 0, 0, h, sizeof h, o.q, 1, __func__);
  lsk__sb sb = {0};
  int found = rc ? rc : report(sp, h, &sb);
  if (!rc && found) {
    /* Reported once: the counters start again. */
    rc = lsk__sp_zero(sp, o.q, sp->lists, LSK__SPL_LOST, 16, __func__);
    char *msg = NULL;
    if (!rc && !lsk__sb_finish(&sb, &msg, __func__))
      rc = lsk__fail(sp->ctx, found, "%s: sparse '%s': %s", __func__, sp->def.name, msg);
    free(msg);
  } else {
    free(sb.buf);
  }
  return lsk__lib_read_end(sp->ctx, &o, &v, rc, __func__);
}

int lsk_sparse_grow(lsk_sparse *sp, unsigned node, size_t blocks)
{
  LSK__API();
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  if (node >= sp->def.nnodes || sp->def.node[node].pool < 0)
    return lsk__fail(sp->ctx, LSK_EINVAL,
                     "%s: node %u: sparse '%s' has no pointer or dynamic node of that index",
                     __func__, node, sp->def.name);
  lsk_pool *p = sp->pool[sp->def.node[node].pool];
  size_t cap = lsk_pool_capacity(p);
  if (!blocks) {
    /* The refusals count work-items (up to a block's worth for one block),
     * so the guess is capped by the blocks the node can ever have (and
     * the room for install races). */
    uint64_t full = node_full(&sp->def.node[node]);
    size_t more = cap / 2 > 2 * (size_t)sp->lost[node] ? cap / 2 : 2 * (size_t)sp->lost[node];
    blocks = cap + (more ? more : 1);
    blocks = blocks > full && full > cap ? (size_t)full : blocks;
  }
  if (blocks <= cap)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: blocks %zu: must be more than the current %zu",
                     __func__, blocks, cap);
  lsk_queue *q = lsk__context_queue(sp->ctx);
  /* The GC always: the spares live in the lists, which are made anew. */
  sp->dirty = 1;
  int rc = lsk__sp_gc(sp, q, __func__);
  if (!rc && (rc = lsk_pool_grow(p, blocks)))
    rc = lsk__fail(sp->ctx, rc, "%s: sparse '%s' node '%s': %s", __func__, sp->def.name,
                   sp->def.node[node].name, lsk_errmsg());
  if (rc)
    return rc;
  sp->bufs[2 + sp->def.node[node].pool] = lsk_pool_buffer(p);
  sp->lost[node] = 0;
  return make_lists(sp, __func__);
}
