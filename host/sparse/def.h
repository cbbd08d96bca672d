/*
 * sparse/def.h: the sparse definition (sparse fields, after Taichi's
 * SNodes), the definition's struct and
 * its plan (where every node's arrays lie in the blocks), shared by the
 * definition, its parser, the generator and the structure. Private to the
 * sparse layer.
 *
 * Nodes form a tree, each added after its parent (node 0 under the root).
 * Memory: a *container* is one piece of memory holding a block of a node
 * and, inline, the blocks of the dense and bitmasked nodes below it, down
 * to the next pointer or dynamic nodes (whose cells hold references) or to
 * the leaves' fields. Container 0 is the root's (one buffer); container
 * p + 1 is a cell of pool p, the pool of the p-th pointer or dynamic node.
 * Inside a container each node has one array indexed by its cells' flat
 * index (the block's index in the container times the cells per block,
 * plus the cell's index in the block): bitmasked one bit per cell, pointer
 * one reference per cell (cell + 1; 0 is none, so zero-filled memory is
 * all inactive), dynamic a length and a head (chunk + 1) per list, one
 * list per cell of its parent. Fields are columns of the leaf's cells
 * (of a chunk's elements under a dynamic node), each aligned.
 */
#ifndef LSK_SPARSE_DEF_H
#define LSK_SPARSE_DEF_H

#include <stdint.h>

#include "sparse/sparse.h"

#define LSK__SP_NAME 64

typedef struct lsk__snode {
  lsk_snode_kind kind;
  char name[LSK__SP_NAME];
  int parent;                                /* its parent node, -1: the root's one cell */
  unsigned nfields;                          /* fields placed in it (a leaf), or 0 */
  unsigned nkids;                            /* nodes under it */
  unsigned naxes, axis[LSK_SPARSE_MAX_AXES]; /* the axes it divides, increasing */
  unsigned size[LSK_SPARSE_MAX_AXES];        /* per global axis; 1 where not divided */
  unsigned chunk, log2chunk;                 /* dynamic */
  /* The plan (lsk__sparse_plan). */
  unsigned lg[LSK_SPARSE_MAX_AXES];    /* log2 size per global axis (dynamic axis: 0) */
  unsigned shift[LSK_SPARSE_MAX_AXES]; /* bits of the nodes below it per axis */
  unsigned mult[LSK_SPARSE_MAX_AXES];  /* log2 of the cell index's weight per axis */
  uint64_t ncells;                     /* cells per block (dynamic: per chunk) */
  unsigned cont;                       /* its container (dynamic: of its lists) */
  uint64_t inl;                        /* its blocks (dynamic: lists) per container */
  size_t off, off2;                    /* its arrays' byte offsets (dynamic: len, head) */
  int pool;                            /* pointer, dynamic: its pool; else -1 */
  uint64_t maxblocks;                  /* blocks it can ever have (dynamic: chunks) */
} lsk__snode;

typedef struct lsk__sfield {
  char type[16], name[LSK__SP_NAME];
  unsigned node;    /* its leaf */
  size_t size, off; /* bytes; column offset in the leaf's container */
} lsk__sfield;

struct lsk_sparse_def {
  lsk__handle h;
  char name[LSK__SP_NAME];
  size_t align;
  unsigned nnodes, nfields, axes, npools;
  lsk__snode node[LSK_SPARSE_MAX_NODES];
  lsk__sfield field[LSK_SPARSE_MAX_FIELDS];
  uint64_t extent[LSK_SPARSE_MAX_AXES];
  size_t cont_bytes[LSK_SPARSE_MAX_NODES + 1]; /* per container */
  int pool_node[LSK_SPARSE_MAX_NODES];         /* pool -> its node */
};

/* Fills the plan of def's nodes and fields (every call after a change);
 * LSK_EINVAL naming fn for a rule the whole chain breaks. */
int lsk__sparse_plan(lsk_sparse_def *def, const char *fn);
/* The node called name (NULL: the leaf of the first field), or -1. */
int lsk__sparse_node_index(const lsk_sparse_def *def, const char *name);
/* What only the whole tree can break (lsk_sparse_create, emit): a leaf
 * without fields, leaves of different extents, an axis both divided and a
 * list's. LSK_EINVAL naming fn and the definition. */
int lsk__sparse_check(const lsk_sparse_def *def, lsk_context *ctx, const char *fn);
/* The axes (bit a for axis a) that the nodes on the way from the root to
 * node m divide, a list's axis included: the coordinates m's functions
 * take. */
unsigned lsk__sparse_axes_of(const lsk_sparse_def *def, unsigned m);
/* Field f's dense array: its extent along each axis (1 along an axis its
 * way does not have). */
void lsk__sparse_field_extent(const lsk_sparse_def *def, unsigned f,
                              uint64_t extent[LSK_SPARSE_MAX_AXES]);
/* The generated OpenCL C; with lib, the library's tables switched on
 * (the prelude of kernels/sparse.cl, the structure's own program). */
int lsk__sparse_emit(const lsk_sparse_def *def, int lib, char **text, const char *fn);

#endif /* LSK_SPARSE_DEF_H */
