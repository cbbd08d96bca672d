/*
 * pic.h: the particle-in-cell binning example, built on frames (pool.h):
 * particles live in frames (SoA chunks of F particles, allocated from a
 * pool) linked into one list per cell of a 2-D periodic grid. A step moves
 * every particle; those that leave their cell are masked out of their frame
 * and go to the holes or the last frames of the destination cell; frames
 * that become empty are recycled, lists less than half full are compacted,
 * and the pool's GC runs.
 * See docs/dynamic-memory.md for the kernels (examples/pic/pic.cl).
 *
 * Positions and velocities are fixed point, LSK_PIC_UNIT units per cell,
 * so that the device and the plain C reference (lsk_pic_reference_step)
 * agree exactly: a particle at (x, y) is in cell
 * (y / LSK_PIC_UNIT) * gx + x / LSK_PIC_UNIT.
 *
 * Thread-safety: as for the context.
 */
#ifndef LSK_PIC_H
#define LSK_PIC_H

#include <stdint.h>

#include "lsk/lsk.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LSK_PIC_UNIT 65536
/* The largest grid extent: positions are 32-bit signed. */
#define LSK_PIC_MAX_EXTENT 32767u

typedef struct lsk_particle {
  uint32_t id;    /* nonzero (0 marks an empty slot of a frame) */
  int32_t x, y;   /* in [0, gx * LSK_PIC_UNIT) and [0, gy * LSK_PIC_UNIT) */
  int32_t vx, vy; /* per step; |vx| < gx * LSK_PIC_UNIT, |vy| < gy * LSK_PIC_UNIT */
} lsk_particle;

typedef struct lsk_pic lsk_pic;

/* All zeros means the defaults. */
typedef struct lsk_pic_options {
  /* Particles per frame: a power of two from 8 to 4096; 0 means 128. */
  unsigned frame_size;
  /* Frames the pool starts with; 0 means enough for the initial particles
   * and a quarter more. The pool grows when a step needs more. */
  size_t frames;
} lsk_pic_options;

/*
 * lsk_pic_create: a gx x gy grid holding the n particles p (copied), each
 * bound for the frames of its cell (as after a step: the first step or
 * lsk_pic_settle puts them there). Builds the example's kernels.
 * Errors: LSK_EINVAL (NULL, extents 0 or above LSK_PIC_MAX_EXTENT, a
 * particle with id 0 or out of the grid or too fast, bad frame size, n 0 or
 * above 2^31), LSK_ERANGE, LSK_ENOMEM, LSK_EBUILD, OpenCL codes.
 */
int lsk_pic_create(lsk_context *ctx, unsigned gx, unsigned gy, const lsk_particle *p, size_t n,
                   const lsk_pic_options *opt, lsk_pic **out /* OUT */);
void lsk_pic_destroy(lsk_pic *pic);

/*
 * lsk_pic_step: one step (move, migrate, compact, recycle, GC). When the
 * pool runs out of frames it grows and the allocation is run again (the
 * particles are safe in the exchange buffer meanwhile). Waits once per
 * step, to read the pool's usage. The particles that left their cell wait
 * in buckets, their destination frames ready, and the next step's move
 * puts them into their frames (it reads and writes every frame anyway);
 * lsk_pic_read and lsk_pic_settle put them there first.
 */
int lsk_pic_step(lsk_pic *pic);

/*
 * lsk_pic_settle: puts the particles that wait from the last step into
 * their frames now (nothing when none wait). For timing a step with
 * everything it does, or before using the frames directly. Enqueued; no
 * wait. Errors: LSK_EINVAL (NULL or not a pic), OpenCL codes.
 */
int lsk_pic_settle(lsk_pic *pic);

typedef struct lsk_pic_stats {
  size_t particles; /* found in the frames */
  size_t frames;    /* linked into the cells' lists */
  size_t left;      /* particles that left their cell in the last step */
  size_t compacted; /* lists compacted (less than half full), in all steps */
  size_t grows;     /* times the pool grew */
  lsk_pool_usage pool;
} lsk_pic_stats;

/*
 * lsk_pic_read: the particles as the frames hold them (lsk_pic_settle
 * first), cell by cell (cell
 * 0 first; within a cell in frame and slot order): at most cap into p,
 * with cell[i] the cell whose list holds p[i] (cell may be NULL); stats
 * (may be NULL) counts them all. Waits. LSK_EVERIFY if a cell's frames
 * are not in shape (an empty frame in a list, a frame whose header count
 * differs from its particles, a cell count that differs from its frames',
 * a list less than half full: frames * F >= 2 * count + 2 * F), naming
 * the cell.
 */
int lsk_pic_read(lsk_pic *pic, lsk_particle *p, uint32_t *cell, size_t cap,
                 lsk_pic_stats *stats /* OUT, may be NULL */);

/* The frames' pool (for usage; do not run its GC or grow it yourself). */
lsk_pool *lsk_pic_pool(const lsk_pic *pic);

/*
 * lsk_pic_reference_step: the same step in plain C, single-threaded: moves
 * p[0..n) in place, then bins them by cell (a counting sort, stable) into
 * binned[0..n), with start[c] the first of cell c (gx * gy + 1 entries).
 * No argument checks beyond NULL: LSK_EINVAL.
 */
int lsk_pic_reference_step(unsigned gx, unsigned gy, lsk_particle *p, size_t n,
                           lsk_particle *binned, uint32_t *start);

#ifdef __cplusplus
}
#endif
#endif /* LSK_PIC_H */
