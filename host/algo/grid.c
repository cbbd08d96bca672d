/*
 * grid.c: boxes of a global grid (lsk_grid_split) and their halos
 * (include/lsk/grid.h): the regions of every direction worked out once,
 * three device tables (the borders to pack, the REMOTE guards to unpack,
 * the SELF guards to wrap), and the copies of kernels/grid.cl over them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algo.h"

/* Words per table row; kernels/grid.cl's LSK__HALO_ROW. */
#define ROW 8

enum { TAB_PACK, TAB_UNPACK, TAB_WRAP, TAB_COUNT };

struct lsk_halo {
  lsk__handle h;
  lsk_context *ctx;
  lsk_grid_box box;
  size_t storage[3];
  unsigned ndirs;
  int dir[LSK_HALO_MAX_DIRS][3];
  lsk_halo_kind kind[LSK_HALO_MAX_DIRS];
  size_t cells[LSK_HALO_MAX_DIRS], offset[LSK_HALO_MAX_DIRS], total;
  lsk_buffer *tab[TAB_COUNT]; /* NULL where the table has no cells */
  unsigned nreg[TAB_COUNT];
  size_t tab_cells[TAB_COUNT];
};
static const lsk__htype LSK__H_HALO = {"lsk_halo", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_halo);

/* Extents of one axis of a split. */
static size_t part_cells(size_t g, unsigned p, unsigned c) { return g / p + (c < g % p); }
static size_t part_first(size_t g, unsigned p, unsigned c)
{
  return c * (g / p) + (c < g % p ? c : g % p);
}

int lsk_grid_split(unsigned dims, const size_t global[3], const unsigned parts[3],
                   const unsigned coord[3], unsigned guard, const int periodic[3],
                   lsk_grid_box *out)
{
  LSK__API();
  if (!global || !parts || !coord || !out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__,
                     !global  ? "global"
                     : !parts ? "parts"
                     : !coord ? "coord"
                              : "out");
  if (dims < 1 || dims > LSK_GRID_MAX_DIMS)
    return lsk__fail(NULL, LSK_EINVAL, "%s: dims %u is not 1, 2 or 3", __func__, dims);
  lsk_grid_box b = {.dims = dims, .guard = guard};
  size_t storage = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (a >= dims) {
      b.global[a] = b.extent[a] = 1;
      continue;
    }
    if (global[a] == 0 || global[a] > ((size_t)1 << 31))
      return lsk__fail(NULL, LSK_EINVAL, "%s: global[%u] is %zu: not 1 to 2^31 cells", __func__, a,
                       global[a]);
    if (parts[a] == 0 || parts[a] > global[a])
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s: parts[%u] is %u for %zu cells: each part needs at least one cell",
                       __func__, a, parts[a], global[a]);
    if (coord[a] >= parts[a])
      return lsk__fail(NULL, LSK_EINVAL, "%s: coord[%u] %u is not below parts[%u] %u", __func__, a,
                       coord[a], a, parts[a]);
    size_t smallest = global[a] / parts[a];
    if (guard > smallest)
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s: guard %u is wider than the smallest part along axis %u (%zu cells)",
                       __func__, guard, a, smallest);
    b.global[a] = global[a];
    b.offset[a] = part_first(global[a], parts[a], coord[a]);
    b.extent[a] = part_cells(global[a], parts[a], coord[a]);
    b.periodic[a] = periodic && periodic[a];
    size_t s = b.extent[a] + 2 * (size_t)guard;
    if (s > UINT32_MAX / storage)
      return lsk__fail(NULL, LSK_EINVAL, "%s: a box's storage exceeds 2^32 - 1 elements", __func__);
    storage *= s;
  }
  *out = b;
  return LSK_OK;
}

size_t lsk_grid_box_storage(const lsk_grid_box *box, size_t storage[3])
{
  if (!box)
    return 0;
  size_t n = 1;
  for (unsigned a = 0; a < 3; ++a) {
    size_t s = box->extent[a] + (a < box->dims ? 2 * (size_t)box->guard : 0);
    if (storage)
      storage[a] = s;
    n *= s;
  }
  return n;
}

size_t lsk_grid_box_index(const lsk_grid_box *box, size_t i, size_t j, size_t k)
{
  size_t s[3];
  lsk_grid_box_storage(box, s);
  size_t g[3] = {0, 0, 0};
  for (unsigned a = 0; a < box->dims && a < 3; ++a)
    g[a] = box->guard;
  return ((k + g[2]) * s[1] + (j + g[1])) * s[0] + (i + g[0]);
}

/* A box as lsk_grid_split makes them: LSK_EINVAL on ctx otherwise. */
static int check_box(lsk_context *ctx, const char *fn, const lsk_grid_box *b)
{
  if (b->dims < 1 || b->dims > LSK_GRID_MAX_DIMS)
    return lsk__fail(ctx, LSK_EINVAL, "%s: box dims %u is not 1, 2 or 3", fn, b->dims);
  size_t storage = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (a >= b->dims) {
      if (b->global[a] != 1 || b->extent[a] != 1 || b->offset[a] != 0)
        return lsk__fail(ctx, LSK_EINVAL,
                         "%s: box axis %u is beyond dims %u: global and extent must be 1, offset 0",
                         fn, a, b->dims);
      continue;
    }
    if (b->global[a] == 0 || b->global[a] > ((size_t)1 << 31) || b->extent[a] == 0 ||
        b->offset[a] >= b->global[a] || b->extent[a] > b->global[a] - b->offset[a])
      return lsk__fail(ctx, LSK_EINVAL,
                       "%s: box axis %u: cells [%zu, %zu) are not inside the grid's %zu", fn, a,
                       b->offset[a], b->offset[a] + b->extent[a], b->global[a]);
    if (b->guard > b->extent[a])
      return lsk__fail(ctx, LSK_EINVAL, "%s: guard %u is wider than the box's %zu cells on axis %u",
                       fn, b->guard, b->extent[a], a);
    size_t s = b->extent[a] + 2 * (size_t)b->guard;
    if (s > UINT32_MAX / storage)
      return lsk__fail(ctx, LSK_EINVAL, "%s: the box's storage exceeds 2^32 - 1 elements", fn);
    storage *= s;
  }
  return LSK_OK;
}

/* Direction i's vector: base-3 digits of i (the zero vector skipped). */
static void dir_of(unsigned dims, unsigned i, int d[3])
{
  unsigned all = 1;
  for (unsigned a = 0; a < dims; ++a)
    all *= 3;
  unsigned k = i < (all - 1) / 2 ? i : i + 1;
  for (unsigned a = 0; a < 3; ++a) {
    d[a] = a < dims ? (int)(k % 3) - 1 : 0;
    k /= 3;
  }
}

static lsk_halo_kind kind_of(const lsk_grid_box *b, const int d[3])
{
  int self = 1;
  for (unsigned a = 0; a < b->dims; ++a) {
    if (d[a] == 0)
      continue;
    int edge = d[a] < 0 ? b->offset[a] == 0 : b->offset[a] + b->extent[a] == b->global[a];
    if (edge && !b->periodic[a])
      return LSK_HALO_NONE;
    if (b->extent[a] != b->global[a])
      self = 0;
  }
  return self ? LSK_HALO_SELF : LSK_HALO_REMOTE;
}

/* Direction d's border (guard 0) or guard region (guard 1) in storage
 * coordinates. */
static void region(const lsk_grid_box *b, const int d[3], int guard, uint32_t lo[3], uint32_t n[3])
{
  size_t g = b->guard;
  for (unsigned a = 0; a < 3; ++a) {
    size_t e = b->extent[a];
    if (a >= b->dims) {
      lo[a] = 0, n[a] = 1;
    } else if (d[a] == 0) {
      lo[a] = (uint32_t)g, n[a] = (uint32_t)e;
    } else {
      n[a] = (uint32_t)g;
      if (d[a] < 0)
        lo[a] = guard ? 0 : (uint32_t)g;
      else
        lo[a] = (uint32_t)(guard ? g + e : e);
    }
  }
}

/* One table: rows of the directions of kind k, with the guard or border
 * region, each reading or writing the packed segment of direction src(i)
 * (i itself, or its opposite for the wrap). */
static int make_table(lsk_halo *h, int t, lsk_halo_kind k1, lsk_halo_kind k2, int guard,
                      int opposite)
{
  uint32_t rows[LSK_HALO_MAX_DIRS * ROW];
  unsigned n = 0;
  size_t flat = 0;
  for (unsigned i = 0; i < h->ndirs; ++i) {
    if ((h->kind[i] != k1 && h->kind[i] != k2) || h->cells[i] == 0)
      continue;
    uint32_t *r = rows + ROW * n++;
    unsigned src = opposite ? h->ndirs - 1 - i : i;
    r[0] = (uint32_t)h->offset[src];
    region(&h->box, h->dir[i], guard, r + 1, r + 4);
    r[7] = (uint32_t)flat;
    flat += h->cells[i];
  }
  h->nreg[t] = n;
  h->tab_cells[t] = flat;
  if (n == 0)
    return LSK_OK;
  int rc = lsk_buffer_create(h->ctx, n * ROW * sizeof(uint32_t), &h->tab[t]);
  if (!rc)
    rc = lsk_buffer_write(h->tab[t], 0, rows, n * ROW * sizeof(uint32_t), NULL);
  return rc;
}

int lsk_halo_create(lsk_context *ctx, const lsk_grid_box *box, lsk_halo **out)
{
  LSK__API();
  if (out)
    *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (!box || !out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s is NULL", __func__, !box ? "box" : "out");
  int rc = check_box(ctx, __func__, box);
  if (rc)
    return rc;
  lsk_halo *h = lsk__handle_new(sizeof *h, &LSK__H_HALO, ctx);
  if (!h)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  h->ctx = ctx;
  h->box = *box;
  lsk_grid_box_storage(box, h->storage);
  h->ndirs = box->dims == 1 ? 2 : box->dims == 2 ? 8 : 26;
  for (unsigned i = 0; i < h->ndirs; ++i) {
    dir_of(box->dims, i, h->dir[i]);
    h->kind[i] = kind_of(box, h->dir[i]);
    size_t c = 0;
    if (h->kind[i] != LSK_HALO_NONE) {
      c = 1;
      for (unsigned a = 0; a < box->dims; ++a)
        c *= h->dir[i][a] ? box->guard : box->extent[a];
    }
    h->cells[i] = c;
    h->offset[i] = h->total;
    h->total += c;
  }
  rc = make_table(h, TAB_PACK, LSK_HALO_SELF, LSK_HALO_REMOTE, 0, 0);
  if (!rc)
    rc = make_table(h, TAB_UNPACK, LSK_HALO_REMOTE, LSK_HALO_REMOTE, 1, 0);
  if (!rc)
    rc = make_table(h, TAB_WRAP, LSK_HALO_SELF, LSK_HALO_SELF, 1, 1);
  if (rc) {
    lsk_halo_destroy(h);
    return rc;
  }
  *out = h;
  return LSK_OK;
}

void lsk_halo_destroy(lsk_halo *h)
{
  LSK__DESTROY(h, HALO, __func__);
  for (int t = 0; t < TAB_COUNT; ++t)
    lsk_buffer_destroy(h->tab[t]);
  free(h);
}

const lsk_grid_box *lsk_halo_box(const lsk_halo *h)
{
  LSK__LIVE_OR(NULL, h, HALO, __func__, "h");
  return &h->box;
}

unsigned lsk_halo_dirs(const lsk_halo *h)
{
  LSK__LIVE_OR(0, h, HALO, __func__, "h");
  return h->ndirs;
}

int lsk_halo_dir(const lsk_halo *h, unsigned i, int d[3])
{
  LSK__API();
  LSK__LIVE(NULL, h, HALO, __func__, "h");
  if (!d)
    return lsk__fail(h->ctx, LSK_EINVAL, "%s: d is NULL", __func__);
  if (i >= h->ndirs)
    return lsk__fail(h->ctx, LSK_EINVAL, "%s: direction %u is not below %u", __func__, i, h->ndirs);
  memcpy(d, h->dir[i], sizeof h->dir[i]);
  return LSK_OK;
}

lsk_halo_kind lsk_halo_kind_of(const lsk_halo *h, unsigned i)
{
  LSK__LIVE_OR(LSK_HALO_NONE, h, HALO, __func__, "h");
  return i < h->ndirs ? h->kind[i] : LSK_HALO_NONE;
}

size_t lsk_halo_cells(const lsk_halo *h, unsigned i)
{
  LSK__LIVE_OR(0, h, HALO, __func__, "h");
  return i < h->ndirs ? h->cells[i] : 0;
}

size_t lsk_halo_offset(const lsk_halo *h, unsigned i)
{
  LSK__LIVE_OR(0, h, HALO, __func__, "h");
  return i < h->ndirs ? h->offset[i] : h->total;
}

size_t lsk_halo_total(const lsk_halo *h)
{
  LSK__LIVE_OR(0, h, HALO, __func__, "h");
  return h->total;
}

/* The arguments every copy checks: type, column, packed (distinct). */
static int check_copy(lsk_halo *h, const char *fn, lsk_type type, const lsk_buffer *column,
                      const lsk_buffer *packed, size_t packed_offset, int with_packed)
{
  size_t es = lsk_type_size(type);
  if (!es)
    return lsk__fail(h->ctx, LSK_EINVAL, "%s: type %d is not an lsk_type", fn, (int)type);
  size_t storage = h->storage[0] * h->storage[1] * h->storage[2];
  int rc = lsk__check_span(h->ctx, fn, "column", column, 0, storage, es);
  if (!rc && with_packed)
    rc = lsk__check_span(h->ctx, fn, "packed", packed, packed_offset, h->total, es);
  if (!rc && column == packed)
    rc = lsk__fail(h->ctx, LSK_EINVAL, "%s: column and packed are the same buffer", fn);
  return rc;
}

/* One copy over table t, on the call's queue. */
static int copy(lsk_halo *h, const char *fn, int t, int pack, lsk_type type, lsk_buffer *column,
                lsk_buffer *packed, size_t packed_offset, lsk_queue *q, const lsk_algo_options *opt)
{
  if (h->tab_cells[t] == 0)
    return LSK_OK;
  lsk__plan p;
  int rc = lsk__algo_plan(h->ctx, fn, h->tab_cells[t], opt, &p);
  if (rc)
    return rc;
  const char *bits = lsk_type_size(type) == 8 ? "ulong" : "uint";
  char name[32], options[24];
  snprintf(name, sizeof name, "lsk_halo_%s_%s", pack ? "pack" : "unpack", bits);
  snprintf(options, sizeof options, "-DLSK_T=%s", bits);
  lsk_kernel *k;
  if ((rc = lsk__lib_kernel_for(h->ctx, LSK__LIB_GRID, options, name, &k)))
    return rc;
  lsk_launch l = lsk__plan_launch(&p, p.blocks);
  return lsk__launch_q(k, q, fn, &l,
                       LSK_ARGS(LSK_ARG_BUFFER(column), LSK_ARG_UINT((uint32_t)h->storage[0]),
                                LSK_ARG_UINT((uint32_t)h->storage[1]), LSK_ARG_BUFFER(h->tab[t]),
                                LSK_ARG_UINT(h->nreg[t]), LSK_ARG_UINT((uint32_t)h->tab_cells[t]),
                                LSK_ARG_UINT((uint32_t)p.per_block), LSK_ARG_BUFFER(packed),
                                LSK_ARG_UINT((uint32_t)packed_offset)));
}

/* A public copy: checks, then the copy inside the library call's bounds. */
static int call(lsk_halo *h, const char *fn, int t, int pack, lsk_type type, lsk_buffer *column,
                lsk_buffer *packed, size_t packed_offset, const lsk_algo_options *opt,
                const lsk_async *on)
{
  lsk__lib_clear(on);
  LSK__LIVE(NULL, h, HALO, fn, "h");
  int rc = check_copy(h, fn, type, column, packed, packed_offset, 1);
  if (rc)
    return rc;
  lsk__on o;
  rc = lsk__lib_begin(h->ctx, on, fn, &o);
  if (!rc)
    rc = copy(h, fn, t, pack, type, column, packed, packed_offset, o.q, opt);
  return lsk__lib_end(h->ctx, &o, rc, fn);
}

int lsk_halo_pack(lsk_halo *h, lsk_type type, lsk_buffer *column, lsk_buffer *packed,
                  size_t packed_offset, const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  return call(h, __func__, TAB_PACK, 1, type, column, packed, packed_offset, opt, on);
}

int lsk_halo_unpack(lsk_halo *h, lsk_type type, lsk_buffer *packed, size_t packed_offset,
                    lsk_buffer *column, const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  return call(h, __func__, TAB_UNPACK, 0, type, column, packed, packed_offset, opt, on);
}

int lsk_halo_wrap(lsk_halo *h, lsk_type type, lsk_buffer *packed, size_t packed_offset,
                  lsk_buffer *column, const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  return call(h, __func__, TAB_WRAP, 0, type, column, packed, packed_offset, opt, on);
}

int lsk_halo_fill(lsk_halo *h, lsk_type type, lsk_buffer *column, const lsk_algo_options *opt,
                  const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, h, HALO, __func__, "h");
  int rc = check_copy(h, __func__, type, column, NULL, 0, 0);
  if (rc)
    return rc;
  lsk__on o;
  rc = lsk__lib_begin(h->ctx, on, __func__, &o);
  if (!rc && h->tab_cells[TAB_WRAP]) {
    lsk_buffer *tmp;
    rc = lsk__scratch(h->ctx, o.q, h->total * lsk_type_size(type), &tmp);
    if (!rc) {
      rc = copy(h, __func__, TAB_PACK, 1, type, column, tmp, 0, o.q, opt);
      if (!rc)
        rc = copy(h, __func__, TAB_WRAP, 0, type, column, tmp, 0, o.q, opt);
      lsk__scratch_free(tmp, o.q);
    }
  }
  return lsk__lib_end(h->ctx, &o, rc, __func__);
}
