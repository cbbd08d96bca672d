/*
 * bench/queues.c: the buffer cache and pinned uploads in `lsk bench`
 * (the third case of queues, streams, runs the pixel example:
 * examples/pixel/bench_pixel.c). Two cases, each checked before and after
 * it is timed:
 *   bufcache a buffer made, used by a small kernel (64 words across it,
 *            so that the runtime really allocates it) and dropped at every
 *            step: lsk_buffer_alloc and lsk_buffer_free on a queue against
 *            clCreateBuffer and clReleaseMemObject, the same raw kernel
 *            and queue for both, in steps per second;
 *   overlap  a double-buffered stream of uploads from pinned memory, each
 *            slice processed by a kernel: uploads on one queue and kernels
 *            on another, ordered by events (upload i + 1 runs beside
 *            kernel i), against the same commands in order on one queue,
 *            in bytes uploaded per second. The kernel is calibrated to
 *            take about as long as an upload, where overlap shows most.
 * Times are the host's wall clock from the first enqueue to the last
 * wait; ratios are the reference's time over lsk's (above 1: faster).
 * Each case also prints the median of the rounds' own ratios (the two
 * sides of a round run back to back), which the load of other processes
 * on a shared machine moves less than the best or median times.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* ---- bufcache ---- */

static const char *touch_source = "__kernel void touch(__global uint *d, uint stride, uint salt)\n"
                                  "{\n"
                                  "  uint i = get_global_id(0);\n"
                                  "  d[i * stride] = i ^ salt;\n"
                                  "}\n";

#define TOUCH_ITEMS 64

typedef struct touch {
  cl_program prog;
  cl_kernel k;
  cl_command_queue q;
  size_t bytes;
  cl_uint stride;
} touch;

/* The kernel over mem, enqueued on t->q. */
static cl_int touch_run(touch *t, cl_mem mem, cl_uint salt)
{
  size_t global = TOUCH_ITEMS;
  cl_int err = clSetKernelArg(t->k, 0, sizeof mem, &mem);
  if (!err)
    err = clSetKernelArg(t->k, 1, sizeof t->stride, &t->stride);
  if (!err)
    err = clSetKernelArg(t->k, 2, sizeof salt, &salt);
  if (!err)
    err = clEnqueueNDRangeKernel(t->q, t->k, 1, NULL, &global, NULL, 0, NULL, NULL);
  return err;
}

/* The words the kernel wrote into mem, read back. */
static int touch_check(bench *bn, touch *t, cl_mem mem, cl_uint salt, const char *who)
{
  for (cl_uint i = 0; i < TOUCH_ITEMS; i += TOUCH_ITEMS - 1) {
    cl_uint v = 0;
    cl_int err =
        clEnqueueReadBuffer(t->q, mem, CL_TRUE, (size_t)i * t->stride * 4, 4, &v, 0, NULL, NULL);
    if (err || v != (i ^ salt))
      return cli_fail("bench", "bufcache: %s: word %u is %u, want %u (%s)", who, i * t->stride, v,
                      i ^ salt, lsk_status_name(err));
  }
  (void)bn;
  return 0;
}

/* steps of alloc, kernel, free through the cache (lsk) or the driver;
 * with check, the last buffer is read back before it goes. */
static int churn(bench *bn, touch *t, unsigned steps, int lsk, int check, double *seconds)
{
  lsk_queue *q = lsk_context_queue(bn->ctx);
  double t0 = cli_now();
  cl_int err = CL_SUCCESS;
  for (unsigned i = 0; i < steps && !err; ++i) {
    lsk_buffer *b = NULL;
    cl_mem mem = NULL;
    if (lsk) {
      if (lsk_buffer_alloc(bn->ctx, t->bytes, &b, &(lsk_async){.queue = q}))
        return cli_fail("bench", "bufcache: %s", lsk_context_errmsg(bn->ctx));
      mem = lsk_buffer_cl(b);
    } else {
      mem = clCreateBuffer(lsk_context_cl(bn->ctx), CL_MEM_READ_WRITE, t->bytes, NULL, &err);
    }
    if (!err)
      err = touch_run(t, mem, i);
    if (!err && check && i + 1 == steps && touch_check(bn, t, mem, i, lsk ? "lsk" : "raw"))
      err = CL_INVALID_VALUE;
    if (lsk)
      lsk_buffer_free(b, &(lsk_async){.queue = q});
    else if (mem)
      clReleaseMemObject(mem);
  }
  if (!err)
    err = clFinish(t->q);
  *seconds = cli_now() - t0;
  return err ? cli_fail("bench", "bufcache: %s", lsk_status_name(err)) : 0;
}

int bench_case_bufcache(bench *bn)
{
  touch t = {.q = lsk_context_cl_queue(bn->ctx), .bytes = bn->quick ? 65536 : 1u << 20};
  t.stride = (cl_uint)(t.bytes / 4 / TOUCH_ITEMS);
  unsigned steps = bn->quick ? 50 : 2000;
  cl_int err;
  cl_device_id dev = lsk_context_cl_device(bn->ctx);
  t.prog = clCreateProgramWithSource(lsk_context_cl(bn->ctx), 1, &touch_source, NULL, &err);
  if (!err)
    err = clBuildProgram(t.prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL);
  if (!err)
    t.k = clCreateKernel(t.prog, "touch", &err);
  if (err) {
    if (t.prog)
      clReleaseProgram(t.prog);
    return cli_fail("bench", "bufcache: the touch kernel: %s", lsk_status_name(err));
  }
  lsk_buffer_cache_stats st0, st1;
  double s;
  int rc = churn(bn, &t, steps, 1, 1, &s) || churn(bn, &t, steps, 0, 1, &s) ||
           lsk_buffer_cache_stats_get(bn->ctx, &st0);
  char name[64];
  snprintf(name, sizeof name, "buffer per step, %s", cli_fmt_bytes(t.bytes, (char[24]){0}, 24));
  result *r =
      rc ? NULL
         : bench_new_result(bn, KIND_RATE, name, "clCreateBuffer + release",
                            "lsk_buffer_alloc/free vs clCreateBuffer", "k steps/s", 1e6 * steps);
  rc = rc || !r;
  for (unsigned k = 0; k < bn->repeat && !rc; ++k) {
    bench_progress(bn, "buffer cache", k, bn->repeat);
    double a = 0, b = 0;
    rc = churn(bn, &t, steps, 1, 0, &a) || churn(bn, &t, steps, 0, 0, &b);
    bench_add(&r->lsk, a);
    bench_add(&r->ref, b);
  }
  bench_progress(bn, "buffer cache", bn->repeat, bn->repeat);
  rc = rc || churn(bn, &t, steps, 1, 1, &s) || churn(bn, &t, steps, 0, 1, &s) ||
       lsk_buffer_cache_stats_get(bn->ctx, &st1);
  if (!rc)
    printf("buffer cache: %llu hits, %llu misses over the timed steps; the rounds' ratios, "
           "median %.3f\n",
           (unsigned long long)(st1.hits - st0.hits), (unsigned long long)(st1.misses - st0.misses),
           bench_paired(&r->ref, &r->lsk));
  clReleaseKernel(t.k);
  clReleaseProgram(t.prog);
  return rc;
}

/* ---- overlap ---- */

static const char overlap_source[] =
    "/* out[i] = a hash of in[i], rounds times: work per byte set by rounds. */\n"
    "LSK_KERNEL void spin(LSK_CTX, __global const uint *in, __global uint *out, uint n,\n"
    "                     uint rounds)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n) {\n"
    "        uint x = in[i];\n"
    "        for (uint r = 0; r < rounds; ++r)\n"
    "          x = (x ^ (x >> 13)) * 1664525u + 1013904223u;\n"
    "        out[i] = x;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

static uint32_t spin_c(uint32_t x, uint32_t rounds)
{
  for (uint32_t r = 0; r < rounds; ++r)
    x = (x ^ (x >> 13)) * 1664525u + 1013904223u;
  return x;
}

typedef struct overlap {
  size_t n, bytes; /* per slice */
  unsigned steps;
  uint32_t rounds;
  lsk_pinned *pin; /* two slices */
  lsk_buffer *d[2], *out;
  lsk_kernel *k;
  lsk_queue *up, *run; /* the uploads' queue and the kernels' */
  lsk_event **evs;     /* 2 per step */
} overlap;

static int spin(overlap *o, lsk_buffer *in, const lsk_async *on)
{
  lsk_launch l = {.domain = {256}, .blocks = {o->n / 256 < 1024 ? (o->n + 255) / 256 : 1024}};
  uint32_t n = (uint32_t)o->n, rounds = o->rounds;
  return lsk_kernel_launch(
      o->k, &l,
      LSK_ARGS(LSK_ARG_BUFFER(in), LSK_ARG_BUFFER(o->out), LSK_ARG_UINT(n), LSK_ARG_UINT(rounds)),
      on);
}

/* The steps: upload slice i % 2 into d[i % 2], then spin over it.
 * Overlapped: uploads on o->up, kernels on o->run; kernel i waits for
 * upload i, upload i + 2 (into the same buffer) for kernel i. Serialized:
 * both on o->up, in order. Wall clock to both queues' end. */
static int overlap_run(bench *bn, overlap *o, int overlapped, double *seconds)
{
  const unsigned char *host = lsk_pinned_ptr(o->pin);
  lsk_event **up = o->evs, **done = o->evs + o->steps;
  memset(o->evs, 0, 2 * o->steps * sizeof *o->evs);
  int rc = 0;
  double t0 = cli_now();
  for (unsigned i = 0; i < o->steps && !rc; ++i) {
    unsigned j = i % 2;
    lsk_async u = {.queue = o->up, .flags = LSK_ASYNC_NONBLOCKING};
    lsk_async k = {.queue = o->up};
    if (overlapped) {
      u = (lsk_async){.queue = o->up,
                      .wait = i >= 2 ? &done[i - 2] : NULL,
                      .nwait = i >= 2,
                      .event = &up[i],
                      .flags = LSK_ASYNC_NONBLOCKING};
      k = (lsk_async){.queue = o->run, .wait = &up[i], .nwait = 1, .event = &done[i]};
    }
    rc = lsk_buffer_write(o->d[j], 0, host + j * o->bytes, o->bytes, &u);
    if (!rc)
      rc = spin(o, o->d[j], &k);
  }
  int frc = lsk_queue_finish(o->up), grc = lsk_queue_finish(o->run);
  *seconds = cli_now() - t0;
  for (unsigned i = 0; i < 2 * o->steps; ++i)
    lsk_event_release(o->evs[i]);
  rc = rc ? rc : frc ? frc : grc;
  return rc ? cli_fail("bench", "overlap: %s", lsk_context_errmsg(bn->ctx)) : 0;
}

/* out against C over the last step's slice. */
static int overlap_check(bench *bn, overlap *o, const char *who)
{
  uint32_t *got = malloc(o->bytes);
  const uint32_t *in = (const uint32_t *)((const unsigned char *)lsk_pinned_ptr(o->pin) +
                                          ((o->steps - 1) % 2) * o->bytes);
  int rc = !got ? cli_fail("bench", "overlap: out of memory") : 0;
  if (!rc && lsk_buffer_read(o->out, 0, got, o->bytes, NULL))
    rc = cli_fail("bench", "overlap: %s", lsk_context_errmsg(bn->ctx));
  for (size_t i = 0; !rc && i < o->n; i += 1 + i / 7)
    if (got[i] != spin_c(in[i], o->rounds))
      rc = cli_fail("bench", "overlap: %s: out[%zu] is %u, want %u", who, i, got[i],
                    spin_c(in[i], o->rounds));
  free(got);
  return rc;
}

/* Best of three of one upload and one kernel of rounds; the rounds for a
 * kernel as long as an upload. */
static int overlap_calibrate(bench *bn, overlap *o)
{
  double up = 0, run = 0;
  o->rounds = 16;
  for (int r = 0; r < 3; ++r) {
    double t0 = cli_now();
    if (lsk_buffer_write(o->d[0], 0, lsk_pinned_ptr(o->pin), o->bytes,
                         &(lsk_async){.queue = o->up, .flags = LSK_ASYNC_NONBLOCKING}) ||
        lsk_queue_finish(o->up))
      return cli_fail("bench", "overlap: %s", lsk_context_errmsg(bn->ctx));
    double t1 = cli_now();
    if (spin(o, o->d[0], &(lsk_async){.queue = o->run}) || lsk_queue_finish(o->run))
      return cli_fail("bench", "overlap: %s", lsk_context_errmsg(bn->ctx));
    double t2 = cli_now();
    up = r == 0 || t1 - t0 < up ? t1 - t0 : up;
    run = r == 0 || t2 - t1 < run ? t2 - t1 : run;
  }
  double want = 16.0 * up / (run > 0 ? run : 1e-9);
  o->rounds = want < 1 ? 1 : want > 4096 ? 4096 : (uint32_t)want;
  return 0;
}

int bench_case_overlap(bench *bn)
{
  overlap o = {.bytes = bn->quick ? 1u << 18 : 16u << 20, .steps = bn->quick ? 4 : 16};
  o.n = o.bytes / 4;
  lsk_program *prog = NULL;
  int rc = 0;
  o.evs = calloc(2 * o.steps, sizeof *o.evs);
  if (!o.evs)
    rc = cli_fail("bench", "overlap: out of memory");
  if (!rc &&
      (lsk_program_create(bn->ctx, overlap_source, &(lsk_program_options){.name = "overlap"},
                          &prog) ||
       lsk_kernel_create(prog, "spin", &o.k) ||
       lsk_queue_create(bn->ctx, &(lsk_queue_options){.name = "uploads"}, &o.up) ||
       lsk_queue_create(bn->ctx, &(lsk_queue_options){.name = "kernels"}, &o.run) ||
       lsk_pinned_create(bn->ctx, 2 * o.bytes, &o.pin) ||
       lsk_buffer_create(bn->ctx, o.bytes, &o.d[0]) ||
       lsk_buffer_create(bn->ctx, o.bytes, &o.d[1]) || lsk_buffer_create(bn->ctx, o.bytes, &o.out)))
    rc = cli_fail("bench", "overlap: %s", lsk_context_errmsg(bn->ctx));
  if (!rc) {
    uint32_t *h = lsk_pinned_ptr(o.pin);
    uint64_t state = 12345;
    for (size_t i = 0; i < 2 * o.n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      h[i] = (uint32_t)(state >> 32);
    }
  }
  double s;
  rc = rc || overlap_calibrate(bn, &o) || overlap_run(bn, &o, 1, &s) ||
       overlap_check(bn, &o, "two queues") || overlap_run(bn, &o, 0, &s) ||
       overlap_check(bn, &o, "one queue");
  char name[64], size[24];
  snprintf(name, sizeof name, "upload || kernel, %u x %s", o.steps,
           cli_fmt_bytes(o.bytes, size, sizeof size));
  result *r = rc ? NULL
                 : bench_new_result(bn, KIND_RATE, name, "the same on one queue",
                                    "pinned upload || kernel vs serial", "GB/s uploaded",
                                    (double)o.steps * (double)o.bytes);
  rc = rc || !r;
  for (unsigned k = 0; k < bn->repeat && !rc; ++k) {
    bench_progress(bn, "upload beside kernel", k, bn->repeat);
    double a = 0, b = 0;
    rc = overlap_run(bn, &o, 1, &a) || overlap_run(bn, &o, 0, &b);
    bench_add(&r->lsk, a);
    bench_add(&r->ref, b);
  }
  bench_progress(bn, "upload beside kernel", bn->repeat, bn->repeat);
  rc = rc || overlap_run(bn, &o, 1, &s) || overlap_check(bn, &o, "two queues") ||
       overlap_run(bn, &o, 0, &s) || overlap_check(bn, &o, "one queue");
  if (!rc)
    printf("overlap: %u uploads of %s from pinned memory, each slice then hashed %u times per "
           "word (a kernel about as long as an upload, or the least); the rounds' ratios, median "
           "%.3f\n",
           o.steps, size, o.rounds, bench_paired(&r->ref, &r->lsk));
  free(o.evs);
  lsk_buffer_destroy(o.d[0]);
  lsk_buffer_destroy(o.d[1]);
  lsk_buffer_destroy(o.out);
  lsk_pinned_destroy(o.pin);
  lsk_queue_destroy(o.up);
  lsk_queue_destroy(o.run);
  lsk_kernel_destroy(o.k);
  lsk_program_destroy(prog);
  return rc;
}
