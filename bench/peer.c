/*
 * bench/peer.c: Boost.Compute as a peer in `lsk bench` (case boost): lsk's
 * float sum and float inclusive scan against Boost.Compute's reduce and
 * inclusive_scan on the same device, in the same run.
 *
 * Boost.Compute is C++ and lsk is C, so Boost runs in a separate program,
 * lsk-peer-boost (bench/peer_boost.cpp), built only where Boost is installed and
 * looked for next to this executable; without it the case says so and is
 * skipped. The peer is started once, with --step: it builds its kernels,
 * warms up and checks its results, says "ready", and then runs one timed
 * reduce and one timed scan for each line it reads. Rounds alternate: lsk
 * first in even rounds, Boost first in odd ones, so that both see the same
 * state of this noisy machine, without paying a new process (context,
 * kernel build, upload) per sample.
 *
 * Both sides time on the host's monotonic clock, the reduce's result read
 * back and the scan's queue finished. The data are the same 2^min(24, N)
 * floats in {-1, 0, +1}: every sum and prefix sum is an integer below 2^24
 * in magnitude, exact in any order, so results are compared exactly. Rates
 * are in bytes: 4 per element for reduce (a read), 8 for scan (a read and a
 * write); the ratio column reads lsk's speed over Boost's.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "process.h"

#define PEER_NAME "lsk-peer-boost"

typedef struct peer_state {
  bench *bn;
  size_t n;
  unsigned log2n;
  float *x, *prefix, *got;
  float want;
  lsk_buffer *din, *dout;
  cli_peer p; /* the peer, its stdin and stdout as streams */
} peer_state;

/* The same values as peer_boost.cpp's: a hash of the index, -1, 0 or +1. */
static float value(size_t i)
{
  unsigned h = (unsigned)(i * 2654435761u) >> 16;
  return (float)((int)(h % 3u) - 1);
}

/* The peer's path: this executable's directory; 0 if it is there. */
static int peer_path(char *path, size_t len)
{
  char self[4096];
  if (cli_self_path(self, sizeof self))
    return 1;
  char *slash = strrchr(self, '/');
  if (slash)
    *slash = 0;
  int w = snprintf(path, len, "%s/%s", slash ? self : ".", PEER_NAME);
  return w < 0 || (size_t)w >= len || access(path, X_OK) != 0;
}

static double lsk_reduce_once(peer_state *s)
{
  float sum = 0;
  double t0 = cli_now();
  if (lsk_reduce(s->bn->ctx, LSK_TYPE_FLOAT, LSK_OP_SUM, s->din, 0, s->n, &sum, sizeof sum, NULL,
                 NULL))
    return cli_fail("bench", "boost: lsk reduce: %s", lsk_context_errmsg(s->bn->ctx)), -1;
  double t = cli_now() - t0;
  return sum == s->want ? t
                        : (cli_fail("bench", "boost: lsk reduce: %g, want %g", sum, s->want), -1);
}

static double lsk_scan_once(peer_state *s)
{
  double t0 = cli_now();
  if (lsk_scan(s->bn->ctx, LSK_TYPE_FLOAT, LSK_SCAN_INCLUSIVE, s->din, 0, s->dout, 0, s->n, NULL,
               NULL) ||
      lsk_context_finish(s->bn->ctx))
    return cli_fail("bench", "boost: lsk scan: %s", lsk_context_errmsg(s->bn->ctx)), -1;
  return cli_now() - t0;
}

/* lsk's last scan against the C prefix sums. */
static int check_scan(peer_state *s)
{
  if (lsk_buffer_read(s->dout, 0, s->got, s->n * sizeof(float), NULL))
    return cli_fail("bench", "boost: read back: %s", lsk_context_errmsg(s->bn->ctx));
  for (size_t i = 0; i < s->n; ++i)
    if (s->got[i] != s->prefix[i])
      return cli_fail("bench", "boost: lsk scan: element %zu is %g, want %g", i, s->got[i],
                      s->prefix[i]);
  return 0;
}

/* Starts the peer with pipes on its stdin and stdout; its stderr is ours. */
static int peer_start(peer_state *s, const char *path)
{
  const lsk_device_info *d = lsk_context_device(s->bn->ctx);
  char log2n[16], repeat[16];
  snprintf(log2n, sizeof log2n, "%u", s->log2n);
  snprintf(repeat, sizeof repeat, "%u", s->bn->repeat);
  char *argv[] = {PEER_NAME,
                  "--platform-name",
                  (char *)d->platform_name,
                  "--device-name",
                  (char *)d->name,
                  "--log2n",
                  log2n,
                  "--repeat",
                  repeat,
                  "--step",
                  NULL};
  int err = cli_peer_start(argv, path, &s->p);
  if (err)
    return cli_fail("bench", "boost: cannot start %s: %s", path, strerror(err));
  return 0;
}

/* Closes the pipes and waits for the peer; its exit status must be 0. */
static int peer_finish(peer_state *s)
{
  int status = cli_peer_stop(&s->p);
  if (WIFSIGNALED(status))
    return cli_fail("bench", "boost: %s died of signal %d", PEER_NAME, WTERMSIG(status));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("bench", "boost: %s failed (exit status %d)", PEER_NAME,
                    WIFEXITED(status) ? WEXITSTATUS(status) : status);
  return 0;
}

/* One line from the peer: "WHAT <seconds>"; < 0 on anything else. */
static double peer_sample(peer_state *s, const char *what)
{
  char line[128], word[16];
  double t;
  if (!fgets(line, sizeof line, s->p.from))
    return cli_fail("bench", "boost: %s stopped before its %s sample", PEER_NAME, what), -1;
  line[strcspn(line, "\n")] = 0;
  if (sscanf(line, "%15s %lf", word, &t) != 2 || strcmp(word, what) != 0 || !(t > 0))
    return cli_fail("bench", "boost: unexpected line from %s: '%s'", PEER_NAME, line), -1;
  return t;
}

/* One round of each contender, in the order the round's parity gives. */
static int round_of(peer_state *s, unsigned r, result *red, result *scan)
{
  for (unsigned j = 0; j < 2; ++j) {
    if ((r + j) % 2 == 0) {
      double tr = lsk_reduce_once(s), ts = tr < 0 ? -1 : lsk_scan_once(s);
      if (tr < 0 || ts < 0)
        return 1;
      bench_add(&red->lsk, tr);
      bench_add(&scan->lsk, ts);
    } else {
      if (fputs("round\n", s->p.to) == EOF || fflush(s->p.to) == EOF)
        return cli_fail("bench", "boost: %s is gone", PEER_NAME);
      double tr = peer_sample(s, "reduce"), ts = tr < 0 ? -1 : peer_sample(s, "scan");
      if (tr < 0 || ts < 0)
        return 1;
      bench_add(&red->ref, tr);
      bench_add(&scan->ref, ts);
    }
  }
  return 0;
}

static int measure(peer_state *s, const char *path)
{
  /* Check lsk's results (and warm up: the first calls build kernels). */
  if (lsk_reduce_once(s) < 0 || lsk_scan_once(s) < 0 || check_scan(s))
    return 1;
  double bytes = 4.0 * (double)s->n;
  result *red = bench_new_result(s->bn, KIND_RATE, "reduce sum (float)", "Boost.Compute reduce",
                                 "float reduce vs Boost.Compute", "GB/s", bytes);
  result *scan =
      bench_new_result(s->bn, KIND_RATE, "inclusive scan (float)", "Boost.Compute inclusive_scan",
                       "float scan vs Boost.Compute", "GB/s", 2 * bytes);
  if (!red || !scan)
    return cli_fail("bench", "out of memory");
  if (peer_start(s, path))
    return 1;
  char line[64];
  if (!fgets(line, sizeof line, s->p.from) || strcmp(line, "ready\n") != 0)
    return cli_fail("bench", "boost: %s did not get ready", PEER_NAME);
  for (unsigned r = 0; r < s->bn->repeat; ++r) {
    bench_progress(s->bn, "boost", r, s->bn->repeat);
    if (round_of(s, r, red, scan))
      return 1;
  }
  bench_progress(s->bn, "boost", s->bn->repeat, s->bn->repeat);
  return check_scan(s);
}

int bench_case_boost(bench *bn)
{
  char path[4200];
  if (peer_path(path, sizeof path)) {
    printf("boost: skipped, " PEER_NAME " not built (apt-get install libboost-dev, then "
           "reconfigure)\n");
    return 0;
  }
  peer_state s = {.bn = bn, .log2n = bn->log2n < 24 ? bn->log2n : 24};
  s.n = (size_t)1 << s.log2n;
  size_t bytes = s.n * sizeof(float);
  s.x = malloc(bytes);
  s.prefix = malloc(bytes);
  s.got = malloc(bytes);
  int rc = !s.x || !s.prefix || !s.got;
  if (rc)
    cli_fail("bench", "boost: out of host memory for %zu floats", s.n);
  long run = 0;
  for (size_t i = 0; !rc && i < s.n; ++i) {
    s.x[i] = value(i);
    run += (long)s.x[i];
    s.prefix[i] = (float)run;
  }
  s.want = (float)run;
  if (!rc &&
      (lsk_buffer_create(bn->ctx, bytes, &s.din) || lsk_buffer_create(bn->ctx, bytes, &s.dout) ||
       lsk_buffer_write(s.din, 0, s.x, bytes, NULL)))
    rc = cli_fail("bench", "boost: setup: %s", lsk_context_errmsg(bn->ctx));
  /* A peer that dies must not kill us through a write to its pipe. */
  struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &old);
  if (!rc)
    rc = measure(&s, path);
  if (peer_finish(&s))
    rc = 1;
  sigaction(SIGPIPE, &old, NULL);
  lsk_buffer_destroy(s.din);
  lsk_buffer_destroy(s.dout);
  free(s.x);
  free(s.prefix);
  free(s.got);
  return rc;
}
