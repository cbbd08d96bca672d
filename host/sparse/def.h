/*
 * sparse/def.h: the sparse definition (sparse fields, after Taichi's
 * SNodes), the definition's struct and
 * its plan (where every node's arrays lie in the blocks), shared by the
 * definition, its parser, the generator and the structure. Private to the
 * sparse layer.
 *
 * Memory: a *container* is one piece of memory holding a block of a node
 * and, inline, the blocks of the dense and bitmasked nodes below it, down
 * to the next pointer or dynamic node (whose cells hold references) or to
 * the leaf's fields. Container 0 is the root's (one buffer); container
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
  unsigned naxes, axis[LSK_SPARSE_MAX_AXES]; /* the axes it divides, increasing */
  unsigned size[LSK_SPARSE_MAX_AXES];        /* per global axis; 1 where not divided */
  unsigned chunk, log2chunk;                 /* dynamic */
  /* The plan (lsk__sparse_plan). */
  unsigned lg[LSK_SPARSE_MAX_AXES];    /* log2 size per global axis (dynamic axis: 0) */
  unsigned shift[LSK_SPARSE_MAX_AXES]; /* bits of the deeper nodes per axis */
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
  unsigned dyn_cont;                           /* the leaf's chunk container, or 0 */
};

/* Fills the plan of def's nodes and fields (every call after a change);
 * LSK_EINVAL naming fn for a rule the whole chain breaks. */
int lsk__sparse_plan(lsk_sparse_def *def, const char *fn);
/* The node called name (NULL: the leaf), or -1. */
int lsk__sparse_node_index(const lsk_sparse_def *def, const char *name);
/* The generated OpenCL C; with lib, the library's tables switched on
 * (the prelude of kernels/sparse.cl, the structure's own program). */
int lsk__sparse_emit(const lsk_sparse_def *def, int lib, char **text, const char *fn);

#endif /* LSK_SPARSE_DEF_H */
