/*
 * bench/soa.c: the triad a = b + 3c through the OpenCL C views that lsk
 * generates for an SoA layout (one restrict pointer per column, see
 * docs/soa.md), against the raw triad with plain pointers to the same
 * columns (sub-buffers of the SoA buffer), all interleaved in one run.
 * Two informative rows: the raw triad on the SoA buffer against the raw
 * triad on three separate buffers (where the columns sit in memory), and
 * the triad over an array of structs against the SoA views.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char *source =
    "typedef struct tri_aos { double a, b, c; } tri_aos;\n"
    "LSK_KERNEL void soa_triad(LSK_CTX, TRI_PARAMS(t), double s)\n"
    "{\n"
    "  tri_view v = TRI_VIEW(t);\n"
    "  LSK_BLOCKS(blk, (t_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = blk * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < t_n)\n"
    "        tri_set_a(v, i, tri_b(v, i) + s * tri_c(v, i));\n"
    "    }\n"
    "  }\n"
    "}\n"
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

typedef struct soa_case {
  lsk_layout *layout;
  char *cl;
  lsk_program *prog;
  lsk_kernel *soa_k, *aos_k;
  lsk_soa *soa;
  lsk_buffer *aos;
  cl_mem sub[3]; /* the columns of the SoA buffer, for the raw kernel */
  cl_kernel raw; /* the raw triad on them */
  lsk_arg args[16];
  size_t nargs;
  size_t offset_a; /* of column a in the SoA buffer */
} soa_case;

static void teardown(soa_case *c)
{
  if (c->raw)
    clReleaseKernel(c->raw);
  for (int i = 0; i < 3; ++i)
    if (c->sub[i])
      clReleaseMemObject(c->sub[i]);
  lsk_kernel_destroy(c->soa_k);
  lsk_kernel_destroy(c->aos_k);
  lsk_program_destroy(c->prog);
  lsk_soa_destroy(c->soa);
  lsk_buffer_destroy(c->aos);
  lsk_free(c->cl);
  lsk_layout_destroy(c->layout);
}

/* Layout, program, data: b and c from the triad's arrays, a zero. */
static int setup(bench *bn, triad *t, soa_case *c)
{
  int rc = lsk_layout_parse("layout tri\ncolumn double a\ncolumn double b\ncolumn double c\n",
                            "tri", &c->layout);
  if (!rc)
    rc = lsk_layout_emit_cl(c->layout, NULL, &c->cl);
  if (rc)
    return cli_fail("bench", "soa: %s", lsk_context_errmsg(NULL));
  lsk_member_info m[3];
  for (size_t i = 0; i < 3; ++i) {
    size_t k = 0;
    lsk_layout_find(c->layout, (const char *[]){"a", "b", "c"}[i], &k);
    lsk_layout_member(c->layout, k, t->n, &m[i]);
  }
  c->offset_a = m[0].offset;
  size_t aos_bytes = t->n * 3 * sizeof(double);
  double *rows = malloc(aos_bytes);
  rc = !rows;
  if (!rc)
    rc = lsk_program_create(bn->ctx, source,
                            &(lsk_program_options){.name = "bench_soa.cl", .prelude = c->cl},
                            &c->prog) ||
         lsk_kernel_create(c->prog, "soa_triad", &c->soa_k) ||
         lsk_kernel_create(c->prog, "aos_triad", &c->aos_k) ||
         lsk_soa_create(bn->ctx, 1, (const lsk_layout *const[]){c->layout}, &t->n, &c->soa) ||
         lsk_buffer_create(bn->ctx, aos_bytes, &c->aos);
  if (!rc) {
    unsigned char *host = lsk_soa_host(c->soa, 0);
    memcpy(host + m[1].offset, t->b, t->n * sizeof(double));
    memcpy(host + m[2].offset, t->c, t->n * sizeof(double));
    for (size_t i = 0; i < t->n; ++i) {
      rows[3 * i] = 0;
      rows[3 * i + 1] = t->b[i];
      rows[3 * i + 2] = t->c[i];
    }
    rc = lsk_soa_upload(c->soa) || lsk_buffer_write(c->aos, 0, rows, aos_bytes) ||
         lsk_soa_args(c->soa, 0, NULL, c->args, 15, &c->nargs);
  }
  free(rows);
  if (rc)
    return cli_fail("bench", "soa setup: %s", lsk_context_errmsg(bn->ctx));
  /* The raw triad with plain pointers to the SoA columns: sub-buffers. */
  cl_int err = CL_SUCCESS;
  c->raw = clCreateKernel(bn->raw, "raw_triad", &err);
  for (int i = 0; i < 3 && !err; ++i) {
    cl_buffer_region r = {m[i].offset, t->n * sizeof(double)};
    c->sub[i] = clCreateSubBuffer(lsk_buffer_cl(lsk_soa_buffer(c->soa)), CL_MEM_READ_WRITE,
                                  CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    if (!err)
      err = clSetKernelArg(c->raw, (cl_uint)i, sizeof(cl_mem), &c->sub[i]);
  }
  double s3 = 3.0;
  unsigned n32 = (unsigned)t->n;
  if (!err)
    err = clSetKernelArg(c->raw, 3, sizeof s3, &s3);
  if (!err)
    err = clSetKernelArg(c->raw, 4, sizeof n32, &n32);
  if (err)
    return cli_fail("bench", "soa: raw triad on sub-buffers: %s", lsk_status_name(err));
  c->args[c->nargs++] = LSK_ARG_DOUBLE(3.0);
  return 0;
}

/* Column a (SoA) or field a (AoS, stride 3) against b + 3c; then zeroed. */
static int check(bench *bn, triad *t, soa_case *c, int aos)
{
  size_t stride = aos ? 3 : 1, bytes = t->n * stride * sizeof(double);
  double *got = malloc(bytes), zero = 0;
  int rc = !got || lsk_buffer_read(aos ? c->aos : lsk_soa_buffer(c->soa), aos ? 0 : c->offset_a,
                                   got, bytes);
  size_t bad = 0;
  for (size_t i = 0; !rc && i < t->n; ++i) {
    bad += got[i * stride] != t->b[i] + 3.0 * t->c[i];
    got[i * stride] = 0;
  }
  if (!rc)
    rc = lsk_buffer_write(aos ? c->aos : lsk_soa_buffer(c->soa), aos ? 0 : c->offset_a, got, bytes);
  free(got);
  (void)zero;
  if (rc)
    return cli_fail("bench", "soa check: %s", lsk_context_errmsg(bn->ctx));
  return bad ? cli_fail("bench", "triad (%s): %zu wrong elements", aos ? "AoS" : "SoA views", bad)
             : 0;
}

static int run_raw(bench *bn, soa_case *c, triad *t, cl_event *ev)
{
  size_t global = t->n;
  return clEnqueueNDRangeKernel(lsk_context_cl_queue(bn->ctx), c->raw, 1, NULL, &global, NULL, 0,
                                NULL, ev);
}

static int run(soa_case *c, triad *t, int aos, const lsk_launch *cfg, cl_event *ev)
{
  if (aos)
    return lsk_kernel_launch(
        c->aos_k, cfg,
        LSK_ARGS(LSK_ARG_BUFFER(c->aos), LSK_ARG_DOUBLE(3.0), LSK_ARG_UINT((unsigned)t->n)), ev);
  return lsk_kernel_launch(c->soa_k, cfg, c->args, c->nargs, ev);
}

int bench_case_soa(bench *bn)
{
  triad t = {0};
  soa_case c = {0};
  int rc = bench_triad_setup(bn, &t) || setup(bn, &t, &c);
  lsk_launch cfg = bench_triad_launch(bn, t.n, bn->domain, bn->workers, bn->simd);
  unsigned w = 0, s = 0;
  /* Results first checked, then warm-up, then rounds in rotating order. */
  for (int aos = 0; !rc && aos < 2; ++aos)
    rc = run(&c, &t, aos, &cfg, NULL) || lsk_context_finish(bn->ctx) || check(bn, &t, &c, aos);
  rc = rc || lsk_kernel_shape(c.soa_k, &cfg, &w, &s);
  rc = rc || run_raw(bn, &c, &t, NULL) || clFinish(lsk_context_cl_queue(bn->ctx)) ||
       check(bn, &t, &c, 0);
  double bytes = 3.0 * sizeof(double) * (double)t.n;
  char name[64];
  snprintf(name, sizeof name, "triad (SoA views, %ux%u)", w, s);
  result *vs_raw = rc ? NULL
                      : bench_new_result(bn, KIND_RATE, name, "raw OpenCL, same columns",
                                         "SoA views vs raw", "GB/s", bytes);
  result *where =
      rc ? NULL
         : bench_new_result(bn, KIND_RATE, "raw triad on the SoA buffer",
                            "raw OpenCL, separate buffers", "SoA placement", "GB/s", bytes);
  snprintf(name, sizeof name, "triad (AoS, %ux%u)", w, s);
  result *aos_vs =
      rc ? NULL
         : bench_new_result(bn, KIND_RATE, name, "triad (SoA views)", "AoS vs SoA", "GB/s", bytes);
  rc = rc || !vs_raw || !where || !aos_vs;
  /* Two warm-up rounds, then timed ones; the order rotates each round. */
  for (unsigned r = 0; !rc && r < bn->repeat + 2; ++r) {
    bench_progress(bn, "soa", r, bn->repeat + 2);
    for (unsigned j = 0; !rc && j < 4; ++j) {
      unsigned who = (r + j) % 4;
      cl_event ev = NULL;
      rc = who == 3   ? bench_triad_raw(bn, &t, &ev)
           : who == 2 ? run_raw(bn, &c, &t, &ev)
                      : run(&c, &t, (int)who, &cfg, &ev);
      double secs = rc ? 0 : bench_event_time(ev);
      if (!rc && r >= 2)
        bench_add(who == 0   ? &vs_raw->lsk
                  : who == 1 ? &aos_vs->lsk
                  : who == 2 ? &vs_raw->ref
                             : &where->ref,
                  secs);
    }
  }
  bench_progress(bn, "soa", bn->repeat + 2, bn->repeat + 2);
  if (!rc) {
    aos_vs->ref = vs_raw->lsk;
    where->lsk = vs_raw->ref;
    rc = lsk_context_finish(bn->ctx) || check(bn, &t, &c, 0) || check(bn, &t, &c, 1) ||
         bench_triad_check(bn, &t, "raw OpenCL");
  }
  if (rc && !vs_raw)
    cli_fail("bench", "soa: %s", lsk_context_errmsg(bn->ctx));
  teardown(&c);
  bench_triad_teardown(&t);
  return rc;
}
