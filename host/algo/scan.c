/*
 * scan.c: device-wide prefix sums. One block: one pass. More: the block
 * sums (kernels/reduce.cl), an in-place exclusive scan of those by one
 * block, then every block's scan from its prefix (kernels/scan.cl). On
 * CPUs the CPU path instead (cpu_path, scan_cpu); on GPUs with 64-bit
 * atomics, out of place, the single-pass look-back (lookback_path,
 * scan_lookback).
 */
#include <stdio.h>
#include <stdlib.h>

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

/*
 * The CPU path (kernels/scan.cl, "The CPU path"): where the device is no
 * GPU and runs loops of any length (not llvmpipe), chunks of the array
 * that fit the caches, each a pass of segment sums and a pass of serial
 * segment scans from their carries, one work-item per segment: the second
 * pass reads the chunk from the cache, so the array is read from memory
 * once. On PoCL's 2 cores (2026-11-27) the lockstep path's reduce, then
 * scan with a block scan per tile step, moved 0.47 of the limit row's
 * bytes per second; see docs/perf/algorithms.md. GPUs keep the lockstep
 * path.
 */
static int cpu_path(lsk_context *ctx) { return lsk__algo_cpu_path(ctx, "LSK_SCAN_CPU"); }

/* Elements per chunk of the CPU path (two chunks' input and output fit
 * this machine's 32 MiB L3; measured 2026-11-27). */
#define CPU_CHUNK ((size_t)1 << 20)

/* Whether the CPU path's second pass streams its output (non-temporal
 * stores on x86, kernels/scan.cl): where the output is larger than this
 * machine's 32 MiB L3, so that it would leave the caches anyway, or as
 * LSK_SCAN_STREAM says (1 always, 0 never). */
#define CPU_STREAM_BYTES ((size_t)32 << 20)
static int cpu_stream(size_t bytes)
{
  if (lsk__getenv("LSK_SCAN_STREAM"))
    return lsk__getenv_bool("LSK_SCAN_STREAM", 0);
  return bytes >= CPU_STREAM_BYTES;
}

/* The CPU path on queue q, the checks and the plan done: chunks of nseg x
 * seglen elements (opt's tile x blocks elements when it sets both, so that
 * small tests run several chunks). */
static int scan_cpu(lsk_context *ctx, lsk_queue *q, const char *fn, lsk_type type, int incl,
                    lsk_buffer *in, size_t in_offset, lsk_buffer *out, size_t out_offset, size_t n,
                    const lsk_algo_options *opt, const lsk__plan *p)
{
  char name[48], options[48];
  snprintf(options, sizeof options, "-DLSK_T=%s -DLSK_SCAN_CPU=1", lsk_type_name(type));
  lsk_kernel *sums, *segs;
  snprintf(name, sizeof name, "lsk_scan_sums_%s", lsk_type_name(type));
  int rc = lsk__lib_kernel_for(ctx, LSK__LIB_SCAN, options, name, &sums);
  snprintf(name, sizeof name, "lsk_scan_segs_%s", lsk_type_name(type));
  if (rc || (rc = lsk__lib_kernel_for(ctx, LSK__LIB_SCAN, options, name, &segs)))
    return rc;
  lsk_launch l;
  size_t nseg;
  if ((rc = lsk__algo_segments(ctx, fn, segs, p, opt, n, UINT32_MAX - 2, &l, &nseg)))
    return rc;
  size_t want = opt && opt->tile && opt->blocks ? (size_t)opt->tile * opt->blocks : CPU_CHUNK;
  if (want > n)
    want = n;
  size_t seglen = (want + nseg - 1) / nseg;
  seglen = (seglen + 7) / 8 * 8;
  size_t chunk = nseg * seglen;
  if (seglen > UINT32_MAX)
    return lsk__fail(ctx, LSK_ERANGE, "%s: segments of %zu elements exceed 2^32 - 1", fn, seglen);
  lsk_buffer *cells = NULL;
  uint32_t stream = (uint32_t)cpu_stream(n * lsk_type_size(type));
  if ((rc = lsk__scratch(ctx, q, (nseg + 2) * lsk_type_size(type), &cells)))
    return rc;
  for (size_t first = 0, c = 0; !rc && first < n; first += chunk, ++c) {
    rc = lsk__launch_q(sums, q, fn, &l,
                       LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_UINT((uint32_t)in_offset),
                                LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT((uint32_t)first),
                                LSK_ARG_UINT((uint32_t)seglen), LSK_ARG_BUFFER(cells)));
    if (!rc)
      rc = lsk__launch_q(
          segs, q, fn, &l,
          LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_UINT((uint32_t)in_offset), LSK_ARG_UINT((uint32_t)n),
                   LSK_ARG_UINT((uint32_t)first), LSK_ARG_UINT((uint32_t)seglen),
                   LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)out_offset), LSK_ARG_BUFFER(cells),
                   LSK_ARG_UINT((uint32_t)nseg), LSK_ARG_UINT((uint32_t)(c & 1)),
                   LSK_ARG_UINT(c == 0), LSK_ARG_UINT((uint32_t)incl), LSK_ARG_UINT(stream)));
  }
  lsk__scratch_free(cells, q);
  return rc;
}

/*
 * The look-back path (kernels/scan.cl, "The look-back kernel"): one pass
 * that reads the input once from memory (each tile a second time from the
 * cache) and writes the output once, where reduce-then-scan reads it
 * twice from memory. It needs 64-bit atomics (cl_khr_int64_base_atomics:
 * NVIDIA, PoCL and oclgrind have them, rusticl's llvmpipe does not) and
 * an out-of-place call (in place, the kernel's fallback would read input
 * that its owner may be overwriting: see scan.cl). Taken on GPUs, or
 * where LSK_SCAN_LOOKBACK is set, as it says (1 on, 0 off: the tests run
 * it on PoCL, the bench times both paths on a GPU). -1: the variable is
 * not set.
 */
static int lookback_env(void)
{
  return lsk__getenv("LSK_SCAN_LOOKBACK") ? lsk__getenv_bool("LSK_SCAN_LOOKBACK", 0) : -1;
}

static int lookback_path(lsk_context *ctx, int in_place, int env)
{
  const lsk_device_info *d = lsk__context_info(ctx);
  if (in_place || !d || !d->has_int64_atomics)
    return 0;
  return env >= 0 ? env : d->is_gpu;
}

/* Elements per tile of the look-back path where the caller sets no tile:
 * 8192 (32 KiB of floats; 8 per worker with a GPU's 1024 workers), so that
 * a tile's look-back (a few atomics at the L2's latency) is small beside
 * its streaming, and a fallback sums one tile of that size. */
#define LOOKBACK_TILE 8192u

static int scan_lookback(lsk_context *ctx, lsk_queue *q, const char *fn, lsk_type type, int incl,
                         lsk_buffer *in, size_t in_offset, lsk_buffer *out, size_t out_offset,
                         size_t n, const lsk_algo_options *opt, lsk_buffer *given)
{
  lsk_algo_options o = opt ? *opt : (lsk_algo_options){0};
  if (!o.tile)
    o.tile = LOOKBACK_TILE;
  lsk__plan p;
  int rc = lsk__algo_plan(ctx, fn, n, &o, &p);
  if (rc)
    return rc;
  /* LSK_SCAN_LOOKBACK_HOOK (tests): the kernel's test orders (scan.cl). */
  const char *hook = lsk__getenv("LSK_SCAN_LOOKBACK_HOOK");
  unsigned h = hook ? (unsigned)strtoul(hook, NULL, 10) & 3u : 0u;
  char name[48], options[64];
  snprintf(options, sizeof options, "-DLSK_T=%s%s", lsk_type_name(type),
           h == 1   ? " -DLSK_SCAN_LOOKBACK_HOOK=1"
           : h == 2 ? " -DLSK_SCAN_LOOKBACK_HOOK=2"
           : h == 3 ? " -DLSK_SCAN_LOOKBACK_HOOK=3"
                    : "");
  lsk_kernel *clear, *scan;
  snprintf(name, sizeof name, "lsk_scan_lookback_%s", lsk_type_name(type));
  if ((rc = lsk__lib_kernel_for(ctx, LSK__LIB_SCAN, options, "lsk_lookback_clear", &clear)) ||
      (rc = lsk__lib_kernel_for(ctx, LSK__LIB_SCAN, options, name, &scan)))
    return rc;
  /* The ticket and one state word per tile. */
  size_t count = p.tiles + 1;
  if (count > UINT32_MAX)
    return lsk__fail(ctx, LSK_ERANGE, "%s: %zu tiles exceed 2^32 - 2", fn, p.tiles);
  lsk_buffer *cells = given;
  if (given && lsk_buffer_size(given) < count * sizeof(uint64_t))
    return lsk__fail(ctx, LSK_ERANGE, "%s: cells hold fewer than %zu words", fn, count);
  if (!given && (rc = lsk__scratch(ctx, q, count * sizeof(uint64_t), &cells)))
    return rc;
  size_t cblocks = (count + p.tile - 1) / p.tile;
  lsk_launch lc = lsk__plan_launch(&p, cblocks < p.blocks ? cblocks : p.blocks);
  rc = lsk__launch_q(clear, q, fn, &lc,
                     LSK_ARGS(LSK_ARG_BUFFER(cells), LSK_ARG_UINT((uint32_t)count)));
  /* One block per tile (scan.cl): the options' blocks do not apply. */
  lsk_launch l = lsk__plan_launch(&p, p.tiles);
  if (!rc)
    rc = lsk__launch_q(scan, q, fn, &l,
                       LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_UINT((uint32_t)in_offset),
                                LSK_ARG_UINT((uint32_t)n), LSK_ARG_BUFFER(out),
                                LSK_ARG_UINT((uint32_t)out_offset), LSK_ARG_BUFFER(cells),
                                LSK_ARG_UINT((uint32_t)incl)));
  if (!given)
    lsk__scratch_free(cells, q);
  return rc;
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
  /* The look-back where LSK_SCAN_LOOKBACK says so, else the CPU path's
   * rule, else the look-back on GPUs. */
  int env = lookback_env(), in_place = in == out && in_offset == out_offset;
  if ((env >= 0 || !cpu_path(ctx)) && lookback_path(ctx, in_place, env))
    return scan_lookback(ctx, q, fn, type, kind == LSK_SCAN_INCLUSIVE, in, in_offset, out,
                         out_offset, n, opt, NULL);
  lsk__plan p;
  if ((rc = lsk__algo_plan(ctx, fn, n, opt, &p)))
    return rc;
  if (cpu_path(ctx))
    return scan_cpu(ctx, q, fn, type, kind == LSK_SCAN_INCLUSIVE, in, in_offset, out, out_offset, n,
                    opt, &p);
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

int lsk__scan_lookback(lsk_context *ctx, lsk_type type, lsk_scan_kind kind, lsk_buffer *in,
                       size_t in_offset, lsk_buffer *out, size_t out_offset, size_t n,
                       const lsk_algo_options *opt, lsk_buffer *cells)
{
  lsk__on o;
  int rc = lsk__lib_begin(ctx, NULL, __func__, &o);
  if (!rc && !lsk__context_info(ctx)->has_int64_atomics)
    rc = lsk__fail(ctx, LSK_EINVAL, "%s: the device has no 64-bit atomics", __func__);
  if (!rc && n)
    rc = scan_lookback(ctx, o.q, __func__, type, kind == LSK_SCAN_INCLUSIVE, in, in_offset, out,
                       out_offset, n, opt, cells);
  return lsk__lib_end(ctx, &o, rc, __func__);
}
