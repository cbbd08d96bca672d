/*
 * args.c: a kernel's argument table, read once per build from
 * clGetKernelArgInfo, and the binding of a launch's arguments against it:
 * each argument's kind checked (a buffer: a live buffer of the context),
 * the verify record bound as LSK_CTX, clSetKernelArg. Before all that, the
 * composite kinds expanded (lsk__args_plain).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/kernel.h"

/* What the kernel expects at one argument, from clGetKernelArgInfo. */
struct lsk__argspec {
  enum { ARG_ANY, ARG_POINTER, ARG_LOCAL, ARG_SCALAR, ARG_OTHER } cls;
  lsk_arg_kind scalar; /* for ARG_SCALAR */
  size_t size;         /* for ARG_SCALAR */
  char type[64];
  char name[32];
};
typedef struct lsk__argspec lsk__argspec;

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
                                      "LSK_ARG_DYN_LOCAL",
                                      "LSK_ARG_BUFFERS",
                                      "LSK_ARG_SOA",
                                      "LSK_ARG_BUFFER_LIST"};
  return (kind >= 1 && kind <= LSK_ARG_KIND_BUFFER_LIST) ? names[kind] : "an unknown kind";
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

cl_int lsk__args_read(lsk__kentry *e)
{
  cl_int err = clGetKernelInfo(e->kernel, CL_KERNEL_NUM_ARGS, sizeof e->nargs, &e->nargs, NULL);
  if (!err && !(e->args = calloc(e->nargs ? e->nargs : 1, sizeof *e->args)))
    err = CL_OUT_OF_HOST_MEMORY;
  if (!err)
    read_arg_specs(e);
  return err;
}

int lsk__args_take_ctx(const lsk__kentry *e)
{
  return e->nargs > 0 && (e->args[0].cls == ARG_ANY || strcmp(e->args[0].name, "lsk__ctx") == 0);
}

/* Whether an argument of kind a->kind may go where spec is. */
static int takes(const lsk__argspec *spec, const lsk_arg *a)
{
  switch (spec->cls) {
  case ARG_POINTER: return a->kind == LSK_ARG_KIND_BUFFER;
  case ARG_LOCAL: return a->kind == LSK_ARG_KIND_LOCAL || a->kind == LSK_ARG_KIND_DYN_LOCAL;
  case ARG_SCALAR:
    return a->kind == spec->scalar || (a->kind == LSK_ARG_KIND_BYTES && a->size == spec->size);
  case ARG_OTHER: return a->kind >= LSK_ARG_KIND_CHAR && a->kind <= LSK_ARG_KIND_BYTES;
  default: return a->kind >= LSK_ARG_KIND_BUFFER && a->kind <= LSK_ARG_KIND_DYN_LOCAL;
  }
}

/* Checks and sets argument i (a) of e; a buffer is looked up (lookup: it
 * was not found among the context's live buffers in the first pass) for
 * the message. *local adds the local memory it takes. */
static int bind_one(lsk_kernel *k, lsk__kentry *e, const lsk_launch *cfg, const lsk_arg *a,
                    size_t i, int lookup, const char *fn, uint64_t *local)
{
  lsk_context *ctx = k->ctx;
  const lsk__argspec *spec = &e->args[i + 1];
  if (!takes(spec, a))
    return lsk__fail(ctx, LSK_EARGS, "%s: kernel '%s' argument %zu ('%s', %s%s) cannot take %s", fn,
                     k->name, i, spec->name, spec->cls == ARG_LOCAL ? "__local " : "", spec->type,
                     kind_name(a->kind));
  cl_int err;
  switch (a->kind) {
  case LSK_ARG_KIND_BUFFER:
    if (lookup && a->v.buffer && !lsk__handle_live(a->v.buffer, &LSK__H_BUFFER)) {
      char what[96];
      snprintf(what, sizeof what, "kernel '%s' argument %zu: buffer", k->name, i);
      return lsk__handle_check(ctx, a->v.buffer, &LSK__H_BUFFER, fn, what);
    }
    if (lookup && (!a->v.buffer || lsk__buffer_context(a->v.buffer) != ctx))
      return lsk__fail(ctx, LSK_EINVAL, "%s: kernel '%s' argument %zu: %s", fn, k->name, i,
                       a->v.buffer ? "buffer of another context" : "buffer is NULL");
    err = clSetKernelArg(e->kernel, (cl_uint)i + 1, sizeof(cl_mem),
                         &(cl_mem){lsk__buffer_mem(a->v.buffer)});
    break;
  case LSK_ARG_KIND_LOCAL:
  case LSK_ARG_KIND_DYN_LOCAL: {
    size_t n = a->kind == LSK_ARG_KIND_LOCAL ? a->size : cfg->local_bytes;
    if (n == 0)
      return lsk__fail(
          ctx, LSK_EINVAL, "%s: kernel '%s' argument %zu: %s of 0 bytes", fn, k->name, i,
          a->kind == LSK_ARG_KIND_LOCAL ? "LSK_ARG_LOCAL" : "LSK_ARG_DYN_LOCAL with local_bytes");
    *local += n;
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
  return LSK_OK;
}

int lsk__args_bind(lsk_kernel *k, lsk__kentry *e, const lsk_launch *cfg, const lsk_arg *args,
                   size_t nargs, cl_mem verify, const char *fn)
{
  lsk_context *ctx = k->ctx;
  if (nargs + 1 != e->nargs)
    return lsk__fail(ctx, LSK_EARGS,
                     "%s: kernel '%s' takes %u argument%s after LSK_CTX; the "
                     "launch gives %zu",
                     fn, k->name, e->nargs - 1, e->nargs == 2 ? "" : "s", nargs);
  if (nargs && !args)
    return lsk__fail(ctx, LSK_EINVAL, "%s: args is NULL", fn);
  /* From the first buffer argument that is not a live buffer of ctx on,
   * each buffer is looked up as any public function does, for the
   * message. */
  size_t own = lsk__buffers_live(ctx, args, nargs);
  cl_int err = clSetKernelArg(e->kernel, 0, sizeof(cl_mem), &verify);
  if (err)
    return lsk__fail_cl(ctx, err, "clSetKernelArg", " (kernel '%s', LSK_CTX)", k->name);
  uint64_t local = e->local_static;
  for (size_t i = 0; i < nargs; ++i) {
    int rc = bind_one(k, e, cfg, &args[i], i, i >= own, fn, &local);
    if (rc)
      return rc;
  }
  const lsk_device_info *dev = lsk__context_info(ctx);
  if (local > dev->local_mem_size)
    return lsk__fail(ctx, LSK_ELAUNCH,
                     "%s: kernel '%s' needs %llu bytes of local memory; %s has %llu", fn, k->name,
                     (unsigned long long)local, dev->name, (unsigned long long)dev->local_mem_size);
  return LSK_OK;
}

lsk__soa_expand_fn lsk__soa_expand;

/* How many plain arguments composite a stands for (1 for a plain one). */
static int expanded_count(lsk_context *ctx, const lsk_arg *a, size_t i, size_t *count,
                          const char *fn)
{
  *count = 1;
  if (a->kind == LSK_ARG_KIND_BUFFERS || a->kind == LSK_ARG_KIND_BUFFER_LIST) {
    const char *what = a->kind == LSK_ARG_KIND_BUFFERS ? "LSK_ARG_BUFFERS" : "LSK_ARG_BUFFER_LIST";
    if (a->size == 0 || a->size > LSK_ARG_EXPAND_MAX)
      return lsk__fail(ctx, LSK_EINVAL, "%s: argument %zu: %s count %zu is not in 1..%d", fn, i,
                       what, a->size, LSK_ARG_EXPAND_MAX);
    if (a->kind == LSK_ARG_KIND_BUFFER_LIST && !a->v.ptr)
      return lsk__fail(ctx, LSK_EINVAL, "%s: argument %zu: LSK_ARG_BUFFER_LIST of NULL", fn, i);
    *count = a->size;
  } else if (a->kind == LSK_ARG_KIND_SOA) {
    lsk__soa_expand_fn expand = __atomic_load_n(&lsk__soa_expand, __ATOMIC_ACQUIRE);
    if (!a->v.ptr || !expand)
      return lsk__fail(ctx, LSK_EINVAL, "%s: argument %zu: LSK_ARG_SOA of %s", fn, i,
                       a->v.ptr ? "something that is not an lsk_soa" : "NULL");
    return expand(ctx, a->v.ptr, a->size, NULL, 0, count, fn, i);
  }
  return LSK_OK;
}

int lsk__args_plain(lsk_context *ctx, const lsk_arg **args, size_t *nargs, lsk_arg **heap,
                    const char *fn)
{
  const lsk_arg *in = *args;
  size_t n = *nargs, total = 0, composite = 0;
  *heap = NULL;
  for (size_t i = 0; in && i < n; ++i)
    composite += in[i].kind == LSK_ARG_KIND_BUFFERS || in[i].kind == LSK_ARG_KIND_SOA ||
                 in[i].kind == LSK_ARG_KIND_BUFFER_LIST;
  if (!composite)
    return LSK_OK;
  for (size_t i = 0; i < n; ++i) {
    size_t c;
    int rc = expanded_count(ctx, &in[i], i, &c, fn);
    if (rc)
      return rc;
    total += c;
  }
  lsk_arg *out = malloc(total * sizeof *out);
  if (!out)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory expanding %zu arguments", fn, total);
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    const lsk_arg *a = &in[i];
    if (a->kind == LSK_ARG_KIND_BUFFERS) {
      for (size_t r = 0; r < a->size; ++r)
        out[at++] = LSK_ARG_BUFFER(a->v.buffer);
    } else if (a->kind == LSK_ARG_KIND_BUFFER_LIST) {
      lsk_buffer *const *list = a->v.ptr;
      for (size_t r = 0; r < a->size; ++r)
        out[at++] = LSK_ARG_BUFFER(list[r]);
    } else if (a->kind == LSK_ARG_KIND_SOA) {
      size_t c = 0;
      lsk__soa_expand_fn expand = __atomic_load_n(&lsk__soa_expand, __ATOMIC_ACQUIRE);
      int rc = expand(ctx, a->v.ptr, a->size, out + at, total - at, &c, fn, i);
      if (!rc && c > total - at) /* the part changed since it was counted */
        rc = lsk__fail(ctx, LSK_EINVAL, "%s: argument %zu: LSK_ARG_SOA changed during the launch",
                       fn, i);
      if (rc) {
        free(out);
        return rc;
      }
      at += c;
    } else {
      out[at++] = *a;
    }
  }
  *heap = out;
  *args = out;
  *nargs = at;
  return LSK_OK;
}

void lsk__args_plain_free(lsk_arg **heap)
{
  free(*heap);
  *heap = NULL;
}
