/*
 * check_pic.c: the particle-in-cell binning example on frames
 * (examples/pic/pic.h, examples/pic/pic.cl): 100 times, after one, two or three
 * steps (so pic_move fills in the last step's incoming, or lsk_pic_read
 * does), the invariants of pic_check.h (nothing lost or duplicated, every particle
 * in its cell, pool usage equal to the frames in use, the state equal to
 * the plain C reference's). The pool starts too small, so it grows, and a
 * run that starts with every particle in one column empties those cells
 * (their frames recycled) while filling the others.
 */
#include "pic_check.h"
#include "pic_suites.h"

static void run(unsigned gx, unsigned gy, size_t n, unsigned fs, size_t frames, unsigned spread,
                unsigned steps, unsigned seed, int compacts)
{
  lsk_context *ctx = ex_context();
  lsk_particle *p = malloc(n * sizeof *p), *got = malloc(n * sizeof *p),
               *binned = malloc(n * sizeof *p);
  uint32_t *cell = malloc(n * 4), *start = malloc(((size_t)gx * gy + 1) * 4);
  ck_assert(p && got && binned && cell && start);
  pc_make(p, n, gx, gy, spread, LSK_PIC_UNIT / 4, 2 * LSK_PIC_UNIT, 10, seed);
  lsk_pic *pic = NULL;
  EX_OK(ctx, lsk_pic_create(ctx, gx, gy, p, n,
                            &(lsk_pic_options){.frame_size = fs, .frames = frames}, &pic));
  lsk_pic_stats st;
  EX_OK(ctx, lsk_pic_read(pic, got, cell, n, &st));
  ck_assert_uint_eq(st.particles, n);
  ck_assert_uint_eq(st.pool.live, st.frames);
  size_t most = 0, least = SIZE_MAX;
  for (unsigned s = 0; s < steps; ++s) {
    pc_step_and_check(ctx, pic, gx, gy, p, n, got, cell, binned, start, s, s % 3);
    EX_OK(ctx, lsk_pic_read(pic, NULL, NULL, 0, &st));
    most = st.frames > most ? st.frames : most;
    least = st.frames < least ? st.frames : least;
    ck_assert_uint_gt(st.left, 0);
  }
  /* The runs are built to make the pool grow and frames come and go. */
  ck_assert_uint_gt(st.grows, 0);
  if (compacts)
    ck_assert_uint_gt(st.compacted, 0);
  ck_assert_uint_gt(most, least);
  ck_assert_uint_gt(st.pool.gcs, steps);
  lsk_pic_destroy(pic);
  free(p);
  free(got);
  free(binned);
  free(cell);
  free(start);
  lsk_context_destroy(ctx);
}

/* 30 cells, 50 particles per cell on average in frames of 16. */
START_TEST(test_pic_100_steps_invariants) { run(6, 5, 1500, 16, 8, 6, 100, 2024u, 0); }
END_TEST

/* Everything starts in the first column of 8 cells and spreads over 64:
 * those lists thin out and are compacted. */
START_TEST(test_pic_spreading_recycles_frames) { run(8, 8, 1000, 8, 4, 1, 100, 77u, 1); }
END_TEST

/* The largest extent: x + vx passes 2^31 (x near w = 32767 * 2^16, vx up
 * to w - 1), which int32 arithmetic got wrong (and C's is undefined). The
 * positions after one step are worked out by hand: x + vx - w, or x + vx
 * + w below 0. Device and C reference both. */
START_TEST(test_pic_largest_extent)
{
  const int32_t w = (int32_t)(LSK_PIC_MAX_EXTENT * LSK_PIC_UNIT);
  lsk_particle p[4] = {{1, w - 1000, 5, w - 1, 0},
                       {2, w - 1, 7, w - 1, 0},
                       {3, 1000, 9, -(w - 1), 0},
                       {4, w / 2, 11, w / 2 + 3, 0}};
  const int32_t want[4] = {w - 1001, w - 2, 1001, 3}; /* w is even */
  lsk_particle ref[4], binned[4];
  uint32_t start[LSK_PIC_MAX_EXTENT + 1];
  memcpy(ref, p, sizeof p);
  ck_assert_int_eq(lsk_pic_reference_step(LSK_PIC_MAX_EXTENT, 1, ref, 4, binned, start), LSK_OK);
  for (int i = 0; i < 4; ++i)
    ck_assert_msg(ref[i].x == want[i], "C reference: particle %d at %d, want %d", i + 1, ref[i].x,
                  want[i]);
  lsk_context *ctx = ex_context();
  lsk_pic *pic = NULL;
  EX_OK(ctx, lsk_pic_create(ctx, LSK_PIC_MAX_EXTENT, 1, p, 4, &(lsk_pic_options){.frame_size = 8},
                            &pic));
  EX_OK(ctx, lsk_pic_step(pic));
  lsk_particle got[4];
  uint32_t cell[4];
  EX_OK(ctx, lsk_pic_read(pic, got, cell, 4, NULL));
  for (int i = 0; i < 4; ++i) {
    int k = (int)got[i].id - 1;
    ck_assert(k >= 0 && k < 4);
    ck_assert_msg(got[i].x == want[k], "device: particle %d at %d, want %d", k + 1, got[i].x,
                  want[k]);
    ck_assert_uint_eq(cell[i], (uint32_t)want[k] / LSK_PIC_UNIT);
  }
  lsk_pic_destroy(pic);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_pic_bad_arguments)
{
  lsk_context *ctx = ex_context();
  lsk_particle p[2] = {{1, 10, 10, 5, 5}, {2, 70000, 20, -3, 0}};
  lsk_pic *pic = NULL;
  EX_FAILS(ctx, lsk_pic_create(ctx, 0, 4, p, 2, NULL, &pic), LSK_EINVAL,
           "grid 0x4: extents must be from 1");
  EX_FAILS(ctx, lsk_pic_create(ctx, 2, 1, p, (size_t)1 << 32, NULL, &pic), LSK_EINVAL,
           "4294967296 particles: must be at most 2^31");
  EX_FAILS(ctx, lsk_pic_create(ctx, 2, 1, p, 2, &(lsk_pic_options){.frame_size = 12}, &pic),
           LSK_EINVAL, "frame size 12: must be a power of two");
  EX_FAILS(ctx, lsk_pic_create(ctx, 1, 1, p, 2, NULL, &pic), LSK_EINVAL,
           "particle 1 (id 2 at 70000,20 moving -3,0)");
  p[1].x = 10;
  p[1].id = 0;
  EX_FAILS(ctx, lsk_pic_create(ctx, 2, 1, p, 2, NULL, &pic), LSK_EINVAL, "id 0");
  EX_FAILS(ctx, lsk_pic_create(ctx, 2, 1, NULL, 2, NULL, &pic), LSK_EINVAL, "particles is NULL");
  EX_FAILS(NULL, lsk_pic_step(NULL), LSK_EINVAL, "pic is NULL");
  ck_assert_ptr_null(pic);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The generator: lsk_pic_generate against plain C                     */

/* Philox4x32-10 from the published algorithm (Salmon et al., SC'11), a
 * plain C implementation of the test's own (not the device library's):
 * ten rounds of two 32x32 -> 64-bit products, the key bumped by the Weyl
 * constants before each round after the first. */
static void philox(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
  uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
                     (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
    for (int i = 0; i < 4; ++i)
      c[i] = n[i];
  }
  for (int i = 0; i < 4; ++i)
    out[i] = c[i];
}

/* Particle id of pic.h's formulas from philox above. */
static lsk_particle ref_particle(unsigned gx, unsigned gy, uint64_t seed, uint32_t id)
{
  const uint32_t ctr[4] = {id, 0, LSK_PIC_RANDOM_STREAM, 0},
                 key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
  uint32_t r[4];
  philox(ctr, key, r);
  uint64_t w = (uint64_t)gx * LSK_PIC_UNIT, h = (uint64_t)gy * LSK_PIC_UNIT;
  uint64_t v = (r[3] & 255) < 26 ? 2 * LSK_PIC_UNIT : LSK_PIC_UNIT / 4;
  uint64_t vmx = v < w - 1 ? v : w - 1, vmy = v < h - 1 ? v : h - 1;
  return (lsk_particle){id, (int32_t)((r[0] * w) >> 32), (int32_t)((r[1] * h) >> 32),
                        (int32_t)((r[2] * (2 * vmx + 1)) >> 32) - (int32_t)vmx,
                        (int32_t)(((r[3] & ~255u) * (2 * vmy + 1)) >> 32) - (int32_t)vmy};
}

/* The same particles for several launch shapes, drawn at once or in
 * parts, equal to plain C's; about one in ten fast; all valid (a pic takes
 * them), on a 1x1 grid too (speeds clamped below a cell width). */
START_TEST(test_pic_generate_shapes_and_parts)
{
  enum { N = 1000 };
  const uint64_t seed = 0x0123456789abcdefull;
  lsk_context *ctx = ex_context();
  lsk_particle *p = malloc(N * sizeof *p), *q = malloc(N * sizeof *q);
  ck_assert(p && q);
  const lsk_algo_options shapes[] = {
      {0}, {.tile = 32, .workers = 4, .blocks = 3}, {.tile = 8, .simd = 4, .blocks = 1}};
  size_t fast = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    memset(p, 0, N * sizeof *p);
    EX_OK(ctx, lsk_pic_generate(ctx, 13, 7, seed, 1, N, &shapes[s], p));
    for (uint32_t i = 0; i < N; ++i) {
      lsk_particle want = ref_particle(13, 7, seed, i + 1);
      ck_assert_msg(memcmp(&p[i], &want, sizeof want) == 0,
                    "shape %zu: particle %u is (%d,%d %d,%d), plain C says (%d,%d %d,%d)", s, i + 1,
                    p[i].x, p[i].y, p[i].vx, p[i].vy, want.x, want.y, want.vx, want.vy);
      if (s == 0)
        fast += abs(p[i].vx) > LSK_PIC_UNIT / 4 || abs(p[i].vy) > LSK_PIC_UNIT / 4;
    }
  }
  /* One in ten is fast; of those, most exceed a quarter cell on an axis. */
  ck_assert_msg(fast > N / 20 && fast < N / 7, "%zu fast particles of %d", fast, N);
  /* In parts: ids 1..399 and 400..1000 from two calls, shapes apart. */
  EX_OK(ctx, lsk_pic_generate(ctx, 13, 7, seed, 1, 399, &shapes[1], q));
  EX_OK(ctx, lsk_pic_generate(ctx, 13, 7, seed, 400, N - 399, NULL, q + 399));
  ck_assert(memcmp(p, q, N * sizeof *p) == 0);
  /* A 1x1 grid's particles are valid (a pic takes them). */
  EX_OK(ctx, lsk_pic_generate(ctx, 1, 1, seed, 1, N, NULL, q));
  for (uint32_t i = 0; i < N; ++i) {
    lsk_particle want = ref_particle(1, 1, seed, i + 1);
    ck_assert(memcmp(&q[i], &want, sizeof want) == 0);
    ck_assert(abs(q[i].vx) < LSK_PIC_UNIT && abs(q[i].vy) < LSK_PIC_UNIT);
  }
  lsk_pic *pic = NULL;
  EX_OK(ctx, lsk_pic_create(ctx, 1, 1, q, N, NULL, &pic));
  lsk_pic_destroy(pic);
  free(p);
  free(q);
  lsk_context_destroy(ctx);
}
END_TEST

/* The checksum: independent of order, sensitive to any field. */
START_TEST(test_pic_checksum)
{
  lsk_particle p[3] = {{3, 1, 2, 3, 4}, {1, 5, 6, 7, 8}, {2, 9, 10, 11, 12}}, q[3];
  uint64_t a, b, e;
  EX_OK(NULL, lsk_pic_checksum(p, 3, &a));
  memcpy(q, p, sizeof p);
  lsk_particle t = q[0];
  q[0] = q[2];
  q[2] = t;
  EX_OK(NULL, lsk_pic_checksum(q, 3, &b));
  ck_assert_uint_eq(a, b);
  q[1].vy ^= 1 << 20;
  EX_OK(NULL, lsk_pic_checksum(q, 3, &b));
  ck_assert_uint_ne(a, b);
  EX_OK(NULL, lsk_pic_checksum(NULL, 0, &e));
  ck_assert_uint_eq(e, 0xcbf29ce484222325ull); /* FNV-1a's offset basis */
  /* One particle by hand: FNV-1a 64 of its 20 little-endian bytes. */
  lsk_particle one = {0x04030201u, 0, -1, 0, 0};
  const unsigned char bytes[20] = {1, 2, 3, 4, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 20; ++i)
    h = (h ^ bytes[i]) * 0x100000001b3ull;
  EX_OK(NULL, lsk_pic_checksum(&one, 1, &e));
  ck_assert_uint_eq(e, h);
  EX_FAILS(NULL, lsk_pic_checksum(p, 3, NULL), LSK_EINVAL, "lsk_pic_checksum: out is NULL");
  EX_FAILS(NULL, lsk_pic_checksum(NULL, 3, &e), LSK_EINVAL, "lsk_pic_checksum: p is NULL");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Windows: tiles of the grid, leavers passed on by hand               */

/* The uneven split of lsk_mpi: the first (g % parts) parts get one more. */
static void split(unsigned g, unsigned parts, unsigned i, unsigned *at, unsigned *len)
{
  unsigned q = g / parts, r = g % parts;
  *len = q + (i < r);
  *at = i * q + (i < r ? i : r);
}

typedef struct tiling {
  unsigned gx, gy, px, py;
  lsk_pic_options w[16];
} tiling;

/* The window holding a position. */
static unsigned owner(const tiling *t, const lsk_particle *q)
{
  unsigned cx = (unsigned)(q->x / LSK_PIC_UNIT), cy = (unsigned)(q->y / LSK_PIC_UNIT);
  for (unsigned k = 0; k < t->px * t->py; ++k)
    if (cx - t->w[k].x0 < t->w[k].wx && cy - t->w[k].y0 < t->w[k].wy)
      return k;
  ck_abort_msg("no window holds %d,%d", q->x, q->y);
  return 0;
}

/* A whole-grid pic and px x py windows of the same particles (generated),
 * the plain C reference beside them; every step the windows' leavers are
 * taken, routed by position and put; after every step the windows
 * together hold exactly the whole pic's particles, each in the same cell
 * (and the reference's, every field). Returns how many particles passed
 * from one window to another. */
static size_t tile_run(unsigned gx, unsigned gy, unsigned px, unsigned py, size_t n, unsigned steps,
                       uint64_t seed)
{
  lsk_context *ctx = ex_context();
  tiling t = {gx, gy, px, py, {{0}}};
  unsigned k = px * py;
  ck_assert(k <= 16);
  for (unsigned j = 0; j < py; ++j)
    for (unsigned i = 0; i < px; ++i) {
      lsk_pic_options *o = &t.w[j * px + i];
      *o = (lsk_pic_options){.frame_size = 8};
      split(gx, px, i, &o->x0, &o->wx);
      split(gy, py, j, &o->y0, &o->wy);
    }
  lsk_particle *p = malloc(n * sizeof *p), *ref = malloc(n * sizeof *p),
               *mine = malloc(n * sizeof *p), *a = malloc(n * sizeof *p),
               *b = malloc(n * sizeof *p), *binned = malloc(n * sizeof *p);
  uint32_t *ca = malloc(n * 4), *cb = malloc(n * 4), *start = malloc(((size_t)gx * gy + 1) * 4);
  size_t *count = calloc(k, sizeof *count), passed = 0;
  ck_assert(p && ref && mine && a && b && binned && ca && cb && start && count);
  EX_OK(ctx, lsk_pic_generate(ctx, gx, gy, seed, 1, n, NULL, p));
  memcpy(ref, p, n * sizeof *p);
  lsk_pic *whole = NULL, *win[16] = {0};
  EX_OK(ctx, lsk_pic_create(ctx, gx, gy, p, n, &(lsk_pic_options){.frame_size = 8}, &whole));
  /* Each window's particles: created with half, given the rest by put. */
  for (unsigned w = 0; w < k; ++w) {
    size_t m = 0;
    for (size_t i = 0; i < n; ++i)
      if (owner(&t, &p[i]) == w)
        mine[m++] = p[i];
    EX_OK(ctx, lsk_pic_create(ctx, gx, gy, mine, m / 2, &t.w[w], &win[w]));
    EX_OK(ctx, lsk_pic_put(win[w], mine + m / 2, m - m / 2));
  }
  for (unsigned s = 0; s < steps; ++s) {
    EX_OK(ctx, lsk_pic_step(whole));
    EX_OK(NULL, lsk_pic_reference_step(gx, gy, ref, n, binned, start));
    /* Every window steps, then gives its leavers to their owners. */
    size_t moved = 0;
    for (unsigned w = 0; w < k; ++w)
      EX_OK(ctx, lsk_pic_step(win[w]));
    for (unsigned w = 0; w < k; ++w) {
      size_t got = 0, again = 0;
      EX_OK(ctx, lsk_pic_take(win[w], NULL, 0, &got));
      EX_OK(ctx, lsk_pic_take(win[w], b + moved, n - moved, &again));
      ck_assert_uint_eq(got, again);
      for (size_t i = moved; i + 1 < moved + got; ++i)
        ck_assert_uint_lt(b[i].id, b[i + 1].id); /* sorted by id */
      for (size_t i = moved; i < moved + got; ++i)
        ck_assert_uint_ne(owner(&t, &b[i]), w);
      moved += got;
    }
    passed += moved;
    for (unsigned w = 0; w < k; ++w) {
      size_t m = 0;
      for (size_t i = 0; i < moved; ++i)
        if (owner(&t, &b[i]) == w)
          mine[m++] = b[i];
      EX_OK(ctx, lsk_pic_put(win[w], mine, m));
    }
    /* The whole pic's state against the windows' together. */
    lsk_pic_stats st;
    EX_OK(ctx, lsk_pic_read(whole, a, ca, n, &st));
    ck_assert_uint_eq(st.particles, n);
    size_t m = 0;
    for (unsigned w = 0; w < k; ++w) {
      EX_OK(ctx, lsk_pic_read(win[w], b + m, cb + m, n - m, &st));
      ck_assert_uint_le(m + st.particles, n);
      ck_assert_uint_eq(st.pool.live, st.frames);
      for (size_t i = m; i < m + st.particles; ++i) {
        unsigned cx = cb[i] % gx, cy = cb[i] / gx;
        ck_assert(cx - t.w[w].x0 < t.w[w].wx && cy - t.w[w].y0 < t.w[w].wy);
      }
      count[w] = st.particles;
      m += st.particles;
    }
    ck_assert_msg(m == n, "step %u: the windows hold %zu particles, want %zu", s, m, n);
    /* Sorted by id with their cells: the cells ride along in the vy of a
     * copy (sort key id, unique). */
    for (size_t i = 0; i < n; ++i) {
      mine[i] = (lsk_particle){a[i].id, (int32_t)ca[i], 0, 0, 0};
      binned[i] = (lsk_particle){b[i].id, (int32_t)cb[i], 0, 0, 0};
    }
    qsort(a, n, sizeof *a, pc_cmp_id);
    qsort(b, n, sizeof *b, pc_cmp_id);
    qsort(mine, n, sizeof *mine, pc_cmp_id);
    qsort(binned, n, sizeof *binned, pc_cmp_id);
    qsort(ref, n, sizeof *ref, pc_cmp_id);
    for (size_t i = 0; i < n; ++i) {
      ck_assert_msg(a[i].id == i + 1, "step %u: id %zu lost or doubled", s, i + 1);
      ck_assert_msg(memcmp(&a[i], &b[i], sizeof *a) == 0 && mine[i].x == binned[i].x,
                    "step %u: particle %u: whole (%d,%d) in cell %d, windows' (%d,%d) id %u in "
                    "cell %d",
                    s, a[i].id, a[i].x, a[i].y, mine[i].x, b[i].x, b[i].y, b[i].id, binned[i].x);
      ck_assert_msg(memcmp(&a[i], &ref[i], sizeof *a) == 0, "step %u: particle %u differs from C",
                    s, a[i].id);
    }
  }
  for (unsigned w = 0; w < k; ++w)
    lsk_pic_destroy(win[w]);
  lsk_pic_destroy(whole);
  free(p);
  free(ref);
  free(mine);
  free(a);
  free(b);
  free(binned);
  free(ca);
  free(cb);
  free(start);
  free(count);
  lsk_context_destroy(ctx);
  return passed;
}

/* An uneven grid split in two and in 3x2 (widths 5, 4, 4; heights 4, 3).
 * (Each pic builds its kernels: a few pics, a few steps.) */
START_TEST(test_pic_windows_2x1) { ck_assert_uint_gt(tile_run(13, 7, 2, 1, 800, 8, 11u), 100); }
END_TEST

START_TEST(test_pic_windows_3x2) { ck_assert_uint_gt(tile_run(13, 7, 3, 2, 800, 8, 12u), 100); }
END_TEST

/* Bad input to windows, take and put; the outbox refuses a step or put
 * before it is taken, and a take into too little room takes nothing. */
START_TEST(test_pic_window_bad_input)
{
  lsk_context *ctx = ex_context();
  /* Window 2x2 at 1,1 of a 4x3 grid: cells x 1..2, y 1..2. */
  const int U = LSK_PIC_UNIT;
  lsk_particle p[2] = {{1, U + 5, U + 5, -U / 2, 0}, {2, 2 * U + 5, 2 * U + 5, 0, 0}};
  lsk_pic_options o = {.frame_size = 8, .x0 = 1, .y0 = 1, .wx = 2, .wy = 2};
  lsk_pic *pic = NULL;
  lsk_pic_options bad = o;
  bad.wx = 4;
  EX_FAILS(ctx, lsk_pic_create(ctx, 4, 3, p, 2, &bad, &pic), LSK_EINVAL,
           "window of 4x2 cells at 1,1: not inside the 4x3 grid");
  bad = o;
  bad.y0 = 3;
  EX_FAILS(ctx, lsk_pic_create(ctx, 4, 3, p, 2, &bad, &pic), LSK_EINVAL,
           "window of 2x2 cells at 1,3: not inside the 4x3 grid");
  bad = o;
  bad.wy = 0;
  EX_FAILS(ctx, lsk_pic_create(ctx, 4, 3, p, 2, &bad, &pic), LSK_EINVAL,
           "window of 2x0 cells at 1,1 is empty");
  bad = (lsk_pic_options){.x0 = 1};
  EX_FAILS(ctx, lsk_pic_create(ctx, 4, 3, p, 2, &bad, &pic), LSK_EINVAL,
           "window of 0x0 cells at 1,0 is empty");
  lsk_particle out = {3, 5, 5, 0, 0};
  EX_FAILS(ctx, lsk_pic_create(ctx, 4, 3, &out, 1, &o, &pic), LSK_EINVAL,
           "particle 0 (id 3 at 5,5, cell 0,0): outside the window of 2x2 cells at 1,1");
  ck_assert_ptr_null(pic);
  /* An empty window pic, given its particles by put. */
  EX_OK(ctx, lsk_pic_create(ctx, 4, 3, NULL, 0, &o, &pic));
  EX_FAILS(ctx, lsk_pic_put(pic, &out, 1), LSK_EINVAL,
           "lsk_pic_put: particle 0 (id 3 at 5,5, cell 0,0): outside the window");
  EX_FAILS(ctx, lsk_pic_put(pic, NULL, 1), LSK_EINVAL, "lsk_pic_put: p is NULL");
  EX_FAILS(NULL, lsk_pic_put(NULL, p, 1), LSK_EINVAL, "pic is NULL");
  lsk_particle zero = {0, U + 5, U + 5, 0, 0};
  EX_FAILS(ctx, lsk_pic_put(pic, &zero, 1), LSK_EINVAL, "particle 0 (id 0");
  EX_OK(ctx, lsk_pic_put(pic, NULL, 0));
  EX_OK(ctx, lsk_pic_put(pic, p, 2));
  size_t n = 99;
  EX_OK(ctx, lsk_pic_take(pic, NULL, 0, &n));
  ck_assert_uint_eq(n, 0);
  /* Particle 1 moves half a cell left: out of the window. */
  EX_OK(ctx, lsk_pic_step(pic));
  EX_OK(ctx, lsk_pic_take(pic, NULL, 0, &n));
  ck_assert_uint_eq(n, 1);
  EX_FAILS(ctx, lsk_pic_step(pic), LSK_EBUSY, "lsk_pic_step: 1 particles that left the window");
  EX_FAILS(ctx, lsk_pic_put(pic, p + 1, 1), LSK_EBUSY, "lsk_pic_put: 1 particles that left");
  lsk_particle got[2];
  EX_FAILS(NULL, lsk_pic_take(NULL, got, 2, &n), LSK_EINVAL, "pic is NULL");
  EX_FAILS(ctx, lsk_pic_take(pic, got, 2, NULL), LSK_EINVAL, "lsk_pic_take: n is NULL");
  EX_FAILS(ctx, lsk_pic_take(pic, NULL, 2, &n), LSK_EINVAL, "lsk_pic_take: out is NULL with cap 2");
  lsk_particle one[1];
  /* cap 1 suffices; a smaller cap is refused in the ERANGE test below. */
  EX_OK(ctx, lsk_pic_take(pic, one, 1, &n));
  ck_assert_uint_eq(n, 1);
  ck_assert_uint_eq(one[0].id, 1);
  ck_assert_int_eq(one[0].x, U / 2 + 5);
  EX_OK(ctx, lsk_pic_take(pic, got, 2, &n));
  ck_assert_uint_eq(n, 0);
  lsk_pic_stats st;
  EX_OK(ctx, lsk_pic_read(pic, got, NULL, 2, &st));
  ck_assert_uint_eq(st.particles, 1);
  /* Two leave at once; room for one is refused and nothing is lost. */
  lsk_particle two[2] = {{5, U + 5, U + 5, -U / 2, 0}, {6, U + 5, 2 * U + 5, 0, U}};
  EX_OK(ctx, lsk_pic_put(pic, two, 2));
  EX_OK(ctx, lsk_pic_step(pic));
  EX_FAILS(ctx, lsk_pic_take(pic, one, 1, &n), LSK_ERANGE,
           "lsk_pic_take: 2 particles left the window, cap is 1: nothing taken");
  ck_assert_uint_eq(n, 2);
  EX_OK(ctx, lsk_pic_take(pic, got, 2, &n));
  ck_assert_uint_eq(n, 2);
  ck_assert(got[0].id == 5 && got[1].id == 6);
  /* A whole-grid pic created empty takes anything by put (and shares the
   * window pic's program: the last pic of the context destroys it). */
  lsk_pic *whole = NULL;
  EX_OK(ctx, lsk_pic_create(ctx, 4, 3, NULL, 0, NULL, &whole));
  lsk_pic_destroy(pic);
  EX_OK(ctx, lsk_pic_put(whole, &out, 1));
  EX_OK(ctx, lsk_pic_step(whole));
  EX_OK(ctx, lsk_pic_take(whole, NULL, 0, &n));
  ck_assert_uint_eq(n, 0);
  EX_OK(ctx, lsk_pic_read(whole, got, NULL, 2, &st));
  ck_assert_uint_eq(st.particles, 1);
  lsk_pic_destroy(whole);
  /* The generator's arguments. */
  lsk_particle g[2];
  EX_FAILS(NULL, lsk_pic_generate(NULL, 4, 3, 1, 1, 2, NULL, g), LSK_EINVAL, "ctx is NULL");
  EX_FAILS(ctx, lsk_pic_generate(ctx, 4, 3, 1, 1, 2, NULL, NULL), LSK_EINVAL,
           "lsk_pic_generate: out is NULL");
  EX_FAILS(ctx, lsk_pic_generate(ctx, 0, 3, 1, 1, 2, NULL, g), LSK_EINVAL, "grid 0x3");
  EX_FAILS(ctx, lsk_pic_generate(ctx, 4, 3, 1, 0, 2, NULL, g), LSK_EINVAL, "first id 0");
  EX_FAILS(ctx, lsk_pic_generate(ctx, 4, 3, 1, UINT32_MAX, 2, NULL, g), LSK_EINVAL,
           "2 particles from id 4294967295");
  EX_OK(ctx, lsk_pic_generate(ctx, 4, 3, 1, UINT32_MAX, 1, NULL, g));
  ck_assert_uint_eq(g[0].id, UINT32_MAX);
  EX_OK(ctx, lsk_pic_generate(ctx, 4, 3, 1, 1, 0, NULL, g));
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_pic(void)
{
  Suite *s = suite_create("pic");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pic_100_steps_invariants);
  tcase_add_test(tc, test_pic_spreading_recycles_frames);
  tcase_add_test(tc, test_pic_largest_extent);
  tcase_add_test(tc, test_pic_bad_arguments);
  tcase_add_test(tc, test_pic_generate_shapes_and_parts);
  tcase_add_test(tc, test_pic_checksum);
  tcase_add_test(tc, test_pic_windows_2x1);
  tcase_add_test(tc, test_pic_windows_3x2);
  tcase_add_test(tc, test_pic_window_bad_input);
  suite_add_tcase(s, tc);
  return s;
}

/* Under oclgrind (ctest oclgrind_grind_pic): the generator and windows at
 * tiny sizes: 40 particles on 5x3 cells, two windows (3 and 2 columns),
 * two steps with their leavers passed on. */
START_TEST(test_pic_grind_generate_windows)
{
  enum { N = 40 };
  lsk_context *ctx = ex_context();
  lsk_particle p[N];
  EX_OK(ctx,
        lsk_pic_generate(ctx, 5, 3, 7u, 1, N, &(lsk_algo_options){.tile = 16, .blocks = 2}, p));
  for (uint32_t i = 0; i < N; ++i) {
    lsk_particle want = ref_particle(5, 3, 7u, i + 1);
    ck_assert(memcmp(&p[i], &want, sizeof want) == 0);
  }
  lsk_context_destroy(ctx);
  ck_assert_uint_gt(tile_run(5, 3, 2, 1, N, 1, 7u), 0);
}
END_TEST

Suite *suite_grind_pic(void)
{
  Suite *s = suite_create("grind_pic");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pic_grind_generate_windows);
  suite_add_tcase(s, tc);
  return s;
}

/* The pool's grind suite's binning case (moved from lsk's
 * tests/mem/check_grind_pool.c; run where that suite runs: on the default
 * device, rusticl and oclgrind, each also with an NVIDIA GPU's shapes):
 * five binning steps on a 3x2 grid, frames of 8 and a pool of 4 to start
 * with, every invariant after the first, third and fifth (so pic_move
 * fills in the incoming of the steps in between; the second read comes
 * after lsk_pic_settle). */
START_TEST(test_pool_grind_pic_steps)
{
  enum { N = 60, GX = 3, GY = 2 };
  lsk_context *ctx = ex_context();
  lsk_particle p[N], got[N], binned[N];
  uint32_t cell[N], start[GX * GY + 1];
  pc_make(p, N, GX, GY, 1, LSK_PIC_UNIT / 2, 2 * LSK_PIC_UNIT, 10, 5u);
  lsk_pic *pic = NULL;
  EX_OK(ctx,
        lsk_pic_create(ctx, GX, GY, p, N, &(lsk_pic_options){.frame_size = 8, .frames = 4}, &pic));
  for (unsigned s = 0; s < 3; ++s)
    pc_step_and_check(ctx, pic, GX, GY, p, N, got, cell, binned, start, s, s ? 1 : 0);
  lsk_pic_destroy(pic);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_grind_pool_pic(void)
{
  Suite *s = suite_create("grind_pool_pic");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pool_grind_pic_steps);
  suite_add_tcase(s, tc);
  return s;
}

EX_MAIN(PIC_SUITES)
