/*
 * check_soa.c: SoA layouts on the device. A layout written once in C
 * (LSK_SOA_DEFINE) gives host accessors and, through its runtime
 * description, the OpenCL C of the kernels; results are compared with a
 * plain C computation. Also: range checks on device and host, several
 * layouts in one allocation, deep copies, array-of-structs conversion, and
 * the 16-byte access of double2 columns in PoCL's LLVM IR.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "testutil.h"

#include "parts.h"

/* The same members as an array of structs. */
typedef struct part_aos {
  double a;
  float b;
  float m[9];
  double v[3];
  cl_double2 w;
  cl_uint id;
  double s, out;
} part_aos;

static const lsk_aos_field aos_fields[] = {
    {"a", offsetof(part_aos, a)}, {"b", offsetof(part_aos, b)},    {"m", offsetof(part_aos, m)},
    {"v", offsetof(part_aos, v)}, {"w", offsetof(part_aos, w)},    {"id", offsetof(part_aos, id)},
    {"s", offsetof(part_aos, s)}, {"out", offsetof(part_aos, out)}};

static char *read_all(const char *path)
{
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return buf;
}

typedef struct fixture {
  lsk_context *ctx;
  lsk_layout *layout;
  char *cl;
  lsk_program *prog;
} fixture;

/* Built with -Werror: the generated code must compile without warnings.
 * 0 (nothing kept) on a device without fp64: the parts layout holds
 * doubles. */
static int setup(fixture *f, const char *build_options)
{
  char opts[256];
  snprintf(opts, sizeof opts, "-Werror %s", build_options ? build_options : "");
  f->ctx = tu_context();
  if (!tu_fp64(f->ctx, "the parts layout holds doubles")) {
    lsk_context_destroy(f->ctx);
    return 0;
  }
  TU_OK(NULL, parts_describe(&f->layout));
  TU_OK(NULL, lsk_layout_emit_cl(f->layout, NULL, &f->cl));
  TU_OK(f->ctx,
        lsk_program_create(f->ctx, read_all(LSK_TEST_DIR "/soa_kernels.cl"),
                           &(lsk_program_options){
                               .name = "soa_kernels.cl", .prelude = f->cl, .build_options = opts},
                           &f->prog));
  return 1;
}

static void teardown(fixture *f)
{
  lsk_program_destroy(f->prog);
  lsk_free(f->cl);
  lsk_layout_destroy(f->layout);
  lsk_context_destroy(f->ctx);
}

/* An soa of one part of n elements, bound to h, filled and uploaded. */
static lsk_soa *filled_soa(fixture *f, size_t n, parts *h)
{
  lsk_soa *soa = NULL;
  TU_OK(f->ctx, lsk_soa_create(f->ctx, 1, (const lsk_layout *const[]){f->layout}, &n, &soa));
  TU_OK(NULL, parts_bind(h, lsk_soa_host(soa, 0), n));
  parts_fill(h, n);
  TU_OK(f->ctx, lsk_soa_upload(soa, NULL));
  return soa;
}

static void run(fixture *f, lsk_kernel *k, lsk_soa *soa, size_t part, const lsk_launch *cfg,
                const lsk_arg *extra, size_t nextra)
{
  lsk_arg args[16];
  size_t n = 0;
  TU_OK(f->ctx, lsk_soa_args(soa, part, NULL, args, 16, &n));
  ck_assert_uint_eq(n, 8 + 2);
  for (size_t i = 0; i < nextra; ++i)
    args[n++] = extra[i];
  TU_OK(f->ctx, lsk_kernel_run(k, cfg, args, n, NULL));
}

/* Host fill, device compute through the generated accessors, host compare,
 * for several shapes and counts that are multiples of nothing. */
START_TEST(test_soa_round_trip)
{
  static const size_t counts[] = {1, 17, 1000003};
  static const unsigned shapes[][2] = {{0, 0}, {8, 4}, {32, 1}, {1, 16}};
  fixture f;
  if (!setup(&f, NULL))
    return;
  lsk_kernel *k = tu_kernel(f.prog, "compute");
  for (size_t c = 0; c < 3; ++c) {
    size_t n = counts[c];
    lsk_soa *soa = NULL;
    TU_OK(f.ctx, lsk_soa_create(f.ctx, 1, (const lsk_layout *const[]){f.layout}, &n, &soa));
    ck_assert_uint_eq(lsk_soa_bytes(soa), parts_bytes(n));
    parts h;
    TU_OK(NULL, parts_bind(&h, lsk_soa_host(soa, 0), n));
    for (size_t s = 0; s < (n > 100 ? 2 : 4); ++s) {
      parts_fill(&h, n);
      TU_OK(f.ctx, lsk_soa_upload(soa, NULL));
      lsk_launch cfg = {.domain = {256},
                        .blocks = {(n + 255) / 256 < 64 ? (n + 255) / 256 : 64},
                        .workers = shapes[s][0],
                        .simd = shapes[s][1]};
      run(&f, k, soa, 0, &cfg, NULL, 0);
      TU_OK(f.ctx, lsk_soa_download(soa, NULL));
      for (size_t i = 0; i < n; ++i) {
        double want = parts_reference(&h, i);
        ck_assert_msg(fabs(h.out[i] - want) <= 1e-12 * (1 + fabs(want)),
                      "n=%zu W=%u S=%u: out[%zu] = %.17g, want %.17g", n, shapes[s][0],
                      shapes[s][1], i, h.out[i], want);
        ck_assert_msg(h.m[i + 4 * h.m_stride] == (float)i, "m(1,1) of %zu", i);
      }
    }
    lsk_soa_destroy(soa);
  }
  lsk_kernel_destroy(k);
  teardown(&f);
}
END_TEST

/* Transfers on a queue of the caller's (issue 27): a download with
 * LSK_ASYNC_NONBLOCKING behind a held event returns at once and leaves the
 * host memory alone until the event completes; its event then delivers
 * the device's bytes. A blocking upload on that queue is done on return:
 * the host copy may change at once. */
START_TEST(test_soa_on_queue)
{
  fixture f;
  if (!setup(&f, NULL))
    return;
  size_t n = 1000;
  parts h;
  lsk_soa *soa = filled_soa(&f, n, &h);
  size_t bytes = lsk_soa_bytes(soa);
  unsigned char *want = malloc(bytes);
  memcpy(want, lsk_soa_host(soa, 0), bytes);
  lsk_queue *q = NULL;
  TU_OK(f.ctx, lsk_queue_create(f.ctx, NULL, &q));
  memset(lsk_soa_host(soa, 0), 0, bytes);
  lsk_event *gate = NULL, *done = NULL;
  TU_OK(f.ctx, lsk_event_user_create(f.ctx, &gate));
  TU_OK(f.ctx, lsk_soa_download(soa, &(lsk_async){.queue = q,
                                                  .wait = &gate,
                                                  .nwait = 1,
                                                  .event = &done,
                                                  .flags = LSK_ASYNC_NONBLOCKING}));
  ck_assert_ptr_nonnull(done);
  const unsigned char *host = lsk_soa_host(soa, 0);
  for (size_t i = 0; i < bytes; ++i)
    ck_assert_msg(host[i] == 0, "byte %zu written before the gate opened", i);
  TU_OK(f.ctx, lsk_event_user_complete(gate));
  TU_OK(f.ctx, lsk_event_wait(done));
  ck_assert_msg(memcmp(host, want, bytes) == 0, "the non-blocking download's bytes");
  lsk_event_release(done);
  /* Blocking: the device has the bytes when it returns, the host copy is
   * free to change. */
  parts_fill(&h, n);
  memcpy(want, host, bytes);
  TU_OK(f.ctx, lsk_soa_upload(soa, &(lsk_async){.queue = q}));
  memset(lsk_soa_host(soa, 0), 0, bytes);
  TU_OK(f.ctx, lsk_soa_download(soa, NULL));
  ck_assert_msg(memcmp(host, want, bytes) == 0, "the blocking upload's bytes");
  lsk_event_release(gate);
  TU_OK(f.ctx, lsk_queue_destroy(q));
  free(want);
  lsk_soa_destroy(soa);
  teardown(&f);
}
END_TEST

/* Range checking on: index n and -1 raise the verify error naming the
 * kernel file and line of the call, layout, member, index and size, and
 * nothing is written. Off: no check code. */
START_TEST(test_soa_device_range_check)
{
  fixture f;
  if (!setup(&f, "-DPARTS_CHECK=1"))
    return;
  lsk_kernel *k = tu_kernel(f.prog, "out_of_range");
  size_t n = 17;
  parts h = {0};
  lsk_soa *soa = filled_soa(&f, n, &h);
  lsk_buffer *got = NULL;
  TU_OK(f.ctx, lsk_buffer_create(f.ctx, sizeof(double), &got));
  double sentinel = 1234.5;
  static const int bad[] = {17, -1};
  for (int c = 0; c < 2; ++c) {
    TU_OK(f.ctx, lsk_buffer_write(got, 0, &sentinel, sizeof sentinel, NULL));
    lsk_arg args[16];
    size_t na = 0;
    TU_OK(f.ctx, lsk_soa_args(soa, 0, NULL, args, 16, &na));
    args[na++] = LSK_ARG_INT(bad[c]);
    args[na++] = LSK_ARG_BUFFER(got);
    lsk_launch cfg = {.domain = {1}, .blocks = {1}};
    int rc = lsk_kernel_run(k, &cfg, args, na, NULL);
    ck_assert_int_eq(rc, LSK_EVERIFY);
    /* The failure names the user's line (tests/soa_kernels.cl:39, where
     * out_of_range calls parts_a), not the generated accessor's. */
    char want[128];
    snprintf(want, sizeof want,
             "at soa_kernels.cl:39: layout 'parts' member 'a': index %d out of range [0, 17) (3 "
             "failures)",
             bad[c]);
    ck_assert_msg(strstr(lsk_context_errmsg(f.ctx), want), "'%s' lacks '%s'",
                  lsk_context_errmsg(f.ctx), want);
    double g;
    TU_OK(f.ctx, lsk_buffer_read(got, 0, &g, sizeof g, NULL));
    ck_assert_msg(g == 0.0, "the failed read returns 0, got %g", g);
    /* Nothing was written: the whole allocation is as uploaded. */
    unsigned char *before = malloc(lsk_soa_bytes(soa));
    memcpy(before, lsk_soa_host(soa, 0), lsk_soa_bytes(soa));
    TU_OK(f.ctx, lsk_soa_download(soa, NULL));
    ck_assert_int_eq(memcmp(before, lsk_soa_host(soa, 0), lsk_soa_bytes(soa)), 0);
    free(before);
  }
  lsk_buffer_destroy(got);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  teardown(&f);
}
END_TEST

/* Host accessors: typed, checked forms give LSK_ERANGE with a message. */
START_TEST(test_soa_host_accessors)
{
  size_t n = 5;
  void *mem = aligned_alloc(128, parts_bytes(n));
  parts h = {0};
  TU_OK(NULL, parts_bind(&h, mem, n));
  double d = 0;
  TU_OK(NULL, LSK_SOA_SET(&h, a, 4, 2.5));
  TU_OK(NULL, LSK_SOA_GET(&h, a, 4, &d));
  ck_assert(d == 2.5);
  /* A failure names this file and the line of the call, the layout and the
   * member. */
  char want[512];
  int line = __LINE__, rc = LSK_SOA_GET(&h, a, 5, &d);
  snprintf(want, sizeof want, "%s:%d: layout 'parts' member 'a': index 5 out of range [0, 5)",
           __FILE__, line);
  ck_assert_int_eq(rc, LSK_ERANGE);
  ck_assert_str_eq(lsk_context_errmsg(NULL), want);
  line = __LINE__, rc = LSK_SOA_SET(&h, b, (size_t)-1, 1.0f);
  snprintf(want, sizeof want, "%s:%d: layout 'parts' member 'b': index %zu out of range [0, 5)",
           __FILE__, line, (size_t)-1);
  ck_assert_int_eq(rc, LSK_ERANGE);
  ck_assert_str_eq(lsk_context_errmsg(NULL), want);
  /* A buffer not aligned to A is refused, naming the layout. */
  TU_FAILS(NULL, parts_bind(&h, (char *)mem + 8, n), LSK_EINVAL, "layout 'parts': memory at");
  free(mem);
  /* The compile-time and runtime rules agree for many n. */
  lsk_layout *l = NULL;
  TU_OK(NULL, parts_describe(&l));
  for (size_t k = 0; k < 300; k += 7) {
    size_t bytes;
    TU_OK(NULL, lsk_layout_size(l, k, &bytes));
    ck_assert_uint_eq(bytes, parts_bytes(k));
  }
  ck_assert_uint_eq(parts_bytes(SIZE_MAX / 2), SIZE_MAX);
  lsk_layout_destroy(l);
}
END_TEST

/* Two layouts in one allocation (nextByte), the second one's kernel leaves
 * the first untouched; deep copies; array-of-structs in and out. */
START_TEST(test_soa_parts_copy_aos)
{
  fixture f;
  if (!setup(&f, NULL))
    return;
  lsk_kernel *k = tu_kernel(f.prog, "compute");
  size_t counts[2] = {17, 40};
  lsk_soa *soa = NULL;
  TU_OK(f.ctx,
        lsk_soa_create(f.ctx, 2, (const lsk_layout *const[]){f.layout, f.layout}, counts, &soa));
  ck_assert_uint_eq(lsk_soa_base(soa, 1), parts_bytes(17));
  ck_assert_uint_eq(lsk_soa_bytes(soa), parts_bytes(17) + parts_bytes(40));
  parts p0 = {0}, p1 = {0};
  TU_OK(NULL, parts_bind(&p0, lsk_soa_host(soa, 0), 17));
  TU_OK(NULL, parts_bind(&p1, lsk_soa_host(soa, 1), 40));
  parts_fill(&p0, 17);
  parts_fill(&p1, 40);
  TU_OK(f.ctx, lsk_soa_upload(soa, NULL));
  lsk_launch cfg = {.domain = {64}, .blocks = {1}};
  run(&f, k, soa, 1, &cfg, NULL, 0);
  TU_OK(f.ctx, lsk_soa_download(soa, NULL));
  for (size_t i = 0; i < 40; ++i)
    ck_assert(fabs(p1.out[i] - parts_reference(&p1, i)) <= 1e-12 * (1 + fabs(p1.out[i])));
  for (size_t i = 0; i < 17; ++i)
    ck_assert(p0.out[i] == -1);

  /* AoS out of part 1, into a fresh soa, and back: equal. */
  part_aos *rows = calloc(40, sizeof *rows);
  TU_OK(f.ctx, lsk_soa_to_aos(soa, 1, rows, 40, sizeof *rows, aos_fields, 8));
  ck_assert(rows[39].a == p1.a[39] && rows[39].m[4] == 39.0f &&
            rows[3].v[2] == p1.v[3 + 2 * p1.v_stride]);
  ck_assert(rows[5].s == 1.5 && rows[7].w.s[1] == p1.w[7].s[1]);
  size_t n2 = 64;
  lsk_soa *other = NULL;
  TU_OK(f.ctx, lsk_soa_create(f.ctx, 1, (const lsk_layout *const[]){f.layout}, &n2, &other));
  TU_OK(f.ctx, lsk_soa_from_aos(other, 0, rows, 40, sizeof *rows, aos_fields, 8));
  parts q = {0};
  TU_OK(NULL, parts_bind(&q, lsk_soa_host(other, 0), 64));
  for (size_t i = 0; i < 40; ++i) {
    ck_assert(q.a[i] == p1.a[i] && q.id[i] == p1.id[i] && q.out[i] == p1.out[i]);
    for (int c = 0; c < 9; ++c)
      ck_assert(q.m[i + c * q.m_stride] == p1.m[i + c * p1.m_stride]);
  }
  TU_FAILS(f.ctx, lsk_soa_from_aos(other, 0, rows, 65, sizeof *rows, aos_fields, 8), LSK_ERANGE,
           "65 structs");
  TU_FAILS(f.ctx,
           lsk_soa_from_aos(other, 0, rows, 1, sizeof *rows, (lsk_aos_field[]){{"nope", 0}}, 1),
           LSK_EINVAL, "no member 'nope'");

  /* Deep copy into a bigger target works; into a smaller one it does not. */
  TU_OK(f.ctx, lsk_soa_copy(other, 0, soa, 0));
  for (size_t i = 0; i < 17; ++i)
    ck_assert(q.a[i] == p0.a[i] && q.v[i + 2 * q.v_stride] == p0.v[i + 2 * p0.v_stride]);
  TU_FAILS(f.ctx, lsk_soa_copy(soa, 0, other, 0), LSK_ERANGE, "holds 17 elements");
  /* A layout with fewer members copies into this one; the other way fails. */
  lsk_layout *sub = NULL;
  TU_OK(NULL, lsk_layout_create("sub", 128, &sub));
  TU_OK(NULL, lsk_layout_add_column(sub, "double", "a"));
  TU_OK(NULL, lsk_layout_add_column(sub, "double", "extra"));
  size_t ns = 10;
  lsk_soa *subsoa = NULL;
  TU_OK(f.ctx, lsk_soa_create(f.ctx, 1, (const lsk_layout *const[]){sub}, &ns, &subsoa));
  TU_FAILS(f.ctx, lsk_soa_copy(other, 0, subsoa, 0), LSK_EINVAL, "no member 'extra'");
  TU_FAILS(f.ctx, lsk_soa_copy(subsoa, 0, other, 0), LSK_ERANGE, "holds 10");
  lsk_soa_destroy(subsoa);
  lsk_layout_destroy(sub);
  free(rows);
  lsk_soa_destroy(other);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  teardown(&f);
}
END_TEST

/* The const view reads what the host wrote. */
START_TEST(test_soa_const_view)
{
  fixture f;
  if (!setup(&f, NULL))
    return;
  lsk_kernel *k = tu_kernel(f.prog, "sum_a");
  size_t n = 100;
  parts h = {0};
  lsk_soa *soa = filled_soa(&f, n, &h);
  lsk_buffer *total = NULL;
  TU_OK(f.ctx, lsk_buffer_create(f.ctx, sizeof(double), &total));
  lsk_launch cfg = {.domain = {8}, .blocks = {1}};
  run(&f, k, soa, 0, &cfg, (lsk_arg[]){LSK_ARG_BUFFER(total)}, 1);
  double got, want = 0;
  TU_OK(f.ctx, lsk_buffer_read(total, 0, &got, sizeof got, NULL));
  for (size_t i = 0; i < n; ++i)
    want += h.a[i];
  ck_assert(got == want);
  lsk_buffer_destroy(total);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  teardown(&f);
}
END_TEST

/* A view over two layouts of equal length in one allocation; parts of
 * different lengths are refused, and so are clashing member names. */
START_TEST(test_soa_view_of_two_layouts)
{
  lsk_context *ctx = tu_context();
  if (!tu_fp64(ctx, "test_soa_view_of_two_layouts (column double charge)")) {
    lsk_context_destroy(ctx);
    return;
  }
  lsk_layout *hits = NULL, *clus = NULL;
  TU_OK(NULL, lsk_layout_parse("layout hits\ncolumn float x\ncolumn float y\ncolumn int skip\n",
                               "hits", &hits));
  TU_OK(NULL, lsk_layout_parse("layout clus align 64\nmatrix float 2 1 q\ncolumn double charge\n",
                               "clus", &clus));
  const lsk_layout *both[2] = {hits, clus};
  const char *members[2] = {"x,y", NULL};
  char *cl = NULL;
  TU_OK(NULL, lsk_layout_emit_view_cl("hc", 2, both, members, &cl));
  const char *src = "LSK_KERNEL void merged(LSK_CTX, HC_PARAMS(h))\n"
                    "{\n"
                    "  hc_view v = HC_VIEW(h);\n"
                    "  LSK_FOREACH(it) {\n"
                    "    if (it.idx < h_n)\n"
                    "      hc_set_charge(v, it.idx, hc_x(v, it.idx) + hc_y(v, it.idx) + "
                    "hc_q(v, it.idx, 1, 0));\n"
                    "  }\n"
                    "}\n";
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(ctx, src,
                                &(lsk_program_options){
                                    .name = "merged.cl", .prelude = cl, .build_options = "-Werror"},
                                &p));
  lsk_kernel *k = tu_kernel(p, "merged");
  size_t counts[3] = {50, 49, 50};
  const lsk_layout *parts3[3] = {hits, clus, clus};
  lsk_soa *soa = NULL;
  TU_OK(ctx, lsk_soa_create(ctx, 3, parts3, counts, &soa));
  lsk_member_info mx, my, mq, mc;
  TU_OK(NULL, lsk_layout_member(hits, 0, 50, &mx));
  TU_OK(NULL, lsk_layout_member(hits, 1, 50, &my));
  TU_OK(NULL, lsk_layout_member(clus, 0, 50, &mq));
  TU_OK(NULL, lsk_layout_member(clus, 1, 50, &mc));
  unsigned char *h0 = lsk_soa_host(soa, 0), *h2 = lsk_soa_host(soa, 2);
  float *x = (float *)(h0 + mx.offset), *y = (float *)(h0 + my.offset);
  float *q1 = (float *)(h2 + mq.offset) + mq.stride; /* component (1, 0) */
  for (size_t i = 0; i < 50; ++i) {
    x[i] = (float)i;
    y[i] = 0.5f * (float)i;
    q1[i] = 100.0f;
  }
  TU_OK(ctx, lsk_soa_upload(soa, NULL));
  lsk_arg args[16];
  size_t na = 0;
  /* Parts 0 and 1 differ in length: refused. */
  TU_FAILS(ctx, lsk_soa_view_args(soa, 2, (size_t[]){0, 1}, members, args, 16, &na), LSK_EINVAL,
           "a view needs equal lengths: part 0 ('hits') has 50 elements, part 1 ('clus') 49");
  TU_OK(ctx, lsk_soa_view_args(soa, 2, (size_t[]){0, 2}, members, args, 16, &na));
  ck_assert_uint_eq(na, 2 + 2 + 2 + 1);
  lsk_launch cfg = {.domain = {64}, .blocks = {1}};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, args, na, NULL));
  TU_OK(ctx, lsk_soa_download(soa, NULL));
  double *charge = (double *)(h2 + mc.offset);
  for (size_t i = 0; i < 50; ++i)
    ck_assert_msg(charge[i] == 1.5 * (double)i + 100.0, "charge[%zu] = %g", i, charge[i]);
  /* The part in between was not touched. */
  double *other = (double *)((unsigned char *)lsk_soa_host(soa, 1) + mc.offset);
  for (size_t i = 0; i < 49; ++i)
    ck_assert(other[i] == 0.0);
  /* Clashing names, a layout twice. */
  char *bad = NULL;
  TU_FAILS(NULL,
           lsk_layout_emit_view_cl("hh", 2, (const lsk_layout *const[]){hits, hits}, NULL, &bad),
           LSK_EINVAL, "layout 'hits' appears twice");
  lsk_layout *clash = NULL;
  TU_OK(NULL, lsk_layout_parse("layout clash\ncolumn float x\n", "clash", &clash));
  TU_FAILS(NULL,
           lsk_layout_emit_view_cl("hx", 2, (const lsk_layout *const[]){hits, clash}, NULL, &bad),
           LSK_EINVAL, "member 'x' is in layouts 'hits' and 'clash'");
  ck_assert_ptr_null(bad);
  lsk_layout_destroy(clash);
  lsk_soa_destroy(soa);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_free(cl);
  lsk_layout_destroy(hits);
  lsk_layout_destroy(clus);
  lsk_context_destroy(ctx);
}
END_TEST

/* Every file called name below dir, up to max of them, into paths. */
static size_t find_files(const char *dir, const char *name, char (*paths)[1024], size_t n,
                         size_t max)
{
  DIR *d = opendir(dir);
  if (!d)
    return n;
  struct dirent *e;
  while (n < max && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(sub, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode))
      n = find_files(sub, name, paths, n, max);
    else if (strcmp(e->d_name, name) == 0)
      snprintf(paths[n++], sizeof paths[0], "%s", sub);
  }
  closedir(d);
  return n;
}

/* The disassembly of an LLVM bitcode file through llvm-dis-15 (malloc'd). */
static char *disassemble(const char *bc)
{
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "llvm-dis-15 -o - '%s' 2>/dev/null", bc);
  FILE *pipe = popen(cmd, "r");
  ck_assert_ptr_nonnull(pipe);
  size_t cap = 1 << 22, len = 0;
  char *ir = malloc(cap);
  size_t got;
  while ((got = fread(ir + len, 1, cap - 1 - len, pipe)) > 0)
    len += got;
  ir[len] = 0;
  ck_assert_msg(pclose(pipe) == 0 && len > 0, "llvm-dis-15 failed (package llvm-15)");
  return ir;
}

/* The body of function fn in LLVM IR text (from "define" to "}"). */
static char *ir_function(const char *ir, const char *fn)
{
  char pat[128];
  snprintf(pat, sizeof pat, "@%s(", fn);
  return tu_function_text(ir, pat);
}

/* A double2 column loads as one 16-byte access; a struct of two doubles
 * aligned to 8 loads as two 8-byte ones. Read in the LLVM IR that PoCL
 * keeps with POCL_LEAVE_KERNEL_COMPILER_TEMP_FILES, through llvm-dis-15. */
START_TEST(test_soa_double2_loads_16_bytes)
{
  char dir[512];
  tu_tempdir(dir, sizeof dir, "ir");
  setenv("POCL_LEAVE_KERNEL_COMPILER_TEMP_FILES", "1", 1);
  setenv("POCL_CACHE_DIR", dir, 1);
  lsk_context *ctx = tu_context();
  if (!strstr(lsk_context_device(ctx)->platform_vendor, "pocl")) {
    lsk_context_destroy(ctx);
    fprintf(stderr, "test_soa_double2_loads_16_bytes: not PoCL, nothing to inspect\n");
    return;
  }
  lsk_layout *l = NULL;
  char *cl = NULL;
  TU_OK(NULL, lsk_layout_parse("layout cplx\ncolumn double2 z\n", "cplx", &l));
  TU_OK(NULL, lsk_layout_emit_cl(l, NULL, &cl));
  const char *src =
      "typedef struct __attribute__((aligned(8))) { double re, im; } cplx8;\n"
      "LSK_KERNEL void soa_load(LSK_CTX, CPLX_CONST_PARAMS(c), __global double *out)\n"
      "{\n"
      "  cplx_const_view v = CPLX_CONST_VIEW(c);\n"
      "  LSK_FOREACH(it) { double2 z = cplx_const_z(v, it.idx); out[it.idx] = z.x * z.y; }\n"
      "}\n"
      "LSK_KERNEL void aos_load(LSK_CTX, __global const cplx8 *in, __global double *out)\n"
      "{\n"
      "  LSK_FOREACH(it) { cplx8 z = in[it.idx]; out[it.idx] = z.re * z.im; }\n"
      "}\n";
  lsk_program *p = NULL;
  TU_OK(ctx,
        lsk_program_create(ctx, src, &(lsk_program_options){.name = "ir.cl", .prelude = cl}, &p));
  TU_OK(ctx, lsk_program_build(p, "soa_load", &(lsk_launch){.domain = {64}, .blocks = {1}}));
  /* PoCL keeps one program.bc per program built in the directory (the
   * context's probe too): take the one that holds the kernel. */
  char bcs[8][1024];
  size_t nbc = find_files(dir, "program.bc", bcs, 0, 8);
  ck_assert_msg(nbc > 0, "PoCL left no program.bc in %s", dir);
  char *ir = NULL;
  for (size_t i = 0; i < nbc && !ir; ++i) {
    ir = disassemble(bcs[i]);
    if (!strstr(ir, "@soa_load(")) {
      free(ir);
      ir = NULL;
    }
  }
  ck_assert_msg(ir != NULL, "no program.bc in %s holds soa_load", dir);
  char *soa = ir_function(ir, "soa_load"), *aos = ir_function(ir, "aos_load");
  ck_assert_msg(strstr(soa, "load <2 x double>") && strstr(soa, "align 16"),
                "soa_load has no 16-byte <2 x double> load:\n%s", soa);
  ck_assert_msg(!strstr(aos, "load <2 x double>") && strstr(aos, "load double") &&
                    strstr(aos, "align 8"),
                "aos_load should load two doubles with align 8:\n%s", aos);
  free(soa);
  free(aos);
  free(ir);
  lsk_program_destroy(p);
  lsk_free(cl);
  lsk_layout_destroy(l);
  lsk_context_destroy(ctx);
  ck_assert_int_eq(tu_remove_tree(dir), 0);
}
END_TEST

Suite *suite_soa(void)
{
  Suite *s = suite_create("soa");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_soa_round_trip);
  tcase_add_test(tc, test_soa_on_queue);
  tcase_add_test(tc, test_soa_device_range_check);
  tcase_add_test(tc, test_soa_host_accessors);
  tcase_add_test(tc, test_soa_parts_copy_aos);
  tcase_add_test(tc, test_soa_const_view);
  tcase_add_test(tc, test_soa_view_of_two_layouts);
  tcase_add_test(tc, test_soa_double2_loads_16_bytes);
  suite_add_tcase(s, tc);
  return s;
}
