/*
 * pic_check.h: the binning example's invariants (check_pic.c). After a
 * device step and the plain C reference step on a copy of the particles:
 *   - no particle lost or duplicated: the ids are exactly 1..n (sorted), and
 *     their sum and xor match;
 *   - every particle is in the cell its position says;
 *   - the pool's live cells are exactly the frames in the cells' lists;
 *   - cell by cell, the device's particles equal the reference's (as sets,
 *     compared sorted by id, every field).
 * lsk_pic_read itself checks each cell's frame shape.
 */
#ifndef LSK_PIC_CHECK_H
#define LSK_PIC_CHECK_H

#include "pic.h"
#include "testing.h"

static int pc_cmp_id(const void *a, const void *b)
{
  uint32_t x = ((const lsk_particle *)a)->id, y = ((const lsk_particle *)b)->id;
  return (x > y) - (x < y);
}

/* n particles on a gx x gy grid, ids 1..n: a share `fast` (in percent)
 * moves up to `vmax_fast` units per step, the rest up to vmax; all start
 * in the first `spread` columns. */
static void pc_make(lsk_particle *p, size_t n, unsigned gx, unsigned gy, unsigned spread, int vmax,
                    int vmax_fast, unsigned fast, unsigned seed)
{
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    unsigned a = seed;
    seed = seed * 1664525u + 1013904223u;
    unsigned b = seed;
    seed = seed * 1664525u + 1013904223u;
    int v = (seed >> 8) % 100 < fast ? vmax_fast : vmax;
    p[i].id = (uint32_t)i + 1;
    p[i].x = (int32_t)((a >> 4) % (spread * (unsigned)LSK_PIC_UNIT));
    p[i].y = (int32_t)((b >> 4) % (gy * (unsigned)LSK_PIC_UNIT));
    p[i].vx = (int32_t)((a >> 7) % (2u * (unsigned)v + 1)) - v;
    p[i].vy = (int32_t)((b >> 9) % (2u * (unsigned)v + 1)) - v;
  }
  (void)gx;
}

/* 1 + ahead steps on both sides, then every invariant; ref is the
 * reference's state (moved in place), got, cell, binned and start are
 * scratch. The steps ahead are not read back, so the next step's pic_move
 * fills in the incoming particles of the one before (lsk_pic_read does it
 * when it comes straight after a step, or lsk_pic_settle before it). */
static void pc_step_and_check(lsk_context *ctx, lsk_pic *pic, unsigned gx, unsigned gy,
                              lsk_particle *ref, size_t n, lsk_particle *got, uint32_t *cell,
                              lsk_particle *binned, uint32_t *start, unsigned step, unsigned ahead)
{
  for (unsigned a = 0; a < ahead; ++a) {
    EX_OK(ctx, lsk_pic_step(pic));
    EX_OK(NULL, lsk_pic_reference_step(gx, gy, ref, n, binned, start));
  }
  EX_OK(ctx, lsk_pic_step(pic));
  EX_OK(NULL, lsk_pic_reference_step(gx, gy, ref, n, binned, start));
  if (step % 4 == 1) { /* settled ahead of the read, twice: the second does nothing */
    EX_OK(ctx, lsk_pic_settle(pic));
    EX_OK(ctx, lsk_pic_settle(pic));
  }
  lsk_pic_stats st;
  EX_OK(ctx, lsk_pic_read(pic, got, cell, n, &st));
  ck_assert_msg(st.particles == n, "step %u: %zu particles, want %zu", step, st.particles, n);
  ck_assert_msg(st.pool.live == st.frames, "step %u: pool has %zu live cells, lists %zu frames",
                step, st.pool.live, st.frames);
  ck_assert_uint_eq(st.pool.recycled, 0);
  uint32_t sum = 0, x = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t want = (uint32_t)((got[i].y / LSK_PIC_UNIT) * (int32_t)gx + got[i].x / LSK_PIC_UNIT);
    ck_assert_msg(cell[i] == want, "step %u: particle %u at %d,%d is in cell %u, not %u", step,
                  got[i].id, got[i].x, got[i].y, cell[i], want);
    sum += got[i].id;
    x ^= got[i].id;
  }
  uint32_t wsum = 0, wx = 0;
  for (size_t i = 1; i <= n; ++i) {
    wsum += (uint32_t)i;
    wx ^= (uint32_t)i;
  }
  ck_assert_msg(sum == wsum && x == wx, "step %u: id checksums differ", step);
  /* Cell by cell against the reference (both are in cell order). */
  for (size_t c = 0; c < (size_t)gx * gy; ++c) {
    size_t a = start[c], k = start[c + 1] - a;
    qsort(got + a, k, sizeof *got, pc_cmp_id);
    qsort(binned + a, k, sizeof *binned, pc_cmp_id);
    for (size_t i = a; i < a + k; ++i)
      ck_assert_msg(cell[i] == c && memcmp(&got[i], &binned[i], sizeof *got) == 0,
                    "step %u, cell %zu: particle %u (%d,%d) differs from the reference's %u "
                    "(%d,%d)",
                    step, c, got[i].id, got[i].x, got[i].y, binned[i].id, binned[i].x, binned[i].y);
  }
  /* No duplicates: sorted ids are 1..n. */
  qsort(got, n, sizeof *got, pc_cmp_id);
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(got[i].id == i + 1, "step %u: id %zu missing or doubled", step, i + 1);
}

#endif /* LSK_PIC_CHECK_H */
