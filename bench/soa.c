/*
 * bench/soa.c: the triad a = b + 3c through the OpenCL C views that lsk
 * generates for an SoA layout (one restrict pointer per column, see
 * docs/soa.md), against the raw triad with plain pointers to the same
 * columns (sub-buffers of the SoA buffer), all interleaved in one run.
 * Informative rows: the raw triad on the SoA buffer against the raw triad
 * on three separate buffers (where the columns sit in memory), the same
 * and the views on a layout with lsk's column stagger (docs/soa.md), and
 * the triad over an array of structs against the SoA views.
 *
 * The SoA kernels are written as bench_kernels.cl's triad, in the two
 * habits that CPUs reward (docs/lockstep.md, "The last data block"):
 * ForEach's count for the last data block rather than a test in the body,
 * and lsk_sync() after each data block. The raw triads are the unguarded
 * kernel on a grid of exactly n (n is a power of two), as the limit's. On
 * PoCL the guarded forms ran at 0.3 to 0.5 of the limit
 * (docs/perf/soa.md, "The case's kernels in the CPU habits").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The stagger of the staggered rows: one 4 KiB page plus 128 bytes, so
 * that the columns differ both in their low 12 address bits and above
 * them; chosen by measurement on a Zen 3 (docs/perf/soa.md, "Column
 * stagger"); -DSOA_STAGGER=S builds another. */
#ifndef SOA_STAGGER
#define SOA_STAGGER 4224
#endif

static const char *source =
    "typedef struct tri_aos { double a, b, c; } tri_aos;\n"
    "LSK_KERNEL void soa_triad(LSK_CTX, TRI_PARAMS(t), double s)\n"
    "{\n"
    "  tri_view v = TRI_VIEW(t);\n"
    "  LSK_BLOCKS(blk, (t_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    uint base = blk * LSK_DOMAIN_SIZE;\n"
    "    LSK_FOREACH_N(it, lsk_domain_count(base, t_n)) {\n"
    "      uint i = base + it.idx;\n"
    "      tri_set_a(v, i, tri_b(v, i) + s * tri_c(v, i));\n"
    "    }\n"
    "    lsk_sync();\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void soa_triad_stagger(LSK_CTX, TRIS_PARAMS(t), double s)\n"
    "{\n"
    "  tris_view v = TRIS_VIEW(t);\n"
    "  LSK_BLOCKS(blk, (t_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    uint base = blk * LSK_DOMAIN_SIZE;\n"
    "    LSK_FOREACH_N(it, lsk_domain_count(base, t_n)) {\n"
    "      uint i = base + it.idx;\n"
    "      tris_set_a(v, i, tris_b(v, i) + s * tris_c(v, i));\n"
    "    }\n"
    "    lsk_sync();\n"
    "  }\n"
    "}\n"
    "/* The array of structs keeps the test in the body: PoCL then leaves it\n"
    " * scalar, and its partly vectorized count form was no faster in trial\n"
    " * runs (docs/perf/soa.md). */\n"
    "LSK_KERNEL void aos_triad(LSK_CTX, __global tri_aos *restrict p, double s, uint n)\n"
    "{\n"
    "  LSK_BLOCKS(blk, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = blk * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n)\n"
    "        p[i].a = p[i].b + s * p[i].c;\n"
    "    }\n"
    "  }\n"
    "}\n";

/* One SoA placement of the three columns: the layout (plain or staggered),
 * its allocation, the raw triad on its columns (sub-buffers) and the
 * views' kernel with its arguments. */
typedef struct placement {
  lsk_layout *layout;
  char *cl;
  lsk_soa *soa;
  cl_mem sub[3];
  cl_kernel raw;
  lsk_kernel *k;
  lsk_arg args[16];
  size_t nargs;
  size_t offset_a; /* of column a in the SoA buffer */
} placement;

typedef struct soa_case {
  placement pl[2]; /* 0: the byte rule, 1: staggered */
  lsk_program *prog;
  lsk_kernel *aos_k;
  lsk_buffer *aos;
} soa_case;

static void placement_free(placement *p)
{
  if (p->raw)
    clReleaseKernel(p->raw);
  for (int i = 0; i < 3; ++i)
    if (p->sub[i])
      clReleaseMemObject(p->sub[i]);
  lsk_kernel_destroy(p->k);
  lsk_soa_destroy(p->soa);
  lsk_free(p->cl);
  lsk_layout_destroy(p->layout);
}

static void teardown(soa_case *c)
{
  for (int j = 0; j < 2; ++j)
    placement_free(&c->pl[j]);
  lsk_kernel_destroy(c->aos_k);
  lsk_program_destroy(c->prog);
  lsk_buffer_destroy(c->aos);
}

/* The layout and its views' code. */
static int placement_layout(placement *p, const char *text)
{
  int rc = lsk_layout_parse(text, "tri", &p->layout);
  return rc ? rc : lsk_layout_emit_cl(p->layout, NULL, &p->cl);
}

/* Allocation (b and c from the triad's arrays, a zero), the views' kernel
 * and arguments, the raw triad on the columns. */
static int placement_setup(bench *bn, triad *t, placement *p, lsk_program *prog, const char *kname)
{
  lsk_member_info m[3];
  for (size_t i = 0; i < 3; ++i)
    lsk_layout_member(p->layout, i, t->n, &m[i]); /* a, b, c in order */
  p->offset_a = m[0].offset;
  int rc = lsk_kernel_create(prog, kname, &p->k) ||
           lsk_soa_create(bn->ctx, 1, (const lsk_layout *const[]){p->layout}, &t->n, &p->soa);
  if (!rc) {
    unsigned char *host = lsk_soa_host(p->soa, 0);
    memcpy(host + m[1].offset, t->b, t->n * sizeof(double));
    memcpy(host + m[2].offset, t->c, t->n * sizeof(double));
    rc = lsk_soa_upload(p->soa, NULL) || lsk_soa_args(p->soa, 0, NULL, p->args, 15, &p->nargs);
  }
  if (rc)
    return cli_fail("bench", "soa setup: %s", lsk_context_errmsg(bn->ctx));
  p->args[p->nargs++] = LSK_ARG_DOUBLE(3.0);
  /* The raw triad with plain pointers to the SoA columns: sub-buffers. */
  cl_int err = CL_SUCCESS;
  p->raw = clCreateKernel(bn->raw, "raw_triad_exact", &err);
  for (int i = 0; i < 3 && !err; ++i) {
    cl_buffer_region r = {m[i].offset, t->n * sizeof(double)};
    p->sub[i] = clCreateSubBuffer(lsk_buffer_cl(lsk_soa_buffer(p->soa)), CL_MEM_READ_WRITE,
                                  CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    if (!err)
      err = clSetKernelArg(p->raw, (cl_uint)i, sizeof(cl_mem), &p->sub[i]);
  }
  double s3 = 3.0;
  if (!err)
    err = clSetKernelArg(p->raw, 3, sizeof s3, &s3);
  if (err)
    return cli_fail("bench", "soa: raw triad on sub-buffers: %s", lsk_status_name(err));
  return 0;
}

static int setup(bench *bn, triad *t, soa_case *c)
{
  char stag[128];
  snprintf(stag, sizeof stag,
           "layout tris stagger %d\ncolumn double a\ncolumn double b\ncolumn double c\n",
           SOA_STAGGER);
  int rc = placement_layout(&c->pl[0],
                            "layout tri\ncolumn double a\ncolumn double b\ncolumn double c\n") ||
           placement_layout(&c->pl[1], stag);
  size_t len = rc ? 0 : strlen(c->pl[0].cl) + strlen(c->pl[1].cl) + 2;
  char *prelude = rc ? NULL : malloc(len);
  if (!rc && prelude)
    snprintf(prelude, len, "%s\n%s", c->pl[0].cl, c->pl[1].cl);
  if (rc || !prelude) {
    free(prelude);
    return cli_fail("bench", "soa: %s", rc ? lsk_context_errmsg(NULL) : "out of memory");
  }
  size_t aos_bytes = t->n * 3 * sizeof(double);
  double *rows = malloc(aos_bytes);
  rc = !rows ||
       lsk_program_create(bn->ctx, source,
                          &(lsk_program_options){.name = "bench_soa.cl", .prelude = prelude},
                          &c->prog) ||
       lsk_kernel_create(c->prog, "aos_triad", &c->aos_k) ||
       lsk_buffer_create(bn->ctx, aos_bytes, &c->aos);
  free(prelude);
  for (size_t i = 0; !rc && i < t->n; ++i) {
    rows[3 * i] = 0;
    rows[3 * i + 1] = t->b[i];
    rows[3 * i + 2] = t->c[i];
  }
  rc = rc || lsk_buffer_write(c->aos, 0, rows, aos_bytes, NULL);
  free(rows);
  if (rc)
    return cli_fail("bench", "soa setup: %s", lsk_context_errmsg(bn->ctx));
  return placement_setup(bn, t, &c->pl[0], c->prog, "soa_triad") ||
         placement_setup(bn, t, &c->pl[1], c->prog, "soa_triad_stagger");
}

/* Column a of placement p (SoA, p != NULL) or field a (AoS, stride 3)
 * against b + 3c; then zeroed. */
static int check(bench *bn, triad *t, soa_case *c, const placement *p)
{
  size_t stride = p ? 1 : 3, bytes = t->n * stride * sizeof(double);
  lsk_buffer *buf = p ? lsk_soa_buffer(p->soa) : c->aos;
  size_t off = p ? p->offset_a : 0;
  double *got = malloc(bytes);
  int rc = !got || lsk_buffer_read(buf, off, got, bytes, NULL);
  size_t bad = 0;
  for (size_t i = 0; !rc && i < t->n; ++i) {
    bad += got[i * stride] != t->b[i] + 3.0 * t->c[i];
    got[i * stride] = 0;
  }
  if (!rc)
    rc = lsk_buffer_write(buf, off, got, bytes, NULL);
  free(got);
  if (rc)
    return cli_fail("bench", "soa check: %s", lsk_context_errmsg(bn->ctx));
  return bad ? cli_fail("bench", "triad (%s): %zu wrong elements", p ? "SoA" : "AoS", bad) : 0;
}

static int run_raw(bench *bn, const placement *p, triad *t, cl_event *ev)
{
  size_t global = t->n;
  return clEnqueueNDRangeKernel(lsk_context_cl_queue(bn->ctx), p->raw, 1, NULL, &global, NULL, 0,
                                NULL, ev);
}

static int run_views(const placement *p, const lsk_launch *cfg, cl_event *ev)
{
  return bench_launch(p->k, cfg, p->args, p->nargs, ev);
}

static int run_aos(soa_case *c, triad *t, const lsk_launch *cfg, cl_event *ev)
{
  return bench_launch(
      c->aos_k, cfg,
      LSK_ARGS(LSK_ARG_BUFFER(c->aos), LSK_ARG_DOUBLE(3.0), LSK_ARG_UINT((unsigned)t->n)), ev);
}

/* The contenders, rotated each round. */
enum { VIEWS, AOS, RAW_SUB, RAW_SEPARATE, VIEWS_STAG, RAW_STAG, NWHO };

static int run_one(bench *bn, soa_case *c, triad *t, int who, const lsk_launch *cfg, cl_event *ev)
{
  switch (who) {
  case VIEWS: return run_views(&c->pl[0], cfg, ev);
  case VIEWS_STAG: return run_views(&c->pl[1], cfg, ev);
  case AOS: return run_aos(c, t, cfg, ev);
  case RAW_SUB: return run_raw(bn, &c->pl[0], t, ev);
  case RAW_STAG: return run_raw(bn, &c->pl[1], t, ev);
  default: return bench_triad_exact(bn, t, ev);
  }
}

/* Each contender once, its result checked. */
static int check_all(bench *bn, soa_case *c, triad *t, const lsk_launch *cfg)
{
  int rc = 0;
  for (int who = 0; !rc && who < NWHO; ++who) {
    rc = run_one(bn, c, t, who, cfg, NULL) || lsk_context_finish(bn->ctx);
    if (!rc)
      rc = who == RAW_SEPARATE ? bench_triad_check(bn->ctx, "bench", t, "raw OpenCL")
           : who == AOS        ? check(bn, t, c, NULL)
                               : check(bn, t, c, &c->pl[who == VIEWS || who == RAW_SUB ? 0 : 1]);
  }
  return rc;
}

int bench_case_soa(bench *bn)
{
  triad t = {0};
  soa_case c = {0};
  int rc = bench_triad_setup(bn, &t) || setup(bn, &t, &c);
  lsk_launch cfg = bench_triad_launch(bn, t.n, bn->domain, bn->workers, bn->simd);
  unsigned w = 0, s = 0;
  rc = rc || check_all(bn, &c, &t, &cfg) || lsk_kernel_shape(c.pl[0].k, &cfg, &w, &s);
  double bytes = 3.0 * sizeof(double) * (double)t.n;
  char name[64];
  result *r[NWHO] = {0};
  if (!rc) {
    snprintf(name, sizeof name, "triad (SoA views, %ux%u)", w, s);
    r[VIEWS] = bench_new_result(bn, KIND_RATE, name, "raw OpenCL, same columns", "SoA views vs raw",
                                "GB/s", bytes);
    r[RAW_SUB] = bench_new_result(bn, KIND_RATE, "raw triad on the SoA buffer",
                                  "raw OpenCL, separate buffers", "SoA placement", "GB/s", bytes);
    snprintf(name, sizeof name, "raw triad, SoA buffer, stagger %d", SOA_STAGGER);
    r[RAW_STAG] = bench_new_result(bn, KIND_RATE, name, "raw OpenCL, separate buffers",
                                   "staggered placement", "GB/s", bytes);
    snprintf(name, sizeof name, "triad (views+stagger %d, %ux%u)", SOA_STAGGER, w, s);
    r[VIEWS_STAG] = bench_new_result(bn, KIND_RATE, name, "raw OpenCL, separate buffers",
                                     "staggered views", "GB/s", bytes);
    snprintf(name, sizeof name, "triad (AoS, %ux%u)", w, s);
    r[AOS] =
        bench_new_result(bn, KIND_RATE, name, "triad (SoA views)", "AoS vs SoA", "GB/s", bytes);
    rc = !r[VIEWS] || !r[RAW_SUB] || !r[RAW_STAG] || !r[VIEWS_STAG] || !r[AOS];
    for (int k = 0; k < NWHO; ++k)
      bench_bandwidth(r[k]);
  }
  /* Where each contender's times go: its own row's lsk column, or the
   * row that takes it as the reference. */
  samples *into[NWHO] = {0};
  if (!rc) {
    into[VIEWS] = &r[VIEWS]->lsk;
    into[AOS] = &r[AOS]->lsk;
    into[RAW_SUB] = &r[VIEWS]->ref;
    into[RAW_SEPARATE] = &r[RAW_SUB]->ref;
    into[VIEWS_STAG] = &r[VIEWS_STAG]->lsk;
    into[RAW_STAG] = &r[RAW_STAG]->lsk;
  }
  /* Two warm-up rounds, then timed ones; the order rotates each round. */
  for (unsigned round = 0; !rc && round < bn->repeat + 2; ++round) {
    bench_progress(bn, "soa", round, bn->repeat + 2);
    for (unsigned j = 0; !rc && j < NWHO; ++j) {
      int who = (int)((round + j) % NWHO);
      cl_event ev = NULL;
      rc = run_one(bn, &c, &t, who, &cfg, &ev);
      double secs = rc ? 0 : bench_event_time(ev);
      if (!rc && round >= 2)
        bench_add(into[who], secs);
    }
  }
  bench_progress(bn, "soa", bn->repeat + 2, bn->repeat + 2);
  if (!rc) {
    /* Rows that share a contender's samples. */
    r[AOS]->ref = r[VIEWS]->lsk;
    r[RAW_SUB]->lsk = r[VIEWS]->ref;
    r[RAW_STAG]->ref = r[RAW_SUB]->ref;
    r[VIEWS_STAG]->ref = r[RAW_SUB]->ref;
    rc = lsk_context_finish(bn->ctx) || check_all(bn, &c, &t, &cfg);
  }
  /* Two of the raw triads are the limit's own contenders (unguarded, on
   * separate buffers and on columns 4224 bytes apart, the limit's
   * placements): they count towards it, as the triad case's do. */
  if (!rc) {
    bench_limit_offer(bn, bytes, into[RAW_SEPARATE], "the soa case's raw OpenCL, separate buffers");
    bench_limit_offer(bn, bytes, into[RAW_STAG], "the soa case's raw OpenCL, staggered SoA buffer");
  }
  if (rc && !r[VIEWS])
    cli_fail("bench", "soa: %s", lsk_context_errmsg(bn->ctx));
  teardown(&c);
  bench_triad_teardown(&t);
  return rc;
}
