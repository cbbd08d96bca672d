/*
 * bench/sort.c: lsk_sort of 2^24 uniform random uint keys (2^log2n when
 * that is smaller, as with --quick), and lsk_sort_by_key of as many
 * (key, uint value) pairs, four rows:
 *   - keys against a single-threaded C LSD radix sort (8-bit digits, one
 *     counting pass for all four digits, then four scatters: the textbook
 *     CPU version), and against C's qsort;
 *   - pairs against the same radix sort moving the values too, and
 *     against qsort of (key, value) structs.
 * Out of place on both sides (the input stays as it is): lsk from its key
 * buffer into another, timed on the host clock from the call to
 * lsk_context_finish; the C sorts on a copy of the input made before the
 * clock starts. qsort takes seconds at 2^24: it runs in at most 3 of the
 * rounds, and its rows compare with lsk's samples of the same rounds.
 * lsk's result is checked against the radix sort's, keys and values,
 * before and after the timed rounds.
 *
 * On GPUs (the device's or LSK_SHAPES=nvidia's) a third row each: lsk's
 * earlier path, the per-worker counters (LSK_SORT_GPU=0 around its calls),
 * against the same C radix sort, in the same rounds: the GPU path's gain
 * is the ratio of the two rows (docs/sort.md, "On GPUs").
 */
#define _XOPEN_SOURCE 700 /* setenv */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define SORT_LOG2_MAX 24
#define QSORT_ROUNDS 3

typedef struct kv {
  uint32_t k, v;
} kv;

typedef struct sort_case {
  size_t n;
  int pairs;
  uint32_t *keys, *vals;         /* the input */
  uint32_t *ck, *cv, *tk, *tv;   /* C radix: work arrays and their scratch */
  uint32_t *gk, *gv;             /* lsk's result read back */
  kv *q;                         /* qsort's work array */
  lsk_buffer *dk, *dv, *ok, *ov; /* lsk: input and output */
} sort_case;

/* LSD radix, 8-bit digits: one pass counts all four digits, then four
 * stable scatters between a and t (ending in a). Values follow where v is
 * not NULL. */
static void radix_c(uint32_t *restrict a, uint32_t *restrict t, uint32_t *restrict v,
                    uint32_t *restrict tv, size_t n)
{
  size_t c[4][256] = {{0}};
  for (size_t i = 0; i < n; ++i) {
    uint32_t k = a[i];
    ++c[0][k & 255];
    ++c[1][k >> 8 & 255];
    ++c[2][k >> 16 & 255];
    ++c[3][k >> 24];
  }
  for (int p = 0; p < 4; ++p) {
    size_t s = 0;
    for (int d = 0; d < 256; ++d) {
      size_t x = c[p][d];
      c[p][d] = s;
      s += x;
    }
  }
  for (int p = 0; p < 4; ++p) {
    size_t *o = c[p];
    unsigned sh = 8u * (unsigned)p;
    if (v) {
      for (size_t i = 0; i < n; ++i) {
        uint32_t k = a[i];
        size_t at = o[k >> sh & 255]++;
        t[at] = k;
        tv[at] = v[i];
      }
      uint32_t *x = v;
      v = tv;
      tv = x;
    } else {
      for (size_t i = 0; i < n; ++i) {
        uint32_t k = a[i];
        t[o[k >> sh & 255]++] = k;
      }
    }
    uint32_t *x = a;
    a = t;
    t = x;
  }
}

static int cmp_key(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Keys, then values: qsort is not stable, the values (the input indices)
 * make the order the stable one. */
static int cmp_kv(const void *a, const void *b)
{
  const kv *x = a, *y = b;
  return x->k != y->k ? (x->k > y->k) - (x->k < y->k) : (x->v > y->v) - (x->v < y->v);
}

static double time_radix(sort_case *c)
{
  memcpy(c->ck, c->keys, c->n * 4);
  if (c->pairs)
    memcpy(c->cv, c->vals, c->n * 4);
  double t0 = cli_now();
  radix_c(c->ck, c->tk, c->pairs ? c->cv : NULL, c->tv, c->n);
  return cli_now() - t0;
}

static double time_qsort(sort_case *c)
{
  double t0;
  if (c->pairs) {
    for (size_t i = 0; i < c->n; ++i)
      c->q[i] = (kv){c->keys[i], c->vals[i]};
    t0 = cli_now();
    qsort(c->q, c->n, sizeof *c->q, cmp_kv);
  } else {
    memcpy(c->cv, c->keys, c->n * 4); /* (cv: the radix sort's only with values) */
    t0 = cli_now();
    qsort(c->cv, c->n, 4, cmp_key);
  }
  return cli_now() - t0;
}

/* lsk's sort; old: the per-worker path (LSK_SORT_GPU=0 for the call, the
 * caller's setting restored after it). */
static double time_lsk_path(bench *bn, sort_case *c, int old, int *rc)
{
  lsk_sort_options o = {.algo = {.workers = bn->workers, .simd = bn->simd}};
  char saved[16] = "";
  const char *env = getenv("LSK_SORT_GPU");
  if (old) {
    if (env)
      snprintf(saved, sizeof saved, "%s", env);
    setenv("LSK_SORT_GPU", "0", 1);
  }
  double t0 = cli_now();
  *rc = (c->pairs
             ? lsk_sort_by_key(bn->ctx, LSK_TYPE_UINT, c->dk, c->dv, c->n, c->ok, c->ov, &o, NULL)
             : lsk_sort(bn->ctx, LSK_TYPE_UINT, c->dk, c->n, c->ok, &o, NULL)) ||
        lsk_context_finish(bn->ctx);
  double t = cli_now() - t0;
  if (old) {
    if (env)
      setenv("LSK_SORT_GPU", saved, 1);
    else
      unsetenv("LSK_SORT_GPU");
  }
  if (*rc)
    cli_fail("bench", "sort: %s", lsk_context_errmsg(bn->ctx));
  return t;
}

static double time_lsk(bench *bn, sort_case *c, int *rc) { return time_lsk_path(bn, c, 0, rc); }

/* lsk's output against the radix sort's, and qsort's where it ran just
 * before (this checks the C sorts against each other too). */
static int check(bench *bn, sort_case *c, int after_qsort)
{
  if (after_qsort && !c->pairs) /* qsort's keys, before the radix sort uses cv */
    memcpy(c->gv, c->cv, c->n * 4);
  time_radix(c);
  if (lsk_buffer_read(c->ok, 0, c->gk, c->n * 4, NULL) ||
      (c->pairs && lsk_buffer_read(c->ov, 0, c->gv, c->n * 4, NULL)))
    return cli_fail("bench", "sort: read back: %s", lsk_context_errmsg(bn->ctx));
  for (size_t i = 0; i < c->n; ++i) {
    if (c->gk[i] != c->ck[i] || (c->pairs && c->gv[i] != c->cv[i]))
      return cli_fail("bench", "sort%s: element %zu is (%u, %u), C radix has (%u, %u)",
                      c->pairs ? " by key" : "", i, c->gk[i], c->pairs ? c->gv[i] : 0, c->ck[i],
                      c->pairs ? c->cv[i] : 0);
    if (after_qsort &&
        (c->pairs ? c->q[i].k != c->ck[i] || c->q[i].v != c->cv[i] : c->gv[i] != c->ck[i]))
      return cli_fail("bench", "sort: qsort and the radix sort differ at %zu", i);
  }
  return 0;
}

static void teardown(sort_case *c)
{
  lsk_buffer_destroy(c->dk);
  lsk_buffer_destroy(c->dv);
  lsk_buffer_destroy(c->ok);
  lsk_buffer_destroy(c->ov);
  free(c->keys);
  free(c->vals);
  free(c->ck);
  free(c->cv);
  free(c->tk);
  free(c->tv);
  free(c->gk);
  free(c->gv);
  free(c->q);
}

static int setup(bench *bn, sort_case *c)
{
  unsigned lg = bn->log2n < SORT_LOG2_MAX ? bn->log2n : SORT_LOG2_MAX;
  c->n = (size_t)1 << lg;
  size_t bytes = c->n * 4;
  c->keys = malloc(bytes);
  c->vals = malloc(bytes);
  c->ck = malloc(bytes);
  c->cv = malloc(bytes);
  c->tk = malloc(bytes);
  c->tv = malloc(bytes);
  c->gk = malloc(bytes);
  c->gv = malloc(bytes);
  c->q = malloc(c->n * sizeof *c->q);
  if (!c->keys || !c->vals || !c->ck || !c->cv || !c->tk || !c->tv || !c->gk || !c->gv || !c->q)
    return cli_fail("bench", "sort: out of host memory for %zu keys", c->n);
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < c->n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    c->keys[i] = (uint32_t)(s >> 32);
    c->vals[i] = (uint32_t)i;
  }
  if (lsk_buffer_create(bn->ctx, bytes, &c->dk) || lsk_buffer_create(bn->ctx, bytes, &c->ok) ||
      lsk_buffer_write(c->dk, 0, c->keys, bytes, NULL) ||
      (c->pairs &&
       (lsk_buffer_create(bn->ctx, bytes, &c->dv) || lsk_buffer_create(bn->ctx, bytes, &c->ov) ||
        lsk_buffer_write(c->dv, 0, c->vals, bytes, NULL))))
    return cli_fail("bench", "sort setup: %s", lsk_context_errmsg(bn->ctx));
  return 0;
}

static int sort_rows(bench *bn, int pairs)
{
  sort_case c = {.pairs = pairs};
  int rc = setup(bn, &c);
  if (!rc) /* the first call builds the kernels */
    time_lsk(bn, &c, &rc);
  if (!rc)
    rc = check(bn, &c, 0);
  unsigned lg = bn->log2n < SORT_LOG2_MAX ? bn->log2n : SORT_LOG2_MAX;
  char name[64], qname[64];
  snprintf(name, sizeof name, "sort uint%s, 2^%u", pairs ? " by key" : "", lg);
  snprintf(qname, sizeof qname, "sort uint%s, 2^%u (vs qsort)", pairs ? " by key" : "", lg);
  /* The rate in Melem/s: the table divides work by the time and by 10^9. */
  double work = (double)c.n * 1e3;
  result *r =
      rc ? NULL
         : bench_new_result(bn, KIND_RATE, name, "C LSD radix, 1 thread",
                            pairs ? "sort by key vs C radix" : "sort vs C radix", "Melem/s", work);
  result *rq =
      rc || !r
          ? NULL
          : bench_new_result(bn, KIND_RATE, qname, pairs ? "C qsort of (key, value)" : "C qsort",
                             pairs ? "sort by key vs qsort" : "sort vs qsort", "Melem/s", work);
  rc = rc || !r || !rq;
  /* GPUs: the per-worker path beside it, checked like the other. */
  int old = !rc && lsk_context_device(bn->ctx)->is_gpu;
  result *ro = NULL;
  if (old) {
    char oname[80];
    snprintf(oname, sizeof oname, "sort uint%s, 2^%u (per-worker)", pairs ? " by key" : "", lg);
    time_lsk_path(bn, &c, 1, &rc);
    if (!rc)
      rc = check(bn, &c, 0);
    ro = rc ? NULL
            : bench_new_result(bn, KIND_RATE, oname, "C LSD radix, 1 thread",
                               pairs ? "sort by key, per-worker, vs C radix"
                                     : "sort, per-worker, vs C radix",
                               "Melem/s", work);
    rc = rc || !ro;
  }
  /* A warm-up round, then timed ones; the order rotates. */
  const char *what = pairs ? "sort by key" : "sort";
  for (unsigned i = 0; !rc && i < bn->repeat + 1; ++i) {
    bench_progress(bn, what, i, bn->repeat + 1);
    int with_q = i >= 1 && i <= QSORT_ROUNDS;
    for (unsigned j = 0; !rc && j < 3; ++j) {
      unsigned who = (i + j) % 3;
      if (who == 0) {
        double t = time_lsk(bn, &c, &rc);
        if (!rc && i > 0) {
          bench_add(&r->lsk, t);
          if (with_q)
            bench_add(&rq->lsk, t);
        }
      } else if (who == 1) {
        double t = time_radix(&c);
        if (i > 0)
          bench_add(&r->ref, t);
      } else if (with_q) {
        bench_add(&rq->ref, time_qsort(&c));
      }
    }
    if (old && !rc && i > 0) {
      bench_add(&ro->lsk, time_lsk_path(bn, &c, 1, &rc));
      bench_add(&ro->ref, r->ref.n ? r->ref.v[r->ref.n - 1] : 0);
    }
  }
  bench_progress(bn, what, bn->repeat + 1, bn->repeat + 1);
  if (!rc) {
    time_qsort(&c);
    rc = check(bn, &c, 1);
  }
  teardown(&c);
  return rc;
}

int bench_case_sort(bench *bn) { return sort_rows(bn, 0) || sort_rows(bn, 1); }
