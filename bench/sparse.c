/*
 * bench/sparse.c: the sparse case (`lsk bench --only sparse`): sparse
 * fields (docs/sparse.md) on the workload of bench/sparse_case.h, a ring of
 * 4.7% of a 4096 x 4096 grid, against a plain single-threaded C block
 * table (sparse_ref.c) and, where it is installed, Taichi on the CPU with
 * as many threads as the OpenCL device has compute units (sparse_taichi.c).
 *
 * lsk's side of each op, timed on the host clock to completion:
 *   activate    lsk_sparse_use, a kernel over every cell (16 x 16 per data
 *               block) that sets x = 1 in the ring, lsk_sparse_check
 *   update      lsk_sparse_for at the leaf: x = 0.5 x + 1 over the active
 *               blocks' cells, a domain-order block reduce of the new
 *               values into one double per block (partial[], by the
 *               block's position), lsk_reduce of partial[]. (A double
 *               summed cell after cell in each worker, then reduced once
 *               per block, kept ForEach's loop scalar: a quarter more of
 *               the kernel's CPU time, perf, 41 rounds.)
 *   dense       the same update from a kernel over every cell, through
 *               grid_x_ptr (NULL where inactive), the same partial sums
 *   deactivate  lsk_sparse_deactivate_all, lsk_sparse_use (which runs the
 *               GC: its zero-fill of the freed blocks), lsk_sparse_count
 *               (0; it waits for the GC)
 * The dense loop takes 16 x 16 tiles, not rows: friendlier to it than a
 * row loop, so struct-for's lead over it is not flattered.
 *
 * Rows: each op against C and against Taichi (the ratio: their time over
 * lsk's), and lsk's struct-for against lsk's own dense loop. The order of
 * the contenders rotates each round; two untimed rounds first, the first
 * of which also checks the whole field after activation. Every round's
 * counts and sums are compared with C's exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsk/sparse.h"
#include "sparse_case.h"

#define FULL_N 4096
#define FULL_ACTIVE 787456u /* 3076 blocks of 256 cells at FULL_N */

static const char source[] =
    "/* x = 1 in the ring, over every cell: a data block is a 16 x 16 tile.\n"
    " * The test first, in a ForEach with no side effect, so that it\n"
    " * vectorizes on CPUs; the activating ForEach only where a worker's\n"
    " * cells meet the ring (the C reference tests likewise). */\n"
    "#define RING_CELL(it) \\\n"
    "  uint i = bi * 16 + it.idx % 16, j = bj * 16 + it.idx / 16; \\\n"
    "  int di = (int)i - (int)centre, dj = (int)j - (int)centre; \\\n"
    "  uint d = (uint)(di * di + dj * dj), in = d >= r0sq && d < r1sq\n"
    "LSK_KERNEL void ring_activate(LSK_CTX, GRID_PARAMS, uint nb, uint centre, uint r0sq,\n"
    "                              uint r1sq)\n"
    "{\n"
    "  GRID_VIEW(s);\n"
    "  LSK_BLOCKS(b, nb * nb) {\n"
    "    uint bi = b % nb, bj = b / nb, any = 0;\n"
    "    LSK_FOREACH(it) {\n"
    "      RING_CELL(it);\n"
    "      any |= in;\n"
    "    }\n"
    "    if (any)\n"
    "      LSK_FOREACH(it) {\n"
    "        RING_CELL(it);\n"
    "        if (in)\n"
    "          grid_x_set(s, i, j, 1.0f);\n"
    "      }\n"
    "  }\n"
    "}\n"
    "/* The struct-for: the active blocks' cells; each block's sum into\n"
    " * partial[] at the block's position (inactive ones stay 0). The\n"
    " * values go through a context variable and one domain-order reduce\n"
    " * per block: no sum carried from cell to cell in ForEach's loop\n"
    " * (docs/perf/sparse.md). Float is exact here: quarters, at most 512. */\n"
    "LSK_KERNEL void sfor_update(LSK_CTX, GRID_PARAMS, uint nb, __global double *partial)\n"
    "{\n"
    "  LSK_BLOCK_SCRATCH(float, scr);\n"
    "  LSK_VAR(float, v);\n"
    "  GRID_VIEW(s);\n"
    "  GRID_FOR_CELL(s, b) {\n"
    "    __global float *x = grid_x_block(s, b);\n"
    "    GRID_FOREACH_CELL(it, s, b) {\n"
    "      float y = 0.5f * x[it.idx] + 1.0f;\n"
    "      x[it.idx] = y;\n"
    "      LSK_VAR_AT(v, it) = y;\n"
    "    }\n"
    "    float t = lsk_block_reduce_var_add_float(scr, v, LSK_DOMAIN_SIZE);\n"
    "    lsk_idx first = {0u, 0u};\n"
    "    uint3 p = grid_cell_pos(b, first); /* the block's first cell */\n"
    "    LSK_MASTER partial[p.x / 16 + nb * (p.y / 16)] = t;\n"
    "  }\n"
    "}\n"
    "/* The dense loop: every cell looked up, the inactive ones skipped;\n"
    " * the sums as the struct-for's. */\n"
    "LSK_KERNEL void dense_update(LSK_CTX, GRID_PARAMS, uint nb, __global double *partial)\n"
    "{\n"
    "  LSK_BLOCK_SCRATCH(float, scr);\n"
    "  LSK_VAR(float, v);\n"
    "  GRID_VIEW(s);\n"
    "  LSK_BLOCKS(b, nb * nb) {\n"
    "    uint bi = b % nb, bj = b / nb;\n"
    "    LSK_FOREACH(it) {\n"
    "      __global float *p = grid_x_ptr(s, bi * 16 + it.idx % 16, bj * 16 + it.idx / 16);\n"
    "      float y = 0;\n"
    "      if (p) {\n"
    "        y = 0.5f * *p + 1.0f;\n"
    "        *p = y;\n"
    "      }\n"
    "      LSK_VAR_AT(v, it) = y;\n"
    "    }\n"
    "    float t = lsk_block_reduce_var_add_float(scr, v, LSK_DOMAIN_SIZE);\n"
    "    LSK_MASTER partial[b] = t;\n"
    "  }\n"
    "}\n";

typedef struct sparse_case {
  bench *bn;
  unsigned n, nb;
  lsk_sparse *sp;
  lsk_program *prog;
  lsk_kernel *activate, *sfor, *dense;
  lsk_buffer *partial;
} sparse_case;

static int fail(sparse_case *c, const char *what)
{
  return cli_fail("bench", "sparse: %s: %s", what, lsk_context_errmsg(c->bn->ctx));
}

static int setup(sparse_case *c)
{
  char text[256];
  snprintf(text, sizeof text,
           "sparse grid\npointer block ij %u %u\ndense cell ij 16 16\nplace float x\n", c->nb,
           c->nb);
  lsk_sparse_def *def = NULL;
  if (lsk_sparse_def_parse(text, "bench.sparse", &def))
    return cli_fail("bench", "sparse: the definition: %s", lsk_context_errmsg(NULL));
  int rc = lsk_sparse_create(c->bn->ctx, def, NULL, &c->sp);
  lsk_sparse_def_destroy(def);
  if (rc)
    return fail(c, "lsk_sparse_create");
  size_t pbytes = (size_t)c->nb * c->nb * sizeof(double);
  if (lsk_program_create(
          c->bn->ctx, source,
          &(lsk_program_options){.name = "bench_sparse.cl", .prelude = lsk_sparse_source(c->sp)},
          &c->prog) ||
      lsk_kernel_create(c->prog, "ring_activate", &c->activate) ||
      lsk_kernel_create(c->prog, "sfor_update", &c->sfor) ||
      lsk_kernel_create(c->prog, "dense_update", &c->dense) ||
      lsk_buffer_create(c->bn->ctx, pbytes, &c->partial) ||
      lsk_buffer_fill(c->partial, &(double){0}, sizeof(double), 0, pbytes, NULL))
    return fail(c, "setup");
  return 0;
}

static void teardown(sparse_case *c)
{
  lsk_buffer_destroy(c->partial);
  lsk_kernel_destroy(c->activate);
  lsk_kernel_destroy(c->sfor);
  lsk_kernel_destroy(c->dense);
  lsk_program_destroy(c->prog);
  lsk_sparse_destroy(c->sp);
}

/* A kernel over every cell: one 16 x 16 tile per data block. */
static lsk_launch tiles(const sparse_case *c)
{
  size_t tiles = (size_t)c->nb * c->nb, blocks = c->bn->blocks ? c->bn->blocks : tiles;
  return (lsk_launch){.domain = {SPARSE_BLOCK * SPARSE_BLOCK},
                      .blocks = {blocks < tiles ? blocks : tiles},
                      .workers = c->bn->workers,
                      .simd = c->bn->simd};
}

static int op_activate(sparse_case *c)
{
  sparse_ring r = sparse_ring_of(c->n);
  lsk_arg grid;
  lsk_launch l = tiles(c);
  if (lsk_sparse_use(c->sp, &grid, NULL) ||
      lsk_kernel_launch(c->activate, &l,
                        LSK_ARGS(grid, LSK_ARG_UINT(c->nb), LSK_ARG_UINT(r.centre),
                                 LSK_ARG_UINT(r.r0sq), LSK_ARG_UINT(r.r1sq)),
                        NULL))
    return fail(c, "activate");
  /* Waits; a pool that ran out is an error here (the default pool holds a
   * quarter of all blocks, four times what the ring needs). */
  return lsk_sparse_check(c->sp, NULL) ? fail(c, "activate: lsk_sparse_check") : 0;
}

static int sum_partial(sparse_case *c, double *sum)
{
  return lsk_reduce(c->bn->ctx, LSK_TYPE_DOUBLE, LSK_OP_SUM, c->partial, 0, (size_t)c->nb * c->nb,
                    sum, sizeof *sum, NULL, NULL)
             ? fail(c, "lsk_reduce of the block sums")
             : 0;
}

static int op_update(sparse_case *c, double *sum)
{
  lsk_sparse_for_options opt = {
      .workers = c->bn->workers, .simd = c->bn->simd, .flags = LSK_SPARSE_FOR_NO_DEACTIVATE};
  if (lsk_sparse_for(c->sp, c->sfor, &opt,
                     LSK_ARGS(LSK_ARG_UINT(c->nb), LSK_ARG_BUFFER(c->partial)), NULL))
    return fail(c, "lsk_sparse_for");
  return sum_partial(c, sum);
}

static int op_dense(sparse_case *c, double *sum)
{
  lsk_arg grid;
  lsk_launch l = tiles(c);
  if (lsk_sparse_use(c->sp, &grid, NULL) ||
      lsk_kernel_launch(c->dense, &l,
                        LSK_ARGS(grid, LSK_ARG_UINT(c->nb), LSK_ARG_BUFFER(c->partial)), NULL))
    return fail(c, "dense loop");
  return sum_partial(c, sum);
}

static int count(sparse_case *c, double *active)
{
  uint64_t a = 0;
  if (lsk_sparse_count(c->sp, NULL, &a, NULL))
    return fail(c, "lsk_sparse_count");
  *active = (double)a;
  return 0;
}

/* The GC is lazy: lsk_sparse_count needs none (a deactivated block is
 * unlinked at once), so without lsk_sparse_use here the GC's zero-fill of
 * the freed blocks ran at the next round's activation (a trace showed it
 * there). lsk_sparse_use runs it; the count, which waits, ends the op. */
static int op_deactivate(sparse_case *c, double *active)
{
  lsk_arg grid;
  if (lsk_sparse_deactivate_all(c->sp, NULL))
    return fail(c, "lsk_sparse_deactivate_all");
  return lsk_sparse_use(c->sp, &grid, NULL) ? fail(c, "deactivate: lsk_sparse_use")
                                            : count(c, active);
}

/* The field after activation, whole, against the ring: x = 1 exactly in
 * the ring, 0 elsewhere (inactive cells read 0). */
static int check_field(sparse_case *c)
{
  size_t cells = (size_t)c->n * c->n;
  float *x = malloc(cells * sizeof *x);
  if (!x)
    return cli_fail("bench", "sparse: out of host memory for the field");
  int rc = lsk_sparse_read(c->sp, "x", x, cells * sizeof *x, NULL) ? fail(c, "lsk_sparse_read") : 0;
  sparse_ring r = sparse_ring_of(c->n);
  for (size_t k = 0; !rc && k < cells; ++k) {
    unsigned i = (unsigned)(k % c->n), j = (unsigned)(k / c->n);
    float want = sparse_in_ring(&r, i, j) ? 1.0f : 0.0f;
    if (x[k] != want)
      rc = cli_fail("bench", "sparse: after activation x(%u, %u) is %g, want %g", i, j, x[k], want);
  }
  free(x);
  return rc;
}

static int lsk_round(sparse_case *c, sparse_round *out, int check)
{
  double t0 = cli_now();
  if (op_activate(c))
    return 1;
  out->secs[0] = cli_now() - t0;
  if (count(c, &out->value[0]) || (check && check_field(c)))
    return 1;
  t0 = cli_now();
  if (op_update(c, &out->value[1]))
    return 1;
  double t1 = cli_now();
  if (op_dense(c, &out->value[2]))
    return 1;
  double t2 = cli_now();
  if (op_deactivate(c, &out->value[3]))
    return 1;
  double t3 = cli_now();
  out->secs[1] = t1 - t0;
  out->secs[2] = t2 - t1;
  out->secs[3] = t3 - t2;
  return 0;
}

/* Every op's count or sum against C's, exactly. */
static int check_round(const char *who, const sparse_round *got, const sparse_round *want)
{
  for (unsigned k = 0; k < SPARSE_OPS; ++k)
    if (got->value[k] != want->value[k])
      return cli_fail("bench", "sparse: %s: %s gave %.17g, C %.17g", who, sparse_op_names[k],
                      got->value[k], want->value[k]);
  return 0;
}

static const char *const row_names[SPARSE_OPS] = {
    "sparse activate ring (all cells)", "sparse update+sum, struct-for",
    "sparse update+sum, dense loop", "sparse deactivate all+GC+count"};
static const char *const c_names[SPARSE_OPS] = {"C block table, 1 thread",
                                                "C, active blocks, 1 thread",
                                                "C dense loop, 1 thread", "C free+zero, 1 thread"};

/* The rows: 4 against C, 4 against Taichi (where it runs), struct-for
 * against lsk's dense loop. work: cells per op, so rates are Gcell/s. */
static int new_rows(sparse_case *c, const sparse_taichi *t, double active, result *vs_c[],
                    result *vs_t[], result **vs_dense)
{
  double work[SPARSE_OPS] = {(double)c->n * c->n, active, (double)c->n * c->n, active};
  char label[64];
  for (unsigned k = 0; k < SPARSE_OPS; ++k) {
    snprintf(label, sizeof label, "sparse %s vs C", sparse_op_names[k]);
    vs_c[k] =
        bench_new_result(c->bn, KIND_RATE, row_names[k], c_names[k], label, "Gcell/s", work[k]);
    snprintf(label, sizeof label, "sparse %s vs Taichi", sparse_op_names[k]);
    vs_t[k] = !t ? NULL
                 : bench_new_result(c->bn, KIND_RATE, row_names[k], sparse_taichi_name(t), label,
                                    "Gcell/s", work[k]);
    if (!vs_c[k] || (t && !vs_t[k]))
      return cli_fail("bench", "out of memory");
  }
  *vs_dense = bench_new_result(c->bn, KIND_RATE, "sparse update: struct-for",
                               "lsk dense loop (ptr per cell)", "struct-for vs dense loop",
                               "Gcell/s", active);
  return *vs_dense ? 0 : cli_fail("bench", "out of memory");
}

/* One round of each contender, in a rotating order; r < 2: untimed. */
static int round_of(sparse_case *c, sparse_ref *ref, sparse_taichi *t, unsigned r,
                    sparse_round got[3])
{
  for (unsigned j = 0; j < 3; ++j) {
    unsigned who = (r + j) % 3;
    if (who == 0 && lsk_round(c, &got[0], r == 0))
      return 1;
    if (who == 1 && sparse_ref_round(ref, &got[1]))
      return 1;
    if (who == 2 && t && sparse_taichi_round(t, &got[2]))
      return 1;
  }
  if (c->n == FULL_N && got[1].value[0] != FULL_ACTIVE)
    return cli_fail("bench", "sparse: C activated %.0f cells, want %u", got[1].value[0],
                    FULL_ACTIVE);
  return check_round("lsk", &got[0], &got[1]) || (t && check_round("Taichi", &got[2], &got[1]));
}

static int measure(sparse_case *c, sparse_ref *ref, sparse_taichi *t)
{
  sparse_round got[3];
  result *vs_c[SPARSE_OPS], *vs_t[SPARSE_OPS], *vs_dense = NULL;
  for (unsigned r = 0; r < c->bn->repeat + 2; ++r) {
    bench_progress(c->bn, "sparse", r, c->bn->repeat + 2);
    if (round_of(c, ref, t, r, got))
      return 1;
    if (r == 1 && new_rows(c, t, got[1].value[0], vs_c, vs_t, &vs_dense))
      return 1;
    for (unsigned k = 0; r >= 2 && k < SPARSE_OPS; ++k) {
      bench_add(&vs_c[k]->lsk, got[0].secs[k]);
      bench_add(&vs_c[k]->ref, got[1].secs[k]);
      if (t) {
        bench_add(&vs_t[k]->lsk, got[0].secs[k]);
        bench_add(&vs_t[k]->ref, got[2].secs[k]);
      }
    }
    if (r >= 2) {
      bench_add(&vs_dense->lsk, got[0].secs[1]);
      bench_add(&vs_dense->ref, got[0].secs[2]);
    }
  }
  bench_progress(c->bn, "sparse", c->bn->repeat + 2, c->bn->repeat + 2);
  return 0;
}

int bench_case_sparse(bench *bn)
{
  sparse_case c = {.bn = bn, .n = bn->quick ? 1024 : FULL_N};
  c.nb = c.n / SPARSE_BLOCK;
  /* The C pool: as many blocks as lsk's default (a quarter of them). */
  sparse_ref ref;
  uint32_t cap = c.nb * c.nb / 4;
  int rc = sparse_ref_init(&ref, c.n, cap < 64 ? 64 : cap) || setup(&c);
  sparse_taichi *t = NULL;
  if (!rc) {
    char why[512] = "";
    unsigned threads = lsk_context_device(bn->ctx)->compute_units;
    int st = sparse_taichi_start(bn, c.n, threads ? threads : 1, &t, why, sizeof why);
    if (st < 0)
      rc = 1;
    else if (st > 0)
      printf("sparse: Taichi rows skipped, %s\n", why);
  }
  if (!rc)
    rc = measure(&c, &ref, t);
  if (sparse_taichi_stop(t))
    rc = 1;
  teardown(&c);
  sparse_ref_free(&ref);
  return rc;
}
