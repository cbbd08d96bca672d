/*
 * sparse.h: sparse fields (after Taichi's SNodes): a tree of nodes over a
 * 1-, 2- or 3-D index space whose blocks exist only where something is,
 * fields placed in the leaves, activation from kernels without locks, ambient
 * (zero) reads of inactive cells, and a struct-for that launches a lockstep
 * kernel over the active blocks only. See docs/sparse.md.
 *
 * Two objects:
 *   - a definition (lsk_sparse_def), a plain host object like a layout: the
 *     nodes, each under its parent, and the fields in the leaves; from text (lsk_sparse_def_parse)
 *     or from C (lsk_sparse_def_add_node, lsk_sparse_def_place);
 *   - a structure (lsk_sparse) on a context, made from a definition: its
 *     root block, one lsk_pool per pointer or dynamic node (docs/
 *     dynamic-memory.md), the element lists of the struct-for, and the
 *     generated OpenCL C (lsk_sparse_source) that kernels put in their
 *     program's prelude.
 *
 * Node kinds (each node divides some axes of the index space into
 * power-of-two parts; the leaves' cells hold the fields):
 *   dense      cells always active
 *   bitmasked  dense, plus an activity bit per cell
 *   pointer    a cell is a reference to its child block, taken from the
 *              node's pool when the cell is activated, none while inactive
 *   dynamic    a cell is an appendable list of elements (the fields), on
 *              an axis no ancestor uses, in chunks from the node's pool
 *
 * GC: a kernel that deactivates recycles blocks; they are zero-filled and
 * reused after the structure's GC, which lsk runs on its own before the
 * next operation that needs it (lsk_sparse_use, lsk_sparse_for and every
 * call below that enqueues): never by hand.
 *
 * Queues: as everywhere in lsk, a call that enqueues takes `const lsk_async
 * *on` last (NULL: the default queue); the structure keeps no queue.
 * Thread-safety: as for the context (one thread at a time per structure).
 */
#ifndef LSK_SPARSE_H
#define LSK_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "program.h"
#include "queue.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most nodes in a chain, and axes of the index space. */
#define LSK_SPARSE_MAX_NODES 8
#define LSK_SPARSE_MAX_AXES 3
/* Most fields in the leaf. */
#define LSK_SPARSE_MAX_FIELDS 32
/* What a dynamic node's append gives when the element has no room (the
 * node's length is reached, or its pool ran out), on the device. */
#define LSK_SPARSE_NONE 0xffffffffu

typedef struct lsk_sparse_def lsk_sparse_def;
typedef struct lsk_sparse lsk_sparse;

typedef enum lsk_snode_kind {
  LSK_SNODE_DENSE = 1,
  LSK_SNODE_BITMASKED,
  LSK_SNODE_POINTER,
  LSK_SNODE_DYNAMIC
} lsk_snode_kind;

/* A node as lsk_sparse_def_add_node takes it and lsk_sparse_def_node
 * reports it. */
typedef struct lsk_snode {
  lsk_snode_kind kind;
  /* A C identifier, unique in the definition: the generated names of its
   * level (NAME_LEVEL_is_active ...) use it. */
  const char *name;
  /* The axes it divides, as letters of "ijk" in increasing order ("i",
   * "ij", "jk", ...), i the first axis; a dynamic node takes one axis. */
  const char *axes;
  /* Cells along each of its axes, in the order of axes: powers of two.
   * For a dynamic node: the list's largest length (any positive number). */
  unsigned sizes[LSK_SPARSE_MAX_AXES];
  /* Dynamic nodes only: elements per chunk, a power of two (0: 32). */
  unsigned chunk;
  /* The node it goes under, by name; NULL: the node added last (a chain).
   * lsk_sparse_def_node reports the parent's name, or NULL for the root. */
  const char *parent;
} lsk_snode;

/*
 * lsk_sparse_def_create: an empty definition called name (a C identifier);
 * align (a power of two from 4 to 128; 0: 64) is the alignment of every
 * field column inside a block. lsk_sparse_def_destroy: NULL is a no-op.
 */
int lsk_sparse_def_create(const char *name, size_t align, lsk_sparse_def **out /* OUT */);
void lsk_sparse_def_destroy(lsk_sparse_def *def);

/*
 * lsk_sparse_def_add_node: adds a node under node->parent (NULL: under the
 * node added last; the first node goes under the root, a single cell):
 * a chain, or a tree where a node has several children. The rules, each
 * refused with LSK_EINVAL naming the node and the rule: sizes are powers
 * of two (the index math takes each cell's digits with shifts and masks);
 * a parent is not dynamic (only fields follow a dynamic node) and has no
 * fields (fields are placed in leaves); a dynamic node divides one axis
 * that no ancestor divides; the extent along an axis on the way from the
 * root, the product of the sizes, is at most 2^31; at most
 * LSK_SPARSE_MAX_NODES nodes. Where the tree branches, every leaf must
 * reach the same extent along every axis its way divides (the structure's
 * extent: all coordinates are the structure's own), and an axis is divided
 * or a list's, not both (lsk_sparse_create checks both).
 */
int lsk_sparse_def_add_node(lsk_sparse_def *def, const lsk_snode *node);

/*
 * lsk_sparse_def_place: a field of scalar type (an OpenCL name: char uchar
 * short ushort int uint long ulong float double) in the node added last,
 * which becomes a leaf: it must be dense, bitmasked or dynamic (a
 * pointer's cells are references: put a dense node below it), and no node
 * may go under it after. Every leaf holds at least one field.
 */
int lsk_sparse_def_place(lsk_sparse_def *def, const char *type, const char *name);

/*
 * lsk_sparse_def_parse: a definition from text, one statement per line:
 *     sparse NAME [align A]                    (first)
 *     dense|bitmasked|pointer NAME AXES SIZE... [under PARENT]
 *     dynamic NAME AXIS LENGTH [chunk C] [under PARENT]
 *     place TYPE NAME                          (in the node above it)
 * (a node without `under` goes under the one before it) with # comments
 * and blank lines, e.g.
 *     sparse grid
 *     pointer block ij 256 256
 *     dense cell ij 16 16
 *     place float x
 *     dense pcell ij 16 16 under block
 *     dynamic parts k 64
 *     place uint id
 * Errors name the line ("file:3: ...") and the rule broken.
 * lsk_sparse_def_load reads a file (LSK_EIO).
 */
int lsk_sparse_def_parse(const char *text, const char *file, lsk_sparse_def **out /* OUT */);
int lsk_sparse_def_load(const char *path, lsk_sparse_def **out /* OUT */);

const char *lsk_sparse_def_name(const lsk_sparse_def *def);
/* Axes of the index space (1 to 3), nodes and fields so far. */
unsigned lsk_sparse_def_axes(const lsk_sparse_def *def);
unsigned lsk_sparse_def_nodes(const lsk_sparse_def *def);
unsigned lsk_sparse_def_fields(const lsk_sparse_def *def);
/* Node i, in the order added (0: under the root). The strings are the
 * definition's. */
int lsk_sparse_def_node(const lsk_sparse_def *def, unsigned i, lsk_snode *out /* OUT */);
/* Field i's type and name (the definition's strings). */
int lsk_sparse_def_field(const lsk_sparse_def *def, unsigned i, const char **type /* OUT */,
                         const char **name /* OUT */);
/* The index space's extent along each axis (1 for axes it does not have). */
int lsk_sparse_def_extent(const lsk_sparse_def *def,
                          uint64_t extent[LSK_SPARSE_MAX_AXES] /* OUT */);

/*
 * lsk_sparse_def_describe: the levels, their blocks and their bytes, as
 * `lsk sparse FILE` prints them. lsk_sparse_def_emit_cl: the OpenCL C a
 * kernel includes (the same text as lsk_sparse_source). *text is malloc'd;
 * free it with lsk_free (layout.h).
 */
int lsk_sparse_def_describe(const lsk_sparse_def *def, char **text /* OUT */);
int lsk_sparse_def_emit_cl(const lsk_sparse_def *def, char **text /* OUT */);

/* All zeros means the defaults. */
typedef struct lsk_sparse_options {
  /* Blocks in the pool of each node that allocates (pointer: its child
   * blocks; dynamic: chunks), by node index; 0: the default below. */
  size_t blocks[LSK_SPARSE_MAX_NODES];
  /* The default pool size as a fraction of the most blocks the node can
   * ever have (a dynamic node: of one chunk per list), at least 64 blocks,
   * at most 64 MiB of them; 0: 0.25. A pool that reaches every block the
   * node can have (a pointer node's at 1, within the 64 MiB) holds room
   * besides for blocks that lost install races: as many again, at most 64
   * (past the 64 MiB by those at most). A pool that a kernel finds short
   * grows (lsk_sparse_check, lsk_sparse_grow). */
  double fraction;
} lsk_sparse_options;

/*
 * lsk_sparse_create: a structure on ctx, every cell inactive (dense cells
 * zero), its pools allocated and its program (the GC, the element lists,
 * counts and copies) built. The definition may be destroyed afterwards.
 * Errors: LSK_EINVAL (NULL, an empty definition or one without fields),
 * LSK_ERANGE (a pool or the root block past the device's largest
 * allocation), LSK_ENOMEM, LSK_EBUILD, OpenCL codes.
 */
int lsk_sparse_create(lsk_context *ctx, const lsk_sparse_def *def, const lsk_sparse_options *opt,
                      lsk_sparse **out /* OUT */);
/* Waits for nothing; memory is released once queued work is done. NULL is
 * a no-op. */
void lsk_sparse_destroy(lsk_sparse *sp);

/* The generated OpenCL C for kernels on sp: lsk_program_options.prelude.
 * Owned by sp. The same for every structure of one definition. */
const char *lsk_sparse_source(const lsk_sparse *sp);

/*
 * lsk_sparse_use: the structure as one kernel argument, for a kernel that
 * declares NAME_PARAMS (the generated macro) in its parameter list: *arg
 * is an LSK_ARG_BUFFER_LIST of sp's buffers, valid until the next
 * lsk_sparse_grow. Runs the GC first on on's queue if a kernel may have
 * deactivated since the last one, so the kernel launched next (on that
 * queue, or ordered after it) may activate.
 * Enqueues; never blocks.
 */
int lsk_sparse_use(lsk_sparse *sp, lsk_arg *arg /* OUT */, const lsk_async *on);

/* What lsk_sparse_for takes; all zeros: the leaf, automatic shape. */
typedef struct lsk_sparse_for_options {
  /* The node whose active cells are visited, by name; NULL: the leaf
   * holding the first field. */
  const char *level;
  /* Workers and simd per block, as lsk_launch's (0: automatic). */
  unsigned workers, simd;
  /* Bytes of dynamic local memory (LSK_ARG_DYN_LOCAL). */
  size_t local_bytes;
  /* LSK_SPARSE_FOR_NO_DEACTIVATE: the kernel deactivates nothing, so the
   * next operation needs no GC. */
  unsigned flags;
} lsk_sparse_for_options;
#define LSK_SPARSE_FOR_NO_DEACTIVATE 1u

/*
 * lsk_sparse_for: the struct-for. Runs the GC if needed, makes the element
 * lists of active blocks down to the level on the device, then launches k
 * with the level's block as block domain, once over the active blocks: k's
 * first parameter after LSK_CTX is NAME_PARAMS, then args; its body loops
 * NAME_FOR_LEVEL(s, b) { LSK_FOREACH(it) ... } (docs/sparse.md). The order
 * of visits and the shape never change a correct kernel's result.
 * Errors: as lsk_kernel_launch; LSK_EINVAL for an unknown level.
 * Enqueues; never blocks.
 */
int lsk_sparse_for(lsk_sparse *sp, lsk_kernel *k, const lsk_sparse_for_options *opt,
                   const lsk_arg *args, size_t nargs, const lsk_async *on);

/*
 * lsk_sparse_check: waits for on's queue and reports what kernels could
 * not do since the last check: LSK_ENOSPC naming the structure, the node
 * and how many activations or appends its pool refused (grow it with
 * lsk_sparse_grow and run the kernel again: what was written stays), or a
 * dynamic node's appends past its length. LSK_OK otherwise.
 * Enqueues; blocks.
 */
int lsk_sparse_check(lsk_sparse *sp, const lsk_async *on);

/*
 * lsk_sparse_grow: the pool of node `node` (a pointer or dynamic node's
 * index) to `blocks` blocks (more than now; 0: enough for what was refused
 * since the last check, at least 1.5 times now, at most the blocks the node
 * can ever have). Contents are kept;
 * lsk_sparse_use's argument changes. Waits for every queue.
 */
int lsk_sparse_grow(lsk_sparse *sp, unsigned node, size_t blocks);

/* Per node, what lsk_sparse_stats_get reports. */
typedef struct lsk_sparse_level_stats {
  lsk_snode_kind kind;
  uint64_t active;    /* active cells of this node */
  uint64_t blocks;    /* blocks of this node's cells in use (listed) */
  size_t pool_blocks; /* pointer and dynamic: capacity of its pool */
  size_t pool_live;   /*   its blocks in use */
  size_t high_water;  /*   the most it ever had in use at once, at a GC */
  uint64_t refused;   /*   activations or appends it refused, ever */
  size_t block_bytes; /*   bytes of one of its blocks */
} lsk_sparse_level_stats;

/*
 * lsk_sparse_stats_get: per node (out[i] for node i, up to n), runs the GC
 * if needed and counts on the device. lsk_sparse_count: the active cells
 * of one node (by name; NULL: the leaf holding the first field).
 * Enqueues; blocks.
 */
int lsk_sparse_stats_get(lsk_sparse *sp, lsk_sparse_level_stats *out /* OUT */, size_t n,
                         const lsk_async *on);
/* Enqueues; blocks. */
int lsk_sparse_count(lsk_sparse *sp, const char *level, uint64_t *active /* OUT */,
                     const lsk_async *on);

/*
 * lsk_sparse_read: field `field` as a dense host array over its axes (the
 * axes its way from the root divides: every axis in a chain), the first
 * fastest (element (i, j, k) at i + X * (j + Y * k), X, Y, Z the extents),
 * inactive cells ambient (zero); dst_bytes must hold X * Y * Z values.
 * lsk_sparse_write: the reverse; a cell is activated if its value is not
 * zero, and written if it is active or was activated (a
 * zero does not activate). Fields under a dynamic node: read only (their
 * lists are grown by appends).
 * Enqueues; blocks.
 */
int lsk_sparse_read(lsk_sparse *sp, const char *field, void *dst /* OUT */, size_t dst_bytes,
                    const lsk_async *on);
/* Enqueues; blocks. */
int lsk_sparse_write(lsk_sparse *sp, const char *field, const void *src, size_t src_bytes,
                     const lsk_async *on);

/*
 * lsk_sparse_deactivate: every cell of node `level` (by name; NULL: every
 * sparse node, the whole structure) deactivated: bitmasks cleared, blocks
 * and chunks recycled, lists emptied; the GC runs before the next use.
 * Dense nodes have nothing to deactivate: LSK_EINVAL if named.
 * lsk_sparse_deactivate_all is lsk_sparse_deactivate(sp, NULL, on).
 * Enqueues; never blocks.
 */
int lsk_sparse_deactivate(lsk_sparse *sp, const char *level, const lsk_async *on);
/* Enqueues; never blocks. */
int lsk_sparse_deactivate_all(lsk_sparse *sp, const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_SPARSE_H */
