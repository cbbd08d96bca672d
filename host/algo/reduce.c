/*
 * reduce.c: device-wide reductions (kernels/reduce.cl): one pass when one
 * block suffices, else one block per run of tiles, then one block over the
 * partial results.
 */
#include <stdio.h>

#include "internal.h"

const char *lsk__op_name(lsk_op op)
{
  switch (op) {
  case LSK_OP_SUM: return "add";
  case LSK_OP_MIN: return "min";
  case LSK_OP_MAX: return "max";
  }
  return NULL;
}

int lsk__check_type(lsk_context *ctx, const char *fn, lsk_type type, unsigned allowed)
{
  if (!lsk_type_size(type) || !(allowed & (1u << type)))
    return lsk__fail(ctx, LSK_EINVAL, "%s: type %d is not supported here", fn, (int)type);
  if (type == LSK_TYPE_DOUBLE && !ctx->info.has_fp64)
    return lsk__fail(ctx, LSK_EINVAL, "%s: double needs cl_khr_fp64, which %s lacks", fn,
                     ctx->info.name);
  return LSK_OK;
}

#define ALL_TYPES                                                                                  \
  ((1u << LSK_TYPE_INT) | (1u << LSK_TYPE_UINT) | (1u << LSK_TYPE_LONG) | (1u << LSK_TYPE_ULONG) | \
   (1u << LSK_TYPE_FLOAT) | (1u << LSK_TYPE_DOUBLE))

static int launch(lsk_kernel *k, const lsk__plan *p, size_t blocks, lsk_buffer *in, size_t base,
                  size_t n, size_t per_block, lsk_buffer *out, size_t out_index)
{
  lsk_launch l = lsk__plan_launch(p, blocks);
  return lsk_kernel_launch(k, &l,
                           LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_UINT((uint32_t)base),
                                    LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT((uint32_t)per_block),
                                    LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)out_index)),
                           NULL);
}

static int reduce_to(lsk_context *ctx, const char *fn, lsk_type type, lsk_op op, lsk_buffer *in,
                     size_t offset, size_t n, lsk_buffer *out, size_t out_index,
                     const lsk_algo_options *opt)
{
  int rc = lsk__check_type(ctx, fn, type, ALL_TYPES);
  if (rc)
    return rc;
  if (!lsk__op_name(op))
    return lsk__fail(ctx, LSK_EINVAL, "%s: op %d is not LSK_OP_SUM, _MIN or _MAX", fn, (int)op);
  size_t size = lsk_type_size(type);
  if ((rc = lsk__check_span(ctx, fn, "in", in, offset, n, size)) ||
      (rc = lsk__check_span(ctx, fn, "out", out, out_index, 1, size)))
    return rc;
  lsk__plan p;
  if ((rc = lsk__algo_plan(ctx, fn, n, opt, &p)))
    return rc;
  char name[48];
  snprintf(name, sizeof name, "lsk_reduce_%s_%s", lsk__op_name(op), lsk_type_name(type));
  lsk_kernel *k;
  if ((rc = lsk__lib_kernel(ctx, LSK__LIB_REDUCE, name, &k)))
    return rc;
  if (p.blocks == 1)
    return launch(k, &p, 1, in, offset, n, p.per_block, out, out_index);
  lsk_buffer *partial;
  if ((rc = lsk__scratch(ctx, 0, p.blocks * size, &partial)) ||
      (rc = launch(k, &p, p.blocks, in, offset, n, p.per_block, partial, 0)))
    return rc;
  return launch(k, &p, 1, partial, 0, p.blocks, (p.blocks + p.tile - 1) / p.tile, out, out_index);
}

int lsk_reduce_to(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset,
                  size_t n, lsk_buffer *out, size_t out_index, const lsk_algo_options *opt)
{
  LSK__LIVE(NULL, ctx, CONTEXT, "lsk_reduce_to", "ctx");
  int rc = lsk__lib_lock(ctx); /* the scratch buffer (docs/threads.md) */
  if (rc)
    return rc;
  rc = reduce_to(ctx, "lsk_reduce_to", type, op, in, offset, n, out, out_index, opt);
  lsk__lib_unlock(ctx);
  return rc;
}

int lsk_reduce(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset, size_t n,
               void *result, const lsk_algo_options *opt)
{
  static const char fn[] = "lsk_reduce";
  LSK__LIVE(NULL, ctx, CONTEXT, fn, "ctx");
  if (!result)
    return lsk__fail(ctx, LSK_EINVAL, "%s: result is NULL", fn);
  lsk_buffer *out;
  /* Until the result is read: another thread's reduce writes the same
   * scratch word. */
  int rc = lsk__lib_lock(ctx);
  if (rc)
    return rc;
  rc = lsk__scratch(ctx, 1, 8, &out);
  if (!rc)
    rc = reduce_to(ctx, fn, type, op, in, offset, n, out, 0, opt);
  if (!rc)
    rc = lsk_buffer_read(out, 0, result, lsk_type_size(type));
  lsk__lib_unlock(ctx);
  if (!rc)
    rc = lsk__verify_check(ctx);
  return rc;
}
