/*
 * context.h: an lsk context is one device, its OpenCL context, a default
 * in-order command queue (and any others made with lsk_queue_create,
 * queue.h), the device-verify records that kernels write to, and the last
 * error messages.
 *
 * Thread-safety (docs/threads.md): different contexts may be used from
 * different threads at once. On one context, several threads may at once
 * launch (lsk_kernel_launch, lsk_kernel_run, lsk_kernel_shape,
 * lsk_program_build, even of the same kernel: a per-context lock
 * serializes building, argument binding and enqueueing), drive different
 * queues (queue.h), create, destroy, read, write, fill, map and unmap
 * buffers (each thread its own buffers, or ordered by the caller), use the
 * buffer cache and the kernel library (each library object by one thread
 * at a time), call lsk_context_finish and read their own error messages.
 * One thread at a time per context: lsk_tune, and the create and destroy
 * of the context, of queues, programs and kernels, which must not race
 * with their use.
 */
#ifndef LSK_CONTEXT_H
#define LSK_CONTEXT_H

/* OpenCL 1.2, unless the user has chosen a version before including lsk
 * (lsk's headers need only OpenCL 1.0's types). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_context lsk_context;

/* All zeros means the defaults. */
typedef struct lsk_context_options {
  /* A device selector (see lsk_device_select); NULL: LSK_DEVICE, else the
   * first GPU, else the first device. */
  const char *device;
  /* Directory of the on-disk program binary cache. NULL: the LSK_CACHE_DIR
   * environment variable; unset or empty: no disk cache. Best effort: a
   * directory that cannot be made or written, or a full disk, leaves builds
   * as they are (compiled each time) and no partial file behind. Several
   * threads and processes may share one directory. */
  const char *cache_dir;
  /* Non-zero: create the queues with CL_QUEUE_PROFILING_ENABLE, so that
   * events have device times (lsk_event_times_get). */
  int profiling;
  /* Directory of the choices stored by lsk_tune (see tune.h). NULL: the
   * environment (LSK_TUNE, LSK_TUNE_DIR, XDG_CACHE_HOME, HOME); "": automatic
   * launches use no stored choice and lsk_tune stores none. */
  const char *tune_dir;
  /* Non-zero: record a timeline of every launch and transfer on every
   * queue (trace.h); implies profiling. Zero: nothing is recorded and
   * nothing is spent on it. */
  int trace;
  /* Non-zero: no buffer cache (buffer.h): lsk_buffer_alloc and the kernel
   * library's temporary buffers are made and released each time. Also
   * LSK_BUFFER_CACHE=0 in the environment. */
  int no_buffer_cache;
  /* The facts launch shapes are chosen by (device.h, lsk_shapes):
   * LSK_SHAPES_DEFAULT (0) the environment's LSK_SHAPES, else the device's
   * own; LSK_SHAPES_DEVICE the device's own whatever the environment says;
   * LSK_SHAPES_NVIDIA an NVIDIA GPU's (lsk_device_model), which
   * lsk_context_device then returns. Any other value, or a bad LSK_SHAPES,
   * is LSK_EINVAL at creation. */
  lsk_shapes shapes;
} lsk_context_options;

/*
 * lsk_context_create: pick a device, make an OpenCL context and an in-order
 * queue on it. opt may be NULL.
 * Errors: LSK_EINVAL, LSK_ENODEV, LSK_ENOMEM, OpenCL codes. On failure *out
 * is NULL and the message is the thread's (lsk_context_errmsg(NULL)).
 */
int lsk_context_create(const lsk_context_options *opt, lsk_context **out /* OUT */);

/*
 * lsk_context_wrap: use an existing OpenCL context, device and queue. lsk
 * retains them and releases its references at destroy; it never releases
 * the caller's. queue must belong to context and device. opt->device is
 * ignored.
 */
int lsk_context_wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                     const lsk_context_options *opt, lsk_context **out /* OUT */);

/* lsk_context_destroy: waits for every queue, frees the context (a command
 * held by a user event that is never completed would be waited for: complete
 * or release such events first). NULL is a
 * no-op. Destroy its children (buffers, programs, kernels, pools, ...)
 * first; one destroyed after still frees it, and every other call on it
 * fails with LSK_EINVAL "... its context ... was destroyed" (docs/errors.md,
 * "Handles and their lifetimes"). No other thread may be using the
 * context. A handle that is not live (destroyed, never made, or of another
 * type) is reported in lsk_context_errmsg(NULL) and left alone. */
void lsk_context_destroy(lsk_context *ctx);

/*
 * lsk_context_errmsg: the detailed message of the calling thread's last
 * failure on ctx (each thread reads its own: another thread's failure on
 * the same context does not replace it), or the thread's last failure in
 * lsk if that is newer and its context unknown: a handle that is not live
 * cannot say which context it had, so reading a destroyed buffer of ctx
 * is seen here. Marked "(earlier) " as lsk_errmsg (status.h) says when it
 * is not from the thread's latest call. ctx NULL, or not a live context:
 * lsk_errmsg(), and nothing is written. Never NULL; "" if there was none.
 * Valid until the calling thread's next failure, or until the context is
 * destroyed.
 */
const char *lsk_context_errmsg(const lsk_context *ctx);

/*
 * lsk_context_set_error: records fmt (printf-style) as the calling thread's
 * message on ctx, exactly as lsk's own functions do on failure, and returns
 * status. For code built on lsk (a pipeline, a library of kernels) that
 * wants its callers to read its errors the same way: start the text with
 * the function's name. ctx NULL, or not a live context: the thread's
 * message only (lsk_errmsg). A call of its own: the message is current,
 * which is how code built on lsk re-raises a failure after cleanup calls
 * that succeeded (and so marked it).
 */
int lsk_context_set_error(lsk_context *ctx, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* lsk_context_device: the facts of the context's device (never NULL). */
const lsk_device_info *lsk_context_device(const lsk_context *ctx);

/* Raw handles for interoperation; lsk keeps ownership. The queue is the
 * default one (lsk_queue_cl for the others). */
cl_context lsk_context_cl(const lsk_context *ctx);
cl_device_id lsk_context_cl_device(const lsk_context *ctx);
cl_command_queue lsk_context_cl_queue(const lsk_context *ctx);

/*
 * lsk_context_finish: wait for all work on every queue of the context,
 * then check their device verify records. Returns LSK_EVERIFY (and clears
 * the record) if a kernel recorded a failure since the last check; the
 * message names the queue, the kernel, the line of the user's source, the
 * message and the values. Where several queues failed, the first in the
 * order the queues were made is reported, the others at the next check.
 */
int lsk_context_finish(lsk_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* LSK_CONTEXT_H */
