/*
 * random.c: lsk_random_fill (kernels/random.cl): one pass of blocks over
 * tiles, each element's value a function of its position alone.
 */
#include <stdio.h>

#include "algo/algo.h"

static int fill(lsk_context *ctx, lsk_queue *q, lsk_buffer *out, size_t offset, size_t n,
                lsk_type type, lsk_random_dist dist, uint64_t seed, uint32_t stream,
                const lsk_algo_options *opt, const char *fn)
{
  int rc = lsk__check_type(
      ctx, fn, type, (1u << LSK_TYPE_UINT) | (1u << LSK_TYPE_FLOAT) | (1u << LSK_TYPE_DOUBLE));
  if (rc)
    return rc;
  if (dist != LSK_RANDOM_UNIFORM && dist != LSK_RANDOM_NORMAL)
    return lsk__fail(ctx, LSK_EINVAL, "%s: dist %d is neither LSK_RANDOM_UNIFORM nor _NORMAL", fn,
                     (int)dist);
  if (type == LSK_TYPE_UINT && dist != LSK_RANDOM_UNIFORM)
    return lsk__fail(ctx, LSK_EINVAL, "%s: uint takes LSK_RANDOM_UNIFORM (raw words)", fn);
  if ((rc = lsk__check_span(ctx, fn, "out", out, offset, n, lsk_type_size(type))))
    return rc;
  if (n == 0)
    return LSK_OK;
  /* One work-item per counter (kernels/random.cl): per elements each. */
  size_t per = type == LSK_TYPE_UINT || (type == LSK_TYPE_FLOAT && dist == LSK_RANDOM_UNIFORM) ? 4
               : type == LSK_TYPE_DOUBLE && dist == LSK_RANDOM_NORMAL                          ? 1
                                                                                               : 2;
  size_t counters = (offset + n + per - 1) / per - offset / per;
  lsk__plan p;
  if ((rc = lsk__algo_plan(ctx, fn, counters, opt, &p)))
    return rc;
  /* The distribution's build, -D LSK_RANDOM=D, and its kernel lsk_random_D. */
  char d[24], name[48], options[80];
  if (type == LSK_TYPE_UINT)
    snprintf(d, sizeof d, "uint");
  else
    snprintf(d, sizeof d, "%s_%s", dist == LSK_RANDOM_NORMAL ? "normal" : "uniform",
             lsk_type_name(type));
  snprintf(name, sizeof name, "lsk_random_%s", d);
  /* Where the device is no GPU, the CPU path (kernels/random.cl): the
   * same numbers, written so that PoCL vectorizes a tile's counters
   * across slots (docs/random.md); GPUs keep the form they had. */
  snprintf(options, sizeof options, "-DLSK_RANDOM=%s%s", d,
           lsk__context_info(ctx)->is_gpu ? "" : " -DLSK_RANDOM_CPU=1");
  lsk_kernel *k;
  if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_RANDOM, options, name, &k)))
    return rc;
  lsk_launch l = lsk__plan_launch(&p, p.blocks);
  return lsk__launch_q(k, q, fn, &l,
                       LSK_ARGS(LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)offset),
                                LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT((uint32_t)p.per_block),
                                LSK_ARG_ULONG(seed), LSK_ARG_UINT(stream)));
}

int lsk_random_fill(lsk_context *ctx, lsk_buffer *out, size_t offset, size_t n, lsk_type type,
                    lsk_random_dist dist, uint64_t seed, uint32_t stream,
                    const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  lsk__on o;
  int rc = lsk__lib_begin(ctx, on, __func__, &o);
  if (!rc)
    rc = fill(ctx, o.q, out, offset, n, type, dist, seed, stream, opt, __func__);
  return lsk__lib_end(ctx, &o, rc, __func__);
}
