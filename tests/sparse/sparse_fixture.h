/*
 * sparse_fixture.h: what the device suites of sparse structures share
 * (tests/sparse/check_sparse.c, check_sparse_for.c): a structure `sp` made
 * from a node list, its model (sparse_model.h) from the same list, the
 * test kernels (sparse_kernels.cl) behind the structure's generated
 * OpenCL C and an adapter written here, and the device operations over
 * lists of points, each checked against the model by the caller.
 */
#ifndef LSK_SPARSE_FIXTURE_H
#define LSK_SPARSE_FIXTURE_H

#include "sparse_model.h"
#include "testutil.h"

typedef struct spfx {
  lsk_context *ctx;
  lsk_sparse_def *def;
  lsk_sparse *sp;
  sparse_model m;
  lsk_program *prog;
  lsk_kernel *set, *get, *add, *level, *append, *length, *set_gate;
  lsk_launch cfg; /* of the plain kernels: domain 64, several groups */
} spfx;

/* A structure of nodes[0..n) with the uint field x in its leaf, on a fresh
 * context (opt: its options, NULL the defaults); its model; the kernels. */
void spfx_open(spfx *f, const lsk_snode *nodes, unsigned n, const lsk_sparse_options *opt);
void spfx_close(spfx *f);

/* The adapter of sparse_kernels.cl for f's definition (malloc'd): the
 * struct-for's level for_level (-1: none). */
char *spfx_adapter(const lsk_sparse_def *def, int for_level);
/* A program of sparse_kernels.cl for f's structure with the struct-for of
 * node lv (-1: none). */
lsk_program *spfx_program(spfx *f, int lv);
/* The same with build options (NULL: none). */
lsk_program *spfx_program_opts(spfx *f, int lv, const char *build_options);

/* The plain kernels over points pts[3 * i ..] (n of them). res may be NULL
 * where the results do not matter. */
void spfx_set(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, int *ok);
/* spfx_set behind a starting gate: f->cfg's groups start their writes at
 * once (sparse_kernels.cl's sp_set_gate). */
void spfx_set_gate(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, int *ok);
/* n blocks of the structure's pool p taken and kept (sp_hold). */
void spfx_hold(spfx *f, unsigned pool, unsigned n);
/* The root's link q set to value (sp_poke): its old value. */
uint32_t spfx_poke(spfx *f, unsigned q, uint32_t value);
void spfx_add(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, int *ok);
void spfx_get(spfx *f, const uint32_t *pts, unsigned n, uint32_t *out);
enum { SP_ACTIVATE, SP_DEACTIVATE, SP_IS_ACTIVE, SP_PTR_NULL };
void spfx_level(spfx *f, unsigned lv, int op, const uint32_t *pts, unsigned n, int *res);
void spfx_append(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, uint32_t *idx);
void spfx_length(spfx *f, const uint32_t *pts, unsigned n, uint32_t *len);

/* The whole field read back (lsk_sparse_read) against the model's
 * ambient reads, and every level's count (lsk_sparse_count) against the
 * model's; what names the step in a failure. */
void spfx_check(spfx *f, const char *what);
/* The field x as the device has it (malloc'd, m.total values). */
uint32_t *spfx_read(spfx *f);

/* A random point of the index space, and a random point whose dynamic
 * axis (if any) is 0. */
void spfx_point(const spfx *f, uint64_t *rng, uint32_t *c);

/* Level stats of node lv (lsk_sparse_stats_get). */
lsk_sparse_level_stats spfx_stats(spfx *f, unsigned lv);

#endif /* LSK_SPARSE_FIXTURE_H */
