/*
 * mpi_grid.c: lsk_mpi_grid (a Cartesian decomposition, checked on all
 * ranks together) and lsk_mpi_grid_gather.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_grid_internal.h"

const lsk_handle_type lsk__mpi_grid_type = {"lsk_mpi_grid", NULL, 0};

/* The options as numbers every rank compares (min and max over ranks). */
enum {
  F_DIMS,
  F_GUARD,
  F_GLOBAL,
  F_PERIODIC = F_GLOBAL + 3,
  F_PARTS = F_PERIODIC + 3,
  F_COUNT = F_PARTS + 3
};
static const char *const field_name[F_COUNT] = {
    "dims",        "guard",       "global[0]", "global[1]", "global[2]", "periodic[0]",
    "periodic[1]", "periodic[2]", "parts[0]",  "parts[1]",  "parts[2]"};

/* Every rank compares its options with the others' (a rank with NULL
 * options, rc already set, takes part with zeros), then all agree on one
 * status: the first rank's failure, or a disagreement, fails them all. */
static int agree_options(lsk_mpi *m, const lsk_mpi_grid_options *o, int rc, const char *fn)
{
  unsigned dims = o->dims >= 1 && o->dims <= 3 ? o->dims : 3;
  long long f[2 * F_COUNT], r[2 * F_COUNT];
  f[F_DIMS] = o->dims;
  f[F_GUARD] = o->guard;
  for (unsigned a = 0; a < 3; ++a) {
    int used = a < dims;
    f[F_GLOBAL + a] = used ? (long long)o->global[a] : 0;
    f[F_PERIODIC + a] = used ? o->periodic[a] != 0 : 0;
    f[F_PARTS + a] = used ? o->parts[a] : 0;
  }
  for (int i = 0; i < F_COUNT; ++i)
    f[F_COUNT + i] = -f[i]; /* max as the min of the negation */
  int mrc = MPI_Allreduce(f, r, 2 * F_COUNT, MPI_LONG_LONG, MPI_MIN, m->comm);
  if (mrc != MPI_SUCCESS)
    return lsk__mpi_agree(m, lsk__mpi_check(m->ctx, mrc, fn, "MPI_Allreduce"), fn);
  for (int i = 0; i < F_COUNT && !rc; ++i)
    if (r[i] != -r[F_COUNT + i])
      rc = lsk__mpi_fail(m->ctx, LSK_EINVAL, "%s: the ranks disagree on %s (from %lld to %lld)", fn,
                         field_name[i], r[i], -r[F_COUNT + i]);
  return lsk__mpi_agree(m, rc, fn);
}

/* The ranks per axis: the options' parts, else MPI_Dims_create's, the
 * larger count along the longer axis. The options are the same on every
 * rank here: every rank reaches the same verdict on them. */
static int choose_parts(lsk_mpi *m, const lsk_mpi_grid_options *o, int parts[3], const char *fn)
{
  lsk_context *ctx = m->ctx;
  if (o->dims < 1 || o->dims > 3)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: dims %u is not 1, 2 or 3", fn, o->dims);
  unsigned dims = o->dims;
  int given = 0;
  for (unsigned a = 0; a < 3; ++a) {
    parts[a] = a < dims ? (int)o->parts[a] : 1;
    given |= a < dims && o->parts[a] != 0;
  }
  long long product = 1;
  for (unsigned a = 0; a < dims; ++a)
    product *= given ? o->parts[a] : 1;
  if (given && product != m->size)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: parts %u x %u x %u make %lld ranks, not the %d", fn,
                         o->parts[0], dims > 1 ? o->parts[1] : 1, dims > 2 ? o->parts[2] : 1,
                         product, m->size);
  int rc;
  if (!given &&
      (rc = lsk__mpi_check(ctx, MPI_Dims_create(m->size, (int)dims, parts), fn, "MPI_Dims_create")))
    return lsk__mpi_agree(m, rc, fn);
  /* MPI orders the extents from largest to smallest; a grid longer in
   * y than in x gets the larger count along y. */
  if (!given)
    for (unsigned a = 0; a + 1 < dims; ++a)
      for (unsigned b = a + 1; b < dims; ++b)
        if (o->global[b] > o->global[a] && parts[b] < parts[a]) {
          int t = parts[a];
          parts[a] = parts[b];
          parts[b] = t;
        }
  for (unsigned a = 0; a < dims; ++a)
    if (o->global[a] < (size_t)parts[a])
      return lsk__mpi_fail(ctx, LSK_EINVAL,
                           "%s: axis %u has %zu cells for %d ranks: each needs at least one", fn, a,
                           o->global[a], parts[a]);
  return LSK_OK;
}

/* The neighbour of this rank in each direction of g's halo. */
static int neighbours(lsk_mpi_grid *g, const char *fn)
{
  int rc = LSK_OK;
  for (unsigned i = 0; !rc && i < lsk_halo_dirs(g->halo); ++i) {
    int d[3];
    lsk_halo_dir(g->halo, i, d);
    lsk_halo_kind k = lsk_halo_kind_of(g->halo, i);
    g->nb[i] = k == LSK_HALO_NONE ? MPI_PROC_NULL : g->m->rank;
    if (k == LSK_HALO_REMOTE) {
      int nc[3];
      for (unsigned a = 0; a < g->dims; ++a)
        nc[a] = (int)((g->coord[a] + g->parts[a] + (unsigned)d[a]) % g->parts[a]);
      rc = lsk__mpi_check(g->m->ctx, MPI_Cart_rank(g->cart, nc, &g->nb[i]), fn, "MPI_Cart_rank");
    }
  }
  return rc;
}

/* g (zeroed) for the options and parts: the Cartesian communicator, this
 * rank's coordinates and box, its halo and neighbours. */
static int place(lsk_mpi_grid *g, lsk_mpi *m, const lsk_mpi_grid_options *o, int parts[3],
                 const char *fn)
{
  lsk_context *ctx = m->ctx;
  unsigned dims = o->dims;
  g->m = m;
  g->cart = MPI_COMM_NULL;
  g->dims = dims;
  int periods[3];
  for (unsigned a = 0; a < 3; ++a) {
    g->parts[a] = (unsigned)parts[a];
    periods[a] = a < dims && o->periodic[a] != 0;
    g->global[a] = a < dims ? o->global[a] : 1;
    g->periodic[a] = periods[a];
  }
  g->guard = o->guard;
  int rc = lsk__mpi_check(ctx, MPI_Cart_create(m->comm, (int)dims, parts, periods, 0, &g->cart), fn,
                          "MPI_Cart_create");
  int c[3] = {0, 0, 0};
  if (!rc)
    rc =
        lsk__mpi_check(ctx, MPI_Cart_coords(g->cart, m->rank, (int)dims, c), fn, "MPI_Cart_coords");
  for (unsigned a = 0; a < 3; ++a)
    g->coord[a] = (unsigned)c[a];
  if (!rc && lsk_grid_split(dims, g->global, g->parts, g->coord, g->guard, g->periodic, &g->box))
    rc = lsk__mpi_fail(ctx, LSK_EINVAL, "%s: %s", fn, lsk_context_errmsg(NULL));
  if (!rc)
    rc = lsk_halo_create(ctx, &g->box, &g->halo);
  return rc ? rc : neighbours(g, fn);
}

int lsk_mpi_grid_create(lsk_mpi *m, const lsk_mpi_grid_options *opt, lsk_mpi_grid **out)
{
  if (out)
    *out = NULL;
  int rc = lsk_handle_check(NULL, m, &lsk__mpi_type, __func__, "m");
  if (rc)
    return rc;
  if (!opt || !out)
    rc = lsk__mpi_fail(m->ctx, LSK_EINVAL, "%s: %s is NULL", __func__, !opt ? "opt" : "out");
  lsk_mpi_grid_options o = opt ? *opt : (lsk_mpi_grid_options){0};
  int parts[3];
  if ((rc = agree_options(m, &o, rc, __func__)) || (rc = choose_parts(m, &o, parts, __func__)))
    return rc;
  lsk_mpi_grid *g = calloc(1, sizeof *g);
  if (!g)
    rc = lsk__mpi_fail(m->ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  if ((rc = lsk__mpi_agree(m, rc, __func__))) {
    free(g); /* another rank's failure */
    return rc;
  }
  rc = place(g, m, &o, parts, __func__);
  int added = !rc && !(rc = lsk_handle_add(g, &lsk__mpi_grid_type, NULL));
  if ((rc = lsk__mpi_agree(m, rc, __func__))) {
    lsk_halo_destroy(g->halo);
    if (g->cart != MPI_COMM_NULL)
      MPI_Comm_free(&g->cart);
    if (added) /* a check of g here would replace the message */
      lsk_handle_remove(g, &lsk__mpi_grid_type, __func__);
    free(g);
    return lsk__mpi_return(m->ctx, rc);
  }
  *out = g;
  return LSK_OK;
}

void lsk_mpi_grid_destroy(lsk_mpi_grid *g)
{
  if (!g || lsk_handle_remove(g, &lsk__mpi_grid_type, __func__))
    return;
  lsk_halo_destroy(g->halo);
  MPI_Comm_free(&g->cart);
  free(g);
}

#define GRID_OR(val, g, fn)                                                                        \
  do {                                                                                             \
    if (!(g) || lsk_handle_check(NULL, (g), &lsk__mpi_grid_type, (fn), "g"))                       \
      return val;                                                                                  \
  } while (0)

const lsk_grid_box *lsk_mpi_grid_box(const lsk_mpi_grid *g)
{
  GRID_OR(NULL, g, __func__);
  return &g->box;
}

lsk_halo *lsk_mpi_grid_halo(const lsk_mpi_grid *g)
{
  GRID_OR(NULL, g, __func__);
  return g->halo;
}

int lsk_mpi_grid_parts(const lsk_mpi_grid *g, unsigned parts[3], unsigned coord[3])
{
  int rc = lsk_handle_check(NULL, g, &lsk__mpi_grid_type, __func__, "g");
  if (rc)
    return rc;
  if (!parts && !coord)
    return lsk__mpi_fail(g->m->ctx, LSK_EINVAL, "%s: parts and coord are both NULL", __func__);
  for (unsigned a = 0; a < 3; ++a) {
    if (parts)
      parts[a] = g->parts[a];
    if (coord)
      coord[a] = g->coord[a];
  }
  return LSK_OK;
}

int lsk_mpi_grid_box_of(const lsk_mpi_grid *g, int rank, lsk_grid_box *out)
{
  int rc = lsk_handle_check(NULL, g, &lsk__mpi_grid_type, __func__, "g");
  if (rc)
    return rc;
  lsk_context *ctx = g->m->ctx;
  if (!out)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  if (rank < 0 || rank >= g->m->size)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: rank %d is not below %d", __func__, rank,
                         g->m->size);
  int c[3] = {0, 0, 0};
  if ((rc = lsk__mpi_check(ctx, MPI_Cart_coords(g->cart, rank, (int)g->dims, c), __func__,
                           "MPI_Cart_coords")))
    return rc;
  unsigned uc[3] = {(unsigned)c[0], (unsigned)c[1], (unsigned)c[2]};
  if (lsk_grid_split(g->dims, g->global, g->parts, uc, g->guard, g->periodic, out))
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: %s", __func__, lsk_context_errmsg(NULL));
  return LSK_OK;
}

int lsk_mpi_grid_owner(const lsk_mpi_grid *g, const size_t cell[3], int *rank)
{
  int rc = lsk_handle_check(NULL, g, &lsk__mpi_grid_type, __func__, "g");
  if (rc)
    return rc;
  lsk_context *ctx = g->m->ctx;
  if (!cell || !rank)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: %s is NULL", __func__, !cell ? "cell" : "rank");
  int c[3] = {0, 0, 0};
  for (unsigned a = 0; a < g->dims; ++a) {
    size_t G = g->global[a], P = g->parts[a], q = G / P, big = G % P;
    if (cell[a] >= G)
      return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: cell[%u] %zu is outside the grid's %zu", __func__,
                           a, cell[a], G);
    /* The first big parts have q + 1 cells. */
    size_t edge = big * (q + 1);
    c[a] = (int)(cell[a] < edge ? cell[a] / (q + 1) : big + (cell[a] - edge) / q);
  }
  return lsk__mpi_check(ctx, MPI_Cart_rank(g->cart, c, rank), __func__, "MPI_Cart_rank");
}

int lsk_mpi_grid_neighbor(const lsk_mpi_grid *g, unsigned i, int *rank)
{
  int rc = lsk_handle_check(NULL, g, &lsk__mpi_grid_type, __func__, "g");
  if (rc)
    return rc;
  unsigned nd = lsk_halo_dirs(g->halo);
  if (!rank || i >= nd)
    return lsk__mpi_fail(g->m->ctx, LSK_EINVAL,
                         !rank ? "%s: rank is NULL" : "%s: direction %u is not below %u", __func__,
                         i, nd);
  *rank = g->nb[i];
  return LSK_OK;
}

/* The own cells of box b in a column (storage layout) to dense, x
 * fastest, es bytes each. */
static void own_cells(const lsk_grid_box *b, size_t es, const unsigned char *col,
                      unsigned char *dense)
{
  for (size_t k = 0; k < b->extent[2]; ++k)
    for (size_t j = 0; j < b->extent[1]; ++j)
      memcpy(dense + (k * b->extent[1] + j) * b->extent[0] * es,
             col + lsk_grid_box_index(b, 0, j, k) * es, b->extent[0] * es);
}

int lsk_mpi_grid_gather(lsk_mpi_grid *g, lsk_type type, lsk_buffer *column, int root, void *out,
                        size_t out_bytes, const lsk_async *on)
{
  if (on && on->event)
    *on->event = NULL;
  int rc = lsk_handle_check(NULL, g, &lsk__mpi_grid_type, __func__, "g");
  if (rc)
    return rc;
  lsk_mpi *m = g->m;
  lsk_context *ctx = m->ctx;
  size_t es = lsk_type_size(type), storage = lsk_grid_box_storage(&g->box, NULL);
  size_t own = g->box.extent[0] * g->box.extent[1] * g->box.extent[2];
  size_t total = g->global[0] * g->global[1] * g->global[2];
  if (!es)
    rc = lsk__mpi_fail(ctx, LSK_EINVAL, "%s: type %d is not an lsk_type", __func__, (int)type);
  else if (root < 0 || root >= m->size)
    rc = lsk__mpi_fail(ctx, LSK_EINVAL, "%s: root %d is not below %d", __func__, root, m->size);
  else if (m->rank == root && !out)
    rc = lsk__mpi_fail(ctx, LSK_EINVAL, "%s: out is NULL on the root", __func__);
  else if (m->rank == root && out_bytes < total * es)
    rc = lsk__mpi_fail(ctx, LSK_EINVAL,
                       "%s: out_bytes %zu is less than the grid's %zu bytes (%zu elements of %zu)",
                       __func__, out_bytes, total * es, total, es);
  else if (!column || lsk_buffer_size(column) < storage * es)
    rc = lsk__mpi_fail(ctx, column ? LSK_ERANGE : LSK_EINVAL,
                       "%s: column %s (want %zu elements of %zu bytes)", __func__,
                       column ? "is too small" : "is NULL", storage, es);
  if (!es)
    es = 1;
  /* Every rank reads its own cells; the root receives every rank's. */
  unsigned char *col = rc ? NULL : malloc(storage * es), *mine = rc ? NULL : malloc(own * es);
  int *counts = NULL, *displs = NULL;
  unsigned char *all = NULL;
  if (!rc && (!col || !mine))
    rc = lsk__mpi_fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  if (!rc && m->rank == root) {
    counts = malloc(sizeof *counts * (size_t)m->size);
    displs = malloc(sizeof *displs * (size_t)m->size);
    all = malloc(total * es);
    if (!counts || !displs || !all)
      rc = lsk__mpi_fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
    if (total * es > (size_t)1 << 31)
      rc = lsk__mpi_fail(ctx, LSK_ERANGE, "%s: the grid's %zu bytes pass MPI's int counts",
                         __func__, total * es);
  }
  if (!rc)
    rc = lsk_buffer_read(column, 0, col, storage * es, on);
  if (!rc)
    own_cells(&g->box, es, col, mine);
  if ((rc = lsk__mpi_agree(m, rc, __func__)))
    goto done;
  if (m->rank == root) {
    size_t at = 0;
    for (int r = 0; r < m->size && !rc; ++r) {
      lsk_grid_box b;
      rc = lsk_mpi_grid_box_of(g, r, &b);
      size_t n = b.extent[0] * b.extent[1] * b.extent[2] * es;
      counts[r] = (int)n;
      displs[r] = (int)at;
      at += n;
    }
  }
  rc = lsk__mpi_check(
      ctx,
      MPI_Gatherv(mine, (int)(own * es), MPI_BYTE, all, counts, displs, MPI_BYTE, root, g->cart),
      __func__, "MPI_Gatherv");
  if (!rc && m->rank == root) {
    size_t stride[2] = {g->global[0], g->global[0] * g->global[1]};
    for (int r = 0; r < m->size; ++r) {
      lsk_grid_box b;
      lsk_mpi_grid_box_of(g, r, &b);
      size_t base = b.offset[2] * stride[1] + b.offset[1] * stride[0] + b.offset[0];
      /* Rank r's dense block to its place in out. */
      unsigned char *blk = all + displs[r];
      for (size_t k = 0; k < b.extent[2]; ++k)
        for (size_t j = 0; j < b.extent[1]; ++j)
          memcpy((unsigned char *)out + (base + k * stride[1] + j * stride[0]) * es,
                 blk + (k * b.extent[1] + j) * b.extent[0] * es, b.extent[0] * es);
    }
  }
  rc = lsk__mpi_agree(m, rc, __func__);
done:
  free(col);
  free(mine);
  free(counts);
  free(displs);
  free(all);
  return rc;
}
