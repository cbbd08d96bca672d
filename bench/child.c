/*
 * bench/child.c: the child processes of the build case (build.c). A build
 * timed in a new process is this program again, started through
 * /proc/self/exe as `lsk bench --internal-build-child NONCE DOMAIN` (a flag
 * for this use only, never in the usage text), each with its own
 * environment: lsk's disk cache directory and the driver's kernel cache
 * switched on or off. Both sides are here: the child, which builds, runs,
 * checks and prints one line, and the parent's side, which starts it and
 * parses that line.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "process.h"

extern char **environ;

/* The child: build the bench kernels with a nonce comment in front (a
 * source no cache has seen, unless this nonce's parent made it so), build
 * the same configuration again, run the triad once and check it, and print
 * one line for the parent. */
int bench_build_child(const char *nonce, unsigned domain)
{
  lsk_context *ctx;
  if (lsk_context_create(NULL, &ctx))
    return cli_fail("bench", "build child: %s", lsk_context_errmsg(NULL));
  char *src = malloc(strlen(bench_kernels_source) + 128);
  lsk_program *prog = NULL;
  lsk_kernel *k = NULL;
  lsk_buffer *da = NULL, *db = NULL, *dc = NULL;
  size_t n = (size_t)domain * 4;
  double *h = malloc(3 * n * sizeof *h);
  int rc = !src || !h;
  if (rc) {
    cli_fail("bench", "build child: out of memory");
    goto child_out;
  }
  sprintf(src, "/* lsk bench build, nonce %s */\n%s", nonce, bench_kernels_source);
  lsk_launch cfg = {.domain = {domain}, .blocks = {4}};
  build_report rep = {0};
  lsk_program_stats st;
  rc = lsk_program_create(ctx, src, &(lsk_program_options){.name = "bench_kernels.cl"}, &prog);
  double t0 = cli_now();
  rc = rc || lsk_program_build(prog, "triad", &cfg);
  double t1 = cli_now();
  rc = rc || lsk_program_build(prog, "triad", &cfg);
  double t2 = cli_now();
  rc = rc || lsk_program_stats_get(prog, &st);
  for (size_t i = 0; i < n && !rc; ++i) {
    h[n + i] = (double)i;
    h[2 * n + i] = 0.25 * (double)(i % 13);
  }
  rc = rc || lsk_buffer_create(ctx, n * sizeof *h, &da) ||
       lsk_buffer_create(ctx, n * sizeof *h, &db) || lsk_buffer_create(ctx, n * sizeof *h, &dc) ||
       lsk_buffer_write(db, 0, h + n, n * sizeof *h, NULL) ||
       lsk_buffer_write(dc, 0, h + 2 * n, n * sizeof *h, NULL) ||
       lsk_kernel_create(prog, "triad", &k);
  double t3 = cli_now();
  rc = rc || lsk_kernel_run(k, &cfg,
                            LSK_ARGS(LSK_ARG_BUFFER(da), LSK_ARG_BUFFER(db), LSK_ARG_BUFFER(dc),
                                     LSK_ARG_DOUBLE(3.0), LSK_ARG_UINT((unsigned)n)),
                            NULL);
  double t4 = cli_now();
  rc = rc || lsk_buffer_read(da, 0, h, n * sizeof *h, NULL);
  if (rc) {
    cli_fail("bench", "build child: %s", lsk_context_errmsg(ctx));
    goto child_out;
  }
  for (size_t i = 0; i < n; ++i)
    if (h[i] != h[n + i] + 3.0 * h[2 * n + i]) {
      rc = cli_fail("bench", "build child: triad element %zu is wrong", i);
      goto child_out;
    }
  rep = (build_report){t1 - t0, t2 - t1, t4 - t3, st.compiled, st.cache_loads, st.configurations};
  printf("build %.9f %.9f %.9f %u %u %u\n", rep.build, rep.second, rep.first_run, rep.compiled,
         rep.cache_loads, rep.configurations);
child_out:
  lsk_buffer_destroy(da);
  lsk_buffer_destroy(db);
  lsk_buffer_destroy(dc);
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
  free(src);
  free(h);
  return rc ? 1 : 0;
}

/* Variables the child gets from the parent, not from the caller. */
static int child_owned(const char *entry)
{
  static const char *const names[] = {"LSK_CACHE_DIR=", "LSK_TUNE=", "POCL_KERNEL_CACHE=",
                                      "POCL_CACHE_DIR=", "CUDA_CACHE_DISABLE="};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (strncmp(entry, names[i], strlen(names[i])) == 0)
      return 1;
  return 0;
}

/* Runs this program as a build child and parses its line. */
int bench_run_build_child(const char *nonce, unsigned domain, const char *lsk_cache,
                          const char *driver_cache, int driver_cache_on, build_report *out)
{
  size_t n = 0;
  while (environ[n])
    ++n;
  char **envp = calloc(n + 6, sizeof *envp);
  char vars[5][1200];
  if (!envp)
    return cli_fail("bench", "out of memory");
  size_t m = 0;
  for (size_t i = 0; i < n; ++i)
    if (!child_owned(environ[i]))
      envp[m++] = environ[i];
  snprintf(vars[0], sizeof vars[0], "LSK_CACHE_DIR=%s", lsk_cache);
  snprintf(vars[1], sizeof vars[1], "LSK_TUNE=0");
  snprintf(vars[2], sizeof vars[2], "POCL_KERNEL_CACHE=%d", driver_cache_on);
  snprintf(vars[3], sizeof vars[3], "POCL_CACHE_DIR=%s", driver_cache);
  snprintf(vars[4], sizeof vars[4], "CUDA_CACHE_DISABLE=%d", !driver_cache_on);
  for (int i = 0; i < 5; ++i)
    envp[m++] = vars[i];
  envp[m] = NULL;
  char dom[16];
  snprintf(dom, sizeof dom, "%u", domain);
  char *argv[] = {"lsk", "bench", BENCH_BUILD_CHILD_FLAG, (char *)nonce, dom, NULL};
  cli_child c;
  int err = cli_spawn(
      argv, &(cli_spawn_options){.path = "/proc/self/exe", .envp = envp, .pipe_out = 1}, &c);
  free(envp);
  if (err)
    return cli_fail("bench", "cannot start a build child (/proc/self/exe): %s", strerror(err));
  char line[256] = "";
  size_t got = 0;
  ssize_t r;
  while ((r = read(c.from, line + got, sizeof line - 1 - got)) != 0) {
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      break;
    got += (size_t)r;
    if (got == sizeof line - 1)
      break;
  }
  line[got] = 0;
  int status = cli_child_wait(&c);
  if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("bench", "build child failed (status %d)", status);
  if (sscanf(line, "build %lf %lf %lf %u %u %u", &out->build, &out->second, &out->first_run,
             &out->compiled, &out->cache_loads, &out->configurations) != 6)
    return cli_fail("bench", "build child: unexpected output '%s'", line);
  return 0;
}
