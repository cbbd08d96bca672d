/*
 * bench_pic.c: the pic example's part of `lsk bench`'s pool case
 * (bench/pool.c; compiled into the bench in lsk's tree, not in the
 * examples' own build): the particle-in-cell binning step (lsk_pic_step:
 * frames from a pool, one wait per step) in particles per second, against
 * the plain C reference step (move, then a counting sort by cell). The
 * device's state is compared with the reference's before and after the
 * timed steps. Times are wall clock of whole steps (several kernels each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "pic.h"

static int cmp_id(const void *a, const void *b)
{
  uint32_t x = ((const lsk_particle *)a)->id, y = ((const lsk_particle *)b)->id;
  return (x > y) - (x < y);
}

/* The device's state against the reference's, cell by cell. */
static int pic_same(lsk_context *ctx, lsk_pic *pic, size_t n, size_t cells, lsk_particle *got,
                    uint32_t *cell, lsk_particle *binned, const uint32_t *start)
{
  lsk_pic_stats st;
  if (lsk_pic_read(pic, got, cell, n, &st))
    return cli_fail("bench", "pic: %s", lsk_context_errmsg(ctx));
  if (st.particles != n || st.pool.live != st.frames)
    return cli_fail("bench", "pic: %zu particles (want %zu), %zu live cells for %zu frames",
                    st.particles, n, st.pool.live, st.frames);
  for (size_t c = 0; c < cells; ++c) {
    size_t a = start[c], k = start[c + 1] - a;
    qsort(got + a, k, sizeof *got, cmp_id);
    qsort(binned + a, k, sizeof *binned, cmp_id);
    for (size_t i = a; i < a + k; ++i)
      if (cell[i] != c || memcmp(&got[i], &binned[i], sizeof *got))
        return cli_fail("bench", "pic: cell %zu differs from the C reference", c);
  }
  return 0;
}

int bench_pic_step(bench *bn)
{
  unsigned lg = (bn->log2n < 24 ? bn->log2n : 24) - 4;
  size_t n = (size_t)1 << lg;
  /* About 256 particles per cell, frames of 128. */
  unsigned side = 1;
  while ((size_t)side * side * 256 < n)
    side *= 2;
  size_t cells = (size_t)side * side;
  lsk_particle *p = malloc(n * sizeof *p), *got = malloc(n * sizeof *p),
               *binned = malloc(n * sizeof *p);
  uint32_t *cell = malloc(n * 4), *start = malloc((cells + 1) * 4);
  lsk_pic *pic = NULL;
  int rc = !p || !got || !binned || !cell || !start;
  if (rc)
    cli_fail("bench", "pic: out of host memory");
  uint64_t s = 12345;
  for (size_t i = 0; !rc && i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t a = (uint32_t)(s >> 32), b = (uint32_t)s;
    int v = (a & 0xff) < 26 ? 2 * LSK_PIC_UNIT : LSK_PIC_UNIT / 4;
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = (lsk_particle){(uint32_t)i + 1, (int32_t)(a % (side * (uint32_t)LSK_PIC_UNIT)),
                          (int32_t)(b % (side * (uint32_t)LSK_PIC_UNIT)),
                          (int32_t)((uint32_t)(s >> 33) % (2u * (uint32_t)v + 1)) - v,
                          (int32_t)((uint32_t)s % (2u * (uint32_t)v + 1)) - v};
  }
  if (!rc && lsk_pic_create(bn->ctx, side, side, p, n, &(lsk_pic_options){.frame_size = 128}, &pic))
    rc = cli_fail("bench", "pic: %s", lsk_context_errmsg(bn->ctx));
  /* A checked step first (it builds the kernels), then the timed ones. */
  if (!rc && (lsk_pic_step(pic) || lsk_context_finish(bn->ctx)))
    rc = cli_fail("bench", "pic: %s", lsk_context_errmsg(bn->ctx));
  if (!rc)
    lsk_pic_reference_step(side, side, p, n, binned, start);
  rc = rc || pic_same(bn->ctx, pic, n, cells, got, cell, binned, start);
  char name[64];
  snprintf(name, sizeof name, "pic binning step, 2^%u particles", lg);
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "C reference step, 1 thread", "pic step",
                                    "M particles/s", 1e3 * (double)n);
  rc = rc || !r;
  for (unsigned i = 0; !rc && i < bn->repeat; ++i) {
    bench_progress(bn, "pic step", i, bn->repeat);
    double t0 = cli_now();
    if (lsk_pic_step(pic) || lsk_context_finish(bn->ctx)) {
      rc = cli_fail("bench", "pic: %s", lsk_context_errmsg(bn->ctx));
      break;
    }
    double t1 = cli_now();
    lsk_pic_reference_step(side, side, p, n, binned, start);
    bench_add(&r->lsk, t1 - t0);
    bench_add(&r->ref, cli_now() - t1);
  }
  bench_progress(bn, "pic step", bn->repeat, bn->repeat);
  rc = rc || pic_same(bn->ctx, pic, n, cells, got, cell, binned, start);
  lsk_pic_destroy(pic);
  free(p);
  free(got);
  free(binned);
  free(cell);
  free(start);
  return rc;
}
