/*
 * check_iota.c: the iota family on 4096 zeroed elements, data[i] == i
 * afterwards, for workers in {1, 8, 32, 64} and simd in {1, 4}. Each kernel
 * verifies on the device that its target was still zero (no index is
 * written twice); the host checks that every index was written.
 */
#include <stdio.h>

#include "testutil.h"

#ifndef LSK_TEST_DIR
#error "LSK_TEST_DIR must name the tests directory"
#endif

#define N 4096u

typedef struct iota_case {
  const char *kernel;
  unsigned domain[3];
  size_t blocks[3];
  size_t local_bytes;
} iota_case;

static void run_case(const iota_case *c)
{
  static const unsigned workers[] = {1, 8, 32, 64}, simds[] = {1, 4};
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create_file(ctx, LSK_TEST_DIR "/iota.cl", NULL, &p));
  lsk_kernel *k = tu_kernel(p, c->kernel);
  lsk_buffer *data = tu_zeros(ctx, N);
  for (size_t wi = 0; wi < 4; ++wi)
    for (size_t si = 0; si < 2; ++si) {
      unsigned zero = 0;
      TU_OK(ctx, lsk_buffer_fill(data, &zero, 4, 0, N * 4, NULL));
      lsk_launch cfg = {.domain = {c->domain[0], c->domain[1], c->domain[2]},
                        .blocks = {c->blocks[0], c->blocks[1], c->blocks[2]},
                        .workers = workers[wi],
                        .simd = simds[si],
                        .local_bytes = c->local_bytes};
      if (!tu_fits(ctx, k, &cfg))
        continue;
      if (c->local_bytes)
        TU_OK(ctx, lsk_kernel_run(
                       k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N), LSK_ARG_DYN_LOCAL),
                       NULL));
      else
        TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N)), NULL));
      unsigned *h = tu_read_uints(ctx, data, N);
      for (unsigned i = 0; i < N; ++i)
        ck_assert_msg(h[i] == i, "%s W=%u S=%u: data[%u] = %u", c->kernel, workers[wi], simds[si],
                      i, h[i]);
      free(h);
    }
  lsk_buffer_destroy(data);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}

/* Half the blocks the data needs: the grid-strided loop covers the rest. */
START_TEST(test_iota_domain_128_half_blocks)
{
  run_case(&(iota_case){"iota", {128}, {N / 128 / 2}, 0});
}
END_TEST

START_TEST(test_iota_domain_16_half_blocks)
{
  run_case(&(iota_case){"iota", {16}, {N / 16 / 2}, 0});
}
END_TEST

START_TEST(test_iota_domain_23_dynamic_local)
{
  run_case(&(iota_case){"iota_local", {23}, {(N + 22) / 23 / 2}, 23 * sizeof(unsigned)});
}
END_TEST

/* A domain derived from the buffer by a host-side rule: one data block per
 * 64 elements, less 11 (4096 -> 53). */
START_TEST(test_iota_domain_from_buffer)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *probe = tu_zeros(ctx, N);
  unsigned domain = (unsigned)(lsk_buffer_size(probe) / sizeof(unsigned) / 64 - 11);
  lsk_buffer_destroy(probe);
  lsk_context_destroy(ctx);
  ck_assert_uint_eq(domain, 53);
  run_case(&(iota_case){"iota", {domain}, {(N + domain - 1) / domain / 2}, 0});
}
END_TEST

START_TEST(test_iota_declared_domain_42) { run_case(&(iota_case){"iota42", {0}, {10}, 0}); }
END_TEST

START_TEST(test_iota_nd_domain_42) { run_case(&(iota_case){"iota_nd", {7, 3, 2}, {11}, 0}); }
END_TEST

START_TEST(test_iota_grid_3x2) { run_case(&(iota_case){"iota", {64}, {3, 2}, 0}); }
END_TEST

Suite *suite_iota(void)
{
  Suite *s = suite_create("iota");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_iota_domain_128_half_blocks);
  tcase_add_test(tc, test_iota_domain_16_half_blocks);
  tcase_add_test(tc, test_iota_domain_23_dynamic_local);
  tcase_add_test(tc, test_iota_domain_from_buffer);
  tcase_add_test(tc, test_iota_declared_domain_42);
  tcase_add_test(tc, test_iota_nd_domain_42);
  tcase_add_test(tc, test_iota_grid_3x2);
  suite_add_tcase(s, tc);
  return s;
}
