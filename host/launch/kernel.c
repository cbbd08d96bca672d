/*
 * kernel.c: the kernel handle: made from a program and a name (with its
 * declared domain and the choices lsk_tune stored for it, read here once:
 * no launch reads a file), the choices it keeps, destroyed with its
 * entries. Resolving a launch is resolve.c's, the arguments args.c's, the
 * launch enqueue.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "launch/kernel.h"
#include "launch/tune.h"

const lsk__htype LSK__H_KERNEL = {"lsk_kernel", &LSK__H_PROGRAM, 0};
LSK__HANDLE_FIRST(lsk_kernel);

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
  LSK__API();
  if (out)
    *out = NULL;
  LSK__LIVE(NULL, prog, PROGRAM, __func__, "prog");
  lsk_context *ctx = lsk__program_context(prog);
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  if (!name || !*name)
    return lsk__fail(ctx, LSK_EINVAL, "%s: name is NULL or empty", __func__);
  char *copy = lsk__strdup(name);
  lsk_kernel *k = copy ? lsk__handle_new(sizeof *k, &LSK__H_KERNEL, prog) : NULL;
  if (!k) {
    free(copy);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  k->name = copy;
  k->prog = prog;
  k->ctx = ctx;
  /* Out of memory for the id: failures are still reported, in the
   * shared slot under the last kernel launched there. */
  k->kid = lsk__kernel_id(ctx, name);
  k->has_decl = lsk__program_declared(prog, name, k->decl);
  /* The stored choices, read here once: a launch reads no file. */
  const char *dir = lsk__context_tune_dir(ctx);
  if (dir)
    lsk__tune_load_all(prog, dir, name, keep_tuned, k);
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
  LSK__API();
  LSK__LIVE_OR(0, k, KERNEL, __func__, "kernel");
  if (!domain)
    return 0;
  for (int i = 0; i < 3; ++i)
    domain[i] = k->has_decl ? k->decl[i] : 0;
  return k->has_decl;
}

int lsk__kernel_stored(const lsk_kernel *k, const unsigned dom[3], unsigned *w, unsigned *s)
{
  lsk_context *ctx = k->ctx;
  if (!lsk__context_tune_dir(ctx))
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

lsk_context *lsk__kernel_context(const lsk_kernel *k) { return k->ctx; }
