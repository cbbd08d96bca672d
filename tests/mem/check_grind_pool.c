/*
 * check_grind_pool.c: dynamic memory at small sizes, for oclgrind
 * (tests/oclgrind.sh runs this suite as `oclgrind_pool` under `oclgrind
 * --data-races --uninitialized`); it also runs as an ordinary suite.
 * Allocation on both paths, recycles and GCs against the model; a chunked
 * list appended from several blocks. (Binning steps on the pool: the pic
 * example's suite grind_pool_pic.) Buffers are written whole (oclgrind
 * counts no fill or partial write as initializing).
 */
#include <stdio.h>

#include "pool_model.h"
#include "testutil.h"

static int cmp_uint(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

static lsk_buffer *upload(lsk_context *ctx, const unsigned *v, size_t n)
{
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, v, n * 4, NULL));
  return b;
}

/* 30 allocations, 12 recycles, GC, 20 allocations, GC: the free list is
 * the model's after each GC. Shape 4 workers x 2 (domain 8) over 3 blocks:
 * both the batched and the one-by-one paths run. */
START_TEST(test_pool_grind_alloc_recycle_gc)
{
  lsk_context *ctx = tu_context();
  lsk_program *prog = NULL;
  TU_OK(ctx, lsk_program_create_file(ctx, LSK_TEST_DIR "/pool.cl", NULL, &prog));
  lsk_kernel *alloc = tu_kernel(prog, "pool_alloc"), *recycle = tu_kernel(prog, "pool_recycle");
  lsk_pool *pool = NULL;
  TU_OK(ctx, lsk_pool_create(ctx, 8, 40, NULL, &pool));
  pool_model m;
  pm_init(&m, 40);
  lsk_launch cfg = {.domain = {8}, .blocks = {3}, .workers = 4, .simd = 2};
  unsigned got[40], want[40], rec[12], order[40];
  size_t n;
  for (int round = 0; round < 2; ++round) {
    unsigned k = round ? 20 : 30;
    for (unsigned j = 0; j < k; ++j)
      got[j] = LSK_POOL_INVALID;
    lsk_buffer *out = upload(ctx, got, k);
    TU_OK(ctx, lsk_kernel_run(alloc, &cfg,
                              LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)), LSK_ARG_BUFFER(out),
                                       LSK_ARG_UINT(k), LSK_ARG_UINT(7)),
                              NULL));
    TU_OK(ctx, lsk_buffer_read(out, 0, got, k * 4, NULL));
    lsk_buffer_destroy(out);
    pm_alloc(&m, k, want);
    memcpy(order, got, k * 4);
    qsort(order, k, 4, cmp_uint);
    qsort(want, k, 4, cmp_uint);
    ck_assert_int_eq(memcmp(order, want, k * 4), 0);
    for (unsigned j = 0; j < 12; ++j)
      rec[j] = got[round ? j : 2 * j];
    lsk_buffer *in = upload(ctx, rec, 12);
    TU_OK(ctx, lsk_kernel_run(recycle, &cfg,
                              LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)), LSK_ARG_BUFFER(in),
                                       LSK_ARG_UINT(12)),
                              NULL));
    lsk_buffer_destroy(in);
    TU_OK(ctx, lsk_pool_read_recycled(pool, order, 40, &n, NULL));
    ck_assert_uint_eq(n, 12);
    TU_OK(ctx, lsk_pool_gc(pool, NULL));
    pm_gc(&m, order, 12);
    TU_OK(ctx, lsk_pool_read_free(pool, got, 40, &n, NULL));
    ck_assert_uint_eq(n, m.nfree);
    for (size_t j = 0; j < n; ++j)
      ck_assert_uint_eq(got[j], m.free[j]);
  }
  pm_free(&m);
  lsk_pool_destroy(pool);
  lsk_kernel_destroy(alloc);
  lsk_kernel_destroy(recycle);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
}
END_TEST

/* 100 values from 4 blocks of 8 into chunks of 4: the list holds the
 * values not divisible by 3, as a multiset. */
START_TEST(test_pool_grind_chunklist)
{
  lsk_context *ctx = tu_context();
  lsk_program *prog = NULL;
  TU_OK(ctx, lsk_program_create_file(ctx, LSK_TEST_DIR "/pool.cl", NULL, &prog));
  lsk_kernel *append = tu_kernel(prog, "list_append");
  lsk_pool *pool = NULL;
  lsk_list *list = NULL;
  TU_OK(ctx, lsk_pool_create(ctx, 32, 40, NULL, &pool));
  TU_OK(ctx, lsk_list_create(pool, 8, 4, 200, &list));
  unsigned v[100], want[100], nwant = 0, zero = 0;
  for (unsigned i = 0; i < 100; ++i) {
    v[i] = i * 7919u + 13;
    if (v[i] % 3)
      want[nwant++] = v[i];
  }
  lsk_buffer *vals = upload(ctx, v, 100), *missed = upload(ctx, &zero, 1);
  lsk_launch cfg = {.domain = {8}, .blocks = {4}, .workers = 4, .simd = 2};
  TU_OK(ctx, lsk_kernel_run(append, &cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)),
                                     LSK_ARG_BUFFER(lsk_list_buffer(list)), LSK_ARG_BUFFER(vals),
                                     LSK_ARG_UINT(100), LSK_ARG_BUFFER(missed)),
                            NULL));
  lsk_list_usage u;
  TU_OK(ctx, lsk_list_usage_get(list, &u, NULL));
  ck_assert_uint_eq(u.length, nwant);
  ck_assert_uint_eq(u.lost, 0);
  unsigned e[200], got[100];
  TU_OK(ctx, lsk_list_read(list, 0, nwant, e, sizeof e, NULL));
  for (unsigned i = 0; i < nwant; ++i)
    got[i] = e[2 * i];
  qsort(got, nwant, 4, cmp_uint);
  qsort(want, nwant, 4, cmp_uint);
  ck_assert_int_eq(memcmp(got, want, nwant * 4), 0);
  /* A later kernel reads the list back: its length and each element (and
   * the pool's cell size in words). */
  lsk_program *rp =
      tu_program(ctx, "list_read.cl",
                 "LSK_KERNEL void list_read(LSK_CTX, __global uint *pool, __global uint *list,\n"
                 "                          __global uint *out)\n"
                 "{\n"
                 "  uint n = lsk_list_length(list);\n"
                 "  LSK_MASTER {\n"
                 "    out[0] = n;\n"
                 "    out[101] = lsk_pool_cell_words(pool);\n"
                 "  }\n"
                 "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                 "    LSK_FOREACH(it) {\n"
                 "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
                 "      if (i < n) {\n"
                 "        __global uint *e = (__global uint *)lsk_list_at(pool, list, i);\n"
                 "        out[1 + i] = e ? e[0] : 0xffffffffu;\n"
                 "      }\n"
                 "    }\n"
                 "  }\n"
                 "}\n");
  lsk_kernel *read = tu_kernel(rp, "list_read");
  unsigned back[102] = {0};
  lsk_buffer *rb = upload(ctx, back, 102);
  TU_OK(ctx, lsk_kernel_run(read, &cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)),
                                     LSK_ARG_BUFFER(lsk_list_buffer(list)), LSK_ARG_BUFFER(rb)),
                            NULL));
  TU_OK(ctx, lsk_buffer_read(rb, 0, back, sizeof back, NULL));
  ck_assert_uint_eq(back[0], nwant);
  ck_assert_uint_eq(back[101], 32 / 4); /* cells of 32 bytes, alignment 4 */
  for (unsigned i = 0; i < nwant; ++i)
    ck_assert_msg(back[1 + i] == e[2 * i], "list_read element %u: %u, want %u", i, back[1 + i],
                  e[2 * i]);
  lsk_buffer_destroy(rb);
  lsk_kernel_destroy(read);
  lsk_program_destroy(rp);
  TU_OK(ctx, lsk_list_clear(list, NULL));
  TU_OK(ctx, lsk_pool_gc(pool, NULL));
  lsk_pool_usage pu;
  TU_OK(ctx, lsk_pool_usage_get(pool, &pu, NULL));
  ck_assert_uint_eq(pu.live, 0);
  lsk_buffer_destroy(vals);
  lsk_buffer_destroy(missed);
  lsk_list_destroy(list);
  lsk_pool_destroy(pool);
  lsk_kernel_destroy(append);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_grind_pool(void)
{
  Suite *s = suite_create("grind_pool");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pool_grind_alloc_recycle_gc);
  tcase_add_test(tc, test_pool_grind_chunklist);
  suite_add_tcase(s, tc);
  return s;
}
