/*
 * check_mpi.c: lsk_mpi (include/lsk/mpi.h) under mpirun with 1 to 4
 * ranks (tests/CMakeLists.txt, label mpi). Every rank runs the same
 * tests; libcheck runs them in the process (CK_FORK=no), as MPI wants.
 *  - the halo exchange: each rank's column holds a value naming each
 *    global cell; after an exchange every element, guards included, is
 *    compared with the rule worked out in C (a guard holds the value of
 *    the cell it stands for, wrapped on periodic axes, its initial junk
 *    beyond a non-periodic edge), for uneven 1-3-D grids, guards 1 and 2,
 *    periodic and not, two columns of different types, begin/end and
 *    exchange, several exchanges in a row;
 *  - lsk_mpi_grid_gather against the global array made in C;
 *  - lsk_mpi_allreduce and lsk_mpi_reduce against rank-order sums in C
 *    (floats: bit for bit), min/max with NaN ignored;
 *  - agreement: one rank fails, every rank gets its status and message;
 *  - bad input checked on all ranks together: disagreeing options, too
 *    few cells for the ranks, a guard wider than a rank's cells, a
 *    selector that matches no device.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsk/mpi.h"

#define JUNK 0x5a5a5a5a5a5a5a5aull

static lsk_mpi *M; /* one per process, for every test */
static int rank_, size_;

#define OK(expr)                                                                                   \
  do {                                                                                             \
    int rc_ = (expr);                                                                              \
    ck_assert_msg(rc_ == LSK_OK, "rank %d: %s -> %s: %s", rank_, #expr, lsk_status_name(rc_),      \
                  lsk_context_errmsg(M ? lsk_mpi_context(M) : NULL));                              \
  } while (0)

static uint64_t cell_value(size_t x, size_t y, size_t z)
{
  uint64_t i = ((uint64_t)z * 1000003u + y) * 1000033u + x;
  return (i * 0x9e3779b97f4a7c15ull) ^ (i << 7) ^ 1;
}

static uint64_t expect(const lsk_grid_box *b, const size_t s[3])
{
  size_t g[3];
  int out = 0;
  for (unsigned a = 0; a < 3; ++a) {
    long long c = (long long)s[a] + (long long)b->offset[a] - (a < b->dims ? b->guard : 0);
    long long n = (long long)b->global[a];
    if (c < 0 || c >= n) {
      out |= !b->periodic[a];
      c = (c % n + n) % n;
    }
    g[a] = (size_t)c;
  }
  return out ? JUNK : cell_value(g[0], g[1], g[2]);
}

static void set_elem(void *col, size_t es, size_t e, uint64_t v)
{
  if (es == 8)
    ((uint64_t *)col)[e] = v;
  else
    ((uint32_t *)col)[e] = (uint32_t)v;
}

static uint64_t get_elem(const void *col, size_t es, size_t e)
{
  return es == 8 ? ((const uint64_t *)col)[e] : ((const uint32_t *)col)[e];
}

/* A column of box b: own cells named, guards junk. */
static lsk_buffer *column(const lsk_grid_box *b, size_t es, void **host)
{
  size_t n = lsk_grid_box_storage(b, NULL);
  *host = malloc(n * es);
  ck_assert_ptr_nonnull(*host);
  for (size_t e = 0; e < n; ++e)
    set_elem(*host, es, e, JUNK);
  for (size_t k = 0; k < b->extent[2]; ++k)
    for (size_t j = 0; j < b->extent[1]; ++j)
      for (size_t i = 0; i < b->extent[0]; ++i)
        set_elem(*host, es, lsk_grid_box_index(b, i, j, k),
                 cell_value(b->offset[0] + i, b->offset[1] + j, b->offset[2] + k));
  lsk_buffer *buf;
  OK(lsk_buffer_create(lsk_mpi_context(M), n * es, &buf));
  OK(lsk_buffer_write(buf, 0, *host, n * es, NULL));
  return buf;
}

static void compare(const lsk_grid_box *b, lsk_buffer *buf, size_t es, void *host, const char *what)
{
  size_t st[3], n = lsk_grid_box_storage(b, st);
  OK(lsk_buffer_read(buf, 0, host, n * es, NULL));
  size_t s[3];
  for (s[2] = 0; s[2] < st[2]; ++s[2])
    for (s[1] = 0; s[1] < st[1]; ++s[1])
      for (s[0] = 0; s[0] < st[0]; ++s[0]) {
        size_t e = (s[2] * st[1] + s[1]) * st[0] + s[0];
        uint64_t want = expect(b, s), got = get_elem(host, es, e);
        if (es == 4)
          want = (uint32_t)want;
        ck_assert_msg(got == want, "rank %d, %s: storage (%zu,%zu,%zu): %llx, want %llx", rank_,
                      what, s[0], s[1], s[2], (unsigned long long)got, (unsigned long long)want);
      }
}

/* One grid, two columns (uint and double), exchanged `rounds` times:
 * begin/end with a queue and an event, or lsk_mpi_halo_exchange. */
static void halo_case(unsigned dims, size_t gx, size_t gy, size_t gz, unsigned guard, int px,
                      int py, int pz, int split)
{
  lsk_mpi_grid_options o = {
      .dims = dims, .global = {gx, gy, gz}, .guard = guard, .periodic = {px, py, pz}};
  lsk_mpi_grid *g;
  OK(lsk_mpi_grid_create(M, &o, &g));
  const lsk_grid_box *b = lsk_mpi_grid_box(g);
  ck_assert_ptr_nonnull(b);
  char what[128];
  snprintf(what, sizeof what, "%uD %zux%zux%zu guard %u periodic %d%d%d", dims, gx, gy, gz, guard,
           px, py, pz);
  void *h0, *h1;
  lsk_buffer *cols[2] = {column(b, 4, &h0), column(b, 8, &h1)};
  lsk_type types[2] = {LSK_TYPE_UINT, LSK_TYPE_DOUBLE};
  lsk_mpi_halo *h;
  OK(lsk_mpi_halo_create(g, types, 2, &h));
  lsk_queue *q;
  OK(lsk_queue_create(lsk_mpi_context(M), NULL, &q));
  for (int round = 0; round < 2; ++round) {
    if (split) {
      lsk_async on = {.queue = q};
      OK(lsk_mpi_halo_begin(h, cols, &on));
      lsk_event *ev = NULL;
      lsk_async end = {.queue = q, .event = &ev};
      OK(lsk_mpi_halo_end(h, &end));
      ck_assert_ptr_nonnull(ev);
      OK(lsk_event_wait(ev));
      lsk_event_release(ev);
    } else {
      lsk_async on = {.queue = q};
      OK(lsk_mpi_halo_exchange(h, cols, &on));
      OK(lsk_queue_finish(q));
    }
    compare(b, cols[0], 4, h0, what);
    compare(b, cols[1], 8, h1, what);
  }
  /* A failure after an exchange: begin finds the NULL column, then waits
   * for the last write (a liblsk call that succeeds, and so marks it);
   * the failure comes back current all the same. */
  lsk_buffer *none[2] = {cols[0], NULL};
  ck_assert_int_eq(lsk_mpi_halo_begin(h, none, NULL), LSK_EINVAL);
  ck_assert_msg(strcmp(lsk_errmsg(), "lsk_mpi_halo_begin: columns[1] is NULL") == 0,
                "rank %d: '%s'", rank_, lsk_errmsg());
  ck_assert_int_eq(lsk_mpi_halo_end(h, NULL), LSK_EINVAL);
  OK(lsk_queue_destroy(q));
  lsk_mpi_halo_destroy(h);
  lsk_buffer_destroy(cols[0]);
  lsk_buffer_destroy(cols[1]);
  free(h0);
  free(h1);
  lsk_mpi_grid_destroy(g);
}

START_TEST(test_halo)
{
  halo_case(2, 11, 7, 1, 1, 1, 1, 0, 1);
  halo_case(2, 11, 7, 1, 2, 0, 1, 0, 0);
  halo_case(1, 13, 1, 1, 2, 1, 0, 0, 1);
  halo_case(3, 7, 6, 5, 1, 1, 0, 1, 0);
  halo_case(2, 9, 8, 1, 2, 1, 1, 0, 1);
}
END_TEST

/* The rank-to-cell map, boxes and owners agree with a C split. */
START_TEST(test_grid_layout)
{
  lsk_mpi_grid_options o = {.dims = 2, .global = {10, 7}, .guard = 1, .periodic = {1, 0}};
  lsk_mpi_grid *g;
  OK(lsk_mpi_grid_create(M, &o, &g));
  unsigned parts[3], coord[3];
  OK(lsk_mpi_grid_parts(g, parts, coord));
  ck_assert_uint_eq((unsigned long)parts[0] * parts[1] * parts[2], (unsigned long)size_);
  /* Every cell's owner holds it in its box; the boxes tile the grid. */
  size_t covered = 0;
  for (int r = 0; r < size_; ++r) {
    lsk_grid_box b;
    OK(lsk_mpi_grid_box_of(g, r, &b));
    covered += b.extent[0] * b.extent[1];
    for (size_t y = b.offset[1]; y < b.offset[1] + b.extent[1]; ++y)
      for (size_t x = b.offset[0]; x < b.offset[0] + b.extent[0]; ++x) {
        int owner = -1;
        OK(lsk_mpi_grid_owner(g, (size_t[3]){x, y, 0}, &owner));
        ck_assert_int_eq(owner, r);
      }
  }
  ck_assert_uint_eq(covered, 70);
  /* Gather: the whole grid on root 0 (and on the last rank). */
  const lsk_grid_box *b = lsk_mpi_grid_box(g);
  void *host;
  lsk_buffer *col = column(b, 4, &host);
  uint32_t *all = malloc(70 * 4);
  for (int root = 0; root<size_; root += size_> 1 ? size_ - 1 : 1) {
    memset(all, 0, 70 * 4);
    OK(lsk_mpi_grid_gather(g, LSK_TYPE_UINT, col, root, rank_ == root ? all : NULL,
                           rank_ == root ? 70 * 4 : 0, NULL));
    if (rank_ == root)
      for (size_t y = 0; y < 7; ++y)
        for (size_t x = 0; x < 10; ++x)
          ck_assert_uint_eq(all[y * 10 + x], (uint32_t)cell_value(x, y, 0));
    if (size_ == 1)
      break;
  }
  free(all);
  free(host);
  lsk_buffer_destroy(col);
  lsk_mpi_grid_destroy(g);
}
END_TEST

START_TEST(test_reduce)
{
  /* Each rank's float value, summed in rank order: what C gives. */
  float mine = 0.1f * (float)(rank_ + 1) + 1e7f * (rank_ == 0), got = 0, want = 0;
  for (int r = 0; r < size_; ++r)
    want += 0.1f * (float)(r + 1) + 1e7f * (r == 0);
  OK(lsk_mpi_allreduce(M, LSK_TYPE_FLOAT, LSK_OP_SUM, &mine, &got, sizeof got));
  ck_assert_msg(memcmp(&got, &want, 4) == 0, "float sum %.9g, want %.9g", got, want);
  /* min ignores a NaN on rank 0. */
  double d = rank_ == 0 ? NAN : 5.0 - rank_, dmin = 0;
  OK(lsk_mpi_allreduce(M, LSK_TYPE_DOUBLE, LSK_OP_MIN, &d, &dmin, sizeof dmin));
  if (size_ == 1)
    ck_assert(isnan(dmin));
  else
    ck_assert(dmin == 5.0 - (size_ - 1));
  int32_t v = rank_ - 2, vmax = 0;
  OK(lsk_mpi_allreduce(M, LSK_TYPE_INT, LSK_OP_MAX, &v, &vmax, sizeof vmax));
  ck_assert_int_eq(vmax, size_ - 3);
  /* lsk_mpi_reduce over each rank's buffer of rank-dependent length. */
  lsk_context *ctx = lsk_mpi_context(M);
  size_t n = 1000 + (size_t)rank_ * 37;
  uint32_t *h = malloc(n * 4);
  uint64_t total = 0;
  for (int r = 0; r < size_; ++r)
    for (size_t i = 0; i < 1000 + (size_t)r * 37; ++i)
      total += (uint32_t)(i * 7 + (size_t)r);
  for (size_t i = 0; i < n; ++i)
    h[i] = (uint32_t)(i * 7 + (size_t)rank_);
  lsk_buffer *buf;
  OK(lsk_buffer_create(ctx, n * 4, &buf));
  OK(lsk_buffer_write(buf, 0, h, n * 4, NULL));
  uint32_t sum = 0;
  OK(lsk_mpi_reduce(M, LSK_TYPE_UINT, LSK_OP_SUM, buf, 0, n, &sum, sizeof sum, NULL, NULL));
  ck_assert_uint_eq(sum, (uint32_t)total);
  lsk_buffer_destroy(buf);
  free(h);
}
END_TEST

/* The message every rank must see: rank r's status and text. */
static void agreed(int rc, int want, const char *text)
{
  const char *msg = lsk_context_errmsg(lsk_mpi_context(M));
  ck_assert_msg(rc == want, "rank %d: %s, want %s: %s", rank_, lsk_status_name(rc),
                lsk_status_name(want), msg);
  ck_assert_msg(strstr(msg, text) != NULL, "rank %d: message '%s' lacks '%s'", rank_, msg, text);
  /* Current: not marked by a cleanup call after the failure. */
  ck_assert_msg(strncmp(lsk_errmsg(), "(earlier) ", 10) != 0, "rank %d: '%s'", rank_, lsk_errmsg());
}

START_TEST(test_agree)
{
  ck_assert_int_eq(lsk_mpi_agree(M, LSK_OK), LSK_OK);
  int last = size_ - 1;
  int rc = LSK_OK;
  if (rank_ == last)
    rc = lsk_context_set_error(lsk_mpi_context(M), LSK_ERANGE, "step 3: planted on rank %d", last);
  char text[64];
  snprintf(text, sizeof text, "rank %d: step 3: planted on rank %d", last, last);
  agreed(lsk_mpi_agree(M, rc), LSK_ERANGE, text);
  /* Two fail: the lower rank wins. */
  rc = rank_ >= last - 1 && size_ > 1
           ? lsk_context_set_error(lsk_mpi_context(M), LSK_ENOMEM - rank_, "mine is %d", rank_)
           : LSK_OK;
  if (size_ > 1) {
    snprintf(text, sizeof text, "rank %d: mine is %d", last - 1, last - 1);
    agreed(lsk_mpi_agree(M, rc), LSK_ENOMEM - (last - 1), text);
  }
}
END_TEST

START_TEST(test_bad_input)
{
  lsk_mpi_grid *g = NULL;
  /* Ranks that disagree: the last rank has a wider grid. */
  lsk_mpi_grid_options o = {.dims = 2, .global = {8, 8}, .guard = 1};
  if (rank_ == size_ - 1 && size_ > 1)
    o.global[0] = 9;
  int rc = lsk_mpi_grid_create(M, &o, &g);
  if (size_ > 1)
    agreed(rc, LSK_EINVAL, "the ranks disagree on global[0] (from 8 to 9)");
  else
    ck_assert_int_eq(rc, LSK_OK);
  lsk_mpi_grid_destroy(g);
  g = NULL;
  /* Fewer cells than ranks along x. */
  lsk_mpi_grid_options few = {.dims = 1, .global = {(size_t)size_ - 1}, .guard = 0};
  if (size_ > 1)
    agreed(lsk_mpi_grid_create(M, &few, &g), LSK_EINVAL, "axis 0 has");
  /* A guard wider than a rank's cells: 2 N + 1 cells over N ranks. */
  lsk_mpi_grid_options wide = {
      .dims = 1, .global = {(size_t)size_ * 2 + 1}, .guard = 4, .parts = {(unsigned)size_}};
  agreed(lsk_mpi_grid_create(M, &wide, &g), LSK_EINVAL, "guard 4 is wider than the smallest part");
  ck_assert_ptr_null(g);
  /* Parts that do not make the ranks. */
  lsk_mpi_grid_options parts = {.dims = 2, .global = {8, 8}, .parts = {(unsigned)size_ + 1, 1}};
  agreed(lsk_mpi_grid_create(M, &parts, &g), LSK_EINVAL, "ranks, not the");
  /* No device matches: every rank fails, with no context left. */
  lsk_mpi *bad = NULL;
  lsk_mpi_options mo = {.devices = "no-such-device-anywhere"};
  rc = lsk_mpi_create(&mo, &bad);
  ck_assert_int_eq(rc, LSK_ENODEV);
  ck_assert_ptr_null(bad);
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(NULL), "no-such-device-anywhere"));
  ck_assert_msg(strncmp(lsk_errmsg(), "(earlier) ", 10) != 0, "'%s'", lsk_errmsg());
  /* Argument checks that need no messages, each naming its value. */
  lsk_context *ctx = lsk_mpi_context(M);
#define BAD(expr, want, text)                                                                      \
  do {                                                                                             \
    int rc_ = (expr);                                                                              \
    ck_assert_msg(rc_ == (want), "%s -> %s", #expr, lsk_status_name(rc_));                         \
    ck_assert_msg(strstr(lsk_context_errmsg(ctx), (text)) ||                                       \
                      strstr(lsk_context_errmsg(NULL), (text)),                                    \
                  "%s: no '%s' in '%s' / '%s'", #expr, (text), lsk_context_errmsg(ctx),            \
                  lsk_context_errmsg(NULL));                                                       \
    ck_assert_msg(strncmp(lsk_errmsg(), "(earlier) ", 10) != 0, "%s: '%s' is not current", #expr,  \
                  lsk_errmsg());                                                                   \
  } while (0)
  BAD(lsk_mpi_agree(NULL, LSK_OK), LSK_EINVAL, "lsk_mpi_agree: m is NULL");
  ck_assert_int_eq(lsk_mpi_rank(NULL), -1);
  ck_assert_int_eq(lsk_mpi_size(NULL), -1);
  ck_assert_ptr_null(lsk_mpi_context(NULL));
  BAD(lsk_mpi_halo_end(NULL, NULL), LSK_EINVAL, "lsk_mpi_halo_end: h is NULL");
  lsk_mpi_grid_options ok = {.dims = 2, .global = {8, 8}, .guard = 1};
  OK(lsk_mpi_grid_create(M, &ok, &g));
  lsk_grid_box bx;
  BAD(lsk_mpi_grid_box_of(g, size_, &bx), LSK_EINVAL, "rank");
  BAD(lsk_mpi_grid_box_of(g, 0, NULL), LSK_EINVAL, "out is NULL");
  int who;
  BAD(lsk_mpi_grid_owner(g, (size_t[3]){8, 0, 0}, &who), LSK_EINVAL,
      "cell[0] 8 is outside the grid's 8");
  BAD(lsk_mpi_grid_neighbor(g, 8, &who), LSK_EINVAL, "direction 8 is not below 8");
  BAD(lsk_mpi_grid_parts(g, NULL, NULL), LSK_EINVAL, "parts and coord are both NULL");
  lsk_mpi_halo *h = NULL;
  BAD(lsk_mpi_halo_create(g, (lsk_type[]){LSK_TYPE_UINT, (lsk_type)42}, 2, &h), LSK_EINVAL,
      "types[1] 42 is not an lsk_type");
  BAD(lsk_mpi_halo_create(g, (lsk_type[]){LSK_TYPE_UINT}, 0, &h), LSK_EINVAL, "ncolumns 0");
  OK(lsk_mpi_halo_create(g, (lsk_type[]){LSK_TYPE_UINT}, 1, &h));
  BAD(lsk_mpi_halo_end(h, NULL), LSK_EINVAL, "no lsk_mpi_halo_begin before it");
  /* A NULL column: the exchange still runs its messages, then fails. */
  lsk_buffer *none[1] = {NULL};
  BAD(lsk_mpi_halo_begin(h, none, NULL), LSK_EINVAL, "columns[0] is NULL");
  BAD(lsk_mpi_halo_begin(h, none, NULL), LSK_EINVAL, "begun already");
  ck_assert_int_eq(lsk_mpi_halo_end(h, NULL), LSK_EINVAL);
  ck_assert_int_eq(lsk_mpi_agree(M, LSK_OK), LSK_OK); /* every rank got here: no hang */
  BAD(lsk_mpi_allreduce(M, LSK_TYPE_UINT, (lsk_op)9, &who, &who, sizeof who), LSK_EINVAL, "op 9");
  uint32_t grid[64];
  BAD(lsk_mpi_grid_gather(g, LSK_TYPE_UINT, NULL, 0, grid, sizeof grid, NULL), LSK_EINVAL,
      "column is NULL");
  /* Sizes of host values (issue 27 point 5), agreed as every check. */
  BAD(lsk_mpi_grid_gather(g, LSK_TYPE_UINT, NULL, 0, grid, sizeof grid - 1, NULL), LSK_EINVAL,
      "out_bytes 255 is less than the grid's 256 bytes");
  double wide_d = 0;
  BAD(lsk_mpi_allreduce(M, LSK_TYPE_UINT, LSK_OP_SUM, &who, &wide_d, sizeof wide_d), LSK_EINVAL,
      "lsk_mpi_allreduce: size 8 does not match LSK_TYPE_UINT (4 bytes)");
  lsk_buffer *one = NULL;
  OK(lsk_buffer_create(ctx, 8, &one));
  BAD(lsk_mpi_reduce(M, LSK_TYPE_FLOAT, LSK_OP_SUM, one, 0, 1, &wide_d, sizeof wide_d, NULL, NULL),
      LSK_EINVAL, "lsk_mpi_reduce: result_size 8 does not match LSK_TYPE_FLOAT (4 bytes)");
  lsk_buffer_destroy(one);
  lsk_mpi_halo_destroy(h);
  lsk_mpi_grid_destroy(g);
#undef BAD
}
END_TEST

/* Device per node rank: the device index agrees with the context's. */
START_TEST(test_device)
{
  ck_assert_int_eq(lsk_mpi_rank(M), rank_);
  ck_assert_int_eq(lsk_mpi_size(M), size_);
  ck_assert_int_ge(lsk_mpi_node_rank(M), 0);
  ck_assert_int_le(lsk_mpi_node_rank(M), rank_);
  ck_assert_int_eq((int)lsk_context_device(lsk_mpi_context(M))->index, lsk_mpi_device(M));
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (lsk_mpi_create(NULL, &M)) {
    fprintf(stderr, "rank %d: %s\n", rank_, lsk_context_errmsg(NULL));
    MPI_Finalize();
    return 77;
  }
  Suite *s = suite_create("mpi");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_device);
  tcase_add_test(tc, test_agree);
  tcase_add_test(tc, test_reduce);
  tcase_add_test(tc, test_grid_layout);
  tcase_add_test(tc, test_halo);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, rank_ == 0 ? CK_NORMAL : CK_SILENT);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  lsk_mpi_destroy(M);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (failed)
    fprintf(stderr, "rank %d: %d failed\n", rank_, failed);
  MPI_Finalize();
  return any ? 1 : 0;
}
