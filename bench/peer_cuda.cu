/*
 * peer_cuda.cu: lsk-peer-cuda, the bench's cases written in CUDA with the
 * toolkit's own libraries, timed on one CUDA device, for `lsk bench --only
 * cuda` (bench/peer_cuda.c). Optional, built only where CMake finds nvcc,
 * with the CUDA runtime linked statically (-cudart static) so that it runs
 * where only the driver is; lsk never links it.
 *
 *   lsk-peer-cuda --log2n N --repeat R [--pci-bus-id ID[,ID...]] [--step]
 *
 * The cases, on the data of the bench's own (peer_cuda_ref.h, which also
 * holds the C references every result is checked against):
 *   triad      a = b + 3c over 2^N doubles, a plain kernel, one thread an
 *              element (device time, CUDA events)
 *   reduce     cub::DeviceReduce::Sum of 2^N doubles, the sum read back
 *   scan       cub::DeviceScan::ExclusiveSum of 2^N uints
 *   sort       cub::DeviceRadixSort::SortKeys of 2^min(N, 24) uints
 *   sort_pairs cub::DeviceRadixSort::SortPairs of as many (key, value)
 *   hist256, hist65536
 *              cub::DeviceHistogram::HistogramEven of 2^N uint keys into
 *              256 and 65536 bins, the counters read back (the keys past
 *              the bins are counted as N minus the rest)
 *   compact    cub::DeviceSelect::If over the indices, 2^N uints, the
 *              count read back
 *   random     2^N uniform floats from cuRAND's Philox4x32-10 (its device
 *              API, curand_uniform4: the host API's library is not static
 *              in every toolkit), checked as a distribution only
 * All but the triad are timed on the host's monotonic clock, from the call
 * to the result in hand (read back, or the device synchronized), as the
 * lsk side times its own. Temporary storage is allocated once, before.
 *
 * Output: "ready <PCI bus id> <device name>" once the cases are set up,
 * warmed up and checked; then, with --step, one timed run of the case
 * named on each line read from stdin, answered "<case> <seconds>"; without
 * --step, R rounds of every case. At the end (stdin closed) every result
 * is checked again. Without a usable CUDA device it prints one line,
 * "skip <reason>", and exits 0; any failure: a message on stderr, exit 1.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <thrust/iterator/counting_iterator.h>

extern "C" {
#include "peer_cuda_ref.h"
}

#define RANDOM_SEED 0x5eedull

namespace
{

double now()
{
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

[[noreturn]] void die(const char *what, const std::string &msg)
{
  std::fprintf(stderr, "lsk-peer-cuda: %s: %s\n", what, msg.c_str());
  std::exit(1);
}

void ck(cudaError_t err, const char *what)
{
  if (err != cudaSuccess)
    die(what, cudaGetErrorString(err));
}

template <class T> T *dev_alloc(size_t n, const char *what)
{
  void *p = nullptr;
  ck(cudaMalloc(&p, n * sizeof(T) + 1), what);
  return static_cast<T *>(p);
}

template <class T> void upload(T *d, const std::vector<T> &h)
{
  ck(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
}

template <class T> std::vector<T> download(const T *d, size_t n)
{
  std::vector<T> h(n);
  ck(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "read back");
  return h;
}

/* The triad, rounded as C rounds it: no fused multiply-add. */
__global__ void triad_kernel(double *a, const double *b, const double *c, double s, size_t n)
{
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = __dadd_rn(b[i], __dmul_rn(s, c[i]));
}

/* One Philox4x32-10 per 4 floats, thread t on cuRAND's subsequence t. */
__global__ void random_kernel(float *out, size_t n, unsigned long long seed)
{
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = 4 * t;
  if (i >= n)
    return;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, t, 0, &st);
  float4 r = curand_uniform4(&st);
  if (i + 4 <= n) {
    reinterpret_cast<float4 *>(out)[t] = r;
  } else {
    float w[4] = {r.x, r.y, r.z, r.w};
    for (size_t k = 0; i + k < n; ++k)
      out[i + k] = w[k];
  }
}

struct select_pred {
  const unsigned *x;
  __device__ bool operator()(unsigned i) const { return x[i] % 100u < PEER_COMPACT_PERCENT; }
};

unsigned blocks_of(size_t n, unsigned threads) { return (unsigned)((n + threads - 1) / threads); }

struct peer {
  size_t n, ns; /* 2^log2n; the sort's 2^min(log2n, 24) */
  /* triad */
  double *ta, *tb, *tc;
  std::vector<double> b, c;
  cudaEvent_t e0, e1;
  /* reduce */
  double *rx, *rsum, want_sum;
  /* scan */
  unsigned *sin, *sout;
  std::vector<unsigned> scan_in, scan_ref;
  /* sort */
  uint32_t *dk, *dv, *ok, *ov, *okeys;  /* okeys: the keys-only sort's output */
  std::vector<uint32_t> sort_k, sort_v; /* the reference's result */
  /* histogram: 256 and 65536 bins */
  unsigned *hx[2], *hbins[2];
  size_t nbins[2];
  std::vector<unsigned> hist_ref[2], hist_got[2];
  /* compact */
  unsigned *cx, *cout;
  int *cnum;
  std::vector<unsigned> compact_ref;
  /* random */
  float *rnd;
  /* CUB's temporary storage, the largest any case asks for */
  void *temp;
  size_t temp_bytes;
};

void temp_need(peer &p, size_t bytes)
{
  if (bytes > p.temp_bytes)
    p.temp_bytes = bytes;
}

void setup(peer &p, unsigned log2n)
{
  p.n = (size_t)1 << log2n;
  p.ns = (size_t)1 << (log2n < PEER_SORT_LOG2_MAX ? log2n : PEER_SORT_LOG2_MAX);
  size_t n = p.n, ns = p.ns;
  int ni = (int)n, nsi = (int)ns;

  p.b.resize(n);
  p.c.resize(n);
  for (size_t i = 0; i < n; ++i)
    p.b[i] = peer_triad_b(i), p.c[i] = peer_triad_c(i);
  p.ta = dev_alloc<double>(n, "triad"), p.tb = dev_alloc<double>(n, "triad");
  p.tc = dev_alloc<double>(n, "triad");
  upload(p.tb, p.b), upload(p.tc, p.c);
  ck(cudaEventCreate(&p.e0), "event"), ck(cudaEventCreate(&p.e1), "event");

  std::vector<double> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = peer_reduce_x(i);
  p.want_sum = peer_reduce_ref(n);
  p.rx = dev_alloc<double>(n, "reduce"), p.rsum = dev_alloc<double>(1, "reduce");
  upload(p.rx, x);
  x = std::vector<double>();

  p.scan_in.resize(n), p.scan_ref.resize(n);
  for (size_t i = 0; i < n; ++i)
    p.scan_in[i] = peer_scan_x(i);
  peer_scan_ref(p.scan_in.data(), p.scan_ref.data(), n);
  p.sin = dev_alloc<unsigned>(n, "scan"), p.sout = dev_alloc<unsigned>(n, "scan");
  upload(p.sin, p.scan_in);

  std::vector<uint32_t> k(ns), v(ns), tk(ns), tv(ns);
  peer_sort_data(k.data(), v.data(), ns);
  p.dk = dev_alloc<uint32_t>(ns, "sort"), p.dv = dev_alloc<uint32_t>(ns, "sort");
  p.ok = dev_alloc<uint32_t>(ns, "sort"), p.ov = dev_alloc<uint32_t>(ns, "sort");
  p.okeys = dev_alloc<uint32_t>(ns, "sort");
  upload(p.dk, k), upload(p.dv, v);
  peer_radix_ref(k.data(), v.data(), tk.data(), tv.data(), ns);
  p.sort_k = k, p.sort_v = v;

  p.nbins[0] = 256, p.nbins[1] = 65536;
  std::vector<unsigned> hx(n);
  for (int h = 0; h < 2; ++h) {
    peer_hist_data(hx.data(), n, p.nbins[h]);
    p.hist_ref[h].resize(p.nbins[h] + 1);
    peer_hist_ref(hx.data(), n, p.nbins[h], p.hist_ref[h].data());
    p.hx[h] = dev_alloc<unsigned>(n, "histogram");
    p.hbins[h] = dev_alloc<unsigned>(p.nbins[h], "histogram");
    upload(p.hx[h], hx);
  }

  std::vector<unsigned> cx(n);
  peer_compact_data(cx.data(), n);
  p.compact_ref.resize(n);
  p.compact_ref.resize(peer_compact_ref(cx.data(), n, p.compact_ref.data()));
  p.cx = dev_alloc<unsigned>(n, "compact"), p.cout = dev_alloc<unsigned>(n, "compact");
  p.cnum = dev_alloc<int>(1, "compact");
  upload(p.cx, cx);

  p.rnd = dev_alloc<float>(n, "random");

  /* CUB's temporary storage: the sizes first, one allocation. */
  size_t bytes = 0;
  ck(cub::DeviceReduce::Sum(nullptr, bytes, p.rx, p.rsum, ni), "reduce size"), temp_need(p, bytes);
  ck(cub::DeviceScan::ExclusiveSum(nullptr, bytes, p.sin, p.sout, ni), "scan size");
  temp_need(p, bytes);
  ck(cub::DeviceRadixSort::SortKeys(nullptr, bytes, p.dk, p.ok, nsi), "sort size");
  temp_need(p, bytes);
  ck(cub::DeviceRadixSort::SortPairs(nullptr, bytes, p.dk, p.ok, p.dv, p.ov, nsi), "sort size");
  temp_need(p, bytes);
  for (int h = 0; h < 2; ++h) {
    ck(cub::DeviceHistogram::HistogramEven(nullptr, bytes, p.hx[h], p.hbins[h], (int)p.nbins[h] + 1,
                                           0u, (unsigned)p.nbins[h], ni),
       "histogram size");
    temp_need(p, bytes);
  }
  ck(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<unsigned>(0), p.cout, p.cnum,
                           ni, select_pred{p.cx}),
     "compact size");
  temp_need(p, bytes);
  p.temp = dev_alloc<char>(p.temp_bytes, "temporary storage");
}

/* The cases: one run each, its seconds. */
double run_triad(peer &p)
{
  ck(cudaEventRecord(p.e0), "event");
  triad_kernel<<<blocks_of(p.n, 256), 256>>>(p.ta, p.tb, p.tc, 3.0, p.n);
  ck(cudaGetLastError(), "triad");
  ck(cudaEventRecord(p.e1), "event");
  ck(cudaEventSynchronize(p.e1), "triad");
  float ms = 0;
  ck(cudaEventElapsedTime(&ms, p.e0, p.e1), "event");
  return ms * 1e-3;
}

double run_reduce(peer &p)
{
  double t0 = now(), sum = 0;
  ck(cub::DeviceReduce::Sum(p.temp, p.temp_bytes, p.rx, p.rsum, (int)p.n), "reduce");
  ck(cudaMemcpy(&sum, p.rsum, sizeof sum, cudaMemcpyDeviceToHost), "reduce");
  double t = now() - t0;
  if (sum != p.want_sum)
    die("reduce", "sum " + std::to_string(sum) + ", want " + std::to_string(p.want_sum));
  return t;
}

double run_scan(peer &p)
{
  double t0 = now();
  ck(cub::DeviceScan::ExclusiveSum(p.temp, p.temp_bytes, p.sin, p.sout, (int)p.n), "scan");
  ck(cudaDeviceSynchronize(), "scan");
  return now() - t0;
}

double run_sort(peer &p, bool pairs)
{
  double t0 = now();
  if (pairs)
    ck(cub::DeviceRadixSort::SortPairs(p.temp, p.temp_bytes, p.dk, p.ok, p.dv, p.ov, (int)p.ns),
       "sort pairs");
  else
    ck(cub::DeviceRadixSort::SortKeys(p.temp, p.temp_bytes, p.dk, p.okeys, (int)p.ns), "sort");
  ck(cudaDeviceSynchronize(), "sort");
  return now() - t0;
}

double run_hist(peer &p, int h)
{
  double t0 = now();
  ck(cub::DeviceHistogram::HistogramEven(p.temp, p.temp_bytes, p.hx[h], p.hbins[h],
                                         (int)p.nbins[h] + 1, 0u, (unsigned)p.nbins[h], (int)p.n),
     "histogram");
  p.hist_got[h].resize(p.nbins[h]);
  ck(cudaMemcpy(p.hist_got[h].data(), p.hbins[h], p.nbins[h] * sizeof(unsigned),
                cudaMemcpyDeviceToHost),
     "histogram");
  return now() - t0;
}

double run_compact(peer &p)
{
  int count = 0;
  double t0 = now();
  ck(cub::DeviceSelect::If(p.temp, p.temp_bytes, thrust::counting_iterator<unsigned>(0), p.cout,
                           p.cnum, (int)p.n, select_pred{p.cx}),
     "compact");
  ck(cudaMemcpy(&count, p.cnum, sizeof count, cudaMemcpyDeviceToHost), "compact");
  double t = now() - t0;
  if ((size_t)count != p.compact_ref.size())
    die("compact",
        "selected " + std::to_string(count) + ", C " + std::to_string(p.compact_ref.size()));
  return t;
}

double run_random(peer &p)
{
  double t0 = now();
  random_kernel<<<blocks_of((p.n + 3) / 4, 256), 256>>>(p.rnd, p.n, RANDOM_SEED);
  ck(cudaGetLastError(), "random");
  ck(cudaDeviceSynchronize(), "random");
  return now() - t0;
}

/* Every case's last result against the C references. */
void check_all(peer &p)
{
  std::vector<double> a = download(p.ta, p.n);
  for (size_t i = 0; i < p.n; ++i)
    if (a[i] != p.b[i] + 3.0 * p.c[i])
      die("triad", "element " + std::to_string(i) + " is " + std::to_string(a[i]));
  std::vector<unsigned> s = download(p.sout, p.n);
  for (size_t i = 0; i < p.n; ++i)
    if (s[i] != p.scan_ref[i])
      die("scan", "element " + std::to_string(i) + " is " + std::to_string(s[i]) + ", want " +
                      std::to_string(p.scan_ref[i]));
  std::vector<uint32_t> k = download(p.ok, p.ns), v = download(p.ov, p.ns);
  std::vector<uint32_t> keys = download(p.okeys, p.ns);
  for (size_t i = 0; i < p.ns; ++i)
    if (keys[i] != p.sort_k[i])
      die("sort", "element " + std::to_string(i) + " is " + std::to_string(keys[i]) + ", want " +
                      std::to_string(p.sort_k[i]));
  for (size_t i = 0; i < p.ns; ++i)
    if (k[i] != p.sort_k[i] || v[i] != p.sort_v[i])
      die("sort", "element " + std::to_string(i) + " is (" + std::to_string(k[i]) + ", " +
                      std::to_string(v[i]) + "), want (" + std::to_string(p.sort_k[i]) + ", " +
                      std::to_string(p.sort_v[i]) + ")");
  for (int h = 0; h < 2; ++h) {
    size_t total = 0;
    for (size_t b = 0; b < p.nbins[h]; ++b) {
      total += p.hist_got[h][b];
      if (p.hist_got[h][b] != p.hist_ref[h][b])
        die("histogram", std::to_string(p.nbins[h]) + " bins: counter " + std::to_string(b) +
                             " is " + std::to_string(p.hist_got[h][b]) + ", C has " +
                             std::to_string(p.hist_ref[h][b]));
    }
    if (p.n - total != p.hist_ref[h][p.nbins[h]])
      die("histogram", "keys past the bins: " + std::to_string(p.n - total) + ", C has " +
                           std::to_string(p.hist_ref[h][p.nbins[h]]));
  }
  std::vector<unsigned> c = download(p.cout, p.compact_ref.size());
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] != p.compact_ref[i])
      die("compact", "element " + std::to_string(i) + " is " + std::to_string(c[i]) + ", C has " +
                         std::to_string(p.compact_ref[i]));
  std::vector<float> r = download(p.rnd, p.n);
  unsigned bin;
  size_t bad = peer_random_check(r.data(), p.n, &bin);
  if (bin < PEER_RANDOM_BINS)
    die("random", "bin " + std::to_string(bin) + " of " + std::to_string(PEER_RANDOM_BINS) +
                      " is off by more than 6 standard deviations");
  if (bad < p.n)
    die("random",
        "element " + std::to_string(bad) + " is " + std::to_string(r[bad]) + ", not in [0, 1]");
}

const char *const case_names[] = {"triad",   "reduce",    "scan",    "sort",  "sort_pairs",
                                  "hist256", "hist65536", "compact", "random"};

/* Runs the case named; < 0 where there is no such case. */
double run_case(peer &p, const std::string &name)
{
  if (name == "triad")
    return run_triad(p);
  if (name == "reduce")
    return run_reduce(p);
  if (name == "scan")
    return run_scan(p);
  if (name == "sort")
    return run_sort(p, false);
  if (name == "sort_pairs")
    return run_sort(p, true);
  if (name == "hist256")
    return run_hist(p, 0);
  if (name == "hist65536")
    return run_hist(p, 1);
  if (name == "compact")
    return run_compact(p);
  if (name == "random")
    return run_random(p);
  return -1;
}

/* Selects the device; "" on success, else the reason to skip. */
std::string pick_device(const char *bus_id)
{
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess)
    return std::string("no CUDA device (cudaGetDeviceCount: ") + cudaGetErrorString(err) +
           "; this peer's runtime is CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
           std::to_string(CUDART_VERSION % 1000 / 10) + ")";
  if (count == 0)
    return "no CUDA device";
  int dev = 0;
  if (bus_id && *bus_id) {
    /* Candidates, comma-separated, the first that names a device wins:
     * drivers have told the slot two ways (see nv_bus_id in peer_cuda.c). */
    std::string ids(bus_id);
    err = cudaErrorInvalidDevice;
    for (size_t at = 0; err != cudaSuccess && at <= ids.size();) {
      size_t end = ids.find(',', at);
      if (end == std::string::npos)
        end = ids.size();
      err = cudaDeviceGetByPCIBusId(&dev, ids.substr(at, end - at).c_str());
      at = end + 1;
    }
    if (err != cudaSuccess)
      return std::string("no CUDA device at PCI bus id ") + bus_id + " (" +
             cudaGetErrorString(err) + ")";
  }
  err = cudaSetDevice(dev);
  if (err == cudaSuccess)
    err = cudaFree(nullptr); /* the context, now */
  if (err != cudaSuccess)
    return std::string("CUDA device ") + std::to_string(dev) + ": " + cudaGetErrorString(err);
  return "";
}

int usage(const char *why)
{
  std::fprintf(stderr,
               "lsk-peer-cuda: %s\nusage: lsk-peer-cuda --log2n N (10..30) --repeat R "
               "[--pci-bus-id ID[,ID...]] [--step]\n",
               why);
  return 2;
}

} // namespace

int main(int argc, char **argv)
{
  long log2n = -1, repeat = -1;
  const char *bus_id = nullptr;
  bool step = false;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (std::strcmp(a, "--step") == 0)
      step = true;
    else if (!v)
      return usage("bad option or missing value");
    else if (std::strcmp(a, "--log2n") == 0)
      log2n = std::strtol(argv[++i], nullptr, 10);
    else if (std::strcmp(a, "--repeat") == 0)
      repeat = std::strtol(argv[++i], nullptr, 10);
    else if (std::strcmp(a, "--pci-bus-id") == 0)
      bus_id = argv[++i];
    else
      return usage("bad option");
  }
  /* 2^10 at least: the random check's bins need numbers; 2^30 at most:
   * CUB's counts here are ints. */
  if (log2n < 10 || log2n > 30)
    return usage("--log2n must be 10..30");
  if (repeat < 1 || repeat > 1000)
    return usage("--repeat must be 1..1000");
  std::string skip = pick_device(bus_id);
  if (!skip.empty()) {
    std::printf("skip %s\n", skip.c_str());
    return 0;
  }
  int dev = 0;
  cudaDeviceProp prop;
  char pci[32] = "?";
  ck(cudaGetDevice(&dev), "device");
  ck(cudaGetDeviceProperties(&prop, dev), "device");
  cudaDeviceGetPCIBusId(pci, sizeof pci, dev);
  static peer p{};
  setup(p, (unsigned)log2n);
  /* Warm-up (the first calls load the kernels), then the check. */
  for (const char *name : case_names)
    run_case(p, name);
  check_all(p);
  std::printf("ready %s %s\n", pci, prop.name);
  std::fflush(stdout);
  if (step) {
    char line[64];
    while (std::fgets(line, sizeof line, stdin)) {
      line[std::strcspn(line, "\n")] = 0;
      double t = run_case(p, line);
      if (t < 0)
        die("step", std::string("no case '") + line + "'");
      std::printf("%s %.9f\n", line, t);
      std::fflush(stdout);
    }
  } else {
    for (long r = 0; r < repeat; ++r)
      for (const char *name : case_names)
        std::printf("%s %.9f\n", name, run_case(p, name));
  }
  check_all(p);
  return 0;
}
