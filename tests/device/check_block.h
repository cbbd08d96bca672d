/*
 * check_block.h: what the two files of the block suite share:
 * check_block.c (the collectives, the helpers, the suite) and
 * check_block_atomic.c (appends and atomics). Their kernels are
 * tests/block.cl, one program built once per shape.
 */
#ifndef LSK_CHECK_BLOCK_H
#define LSK_CHECK_BLOCK_H

#include <stdint.h>

#include "testutil.h"

/* A launch shape; the collectives of every type run on those marked all
 * (each kernel costs PoCL a compile per shape), those of uint on all. */
typedef struct bt_shape {
  unsigned domain, workers, simd, all;
} bt_shape;

extern const bt_shape bt_shapes[];
extern const size_t bt_nshapes;
/* When bt_only is set (tcase_block_grind: one small shape for oclgrind),
 * BT_FOR_SHAPES runs that shape alone. */
extern const bt_shape *bt_only;

/* splitmix64, and a seed from a shape and a per-test salt. */
uint64_t bt_next(uint64_t *r);
uint64_t bt_seed(const bt_shape *s, unsigned salt);

/* A context and block.cl on it. */
typedef struct bt {
  lsk_context *ctx;
  lsk_program *p;
} bt;
bt bt_open(void);
void bt_close(bt *t);

/* Shapes with more workers than block.cl's kernels take on this device
 * (CL_KERNEL_WORK_GROUP_SIZE; 32 on rusticl's llvmpipe) are skipped, with
 * the reason on stdout (tu_fits): loops need a bt t in scope. */
int bt_fits(bt *t, const bt_shape *s);
#define BT_FOR_SHAPES(s)                                                                           \
  for (const bt_shape *s = bt_only ? bt_only : bt_shapes;                                          \
       s < (bt_only ? bt_only + 1 : bt_shapes + bt_nshapes); ++s)                                  \
    if (!bt_fits(&t, s)) {                                                                         \
    } else

/* Runs a kernel of block.cl on blocks blocks of shape s (asserted). */
void bt_run(bt *t, const char *name, const bt_shape *s, size_t blocks, const lsk_arg *args,
            size_t nargs);
/* A buffer holding a copy of data, or zeros when data is NULL, written
 * whole (oclgrind counts neither fills nor partial writes). */
lsk_buffer *bt_buf(bt *t, const void *data, size_t bytes);
/* The buffer's contents in a malloc'd copy; destroys the buffer. */
void *bt_get(bt *t, lsk_buffer *b, size_t bytes);
/* Whether this build has doubles, and double atomics, by its own defines. */
void bt_features(bt *t, const bt_shape *s, int *fp64, int *datomics);

/* check_block_atomic.c: the append check (kernel append_block or
 * append_each; all requests fit, or not), the float atomics check, and
 * the tests that run them on every shape. */
void bt_check_append(bt *t, const bt_shape *s, const char *kernel, unsigned nb, int fits);
void bt_check_atomics_float(bt *t, const bt_shape *s, unsigned nb);
void bt_add_atomic_tests(TCase *tc);

#endif /* LSK_CHECK_BLOCK_H */
