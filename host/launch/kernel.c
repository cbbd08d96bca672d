/*
 * kernel.c: kernels, the resolution of a launch into a build (domain,
 * workers, simd), argument checks and the launch itself.
 *
 * The hot path of a repeated launch is: compare the launch with the last
 * one, check the argument kinds against a table made at the first launch,
 * set the arguments, enqueue. No device or kernel query happens there, and
 * no file is read: the choices stored by lsk_tune are read once, at
 * lsk_kernel_create, and kept in the kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What the kernel expects at one argument, from clGetKernelArgInfo. */
typedef struct lsk__argspec {
  enum { ARG_ANY, ARG_POINTER, ARG_LOCAL, ARG_SCALAR, ARG_OTHER } cls;
  lsk_arg_kind scalar; /* for ARG_SCALAR */
  size_t size;         /* for ARG_SCALAR */
  char type[64];
  char name[32];
} lsk__argspec;

/* The kernel in one build. */
typedef struct lsk__kentry {
  lsk__build *build;
  cl_kernel kernel;
  size_t wg_max;         /* CL_KERNEL_WORK_GROUP_SIZE */
  cl_ulong local_static; /* CL_KERNEL_LOCAL_MEM_SIZE before arguments */
  cl_ulong private_mem;  /* CL_KERNEL_PRIVATE_MEM_SIZE (0 if not reported) */
  cl_uint nargs;         /* including LSK_CTX */
  lsk__argspec *args;    /* nargs entries; all ARG_ANY without arg info */
  struct lsk__kentry *next;
} lsk__kentry;

/* A stored tune choice for one domain, as read (workers 0: none). */
typedef struct lsk__tuned {
  unsigned domain[3];
  unsigned workers, simd;
  struct lsk__tuned *next;
} lsk__tuned;

struct lsk_kernel {
  lsk__handle h;
  lsk_program *prog;
  char *name;
  int has_decl;
  unsigned decl[3];
  lsk__kentry *entries;
  lsk__tuned *tuned;
  /* The last resolution, keyed by what the launch asked for. */
  unsigned last_domain[3], last_req_workers, last_req_simd;
  unsigned last_workers, last_simd;
  lsk__kentry *last;
  unsigned kid; /* its id in the context's verify records (queue.c) */
};
const lsk__htype LSK__H_KERNEL = {"lsk_kernel", &LSK__H_PROGRAM, 0};
LSK__HANDLE_FIRST(lsk_kernel);

/* ------------------------------------------------------------------ */
/* Kernels and their per-build entries.                               */

/* A stored choice for k, as lsk__tune_load_all finds it (kept if there is
 * memory: without, the rule applies). */
static void keep_tuned(void *arg, const unsigned dom[3], unsigned w, unsigned s)
{
  lsk_kernel *k = arg;
  lsk__tuned *t = calloc(1, sizeof *t);
  if (!t)
    return;
  memcpy(t->domain, dom, sizeof t->domain);
  t->workers = w;
  t->simd = s;
  t->next = k->tuned;
  k->tuned = t;
}

int lsk_kernel_create(lsk_program *prog, const char *name, lsk_kernel **out)
{
  if (out)
    *out = NULL;
  LSK__LIVE(NULL, prog, PROGRAM, __func__, "prog");
  if (!out)
    return lsk__fail(prog->ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  if (!name || !*name)
    return lsk__fail(prog->ctx, LSK_EINVAL, "%s: name is NULL or empty", __func__);
  char *copy = lsk__strdup(name);
  lsk_kernel *k = copy ? lsk__handle_new(sizeof *k, &LSK__H_KERNEL, prog) : NULL;
  if (!k) {
    free(copy);
    return lsk__fail(prog->ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  k->name = copy;
  k->prog = prog;
  /* Out of memory for the id: failures are still reported, in the
   * shared slot under the last kernel launched there. */
  k->kid = lsk__kernel_id(prog->ctx, name);
  const lsk__decl *d = lsk__program_decl(prog, name);
  if (d) {
    k->has_decl = 1;
    memcpy(k->decl, d->domain, sizeof k->decl);
  }
  /* The stored choices, read here once: a launch reads no file. */
  if (prog->ctx->tune_dir)
    lsk__tune_load_all(prog, prog->ctx->tune_dir, name, keep_tuned, k);
  *out = k;
  return LSK_OK;
}

void lsk_kernel_destroy(lsk_kernel *k)
{
  LSK__DESTROY(k, KERNEL, __func__);
  for (lsk__kentry *e = k->entries, *next; e; e = next) {
    next = e->next;
    clReleaseKernel(e->kernel);
    free(e->args);
    free(e);
  }
  for (lsk__tuned *t = k->tuned, *next; t; t = next) {
    next = t->next;
    free(t);
  }
  free(k->name);
  free(k);
}

int lsk_kernel_declared_domain(const lsk_kernel *k, unsigned domain[3])
{
  LSK__LIVE_OR(0, k, KERNEL, __func__, "kernel");
  if (!domain)
    return 0;
  for (int i = 0; i < 3; ++i)
    domain[i] = k->has_decl ? k->decl[i] : 0;
  return k->has_decl;
}

static void normalize_type(const char *in, char *out, size_t cap)
{
  static const struct {
    const char *from, *to;
  } alias[] = {{"unsignedchar", "uchar"},
               {"unsignedshort", "ushort"},
               {"unsignedint", "uint"},
               {"unsignedlong", "ulong"},
               {"unsigned", "uint"}};
  char tmp[64];
  size_t n = 0;
  for (const char *p = in; *p && n + 1 < sizeof tmp; ++p)
    if (*p != ' ')
      tmp[n++] = *p;
  tmp[n] = 0;
  for (size_t i = 0; i < sizeof alias / sizeof alias[0]; ++i)
    if (strcmp(tmp, alias[i].from) == 0) {
      snprintf(out, cap, "%s", alias[i].to);
      return;
    }
  snprintf(out, cap, "%s", tmp);
}

static const struct {
  const char *type;
  lsk_arg_kind kind;
  size_t size;
} scalars[] = {{"char", LSK_ARG_KIND_CHAR, 1},   {"uchar", LSK_ARG_KIND_UCHAR, 1},
               {"short", LSK_ARG_KIND_SHORT, 2}, {"ushort", LSK_ARG_KIND_USHORT, 2},
               {"int", LSK_ARG_KIND_INT, 4},     {"uint", LSK_ARG_KIND_UINT, 4},
               {"long", LSK_ARG_KIND_LONG, 8},   {"ulong", LSK_ARG_KIND_ULONG, 8},
               {"float", LSK_ARG_KIND_FLOAT, 4}, {"double", LSK_ARG_KIND_DOUBLE, 8}};

static const char *kind_name(lsk_arg_kind kind)
{
  static const char *const names[] = {"?",
                                      "LSK_ARG_BUFFER",
                                      "LSK_ARG_CHAR",
                                      "LSK_ARG_UCHAR",
                                      "LSK_ARG_SHORT",
                                      "LSK_ARG_USHORT",
                                      "LSK_ARG_INT",
                                      "LSK_ARG_UINT",
                                      "LSK_ARG_LONG",
                                      "LSK_ARG_ULONG",
                                      "LSK_ARG_FLOAT",
                                      "LSK_ARG_DOUBLE",
                                      "LSK_ARG_BYTES",
                                      "LSK_ARG_LOCAL",
                                      "LSK_ARG_DYN_LOCAL"};
  return (kind >= 1 && kind <= LSK_ARG_KIND_DYN_LOCAL) ? names[kind] : "an unknown kind";
}

/* Reads the argument table; without arg info every argument is ARG_ANY. */
static void read_arg_specs(lsk__kentry *e)
{
  for (cl_uint i = 0; i < e->nargs; ++i) {
    lsk__argspec *a = &e->args[i];
    cl_kernel_arg_address_qualifier aq;
    char type[64] = "";
    if (clGetKernelArgInfo(e->kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) ||
        clGetKernelArgInfo(e->kernel, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL)) {
      a->cls = ARG_ANY;
      continue;
    }
    if (clGetKernelArgInfo(e->kernel, i, CL_KERNEL_ARG_NAME, sizeof a->name, a->name, NULL))
      a->name[0] = 0;
    a->name[sizeof a->name - 1] = 0;
    type[sizeof type - 1] = 0;
    normalize_type(type, a->type, sizeof a->type);
    if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL)
      a->cls = ARG_LOCAL;
    else if (aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT)
      a->cls = ARG_POINTER;
    else {
      a->cls = ARG_OTHER;
      for (size_t s = 0; s < sizeof scalars / sizeof scalars[0]; ++s)
        if (strcmp(a->type, scalars[s].type) == 0) {
          a->cls = ARG_SCALAR;
          a->scalar = scalars[s].kind;
          a->size = scalars[s].size;
        }
    }
  }
}

static int no_such_kernel(lsk_kernel *k, cl_program program, const char *fn)
{
  char names[1024] = "";
  clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
  names[sizeof names - 1] = 0;
  return lsk__fail(k->prog->ctx, LSK_ENOKERNEL, "%s: no kernel '%s' in program '%s' (it has: %s)",
                   fn, k->name, k->prog->name, names[0] ? names : "none");
}

static int get_entry(lsk_kernel *k, lsk__build *b, const char *fn, lsk__kentry **out)
{
  for (lsk__kentry *e = k->entries; e; e = e->next)
    if (e->build == b) {
      *out = e;
      return LSK_OK;
    }
  lsk_context *ctx = k->prog->ctx;
  cl_int err;
  cl_kernel kern = clCreateKernel(b->program, k->name, &err);
  if (err == CL_INVALID_KERNEL_NAME)
    return no_such_kernel(k, b->program, fn);
  if (err)
    return lsk__fail_cl(ctx, err, "clCreateKernel", " ('%s')", k->name);
  lsk__kentry *e = calloc(1, sizeof *e);
  if (!e) {
    clReleaseKernel(kern);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  }
  e->build = b;
  e->kernel = kern;
  err = clGetKernelWorkGroupInfo(kern, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof e->wg_max,
                                 &e->wg_max, NULL);
  /* Never above the device's own limit (OpenCL promises as much); under a
   * model (LSK_SHAPES) the model's: a kernel takes 1024 work-items at most
   * there, as on the modeled GPU. */
  if (!err && ctx->info.max_work_group_size && e->wg_max > ctx->info.max_work_group_size)
    e->wg_max = ctx->info.max_work_group_size;
  if (!err)
    err = clGetKernelWorkGroupInfo(kern, ctx->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                   sizeof e->local_static, &e->local_static, NULL);
  /* For reports only: an implementation that does not say gives 0. */
  if (!err && clGetKernelWorkGroupInfo(kern, ctx->device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                       sizeof e->private_mem, &e->private_mem, NULL))
    e->private_mem = 0;
  if (!err)
    err = clGetKernelInfo(kern, CL_KERNEL_NUM_ARGS, sizeof e->nargs, &e->nargs, NULL);
  if (!err && !(e->args = calloc(e->nargs ? e->nargs : 1, sizeof *e->args)))
    err = CL_OUT_OF_HOST_MEMORY;
  if (err) {
    clReleaseKernel(kern);
    free(e);
    return lsk__fail_cl(ctx, err, "clGetKernelWorkGroupInfo", " ('%s')", k->name);
  }
  read_arg_specs(e);
  if (e->nargs == 0 || (e->args[0].cls != ARG_ANY && strcmp(e->args[0].name, "lsk__ctx") != 0)) {
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
  lsk_context *ctx = k->prog->ctx;
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
  if (size > LSK__MAX_DOMAIN)
    return lsk__fail(ctx, LSK_EDOMAIN,
                     "%s: kernel '%s': block domain %ux%ux%u has %llu indices, more than %u", fn,
                     k->name, dom[0], dom[1], dom[2], (unsigned long long)size, LSK__MAX_DOMAIN);
  return LSK_OK;
}

/* The kept choice for dom (read at lsk_kernel_create, or set by lsk_tune),
 * which applies only where the context has a tune directory; 1 if there
 * is one. */
static int stored_choice(lsk_kernel *k, const unsigned dom[3], unsigned *w, unsigned *s)
{
  lsk_context *ctx = k->prog->ctx;
  if (!ctx->tune_dir)
    return 0;
  /* Read at lsk_kernel_create (or set by lsk_tune): no file here. */
  lsk__tuned *t = k->tuned;
  while (t && memcmp(t->domain, dom, sizeof t->domain) != 0)
    t = t->next;
  if (!t)
    return 0;
  *w = t->workers;
  *s = t->simd;
  return t->workers != 0;
}

void lsk__kernel_keep_choice(lsk_kernel *k, const unsigned dom[3], unsigned w, unsigned s)
{
  lsk__tuned *t = k->tuned;
  while (t && memcmp(t->domain, dom, sizeof t->domain) != 0)
    t = t->next;
  if (!t && (t = calloc(1, sizeof *t)) != NULL) {
    memcpy(t->domain, dom, sizeof t->domain);
    t->next = k->tuned;
    k->tuned = t;
  }
  if (t) {
    t->workers = w;
    t->simd = w ? s : 0;
  }
  k->last = NULL;
}

lsk_context *lsk__kernel_context(const lsk_kernel *k) { return k->prog->ctx; }

/* Resolves a launch to an entry and its workers and simd. With use_tuned, an
 * automatic launch takes the stored choice if the kernel can run it. */
static int resolve_ex(lsk_kernel *k, const lsk_launch *cfg, const char *fn, int use_tuned,
                      lsk__kentry **out, unsigned *workers, unsigned *simd)
{
  lsk_context *ctx = k->prog->ctx;
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
  uint64_t size = (uint64_t)dom[0] * dom[1] * dom[2];
  const lsk_device_info *dev = &ctx->info;
  size_t dev_max = lsk__device_max_workers(dev);
  if (cfg->workers > dev_max)
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: kernel '%s': %u workers exceed the %zu that %s allows",
                     fn, k->name, cfg->workers, dev_max, dev->name);
  /* Device index arithmetic is 32-bit: keep simd * workers well inside. */
  if ((uint64_t)cfg->simd * (cfg->workers ? cfg->workers : 1) > (1u << 30))
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: kernel '%s': simd %u x %u workers exceeds 2^30", fn,
                     k->name, cfg->simd, cfg->workers);
  unsigned w, s, tw = 0, ts = 0;
  /* A stored choice outside the device's limits is ignored. */
  if (use_tuned && !cfg->workers && !cfg->simd && stored_choice(k, dom, &tw, &ts) &&
      (tw > dev_max || (uint64_t)tw * ts > (1u << 30)))
    tw = 0;
  size_t kernel_max = 0;
  lsk__kentry *e = NULL;
  /* At most three builds: a stored choice may exceed the kernel's own limit
   * (then the rule applies), and an automatic shape may have to shrink to
   * that limit, known only once it is built. */
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (tw) {
      w = tw;
      s = ts;
    } else {
      lsk__resolve_shape(dev, (size_t)size, kernel_max, cfg->workers, cfg->simd, &w, &s);
    }
    lsk__build *b;
    rc = lsk__program_get_build(k->prog, dom, w, s, &b);
    if (!rc)
      rc = get_entry(k, b, fn, &e);
    if (rc)
      return rc;
    if (w <= e->wg_max)
      break;
    if (tw) {
      tw = 0;
      continue;
    }
    if (cfg->workers || kernel_max)
      return lsk__fail(ctx, LSK_ELAUNCH,
                       "%s: kernel '%s': %u workers exceed its limit of %zu on %s "
                       "(CL_KERNEL_WORK_GROUP_SIZE)",
                       fn, k->name, w, e->wg_max, dev->name);
    kernel_max = e->wg_max;
  }
  if (!use_tuned) {
    *out = e;
    *workers = w;
    *simd = s;
    return LSK_OK;
  }
  memcpy(k->last_domain, dom, sizeof dom);
  k->last_req_workers = cfg->workers;
  k->last_req_simd = cfg->simd;
  k->last_workers = w;
  k->last_simd = s;
  k->last = e;
  *out = e;
  *workers = w;
  *simd = s;
  return LSK_OK;
}

static int resolve(lsk_kernel *k, const lsk_launch *cfg, const char *fn, lsk__kentry **out,
                   unsigned *workers, unsigned *simd)
{
  return resolve_ex(k, cfg, fn, 1, out, workers, simd);
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
  out->stored = stored_choice(k, out->domain, &out->stored_workers, &out->stored_simd);
  if (!rule)
    return LSK_OK;
  lsk_launch c = {.domain = {out->domain[0], out->domain[1], out->domain[2]}, .blocks = {1}};
  lsk__kentry *e;
  rc = resolve_ex(k, &c, fn, 0, &e, &out->rule_workers, &out->rule_simd);
  if (!rc)
    out->wg_max = e->wg_max;
  return rc;
}

/* ------------------------------------------------------------------ */
/* Launch.                                                             */

/* How many of args come before the first buffer argument that is not a live
 * buffer of ctx: one pass over the context's set of its handles, under that
 * set's lock, with no process-wide lock (handle.c). From that argument on,
 * check_and_set_args looks each buffer up as any public function does, for
 * the message. */
static size_t own_buffers(lsk_context *ctx, const lsk_arg *args, size_t nargs)
{
  size_t i = 0;
  lsk__hset_lock(&ctx->kids);
  while (i < nargs && (args[i].kind != LSK_ARG_KIND_BUFFER ||
                       lsk__hset_has(&ctx->kids, args[i].v.buffer, &LSK__H_BUFFER)))
    ++i;
  lsk__hset_unlock(&ctx->kids);
  return i;
}

static int check_and_set_args(lsk_kernel *k, lsk__kentry *e, const lsk_launch *cfg,
                              const lsk_arg *args, size_t nargs, cl_mem verify, const char *fn)
{
  lsk_context *ctx = k->prog->ctx;
  if (nargs + 1 != e->nargs)
    return lsk__fail(ctx, LSK_EARGS,
                     "%s: kernel '%s' takes %u argument%s after LSK_CTX; the "
                     "launch gives %zu",
                     fn, k->name, e->nargs - 1, e->nargs == 2 ? "" : "s", nargs);
  if (nargs && !args)
    return lsk__fail(ctx, LSK_EINVAL, "%s: args is NULL", fn);
  size_t own = own_buffers(ctx, args, nargs);
  uint64_t local = e->local_static;
  cl_int err = clSetKernelArg(e->kernel, 0, sizeof(cl_mem), &verify);
  for (size_t i = 0; i < nargs && !err; ++i) {
    const lsk_arg *a = &args[i];
    const lsk__argspec *spec = &e->args[i + 1];
    int ok;
    switch (spec->cls) {
    case ARG_POINTER: ok = a->kind == LSK_ARG_KIND_BUFFER; break;
    case ARG_LOCAL: ok = a->kind == LSK_ARG_KIND_LOCAL || a->kind == LSK_ARG_KIND_DYN_LOCAL; break;
    case ARG_SCALAR:
      ok = a->kind == spec->scalar || (a->kind == LSK_ARG_KIND_BYTES && a->size == spec->size);
      break;
    case ARG_OTHER: ok = a->kind >= LSK_ARG_KIND_CHAR && a->kind <= LSK_ARG_KIND_BYTES; break;
    default: ok = a->kind >= LSK_ARG_KIND_BUFFER && a->kind <= LSK_ARG_KIND_DYN_LOCAL; break;
    }
    if (!ok)
      return lsk__fail(ctx, LSK_EARGS, "%s: kernel '%s' argument %zu ('%s', %s%s) cannot take %s",
                       fn, k->name, i, spec->name, spec->cls == ARG_LOCAL ? "__local " : "",
                       spec->type, kind_name(a->kind));
    switch (a->kind) {
    case LSK_ARG_KIND_BUFFER:
      if (i >= own && a->v.buffer && !lsk__handle_live(a->v.buffer, &LSK__H_BUFFER)) {
        char what[96];
        snprintf(what, sizeof what, "kernel '%s' argument %zu: buffer", k->name, i);
        return lsk__handle_check(ctx, a->v.buffer, &LSK__H_BUFFER, fn, what);
      }
      if (i >= own && (!a->v.buffer || a->v.buffer->ctx != ctx))
        return lsk__fail(ctx, LSK_EINVAL, "%s: kernel '%s' argument %zu: %s", fn, k->name, i,
                         a->v.buffer ? "buffer of another context" : "buffer is NULL");
      err = clSetKernelArg(e->kernel, (cl_uint)i + 1, sizeof(cl_mem), &a->v.buffer->mem);
      break;
    case LSK_ARG_KIND_LOCAL:
    case LSK_ARG_KIND_DYN_LOCAL: {
      size_t n = a->kind == LSK_ARG_KIND_LOCAL ? a->size : cfg->local_bytes;
      if (n == 0)
        return lsk__fail(
            ctx, LSK_EINVAL, "%s: kernel '%s' argument %zu: %s of 0 bytes", fn, k->name, i,
            a->kind == LSK_ARG_KIND_LOCAL ? "LSK_ARG_LOCAL" : "LSK_ARG_DYN_LOCAL with local_bytes");
      local += n;
      err = clSetKernelArg(e->kernel, (cl_uint)i + 1, n, NULL);
      break;
    }
    case LSK_ARG_KIND_BYTES:
      if (!a->v.ptr || !a->size)
        return lsk__fail(ctx, LSK_EINVAL, "%s: kernel '%s' argument %zu: LSK_ARG_BYTES of %s", fn,
                         k->name, i, a->v.ptr ? "0 bytes" : "NULL");
      err = clSetKernelArg(e->kernel, (cl_uint)i + 1, a->size, a->v.ptr);
      break;
    default:
      if (a->kind < LSK_ARG_KIND_CHAR || a->kind > LSK_ARG_KIND_DOUBLE)
        return lsk__fail(ctx, LSK_EINVAL, "%s: kernel '%s' argument %zu: unknown kind %d", fn,
                         k->name, i, (int)a->kind);
      err = clSetKernelArg(e->kernel, (cl_uint)i + 1, a->size, &a->v);
      break;
    }
    if (err)
      return lsk__fail_cl(ctx, err, "clSetKernelArg",
                          " (kernel '%s' argument %zu, '%s', %s, given %s)", k->name, i, spec->name,
                          spec->type, kind_name(a->kind));
  }
  if (err)
    return lsk__fail_cl(ctx, err, "clSetKernelArg", " (kernel '%s', LSK_CTX)", k->name);
  if (local > ctx->info.local_mem_size)
    return lsk__fail(ctx, LSK_ELAUNCH,
                     "%s: kernel '%s' needs %llu bytes of local memory; %s has %llu", fn, k->name,
                     (unsigned long long)local, ctx->info.name,
                     (unsigned long long)ctx->info.local_mem_size);
  return LSK_OK;
}

/* k is live and o resolved: the public callers check before they take the
 * context's lock. *clev gets the command's event if clev is not NULL. */
static int launch(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                  const lsk__on *o, cl_event *clev, const char *fn)
{
  if (!cfg)
    return lsk__fail(k->prog->ctx, LSK_EINVAL, "%s: cfg is NULL", fn);
  lsk_context *ctx = k->prog->ctx;
  size_t blocks[3] = {cfg->blocks[0], cfg->blocks[1] ? cfg->blocks[1] : 1,
                      cfg->blocks[2] ? cfg->blocks[2] : 1};
  if (blocks[0] == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: kernel '%s': blocks[0] is 0", fn, k->name);
  lsk__kentry *e;
  unsigned w, s;
  int rc = resolve(k, cfg, fn, &e, &w, &s);
  if (rc)
    return rc;
  /* lsk_block_idx() is a uint on the device: the grid must fit in 32 bits. */
  if (blocks[0] > UINT32_MAX || blocks[1] > UINT32_MAX || blocks[2] > UINT32_MAX ||
      (uint64_t)blocks[0] * blocks[1] * blocks[2] > UINT32_MAX ||
      (uint64_t)blocks[0] * w > ((uint64_t)1 << 40))
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: kernel '%s': grid %zux%zux%zu is too large", fn,
                     k->name, blocks[0], blocks[1], blocks[2]);
  cl_mem verify;
  if ((rc = lsk__verify_slot(o->q, k->kid, &verify)) ||
      (rc = check_and_set_args(k, e, cfg, args, nargs, verify, fn)))
    return rc;
  size_t global[3] = {blocks[0] * w, blocks[1], blocks[2]};
  size_t local[3] = {w, 1, 1};
  cl_uint dims = blocks[2] > 1 ? 3 : blocks[1] > 1 ? 2 : 1;
  cl_event ev = NULL;
  cl_int err = clEnqueueNDRangeKernel(o->q->cl, e->kernel, dims, NULL, global, local, o->nwait,
                                      o->nwait ? o->wait : NULL, (clev || ctx->trace) ? &ev : NULL);
  if (err)
    return lsk__fail_cl(ctx, err, "clEnqueueNDRangeKernel",
                        " (kernel '%s', %zux%zux%zu blocks of %u workers, queue '%s')", k->name,
                        blocks[0], blocks[1], blocks[2], w, o->q->name);
  lsk__verify_mark(o->q, k->kid);
  if (ctx->trace) {
    lsk__shape sh = {{e->build->domain[0], e->build->domain[1], e->build->domain[2]},
                     {blocks[0], blocks[1], blocks[2]},
                     w,
                     s};
    lsk__trace_add(o->q, LSK__OP_KERNEL, k->name, &sh, 0, ev);
  }
  if (clev)
    *clev = ev;
  else if (ev)
    clReleaseEvent(ev);
  return LSK_OK;
}

/* The launches take the context's lock (see internal.h): several threads
 * may launch on one context, even the same kernel. */
int lsk_kernel_launch(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                      cl_event *event)
{
  if (event)
    *event = NULL;
  /* Checked before the lock: a dead kernel's context may be gone. */
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  lsk_context *ctx = k->prog->ctx;
  lsk__on o = {.q = ctx->dq};
  lsk__lock(ctx);
  int rc = launch(k, cfg, args, nargs, &o, event, __func__);
  lsk__unlock(ctx);
  return rc;
}

int lsk_kernel_launch_async(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
                            const lsk_async *on)
{
  if (on && on->event)
    *on->event = NULL;
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  lsk_context *ctx = k->prog->ctx;
  lsk__on o;
  int rc = lsk__on_resolve(ctx, on, __func__, &o);
  if (rc)
    return rc;
  cl_event ev = NULL;
  lsk__lock(ctx);
  rc = launch(k, cfg, args, nargs, &o, o.event ? &ev : NULL, __func__);
  lsk__unlock(ctx);
  if (rc)
    return rc;
  char what[80];
  snprintf(what, sizeof what, "kernel '%s'", k->name);
  return lsk__on_done(ctx, &o, ev, what, __func__);
}

int lsk__launch_q(lsk_kernel *k, lsk_queue *q, const lsk_launch *cfg, const lsk_arg *args,
                  size_t nargs)
{
  LSK__LIVE(NULL, k, KERNEL, "lsk_kernel_launch", "kernel");
  lsk_context *ctx = k->prog->ctx;
  int rc = lsk__queue_usable(ctx, q, "lsk_kernel_launch");
  if (rc)
    return rc;
  lsk__on o = {.q = q};
  lsk__lock(ctx);
  rc = launch(k, cfg, args, nargs, &o, NULL, "lsk_kernel_launch");
  lsk__unlock(ctx);
  return rc;
}

int lsk_kernel_run(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs)
{
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  lsk_context *ctx = k->prog->ctx;
  lsk__on o = {.q = ctx->dq};
  lsk__lock(ctx);
  int rc = launch(k, cfg, args, nargs, &o, NULL, __func__);
  lsk__unlock(ctx);
  if (rc)
    return rc;
  return lsk_queue_finish(ctx->dq);
}

int lsk_kernel_shape(lsk_kernel *k, const lsk_launch *cfg, unsigned *workers, unsigned *simd)
{
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  if (!cfg || !workers || !simd)
    return lsk__fail(k->prog->ctx, LSK_EINVAL, "%s: %s is NULL", __func__,
                     !cfg       ? "cfg"
                     : !workers ? "workers"
                                : "simd");
  lsk__kentry *e;
  lsk__lock(k->prog->ctx);
  int rc = resolve(k, cfg, __func__, &e, workers, simd);
  lsk__unlock(k->prog->ctx);
  return rc;
}

int lsk_kernel_query(lsk_kernel *k, const lsk_launch *cfg, lsk_kernel_info *out)
{
  if (out)
    memset(out, 0, sizeof *out);
  LSK__LIVE(NULL, k, KERNEL, __func__, "k");
  if (!cfg || !out)
    return lsk__fail(k->prog->ctx, LSK_EINVAL, "%s: %s is NULL", __func__, cfg ? "out" : "cfg");
  lsk__kentry *e;
  unsigned w, s;
  lsk__lock(k->prog->ctx);
  int rc = resolve(k, cfg, __func__, &e, &w, &s);
  lsk__unlock(k->prog->ctx);
  if (!rc)
    *out = (lsk_kernel_info){w, s, e->wg_max, (uint64_t)e->local_static, (uint64_t)e->private_mem};
  return rc;
}

int lsk_program_build(lsk_program *prog, const char *kernel_name, const lsk_launch *cfg)
{
  LSK__LIVE(NULL, prog, PROGRAM, __func__, "prog");
  if (!kernel_name || !*kernel_name || !cfg)
    return lsk__fail(prog->ctx, LSK_EINVAL, "%s: %s", __func__,
                     cfg ? "kernel_name is NULL or empty" : "cfg is NULL");
  lsk_kernel *k;
  int rc = lsk_kernel_create(prog, kernel_name, &k);
  if (rc)
    return rc;
  unsigned w, s;
  lsk__kentry *e;
  lsk__lock(prog->ctx); /* a build, as in a launch (docs/threads.md) */
  rc = resolve(k, cfg, __func__, &e, &w, &s);
  lsk__unlock(prog->ctx);
  lsk_kernel_destroy(k);
  return rc;
}

int lsk_program_kernel_names(lsk_program *prog, const lsk_launch *cfg, char **names)
{
  if (names)
    *names = NULL;
  LSK__LIVE(NULL, prog, PROGRAM, __func__, "prog");
  lsk_context *ctx = prog->ctx;
  if (!cfg || !names)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s is NULL", __func__, cfg ? "names" : "cfg");
  unsigned dom[3] = {cfg->domain[0], cfg->domain[1] ? cfg->domain[1] : 1,
                     cfg->domain[2] ? cfg->domain[2] : 1};
  if (cfg->domain[0] == 0) {
    if (cfg->domain[1] || cfg->domain[2])
      return lsk__fail(ctx, LSK_EINVAL, "%s: domain %ux%ux%u has a zero extent", __func__,
                       cfg->domain[0], cfg->domain[1], cfg->domain[2]);
    if (prog->ndecls == 0)
      return lsk__fail(ctx, LSK_EDOMAIN,
                       "%s: program '%s' declares no block domain and cfg gives none", __func__,
                       prog->name);
    memcpy(dom, prog->decls[0].domain, sizeof dom);
  }
  uint64_t size = (uint64_t)dom[0] * dom[1] * dom[2];
  if (size > LSK__MAX_DOMAIN)
    return lsk__fail(ctx, LSK_EDOMAIN, "%s: block domain %ux%ux%u has %llu indices, more than %u",
                     __func__, dom[0], dom[1], dom[2], (unsigned long long)size, LSK__MAX_DOMAIN);
  if ((uint64_t)cfg->simd * (cfg->workers ? cfg->workers : 1) > (1u << 30))
    return lsk__fail(ctx, LSK_ELAUNCH, "%s: simd %u x %u workers exceeds 2^30", __func__, cfg->simd,
                     cfg->workers);
  int rc = lsk__check_shape(ctx, __func__, cfg->workers, 0);
  if (rc)
    return rc;
  unsigned w, s;
  lsk__resolve_shape(&ctx->info, (size_t)size, 0, cfg->workers, cfg->simd, &w, &s);
  lsk__build *b;
  lsk__lock(ctx); /* a build, as in a launch (docs/threads.md) */
  rc = lsk__program_get_build(prog, dom, w, s, &b);
  lsk__unlock(ctx);
  if (rc)
    return rc;
  size_t n = 0;
  cl_int err = clGetProgramInfo(b->program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n);
  char *text = err ? NULL : malloc(n + 1);
  if (!err && !text)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  if (!err)
    err = clGetProgramInfo(b->program, CL_PROGRAM_KERNEL_NAMES, n, text, NULL);
  if (err) {
    free(text);
    return lsk__fail_cl(ctx, err, "clGetProgramInfo", " (CL_PROGRAM_KERNEL_NAMES of '%s')",
                        prog->name);
  }
  text[n] = 0;
  *names = text;
  return LSK_OK;
}
