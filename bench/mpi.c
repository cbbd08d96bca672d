/*
 * bench/mpi.c: lsk_mpi in `lsk bench` (case mpi). MPI runs its ranks as
 * processes of their own, so each measurement is a child: this program
 * again under mpirun (`lsk mpi heat|halo`), whose rank 0 prints its
 * figures on a line this case reads. Rows:
 *   heat and pic, 2 ranks against 1: the examples' steps per second (the
 *       same grid and particles; steps after the first, pic's global
 *       checks only after the last), the ranks' time from a barrier to the
 *       slowest;
 *   halo exchange against memcpy: the bytes a rank sends per exchange
 *       (pack on the device, one read to pinned memory, MPI, one write,
 *       unpack) against a memcpy of the same bytes, in bytes per second.
 * Runs alternate between the two sides of a row. On a machine with fewer
 * cores than ranks x device threads the ranks share cores: see
 * docs/scaling.md; each child's PoCL gets the cores divided by its ranks
 * (POCL_MAX_PTHREAD_COUNT, unless set already), so that 1 rank and 2
 * ranks use the same cores. Skipped where lsk was built without MPI or
 * mpiexec is not in PATH. As root, the children get Open MPI's two allow-run-as-root
 * variables.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#ifndef LSK_HAVE_MPI
int bench_case_mpi(bench *bn)
{
  (void)bn;
  printf("  mpi: skipped (lsk built without MPI)\n");
  return 0;
}
#else

/* Runs `mpirun -n n <this program> mpi <args>` and returns the line of its
 * output that holds key (the first), or fails. */
static int child(int n, const char *args, const char *key, char *line, size_t len)
{
  char self[1024];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0)
    return cli_fail("bench", "mpi: cannot find this program (/proc/self/exe)");
  self[k] = 0;
  /* The cores shared out: n ranks of one device thread each on a CPU
   * device of 2 cores, as the mpi tests run (unless the caller chose). */
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  char threads[32];
  snprintf(threads, sizeof threads, "%ld", cores > n ? cores / n : 1);
  int own = getenv("POCL_MAX_PTHREAD_COUNT") == NULL;
  if (own)
    setenv("POCL_MAX_PTHREAD_COUNT", threads, 1);
  if (geteuid() == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  }
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' --oversubscribe -n %d '%s' mpi %s 2>&1", LSK_MPIEXEC, n, self,
           args);
  fflush(stdout);
  FILE *p = popen(cmd, "r");
  if (!p)
    return cli_fail("bench", "mpi: cannot run %s", LSK_MPIEXEC);
  int found = 0;
  char buf[1024];
  while (fgets(buf, sizeof buf, p))
    if (!found && strstr(buf, key)) {
      snprintf(line, len, "%s", buf);
      found = 1;
    }
  int status = pclose(p);
  if (own)
    unsetenv("POCL_MAX_PTHREAD_COUNT");
  if (status != 0 || !found)
    return cli_fail("bench", "mpi: `%s` failed (status %d)%s", cmd, status,
                    found ? "" : ", no result line");
  return 0;
}

/* Seconds per step of `lsk mpi heat` or `lsk mpi pic` on n ranks. */
static int example_step(bench *bn, int pic, int n, double *secs)
{
  char args[256], line[1024];
  if (pic)
    snprintf(args, sizeof args, "pic --size 64x64 --particles %s --steps %u --check-every 1000",
             bn->quick ? "16k" : "256k", bn->quick ? 5u : 30u);
  else
    snprintf(args, sizeof args, "heat --size %s --steps %u --no-check",
             bn->quick ? "256x256" : "2048x2048", bn->quick ? 10u : 50u);
  int rc = child(n, args, " ms per step", line, sizeof line);
  double ms = 0;
  if (!rc && sscanf(line, "%lf ms per step", &ms) != 1)
    rc = cli_fail("bench", "mpi: unexpected line '%s'", line);
  *secs = ms / 1e3;
  return rc;
}

static int example(bench *bn, int pic)
{
  const char *name = pic ? "mpi pic step, 2 ranks" : "mpi heat step, 2 ranks";
  result *r = bench_new_result(bn, KIND_RATE, name, "1 rank",
                               pic ? "pic 2 vs 1 rank" : "heat 2 vs 1 rank", "k steps/s", 1e6);
  int rc = !r;
  unsigned rounds = bn->quick ? 1 : (bn->repeat < 3 ? bn->repeat : 3);
  for (unsigned round = 0; !rc && round < rounds; ++round) {
    bench_progress(bn, name, round, rounds);
    double s1 = 0, s2 = 0;
    if (round % 2 == 0)
      rc = example_step(bn, pic, 1, &s1) || example_step(bn, pic, 2, &s2);
    else
      rc = example_step(bn, pic, 2, &s2) || example_step(bn, pic, 1, &s1);
    if (!rc) {
      bench_add(&r->ref, s1);
      bench_add(&r->lsk, s2);
    }
  }
  bench_progress(bn, name, rounds, rounds);
  return rc;
}

static int halo(bench *bn)
{
  const char *name = "mpi halo exchange, 2 ranks";
  char args[256], line[1024];
  snprintf(args, sizeof args, "halo --size %s --guard 2 --columns 4 --reps %u",
           bn->quick ? "512x512" : "2048x2048", bn->quick ? 10u : 100u);
  unsigned rounds = bn->quick ? 1 : (bn->repeat < 3 ? bn->repeat : 3);
  result *r = NULL;
  int rc = 0;
  for (unsigned round = 0; !rc && round < rounds; ++round) {
    bench_progress(bn, name, round, rounds);
    double bytes = 0, ms = 0, mems = 0;
    int ranks = 0;
    rc = child(2, args, "halo exchange:", line, sizeof line);
    if (!rc && sscanf(line,
                      "halo exchange: %d ranks, %lf bytes per rank per exchange, %lf ms per "
                      "exchange (%*f MB/s); memcpy %lf ms",
                      &ranks, &bytes, &ms, &mems) != 4)
      rc = cli_fail("bench", "mpi: unexpected line '%s'", line);
    if (!rc && !r &&
        !(r = bench_new_result(bn, KIND_RATE, name, "memcpy of the same bytes", "halo vs memcpy",
                               "GB/s", bytes)))
      rc = 1;
    if (!rc) {
      bench_add(&r->lsk, ms / 1e3);
      bench_add(&r->ref, mems / 1e3);
    }
  }
  bench_progress(bn, name, rounds, rounds);
  return rc;
}

/* Open MPI's mpiexec finds its helpers through PATH: without it there (a
 * bare environment), the case is skipped rather than failed. */
static int in_path(const char *name)
{
  const char *path = getenv("PATH");
  char buf[1024];
  while (path && *path) {
    size_t n = strcspn(path, ":");
    snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
    if (n && access(buf, X_OK) == 0)
      return 1;
    path += n + (path[n] == ':');
  }
  return 0;
}

int bench_case_mpi(bench *bn)
{
  const char *base = strrchr(LSK_MPIEXEC, '/');
  if (access(LSK_MPIEXEC, X_OK) != 0 || !in_path(base ? base + 1 : LSK_MPIEXEC)) {
    printf("  mpi: skipped (%s not found in PATH)\n", LSK_MPIEXEC);
    return 0;
  }
  return example(bn, 0) || example(bn, 1) || halo(bn);
}
#endif
