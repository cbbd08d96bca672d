/*
 * mpi_halo.c: lsk_mpi_halo, the guard exchange between ranks: pack on the
 * device (lsk_halo_pack), one read to pinned memory, MPI_Isend/Irecv per
 * REMOTE direction and column, one write from pinned memory, unpack on
 * the device. A message's tag is its column and the direction it travels
 * in as the sender sees it, so two messages between the same pair of ranks
 * (both neighbours along a periodic axis of two ranks) never mix up.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_grid_internal.h"

/* Directions per column in a tag: above LSK_HALO_MAX_DIRS. */
#define TAG_DIRS 32

struct lsk_mpi_halo {
  lsk_handle h;
  lsk_mpi_grid *g;
  lsk_context *ctx;
  size_t ncol;
  lsk_type *types;
  size_t *off; /* each column's first byte in the packed forms (8-aligned) */
  size_t bytes, remote_bytes;
  lsk_buffer *send_dev, *recv_dev;
  lsk_pinned *send_host, *recv_host;
  lsk_buffer **cols; /* begin's, until end */
  lsk_queue *q;      /* begin's queue */
  int begun, status; /* between begin and end: begin's local status */
  lsk_event *read_ev, *write_ev;
  MPI_Request *req;
  int nreq;
};
static const lsk_handle_type lsk__mpi_halo_type = {"lsk_mpi_halo", NULL, 0};

void lsk_mpi_halo_destroy(lsk_mpi_halo *h)
{
  if (!h || lsk_handle_remove(h, &lsk__mpi_halo_type, __func__))
    return;
  if (h->read_ev)
    lsk_event_release(h->read_ev);
  if (h->write_ev) {
    lsk_event_wait(h->write_ev);
    lsk_event_release(h->write_ev);
  }
  lsk_buffer_destroy(h->send_dev);
  lsk_buffer_destroy(h->recv_dev);
  lsk_pinned_destroy(h->send_host);
  lsk_pinned_destroy(h->recv_host);
  free(h->types);
  free(h->off);
  free(h->cols);
  free(h->req);
  free(h);
}

int lsk_mpi_halo_create(lsk_mpi_grid *g, const lsk_type *types, size_t ncolumns, lsk_mpi_halo **out)
{
  if (out)
    *out = NULL;
  int rc = lsk_handle_check(NULL, g, &lsk__mpi_grid_type, __func__, "g");
  if (rc)
    return rc;
  lsk_context *ctx = g->m->ctx;
  if (!types || !out)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: %s is NULL", __func__, !types ? "types" : "out");
  if (ncolumns == 0 || ncolumns > 1000)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: ncolumns %zu is not 1 to 1000", __func__, ncolumns);
  for (size_t c = 0; c < ncolumns; ++c)
    if (!lsk_type_size(types[c]))
      return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: types[%zu] %d is not an lsk_type", __func__, c,
                           (int)types[c]);
  lsk_mpi_halo *h = calloc(1, sizeof *h);
  if (!h)
    return lsk__mpi_fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  h->g = g;
  h->ctx = ctx;
  h->ncol = ncolumns;
  unsigned nd = lsk_halo_dirs(g->halo);
  h->types = malloc(ncolumns * sizeof *h->types);
  h->off = malloc(ncolumns * sizeof *h->off);
  h->cols = calloc(ncolumns, sizeof *h->cols);
  h->req = malloc(2 * nd * ncolumns * sizeof *h->req);
  if (!h->types || !h->off || !h->cols || !h->req) {
    free(h->types), free(h->off), free(h->cols), free(h->req), free(h);
    return lsk__mpi_fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  memcpy(h->types, types, ncolumns * sizeof *types);
  size_t total = lsk_halo_total(g->halo);
  for (size_t c = 0; c < ncolumns; ++c) {
    size_t es = lsk_type_size(types[c]);
    h->off[c] = h->bytes;
    h->bytes = (h->bytes + total * es + 7) & ~(size_t)7;
    for (unsigned i = 0; i < nd; ++i)
      if (lsk_halo_kind_of(g->halo, i) == LSK_HALO_REMOTE)
        h->remote_bytes += lsk_halo_cells(g->halo, i) * es;
  }
  size_t b = h->bytes ? h->bytes : 8;
  if ((rc = lsk_handle_add(h, &lsk__mpi_halo_type, NULL))) {
    free(h->types), free(h->off), free(h->cols), free(h->req), free(h);
    return rc;
  }
  if (!(rc = lsk_buffer_create(ctx, b, &h->send_dev)) &&
      !(rc = lsk_buffer_create(ctx, b, &h->recv_dev)) &&
      !(rc = lsk_pinned_create(ctx, b, &h->send_host)))
    rc = lsk_pinned_create(ctx, b, &h->recv_host);
  if (rc) {
    lsk_mpi_halo_destroy(h);
    return lsk__mpi_return(ctx, rc);
  }
  *out = h;
  return LSK_OK;
}

size_t lsk_mpi_halo_bytes(const lsk_mpi_halo *h)
{
  if (!h || lsk_handle_check(NULL, h, &lsk__mpi_halo_type, __func__, "h"))
    return 0;
  return h->remote_bytes;
}

/* The device side of begin: packs, wraps, the read; the first command
 * after on's wait list. */
static int begin_device(lsk_mpi_halo *h, lsk_buffer *const *columns, const lsk_async *on)
{
  lsk_halo *halo = h->g->halo;
  lsk_async first = {
      .queue = on ? on->queue : NULL, .wait = on ? on->wait : NULL, .nwait = on ? on->nwait : 0};
  lsk_async later = {.queue = first.queue};
  int rc = LSK_OK;
  for (size_t c = 0; c < h->ncol && !rc; ++c) {
    size_t es = lsk_type_size(h->types[c]);
    rc = lsk_halo_pack(halo, h->types[c], columns[c], h->send_dev, h->off[c] / es, NULL,
                       c == 0 ? &first : &later);
    if (!rc)
      rc = lsk_halo_wrap(halo, h->types[c], h->send_dev, h->off[c] / es, columns[c], NULL, &later);
  }
  /* No REMOTE direction (one rank along every periodic axis): nothing
   * to read, send or write. */
  lsk_async rd = {.queue = first.queue, .event = &h->read_ev, .flags = LSK_ASYNC_NONBLOCKING};
  if (!rc && h->remote_bytes)
    rc = lsk_buffer_read(h->send_dev, 0, lsk_pinned_ptr(h->send_host), h->bytes, &rd);
  if (!rc)
    rc = first.queue ? lsk_queue_flush(first.queue) : LSK_OK;
  return rc;
}

int lsk_mpi_halo_begin(lsk_mpi_halo *h, lsk_buffer *const *columns, const lsk_async *on)
{
  int rc = lsk_handle_check(NULL, h, &lsk__mpi_halo_type, __func__, "h");
  if (rc)
    return rc;
  if (h->begun)
    return lsk__mpi_fail(h->ctx, LSK_EINVAL, "%s: begun already (lsk_mpi_halo_end first)",
                         __func__);
  if (on && on->event)
    *on->event = NULL;
  if (!columns)
    rc = lsk__mpi_fail(h->ctx, LSK_EINVAL, "%s: columns is NULL", __func__);
  for (size_t c = 0; !rc && c < h->ncol; ++c)
    if (!columns[c])
      rc = lsk__mpi_fail(h->ctx, LSK_EINVAL, "%s: columns[%zu] is NULL", __func__, c);
  /* The last exchange's write from recv_host must be done before MPI
   * writes there again. */
  if (h->write_ev) {
    int wrc = lsk_event_wait(h->write_ev);
    lsk_event_release(h->write_ev);
    h->write_ev = NULL;
    rc = rc ? rc : wrc;
  }
  if (!rc) {
    memcpy(h->cols, columns, h->ncol * sizeof *columns);
    h->q = on ? on->queue : NULL;
    rc = begin_device(h, columns, on);
  }
  /* The receives are posted whatever happened here, so that neighbours
   * that send are matched; end sends in any case. */
  lsk_halo *halo = h->g->halo;
  unsigned nd = lsk_halo_dirs(halo);
  unsigned char *recv = lsk_pinned_ptr(h->recv_host);
  h->nreq = 0;
  for (size_t c = 0; c < h->ncol; ++c) {
    size_t es = lsk_type_size(h->types[c]);
    for (unsigned i = 0; i < nd; ++i) {
      if (lsk_halo_kind_of(halo, i) != LSK_HALO_REMOTE)
        continue;
      int mrc = MPI_Irecv(recv + h->off[c] + lsk_halo_offset(halo, i) * es,
                          (int)(lsk_halo_cells(halo, i) * es), MPI_BYTE, h->g->nb[i],
                          (int)(c * TAG_DIRS + (nd - 1 - i)), h->g->cart, &h->req[h->nreq++]);
      if (mrc != MPI_SUCCESS && !rc)
        rc = lsk__mpi_check(h->ctx, mrc, __func__, "MPI_Irecv");
    }
  }
  h->begun = 1;
  h->status = rc;
  return lsk__mpi_return(h->ctx, rc);
}

int lsk_mpi_halo_end(lsk_mpi_halo *h, const lsk_async *on)
{
  int rc = lsk_handle_check(NULL, h, &lsk__mpi_halo_type, __func__, "h");
  if (rc)
    return rc;
  if (!h->begun)
    return lsk__mpi_fail(h->ctx, LSK_EINVAL, "%s: no lsk_mpi_halo_begin before it", __func__);
  if (on && on->event)
    *on->event = NULL;
  h->begun = 0;
  rc = h->status;
  if (h->read_ev) {
    int erc = lsk_event_wait(h->read_ev);
    lsk_event_release(h->read_ev);
    h->read_ev = NULL;
    rc = rc ? rc : erc;
  }
  lsk_halo *halo = h->g->halo;
  unsigned nd = lsk_halo_dirs(halo);
  const unsigned char *send = lsk_pinned_ptr(h->send_host);
  for (size_t c = 0; c < h->ncol; ++c) {
    size_t es = lsk_type_size(h->types[c]);
    for (unsigned i = 0; i < nd; ++i) {
      if (lsk_halo_kind_of(halo, i) != LSK_HALO_REMOTE)
        continue;
      int mrc = MPI_Isend(send + h->off[c] + lsk_halo_offset(halo, i) * es,
                          (int)(lsk_halo_cells(halo, i) * es), MPI_BYTE, h->g->nb[i],
                          (int)(c * TAG_DIRS + i), h->g->cart, &h->req[h->nreq++]);
      if (mrc != MPI_SUCCESS && !rc)
        rc = lsk__mpi_check(h->ctx, mrc, __func__, "MPI_Isend");
    }
  }
  int mrc = MPI_Waitall(h->nreq, h->req, MPI_STATUSES_IGNORE);
  h->nreq = 0;
  if (mrc != MPI_SUCCESS && !rc)
    rc = lsk__mpi_check(h->ctx, mrc, __func__, "MPI_Waitall");
  if (rc)
    return rc;
  if (on && on->queue != h->q)
    return lsk__mpi_fail(h->ctx, LSK_EINVAL, "%s: on->queue is not begin's queue", __func__);
  if (!h->remote_bytes) /* nothing arrived: the event (if asked) marks the queue */
    return on && on->event
               ? lsk_queue_marker(&(lsk_async){
                     .queue = h->q, .wait = on->wait, .nwait = on->nwait, .event = on->event})
               : LSK_OK;
  /* What arrived, to the device and into the guards; the write's event
   * guards recv_host until the next begin. */
  lsk_async w = {.queue = h->q,
                 .wait = on ? on->wait : NULL,
                 .nwait = on ? on->nwait : 0,
                 .event = &h->write_ev,
                 .flags = LSK_ASYNC_NONBLOCKING};
  rc = lsk_buffer_write(h->recv_dev, 0, lsk_pinned_ptr(h->recv_host), h->bytes, &w);
  lsk_async later = {.queue = h->q};
  for (size_t c = 0; c < h->ncol && !rc; ++c) {
    size_t es = lsk_type_size(h->types[c]);
    lsk_async last = {.queue = h->q, .event = on ? on->event : NULL};
    rc = lsk_halo_unpack(halo, h->types[c], h->recv_dev, h->off[c] / es, h->cols[c], NULL,
                         c + 1 == h->ncol ? &last : &later);
  }
  return rc;
}

int lsk_mpi_halo_exchange(lsk_mpi_halo *h, lsk_buffer *const *columns, const lsk_async *on)
{
  lsk_async first = {
      .queue = on ? on->queue : NULL, .wait = on ? on->wait : NULL, .nwait = on ? on->nwait : 0};
  lsk_async last = {.queue = first.queue, .event = on ? on->event : NULL};
  int rc = lsk_handle_check(NULL, h, &lsk__mpi_halo_type, __func__, "h");
  if (rc)
    return rc;
  if (h->begun)
    return lsk__mpi_fail(h->ctx, LSK_EINVAL, "%s: begun already", __func__);
  rc = lsk_mpi_halo_begin(h, columns, &first);
  int erc = lsk_mpi_halo_end(h, &last); /* begun: it always ends */
  return lsk__mpi_return(h->ctx, rc ? rc : erc);
}
