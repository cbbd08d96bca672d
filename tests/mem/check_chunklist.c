/*
 * check_chunklist.c: chunked lists (include/lsk/chunklist.h,
 * cl/lsk_list.h): appends from many blocks, one atomic each and one per
 * block mixed, give exactly the filtered input as a multiset, with as many
 * chunks as the length needs; a later kernel finds every element in O(1);
 * clear gives every chunk back; out of pool or of table space, elements are
 * counted as lost, never silently dropped, and a rerun after growing the
 * pool succeeds.
 */
#include <stdio.h>

#include "testutil.h"

#define N 6000u
#define CHUNK 64u

static unsigned rnd(unsigned *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static int cmp_uint(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

typedef struct fixture {
  lsk_context *ctx;
  lsk_program *prog;
  lsk_kernel *append, *sum;
  lsk_buffer *vals, *missed;
  unsigned v[N], want[N], nwant;
} fixture;

static void fx_open(fixture *f, unsigned seed)
{
  f->ctx = tu_context();
  TU_OK(f->ctx, lsk_program_create_file(f->ctx, LSK_TEST_DIR "/pool.cl", NULL, &f->prog));
  f->append = tu_kernel(f->prog, "list_append");
  f->sum = tu_kernel(f->prog, "list_sum");
  f->nwant = 0;
  for (unsigned i = 0; i < N; ++i) {
    f->v[i] = rnd(&seed);
    if (f->v[i] % 3 != 0)
      f->want[f->nwant++] = f->v[i];
  }
  qsort(f->want, f->nwant, 4, cmp_uint);
  TU_OK(f->ctx, lsk_buffer_create(f->ctx, sizeof f->v, &f->vals));
  TU_OK(f->ctx, lsk_buffer_write(f->vals, 0, f->v, sizeof f->v, NULL));
  TU_OK(f->ctx, lsk_buffer_create(f->ctx, 4, &f->missed));
}

static void fx_close(fixture *f)
{
  lsk_buffer_destroy(f->vals);
  lsk_buffer_destroy(f->missed);
  lsk_kernel_destroy(f->append);
  lsk_kernel_destroy(f->sum);
  lsk_program_destroy(f->prog);
  lsk_context_destroy(f->ctx);
}

/* Runs list_append over the input; returns the elements without storage
 * that the kernel saw. */
static unsigned run_append(fixture *f, lsk_pool *pool, lsk_list *list, const lsk_launch *cfg)
{
  unsigned zero = 0, missed = 0;
  TU_OK(f->ctx, lsk_buffer_write(f->missed, 0, &zero, 4, NULL));
  TU_OK(f->ctx,
        lsk_kernel_run(f->append, cfg,
                       LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)),
                                LSK_ARG_BUFFER(lsk_list_buffer(list)), LSK_ARG_BUFFER(f->vals),
                                LSK_ARG_UINT(N), LSK_ARG_BUFFER(f->missed)),
                       NULL));
  TU_OK(f->ctx, lsk_buffer_read(f->missed, 0, &missed, 4, NULL));
  return missed;
}

/* The list holds the wanted values as a multiset, each element intact. */
static void check_content(fixture *f, lsk_list *list)
{
  unsigned *e = malloc(f->nwant * 8), *got = malloc(f->nwant * 4);
  ck_assert_ptr_nonnull(e);
  ck_assert_ptr_nonnull(got);
  TU_OK(f->ctx, lsk_list_read(list, 0, f->nwant, e, f->nwant * 8, NULL));
  for (unsigned i = 0; i < f->nwant; ++i) {
    ck_assert_msg(e[2 * i + 1] == ~e[2 * i], "element %u torn: %u %u", i, e[2 * i], e[2 * i + 1]);
    got[i] = e[2 * i];
  }
  qsort(got, f->nwant, 4, cmp_uint);
  for (unsigned i = 0; i < f->nwant; ++i)
    ck_assert_msg(got[i] == f->want[i], "sorted element %u: %u, want %u", i, got[i], f->want[i]);
  free(e);
  free(got);
}

START_TEST(test_chunklist_append_many_blocks)
{
  static const unsigned shapes[][3] = {{64, 8, 2}, {32, 0, 0}, {64, 64, 1}, {128, 4, 32}};
  for (size_t sh = 0; sh < 4; ++sh) {
    fixture f;
    fx_open(&f, 4242u + (unsigned)sh);
    lsk_pool *pool = NULL;
    lsk_list *list = NULL;
    /* Cells for any timing: the list's chunks, and one for every appender
     * that may lose the race to make one (a loser's cell is free again only
     * after a GC). In lockstep lanes (rusticl) 200 cells ran out in 2 of 12
     * runs; on PoCL, one work-item after the other, nobody loses. */
    TU_OK(f.ctx, lsk_pool_create(f.ctx, CHUNK * 8, N / CHUNK + 1 + N, NULL, &pool));
    TU_OK(f.ctx, lsk_list_create(pool, 8, CHUNK, 20000, &list));
    lsk_launch cfg = {
        .domain = {shapes[sh][0]}, .blocks = {12}, .workers = shapes[sh][1], .simd = shapes[sh][2]};
    if (!tu_fits(f.ctx, f.append, &cfg)) {
      lsk_list_destroy(list);
      lsk_pool_destroy(pool);
      fx_close(&f);
      continue;
    }
    for (int again = 0; again < 2; ++again) {
      ck_assert_uint_eq(run_append(&f, pool, list, &cfg), 0);
      lsk_list_usage lu;
      TU_OK(f.ctx, lsk_list_usage_get(list, &lu, NULL));
      ck_assert_uint_eq(lu.length, f.nwant);
      ck_assert_uint_eq(lu.lost, 0);
      ck_assert_uint_eq(lu.chunks, (f.nwant + CHUNK - 1) / CHUNK);
      ck_assert_uint_eq(lu.max_length, 20000 / CHUNK * CHUNK + CHUNK);
      check_content(&f, list);
      /* Chunks made twice by racing appenders were recycled: after a GC
       * the pool holds exactly the list's chunks. */
      TU_OK(f.ctx, lsk_pool_gc(pool, NULL));
      lsk_pool_usage pu;
      TU_OK(f.ctx, lsk_pool_usage_get(pool, &pu, NULL));
      ck_assert_uint_eq(pu.live, lu.chunks);
      /* A later kernel finds every element (lsk_list_at). */
      lsk_buffer *sums = tu_zeros(f.ctx, 3);
      lsk_launch one = {.domain = {64}, .blocks = {3}};
      TU_OK(f.ctx,
            lsk_kernel_run(f.sum, &one,
                           LSK_ARGS(LSK_ARG_BUFFER(lsk_pool_buffer(pool)),
                                    LSK_ARG_BUFFER(lsk_list_buffer(list)), LSK_ARG_BUFFER(sums)),
                           NULL));
      unsigned *s = tu_read_uints(f.ctx, sums, 3), want = 0;
      for (unsigned i = 0; i < f.nwant; ++i)
        want += f.want[i];
      ck_assert_uint_eq(s[0] + s[1] + s[2], want);
      free(s);
      lsk_buffer_destroy(sums);
      /* Clear gives every chunk back; the list is then used again. */
      TU_OK(f.ctx, lsk_list_clear(list, NULL));
      TU_OK(f.ctx, lsk_pool_gc(pool, NULL));
      TU_OK(f.ctx, lsk_pool_usage_get(pool, &pu, NULL));
      ck_assert_uint_eq(pu.live, 0);
      TU_OK(f.ctx, lsk_list_usage_get(list, &lu, NULL));
      ck_assert_uint_eq(lu.length + lu.chunks, 0);
    }
    lsk_list_destroy(list);
    lsk_pool_destroy(pool);
    fx_close(&f);
  }
}
END_TEST

/* A pool of 10 chunks for about 4000 elements: the rest are lost and
 * counted (as many as the kernel saw without storage), reading them fails;
 * after growing the pool, clear and rerun, the list is complete. A table
 * of two chunks loses all elements past 128. */
START_TEST(test_chunklist_exhaustion_counted_and_recovered)
{
  fixture f;
  fx_open(&f, 31337u);
  lsk_pool *pool = NULL;
  lsk_list *list = NULL, *small = NULL;
  TU_OK(f.ctx, lsk_pool_create(f.ctx, CHUNK * 8, 10, NULL, &pool));
  TU_OK(f.ctx, lsk_list_create(pool, 8, CHUNK, 20000, &list));
  lsk_launch cfg = {.domain = {64}, .blocks = {8}};
  unsigned missed = run_append(&f, pool, list, &cfg);
  lsk_list_usage lu;
  TU_OK(f.ctx, lsk_list_usage_get(list, &lu, NULL));
  ck_assert_uint_eq(lu.length, f.nwant);
  /* Every cell went to a chunk, or to an appender that lost the race to
   * make the same chunk and recycled it: how many depends on timing. */
  lsk_pool_usage pu;
  TU_OK(f.ctx, lsk_pool_usage_get(pool, &pu, NULL));
  ck_assert_uint_ge(lu.chunks, 1);
  ck_assert_uint_eq(lu.chunks + pu.recycled, 10);
  ck_assert_uint_ge(lu.lost, f.nwant - lu.chunks * CHUNK);
  ck_assert_uint_eq(lu.lost, missed);
  ck_assert_int_eq(pu.exhausted, 1);
  unsigned *all = malloc(f.nwant * 8);
  ck_assert_ptr_nonnull(all);
  TU_FAILS(f.ctx, lsk_list_read(list, 0, f.nwant, all, f.nwant * 8, NULL), LSK_ERANGE,
           "has no storage");
  TU_FAILS(f.ctx, lsk_list_read(list, f.nwant, 1, all, f.nwant * 8, NULL), LSK_ERANGE,
           "pass the length");
  free(all);
  /* Recovery. */
  TU_OK(f.ctx, lsk_list_clear(list, NULL));
  /* Enough for any timing: a chunk per CHUNK elements, and a cell for
   * every appender that may lose the race to make one. Work-items in
   * lockstep lanes (llvmpipe, GPUs) all find a chunk missing at once: on
   * rusticl 55 of 100 cells went to losers, on PoCL (one work-item after
   * the other) none. */
  TU_OK(f.ctx, lsk_pool_grow(pool, f.nwant / CHUNK + 1 + f.nwant));
  ck_assert_uint_eq(run_append(&f, pool, list, &cfg), 0);
  TU_OK(f.ctx, lsk_list_usage_get(list, &lu, NULL));
  ck_assert_uint_eq(lu.lost, 0);
  check_content(&f, list);
  /* The table's end. */
  TU_OK(f.ctx, lsk_list_clear(list, NULL));
  TU_OK(f.ctx, lsk_pool_gc(pool, NULL));
  TU_OK(f.ctx, lsk_list_create(pool, 8, CHUNK, 100, &small));
  missed = run_append(&f, pool, small, &cfg);
  TU_OK(f.ctx, lsk_list_usage_get(small, &lu, NULL));
  ck_assert_uint_eq(lu.max_length, 128);
  ck_assert_uint_eq(lu.chunks, 2);
  ck_assert_uint_eq(lu.lost, f.nwant - 128);
  ck_assert_uint_eq(missed, lu.lost);
  lsk_list_destroy(small);
  lsk_list_destroy(list);
  lsk_pool_destroy(pool);
  fx_close(&f);
}
END_TEST

START_TEST(test_chunklist_bad_arguments)
{
  lsk_context *ctx = tu_context();
  lsk_pool *pool = NULL;
  lsk_list *l = NULL;
  TU_OK(ctx, lsk_pool_create(ctx, 256, 4, NULL, &pool));
  TU_FAILS(ctx, lsk_list_create(pool, 6, 8, 100, &l), LSK_EINVAL,
           "elem_bytes 6: must be a positive multiple of 4");
  TU_FAILS(ctx, lsk_list_create(pool, 4, 12, 100, &l), LSK_EINVAL, "chunk 12: must be a power");
  TU_FAILS(ctx, lsk_list_create(pool, 8, 64, 100, &l), LSK_EINVAL,
           "a chunk of 64 elements of 8 bytes does not fit the pool's cells of 256 bytes");
  TU_FAILS(ctx, lsk_list_create(pool, 4, 8, 0, &l), LSK_EINVAL, "max_length 0");
  TU_FAILS(NULL, lsk_list_create(NULL, 4, 8, 10, &l), LSK_EINVAL, "pool is NULL");
  TU_FAILS(ctx, lsk_list_create(pool, 4, 8, 10, NULL), LSK_EINVAL, "out is NULL");
  ck_assert_ptr_null(l);
  TU_OK(ctx, lsk_list_create(pool, 4, 64, 100, &l));
  TU_FAILS(ctx, lsk_list_usage_get(l, NULL, NULL), LSK_EINVAL, "out is NULL");
  TU_FAILS(ctx, lsk_list_read(l, 0, 1, NULL, 0, NULL), LSK_EINVAL, "dst is NULL");
  TU_FAILS(NULL, lsk_list_clear(NULL, NULL), LSK_EINVAL, "list is NULL");
  lsk_list_destroy(l);
  lsk_list_destroy(NULL);
  lsk_pool_destroy(pool);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_chunklist(void)
{
  Suite *s = suite_create("chunklist");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_chunklist_append_many_blocks);
  tcase_add_test(tc, test_chunklist_exhaustion_counted_and_recovered);
  tcase_add_test(tc, test_chunklist_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}
