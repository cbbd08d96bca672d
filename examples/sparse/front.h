/*
 * front.h: the sparse-field example: a fire front that spreads outward
 * over a 2-D grid kept as a sparse field (lsk/sparse.h), its blocks
 * activated ahead of the front and deactivated behind it, as Taichi's
 * users write such things with pointer SNodes. The grid, n x n cells:
 *
 *     sparse front
 *     pointer block ij n/16 n/16
 *     dense cell ij 16 16
 *     place float u        temperature
 *     place float v        the next step's temperature
 *     place float b        burnt fraction of the cell's fuel (0: fresh)
 *
 * A step, three struct-fors over the active 16 x 16 blocks (front.cl):
 *   diffuse   v = (u + alpha lap u) keep + heat burn,  b += burn, where
 *             burn = rate (1 - b) if u > ignite, else 0, and lap u reads
 *             the four neighbours with the ambient get (0 in an inactive
 *             block or beyond the grid);
 *   settle    u = v; a block whose cells all have u <= off deactivates
 *             itself (its block is recycled: zeros when it comes back);
 *   spread    a cell with u > on activates the blocks of its neighbours
 *             (many cells, one block, at once: the core's compare-and-swap).
 * Behind the front the fuel is spent and the heat decays, so the ring of
 * active blocks moves outward. Every operation is in float, without fused
 * multiply-adds on the device and in the C model (front_ref.c), so device
 * and model agree bit for bit, and so do their decisions.
 *
 * Thread-safety: as for the context.
 */
#ifndef LSK_FRONT_H
#define LSK_FRONT_H

#include <stddef.h>
#include <stdint.h>

#include "lsk/lsk.h"
#include "lsk/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cells per side of a leaf block (the dense node). */
#define LSK_FRONT_BLOCK 16u
/* Sides of the grid: a power of two in [LSK_FRONT_MIN, LSK_FRONT_MAX]. */
#define LSK_FRONT_MIN 32u
#define LSK_FRONT_MAX 32768u

/* The physics (see the top); lsk_front_params_default gives the demo's. */
typedef struct lsk_front_params {
  float alpha;  /* diffusion number, in (0, 0.25] */
  float keep;   /* share of the heat kept per step, in (0, 1] */
  float heat;   /* heat released per unit of fuel burnt */
  float rate;   /* share of its fuel a burning cell burns per step, in [0, 1] */
  float ignite; /* a cell burns while u > ignite */
  float on;     /* a cell with u > on activates its neighbours' blocks */
  float off;    /* a block whose every cell has u <= off is deactivated */
} lsk_front_params;
void lsk_front_params_default(lsk_front_params *p /* OUT */);

/* All zeros means the defaults. */
typedef struct lsk_front_options {
  unsigned size;                  /* cells per side; 0: 1024 */
  unsigned radius;                /* the hot disc at the start, in cells; 0: 8 */
  const lsk_front_params *params; /* NULL: lsk_front_params_default */
  size_t pool_blocks;             /* leaf blocks in the pool at first; 0: lsk's default */
  lsk_queue *queue;               /* where the steps run; NULL: the default queue */
} lsk_front_options;

typedef struct lsk_front lsk_front;

/*
 * lsk_front_create: the grid on ctx with its initial state: u = 1 on the
 * disc of opt->radius cells around the centre, set by a kernel (front_init:
 * grid_u_set activates the blocks it writes; a pool too small for them is
 * grown), all else inactive. Errors: LSK_EINVAL (NULL, a size that is not a power of two in
 * range, a radius past the grid, parameters out of range), LSK_ENOMEM,
 * LSK_EBUILD, OpenCL codes.
 */
int lsk_front_create(lsk_context *ctx, const lsk_front_options *opt, lsk_front **out /* OUT */);
void lsk_front_destroy(lsk_front *f);

/* What a step did. */
typedef struct lsk_front_step_info {
  unsigned grows; /* times the pool ran out and was grown (the spread rerun) */
  size_t pool;    /* the pool's blocks after the step */
} lsk_front_step_info;

/*
 * lsk_front_step: one step (diffuse, settle, spread), then lsk_sparse_check;
 * where the pool ran out during the spread, it is grown (lsk_sparse_grow)
 * and the spread run again (activation is idempotent, so the rerun ends as
 * one run with room would). info may be NULL. Blocks (the check waits).
 */
int lsk_front_step(lsk_front *f, lsk_front_step_info *info /* OUT */);

/* The structure, for counts, statistics and reads (lsk_sparse_*). */
lsk_sparse *lsk_front_sparse(const lsk_front *f);

/*
 * lsk_front_read: the state as dense host arrays, n * n floats, x fastest
 * (u and b; inactive cells 0; either may be NULL), and active, (n/16)^2
 * bytes, block (bi, bj) at bi + (n/16) bj: 1 where the block is active (a
 * kernel asks grid_block_is_active; NULL: not read). Blocks.
 */
int lsk_front_read(lsk_front *f, float *u /* OUT */, float *b /* OUT */, uint8_t *active /* OUT */);

/*
 * The C model: the same grid as dense arrays plus an activity flag per
 * block, stepped in plain C with the same operations in the same order.
 * Cells of inactive blocks are kept 0 (the ambient value).
 */
typedef struct lsk_front_model {
  unsigned n, nb;   /* cells and blocks per side */
  float *u, *v, *b; /* n * n, x fastest */
  uint8_t *active;  /* nb * nb, block (bi, bj) at bi + nb * bj */
} lsk_front_model;

/* lsk_front_model_init: the initial state of lsk_front_create (size n and
 * radius as there, 0 for the defaults). LSK_EINVAL, LSK_ENOMEM. */
int lsk_front_model_init(lsk_front_model *m /* OUT */, unsigned n, unsigned radius);
void lsk_front_model_free(lsk_front_model *m);
/* One step, as lsk_front_step. */
void lsk_front_model_step(lsk_front_model *m, const lsk_front_params *p);
/* Active blocks of the model. */
size_t lsk_front_model_active(const lsk_front_model *m);

/* How a device state (lsk_front_read) differs from the model's. */
typedef struct lsk_front_diff {
  size_t cells;    /* cells of u or b beyond the tolerance */
  size_t inexact;  /* cells of u or b not equal bit for bit */
  size_t blocks;   /* blocks active in one and not the other */
  double max_diff; /* the largest |device - model| of u and b */
  /* The first cell beyond the tolerance (field 'u' or 'b'), and the first
   * block that differs (active: the device's flag). */
  char field;
  unsigned i, j;
  float got, want;
  unsigned bi, bj, active;
} lsk_front_diff;

/*
 * lsk_front_compare: u and b (n * n floats, every cell: inactive ones are
 * 0 in both) and the active blocks against the model's; a cell agrees when
 * |got - want| <= tol * max(1, |want|). Returns 1 when every cell and
 * block agrees, 0 otherwise; d says how (may be NULL).
 */
int lsk_front_compare(const lsk_front_model *m, const float *u, const float *b,
                      const uint8_t *active, float tol, lsk_front_diff *d /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* LSK_FRONT_H */
