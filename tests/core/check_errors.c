/*
 * check_errors.c: bad input to every public function. Each gives its
 * status and a message that names the problem, nothing crashes, and the
 * objects involved stay usable. Everything created is destroyed (the suite
 * runs leak-free under AddressSanitizer).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/core.h" /* lsk__map_log_lines */
#include "testutil.h"

/* Line numbers matter in some of these sources: keep one line per string. */
static const char *main_src = "LSK_DECLARE_DOMAIN(k42, 42);\n"
                              "LSK_KERNEL void iota(LSK_CTX, __global uint *data, uint n)\n"
                              "{\n"
                              "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                              "    LSK_FOREACH(it) {\n"
                              "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
                              "      if (g < n)\n"
                              "        data[g] = 3u * g + 5u;\n"
                              "    }\n"
                              "  }\n"
                              "}\n"
                              "LSK_KERNEL void k42(LSK_CTX, __global uint *data)\n"
                              "{\n"
                              "  LSK_FOREACH(it) { data[it.idx] = k42_DOMAIN_SIZE + it.idx; }\n"
                              "}\n"
                              "LSK_KERNEL void scratch(LSK_CTX, __global uint *data,\n"
                              "                        __local uint *tmp, uint n)\n"
                              "{\n"
                              "  LSK_FOREACH(it) { tmp[it.idx] = it.idx * 2u; }\n"
                              "  lsk_sync();\n"
                              "  LSK_FOREACH(it) {\n"
                              "    if (it.idx < n)\n"
                              "      data[it.idx] = tmp[LSK_DOMAIN_SIZE - 1u - it.idx];\n"
                              "  }\n"
                              "}\n"
                              "__kernel void plain(__global uint *data)\n"
                              "{\n"
                              "  data[get_global_id(0)] = 1u;\n"
                              "}\n";

/* A number as a token of its own in msg (not part of a longer number). */
static int has_num(const char *msg, unsigned long long v)
{
  char num[32];
  snprintf(num, sizeof num, "%llu", v);
  size_t len = strlen(num);
  for (const char *p = msg; (p = strstr(p, num)) != NULL; ++p)
    if ((p == msg || !isdigit((unsigned char)p[-1])) && !isdigit((unsigned char)p[len]))
      return 1;
  return 0;
}

#define ASSERT_NUM(msg, v)                                                                         \
  ck_assert_msg(has_num((msg), (v)), "message '%s' lacks the number %llu", (msg),                  \
                (unsigned long long)(v))

/* One context, program and kernels for a test. */
typedef struct fixture {
  lsk_context *ctx;
  lsk_program *prog;
  lsk_kernel *iota, *k42;
} fixture;

static fixture setup(void)
{
  fixture f;
  f.ctx = tu_context();
  f.prog = tu_program(f.ctx, "main.cl", main_src);
  f.iota = tu_kernel(f.prog, "iota");
  f.k42 = tu_kernel(f.prog, "k42");
  return f;
}

static void teardown(fixture *f)
{
  lsk_kernel_destroy(f->k42);
  lsk_kernel_destroy(f->iota);
  lsk_program_destroy(f->prog);
  lsk_context_destroy(f->ctx);
}

/* A correct launch of iota, checked: the objects survived the failure. */
static void iota_works(lsk_context *ctx, lsk_kernel *k)
{
  enum { N = 300 };
  lsk_buffer *b = tu_zeros(ctx, N);
  lsk_launch cfg = {.domain = {32}, .blocks = {3}};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(N)), NULL));
  unsigned *h = tu_read_uints(ctx, b, N);
  for (unsigned i = 0; i < N; ++i)
    ck_assert_uint_eq(h[i], 3u * i + 5u);
  free(h);
  lsk_buffer_destroy(b);
}

/* ------------------------------------------------------------------ */
/* NULL arguments                                                      */

START_TEST(test_errors_null_context_calls)
{
  TU_FAILS(NULL, lsk_context_create(NULL, NULL), LSK_EINVAL, "lsk_context_create: out is NULL");
  TU_FAILS(NULL, lsk_context_finish(NULL), LSK_EINVAL, "ctx is NULL");
  lsk_context_destroy(NULL);
  ck_assert_ptr_null(lsk_context_cl(NULL));
  ck_assert_ptr_null(lsk_context_cl_device(NULL));
  ck_assert_ptr_null(lsk_context_cl_queue(NULL));
  ck_assert_ptr_nonnull(lsk_context_device(NULL)); /* documented: never NULL */
  ck_assert_ptr_nonnull(lsk_context_errmsg(NULL));

  lsk_buffer *b = (lsk_buffer *)&b;
  TU_FAILS(NULL, lsk_buffer_create(NULL, 16, &b), LSK_EINVAL, "lsk_buffer_create: ctx is NULL");
  ck_assert_ptr_null(b);
  lsk_program *p = (lsk_program *)&p;
  TU_FAILS(NULL, lsk_program_create(NULL, "x", NULL, &p), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(p);
  p = (lsk_program *)&p;
  TU_FAILS(NULL, lsk_program_create_file(NULL, "/tmp/x.cl", NULL, &p), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(p);
  lsk_kernel *k = (lsk_kernel *)&k;
  TU_FAILS(NULL, lsk_kernel_create(NULL, "iota", &k), LSK_EINVAL, "prog is NULL");
  ck_assert_ptr_null(k);
  lsk_program_stats st;
  TU_FAILS(NULL, lsk_program_stats_get(NULL, &st), LSK_EINVAL, "prog is NULL");
  lsk_launch cfg = {.domain = {16}, .blocks = {1}};
  TU_FAILS(NULL, lsk_program_build(NULL, "iota", &cfg), LSK_EINVAL, "prog is NULL");
  TU_FAILS(NULL, lsk_kernel_launch(NULL, &cfg, NULL, 0, NULL), LSK_EINVAL, "kernel is NULL");
  TU_FAILS(NULL, lsk_kernel_run(NULL, &cfg, NULL, 0, NULL), LSK_EINVAL, "kernel is NULL");
  unsigned w = 0, s = 0;
  TU_FAILS(NULL, lsk_kernel_shape(NULL, &cfg, &w, &s), LSK_EINVAL, "kernel is NULL");
  unsigned dom[3] = {9, 9, 9};
  ck_assert_int_eq(lsk_kernel_declared_domain(NULL, dom), 0);

  char data[4] = {0};
  void *ptr = data;
  TU_FAILS(NULL, lsk_buffer_write(NULL, 0, data, 4, NULL), LSK_EINVAL,
           "lsk_buffer_write: buf is NULL");
  TU_FAILS(NULL, lsk_buffer_read(NULL, 0, data, 4, NULL), LSK_EINVAL,
           "lsk_buffer_read: buf is NULL");
  TU_FAILS(NULL, lsk_buffer_fill(NULL, data, 4, 0, 4, NULL), LSK_EINVAL,
           "lsk_buffer_fill: buf is NULL");
  TU_FAILS(NULL, lsk_buffer_map(NULL, 0, 4, &ptr, NULL), LSK_EINVAL, "lsk_buffer_map: buf is NULL");
  ck_assert_ptr_null(ptr);
  TU_FAILS(NULL, lsk_buffer_unmap(NULL, data, NULL), LSK_EINVAL, "buf is NULL");
  ck_assert_uint_eq(lsk_buffer_size(NULL), 0);
  ck_assert_ptr_null(lsk_buffer_cl(NULL));
  lsk_buffer_destroy(NULL);
  lsk_program_destroy(NULL);
  lsk_kernel_destroy(NULL);

  /* No device: a shape of 1 x 1, no crash. */
  w = s = 0;
  lsk_auto_shape(NULL, 100, 0, &w, &s);
  ck_assert_uint_eq(w, 1);
  ck_assert_uint_eq(s, 1);
}
END_TEST

START_TEST(test_errors_null_out_and_inputs)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  TU_FAILS(ctx, lsk_buffer_create(ctx, 16, NULL), LSK_EINVAL, "lsk_buffer_create: out is NULL");
  TU_FAILS(ctx, lsk_program_create(ctx, main_src, NULL, NULL), LSK_EINVAL,
           "lsk_program_create: out is NULL");
  TU_FAILS(ctx, lsk_program_create_file(ctx, "/tmp/x.cl", NULL, NULL), LSK_EINVAL, "out is NULL");
  lsk_program *p = (lsk_program *)&p;
  TU_FAILS(ctx, lsk_program_create_file(ctx, NULL, NULL, &p), LSK_EINVAL, "path is NULL");
  ck_assert_ptr_null(p);
  TU_FAILS(ctx, lsk_program_stats_get(f.prog, NULL), LSK_EINVAL, "out is NULL");
  TU_FAILS(ctx, lsk_kernel_create(f.prog, "iota", NULL), LSK_EINVAL, "out is NULL");

  lsk_launch cfg = {.domain = {16}, .blocks = {1}};
  TU_FAILS(ctx, lsk_program_build(f.prog, NULL, &cfg), LSK_EINVAL, "name");
  TU_FAILS(ctx, lsk_program_build(f.prog, "iota", NULL), LSK_EINVAL, "cfg is NULL");
  TU_FAILS(ctx, lsk_kernel_launch(f.iota, NULL, NULL, 0, NULL), LSK_EINVAL, "cfg is NULL");
  TU_FAILS(ctx, lsk_kernel_run(f.iota, NULL, NULL, 0, NULL), LSK_EINVAL, "cfg is NULL");
  unsigned w = 0, s = 0;
  TU_FAILS(ctx, lsk_kernel_shape(f.iota, NULL, &w, &s), LSK_EINVAL, "cfg is NULL");
  TU_FAILS(ctx, lsk_kernel_shape(f.iota, &cfg, NULL, &s), LSK_EINVAL, "workers is NULL");
  TU_FAILS(ctx, lsk_kernel_shape(f.iota, &cfg, &w, NULL), LSK_EINVAL, "simd is NULL");
  /* args NULL with a count. */
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, NULL, 2, NULL), LSK_EINVAL, "args is NULL");

  lsk_buffer *b = tu_zeros(ctx, 4);
  void *ptr = &ptr;
  TU_FAILS(ctx, lsk_buffer_write(b, 0, NULL, 4, NULL), LSK_EINVAL, "host pointer is NULL");
  TU_FAILS(ctx, lsk_buffer_read(b, 0, NULL, 4, NULL), LSK_EINVAL, "host pointer is NULL");
  TU_FAILS(ctx, lsk_buffer_fill(b, NULL, 4, 0, 4, NULL), LSK_EINVAL, "NULL");
  TU_FAILS(ctx, lsk_buffer_map(b, 0, 4, NULL, NULL), LSK_EINVAL, "ptr is NULL");
  TU_FAILS(ctx, lsk_buffer_unmap(b, NULL, NULL), LSK_EINVAL, "ptr is NULL");
  TU_FAILS(ctx, lsk_buffer_map(b, 0, 0, &ptr, NULL), LSK_EINVAL, "size is 0");
  ck_assert_ptr_null(ptr);
  /* NULL and foreign buffers as kernel arguments. */
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(NULL), LSK_ARG_UINT(4)), NULL),
           LSK_EINVAL, "buffer is NULL");
  lsk_context *other = tu_context();
  lsk_buffer *ob = tu_zeros(other, 4);
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(ob), LSK_ARG_UINT(4)), NULL),
           LSK_EINVAL, "another context");
  lsk_buffer_destroy(ob);
  lsk_context_destroy(other);
  lsk_buffer_destroy(b);
  iota_works(ctx, f.iota);
  teardown(&f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Buffers                                                             */

START_TEST(test_errors_buffer_create_sizes)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *b = (lsk_buffer *)&b;
  TU_FAILS(ctx, lsk_buffer_create(ctx, 0, &b), LSK_EINVAL, "size is 0");
  ck_assert_ptr_null(b);
  uint64_t max = lsk_context_device(ctx)->max_alloc_size;
  ck_assert_uint_gt(max, 0);
  if (max < SIZE_MAX) {
    b = (lsk_buffer *)&b;
    TU_FAILS(ctx, lsk_buffer_create(ctx, (size_t)max + 1, &b), LSK_ERANGE, "lsk_buffer_create");
    ck_assert_ptr_null(b);
    ASSERT_NUM(lsk_context_errmsg(ctx), max + 1);
    ASSERT_NUM(lsk_context_errmsg(ctx), max);
  }
  TU_FAILS(ctx, lsk_buffer_create(ctx, SIZE_MAX, &b), LSK_ERANGE, "lsk_buffer_create");
  /* The context still makes buffers. */
  TU_OK(ctx, lsk_buffer_create(ctx, 64, &b));
  ck_assert_uint_eq(lsk_buffer_size(b), 64);
  ck_assert_ptr_nonnull(lsk_buffer_cl(b));
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_errors_buffer_out_of_range)
{
  enum { SIZE = 4096 };
  lsk_context *ctx = tu_context();
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, SIZE, &b));
  char *host = calloc(1, SIZE + 512);
  ck_assert_ptr_nonnull(host);

  TU_FAILS(ctx, lsk_buffer_write(b, 4000, host, 200, NULL), LSK_ERANGE, "lsk_buffer_write");
  ASSERT_NUM(lsk_context_errmsg(ctx), 4000);
  ASSERT_NUM(lsk_context_errmsg(ctx), 200);
  ASSERT_NUM(lsk_context_errmsg(ctx), SIZE);
  TU_FAILS(ctx, lsk_buffer_read(b, 0, host, SIZE + 1, NULL), LSK_ERANGE, "lsk_buffer_read");
  ASSERT_NUM(lsk_context_errmsg(ctx), SIZE + 1);
  ASSERT_NUM(lsk_context_errmsg(ctx), SIZE);
  TU_FAILS(ctx, lsk_buffer_read(b, SIZE + 4, host, 0, NULL), LSK_ERANGE, "lsk_buffer_read");
  ASSERT_NUM(lsk_context_errmsg(ctx), SIZE + 4);
  unsigned pat = 0;
  TU_FAILS(ctx, lsk_buffer_fill(b, &pat, 4, 4092, 8, NULL), LSK_ERANGE, "lsk_buffer_fill");
  ASSERT_NUM(lsk_context_errmsg(ctx), 4092);
  ASSERT_NUM(lsk_context_errmsg(ctx), 8);
  void *ptr = &ptr;
  TU_FAILS(ctx, lsk_buffer_map(b, 2048, 2049, &ptr, NULL), LSK_ERANGE, "lsk_buffer_map");
  ck_assert_ptr_null(ptr);
  ASSERT_NUM(lsk_context_errmsg(ctx), 2048);
  ASSERT_NUM(lsk_context_errmsg(ctx), 2049);
  /* offset + size wraps around: still out of range, not a tiny copy. */
  TU_FAILS(ctx, lsk_buffer_write(b, SIZE_MAX - 1, host, 4, NULL), LSK_ERANGE, "lsk_buffer_write");
  TU_FAILS(ctx, lsk_buffer_read(b, 8, host, SIZE_MAX - 4, NULL), LSK_ERANGE, "lsk_buffer_read");

  /* Exactly to the end is fine, and the buffer still works. */
  unsigned v = 0xfeedu, back = 0;
  TU_OK(ctx, lsk_buffer_write(b, SIZE - 4, &v, 4, NULL));
  TU_OK(ctx, lsk_buffer_read(b, SIZE - 4, &back, 4, NULL));
  ck_assert_uint_eq(back, 0xfeedu);
  TU_OK(ctx, lsk_buffer_read(b, SIZE, host, 0, NULL));
  TU_OK(ctx, lsk_buffer_map(b, SIZE - 8, 8, &ptr, NULL));
  ck_assert_ptr_nonnull(ptr);
  ck_assert_uint_eq(((unsigned *)ptr)[1], 0xfeedu);
  TU_OK(ctx, lsk_buffer_unmap(b, ptr, NULL));
  free(host);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_errors_buffer_fill_pattern)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, 48, &b));
  unsigned char pat[256] = {1, 2, 3};
  TU_FAILS(ctx, lsk_buffer_fill(b, pat, 3, 0, 48, NULL), LSK_EINVAL, "pattern_size");
  ASSERT_NUM(lsk_context_errmsg(ctx), 3);
  TU_FAILS(ctx, lsk_buffer_fill(b, pat, 0, 0, 48, NULL), LSK_EINVAL, "pattern_size");
  TU_FAILS(ctx, lsk_buffer_fill(b, pat, 256, 0, 0, NULL), LSK_EINVAL, "pattern_size");
  ASSERT_NUM(lsk_context_errmsg(ctx), 256);
  /* offset and size must be multiples of the pattern. */
  TU_FAILS(ctx, lsk_buffer_fill(b, pat, 4, 2, 8, NULL), LSK_EINVAL, "multiples");
  TU_FAILS(ctx, lsk_buffer_fill(b, pat, 4, 0, 10, NULL), LSK_EINVAL, "multiples");
  ASSERT_NUM(lsk_context_errmsg(ctx), 10);
  /* A 16-byte pattern works, and lands where it should. */
  unsigned char p16[16];
  for (int i = 0; i < 16; ++i)
    p16[i] = (unsigned char)(0x40 + i);
  unsigned char zero = 0, back[48];
  TU_OK(ctx, lsk_buffer_fill(b, &zero, 1, 0, 48, NULL));
  TU_OK(ctx, lsk_buffer_fill(b, p16, 16, 16, 32, NULL));
  TU_OK(ctx, lsk_buffer_read(b, 0, back, 48, NULL));
  for (int i = 0; i < 48; ++i)
    ck_assert_uint_eq(back[i], i < 16 ? 0 : 0x40 + (i % 16));
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Programs                                                            */

START_TEST(test_errors_program_source)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = (lsk_program *)&p;
  TU_FAILS(ctx, lsk_program_create(ctx, NULL, NULL, &p), LSK_EINVAL, "source is NULL");
  ck_assert_ptr_null(p);
  p = (lsk_program *)&p;
  TU_FAILS(ctx, lsk_program_create(ctx, "", NULL, &p), LSK_EINVAL, "source is empty");
  ck_assert_ptr_null(p);

  char path[] = "/tmp/lsk-no-such-dir-XXXXXX";
  /* A name that does not exist: a fresh temporary directory, removed. */
  ck_assert_ptr_nonnull(mkdtemp(path));
  ck_assert_int_eq(rmdir(path), 0);
  char file[sizeof path + 16];
  snprintf(file, sizeof file, "%s/k.cl", path);
  p = (lsk_program *)&p;
  TU_FAILS(ctx, lsk_program_create_file(ctx, file, NULL, &p), LSK_EIO, file);
  ck_assert_ptr_null(p);
  /* A directory is not a source file either. */
  TU_FAILS(ctx, lsk_program_create_file(ctx, "/", NULL, &p), LSK_EIO, "'/'");
  ck_assert_ptr_null(p);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_errors_kernel_create_name)
{
  fixture f = setup();
  lsk_kernel *k = (lsk_kernel *)&k;
  TU_FAILS(f.ctx, lsk_kernel_create(f.prog, NULL, &k), LSK_EINVAL, "name is NULL");
  ck_assert_ptr_null(k);
  k = (lsk_kernel *)&k;
  TU_FAILS(f.ctx, lsk_kernel_create(f.prog, "", &k), LSK_EINVAL, "empty");
  ck_assert_ptr_null(k);
  iota_works(f.ctx, f.iota);
  teardown(&f);
}
END_TEST

START_TEST(test_errors_declare_malformed)
{
  lsk_context *ctx = tu_context();
  static const struct {
    const char *src;
    unsigned line;
    const char *text;
  } bad[] = {
      {"// a comment\n\nLSK_DECLARE_DOMAIN(k, x);\nLSK_KERNEL void k(LSK_CTX) {}\n", 3, "integer"},
      {"LSK_KERNEL void k(LSK_CTX) {}\nLSK_DECLARE_DOMAIN(k, 0);\n", 2, "0"},
      {"\n\n\n\nLSK_DECLARE_DOMAIN3(k, 4, 0, 2);\n", 5, "0"},
      {"LSK_DECLARE_DOMAIN(k);\n", 1, "LSK_DECLARE_DOMAIN"},
      {"LSK_DECLARE_DOMAIN(k, 1, 2, 3, 4);\n", 1, "LSK_DECLARE_DOMAIN"},
      {"\nLSK_DECLARE_DOMAIN(k, 16);\nLSK_DECLARE_DOMAIN(k, 16);\n", 3, "twice"},
      {"LSK_DECLARE_DOMAIN3(k, 4096, 4096, 2);\n", 1, "LSK_DECLARE_DOMAIN"},
      /* The name gives the rank: OpenCL C 1.2 has no variadic macros. */
      {"LSK_DECLARE_DOMAIN(k, 4, 3);\n", 1, "use LSK_DECLARE_DOMAIN2"},
      {"\nLSK_DECLARE_DOMAIN2(k, 4, 3, 2);\n", 2, "use LSK_DECLARE_DOMAIN3"},
      {"LSK_DECLARE_DOMAIN3(k, 4);\n", 1, "LSK_DECLARE_DOMAIN3 takes 3"},
      {"LSK_DECLARE_DOMAIN4(k, 4);\nLSK_DECLARE_DOMAIN(k, 0);\n", 2, "0"},
      {"LSK_DECLARE_DOMAIN(7k, 16);\n", 1, "LSK_DECLARE_DOMAIN"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    lsk_program *p = (lsk_program *)&p;
    int rc = lsk_program_create(ctx, bad[i].src, &(lsk_program_options){.name = "decl.cl"}, &p);
    const char *msg = lsk_context_errmsg(ctx);
    ck_assert_msg(rc == LSK_EINVAL, "case %zu: %s: %s", i, lsk_status_name(rc), msg);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(msg, "decl.cl") && strstr(msg, bad[i].text), "case %zu: '%s'", i, msg);
    char line[32];
    snprintf(line, sizeof line, "decl.cl:%u:", bad[i].line);
    ck_assert_msg(strstr(msg, line) != NULL, "case %zu: '%s' lacks '%s'", i, msg, line);
  }
  /* In comments and strings the macro is not read; N-D declarations work. */
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(ctx,
                                "// LSK_DECLARE_DOMAIN(k, x);\n"
                                "/* LSK_DECLARE_DOMAIN(k, 0); */\n"
                                "LSK_DECLARE_DOMAIN3(k, 4, 2u, 0x3);\n"
                                "LSK_KERNEL void k(LSK_CTX) {}\n",
                                NULL, &p));
  lsk_kernel *k = tu_kernel(p, "k");
  unsigned dom[3];
  ck_assert_int_eq(lsk_kernel_declared_domain(k, dom), 1);
  ck_assert_uint_eq(dom[0], 4);
  ck_assert_uint_eq(dom[1], 2);
  ck_assert_uint_eq(dom[2], 3);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* A syntax error on line 6 of the user's source: the message points at the
 * user's line, not at one shifted by the device library in front of it. */
START_TEST(test_errors_build_error_line)
{
  lsk_context *ctx = tu_context();
  const char *src = "// broken.cl\n"
                    "LSK_KERNEL void broken(LSK_CTX, __global uint *data)\n"
                    "{\n"
                    "  LSK_FOREACH(it) {\n"
                    "    data[it.idx] = it.idx;\n"
                    "    uint oops = undeclared_thing_xyz + 1u;\n"
                    "  }\n"
                    "}\n";
  lsk_program *p = tu_program(ctx, "broken.cl", src);
  lsk_kernel *k = tu_kernel(p, "broken");
  lsk_buffer *b = tu_zeros(ctx, 64);
  lsk_launch cfg = {.domain = {64}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL), LSK_EBUILD,
           "broken.cl:6:");
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), "uint oops = undeclared_thing_xyz + 1u;") != NULL,
                "message '%s' lacks the source line", lsk_context_errmsg(ctx));
  /* Again, and through lsk_program_build: the same error, not a stale build. */
  TU_FAILS(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL), LSK_EBUILD,
           "broken.cl:6:");
  TU_FAILS(ctx, lsk_program_build(p, "broken", &cfg), LSK_EBUILD, "broken.cl:6:");
  lsk_program_stats st;
  TU_OK(ctx, lsk_program_stats_get(p, &st));
  ck_assert_uint_eq(st.configurations, 0);
  ck_assert_uint_eq(st.compiled, 0);
  /* The context still builds and runs other programs. */
  lsk_program *good = tu_program(ctx, "main.cl", main_src);
  lsk_kernel *iota = tu_kernel(good, "iota");
  iota_works(ctx, iota);
  lsk_kernel_destroy(iota);
  lsk_program_destroy(good);
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* NVIDIA's compiler ignores #line in its diagnostics and says
 * "<kernel>:LINE:" counted in the whole text (device library, prelude,
 * source): the message maps them back to the user's lines (the GPU run of
 * test_errors_build_error_line checks the whole path). */
START_TEST(test_errors_build_log_whole_text_lines)
{
  const char *log = "<kernel>:3:1: error: in the device library\n"
                    "<kernel>:12:5: error: in the prelude\n"
                    "<kernel>:20:17: error: in the source\n"
                    "<kernel>:15:2: note: the source's first line\n"
                    "<kernel>: warning: no line\n";
  char *m = lsk__map_log_lines("broken.cl", log, NULL, 10, 15);
  ck_assert_ptr_nonnull(m);
  ck_assert_str_eq(m, "<kernel>:3:1: error: in the device library\n"
                      "broken.cl.prelude:3:5: error: in the prelude\n"
                      "broken.cl:6:17: error: in the source\n"
                      "broken.cl:1:2: note: the source's first line\n"
                      "<kernel>: warning: no line\n");
  free(m);
  /* With the library's text, its lines by its #line markers (text lines
   * 1-9: a.h's 1-2, b_t.h's 40-41, a.h's 7-8; line 1 has no marker before
   * it, a marker's own line neither). */
  const char *lib = "int x;\n#line 1 \"a.h\"\nA1\nA2\n#line 40 \"b_t.h\"\nB40\nB41\n"
                    "#line 7 \"a.h\"\nA7\n";
  log = "<kernel>:1:1: e\n<kernel>:2:1: e\n<kernel>:4:2: e\n<kernel>:7:3: e\n<kernel>:9:4: e\n"
        "<kernel>:11:5: e\n";
  m = lsk__map_log_lines("broken.cl", log, lib, 10, 15);
  ck_assert_ptr_nonnull(m);
  ck_assert_str_eq(m, "<kernel>:1:1: e\n<kernel>:2:1: e\na.h:2:2: e\nb_t.h:41:3: e\na.h:7:4: e\n"
                      "broken.cl.prelude:2:5: e\n");
  free(m);
}
END_TEST

/* lsk_program_text is what builds hand the compiler: the raw OpenCL
 * compiler builds it with its options into a program with the kernels that
 * lsk_program_kernel_names lists; declared domains read without a context. */
START_TEST(test_errors_program_text_offline)
{
  lsk_context *ctx = tu_context();
  const lsk_program_options po = {
      .name = "main.cl", .prelude = "#define PRE 1\n", .build_options = "-DOPT=2"};
  char *text = NULL, *opts = NULL;
  TU_OK(NULL, lsk_program_text(main_src, &po, (const unsigned[3]){32, 0, 0}, 32, 1, &text, &opts));
  ck_assert_str_eq(opts, "-cl-std=CL1.2 -cl-kernel-arg-info -DLSK_DOMAIN_X=32 -DLSK_DOMAIN_Y=1 "
                         "-DLSK_DOMAIN_Z=1 -DLSK_DOMAIN_SIZE=32 -DLSK_WORKERS=32 -DLSK_SIMD=1 "
                         "-DOPT=2");
  size_t nd = strlen(lsk__device_source);
  ck_assert_int_eq(strncmp(text, lsk__device_source, nd), 0);
  const char *tail = "\n#line 1 \"main.cl.prelude\"\n#define PRE 1\n\n#line 1 \"main.cl\"\n";
  ck_assert_int_eq(strncmp(text + nd, tail, strlen(tail)), 0);
  ck_assert_str_eq(text + nd + strlen(tail), main_src);
  cl_int err;
  const char *srcs[1] = {text};
  cl_program raw = clCreateProgramWithSource(lsk_context_cl(ctx), 1, srcs, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_device_id dev = lsk_context_cl_device(ctx);
  ck_assert_int_eq(clBuildProgram(raw, 1, &dev, opts, NULL, NULL), CL_SUCCESS);
  char raw_names[256] = "";
  ck_assert_int_eq(
      clGetProgramInfo(raw, CL_PROGRAM_KERNEL_NAMES, sizeof raw_names, raw_names, NULL),
      CL_SUCCESS);
  clReleaseProgram(raw);
  lsk_free(text);
  lsk_free(opts);
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(ctx, main_src, &po, &p));
  char *names = NULL;
  lsk_launch cfg = {.domain = {32}, .workers = 32, .simd = 1};
  TU_OK(ctx, lsk_program_kernel_names(p, &cfg, &names));
  ck_assert_str_eq(names, raw_names);
  ck_assert_msg(strstr(names, "iota") && strstr(names, "k42") && strstr(names, "plain"), "%s",
                names);
  lsk_free(names);
  /* No domain: the first declared one (k42's). */
  TU_OK(ctx, lsk_program_kernel_names(p, &(lsk_launch){.blocks = {1}}, &names));
  ck_assert_str_eq(names, raw_names);
  lsk_free(names);
  lsk_program_destroy(p);
  unsigned dom[3];
  int declared;
  TU_OK(NULL, lsk_source_declared_domain(main_src, "k42", dom, &declared));
  ck_assert(declared == 1 && dom[0] == 42 && dom[1] == 1 && dom[2] == 1);
  TU_OK(NULL, lsk_source_declared_domain(main_src, "iota", dom, &declared));
  ck_assert(declared == 0 && dom[0] == 0);
  TU_OK(NULL, lsk_source_declared_domain("LSK_DECLARE_DOMAIN3(z, 2, 3, 4);", NULL, dom, &declared));
  ck_assert(declared == 1 && dom[0] == 2 && dom[1] == 3 && dom[2] == 4);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Launch shapes                                                       */

START_TEST(test_errors_launch_domain)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  lsk_buffer *b = tu_zeros(ctx, 64);
  lsk_launch cfg = {.domain = {0, 5}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_EINVAL, "'iota'");
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(ctx), "domain"));
  iota_works(ctx, f.iota);

  cfg = (lsk_launch){.domain = {1u << 25}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_EDOMAIN, "'iota'");
  ASSERT_NUM(lsk_context_errmsg(ctx), 1u << 25);
  cfg = (lsk_launch){.domain = {4096, 4096, 2}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_EDOMAIN, "4096x4096x2");
  iota_works(ctx, f.iota);

  /* iota declares no domain, and the launch gives none. */
  cfg = (lsk_launch){.blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_EDOMAIN, "'iota'");
  unsigned w, s;
  TU_FAILS(ctx, lsk_kernel_shape(f.iota, &cfg, &w, &s), LSK_EDOMAIN, "'iota'");
  TU_FAILS(ctx, lsk_program_build(f.prog, "iota", &cfg), LSK_EDOMAIN, "'iota'");
  iota_works(ctx, f.iota);
  lsk_buffer_destroy(b);
  teardown(&f);
}
END_TEST

START_TEST(test_errors_launch_declared_domain_conflict)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  unsigned dom[3];
  ck_assert_int_eq(lsk_kernel_declared_domain(f.k42, dom), 1);
  ck_assert_uint_eq(dom[0], 42);
  ck_assert_uint_eq(dom[1], 1);
  ck_assert_uint_eq(dom[2], 1);
  ck_assert_int_eq(lsk_kernel_declared_domain(f.iota, dom), 0);
  ck_assert_uint_eq(dom[0], 0);

  lsk_buffer *b = tu_zeros(ctx, 42);
  lsk_launch cfg = {.domain = {16}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(f.k42, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL), LSK_EDOMAIN,
           "42x1x1");
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(ctx), "16x1x1"));
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(ctx), "'k42'"));
  cfg.domain[0] = 42;
  cfg.domain[1] = 2;
  TU_FAILS(ctx, lsk_kernel_run(f.k42, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL), LSK_EDOMAIN,
           "42x2x1");

  for (unsigned d0 = 0; d0 <= 42; d0 += 42) {
    unsigned zero = 0;
    TU_OK(ctx, lsk_buffer_fill(b, &zero, 4, 0, 42 * 4, NULL));
    cfg = (lsk_launch){.domain = {d0}, .blocks = {1}};
    TU_OK(ctx, lsk_kernel_run(f.k42, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL));
    unsigned *h = tu_read_uints(ctx, b, 42);
    for (unsigned i = 0; i < 42; ++i)
      ck_assert_uint_eq(h[i], 42 + i);
    free(h);
  }
  /* {42, 1, 1} spelled out is the same domain. */
  cfg = (lsk_launch){.domain = {42, 1, 1}, .blocks = {1}};
  TU_OK(ctx, lsk_kernel_run(f.k42, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL));
  lsk_buffer_destroy(b);
  teardown(&f);
}
END_TEST

START_TEST(test_errors_launch_workers_and_blocks)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  const lsk_device_info *dev = lsk_context_device(ctx);
  size_t max = dev->max_work_group_size;
  if (dev->max_work_item_sizes[0] && dev->max_work_item_sizes[0] < max)
    max = dev->max_work_item_sizes[0];
  lsk_buffer *b = tu_zeros(ctx, 64);
  lsk_launch cfg = {.domain = {64}, .blocks = {1}, .workers = (unsigned)max + 1};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_ELAUNCH, "'iota'");
  ASSERT_NUM(lsk_context_errmsg(ctx), max + 1);
  cfg.workers = (unsigned)dev->max_work_group_size + 1;
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_ELAUNCH, "workers");
  unsigned w, s;
  TU_FAILS(ctx, lsk_kernel_shape(f.iota, &cfg, &w, &s), LSK_ELAUNCH, "workers");

  cfg = (lsk_launch){.domain = {64}, .blocks = {0}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_EINVAL, "blocks");
  cfg = (lsk_launch){.domain = {64}, .blocks = {0, 4}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_EINVAL, "blocks");
  cfg = (lsk_launch){.domain = {64}, .blocks = {1, (size_t)1 << 32}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL),
           LSK_ELAUNCH, "'iota'");

  /* Explicit workers within the limit work, and the shape reports them. */
  cfg = (lsk_launch){.domain = {64}, .blocks = {2}, .workers = 4};
  TU_OK(ctx, lsk_kernel_shape(f.iota, &cfg, &w, &s));
  ck_assert_uint_eq(w, 4);
  ck_assert_uint_ge((unsigned long)w * s, 1);
  TU_OK(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64)), NULL));
  unsigned *h = tu_read_uints(ctx, b, 64);
  for (unsigned i = 0; i < 64; ++i)
    ck_assert_uint_eq(h[i], 3u * i + 5u);
  free(h);
  lsk_buffer_destroy(b);
  iota_works(ctx, f.iota);
  teardown(&f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Arguments                                                           */

START_TEST(test_errors_args_count)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  lsk_buffer *b = tu_zeros(ctx, 64);
  lsk_launch cfg = {.domain = {64}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL), LSK_EARGS,
           "'iota'");
  ASSERT_NUM(lsk_context_errmsg(ctx), 2); /* takes 2 */
  ASSERT_NUM(lsk_context_errmsg(ctx), 1); /* given 1 */
  TU_FAILS(ctx,
           lsk_kernel_run(f.iota, &cfg,
                          LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(64), LSK_ARG_UINT(1)), NULL),
           LSK_EARGS, "'iota'");
  ASSERT_NUM(lsk_context_errmsg(ctx), 3);
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, NULL, 0, NULL), LSK_EARGS, "'iota'");
  ASSERT_NUM(lsk_context_errmsg(ctx), 0);
  TU_FAILS(ctx, lsk_kernel_launch(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL), LSK_EARGS,
           "'iota'");
  lsk_buffer_destroy(b);
  iota_works(ctx, f.iota);
  teardown(&f);
}
END_TEST

START_TEST(test_errors_args_type)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  lsk_buffer *b = tu_zeros(ctx, 64);
  lsk_launch cfg = {.domain = {64}, .blocks = {1}};
  /* A float for the uint n. */
  TU_FAILS(ctx,
           lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_FLOAT(64.0f)), NULL),
           LSK_EARGS, "'n'");
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(ctx), "LSK_ARG_FLOAT"));
  /* An int is not a uint either. */
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_INT(64)), NULL),
           LSK_EARGS, "'n'");
  /* A scalar for the __global pointer data. */
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_UINT(0), LSK_ARG_UINT(64)), NULL),
           LSK_EARGS, "'data'");
  /* A buffer for the scalar n. */
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_BUFFER(b)), NULL),
           LSK_EARGS, "'n'");
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(ctx), "LSK_ARG_BUFFER"));
  /* Local memory for a global pointer. */
  TU_FAILS(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_LOCAL(64), LSK_ARG_UINT(64)), NULL),
           LSK_EARGS, "'data'");
  /* Four bytes by value do fit a uint. */
  unsigned n = 64;
  TU_OK(ctx, lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_BYTES(&n, 4)), NULL));
  TU_FAILS(ctx,
           lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_BYTES(&n, 8)), NULL),
           LSK_EARGS, "'n'");
  TU_FAILS(ctx,
           lsk_kernel_run(f.iota, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_BYTES(NULL, 4)), NULL),
           LSK_EINVAL, "LSK_ARG_BYTES");
  lsk_buffer_destroy(b);
  iota_works(ctx, f.iota);
  teardown(&f);
}
END_TEST

START_TEST(test_errors_args_local)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  lsk_kernel *k = tu_kernel(f.prog, "scratch");
  enum { D = 64 };
  lsk_buffer *b = tu_zeros(ctx, D);
  lsk_launch cfg = {.domain = {D}, .blocks = {1}};
  TU_FAILS(ctx,
           lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_DYN_LOCAL, LSK_ARG_UINT(D)),
                          NULL),
           LSK_EINVAL, "local_bytes");
  uint64_t lmem = lsk_context_device(ctx)->local_mem_size;
  cfg.local_bytes = (size_t)lmem + 1;
  TU_FAILS(ctx,
           lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_DYN_LOCAL, LSK_ARG_UINT(D)),
                          NULL),
           LSK_ELAUNCH, "'scratch'");
  ASSERT_NUM(lsk_context_errmsg(ctx), lmem);
  TU_FAILS(
      ctx,
      lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_LOCAL(0), LSK_ARG_UINT(D)), NULL),
      LSK_EINVAL, "LSK_ARG_LOCAL");
  /* A scalar where __local memory goes. */
  TU_FAILS(
      ctx,
      lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(4), LSK_ARG_UINT(D)), NULL),
      LSK_EARGS, "'tmp'");

  /* Enough local memory: runs, and reverses the doubled indices. */
  cfg.local_bytes = D * sizeof(unsigned);
  TU_OK(ctx, lsk_kernel_run(k, &cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_DYN_LOCAL, LSK_ARG_UINT(D)), NULL));
  unsigned *h = tu_read_uints(ctx, b, D);
  for (unsigned i = 0; i < D; ++i)
    ck_assert_uint_eq(h[i], 2u * (D - 1 - i));
  free(h);
  TU_OK(ctx,
        lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_LOCAL(D * 4), LSK_ARG_UINT(D)),
                       NULL));
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
  teardown(&f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Kernels                                                             */

START_TEST(test_errors_kernel_not_in_program)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  lsk_kernel *k = NULL;
  TU_OK(ctx, lsk_kernel_create(f.prog, "nope", &k)); /* checked at the first build */
  lsk_launch cfg = {.domain = {16}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(k, &cfg, NULL, 0, NULL), LSK_ENOKERNEL, "'nope'");
  const char *msg = lsk_context_errmsg(ctx);
  ck_assert_ptr_nonnull(strstr(msg, "'main.cl'"));
  ck_assert_msg(strstr(msg, "iota") && strstr(msg, "k42") && strstr(msg, "scratch"),
                "message '%s' does not list the program's kernels", msg);
  TU_FAILS(ctx, lsk_program_build(f.prog, "nope", &cfg), LSK_ENOKERNEL, "'nope'");
  lsk_kernel_destroy(k);
  iota_works(ctx, f.iota);
  teardown(&f);
}
END_TEST

START_TEST(test_errors_kernel_without_ctx)
{
  fixture f = setup();
  lsk_context *ctx = f.ctx;
  lsk_kernel *k = tu_kernel(f.prog, "plain");
  lsk_buffer *b = tu_zeros(ctx, 64);
  lsk_launch cfg = {.domain = {16}, .blocks = {1}};
  TU_FAILS(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b)), NULL), LSK_EARGS, "LSK_CTX");
  ck_assert_ptr_nonnull(strstr(lsk_context_errmsg(ctx), "'plain'"));
  TU_FAILS(ctx, lsk_kernel_run(k, &cfg, NULL, 0, NULL), LSK_EARGS, "LSK_CTX");
  lsk_kernel_destroy(k);

  /* No parameters at all. NVIDIA's driver (580) cannot build an empty
   * kernel without parameters (its ptxas fails on the PTX it made): there
   * the build error is the answer. */
  lsk_program *p = tu_program(ctx, "noargs.cl", "__kernel void noargs(void) {}\n");
  k = tu_kernel(p, "noargs");
  int rc = lsk_kernel_run(k, &cfg, NULL, 0, NULL);
  if (!(rc == LSK_EBUILD && strstr(lsk_context_errmsg(ctx), "ptxas")))
    TU_FAILS(ctx, rc, LSK_EARGS, "LSK_CTX");
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_buffer_destroy(b);
  iota_works(ctx, f.iota);
  teardown(&f);
}
END_TEST

Suite *suite_errors(void)
{
  Suite *s = suite_create("errors");
  TCase *tc = tcase_create("null");
  tcase_add_test(tc, test_errors_null_context_calls);
  tcase_add_test(tc, test_errors_null_out_and_inputs);
  suite_add_tcase(s, tc);
  tc = tcase_create("buffer");
  tcase_add_test(tc, test_errors_buffer_create_sizes);
  tcase_add_test(tc, test_errors_buffer_out_of_range);
  tcase_add_test(tc, test_errors_buffer_fill_pattern);
  suite_add_tcase(s, tc);
  tc = tcase_create("program");
  tcase_add_test(tc, test_errors_program_source);
  tcase_add_test(tc, test_errors_kernel_create_name);
  tcase_add_test(tc, test_errors_declare_malformed);
  tcase_add_test(tc, test_errors_build_error_line);
  tcase_add_test(tc, test_errors_build_log_whole_text_lines);
  tcase_add_test(tc, test_errors_program_text_offline);
  suite_add_tcase(s, tc);
  tc = tcase_create("launch");
  tcase_add_test(tc, test_errors_launch_domain);
  tcase_add_test(tc, test_errors_launch_declared_domain_conflict);
  tcase_add_test(tc, test_errors_launch_workers_and_blocks);
  tcase_add_test(tc, test_errors_args_count);
  tcase_add_test(tc, test_errors_args_type);
  tcase_add_test(tc, test_errors_args_local);
  tcase_add_test(tc, test_errors_kernel_not_in_program);
  tcase_add_test(tc, test_errors_kernel_without_ctx);
  suite_add_tcase(s, tc);
  return s;
}
