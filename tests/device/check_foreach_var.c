/*
 * check_foreach_var.c: PMacc's lockstep forms (docs/lockstep.md, "PMacc's
 * forms in lsk") run from tests/foreach_var.cl and compared with a plain C
 * model: a ForEach whose result is a context variable, a context variable
 * with an initial value in every slot, and ForEach over 1, D - 1, D, D + 1
 * and 3 D + 5 indices for block domains D, at the shapes the repository
 * uses (given ones, PoCL's automatic one and an H100's automatic one):
 * each index's value, its worker and slot (the mapping of docs/lockstep.md
 * beyond the domain), that it ran once, the slots set per worker, and the
 * block sum of the result.
 */
#include "testutil.h"

#define NCASES 5 /* as in foreach_var.cl */
#define NBLOCKS 2u
#define SENTINEL 0xffffffffu

/* The kernel's value and initial value (foreach_var.cl). */
static uint32_t fv_mix(uint32_t i, uint32_t c) { return (i + 1u) * 2654435761u ^ (c << 24); }
static uint32_t fv_init(uint32_t b, uint32_t c) { return 1000u * (c + 1u) + b; }

/* Case c's count over domain d; 0: not built (d - 1 where d is 1). */
static unsigned case_n(unsigned c, unsigned d)
{
  const unsigned n[NCASES] = {1, d - 1, d, d + 1, 3 * d + 5};
  return n[c];
}

typedef struct fv_run {
  lsk_context *ctx;
  lsk_program *p;
  lsk_kernel *forms, *domain_forms;
} fv_run;

static fv_run fv_open(const lsk_context_options *opt)
{
  fv_run r;
  r.ctx = opt ? tu_context_opt(opt) : tu_context();
  TU_OK(r.ctx, lsk_program_create_file(r.ctx, LSK_TEST_DIR "/foreach_var.cl", NULL, &r.p));
  r.forms = tu_kernel(r.p, "forms");
  r.domain_forms = tu_kernel(r.p, "domain_forms");
  return r;
}

static void fv_close(fv_run *r)
{
  lsk_kernel_destroy(r->forms);
  lsk_kernel_destroy(r->domain_forms);
  lsk_program_destroy(r->p);
  lsk_context_destroy(r->ctx);
}

/* A buffer of n uints, every one v (a whole-buffer write: oclgrind takes
 * no fill as initializing). */
static lsk_buffer *filled(lsk_context *ctx, size_t n, uint32_t v)
{
  uint32_t *h = malloc(n * sizeof *h);
  ck_assert_ptr_nonnull(h);
  for (size_t i = 0; i < n; ++i)
    h[i] = v;
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, n * sizeof *h, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, h, n * sizeof *h, NULL));
  free(h);
  return b;
}

/* One launch of `forms` over domain d with workers w and simd s (0:
 * automatic), every output against the model. */
static void fv_check(fv_run *r, unsigned d, unsigned w, unsigned s)
{
  lsk_launch cfg = {.domain = {d}, .blocks = {NBLOCKS}, .workers = w, .simd = s};
  if (!tu_fits(r->ctx, r->forms, &cfg))
    return;
  unsigned W = 0, S = 0;
  TU_OK(r->ctx, lsk_kernel_shape(r->forms, &cfg, &W, &S));
  unsigned stride = 3 * d + 5, regions = NBLOCKS * NCASES;
  size_t n_all = (size_t)regions * stride;
  lsk_buffer *out = filled(r->ctx, n_all, SENTINEL), *where = filled(r->ctx, n_all, SENTINEL);
  lsk_buffer *execs = tu_zeros(r->ctx, n_all), *good = tu_zeros(r->ctx, regions);
  lsk_buffer *total = filled(r->ctx, regions, SENTINEL);
  TU_OK(r->ctx,
        lsk_kernel_run(r->forms, &cfg,
                       LSK_ARGS(LSK_ARG_BUFFER(out), LSK_ARG_BUFFER(where), LSK_ARG_BUFFER(execs),
                                LSK_ARG_BUFFER(good), LSK_ARG_BUFFER(total), LSK_ARG_UINT(stride),
                                LSK_ARG_UINT(1), LSK_ARG_UINT(0)),
                       NULL));
  unsigned *ho = tu_read_uints(r->ctx, out, n_all), *hw = tu_read_uints(r->ctx, where, n_all);
  unsigned *he = tu_read_uints(r->ctx, execs, n_all), *hg = tu_read_uints(r->ctx, good, regions);
  unsigned *ht = tu_read_uints(r->ctx, total, regions);
  for (unsigned b = 0; b < NBLOCKS; ++b)
    for (unsigned c = 0; c < NCASES; ++c) {
      unsigned n = case_n(c, d), reg = b * NCASES + c;
      size_t base = (size_t)reg * stride;
      uint32_t sum = 0;
      for (unsigned i = 0; i < stride; ++i) {
        /* The model: worker and slot of index i (docs/lockstep.md). */
        unsigned step = i / (S * W), rem = i % (S * W);
        uint32_t want = i < n ? fv_init(b, c) + fv_mix(i, c) : SENTINEL;
        uint32_t want_where = i < n ? (rem / S) << 16 | (step * S + rem % S) : SENTINEL;
        ck_assert_msg(ho[base + i] == want, "D=%u W=%u S=%u block %u n=%u: out[%u] = %u, want %u",
                      d, W, S, b, n, i, ho[base + i], want);
        ck_assert_msg(hw[base + i] == want_where,
                      "D=%u W=%u S=%u block %u n=%u: index %u at worker/slot %#x, want %#x", d, W,
                      S, b, n, i, hw[base + i], want_where);
        ck_assert_msg(he[base + i] == (i < n),
                      "D=%u W=%u S=%u block %u n=%u: index %u ran %u times", d, W, S, b, n, i,
                      he[base + i]);
        if (i < n)
          sum += fv_mix(i, c);
      }
      unsigned slots = (n + S * W - 1) / (S * W) * S;
      if (n == 0) {
        ck_assert_uint_eq(hg[reg], 0);
        continue;
      }
      ck_assert_msg(hg[reg] == W * slots,
                    "D=%u W=%u S=%u block %u n=%u: %u slots held the initial value, want %u x %u",
                    d, W, S, b, n, hg[reg], W, slots);
      ck_assert_msg(ht[reg] == sum, "D=%u W=%u S=%u block %u n=%u: block sum %u, want %u", d, W, S,
                    b, n, ht[reg], sum);
    }
  free(ho);
  free(hw);
  free(he);
  free(hg);
  free(ht);
  lsk_buffer_destroy(out);
  lsk_buffer_destroy(where);
  lsk_buffer_destroy(execs);
  lsk_buffer_destroy(good);
  lsk_buffer_destroy(total);

  /* The forms without _N, over the domain: case 2's values. */
  lsk_buffer *dom = filled(r->ctx, (size_t)NBLOCKS * d, SENTINEL);
  TU_OK(r->ctx, lsk_kernel_run(r->domain_forms, &cfg, LSK_ARGS(LSK_ARG_BUFFER(dom)), NULL));
  unsigned *hd = tu_read_uints(r->ctx, dom, (size_t)NBLOCKS * d);
  for (unsigned b = 0; b < NBLOCKS; ++b)
    for (unsigned i = 0; i < d; ++i)
      ck_assert_msg(hd[b * d + i] == 3000u + b + fv_mix(i, 2),
                    "D=%u W=%u S=%u block %u: domain_forms out[%u] = %u, want %u", d, W, S, b, i,
                    hd[b * d + i], 3000u + b + fv_mix(i, 2));
  free(hd);
  lsk_buffer_destroy(dom);
}

/* Shapes: automatic (0, 0), PMacc's one worker, GPU-like one index per
 * worker, odd workers and simd (several steps at 3 D + 5), and simd
 * wider than the domain. Each (domain, shape) is a build (PoCL: about 2 s
 * of CPU each, cold), so the lists are short. */
static const unsigned fv_shapes[][2] = {{0, 0}, {1, 1}, {32, 1}, {3, 5}, {2, 64}};
static const unsigned fv_domains[] = {1, 7, 100};

/* Every domain at every shape on the default device's own facts (under
 * the gpushape label: an H100's). */
START_TEST(test_foreach_var_shapes)
{
  fv_run r = fv_open(NULL);
  for (size_t di = 0; di < sizeof fv_domains / sizeof fv_domains[0]; ++di)
    for (size_t si = 0; si < sizeof fv_shapes / sizeof fv_shapes[0]; ++si)
      fv_check(&r, fv_domains[di], fv_shapes[si][0], fv_shapes[si][1]);
  fv_close(&r);
}
END_TEST

/* The automatic shapes of an H100 (LSK_SHAPES_NVIDIA: whole warps of one
 * index; domain 100: 128 workers) on whatever device runs the test. */
START_TEST(test_foreach_var_gpu_shapes)
{
  lsk_context_options o = {.shapes = LSK_SHAPES_NVIDIA};
  fv_run r = fv_open(&o);
  /* The shapes, by hand: warps of 32 workers of one index. */
  static const unsigned want[][2] = {{7, 32}, {100, 128}};
  for (size_t c = 0; c < 2; ++c) {
    lsk_launch cfg = {.domain = {want[c][0]}, .blocks = {NBLOCKS}};
    unsigned w = 0, s = 0;
    if (!tu_fits(r.ctx, r.forms, &cfg))
      continue;
    TU_OK(r.ctx, lsk_kernel_shape(r.forms, &cfg, &w, &s));
    /* ... within the kernel's limit (rusticl on llvmpipe: 32). */
    lsk_kernel_info ki;
    TU_OK(r.ctx, lsk_kernel_query(r.forms, &cfg, &ki));
    unsigned most = (unsigned)(ki.work_group_max / 32 * 32), wanted = want[c][1];
    wanted = most && wanted > most ? most : wanted;
    ck_assert_msg(w == wanted && s == 1, "domain %u: %u workers of simd %u, want %u of 1",
                  want[c][0], w, s, wanted);
    fv_check(&r, want[c][0], 0, 0);
  }
  fv_close(&r);
}
END_TEST

/* The small cases under oclgrind (tests/oclgrind.sh): automatic, several
 * steps, one worker. */
START_TEST(test_grind_foreach_var)
{
  fv_run r = fv_open(NULL);
  fv_check(&r, 7, 0, 0);
  fv_check(&r, 7, 3, 1);
  fv_check(&r, 16, 4, 2);
  fv_check(&r, 5, 1, 1);
  fv_close(&r);
}
END_TEST

Suite *suite_foreach_var(void)
{
  Suite *s = suite_create("foreach_var");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_foreach_var_shapes);
  tcase_add_test(tc, test_foreach_var_gpu_shapes);
  suite_add_tcase(s, tc);
  return s;
}

Suite *suite_grind_foreach_var(void)
{
  Suite *s = suite_create("grind_foreach_var");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_grind_foreach_var);
  suite_add_tcase(s, tc);
  return s;
}
