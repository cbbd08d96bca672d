/*
 * heat_mpi.c: the heat example over MPI (heat_mpi.h). A failing rank goes
 * on calling the exchange every step (lsk_mpi's halo completes its
 * messages whatever happened locally), skipping its kernels, and the
 * ranks agree once at the end: no rank waits for one that stopped.
 */
#include <stdlib.h>
#include <string.h>

#include "heat_mpi.h"

/* The grid on rank 0, compared with the C reference there. */
static int verify(lsk_context *ctx, const lsk_heat_run *run, const float *got)
{
  size_t n = run->gx * run->gy;
  float *want = malloc(n * sizeof *want);
  if (!want)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "lsk_heat_mpi_run: out of host memory");
  for (size_t y = 0; y < run->gy; ++y)
    for (size_t x = 0; x < run->gx; ++x)
      want[y * run->gx + x] = lsk_heat_initial(run->seed, x, y);
  int rc = lsk_heat_reference(run->gx, run->gy, run->alpha ? run->alpha : 0.2f, run->steps, want);
  for (size_t i = 0; !rc && i < n; ++i)
    if (memcmp(&got[i], &want[i], sizeof *got))
      rc = lsk_context_set_error(ctx, LSK_EVERIFY,
                                 "lsk_heat_mpi_run: cell (%zu, %zu) is %.9g, the C reference %.9g",
                                 i % run->gx, i / run->gx, (double)got[i], (double)want[i]);
  free(want);
  return rc;
}

int lsk_heat_mpi_run(lsk_mpi *m, const lsk_heat_run *run, int reference, lsk_heat_result *out)
{
  lsk_context *ctx = lsk_mpi_context(m);
  if (!ctx || !run || !out)
    return lsk_context_set_error(ctx, LSK_EINVAL, "lsk_heat_mpi_run: %s is NULL",
                                 !ctx   ? "m"
                                 : !run ? "run"
                                        : "out");
  memset(out, 0, sizeof *out);
  lsk_mpi_grid_options go = {.dims = 2,
                             .global = {run->gx, run->gy},
                             .guard = 1,
                             .periodic = {1, 0},
                             .parts = {run->parts[0], run->parts[1]}};
  lsk_mpi_grid *g = NULL;
  int rc = lsk_mpi_grid_create(m, &go, &g);
  if (rc)
    return rc; /* agreed */
  unsigned parts[3];
  lsk_mpi_grid_parts(g, parts, NULL);
  out->parts[0] = parts[0];
  out->parts[1] = parts[1];
  lsk_heat *h = NULL;
  lsk_mpi_halo *x = NULL;
  lsk_heat_options ho = {.alpha = run->alpha, .seed = run->seed};
  rc = lsk_heat_create(ctx, lsk_mpi_grid_box(g), &ho, &h);
  lsk_type t = LSK_TYPE_FLOAT;
  if (!rc)
    rc = lsk_mpi_halo_create(g, &t, 1, &x);
  if ((rc = lsk_mpi_agree(m, rc)))
    goto done;
  out->halo_bytes = lsk_mpi_halo_bytes(x);
  /* Step 0 builds the kernels: the time counts the steps after it. */
  double t0 = 0;
  for (unsigned s = 0; s < run->steps; ++s) {
    if (s == 1 || run->steps == 1) {
      if (!rc)
        rc = lsk_context_finish(ctx);
      MPI_Barrier(lsk_mpi_comm(m));
      t0 = MPI_Wtime();
    }
    lsk_buffer *field = lsk_heat_field(h);
    int brc = lsk_mpi_halo_begin(x, &field, NULL);
    if (!rc)
      rc = brc;
    if (!rc)
      rc = lsk_heat_interior(h);
    int erc = lsk_mpi_halo_end(x, NULL);
    if (!rc)
      rc = erc;
    if (!rc)
      rc = lsk_heat_rim(h);
  }
  if (!rc)
    rc = lsk_context_finish(ctx);
  double span = run->steps ? MPI_Wtime() - t0 : 0;
  MPI_Allreduce(&span, &out->seconds, 1, MPI_DOUBLE, MPI_MAX, lsk_mpi_comm(m));
  out->timed = run->steps > 1 ? run->steps - 1 : run->steps;
  if ((rc = lsk_mpi_agree(m, rc)))
    goto done;
  {
    float *all = NULL;
    if (lsk_mpi_rank(m) == 0 && !(all = malloc(run->gx * run->gy * sizeof *all)))
      rc = lsk_context_set_error(ctx, LSK_ENOMEM, "lsk_heat_mpi_run: out of host memory");
    if ((rc = lsk_mpi_agree(m, rc)) == 0)
      rc = lsk_mpi_grid_gather(g, LSK_TYPE_FLOAT, lsk_heat_field(h), 0, all,
                               all ? run->gx * run->gy * sizeof *all : 0, NULL);
    if (!rc && lsk_mpi_rank(m) == 0) {
      out->checksum = lsk_heat_checksum(all, run->gx * run->gy);
      if (reference)
        rc = verify(ctx, run, all);
    }
    free(all);
    if (!(rc = lsk_mpi_agree(m, rc)))
      MPI_Bcast(&out->checksum, 1, MPI_UINT64_T, 0, lsk_mpi_comm(m));
  }
done:
  lsk_mpi_halo_destroy(x);
  lsk_heat_destroy(h);
  lsk_mpi_grid_destroy(g);
  return rc;
}
