/*
 * scan.c: device-wide prefix sums. One block: one pass. More: the block
 * sums (kernels/reduce.cl), an in-place exclusive scan of those by one
 * block, then every block's scan from its prefix (kernels/scan.cl).
 */
#include <stdio.h>

#include "algo/algo.h"

#define SCAN_TYPES ((1u << LSK_TYPE_INT) | (1u << LSK_TYPE_UINT) | (1u << LSK_TYPE_FLOAT))

static int scan_launch(lsk_kernel *k, lsk_queue *q, const lsk__plan *p, size_t blocks,
                       lsk_buffer *in, size_t base, size_t n, size_t per_block, lsk_buffer *out,
                       size_t out_base, lsk_buffer *carries, int inclusive)
{
  lsk_launch l = lsk__plan_launch(p, blocks);
  return lsk__launch_q(k, q, p->fn, &l,
                       LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_UINT((uint32_t)base),
                                LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT((uint32_t)per_block),
                                LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)out_base),
                                LSK_ARG_BUFFER(carries ? carries : in),
                                LSK_ARG_UINT(carries != NULL), LSK_ARG_UINT((uint32_t)inclusive)));
}

static int scan(lsk_context *ctx, lsk_queue *q, const char *fn, lsk_type type, lsk_scan_kind kind,
                lsk_buffer *in, size_t in_offset, lsk_buffer *out, size_t out_offset, size_t n,
                const lsk_algo_options *opt)
{
  int rc = lsk__check_type(ctx, fn, type, SCAN_TYPES);
  if (rc)
    return rc;
  if (kind != LSK_SCAN_EXCLUSIVE && kind != LSK_SCAN_INCLUSIVE)
    return lsk__fail(ctx, LSK_EINVAL, "%s: kind %d is not LSK_SCAN_EXCLUSIVE or _INCLUSIVE", fn,
                     (int)kind);
  size_t size = lsk_type_size(type);
  if ((rc = lsk__check_span(ctx, fn, "in", in, in_offset, n, size)) ||
      (rc = lsk__check_span(ctx, fn, "out", out, out_offset, n, size)))
    return rc;
  if (in == out && in_offset != out_offset && in_offset < out_offset + n &&
      out_offset < in_offset + n)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: in [%zu, %zu) and out [%zu, %zu) overlap (only in place is allowed)", fn,
                     in_offset, in_offset + n, out_offset, out_offset + n);
  if (n == 0)
    return LSK_OK;
  lsk__plan p;
  if ((rc = lsk__algo_plan(ctx, fn, n, opt, &p)))
    return rc;
  char name[48], options[32];
  snprintf(name, sizeof name, "lsk_scan_%s", lsk_type_name(type));
  snprintf(options, sizeof options, "-DLSK_T=%s", lsk_type_name(type));
  lsk_kernel *scan;
  if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_SCAN, options, name, &scan)))
    return rc;
  int incl = kind == LSK_SCAN_INCLUSIVE;
  if (p.blocks == 1)
    return scan_launch(scan, q, &p, 1, in, in_offset, n, p.per_block, out, out_offset, NULL, incl);
  lsk_kernel *sums;
  lsk_buffer *partial = NULL;
  if ((rc = lsk__reduce_kernel(ctx, type, LSK_OP_SUM, &sums)) ||
      (rc = lsk__scratch(ctx, q, p.blocks * size, &partial)))
    return rc;
  lsk_launch l = lsk__plan_launch(&p, p.blocks);
  rc = lsk__launch_q(sums, q, fn, &l,
                     LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_UINT((uint32_t)in_offset),
                              LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT((uint32_t)p.per_block),
                              LSK_ARG_BUFFER(partial), LSK_ARG_UINT(0)));
  if (!rc)
    rc = scan_launch(scan, q, &p, 1, partial, 0, p.blocks, (p.blocks + p.tile - 1) / p.tile,
                     partial, 0, NULL, 0);
  if (!rc)
    rc = scan_launch(scan, q, &p, p.blocks, in, in_offset, n, p.per_block, out, out_offset, partial,
                     incl);
  lsk__scratch_free(partial, q);
  return rc;
}

int lsk_scan(lsk_context *ctx, lsk_type type, lsk_scan_kind kind, lsk_buffer *in, size_t in_offset,
             lsk_buffer *out, size_t out_offset, size_t n, const lsk_algo_options *opt,
             const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  lsk__on o;
  int rc = lsk__lib_begin(ctx, on, __func__, &o);
  if (!rc)
    rc = scan(ctx, o.q, __func__, type, kind, in, in_offset, out, out_offset, n, opt);
  return lsk__lib_end(ctx, &o, rc, __func__);
}

int lsk__scan_q(lsk_context *ctx, lsk_queue *q, const char *fn, lsk_type type, lsk_scan_kind kind,
                lsk_buffer *in, size_t in_offset, lsk_buffer *out, size_t out_offset, size_t n,
                const lsk_algo_options *opt)
{
  return scan(ctx, q, fn, type, kind, in, in_offset, out, out_offset, n, opt);
}
