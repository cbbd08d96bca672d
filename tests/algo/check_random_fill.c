/*
 * check_random_fill.c: lsk_random_fill (include/lsk/random.h) against the
 * plain C reference (tu_philox and the formulas of cl/lsk_random.h): every
 * element of every type and distribution (a sample of the largest size),
 * at the algorithms' sizes and launch shapes, with an offset; a fill split in two equals one fill;
 * the elements around the range stay untouched; the kernel's two forms (the CPU path and
 * the GPU's) each built and run whatever the device. Suite grind_random: small cases of every
 * fill kernel in both forms, for oclgrind.
 */
#include <math.h>
#include <stdio.h>

#include "testutil.h"

#define SEED 0xfeedfacecafebeefull
#define STREAM 11u

/* Element j's value in the reference, as a double (uint and the uniform
 * ones exactly). */
static double want(lsk_type type, lsk_random_dist dist, uint32_t j)
{
  uint32_t key[2] = {(uint32_t)SEED, (uint32_t)(SEED >> 32)}, r[4];
  uint32_t per = type == LSK_TYPE_DOUBLE && dist == LSK_RANDOM_NORMAL   ? 1
                 : type == LSK_TYPE_DOUBLE || dist == LSK_RANDOM_NORMAL ? 2
                                                                        : 4;
  uint32_t ctr[4] = {j / per, 0, STREAM, 0};
  tu_philox(ctr, key, r);
  if (type == LSK_TYPE_UINT)
    return r[j % 4];
  if (type == LSK_TYPE_FLOAT && dist == LSK_RANDOM_UNIFORM)
    return tu_uniform24(r[j % 4]);
  if (type == LSK_TYPE_FLOAT)
    return tu_normal24(r[2 * (j % 2)], r[2 * (j % 2) + 1]);
  if (dist == LSK_RANDOM_UNIFORM)
    return tu_uniform53(r[2 * (j % 2)], r[2 * (j % 2) + 1]);
  return tu_normal53(r);
}

/* Reads element j of a host copy as a double. */
static double got(lsk_type type, const void *h, size_t j)
{
  return type == LSK_TYPE_UINT    ? ((const uint32_t *)h)[j]
         : type == LSK_TYPE_FLOAT ? ((const float *)h)[j]
                                  : ((const double *)h)[j];
}

/* The fill's kernel (kernels/random.cl) built and launched here as
 * host/algo/random.c builds and launches it, in the form given whatever
 * the device: form 0 the GPU's, 1 the CPU path (-D LSK_RANDOM_CPU=1), so
 * that each form runs on PoCL and under oclgrind (a GPU to lsk). Blocks
 * and tiles as the host's plan makes them from opt's. */
extern const char lsk__kernels_random[];
static int fill_form(lsk_context *ctx, lsk_buffer *b, size_t off, size_t n, lsk_type type,
                     lsk_random_dist dist, const lsk_algo_options *opt, int form)
{
  size_t per = type == LSK_TYPE_DOUBLE && dist == LSK_RANDOM_NORMAL   ? 1
               : type == LSK_TYPE_DOUBLE || dist == LSK_RANDOM_NORMAL ? 2
                                                                      : 4;
  size_t counters = (off + n + per - 1) / per - off / per, tile = opt->tile;
  size_t tiles = (counters + tile - 1) / tile;
  size_t per_block = (tiles + opt->blocks - 1) / opt->blocks;
  char d[24], name[48], options[64];
  snprintf(d, sizeof d, "%s", type == LSK_TYPE_UINT ? "uint" : "");
  if (type != LSK_TYPE_UINT)
    snprintf(d, sizeof d, "%s_%s", dist == LSK_RANDOM_NORMAL ? "normal" : "uniform",
             lsk_type_name(type));
  snprintf(name, sizeof name, "lsk_random_%s", d);
  snprintf(options, sizeof options, "-DLSK_RANDOM=%s%s", d, form ? " -DLSK_RANDOM_CPU=1" : "");
  lsk_program_options po = {.name = "kernels/random.cl", .build_options = options};
  lsk_program *p;
  TU_OK(ctx, lsk_program_create(ctx, lsk__kernels_random, &po, &p));
  lsk_kernel *k = tu_kernel(p, name);
  lsk_launch cfg = {.domain = {(unsigned)tile},
                    .blocks = {(tiles + per_block - 1) / per_block},
                    .workers = opt->workers,
                    .simd = opt->simd};
  int rc = lsk_kernel_run(k, &cfg,
                          LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT((uint32_t)off),
                                   LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT((uint32_t)per_block),
                                   LSK_ARG_ULONG(SEED), LSK_ARG_UINT(STREAM)),
                          NULL);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  return rc;
}

/* One fill of n elements at offset 3, by lsk_random_fill (form -1) or the
 * kernel in form 0 or 1 (fill_form), checked against the reference. */
static void check_form(lsk_context *ctx, lsk_type type, lsk_random_dist dist, size_t n,
                       const lsk_algo_options *opt, int form, const char *what)
{
  if (tu_algo_capped(ctx, "random fill", n, opt))
    return;
  size_t size = lsk_type_size(type), off = 3, total = n + 2 * off;
  lsk_buffer *b = tu_zeros(ctx, total * size / 4);
  int rc = form < 0 ? lsk_random_fill(ctx, b, off, n, type, dist, SEED, STREAM, opt, NULL)
                    : fill_form(ctx, b, off, n, type, dist, opt, form);
  if (tu_over_limits(ctx, rc)) {
    lsk_buffer_destroy(b);
    return;
  }
  TU_OK(ctx, rc);
  unsigned char *h = malloc(total * size);
  ck_assert_ptr_nonnull(h);
  TU_OK(ctx, lsk_buffer_read(b, 0, h, total * size, NULL));
  int normal = dist == LSK_RANDOM_NORMAL;
  double tol = !normal ? 0 : type == LSK_TYPE_FLOAT ? 1e-4 : 1e-9;
  for (size_t j = 0; j < total; ++j) {
    double g = got(type, h, j);
    if (j < off || j >= off + n) {
      ck_assert_msg(g == 0, "%s n=%zu: element %zu outside the range written", what, n, j);
      continue;
    }
    /* Past 100,000 elements a sample (every 61st, and the ends): the C
     * reference costs more than the device, most under the sanitizers. */
    if (n > 100000 && (j - off) % 61 != 0 && j - off > 64 && off + n - j > 64)
      continue;
    double w = want(type, dist, (uint32_t)j);
    ck_assert_msg(fabs(g - w) <= tol * (1.0 + fabs(w)),
                  "%s n=%zu: element %zu is %.17g, want %.17g", what, n, j, g, w);
    if (!normal && type != LSK_TYPE_UINT)
      ck_assert_msg(g >= 0 && g < 1, "%s: element %zu = %.17g outside [0, 1)", what, j, g);
  }
  free(h);
  lsk_buffer_destroy(b);
}

static void check_case(lsk_context *ctx, lsk_type type, lsk_random_dist dist, size_t n,
                       const lsk_algo_options *opt, const char *what)
{
  check_form(ctx, type, dist, n, opt, -1, what);
}

static const struct {
  lsk_type type;
  lsk_random_dist dist;
  const char *name;
} kinds[] = {
    {LSK_TYPE_UINT, LSK_RANDOM_UNIFORM, "uint"},
    {LSK_TYPE_FLOAT, LSK_RANDOM_UNIFORM, "uniform float"},
    {LSK_TYPE_FLOAT, LSK_RANDOM_NORMAL, "normal float"},
    {LSK_TYPE_DOUBLE, LSK_RANDOM_UNIFORM, "uniform double"},
    {LSK_TYPE_DOUBLE, LSK_RANDOM_NORMAL, "normal double"},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

START_TEST(test_random_fill_matches_reference)
{
  lsk_context *ctx = tu_context();
  for (size_t k = 0; k < NKINDS; ++k) {
    if (kinds[k].type == LSK_TYPE_DOUBLE && !tu_fp64(ctx, kinds[k].name))
      continue;
    for (size_t s = 0; s < TU_NSIZES; ++s)
      for (size_t sh = 0; sh < TU_NSHAPES; ++sh) {
        /* The largest size at the automatic shape only: the others add
         * shapes, not elements. */
        if (tu_sizes[s] > 100000 && sh > 0)
          continue;
        char what[96];
        snprintf(what, sizeof what, "%s, shape %zu", kinds[k].name, sh);
        check_case(ctx, kinds[k].type, kinds[k].dist, tu_sizes[s], &tu_shapes[sh], what);
      }
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* Two fills of the halves give the bytes of one fill of the whole. */
START_TEST(test_random_fill_split)
{
  lsk_context *ctx = tu_context();
  enum { N = 10001 };
  lsk_buffer *one = tu_zeros(ctx, N), *two = tu_zeros(ctx, N);
  TU_OK(ctx, lsk_random_fill(ctx, one, 0, N, LSK_TYPE_FLOAT, LSK_RANDOM_NORMAL, SEED, STREAM, NULL,
                             NULL));
  TU_OK(ctx, lsk_random_fill(ctx, two, 0, 4321, LSK_TYPE_FLOAT, LSK_RANDOM_NORMAL, SEED, STREAM,
                             NULL, NULL));
  lsk_algo_options o = {.workers = 1, .simd = 1};
  TU_OK(ctx, lsk_random_fill(ctx, two, 4321, N - 4321, LSK_TYPE_FLOAT, LSK_RANDOM_NORMAL, SEED,
                             STREAM, &o, NULL));
  unsigned *a = tu_read_uints(ctx, one, N), *b = tu_read_uints(ctx, two, N);
  ck_assert_msg(memcmp(a, b, N * 4) == 0, "a split fill differs from one fill");
  /* Another stream, other numbers. */
  TU_OK(ctx, lsk_random_fill(ctx, two, 0, N, LSK_TYPE_FLOAT, LSK_RANDOM_NORMAL, SEED, STREAM + 1,
                             NULL, NULL));
  free(b);
  b = tu_read_uints(ctx, two, N);
  size_t same = 0;
  for (size_t i = 0; i < N; ++i)
    same += a[i] == b[i];
  ck_assert_msg(same < 10, "%zu of %d equal across streams", same, N);
  free(a);
  free(b);
  lsk_buffer_destroy(one);
  lsk_buffer_destroy(two);
  lsk_context_destroy(ctx);
}
END_TEST

/* Small cases of every fill kernel (oclgrind). Tiles of 16 counters:
 * with the offset of 3 the first and last tiles are partial and those
 * between whole, so that on a CPU (oclgrind, PoCL) both forms of the fill
 * run (kernels/random.cl: the CPU path's whole tiles). */
START_TEST(test_grind_random)
{
  lsk_context *ctx = tu_context();
  lsk_algo_options o = {.tile = 16, .blocks = 2};
  for (size_t k = 0; k < NKINDS; ++k)
    if (kinds[k].type != LSK_TYPE_DOUBLE || tu_fp64(ctx, kinds[k].name))
      for (int form = -1; form < 2; ++form) {
        char what[64];
        snprintf(what, sizeof what, "%s, form %d", kinds[k].name, form);
        check_form(ctx, kinds[k].type, kinds[k].dist, 150, &o, form, what);
      }
  lsk_context_destroy(ctx);
}
END_TEST

/* Both forms of the kernel, whatever the device takes: the CPU path
 * (whole tiles unguarded, the ends guarded) and the GPU's, each against
 * the reference at sizes around the tiles and the counters' ends, and at
 * a size where most tiles are whole. */
START_TEST(test_random_fill_forms)
{
  lsk_context *ctx = tu_context();
  static const size_t sizes[] = {1, 2, 5, 61, 150, 4099, 100003};
  static const lsk_algo_options shapes[] = {{.tile = 16, .blocks = 3},
                                            {.tile = 64, .blocks = 1, .workers = 4, .simd = 4},
                                            {.tile = 2048, .blocks = 7}};
  for (size_t k = 0; k < NKINDS; ++k) {
    if (kinds[k].type == LSK_TYPE_DOUBLE && !tu_fp64(ctx, kinds[k].name))
      continue;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh)
        for (int form = 0; form < 2; ++form) {
          char what[96];
          snprintf(what, sizeof what, "%s, form %d, tile %u", kinds[k].name, form, shapes[sh].tile);
          check_form(ctx, kinds[k].type, kinds[k].dist, sizes[s], &shapes[sh], form, what);
        }
  }
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_random_fill(void)
{
  Suite *s = suite_create("random_fill");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_random_fill_matches_reference);
  tcase_add_test(tc, test_random_fill_split);
  tcase_add_test(tc, test_random_fill_forms);
  suite_add_tcase(s, tc);
  return s;
}

Suite *suite_grind_random(void)
{
  Suite *s = suite_create("grind_random");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_grind_random);
  suite_add_tcase(s, tc);
  return s;
}
