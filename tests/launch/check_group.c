/*
 * check_group.c: several devices in one process (lsk/group.h,
 * docs/devices.md).
 *
 * Suite group (the default device): the split rule on hand-worked numbers
 * and on random weights (every element in exactly one part, each boundary
 * the nearest integer to its exact place); a group of the default
 * device's two halves (PoCL's CPU device partitions equally): one OpenCL
 * context, the sub-devices' facts, buffers of member 0 shared with member
 * 1, a kernel split over both by the measured weights and checked against
 * C; the tune store keeps a sub-device's choice apart from its parent's.
 *
 * Suite group_devices: the group that LSK_TEST_GROUP names ("*" if unset);
 * tests/CMakeLists.txt runs it on two PoCL devices (POCL_DEVICES) and on
 * PoCL with rusticl (two platforms): contexts shared exactly where the
 * platform is, a kernel split over the members and checked against C,
 * buffers refused across platforms.
 *
 * Bad input to the functions: tests/badinput/check_badinput_group.c.
 */
#include <math.h>
#include <stdio.h>

#include "testutil.h"

static const char *src =
    "/* y[g] = 3 x[g] + g + 1 over [first, first + count); y starts at 0. */\n"
    "LSK_KERNEL void affine(LSK_CTX, __global uint *y, __global const uint *x, uint first,\n"
    "                       uint count)\n"
    "{\n"
    "  LSK_BLOCKS(b, (count + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < count) {\n"
    "        uint g = first + i;\n"
    "        LSK_VERIFY2(y[g] == 0u, \"element written twice\", g, y[g]);\n"
    "        y[g] = 3u * x[g] + g + 1u;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

static uint32_t want_y(const uint32_t *x, size_t g) { return 3u * x[g] + (uint32_t)g + 1u; }

/* ------------------------------------------------------------------ */
/* The split rule                                                      */

static void expect_split(size_t n, const double *w, unsigned parts, const size_t *want)
{
  size_t first[9];
  ck_assert_int_eq(lsk_split_range(n, w, parts, first), LSK_OK);
  for (unsigned i = 0; i <= parts; ++i)
    ck_assert_msg(first[i] == want[i], "n %zu, %u parts: first[%u] = %zu, want %zu", n, parts, i,
                  first[i], want[i]);
}

/* By hand: first[i] = the nearest integer to n * (w0 + ... + w(i-1)) / sum,
 * halves up. */
START_TEST(test_split_worked)
{
  expect_split(10, (double[]){1, 1, 1}, 3, (size_t[]){0, 3, 7, 10});       /* 3.33, 6.67 */
  expect_split(3, (double[]){1, 1}, 2, (size_t[]){0, 2, 3});               /* 1.5 up */
  expect_split(2, (double[]){1, 1, 1, 1}, 4, (size_t[]){0, 1, 1, 2, 2});   /* .5, 1, 1.5 */
  expect_split(7, (double[]){1, 2, 3, 4}, 4, (size_t[]){0, 1, 2, 4, 7});   /* .7, 2.1, 4.2 */
  expect_split(100003, (double[]){1, 3}, 2, (size_t[]){0, 25001, 100003}); /* 25000.75 */
  expect_split(100, (double[]){0.25, 0.75}, 2, (size_t[]){0, 25, 100});
  expect_split(0, (double[]){1, 2}, 2, (size_t[]){0, 0, 0});
  expect_split(5, (double[]){2}, 1, (size_t[]){0, 5});
  /* One part tiny: it may get nothing, and nothing is lost. */
  expect_split(10, (double[]){1e-9, 1, 1}, 3, (size_t[]){0, 0, 5, 10});
  /* Past 32 bits: (2^40 + 1) / 2 = 549755813888.5, up. */
  size_t big = ((size_t)1 << 40) + 1;
  expect_split(big, (double[]){1, 1}, 2, (size_t[]){0, ((size_t)1 << 39) + 1, big});
}
END_TEST

/* Random weights and sizes: every element in exactly one part (first
 * from 0 to n, never decreasing) and every boundary within half an
 * element of its exact place (so each part within one of its share). */
START_TEST(test_split_random)
{
  uint64_t rng = 18;
  for (int trial = 0; trial < 2000; ++trial) {
    unsigned parts = 1 + tu_rng(&rng) % 8;
    size_t n = trial % 3 == 0 ? tu_rng(&rng) % 20 : tu_rng(&rng) % 1000000;
    double w[8], sum = 0;
    for (unsigned i = 0; i < parts; ++i) {
      /* From 1e-3 to 1e3, and now and then all equal. */
      w[i] = trial % 5 == 0 ? 1.0 : pow(10.0, (double)(tu_rng(&rng) % 6001) / 1000.0 - 3.0);
      sum += w[i];
    }
    size_t first[9];
    ck_assert_int_eq(lsk_split_range(n, w, parts, first), LSK_OK);
    ck_assert_uint_eq(first[0], 0);
    ck_assert_uint_eq(first[parts], n);
    double before = 0;
    for (unsigned i = 1; i <= parts; ++i) {
      ck_assert_msg(first[i] >= first[i - 1], "trial %d: first[%u] = %zu < first[%u] = %zu", trial,
                    i, first[i], i - 1, first[i - 1]);
      before += w[i - 1];
      double exact = (double)n * before / sum;
      ck_assert_msg(fabs((double)first[i] - exact) <= 0.5 + 1e-6 * (double)n / 1e6,
                    "trial %d: first[%u] = %zu, exact %.6f", trial, i, first[i], exact);
    }
  }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Groups on this machine                                              */

/* The default device as two equal sub-devices, or NULL (with the reason
 * on stdout: the test then passes as skipped) where it cannot be split. */
static lsk_group *halves(const lsk_context_options *co)
{
  lsk_group_options o = {.partition = 2};
  if (co)
    o.context = *co;
  lsk_group *g = NULL;
  int rc = lsk_group_create(NULL, &o, &g);
  if (rc == LSK_EINVAL && (strstr(lsk_context_errmsg(NULL), "cannot be partitioned") ||
                           strstr(lsk_context_errmsg(NULL), "compute units and at most"))) {
    printf("skipped: %s\n", lsk_context_errmsg(NULL));
    return NULL;
  }
  ck_assert_msg(rc == LSK_OK, "lsk_group_create: %s", lsk_context_errmsg(NULL));
  return g;
}

/* The group named by LSK_TEST_GROUP ("*" if unset), or NULL where it
 * names no device or only one (skipped, with the reason). */
static lsk_group *env_group(void)
{
  const char *sel = getenv("LSK_TEST_GROUP");
  if (!sel || !*sel)
    sel = "*";
  lsk_group *g = NULL;
  int rc = lsk_group_create(sel, NULL, &g);
  if (rc == LSK_ENODEV) {
    printf("skipped: %s\n", lsk_context_errmsg(NULL));
    return NULL;
  }
  ck_assert_msg(rc == LSK_OK, "lsk_group_create('%s'): %s", sel, lsk_context_errmsg(NULL));
  if (lsk_group_size(g) < 2) {
    printf("skipped: fewer than two devices in the group '%s'\n", sel);
    lsk_group_destroy(g);
    return NULL;
  }
  return g;
}

/* The affine kernel on each member (built once for a test's runs). */
typedef struct affine {
  lsk_program *prog[LSK_GROUP_MAX];
  lsk_kernel *k[LSK_GROUP_MAX];
} affine;

static void affine_open(lsk_group *g, affine *a)
{
  for (unsigned i = 0; i < lsk_group_size(g); ++i) {
    a->prog[i] = tu_program(lsk_group_context(g, i), "affine.cl", src);
    a->k[i] = tu_kernel(a->prog[i], "affine");
  }
}

static void affine_close(lsk_group *g, affine *a)
{
  for (unsigned i = 0; i < lsk_group_size(g); ++i) {
    lsk_kernel_destroy(a->k[i]);
    lsk_program_destroy(a->prog[i]);
  }
}

/* Each member's part of the affine kernel over n elements split by first:
 * members sharing member 0's OpenCL context write into member 0's y
 * through shares of x and y; the others into buffers of their own, read
 * back into got. Then everything against C. Returns how many members
 * shared member 0's context. */
static unsigned split_affine(lsk_group *g, const affine *a, size_t n, const size_t *first)
{
  lsk_kernel *const *k = a->k;
  unsigned m = lsk_group_size(g), shared = 0;
  uint32_t *x = malloc(n * 4), *got = malloc(n * 4);
  ck_assert(x && got);
  uint64_t rng = 7;
  for (size_t i = 0; i < n; ++i)
    x[i] = tu_rng(&rng);
  lsk_context *c0 = lsk_group_context(g, 0);
  lsk_buffer *bx[LSK_GROUP_MAX] = {0}, *by[LSK_GROUP_MAX] = {0};
  for (unsigned i = 0; i < m; ++i) {
    lsk_context *c = lsk_group_context(g, i);
    if (i > 0 && lsk_context_cl(c) == lsk_context_cl(c0)) {
      TU_OK(NULL, lsk_group_share(g, bx[0], i, &bx[i]));
      TU_OK(NULL, lsk_group_share(g, by[0], i, &by[i]));
      ck_assert_uint_eq(lsk_buffer_size(by[i]), n * 4);
      ++shared;
    } else {
      bx[i] = tu_zeros(c, n);
      by[i] = tu_zeros(c, n);
      TU_OK(c, lsk_buffer_write(bx[i], 0, x, n * 4, NULL));
    }
  }
  /* Every member's part at once, each on its default queue. */
  for (unsigned i = 0; i < m; ++i) {
    size_t count = first[i + 1] - first[i];
    if (!count)
      continue;
    size_t blocks = (count + 255) / 256;
    lsk_launch cfg = {.domain = {256}, .blocks = {blocks < 64 ? blocks : 64}};
    TU_OK(
        lsk_group_context(g, i),
        lsk_kernel_launch(k[i], &cfg,
                          LSK_ARGS(LSK_ARG_BUFFER(by[i]), LSK_ARG_BUFFER(bx[i]),
                                   LSK_ARG_UINT((uint32_t)first[i]), LSK_ARG_UINT((uint32_t)count)),
                          NULL));
  }
  TU_OK(NULL, lsk_group_finish(g));
  TU_OK(c0, lsk_buffer_read(by[0], 0, got, n * 4, NULL));
  for (unsigned i = 1; i < m; ++i)
    if (lsk_context_cl(lsk_group_context(g, i)) != lsk_context_cl(c0))
      TU_OK(NULL, lsk_buffer_read(by[i], first[i] * 4, got + first[i],
                                  (first[i + 1] - first[i]) * 4, NULL));
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(got[i] == want_y(x, i), "y[%zu] = %u, want %u", i, got[i], want_y(x, i));
  for (unsigned i = 0; i < m; ++i) {
    lsk_buffer_destroy(bx[i]);
    lsk_buffer_destroy(by[i]);
  }
  free(x);
  free(got);
  return shared;
}

/* Two halves of one device: one OpenCL context, the facts of a
 * sub-device, the measured weights and a kernel split by them. */
START_TEST(test_group_subdevices)
{
  lsk_context *whole = tu_context();
  lsk_group *g = halves(NULL);
  if (!g) {
    lsk_context_destroy(whole);
    return;
  }
  const lsk_device_info *p = lsk_context_device(whole);
  ck_assert_uint_eq(lsk_group_size(g), 2);
  lsk_context *c0 = lsk_group_context(g, 0), *c1 = lsk_group_context(g, 1);
  ck_assert_ptr_eq(lsk_context_cl(c0), lsk_context_cl(c1));
  ck_assert_ptr_ne(lsk_context_cl_device(c0), lsk_context_cl_device(c1));
  /* The hardware's compute units: under modeled shapes (LSK_SHAPES) the
   * contexts' are the model's, the same for the halves as for the whole,
   * while the partition still tells the hardware's split. */
  lsk_device_info *list;
  size_t ndev;
  TU_OK(NULL, lsk_device_list(&list, &ndev));
  ck_assert_uint_lt(p->index, ndev);
  unsigned cu = list[p->index].compute_units;
  lsk_device_list_free(list);
  for (unsigned i = 0; i < 2; ++i) {
    const lsk_device_info *d = lsk_context_device(lsk_group_context(g, i));
    ck_assert_str_eq(d->name, p->name);
    ck_assert_uint_eq(d->index, p->index); /* the parent's place */
    ck_assert_str_eq(d->shapes, p->shapes);
    ck_assert_uint_eq(d->compute_units, p->shapes[0] ? p->compute_units : cu / 2);
    char want[LSK_NAME_MAX];
    snprintf(want, sizeof want, "%u of %u compute units (equally %u)", cu / 2, cu, cu / 2);
    ck_assert_str_eq(d->partition, want);
  }
  ck_assert_str_eq(p->partition, "");

  /* The weights: measured once, kept, and the split's when none are given. */
  double w[2], again[2];
  TU_OK(NULL, lsk_group_weights(g, w));
  TU_OK(NULL, lsk_group_weights(g, again));
  for (unsigned i = 0; i < 2; ++i) {
    ck_assert_msg(w[i] > 0 && isfinite(w[i]), "weight %u: %g", i, w[i]);
    ck_assert(w[i] == again[i]);
  }
  printf("sub-devices' triad: %.2f and %.2f GB/s\n", w[0], w[1]);
  enum { N = 100003 };
  size_t first[3], want[3];
  TU_OK(NULL, lsk_group_split(g, N, NULL, first));
  TU_OK(NULL, lsk_split_range(N, w, 2, want));
  ck_assert(memcmp(first, want, sizeof first) == 0);
  affine a;
  affine_open(g, &a);
  ck_assert_uint_eq(split_affine(g, &a, N, first), 1);
  /* Given weights, a part empty: still every element once. */
  TU_OK(NULL, lsk_group_split(g, N, (double[]){1, 3}, first));
  ck_assert_uint_eq(first[1], 25001);
  ck_assert_uint_eq(split_affine(g, &a, N, first), 1);
  TU_OK(NULL, lsk_group_split(g, 1, (double[]){1, 3}, first));
  ck_assert_uint_eq(first[1], 0);
  ck_assert_uint_eq(split_affine(g, &a, 1, first), 1);
  affine_close(g, &a);
  lsk_group_destroy(g);
  lsk_context_destroy(whole);
}
END_TEST

/* The tune store: a choice stored on the parent is not a sub-device's;
 * a sub-device's is seen by its twin (the same partition of the same
 * device) and is a file of its own. */
static const char *tsrc = "LSK_KERNEL void fill(LSK_CTX, __global uint *x, uint n)\n"
                          "{\n"
                          "  LSK_FOREACH(it) {\n"
                          "    if (it.idx < n)\n"
                          "      x[it.idx] = 5u * it.idx;\n"
                          "  }\n"
                          "}\n";

/* Neither is the automatic rule's shape for the domain of 16 (2 x 8 on
 * CPUs, 8 x 2 on llvmpipe, a warp x 1 on GPUs), which the tuner would
 * drop as a repeat. */
static const lsk_tune_shape few[] = {{1, 1}, {4, 4}};

static void tune_once(lsk_context *ctx, lsk_kernel *k)
{
  lsk_buffer *x = tu_zeros(ctx, 16);
  lsk_tune_result r;
  lsk_tune_options o = {.repeat = 1, .candidates = few, .ncandidates = 2};
  TU_OK(ctx, lsk_tune(k, &(lsk_launch){.domain = {16}, .blocks = {1}},
                      LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT(16)), &o, &r, NULL));
  ck_assert_int_eq(r.stored, 1);
  lsk_tune_result_free(&r);
  lsk_buffer_destroy(x);
}

/* Whether k (created after the choices it may see were stored) has one. */
static int stored(lsk_context *ctx, lsk_program *p)
{
  lsk_kernel *k = tu_kernel(p, "fill");
  int found = -1;
  unsigned w, s;
  TU_OK(ctx, lsk_tune_stored(k, &(lsk_launch){.domain = {16}, .blocks = {1}}, &found, &w, &s));
  lsk_kernel_destroy(k);
  return found;
}

START_TEST(test_group_tune_key)
{
  char dir[1100];
  tu_sub_dir(dir, sizeof dir, "tune");
  lsk_context_options co = {.tune_dir = dir};
  lsk_context *parent = tu_context_opt(&co);
  lsk_group *g = halves(&co);
  if (!g) {
    lsk_context_destroy(parent);
    return;
  }
  lsk_context *c0 = lsk_group_context(g, 0), *c1 = lsk_group_context(g, 1);
  lsk_program *pp = tu_program(parent, "fill.cl", tsrc), *p0 = tu_program(c0, "fill.cl", tsrc),
              *p1 = tu_program(c1, "fill.cl", tsrc);
  ck_assert_int_eq(stored(parent, pp), 0);
  lsk_kernel *kp = tu_kernel(pp, "fill");
  tune_once(parent, kp);
  ck_assert_int_eq(stored(parent, pp), 1);
  ck_assert_msg(stored(c0, p0) == 0, "the sub-device took its parent's choice");
  lsk_kernel *k0 = tu_kernel(p0, "fill");
  tune_once(c0, k0);
  ck_assert_int_eq(stored(c1, p1), 1);
  /* Two choices and their kernels' indexes (<hash>.tunes). */
  ck_assert_int_eq(tu_count_named(dir, ".tunes"), 2);
  ck_assert_int_eq(tu_count_named(dir, ".tune"), 4);
  lsk_kernel_destroy(kp);
  lsk_kernel_destroy(k0);
  lsk_program_destroy(pp);
  lsk_program_destroy(p0);
  lsk_program_destroy(p1);
  lsk_group_destroy(g);
  lsk_context_destroy(parent);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Groups of several devices (LSK_TEST_GROUP)                          */

/* Whether the device can be split equally (CL_DEVICE_PARTITION_PROPERTIES). */
static int can_partition(lsk_context *ctx)
{
  cl_device_partition_property kinds[8] = {0};
  size_t size = 0;
  if (clGetDeviceInfo(lsk_context_cl_device(ctx), CL_DEVICE_PARTITION_PROPERTIES, sizeof kinds,
                      kinds, &size) != CL_SUCCESS)
    return 0;
  for (size_t i = 0; i < size / sizeof kinds[0]; ++i)
    if (kinds[i] == CL_DEVICE_PARTITION_EQUALLY)
      return 1;
  return 0;
}

START_TEST(test_group_devices_split)
{
  lsk_group *g = env_group();
  if (!g)
    return;
  unsigned m = lsk_group_size(g);
  lsk_context *c0 = lsk_group_context(g, 0);
  /* Shared exactly where the platform is the same. */
  unsigned platforms = 0;
  for (unsigned i = 0; i < m; ++i) {
    const lsk_device_info *di = lsk_context_device(lsk_group_context(g, i));
    printf("member %u: %s (%s)\n", i, di->name, di->platform_name);
    int seen = 0;
    for (unsigned j = 0; j < i; ++j) {
      const lsk_device_info *dj = lsk_context_device(lsk_group_context(g, j));
      int same = di->platform_index == dj->platform_index;
      seen |= same;
      ck_assert_int_eq(
          lsk_context_cl(lsk_group_context(g, i)) == lsk_context_cl(lsk_group_context(g, j)), same);
    }
    platforms += !seen;
  }
  /* A buffer does not cross platforms. */
  lsk_buffer *b = tu_zeros(c0, 4), *bad = (lsk_buffer *)&bad;
  for (unsigned i = 1; i < m; ++i)
    if (lsk_context_cl(lsk_group_context(g, i)) != lsk_context_cl(c0)) {
      TU_FAILS(NULL, lsk_group_share(g, b, i, &bad), LSK_EINVAL,
               "have no OpenCL context in common");
      ck_assert_ptr_null(bad);
    }
  lsk_buffer_destroy(b);
  /* A member whose device cannot be split equally (rusticl's) says so. */
  for (unsigned i = 0; i < m; ++i) {
    lsk_context *c = lsk_group_context(g, i);
    if (can_partition(c))
      continue;
    char sel[16];
    snprintf(sel, sizeof sel, "%u", lsk_context_device(c)->index);
    lsk_group *h = (lsk_group *)&h;
    TU_FAILS(NULL, lsk_group_create(sel, &(lsk_group_options){.partition = 2}, &h), LSK_EINVAL,
             "cannot be partitioned equally (its partition types: none)");
    ck_assert_ptr_null(h);
  }
  /* The measured weights' split, and a given one. */
  double w[LSK_GROUP_MAX];
  TU_OK(NULL, lsk_group_weights(g, w));
  for (unsigned i = 0; i < m; ++i)
    printf("member %u: triad %.2f GB/s\n", i, w[i]);
  enum { N = 50021 };
  size_t first[LSK_GROUP_MAX + 1];
  TU_OK(NULL, lsk_group_split(g, N, NULL, first));
  affine a;
  affine_open(g, &a);
  unsigned shared = split_affine(g, &a, N, first);
  for (unsigned i = 0; i < m; ++i)
    w[i] = 1 + i;
  TU_OK(NULL, lsk_group_split(g, N, w, first));
  ck_assert_uint_eq(split_affine(g, &a, N, first), shared);
  affine_close(g, &a);
  printf("%u members on %u platform(s); %u shared member 0's context\n", m, platforms, shared);
  lsk_group_destroy(g);
}
END_TEST

Suite *suite_group(void)
{
  Suite *s = suite_create("group");
  TCase *split = tcase_create("split");
  tcase_add_test(split, test_split_worked);
  tcase_add_test(split, test_split_random);
  suite_add_tcase(s, split);
  TCase *sub = tcase_create("subdevices");
  tu_case_dir(sub);
  tcase_add_test(sub, test_group_subdevices);
  tcase_add_test(sub, test_group_tune_key);
  suite_add_tcase(s, sub);
  return s;
}

Suite *suite_group_devices(void)
{
  Suite *s = suite_create("group_devices");
  TCase *tc = tcase_create("devices");
  tcase_add_test(tc, test_group_devices_split);
  suite_add_tcase(s, tc);
  return s;
}
