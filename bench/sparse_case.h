/*
 * bench/sparse_case.h: the sparse case's parts (sparse.c runs it): the
 * workload, a ring of cells in a square grid, and its two comparisons, a
 * plain single-threaded C structure (sparse_ref.c) and the optional Taichi
 * peer (sparse_taichi.c, which runs bench/peer_taichi.py).
 *
 * The grid is n x n cells (4096; 1024 with --quick) as `pointer block ij
 * n/16 n/16` over `dense cell ij 16 16` of `place float x`. The ring: the
 * cells (i, j) with r0^2 <= (i - n/2)^2 + (j - n/2)^2 < r1^2 (the inner
 * circle in, the outer one out), r0 = n * 1000 / 4096 and r1 = n * 1100 /
 * 4096. A cell written activates its whole 16 x 16 block (the leaf is
 * dense), so the active cells are the blocks the ring touches times 256:
 * 3076 blocks, 787,456 cells, at n = 4096 (659,720 cells in the ring).
 *
 * Each contender runs the same round, timed op by op to completion:
 *   activate    a pass over all n^2 cells that sets x = 1 in the ring
 *   update      x = 0.5 x + 1 over the active cells, and their sum
 *   dense       the same update as a loop over all n^2 cells that looks
 *               each cell up (skipping inactive ones), and the sum
 *   deactivate  every block freed (and zeroed), then the active cells
 *               counted (0): the count forces the GC to completion
 * The values are halves and quarters, so the sums (in double) are exact
 * and every side is checked against the C one exactly, every round.
 */
#ifndef LSK_BENCH_SPARSE_H
#define LSK_BENCH_SPARSE_H

#include <stdint.h>

#include "bench.h"

#define SPARSE_BLOCK 16 /* cells of a leaf block along each axis */
#define SPARSE_OPS 4    /* activate, update, dense, deactivate */

/* The figures of one round: a time per op, and what each op reports (the
 * active cells after activate and deactivate, the sums of update and
 * dense). */
typedef struct sparse_round {
  double secs[SPARSE_OPS];
  double value[SPARSE_OPS];
} sparse_round;

extern const char *const sparse_op_names[SPARSE_OPS];

/* The ring's parameters for an n x n grid. */
typedef struct sparse_ring {
  unsigned n, centre;
  uint32_t r0sq, r1sq;
} sparse_ring;
sparse_ring sparse_ring_of(unsigned n);
int sparse_in_ring(const sparse_ring *r, unsigned i, unsigned j);

/* sparse_ref.c: the C structure, a table of (n/16)^2 block pointers over
 * a pool of 256-float blocks with a free list; capacity: blocks in the
 * pool. */
typedef struct sparse_ref {
  sparse_ring ring;
  unsigned nb; /* blocks along an axis */
  float **table;
  float *store;
  uint32_t *free_list, nfree, capacity;
} sparse_ref;
int sparse_ref_init(sparse_ref *c, unsigned n, uint32_t capacity);
void sparse_ref_free(sparse_ref *c);
/* One round on one thread; 1 after a message (the pool ran out). */
int sparse_ref_round(sparse_ref *c, sparse_round *out);

/* sparse_taichi.c: the peer, started once. sparse_taichi_start: 0 when it
 * is ready; 1 when its rows are to be skipped (no Python with taichi, no
 * script next to lsk, the peer says "skip"), the reason in why and no
 * message; -1 after a message (it could not start, or failed). */
typedef struct sparse_taichi sparse_taichi;
int sparse_taichi_start(bench *bn, unsigned n, unsigned threads, sparse_taichi **out, char *why,
                        size_t why_len);
/* One round in the peer; 1 after a message. */
int sparse_taichi_round(sparse_taichi *t, sparse_round *out);
/* "Taichi 1.7.3 CPU, 2 threads", as the peer said it. */
const char *sparse_taichi_name(const sparse_taichi *t);
/* Ends the peer; 1 after a message if it failed. NULL: nothing. */
int sparse_taichi_stop(sparse_taichi *t);

#endif /* LSK_BENCH_SPARSE_H */
