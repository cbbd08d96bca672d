/*
 * pic.h: the particle-in-cell binning example, built on frames (pool.h):
 * particles live in frames (SoA chunks of F particles, allocated from a
 * pool) linked into one list per cell of a 2-D periodic grid. A step moves
 * every particle; those that leave their cell are masked out of their frame
 * and go to the holes or the last frames of the destination cell; frames
 * that become empty are recycled, lists less than half full are compacted,
 * and the pool's GC runs.
 * See docs/example-pic.md for the kernels (examples/pic/pic.cl).
 *
 * Positions and velocities are fixed point, LSK_PIC_UNIT units per cell,
 * so that the device and the plain C reference (lsk_pic_reference_step)
 * agree exactly: a particle at (x, y) is in cell
 * (y / LSK_PIC_UNIT) * gx + x / LSK_PIC_UNIT.
 *
 * A pic may hold a window of the grid only (lsk_pic_options.x0, y0, wx,
 * wy): its cells are the window's, positions stay global and periodic on
 * the whole grid, and a particle that a step takes out of the window waits
 * in an outbox for lsk_pic_take; lsk_pic_put brings particles in. Windows
 * that tile the grid, their leavers passed on between steps, hold exactly
 * what one pic of the whole grid holds (the MPI driver's decomposition).
 *
 * Thread-safety: as for the context. The pics of a context share one
 * program (its builds made once); a lock guards the sharing.
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
  /* The window of the grid that the pic holds: cells [x0, x0 + wx) x
   * [y0, y0 + wy), inside the grid (no wrap-around). All four 0: the whole
   * grid. */
  unsigned x0, y0, wx, wy;
} lsk_pic_options;

/*
 * lsk_pic_create: a gx x gy grid (or the window of it that opt names)
 * holding the n particles p (copied), each bound for the frames of its
 * cell (as after a step: the first step or lsk_pic_settle puts them
 * there). Builds the example's kernels. n may be 0 (p may then be NULL):
 * particles come later through lsk_pic_put.
 * Errors: LSK_EINVAL (NULL, extents 0 or above LSK_PIC_MAX_EXTENT, a
 * window that is empty or not inside the grid, a particle with id 0 or out
 * of the window or too fast, bad frame size, n above 2^31), LSK_ERANGE,
 * LSK_ENOMEM, LSK_EBUILD, OpenCL codes.
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
 * lsk_pic_read and lsk_pic_settle put them there first. Those that left
 * the window wait in the outbox for lsk_pic_take (a pic of the whole grid
 * never has any).
 * Errors: LSK_EINVAL (NULL or not a pic), LSK_EBUSY (the last step's
 * leavers of the window not taken yet: they would be lost), LSK_ENOMEM,
 * OpenCL codes.
 */
int lsk_pic_step(lsk_pic *pic);

/*
 * lsk_pic_take: the particles that the last step took out of the window
 * (the outbox), counts first: *n is always set to how many wait. With cap
 * 0 (out may then be NULL) that is all: nothing is taken. Otherwise, with
 * cap >= *n, they are copied to out[0..*n), sorted by id, and are no
 * longer the pic's (a second take gives 0). Waits (a read).
 * Errors: LSK_EINVAL (NULL pic or n, out NULL with cap > 0), LSK_ERANGE
 * (cap > 0 but below the count: nothing taken), OpenCL codes.
 */
int lsk_pic_take(lsk_pic *pic, lsk_particle *out, size_t cap, size_t *n /* OUT */);

/*
 * lsk_pic_put: particles p[0..n) (copied) join the pic, each bound for the
 * frames of its cell, exactly as lsk_pic_create's particles are: valid (as
 * for create) and inside the pic's window. Settles the last step's
 * incoming first; grows the exchange (and, when needed, the pool). n 0
 * does nothing. Waits (the pool's usage), as a step does.
 * Errors: LSK_EINVAL (NULL, a particle with id 0, outside the window or
 * too fast, naming it), LSK_EBUSY (leavers of the last step not taken:
 * lsk_pic_take first), LSK_ERANGE (the pic would hold more than 2^31),
 * LSK_ENOMEM, OpenCL codes.
 */
int lsk_pic_put(lsk_pic *pic, const lsk_particle *p, size_t n);

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
 * first), cell by cell (the window's cells in row-major order, the first
 * first; within a cell in frame and slot order): at most cap into p,
 * with cell[i] the cell whose list holds p[i], as an index of the whole
 * grid (y * gx + x; cell may be NULL); the outbox is not read; stats
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

/* The stream of lsk_random4 from which lsk_pic_generate draws ("pic"). */
#define LSK_PIC_RANDOM_STREAM 0x706963u

/*
 * lsk_pic_generate: particles first_id .. first_id + n - 1 of a gx x gy
 * grid into out[0..n), drawn on the device from the counter-based
 * generator (cl/lsk_random.h): particle id takes the four words
 * r = lsk_random4(seed, LSK_PIC_RANDOM_STREAM, id, 0) and is
 *   x  = r0 * (gx * LSK_PIC_UNIT) >> 32,  y = r1 * (gy * LSK_PIC_UNIT) >> 32,
 *   v  = 2 * LSK_PIC_UNIT if (r3 & 255) < 26 (one in ten), else
 *        LSK_PIC_UNIT / 4; vmx = min(v, gx * LSK_PIC_UNIT - 1), vmy likewise,
 *   vx = (r2 * (2 vmx + 1) >> 32) - vmx,
 *   vy = ((r3 & ~255) * (2 vmy + 1) >> 32) - vmy
 * (64-bit products). So a particle depends on (seed, id, grid) alone:
 * never on the launch shape (opt: its workers, simd, tile and blocks), on
 * how many are drawn at once, or on which rank draws. On the default
 * queue.
 * Waits (a read). n 0 does nothing.
 * Errors: LSK_EINVAL (NULL ctx or out, bad extents, first_id 0, ids past
 * 2^32 - 1, n above 2^31), LSK_ELAUNCH, LSK_EBUILD, LSK_ENOMEM,
 * OpenCL codes.
 */
int lsk_pic_generate(lsk_context *ctx, unsigned gx, unsigned gy, uint64_t seed, uint32_t first_id,
                     size_t n, const lsk_algo_options *opt, lsk_particle *out /* OUT */);

/*
 * lsk_pic_checksum: a hash of a whole state, whatever its order: FNV-1a 64
 * over the little-endian bytes of id, x, y, vx, vy of each particle, the
 * particles sorted by id (ties by the other fields; a copy is sorted).
 * Equal states give equal sums on any machine, shape or number of ranks.
 * Errors: LSK_EINVAL (out NULL, p NULL with n > 0), LSK_ENOMEM.
 */
int lsk_pic_checksum(const lsk_particle *p, size_t n, uint64_t *out /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* LSK_PIC_H */
