/*
 * resolve.c: a launch resolved into a build and a shape: the block domain
 * (the launch's, or the one the source declares), then the workers and
 * simd (the launch's, a choice stored by lsk tune, else the automatic
 * rule: shape.c), the build of that configuration (core/program.c) and the
 * kernel's entry in it, its limits and argument table. A repeated launch
 * is one comparison with the last one; no device or kernel query happens
 * there. Also lsk_kernel_shape and lsk_kernel_query, which resolve
 * without launching, and what lsk_tune asks of a kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "launch/kernel.h"
#include "launch/tune.h"

static int no_such_kernel(lsk_kernel *k, cl_program program, const char *fn)
{
  char names[1024] = "";
  clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
  names[sizeof names - 1] = 0;
  return lsk__fail(k->ctx, LSK_ENOKERNEL, "%s: no kernel '%s' in program '%s' (it has: %s)", fn,
                   k->name, lsk__program_name(k->prog), names[0] ? names : "none");
}

/* NVIDIA's OpenCL (driver 580, on an H100 and an H200) answers 256 to
 * CL_KERNEL_WORK_GROUP_SIZE for every kernel, one that stores a constant
 * included, yet runs a kernel built with reqd_work_group_size(1024) at
 * 1024 work-items: its PTX carries .reqntid 1024, under which ptxas fits
 * the registers to that many. lsk builds every kernel with its workers as
 * the required size, so there the build's own size is the limit (the
 * device's maximum still caps it). Elsewhere the answer stands. */
static size_t required_size_limit(lsk_context *ctx, cl_kernel kern, size_t wg_max)
{
  size_t req[3] = {0, 0, 0};
  if (!strstr(lsk__context_info(ctx)->vendor, "NVIDIA") ||
      clGetKernelWorkGroupInfo(kern, lsk__context_device(ctx), CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                               sizeof req, req, NULL))
    return wg_max;
  size_t n = req[0] * (req[1] ? req[1] : 1) * (req[2] ? req[2] : 1);
  return n > wg_max ? n : wg_max;
}

static int get_entry(lsk_kernel *k, lsk__build *b, const char *fn, lsk__kentry **out)
{
  for (lsk__kentry *e = k->entries; e; e = e->next)
    if (e->build == b) {
      *out = e;
      return LSK_OK;
    }
  lsk_context *ctx = k->ctx;
  cl_int err;
  cl_kernel kern = clCreateKernel(lsk__build_program(b), k->name, &err);
  if (err == CL_INVALID_KERNEL_NAME)
    return no_such_kernel(k, lsk__build_program(b), fn);
  if (err)
    return lsk__fail_cl(ctx, err, "clCreateKernel", " ('%s')", k->name);
  lsk__kentry *e = calloc(1, sizeof *e);
  if (!e) {
    clReleaseKernel(kern);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  }
  e->build = b;
  e->kernel = kern;
  err = clGetKernelWorkGroupInfo(kern, lsk__context_device(ctx), CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof e->wg_max, &e->wg_max, NULL);
  if (!err)
    e->wg_max = required_size_limit(ctx, kern, e->wg_max);
  /* Never above the device's own limit (OpenCL promises as much); under a
   * model (LSK_SHAPES) the model's: a kernel takes 1024 work-items at most
   * there, as on the modeled GPU. */
  if (!err && lsk__context_info(ctx)->max_work_group_size &&
      e->wg_max > lsk__context_info(ctx)->max_work_group_size)
    e->wg_max = lsk__context_info(ctx)->max_work_group_size;
  if (!err)
    err = clGetKernelWorkGroupInfo(kern, lsk__context_device(ctx), CL_KERNEL_LOCAL_MEM_SIZE,
                                   sizeof e->local_static, &e->local_static, NULL);
  /* For reports only: an implementation that does not say gives 0. */
  if (!err && clGetKernelWorkGroupInfo(kern, lsk__context_device(ctx), CL_KERNEL_PRIVATE_MEM_SIZE,
                                       sizeof e->private_mem, &e->private_mem, NULL))
    e->private_mem = 0;
  if (!err)
    err = lsk__args_read(e);
  if (err) {
    clReleaseKernel(kern);
    free(e->args);
    free(e);
    return lsk__fail_cl(ctx, err, "clGetKernelWorkGroupInfo", " ('%s')", k->name);
  }
  if (!lsk__args_take_ctx(e)) {
    clReleaseKernel(kern);
    free(e->args);
    free(e);
    return lsk__fail(ctx, LSK_EARGS, "%s: kernel '%s' must take LSK_CTX as its first parameter", fn,
                     k->name);
  }
  e->next = k->entries;
  k->entries = e;
  *out = e;
  return LSK_OK;
}

/* The launch's domain, or the declared one, checked against the
 * declaration. */
static int resolve_domain(lsk_kernel *k, const lsk_launch *cfg, const char *fn, unsigned dom[3])
{
  lsk_context *ctx = k->ctx;
  dom[0] = cfg->domain[0];
  dom[1] = cfg->domain[1] ? cfg->domain[1] : 1;
  dom[2] = cfg->domain[2] ? cfg->domain[2] : 1;
  if (cfg->domain[0] == 0) {
    if (cfg->domain[1] || cfg->domain[2])
      return lsk__fail(ctx, LSK_EINVAL, "%s: kernel '%s': domain %ux%ux%u has a zero extent", fn,
                       k->name, cfg->domain[0], cfg->domain[1], cfg->domain[2]);
    if (!k->has_decl)
      return lsk__fail(ctx, LSK_EDOMAIN,
                       "%s: kernel '%s' declares no block domain and the launch gives none", fn,
                       k->name);
    memcpy(dom, k->decl, sizeof k->decl);
  } else if (k->has_decl && memcmp(dom, k->decl, sizeof k->decl) != 0) {
    return lsk__fail(ctx, LSK_EDOMAIN,
                     "%s: kernel '%s' declares block domain %ux%ux%u; the launch asks for %ux%ux%u",
                     fn, k->name, k->decl[0], k->decl[1], k->decl[2], dom[0], dom[1], dom[2]);
  }
  uint64_t size = (uint64_t)dom[0] * dom[1] * dom[2];
  if (size > LSK_MAX_DOMAIN)
    return lsk__fail(ctx, LSK_EDOMAIN,
                     "%s: kernel '%s': block domain %ux%ux%u has %llu indices, more than %u", fn,
                     k->name, dom[0], dom[1], dom[2], (unsigned long long)size, LSK_MAX_DOMAIN);
  return LSK_OK;
}

/* With use_tuned, an automatic launch takes the stored choice if the
 * kernel can run it, and the resolution is kept for the next launch. */
/* The shape of a launch over dom and the kernel's entry in its build: the
 * stored choice tw x ts (tw 0: none), else the launch's own or the rule's.
 * At most three builds: a stored choice may exceed the kernel's own limit
 * (then the rule applies), and an automatic shape may have to shrink to
 * that limit, known only once it is built. */
static int shape_build(lsk_kernel *k, const lsk_launch *cfg, const unsigned dom[3], unsigned tw,
                       unsigned ts, const char *fn, lsk__kentry **out, unsigned *w, unsigned *s)
{
  const lsk_device_info *dev = lsk__context_info(k->ctx);
  size_t size = (size_t)dom[0] * dom[1] * dom[2], kernel_max = 0;
  lsk__kentry *e = NULL;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (tw) {
      *w = tw;
      *s = ts;
    } else {
      lsk__resolve_shape(dev, size, kernel_max, cfg->workers, cfg->simd, w, s);
    }
    lsk__build *b;
    int rc = lsk__program_get_build(k->prog, dom, *w, *s, &b);
    if (!rc)
      rc = get_entry(k, b, fn, &e);
    if (rc)
      return rc;
    if (*w <= e->wg_max)
      break;
    if (tw) {
      tw = 0;
      continue;
    }
    if (cfg->workers || kernel_max)
      return lsk__fail(k->ctx, LSK_ELAUNCH,
                       "%s: kernel '%s': %u workers exceed its limit of %zu on %s "
                       "(CL_KERNEL_WORK_GROUP_SIZE)",
                       fn, k->name, *w, e->wg_max, dev->name);
    kernel_max = e->wg_max;
  }
  *out = e;
  return LSK_OK;
}

int lsk__kernel_resolve(lsk_kernel *k, const lsk_launch *cfg, const char *fn, int use_tuned,
                        lsk__kentry **out, unsigned *workers, unsigned *simd)
{
  lsk_context *ctx = k->ctx;
  unsigned dom[3];
  int rc = resolve_domain(k, cfg, fn, dom);
  if (rc)
    return rc;
  if (use_tuned && k->last && memcmp(dom, k->last_domain, sizeof dom) == 0 &&
      cfg->workers == k->last_req_workers && cfg->simd == k->last_req_simd) {
    *out = k->last;
    *workers = k->last_workers;
    *simd = k->last_simd;
    return LSK_OK;
  }
  const lsk_device_info *dev = lsk__context_info(ctx);
  size_t dev_max = lsk__device_max_workers(dev);
  if (cfg->workers > dev_max)
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: kernel '%s': %u workers exceed the %zu that %s allows",
                     fn, k->name, cfg->workers, dev_max, dev->name);
  /* Device index arithmetic is 32-bit: keep simd * workers well inside. */
  if ((uint64_t)cfg->simd * (cfg->workers ? cfg->workers : 1) > (1u << 30))
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: kernel '%s': simd %u x %u workers exceeds 2^30", fn,
                     k->name, cfg->simd, cfg->workers);
  unsigned tw = 0, ts = 0;
  /* A stored choice outside the device's limits is ignored. */
  if (use_tuned && !cfg->workers && !cfg->simd && lsk__kernel_stored(k, dom, &tw, &ts) &&
      (tw > dev_max || (uint64_t)tw * ts > (1u << 30)))
    tw = 0;
  lsk__kentry *e = NULL;
  unsigned w = 0, s = 0;
  if ((rc = shape_build(k, cfg, dom, tw, ts, fn, &e, &w, &s)))
    return rc;
  if (use_tuned) {
    memcpy(k->last_domain, dom, sizeof dom);
    k->last_req_workers = cfg->workers;
    k->last_req_simd = cfg->simd;
    k->last_workers = w;
    k->last_simd = s;
    k->last = e;
  }
  *out = e;
  *workers = w;
  *simd = s;
  return LSK_OK;
}

int lsk__kernel_tune_view(lsk_kernel *k, const lsk_launch *cfg, int rule, const char *fn,
                          lsk__tune_view *out)
{
  memset(out, 0, sizeof *out);
  out->prog = k->prog;
  out->name = k->name;
  int rc = resolve_domain(k, cfg, fn, out->domain);
  if (rc)
    return rc;
  out->stored = lsk__kernel_stored(k, out->domain, &out->stored_workers, &out->stored_simd);
  if (!rule)
    return LSK_OK;
  lsk_launch c = {.domain = {out->domain[0], out->domain[1], out->domain[2]}, .blocks = {1}};
  lsk__kentry *e;
  rc = lsk__kernel_resolve(k, &c, fn, 0, &e, &out->rule_workers, &out->rule_simd);
  if (!rc)
    out->wg_max = e->wg_max;
  return rc;
}

int lsk_kernel_shape(lsk_kernel *k, const lsk_launch *cfg, unsigned *workers, unsigned *simd)
{
  LSK__API();
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  if (!cfg || !workers || !simd)
    return lsk__fail(k->ctx, LSK_EINVAL, "%s: %s is NULL", __func__,
                     !cfg       ? "cfg"
                     : !workers ? "workers"
                                : "simd");
  lsk__kentry *e;
  lsk__lock(k->ctx);
  int rc = lsk__kernel_resolve(k, cfg, __func__, 1, &e, workers, simd);
  lsk__unlock(k->ctx);
  return rc;
}

int lsk_kernel_query(lsk_kernel *k, const lsk_launch *cfg, lsk_kernel_info *out)
{
  LSK__API();
  if (out)
    memset(out, 0, sizeof *out);
  LSK__LIVE(NULL, k, KERNEL, __func__, "k");
  if (!cfg || !out)
    return lsk__fail(k->ctx, LSK_EINVAL, "%s: %s is NULL", __func__, cfg ? "out" : "cfg");
  lsk__kentry *e;
  unsigned w, s;
  lsk__lock(k->ctx);
  int rc = lsk__kernel_resolve(k, cfg, __func__, 1, &e, &w, &s);
  lsk__unlock(k->ctx);
  if (!rc)
    *out = (lsk_kernel_info){w, s, e->wg_max, (uint64_t)e->local_static, (uint64_t)e->private_mem};
  return rc;
}
