/*
 * shape.c: the launch-shape policy, in one place: the device's limit on
 * workers per block, the automatic rule (workers and simd for a block
 * domain), the completion of a launch that gives only workers or only simd,
 * the number of blocks for a grid-strided pass or for a count in data
 * blocks (lsk_launch_for), and the shapes lsk_tune tries. The kernel
 * library, the tuner and code built on lsk ask here rather than carry
 * their own rules.
 */
#include <string.h>

#include "launch/launch.h"

size_t lsk__device_max_workers(const lsk_device_info *dev)
{
  size_t dev_max = dev->max_work_group_size;
  if (dev->max_work_item_sizes[0] && dev->max_work_item_sizes[0] < dev_max)
    dev_max = dev->max_work_item_sizes[0];
  return dev_max;
}

static unsigned round_up(unsigned v, unsigned m) { return (v + m - 1) / m * m; }
static unsigned ceil_div(size_t a, size_t b) { return (unsigned)((a + b - 1) / b); }

/* On CPU back-ends a worker should get one contiguous run per step (the
 * rule: docs/lockstep.md, "Choosing workers and simd"; the measurements:
 * docs/perf/triad.md, "Shapes swept"); the run is capped so that context
 * variables stay small. The floor of workers is 2: PoCL runs a block's
 * workers as a loop, and each repeats the block's own work (finding its
 * data, its part of a block collective), so a short domain ran faster on
 * 2 than on 8 (docs/perf/sparse.md, "The automatic rule's floor"). Where
 * loops are capped (llvmpipe, docs/rusticl.md) the floor stays 8: there
 * the workers run in vector lanes, not as a loop, and fewer of them would
 * bring each one's iterations four times closer to the cap. */
#define LSK__CPU_WORKERS 2u
#define LSK__CAPPED_WORKERS 8u
#define LSK__CPU_MAX_SIMD 256u

/* The GPU's scheduling unit: NVIDIA's warp size, else the preferred
 * work-group multiple, else 32. */
static unsigned gpu_warp(const lsk_device_info *dev)
{
  if (dev->warp_size)
    return dev->warp_size;
  return dev->preferred_multiple ? (unsigned)dev->preferred_multiple : 32;
}

/* The CPU rule's workers: runs of at most LSK__CPU_MAX_SIMD, at least the
 * floor, within the domain and wmax. */
static unsigned cpu_workers(const lsk_device_info *dev, size_t domain, size_t wmax)
{
  unsigned least = dev->loops_capped ? LSK__CAPPED_WORKERS : LSK__CPU_WORKERS;
  unsigned workers = ceil_div(domain, LSK__CPU_MAX_SIMD);
  if (workers < least)
    workers = least;
  if (workers > domain)
    workers = (unsigned)domain;
  if (workers > wmax)
    workers = (unsigned)wmax;
  return workers;
}

/* Given the workers, the CPU's simd: one step where the cap allows. */
static void cpu_shape(size_t domain, unsigned workers, unsigned *w, unsigned *s)
{
  unsigned simd = ceil_div(domain, workers);
  *w = workers;
  *s = simd > LSK__CPU_MAX_SIMD ? LSK__CPU_MAX_SIMD : simd;
}

void lsk_auto_shape(const lsk_device_info *dev, size_t domain, size_t kernel_max, unsigned *workers,
                    unsigned *simd)
{
  unsigned w = 1, s = 1;
  if (dev && domain) {
    size_t wmax = lsk__device_max_workers(dev);
    wmax = wmax ? wmax : 1;
    if (kernel_max && kernel_max < wmax)
      wmax = kernel_max;
    if (dev->is_gpu) {
      /* GPUs: one index per worker per step, whole warps. */
      unsigned warp = gpu_warp(dev);
      unsigned cap = wmax >= warp ? (unsigned)(wmax / warp * warp) : (unsigned)wmax;
      w = domain > cap ? cap : round_up((unsigned)domain, warp);
      if (w > cap)
        w = cap;
    } else {
      cpu_shape(domain, cpu_workers(dev, domain, wmax), &w, &s);
    }
  }
  if (workers)
    *workers = w ? w : 1;
  if (simd)
    *simd = s ? s : 1;
}

void lsk__resolve_shape(const lsk_device_info *dev, size_t domain, size_t kernel_max,
                        unsigned req_w, unsigned req_s, unsigned *w, unsigned *s)
{
  if (!req_w && !req_s) {
    lsk_auto_shape(dev, domain, kernel_max, w, s);
    return;
  }
  if (req_w && req_s) {
    *w = req_w;
    *s = req_s;
  } else if (req_w) {
    *w = req_w;
    if (dev->is_gpu)
      *s = 1;
    else
      cpu_shape(domain, req_w, w, s);
  } else {
    /* simd given: enough workers to cover the domain in one step. */
    size_t wmax = kernel_max ? kernel_max : lsk__device_max_workers(dev);
    unsigned want = ceil_div(domain, req_s);
    if (dev->is_gpu)
      want = round_up(want, gpu_warp(dev));
    *w = want > wmax ? (unsigned)wmax : want;
    *s = req_s;
  }
}

size_t lsk_auto_blocks(const lsk_device_info *dev, size_t items, size_t per_block,
                       unsigned per_unit)
{
  size_t cus = dev && dev->compute_units ? dev->compute_units : 1;
  size_t per = per_block ? per_block : 1;
  size_t want = items / per + (items % per != 0);
  size_t most = cus * (per_unit ? per_unit : (dev && dev->is_gpu ? 8 : 4));
  if (most > UINT32_MAX)
    most = UINT32_MAX;
  return want < 1 ? 1 : want > most ? most : want;
}

int lsk_launch_for(size_t count, const unsigned domain[3], const lsk_launch_for_options *opt,
                   lsk_launch *out)
{
  LSK__API();
  if (out)
    memset(out, 0, sizeof *out);
  if (!out || !domain)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, !out ? "out" : "domain");
  size_t per = opt ? opt->per_block : 0, most = opt ? opt->max_blocks : 0;
  uint64_t size = (uint64_t)domain[0] * (domain[1] ? domain[1] : 1) * (domain[2] ? domain[2] : 1);
  if (!per && !domain[0])
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: domain[0] is 0 (the kernel's declared domain) and per_block is 0 (the "
                     "domain's size): give one of them",
                     __func__);
  if (size > LSK_MAX_DOMAIN)
    return lsk__fail(NULL, LSK_EDOMAIN, "%s: domain %u x %u x %u is %llu indices, above %u",
                     __func__, domain[0], domain[1], domain[2], (unsigned long long)size,
                     LSK_MAX_DOMAIN);
  if (!per)
    per = (size_t)size;
  size_t blocks = count / per + (count % per != 0);
  if (most && blocks > most)
    blocks = most;
  if (blocks > UINT32_MAX)
    return lsk__fail(NULL, LSK_ERANGE,
                     "%s: count %zu in data blocks of %zu needs %zu blocks, above 2^32 - 1 (set "
                     "max_blocks)",
                     __func__, count, per, blocks);
  for (int a = 0; a < 3; ++a)
    out->domain[a] = domain[a];
  out->blocks[0] = blocks ? blocks : 1;
  return LSK_OK;
}

/* The kernel library's passes over tiles (reduce, scan, compact, assoc):
 * on CPUs 16 blocks per compute unit, more than lsk_auto_blocks' default,
 * so that PoCL's threads balance tiles of unequal cost. */
size_t lsk__algo_blocks(const lsk_device_info *dev, size_t tiles)
{
  return lsk_auto_blocks(dev, tiles, 1, dev->is_gpu ? 8 : 16);
}

int lsk__check_shape(lsk_context *ctx, const char *fn, unsigned workers, size_t blocks)
{
  const lsk_device_info *d = lsk__context_info(ctx);
  size_t most = lsk__device_max_workers(d);
  if (workers && most && workers > most)
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: workers %u exceed the %zu that %s allows", fn, workers,
                     most, d->name);
  if (blocks > UINT32_MAX)
    return lsk__fail(ctx, LSK_ERANGE, "%s: blocks %zu exceed 2^32 - 1", fn, blocks);
  return LSK_OK;
}

/* The shapes lsk_tune tries: powers of two of workers, each with simd 1
 * and with the simd that covers the domain in one step. */
size_t lsk_tune_candidates(const lsk_device_info *dev, size_t domain, size_t kernel_max,
                           lsk_tune_shape *out, size_t cap)
{
  if (!dev || !domain)
    return 0;
  size_t wmax = lsk__device_max_workers(dev);
  wmax = wmax ? wmax : 1;
  if (kernel_max && kernel_max < wmax)
    wmax = kernel_max;
  if (domain < wmax)
    wmax = domain;
  size_t n = 0;
  for (size_t w = 1; w <= wmax; w *= 2) {
    unsigned one_step = (unsigned)((domain + w - 1) / w);
    for (int i = 0; i < 2; ++i) {
      unsigned s = i ? one_step : 1;
      if (i && one_step == 1)
        break;
      if (n < cap && out)
        out[n] = (lsk_tune_shape){(unsigned)w, s};
      ++n;
    }
  }
  return n;
}
