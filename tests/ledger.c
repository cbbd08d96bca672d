/*
 * ledger.c: counts the OpenCL objects this process creates and releases,
 * so that a test fails when lsk leaks one.
 *
 * Why: the sanitizer build suppresses leaks inside libpocl and the ICD
 * loader (tests/lsan.supp), because those keep process-lifetime state.
 * That suppression would also hide a cl_mem or cl_program that lsk created
 * and forgot to release: its memory is allocated inside libpocl. The ledger
 * closes that gap without touching the library: these definitions sit in
 * the test executable, so the calls of the statically linked lsk (and of the
 * tests themselves) resolve to them; each forwards to the ICD loader's
 * function (dlsym RTLD_NEXT) and counts successful creates, retains and
 * releases per object kind.
 *
 * libcheck runs each test in a forked child that ends with exit(); an
 * atexit handler there finds any kind whose count is not back to zero,
 * prints the ledger and exits with status 3, which libcheck reports as a
 * failure of that test ("early exit with return value 3"). LSK_LEDGER=0
 * turns the check off (for debugging a test that is meant to leak).
 *
 * Linked into lsk_tests and, in lsk's tree, into the examples' test
 * binaries (examples/CMakeLists.txt); its canary is check_ledger.c.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsk/lsk.h"

/* Devices: only sub-devices are counted (clCreateSubDevices, and retains
 * and releases of a device with a parent): for root devices retain and
 * release are no-ops (and release without retain is allowed). */
enum { L_CONTEXT, L_QUEUE, L_MEM, L_PROGRAM, L_KERNEL, L_EVENT, L_DEVICE, L_KINDS };
static const char *const kind_name[L_KINDS] = {"context", "queue", "mem",       "program",
                                               "kernel",  "event", "sub-device"};
static atomic_long live[L_KINDS];

static void *real(const char *name)
{
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "ledger: no %s in the OpenCL library\n", name);
    _exit(4);
  }
  return f;
}

/* REAL(name): the loader's function, looked up once. */
/* The real function, looked up once; atomically, since the first calls
 * may come from several threads at once (ThreadSanitizer reported the
 * plain pointer). */
#define REAL(name)                                                                                 \
  static __typeof__(&name) real_##name##_once;                                                     \
  __typeof__(&name) real_##name = __atomic_load_n(&real_##name##_once, __ATOMIC_ACQUIRE);          \
  if (!real_##name) {                                                                              \
    void *f_ = real(#name); /* POSIX: dlsym's result converts this way */                          \
    memcpy(&real_##name, &f_, sizeof f_);                                                          \
    __atomic_store_n(&real_##name##_once, real_##name, __ATOMIC_RELEASE);                          \
  }

static void count(int kind, int ok, long d)
{
  if (ok)
    atomic_fetch_add(&live[kind], d);
}

static void check_at_exit(void)
{
  const char *v = getenv("LSK_LEDGER");
  if (v && strcmp(v, "0") == 0)
    return;
  int bad = 0;
  for (int k = 0; k < L_KINDS; ++k)
    bad |= atomic_load(&live[k]) != 0;
  if (!bad)
    return;
  fprintf(stderr, "ledger: OpenCL objects not released at exit:");
  for (int k = 0; k < L_KINDS; ++k)
    if (atomic_load(&live[k]))
      fprintf(stderr, " %s %+ld", kind_name[k], atomic_load(&live[k]));
  fprintf(stderr, "\n");
  _exit(3);
}

__attribute__((constructor)) static void ledger_init(void) { atexit(check_at_exit); }

/* Counting wrappers: created objects, by their return value. */
#define CREATE(kind, ret, name, params, args)                                                      \
  ret name params                                                                                  \
  {                                                                                                \
    REAL(name);                                                                                    \
    ret obj = real_##name args;                                                                    \
    count(kind, obj != NULL, 1);                                                                   \
    return obj;                                                                                    \
  }
/* Retain / release: by their status. */
#define REFCOUNT(kind, type, name, d)                                                              \
  cl_int name(type obj)                                                                            \
  {                                                                                                \
    REAL(name);                                                                                    \
    cl_int rc = real_##name(obj);                                                                  \
    count(kind, rc == CL_SUCCESS, d);                                                              \
    return rc;                                                                                     \
  }

CREATE(L_CONTEXT, cl_context, clCreateContext,
       (const cl_context_properties *p, cl_uint n, const cl_device_id *d,
        void(CL_CALLBACK *cb)(const char *, const void *, size_t, void *), void *u, cl_int *e),
       (p, n, d, cb, u, e))
CREATE(L_CONTEXT, cl_context, clCreateContextFromType,
       (const cl_context_properties *p, cl_device_type t,
        void(CL_CALLBACK *cb)(const char *, const void *, size_t, void *), void *u, cl_int *e),
       (p, t, cb, u, e))
CREATE(L_QUEUE, cl_command_queue, clCreateCommandQueue,
       (cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *e), (c, d, p, e))
CREATE(L_MEM, cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *e),
       (c, f, s, h, e))
CREATE(L_MEM, cl_mem, clCreateSubBuffer,
       (cl_mem b, cl_mem_flags f, cl_buffer_create_type t, const void *i, cl_int *e),
       (b, f, t, i, e))
CREATE(L_PROGRAM, cl_program, clCreateProgramWithSource,
       (cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *e), (c, n, s, l, e))
CREATE(L_PROGRAM, cl_program, clCreateProgramWithBinary,
       (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l, const unsigned char **b,
        cl_int *st, cl_int *e),
       (c, n, d, l, b, st, e))
CREATE(L_KERNEL, cl_kernel, clCreateKernel, (cl_program p, const char *name, cl_int *e),
       (p, name, e))
CREATE(L_EVENT, cl_event, clCreateUserEvent, (cl_context c, cl_int *e), (c, e))

REFCOUNT(L_CONTEXT, cl_context, clRetainContext, 1)
REFCOUNT(L_CONTEXT, cl_context, clReleaseContext, -1)
REFCOUNT(L_QUEUE, cl_command_queue, clRetainCommandQueue, 1)
REFCOUNT(L_QUEUE, cl_command_queue, clReleaseCommandQueue, -1)
REFCOUNT(L_MEM, cl_mem, clRetainMemObject, 1)
REFCOUNT(L_MEM, cl_mem, clReleaseMemObject, -1)
REFCOUNT(L_PROGRAM, cl_program, clRetainProgram, 1)
REFCOUNT(L_PROGRAM, cl_program, clReleaseProgram, -1)
REFCOUNT(L_KERNEL, cl_kernel, clRetainKernel, 1)
REFCOUNT(L_KERNEL, cl_kernel, clReleaseKernel, -1)
REFCOUNT(L_EVENT, cl_event, clRetainEvent, 1)
REFCOUNT(L_EVENT, cl_event, clReleaseEvent, -1)

cl_int clCreateSubDevices(cl_device_id d, const cl_device_partition_property *p, cl_uint n,
                          cl_device_id *out, cl_uint *nout)
{
  REAL(clCreateSubDevices);
  cl_uint made = 0;
  cl_int rc = real_clCreateSubDevices(d, p, n, out, &made);
  if (nout)
    *nout = made;
  /* With out, as many as it holds (made where the runtime says so). */
  count(L_DEVICE, rc == CL_SUCCESS && out != NULL, (long)(made && made < n ? made : n));
  return rc;
}

/* Whether d is a sub-device (asked before a release, which may free it). */
static int has_parent(cl_device_id d)
{
  cl_device_id parent = NULL;
  return clGetDeviceInfo(d, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL) == CL_SUCCESS &&
         parent != NULL;
}

cl_int clRetainDevice(cl_device_id d)
{
  REAL(clRetainDevice);
  int sub = has_parent(d);
  cl_int rc = real_clRetainDevice(d);
  count(L_DEVICE, sub && rc == CL_SUCCESS, 1);
  return rc;
}

cl_int clReleaseDevice(cl_device_id d)
{
  REAL(clReleaseDevice);
  int sub = has_parent(d);
  cl_int rc = real_clReleaseDevice(d);
  count(L_DEVICE, sub && rc == CL_SUCCESS, -1);
  return rc;
}

/* Commands that can hand back an event: counted when they do. */
#define EVENT_OUT(rc, ev) count(L_EVENT, (rc) == CL_SUCCESS && (ev) != NULL, 1)

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off,
                              const size_t *g, const size_t *l, cl_uint nw, const cl_event *w,
                              cl_event *ev)
{
  REAL(clEnqueueNDRangeKernel);
  cl_int rc = real_clEnqueueNDRangeKernel(q, k, dim, off, g, l, nw, w, ev);
  EVENT_OUT(rc, ev);
  return rc;
}

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool blk, size_t off, size_t n, void *p,
                           cl_uint nw, const cl_event *w, cl_event *ev)
{
  REAL(clEnqueueReadBuffer);
  cl_int rc = real_clEnqueueReadBuffer(q, b, blk, off, n, p, nw, w, ev);
  EVENT_OUT(rc, ev);
  return rc;
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blk, size_t off, size_t n,
                            const void *p, cl_uint nw, const cl_event *w, cl_event *ev)
{
  REAL(clEnqueueWriteBuffer);
  cl_int rc = real_clEnqueueWriteBuffer(q, b, blk, off, n, p, nw, w, ev);
  EVENT_OUT(rc, ev);
  return rc;
}

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem s, cl_mem d, size_t so, size_t dof, size_t n,
                           cl_uint nw, const cl_event *w, cl_event *ev)
{
  REAL(clEnqueueCopyBuffer);
  cl_int rc = real_clEnqueueCopyBuffer(q, s, d, so, dof, n, nw, w, ev);
  EVENT_OUT(rc, ev);
  return rc;
}

cl_int clEnqueueFillBuffer(cl_command_queue q, cl_mem b, const void *pat, size_t ps, size_t off,
                           size_t n, cl_uint nw, const cl_event *w, cl_event *ev)
{
  REAL(clEnqueueFillBuffer);
  cl_int rc = real_clEnqueueFillBuffer(q, b, pat, ps, off, n, nw, w, ev);
  EVENT_OUT(rc, ev);
  return rc;
}

void *clEnqueueMapBuffer(cl_command_queue q, cl_mem b, cl_bool blk, cl_map_flags f, size_t off,
                         size_t n, cl_uint nw, const cl_event *w, cl_event *ev, cl_int *e)
{
  REAL(clEnqueueMapBuffer);
  cl_int rc = CL_SUCCESS;
  void *p = real_clEnqueueMapBuffer(q, b, blk, f, off, n, nw, w, ev, &rc);
  if (e)
    *e = rc;
  EVENT_OUT(rc, ev);
  return p;
}

cl_int clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *p, cl_uint nw, const cl_event *w,
                               cl_event *ev)
{
  REAL(clEnqueueUnmapMemObject);
  cl_int rc = real_clEnqueueUnmapMemObject(q, m, p, nw, w, ev);
  EVENT_OUT(rc, ev);
  return rc;
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *ev)
{
  REAL(clEnqueueMarkerWithWaitList);
  cl_int rc = real_clEnqueueMarkerWithWaitList(q, nw, w, ev);
  EVENT_OUT(rc, ev);
  return rc;
}
