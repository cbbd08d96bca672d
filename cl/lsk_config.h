/*
 * lsk_config.h: the lockstep configuration of this build.
 *
 * The host injects, as -D defines, one configuration per build:
 *   LSK_DOMAIN_X, LSK_DOMAIN_Y, LSK_DOMAIN_Z  block domain extents
 *   LSK_DOMAIN_SIZE                           their product
 *   LSK_WORKERS                               work-items per block
 *   LSK_SIMD                                  consecutive indices per worker step
 * All are compile-time constants, so loops over the domain have constant
 * trip counts and the compiler can unroll and vectorize them.
 */
#ifndef LSK_CL_CONFIG_H
#define LSK_CL_CONFIG_H

#if !defined(LSK_DOMAIN_SIZE) || !defined(LSK_WORKERS) || !defined(LSK_SIMD)
#error "lsk: LSK_DOMAIN_SIZE, LSK_WORKERS and LSK_SIMD must be defined (the lsk host does this)"
#endif
#ifndef LSK_DOMAIN_X
#define LSK_DOMAIN_X LSK_DOMAIN_SIZE
#endif
#ifndef LSK_DOMAIN_Y
#define LSK_DOMAIN_Y 1
#endif
#ifndef LSK_DOMAIN_Z
#define LSK_DOMAIN_Z 1
#endif
#if LSK_WORKERS < 1 || LSK_SIMD < 1 || LSK_DOMAIN_SIZE < 1
#error "lsk: workers, simd and domain size must be at least 1"
#endif

/* Optional device features, enabled where the compiler reports them, with
 * one lsk name each so that kernels can test for them. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define LSK_HAS_FP64 1
#endif
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define LSK_HAS_INT64_ATOMICS 1
#endif

/* LSK__CPU_ISA: 1 where the program is compiled to a CPU's own
 * instruction set (PoCL on x86-64 or AArch64), where a block runs as one
 * thread looping over its work-items and a locked instruction costs more
 * than a plain loop; 0 on GPUs and on SPIR-V or simulated devices
 * (rusticl, oclgrind). For the device library's CPU-only code paths. */
#if defined(__x86_64__) || defined(__aarch64__)
#define LSK__CPU_ISA 1
#else
#define LSK__CPU_ISA 0
#endif

/* LSK__PREFETCH_W(p), LSK__PREFETCH_R(p): where LSK__CPU_ISA and the
 * compiler has the builtin, a hint that the line holding *p is about to be
 * written, or read (defined only there: callers put the hint's own loads
 * inside #ifdef). For scatters to many places at once, such as a counting
 * sort's (more write fronts than a CPU's prefetchers follow, so each store
 * would wait for its line), and short runs read one after another. */
#if LSK__CPU_ISA && defined(__has_builtin)
#if __has_builtin(__builtin_prefetch)
#define LSK__PREFETCH_W(p) __builtin_prefetch((p), 1)
#define LSK__PREFETCH_R(p) __builtin_prefetch((p), 0)
/* How many elements ahead a scatter loop prefetches its slot (PoCL, 2
 * cores, the association's fill: 16, 32, 64 and 128 within the noise of
 * each other, all well ahead of none). */
#define LSK__SCATTER_AHEAD 32u
#endif
#endif

/* Helpers are static inline: OpenCL C 1.2 allows static functions, and
 * plain C99 inline gives no external definition if the compiler declines to
 * inline. Forced, where the compiler is clang: PoCL 3.1's LLVM 15 crashes in
 * its inliner when a kernel calls a collective with barriers (such as
 * lsk_block_append) from two places and leaves the inlining to it. */
#ifdef __clang__
#define LSK_INLINE static inline __attribute__((always_inline))
#else
#define LSK_INLINE static inline
#endif

/*
 * LSK_KERNEL: the qualifier of every lsk kernel. It fixes the work-group
 * size to the configured workers, so a launch with another local size fails
 * loudly instead of running with a wrong mapping.
 */
#define LSK_KERNEL __kernel __attribute__((reqd_work_group_size(LSK_WORKERS, 1, 1)))

/*
 * LSK_CTX: the first parameter of every lsk kernel; the host binds it to
 * the context's verify record. Pass it on to helper functions that use
 * LSK_VERIFY as LSK_CTX_FWD (and declare them with LSK_CTX).
 */
#define LSK_CTX __global uint *lsk__ctx
#define LSK_CTX_FWD lsk__ctx

/*
 * LSK_DECLARE_DOMAIN(kernel, X), LSK_DECLARE_DOMAIN2(kernel, X, Y) and
 * LSK_DECLARE_DOMAIN3(kernel, X, Y, Z): at file scope, declare that kernel
 * always works on a block domain of X, X*Y or X*Y*Z indices. The host reads
 * this line from the source (the extents must be integer literals, as many
 * as the name says), builds the kernel with that domain and refuses
 * launches that name another one. On the device it only defines the
 * constant kernel##_DOMAIN_SIZE. (One name per rank, not one variadic
 * macro: OpenCL C 1.2 has no variadic macros, and NVIDIA's compiler
 * rejects them.)
 */
#define LSK_DECLARE_DOMAIN(kernel, x) enum { kernel##_DOMAIN_SIZE = (x) }
#define LSK_DECLARE_DOMAIN2(kernel, x, y) enum { kernel##_DOMAIN_SIZE = (x) * (y) }
#define LSK_DECLARE_DOMAIN3(kernel, x, y, z) enum { kernel##_DOMAIN_SIZE = (x) * (y) * (z) }

/* Steps of a ForEach over n indices, full steps (no index masked), and the
 * number of slots a context variable over n indices holds per worker. */
#define LSK__STRIDE (LSK_SIMD * LSK_WORKERS)
#define LSK__STEPS(n) (((n) + LSK__STRIDE - 1) / LSK__STRIDE)
#define LSK__FULL(n) ((n) / LSK__STRIDE)
#define LSK_SLOTS(n) (LSK__STEPS(n) * LSK_SIMD)

#endif /* LSK_CL_CONFIG_H */
