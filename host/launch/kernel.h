/*
 * launch/kernel.h: the kernel object, shared by the files that make,
 * resolve, bind and enqueue it (kernel.c, resolve.c, args.c, enqueue.c,
 * build.c). Private to the launch layer; tune.c uses the kernel through
 * launch/tune.h only.
 */
#ifndef LSK_LAUNCH_KERNEL_H
#define LSK_LAUNCH_KERNEL_H

#include "launch/launch.h"

/* The kernel in one build. */
typedef struct lsk__kentry {
  lsk__build *build;
  cl_kernel kernel;
  size_t wg_max;             /* CL_KERNEL_WORK_GROUP_SIZE */
  cl_ulong local_static;     /* CL_KERNEL_LOCAL_MEM_SIZE before arguments */
  cl_ulong private_mem;      /* CL_KERNEL_PRIVATE_MEM_SIZE (0 if not reported) */
  cl_uint nargs;             /* including LSK_CTX */
  struct lsk__argspec *args; /* nargs entries (args.c) */
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
  lsk_context *ctx; /* prog's */
  char *name;
  int has_decl;
  unsigned decl[3];
  lsk__kentry *entries;
  lsk__tuned *tuned;
  /* The last resolution, keyed by what the launch asked for. */
  unsigned last_domain[3], last_req_workers, last_req_simd;
  unsigned last_workers, last_simd;
  lsk__kentry *last;
  unsigned kid; /* its id in the context's verify records (verify.c) */
};

/* kernel.c: the kept choice for dom (read at lsk_kernel_create, or set by
 * lsk_tune), which applies only where the context has a tune directory;
 * 1 if there is one. */
int lsk__kernel_stored(const lsk_kernel *k, const unsigned dom[3], unsigned *w, unsigned *s);

/* resolve.c: a launch resolved to the kernel's entry in a build and its
 * workers and simd: the block domain (the launch's or the declared one),
 * then, unless the launch gives both, a stored choice (with stored) or the
 * automatic rule, within the device's and the kernel's limits. Builds on
 * first use; with stored, a repeated launch is one comparison. Under the
 * context's lock. */
int lsk__kernel_resolve(lsk_kernel *k, const lsk_launch *cfg, const char *fn, int stored,
                        lsk__kentry **out, unsigned *workers, unsigned *simd);

/* args.c: e's argument table (e->kernel made): the count and what each
 * argument takes, from clGetKernelArgInfo (anything, where the
 * implementation gives no arg info). CL_SUCCESS or an OpenCL error. */
cl_int lsk__args_read(lsk__kentry *e);
/* args.c: 1 if e's first parameter is (or may be) LSK_CTX. */
int lsk__args_take_ctx(const lsk__kentry *e);
/* args.c: checks args against e's table (a buffer: a live buffer of the
 * context), binds them after verify (LSK_CTX), and checks the local memory
 * they add up to; messages name fn and the kernel. Under the context's
 * lock. */
int lsk__args_bind(lsk_kernel *k, lsk__kentry *e, const lsk_launch *cfg, const lsk_arg *args,
                   size_t nargs, cl_mem verify, const char *fn);

#endif /* LSK_LAUNCH_KERNEL_H */
