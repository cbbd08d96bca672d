/*
 * lsk_shared.h: the words that the host and the device both read or write,
 * written once. This file is C11 and OpenCL C 1.2 at the same time: the
 * host library includes it (installed as lsk/shared.h, through
 * include/lsk/pool.h) and the device library embeds it, so a word moved
 * here moves on both sides. Plain
 * integer constants only (each fits a uint on both sides), no types, no
 * functions; anything that must differ between C and OpenCL C goes under
 * __OPENCL_VERSION__ (as the static assertions below do).
 */
#ifndef LSK_CL_SHARED_H
#define LSK_CL_SHARED_H

/*
 * The verify record (lsk_verify.h), one per context, in uints: the first
 * failure of a launch and the number of all failures. The host reads it
 * after a launch and reports LSK_EVERIFY.
 */
#define LSK__VREC_FAILURES 0   /* failures since the last check (atomic) */
#define LSK__VREC_LINE 1       /* the first failure's source line */
#define LSK__VREC_NVALUES 2    /* how many values it reported, up to 4 */
#define LSK__VREC_KIND 3       /* how the host words it: LSK__VKIND_* */
#define LSK__VREC_VALUES 4     /* its values as (low, high) word pairs */
#define LSK__VREC_MAX_VALUES 4 /* values per failure */
#define LSK__VREC_MSG 12       /* its message, NUL-terminated */
#define LSK__VREC_MSG_BYTES 128
#define LSK__VREC_FILE                                                                             \
  44 /* its source file (__FILE__ after the program's                                              \
        #line markers), NUL-terminated, its tail kept */
#define LSK__VREC_FILE_BYTES 64
#define LSK__VREC_WORDS 60 /* the whole record */
/* Kinds of failure: LSK_VERIFY's message and values, or a range check of a
 * generated accessor (values: the index, the size). */
#define LSK__VKIND_VERIFY 0
#define LSK__VKIND_RANGE 1

/*
 * The pool's header words (lsk_pool.h, host/mem/pool.c). The two counters that
 * every allocation or recycle hits with an atomic each have a cache line of
 * their own: in one line with each other and with the words that every
 * allocation reads, each atomic would take the line away from the other
 * cores (docs/dynamic-memory.md, The pool; figures: docs/perf/pool-pic.md).
 */
#define LSK__POOL_FREE_LEN 1    /* free list length at the last GC */
#define LSK__POOL_FRESH 2       /* first cell of the data list at the last GC */
#define LSK__POOL_CAPACITY 3    /* cells */
#define LSK__POOL_CELL_WORDS 5  /* uints from one cell to the next */
#define LSK__POOL_FREE_OFF 6    /* word offset of the free list */
#define LSK__POOL_REC_OFF 7     /* word offset of the recycled list */
#define LSK__POOL_CELLS_OFF 8   /* word offset of the cells */
#define LSK__POOL_REFUSED 9     /* refused allocations before the last GC (sticky, saturates) */
#define LSK__POOL_MISUSE 10     /* bad recycles: index out of range, recycled list full */
#define LSK__POOL_GCS 11        /* GCs run */
#define LSK__POOL_FRAME_SIZE 12 /* frames: elements per frame; 0 for a plain pool */
#define LSK__POOL_FRAME_HEAD 13 /* frames: words of the frame header */
#define LSK__POOL_RUNS_OFF 14   /* word offset of the run table (x86 CPUs; lsk_pool.h) */
#define LSK__POOL_CURSOR 16     /* allocations asked since the last GC (atomic) */
#define LSK__POOL_RECYCLED 32   /* recycles since the last GC (atomic; may pass capacity) */
#define LSK__POOL_HEADER_WORDS 48
/* Cells of this many words or more are zero-filled a block per cell. */
#define LSK__POOL_LARGE_WORDS 64
/* Recycled-list entries per run-table word: a whole cache line of uints. */
#define LSK__POOL_RUN 16u
/* No cell: LSK_POOL_INVALID on both sides (include/lsk/pool.h and
 * lsk_pool.h name it; host/mem/pool.h checks that they agree). */
#define LSK__POOL_NONE 0xffffffffu
/* A pool cache's batch where the device compiles for a CPU's own
 * instruction set (LSK_POOL_CACHE_BATCH, lsk_pool.h): the host sizes what
 * the caches may hold back from it (the bench, the tests). */
#define LSK__POOL_CACHE_CPU_BATCH 256

/*
 * A frame's header words (lsk_pool.h): the next frame + 1 (so that a
 * zero-filled frame ends a list), a count, and user words. The host puts
 * the frame's SoA chunk after LSK__FRAME_HEAD_WORDS words, rounded up to
 * the layout's alignment (host/mem/pool.c).
 */
#define LSK_FRAME_NEXT 0  /* next frame + 1 */
#define LSK_FRAME_COUNT 1 /* free for the user: e.g. occupied slots */
#define LSK_FRAME_USER 2  /* free for the user, and the word after it */
#define LSK__FRAME_HEAD_WORDS 4

/* A chunked list's header words (lsk_list.h, host/mem/chunklist.c); the chunk
 * table follows them. */
#define LSK__LIST_LEN 0        /* elements appended (atomic) */
#define LSK__LIST_LOG2 1       /* log2 of elements per chunk */
#define LSK__LIST_ELEM_BYTES 2 /* bytes per element */
#define LSK__LIST_CHUNKS 3     /* entries in the chunk table */
#define LSK__LIST_LOST 4       /* elements appended without storage (atomic) */
#define LSK__LIST_HEADER_WORDS 16

/*
 * A sparse structure's lists buffer (lsk_sparse.h, host/sparse/): a header
 * of per-node words (the word for node m at LSK__SPL_<X> + m), then each
 * node's element list: the blocks of that node found active, an entry of
 * LSK__SPL_ENTRY_WORDS words each.
 */
#define LSK__SPL_COUNT 0  /* entries listed (atomic) */
#define LSK__SPL_CAP 8    /* entries there is room for */
#define LSK__SPL_OFF 16   /* word offset of the entries */
#define LSK__SPL_LOST 24  /* activations or appends that found no room (atomic) */
#define LSK__SPL_PAST 32  /* dynamic: appends past the largest length (atomic) */
#define LSK__SPL_SUM 40   /* a count's result: low word, then high word */
#define LSK__SPL_SPARE 48 /* node m's spare blocks: LSK__SPL_SPARES words from 48 + 32 m */
#define LSK__SPL_SPARES 32
#define LSK__SPL_HEADER_WORDS 304
/* An entry: the container (a pool cell; LSK__POOL_NONE: the root's), the
 * flat index of the block's first cell in it, the cells to visit, then the
 * block's first cell's coordinates (i, j, k) from word 4. */
#define LSK__SPL_E_CONT 0
#define LSK__SPL_E_FIRST 1
#define LSK__SPL_E_COUNT 2
#define LSK__SPL_E_BASE 4
#define LSK__SPL_ENTRY_WORDS 8

/* What the words above must satisfy, checked where the compiler can: in C
 * (OpenCL C 1.2 has no static assertion; every OpenCL C compiler defines
 * __OPENCL_VERSION__, 1.1 and later __OPENCL_C_VERSION__ too). */
/* (Not in C++, whose static_assert is spelled otherwise: include/lsk/pool.h
 * brings this file to C++ consumers too.) */
/* clang-format off */
#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__) && !defined(__cplusplus) && \
    defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(LSK__VREC_VALUES + 2 * LSK__VREC_MAX_VALUES <= LSK__VREC_MSG,
               "verify record: the values overlap the message");
_Static_assert(LSK__VREC_FILE * 4 == LSK__VREC_MSG * 4 + LSK__VREC_MSG_BYTES,
               "verify record: the file does not follow the message");
_Static_assert(LSK__VREC_WORDS * 4 == LSK__VREC_FILE * 4 + LSK__VREC_FILE_BYTES,
               "verify record: the file does not end the record");
_Static_assert(LSK__VREC_KIND < LSK__VREC_VALUES, "verify record: the kind overlaps the values");
_Static_assert(LSK__POOL_FRAME_HEAD < LSK__POOL_CURSOR && LSK__POOL_CURSOR % 16 == 0 &&
                   LSK__POOL_RECYCLED % 16 == 0 && LSK__POOL_RECYCLED > LSK__POOL_CURSOR &&
                   LSK__POOL_RECYCLED + 16 <= LSK__POOL_HEADER_WORDS,
               "pool header: the counters need a 64-byte line each, inside the header");
_Static_assert(LSK_FRAME_USER + 2 <= LSK__FRAME_HEAD_WORDS,
               "frame header: two user words must fit");
_Static_assert(LSK__LIST_LOST < LSK__LIST_HEADER_WORDS, "list header: words past the header");
_Static_assert(LSK__SPL_SUM + 2 <= LSK__SPL_SPARE && LSK__SPL_PAST + 8 <= LSK__SPL_SUM &&
                   LSK__SPL_SPARE + 8 * LSK__SPL_SPARES == LSK__SPL_HEADER_WORDS,
               "sparse lists header: words past the header, or overlapping");
#endif
/* clang-format on */

#endif /* LSK_CL_SHARED_H */
