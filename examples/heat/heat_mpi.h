/*
 * heat_mpi.h: the heat example over MPI (lsk_mpi): the grid decomposed
 * over the ranks, each rank's box on its device, the halo exchanged every
 * step while the interior is computed (PIConGPU's core and border: begin
 * the exchange, the interior, end it, the rim).
 */
#ifndef LSK_HEAT_MPI_H
#define LSK_HEAT_MPI_H

#include "heat.h"
#include "lsk/mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_heat_run {
  size_t gx, gy; /* the grid */
  unsigned steps;
  uint64_t seed;
  float alpha;       /* 0: 0.2 */
  unsigned parts[2]; /* ranks along x and y; 0, 0: MPI_Dims_create */
} lsk_heat_run;

typedef struct lsk_heat_result {
  uint64_t checksum; /* lsk_heat_checksum of the final grid (every rank) */
  double seconds;    /* steps 1 to S - 1 (step 0 builds the kernels), from a
                      * barrier to the slowest rank's end; 0 steps: 0 */
  unsigned timed;    /* the steps that time covers */
  size_t halo_bytes; /* this rank's bytes sent per step */
  unsigned parts[2]; /* the decomposition used */
} lsk_heat_result;

/*
 * lsk_heat_mpi_run: collective. The run on every rank of m; the final
 * grid gathered on rank 0 and hashed, the checksum broadcast. With
 * reference non-zero, rank 0 also runs lsk_heat_reference and fails
 * (LSK_EVERIFY, naming the first cell that differs) unless every float is
 * equal. A failure on any rank is every rank's (lsk_mpi_agree).
 */
int lsk_heat_mpi_run(lsk_mpi *m, const lsk_heat_run *run, int reference,
                     lsk_heat_result *out /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* LSK_HEAT_MPI_H */
