/*
 * program.h: lockstep programs, their kernels, and launches.
 *
 * A program is OpenCL C source written against the device library (cl/).
 * It is built once per distinct lockstep configuration (block domain
 * extents, workers, simd) and kept for the life of the program object; an
 * optional on-disk cache keeps binaries across processes. The configuration
 * reaches the source as -D defines: LSK_DOMAIN_X, LSK_DOMAIN_Y,
 * LSK_DOMAIN_Z, LSK_DOMAIN_SIZE, LSK_WORKERS, LSK_SIMD.
 *
 * A kernel may declare its own block domain in the source, at file scope:
 *     LSK_DECLARE_DOMAIN(name, X);  LSK_DECLARE_DOMAIN2(name, X, Y);
 *     LSK_DECLARE_DOMAIN3(name, X, Y, Z);
 * with integer literals, as many as the name says. The host reads it from the source; a launch of
 * that kernel must then give no domain or the same one.
 */
#ifndef LSK_PROGRAM_H
#define LSK_PROGRAM_H

#include "buffer.h"
#include "context.h"
#include "queue.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest block domain, in indices: context variables and slot
 * arithmetic are 32-bit on the device. */
#define LSK_MAX_DOMAIN (1u << 24)

typedef struct lsk_program lsk_program;
typedef struct lsk_kernel lsk_kernel;

/* All zeros means the defaults. */
typedef struct lsk_program_options {
  /* Name used in messages and in the build log ("iota.cl"); NULL: "source",
   * or the file's path for lsk_program_create_file. */
  const char *name;
  /* Extra options for the OpenCL compiler, appended after lsk's. */
  const char *build_options;
  /* Overrides the context's cache directory; "" disables the disk cache. */
  const char *cache_dir;
  /* Source put between the device library and the user's source, such as
   * code generated from SoA layouts (lsk_layout_emit_cl); the user's line
   * numbers are kept. NULL: none. */
  const char *prelude;
} lsk_program_options;

/*
 * lsk_program_create: keep a copy of source for building. Nothing is
 * compiled yet: builds happen at the first launch of each configuration,
 * or in lsk_program_build. Declared domains are read here.
 * Errors: LSK_EINVAL (NULL, empty source, malformed LSK_DECLARE_DOMAIN),
 * LSK_ENOMEM.
 */
int lsk_program_create(lsk_context *ctx, const char *source, const lsk_program_options *opt,
                       lsk_program **out /* OUT */);
/* As lsk_program_create, with the source read from path. Adds LSK_EIO. */
int lsk_program_create_file(lsk_context *ctx, const char *path, const lsk_program_options *opt,
                            lsk_program **out /* OUT */);
/* NULL is a no-op. Kernels of the program must be destroyed before. */
void lsk_program_destroy(lsk_program *prog);

/* What the program's builds cost so far: the configurations built, and how
 * many of them were compiled or loaded from the disk cache. For an
 * application that reports its start-up cost, or checks that its cache
 * directory serves it (a second run should load, not compile). */
typedef struct lsk_program_stats {
  unsigned configurations; /* distinct configurations built and kept */
  unsigned compiled;       /* of those, compiled from source */
  unsigned cache_loads;    /* of those, loaded from the disk cache */
} lsk_program_stats;
int lsk_program_stats_get(const lsk_program *prog, lsk_program_stats *out /* OUT */);

/* A launch shape. All zeros is not valid by itself: a domain must come from
 * here or from the kernel's declaration, and blocks[0] must be >= 1. */
typedef struct lsk_launch {
  /* Block domain extents; 0 in domain[0] means: the kernel's declared one.
   * domain[1] and domain[2] of 0 count as 1. */
  unsigned domain[3];
  /* Grid of blocks; blocks[1] and blocks[2] of 0 count as 1. */
  size_t blocks[3];
  /* Workers per block and indices per worker step; 0 means automatic
   * (see docs/lockstep.md for the rule). The result of a correct kernel
   * never depends on them. */
  unsigned workers;
  unsigned simd;
  /* Bytes of dynamic local memory, given to the argument LSK_ARG_DYN_LOCAL. */
  size_t local_bytes;
} lsk_launch;

/*
 * lsk_program_build: build (or fetch) the configuration that a launch of
 * kernel_name with cfg would use, without launching. Reports syntax errors
 * early and moves build time out of a timed region.
 */
int lsk_program_build(lsk_program *prog, const char *kernel_name, const lsk_launch *cfg);

/*
 * lsk_kernel_create: a kernel of the program by name. The name is checked
 * at the first build (LSK_ENOKERNEL then).
 */
int lsk_kernel_create(lsk_program *prog, const char *name, lsk_kernel **out /* OUT */);
void lsk_kernel_destroy(lsk_kernel *k);

/* The declared domain of the kernel, or zeros; returns 1 if it has one. */
int lsk_kernel_declared_domain(const lsk_kernel *k, unsigned domain[3] /* OUT */);

/* Kernel arguments. Build them with the LSK_ARG_* macros. */
typedef enum lsk_arg_kind {
  LSK_ARG_KIND_BUFFER = 1,
  LSK_ARG_KIND_CHAR,
  LSK_ARG_KIND_UCHAR,
  LSK_ARG_KIND_SHORT,
  LSK_ARG_KIND_USHORT,
  LSK_ARG_KIND_INT,
  LSK_ARG_KIND_UINT,
  LSK_ARG_KIND_LONG,
  LSK_ARG_KIND_ULONG,
  LSK_ARG_KIND_FLOAT,
  LSK_ARG_KIND_DOUBLE,
  LSK_ARG_KIND_BYTES,     /* a struct or vector by value: ptr and size */
  LSK_ARG_KIND_LOCAL,     /* __local memory of size bytes */
  LSK_ARG_KIND_DYN_LOCAL, /* __local memory of the launch's local_bytes */
  /* Composite kinds: each stands for several of the kinds above, expanded
   * once where a launch or lsk_tune starts. */
  LSK_ARG_KIND_BUFFERS,     /* one buffer given size times (LSK_ARG_BUFFERS) */
  LSK_ARG_KIND_SOA,         /* part size of the lsk_soa at ptr (LSK_ARG_SOA) */
  LSK_ARG_KIND_BUFFER_LIST, /* the size buffers of the array at ptr */
} lsk_arg_kind;

typedef struct lsk_arg {
  lsk_arg_kind kind;
  size_t size;
  union {
    lsk_buffer *buffer;
    int8_t c;
    uint8_t uc;
    int16_t s;
    uint16_t us;
    int32_t i;
    uint32_t u;
    int64_t l;
    uint64_t ul;
    float f;
    double d;
    const void *ptr;
  } v;
} lsk_arg;

/* In C each is a compound literal; C++ has none, so there the same macros
 * call the inline functions at the end of this file, and LSK_ARGS makes a
 * temporary array (alive until the end of the call it is written in).
 * Code is spelled the same in both. */
#ifndef __cplusplus
#define LSK__ARG(k, sz, field, x) ((lsk_arg){.kind = (k), .size = (sz), .v.field = (x)})
#define LSK__NULL NULL
#else
#define LSK__ARG(k, sz, field, x) lsk__arg_##field((k), (sz), (x))
#define LSK__NULL nullptr
#endif
#define LSK_ARG_BUFFER(b) LSK__ARG(LSK_ARG_KIND_BUFFER, sizeof(cl_mem), buffer, (b))
#define LSK_ARG_CHAR(x) LSK__ARG(LSK_ARG_KIND_CHAR, 1, c, (x))
#define LSK_ARG_UCHAR(x) LSK__ARG(LSK_ARG_KIND_UCHAR, 1, uc, (x))
#define LSK_ARG_SHORT(x) LSK__ARG(LSK_ARG_KIND_SHORT, 2, s, (x))
#define LSK_ARG_USHORT(x) LSK__ARG(LSK_ARG_KIND_USHORT, 2, us, (x))
#define LSK_ARG_INT(x) LSK__ARG(LSK_ARG_KIND_INT, 4, i, (x))
#define LSK_ARG_UINT(x) LSK__ARG(LSK_ARG_KIND_UINT, 4, u, (x))
#define LSK_ARG_LONG(x) LSK__ARG(LSK_ARG_KIND_LONG, 8, l, (x))
#define LSK_ARG_ULONG(x) LSK__ARG(LSK_ARG_KIND_ULONG, 8, ul, (x))
#define LSK_ARG_FLOAT(x) LSK__ARG(LSK_ARG_KIND_FLOAT, 4, f, (x))
#define LSK_ARG_DOUBLE(x) LSK__ARG(LSK_ARG_KIND_DOUBLE, 8, d, (x))
#define LSK_ARG_BYTES(p, n) LSK__ARG(LSK_ARG_KIND_BYTES, (n), ptr, (p))
#define LSK_ARG_LOCAL(n) LSK__ARG(LSK_ARG_KIND_LOCAL, (n), ptr, LSK__NULL)
#define LSK_ARG_DYN_LOCAL LSK__ARG(LSK_ARG_KIND_DYN_LOCAL, 0, ptr, LSK__NULL)
/* Arguments that stand for several: LSK_ARG_BUFFERS(b, count) is
 * LSK_ARG_BUFFER(b) count times (count 1 to LSK_ARG_EXPAND_MAX), for the one
 * pointer per member of a generated view; LSK_ARG_SOA(soa, part) is what
 * lsk_soa_args(soa, part, NULL, ...) gives (soa.h: one buffer per member of
 * the part's layout, its byte offset, its count). They mix with any other
 * argument in LSK_ARGS, and lsk_soa.h's LSK_SOA_ARGS(V, buf, base, n) is
 * made of them. A launch expands them first (a bad count, soa or part is
 * LSK_EINVAL naming the argument); the soa is read at the launch. */
#define LSK_ARG_BUFFERS(b, count) LSK__ARG(LSK_ARG_KIND_BUFFERS, (count), buffer, (b))
#define LSK_ARG_SOA(soa, part) LSK__ARG(LSK_ARG_KIND_SOA, (part), ptr, (soa))
/* LSK_ARG_BUFFER_LIST(list, count): the buffers list[0], ..., list[count -
 * 1] (count 1 to LSK_ARG_EXPAND_MAX), read at the launch: an object's
 * several buffers as one argument (lsk_sparse_use, sparse.h). */
#define LSK_ARG_BUFFER_LIST(list, count) LSK__ARG(LSK_ARG_KIND_BUFFER_LIST, (count), ptr, (list))
#define LSK_ARG_EXPAND_MAX 1024

/* LSK_ARGS(a, b, ...) expands to "array, count" for the launch calls (one
 * argument at least). Each argument is evaluated once. */
#ifndef __cplusplus
#define LSK_ARGS(...)                                                                              \
  ((const lsk_arg[]){__VA_ARGS__}), (sizeof((const lsk_arg[]){__VA_ARGS__}) / sizeof(lsk_arg))
#else
#define LSK_ARGS(...)                                                                              \
  lsk__arg_list<sizeof(lsk__arg_count(__VA_ARGS__))>{{__VA_ARGS__}}.a,                             \
      sizeof(lsk__arg_count(__VA_ARGS__))
#endif

/*
 * lsk_kernel_launch: enqueue the kernel on on->queue after on's wait list
 * (on NULL: the context's default queue), with an lsk_event for it in
 * *on->event if asked (queue.h; lsk_event_cl gives its OpenCL event). args
 * are the kernel's parameters after LSK_CTX, in order; their number must
 * match, and where the implementation reports argument types, each kind
 * must match (a buffer for a __global or __constant pointer, LSK_ARG_UINT
 * for uint...). The first launch of a configuration builds it. A device
 * verify failure is reported by lsk_queue_finish of that queue (or
 * lsk_context_finish), naming the queue and the kernel.
 * Thread-safe: several threads may launch on one context at once, the same
 * kernel included (the context's lock covers the build, the binding of the
 * arguments and the enqueue).
 * Errors: LSK_EINVAL (also for a bad queue or wait list: a NULL, a
 * released event, one of another context, more than LSK_WAIT_MAX; and for
 * LSK_ASYNC_NONBLOCKING), LSK_EDOMAIN, LSK_ELAUNCH, LSK_EARGS, LSK_EBUILD,
 * LSK_ENOKERNEL, OpenCL codes.
 * Enqueues; never blocks.
 */
int lsk_kernel_launch(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                      const lsk_async *on);

/* lsk_kernel_run: lsk_kernel_launch, then wait for on's queue (only that
 * one: other queues run on) and check its verify records (LSK_EVERIFY).
 * *on->event, if asked, is the launch's event (complete on return; NULL
 * after a failure, LSK_EVERIFY included).
 * Enqueues; blocks. */
int lsk_kernel_run(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                   const lsk_async *on);

/*
 * lsk_kernel_shape: the workers and simd a launch of k with cfg would use
 * (resolving 0 = automatic), building the configuration if needed.
 */
int lsk_kernel_shape(lsk_kernel *k, const lsk_launch *cfg, unsigned *workers /* OUT */,
                     unsigned *simd /* OUT */);

/*
 * lsk_auto_shape: the automatic rule on its own, without a kernel: the
 * workers and simd chosen for a block domain of domain_size on dev, with
 * kernel_max the kernel's CL_KERNEL_WORK_GROUP_SIZE (0: the device's max).
 */
void lsk_auto_shape(const lsk_device_info *dev, size_t domain_size, size_t kernel_max,
                    unsigned *workers /* OUT */, unsigned *simd /* OUT */);

/*
 * lsk_auto_blocks: the number of blocks for a grid-strided pass over items
 * (LSK_BLOCKS in the kernel) in blocks of per_block items each: one block
 * per per_block items, at most per_unit blocks per compute unit of dev
 * (0: lsk's default, 8 on GPUs and 4 elsewhere), at least 1, at most
 * 2^32 - 1. The kernel library sizes its passes with it.
 */
size_t lsk_auto_blocks(const lsk_device_info *dev, size_t items, size_t per_block,
                       unsigned per_unit);

/* How lsk_launch_for maps a count onto blocks. All zeros (or NULL) means
 * the defaults. */
typedef struct lsk_launch_for_options {
  /* Items per data block. 0: the block domain's size (the items are the
   * domain's indices: an array in tiles, the particles of full frames).
   * 1: one data block per item (a frame, a module, a supercell, whose own
   * elements are the domain's indices). Any other: that many. */
  size_t per_block;
  /* 0: one block per data block. k: at most k blocks, each then taking
   * several data blocks in turn: the kernel loops LSK_BLOCKS(b, nb) with
   * nb the data blocks, ceil(count / per_block). */
  size_t max_blocks;
} lsk_launch_for_options;

/*
 * lsk_launch_for: the launch for count items of a data structure that
 * comes in data blocks (PMacc's makeBlockCfg from a frame, with
 * .config(numBlocks, frame)): the block domain is the data block's
 * extents, out->domain = domain (zeros in domain[1] and domain[2] count 1;
 * domain[0] 0: the kernel's declared domain, allowed where opt->per_block
 * is given), and one block runs each data block: out->blocks[0] =
 * ceil(count / per_block) (blocks[1] and [2] 0: one), at least 1 (count
 * 0: one block, whose data block is empty: lsk_domain_count(0, 0) is 0),
 * at most opt->max_blocks. out->workers, simd and local_bytes are 0: automatic
 * (set them after, if wanted). Worked: count 1000 over domain {256}: 4
 * blocks (the last data block holds 232 items); 512 particles over frames
 * {8, 8, 4}: 2; 1856 modules of per_block 1 over domain {256}: 1856, with
 * max_blocks 528: 528; count 0: 1.
 * Errors (thread message naming the value): LSK_EINVAL for out or domain
 * NULL, domain[0] 0 with per_block 0; LSK_EDOMAIN for a domain of more
 * than LSK_MAX_DOMAIN indices; LSK_ERANGE for more than 2^32 - 1 blocks.
 * On failure *out is all zeros.
 */
int lsk_launch_for(size_t count, const unsigned domain[3], const lsk_launch_for_options *opt,
                   lsk_launch *out /* OUT */);

/* What a kernel is in one build (lsk_kernel_query). */
typedef struct lsk_kernel_info {
  unsigned workers, simd;      /* the launch's shape, automatic ones resolved */
  size_t work_group_max;       /* CL_KERNEL_WORK_GROUP_SIZE of the build */
  uint64_t local_static_bytes; /* CL_KERNEL_LOCAL_MEM_SIZE before arguments:
                                  its LSK_SHARED and __local variables */
  uint64_t private_bytes;      /* CL_KERNEL_PRIVATE_MEM_SIZE: per worker (0
                                  where the implementation does not say) */
} lsk_kernel_info;

/*
 * lsk_kernel_query: the shape a launch of k with cfg takes and what the
 * build for it reports (building it if needed), as lsk_kernel_shape does.
 * For choosing between kernel variants (a local-memory table that fits or
 * not) and for reports. Errors: those of lsk_kernel_shape.
 */
int lsk_kernel_query(lsk_kernel *k, const lsk_launch *cfg, lsk_kernel_info *out /* OUT */);

/*
 * lsk_program_kernel_names: the program's kernels, as the build of cfg's
 * configuration lists them (CL_PROGRAM_KERNEL_NAMES: names separated by
 * ';'), building it if needed. cfg->domain[0] of 0: the first domain the
 * source declares (LSK_DECLARE_DOMAIN); workers and simd 0: the automatic
 * rule's, without a kernel's own limit. *names is malloc'd; free it with
 * lsk_free. For tools that go through a file's kernels (`lsk check`).
 * Errors: LSK_EINVAL, LSK_EDOMAIN (no domain given or declared),
 * LSK_ELAUNCH, LSK_EBUILD, LSK_ENOMEM, OpenCL codes.
 */
int lsk_program_kernel_names(lsk_program *prog, const lsk_launch *cfg, char **names /* OUT */);

/*
 * Offline compilers. lsk_program_text: the text and the options that a
 * build of one configuration hands the OpenCL compiler, without a context:
 * the device library, then `#line 1 "NAME.prelude"` and opt->prelude, then
 * `#line 1 "NAME"` and source (NAME: opt->name, else "source"); the options
 * "-cl-std=CL1.2 " (unless opt->build_options names a standard)
 * "-cl-kernel-arg-info -DLSK_DOMAIN_X=.. -DLSK_DOMAIN_Y=.. -DLSK_DOMAIN_Z=..
 * -DLSK_DOMAIN_SIZE=.. -DLSK_WORKERS=.. -DLSK_SIMD=.. " and
 * opt->build_options. domain[1] and domain[2] of 0 count as 1. Every build
 * of a program makes its text here, so another compiler (clang for NVPTX in
 * `lsk check`) sees exactly what the device's does. Free both with lsk_free.
 * Errors: LSK_EINVAL (NULL or empty source, NULL outputs, a zero extent,
 * workers or simd, more than LSK_MAX_DOMAIN indices), LSK_ENOMEM.
 */
int lsk_program_text(const char *source, const lsk_program_options *opt, const unsigned domain[3],
                     unsigned workers, unsigned simd, char **text /* OUT */,
                     char **options /* OUT */);

/*
 * lsk_source_declared_domain: the block domain that source declares for
 * kernel (LSK_DECLARE_DOMAIN..3), read as lsk_program_create reads it:
 * *declared 1 and domain set, or 0 and zeros. kernel NULL: the first
 * declaration, whichever kernel it names. Errors: LSK_EINVAL (NULL source,
 * domain or declared; a malformed declaration, with its line).
 */
int lsk_source_declared_domain(const char *source, const char *kernel, unsigned domain[3] /* OUT */,
                               int *declared /* OUT */);

/* lsk_source_check's flag: also the heuristic (below). */
#define LSK_SOURCE_CHECK_DIVERGENT 1u

/*
 * lsk_source_check: the barriers that source places where not every
 * worker of the block reaches them, read from the text as `lsk check`
 * reads it. Each finding is one line "NAME:LINE: what", NAME being name
 * (NULL: "source"):
 * - inside a ForEach (LSK_FOREACH, LSK_FOREACH_N, LSK_ASSOC_FOREACH) or
 *   LSK_MASTER body, a barrier, a block collective, or a function of the
 *   source that is LSK_COLLECTIVE or calls one (to any depth);
 * - a `break` directly in such a body (not in a loop or switch of its own);
 * - with LSK_SOURCE_CHECK_DIVERGENT, a heuristic: a barrier or collective
 *   under an `if` or `while` whose condition names lsk_worker(),
 *   get_local_id or get_global_id.
 * The first two are certain: lsk_program_create keeps them and every build
 * of the program fails with them (LSK_EBUILD), and lsk_program_text fails
 * with them. Returns the number of findings (0: none), *report the lines
 * (NULL if none; free with lsk_free). Only the text is read: a barrier
 * behind a macro of the source's own is not seen. Errors: LSK_EINVAL (NULL
 * source or report, unknown flags), LSK_ENOMEM.
 */
int lsk_source_check(const char *source, const char *name, unsigned flags, char **report /* OUT */);

#ifdef __cplusplus
}

/* C++ (C++11 and later): what the argument macros expand to there. */
extern "C++" {
#define LSK__ARG_FN(field, T)                                                                      \
  inline lsk_arg lsk__arg_##field(lsk_arg_kind kind, size_t size, T x)                             \
  {                                                                                                \
    lsk_arg a = lsk_arg();                                                                         \
    a.kind = kind;                                                                                 \
    a.size = size;                                                                                 \
    a.v.field = x;                                                                                 \
    return a;                                                                                      \
  }
LSK__ARG_FN(buffer, lsk_buffer *)
LSK__ARG_FN(c, int8_t)
LSK__ARG_FN(uc, uint8_t)
LSK__ARG_FN(s, int16_t)
LSK__ARG_FN(us, uint16_t)
LSK__ARG_FN(i, int32_t)
LSK__ARG_FN(u, uint32_t)
LSK__ARG_FN(l, int64_t)
LSK__ARG_FN(ul, uint64_t)
LSK__ARG_FN(f, float)
LSK__ARG_FN(d, double)
LSK__ARG_FN(ptr, const void *)
#undef LSK__ARG_FN
/* LSK_ARGS: the array, a temporary of this type; the count, from the
 * arguments' number (in sizeof: not evaluated). */
template <size_t N> struct lsk__arg_list {
  lsk_arg a[N];
};
template <class... T> char (&lsk__arg_count(const T &...))[sizeof...(T)];
}
#endif
#endif /* LSK_PROGRAM_H */
