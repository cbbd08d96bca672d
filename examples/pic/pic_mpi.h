/*
 * pic_mpi.h: the particle-in-cell binning example over MPI (lsk_mpi): the
 * grid decomposed over the ranks in 2-D, each rank holding its box's
 * cells as a window (lsk_pic_options x0, y0, wx, wy) on its device; the
 * particles that a step takes out of a rank's window migrate to the ranks
 * that own their new cells, counts first, then the payload. The state is
 * the same as one pic of the whole grid (`lsk demo pic`) after every step,
 * for any number of ranks: the final checksum says so.
 */
#ifndef LSK_PIC_MPI_H
#define LSK_PIC_MPI_H

#include "lsk/mpi.h"
#include "pic.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The run: the same on every rank. Zeros mean the defaults where said. */
typedef struct lsk_pic_mpi_options {
  unsigned gx, gy;      /* the periodic grid, in cells (each axis at least its ranks) */
  size_t particles;     /* ids 1..particles (lsk_pic_generate), at most 2^31 - 1 */
  unsigned steps;       /* steps (0: none; the initial state is checked and hashed) */
  uint64_t seed;        /* of lsk_pic_generate */
  unsigned frame_size;  /* particles per frame; 0: 128 */
  unsigned parts[2];    /* ranks along x and y; 0, 0: MPI_Dims_create (lsk_mpi) */
  unsigned check_every; /* the global invariants every K steps and after the
                         * last; 0: every step */
  int reference;        /* non-zero: rank 0 also runs the plain C reference
                         * (lsk_pic_reference_step) on all the particles and
                         * compares the final state, particle by particle */
  /* For tests: rank fail_rank fails (LSK_EVERIFY) in step fail_step
   * (1-based; 0: never), as a local failure does; every rank must then
   * end with its message. */
  int fail_rank;
  unsigned fail_step;
} lsk_pic_mpi_options;

typedef struct lsk_pic_mpi_result {
  uint64_t checksum; /* lsk_pic_checksum of the final state (every rank) */
  double seconds;    /* steps 2 to S (step 1 builds the kernels), from a
                      * barrier to the slowest rank's end; checks included */
  unsigned timed;    /* the steps that time covers */
  uint64_t migrated; /* particles that changed rank, all steps, all ranks
                      * (the initial routing not counted) */
  uint64_t most;     /* the most one rank sent in one step */
  uint64_t far;      /* of those, the ones that went past the next rank
                      * along an axis (to a rank not adjacent to theirs) */
  unsigned parts[2]; /* the decomposition used */
} lsk_pic_mpi_result;

/*
 * lsk_pic_mpi_run: collective. The run on every rank of m:
 *  - the decomposition: lsk_mpi_grid_create (2-D, periodic, guard 0);
 *    each rank's box is its pic's window;
 *  - the initial particles: each rank draws an equal share of the ids
 *    (lsk_pic_generate: the particles do not depend on who draws them) and
 *    routes them to their owners as the steps do;
 *  - each step: lsk_pic_step, lsk_pic_take (count, then payload), the
 *    migration (MPI_Alltoall of the counts, then MPI_Alltoallv of the
 *    particles, to the owner of each particle's cell by the decomposition:
 *    a particle up to two cells fast may pass a rank one cell wide), and
 *    lsk_pic_put; checked steps then test the invariants globally: the
 *    particle count and two id checksums (sum, and xor of a hash) summed
 *    over the ranks (MPI_Allreduce) equal the initial ones, every
 *    particle lies in its rank's window and in the cell its position
 *    says, each rank holds what it was given less what it sent;
 *  - the end: every particle gathered on rank 0 (MPI_Gatherv), ids
 *    checked 1..particles, hashed (lsk_pic_checksum), the checksum
 *    broadcast; with opt->reference, compared with the C reference there.
 * A failure on any rank is every rank's: the ranks agree (lsk_mpi_agree)
 * after each step and each phase; a failed rank's message is on every
 * rank's context. Errors: LSK_EINVAL (NULL, bad options), LSK_EVERIFY (an
 * invariant broken, naming the step, rank and particle), LSK_ECOMM,
 * LSK_ENOMEM, lsk_pic's errors.
 */
int lsk_pic_mpi_run(lsk_mpi *m, const lsk_pic_mpi_options *opt, lsk_pic_mpi_result *out /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* LSK_PIC_MPI_H */
