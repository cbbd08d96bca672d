/*
 * sparse/structure.h: the structure object (lsk_sparse), shared by
 * structure.c (its life, the struct-for, the GC, growth and checks) and
 * ops.c (counts, statistics, copies, deactivation). Private to the sparse
 * layer.
 */
#ifndef LSK_SPARSE_STRUCTURE_H
#define LSK_SPARSE_STRUCTURE_H

#include "lsk/pool.h"
#include "sparse/def.h"

/* The library kernels' block domain (kernels/sparse.cl's LSK__SP_TILE). */
#define LSK__SP_TILE 256u

typedef enum lsk__spk {
  LSK__SPK_LISTGEN,
  LSK__SPK_CASCADE,
  LSK__SPK_DEACTIVATE,
  LSK__SPK_COUNT,
  LSK__SPK_READ,
  LSK__SPK_WRITE,
  LSK__SPK_ZERO,
  LSK__SPK_SPARES,
  LSK__SPK_N
} lsk__spk;

struct lsk_sparse {
  lsk__handle h;
  lsk_context *ctx;
  lsk_sparse_def def; /* a copy: the user's may go */
  char *source;       /* the kernels' generated part (lsk_sparse_source) */
  lsk_program *prog;  /* kernels/sparse.cl with the library's part */
  lsk_kernel *k[LSK__SPK_N];
  lsk_buffer *root, *lists;
  lsk_pool *pool[LSK_SPARSE_MAX_NODES];
  lsk_buffer *bufs[2 + LSK_SPARSE_MAX_NODES]; /* root, lists, pools: NAME_PARAMS */
  size_t nbufs;
  size_t cap[LSK_SPARSE_MAX_NODES];    /* entries of each node's element list */
  uint32_t lost[LSK_SPARSE_MAX_NODES]; /* what the last check found, per node */
  int dirty;                           /* a kernel may have deactivated since the GC */
};

/* The plain arguments of a library kernel: the structure's buffers, then
 * up to three more; returns how many. */
size_t lsk__sp_args(const lsk_sparse *sp, lsk_arg *a, const lsk_arg *more, size_t nmore);
/* A library kernel on q over `units` tiles of LSK__SP_TILE cells at most,
 * with one uint argument m (and more after it). */
int lsk__sp_launch(lsk_sparse *sp, lsk__spk which, lsk_queue *q, const char *fn, size_t units,
                   const lsk_arg *more, size_t nmore);
/* A library kernel on q over `blocks` blocks of `cells` cells each, a
 * tile of them per block domain (LSK_DOMAIN_SIZE: larger on CPUs), with
 * one uint argument m (and more after it). */
int lsk__sp_launch_cells(lsk_sparse *sp, lsk__spk which, lsk_queue *q, const char *fn,
                         size_t blocks, size_t cells, const lsk_arg *more, size_t nmore);
/* Words [first, first + n) of x zeroed on q (by a kernel: oclgrind takes
 * no fill as initializing). */
int lsk__sp_zero(lsk_sparse *sp, lsk_queue *q, lsk_buffer *x, size_t first, size_t n,
                 const char *fn);
/* The element lists of nodes 0 to upto, made on q: of the active blocks,
 * or with all of every block that exists (a bitmask's cleared bit does not
 * hide what is below it: deactivation reaches it). */
int lsk__sp_listgen(lsk_sparse *sp, lsk_queue *q, unsigned upto, int all, const char *fn);
/* The GC on q if a kernel may have deactivated since the last one. */
int lsk__sp_gc(lsk_sparse *sp, lsk_queue *q, const char *fn);
/* Node `level` by name (NULL: the leaf), LSK_EINVAL naming fn otherwise. */
int lsk__sp_level(const lsk_sparse *sp, const char *level, const char *fn, unsigned *m);

#endif /* LSK_SPARSE_STRUCTURE_H */
