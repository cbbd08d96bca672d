/*
 * reduce.c: device-wide reductions (kernels/reduce.cl): one pass when one
 * block suffices, else one block per run of tiles, then one block over the
 * partial results.
 */
#include <stdio.h>

#include "algo/algo.h"

const char *lsk__op_name(lsk_op op)
{
  switch (op) {
  case LSK_OP_SUM: return "add";
  case LSK_OP_MIN: return "min";
  case LSK_OP_MAX: return "max";
  }
  return NULL;
}

int lsk__reduce_kernel(lsk_context *ctx, lsk_type type, lsk_op op, lsk_kernel **out)
{
  /* The build's -D LSK_OP is upper case (kernels/reduce.cl says why). */
  const char *name = lsk__op_name(op);
  char kernel[48], options[48];
  snprintf(kernel, sizeof kernel, "lsk_reduce_%s_%s", name, lsk_type_name(type));
  snprintf(options, sizeof options, "-DLSK_T=%s -DLSK_OP=%s", lsk_type_name(type),
           op == LSK_OP_SUM   ? "ADD"
           : op == LSK_OP_MIN ? "MIN"
                              : "MAX");
  return lsk__lib_kernel_for(ctx, LSK__LIB_REDUCE, options, kernel, out);
}

int lsk__check_type(lsk_context *ctx, const char *fn, lsk_type type, unsigned allowed)
{
  if (!lsk_type_size(type) || !(allowed & (1u << type)))
    return lsk__fail(ctx, LSK_EINVAL, "%s: type %d is not supported here", fn, (int)type);
  if (type == LSK_TYPE_DOUBLE && !lsk__context_info(ctx)->has_fp64)
    return lsk__fail(ctx, LSK_EINVAL, "%s: double needs cl_khr_fp64, which %s lacks", fn,
                     lsk__context_info(ctx)->name);
  return LSK_OK;
}

#define ALL_TYPES                                                                                  \
  ((1u << LSK_TYPE_INT) | (1u << LSK_TYPE_UINT) | (1u << LSK_TYPE_LONG) | (1u << LSK_TYPE_ULONG) | \
   (1u << LSK_TYPE_FLOAT) | (1u << LSK_TYPE_DOUBLE))

static int launch(lsk_kernel *k, lsk_queue *q, const lsk__plan *p, size_t blocks, lsk_buffer *in,
                  size_t base, size_t n, size_t per_block, lsk_buffer *out, size_t out_index)
{
  lsk_launch l = lsk__plan_launch(p, blocks);
  return lsk__launch_q(k, q, p->fn, &l,
                       LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_UINT((uint32_t)base),
                                LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT((uint32_t)per_block),
                                LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)out_index)));
}

/* The type, the operation and the input span. */
static int check_input(lsk_context *ctx, const char *fn, lsk_type type, lsk_op op, lsk_buffer *in,
                       size_t offset, size_t n)
{
  int rc = lsk__check_type(ctx, fn, type, ALL_TYPES);
  if (rc)
    return rc;
  if (!lsk__op_name(op))
    return lsk__fail(ctx, LSK_EINVAL, "%s: op %d is not LSK_OP_SUM, _MIN or _MAX", fn, (int)op);
  return lsk__check_span(ctx, fn, "in", in, offset, n, lsk_type_size(type));
}

static int reduce_to(lsk_context *ctx, lsk_queue *q, const char *fn, lsk_type type, lsk_op op,
                     lsk_buffer *in, size_t offset, size_t n, lsk_buffer *out, size_t out_index,
                     const lsk_algo_options *opt)
{
  int rc = check_input(ctx, fn, type, op, in, offset, n);
  size_t size = lsk_type_size(type);
  if (rc || (rc = lsk__check_span(ctx, fn, "out", out, out_index, 1, size)))
    return rc;
  lsk__plan p;
  if ((rc = lsk__algo_plan(ctx, fn, n, opt, &p)))
    return rc;
  lsk_kernel *k;
  if ((rc = lsk__reduce_kernel(ctx, type, op, &k)))
    return rc;
  if (p.blocks == 1)
    return launch(k, q, &p, 1, in, offset, n, p.per_block, out, out_index);
  lsk_buffer *partial = NULL;
  if (!(rc = lsk__scratch(ctx, q, p.blocks * size, &partial)) &&
      !(rc = launch(k, q, &p, p.blocks, in, offset, n, p.per_block, partial, 0)))
    rc =
        launch(k, q, &p, 1, partial, 0, p.blocks, (p.blocks + p.tile - 1) / p.tile, out, out_index);
  lsk__scratch_free(partial, q);
  return rc;
}

int lsk_reduce_to(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset,
                  size_t n, lsk_buffer *out, size_t out_index, const lsk_algo_options *opt,
                  const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  lsk__on o;
  int rc = lsk__lib_begin(ctx, on, __func__, &o);
  if (!rc)
    rc = reduce_to(ctx, o.q, __func__, type, op, in, offset, n, out, out_index, opt);
  return lsk__lib_end(ctx, &o, rc, __func__);
}

int lsk_reduce(lsk_context *ctx, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset, size_t n,
               void *result, size_t result_size, const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (!result)
    return lsk__fail(ctx, LSK_EINVAL, "%s: result is NULL", __func__);
  lsk__on o;
  lsk_buffer *out = NULL;
  /* Checked before the result's buffer is made: nothing is allocated
   * for bad input. */
  int rc = check_input(ctx, __func__, type, op, in, offset, n);
  if (!rc)
    rc = lsk__check_result_size(ctx, __func__, "result_size", type, result_size);
  if (!rc)
    rc = lsk__lib_begin(ctx, on, __func__, &o);
  if (!rc)
    rc = lsk__scratch(ctx, o.q, 8, &out);
  if (!rc)
    rc = reduce_to(ctx, o.q, __func__, type, op, in, offset, n, out, 0, opt);
  if (!rc)
    rc = lsk__buffer_rw(out, 0, 0, result, lsk_type_size(type), o.q, 1, __func__);
  lsk__scratch_free(out, o.q);
  if (!rc)
    rc = lsk__verify_check(o.q);
  return lsk__lib_end(ctx, &o, rc, __func__);
}
