/*
 * build.c: builds asked for outside a launch (include/lsk/program.h):
 * lsk_program_build resolves a kernel's configuration as a launch would
 * (domain, stored choice, rule, the kernel's own limit) and builds it;
 * lsk_program_kernel_names builds the configuration the shape rule
 * completes and lists its kernels. In the launch layer because both
 * resolve a shape; core/program.c builds a configuration it is given.
 */
#include <stdlib.h>
#include <string.h>

#include "launch/kernel.h"

int lsk_program_build(lsk_program *prog, const char *kernel_name, const lsk_launch *cfg)
{
  LSK__API();
  LSK__LIVE(NULL, prog, PROGRAM, __func__, "prog");
  lsk_context *ctx = lsk__program_context(prog);
  if (!kernel_name || !*kernel_name || !cfg)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s", __func__,
                     cfg ? "kernel_name is NULL or empty" : "cfg is NULL");
  lsk_kernel *k;
  int rc = lsk_kernel_create(prog, kernel_name, &k);
  if (rc)
    return rc;
  unsigned w, s;
  lsk__kentry *e;
  lsk__lock(ctx); /* a build, as in a launch (docs/threads.md) */
  rc = lsk__kernel_resolve(k, cfg, __func__, 1, &e, &w, &s);
  lsk__unlock(ctx);
  lsk_kernel_destroy(k);
  return rc;
}

int lsk_program_kernel_names(lsk_program *prog, const lsk_launch *cfg, char **names)
{
  LSK__API();
  if (names)
    *names = NULL;
  LSK__LIVE(NULL, prog, PROGRAM, __func__, "prog");
  lsk_context *ctx = lsk__program_context(prog);
  if (!cfg || !names)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s is NULL", __func__, cfg ? "names" : "cfg");
  unsigned dom[3] = {cfg->domain[0], cfg->domain[1] ? cfg->domain[1] : 1,
                     cfg->domain[2] ? cfg->domain[2] : 1};
  if (cfg->domain[0] == 0) {
    if (cfg->domain[1] || cfg->domain[2])
      return lsk__fail(ctx, LSK_EINVAL, "%s: domain %ux%ux%u has a zero extent", __func__,
                       cfg->domain[0], cfg->domain[1], cfg->domain[2]);
    if (!lsk__program_declared(prog, NULL, dom))
      return lsk__fail(ctx, LSK_EDOMAIN,
                       "%s: program '%s' declares no block domain and cfg gives none", __func__,
                       lsk__program_name(prog));
  }
  uint64_t size = (uint64_t)dom[0] * dom[1] * dom[2];
  if (size > LSK_MAX_DOMAIN)
    return lsk__fail(ctx, LSK_EDOMAIN, "%s: block domain %ux%ux%u has %llu indices, more than %u",
                     __func__, dom[0], dom[1], dom[2], (unsigned long long)size, LSK_MAX_DOMAIN);
  if ((uint64_t)cfg->simd * (cfg->workers ? cfg->workers : 1) > (1u << 30))
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: simd %u x %u workers exceeds 2^30", __func__, cfg->simd,
                     cfg->workers);
  int rc = lsk__check_shape(ctx, __func__, cfg->workers, 0);
  if (rc)
    return rc;
  unsigned w, s;
  lsk__resolve_shape(lsk__context_info(ctx), (size_t)size, 0, cfg->workers, cfg->simd, &w, &s);
  lsk__build *b;
  lsk__lock(ctx); /* a build, as in a launch (docs/threads.md) */
  rc = lsk__program_get_build(prog, dom, w, s, &b);
  lsk__unlock(ctx);
  if (rc)
    return rc;
  size_t n = 0;
  cl_int err = clGetProgramInfo(lsk__build_program(b), CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n);
  char *text = err ? NULL : malloc(n + 1);
  if (!err && !text)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  if (!err)
    err = clGetProgramInfo(lsk__build_program(b), CL_PROGRAM_KERNEL_NAMES, n, text, NULL);
  if (err) {
    free(text);
    return lsk__fail_cl(ctx, err, "clGetProgramInfo", " (CL_PROGRAM_KERNEL_NAMES of '%s')",
                        lsk__program_name(prog));
  }
  text[n] = 0;
  *names = text;
  return LSK_OK;
}
