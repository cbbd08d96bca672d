/*
 * check_vector.c: the fixed-capacity device vector (vector.h,
 * cl/lsk_vector.h). Kernels append the multiples of `mod` below n, one
 * atomic per element or one per block; the test knows that set, so it
 * checks that the stored elements are distinct members of it, that all of
 * them are stored when they fit, that the size and the overflow are exact,
 * and that every slot an append returned holds its element. Shapes include
 * one worker; sizes 0, 1, 7, 1000 and 2^20 + 3; capacities 0, below, equal
 * and above the number appended.
 *
 * Suite grind_vector is the small cases alone, for oclgrind; suite vector
 * runs them too.
 */
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"

static const char *src =
    "/* slots[i]: what the append of i returned (LSK_VECTOR_FULL if it did not fit). */\n"
    "LSK_KERNEL void push(LSK_CTX, LSK_VECTOR_PARAMS(uint, v), __global uint *slots, uint n,\n"
    "                     uint mod)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n && i % mod == 0) {\n"
    "        uint s = LSK_VECTOR_APPEND(v);\n"
    "        if (s != LSK_VECTOR_FULL)\n"
    "          v_data[s] = i;\n"
    "        slots[i] = s;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "/* 8-byte elements (i, 3i). Not a uint2: oclgrind 21.10 splits a vector\n"
    " * store into a store of undef and one per lane, and reports the first. */\n"
    "LSK_KERNEL void push_macro(LSK_CTX, LSK_VECTOR_PARAMS(ulong, v), uint n, uint mod)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n && i % mod == 0)\n"
    "        LSK_VECTOR_PUSH(v, (ulong)i | (ulong)(3 * i) << 32);\n"
    "    }\n"
    "  }\n"
    "}\n"
    "/* push_macro of (i, 0) for i below n, and a failed LSK_VERIFY. */\n"
    "LSK_KERNEL void push_fails(LSK_CTX, LSK_VECTOR_PARAMS(ulong, v), uint n)\n"
    "{\n"
    "  LSK_FOREACH(it) if (it.idx < n) LSK_VECTOR_PUSH(v, (ulong)it.idx);\n"
    "  LSK_MASTER LSK_VERIFY1(0, \"pushed\", n);\n"
    "}\n"
    "/* One atomic per block: each worker appends its own selected indices. */\n"
    "LSK_KERNEL void block_push(LSK_CTX, LSK_VECTOR_PARAMS(uint, v), __global uint *slots,\n"
    "                           uint n, uint mod)\n"
    "{\n"
    "  LSK_BLOCK_SCRATCH(uint, scratch);\n"
    "  LSK_VAR(uint, keep);\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    uint mine = 0;\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      LSK_VAR_AT(keep, it) = i < n && i % mod == 0;\n"
    "      mine += LSK_VAR_AT(keep, it);\n"
    "    }\n"
    "    uint slot = LSK_BLOCK_VECTOR_APPEND(scratch, v, mine);\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (LSK_VAR_AT(keep, it)) {\n"
    "        if (lsk_vector_fits(slot, v_capacity))\n"
    "          v_data[slot] = i;\n"
    "        slots[i] = lsk_vector_fits(slot, v_capacity) ? slot : LSK_VECTOR_FULL;\n"
    "        ++slot;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

#define NONE 0xfffffffeu /* slots[i] for an i that was not appended */

static lsk_buffer *filled(lsk_context *ctx, size_t n, unsigned value)
{
  unsigned *h = malloc((n ? n : 1) * sizeof *h);
  ck_assert_ptr_nonnull(h);
  for (size_t i = 0; i < (n ? n : 1); ++i)
    h[i] = value;
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, (n ? n : 1) * sizeof *h, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, h, (n ? n : 1) * sizeof *h, NULL));
  free(h);
  return b;
}

/* One run of kernel (push or block_push) and all the checks. */
static void check_append(lsk_context *ctx, lsk_program *p, const char *kernel, size_t n,
                         unsigned mod, size_t capacity, const lsk_launch *cfg)
{
  lsk_launch l = *cfg;
  size_t nb = (n + l.domain[0] - 1) / l.domain[0];
  l.blocks[0] = nb < 1 ? 1 : nb < 5 ? nb : 5;
  lsk_kernel *k = tu_kernel(p, kernel);
  /* Each work-item loops over its indices of every data block it takes,
   * one lane at a time. */
  unsigned w, sd;
  TU_OK(ctx, lsk_kernel_shape(k, &l, &w, &sd));
  if (tu_loop_steps(ctx, kernel, (nb + 4) / 5 * tu_steps(ctx, l.domain[0], w, sd) * sd)) {
    lsk_kernel_destroy(k);
    return;
  }
  lsk_vector *v = NULL;
  TU_OK(ctx, lsk_vector_create(ctx, sizeof(unsigned), capacity, &v));
  lsk_buffer *slots = filled(ctx, n, NONE);
  TU_OK(ctx, lsk_kernel_run(k, &l,
                            LSK_ARGS(LSK_VECTOR_ARGS(v), LSK_ARG_BUFFER(slots),
                                     LSK_ARG_UINT((unsigned)n), LSK_ARG_UINT(mod)),
                            NULL));
  size_t want = n ? (n - 1) / mod + 1 : 0, size = 99, over = 99;
  TU_OK(ctx, lsk_vector_size(v, &size, &over, NULL));
  size_t fit = want < capacity ? want : capacity;
  ck_assert_msg(size == fit && over == want - fit, "%s n=%zu cap=%zu: size %zu overflow %zu",
                kernel, n, capacity, size, over);
  unsigned *got = malloc((fit ? fit : 1) * sizeof *got);
  unsigned char *seen = calloc(n ? n : 1, 1);
  ck_assert(got && seen);
  size_t nread = 99;
  TU_OK(ctx, lsk_vector_read(v, got, fit, &nread, NULL));
  ck_assert_uint_eq(nread, fit);
  /* Plain ifs in the loops: a passing ck_assert costs a message to the
   * parent process. */
  for (size_t s = 0; s < fit; ++s) {
    unsigned i = got[s];
    if (i >= n || i % mod != 0 || seen[i])
      ck_abort_msg("%s n=%zu cap=%zu: slot %zu holds %u", kernel, n, capacity, s, i);
    seen[i] = 1;
  }
  unsigned *sl = tu_read_uints(ctx, slots, n ? n : 1);
  size_t full = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i % mod) {
      if (sl[i] != NONE)
        ck_abort_msg("%s: %zu was not to be appended (slot %u)", kernel, i, sl[i]);
    } else if (sl[i] == 0xffffffffu) {
      ++full;
      if (seen[i])
        ck_abort_msg("%s: %zu stored but reported full", kernel, i);
    } else if (sl[i] >= fit || got[sl[i]] != i)
      ck_abort_msg("%s n=%zu cap=%zu: append of %zu returned slot %u", kernel, n, capacity, i,
                   sl[i]);
  }
  ck_assert_uint_eq(full, want - fit);
  free(sl);
  free(seen);
  free(got);
  lsk_buffer_destroy(slots);
  lsk_vector_destroy(v);
  lsk_kernel_destroy(k);
}

static const lsk_launch shapes[] = {
    {.domain = {64}, .workers = 1, .simd = 1},
    {.domain = {100}, .workers = 7, .simd = 3},
    {.domain = {256}},
    {.domain = {64}, .workers = 1, .simd = 64},
};

START_TEST(test_vector_append)
{
  static const size_t sizes[] = {0, 1, 7, 1000, (1u << 20) + 3};
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "vector.cl", src);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    for (size_t h = 0; h < sizeof shapes / sizeof shapes[0]; ++h)
      for (int blk = 0; blk < 2; ++blk) {
        size_t n = sizes[s], want = n ? (n - 1) / 3 + 1 : 0;
        const char *k = blk ? "block_push" : "push";
        check_append(ctx, p, k, n, 3, want, &shapes[h]);
        check_append(ctx, p, k, n, 3, want / 2, &shapes[h]);
        if (n == 1000) {
          check_append(ctx, p, k, n, 3, 0, &shapes[h]);
          check_append(ctx, p, k, n, 3, want + 10, &shapes[h]);
          check_append(ctx, p, k, n, 1, n - 1, &shapes[h]);
        }
      }
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Clearing resets the count (data stays); elements of 8 bytes through
 * LSK_VECTOR_PUSH; lsk_vector_args equals LSK_VECTOR_ARGS. */
START_TEST(test_vector_clear_and_struct)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "vector.cl", src);
  lsk_kernel *k = tu_kernel(p, "push_macro");
  lsk_vector *v = NULL;
  const size_t n = 1000, cap = 200;
  TU_OK(ctx, lsk_vector_create(ctx, 2 * sizeof(unsigned), cap, &v));
  ck_assert_uint_eq(lsk_vector_capacity(v), cap);
  ck_assert_uint_eq(lsk_vector_elem_size(v), 8);
  lsk_arg a[3];
  TU_OK(ctx, lsk_vector_args(v, a));
  ck_assert(a[0].v.buffer == lsk_vector_data(v) && a[1].v.buffer == lsk_vector_count(v) &&
            a[2].v.u == cap && a[2].kind == LSK_ARG_KIND_UINT);
  lsk_launch l = {.domain = {128}, .blocks = {3}};
  for (unsigned r = 0; r < 2; ++r) {
    unsigned mod = r ? 3 : 7;
    TU_OK(ctx, lsk_vector_clear(v, NULL));
    TU_OK(ctx, lsk_kernel_run(k, &l, LSK_ARGS(a[0], a[1], a[2], LSK_ARG_UINT(n), LSK_ARG_UINT(mod)),
                              NULL));
    size_t size, over, want = (n - 1) / mod + 1;
    TU_OK(ctx, lsk_vector_size(v, &size, &over, NULL));
    ck_assert_uint_eq(size, want < cap ? want : cap);
    ck_assert_uint_eq(over, want < cap ? 0 : want - cap);
    uint64_t got[200];
    size_t nread;
    TU_OK(ctx, lsk_vector_read(v, got, 5, &nread, NULL));
    ck_assert_uint_eq(nread, 5);
    TU_OK(ctx, lsk_vector_read(v, got, cap, &nread, NULL));
    ck_assert_uint_eq(nread, size);
    for (size_t s = 0; s < size; ++s)
      if ((uint32_t)got[s] % mod != 0 || got[s] >> 32 != 3 * (uint32_t)got[s])
        ck_abort_msg("mod %u: %#llx", mod, (unsigned long long)got[s]);
  }
  /* Cleared and nothing appended: empty. */
  TU_OK(ctx, lsk_vector_clear(v, NULL));
  size_t size = 1, over = 1;
  TU_OK(ctx, lsk_vector_size(v, &size, NULL, NULL));
  ck_assert_uint_eq(size, 0);
  TU_OK(ctx, lsk_vector_size(v, &size, &over, NULL));
  ck_assert_uint_eq(over, 0);
  lsk_vector_destroy(v);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* The reads report a failed LSK_VERIFY of a kernel before them on their
 * queue, once, with their out-parameters not set; then read right. */
START_TEST(test_vector_read_reports_verify)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "vector.cl", src);
  lsk_kernel *k = tu_kernel(p, "push_fails");
  lsk_vector *v = NULL;
  TU_OK(ctx, lsk_vector_create(ctx, 8, 100, &v));
  lsk_arg a[3];
  TU_OK(ctx, lsk_vector_args(v, a));
  lsk_launch l = {.domain = {64}, .blocks = {1}};
  TU_OK(ctx, lsk_kernel_launch(k, &l, LSK_ARGS(a[0], a[1], a[2], LSK_ARG_UINT(10)), NULL));
  size_t size = 77, nread = 77;
  TU_FAILS(ctx, lsk_vector_size(v, &size, NULL, NULL), LSK_EVERIFY, "'push_fails'");
  ck_assert_uint_eq(size, 77);
  TU_OK(ctx, lsk_vector_size(v, &size, NULL, NULL));
  ck_assert_uint_eq(size, 10);
  TU_OK(ctx, lsk_kernel_launch(k, &l, LSK_ARGS(a[0], a[1], a[2], LSK_ARG_UINT(20)), NULL));
  uint64_t got[100];
  TU_FAILS(ctx, lsk_vector_read(v, got, 100, &nread, NULL), LSK_EVERIFY, "pushed [20]");
  ck_assert_uint_eq(nread, 0);
  TU_OK(ctx, lsk_vector_read(v, got, 100, &nread, NULL));
  ck_assert_uint_eq(nread, 30);
  lsk_vector_destroy(v);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_vector_errors)
{
  lsk_context *ctx = tu_context();
  lsk_vector *v = NULL;
  size_t size;
  TU_FAILS(NULL, lsk_vector_create(NULL, 4, 10, &v), LSK_EINVAL, "lsk_vector_create: ctx is NULL");
  TU_FAILS(ctx, lsk_vector_create(ctx, 4, 10, NULL), LSK_EINVAL, "lsk_vector_create: out is NULL");
  TU_FAILS(ctx, lsk_vector_create(ctx, 0, 10, &v), LSK_EINVAL, "lsk_vector_create: elem_size is 0");
  TU_FAILS(ctx, lsk_vector_create(ctx, 4, (size_t)UINT32_MAX, &v), LSK_ERANGE,
           "lsk_vector_create: capacity 4294967295 exceeds LSK_VECTOR_MAX_CAPACITY");
  TU_FAILS(ctx, lsk_vector_create(ctx, SIZE_MAX / 2, 4, &v), LSK_ERANGE, "overflow size_t");
  int rc = lsk_vector_create(ctx, 1u << 20, LSK_VECTOR_MAX_CAPACITY, &v);
  ck_assert_msg(rc == LSK_ERANGE, "%s", lsk_context_errmsg(ctx)); /* past the largest allocation */
  ck_assert_ptr_null(v);
  TU_FAILS(NULL, lsk_vector_clear(NULL, NULL), LSK_EINVAL, "lsk_vector_clear: vector is NULL");
  TU_FAILS(NULL, lsk_vector_size(NULL, &size, NULL, NULL), LSK_EINVAL,
           "lsk_vector_size: vector is NULL");
  TU_FAILS(NULL, lsk_vector_args(NULL, (lsk_arg[3]){0}), LSK_EINVAL,
           "lsk_vector_args: vector is NULL");
  TU_OK(ctx, lsk_vector_create(ctx, 4, 0, &v));
  TU_FAILS(ctx, lsk_vector_size(v, NULL, NULL, NULL), LSK_EINVAL, "lsk_vector_size: size is NULL");
  TU_FAILS(ctx, lsk_vector_read(v, NULL, 3, &size, NULL), LSK_EINVAL,
           "lsk_vector_read: dst is NULL with max 3");
  TU_FAILS(ctx, lsk_vector_read(v, NULL, 0, NULL, NULL), LSK_EINVAL, "lsk_vector_read: n is NULL");
  TU_FAILS(NULL, lsk_vector_read(NULL, NULL, 0, &size, NULL), LSK_EINVAL,
           "lsk_vector_read: vector is NULL");
  TU_FAILS(ctx, lsk_vector_args(v, NULL), LSK_EINVAL, "lsk_vector_args: args is NULL");
  ck_assert_uint_eq(lsk_vector_capacity(NULL), 0);
  ck_assert_uint_eq(lsk_vector_elem_size(NULL), 0);
  ck_assert_ptr_null(lsk_vector_data(NULL));
  ck_assert_ptr_null(lsk_vector_count(NULL));
  TU_OK(ctx, lsk_vector_size(v, &size, NULL, NULL));
  ck_assert_uint_eq(size, 0);
  lsk_vector_destroy(v);
  lsk_vector_destroy(NULL);
  lsk_context_destroy(ctx);
}
END_TEST

/* Small cases for oclgrind: both kernels, fitting and overflowing, the
 * macro push and a clear. */
START_TEST(test_vector_grind)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "vector.cl", src);
  static const lsk_launch small[] = {{.domain = {16}, .workers = 4, .simd = 2},
                                     {.domain = {7}, .workers = 1, .simd = 1}};
  for (size_t h = 0; h < 2; ++h)
    for (int blk = 0; blk < 2; ++blk) {
      check_append(ctx, p, blk ? "block_push" : "push", 100, 3, 34, &small[h]);
      check_append(ctx, p, blk ? "block_push" : "push", 100, 2, 20, &small[h]);
    }
  lsk_kernel *k = tu_kernel(p, "push_macro");
  lsk_vector *v = NULL;
  TU_OK(ctx, lsk_vector_create(ctx, 8, 10, &v));
  lsk_launch l = {.domain = {16}, .blocks = {2}, .workers = 4, .simd = 2};
  for (int r = 0; r < 2; ++r) {
    TU_OK(ctx, lsk_vector_clear(v, NULL));
    TU_OK(ctx, lsk_kernel_run(
                   k, &l, LSK_ARGS(LSK_VECTOR_ARGS(v), LSK_ARG_UINT(50), LSK_ARG_UINT(4)), NULL));
    size_t size, over;
    TU_OK(ctx, lsk_vector_size(v, &size, &over, NULL));
    ck_assert_uint_eq(size, 10);
    ck_assert_uint_eq(over, 3);
    uint64_t got[10];
    TU_OK(ctx, lsk_vector_read(v, got, 10, &size, NULL));
    for (size_t s = 0; s < size; ++s)
      ck_assert_msg((uint32_t)got[s] % 4 == 0 && got[s] >> 32 == 3 * (uint32_t)got[s], "%#llx",
                    (unsigned long long)got[s]);
  }
  lsk_vector_destroy(v);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

static TCase *grind_tcase(void)
{
  TCase *tc = tcase_create("grind");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_vector_grind);
  return tc;
}

Suite *suite_vector(void)
{
  Suite *s = suite_create("vector");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_vector_append);
  tcase_add_test(tc, test_vector_clear_and_struct);
  tcase_add_test(tc, test_vector_errors);
  tcase_add_test(tc, test_vector_read_reports_verify);
  suite_add_tcase(s, tc);
  suite_add_tcase(s, grind_tcase());
  return s;
}

Suite *suite_grind_vector(void)
{
  Suite *s = suite_create("grind_vector");
  suite_add_tcase(s, grind_tcase());
  return s;
}
