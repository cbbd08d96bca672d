/*
 * mpi_grid_internal.h: the grid's state, shared by mpi_grid.c and
 * mpi_halo.c.
 */
#ifndef LSK_MPI_GRID_INTERNAL_H
#define LSK_MPI_GRID_INTERNAL_H

#include "mpi_internal.h"

struct lsk_mpi_grid {
  lsk_handle h;
  lsk_mpi *m;
  MPI_Comm cart; /* the Cartesian communicator (ranks as in m's) */
  unsigned dims, guard, parts[3], coord[3];
  size_t global[3];
  int periodic[3];
  lsk_grid_box box; /* this rank's */
  lsk_halo *halo;
  int nb[LSK_HALO_MAX_DIRS]; /* neighbour per direction (MPI_PROC_NULL: none) */
};

extern const lsk_handle_type lsk__mpi_grid_type;

#endif
