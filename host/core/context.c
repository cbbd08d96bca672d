/*
 * context.c: the context (device, OpenCL context, its default queue) and
 * lsk_context_finish over all its queues.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

/* The preferred work-group multiple, from an empty kernel; 0 if the probe
 * fails (it is a hint, not a requirement). */
static size_t probe_multiple(lsk_context *c)
{
  static const char *src = "__kernel void lsk__probe(void) {}";
  size_t multiple = 0;
  cl_int err;
  cl_program p = clCreateProgramWithSource(c->cl, 1, &src, NULL, &err);
  if (err)
    return 0;
  if (clBuildProgram(p, 1, &c->device, "", NULL, NULL) == CL_SUCCESS) {
    cl_kernel k = clCreateKernel(p, "lsk__probe", &err);
    if (!err) {
      if (clGetKernelWorkGroupInfo(k, c->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof multiple, &multiple, NULL))
        multiple = 0;
      clReleaseKernel(k);
    }
  }
  clReleaseProgram(p);
  return multiple;
}

/* Shared tail of create and wrap: options, the trace, the default queue. On failure
 * the context is destroyed and the message moved to the thread. */
static int finish_setup(lsk_context *c, const lsk_context_options *opt, lsk_shapes shapes,
                        const char *fn, lsk_context **out)
{
  const char *dir = (opt && opt->cache_dir) ? opt->cache_dir : lsk__getenv("LSK_CACHE_DIR");
  int rc = LSK_OK;
  if (dir && *dir && !(c->cache_dir = lsk__strdup(dir)))
    rc = lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  if (!rc && lsk__tune_dir_init(opt ? opt->tune_dir : NULL, &c->tune_dir))
    rc = lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  if (!rc && lsk__bcache_init(c, (opt && opt->no_buffer_cache) ||
                                     !lsk__getenv_bool("LSK_BUFFER_CACHE", 1)))
    rc = lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  if (!rc && opt && opt->trace && lsk__trace_init(c))
    rc = lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  if (!rc) {
    cl_command_queue_properties qp = 0;
    if (clGetCommandQueueInfo(c->queue, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL) == CL_SUCCESS)
      c->profiling = (qp & CL_QUEUE_PROFILING_ENABLE) != 0;
    /* Seen with Mesa 22.3 (Debian 12): tests/core/check_queues.c and the
     * threads suite's blocking reads beside a flushing thread. */
    c->wait_by_event = strstr(c->info.platform_name, "rusticl") != NULL;
    if ((rc = lsk__queue_default(c, fn)) != LSK_OK) /* its message, to the thread's */
      rc = lsk__fail(NULL, rc, "%s", lsk_context_errmsg(c));
  }
  if (rc) {
    lsk_context_destroy(c);
    return rc;
  }
  c->info.preferred_multiple = probe_multiple(c);
  /* Under a model (LSK_SHAPES) the context's facts are the model's: every
   * choice made from them is the modeled device's. */
  lsk__device_model(shapes, &c->info);
  *out = c;
  return LSK_OK;
}

/* A zeroed context with its locks, its set of descendants and its place
 * among the live handles: from here on lsk_context_destroy undoes any
 * later step. NULL when out of memory. */
static lsk_context *new_context(void)
{
  lsk_context *c = calloc(1, sizeof *c);
  if (c && lsk__context_sync_init(c)) {
    free(c);
    return NULL;
  }
  if (c && lsk__handle_add(c, &LSK__H_CONTEXT, NULL)) {
    lsk__context_sync_free(c);
    free(c);
    return NULL;
  }
  return c;
}

int lsk_context_create(const lsk_context_options *opt, lsk_context **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  lsk_shapes shapes;
  int rc = lsk__shapes_resolve(__func__, opt ? opt->shapes : LSK_SHAPES_DEFAULT, &shapes);
  if (rc)
    return rc;
  /* One enumeration serves both the selection and the device's facts. */
  unsigned index = 0;
  lsk_device_info *list;
  size_t n;
  rc = lsk_device_list(&list, &n);
  if (!rc)
    rc = lsk__device_select_in(list, n, opt ? opt->device : NULL, &index);
  if (rc && rc != LSK_ENOMEM) /* the selector's message, under this function's name */
    rc = lsk__fail(NULL, rc, "%s: %s", __func__, lsk_context_errmsg(NULL));
  lsk_context *c = rc ? NULL : new_context();
  if (!rc && !c)
    rc = lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  if (c)
    c->info = list[index];
  lsk_device_list_free(list);
  if (rc)
    return rc;

  cl_platform_id platform;
  cl_int err = lsk__device_ids(&c->info, &platform, &c->device);
  if (err) {
    rc = lsk__fail_cl(NULL, err, __func__, " (device %s)", c->info.name);
    lsk_context_destroy(c);
    return rc;
  }
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  c->cl = clCreateContext(props, 1, &c->device, NULL, NULL, &err);
  if (!err)
    c->queue = clCreateCommandQueue(
        c->cl, c->device, (opt && (opt->profiling || opt->trace)) ? CL_QUEUE_PROFILING_ENABLE : 0,
        &err);
  if (err) {
    rc = lsk__fail_cl(NULL, err, c->cl ? "clCreateCommandQueue" : "clCreateContext", " (device %s)",
                      c->info.name);
    lsk_context_destroy(c);
    return rc;
  }
  return finish_setup(c, opt, shapes, __func__, out);
}

int lsk_context_wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                     const lsk_context_options *opt, lsk_context **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  if (!context || !device || !queue)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__,
                     !context  ? "context"
                     : !device ? "device"
                               : "queue");
  lsk_shapes shapes;
  int rc = lsk__shapes_resolve(__func__, opt ? opt->shapes : LSK_SHAPES_DEFAULT, &shapes);
  if (rc)
    return rc;
  cl_context qctx = NULL;
  cl_device_id qdev = NULL;
  cl_platform_id platform = NULL;
  cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
  if (!err)
    err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
  if (!err)
    err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
  if (err)
    return lsk__fail_cl(NULL, err, __func__, " (querying the queue and device)");
  if (qctx != context || qdev != device)
    return lsk__fail(NULL, LSK_EINVAL, "%s: the queue belongs to another %s", __func__,
                     qctx != context ? "context" : "device");
  lsk_context *c = new_context();
  if (!c)
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  if ((err = lsk__device_info(platform, device, &c->info))) {
    lsk_context_destroy(c);
    return lsk__fail_cl(NULL, err, __func__, " (device facts)");
  }
  lsk__device_position(device, &c->info);
  clRetainContext(context);
  clRetainDevice(device);
  clRetainCommandQueue(queue);
  c->cl = context;
  c->device = device;
  c->queue = queue;
  return finish_setup(c, opt, shapes, __func__, out);
}

void *lsk__context_ext(lsk_context *ctx, const lsk__ext_type *type)
{
  /* Made already: no lock (a library call asks on every lock, unlock and
   * scratch request, and must not wait for a launch's build). A slot's
   * state is published after its type, so a state seen is a type set. */
  for (int i = 0; i < LSK__EXT_SLOTS; ++i) {
    void *s = atomic_load_explicit(&ctx->ext[i].state, memory_order_acquire);
    if (!s)
      break;
    if (ctx->ext[i].type == type)
      return s;
  }
  void *state = NULL;
  lsk__lock(ctx);
  int i = 0;
  while (i < LSK__EXT_SLOTS && ctx->ext[i].type && ctx->ext[i].type != type)
    ++i;
  if (i < LSK__EXT_SLOTS && ctx->ext[i].type == type)
    state = atomic_load_explicit(&ctx->ext[i].state, memory_order_relaxed);
  else if (i < LSK__EXT_SLOTS && (state = type->create(ctx)) != NULL) {
    ctx->ext[i].type = type;
    atomic_store_explicit(&ctx->ext[i].state, state, memory_order_release);
  }
  lsk__unlock(ctx);
  return state;
}

void lsk_context_destroy(lsk_context *ctx)
{
  /* Its children stay allocated: their own _destroy frees them, any other
   * call on them fails (docs/errors.md, "Handles and their lifetimes"). */
  LSK__DESTROY(ctx, CONTEXT, __func__);
  if (ctx->dq)
    lsk__queues_wait(ctx);
  else if (ctx->queue)
    clFinish(ctx->queue);
  for (int i = LSK__EXT_SLOTS - 1; i >= 0; --i)
    if (ctx->ext[i].type)
      ctx->ext[i].type->destroy(ctx, atomic_load(&ctx->ext[i].state));
  lsk__bcache_free(ctx);
  lsk__trace_free(ctx);
  /* The default queue goes here; the others the user made stay allocated
   * as orphans until their lsk_queue_destroy (finished above). */
  if (ctx->dq && lsk__handle_remove(ctx->dq, &LSK__H_QUEUE, __func__) == 0)
    lsk__queue_free(ctx->dq);
  if (ctx->queue)
    clReleaseCommandQueue(ctx->queue);
  lsk__kernel_ids_free(ctx);
  if (ctx->cl)
    clReleaseContext(ctx->cl);
  if (ctx->device)
    clReleaseDevice(ctx->device);
  free(ctx->cache_dir);
  free(ctx->tune_dir);
  lsk__context_sync_free(ctx);
  free(ctx);
}

const lsk_device_info *lsk_context_device(const lsk_context *ctx)
{
  static const lsk_device_info none;
  LSK__LIVE_OR(&none, ctx, CONTEXT, __func__, "ctx");
  return &ctx->info;
}

cl_context lsk_context_cl(const lsk_context *ctx)
{
  LSK__LIVE_OR(NULL, ctx, CONTEXT, __func__, "ctx");
  return ctx->cl;
}

cl_device_id lsk_context_cl_device(const lsk_context *ctx)
{
  LSK__LIVE_OR(NULL, ctx, CONTEXT, __func__, "ctx");
  return ctx->device;
}

cl_command_queue lsk_context_cl_queue(const lsk_context *ctx)
{
  LSK__LIVE_OR(NULL, ctx, CONTEXT, __func__, "ctx");
  return ctx->queue;
}

/* Every queue of ctx waited for; with check, each one's verify records
 * then checked, up to the first failure (whose message is kept: a later
 * one stays for the next check). The list is taken under the lock (queues
 * are not destroyed while the context is in use, docs/threads.md), the
 * waits run without it. */
static int wait_queues(lsk_context *ctx, const lsk_queue *skip, int check, const char *fn)
{
  lsk_queue *qs[64], **list = qs;
  size_t n = 0, cap = sizeof qs / sizeof *qs;
  lsk__lock(ctx);
  for (lsk_queue *q = ctx->queues; q; q = q->next)
    n += q != skip;
  if (n > cap && !(list = malloc(n * sizeof *list))) {
    lsk__unlock(ctx);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  }
  n = 0;
  for (lsk_queue *q = ctx->queues; q; q = q->next)
    if (q != skip)
      list[n++] = q;
  lsk__unlock(ctx);
  int rc = LSK_OK;
  for (size_t i = 0; i < n; ++i) {
    cl_int err = lsk__queue_wait(list[i]);
    if (!rc && err)
      rc = lsk__fail_cl(ctx, err, "clFinish", " (%s, queue '%s')", fn, list[i]->name);
    else if (!rc && check)
      rc = lsk__verify_check(list[i]);
  }
  if (list != qs)
    free(list);
  return rc;
}

int lsk__context_wait(lsk_context *ctx, const char *fn) { return wait_queues(ctx, NULL, 0, fn); }

int lsk__context_wait_others(lsk_context *ctx, const lsk_queue *q, const char *fn)
{
  return wait_queues(ctx, q, 0, fn);
}

int lsk_context_finish(lsk_context *ctx)
{
  LSK__API();
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  return wait_queues(ctx, NULL, 1, __func__);
}

/* The accessors of core.h, for the layers above: no checks (the caller
 * has checked ctx). */
const lsk_device_info *lsk__context_info(const lsk_context *ctx) { return &ctx->info; }
cl_context lsk__context_cl(const lsk_context *ctx) { return ctx->cl; }
cl_device_id lsk__context_device(const lsk_context *ctx) { return ctx->device; }
lsk_queue *lsk__context_queue(const lsk_context *ctx) { return ctx->dq; }
const char *lsk__context_tune_dir(const lsk_context *ctx) { return ctx->tune_dir; }
int lsk__context_tracing(const lsk_context *ctx) { return ctx->trace != NULL; }
