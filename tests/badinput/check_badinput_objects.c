/*
 * check_badinput_objects.c: bad input to every public function of vector.h,
 * assoc.h, pool.h and chunklist.h (rows: badinput.h), and
 * the handle lifetimes: after lsk_context_destroy its children refuse
 * every call but their own _destroy, which still frees them (the suite is
 * leak-free under ASan); a child of a destroyed program or pool is refused
 * the same way; double destroys and wrong handle types are reported.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "badinput.h"

/* ------------------------------------------------------------------ */
/* vector.h, assoc.h                                                   */

START_TEST(test_bi_vector_assoc)
{
  lsk_context *ctx = tu_context();
  lsk_context *other = tu_context();
  lsk_buffer *keys = tu_zeros(ctx, 16), *foreign = tu_zeros(other, 16);
  lsk_vector *v = NULL, *vout = (lsk_vector *)&vout;
  TU_OK(ctx, lsk_vector_create(ctx, 4, 16, &v));
  lsk_vector *wv = (lsk_vector *)keys;
  uint32_t dst[16];
  size_t n, size, ov;
  lsk_arg args[3];

  BAD(ctx, "lsk_vector_create", lsk_vector_create(ctx, 4, 16, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_vector_create", lsk_vector_create(NULL, 4, 16, &vout), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(vout);
  BAD(ctx, "lsk_vector_create", lsk_vector_create(ctx, 0, 16, &vout), LSK_EINVAL, "elem_size is 0");
  BAD(ctx, "lsk_vector_create", lsk_vector_create(ctx, 4, (size_t)1 << 33, &vout), LSK_ERANGE,
      "capacity 8589934592");
  BAD(ctx, "lsk_vector_create", lsk_vector_create(ctx, SIZE_MAX / 2, 1024, &vout), LSK_ERANGE,
      "overflow size_t");
  BAD(ctx, "lsk_vector_create", lsk_vector_create(ctx, (size_t)1 << 40, 16, &vout), LSK_ERANGE,
      "16 elements of 1099511627776 bytes exceed the largest allocation");
  BAD(NULL, "lsk_vector_create", lsk_vector_create((lsk_context *)keys, 4, 16, &vout), LSK_EINVAL,
      WRONG("context", "buffer"));
  QUIET("lsk_vector_destroy", (lsk_vector_destroy(NULL), 1));
  BADV("lsk_vector_destroy", (lsk_vector_destroy(wv), 0), 0, WRONG("vector", "buffer"));
  BAD(NULL, "lsk_vector_clear", lsk_vector_clear(NULL, NULL), LSK_EINVAL, "vector is NULL");
  BAD(NULL, "lsk_vector_clear", lsk_vector_clear(wv, NULL), LSK_EINVAL, WRONG("vector", "buffer"));
  BAD(NULL, "lsk_vector_size", lsk_vector_size(NULL, &size, &ov, NULL), LSK_EINVAL,
      "vector is NULL");
  BAD(ctx, "lsk_vector_size", lsk_vector_size(v, NULL, &ov, NULL), LSK_EINVAL, "size is NULL");
  BAD(NULL, "lsk_vector_size", lsk_vector_size(wv, &size, &ov, NULL), LSK_EINVAL,
      WRONG("vector", "buffer"));
  BAD(NULL, "lsk_vector_read", lsk_vector_read(NULL, dst, 16, &n, NULL), LSK_EINVAL,
      "vector is NULL");
  BAD(ctx, "lsk_vector_read", lsk_vector_read(v, dst, 16, NULL, NULL), LSK_EINVAL, "n is NULL");
  BAD(ctx, "lsk_vector_read", lsk_vector_read(v, NULL, 16, &n, NULL), LSK_EINVAL,
      "dst is NULL with max 16");
  BAD(NULL, "lsk_vector_read", lsk_vector_read(wv, dst, 16, &n, NULL), LSK_EINVAL,
      WRONG("vector", "buffer"));
  QUIET("lsk_vector_capacity", lsk_vector_capacity(NULL) == 0);
  BADV("lsk_vector_capacity", lsk_vector_capacity(wv), 0, WRONG("vector", "buffer"));
  QUIET("lsk_vector_elem_size", lsk_vector_elem_size(NULL) == 0);
  BADV("lsk_vector_elem_size", lsk_vector_elem_size(wv), 0, WRONG("vector", "buffer"));
  QUIET("lsk_vector_data", lsk_vector_data(NULL) == NULL);
  BADV("lsk_vector_data", lsk_vector_data(wv), NULL, WRONG("vector", "buffer"));
  QUIET("lsk_vector_count", lsk_vector_count(NULL) == NULL);
  BADV("lsk_vector_count", lsk_vector_count(wv), NULL, WRONG("vector", "buffer"));
  BAD(NULL, "lsk_vector_args", lsk_vector_args(NULL, args), LSK_EINVAL, "vector is NULL");
  BAD(ctx, "lsk_vector_args", lsk_vector_args(v, NULL), LSK_EINVAL, "args is NULL");
  BAD(NULL, "lsk_vector_args", lsk_vector_args(wv, args), LSK_EINVAL, WRONG("vector", "buffer"));

  lsk_assoc *a = NULL, *aout = (lsk_assoc *)&aout;
  TU_OK(ctx, lsk_assoc_create(ctx, 8, 16, NULL, &a));
  lsk_assoc *wa = (lsk_assoc *)v;
  BAD(ctx, "lsk_assoc_create", lsk_assoc_create(ctx, 8, 16, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_assoc_create", lsk_assoc_create(NULL, 8, 16, NULL, &aout), LSK_EINVAL,
      "ctx is NULL");
  ck_assert_ptr_null(aout);
  BAD(ctx, "lsk_assoc_create", lsk_assoc_create(ctx, 0, 16, NULL, &aout), LSK_EINVAL, "nkeys is 0");
  BAD(ctx, "lsk_assoc_create", lsk_assoc_create(ctx, (size_t)1 << 30, 16, NULL, &aout), LSK_ERANGE,
      "nkeys 1073741824");
  BAD(ctx, "lsk_assoc_create", lsk_assoc_create(ctx, 8, (size_t)1 << 40, NULL, &aout), LSK_ERANGE,
      "capacity 1099511627776");
  lsk_assoc_options ao = {.algo = {.workers = 1u << 20}};
  BAD(ctx, "lsk_assoc_create", lsk_assoc_create(ctx, 8, 16, &ao, &aout), LSK_ELAUNCH,
      "workers 1048576");
  BAD(NULL, "lsk_assoc_create", lsk_assoc_create((lsk_context *)v, 8, 16, NULL, &aout), LSK_EINVAL,
      WRONG("context", "vector"));
  QUIET("lsk_assoc_destroy", (lsk_assoc_destroy(NULL), 1));
  BADV("lsk_assoc_destroy", (lsk_assoc_destroy(wa), 0), 0, WRONG("assoc", "vector"));
  BAD(NULL, "lsk_assoc_reserve", lsk_assoc_reserve(NULL, 32), LSK_EINVAL, "a is NULL");
  BAD(ctx, "lsk_assoc_reserve", lsk_assoc_reserve(a, (size_t)1 << 40), LSK_ERANGE,
      "capacity 1099511627776");
  BAD(NULL, "lsk_assoc_reserve", lsk_assoc_reserve(wa, 32), LSK_EINVAL, WRONG("assoc", "vector"));
  BAD(NULL, "lsk_assoc_build", lsk_assoc_build(NULL, keys, 0, 16, NULL), LSK_EINVAL, "a is NULL");
  BAD(ctx, "lsk_assoc_build", lsk_assoc_build(a, NULL, 0, 16, NULL), LSK_EINVAL, "keys is NULL");
  BAD(ctx, "lsk_assoc_build", lsk_assoc_build(a, keys, 4, 16, NULL), LSK_ERANGE, "[4, 20)");
  BAD(ctx, "lsk_assoc_build", lsk_assoc_build(a, keys, SIZE_MAX, 1, NULL), LSK_ERANGE,
      "offset 18446744073709551615");
  BAD(ctx, "lsk_assoc_build", lsk_assoc_build(a, foreign, 0, 16, NULL), LSK_EINVAL,
      "belongs to another context");
  BAD(ctx, "lsk_assoc_build", lsk_assoc_build(a, lsk_assoc_offsets(a), 0, 4, NULL), LSK_EINVAL,
      "keys is one of the association's own buffers");
  lsk_buffer *dead = bi_dead_buffer(ctx);
  BAD(ctx, "lsk_assoc_build", lsk_assoc_build(a, dead, 0, 4, NULL), LSK_EINVAL, DEAD("buffer"));
  BAD(NULL, "lsk_assoc_build", lsk_assoc_build(wa, keys, 0, 16, NULL), LSK_EINVAL,
      WRONG("assoc", "vector"));
  BAD(NULL, "lsk_assoc_build_sorted", lsk_assoc_build_sorted(NULL, keys, 0, 16, NULL), LSK_EINVAL,
      "lsk_assoc_build_sorted: a is NULL");
  BAD(ctx, "lsk_assoc_build_sorted", lsk_assoc_build_sorted(a, NULL, 0, 16, NULL), LSK_EINVAL,
      "lsk_assoc_build_sorted: keys is NULL");
  BAD(ctx, "lsk_assoc_build_sorted", lsk_assoc_build_sorted(a, keys, 4, 16, NULL), LSK_ERANGE,
      "[4, 20)");
  BAD(ctx, "lsk_assoc_build_sorted", lsk_assoc_build_sorted(a, foreign, 0, 16, NULL), LSK_EINVAL,
      "belongs to another context");
  BAD(ctx, "lsk_assoc_build_sorted", lsk_assoc_build_sorted(a, lsk_assoc_content(a), 0, 4, NULL),
      LSK_EINVAL, "keys is one of the association's own buffers");
  BAD(ctx, "lsk_assoc_build_sorted", lsk_assoc_build_sorted(a, dead, 0, 4, NULL), LSK_EINVAL,
      DEAD("buffer"));
  BAD(NULL, "lsk_assoc_build_sorted", lsk_assoc_build_sorted(wa, keys, 0, 16, NULL), LSK_EINVAL,
      WRONG("assoc", "vector"));
  size_t beg, end;
  BAD(NULL, "lsk_assoc_range", lsk_assoc_range(NULL, 0, &beg, &end, NULL), LSK_EINVAL, "a is NULL");
  BAD(ctx, "lsk_assoc_range", lsk_assoc_range(a, 0, NULL, &end, NULL), LSK_EINVAL, "begin is NULL");
  BAD(ctx, "lsk_assoc_range", lsk_assoc_range(a, 0, &beg, NULL, NULL), LSK_EINVAL, "end is NULL");
  BAD(ctx, "lsk_assoc_range", lsk_assoc_range(a, 8, &beg, &end, NULL), LSK_ERANGE,
      "key 8 is not below nkeys 8");
  BAD(ctx, "lsk_assoc_range", lsk_assoc_range(a, SIZE_MAX, &beg, &end, NULL), LSK_ERANGE,
      "key 18446744073709551615");
  BAD(NULL, "lsk_assoc_range", lsk_assoc_range(wa, 0, &beg, &end, NULL), LSK_EINVAL,
      WRONG("assoc", "vector"));
  BAD(NULL, "lsk_assoc_size", lsk_assoc_size(NULL, &beg, &end, NULL), LSK_EINVAL, "a is NULL");
  BAD(NULL, "lsk_assoc_size", lsk_assoc_size(wa, &beg, &end, NULL), LSK_EINVAL,
      WRONG("assoc", "vector"));
  QUIET("lsk_assoc_offsets", lsk_assoc_offsets(NULL) == NULL);
  BADV("lsk_assoc_offsets", lsk_assoc_offsets(wa), NULL, WRONG("assoc", "vector"));
  QUIET("lsk_assoc_content", lsk_assoc_content(NULL) == NULL);
  BADV("lsk_assoc_content", lsk_assoc_content(wa), NULL, WRONG("assoc", "vector"));
  QUIET("lsk_assoc_nkeys", lsk_assoc_nkeys(NULL) == 0);
  BADV("lsk_assoc_nkeys", lsk_assoc_nkeys(wa), 0, WRONG("assoc", "vector"));
  QUIET("lsk_assoc_capacity", lsk_assoc_capacity(NULL) == 0);
  BADV("lsk_assoc_capacity", lsk_assoc_capacity(wa), 0, WRONG("assoc", "vector"));

  lsk_assoc_destroy(a);
  lsk_vector_destroy(v);
  lsk_buffer_destroy(keys);
  lsk_buffer_destroy(foreign);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* pool.h, chunklist.h                                                 */

START_TEST(test_bi_pool_list)
{
  lsk_context *ctx = tu_context();
  lsk_pool *pool = NULL, *pout = (lsk_pool *)&pout;
  TU_OK(ctx, lsk_pool_create(ctx, 64, 8, NULL, &pool));
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_pool *wp = (lsk_pool *)b;
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_create("p", 0, &l));
  TU_OK(NULL, lsk_layout_add_column(l, "float", "x"));

  BAD(ctx, "lsk_pool_create", lsk_pool_create(ctx, 64, 8, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_pool_create", lsk_pool_create(NULL, 64, 8, NULL, &pout), LSK_EINVAL,
      "ctx is NULL");
  ck_assert_ptr_null(pout);
  BAD(ctx, "lsk_pool_create", lsk_pool_create(ctx, 64, 0, NULL, &pout), LSK_EINVAL,
      "capacity is 0");
  BAD(ctx, "lsk_pool_create", lsk_pool_create(ctx, 0, 8, NULL, &pout), LSK_EINVAL, "0");
  BAD(ctx, "lsk_pool_create", lsk_pool_create(ctx, 64, (size_t)1 << 40, NULL, &pout), LSK_ERANGE,
      "1099511627776");
  BAD(ctx, "lsk_pool_create", lsk_pool_create(ctx, SIZE_MAX, 8, NULL, &pout), LSK_ERANGE,
      "18446744073709551615");
  lsk_pool_options po = {.align = 12};
  BAD(ctx, "lsk_pool_create", lsk_pool_create(ctx, 64, 8, &po, &pout), LSK_EINVAL, "12");
  BAD(NULL, "lsk_pool_create", lsk_pool_create((lsk_context *)b, 64, 8, NULL, &pout), LSK_EINVAL,
      WRONG("context", "buffer"));
  BAD(ctx, "lsk_pool_create_frames", lsk_pool_create_frames(ctx, l, 16, 8, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_pool_create_frames", lsk_pool_create_frames(NULL, l, 16, 8, &pout), LSK_EINVAL,
      "ctx is NULL");
  BAD(ctx, "lsk_pool_create_frames", lsk_pool_create_frames(ctx, NULL, 16, 8, &pout), LSK_EINVAL,
      "layout is NULL");
  BAD(ctx, "lsk_pool_create_frames", lsk_pool_create_frames(ctx, (lsk_layout *)b, 16, 8, &pout),
      LSK_EINVAL, WRONG("layout", "buffer"));
  BAD(ctx, "lsk_pool_create_frames", lsk_pool_create_frames(ctx, l, 12, 8, &pout), LSK_EINVAL,
      "12");
  BAD(ctx, "lsk_pool_create_frames", lsk_pool_create_frames(ctx, l, 0, 8, &pout), LSK_EINVAL, "0");
  BAD(ctx, "lsk_pool_create_frames", lsk_pool_create_frames(ctx, l, 16, 0, &pout), LSK_EINVAL,
      "capacity is 0");
  QUIET("lsk_pool_destroy", (lsk_pool_destroy(NULL), 1));
  BADV("lsk_pool_destroy", (lsk_pool_destroy(wp), 0), 0, WRONG("pool", "buffer"));

  QUIET("lsk_pool_buffer", lsk_pool_buffer(NULL) == NULL);
  BADV("lsk_pool_buffer", lsk_pool_buffer(wp), NULL, WRONG("pool", "buffer"));
  QUIET("lsk_pool_capacity", lsk_pool_capacity(NULL) == 0);
  BADV("lsk_pool_capacity", lsk_pool_capacity(wp), 0, WRONG("pool", "buffer"));
  QUIET("lsk_pool_cell_stride", lsk_pool_cell_stride(NULL) == 0);
  BADV("lsk_pool_cell_stride", lsk_pool_cell_stride(wp), 0, WRONG("pool", "buffer"));
  QUIET("lsk_pool_cell_offset", lsk_pool_cell_offset(NULL, 0) == 0);
  BADV("lsk_pool_cell_offset", lsk_pool_cell_offset(wp, 0), 0, WRONG("pool", "buffer"));
  QUIET("lsk_pool_frame_size", lsk_pool_frame_size(NULL) == 0);
  BADV("lsk_pool_frame_size", lsk_pool_frame_size(wp), 0, WRONG("pool", "buffer"));
  QUIET("lsk_pool_frame_base", lsk_pool_frame_base(NULL, 0) == 0);
  BADV("lsk_pool_frame_base", lsk_pool_frame_base(wp, 0), 0, WRONG("pool", "buffer"));

  lsk_pool_usage u;
  uint32_t cells[64];
  size_t n;
  BAD(NULL, "lsk_pool_usage_get", lsk_pool_usage_get(NULL, &u, NULL), LSK_EINVAL, "pool is NULL");
  BAD(ctx, "lsk_pool_usage_get", lsk_pool_usage_get(pool, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_pool_usage_get", lsk_pool_usage_get(wp, &u, NULL), LSK_EINVAL,
      WRONG("pool", "buffer"));
  BAD(NULL, "lsk_pool_gc", lsk_pool_gc(NULL, NULL), LSK_EINVAL, "pool is NULL");
  BAD(NULL, "lsk_pool_gc", lsk_pool_gc(wp, NULL), LSK_EINVAL, WRONG("pool", "buffer"));
  BAD(NULL, "lsk_pool_grow", lsk_pool_grow(NULL, 16), LSK_EINVAL, "pool is NULL");
  BAD(ctx, "lsk_pool_grow", lsk_pool_grow(pool, 8), LSK_EINVAL, "capacity 8");
  BAD(ctx, "lsk_pool_grow", lsk_pool_grow(pool, 0), LSK_EINVAL, "capacity 0");
  BAD(ctx, "lsk_pool_grow", lsk_pool_grow(pool, (size_t)1 << 40), LSK_ERANGE, "1099511627776");
  BAD(NULL, "lsk_pool_grow", lsk_pool_grow(wp, 16), LSK_EINVAL, WRONG("pool", "buffer"));
  BAD(NULL, "lsk_pool_read_free", lsk_pool_read_free(NULL, cells, 8, &n, NULL), LSK_EINVAL,
      "pool is NULL");
  BAD(ctx, "lsk_pool_read_free", lsk_pool_read_free(pool, cells, 8, NULL, NULL), LSK_EINVAL,
      "n is NULL");
  BAD(ctx, "lsk_pool_read_free", lsk_pool_read_free(pool, NULL, 8, &n, NULL), LSK_EINVAL,
      "dst is NULL");
  BAD(NULL, "lsk_pool_read_free", lsk_pool_read_free(wp, cells, 8, &n, NULL), LSK_EINVAL,
      WRONG("pool", "buffer"));
  BAD(NULL, "lsk_pool_read_recycled", lsk_pool_read_recycled(NULL, cells, 8, &n, NULL), LSK_EINVAL,
      "pool is NULL");
  BAD(ctx, "lsk_pool_read_recycled", lsk_pool_read_recycled(pool, cells, 8, NULL, NULL), LSK_EINVAL,
      "n is NULL");
  BAD(ctx, "lsk_pool_read_recycled", lsk_pool_read_recycled(pool, NULL, 8, &n, NULL), LSK_EINVAL,
      "dst is NULL");
  BAD(NULL, "lsk_pool_read_recycled", lsk_pool_read_recycled(wp, cells, 8, &n, NULL), LSK_EINVAL,
      WRONG("pool", "buffer"));
  BAD(NULL, "lsk_pool_read_cells", lsk_pool_read_cells(NULL, 0, 1, cells, sizeof cells, NULL),
      LSK_EINVAL, "pool is NULL");
  BAD(ctx, "lsk_pool_read_cells", lsk_pool_read_cells(pool, 0, 1, NULL, 0, NULL), LSK_EINVAL,
      "dst is NULL");
  BAD(ctx, "lsk_pool_read_cells", lsk_pool_read_cells(pool, 0, 5, cells, sizeof cells, NULL),
      LSK_EINVAL, "dst_bytes 256 is less than the 320 bytes of 5 cells of 64");
  BAD(ctx, "lsk_pool_read_cells", lsk_pool_read_cells(pool, 4, 5, cells, sizeof cells, NULL),
      LSK_ERANGE, "first 4 + count 5 exceed the capacity 8");
  BAD(ctx, "lsk_pool_read_cells", lsk_pool_read_cells(pool, 1, SIZE_MAX, cells, sizeof cells, NULL),
      LSK_ERANGE, "count 18446744073709551615");
  BAD(NULL, "lsk_pool_read_cells", lsk_pool_read_cells(wp, 0, 1, cells, sizeof cells, NULL),
      LSK_EINVAL, WRONG("pool", "buffer"));

  lsk_list *list = NULL, *lout = (lsk_list *)&lout;
  TU_OK(ctx, lsk_list_create(pool, 4, 8, 32, &list));
  lsk_list *wl = (lsk_list *)pool;
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 4, 8, 32, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_list_create", lsk_list_create(NULL, 4, 8, 32, &lout), LSK_EINVAL, "pool is NULL");
  ck_assert_ptr_null(lout);
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 0, 8, 32, &lout), LSK_EINVAL, "elem_bytes 0");
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 6, 8, 32, &lout), LSK_EINVAL, "elem_bytes 6");
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 4, 6, 32, &lout), LSK_EINVAL, "chunk 6");
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 4, 0, 32, &lout), LSK_EINVAL, "chunk 0");
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 4, 64, 32, &lout), LSK_EINVAL,
      "a chunk of 64 elements");
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 4, 8, 0, &lout), LSK_EINVAL, "max_length 0");
  BAD(ctx, "lsk_list_create", lsk_list_create(pool, 4, 8, (size_t)1 << 33, &lout), LSK_EINVAL,
      "max_length 8589934592");
  BAD(NULL, "lsk_list_create", lsk_list_create((lsk_pool *)b, 4, 8, 32, &lout), LSK_EINVAL,
      WRONG("pool", "buffer"));
  QUIET("lsk_list_destroy", (lsk_list_destroy(NULL), 1));
  BADV("lsk_list_destroy", (lsk_list_destroy(wl), 0), 0, WRONG("list", "pool"));
  QUIET("lsk_list_buffer", lsk_list_buffer(NULL) == NULL);
  BADV("lsk_list_buffer", lsk_list_buffer(wl), NULL, WRONG("list", "pool"));
  lsk_list_usage lu;
  BAD(NULL, "lsk_list_usage_get", lsk_list_usage_get(NULL, &lu, NULL), LSK_EINVAL, "list is NULL");
  BAD(ctx, "lsk_list_usage_get", lsk_list_usage_get(list, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_list_usage_get", lsk_list_usage_get(wl, &lu, NULL), LSK_EINVAL,
      WRONG("list", "pool"));
  BAD(NULL, "lsk_list_read", lsk_list_read(NULL, 0, 1, cells, sizeof cells, NULL), LSK_EINVAL,
      "list is NULL");
  BAD(ctx, "lsk_list_read", lsk_list_read(list, 0, 1, NULL, 0, NULL), LSK_EINVAL, "dst is NULL");
  BAD(ctx, "lsk_list_read", lsk_list_read(list, 0, 1, cells, 3, NULL), LSK_EINVAL,
      "dst_bytes 3 holds fewer than count 1 elements of 4 bytes");
  BAD(ctx, "lsk_list_read", lsk_list_read(list, 0, 1, cells, sizeof cells, NULL), LSK_ERANGE,
      "first 0 + count 1 pass the length 0");
  BAD(ctx, "lsk_list_read", lsk_list_read(list, SIZE_MAX, 2, cells, sizeof cells, NULL), LSK_ERANGE,
      "first 18446744073709551615");
  BAD(NULL, "lsk_list_read", lsk_list_read(wl, 0, 1, cells, sizeof cells, NULL), LSK_EINVAL,
      WRONG("list", "pool"));
  BAD(NULL, "lsk_list_clear", lsk_list_clear(NULL, NULL), LSK_EINVAL, "list is NULL");
  BAD(NULL, "lsk_list_clear", lsk_list_clear(wl, NULL), LSK_EINVAL, WRONG("list", "pool"));

  lsk_list_destroy(list);
  lsk_pool_destroy(pool);
  lsk_layout_destroy(l);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Lifetimes                                                           */

static const char *src = "LSK_KERNEL void one(LSK_CTX, __global uint *d) { LSK_FOREACH(it) "
                         "{ d[it.idx] = 1u; } }\n";

START_TEST(test_bi_orphans)
{
  /* One of each child, then the context goes. */
  lsk_context *ctx = tu_context();
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_program *prog = tu_program(ctx, "one.cl", src);
  lsk_kernel *k = tu_kernel(prog, "one");
  lsk_vector *v = NULL;
  lsk_assoc *a = NULL;
  lsk_pool *pool = NULL;
  lsk_list *list = NULL;
  lsk_compactor *c = NULL;
  lsk_soa *soa = NULL;
  lsk_layout *l = NULL;
  TU_OK(NULL, lsk_layout_create("o", 0, &l));
  TU_OK(NULL, lsk_layout_add_column(l, "uint", "u"));
  size_t cnt = 4;
  TU_OK(ctx, lsk_vector_create(ctx, 4, 4, &v));
  TU_OK(ctx, lsk_assoc_create(ctx, 4, 4, NULL, &a));
  TU_OK(ctx, lsk_pool_create(ctx, 64, 4, NULL, &pool));
  TU_OK(ctx, lsk_list_create(pool, 4, 8, 8, &list));
  TU_OK(ctx, lsk_compactor_create(ctx,
                                  "int lsk_select(uint i, LSK_COMPACT_IN in, ulong arg) "
                                  "{ return 1; }\n",
                                  &(lsk_compactor_options){.data_type = "uint"}, &c));
  TU_OK(ctx, lsk_soa_create(ctx, 1, (const lsk_layout *const[]){l}, &cnt, &soa));
  lsk_context_destroy(ctx);

  /* Every call but _destroy is refused, naming the dead context. */
  char data[16];
  size_t n, s2;
  lsk_launch cfg = {.domain = {4}, .blocks = {1}};
  lsk_program_stats st;
  BAD(NULL, "lsk_context_finish", lsk_context_finish(ctx), LSK_EINVAL, DEAD("context"));
  BAD(NULL, "lsk_buffer_write", lsk_buffer_write(b, 0, data, 4, NULL), LSK_EINVAL,
      ORPHAN("context"));
  BAD(NULL, "lsk_buffer_read", lsk_buffer_read(b, 0, data, 4, NULL), LSK_EINVAL, ORPHAN("context"));
  BADV("lsk_buffer_size", lsk_buffer_size(b), 0, ORPHAN("context"));
  BAD(NULL, "lsk_program_stats_get", lsk_program_stats_get(prog, &st), LSK_EINVAL,
      ORPHAN("context"));
  BAD(NULL, "lsk_program_build", lsk_program_build(prog, "one", &cfg), LSK_EINVAL,
      ORPHAN("context"));
  lsk_kernel *k2 = (lsk_kernel *)&k2;
  BAD(NULL, "lsk_kernel_create", lsk_kernel_create(prog, "one", &k2), LSK_EINVAL,
      ORPHAN("context"));
  ck_assert_ptr_null(k2);
  BAD(NULL, "lsk_kernel_run", lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL),
      LSK_EINVAL, ORPHAN("context"));
  unsigned w, s;
  BAD(NULL, "lsk_kernel_shape", lsk_kernel_shape(k, &cfg, &w, &s), LSK_EINVAL, ORPHAN("context"));
  BAD(NULL, "lsk_vector_size", lsk_vector_size(v, &n, NULL, NULL), LSK_EINVAL, ORPHAN("context"));
  BAD(NULL, "lsk_assoc_size", lsk_assoc_size(a, &n, &s2, NULL), LSK_EINVAL, ORPHAN("context"));
  BAD(NULL, "lsk_pool_gc", lsk_pool_gc(pool, NULL), LSK_EINVAL, ORPHAN("context"));
  BAD(NULL, "lsk_list_clear", lsk_list_clear(list, NULL), LSK_EINVAL, ORPHAN("context"));
  BAD(NULL, "lsk_compact", lsk_compact(c, NULL, 0, 0, b, 0, 4, &n, NULL, NULL), LSK_EINVAL,
      ORPHAN("context"));
  BAD(NULL, "lsk_soa_upload", lsk_soa_upload(soa, NULL), LSK_EINVAL, ORPHAN("context"));
  TU_OK(NULL, lsk_layout_size(l, 4, &n)); /* a layout has no context */
  /* ... and their _destroy still frees them (ASan: no leak, no
   * use-after-free); each then is a dead handle. */
  lsk_soa_destroy(soa);
  lsk_compactor_destroy(c);
  lsk_list_destroy(list);
  lsk_pool_destroy(pool);
  lsk_assoc_destroy(a);
  lsk_vector_destroy(v);
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_buffer_destroy(b);
  lsk_layout_destroy(l);
}
END_TEST

START_TEST(test_bi_dead_parents)
{
  lsk_context *ctx = tu_context();
  lsk_program *prog = tu_program(ctx, "one.cl", src);
  lsk_kernel *k = tu_kernel(prog, "one");
  lsk_buffer *b = tu_zeros(ctx, 4);
  lsk_pool *pool = NULL;
  lsk_list *list = NULL;
  TU_OK(ctx, lsk_pool_create(ctx, 64, 4, NULL, &pool));
  TU_OK(ctx, lsk_list_create(pool, 4, 8, 8, &list));
  lsk_launch cfg = {.domain = {4}, .blocks = {1}};

  /* A kernel of a destroyed program, a list of a destroyed pool. */
  lsk_program_destroy(prog);
  BAD(NULL, "lsk_kernel_run", lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL),
      LSK_EINVAL, ORPHAN("program"));
  unsigned dom[3];
  BADV("lsk_kernel_declared_domain", lsk_kernel_declared_domain(k, dom), 0, ORPHAN("program"));
  lsk_pool_destroy(pool);
  BAD(NULL, "lsk_list_clear", lsk_list_clear(list, NULL), LSK_EINVAL, ORPHAN("pool"));
  lsk_list_usage u;
  BAD(NULL, "lsk_list_usage_get", lsk_list_usage_get(list, &u, NULL), LSK_EINVAL, ORPHAN("pool"));
  lsk_kernel_destroy(k);
  lsk_list_destroy(list);

  /* Double destroys are reported, not a double free. */
  BADV("lsk_kernel_destroy", (lsk_kernel_destroy(k), 0), 0, DEAD("kernel"));
  BADV("lsk_list_destroy", (lsk_list_destroy(list), 0), 0, DEAD("list"));
  BADV("lsk_program_destroy", (lsk_program_destroy(prog), 0), 0, DEAD("program"));
  BADV("lsk_pool_destroy", (lsk_pool_destroy(pool), 0), 0, DEAD("pool"));
  lsk_buffer_destroy(b);
  BADV("lsk_buffer_destroy", (lsk_buffer_destroy(b), 0), 0, DEAD("buffer"));

  /* The context is unharmed by all of it. */
  lsk_buffer *ok = tu_zeros(ctx, 4);
  TU_OK(ctx, lsk_context_finish(ctx));
  lsk_buffer_destroy(ok);
  lsk_context_destroy(ctx);
  BADV("lsk_context_destroy", (lsk_context_destroy(ctx), 0), 0, DEAD("context"));
  bi_clear(NULL);
  const char *m = lsk_context_errmsg(ctx); /* the thread's, unchanged */
  QUIET("lsk_context_errmsg", strstr(m, "bi_sentinel") && m == lsk_errmsg());
}
END_TEST

Suite *suite_badinput_objects(void)
{
  Suite *s = suite_create("badinput_objects");
  TCase *tc = bi_tcase("objects");
  tcase_add_test(tc, test_bi_vector_assoc);
  tcase_add_test(tc, test_bi_pool_list);
  suite_add_tcase(s, tc);
  tc = bi_tcase("lifetime");
  tcase_add_test(tc, test_bi_orphans);
  tcase_add_test(tc, test_bi_dead_parents);
  suite_add_tcase(s, tc);
  return s;
}
