/*
 * bench/launch.c: the case launch, the host cost of a launch: many
 * asynchronous launches of an empty kernel through lsk, against as many
 * raw clEnqueueNDRangeKernel calls of the raw empty kernel, in
 * microseconds per launch.
 */
#include "bench.h"

int bench_case_launch(bench *bn)
{
  unsigned count = bn->quick ? 200 : 10000;
  lsk_kernel *k = NULL;
  cl_int err;
  cl_kernel raw = clCreateKernel(bn->raw, "raw_empty", &err);
  if (err || lsk_kernel_create(bn->prog, "empty", &k))
    return cli_fail("bench", "empty kernels: %s", lsk_context_errmsg(bn->ctx));
  result *r =
      bench_new_result(bn, KIND_LAUNCH, "launch, empty kernel", "raw clEnqueueNDRangeKernel",
                       "launch vs raw enqueue", "us/launch", 0);
  cl_command_queue q = lsk_context_cl_queue(bn->ctx);
  lsk_launch cfg = {.domain = {1}, .blocks = {1}, .workers = 1, .simd = 1};
  size_t one = 1;
  int rc = lsk_kernel_run(k, &cfg, NULL, 0, NULL) ||
           clEnqueueNDRangeKernel(q, raw, 1, NULL, &one, &one, 0, NULL, NULL) || clFinish(q);
  unsigned rounds = bn->quick ? 2 : 5;
  for (unsigned round = 0; !rc && round < rounds; ++round) {
    bench_progress(bn, "launch overhead", round, rounds);
    double t0 = cli_now();
    for (unsigned i = 0; i < count && !rc; ++i)
      rc = lsk_kernel_launch(k, &cfg, NULL, 0, NULL);
    rc = rc || lsk_context_finish(bn->ctx);
    double t1 = cli_now();
    for (unsigned i = 0; i < count && !rc; ++i)
      rc = clEnqueueNDRangeKernel(q, raw, 1, NULL, &one, &one, 0, NULL, NULL);
    rc = rc || clFinish(q);
    double t2 = cli_now();
    bench_add(&r->lsk, (t1 - t0) / count * 1e6);
    bench_add(&r->ref, (t2 - t1) / count * 1e6);
  }
  bench_progress(bn, "launch overhead", rounds, rounds);
  if (rc)
    cli_fail("bench", "launch overhead: %s", lsk_context_errmsg(bn->ctx));
  lsk_kernel_destroy(k);
  clReleaseKernel(raw);
  return rc;
}
