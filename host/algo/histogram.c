/*
 * histogram.c: lsk_histogram_uint and lsk_histogram_real
 * (kernels/histogram.cl): the counters zeroed by a kernel, then one pass
 * of blocks over tiles, each block counting in local memory where the
 * counters fit beside the kernel's own, in global memory otherwise.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "algo/algo.h"

/* The CPU kernel's blocks per compute unit (kernels/histogram.cl,
 * _private): several, since PoCL hands blocks to its threads as they
 * free up, so that a core slowed by another load leaves little of the
 * pass behind it; few, since each block zeroes and adds all its slots
 * (65536 bins: 256 KiB and 2^16 atomics a block). Measured on PoCL, 2
 * cores, 2026-11-27: 8 blocks took 0.8 of the time of 4 at 65536 bins,
 * the same at 256 (docs/histogram.md). */
#define HIST_CPU_BLOCKS_PER_CU 4
/* The most slots for four columns a worker (their 16 KiB in a core's
 * first-level cache beside the keys). */
#define HIST_CPU_WAYS_SLOTS 1024
/* histogram_private's answer where it does not run. */
#define NOT_CHOSEN 1
/* The GPU kernel (_copies): slots at most, copies of the counters per
 * block at most, and the share of local memory they may take (half:
 * room for a second block on the compute unit). */
#define HIST_GPU_SLOTS 1024
#define HIST_GPU_COPIES 32

/* The CPU path (docs/histogram.md): on devices that say they are CPUs
 * (PoCL; oclgrind, which says it is every kind, so that it checks these
 * kernels, while LSK_SHAPES=nvidia, a GPU and no CPU, runs the GPU ones),
 * not where loops are capped (llvmpipe: one work-item walks a long
 * segment), and only where a column
 * of slots counters per worker fits beside the kernel's own local memory.
 * One worker per block unless the caller asked for more (then as many as
 * fit); blocks: the caller's, else HIST_CPU_BLOCKS_PER_CU per compute
 * unit. NOT_CHOSEN where it does not apply, else the launch's status. */
static int histogram_private(lsk_context *ctx, lsk_queue *q, const char *fn, const char *options,
                             const char *tname, lsk_buffer *in, size_t offset, size_t n,
                             const lsk_arg range[3], size_t nbins, size_t slots, lsk_buffer *out,
                             size_t out_offset, const lsk_algo_options *opt)
{
  const lsk_device_info *dev = lsk__context_info(ctx);
  if (!dev->is_cpu || dev->loops_capped)
    return NOT_CHOSEN;
  char name[48];
  snprintf(name, sizeof name, "lsk_histogram_%s_private", tname);
  lsk_kernel *k;
  int rc;
  if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_HISTOGRAM, options, name, &k)))
    return rc;
  size_t blocks =
      opt && opt->blocks ? opt->blocks : lsk_auto_blocks(dev, n, 1, HIST_CPU_BLOCKS_PER_CU);
  lsk_launch l = {.domain = {1},
                  .blocks = {blocks},
                  .workers = opt && opt->workers ? opt->workers : 1,
                  .simd = 1};
  lsk_kernel_info info;
  if ((rc = lsk_kernel_query(k, &l, &info)))
    return rc;
  uint64_t local = dev->local_mem_size, column = (uint64_t)slots * 4;
  if (info.local_static_bytes > local || column > local - info.local_static_bytes)
    return NOT_CHOSEN;
  /* Few slots: four columns a worker, taking elements in turn (the
   * kernel's ways), so that increments of one slot close together do not
   * wait for each other. */
  unsigned ways = slots <= HIST_CPU_WAYS_SLOTS ? 4 : 1;
  column *= ways;
  uint64_t fit = (local - info.local_static_bytes) / column;
  l.workers = info.workers < fit ? info.workers : (unsigned)fit;
  if (l.workers != info.workers && (rc = lsk_kernel_query(k, &l, &info)))
    return rc;
  l.workers = info.workers;
  l.local_bytes = (size_t)column * l.workers;
  size_t segs = blocks * l.workers, seglen = (n + segs - 1) / segs;
  if (seglen > UINT32_MAX)
    return NOT_CHOSEN;
  lsk_arg args[] = {LSK_ARG_BUFFER(in),
                    LSK_ARG_UINT((uint32_t)offset),
                    LSK_ARG_UINT((uint32_t)n),
                    LSK_ARG_UINT((uint32_t)seglen),
                    range[0],
                    range[1],
                    range[2],
                    LSK_ARG_UINT((uint32_t)nbins),
                    LSK_ARG_UINT((uint32_t)slots),
                    LSK_ARG_UINT(ways),
                    LSK_ARG_BUFFER(out),
                    LSK_ARG_UINT((uint32_t)out_offset),
                    LSK_ARG_DYN_LOCAL};
  return lsk__launch_q(k, q, fn, &l, args, 13);
}

/* Whether the GPU kernels run: LSK_HISTOGRAM_GPU where set, else on GPUs
 * that are not also CPUs (oclgrind says it is both: it keeps checking the
 * CPU kernel unless told). */
static int histogram_gpu_path(lsk_context *ctx)
{
  if (lsk__getenv("LSK_HISTOGRAM_GPU"))
    return lsk__getenv_bool("LSK_HISTOGRAM_GPU", 0);
  const lsk_device_info *d = lsk__context_info(ctx);
  return d->is_gpu && !d->is_cpu;
}

/* The GPU kernel (docs/histogram.md): at most HIST_GPU_SLOTS slots, as
 * many copies of them per block as the workers, HIST_GPU_COPIES and half
 * the local memory beside the kernel's own allow, two at least. Each copy
 * takes an odd number of words (slots, or one more), so that the copies
 * of one slot fall in different banks. NOT_CHOSEN where it does not
 * apply, else the launch's status. */
static int histogram_copies(lsk_context *ctx, lsk_queue *q, const char *fn, const char *options,
                            const char *tname, const lsk__plan *p, const lsk_arg args[11],
                            size_t slots)
{
  if (slots > HIST_GPU_SLOTS)
    return NOT_CHOSEN;
  char name[48];
  snprintf(name, sizeof name, "lsk_histogram_%s_copies", tname);
  lsk_kernel *k;
  int rc;
  if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_HISTOGRAM, options, name, &k)))
    return rc;
  lsk_launch l = lsk__plan_launch(p, p->blocks);
  lsk_kernel_info info;
  if ((rc = lsk_kernel_query(k, &l, &info)))
    return rc;
  uint64_t local = lsk__context_info(ctx)->local_mem_size;
  if (info.local_static_bytes > local)
    return NOT_CHOSEN;
  size_t stride = slots | 1;
  uint64_t fit = (local - info.local_static_bytes) / 2 / ((uint64_t)stride * 4);
  size_t copies = HIST_GPU_COPIES;
  copies = copies < info.workers ? copies : info.workers;
  copies = copies < fit ? copies : (size_t)fit;
  if (copies < 2)
    return NOT_CHOSEN;
  l.workers = info.workers;
  l.simd = info.simd;
  l.local_bytes = copies * stride * 4;
  lsk_arg a[14];
  for (int i = 0; i < 9; ++i)
    a[i] = args[i];
  a[9] = LSK_ARG_UINT((uint32_t)copies);
  a[10] = LSK_ARG_UINT((uint32_t)stride);
  a[11] = args[9];
  a[12] = args[10];
  a[13] = LSK_ARG_DYN_LOCAL;
  return lsk__launch_q(k, q, fn, &l, a, 14);
}

/* The counters' span, the zeroing, and the pass with the kernel of the
 * slot type tname (uint, float, double); lo, hi and scale are its
 * arguments of that type. */
static int histogram(lsk_context *ctx, lsk_queue *q, const char *fn, const char *tname,
                     lsk_buffer *in, size_t offset, size_t n, lsk_arg lo, lsk_arg hi, lsk_arg scale,
                     size_t nbins, size_t slots, lsk_buffer *out, size_t out_offset,
                     const lsk_algo_options *opt)
{
  int rc;
  if ((rc = lsk__check_span(ctx, fn, "bins_out", out, out_offset, slots, 4)))
    return rc;
  lsk__plan p, pz;
  if ((rc = lsk__algo_plan(ctx, fn, n, opt, &p)) || (rc = lsk__algo_plan(ctx, fn, slots, opt, &pz)))
    return rc;
  /* The build of tname's kernels, the zeroing's too. */
  char options[32];
  snprintf(options, sizeof options, "-DLSK_T=%s", tname);
  lsk_kernel *zero;
  if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_HISTOGRAM, options, "lsk_histogram_zero", &zero)))
    return rc;
  lsk_launch lz = lsk__plan_launch(&pz, pz.blocks);
  rc = lsk__launch_q(zero, q, fn, &lz,
                     LSK_ARGS(LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)out_offset),
                              LSK_ARG_UINT((uint32_t)slots)));
  if (rc || n == 0)
    return rc;
  lsk_arg range[3] = {lo, hi, scale};
  int gpu = histogram_gpu_path(ctx);
  if (!gpu && (rc = histogram_private(ctx, q, fn, options, tname, in, offset, n, range, nbins,
                                      slots, out, out_offset, opt)) != NOT_CHOSEN)
    return rc;
  /* The local kernel where its build's own local memory and one counter
   * per slot fit the device's. */
  char name[48];
  snprintf(name, sizeof name, "lsk_histogram_%s_local", tname);
  lsk_kernel *k;
  if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_HISTOGRAM, options, name, &k)))
    return rc;
  lsk_arg args[] = {LSK_ARG_BUFFER(in),
                    LSK_ARG_UINT((uint32_t)offset),
                    LSK_ARG_UINT((uint32_t)n),
                    LSK_ARG_UINT((uint32_t)p.per_block),
                    lo,
                    hi,
                    scale,
                    LSK_ARG_UINT((uint32_t)nbins),
                    LSK_ARG_UINT((uint32_t)slots),
                    LSK_ARG_BUFFER(out),
                    LSK_ARG_UINT((uint32_t)out_offset),
                    LSK_ARG_DYN_LOCAL};
  if (gpu && (rc = histogram_copies(ctx, q, fn, options, tname, &p, args, slots)) != NOT_CHOSEN)
    return rc;
  lsk_launch l = lsk__plan_launch(&p, p.blocks);
  lsk_kernel_info info;
  if ((rc = lsk_kernel_query(k, &l, &info)))
    return rc;
  uint64_t local = lsk__context_info(ctx)->local_mem_size;
  int use_local =
      info.local_static_bytes <= local && (uint64_t)slots * 4 <= local - info.local_static_bytes;
  if (use_local) {
    l.local_bytes = slots * 4;
  } else {
    snprintf(name, sizeof name, "lsk_histogram_%s_global", tname);
    if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_HISTOGRAM, options, name, &k)))
      return rc;
  }
  return lsk__launch_q(k, q, fn, &l, args, use_local ? 12 : 11);
}

/* nbins: at least 1, and the counters below 2^32. */
static int check_nbins(lsk_context *ctx, const char *fn, size_t nbins, size_t extra)
{
  if (nbins == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: nbins is 0", fn);
  if (nbins > UINT32_MAX - extra)
    return lsk__fail(ctx, LSK_ERANGE, "%s: nbins %zu + %zu extra counters exceed 2^32 - 1", fn,
                     nbins, extra);
  return LSK_OK;
}

int lsk_histogram_uint(lsk_context *ctx, lsk_buffer *keys, size_t offset, size_t n, size_t nbins,
                       lsk_buffer *bins_out, size_t out_offset, const lsk_algo_options *opt,
                       const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  int rc = lsk__check_span(ctx, __func__, "keys", keys, offset, n, 4);
  if (rc || (rc = check_nbins(ctx, __func__, nbins, LSK_HISTOGRAM_UINT_EXTRA)))
    return rc;
  lsk__on o;
  rc = lsk__lib_begin(ctx, on, __func__, &o);
  if (!rc)
    rc = histogram(ctx, o.q, __func__, "uint", keys, offset, n, LSK_ARG_UINT(0), LSK_ARG_UINT(0),
                   LSK_ARG_UINT(0), nbins, nbins + LSK_HISTOGRAM_UINT_EXTRA, bins_out, out_offset,
                   opt);
  return lsk__lib_end(ctx, &o, rc, __func__);
}

/* lo and hi in the type, checked; the scale (T)nbins / (hi - lo). */
static int real_range(lsk_context *ctx, const char *fn, lsk_type type, double lo, double hi,
                      size_t nbins, lsk_arg a[3])
{
  if (!isfinite(lo) || !isfinite(hi))
    return lsk__fail(ctx, LSK_EINVAL, "%s: lo %g and hi %g must be finite", fn, lo, hi);
  if (type == LSK_TYPE_FLOAT) {
    if (fabs(lo) > FLT_MAX || fabs(hi) > FLT_MAX)
      return lsk__fail(ctx, LSK_EINVAL, "%s: lo %g or hi %g is not finite as a float", fn, lo, hi);
    float l = (float)lo, h = (float)hi;
    if (!(l < h))
      return lsk__fail(ctx, LSK_EINVAL, "%s: lo %.9g is not below hi %.9g (as floats)", fn,
                       (double)l, (double)h);
    float w = h - l, s = (float)nbins / w;
    if (!isfinite(w) || !isfinite(s))
      return lsk__fail(ctx, LSK_EINVAL,
                       "%s: hi - lo (%.9g) or nbins / (hi - lo) is not finite as a float", fn,
                       (double)w);
    a[0] = LSK_ARG_FLOAT(l);
    a[1] = LSK_ARG_FLOAT(h);
    a[2] = LSK_ARG_FLOAT(s);
    return LSK_OK;
  }
  if (!(lo < hi))
    return lsk__fail(ctx, LSK_EINVAL, "%s: lo %.17g is not below hi %.17g", fn, lo, hi);
  double w = hi - lo, s = (double)nbins / w;
  if (!isfinite(w) || !isfinite(s))
    return lsk__fail(ctx, LSK_EINVAL, "%s: hi - lo (%.17g) or nbins / (hi - lo) is not finite", fn,
                     w);
  a[0] = LSK_ARG_DOUBLE(lo);
  a[1] = LSK_ARG_DOUBLE(hi);
  a[2] = LSK_ARG_DOUBLE(s);
  return LSK_OK;
}

int lsk_histogram_real(lsk_context *ctx, lsk_type type, lsk_buffer *values, size_t offset, size_t n,
                       double lo, double hi, size_t nbins, lsk_buffer *bins_out, size_t out_offset,
                       const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  int rc = lsk__check_type(ctx, __func__, type, (1u << LSK_TYPE_FLOAT) | (1u << LSK_TYPE_DOUBLE));
  lsk_arg a[3];
  if (rc ||
      (rc = lsk__check_span(ctx, __func__, "values", values, offset, n, lsk_type_size(type))) ||
      (rc = check_nbins(ctx, __func__, nbins, LSK_HISTOGRAM_REAL_EXTRA)) ||
      (rc = real_range(ctx, __func__, type, lo, hi, nbins, a)))
    return rc;
  lsk__on o;
  rc = lsk__lib_begin(ctx, on, __func__, &o);
  if (!rc)
    rc = histogram(ctx, o.q, __func__, lsk_type_name(type), values, offset, n, a[0], a[1], a[2],
                   nbins, nbins + LSK_HISTOGRAM_REAL_EXTRA, bins_out, out_offset, opt);
  return lsk__lib_end(ctx, &o, rc, __func__);
}
