// iota.cpp: a C++ program outside lsk, built against the installed library
// (tests/consumer.sh: g++ -std=c++11 and later through pkg-config, -Wall
// -Wextra -pedantic -Werror, and find_package). It sets its own OpenCL
// target version, which lsk keeps, and launches with every kind of
// argument macro, spelled as in C.
#define CL_TARGET_OPENCL_VERSION 300
#include <lsk/lsk.h>

#include <cstdio>
#include <cstring>
#include <vector>

static const char *source =
    "typedef struct pair { int a; float b; } pair;\n"
    "LSK_KERNEL void iota(LSK_CTX, __global uint *data, uint n)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint i = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (i < n) data[i] = i;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void kinds(LSK_CTX, __global int *out, char c, uchar uc, short s, ushort us,\n"
    "                    int i, uint u, long l, ulong ul, float f, pair p,\n"
    "                    __local int *scratch, __local int *dyn)\n"
    "{\n"
    "  LSK_BLOCKS(b, 1) {\n"
    "    LSK_FOREACH(it) {\n"
    "      if (it.idx == 0) {\n"
    "        scratch[0] = 1; dyn[0] = 2;\n"
    "        out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i; out[5] = (int)u;\n"
    "        out[6] = (int)(l / 1000000000000L); out[7] = (int)(ul >> 40);\n"
    "        out[8] = (int)(f * 4.0f); out[9] = p.a; out[10] = (int)(p.b * 2.0f);\n"
    "        out[11] = scratch[0] + dyn[0];\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

struct pair {
  cl_int a;
  cl_float b;
};

// Each macro's kind, size and value, on the host: C++ builds them with
// functions where C has compound literals; LSK_ARG_DOUBLE too, which the
// kernel leaves out (not every device has fp64).
static int check_macros(lsk_buffer *buf)
{
  pair p = {7, 1.5f};
  const lsk_arg args[] = {
      LSK_ARG_BUFFER(buf),       LSK_ARG_CHAR(-3),      LSK_ARG_UCHAR(250),
      LSK_ARG_SHORT(-300),       LSK_ARG_USHORT(60000), LSK_ARG_INT(-70000),
      LSK_ARG_UINT(4000000000u), LSK_ARG_LONG(-5),      LSK_ARG_ULONG(1ull << 40),
      LSK_ARG_FLOAT(0.25f),      LSK_ARG_DOUBLE(0.5),   LSK_ARG_BYTES(&p, sizeof p),
      LSK_ARG_LOCAL(64),         LSK_ARG_DYN_LOCAL};
  int bad = 0;
  bad += args[0].kind != LSK_ARG_KIND_BUFFER || args[0].size != sizeof(cl_mem) ||
         args[0].v.buffer != buf;
  bad += args[1].kind != LSK_ARG_KIND_CHAR || args[1].size != 1 || args[1].v.c != -3;
  bad += args[2].kind != LSK_ARG_KIND_UCHAR || args[2].v.uc != 250;
  bad += args[3].kind != LSK_ARG_KIND_SHORT || args[3].size != 2 || args[3].v.s != -300;
  bad += args[4].kind != LSK_ARG_KIND_USHORT || args[4].v.us != 60000;
  bad += args[5].kind != LSK_ARG_KIND_INT || args[5].size != 4 || args[5].v.i != -70000;
  bad += args[6].kind != LSK_ARG_KIND_UINT || args[6].v.u != 4000000000u;
  bad += args[7].kind != LSK_ARG_KIND_LONG || args[7].size != 8 || args[7].v.l != -5;
  bad += args[8].kind != LSK_ARG_KIND_ULONG || args[8].v.ul != (1ull << 40);
  bad += args[9].kind != LSK_ARG_KIND_FLOAT || args[9].size != 4 || args[9].v.f != 0.25f;
  bad += args[10].kind != LSK_ARG_KIND_DOUBLE || args[10].size != 8 || args[10].v.d != 0.5;
  bad += args[11].kind != LSK_ARG_KIND_BYTES || args[11].size != sizeof p || args[11].v.ptr != &p;
  bad += args[12].kind != LSK_ARG_KIND_LOCAL || args[12].size != 64 || args[12].v.ptr != NULL;
  bad += args[13].kind != LSK_ARG_KIND_DYN_LOCAL || args[13].size != 0;
  if (bad)
    std::fprintf(stderr, "iota.cpp: %d argument macros wrong\n", bad);
  return bad;
}

// A layout written once (soa.h) and its checked access.
#define HITS_MEMBERS(COLUMN, MATRIX, SCALAR)                                                       \
  COLUMN(float, x)                                                                                 \
  MATRIX(double, 2, 1, pos)                                                                        \
  SCALAR(int, total)
LSK_SOA_DEFINE(hits, 64, HITS_MEMBERS)

static int check_soa()
{
  const size_t n = 10;
  std::vector<double> mem(hits_bytes(n) / sizeof(double) + 8);
  hits v;
  if (hits_bind(&v, mem.data(), n) != LSK_OK)
    return 1;
  float x = 0;
  int bad = LSK_SOA_SET(&v, x, 3, 2.5f) != LSK_OK;
  bad += LSK_SOA_GET(&v, x, 3, &x) != LSK_OK || x != 2.5f;
  bad += LSK_SOA_GET(&v, x, n, &x) != LSK_ERANGE;
  // The view's kernel arguments, spliced among others as in C.
  const lsk_arg a[] = {LSK_ARG_FLOAT(1.0f), LSK_SOA_ARGS(hits, NULL, 128, n), LSK_ARG_SOA(NULL, 1)};
  bad += hits_NMEMBERS != 3 || a[1].kind != LSK_ARG_KIND_BUFFERS || a[1].size != 3;
  bad += a[2].kind != LSK_ARG_KIND_ULONG || a[2].v.ul != 128 || a[3].v.u != n;
  bad += a[4].kind != LSK_ARG_KIND_SOA || a[4].size != 1;
  auto count = [](const lsk_arg *, size_t c) { return c; };
  bad += count(LSK_ARGS(LSK_SOA_ARGS(hits, NULL, 0, n), LSK_ARG_FLOAT(2.0f))) != 4;
  lsk_layout *l = NULL;
  bad += hits_describe(&l) != LSK_OK;
  lsk_layout_destroy(l);
  if (bad)
    std::fprintf(stderr, "iota.cpp: SoA access wrong\n");
  return bad;
}

int main()
{
  const unsigned N = 10000;
  std::vector<cl_uint> host(N);
  lsk_context *ctx = NULL;
  lsk_program *prog = NULL;
  lsk_kernel *k = NULL, *kinds = NULL;
  lsk_buffer *data = NULL, *out = NULL;
  lsk_launch cfg = lsk_launch(); // workers, simd: automatic
  cfg.domain[0] = 256;
  cfg.blocks[0] = 8;
  int bad = check_soa();
  int rc = lsk_context_create(NULL, &ctx);
  if (!rc)
    rc = lsk_program_create(ctx, source, NULL, &prog);
  if (!rc)
    rc = lsk_kernel_create(prog, "iota", &k);
  if (!rc)
    rc = lsk_kernel_create(prog, "kinds", &kinds);
  if (!rc)
    rc = lsk_buffer_create(ctx, N * sizeof(cl_uint), &data);
  if (!rc)
    rc = lsk_buffer_create(ctx, 12 * sizeof(cl_int), &out);
  if (!rc)
    bad += check_macros(data);
  if (!rc)
    rc = lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(N)), NULL);
  if (!rc)
    rc = lsk_buffer_read(data, 0, host.data(), N * sizeof(cl_uint), NULL);
  for (unsigned i = 0; !rc && i < N; ++i)
    bad += host[i] != i;
  // A typed reduce: LSK_REDUCE's C++ overloads pick LSK_TYPE_UINT and the
  // size from the result's type.
  cl_uint sum = 0;
  if (!rc)
    rc = LSK_REDUCE(ctx, LSK_OP_SUM, data, 0, N, &sum, NULL, NULL);
  bad += !rc && sum != N * (N - 1) / 2;

  // Every kind the kernel takes, in one LSK_ARGS, as a C caller writes it.
  pair p = {-9, 3.5f};
  cl_int got[12] = {0};
  lsk_launch one = lsk_launch();
  one.domain[0] = 1;
  one.blocks[0] = 1;
  one.local_bytes = 16;
  if (!rc)
    rc = lsk_kernel_run(kinds, &one,
                        LSK_ARGS(LSK_ARG_BUFFER(out), LSK_ARG_CHAR(-3), LSK_ARG_UCHAR(250),
                                 LSK_ARG_SHORT(-300), LSK_ARG_USHORT(60000), LSK_ARG_INT(-70000),
                                 LSK_ARG_UINT(123456u), LSK_ARG_LONG(-5000000000000ll),
                                 LSK_ARG_ULONG(3ull << 40), LSK_ARG_FLOAT(0.75f),
                                 LSK_ARG_BYTES(&p, sizeof p), LSK_ARG_LOCAL(16), LSK_ARG_DYN_LOCAL),
                        NULL);
  if (!rc)
    rc = lsk_buffer_read(out, 0, got, sizeof got, NULL);
  const cl_int want[12] = {-3, 250, -300, 60000, -70000, 123456, -5, 3, 3, -9, 7, 3};
  if (!rc && std::memcmp(got, want, sizeof want) != 0) {
    ++bad;
    for (int i = 0; i < 12; ++i)
      if (got[i] != want[i])
        std::fprintf(stderr, "iota.cpp: kinds out[%d] = %d, wanted %d\n", i, got[i], want[i]);
  }
  // A vector's three arguments among others.
  lsk_vector *vec = NULL;
  if (!rc)
    rc = lsk_vector_create(ctx, sizeof(cl_uint), 16, &vec);
  if (!rc) {
    const lsk_arg va[] = {LSK_VECTOR_ARGS(vec), LSK_ARG_UINT(5)};
    bad += sizeof va / sizeof va[0] != 4 || va[0].kind != LSK_ARG_KIND_BUFFER ||
           va[2].kind != LSK_ARG_KIND_UINT || va[2].v.u != 16 || va[3].v.u != 5;
  }
  lsk_vector_destroy(vec);

  if (rc)
    std::fprintf(stderr, "iota.cpp: %s: %s\n", lsk_status_name(rc), lsk_context_errmsg(ctx));
  else
    std::printf("iota (C++%ld) on %s: %s\n", (long)__cplusplus / 100 % 100,
                lsk_context_device(ctx)->name, bad ? "WRONG" : "ok");
  lsk_buffer_destroy(out);
  lsk_buffer_destroy(data);
  lsk_kernel_destroy(kinds);
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
  return rc || bad;
}
