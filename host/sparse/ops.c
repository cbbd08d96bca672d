/*
 * ops.c: what the host asks of a whole sparse structure: active cells per
 * node and statistics, a field copied to and from a dense host array, and
 * every cell of a node deactivated. Each makes the element lists it needs
 * on the device first (structure.c).
 */
#include <stdlib.h>
#include <string.h>

#include "sparse/structure.h"

/* Node m's active cells, counted on q; lists made up to m already. */
static int count_node(lsk_sparse *sp, lsk_queue *q, unsigned m, uint64_t *n, const char *fn)
{
  uint32_t sum[2];
  size_t tiles = (sp->def.node[m].ncells + LSK__SP_TILE - 1) / LSK__SP_TILE;
  int rc = lsk__sp_zero(sp, q, sp->lists, LSK__SPL_SUM, 2, fn);
  if (!rc)
    rc = lsk__sp_launch(sp, LSK__SPK_COUNT, q, fn, sp->cap[m] * tiles, LSK_ARGS(LSK_ARG_UINT(m)));
  if (!rc)
    rc = lsk__buffer_rw(sp->lists, 0, LSK__SPL_SUM * 4, sum, sizeof sum, q, 1, fn);
  if (!rc)
    *n = (uint64_t)sum[1] << 32 | sum[0];
  return rc;
}

int lsk_sparse_count(lsk_sparse *sp, const char *level, uint64_t *active, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  if (!active)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: active is NULL", __func__);
  unsigned m;
  int rc = lsk__sp_level(sp, level, __func__, &m);
  if (rc)
    return rc;
  lsk__on o;
  lsk__vcheck v;
  uint64_t n = 0;
  rc = lsk__lib_read_begin(sp->ctx, on, __func__, &o, &v);
  if (!rc)
    rc = lsk__sp_listgen(sp, o.q, m, 0, __func__);
  if (!rc)
    rc = count_node(sp, o.q, m, &n, __func__);
  rc = lsk__lib_read_end(sp->ctx, &o, &v, rc, __func__);
  if (!rc)
    *active = n;
  return rc;
}

/* Node m's statistics on q, its list made. */
static int stats_node(lsk_sparse *sp, lsk_queue *q, unsigned m, lsk_sparse_level_stats *s,
                      const char *fn)
{
  const lsk__snode *n = &sp->def.node[m];
  uint32_t listed;
  memset(s, 0, sizeof *s);
  s->kind = n->kind;
  int rc = count_node(sp, q, m, &s->active, fn);
  if (!rc)
    rc = lsk__buffer_rw(sp->lists, 0, (LSK__SPL_COUNT + m) * 4, &listed, 4, q, 1, fn);
  if (rc)
    return rc;
  s->blocks = listed;
  if (n->pool < 0)
    return LSK_OK;
  lsk_pool_usage u;
  if ((rc = lsk_pool_usage_get(sp->pool[n->pool], &u, &(lsk_async){.queue = q})))
    return rc;
  s->pool_blocks = u.capacity;
  s->pool_live = u.live;
  s->high_water = u.high_water;
  s->refused = u.refused;
  s->block_bytes = lsk_pool_cell_stride(sp->pool[n->pool]);
  return LSK_OK;
}

int lsk_sparse_stats_get(lsk_sparse *sp, lsk_sparse_level_stats *out, size_t n, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  if (!out && n)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: out is NULL with n %zu", __func__, n);
  lsk__on o;
  lsk__vcheck v;
  int rc = lsk__lib_read_begin(sp->ctx, on, __func__, &o, &v);
  if (!rc)
    rc = lsk__sp_gc(sp, o.q, __func__);
  unsigned last = sp->def.nnodes - 1;
  if (!rc)
    rc = lsk__sp_listgen(sp, o.q, last, 0, __func__);
  for (unsigned m = 0; !rc && m < n && m <= last; ++m)
    rc = stats_node(sp, o.q, m, &out[m], __func__);
  return lsk__lib_read_end(sp->ctx, &o, &v, rc, __func__);
}

/* The field called name: its index, and the dense array's cells and
 * bytes; LSK_EINVAL or LSK_ERANGE naming fn. */
static int dense_of(lsk_sparse *sp, const char *field, size_t bytes, unsigned *f, size_t *cells,
                    const char *fn)
{
  const lsk_sparse_def *d = &sp->def;
  unsigned i = 0;
  while (field && i < d->nfields && strcmp(d->field[i].name, field) != 0)
    ++i;
  if (!field || i == d->nfields)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: sparse '%s' has no field '%s'", fn, d->name,
                     field ? field : "(null)");
  uint64_t n = 1, ext[LSK_SPARSE_MAX_AXES];
  lsk__sparse_field_extent(d, i, ext);
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    n *= ext[a];
  if (n > UINT32_MAX || n * d->field[i].size > lsk__context_info(sp->ctx)->max_alloc_size)
    return lsk__fail(sp->ctx, LSK_ERANGE,
                     "%s: sparse '%s': a dense array of %llu cells is past what a copy takes "
                     "(2^32 - 1 cells, the device's largest allocation)",
                     fn, d->name, (unsigned long long)n);
  if (bytes < n * d->field[i].size)
    return lsk__fail(sp->ctx, LSK_EINVAL,
                     "%s: %zu bytes: field '%s' of sparse '%s' takes %llu (%llu cells of %zu)", fn,
                     bytes, field, d->name, (unsigned long long)(n * d->field[i].size),
                     (unsigned long long)n, d->field[i].size);
  *f = i;
  *cells = (size_t)n;
  return LSK_OK;
}

/* What read and write check first: the host array, the field, the
 * array's size; write refuses a field under a dynamic node. */
static int copy_check(lsk_sparse *sp, const char *field, const void *host, size_t host_bytes,
                      int write, unsigned *f, size_t *n, const char *fn)
{
  if (!host)
    return lsk__fail(sp->ctx, LSK_EINVAL, "%s: %s is NULL", fn, write ? "src" : "dst");
  int rc = dense_of(sp, field, host_bytes, f, n, fn);
  if (!rc && write && sp->def.node[sp->def.field[*f].node].kind == LSK_SNODE_DYNAMIC)
    rc = lsk__fail(sp->ctx, LSK_EINVAL,
                   "%s: field '%s' of sparse '%s' is under a dynamic node: its lists grow by "
                   "appends",
                   fn, field, sp->def.name);
  return rc;
}

/* The queue taken and a device buffer of bytes for the copy on it. */
static int copy_begin(lsk_sparse *sp, const lsk_async *on, size_t bytes, lsk__on *o, lsk__vcheck *v,
                      lsk_buffer **tmp, const char *fn)
{
  int rc = lsk__lib_read_begin(sp->ctx, on, fn, o, v);
  if (!rc)
    rc = lsk_buffer_alloc(sp->ctx, bytes, tmp, &(lsk_async){.queue = o->q});
  return rc;
}

int lsk_sparse_read(lsk_sparse *sp, const char *field, void *dst, size_t dst_bytes,
                    const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  unsigned f;
  size_t n;
  int rc = copy_check(sp, field, dst, dst_bytes, 0, &f, &n, __func__);
  if (rc)
    return rc;
  size_t bytes = n * sp->def.field[f].size, words = (bytes + 3) / 4;
  lsk__on o;
  lsk__vcheck v;
  lsk_buffer *tmp = NULL;
  rc = copy_begin(sp, on, words * 4, &o, &v, &tmp, __func__);
  if (!rc)
    rc = lsk__sp_zero(sp, o.q, tmp, 0, words, __func__);
  unsigned leaf = sp->def.field[f].node;
  if (!rc)
    rc = lsk__sp_listgen(sp, o.q, leaf, 0, __func__);
  size_t tiles = (sp->def.node[leaf].ncells + LSK__SP_TILE - 1) / LSK__SP_TILE;
  if (!rc)
    rc = lsk__sp_launch(sp, LSK__SPK_READ, o.q, __func__, sp->cap[leaf] * tiles,
                        LSK_ARGS(LSK_ARG_UINT(f), LSK_ARG_BUFFER(tmp)));
  if (!rc)
    rc = lsk__buffer_rw(tmp, 0, 0, dst, bytes, o.q, 1, __func__);
  if (tmp)
    lsk_buffer_free(tmp, &(lsk_async){.queue = o.q});
  return lsk__lib_read_end(sp->ctx, &o, &v, rc, __func__);
}

/* Two kernels so that no plain read meets an install: the first
 * activates and writes the nonzero cells, the second writes the zeros
 * into cells that are active. */
int lsk_sparse_write(lsk_sparse *sp, const char *field, const void *src, size_t src_bytes,
                     const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, __func__, "sp");
  unsigned f;
  size_t n;
  int rc = copy_check(sp, field, src, src_bytes, 1, &f, &n, __func__);
  if (rc)
    return rc;
  size_t bytes = n * sp->def.field[f].size;
  lsk__on o;
  lsk__vcheck v;
  lsk_buffer *tmp = NULL;
  rc = copy_begin(sp, on, bytes, &o, &v, &tmp, __func__);
  if (!rc)
    rc = lsk__buffer_rw(tmp, 1, 0, (void *)src, bytes, o.q, 1, __func__);
  if (!rc)
    rc = lsk__sp_gc(sp, o.q, __func__);
  for (uint32_t pass = 0; pass < 2 && !rc; ++pass)
    rc = lsk__sp_launch(sp, LSK__SPK_WRITE, o.q, __func__, (n + LSK__SP_TILE - 1) / LSK__SP_TILE,
                        LSK_ARGS(LSK_ARG_UINT(f), LSK_ARG_BUFFER(tmp), LSK_ARG_UINT((uint32_t)n),
                                 LSK_ARG_UINT(pass)));
  if (!rc)
    rc = lsk__verify_check(o.q);
  if (!rc)
    sp->dirty = 1; /* installs that lost a race recycled their blocks */
  if (tmp)
    lsk_buffer_free(tmp, &(lsk_async){.queue = o.q});
  if (!rc)
    rc = lsk_queue_finish(o.q);
  return lsk__lib_read_end(sp->ctx, &o, &v, rc, __func__);
}

/* Node m deactivated on q (the lists it reads made already). */
static int deactivate_node(lsk_sparse *sp, lsk_queue *q, unsigned m, const char *fn)
{
  const lsk__snode *n = &sp->def.node[m];
  int dyn = n->kind == LSK_SNODE_DYNAMIC;
  size_t blocks = dyn ? (n->parent >= 0 ? sp->cap[n->parent] : 1) : sp->cap[m];
  size_t cells = dyn ? (n->parent >= 0 ? sp->def.node[n->parent].ncells : 1) : n->ncells;
  return lsk__sp_launch_cells(sp, LSK__SPK_DEACTIVATE, q, fn, blocks, cells,
                              LSK_ARGS(LSK_ARG_UINT(m)));
}

/* lsk_sparse_deactivate and _all, their messages named by fn. */
static int deactivate_levels(lsk_sparse *sp, const char *level, const lsk_async *on, const char *fn)
{
  lsk__lib_clear(on);
  LSK__LIVE(NULL, sp, SPARSE, fn, "sp");
  const lsk_sparse_def *d = &sp->def;
  /* The nodes to deactivate: the one named, or every sparse node in the
   * root's block (what is below a pointer goes with its blocks). */
  int want[LSK_SPARSE_MAX_NODES] = {0};
  unsigned m = 0, upto = 0;
  int rc = LSK_OK;
  if (level) {
    if ((rc = lsk__sp_level(sp, level, fn, &m)))
      return rc;
    if (d->node[m].kind == LSK_SNODE_DENSE)
      return lsk__fail(sp->ctx, LSK_EINVAL,
                       "%s: node '%s' of sparse '%s' is dense: its cells are always active", fn,
                       level, d->name);
    want[m] = 1;
  } else {
    for (m = 0; m < d->nnodes; ++m)
      want[m] = d->node[m].cont == 0 && d->node[m].kind != LSK_SNODE_DENSE;
  }
  for (m = 0; m < d->nnodes; ++m)
    if (want[m])
      upto = m;
  lsk__on o;
  rc = lsk__lib_begin(sp->ctx, on, fn, &o);
  if (!rc)
    rc = lsk__sp_listgen(sp, o.q, upto, 1, fn);
  /* Deepest first: clearing a bitmask above hides the blocks below it from
   * the lists (a node comes after its parent). */
  for (m = upto + 1; !rc && m-- > 0;)
    if (want[m])
      rc = deactivate_node(sp, o.q, m, fn);
  if (!rc)
    sp->dirty = 1;
  return lsk__lib_end(sp->ctx, &o, rc, fn);
}

int lsk_sparse_deactivate(lsk_sparse *sp, const char *level, const lsk_async *on)
{
  LSK__API();
  return deactivate_levels(sp, level, on, __func__);
}

int lsk_sparse_deactivate_all(lsk_sparse *sp, const lsk_async *on)
{
  LSK__API();
  return deactivate_levels(sp, NULL, on, __func__);
}
