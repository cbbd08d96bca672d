/*
 * bench/peer_cuda.c: CUDA as a peer in `lsk bench` (case cuda): the
 * bench's cases in lsk against the same cases written in CUDA with the
 * toolkit's libraries (CUB, cuRAND), on the same GPU, in the same run:
 *   triad       lsk's ForEach triad against a plain CUDA kernel, device
 *               time on both sides (OpenCL profiling, CUDA events)
 *   reduce      lsk_reduce (double sum) against cub::DeviceReduce::Sum
 *   scan        lsk_scan (exclusive, uint) against
 *               cub::DeviceScan::ExclusiveSum
 *   sort, sort_pairs
 *               lsk_sort and lsk_sort_by_key of 2^min(log2n, 24) uints
 *               against cub::DeviceRadixSort::SortKeys and SortPairs
 *   hist256, hist65536
 *               lsk_histogram_uint against cub::DeviceHistogram::
 *               HistogramEven, the counters read back on both sides
 *   compact     lsk_compact (half selected) against cub::DeviceSelect::If
 *               over the indices, the count read back on both sides
 *   random      lsk_random_fill of uniform floats against cuRAND's
 *               Philox4x32-10 (curand_uniform4 in a kernel)
 * The rest is timed on the host's monotonic clock from the call to the
 * result in hand, as the bench's own cases time lsk. The data and the C
 * references are peer_cuda_ref.h's, which the peer includes too: both
 * sides' results are checked against the same C code, before and after
 * the timed rounds. The ratio column reads lsk's speed over CUDA's.
 *
 * CUDA is not a C library here: the peer, lsk-peer-cuda (peer_cuda.cu),
 * is a program of its own, built where CMake finds nvcc and looked for
 * next to this executable (LSK_BENCH_CUDA_PEER names another, for tests).
 * It is started once with --step: it sets up, warms up and checks every
 * case, says "ready <PCI bus id> <device>", and then runs the case named
 * on each line it reads, answering "<case> <seconds>". Rounds alternate
 * who goes first. The case is skipped, with its reason, where the peer is
 * not built, where lsk's device is not an NVIDIA GPU (the peer would time
 * another device) or where the peer finds no CUDA device; it picks the
 * CUDA device on lsk's device's PCI bus id (cl_nv_device_attribute_query),
 * device 0 where the driver does not tell.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "peer_cuda_ref.h"
#include "process.h"

#define PEER_NAME "lsk-peer-cuda"
#define RANDOM_SEED 0x5eedull
#define RANDOM_STREAM 3u

/* cl_nv_device_attribute_query's tokens (not in every cl_ext.h). */
#define NV_PCI_BUS_ID 0x4008
#define NV_PCI_SLOT_ID 0x4009
#define NV_PCI_DOMAIN_ID 0x400A

typedef struct cuda_state {
  bench *bn;
  size_t n, ns; /* 2^log2n; the sort's 2^min(log2n, 24) */
  lsk_algo_options opt;
  triad t;
  lsk_buffer *rx;
  double want_sum;
  lsk_buffer *sin, *sout;
  unsigned *scan_ref, *got; /* got: n uints, for any read back */
  lsk_buffer *dk, *dv, *ok, *ov;
  uint32_t *sort_k, *sort_v; /* the reference's result */
  size_t nbins[2];
  lsk_buffer *hx[2], *hbins[2];
  unsigned *hist_ref[2];
  lsk_compactor *c;
  lsk_buffer *cx, *cout;
  unsigned *compact_ref;
  size_t compact_count, compact_got;
  lsk_buffer *rnd;
  cli_peer p; /* the peer, its stdin and stdout as streams */
} cuda_state;

static int lsk_failed(cuda_state *s, const char *what)
{
  return cli_fail("bench", "cuda: lsk %s: %s", what, lsk_context_errmsg(s->bn->ctx));
}

/* lsk's side: one run of each case, its seconds; < 0 after a message. */
static double lsk_triad(cuda_state *s)
{
  lsk_launch cfg = bench_triad_launch(s->bn, s->n, s->bn->domain, s->bn->workers, s->bn->simd);
  cl_event ev = NULL;
  if (bench_launch(s->t.k, &cfg,
                   LSK_ARGS(LSK_ARG_BUFFER(s->t.da), LSK_ARG_BUFFER(s->t.db),
                            LSK_ARG_BUFFER(s->t.dc), LSK_ARG_DOUBLE(3.0),
                            LSK_ARG_UINT((unsigned)s->n)),
                   &ev))
    return lsk_failed(s, "triad"), -1;
  return bench_event_time(ev);
}

static double lsk_reduce_once(cuda_state *s)
{
  double sum = 0, t0 = cli_now();
  if (lsk_reduce(s->bn->ctx, LSK_TYPE_DOUBLE, LSK_OP_SUM, s->rx, 0, s->n, &sum, sizeof sum, NULL,
                 NULL))
    return lsk_failed(s, "reduce"), -1;
  double t = cli_now() - t0;
  if (sum != s->want_sum)
    return cli_fail("bench", "cuda: lsk reduce: %.17g, want %.17g", sum, s->want_sum), -1;
  return t;
}

static double lsk_scan_once(cuda_state *s)
{
  double t0 = cli_now();
  if (lsk_scan(s->bn->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, s->sin, 0, s->sout, 0, s->n, NULL,
               NULL) ||
      lsk_context_finish(s->bn->ctx))
    return lsk_failed(s, "scan"), -1;
  return cli_now() - t0;
}

static double lsk_sort_run(cuda_state *s, int pairs)
{
  lsk_sort_options o = {.algo = s->opt};
  double t0 = cli_now();
  if ((pairs
           ? lsk_sort_by_key(s->bn->ctx, LSK_TYPE_UINT, s->dk, s->dv, s->ns, s->ok, s->ov, &o, NULL)
           : lsk_sort(s->bn->ctx, LSK_TYPE_UINT, s->dk, s->ns, s->ok, &o, NULL)) ||
      lsk_context_finish(s->bn->ctx))
    return lsk_failed(s, pairs ? "sort by key" : "sort"), -1;
  return cli_now() - t0;
}

static double lsk_sort_keys(cuda_state *s) { return lsk_sort_run(s, 0); }
static double lsk_sort_pairs(cuda_state *s) { return lsk_sort_run(s, 1); }

static double lsk_hist(cuda_state *s, int h)
{
  double t0 = cli_now();
  if (lsk_histogram_uint(s->bn->ctx, s->hx[h], 0, s->n, s->nbins[h], s->hbins[h], 0, &s->opt,
                         NULL) ||
      lsk_buffer_read(s->hbins[h], 0, s->got, (s->nbins[h] + 1) * sizeof(unsigned), NULL))
    return lsk_failed(s, "histogram"), -1;
  return cli_now() - t0;
}

static double lsk_hist256(cuda_state *s) { return lsk_hist(s, 0); }
static double lsk_hist65536(cuda_state *s) { return lsk_hist(s, 1); }

static double lsk_compact_once(cuda_state *s)
{
  double t0 = cli_now();
  if (lsk_compact(s->c, s->cx, s->n, PEER_COMPACT_PERCENT, s->cout, 0, s->n, &s->compact_got,
                  &s->opt, NULL))
    return lsk_failed(s, "compact"), -1;
  double t = cli_now() - t0;
  if (s->compact_got != s->compact_count)
    return cli_fail("bench", "cuda: lsk compact selected %zu, C %zu", s->compact_got,
                    s->compact_count),
           -1;
  return t;
}

static double lsk_random(cuda_state *s)
{
  double t0 = cli_now();
  if (lsk_random_fill(s->bn->ctx, s->rnd, 0, s->n, LSK_TYPE_FLOAT, LSK_RANDOM_UNIFORM, RANDOM_SEED,
                      RANDOM_STREAM, &s->opt, NULL) ||
      lsk_context_finish(s->bn->ctx))
    return lsk_failed(s, "random fill"), -1;
  return cli_now() - t0;
}

/* lsk_sort's keys (in ok) against the C radix sort's. */
static int check_sort_keys(cuda_state *s)
{
  if (lsk_buffer_read(s->ok, 0, s->got, s->ns * sizeof(uint32_t), NULL))
    return lsk_failed(s, "sort");
  for (size_t i = 0; i < s->ns; ++i)
    if (s->got[i] != s->sort_k[i])
      return cli_fail("bench", "cuda: lsk sort: key %zu is %u, want %u", i, s->got[i],
                      s->sort_k[i]);
  return 0;
}

/* lsk's last results against the C references: 0, or 1 after a message. */
static int check_lsk(cuda_state *s)
{
  if (bench_triad_check(s->bn->ctx, "bench", &s->t, "cuda, lsk"))
    return 1;
  if (lsk_buffer_read(s->sout, 0, s->got, s->n * sizeof(unsigned), NULL))
    return lsk_failed(s, "scan");
  for (size_t i = 0; i < s->n; ++i)
    if (s->got[i] != s->scan_ref[i])
      return cli_fail("bench", "cuda: lsk scan: element %zu is %u, want %u", i, s->got[i],
                      s->scan_ref[i]);
  /* ok and ov hold the pairs' sort (run after the keys' one). */
  for (int what = 0; what < 2; ++what) {
    if (lsk_buffer_read(what ? s->ov : s->ok, 0, s->got, s->ns * sizeof(uint32_t), NULL))
      return lsk_failed(s, "sort");
    const uint32_t *want = what ? s->sort_v : s->sort_k;
    for (size_t i = 0; i < s->ns; ++i)
      if (s->got[i] != want[i])
        return cli_fail("bench", "cuda: lsk sort by key: %s %zu is %u, want %u",
                        what ? "value" : "key", i, s->got[i], want[i]);
  }
  for (int h = 0; h < 2; ++h) {
    if (lsk_buffer_read(s->hbins[h], 0, s->got, (s->nbins[h] + 1) * sizeof(unsigned), NULL))
      return lsk_failed(s, "histogram");
    for (size_t b = 0; b <= s->nbins[h]; ++b)
      if (s->got[b] != s->hist_ref[h][b])
        return cli_fail("bench", "cuda: lsk histogram of %zu bins: counter %zu is %u, C has %u",
                        s->nbins[h], b, s->got[b], s->hist_ref[h][b]);
  }
  if (s->compact_count &&
      lsk_buffer_read(s->cout, 0, s->got, s->compact_count * sizeof(unsigned), NULL))
    return lsk_failed(s, "compact");
  for (size_t i = 0; i < s->compact_count; ++i)
    if (s->got[i] != s->compact_ref[i])
      return cli_fail("bench", "cuda: lsk compact: element %zu is %u, C has %u", i, s->got[i],
                      s->compact_ref[i]);
  float *f = (float *)(void *)s->got;
  unsigned bin;
  if (lsk_buffer_read(s->rnd, 0, f, s->n * sizeof(float), NULL))
    return lsk_failed(s, "random fill");
  size_t bad = peer_random_check(f, s->n, &bin);
  if (bin < PEER_RANDOM_BINS)
    return cli_fail("bench", "cuda: lsk random fill: bin %u of %u is off by more than 6 sd", bin,
                    PEER_RANDOM_BINS);
  if (bad < s->n)
    return cli_fail("bench", "cuda: lsk random fill: element %zu is %g, not in [0, 1]", bad,
                    (double)f[bad]);
  return 0;
}

/* The rows: the peer's name of the case, the row, lsk's run; work per
 * element (bytes or, times 1e3 for Melem/s, elements); sort: over ns. */
typedef struct cuda_row {
  const char *peer, *name, *ref_name, *label, *unit;
  double per_element;
  int sort_size;
  double (*lsk)(cuda_state *s);
} cuda_row;

static const cuda_row rows[] = {
    {"triad", "cuda: triad (double)", "CUDA triad kernel", "triad vs CUDA", "GB/s", 24, 0,
     lsk_triad},
    {"reduce", "cuda: reduce sum (double)", "CUB DeviceReduce::Sum", "reduce vs CUB", "GB/s", 8, 0,
     lsk_reduce_once},
    {"scan", "cuda: exclusive scan (uint)", "CUB DeviceScan::ExclusiveSum", "scan vs CUB", "GB/s",
     8, 0, lsk_scan_once},
    {"sort", "cuda: sort uint", "CUB DeviceRadixSort keys", "sort vs CUB", "Melem/s", 1e3, 1,
     lsk_sort_keys},
    {"sort_pairs", "cuda: sort uint by key", "CUB DeviceRadixSort pairs", "sort by key vs CUB",
     "Melem/s", 1e3, 1, lsk_sort_pairs},
    {"hist256", "cuda: histogram uint, 256 bins", "CUB HistogramEven", "histogram 256 vs CUB",
     "Gelem/s", 1, 0, lsk_hist256},
    {"hist65536", "cuda: histogram uint, 65536 bins", "CUB HistogramEven", "histogram 65536 vs CUB",
     "Gelem/s", 1, 0, lsk_hist65536},
    {"compact", "cuda: compact uint, 50% selected", "CUB DeviceSelect::If", "compact vs CUB",
     "Gelem/s", 1, 0, lsk_compact_once},
    {"random", "cuda: random fill, uniform float", "cuRAND Philox4x32-10", "random vs cuRAND",
     "Gelem/s", 1, 0, lsk_random},
};
#define ROWS (sizeof rows / sizeof rows[0])

static int setup(cuda_state *s)
{
  bench *bn = s->bn;
  size_t n = s->n, ns = s->ns;
  if (bench_triad_setup(bn, &s->t))
    return 1;
  /* s->got takes every read back: n elements, ns keys, the larger
   * histogram's counters (its bins and the extra counter). */
  s->nbins[0] = 256, s->nbins[1] = 65536;
  size_t got = n > ns ? n : ns;
  if (got < s->nbins[1] + 1)
    got = s->nbins[1] + 1;
  s->got = malloc(got * sizeof(unsigned));
  unsigned *u = malloc(n * sizeof(unsigned));
  double *x = malloc(n * sizeof(double));
  s->scan_ref = malloc(n * sizeof(unsigned));
  s->compact_ref = malloc(n * sizeof(unsigned));
  s->sort_k = malloc(ns * sizeof(uint32_t));
  s->sort_v = malloc(ns * sizeof(uint32_t));
  uint32_t *tk = malloc(ns * sizeof(uint32_t)), *tv = malloc(ns * sizeof(uint32_t));
  for (int h = 0; h < 2; ++h)
    s->hist_ref[h] = malloc((s->nbins[h] + 1) * sizeof(unsigned));
  int rc = !s->got || !u || !x || !s->scan_ref || !s->compact_ref || !s->sort_k || !s->sort_v ||
           !tk || !tv || !s->hist_ref[0] || !s->hist_ref[1];
  if (rc)
    cli_fail("bench", "cuda: out of host memory for 2^%u elements", bn->log2n);
  /* reduce */
  for (size_t i = 0; !rc && i < n; ++i)
    x[i] = peer_reduce_x(i);
  s->want_sum = peer_reduce_ref(n);
  rc = rc || lsk_buffer_create(bn->ctx, n * sizeof(double), &s->rx) ||
       lsk_buffer_write(s->rx, 0, x, n * sizeof(double), NULL);
  /* scan */
  for (size_t i = 0; !rc && i < n; ++i)
    u[i] = peer_scan_x(i);
  if (!rc)
    peer_scan_ref(u, s->scan_ref, n);
  rc = rc || lsk_buffer_create(bn->ctx, n * sizeof(unsigned), &s->sin) ||
       lsk_buffer_create(bn->ctx, n * sizeof(unsigned), &s->sout) ||
       lsk_buffer_write(s->sin, 0, u, n * sizeof(unsigned), NULL);
  /* sort: the input from the reference's arrays, then sorted in place */
  if (!rc)
    peer_sort_data(s->sort_k, s->sort_v, ns);
  rc = rc || lsk_buffer_create(bn->ctx, ns * 4, &s->dk) ||
       lsk_buffer_create(bn->ctx, ns * 4, &s->dv) || lsk_buffer_create(bn->ctx, ns * 4, &s->ok) ||
       lsk_buffer_create(bn->ctx, ns * 4, &s->ov) ||
       lsk_buffer_write(s->dk, 0, s->sort_k, ns * 4, NULL) ||
       lsk_buffer_write(s->dv, 0, s->sort_v, ns * 4, NULL);
  if (!rc)
    peer_radix_ref(s->sort_k, s->sort_v, tk, tv, ns);
  /* histograms */
  for (int h = 0; h < 2 && !rc; ++h) {
    peer_hist_data(u, n, s->nbins[h]);
    peer_hist_ref(u, n, s->nbins[h], s->hist_ref[h]);
    rc = lsk_buffer_create(bn->ctx, n * sizeof(unsigned), &s->hx[h]) ||
         lsk_buffer_create(bn->ctx, (s->nbins[h] + 1) * sizeof(unsigned), &s->hbins[h]) ||
         lsk_buffer_write(s->hx[h], 0, u, n * sizeof(unsigned), NULL);
  }
  /* compact: the bench's compact case's predicate */
  if (!rc) {
    peer_compact_data(u, n);
    s->compact_count = peer_compact_ref(u, n, s->compact_ref);
  }
  rc = rc ||
       lsk_compactor_create(
           bn->ctx,
           "int lsk_select(uint i, __global const uint *x, ulong pct)\n"
           "{\n"
           "  return x[i] % 100u < (uint)pct;\n"
           "}\n",
           &(lsk_compactor_options){.name = "bench_cuda_compact", .data_type = "uint"}, &s->c) ||
       lsk_buffer_create(bn->ctx, n * sizeof(unsigned), &s->cx) ||
       lsk_buffer_create(bn->ctx, n * sizeof(unsigned), &s->cout) ||
       lsk_buffer_write(s->cx, 0, u, n * sizeof(unsigned), NULL);
  rc = rc || lsk_buffer_create(bn->ctx, n * sizeof(float), &s->rnd);
  free(u);
  free(x);
  free(tk);
  free(tv);
  if (rc && s->got && s->scan_ref) /* (else the message is out already) */
    return lsk_failed(s, "setup");
  return rc;
}

static void teardown(cuda_state *s)
{
  bench_triad_teardown(&s->t);
  lsk_buffer *b[] = {s->rx,    s->sin,   s->sout,     s->dk,       s->dv, s->ok,   s->ov,
                     s->hx[0], s->hx[1], s->hbins[0], s->hbins[1], s->cx, s->cout, s->rnd};
  for (size_t i = 0; i < sizeof b / sizeof b[0]; ++i)
    lsk_buffer_destroy(b[i]);
  lsk_compactor_destroy(s->c);
  free(s->got);
  free(s->scan_ref);
  free(s->compact_ref);
  free(s->sort_k);
  free(s->sort_v);
  free(s->hist_ref[0]);
  free(s->hist_ref[1]);
}

/* The peer's path into path: $LSK_BENCH_CUDA_PEER, else next to this
 * executable; *given: whether it came from the variable. 0 if it runs. */
static int peer_path(char *path, size_t len, int *given)
{
  const char *env = getenv("LSK_BENCH_CUDA_PEER");
  *given = env && *env;
  if (*given) {
    int w = snprintf(path, len, "%s", env);
    return w < 0 || (size_t)w >= len || access(path, X_OK) != 0;
  }
  char self[4096];
  if (cli_self_path(self, sizeof self))
    return 1;
  char *slash = strrchr(self, '/');
  if (slash)
    *slash = 0;
  int w = snprintf(path, len, "%s/%s", slash ? self : ".", PEER_NAME);
  return w < 0 || (size_t)w >= len || access(path, X_OK) != 0;
}

/* lsk's device's PCI address as CUDA writes it, from
 * cl_nv_device_attribute_query; 0, or 1 where the driver does not tell. */
static int nv_bus_id(cl_device_id dev, char *out, size_t len)
{
  char ext[4096] = "";
  cl_uint bus = 0, slot = 0, domain = 0;
  clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
  if (!strstr(ext, "cl_nv_device_attribute_query") ||
      clGetDeviceInfo(dev, NV_PCI_BUS_ID, sizeof bus, &bus, NULL) ||
      clGetDeviceInfo(dev, NV_PCI_SLOT_ID, sizeof slot, &slot, NULL))
    return 1;
  /* The domain came later than bus and slot: 0 where it is not known. */
  if (clGetDeviceInfo(dev, NV_PCI_DOMAIN_ID, sizeof domain, &domain, NULL))
    domain = 0;
  /* The slot word: the device number on the driver seen (580 on an H200:
   * slot 6 for 0000:00:06.0); in the extension's older reading, the device
   * over 3 bits of function. Both go to the peer, which takes the first
   * that names a CUDA device. */
  snprintf(out, len, "%04x:%02x:%02x.0,%04x:%02x:%02x.%x", domain, bus & 255u, slot & 31u, domain,
           bus & 255u, (slot >> 3) & 31u, slot & 7u);
  return 0;
}

/* Starts the peer with pipes on its stdin and stdout; its stderr is ours. */
static int peer_start(cuda_state *s, const char *path, const char *bus_id)
{
  char log2n[16], repeat[16];
  snprintf(log2n, sizeof log2n, "%u", s->bn->log2n);
  snprintf(repeat, sizeof repeat, "%u", s->bn->repeat);
  char *argv[] = {PEER_NAME,
                  "--log2n",
                  log2n,
                  "--repeat",
                  repeat,
                  "--step",
                  *bus_id ? "--pci-bus-id" : NULL,
                  (char *)bus_id,
                  NULL};
  int err = cli_peer_start(argv, path, &s->p);
  if (err)
    return cli_fail("bench", "cuda: cannot start %s: %s", path, strerror(err));
  return 0;
}

/* Closes the pipes and waits for the peer; its exit status must be 0. */
static int peer_finish(cuda_state *s)
{
  int status = cli_peer_stop(&s->p);
  if (WIFSIGNALED(status))
    return cli_fail("bench", "cuda: %s died of signal %d", PEER_NAME, WTERMSIG(status));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("bench", "cuda: %s failed (exit status %d)", PEER_NAME,
                    WIFEXITED(status) ? WEXITSTATUS(status) : status);
  return 0;
}

/* One timed run of the peer's case: "NAME <seconds>"; < 0 on anything else. */
static double peer_run(cuda_state *s, const char *name)
{
  char line[128], word[32];
  double t;
  if (fprintf(s->p.to, "%s\n", name) < 0 || fflush(s->p.to) == EOF)
    return cli_fail("bench", "cuda: %s is gone", PEER_NAME), -1;
  if (!fgets(line, sizeof line, s->p.from))
    return cli_fail("bench", "cuda: %s stopped before its %s sample", PEER_NAME, name), -1;
  line[strcspn(line, "\n")] = 0;
  if (sscanf(line, "%31s %lf", word, &t) != 2 || strcmp(word, name) != 0 || !(t > 0))
    return cli_fail("bench", "cuda: unexpected line from %s: '%s'", PEER_NAME, line), -1;
  return t;
}

/* The peer's first line: 0 when ready, 2 after printing why it skips. */
static int peer_ready(cuda_state *s)
{
  char line[512];
  if (!fgets(line, sizeof line, s->p.from))
    return cli_fail("bench", "cuda: %s did not get ready", PEER_NAME);
  line[strcspn(line, "\n")] = 0;
  if (strncmp(line, "skip ", 5) == 0) {
    printf("cuda: skipped, %s: %s\n", PEER_NAME, line + 5);
    return 2;
  }
  if (strncmp(line, "ready ", 6) != 0)
    return cli_fail("bench", "cuda: %s did not get ready: '%s'", PEER_NAME, line);
  printf("cuda: %s on %s\n", PEER_NAME, line + 6);
  return 0;
}

static int measure(cuda_state *s, const char *path, const char *bus_id)
{
  /* Warm up lsk (the first calls build kernels) and check it. */
  for (size_t i = 0; i < ROWS; ++i)
    if (rows[i].lsk(s) < 0 || (rows[i].lsk == lsk_sort_keys && check_sort_keys(s)))
      return 1;
  if (check_lsk(s))
    return 1;
  if (peer_start(s, path, bus_id))
    return 1;
  int rc = peer_ready(s);
  if (rc)
    return rc;
  result *r[ROWS];
  for (size_t i = 0; i < ROWS; ++i) {
    double count = (double)(rows[i].sort_size ? s->ns : s->n);
    r[i] = bench_new_result(s->bn, KIND_RATE, rows[i].name, rows[i].ref_name, rows[i].label,
                            rows[i].unit, rows[i].per_element * count);
    if (!r[i])
      return cli_fail("bench", "out of memory");
  }
  for (size_t i = 0; i < ROWS; ++i) {
    for (unsigned round = 0; round < s->bn->repeat; ++round) {
      bench_progress(s->bn, rows[i].name, round, s->bn->repeat);
      for (unsigned j = 0; j < 2; ++j) {
        int lsk_turn = (round + j) % 2 == 0;
        double t = lsk_turn ? rows[i].lsk(s) : peer_run(s, rows[i].peer);
        if (t < 0)
          return 1;
        bench_add(lsk_turn ? &r[i]->lsk : &r[i]->ref, t);
      }
    }
    bench_progress(s->bn, rows[i].name, s->bn->repeat, s->bn->repeat);
  }
  /* The keys' sort on its own, then the pairs' (check_lsk reads those). */
  return lsk_sort_keys(s) < 0 || check_sort_keys(s) || lsk_sort_pairs(s) < 0 || check_lsk(s);
}

int bench_case_cuda(bench *bn)
{
  char path[4200], bus_id[64] = "";
  int given;
  if (peer_path(path, sizeof path, &given)) {
    if (given)
      return cli_fail("bench", "cuda: LSK_BENCH_CUDA_PEER=%s does not run", path);
    printf("cuda: skipped, " PEER_NAME " not built (it needs the CUDA toolkit's nvcc; "
           "reconfigure where it is)\n");
    return 0;
  }
  /* lsk's device must be the GPU CUDA times, or the ratios compare two
   * devices; a stand-in peer (LSK_BENCH_CUDA_PEER) runs anywhere. */
  const lsk_device_info *d = lsk_context_device(bn->ctx);
  int nvidia = d->is_gpu && strstr(d->platform_name, "NVIDIA") != NULL;
  if (!nvidia && !given) {
    printf("cuda: skipped, lsk's device is not an NVIDIA GPU (%s, %s): CUDA would run "
           "elsewhere\n",
           d->platform_name, d->name);
    return 0;
  }
  if (nvidia && nv_bus_id(lsk_context_cl_device(bn->ctx), bus_id, sizeof bus_id))
    bus_id[0] = 0; /* the peer takes device 0 */
  if (bn->log2n < 10) {
    printf("cuda: skipped, --size below 2^10 (the random fill's check needs numbers)\n");
    return 0;
  }
  unsigned lg = bn->log2n < PEER_SORT_LOG2_MAX ? bn->log2n : PEER_SORT_LOG2_MAX;
  cuda_state s = {.bn = bn,
                  .n = (size_t)1 << bn->log2n,
                  .ns = (size_t)1 << lg,
                  .opt = {.workers = bn->workers, .simd = bn->simd}};
  /* A peer that dies must not kill us through a write to its pipe. */
  struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &old);
  int rc = setup(&s);
  if (!rc)
    rc = measure(&s, path, bus_id);
  if (peer_finish(&s))
    rc = 1;
  sigaction(SIGPIPE, &old, NULL);
  teardown(&s);
  return rc == 2 ? 0 : rc;
}
