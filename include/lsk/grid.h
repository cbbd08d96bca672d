/*
 * grid.h: a box of a global grid of cells, with guard cells around it,
 * and its halo: the border cells it sends to its neighbours and the guard
 * cells it receives from them.
 *
 * A global grid of 1, 2 or 3 dimensions is cut into boxes, one per part
 * (an MPI rank with lsk_mpi, or the whole grid for one device).
 * A box's data lives in columns: one buffer per field (an SoA member over
 * the cells), of any lsk_type, holding the box's cells and a frame of
 * `guard` cells on each side of each of its axes: (extent[a] + 2 guard)
 * elements along axis a < dims, x (axis 0) fastest. The box's own cell
 * (i, j, k) is element ((k + g) s1 + (j + g)) s0 + (i + g), where s0 and
 * s1 are the first two storage extents (lsk_grid_box_storage) and g is
 * the guard (0 on axes from dims on).
 *
 * The halo has a direction for each of the 3^dims - 1 neighbours of a box
 * (faces, edges and corners: d in {-1, 0, 1}^dims, not all 0), so that a
 * stencil that reads diagonal neighbours finds them after one exchange.
 * In direction d the box sends its border (its own cells nearest to that
 * neighbour: guard cells wide on each axis where d is not 0, the box's
 * extent where it is 0) and receives into its guard region of the same
 * shape. A direction has:
 *   LSK_HALO_NONE    no neighbour: the global edge of an axis that is not
 *                    periodic. Its guards are never written by the halo:
 *                    the boundary condition is the user's.
 *   LSK_HALO_SELF    the neighbour is the box itself: the grid is periodic
 *                    and the box spans the whole of every axis that d
 *                    crosses. lsk_halo_wrap fills these guards on the
 *                    device.
 *   LSK_HALO_REMOTE  another box (another rank's): its guards come from
 *                    that box's border through lsk_halo_pack, a transfer
 *                    of the caller's (lsk_mpi), and lsk_halo_unpack.
 * One box covering a periodic grid has only SELF directions: lsk_halo_fill
 * then fills every guard, which is the same exchange as over many ranks,
 * on one device and without MPI.
 *
 * The packed form holds one segment per direction, in direction order,
 * segment i at element lsk_halo_offset(h, i) with lsk_halo_cells(h, i)
 * elements in x-fastest order of its region. Packing writes the border
 * of direction i into segment i; unpacking reads segment i (what the
 * neighbour in direction i sent, its border of the opposite direction)
 * into the guard region of direction i. Both shapes agree because the
 * boxes of a Cartesian split that share a coordinate along an axis have
 * the same extent there.
 *
 * The kernels copy elements by their size (4 or 8 bytes), so every
 * lsk_type works on every device (double without fp64 too). They run on
 * the queue their `on` names, in order with the caller's kernels; borders
 * are read and guards written only there, so a kernel that reads only
 * cells at least `guard` from the box's edge may run meanwhile
 * (PIConGPU's core and border).
 *
 * Thread-safety: a halo is used by one thread at a time, and on one queue
 * at a time (its tables are device scratch).
 */
#ifndef LSK_GRID_H
#define LSK_GRID_H

#include <stddef.h>

#include "algo.h"
#include "buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LSK_GRID_MAX_DIMS 3
/* The most directions: 3^3 - 1. */
#define LSK_HALO_MAX_DIRS 26

/* A box: plain data (no handle). Axes from dims on have global, extent 1
 * and offset 0. */
typedef struct lsk_grid_box {
  unsigned dims;    /* 1, 2 or 3 */
  unsigned guard;   /* guard cells on each side of each axis below dims */
  size_t global[3]; /* the global grid's cells per axis */
  size_t offset[3]; /* the box's first cell, in global coordinates */
  size_t extent[3]; /* the box's cells per axis (at least guard, at least 1) */
  int periodic[3];  /* non-zero: the axis wraps around */
} lsk_grid_box;

/*
 * lsk_grid_split: the box of part coord[a] of parts[a] along each axis:
 * the first global[a] % parts[a] parts get global[a] / parts[a] + 1 cells,
 * the others global[a] / parts[a], in order. Axes from dims on are ignored
 * (set to one part of one cell).
 * Errors (LSK_EINVAL, thread message naming the value): dims not 1 to 3,
 * a global extent 0 or above 2^31, parts 0 or above the cells, coord not
 * below parts, a guard wider than the smallest part (a neighbour's border
 * would then not be its own cells), storage above 2^32 elements.
 */
int lsk_grid_split(unsigned dims, const size_t global[3], const unsigned parts[3],
                   const unsigned coord[3], unsigned guard, const int periodic[3],
                   lsk_grid_box *out /* OUT */);

/* The box's storage extents (extent + 2 guard below dims, 1 after) and
 * their product, the elements of a column; 0 for NULL. */
size_t lsk_grid_box_storage(const lsk_grid_box *box, size_t storage[3] /* OUT, may be NULL */);

/* The element of the box's own cell (i, j, k) in a column (see above). */
size_t lsk_grid_box_index(const lsk_grid_box *box, size_t i, size_t j, size_t k);

typedef enum lsk_halo_kind {
  LSK_HALO_NONE = 0,
  LSK_HALO_SELF = 1,
  LSK_HALO_REMOTE = 2,
} lsk_halo_kind;

typedef struct lsk_halo lsk_halo;

/*
 * lsk_halo_create: the halo of box (copied) on ctx: the regions of every
 * direction and the device tables the kernels read. guard 0 is allowed (no
 * direction has cells: every call is a no-op). Errors: LSK_EINVAL (NULL,
 * a box lsk_grid_split would refuse, a box outside its grid), LSK_ENOMEM,
 * OpenCL codes.
 */
int lsk_halo_create(lsk_context *ctx, const lsk_grid_box *box, lsk_halo **out /* OUT */);
/* NULL is a no-op. */
void lsk_halo_destroy(lsk_halo *h);

/* The box (never NULL for a live halo). */
const lsk_grid_box *lsk_halo_box(const lsk_halo *h);
/* 3^dims - 1; 0 for NULL. Direction i's vector: lexicographic over
 * (d[dims-1], ..., d[0]) from all -1, the zero vector left out; direction
 * lsk_halo_dirs - 1 - i is its opposite. */
unsigned lsk_halo_dirs(const lsk_halo *h);
/* d[0..3) of direction i (0 from dims on); LSK_EINVAL for a bad i. */
int lsk_halo_dir(const lsk_halo *h, unsigned i, int d[3] /* OUT */);
lsk_halo_kind lsk_halo_kind_of(const lsk_halo *h, unsigned i);
/* Cells of direction i's border (= its guard region); 0 for a bad i or a
 * NONE direction. */
size_t lsk_halo_cells(const lsk_halo *h, unsigned i);
/* First element of segment i in the packed form; lsk_halo_total: the
 * elements of the packed form (every direction that is not NONE). */
size_t lsk_halo_offset(const lsk_halo *h, unsigned i);
size_t lsk_halo_total(const lsk_halo *h);

/*
 * lsk_halo_pack: the borders of every SELF and REMOTE direction of column
 * (type, lsk_grid_box_storage elements) into packed, from element
 * packed_offset on (lsk_halo_total elements), on on's queue.
 * lsk_halo_unpack: segments of the REMOTE directions of packed into their
 * guard regions of column.
 * lsk_halo_wrap: the SELF directions: the guard region of direction i from
 * segment opposite(i) of packed, the box's own border packed by
 * lsk_halo_pack before it (so pack, then wrap, in queue order).
 * Errors: LSK_EINVAL (NULL, dead handles, a bad type, buffers of another
 * context, column and packed the same buffer), LSK_ERANGE (a buffer too
 * small), LSK_ELAUNCH, OpenCL codes.
 * Enqueues; never blocks.
 */
int lsk_halo_pack(lsk_halo *h, lsk_type type, lsk_buffer *column, lsk_buffer *packed,
                  size_t packed_offset, const lsk_algo_options *opt, const lsk_async *on);
/* Enqueues; never blocks. */
int lsk_halo_unpack(lsk_halo *h, lsk_type type, lsk_buffer *packed, size_t packed_offset,
                    lsk_buffer *column, const lsk_algo_options *opt, const lsk_async *on);
/* Enqueues; never blocks. */
int lsk_halo_wrap(lsk_halo *h, lsk_type type, lsk_buffer *packed, size_t packed_offset,
                  lsk_buffer *column, const lsk_algo_options *opt, const lsk_async *on);

/*
 * lsk_halo_fill: pack and wrap through a temporary buffer: every SELF
 * guard of column filled from the box's own border. For one box on one
 * device (a periodic grid: every guard), or the local part of an exchange.
 * Errors: as lsk_halo_pack.
 * Enqueues; never blocks.
 */
int lsk_halo_fill(lsk_halo *h, lsk_type type, lsk_buffer *column, const lsk_algo_options *opt,
                  const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_GRID_H */
