/*
 * bench/assoc.c: building a one-to-many association of 2^24 elements
 * (2^log2n when that is smaller, as with --quick) into 2^16 keys, two rows:
 *   - random keys: lsk_assoc_build (count, scan, fill on the device)
 *     against a plain single-threaded C count-then-fill of the same keys;
 *   - the same keys sorted: lsk_assoc_build_sorted (a search per key, a
 *     store per element) against single-threaded C that does the same
 *     with one pass (each key's first element where the key changes).
 * Interleaved. lsk's time is the host's wall clock from the build call to
 * lsk_context_finish, the C time that of the C function; the rate is in
 * elements per second. The result is checked against the C one first and
 * after the timed rounds: offsets exact, each key's elements as a set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define ASSOC_LOG2_KEYS 16

typedef struct assoc_case {
  size_t n;
  uint32_t nkeys;
  int sorted;                                  /* the keys in order, and the builds for that */
  uint32_t *keys, *offsets, *content, *cursor; /* host: the keys and C's result */
  lsk_buffer *dkeys;
  lsk_assoc *a;
} assoc_case;

/* The plain C version: count, exclusive scan, fill. */
static double assoc_c(assoc_case *c)
{
  double t0 = cli_now();
  const uint32_t *restrict keys = c->keys;
  uint32_t *restrict off = c->offsets, *restrict cur = c->cursor, *restrict out = c->content;
  memset(cur, 0, c->nkeys * sizeof *cur);
  for (size_t i = 0; i < c->n; ++i)
    if (keys[i] < c->nkeys)
      ++cur[keys[i]];
  uint32_t sum = 0;
  for (uint32_t k = 0; k < c->nkeys; ++k) {
    off[k] = sum;
    sum += cur[k];
    cur[k] = off[k];
  }
  off[c->nkeys] = sum;
  for (size_t i = 0; i < c->n; ++i)
    if (keys[i] < c->nkeys)
      out[cur[keys[i]]++] = (uint32_t)i;
  return cli_now() - t0;
}

/* The plain C version for keys in order: a key's first element is where
 * the key changes; the elements in order. */
static double assoc_c_sorted(assoc_case *c)
{
  double t0 = cli_now();
  const uint32_t *restrict keys = c->keys;
  uint32_t *restrict off = c->offsets, *restrict out = c->content;
  uint32_t k = 0;
  for (size_t i = 0; i < c->n; ++i) {
    uint32_t key = keys[i] < c->nkeys ? keys[i] : c->nkeys;
    while (k <= key)
      off[k++] = (uint32_t)i;
    if (key < c->nkeys)
      out[i] = (uint32_t)i;
  }
  while (k <= c->nkeys)
    off[k++] = (uint32_t)c->n;
  return cli_now() - t0;
}

static double assoc_lsk(bench *bn, assoc_case *c, int *rc)
{
  double t0 = cli_now();
  *rc = (c->sorted ? lsk_assoc_build_sorted : lsk_assoc_build)(c->a, c->dkeys, 0, c->n, NULL) ||
        lsk_context_finish(bn->ctx);
  return cli_now() - t0;
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* lsk's association against C's: the offsets equal, and every position of
 * key k's range holds a distinct element whose key is k (with equal
 * lengths, the same set as C's). */
static int assoc_check(bench *bn, assoc_case *c)
{
  size_t nc = (size_t)c->nkeys + 1, stored = c->offsets[c->nkeys];
  uint32_t *off = malloc(nc * sizeof *off), *got = malloc((stored + 1) * sizeof *got);
  unsigned char *seen = calloc(c->n + 1, 1);
  int rc = !off || !got || !seen;
  if (rc)
    cli_fail("bench", "assoc: out of host memory");
  else if (lsk_buffer_read(lsk_assoc_offsets(c->a), 0, off, nc * sizeof *off, NULL) ||
           lsk_buffer_read(lsk_assoc_content(c->a), 0, got, stored * sizeof *got, NULL))
    rc = cli_fail("bench", "assoc: read back: %s", lsk_context_errmsg(bn->ctx));
  size_t bad = 0;
  for (size_t k = 0; !rc && k < nc; ++k)
    bad += off[k] != c->offsets[k];
  for (uint32_t k = 0; !rc && !bad && k < c->nkeys; ++k)
    for (uint32_t j = off[k]; j < off[k + 1]; ++j) {
      uint32_t e = got[j];
      bad += e >= c->n || seen[e] || c->keys[e] != k;
      if (e < c->n)
        seen[e] = 1;
    }
  free(off);
  free(got);
  free(seen);
  if (!rc && bad)
    rc = cli_fail("bench", "assoc: %zu wrong offsets or elements", bad);
  return rc;
}

static void assoc_teardown(assoc_case *c)
{
  lsk_assoc_destroy(c->a);
  lsk_buffer_destroy(c->dkeys);
  free(c->keys);
  free(c->offsets);
  free(c->content);
  free(c->cursor);
}

/* Uniform random keys below 2^16, fixed seed (xorshift32); sorted for the
 * sorted row. */
static int assoc_setup(bench *bn, assoc_case *c)
{
  c->n = (size_t)1 << (bn->log2n < 24 ? bn->log2n : 24);
  c->nkeys = 1u << ASSOC_LOG2_KEYS;
  c->keys = malloc(c->n * sizeof *c->keys);
  c->content = malloc(c->n * sizeof *c->content);
  c->offsets = malloc(((size_t)c->nkeys + 1) * sizeof *c->offsets);
  c->cursor = malloc(c->nkeys * sizeof *c->cursor);
  if (!c->keys || !c->content || !c->offsets || !c->cursor)
    return cli_fail("bench", "assoc: out of host memory for %zu elements", c->n);
  uint32_t s = 2463534242u;
  for (size_t i = 0; i < c->n; ++i) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    c->keys[i] = s >> (32 - ASSOC_LOG2_KEYS);
  }
  if (c->sorted)
    qsort(c->keys, c->n, sizeof *c->keys, cmp_u32);
  lsk_assoc_options opt = {.algo = {.workers = bn->workers, .simd = bn->simd}};
  if (lsk_buffer_create(bn->ctx, c->n * sizeof *c->keys, &c->dkeys) ||
      lsk_buffer_write(c->dkeys, 0, c->keys, c->n * sizeof *c->keys, NULL) ||
      lsk_assoc_create(bn->ctx, c->nkeys, c->n, &opt, &c->a))
    return cli_fail("bench", "assoc setup: %s", lsk_context_errmsg(bn->ctx));
  return 0;
}

static int assoc_row(bench *bn, int sorted)
{
  assoc_case c = {.sorted = sorted};
  double (*c_build)(assoc_case *) = sorted ? assoc_c_sorted : assoc_c;
  int rc = assoc_setup(bn, &c);
  /* First builds compile; both results are checked before any timing. */
  if (!rc) {
    assoc_lsk(bn, &c, &rc);
    if (rc)
      cli_fail("bench", "assoc: %s", lsk_context_errmsg(bn->ctx));
  }
  if (!rc) {
    c_build(&c);
    rc = assoc_check(bn, &c);
  }
  char name[64];
  snprintf(name, sizeof name, "assoc build%s, 2^%u into 2^%u keys", sorted ? " sorted" : "",
           bn->log2n < 24 ? bn->log2n : 24, ASSOC_LOG2_KEYS);
  result *r =
      rc ? NULL
         : bench_new_result(bn, KIND_RATE, name,
                            sorted ? "C, keys in order, 1 thread" : "C count-then-fill, 1 thread",
                            sorted ? "assoc sorted vs C 1 thread" : "assoc vs C 1 thread",
                            "Gelem/s", (double)c.n);
  rc = rc || !r;
  /* One warm-up round, then timed ones; the order alternates. */
  for (unsigned i = 0; !rc && i < bn->repeat + 1; ++i) {
    bench_progress(bn, "assoc", i, bn->repeat + 1);
    for (unsigned j = 0; !rc && j < 2; ++j) {
      if ((i + j) % 2 == 0) {
        double t = assoc_lsk(bn, &c, &rc);
        if (rc)
          cli_fail("bench", "assoc: %s", lsk_context_errmsg(bn->ctx));
        else if (i > 0)
          bench_add(&r->lsk, t);
      } else {
        double t = c_build(&c);
        if (i > 0)
          bench_add(&r->ref, t);
      }
    }
  }
  bench_progress(bn, "assoc", bn->repeat + 1, bn->repeat + 1);
  /* The last build is checked too. */
  rc = rc || assoc_check(bn, &c);
  assoc_teardown(&c);
  return rc;
}

int bench_case_assoc(bench *bn) { return assoc_row(bn, 0) || assoc_row(bn, 1); }
