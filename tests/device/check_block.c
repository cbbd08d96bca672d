/*
 * check_block.c: the block collectives (cl/lsk_block.h), each against a
 * plain C reference on fixed-seed random data; appends and atomics are in
 * check_block_atomic.c. The kernels are tests/block.cl, one program built
 * once per shape; the shapes cover one worker, one lane, idle workers,
 * workers that are not a power of two, several ForEach steps, and domains
 * of 1, 7 and 1000. Domain-level results are checked exactly against the
 * domain-order reference, so they cannot depend on the shape; float data is
 * integer-valued so that sums are exact.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_block.h"
#include "core/core.h" /* lsk__device_source, lsk__map_log_lines */

/* The shapes (see check_block.h) and the shared helpers. */
const bt_shape bt_shapes[] = {
    {1, 1, 1, 1},      {1, 4, 1, 0},      /* domain 1, three idle workers */
    {7, 1, 1, 0},                         /* one worker, seven steps */
    {7, 3, 2, 1},                         /* two steps, the last partial */
    {1000, 5, 7, 0},   {1000, 12, 16, 1}, /* 29 and 6 steps */
    {1000, 64, 1, 0},                     /* 16 steps of one lane: the GPU mapping */
    {1000, 8, 125, 0}, {1000, 256, 4, 1}, /* one step: the CPU rule's shape; 256 workers */
};
const size_t bt_nshapes = sizeof bt_shapes / sizeof bt_shapes[0];
const bt_shape *bt_only;

uint64_t bt_next(uint64_t *r)
{
  uint64_t z = (*r += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
uint64_t bt_seed(const bt_shape *s, unsigned salt)
{
  return (uint64_t)salt << 48 ^ (uint64_t)s->domain << 24 ^ s->workers << 12 ^ s->simd;
}

bt bt_open(void)
{
  bt t = {tu_context(), NULL};
  TU_OK(t.ctx, lsk_program_create_file(t.ctx, LSK_TEST_DIR "/block.cl", NULL, &t.p));
  return t;
}

void bt_close(bt *t)
{
  lsk_program_destroy(t->p);
  lsk_context_destroy(t->ctx);
}

void bt_run(bt *t, const char *name, const bt_shape *s, size_t blocks, const lsk_arg *args,
            size_t nargs)
{
  lsk_kernel *k = tu_kernel(t->p, name);
  lsk_launch cfg = {
      .domain = {s->domain}, .blocks = {blocks}, .workers = s->workers, .simd = s->simd};
  TU_OK(t->ctx, lsk_kernel_run(k, &cfg, args, nargs, NULL));
  lsk_kernel_destroy(k);
}

int bt_fits(bt *t, const bt_shape *s)
{
  lsk_kernel *k = tu_kernel(t->p, "worker_uint");
  lsk_launch cfg = {.domain = {s->domain}, .blocks = {1}, .workers = s->workers, .simd = s->simd};
  int fits = tu_fits(t->ctx, k, &cfg);
  lsk_kernel_destroy(k);
  return fits;
}

lsk_buffer *bt_buf(bt *t, const void *data, size_t bytes)
{
  lsk_buffer *b = NULL;
  void *z = data ? NULL : calloc(1, bytes);
  TU_OK(t->ctx, lsk_buffer_create(t->ctx, bytes, &b));
  TU_OK(t->ctx, lsk_buffer_write(b, 0, data ? data : z, bytes, NULL));
  free(z);
  return b;
}

void *bt_get(bt *t, lsk_buffer *b, size_t bytes)
{
  void *h = malloc(bytes);
  ck_assert_ptr_nonnull(h);
  TU_OK(t->ctx, lsk_buffer_read(b, 0, h, bytes, NULL));
  lsk_buffer_destroy(b);
  return h;
}

void bt_features(bt *t, const bt_shape *s, int *fp64, int *datomics)
{
  lsk_buffer *b = bt_buf(t, NULL, 2 * sizeof(uint32_t));
  bt_run(t, "features", s, 1, LSK_ARGS(LSK_ARG_BUFFER(b)));
  uint32_t *f = bt_get(t, b, 2 * sizeof *f);
  *fp64 = (int)f[0];
  *datomics = (int)f[1];
  free(f);
}

/* The reference operations: 0 add (integers wrap; *ov notes that one did),
 * 1 min, 2 max, with their identities. */
#define ADD_INT(T, C)                                                                              \
  static C add_##T(C a, C b, int *ov)                                                              \
  {                                                                                                \
    C r;                                                                                           \
    *ov |= __builtin_add_overflow(a, b, &r);                                                       \
    return r;                                                                                      \
  }
#define ADD_FLT(T, C)                                                                              \
  static C add_##T(C a, C b, int *ov)                                                              \
  {                                                                                                \
    (void)ov;                                                                                      \
    return a + b;                                                                                  \
  }
ADD_INT(int, int32_t)
ADD_INT(uint, uint32_t)
ADD_INT(long, int64_t)
ADD_INT(ulong, uint64_t)
ADD_FLT(float, float)
ADD_FLT(double, double)

/* Integers: any bits. Floats: integers in [-1000, 1000], so that the sums
 * over a block (at most 10^6) are exact. */
static int32_t gen_int(uint64_t *r) { return (int32_t)(uint32_t)bt_next(r); }
static uint32_t gen_uint(uint64_t *r) { return (uint32_t)bt_next(r); }
static int64_t gen_long(uint64_t *r) { return (int64_t)bt_next(r); }
static uint64_t gen_ulong(uint64_t *r) { return bt_next(r); }
static float gen_float(uint64_t *r) { return (float)((int)(bt_next(r) % 2001) - 1000); }
static double gen_double(uint64_t *r) { return (double)((int)(bt_next(r) % 2001) - 1000); }

static const char *op_names[] = {"add", "min", "max"};

/*
 * Per type: check_worker_T runs worker_T on 4 blocks and checks reduce,
 * scan (exclusive and total) and bcast for every worker; check_var_T runs
 * var_T on nb blocks and checks reduce_var and scan_var (inclusive and
 * exclusive, and their totals) for every index. Both check add, and min
 * and max when NOPS is 3 (block.cl compiles them for uint and float only),
 * and report whether an integer add wrapped in the reference.
 */
#define TYPE_CHECKS(T, C, F, MINID, MAXID, NOPS)                                                   \
  static C op_##T(int op, C a, C b, int *ov)                                                       \
  {                                                                                                \
    return op == 1 ? (b < a ? b : a) : op == 2 ? (a < b ? b : a) : add_##T(a, b, ov);              \
  }                                                                                                \
  static C id_##T(int op) { return op == 1 ? MINID : op == 2 ? MAXID : 0; }                        \
  static int check_worker_##T(bt *t, const bt_shape *s)                                            \
  {                                                                                                \
    const unsigned W = s->workers, nb = 4, n = nb * W;                                             \
    C *in = malloc(n * sizeof *in);                                                                \
    uint64_t rng = bt_seed(s, 1);                                                                  \
    for (unsigned i = 0; i < n; ++i)                                                               \
      in[i] = gen_##T(&rng);                                                                       \
    lsk_buffer *bi = bt_buf(t, in, n * sizeof *in), *bo = bt_buf(t, NULL, 10 * n * sizeof *in);    \
    bt_run(t, "worker_" #T, s, nb, LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bo)));              \
    lsk_buffer_destroy(bi);                                                                        \
    C *o = bt_get(t, bo, 10 * n * sizeof *o), tot[3], pre[3], want[10];                            \
    int ov = 0;                                                                                    \
    for (unsigned b = 0; b < nb; ++b) {                                                            \
      for (int op = 0; op < NOPS; ++op) {                                                          \
        tot[op] = id_##T(op);                                                                      \
        for (unsigned w = 0; w < W; ++w)                                                           \
          tot[op] = op_##T(op, tot[op], in[b * W + w], &ov);                                       \
        pre[op] = id_##T(op);                                                                      \
      }                                                                                            \
      for (unsigned w = 0; w < W; ++w) {                                                           \
        for (int op = 0; op < NOPS; ++op) {                                                        \
          want[op] = tot[op];                                                                      \
          want[3 + 2 * op] = pre[op];                                                              \
          want[4 + 2 * op] = tot[op];                                                              \
          pre[op] = op_##T(op, pre[op], in[b * W + w], &ov);                                       \
        }                                                                                          \
        want[9] = in[b * W];                                                                       \
        for (int j = 0; j < 10; ++j)                                                               \
          if (NOPS > 1 || j == 0 || j == 3 || j == 4 || j == 9)                                    \
            ck_assert_msg(o[(b * W + w) * 10 + j] == want[j],                                      \
                          "worker_" #T " W=%u block %u worker %u output %d: " F ", want " F, W, b, \
                          w, j, o[(b * W + w) * 10 + j], want[j]);                                 \
      }                                                                                            \
    }                                                                                              \
    free(o);                                                                                       \
    free(in);                                                                                      \
    return ov;                                                                                     \
  }                                                                                                \
  static int check_var_##T(bt *t, const bt_shape *s, unsigned nb)                                  \
  {                                                                                                \
    const unsigned D = s->domain, n = nb * D;                                                      \
    C *in = malloc(n * sizeof *in);                                                                \
    uint64_t rng = bt_seed(s, 2);                                                                  \
    for (unsigned i = 0; i < n; ++i)                                                               \
      in[i] = gen_##T(&rng);                                                                       \
    lsk_buffer *bi = bt_buf(t, in, n * sizeof *in), *bo = bt_buf(t, NULL, 6 * n * sizeof *in);     \
    lsk_buffer *bt = bt_buf(t, NULL, 9 * nb * sizeof *in);                                         \
    bt_run(t, "var_" #T, s, nb,                                                                    \
           LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bo), LSK_ARG_BUFFER(bt)));                  \
    lsk_buffer_destroy(bi);                                                                        \
    C *o = bt_get(t, bo, 6 * n * sizeof *o), *tt = bt_get(t, bt, 9 * nb * sizeof *tt);             \
    int ov = 0;                                                                                    \
    for (unsigned b = 0; b < nb; ++b)                                                              \
      for (int j = 0; j < 2 * NOPS; ++j) {                                                         \
        int op = j / 2, incl = (j & 1) == 0;                                                       \
        C run = id_##T(op), prev;                                                                  \
        for (unsigned i = 0; i < D; ++i) {                                                         \
          prev = run;                                                                              \
          run = op_##T(op, run, in[b * D + i], &ov);                                               \
          C got = o[(b * 6 + j) * D + i], want = incl ? run : prev;                                \
          ck_assert_msg(got == want,                                                               \
                        "scan_var_%s_" #T " (%s) D=%u W=%u S=%u block %u index %u: " F             \
                        ", want " F,                                                               \
                        op_names[op], incl ? "inclusive" : "exclusive", D, s->workers, s->simd, b, \
                        i, got, want);                                                             \
        }                                                                                          \
        ck_assert_msg(tt[b * 9 + 3 + j] == run,                                                    \
                      "scan_var_%s_" #T " D=%u W=%u S=%u block %u total: " F ", want " F,          \
                      op_names[op], D, s->workers, s->simd, b, tt[b * 9 + 3 + j], run);            \
        ck_assert_msg(tt[b * 9 + op] == run,                                                       \
                      "reduce_var_%s_" #T " D=%u W=%u S=%u block %u: " F ", want " F,              \
                      op_names[op], D, s->workers, s->simd, b, tt[b * 9 + op], run);               \
      }                                                                                            \
    free(o);                                                                                       \
    free(tt);                                                                                      \
    free(in);                                                                                      \
    return ov;                                                                                     \
  }

TYPE_CHECKS(int, int32_t, "%" PRId32, INT32_MAX, INT32_MIN, 1)
TYPE_CHECKS(uint, uint32_t, "%" PRIu32, UINT32_MAX, 0, 3)
TYPE_CHECKS(long, int64_t, "%" PRId64, INT64_MAX, INT64_MIN, 1)
TYPE_CHECKS(ulong, uint64_t, "%" PRIu64, UINT64_MAX, 0, 1)
TYPE_CHECKS(float, float, "%g", INFINITY, -INFINITY, 3)
TYPE_CHECKS(double, double, "%g", INFINITY, -INFINITY, 1)

/* Every worker-level collective, on every shape for uint, on the shapes
 * marked all for the other types. The integer adds must have wrapped
 * somewhere (random 32- and 64-bit data). */
START_TEST(test_block_worker_collectives)
{
  bt t = bt_open();
  int fp64 = 0, datomics, wrapped[4] = {0};
  bt_features(&t, &bt_shapes[0], &fp64, &datomics);
  BT_FOR_SHAPES(s)
  {
    wrapped[1] |= check_worker_uint(&t, s);
    if (!s->all)
      continue;
    wrapped[0] |= check_worker_int(&t, s);
    wrapped[2] |= check_worker_long(&t, s);
    wrapped[3] |= check_worker_ulong(&t, s);
    check_worker_float(&t, s);
    if (fp64)
      check_worker_double(&t, s);
  }
  if (!fp64)
    printf("test_block_worker_collectives: no fp64 on this device: double not checked\n");
  /* (On the grind shape alone the data is too short to be sure of it.) */
  for (int i = 0; i < 4 && !bt_only; ++i)
    ck_assert_msg(wrapped[i], "type %d: no add wrapped around: the data does not test it", i);
  bt_close(&t);
}
END_TEST

/* reduce_var and scan_var over the block domain, the same way. */
START_TEST(test_block_var_collectives)
{
  bt t = bt_open();
  int fp64 = 0, datomics, wrapped[4] = {0};
  bt_features(&t, &bt_shapes[0], &fp64, &datomics);
  BT_FOR_SHAPES(s)
  {
    wrapped[1] |= check_var_uint(&t, s, 3);
    if (!s->all)
      continue;
    wrapped[0] |= check_var_int(&t, s, 3);
    wrapped[2] |= check_var_long(&t, s, 3);
    wrapped[3] |= check_var_ulong(&t, s, 3);
    check_var_float(&t, s, 3);
    if (fp64)
      check_var_double(&t, s, 3);
  }
  if (!fp64)
    printf("test_block_var_collectives: no fp64 on this device: double not checked\n");
  /* (On the grind shape alone the data is too short to be sure of it.) */
  for (int i = 0; i < 4 && !bt_only; ++i)
    ck_assert_msg(wrapped[i], "type %d: no add wrapped around: the data does not test it", i);
  bt_close(&t);
}
END_TEST

/* Affine maps x -> a*x + b over uint, (a, b); "f, then g". Odd a, so that
 * no product of a's vanishes and every element counts. */
typedef struct affine {
  uint32_t a, b;
} affine;
static affine then(affine f, affine g) { return (affine){g.a * f.a, g.a * f.b + g.b}; }
static int same(affine f, affine g) { return f.a == g.a && f.b == g.b; }

/* LSK_BLOCK_DEFINE with a non-commutative operation: worker-level reduce
 * and scan, and reduce_var and scan_var, against the composition in
 * worker and domain order, on every shape (most take several steps). */
START_TEST(test_block_define_keeps_order)
{
  bt t = bt_open();
  const affine id = {1, 0};
  BT_FOR_SHAPES(s)
  {
    const unsigned W = s->workers, D = s->domain, nb = 3, n = nb * (W > D ? W : D);
    affine *in = malloc(n * sizeof *in);
    uint64_t rng = bt_seed(s, 3);
    for (unsigned i = 0; i < n; ++i)
      in[i] = (affine){(uint32_t)bt_next(&rng) | 1u, (uint32_t)bt_next(&rng)};
    lsk_buffer *bi = bt_buf(&t, in, n * sizeof *in),
               *bo = bt_buf(&t, NULL, 3 * nb * W * sizeof *in);
    bt_run(&t, "worker_affine", s, nb, LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bo)));
    affine *o = bt_get(&t, bo, 3 * nb * W * sizeof *o);
    for (unsigned b = 0; b < nb; ++b) {
      affine tot = id, pre = id;
      for (unsigned w = 0; w < W; ++w)
        tot = then(tot, in[b * W + w]);
      for (unsigned w = 0; w < W; pre = then(pre, in[b * W + w]), ++w) {
        const affine *g = &o[(b * W + w) * 3];
        ck_assert_msg(same(g[0], tot) && same(g[1], pre) && same(g[2], tot),
                      "affine W=%u block %u worker %u: reduce, scan or total out of order", W, b,
                      w);
      }
    }
    free(o);
    bo = bt_buf(&t, NULL, 2 * nb * D * sizeof *in);
    lsk_buffer *bt = bt_buf(&t, NULL, 3 * nb * sizeof *in);
    bt_run(&t, "var_affine", s, nb,
           LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bo), LSK_ARG_BUFFER(bt)));
    o = bt_get(&t, bo, 2 * nb * D * sizeof *o);
    affine *tt = bt_get(&t, bt, 3 * nb * sizeof *tt);
    for (unsigned b = 0; b < nb; ++b) {
      affine run = id;
      for (unsigned i = 0; i < D; ++i) {
        ck_assert_msg(same(o[(b * 2 + 1) * D + i], run),
                      "affine exclusive scan_var D=%u W=%u S=%u block %u index %u", D, W, s->simd,
                      b, i);
        run = then(run, in[b * D + i]);
        ck_assert_msg(same(o[b * 2 * D + i], run),
                      "affine inclusive scan_var D=%u W=%u S=%u block %u index %u", D, W, s->simd,
                      b, i);
      }
      for (int j = 0; j < 3; ++j)
        ck_assert_msg(same(tt[b * 3 + j], run), "affine %s D=%u W=%u S=%u block %u",
                      j ? "scan_var total" : "reduce_var", D, W, s->simd, b);
    }
    free(o);
    free(tt);
    free(in);
    lsk_buffer_destroy(bi);
  }
  bt_close(&t);
}
END_TEST

/* count, any, all: blocks with no worker, one, all but one, all, and random
 * halves set; every worker must get the answer. */
START_TEST(test_block_predicates)
{
  bt t = bt_open();
  BT_FOR_SHAPES(s)
  {
    const unsigned W = s->workers, nb = 6, n = nb * W;
    uint32_t *in = malloc(n * sizeof *in);
    uint64_t rng = bt_seed(s, 4);
    for (unsigned b = 0; b < nb; ++b) {
      unsigned one = (unsigned)(bt_next(&rng) % W);
      for (unsigned w = 0; w < W; ++w) {
        uint32_t r = (uint32_t)bt_next(&rng) | 1u; /* a true that is not just 1 */
        in[b * W + w] = b == 0   ? 0
                        : b == 1 ? (w == one ? r : 0)
                        : b == 2 ? (w == one ? 0 : r)
                        : b == 3 ? r
                                 : (r >> 1 & 1) * r;
      }
    }
    lsk_buffer *bi = bt_buf(&t, in, n * sizeof *in), *bo = bt_buf(&t, NULL, 3 * n * sizeof *in);
    bt_run(&t, "preds", s, nb, LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bo)));
    lsk_buffer_destroy(bi);
    uint32_t *o = bt_get(&t, bo, 3 * n * sizeof *o);
    for (unsigned b = 0; b < nb; ++b) {
      uint32_t count = 0;
      for (unsigned w = 0; w < W; ++w)
        count += in[b * W + w] != 0;
      for (unsigned w = 0; w < W; ++w) {
        const uint32_t *g = &o[(b * W + w) * 3];
        ck_assert_msg(g[0] == count && g[1] == (count > 0) && g[2] == (count == W),
                      "W=%u block %u worker %u: count %u any %u all %u, want %u of %u", W, b, w,
                      g[0], g[1], g[2], count, W);
      }
    }
    free(o);
    free(in);
  }
  bt_close(&t);
}
END_TEST

/* Float min and max ignore NaNs (cl/lsk_block.h): a NaN counts as the
 * identity, so the result is the smallest (largest) of the other values,
 * +inf (-inf) where there are none. The reference folds from the identity
 * and skips NaNs. */
static float nan_min(float a, float b) { return isnan(b) ? a : b < a ? b : a; }
static float nan_max(float a, float b) { return isnan(b) ? a : a < b ? b : a; }
static float nan_fold(int op, float a, float b) { return op == 1 ? nan_min(a, b) : nan_max(a, b); }
static float nan_id(int op) { return op == 1 ? INFINITY : -INFINITY; }

/* Block b's values: 0, a NaN at the first worker (index); 1, all NaN; 2,
 * NaNs of both signs at random places; 3, a NaN at the last one. */
static float nan_gen(unsigned b, unsigned i, unsigned len, uint64_t *rng)
{
  float v = (float)((int)(bt_next(rng) % 2001) - 1000);
  int nan = b == 0 ? i == 0 : b == 1 ? 1 : b == 2 ? bt_next(rng) % 3 == 0 : i == len - 1;
  return nan ? (bt_next(rng) & 1 ? NAN : -NAN) : v;
}

static void same_float(float got, float want, const char *what, const bt_shape *s, unsigned b,
                       unsigned i)
{
  ck_assert_msg(memcmp(&got, &want, 4) == 0, "%s W=%u S=%u D=%u block %u at %u: %g, want %g", what,
                s->workers, s->simd, s->domain, b, i, (double)got, (double)want);
}

START_TEST(test_block_nan)
{
  bt t = bt_open();
  BT_FOR_SHAPES(s)
  {
    if (!s->all)
      continue;
    /* Worker level: reduce and scan (exclusive, total) of min and max. */
    const unsigned W = s->workers, nb = 4;
    float *in = malloc(nb * W * sizeof *in);
    uint64_t rng = bt_seed(s, 5);
    for (unsigned b = 0; b < nb; ++b)
      for (unsigned w = 0; w < W; ++w)
        in[b * W + w] = nan_gen(b, w, W, &rng);
    lsk_buffer *bi = bt_buf(&t, in, nb * W * 4), *bo = bt_buf(&t, NULL, 10 * nb * W * 4);
    bt_run(&t, "worker_float", s, nb, LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bo)));
    lsk_buffer_destroy(bi);
    float *o = bt_get(&t, bo, 10 * nb * W * 4);
    for (unsigned b = 0; b < nb; ++b)
      for (int op = 1; op <= 2; ++op) {
        float tot = nan_id(op), pre = nan_id(op);
        for (unsigned w = 0; w < W; ++w)
          tot = nan_fold(op, tot, in[b * W + w]);
        for (unsigned w = 0; w < W; ++w) {
          const float *g = &o[(b * W + w) * 10];
          same_float(g[op], tot, op == 1 ? "reduce_min" : "reduce_max", s, b, w);
          same_float(g[3 + 2 * op], pre, op == 1 ? "scan_min" : "scan_max", s, b, w);
          same_float(g[4 + 2 * op], tot, op == 1 ? "scan_min total" : "scan_max total", s, b, w);
          pre = nan_fold(op, pre, in[b * W + w]);
        }
      }
    free(o);
    free(in);

    /* Domain level: reduce_var, scan_var (inclusive, exclusive, totals). */
    const unsigned D = s->domain;
    in = malloc(nb * D * sizeof *in);
    for (unsigned b = 0; b < nb; ++b)
      for (unsigned i = 0; i < D; ++i)
        in[b * D + i] = nan_gen(b, i, D, &rng);
    bi = bt_buf(&t, in, nb * D * 4);
    bo = bt_buf(&t, NULL, 6 * nb * D * 4);
    lsk_buffer *btot = bt_buf(&t, NULL, 9 * nb * 4);
    bt_run(&t, "var_float", s, nb,
           LSK_ARGS(LSK_ARG_BUFFER(bi), LSK_ARG_BUFFER(bo), LSK_ARG_BUFFER(btot)));
    lsk_buffer_destroy(bi);
    o = bt_get(&t, bo, 6 * nb * D * 4);
    float *tt = bt_get(&t, btot, 9 * nb * 4);
    for (unsigned b = 0; b < nb; ++b)
      for (int op = 1; op <= 2; ++op) {
        float run = nan_id(op);
        for (unsigned i = 0; i < D; ++i) {
          same_float(o[(b * 6 + 2 * op + 1) * D + i], run, "scan_var exclusive", s, b, i);
          run = nan_fold(op, run, in[b * D + i]);
          same_float(o[(b * 6 + 2 * op) * D + i], run, "scan_var inclusive", s, b, i);
        }
        same_float(tt[b * 9 + op], run, op == 1 ? "reduce_var_min" : "reduce_var_max", s, b, 0);
        same_float(tt[b * 9 + 3 + 2 * op], run, "scan_var inclusive total", s, b, 0);
        same_float(tt[b * 9 + 4 + 2 * op], run, "scan_var exclusive total", s, b, 0);
      }
    free(o);
    free(tt);
    free(in);
  }
  bt_close(&t);
}
END_TEST

/* For the grind suite (oclgrind): scan_var and reduce_var, both appends and
 * the float atomics at one small shape of two steps, the last partial. */
void block_grind_case(void)
{
  static const bt_shape s = {7, 3, 2, 1};
  bt t = bt_open();
  check_var_uint(&t, &s, 2);
  check_var_float(&t, &s, 2);
  bt_check_append(&t, &s, "append_block", 4, 0);
  bt_check_append(&t, &s, "append_each", 3, 1);
  bt_check_atomics_float(&t, &s, 3);
  bt_close(&t);
}

/* A scan over n <= the domain inside a loop of rounds, each followed by a
 * pass that is not idempotent (a count per index, bumped once a round).
 * With workers x simd >= the domain the scan's loop over ForEach steps runs
 * 0 or 1 times, and LLVM made it a branch around the scan's barriers:
 * PoCL 3.1 then ran the pass after it twice for some work-items (found at
 * 256 x 1, the GPU rule's shape for the pixel clusterizer's domain of 256,
 * under LSK_SHAPES=nvidia: docs/gpu-shapes.md). scan_var now takes at least
 * one step. Counts and the rounds' totals are checked against n by hand. */
static const char *rounds_src =
    "LSK_KERNEL void scan_rounds(LSK_CTX, __global const uint *ns, uint rounds,\n"
    "                            __global uint *count, __global uint *totals)\n"
    "{\n"
    "  LSK_BLOCK_SCRATCH(uint, s);\n"
    "  LSK_VAR(uint, v);\n"
    "  LSK_SHARED(uint, seen, LSK_DOMAIN_SIZE);\n"
    "  LSK_FOREACH(it) seen[it.idx] = 0u;\n"
    "  lsk_sync();\n"
    "  for (uint r = 0; r < rounds; ++r) {\n"
    "    uint n = min(ns[r], (uint)LSK_DOMAIN_SIZE);\n"
    "    LSK_FOREACH_N(it, n) LSK_VAR_AT(v, it) = 1u;\n"
    "    uint total = lsk_block_scan_var_add_uint(s, v, n, 0);\n"
    "    LSK_FOREACH_N(it, n) {\n"
    "      if (LSK_VAR_AT(v, it) != it.idx)\n"
    "        continue;\n"
    "      seen[it.idx] += 1u;\n"
    "    }\n"
    "    LSK_MASTER totals[r] = total;\n"
    "    lsk_sync();\n"
    "  }\n"
    "  LSK_FOREACH(it) count[it.idx] = seen[it.idx];\n"
    "}\n";

START_TEST(test_block_scan_var_one_step_rounds)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "rounds.cl", rounds_src);
  lsk_kernel *k = tu_kernel(p, "scan_rounds");
  enum { D = 256, R = 8 };
  /* Rounds of 0 to 256 indices: index i is counted in each round with
   * n > i, so count[i] = #{r : ns[r] > i}. */
  static const unsigned ns[R] = {3, 0, 256, 40, 255, 1, 0, 130};
  lsk_buffer *bn = NULL, *bc = tu_zeros(ctx, D), *bt = tu_zeros(ctx, R);
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof ns, &bn));
  TU_OK(ctx, lsk_buffer_write(bn, 0, ns, sizeof ns, NULL));
  static const unsigned shapes[][2] = {{256, 1}, {512, 1}, {255, 1}, {128, 2}, {32, 1}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh) {
    lsk_launch cfg = {
        .domain = {D}, .blocks = {1}, .workers = shapes[sh][0], .simd = shapes[sh][1]};
    if (!tu_fits(ctx, k, &cfg))
      continue;
    TU_OK(ctx, lsk_kernel_run(k, &cfg,
                              LSK_ARGS(LSK_ARG_BUFFER(bn), LSK_ARG_UINT(R), LSK_ARG_BUFFER(bc),
                                       LSK_ARG_BUFFER(bt)),
                              NULL));
    unsigned *count = tu_read_uints(ctx, bc, D), *totals = tu_read_uints(ctx, bt, R);
    for (unsigned r = 0; r < R; ++r)
      ck_assert_msg(totals[r] == ns[r], "%u x %u: round %u's total %u, want %u", shapes[sh][0],
                    shapes[sh][1], r, totals[r], ns[r]);
    for (unsigned i = 0; i < D; ++i) {
      unsigned want = 0;
      for (unsigned r = 0; r < R; ++r)
        want += ns[r] > i;
      ck_assert_msg(count[i] == want, "%u x %u: index %u counted %u times, want %u", shapes[sh][0],
                    shapes[sh][1], i, count[i], want);
    }
    free(count);
    free(totals);
  }
  lsk_buffer_destroy(bn);
  lsk_buffer_destroy(bc);
  lsk_buffer_destroy(bt);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* The first line of the source tree's file path (from the top) that holds
 * text, or 0. */
static unsigned source_line(const char *path, const char *text)
{
  char full[512], buf[512];
  snprintf(full, sizeof full, "%s/../%s", LSK_TEST_DIR, path);
  FILE *f = fopen(full, "r");
  ck_assert_msg(f != NULL, "cannot open %s", full);
  unsigned line = 0, at = 0;
  while (!at && fgets(buf, sizeof buf, f)) {
    ++line;
    if (strstr(buf, text))
      at = line;
  }
  fclose(f);
  return at;
}

/* A build error in a copy of the block template names the template's own
 * line (cmake/embed.cmake puts a #line marker in front of every copy). The
 * error: a build option that makes scan_var's parameter `inclusive` a
 * token no declaration takes, so every copy fails on that line. */
START_TEST(test_block_template_error_names_its_line)
{
  lsk_context *ctx = tu_context();
  unsigned line = source_line("cl/lsk_block_t.h", "int inclusive)");
  ck_assert_uint_gt(line, 0);
  char want[64];
  snprintf(want, sizeof want, "lsk_block_t.h:%u:", line);
  lsk_program_options po = {.name = "empty.cl", .build_options = "-Dinclusive=+"};
  lsk_program *p;
  TU_OK(ctx, lsk_program_create(ctx, "LSK_KERNEL void empty(LSK_CTX) {}\n", &po, &p));
  lsk_launch cfg = {.domain = {64}, .workers = 8, .simd = 8};
  TU_FAILS(ctx, lsk_program_build(p, "empty", &cfg), LSK_EBUILD, want);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* The same where the compiler ignores #line in its log (NVIDIA's:
 * "<kernel>:LINE:" counted in the whole text): the first copy's line of
 * the template in the device library, as such a log names it, maps back
 * to the template's own line. */
START_TEST(test_block_template_line_from_whole_text)
{
  unsigned line = source_line("cl/lsk_block_t.h", "int inclusive)");
  ck_assert_uint_gt(line, 0);
  /* The first copy's (lsk_block_define.h's macro form ends its line with
   * a backslash). */
  const char *at = strstr(lsk__device_source, "int inclusive)\n");
  ck_assert_ptr_nonnull(at);
  unsigned whole = 1;
  for (const char *p = lsk__device_source; p < at; ++p)
    whole += *p == '\n';
  char log[64], want[64];
  snprintf(log, sizeof log, "<kernel>:%u:61: error: expected ')'", whole);
  snprintf(want, sizeof want, "lsk_block_t.h:%u:61: error: expected ')'", line);
  char *m = lsk__map_log_lines("empty.cl", log, lsk__device_source, whole + 1, whole + 2);
  ck_assert_ptr_nonnull(m);
  ck_assert_str_eq(m, want);
  free(m);
}
END_TEST

/* A kernel family's build errors name its file and its own lines: the
 * embedded kernels/reduce.cl, built as the kernel library builds it but
 * without its -D options, fails at its #error line. */
extern const char lsk__kernels_reduce[];
START_TEST(test_block_family_error_names_its_line)
{
  lsk_context *ctx = tu_context();
  unsigned line = source_line("kernels/reduce.cl", "#error");
  ck_assert_uint_gt(line, 0);
  char want[64];
  snprintf(want, sizeof want, "kernels/reduce.cl:%u:", line);
  lsk_program_options po = {.name = "kernels/reduce.cl"};
  lsk_program *p;
  TU_OK(ctx, lsk_program_create(ctx, lsk__kernels_reduce, &po, &p));
  lsk_launch cfg = {.domain = {64}, .workers = 8, .simd = 8};
  TU_FAILS(ctx, lsk_program_build(p, "lsk_reduce_add_float", &cfg), LSK_EBUILD, want);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Every test of the block suite on one small shape of two steps, the last
 * partial (all types), for the grind_types suite (oclgrind). */
static const bt_shape grind_shape = {7, 3, 2, 1};
static void only_grind_shape(void) { bt_only = &grind_shape; }
static void every_shape(void) { bt_only = NULL; }
TCase *tcase_block_grind(void)
{
  TCase *tc = tcase_create("block");
  tcase_set_timeout(tc, 600);
  tcase_add_checked_fixture(tc, only_grind_shape, every_shape);
  tcase_add_test(tc, test_block_worker_collectives);
  tcase_add_test(tc, test_block_var_collectives);
  tcase_add_test(tc, test_block_define_keeps_order);
  tcase_add_test(tc, test_block_predicates);
  bt_add_atomic_tests(tc);
  return tc;
}

Suite *suite_block(void)
{
  Suite *s = suite_create("block");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_block_worker_collectives);
  tcase_add_test(tc, test_block_var_collectives);
  tcase_add_test(tc, test_block_define_keeps_order);
  tcase_add_test(tc, test_block_predicates);
  tcase_add_test(tc, test_block_nan);
  tcase_add_test(tc, test_block_scan_var_one_step_rounds);
  tcase_add_test(tc, test_block_template_error_names_its_line);
  tcase_add_test(tc, test_block_template_line_from_whole_text);
  tcase_add_test(tc, test_block_family_error_names_its_line);
  bt_add_atomic_tests(tc);
  suite_add_tcase(s, tc);
  return s;
}
