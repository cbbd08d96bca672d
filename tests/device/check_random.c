/*
 * check_random.c: the counter-based random numbers of cl/lsk_random.h.
 * Philox4x32-10 on the device against the published known-answer values
 * and against a plain C Philox written from the published algorithm
 * (tu_philox);
 * per-(stream, index, draw) words, uniform and normal variates against the
 * same C formulas; and the same numbers whatever the launch shape.
 */
#include <math.h>
#include <stdio.h>

#include "testutil.h"

/* The published known-answer values (counter, key -> output). */
static const uint32_t kat[3][10] = {
    {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
    {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d, 0x41c83b0e,
     0xa20bc7c6, 0x6d5451fd},
    {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb,
     0x5001e420, 0x24126ea1},
};

static const char *src =
    "LSK_KERNEL void kat(LSK_CTX, __global const uint *in, __global uint *out, uint n)\n"
    "{\n"
    "  LSK_FOREACH(it) {\n"
    "    if (it.idx < n) {\n"
    "      __global const uint *c = in + 6 * it.idx;\n"
    "      vstore4(lsk_philox4x32_10((uint4)(c[0], c[1], c[2], c[3]), (uint2)(c[4], c[5])),\n"
    "              it.idx, out);\n"
    "    }\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void draws(LSK_CTX, __global uint *w, __global float *u, __global float *g,\n"
    "                      ulong seed, uint stream, uint draw, uint n)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n) {\n"
    "        uint4 r = lsk_random4(seed, stream, i, draw);\n"
    "        vstore4(r, i, w);\n"
    "        u[i] = lsk_uniform_float(r.x);\n"
    "        g[i] = lsk_normal_float(r.y, r.z);\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "#ifdef LSK_HAS_FP64\n"
    "LSK_KERNEL void draws_double(LSK_CTX, __global double *u, __global double *g, ulong seed,\n"
    "                             uint n)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n) {\n"
    "        uint4 r = lsk_random4(seed, 0u, i, 0u);\n"
    "        u[i] = lsk_uniform_double(r.x, r.y);\n"
    "        g[i] = lsk_normal_double(r);\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "#endif\n";

START_TEST(test_random_known_answers)
{
  /* The reference first: it must give the published values itself. */
  for (int v = 0; v < 3; ++v) {
    uint32_t out[4];
    tu_philox(kat[v], kat[v] + 4, out);
    for (int j = 0; j < 4; ++j)
      ck_assert_msg(out[j] == kat[v][6 + j], "C reference, vector %d word %d: %08x, want %08x", v,
                    j, out[j], kat[v][6 + j]);
  }
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "random.cl", src);
  lsk_kernel *k = tu_kernel(p, "kat");
  uint32_t in[3 * 6];
  for (int v = 0; v < 3; ++v)
    for (int j = 0; j < 6; ++j)
      in[6 * v + j] = kat[v][j];
  lsk_buffer *bin = tu_zeros(ctx, 18), *bout = tu_zeros(ctx, 12);
  TU_OK(ctx, lsk_buffer_write(bin, 0, in, sizeof in, NULL));
  lsk_launch cfg = {.domain = {32}, .blocks = {1}};
  TU_OK(ctx,
        lsk_kernel_run(k, &cfg,
                       LSK_ARGS(LSK_ARG_BUFFER(bin), LSK_ARG_BUFFER(bout), LSK_ARG_UINT(3)), NULL));
  unsigned *h = tu_read_uints(ctx, bout, 12);
  for (int v = 0; v < 3; ++v)
    for (int j = 0; j < 4; ++j)
      ck_assert_msg(h[4 * v + j] == kat[v][6 + j], "device, vector %d word %d: %08x, want %08x", v,
                    j, h[4 * v + j], kat[v][6 + j]);
  free(h);
  lsk_buffer_destroy(bin);
  lsk_buffer_destroy(bout);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

enum { N = 5000 };
#define SEED 0x0123456789abcdefull

/* The device's words and variates for N items at a shape. */
static void run_draws(lsk_context *ctx, lsk_kernel *k, const lsk_launch *cfg, uint32_t *w, float *u,
                      float *g)
{
  lsk_buffer *bw = tu_zeros(ctx, 4 * N), *bu = tu_zeros(ctx, N), *bg = tu_zeros(ctx, N);
  TU_OK(ctx, lsk_kernel_run(k, cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(bw), LSK_ARG_BUFFER(bu), LSK_ARG_BUFFER(bg),
                                     LSK_ARG_ULONG(SEED), LSK_ARG_UINT(3), LSK_ARG_UINT(7),
                                     LSK_ARG_UINT(N)),
                            NULL));
  TU_OK(ctx, lsk_buffer_read(bw, 0, w, 4 * N * sizeof *w, NULL));
  TU_OK(ctx, lsk_buffer_read(bu, 0, u, N * sizeof *u, NULL));
  TU_OK(ctx, lsk_buffer_read(bg, 0, g, N * sizeof *g, NULL));
  lsk_buffer_destroy(bw);
  lsk_buffer_destroy(bu);
  lsk_buffer_destroy(bg);
}

START_TEST(test_random_streams_and_variates)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "random.cl", src);
  lsk_kernel *k = tu_kernel(p, "draws");
  static uint32_t w[4 * N], w2[4 * N];
  static float u[N], g[N], u2[N], g2[N];
  lsk_launch automatic = {.domain = {256}, .blocks = {4}};
  run_draws(ctx, k, &automatic, w, u, g);
  double su = 0, sg = 0, sgg = 0;
  for (uint32_t i = 0; i < N; ++i) {
    /* Counter (index, draw, stream, 0), key the seed's words. */
    uint32_t ctr[4] = {i, 7, 3, 0}, key[2] = {(uint32_t)SEED, (uint32_t)(SEED >> 32)}, r[4];
    tu_philox(ctr, key, r);
    for (int j = 0; j < 4; ++j)
      ck_assert_msg(w[4 * i + j] == r[j], "item %u word %d: %08x, want %08x", i, j, w[4 * i + j],
                    r[j]);
    /* Uniform: exactly the top 24 bits, in [0, 1). */
    ck_assert_msg(u[i] == (float)tu_uniform24(r[0]) && u[i] >= 0.0f && u[i] < 1.0f,
                  "item %u: uniform %.9g", i, (double)u[i]);
    /* Normal: Box-Muller in double here; the device's float log and cos
     * agree to a few units in the last place. */
    double want = tu_normal24(r[1], r[2]);
    ck_assert_msg(fabs((double)g[i] - want) <= 1e-4 * (1.0 + fabs(want)),
                  "item %u: normal %.9g, want %.9g", i, (double)g[i], want);
    su += u[i];
    sg += g[i];
    sgg += (double)g[i] * g[i];
  }
  /* Moments of 5000 draws (fixed seed, so this cannot flake). */
  ck_assert_msg(fabs(su / N - 0.5) < 0.02, "uniform mean %g", su / N);
  ck_assert_msg(fabs(sg / N) < 0.05, "normal mean %g", sg / N);
  ck_assert_msg(fabs(sgg / N - 1.0) < 0.08, "normal variance %g", sgg / N);

  /* Other shapes, the same numbers to the bit. */
  static const unsigned shapes[][3] = {{1, 1, 1}, {8, 32, 3}, {64, 1, 79}, {32, 4, 2}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    lsk_launch cfg = {
        .domain = {256}, .blocks = {shapes[s][2]}, .workers = shapes[s][0], .simd = shapes[s][1]};
    if (!tu_fits(ctx, k, &cfg) || tu_loop_steps(ctx, "random draws", N / shapes[s][0] + 1))
      continue;
    run_draws(ctx, k, &cfg, w2, u2, g2);
    ck_assert_msg(memcmp(w, w2, sizeof w) == 0 && memcmp(u, u2, sizeof u) == 0 &&
                      memcmp(g, g2, sizeof g) == 0,
                  "workers %u simd %u blocks %u: other numbers", shapes[s][0], shapes[s][1],
                  shapes[s][2]);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_random_double)
{
  lsk_context *ctx = tu_context();
  if (!tu_fp64(ctx, "random doubles")) {
    lsk_context_destroy(ctx);
    return;
  }
  lsk_program *p = tu_program(ctx, "random.cl", src);
  lsk_kernel *k = tu_kernel(p, "draws_double");
  lsk_buffer *bu = tu_zeros(ctx, 2 * N), *bg = tu_zeros(ctx, 2 * N);
  lsk_launch cfg = {.domain = {256}, .blocks = {4}};
  TU_OK(ctx, lsk_kernel_run(k, &cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(bu), LSK_ARG_BUFFER(bg), LSK_ARG_ULONG(SEED),
                                     LSK_ARG_UINT(N)),
                            NULL));
  static double u[N], g[N];
  TU_OK(ctx, lsk_buffer_read(bu, 0, u, sizeof u, NULL));
  TU_OK(ctx, lsk_buffer_read(bg, 0, g, sizeof g, NULL));
  for (uint32_t i = 0; i < N; ++i) {
    uint32_t ctr[4] = {i, 0, 0, 0}, key[2] = {(uint32_t)SEED, (uint32_t)(SEED >> 32)}, r[4];
    tu_philox(ctr, key, r);
    /* 53 bits: 27 of the first word, 26 of the second. */
    double want_u = tu_uniform53(r[0], r[1]);
    ck_assert_msg(u[i] == want_u && u[i] < 1.0, "item %u: uniform %.17g, want %.17g", i, u[i],
                  want_u);
    double want_g = tu_normal53(r);
    ck_assert_msg(fabs(g[i] - want_g) <= 1e-9 * (1.0 + fabs(want_g)),
                  "item %u: normal %.17g, want %.17g", i, g[i], want_g);
  }
  lsk_buffer_destroy(bu);
  lsk_buffer_destroy(bg);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_random(void)
{
  Suite *s = suite_create("random");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_random_known_answers);
  tcase_add_test(tc, test_random_streams_and_variates);
  tcase_add_test(tc, test_random_double);
  suite_add_tcase(s, tc);
  return s;
}
