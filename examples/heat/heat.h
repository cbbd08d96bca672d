/*
 * heat.h: the heat-diffusion example: an explicit 5-point stencil on a
 * 2-D grid of gx x gy cells, periodic in x, held at 0 beyond the first and
 * last rows (the guard rows of a non-periodic axis, which the halo never
 * writes). The field lives in a box of the grid (grid.h) with guard 1:
 * the whole grid on one device (lsk_heat_step fills its own periodic
 * guards), or one rank's part under MPI (examples/heat/heat_mpi.h, where
 * the halo travels while the interior is computed).
 *
 * u' = u + alpha ((u_w + u_e) + (u_s + u_n) - 4 u), in float, in that
 * order, without fused multiply-adds on the device and in the C
 * reference, so every decomposition, every device and the reference agree
 * bit for bit: lsk_heat_checksum of the final grid is the same.
 *
 * Thread-safety: as for the context.
 */
#ifndef LSK_HEAT_H
#define LSK_HEAT_H

#include <stdint.h>

#include "lsk/lsk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_heat lsk_heat;

/* All zeros means the defaults. */
typedef struct lsk_heat_options {
  float alpha;      /* diffusion number, 0 < alpha <= 0.25 (stable); 0: 0.2 */
  uint64_t seed;    /* the initial field (lsk_heat_initial); 0 is a seed */
  lsk_queue *queue; /* where the steps run; NULL: the default queue */
} lsk_heat_options;

/*
 * lsk_heat_create: the field of box (2-D, guard 1, periodic in x and not
 * in y: a box of lsk_grid_split or lsk_mpi_grid_box), set to the initial
 * field. Errors: LSK_EINVAL (NULL, a box of another shape, alpha out of
 * range), LSK_ENOMEM, LSK_EBUILD, OpenCL codes.
 */
int lsk_heat_create(lsk_context *ctx, const lsk_grid_box *box, const lsk_heat_options *opt,
                    lsk_heat **out /* OUT */);
void lsk_heat_destroy(lsk_heat *h);

/* The current field: a column of the box (floats, guards included). */
lsk_buffer *lsk_heat_field(const lsk_heat *h);

/* The two halves of a step, enqueued on the heat's queue: the interior
 * (cells that read no guard), then, once the guards are current, the rim;
 * the rim swaps the fields. */
int lsk_heat_interior(lsk_heat *h);
int lsk_heat_rim(lsk_heat *h);

/* lsk_heat_step: a whole step of a box that is the whole grid: its own
 * guards (lsk_halo_fill), interior, rim. Enqueued. */
int lsk_heat_step(lsk_heat *h, lsk_halo *halo);

/* The initial temperature of global cell (x, y) for seed: in [0, 100). */
float lsk_heat_initial(uint64_t seed, size_t x, size_t y);

/* lsk_heat_reference: steps of the same stencil on the whole grid u
 * (gx * gy floats, x fastest) in plain C. LSK_EINVAL for NULL or 0. */
int lsk_heat_reference(size_t gx, size_t gy, float alpha, unsigned steps, float *u);

/* FNV-1a (64 bits) over the floats' bytes, little-endian, in order. */
uint64_t lsk_heat_checksum(const float *u, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* LSK_HEAT_H */
