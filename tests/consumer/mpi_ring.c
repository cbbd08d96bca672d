/*
 * mpi_ring.c: a program outside lsk on the installed lsk_mpi component: a
 * rank per device, a 1-D periodic grid over the ranks, one halo exchange
 * of a column whose cells hold their global index, checked; prints "ok".
 */
#include <stdio.h>
#include <stdlib.h>

#include <lsk/mpi.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  lsk_mpi *m = NULL;
  lsk_mpi_grid *g = NULL;
  lsk_mpi_halo *h = NULL;
  lsk_buffer *col = NULL;
  int rc = lsk_mpi_create(NULL, &m), bad = 0;
  lsk_mpi_grid_options o = {.dims = 1, .global = {64}, .guard = 1, .periodic = {1}};
  if (!rc)
    rc = lsk_mpi_grid_create(m, &o, &g);
  const lsk_grid_box *b = g ? lsk_mpi_grid_box(g) : NULL;
  size_t n = b ? lsk_grid_box_storage(b, NULL) : 0;
  unsigned *v = calloc(n ? n : 1, sizeof *v);
  for (size_t i = 0; b && i < b->extent[0]; ++i)
    v[i + 1] = (unsigned)(b->offset[0] + i);
  lsk_type t = LSK_TYPE_UINT;
  if (!rc)
    rc = lsk_buffer_create(lsk_mpi_context(m), n * sizeof *v, &col);
  if (!rc)
    rc = lsk_buffer_write(col, 0, v, n * sizeof *v, NULL);
  if (!rc)
    rc = lsk_mpi_halo_create(g, &t, 1, &h);
  if (!rc)
    rc = lsk_mpi_halo_exchange(h, &col, NULL);
  if (!rc)
    rc = lsk_buffer_read(col, 0, v, n * sizeof *v, NULL);
  if (!rc)
    bad = v[0] != (unsigned)((b->offset[0] + 63) % 64) ||
          v[n - 1] != (unsigned)((b->offset[0] + b->extent[0]) % 64);
  rc = m ? lsk_mpi_agree(m, rc ? rc : bad ? LSK_EVERIFY : 0) : rc;
  if (m && lsk_mpi_rank(m) == 0)
    printf("%s\n", rc ? lsk_context_errmsg(lsk_mpi_context(m)) : "ok");
  free(v);
  lsk_mpi_halo_destroy(h);
  lsk_buffer_destroy(col);
  lsk_mpi_grid_destroy(g);
  lsk_mpi_destroy(m);
  MPI_Finalize();
  return rc ? 1 : 0;
}
