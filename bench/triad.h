/*
 * triad.h: the triad a = b + 3c over 2^log2n doubles, the one fixture of
 * `lsk bench` (its triad, soa, random and sweep runs) and of `lsk tune`
 * (which tunes bench_kernels.cl's triad on it): the host arrays b and c
 * (a's C result is b + 3c: the same formulas for both), the device
 * buffers, and the check of a against C. The bench adds its parts
 * (bench.h: lsk's kernel, the raw OpenCL ones, the host array a for its C
 * reference); for tune they stay NULL.
 */
#ifndef LSK_BENCH_TRIAD_H
#define LSK_BENCH_TRIAD_H

#include <stddef.h>

#include "lsk/lsk.h"

typedef struct triad {
  size_t n;
  /* a: the bench's C reference only (NULL for tune). Each array is an
   * allocation of its own, placed at a stagger (bench_triad_host): the
   * three never agree in their low 12 address bits. */
  double *a, *b, *c;
  void *mem[3]; /* what a, b and c were allocated as, for free */
  lsk_buffer *da, *db, *dc;
  lsk_kernel *k;   /* the bench's: lsk's ForEach triad */
  cl_kernel raw;   /* the bench's: the hand-written triad, one work-item per element, guarded */
  cl_kernel exact; /* the same without the guard, on a grid of exactly n */
} triad;

/* The stagger of the host arrays in bytes: array k (a, b, c) starts k *
 * BENCH_HOST_STAGGER bytes past a 64-byte boundary of its own allocation,
 * so that the three differ pairwise by at least 1280 bytes modulo 4 KiB
 * in both directions (no load of one aliases a store in flight to another,
 * docs/performance.md). */
#define BENCH_HOST_STAGGER 1408

/* A host array of bytes for array k (0, 1, 2) at its stagger; *mem is what
 * to free. NULL when out of memory. */
double *bench_triad_host(size_t bytes, unsigned k, void **mem /* OUT */);

/* The data on ctx: n = 2^log2n, b[i] = (i % 1000) / 2, c[i] = 1 / (1 + i %
 * 7), db and dc written, da zeroed. 0, or 1 after "lsk: <cmd>: ..." (*t
 * then holds what was made, for bench_triad_teardown). */
int bench_triad_data(lsk_context *ctx, const char *cmd, unsigned log2n, triad *t /* OUT */);

/* da read back and compared with b + 3c element by element, then zeroed
 * for the next contender. 0, or 1 after "lsk: <cmd>: triad (<who>): ...". */
int bench_triad_check(lsk_context *ctx, const char *cmd, triad *t, const char *who);

/* Frees what the setups made (any part may be missing). */
void bench_triad_teardown(triad *t);

/* bench_kernels.cl (triad, empty), embedded in lsk_bench. */
extern const char bench_kernels_source[];

#endif /* LSK_BENCH_TRIAD_H */
