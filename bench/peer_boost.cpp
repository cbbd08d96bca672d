/*
 * peer_boost.cpp: lsk-peer-boost, Boost.Compute's reduce and inclusive_scan
 * timed on one OpenCL device, for `lsk bench --only boost` (bench/peer.c).
 * It is C++ because Boost.Compute is; it is optional, built only where CMake
 * finds a C++ compiler and boost/compute.hpp, and lsk never links it.
 *
 *   lsk-peer-boost --platform-name P --device-name D --log2n N --repeat R [--step]
 *
 * The data are 2^N floats with values in {-1, 0, +1} (N <= 24), so every sum
 * and every prefix sum is an integer of magnitude <= 2^24 and exact in any
 * summation order; results are compared with a plain C++ reference. After a
 * warm-up (the first calls build Boost's kernels) it prints R samples of
 * each, one line per sample, seconds on a monotonic clock:
 *   reduce <seconds>   (the call, result read back to the host)
 *   scan <seconds>     (the call and queue.finish())
 * With --step it prints "ready" after the warm-up and then waits for one
 * line on stdin before each round, so that the caller can interleave its
 * own runs with the rounds. Any failure: a message on stderr, exit status 1.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/context.hpp>
#include <boost/compute/system.hpp>

namespace compute = boost::compute;

namespace
{

/* The same values as peer.c's: a hash of the index, -1, 0 or +1. */
float value(std::size_t i)
{
  unsigned h = (unsigned)(i * 2654435761u) >> 16;
  return (float)((int)(h % 3u) - 1);
}

double now()
{
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

/* OpenCL names may carry padding or a final NUL; compare without them. */
std::string trim(std::string s)
{
  s.erase(s.find_last_not_of(std::string(" \t\n\r\f\v\0", 7)) + 1);
  s.erase(0, s.find_first_not_of(" \t\n\r\f\v"));
  return s;
}

int fail(const std::string &msg)
{
  std::cerr << "lsk-peer-boost: " << msg << std::endl;
  return 1;
}

int usage(const char *why)
{
  std::cerr << "lsk-peer-boost: " << why
            << "\nusage: lsk-peer-boost --platform-name P --device-name D --log2n N (1..24)"
               " --repeat R [--step]"
            << std::endl;
  return 2;
}

struct peer {
  compute::command_queue queue;
  std::size_t n;
  compute::vector<float> in, out;
  double want;               /* the exact sum */
  std::vector<float> prefix; /* the exact inclusive prefix sums */
};

/* One reduce, timed, its result checked; < 0 on a wrong result. */
double time_reduce(peer &p)
{
  float sum = 0;
  double t0 = now();
  compute::reduce(p.in.begin(), p.in.end(), &sum, p.queue);
  p.queue.finish();
  double t = now() - t0;
  if ((double)sum != p.want) {
    fail("reduce gave " + std::to_string(sum) + ", want " + std::to_string(p.want));
    return -1;
  }
  return t;
}

double time_scan(peer &p)
{
  double t0 = now();
  compute::inclusive_scan(p.in.begin(), p.in.end(), p.out.begin(), p.queue);
  p.queue.finish();
  return now() - t0;
}

/* The scan's last output against the reference. */
int check_scan(peer &p)
{
  std::vector<float> got(p.n);
  compute::copy(p.out.begin(), p.out.end(), got.begin(), p.queue);
  for (std::size_t i = 0; i < p.n; ++i)
    if (got[i] != p.prefix[i])
      return fail("inclusive_scan: element " + std::to_string(i) + " is " + std::to_string(got[i]) +
                  ", want " + std::to_string(p.prefix[i]));
  return 0;
}

int run(const std::string &platform, const std::string &device, unsigned log2n, unsigned repeat,
        bool step)
{
  compute::device dev;
  bool found = false;
  for (const compute::platform &pl : compute::system::platforms()) {
    if (trim(pl.name()) != platform)
      continue;
    for (const compute::device &d : pl.devices())
      if (!found && trim(d.name()) == device) {
        dev = d;
        found = true;
      }
  }
  if (!found)
    return fail("no device '" + device + "' on a platform '" + platform + "'");
  compute::context ctx(dev);
  peer p{compute::command_queue(ctx, dev),
         (std::size_t)1 << log2n,
         compute::vector<float>(ctx),
         compute::vector<float>(ctx),
         0.0,
         std::vector<float>()};
  std::vector<float> host(p.n);
  p.prefix.resize(p.n);
  long run_sum = 0;
  for (std::size_t i = 0; i < p.n; ++i) {
    host[i] = value(i);
    run_sum += (long)host[i];
    p.prefix[i] = (float)run_sum;
  }
  p.want = (double)run_sum;
  p.in.resize(p.n, p.queue);
  p.out.resize(p.n, p.queue);
  compute::copy(host.begin(), host.end(), p.in.begin(), p.queue);
  /* Warm-up: the first calls build Boost's kernels. */
  if (time_reduce(p) < 0 || time_scan(p) < 0 || check_scan(p))
    return 1;
  if (step) {
    std::printf("ready\n");
    std::fflush(stdout);
  }
  std::string line;
  for (unsigned r = 0; r < repeat; ++r) {
    if (step && !std::getline(std::cin, line))
      return 0; /* the caller has stopped early */
    double tr = time_reduce(p), ts = time_scan(p);
    if (tr < 0)
      return 1;
    std::printf("reduce %.9f\nscan %.9f\n", tr, ts);
    std::fflush(stdout);
  }
  return check_scan(p);
}

} // namespace

int main(int argc, char **argv)
{
  std::string platform, device;
  long log2n = -1, repeat = -1;
  bool step = false;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (std::strcmp(a, "--step") == 0)
      step = true;
    else if (!v)
      return usage("bad option or missing value");
    else if (std::strcmp(a, "--platform-name") == 0)
      platform = argv[++i];
    else if (std::strcmp(a, "--device-name") == 0)
      device = argv[++i];
    else if (std::strcmp(a, "--log2n") == 0)
      log2n = std::strtol(argv[++i], NULL, 10);
    else if (std::strcmp(a, "--repeat") == 0)
      repeat = std::strtol(argv[++i], NULL, 10);
    else
      return usage("bad option");
  }
  if (platform.empty() || device.empty())
    return usage("--platform-name and --device-name are needed");
  if (log2n < 1 || log2n > 24)
    return usage("--log2n must be 1..24 (larger sums of +-1 are not exact in float)");
  if (repeat < 1 || repeat > 1000)
    return usage("--repeat must be 1..1000");
  try {
    return run(trim(platform), trim(device), (unsigned)log2n, (unsigned)repeat, step);
  } catch (const std::exception &e) {
    return fail(e.what());
  }
}
