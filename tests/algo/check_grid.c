/*
 * check_grid.c: lsk_grid_split and the halo (include/lsk/grid.h). A
 * global grid is cut into every box of a split, each box a column on the
 * device holding a value that names its global cell; the boxes exchange
 * as ranks would (pack on the device, the packed forms moved on the host
 * to the neighbour the test works out itself, unpack, wrap), and every
 * element of every column, guards included, is compared with the rule
 * worked out in C: a guard cell holds the value of the global cell it
 * stands for, wrapped on periodic axes, and keeps its initial junk where
 * any axis it lies beyond is not periodic. Uneven splits, 1 to 3
 * dimensions, guards 0 to 2, 4- and 8-byte types, lsk_halo_fill of one
 * box, the split rule against hand-worked numbers. Suite grind_grid: a
 * small 2-D case under oclgrind.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#define JUNK 0x5a5a5a5a5a5a5a5aull

/* The value of global cell (x, y, z): distinct per cell, both halves. */
static uint64_t cell_value(size_t x, size_t y, size_t z)
{
  uint64_t i = ((uint64_t)z * 1000003u + y) * 1000033u + x;
  return (i * 0x9e3779b97f4a7c15ull) ^ (i << 7) ^ 1;
}

/* Element e of a column as the type stores it (4 bytes: the low half). */
static uint64_t elem(const void *col, size_t es, size_t e)
{
  if (es == 8)
    return ((const uint64_t *)col)[e];
  return ((const uint32_t *)col)[e];
}

static void set_elem(void *col, size_t es, size_t e, uint64_t v)
{
  if (es == 8)
    ((uint64_t *)col)[e] = v;
  else
    ((uint32_t *)col)[e] = (uint32_t)v;
}

/* What storage element (s0, s1, s2) of box b must hold after an exchange. */
static uint64_t expect(const lsk_grid_box *b, const size_t s[3])
{
  size_t g[3];
  int out = 0;
  for (unsigned a = 0; a < 3; ++a) {
    long long c = (long long)s[a] + (long long)b->offset[a];
    if (a < b->dims)
      c -= b->guard;
    long long n = (long long)b->global[a];
    if (c < 0 || c >= n) {
      if (!b->periodic[a])
        out = 1;
      c = (c % n + n) % n;
    }
    g[a] = (size_t)c;
  }
  return out ? JUNK : cell_value(g[0], g[1], g[2]);
}

typedef struct part {
  lsk_grid_box box;
  lsk_halo *h;
  lsk_buffer *col, *packed, *recv;
  size_t storage[3], elems;
  void *host;
  void *sent; /* the packed form, read back */
} part;

/* The box index of coordinates c (x fastest). */
static size_t part_index(const unsigned parts[3], const unsigned c[3])
{
  return ((size_t)c[2] * parts[1] + c[1]) * parts[0] + c[0];
}

/* One exchange over every box of the split (dims, global, parts, guard,
 * periodic) with elements of type; everything checked. */
static void exchange_case(lsk_context *ctx, unsigned dims, const size_t global[3],
                          const unsigned parts[3], unsigned guard, const int periodic[3],
                          lsk_type type)
{
  size_t es = lsk_type_size(type);
  size_t np = (size_t)parts[0] * parts[1] * parts[2];
  part *P = calloc(np, sizeof *P);
  ck_assert_ptr_nonnull(P);
  char what[160];
  snprintf(what, sizeof what, "%uD %zux%zux%zu over %ux%ux%u, guard %u, periodic %d%d%d, %s", dims,
           global[0], global[1], global[2], parts[0], parts[1], parts[2], guard, periodic[0],
           periodic[1], periodic[2], lsk_type_name(type));
  for (unsigned z = 0; z < parts[2]; ++z)
    for (unsigned y = 0; y < parts[1]; ++y)
      for (unsigned x = 0; x < parts[0]; ++x) {
        unsigned c[3] = {x, y, z};
        part *p = &P[part_index(parts, c)];
        TU_OK(ctx, lsk_grid_split(dims, global, parts, c, guard, periodic, &p->box));
        p->elems = lsk_grid_box_storage(&p->box, p->storage);
        p->host = malloc(p->elems * es);
        ck_assert_ptr_nonnull(p->host);
        /* Own cells named, guards junk. */
        for (size_t e = 0; e < p->elems; ++e)
          set_elem(p->host, es, e, JUNK);
        for (size_t k = 0; k < p->box.extent[2]; ++k)
          for (size_t j = 0; j < p->box.extent[1]; ++j)
            for (size_t i = 0; i < p->box.extent[0]; ++i)
              set_elem(
                  p->host, es, lsk_grid_box_index(&p->box, i, j, k),
                  cell_value(p->box.offset[0] + i, p->box.offset[1] + j, p->box.offset[2] + k));
        TU_OK(ctx, lsk_halo_create(ctx, &p->box, &p->h));
        size_t tot = lsk_halo_total(p->h);
        TU_OK(ctx, lsk_buffer_create(ctx, p->elems * es, &p->col));
        TU_OK(ctx, lsk_buffer_write(p->col, 0, p->host, p->elems * es, NULL));
        /* Offset 3 in the packed buffers: the offsets are honoured. */
        TU_OK(ctx, lsk_buffer_create(ctx, (tot + 3) * es, &p->packed));
        TU_OK(ctx, lsk_buffer_create(ctx, (tot + 3) * es, &p->recv));
        TU_OK(ctx, lsk_halo_pack(p->h, type, p->col, p->packed, 3, NULL, NULL));
        p->sent = malloc((tot + 3) * es);
        ck_assert_ptr_nonnull(p->sent);
        TU_OK(ctx, lsk_buffer_read(p->packed, 0, p->sent, (tot + 3) * es, NULL));
      }
  /* The host moves each REMOTE segment as a rank would: segment i of
   * box p comes from the box at p + d(i), its segment opposite(i). */
  for (size_t pi = 0; pi < np; ++pi) {
    part *p = &P[pi];
    unsigned nd = lsk_halo_dirs(p->h);
    size_t tot = lsk_halo_total(p->h);
    unsigned char *recv = calloc(tot + 3, es);
    ck_assert_ptr_nonnull(recv);
    unsigned c[3] = {(unsigned)(pi % parts[0]), (unsigned)(pi / parts[0] % parts[1]),
                     (unsigned)(pi / parts[0] / parts[1])};
    for (unsigned i = 0; i < nd; ++i) {
      if (lsk_halo_kind_of(p->h, i) != LSK_HALO_REMOTE)
        continue;
      int d[3];
      TU_OK(ctx, lsk_halo_dir(p->h, i, d));
      unsigned nc[3];
      for (unsigned a = 0; a < 3; ++a)
        nc[a] = (unsigned)(((int)c[a] + d[a] + (int)parts[a]) % (int)parts[a]);
      part *q = &P[part_index(parts, nc)];
      unsigned o = nd - 1 - i;
      ck_assert_uint_eq(lsk_halo_cells(q->h, o), lsk_halo_cells(p->h, i));
      memcpy(recv + (3 + lsk_halo_offset(p->h, i)) * es,
             (unsigned char *)q->sent + (3 + lsk_halo_offset(q->h, o)) * es,
             lsk_halo_cells(p->h, i) * es);
    }
    TU_OK(ctx, lsk_buffer_write(p->recv, 0, recv, (tot + 3) * es, NULL));
    free(recv);
    TU_OK(ctx, lsk_halo_unpack(p->h, type, p->recv, 3, p->col, NULL, NULL));
    TU_OK(ctx, lsk_halo_wrap(p->h, type, p->packed, 3, p->col, NULL, NULL));
  }
  for (size_t pi = 0; pi < np; ++pi) {
    part *p = &P[pi];
    TU_OK(ctx, lsk_buffer_read(p->col, 0, p->host, p->elems * es, NULL));
    size_t s[3];
    for (s[2] = 0; s[2] < p->storage[2]; ++s[2])
      for (s[1] = 0; s[1] < p->storage[1]; ++s[1])
        for (s[0] = 0; s[0] < p->storage[0]; ++s[0]) {
          size_t e = (s[2] * p->storage[1] + s[1]) * p->storage[0] + s[0];
          uint64_t want = expect(&p->box, s), got = elem(p->host, es, e);
          if (es == 4)
            want = (uint32_t)want;
          if (got != want)
            ck_abort_msg("%s: box %zu, storage (%zu,%zu,%zu): %llx, want %llx", what, pi, s[0],
                         s[1], s[2], (unsigned long long)got, (unsigned long long)want);
        }
    lsk_halo_destroy(p->h);
    lsk_buffer_destroy(p->col);
    lsk_buffer_destroy(p->packed);
    lsk_buffer_destroy(p->recv);
    free(p->host);
    free(p->sent);
  }
  free(P);
}

START_TEST(test_grid_split)
{
  /* 10 cells over 3 parts: 4, 3, 3 from 0, 4, 7; 7 over 7: one each. */
  size_t g[3] = {10, 7, 1};
  unsigned parts[3] = {3, 7, 1};
  size_t want_off[3] = {0, 4, 7}, want_ext[3] = {4, 3, 3};
  for (unsigned x = 0; x < 3; ++x) {
    unsigned c[3] = {x, 5, 0};
    lsk_grid_box b;
    TU_OK(NULL, lsk_grid_split(2, g, parts, c, 1, (int[3]){1, 0, 1}, &b));
    ck_assert_uint_eq(b.offset[0], want_off[x]);
    ck_assert_uint_eq(b.extent[0], want_ext[x]);
    ck_assert_uint_eq(b.offset[1], 5);
    ck_assert_uint_eq(b.extent[1], 1);
    ck_assert_uint_eq(b.offset[2], 0);
    ck_assert_uint_eq(b.extent[2], 1);
    ck_assert_int_eq(b.periodic[0], 1);
    ck_assert_int_eq(b.periodic[1], 0);
    ck_assert_int_eq(b.periodic[2], 0); /* beyond dims */
    size_t s[3];
    ck_assert_uint_eq(lsk_grid_box_storage(&b, s), (want_ext[x] + 2) * 3);
    ck_assert_uint_eq(s[0], want_ext[x] + 2);
    ck_assert_uint_eq(s[1], 3);
    ck_assert_uint_eq(s[2], 1);
    ck_assert_uint_eq(lsk_grid_box_index(&b, 0, 0, 0), s[0] + 1);
  }
  /* Refusals, each naming its value. */
  lsk_grid_box b;
  unsigned c0[3] = {0, 0, 0};
  ck_assert_int_eq(lsk_grid_split(2, g, (unsigned[3]){11, 1, 1}, c0, 1, NULL, &b), LSK_EINVAL);
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(NULL), "parts[0] is 11"));
  /* 10 over 3: the smallest part has 3 cells, so guard 4 is refused. */
  ck_assert_int_eq(lsk_grid_split(1, g, parts, c0, 4, NULL, &b), LSK_EINVAL);
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(NULL), "guard 4"));
  ck_assert_int_eq(lsk_grid_split(1, g, parts, c0, 3, NULL, &b), LSK_OK);
  ck_assert_int_eq(lsk_grid_split(4, g, parts, c0, 1, NULL, &b), LSK_EINVAL);
  ck_assert_int_eq(lsk_grid_split(1, g, parts, (unsigned[3]){3, 0, 0}, 1, NULL, &b), LSK_EINVAL);
  ck_assert_int_eq(lsk_grid_split(1, (size_t[3]){0, 1, 1}, parts, c0, 0, NULL, &b), LSK_EINVAL);
  ck_assert_int_eq(lsk_grid_split(1, g, parts, c0, 1, NULL, NULL), LSK_EINVAL);
}
END_TEST

START_TEST(test_halo_directions)
{
  lsk_context *ctx = tu_context();
  /* 2-D, 12x9 in 3x1 parts, x periodic, y not: the middle box. */
  lsk_grid_box b;
  TU_OK(NULL, lsk_grid_split(2, (size_t[3]){12, 9, 1}, (unsigned[3]){3, 1, 1},
                             (unsigned[3]){1, 0, 0}, 2, (int[3]){1, 0, 0}, &b));
  lsk_halo *h;
  TU_OK(ctx, lsk_halo_create(ctx, &b, &h));
  ck_assert_uint_eq(lsk_halo_dirs(h), 8);
  /* Order: (-1,-1) (0,-1) (1,-1) (-1,0) (1,0) (-1,1) (0,1) (1,1). */
  static const int want[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0},
                                 {1, 0},   {-1, 1}, {0, 1},  {1, 1}};
  size_t off = 0;
  for (unsigned i = 0; i < 8; ++i) {
    int d[3];
    TU_OK(ctx, lsk_halo_dir(h, i, d));
    ck_assert_int_eq(d[0], want[i][0]);
    ck_assert_int_eq(d[1], want[i][1]);
    ck_assert_int_eq(d[2], 0);
    /* y is not periodic and the box spans it: every y != 0 is NONE. */
    lsk_halo_kind k = d[1] ? LSK_HALO_NONE : LSK_HALO_REMOTE;
    ck_assert_int_eq(lsk_halo_kind_of(h, i), k);
    size_t cells = k == LSK_HALO_NONE ? 0 : 2 * 9;
    ck_assert_uint_eq(lsk_halo_cells(h, i), cells);
    ck_assert_uint_eq(lsk_halo_offset(h, i), off);
    off += cells;
  }
  ck_assert_uint_eq(lsk_halo_total(h), 36);
  lsk_halo_destroy(h);
  /* One box on a 3-D grid periodic in x and z: x and z directions SELF,
   * y NONE; 26 directions. */
  TU_OK(NULL, lsk_grid_split(3, (size_t[3]){5, 4, 3}, (unsigned[3]){1, 1, 1},
                             (unsigned[3]){0, 0, 0}, 1, (int[3]){1, 0, 1}, &b));
  TU_OK(ctx, lsk_halo_create(ctx, &b, &h));
  ck_assert_uint_eq(lsk_halo_dirs(h), 26);
  for (unsigned i = 0; i < 26; ++i) {
    int d[3];
    TU_OK(ctx, lsk_halo_dir(h, i, d));
    ck_assert_int_eq(lsk_halo_kind_of(h, i), d[1] ? LSK_HALO_NONE : LSK_HALO_SELF);
    int o[3];
    TU_OK(ctx, lsk_halo_dir(h, 25 - i, o));
    ck_assert(o[0] == -d[0] && o[1] == -d[1] && o[2] == -d[2]);
  }
  ck_assert_int_eq(lsk_halo_dir(h, 26, (int[3]){0}), LSK_EINVAL);
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(ctx), "direction 26"));
  lsk_halo_destroy(h);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_halo_exchange)
{
  lsk_context *ctx = tu_context();
  int fp64 = lsk_context_device(ctx)->has_fp64; /* not needed: copies by size */
  (void)fp64;
  /* 1-D: 13 cells over 3, guard 2, periodic and not. */
  exchange_case(ctx, 1, (size_t[3]){13, 1, 1}, (unsigned[3]){3, 1, 1}, 2, (int[3]){1, 0, 0},
                LSK_TYPE_UINT);
  exchange_case(ctx, 1, (size_t[3]){13, 1, 1}, (unsigned[3]){3, 1, 1}, 1, (int[3]){0, 0, 0},
                LSK_TYPE_DOUBLE);
  /* 2-D, uneven both ways, guards 1 and 2, mixed periodicity; parts 2
   * along a periodic axis: both neighbours are the same box. */
  exchange_case(ctx, 2, (size_t[3]){11, 7, 1}, (unsigned[3]){3, 2, 1}, 1, (int[3]){1, 1, 0},
                LSK_TYPE_FLOAT);
  exchange_case(ctx, 2, (size_t[3]){11, 7, 1}, (unsigned[3]){3, 2, 1}, 2, (int[3]){0, 1, 0},
                LSK_TYPE_LONG);
  exchange_case(ctx, 2, (size_t[3]){9, 8, 1}, (unsigned[3]){1, 4, 1}, 2, (int[3]){1, 0, 0},
                LSK_TYPE_INT);
  /* 3-D, every direction: remote, self and none mixed. */
  exchange_case(ctx, 3, (size_t[3]){7, 6, 5}, (unsigned[3]){2, 3, 1}, 1, (int[3]){1, 0, 1},
                LSK_TYPE_ULONG);
  exchange_case(ctx, 3, (size_t[3]){6, 5, 4}, (unsigned[3]){2, 1, 2}, 2, (int[3]){1, 1, 1},
                LSK_TYPE_UINT);
  /* Guard 0: nothing to do, nothing changes. */
  exchange_case(ctx, 2, (size_t[3]){5, 4, 1}, (unsigned[3]){2, 2, 1}, 0, (int[3]){1, 1, 0},
                LSK_TYPE_UINT);
  lsk_context_destroy(ctx);
}
END_TEST

/* lsk_halo_fill: one box of a periodic grid gets every guard; on a named
 * queue with an event. */
START_TEST(test_halo_fill)
{
  lsk_context *ctx = tu_context();
  lsk_grid_box b;
  TU_OK(NULL, lsk_grid_split(2, (size_t[3]){10, 6, 1}, (unsigned[3]){1, 1, 1},
                             (unsigned[3]){0, 0, 0}, 2, (int[3]){1, 1, 0}, &b));
  size_t s[3], n = lsk_grid_box_storage(&b, s);
  uint32_t *host = malloc(n * 4);
  ck_assert_ptr_nonnull(host);
  for (size_t e = 0; e < n; ++e)
    host[e] = (uint32_t)JUNK;
  for (size_t j = 0; j < 6; ++j)
    for (size_t i = 0; i < 10; ++i)
      host[lsk_grid_box_index(&b, i, j, 0)] = (uint32_t)cell_value(i, j, 0);
  lsk_buffer *col;
  TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &col));
  TU_OK(ctx, lsk_buffer_write(col, 0, host, n * 4, NULL));
  lsk_halo *h;
  TU_OK(ctx, lsk_halo_create(ctx, &b, &h));
  lsk_queue *q;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  lsk_event *ev = NULL;
  lsk_async on = {.queue = q, .event = &ev};
  lsk_algo_options o = {.tile = 64};
  TU_OK(ctx, lsk_halo_fill(h, LSK_TYPE_UINT, col, &o, &on));
  ck_assert_ptr_nonnull(ev);
  TU_OK(ctx, lsk_event_wait(ev));
  lsk_event_release(ev);
  TU_OK(ctx, lsk_buffer_read(col, 0, host, n * 4, NULL));
  for (s[1] = 0; s[1] < 10; ++s[1])
    for (s[0] = 0; s[0] < 14; ++s[0]) {
      size_t at[3] = {s[0], s[1], 0};
      ck_assert_uint_eq(host[s[1] * 14 + s[0]], (uint32_t)expect(&b, at));
    }
  TU_OK(ctx, lsk_queue_destroy(q));
  lsk_halo_destroy(h);
  lsk_buffer_destroy(col);
  free(host);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_grind_grid)
{
  lsk_context *ctx = tu_context();
  exchange_case(ctx, 2, (size_t[3]){5, 4, 1}, (unsigned[3]){2, 1, 1}, 1, (int[3]){1, 1, 0},
                LSK_TYPE_UINT);
  exchange_case(ctx, 1, (size_t[3]){6, 1, 1}, (unsigned[3]){2, 1, 1}, 2, (int[3]){1, 0, 0},
                LSK_TYPE_ULONG);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_grid(void)
{
  Suite *s = suite_create("grid");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grid_split);
  tcase_add_test(tc, test_halo_directions);
  tcase_add_test(tc, test_halo_exchange);
  tcase_add_test(tc, test_halo_fill);
  suite_add_tcase(s, tc);
  return s;
}

Suite *suite_grind_grid(void)
{
  Suite *s = suite_create("grind_grid");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_grind_grid);
  suite_add_tcase(s, tc);
  return s;
}
