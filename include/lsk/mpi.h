/*
 * mpi.h: lsk_mpi, the optional component for many processes: one MPI
 * rank per device, a grid of cells decomposed over the ranks, the halo
 * exchange between them, reductions over all ranks and an agreement on
 * failure. Link lsk::mpi (CMake: find_package(lsk COMPONENTS mpi)) or
 * pkg-config's lsk-mpi; liblsk itself never needs MPI. MPI is the user's:
 * initialize it before lsk_mpi_create (any thread level: lsk_mpi calls
 * MPI from the thread that calls it), finalize it after the last destroy.
 *
 * Collective calls (marked so) must be made by every rank of the
 * communicator, in the same order, as MPI's own collectives.
 *
 * Failures. Every call returns a status with a message on the rank's
 * context (lsk_context_errmsg(lsk_mpi_context(m))). A failure is local
 * until lsk_mpi_agree, which every rank calls with its status: then every
 * rank gets the first failing rank's status and message, and the
 * application ends on all ranks together instead of leaving some waiting
 * for messages that will never come. The collective calls below agree by
 * themselves; the halo exchange does not (it would cost a global
 * reduction per exchange): it completes its messages on every rank even
 * where a rank failed (sending whatever its buffers hold), returns the
 * local status, and the application agrees once per step.
 *
 * OpenCL buffers are not GPU-aware MPI buffers: nothing here passes a
 * cl_mem to MPI. The halo stages through pinned host memory (pinned.h):
 * pack on the device, one read, MPI, one write, unpack on the device.
 */
#ifndef LSK_MPI_H
#define LSK_MPI_H

#include <mpi.h>

#include "lsk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_mpi lsk_mpi;

/* All zeros means the defaults. */
typedef struct lsk_mpi_options {
  /* The ranks taking part; NULL: MPI_COMM_WORLD. lsk_mpi works on its own
   * duplicate, so its messages never meet the application's. */
  const MPI_Comm *comm;
  /* The devices the ranks of a node share out: a list of selectors as
   * lsk_device_select_all takes it (each part names every device it
   * matches: "nvidia", "0,1", "*"); NULL: LSK_DEVICE; neither: every GPU,
   * or the first device where there is none. Rank r of its node (ranks of
   * a node share memory: MPI_Comm_split_type) takes match r % matches. */
  const char *devices;
  /* Options of each rank's context (NULL: defaults); its device field is
   * replaced by the device chosen. */
  const lsk_context_options *context;
} lsk_mpi_options;

/*
 * lsk_mpi_create: collective. This rank's device and context. Fails on
 * every rank if it fails on one (agreed). Errors: LSK_EINVAL (MPI not
 * initialized, NULL out), LSK_ENODEV (no device matches), LSK_ECOMM (an
 * MPI call failed), the context's errors; with *out NULL, the message is
 * the thread's (lsk_context_errmsg(NULL)).
 */
int lsk_mpi_create(const lsk_mpi_options *opt, lsk_mpi **out /* OUT */);
/* Not collective; destroys the context too. NULL is a no-op. */
void lsk_mpi_destroy(lsk_mpi *m);

lsk_context *lsk_mpi_context(const lsk_mpi *m);
/* lsk_mpi's duplicate of the communicator (valid until destroy). */
MPI_Comm lsk_mpi_comm(const lsk_mpi *m);
/* Rank and size in it, the rank within its node, and the flat index
 * (lsk_device_list) of the device taken; -1 for a bad m. */
int lsk_mpi_rank(const lsk_mpi *m);
int lsk_mpi_size(const lsk_mpi *m);
int lsk_mpi_node_rank(const lsk_mpi *m);
int lsk_mpi_device(const lsk_mpi *m);

/*
 * lsk_mpi_agree: collective. Every rank passes its status; all return
 * LSK_OK if every status was LSK_OK, else the status of the lowest rank
 * that failed, with its message ("lsk_mpi_agree: rank R: <its message>")
 * on every rank's context. m not live: LSK_EINVAL without any message
 * traffic (a program error that MPI cannot rescue).
 */
int lsk_mpi_agree(lsk_mpi *m, int status);

/*
 * lsk_mpi_allreduce: collective. Combines each rank's value (one element
 * of type at local) with op into *result on every rank, in rank order:
 * every rank gathers the values and combines them from rank 0 up, so a
 * float sum is the same on every rank and from run to run for a given
 * number of ranks (it changes with the number of ranks, as the partial
 * sums do). min and max ignore NaN, as lsk_reduce does. size is the size
 * of local and of *result, which must be lsk_type_size(type). Host only:
 * nothing is enqueued.
 * Errors: LSK_EINVAL (NULL, a bad type or op, a size other than the
 * type's), LSK_ECOMM.
 */
int lsk_mpi_allreduce(lsk_mpi *m, lsk_type type, lsk_op op, const void *local,
                      void *result /* OUT */, size_t size);
/*
 * lsk_mpi_reduce: collective. lsk_reduce of the rank's elements [offset,
 * offset + n) of in on on's queue (result_size as there: the type's
 * size), then lsk_mpi_allreduce of the partial results. Agreed.
 * Enqueues; blocks.
 * Errors: LSK_EINVAL (NULL, a bad type or op, result_size), LSK_ECOMM,
 * lsk_reduce's.
 */
int lsk_mpi_reduce(lsk_mpi *m, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset, size_t n,
                   void *result /* OUT */, size_t result_size, const lsk_algo_options *opt,
                   const lsk_async *on);

/* A grid of cells decomposed over the ranks (grid.h's boxes). */
typedef struct lsk_mpi_grid lsk_mpi_grid;

typedef struct lsk_mpi_grid_options {
  unsigned dims;     /* 1, 2 or 3 */
  size_t global[3];  /* cells per axis (axes from dims on: ignored) */
  unsigned guard;    /* guard width */
  int periodic[3];   /* non-zero: the axis wraps around */
  unsigned parts[3]; /* ranks per axis; all 0: MPI_Dims_create chooses */
} lsk_mpi_grid_options;

/*
 * lsk_mpi_grid_create: collective. A Cartesian decomposition of the grid
 * (MPI_Cart_create, ranks not reordered: a rank keeps its number) with
 * lsk_grid_split's boxes, and the halo of this rank's box. Checked on all
 * ranks together, an error on all of them: ranks that disagree on the
 * options (named: the first field that differs), parts whose product is
 * not the number of ranks, an axis with fewer cells than ranks, a guard
 * wider than a rank's cells. Errors: LSK_EINVAL, LSK_ECOMM, LSK_ENOMEM.
 */
int lsk_mpi_grid_create(lsk_mpi *m, const lsk_mpi_grid_options *opt, lsk_mpi_grid **out /* OUT */);
void lsk_mpi_grid_destroy(lsk_mpi_grid *g);

/* This rank's box, and its halo (grid.h: directions, kinds, sizes). */
const lsk_grid_box *lsk_mpi_grid_box(const lsk_mpi_grid *g);
lsk_halo *lsk_mpi_grid_halo(const lsk_mpi_grid *g);
/* The ranks per axis and this rank's coordinates (1 and 0 from dims on). */
int lsk_mpi_grid_parts(const lsk_mpi_grid *g, unsigned parts[3] /* OUT */,
                       unsigned coord[3] /* OUT */);
/* The box of any rank, and the rank owning a global cell. */
int lsk_mpi_grid_box_of(const lsk_mpi_grid *g, int rank, lsk_grid_box *out /* OUT */);
int lsk_mpi_grid_owner(const lsk_mpi_grid *g, const size_t cell[3], int *rank /* OUT */);
/* The rank of the neighbour in halo direction i (MPI_PROC_NULL where the
 * direction is NONE; this rank where it is SELF). */
int lsk_mpi_grid_neighbor(const lsk_mpi_grid *g, unsigned i, int *rank /* OUT */);

/*
 * lsk_mpi_grid_gather: collective. The own cells of every rank's column
 * (type, its box's storage) gathered into out on root, as one array of
 * the global grid, x fastest (global[0] * global[1] * global[2] elements;
 * out is ignored on the other ranks and may be NULL there; out_bytes, its
 * size, must hold the grid on the root). The column is read on on's
 * queue, after its wait list, and waited for. Agreed.
 * Enqueues; blocks.
 * Errors: LSK_EINVAL (out_bytes too small on the root too), LSK_ERANGE,
 * LSK_ENOMEM, LSK_ECOMM, OpenCL codes.
 */
int lsk_mpi_grid_gather(lsk_mpi_grid *g, lsk_type type, lsk_buffer *column, int root,
                        void *out /* OUT on root */, size_t out_bytes, const lsk_async *on);

/* The halo exchange of a set of columns of the grid. */
typedef struct lsk_mpi_halo lsk_mpi_halo;

/*
 * lsk_mpi_halo_create: not collective. An exchange of ncolumns columns of
 * types[0..ncolumns) (any lsk_type; copied), with its device and pinned
 * staging buffers. Errors: LSK_EINVAL, LSK_ENOMEM, OpenCL codes.
 */
int lsk_mpi_halo_create(lsk_mpi_grid *g, const lsk_type *types, size_t ncolumns,
                        lsk_mpi_halo **out /* OUT */);
void lsk_mpi_halo_destroy(lsk_mpi_halo *h);

/*
 * lsk_mpi_halo_begin: enqueues on on->queue (NULL: the default queue),
 * after on's wait list, the pack of every column's border, the wrap of
 * its SELF guards and one read of the packed borders to pinned memory,
 * flushes, and posts the receives. It does not wait: enqueue the kernel
 * of the cells that need no guard (at least `guard` from the box's edge)
 * after it on the same queue, and it runs while the messages travel.
 * lsk_mpi_halo_end: waits for that read (not for later work on the
 * queue), sends, waits for every message, then enqueues one write of what
 * arrived and the unpack into the REMOTE guards; on->event (if asked)
 * completes with the unpack: enqueue the border's kernel after it.
 * lsk_mpi_halo_exchange: begin then end.
 * The columns (ncolumns live buffers in the order of the types) are given
 * to begin and kept until end; every rank calls begin and end once per
 * exchange, the ranks of a neighbourhood in the same order. A failure on
 * a rank still sends and receives (see the top of this file); a second
 * begin before end, or an end without begin, is LSK_EINVAL with no
 * messages. The exchange keeps begin's queue until end (end's on->queue
 * must be it), the one object of lsk that keeps a queue.
 * Enqueues; never blocks.
 */
int lsk_mpi_halo_begin(lsk_mpi_halo *h, lsk_buffer *const *columns, const lsk_async *on);
/* Enqueues; blocks. */
int lsk_mpi_halo_end(lsk_mpi_halo *h, const lsk_async *on);
/* Enqueues; blocks. */
int lsk_mpi_halo_exchange(lsk_mpi_halo *h, lsk_buffer *const *columns, const lsk_async *on);

/* Bytes this rank sends per exchange (every REMOTE border of every
 * column); it receives as many. */
size_t lsk_mpi_halo_bytes(const lsk_mpi_halo *h);

#ifdef __cplusplus
}
#endif
#endif /* LSK_MPI_H */
