/*
 * check_grind.c: the lockstep kernels at small sizes, for oclgrind
 * (tests/oclgrind.sh runs this suite under `oclgrind --data-races
 * --uninitialized`); it also runs as an ordinary suite.
 *
 * Buffers are initialized with whole-buffer writes: oclgrind 21.10 counts
 * neither clEnqueueFillBuffer nor a partial write as initializing memory.
 */
#include <math.h>
#include <stdio.h>

#include "parts.h"
#include "testutil.h"

#define N 200u

static lsk_buffer *zeros(lsk_context *ctx, size_t n)
{
  lsk_buffer *b = NULL;
  unsigned *z = calloc(n, sizeof *z);
  ck_assert_ptr_nonnull(z);
  TU_OK(ctx, lsk_buffer_create(ctx, n * sizeof *z, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, z, n * sizeof *z, NULL));
  free(z);
  return b;
}

typedef struct grind_case {
  const char *kernel;
  unsigned domain[3];
  size_t blocks[3];
  unsigned workers, simd;
  size_t local_bytes;
} grind_case;

START_TEST(test_grind_iota_family)
{
  static const grind_case cases[] = {
      {"iota", {16}, {4}, 8, 4, 0},
      {"iota", {16}, {3}, 4, 1, 0},
      {"iota", {23}, {2, 2}, 8, 1, 0},
      {"iota_local", {23}, {3}, 8, 4, 23 * 4},
      {"iota_local", {23}, {4}, 1, 1, 23 * 4},
      {"iota42", {0}, {2}, 8, 4, 0},
      {"iota_nd", {7, 3, 2}, {3}, 8, 1, 0},
  };
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create_file(ctx, LSK_TEST_DIR "/iota.cl", NULL, &p));
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    const grind_case *g = &cases[c];
    lsk_kernel *k = tu_kernel(p, g->kernel);
    lsk_buffer *data = zeros(ctx, N);
    lsk_launch cfg = {.domain = {g->domain[0], g->domain[1], g->domain[2]},
                      .blocks = {g->blocks[0], g->blocks[1], g->blocks[2]},
                      .workers = g->workers,
                      .simd = g->simd,
                      .local_bytes = g->local_bytes};
    if (g->local_bytes)
      TU_OK(ctx, lsk_kernel_run(k, &cfg,
                                LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N), LSK_ARG_DYN_LOCAL),
                                NULL));
    else
      TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N)), NULL));
    unsigned *h = tu_read_uints(ctx, data, N);
    for (unsigned i = 0; i < N; ++i)
      ck_assert_msg(h[i] == i, "%s case %zu: data[%u] = %u", g->kernel, c, i, h[i]);
    free(h);
    lsk_buffer_destroy(data);
    lsk_kernel_destroy(k);
  }
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

static const char *src =
    "LSK_KERNEL void sums(LSK_CTX, __global const uint *x, __global uint *out, uint n)\n"
    "{\n"
    "  LSK_SHARED(uint, part, LSK_WORKERS);\n"
    "  LSK_VAR(uint, v);\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    uint acc = 0;\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      LSK_VAR_AT(v, it) = g < n ? x[g] : 0;\n"
    "    }\n"
    "    LSK_FOREACH(it) { acc += 2 * LSK_VAR_AT(v, it); }\n"
    "    part[lsk_worker()] = acc;\n"
    "    lsk_sync();\n"
    "    LSK_MASTER {\n"
    "      uint s = 0;\n"
    "      for (uint w = 0; w < LSK_WORKERS; ++w) s += part[w];\n"
    "      out[b] = s;\n"
    "    }\n"
    "    lsk_sync();\n"
    "  }\n"
    "}\n";

/* Context variables, local memory, master and sync together: per data
 * block, twice the sum of x. */
START_TEST(test_grind_block_sums)
{
  static const unsigned shapes[][2] = {{8, 2}, {4, 1}, {1, 4}, {16, 1}};
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "sums.cl", src);
  lsk_kernel *k = tu_kernel(p, "sums");
  unsigned x[N];
  for (unsigned i = 0; i < N; ++i)
    x[i] = i * 7 % 13;
  const unsigned dom = 24, nb = (N + dom - 1) / dom;
  for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; ++c) {
    lsk_buffer *xb = NULL, *out = zeros(ctx, nb);
    TU_OK(ctx, lsk_buffer_create(ctx, sizeof x, &xb));
    TU_OK(ctx, lsk_buffer_write(xb, 0, x, sizeof x, NULL));
    lsk_launch cfg = {
        .domain = {dom}, .blocks = {3}, .workers = shapes[c][0], .simd = shapes[c][1]};
    TU_OK(ctx,
          lsk_kernel_run(k, &cfg,
                         LSK_ARGS(LSK_ARG_BUFFER(xb), LSK_ARG_BUFFER(out), LSK_ARG_UINT(N)), NULL));
    unsigned *h = tu_read_uints(ctx, out, nb);
    for (unsigned b = 0; b < nb; ++b) {
      unsigned want = 0;
      for (unsigned i = b * dom; i < N && i < (b + 1) * dom; ++i)
        want += 2 * x[i];
      ck_assert_msg(h[b] == want, "W=%u S=%u block %u: %u, want %u", shapes[c][0], shapes[c][1], b,
                    h[b], want);
    }
    free(h);
    lsk_buffer_destroy(xb);
    lsk_buffer_destroy(out);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Generated SoA accessors, range checks compiled in, at a small size. */
START_TEST(test_grind_soa_views)
{
  lsk_context *ctx = tu_context();
  if (!tu_fp64(ctx, "test_grind_soa_views (the parts layout holds doubles)")) {
    lsk_context_destroy(ctx);
    return;
  }
  lsk_layout *l = NULL;
  char *cl = NULL;
  TU_OK(NULL, parts_describe(&l));
  TU_OK(NULL, lsk_layout_emit_cl(l, NULL, &cl));
  FILE *f = fopen(LSK_TEST_DIR "/soa_kernels.cl", "rb");
  ck_assert_ptr_nonnull(f);
  static char src[1 << 16];
  src[fread(src, 1, sizeof src - 1, f)] = 0;
  fclose(f);
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(ctx, src,
                                &(lsk_program_options){.name = "soa_kernels.cl",
                                                       .prelude = cl,
                                                       .build_options = "-DPARTS_CHECK=1"},
                                &p));
  lsk_kernel *k = tu_kernel(p, "compute");
  size_t n = 37;
  lsk_soa *soa = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){l}, &n, &soa));
  parts h = {0};
  TU_OK(NULL, parts_bind(&h, lsk_soa_host(soa, 0), n));
  parts_fill(&h, n);
  TU_OK(ctx, lsk_soa_upload(soa, NULL));
  lsk_arg args[16];
  size_t na = 0;
  TU_OK(ctx, lsk_soa_args(soa, 0, NULL, args, 16, &na));
  lsk_launch cfg = {.domain = {16}, .blocks = {2}, .workers = 4, .simd = 2};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, args, na, NULL));
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(fabs(h.out[i] - parts_reference(&h, i)) <= 1e-12 * (1 + fabs(h.out[i])),
                  "out[%zu] = %g", i, h.out[i]);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_free(cl);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
}
END_TEST

static const char *idx_src = "LSK_DECLARE_DOMAIN2(idx_info, 4, 3);\n"
                             "LSK_KERNEL void idx_info(LSK_CTX, __global uint *out)\n"
                             "{\n"
                             "  LSK_VAR_N(uint, v, 5);\n"
                             "  LSK_FOREACH_N(it, 5) LSK_VAR_AT(v, it) = it.idx * 10;\n"
                             "  __global uint *o = out + lsk_block_idx() * 32;\n"
                             "  LSK_MASTER {\n"
                             "    uint3 nd = lsk_block_nd(), ext = lsk_domain_extent();\n"
                             "    o[0] = lsk_block_idx();\n"
                             "    o[1] = nd.x; o[2] = nd.y; o[3] = nd.z;\n"
                             "    o[4] = lsk_grid_size(); o[5] = lsk_domain_size();\n"
                             "    o[6] = ext.x; o[7] = ext.y; o[8] = ext.z;\n"
                             "    o[9] = idx_info_DOMAIN_SIZE;\n"
                             "  }\n"
                             "  LSK_FOREACH_N(it, 5) o[10 + it.idx] = LSK_VAR_AT(v, it) + 1;\n"
                             "  LSK_FOREACH(it) {\n"
                             "    uint3 p = lsk_domain_nd(it.idx);\n"
                             "    o[16 + it.idx] = p.x + 10 * p.y + 100 * p.z;\n"
                             "  }\n"
                             "}\n";

/* The index helpers (cl/lsk_idx.h), a declared domain and a context
 * variable over fewer indices than the domain, on a 2x2 grid of 4x3
 * domains, for both a one-worker and a several-worker shape. */
START_TEST(test_grind_idx_helpers)
{
  static const unsigned shapes[][2] = {{4, 2}, {1, 1}};
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "idx.cl", idx_src);
  lsk_kernel *k = tu_kernel(p, "idx_info");
  for (size_t c = 0; c < 2; ++c) {
    lsk_buffer *out = zeros(ctx, 4 * 32);
    lsk_launch cfg = {
        .domain = {4, 3}, .blocks = {2, 2}, .workers = shapes[c][0], .simd = shapes[c][1]};
    TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(out)), NULL));
    unsigned *h = tu_read_uints(ctx, out, 4 * 32);
    for (unsigned b = 0; b < 4; ++b) {
      const unsigned *o = h + b * 32;
      unsigned want[32] = {b, b % 2, b / 2, 0, 4, 12, 4, 3, 1, 12};
      for (unsigned i = 0; i < 5; ++i)
        want[10 + i] = i * 10 + 1;
      for (unsigned i = 0; i < 12; ++i)
        want[16 + i] = i % 4 + 10 * (i / 4);
      for (unsigned j = 0; j < 32; ++j)
        ck_assert_msg(o[j] == want[j], "W=%u block %u word %u: %u, want %u", shapes[c][0], b, j,
                      o[j], want[j]);
    }
    free(h);
    lsk_buffer_destroy(out);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

static const char *tail_src =
    "LSK_KERNEL void tail(LSK_CTX, __global uint *x, __global uint *counts, uint n)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    uint base = b * LSK_DOMAIN_SIZE;\n"
    "    LSK_FOREACH_N(it, lsk_domain_count(base, n)) x[base + it.idx] += 1 + lsk_worker();\n"
    "    LSK_MASTER counts[b] = lsk_domain_count(base, n);\n"
    "    lsk_sync();\n"
    "  }\n"
    "  LSK_MASTER {\n"
    "    counts[16 + lsk_block_idx()] = lsk_domain_count(n, n);\n"
    "    counts[18 + lsk_block_idx()] = lsk_domain_count(n + 3, n);\n"
    "  }\n"
    "}\n";

/* ForEach over a partial data block by lsk_domain_count (the triad's
 * tail): domain 8 as 2 workers x simd 2, n = 13 over 2 grid-strided
 * blocks: indices below n run once on their owner, the rest never; the
 * counts are 8 and 5, and 0 at or past n. */
START_TEST(test_grind_domain_count)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "tail.cl", tail_src);
  lsk_kernel *k = tu_kernel(p, "tail");
  lsk_buffer *x = zeros(ctx, 16), *counts = zeros(ctx, 20);
  lsk_launch cfg = {.domain = {8}, .blocks = {2}, .workers = 2, .simd = 2};
  TU_OK(ctx, lsk_kernel_run(k, &cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_BUFFER(counts), LSK_ARG_UINT(13)),
                            NULL));
  unsigned *hx = tu_read_uints(ctx, x, 16), *hc = tu_read_uints(ctx, counts, 20);
  /* Index i of a data block belongs to worker (i % 4) / 2 (stride 4). */
  for (unsigned i = 0; i < 16; ++i) {
    unsigned want = i < 13 ? 1 + (i % 8 % 4) / 2 : 0;
    ck_assert_msg(hx[i] == want, "index %u: %u, want %u", i, hx[i], want);
  }
  ck_assert_uint_eq(hc[0], 8);
  ck_assert_uint_eq(hc[1], 5);
  for (unsigned j = 16; j < 20; ++j)
    ck_assert_msg(hc[j] == 0, "count at or past n: word %u is %u", j, hc[j]);
  free(hx);
  free(hc);
  lsk_buffer_destroy(x);
  lsk_buffer_destroy(counts);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* The block collectives, appends and float atomics (check_block.c). */
START_TEST(test_grind_block_collectives) { block_grind_case(); }
END_TEST

Suite *suite_grind(void)
{
  Suite *s = suite_create("grind");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_iota_family);
  tcase_add_test(tc, test_grind_block_sums);
  tcase_add_test(tc, test_grind_soa_views);
  tcase_add_test(tc, test_grind_block_collectives);
  tcase_add_test(tc, test_grind_idx_helpers);
  tcase_add_test(tc, test_grind_domain_count);
  suite_add_tcase(s, tc);
  suite_add_tcase(s, tcase_assoc_grind());
  return s;
}
