// study.cu: the Kokkos alignment study's kernel in CUDA, the reference for
// tests/nvptx/study.cl: c[i] = a[i] * b[i] + d[i] over complex doubles,
// aligned to 16 (cuda16) and to 8 (cuda8). tests/nvptx.sh compiles it with
// nvcc -arch=sm_90 -cubin where nvcc is, and counts its SASS as it counts
// the OpenCL kernels' (tests/nvptx/study.counts).
struct __align__(16) c16 {
  double re, im;
};
struct __align__(8) c8 {
  double re, im;
};

#define STUDY(name, T)                                                                             \
  extern "C" __global__ void name(const T *__restrict__ a, const T *__restrict__ b,                \
                                  const T *__restrict__ d, T *__restrict__ c, int n)               \
  {                                                                                                \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) {                                                                                   \
      T x = a[i], y = b[i], z = d[i], r;                                                           \
      r.re = x.re * y.re - x.im * y.im + z.re;                                                     \
      r.im = x.re * y.im + x.im * y.re + z.im;                                                     \
      c[i] = r;                                                                                    \
    }                                                                                              \
  }
STUDY(cuda16, c16)
STUDY(cuda8, c8)
