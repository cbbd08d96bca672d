/*
 * stagger_scan.c: the measurement behind the SoA column stagger
 * (docs/perf/soa.md, "Column stagger"). The raw triad a = b + 3c over
 * three regions of one buffer, region k at k * (2^LOG2N * 8 + g) bytes,
 * for each gap g given, against three separate buffers; interleaved, the
 * order rotated each round, best and median per gap, and the median of the
 * per-round ratios (separate / gap, same round: load drift cancels). Plain
 * OpenCL, first device of the first platform; gaps must be multiples of
 * the device's base address alignment (128 bytes on PoCL).
 *
 *   cc -O2 -o stagger_scan docs/tools/stagger_scan.c -lOpenCL
 *   ./stagger_scan ROUNDS GAP...      e.g. ./stagger_scan 15 0 128 4096 4224
 *   LOG2N=14 ./stagger_scan 3 0 128   (a smoke run; default 2^25 doubles)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void raw_triad(__global double *restrict a, __global const double *restrict b,\n"
    "  __global const double *restrict c, double s, uint n)\n"
    "{ uint i = get_global_id(0); if (i < n) a[i] = b[i] + s * c[i]; }\n";

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  int log2n = getenv("LOG2N") ? atoi(getenv("LOG2N")) : 25, rounds = argc > 1 ? atoi(argv[1]) : 11;
  size_t gaps[32];
  int ng = 0;
  for (int i = 2; i < argc && ng < 32; ++i)
    gaps[ng++] = strtoul(argv[i], NULL, 0);
  size_t n = (size_t)1 << log2n, col = n * 8, maxg = 0;
  for (int i = 0; i < ng; ++i)
    maxg = gaps[i] > maxg ? gaps[i] : maxg;
  cl_platform_id p;
  cl_device_id d;
  cl_int err;
  clGetPlatformIDs(1, &p, NULL);
  clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (clBuildProgram(prog, 1, &d, "", NULL, NULL))
    return 1;
  size_t big = 3 * (col + maxg);
  cl_mem one = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big, NULL, &err);
  cl_mem sep[3];
  for (int k = 0; k < 3; ++k)
    sep[k] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, col, NULL, &err);
  double *h = malloc(col);
  for (size_t i = 0; i < n; ++i)
    h[i] = (double)(i % 1000) * 0.5;
  for (int k = 0; k < 3; ++k)
    clEnqueueWriteBuffer(q, sep[k], 1, 0, col, h, 0, NULL, NULL);
  /* fill the big buffer */
  for (size_t off = 0; off + col <= big; off += col)
    clEnqueueWriteBuffer(q, one, 1, off, col, h, 0, NULL, NULL);
  cl_kernel kern[33];
  for (int v = 0; v <= ng; ++v) {
    kern[v] = clCreateKernel(prog, "raw_triad", &err);
    double s = 3;
    cl_uint n32 = (cl_uint)n;
    for (int k = 0; k < 3; ++k) {
      cl_mem m = sep[k];
      if (v < ng) {
        cl_buffer_region r = {k * (col + gaps[v]), col};
        m = clCreateSubBuffer(one, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        if (err) {
          fprintf(stderr, "sub-buffer gap %zu: %d\n", gaps[v], err);
          return 1;
        }
      }
      clSetKernelArg(kern[v], (cl_uint)k, sizeof m, &m);
    }
    clSetKernelArg(kern[v], 3, sizeof s, &s);
    clSetKernelArg(kern[v], 4, sizeof n32, &n32);
  }
  double *t = calloc((size_t)(ng + 1) * rounds, sizeof *t);
  for (int r = 0; r < rounds + 2; ++r)
    for (int j = 0; j <= ng; ++j) {
      int v = (r + j) % (ng + 1);
      cl_event ev;
      size_t global = n;
      clEnqueueNDRangeKernel(q, kern[v], 1, NULL, &global, NULL, 0, NULL, &ev);
      clWaitForEvents(1, &ev);
      cl_ulong a, b;
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
      clReleaseEvent(ev);
      if (r >= 2)
        t[v * rounds + r - 2] = (double)(b - a) * 1e-6;
    }
  /* Paired: per round, separate time / gap time (same round, drift cancels). */
  double *pr = calloc((size_t)ng * rounds, sizeof *pr);
  for (int v = 0; v < ng; ++v) {
    for (int r = 0; r < rounds; ++r)
      pr[v * rounds + r] = t[ng * rounds + r] / t[v * rounds + r];
    qsort(pr + v * rounds, rounds, sizeof *pr, cmp);
  }
  for (int v = 0; v <= ng; ++v)
    qsort(t + v * rounds, rounds, sizeof *t, cmp);
  double sb = t[ng * rounds], sm = t[ng * rounds + rounds / 2];
  printf("separate buffers: best %.3f ms (%.1f GB/s) median %.3f ms\n", sb, 3.0 * col / sb * 1e-6,
         sm);
  for (int v = 0; v < ng; ++v) {
    double b = t[v * rounds], m = t[v * rounds + rounds / 2];
    printf("gap %6zu: best %.3f ms (%.1f GB/s) median %.3f ms  ratio best %.3f median %.3f paired "
           "median %.3f\n",
           gaps[v], b, 3.0 * col / b * 1e-6, m, sb / b, sm / m, pr[v * rounds + rounds / 2]);
  }
  return 0;
}
