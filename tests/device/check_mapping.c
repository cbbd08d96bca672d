/*
 * check_mapping.c: the ForEach mapping of docs/lockstep.md (The model), observed
 * from inside kernels: owner and slot of each index, executions per worker,
 * context variables, master, block indices.
 */
#include "testutil.h"

static const char *src =
    "LSK_KERNEL void observe(LSK_CTX, __global uint *owner, __global uint *slot,\n"
    "                        __global uint *execs)\n"
    "{\n"
    "  LSK_FOREACH(it) {\n"
    "    owner[it.idx] = lsk_worker();\n"
    "    slot[it.idx] = it.slot;\n"
    "    atomic_inc(&execs[lsk_worker()]);\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void ctxvar(LSK_CTX, __global uint *out, __global uint *nslots)\n"
    "{\n"
    "  LSK_VAR(uint, v);\n"
    "  LSK_FOREACH(it) { LSK_VAR_AT(v, it) = 3 * it.idx + lsk_worker(); }\n"
    "  LSK_FOREACH(it) { out[it.idx] = LSK_VAR_AT(v, it) + 1; }\n"
    "  LSK_MASTER { nslots[0] = LSK_SLOTS(LSK_DOMAIN_SIZE); }\n"
    "}\n"
    "LSK_KERNEL void master(LSK_CTX, __global uint *count, __global uint *seen)\n"
    "{\n"
    "  LSK_SHARED(uint, token, 1);\n"
    "  LSK_MASTER {\n"
    "    atomic_inc(&count[0]);\n"
    "    atomic_or(&count[1], 1u << lsk_worker());\n"
    "    token[0] = 1000 + lsk_block_idx();\n"
    "  }\n"
    "  lsk_sync();\n"
    "  seen[lsk_block_idx() * LSK_WORKERS + lsk_worker()] = token[0];\n"
    "}\n"
    "LSK_KERNEL void blocks(LSK_CTX, __global uint *out)\n"
    "{\n"
    "  uint3 nd = lsk_block_nd();\n"
    "  LSK_MASTER {\n"
    "    out[3 * lsk_block_idx()] = nd.x + 100 * nd.y + 10000 * nd.z;\n"
    "    out[3 * lsk_block_idx() + 1] = lsk_grid_size();\n"
    "    out[3 * lsk_block_idx() + 2] = atomic_inc(&out[3 * 64]) < 1000;\n"
    "  }\n"
    "}\n";

/* The rule, computed on the host: the reference for any (n, W, S). */
static void reference(unsigned n, unsigned w, unsigned s, unsigned *owner, unsigned *slot,
                      unsigned *execs)
{
  for (unsigned k = 0; k < w; ++k)
    execs[k] = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned step = i / (s * w), r = i % (s * w);
    owner[i] = r / s;
    slot[i] = step * s + r % s;
    execs[owner[i]]++;
  }
}

typedef struct observed {
  unsigned owner[64], slot[64], execs[64];
} observed;

static void observe(lsk_context *ctx, lsk_kernel *k, unsigned n, unsigned w, unsigned s,
                    observed *o)
{
  lsk_buffer *owner = tu_zeros(ctx, 64), *slot = tu_zeros(ctx, 64), *execs = tu_zeros(ctx, 64);
  unsigned ff = 0xffffffffu;
  TU_OK(ctx, lsk_buffer_fill(owner, &ff, 4, 0, 64 * 4, NULL));
  TU_OK(ctx, lsk_buffer_fill(slot, &ff, 4, 0, 64 * 4, NULL));
  lsk_launch cfg = {.domain = {n}, .blocks = {1}, .workers = w, .simd = s};
  TU_OK(ctx,
        lsk_kernel_run(k, &cfg,
                       LSK_ARGS(LSK_ARG_BUFFER(owner), LSK_ARG_BUFFER(slot), LSK_ARG_BUFFER(execs)),
                       NULL));
  TU_OK(ctx, lsk_buffer_read(owner, 0, o->owner, sizeof o->owner, NULL));
  TU_OK(ctx, lsk_buffer_read(slot, 0, o->slot, sizeof o->slot, NULL));
  TU_OK(ctx, lsk_buffer_read(execs, 0, o->execs, sizeof o->execs, NULL));
  lsk_buffer_destroy(owner);
  lsk_buffer_destroy(slot);
  lsk_buffer_destroy(execs);
}

/* The worked cases of docs/lockstep.md's table, typed in from it. */
START_TEST(test_mapping_worked_cases)
{
  static const struct {
    unsigned n, w, s;
    unsigned owner[10], slot[10], execs[4];
  } cases[] = {
      {10, 4, 1, {0, 1, 2, 3, 0, 1, 2, 3, 0, 1}, {0, 0, 0, 0, 1, 1, 1, 1, 2, 2}, {3, 3, 2, 2}},
      {10, 4, 2, {0, 0, 1, 1, 2, 2, 3, 3, 0, 0}, {0, 1, 0, 1, 0, 1, 0, 1, 2, 3}, {4, 2, 2, 2}},
      {7, 3, 1, {0, 1, 2, 0, 1, 2, 0}, {0, 0, 0, 1, 1, 1, 2}, {3, 2, 2}},
      {2, 4, 1, {0, 1}, {0, 0}, {1, 1, 0, 0}},
  };
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "mapping.cl", src);
  lsk_kernel *k = tu_kernel(p, "observe");
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    observed o;
    observe(ctx, k, cases[c].n, cases[c].w, cases[c].s, &o);
    for (unsigned i = 0; i < cases[c].n; ++i) {
      ck_assert_msg(o.owner[i] == cases[c].owner[i], "case %zu index %u: owner %u, want %u", c, i,
                    o.owner[i], cases[c].owner[i]);
      ck_assert_msg(o.slot[i] == cases[c].slot[i], "case %zu index %u: slot %u, want %u", c, i,
                    o.slot[i], cases[c].slot[i]);
    }
    for (unsigned i = cases[c].n; i < 64; ++i)
      ck_assert_msg(o.owner[i] == 0xffffffffu, "case %zu: index %u beyond the domain ran", c, i);
    for (unsigned w = 0; w < cases[c].w; ++w)
      ck_assert_msg(o.execs[w] == cases[c].execs[w], "case %zu worker %u: %u executions, want %u",
                    c, w, o.execs[w], cases[c].execs[w]);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* More shapes against the host-side rule. */
START_TEST(test_mapping_rule)
{
  static const unsigned shapes[][3] = {{1, 1, 1},  {13, 2, 3},  {64, 8, 8}, {33, 8, 4},
                                       {50, 7, 5}, {64, 64, 1}, {5, 1, 8},  {40, 3, 16}};
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "mapping.cl", src);
  lsk_kernel *k = tu_kernel(p, "observe");
  for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; ++c) {
    unsigned n = shapes[c][0], w = shapes[c][1], s = shapes[c][2];
    if (!tu_fits(ctx, k, &(lsk_launch){.domain = {n}, .blocks = {1}, .workers = w, .simd = s}))
      continue;
    observed o, r;
    observe(ctx, k, n, w, s, &o);
    reference(n, w, s, r.owner, r.slot, r.execs);
    for (unsigned i = 0; i < n; ++i)
      ck_assert_msg(o.owner[i] == r.owner[i] && o.slot[i] == r.slot[i],
                    "n=%u W=%u S=%u index %u: owner %u slot %u, want %u %u", n, w, s, i, o.owner[i],
                    o.slot[i], r.owner[i], r.slot[i]);
    for (unsigned i = 0; i < w; ++i)
      ck_assert_msg(o.execs[i] == r.execs[i], "n=%u W=%u S=%u worker %u: %u executions, want %u", n,
                    w, s, i, o.execs[i], r.execs[i]);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* A context variable carries each index's value from one ForEach to the
 * next, and holds ceil(n / (S*W)) * S slots. */
START_TEST(test_mapping_context_variable)
{
  static const unsigned shapes[][3] = {{10, 4, 1}, {10, 4, 2}, {37, 8, 4}, {64, 1, 1}, {3, 8, 1}};
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "mapping.cl", src);
  lsk_kernel *k = tu_kernel(p, "ctxvar");
  for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; ++c) {
    unsigned n = shapes[c][0], w = shapes[c][1], s = shapes[c][2];
    lsk_buffer *out = tu_zeros(ctx, n), *ns = tu_zeros(ctx, 1);
    lsk_launch cfg = {.domain = {n}, .blocks = {1}, .workers = w, .simd = s};
    TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(out), LSK_ARG_BUFFER(ns)), NULL));
    unsigned *h = tu_read_uints(ctx, out, n), *slots = tu_read_uints(ctx, ns, 1);
    observed r;
    reference(n, w, s, r.owner, r.slot, r.execs);
    for (unsigned i = 0; i < n; ++i)
      ck_assert_msg(h[i] == 3 * i + r.owner[i] + 1, "n=%u W=%u S=%u: out[%u] = %u, want %u", n, w,
                    s, i, h[i], 3 * i + r.owner[i] + 1);
    ck_assert_uint_eq(slots[0], (n + s * w - 1) / (s * w) * s);
    free(h);
    free(slots);
    lsk_buffer_destroy(out);
    lsk_buffer_destroy(ns);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Master: exactly one worker per block, always worker 0; what it writes to
 * local memory is seen by every worker after lsk_sync. */
START_TEST(test_mapping_master)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "mapping.cl", src);
  lsk_kernel *k = tu_kernel(p, "master");
  const unsigned nblocks = 5, workers[] = {1, 8, 32};
  for (size_t c = 0; c < 3; ++c) {
    unsigned w = workers[c];
    lsk_buffer *count = tu_zeros(ctx, 2), *seen = tu_zeros(ctx, nblocks * w);
    lsk_launch cfg = {.domain = {16}, .blocks = {nblocks}, .workers = w, .simd = 1};
    TU_OK(ctx,
          lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(count), LSK_ARG_BUFFER(seen)), NULL));
    unsigned *cnt = tu_read_uints(ctx, count, 2), *h = tu_read_uints(ctx, seen, nblocks * w);
    ck_assert_uint_eq(cnt[0], nblocks);
    ck_assert_uint_eq(cnt[1], 1u); /* only worker 0 */
    for (unsigned b = 0; b < nblocks; ++b)
      for (unsigned i = 0; i < w; ++i)
        ck_assert_uint_eq(h[b * w + i], 1000 + b);
    free(cnt);
    free(h);
    lsk_buffer_destroy(count);
    lsk_buffer_destroy(seen);
  }
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Block index: the grid linearized with x fastest; grid size = blocks. */
START_TEST(test_mapping_block_index)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "mapping.cl", src);
  lsk_kernel *k = tu_kernel(p, "blocks");
  lsk_buffer *out = tu_zeros(ctx, 3 * 64 + 1);
  lsk_launch cfg = {.domain = {8}, .blocks = {3, 2, 4}, .workers = 4};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(out)), NULL));
  unsigned *h = tu_read_uints(ctx, out, 3 * 64 + 1);
  for (unsigned z = 0; z < 4; ++z)
    for (unsigned y = 0; y < 2; ++y)
      for (unsigned x = 0; x < 3; ++x) {
        unsigned b = x + 3 * (y + 2 * z);
        ck_assert_msg(h[3 * b] == x + 100 * y + 10000 * z, "block %u: nd %u", b, h[3 * b]);
        ck_assert_uint_eq(h[3 * b + 1], 24);
        ck_assert_uint_eq(h[3 * b + 2], 1);
      }
  ck_assert_uint_eq(h[3 * 64], 24); /* each block's master ran once */
  free(h);
  lsk_buffer_destroy(out);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_mapping(void)
{
  Suite *s = suite_create("mapping");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_mapping_worked_cases);
  tcase_add_test(tc, test_mapping_rule);
  tcase_add_test(tc, test_mapping_context_variable);
  tcase_add_test(tc, test_mapping_master);
  tcase_add_test(tc, test_mapping_block_index);
  suite_add_tcase(s, tc);
  return s;
}
