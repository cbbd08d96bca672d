/*
 * bench/mpi.c: lsk_mpi in `lsk bench` (case mpi). MPI runs its ranks as
 * processes of their own, so each measurement is a child: this program
 * again under mpirun (`lsk mpi heat|pic|halo`), whose rank 0 prints its
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
 * docs/perf/mpi.md; each child's PoCL gets the cores divided by its ranks
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
#include "process.h"

#ifndef LSK_HAVE_MPI
int bench_case_mpi(bench *bn)
{
  (void)bn;
  printf("  mpi: skipped (lsk built without MPI)\n");
  return 0;
}
#else

/* Runs `mpiexec --oversubscribe -n n <this program> mpi <args>` (args:
 * words separated by single blanks) and returns the line of its output
 * (stdout and stderr) that holds key (the first), or fails. */
static int child(int n, const char *args, const char *key, char *line, size_t len)
{
  char self[1024], ranks[16], words[256];
  if (cli_self_path(self, sizeof self))
    return cli_fail("bench", "mpi: cannot find this program (/proc/self/exe)");
  snprintf(ranks, sizeof ranks, "%d", n);
  snprintf(words, sizeof words, "%s", args);
  char *argv[32] = {LSK_MPIEXEC, "--oversubscribe", "-n", ranks, self, "mpi"};
  size_t k = 6;
  for (char *w = strtok(words, " "); w && k + 1 < sizeof argv / sizeof *argv; w = strtok(NULL, " "))
    argv[k++] = w;
  argv[k] = NULL;
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
  cli_child c;
  int err = cli_spawn(
      argv, &(cli_spawn_options){.path = LSK_MPIEXEC, .pipe_out = 1, .err_to_out = 1}, &c);
  FILE *p = err ? NULL : fdopen(c.from, "r");
  if (p)
    c.from = -1; /* the stream's now */
  int found = 0;
  char buf[1024];
  while (p && fgets(buf, sizeof buf, p))
    if (!found && strstr(buf, key)) {
      snprintf(line, len, "%s", buf);
      found = 1;
    }
  if (p)
    fclose(p);
  int status = err ? -1 : cli_child_wait(&c);
  if (own)
    unsetenv("POCL_MAX_PTHREAD_COUNT");
  if (err)
    return cli_fail("bench", "mpi: cannot run %s: %s", LSK_MPIEXEC, strerror(err));
  if (status != 0 || !found)
    return cli_fail("bench", "mpi: `%s -n %d %s mpi %s` failed (status %d)%s", LSK_MPIEXEC, n, self,
                    args, status, found ? "" : ", no result line");
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
int bench_case_mpi(bench *bn)
{
  const char *base = strrchr(LSK_MPIEXEC, '/');
  char found[1024];
  if (access(LSK_MPIEXEC, X_OK) != 0 ||
      cli_find_program(base ? base + 1 : LSK_MPIEXEC, found, sizeof found)) {
    printf("  mpi: skipped (%s not found in PATH)\n", LSK_MPIEXEC);
    return 0;
  }
  return example(bn, 0) || example(bn, 1) || halo(bn);
}
#endif
