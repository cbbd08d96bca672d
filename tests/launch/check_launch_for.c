/*
 * check_launch_for.c: lsk_launch_for, the block domain and blocks from a
 * count (PMacc's makeBlockCfg and .config(numBlocks, frame)): the launches
 * of worked cases, typed in from hand, and kernels launched with them
 * that reach every item of the count exactly once (tiles of the domain,
 * and data blocks of per_block items, capped or not).
 */
#include <stdio.h>

#include "testutil.h"

/* tiles: the items are the domain's indices, data block b holds
 * [b D, b D + D) below count. items: data block b holds the items
 * [b per, b per + per) below count, and each item D elements. nb: the
 * data blocks, which LSK_BLOCKS takes in turn where the blocks were
 * capped. */
static const char *src =
    "LSK_KERNEL void tiles(LSK_CTX, __global uint *seen, uint count, uint nb)\n"
    "{\n"
    "  LSK_BLOCKS(b, nb) {\n"
    "    uint base = b * LSK_DOMAIN_SIZE;\n"
    "    LSK_FOREACH_N(it, lsk_domain_count(base, count)) atomic_inc(&seen[base + it.idx]);\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void items(LSK_CTX, __global uint *seen, uint count, uint per, uint nb)\n"
    "{\n"
    "  LSK_BLOCKS(b, nb) {\n"
    "    for (uint k = b * per; k < b * per + per && k < count; ++k)\n"
    "      LSK_FOREACH(it) atomic_inc(&seen[k * LSK_DOMAIN_SIZE + it.idx]);\n"
    "  }\n"
    "}\n";

/* The worked cases of include/lsk/program.h and more, by hand. */
START_TEST(test_launch_for_worked)
{
  static const struct {
    size_t count;
    unsigned domain[3];
    size_t per_block, max_blocks;
    size_t blocks; /* worked by hand */
  } cases[] = {
      {1000, {256}, 0, 0, 4},       /* 3 full data blocks and 232 items */
      {1024, {256}, 0, 0, 4},       /* exactly 4 */
      {1025, {256}, 0, 0, 5},       /* one item more: a fifth */
      {512, {8, 8, 4}, 0, 0, 2},    /* frames of 256 particles */
      {0, {256}, 0, 0, 1},          /* nothing: one block with no item */
      {1, {256}, 0, 0, 1},          /* one item */
      {1856, {256}, 1, 0, 1856},    /* a block per module */
      {1856, {256}, 1, 528, 528},   /* capped: 4 per compute unit of 132 */
      {10, {64}, 3, 0, 4},          /* 3 + 3 + 3 + 1 items */
      {10, {64}, 3, 2, 2},          /* capped */
      {1000, {0}, 1, 0, 1000},      /* the kernel's declared domain */
      {1000, {100, 2, 0}, 0, 7, 5}, /* 200 per data block: 5, under the cap */
      {1000, {100, 2, 1}, 0, 5, 5}, /* at the cap */
      {999, {1}, 0, 0, 999},        /* domain 1 */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    lsk_launch l;
    memset(&l, 0xff, sizeof l);
    lsk_launch_for_options o = {.per_block = cases[c].per_block, .max_blocks = cases[c].max_blocks};
    ck_assert_int_eq(lsk_launch_for(cases[c].count, cases[c].domain, &o, &l), LSK_OK);
    ck_assert_msg(l.blocks[0] == cases[c].blocks, "case %zu: %zu blocks, want %zu", c, l.blocks[0],
                  cases[c].blocks);
    ck_assert(l.blocks[1] == 0 && l.blocks[2] == 0);
    for (int a = 0; a < 3; ++a)
      ck_assert_uint_eq(l.domain[a], cases[c].domain[a]);
    ck_assert(l.workers == 0 && l.simd == 0 && l.local_bytes == 0);
  }
  /* NULL options: the domain's size per data block, no cap. */
  lsk_launch l;
  ck_assert_int_eq(lsk_launch_for(257, (unsigned[3]){256, 0, 0}, NULL, &l), LSK_OK);
  ck_assert_uint_eq(l.blocks[0], 2);
}
END_TEST

/* seen[0 .. n) must be 1 each, seen[n .. n + 64) still 0. */
static void all_once(lsk_context *ctx, lsk_buffer *seen, size_t n, const char *what)
{
  unsigned *h = tu_read_uints(ctx, seen, n + 64);
  for (size_t i = 0; i < n + 64; ++i)
    ck_assert_msg(h[i] == (i < n), "%s: element %zu reached %u times", what, i, h[i]);
  free(h);
}

/* Kernels launched with lsk_launch_for's launches reach every item once:
 * tiles over 1-D and 3-D domains, and data blocks of 1 and 3 items,
 * capped and not. */
START_TEST(test_launch_for_runs)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "launch_for.cl", src);
  lsk_kernel *tiles = tu_kernel(p, "tiles"), *items = tu_kernel(p, "items");
  static const struct {
    unsigned count, domain[3];
    size_t max_blocks;
  } tcases[] = {{1000, {256}, 0}, {1000, {256}, 2}, {77, {4, 4, 2}, 0}, {0, {64}, 0}};
  for (size_t c = 0; c < sizeof tcases / sizeof tcases[0]; ++c) {
    lsk_launch l;
    lsk_launch_for_options o = {.max_blocks = tcases[c].max_blocks};
    TU_OK(ctx, lsk_launch_for(tcases[c].count, tcases[c].domain, &o, &l));
    unsigned d = tcases[c].domain[0] * (tcases[c].domain[1] ? tcases[c].domain[1] : 1) *
                 (tcases[c].domain[2] ? tcases[c].domain[2] : 1);
    unsigned nb = (tcases[c].count + d - 1) / d;
    lsk_buffer *seen = tu_zeros(ctx, tcases[c].count + 64);
    TU_OK(ctx, lsk_kernel_run(
                   tiles, &l,
                   LSK_ARGS(LSK_ARG_BUFFER(seen), LSK_ARG_UINT(tcases[c].count), LSK_ARG_UINT(nb)),
                   NULL));
    char what[64];
    snprintf(what, sizeof what, "tiles case %zu", c);
    all_once(ctx, seen, tcases[c].count, what);
    lsk_buffer_destroy(seen);
  }
  static const struct {
    unsigned count, domain, per;
    size_t max_blocks;
  } icases[] = {{13, 32, 1, 0}, {13, 32, 1, 4}, {10, 64, 3, 0}, {10, 64, 3, 2}};
  for (size_t c = 0; c < sizeof icases / sizeof icases[0]; ++c) {
    lsk_launch l;
    lsk_launch_for_options o = {.per_block = icases[c].per, .max_blocks = icases[c].max_blocks};
    TU_OK(ctx, lsk_launch_for(icases[c].count, (unsigned[3]){icases[c].domain, 0, 0}, &o, &l));
    unsigned nb = (icases[c].count + icases[c].per - 1) / icases[c].per;
    size_t n = (size_t)icases[c].count * icases[c].domain;
    lsk_buffer *seen = tu_zeros(ctx, n + 64);
    TU_OK(ctx, lsk_kernel_run(items, &l,
                              LSK_ARGS(LSK_ARG_BUFFER(seen), LSK_ARG_UINT(icases[c].count),
                                       LSK_ARG_UINT(icases[c].per), LSK_ARG_UINT(nb)),
                              NULL));
    char what[64];
    snprintf(what, sizeof what, "items case %zu", c);
    all_once(ctx, seen, n, what);
    lsk_buffer_destroy(seen);
  }
  lsk_kernel_destroy(tiles);
  lsk_kernel_destroy(items);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_launch_for(void)
{
  Suite *s = suite_create("launch_for");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_launch_for_worked);
  tcase_add_test(tc, test_launch_for_runs);
  suite_add_tcase(s, tc);
  return s;
}
