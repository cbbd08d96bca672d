/*
 * check_shapes.c: modeled shapes (lsk_shapes, LSK_SHAPES; docs/gpu-shapes.md,
 * "GPU shapes on any device"). The H100 model's facts, capped by a real
 * device's; the automatic rule, the blocks and the tuner's candidates on
 * it; the environment variable and its error; the context option over the
 * environment; a context's facts, its launches' shapes, its kernels'
 * limits; the stored choices kept apart from the device's own. (The pixel
 * clusterizer's lookup on the model: the example's suite shapes_pixel.)
 * Every expected number is worked out by hand in the comment beside it.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Each test sets LSK_SHAPES itself: the ctest label gpushape runs every
 * suite under LSK_SHAPES=nvidia, this one included. */
static void shapes_env(const char *v)
{
  if (v)
    setenv("LSK_SHAPES", v, 1);
  else
    unsetenv("LSK_SHAPES");
}

static lsk_context *context_with(lsk_shapes shapes)
{
  return tu_context_opt(&(lsk_context_options){.shapes = shapes});
}

/* The device's own facts, whatever the environment says. */
static lsk_device_info real_facts(void)
{
  lsk_context *ctx = context_with(LSK_SHAPES_DEVICE);
  lsk_device_info d = *lsk_context_device(ctx);
  lsk_context_destroy(ctx);
  ck_assert_str_eq(d.shapes, "");
  return d;
}

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The model's shape facts over real, worked out field by field. */
static void assert_modeled(const lsk_device_info *m, const lsk_device_info *real)
{
  ck_assert_str_eq(m->shapes, "nvidia");
  ck_assert_int_eq(m->is_gpu, 1);
  ck_assert_int_eq(m->is_cpu, 0);
  ck_assert_uint_eq(m->warp_size, 32);
  ck_assert_uint_eq(m->preferred_multiple, 32);
  ck_assert_uint_eq(m->compute_units, 132);
  ck_assert_uint_eq(m->max_work_group_size, min64(real->max_work_group_size, 1024));
  ck_assert_uint_eq(m->max_work_item_sizes[0], min64(real->max_work_item_sizes[0], 1024));
  ck_assert_uint_eq(m->max_work_item_sizes[1], min64(real->max_work_item_sizes[1], 1024));
  ck_assert_uint_eq(m->max_work_item_sizes[2], min64(real->max_work_item_sizes[2], 64));
  ck_assert_uint_eq(m->local_mem_size, min64(real->local_mem_size, 49152));
  /* What the hardware is and can do stays the real device's. */
  ck_assert_str_eq(m->name, real->name);
  ck_assert_str_eq(m->platform_name, real->platform_name);
  ck_assert_uint_eq(m->index, real->index);
  ck_assert_uint_eq(m->global_mem_size, real->global_mem_size);
  ck_assert_uint_eq(m->max_alloc_size, real->max_alloc_size);
  ck_assert_int_eq(m->has_fp64, real->has_fp64);
  ck_assert_str_eq(m->partition, real->partition);
}

/* The model itself: an H100 as NVIDIA's OpenCL reports it. */
START_TEST(test_shapes_model_alone)
{
  shapes_env(NULL);
  lsk_device_info m;
  TU_OK(NULL, lsk_device_model(LSK_SHAPES_NVIDIA, NULL, &m));
  ck_assert_str_eq(m.name, "NVIDIA H100 (model)");
  ck_assert_str_eq(m.vendor, "NVIDIA Corporation");
  ck_assert_str_eq(m.shapes, "nvidia");
  ck_assert_int_eq(m.is_gpu, 1);
  ck_assert_int_eq(m.is_cpu, 0);
  ck_assert_uint_eq(m.warp_size, 32);
  ck_assert_uint_eq(m.preferred_multiple, 32);
  ck_assert_uint_eq(m.compute_units, 132);
  ck_assert_uint_eq(m.max_work_group_size, 1024);
  ck_assert_uint_eq(m.max_work_item_sizes[0], 1024);
  ck_assert_uint_eq(m.max_work_item_sizes[1], 1024);
  ck_assert_uint_eq(m.max_work_item_sizes[2], 64);
  ck_assert_uint_eq(m.local_mem_size, 48 * 1024);
  ck_assert_int_eq(m.has_fp64, 1);
  ck_assert_int_eq(m.has_int64_atomics, 1);
  ck_assert_uint_eq(m.global_mem_size, 0); /* not modeled */
}
END_TEST

/* Over a real device: limits never above its own (a CPU of 4096
 * work-items and 512 KiB, a small device of 256 and 32 KiB). */
START_TEST(test_shapes_model_caps)
{
  shapes_env(NULL);
  lsk_device_info big = {.is_cpu = 1,
                         .compute_units = 2,
                         .max_work_group_size = 4096,
                         .max_work_item_sizes = {4096, 4096, 4096},
                         .local_mem_size = 512 * 1024,
                         .global_mem_size = 1ull << 33,
                         .max_alloc_size = 1ull << 31,
                         .preferred_multiple = 8,
                         .has_fp64 = 1};
  snprintf(big.name, sizeof big.name, "cpu");
  lsk_device_info m;
  TU_OK(NULL, lsk_device_model(LSK_SHAPES_NVIDIA, &big, &m));
  assert_modeled(&m, &big);
  ck_assert_uint_eq(m.max_work_group_size, 1024);  /* min(4096, 1024) */
  ck_assert_uint_eq(m.max_work_item_sizes[2], 64); /* min(4096, 64) */
  ck_assert_uint_eq(m.local_mem_size, 48 * 1024);  /* min(512 KiB, 48 KiB) */
  ck_assert_uint_eq(m.max_alloc_size, 1ull << 31); /* the hardware's */
  lsk_device_info small = {.is_gpu = 1,
                           .max_work_group_size = 256,
                           .max_work_item_sizes = {256, 256, 256},
                           .local_mem_size = 32 * 1024};
  TU_OK(NULL, lsk_device_model(LSK_SHAPES_NVIDIA, &small, &m));
  ck_assert_uint_eq(m.max_work_group_size, 256);    /* min(256, 1024) */
  ck_assert_uint_eq(m.max_work_item_sizes[0], 256); /* min(256, 1024) */
  ck_assert_uint_eq(m.max_work_item_sizes[2], 64);  /* min(256, 64) */
  ck_assert_uint_eq(m.local_mem_size, 32 * 1024);   /* min(32 KiB, 48 KiB) */
  /* In place, and the device's own shapes: a plain copy. */
  lsk_device_info same = big;
  TU_OK(NULL, lsk_device_model(LSK_SHAPES_NVIDIA, &same, &same));
  ck_assert_uint_eq(same.warp_size, 32);
  TU_OK(NULL, lsk_device_model(LSK_SHAPES_DEVICE, &big, &m));
  ck_assert(memcmp(&m, &big, sizeof m) == 0);
}
END_TEST

/* The automatic rule on the model: whole warps of one index each, at most
 * 1024 workers; 132 units x 8 blocks at most; the tuner's powers of two. */
START_TEST(test_shapes_model_rule)
{
  shapes_env(NULL);
  lsk_device_info m;
  TU_OK(NULL, lsk_device_model(LSK_SHAPES_NVIDIA, NULL, &m));
  static const struct {
    size_t domain, kernel_max;
    unsigned workers;
  } rows[] = {
      {1, 0, 32},                     /* one warp, 31 idle */
      {32, 0, 32},                    /* exactly one warp */
      {33, 0, 64},                    /* 33 rounds up to 2 warps */
      {100, 0, 128},                  /* 100 -> 4 warps */
      {256, 0, 256},                  /* the pixel clusterizer's domain */
      {1000, 0, 1000 / 32 * 32 + 32}, /* 1024 */
      {1025, 0, 1024},                /* capped at 1024, 2 steps */
      {5000, 0, 1024},                /* capped at 1024, 5 steps */
      {5000, 200, 192},               /* a kernel of 200: 6 whole warps */
      {100, 20, 20},                  /* a kernel below one warp: all it takes */
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    unsigned w = 0, s = 0;
    lsk_auto_shape(&m, rows[i].domain, rows[i].kernel_max, &w, &s);
    ck_assert_msg(w == rows[i].workers && s == 1,
                  "domain %zu, kernel max %zu: %u x %u, want %u x 1", rows[i].domain,
                  rows[i].kernel_max, w, s, rows[i].workers);
  }
  /* Blocks: 132 units x 8 per unit = 1056 at most. */
  ck_assert_uint_eq(lsk_auto_blocks(&m, 1000000, 256, 0), 1056);
  ck_assert_uint_eq(lsk_auto_blocks(&m, 1000, 256, 0), 4);    /* ceil(1000 / 256) */
  ck_assert_uint_eq(lsk_auto_blocks(&m, 1000000, 1, 2), 264); /* 132 x 2 */
  /* The tuner: workers 1, 2, ..., 1024 (11), each with simd 1 and with
   * ceil(5000 / w), never 1 below 5000 workers: 22 shapes, the last
   * 1024 x 5. */
  lsk_tune_shape c[32];
  ck_assert_uint_eq(lsk_tune_candidates(&m, 5000, 0, c, 32), 22);
  ck_assert_uint_eq(c[21].workers, 1024);
  ck_assert_uint_eq(c[21].simd, 5);
}
END_TEST

/* The automatic rule on a CPU (docs/lockstep.md): one step of contiguous
 * runs, workers = max(2, ceil(domain / 256)) within the domain and the
 * device's limit (max(8, ...) where loops are capped), simd =
 * ceil(domain / workers) up to 256. Numbers worked by hand. */
START_TEST(test_shapes_cpu_rule)
{
  lsk_device_info cpu = {.is_cpu = 1,
                         .compute_units = 2,
                         .max_work_group_size = 4096,
                         .max_work_item_sizes = {4096, 4096, 4096}};
  static const struct {
    size_t domain, kernel_max;
    unsigned workers, simd;
  } rows[] = {
      {1, 0, 1, 1},       /* one index: one worker */
      {2, 0, 2, 1},       /* the floor, one index each */
      {100, 0, 2, 50},    /* the floor of 2 */
      {256, 0, 2, 128},   /* the sparse library's tiles */
      {512, 0, 2, 256},   /* still the floor */
      {1000, 0, 4, 250},  /* ceil(1000 / 256) */
      {2048, 0, 8, 256},  /* the kernel library's tiles */
      {4096, 0, 16, 256}, /* the bench's triad */
      {4096, 8, 8, 256},  /* a kernel of 8: runs of 256 in 2 steps */
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    unsigned w = 0, s = 0;
    lsk_auto_shape(&cpu, rows[i].domain, rows[i].kernel_max, &w, &s);
    ck_assert_msg(w == rows[i].workers && s == rows[i].simd,
                  "domain %zu, kernel max %zu: %u x %u, want %u x %u", rows[i].domain,
                  rows[i].kernel_max, w, s, rows[i].workers, rows[i].simd);
  }
  /* llvmpipe (loops capped, workers in vector lanes): the floor of 8. */
  cpu.loops_capped = 1;
  unsigned w = 0, s = 0;
  lsk_auto_shape(&cpu, 256, 0, &w, &s);
  ck_assert_msg(w == 8 && s == 32, "capped, domain 256: %u x %u, want 8 x 32", w, s);
  lsk_auto_shape(&cpu, 4096, 0, &w, &s);
  ck_assert_msg(w == 16 && s == 256, "capped, domain 4096: %u x %u, want 16 x 256", w, s);
}
END_TEST

/* LSK_SHAPES=nvidia: the context's facts are the model's over the device;
 * any case; "device", empty and unset: the device's own. */
START_TEST(test_shapes_env)
{
  lsk_device_info real = real_facts();
  const char *on[] = {"nvidia", "NVIDIA", "Nvidia"};
  for (size_t i = 0; i < 3; ++i) {
    shapes_env(on[i]);
    lsk_context *ctx = tu_context();
    assert_modeled(lsk_context_device(ctx), &real);
    lsk_context_destroy(ctx);
    /* lsk_device_model's LSK_SHAPES_DEFAULT reads the same variable. */
    lsk_device_info m;
    TU_OK(NULL, lsk_device_model(LSK_SHAPES_DEFAULT, &real, &m));
    assert_modeled(&m, &real);
  }
  const char *off[] = {"device", "DEVICE", "", NULL};
  for (size_t i = 0; i < 4; ++i) {
    shapes_env(off[i]);
    lsk_context *ctx = tu_context();
    const lsk_device_info *d = lsk_context_device(ctx);
    ck_assert_str_eq(d->shapes, "");
    ck_assert_int_eq(d->is_gpu, real.is_gpu);
    ck_assert_uint_eq(d->compute_units, real.compute_units);
    ck_assert_uint_eq(d->max_work_group_size, real.max_work_group_size);
    ck_assert_uint_eq(d->local_mem_size, real.local_mem_size);
    ck_assert_uint_eq(d->preferred_multiple, real.preferred_multiple);
    lsk_context_destroy(ctx);
  }
  shapes_env(NULL);
}
END_TEST

/* A bad value: LSK_EINVAL at creation, the function and the value named;
 * an option out of range likewise. */
START_TEST(test_shapes_env_bad)
{
  lsk_context *ctx = (lsk_context *)&ctx;
  shapes_env("gpu");
  TU_FAILS(NULL, lsk_context_create(NULL, &ctx), LSK_EINVAL,
           "lsk_context_create: bad LSK_SHAPES 'gpu': 'nvidia' or 'device' wanted");
  ck_assert_ptr_null(ctx);
  lsk_device_info m;
  TU_FAILS(NULL, lsk_device_model(LSK_SHAPES_DEFAULT, NULL, &m), LSK_EINVAL,
           "lsk_device_model: bad LSK_SHAPES 'gpu'");
  shapes_env("nvidia ");
  TU_FAILS(NULL, lsk_context_create(NULL, &ctx), LSK_EINVAL, "bad LSK_SHAPES 'nvidia '");
  /* The option names the variable's value only when it reads it: an
   * explicit option never looks. */
  ctx = context_with(LSK_SHAPES_NVIDIA);
  ck_assert_str_eq(lsk_context_device(ctx)->shapes, "nvidia");
  lsk_context_destroy(ctx);
  shapes_env(NULL);
  TU_FAILS(NULL, lsk_context_create(&(lsk_context_options){.shapes = (lsk_shapes)7}, &ctx),
           LSK_EINVAL, "lsk_context_create: shapes 7 is none of LSK_SHAPES_*");
}
END_TEST

/* The option wins over the environment, both ways, for create and wrap. */
START_TEST(test_shapes_option_wins)
{
  lsk_device_info real = real_facts();
  shapes_env("nvidia");
  lsk_context *ctx = context_with(LSK_SHAPES_DEVICE);
  ck_assert_str_eq(lsk_context_device(ctx)->shapes, "");
  ck_assert_uint_eq(lsk_context_device(ctx)->compute_units, real.compute_units);
  /* wrap: the same OpenCL objects, modeled or not by the option alone. */
  lsk_context *w = NULL;
  TU_OK(NULL,
        lsk_context_wrap(lsk_context_cl(ctx), lsk_context_cl_device(ctx), lsk_context_cl_queue(ctx),
                         &(lsk_context_options){.shapes = LSK_SHAPES_DEVICE}, &w));
  ck_assert_str_eq(lsk_context_device(w)->shapes, "");
  lsk_context_destroy(w);
  TU_OK(NULL, lsk_context_wrap(lsk_context_cl(ctx), lsk_context_cl_device(ctx),
                               lsk_context_cl_queue(ctx), NULL, &w));
  assert_modeled(lsk_context_device(w), &real); /* NULL options: LSK_SHAPES */
  lsk_context_destroy(w);
  lsk_context_destroy(ctx);
  shapes_env("device");
  ctx = context_with(LSK_SHAPES_NVIDIA);
  assert_modeled(lsk_context_device(ctx), &real);
  lsk_context_destroy(ctx);
  shapes_env(NULL);
}
END_TEST

static const char *src = "LSK_KERNEL void iota(LSK_CTX, __global uint *x, uint n)\n"
                         "{\n"
                         "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                         "    LSK_FOREACH(it) {\n"
                         "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
                         "      if (i < n) x[i] = i;\n"
                         "    }\n"
                         "  }\n"
                         "}\n"
                         "LSK_KERNEL void scratch(LSK_CTX, __global uint *x, __local uint *t)\n"
                         "{\n"
                         "  LSK_FOREACH(it) t[it.idx] = it.idx;\n"
                         "  lsk_sync();\n"
                         "  LSK_FOREACH(it) x[it.idx] = t[it.idx];\n"
                         "}\n";

/* Launches on a modeled context: the GPU's shapes, run on the real device
 * with the right results; a kernel's limit at most 1024; more local memory
 * than NVIDIA's 48 KiB is a launch error, as it would be there. */
START_TEST(test_shapes_launches)
{
  shapes_env(NULL);
  lsk_context *ctx = context_with(LSK_SHAPES_NVIDIA);
  lsk_program *p = tu_program(ctx, "shapes.cl", src);
  lsk_kernel *k = tu_kernel(p, "iota");
  enum { N = 12345 };
  lsk_buffer *x = tu_zeros(ctx, N);
  static const struct {
    unsigned domain, workers;
  } rows[] = {{100, 128}, {5000, 1024}, {7, 32}};
  for (size_t i = 0; i < 3; ++i) {
    lsk_launch cfg = {.domain = {rows[i].domain}, .blocks = {3}};
    lsk_kernel_info info;
    TU_OK(ctx, lsk_kernel_query(k, &cfg, &info));
    ck_assert_uint_eq(info.workers, rows[i].workers);
    ck_assert_uint_eq(info.simd, 1);
    ck_assert_uint_le(info.work_group_max, 1024);
    unsigned zero = 0;
    TU_OK(ctx, lsk_buffer_fill(x, &zero, 4, 0, N * 4, NULL));
    TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT(N)), NULL));
    unsigned *got = tu_read_uints(ctx, x, N);
    for (unsigned j = 0; j < N; ++j)
      ck_assert_msg(got[j] == j, "domain %u: x[%u] = %u", rows[i].domain, j, got[j]);
    free(got);
  }
  /* Given workers only: simd 1, as on a GPU (not the CPU's one step). */
  unsigned w = 0, s = 0;
  TU_OK(ctx,
        lsk_kernel_shape(k, &(lsk_launch){.domain = {5000}, .blocks = {1}, .workers = 64}, &w, &s));
  ck_assert_uint_eq(w, 64);
  ck_assert_uint_eq(s, 1);
  /* Given simd only: whole warps, ceil(100 / 2) = 50 -> 64. */
  TU_OK(ctx, lsk_kernel_shape(k, &(lsk_launch){.domain = {100}, .blocks = {1}, .simd = 2}, &w, &s));
  ck_assert_uint_eq(w, 64);
  ck_assert_uint_eq(s, 2);
  /* Past the model's 1024 workers: refused, as the H100 would. */
  TU_FAILS(ctx,
           lsk_kernel_run(k, &(lsk_launch){.domain = {2048}, .blocks = {1}, .workers = 2048},
                          LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT(N)), NULL),
           LSK_ELAUNCH, "2048 workers exceed the 1024");
  /* Local memory: 48 KiB - 4 KiB of the kernel's own scratch fits;
   * 48 KiB + 4 bytes of dynamic local memory does not. */
  lsk_kernel *ks = tu_kernel(p, "scratch");
  lsk_launch one = {.domain = {256}, .blocks = {1}};
  TU_OK(ctx, lsk_kernel_run(ks, &one, LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_LOCAL(44 * 1024)), NULL));
  TU_FAILS(
      ctx,
      lsk_kernel_run(ks, &one, LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_LOCAL(48 * 1024 + 4)), NULL),
      LSK_ELAUNCH, "bytes of local memory");
  lsk_kernel_destroy(ks);
  lsk_buffer_destroy(x);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Stored choices: the model's go to a file of their own, never the
 * device's, and neither reads the other's. */
START_TEST(test_shapes_tune_apart)
{
  shapes_env(NULL);
  char dir[1100];
  tu_sub_dir(dir, sizeof dir, "tune");
  char *path[2] = {NULL, NULL};
  static const lsk_shapes which[2] = {LSK_SHAPES_DEVICE, LSK_SHAPES_NVIDIA};
  static const lsk_tune_shape few[] = {{32, 1}, {64, 1}};
  for (int i = 0; i < 2; ++i) {
    lsk_context *ctx = tu_context_opt(&(lsk_context_options){.shapes = which[i], .tune_dir = dir});
    lsk_program *p = tu_program(ctx, "shapes.cl", src);
    lsk_kernel *k = tu_kernel(p, "iota");
    lsk_buffer *x = tu_zeros(ctx, 1000);
    lsk_launch cfg = {.domain = {64}, .blocks = {4}};
    int found = 1;
    unsigned w, s;
    /* The other shapes' choice, stored a moment ago, is not this one's. */
    TU_OK(ctx, lsk_tune_stored(k, &cfg, &found, &w, &s));
    ck_assert_int_eq(found, 0);
    lsk_tune_result r;
    lsk_tune_options o = {.repeat = 1, .candidates = few, .ncandidates = 2};
    TU_OK(ctx, lsk_tune(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT(1000)), &o, &r, NULL));
    ck_assert_int_eq(r.stored, 1);
    path[i] = strdup(r.path);
    lsk_tune_result_free(&r);
    TU_OK(ctx, lsk_tune_stored(k, &cfg, &found, &w, &s));
    ck_assert_int_eq(found, 1);
    lsk_buffer_destroy(x);
    lsk_kernel_destroy(k);
    lsk_program_destroy(p);
    lsk_context_destroy(ctx);
  }
  ck_assert_str_ne(path[0], path[1]);
  /* Per shapes a choice (.tune) and the kernel's list of domains (.tunes):
   * two of each, none shared. */
  ck_assert_int_eq(tu_count_named(dir, ".tunes"), 2);
  ck_assert_int_eq(tu_count_named(dir, ".tune"), 4);
  free(path[0]);
  free(path[1]);
}
END_TEST

Suite *suite_shapes(void)
{
  Suite *s = suite_create("shapes");
  TCase *tc = tcase_create("core");
  tu_case_dir(tc);
  tcase_add_test(tc, test_shapes_model_alone);
  tcase_add_test(tc, test_shapes_model_caps);
  tcase_add_test(tc, test_shapes_model_rule);
  tcase_add_test(tc, test_shapes_cpu_rule);
  tcase_add_test(tc, test_shapes_env);
  tcase_add_test(tc, test_shapes_env_bad);
  tcase_add_test(tc, test_shapes_option_wins);
  tcase_add_test(tc, test_shapes_launches);
  tcase_add_test(tc, test_shapes_tune_apart);
  suite_add_tcase(s, tc);
  return s;
}
