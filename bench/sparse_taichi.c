/*
 * bench/sparse_taichi.c: Taichi as a peer in the sparse case. Taichi is
 * Python, so its side runs in bench/peer_taichi.py, which CMake copies next
 * to the lsk executable as lsk-peer-taichi.py; the bench starts it once per
 * run with pipes on its stdin and stdout, as the Boost.Compute peer
 * (peer.c), and asks for one round at a time, so that rounds of lsk, C and
 * Taichi alternate on this noisy machine. The protocol is in the script.
 *
 * The Python that runs it, the first that is there: $LSK_BENCH_PYTHON; the
 * build's own venv (LSK_BENCH_TAICHI_PYTHON, made by the build's
 * `taichi-venv` target: docs/bench.md); python3 on PATH. Where none is
 * there, or taichi does not import in it, the script is missing, or the
 * peer does not get ready, the Taichi rows are skipped with the reason.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.h"
#include "sparse_case.h"

#define SCRIPT_NAME "lsk-peer-taichi.py"

struct sparse_taichi {
  cli_peer p; /* the peer, its stdin and stdout as streams */
  char name[96];
  struct sigaction old_pipe;
};

/* The script's path next to this executable; 0 if it is there. */
static int script_path(char *path, size_t len)
{
  char self[4096];
  if (cli_self_path(self, sizeof self))
    return 1;
  char *slash = strrchr(self, '/');
  if (slash)
    *slash = 0;
  int w = snprintf(path, len, "%s/%s", slash ? self : ".", SCRIPT_NAME);
  return w < 0 || (size_t)w >= len || access(path, R_OK) != 0;
}

/* The Python to run the script with (the order above); 0 if one is. */
static int python_path(char *path, size_t len)
{
  const char *env = getenv("LSK_BENCH_PYTHON");
  if (env && *env)
    return cli_find_program(env, path, len);
#ifdef LSK_BENCH_TAICHI_PYTHON
  if (access(LSK_BENCH_TAICHI_PYTHON, X_OK) == 0) {
    snprintf(path, len, "%s", LSK_BENCH_TAICHI_PYTHON);
    return 0;
  }
#endif
  return cli_find_program("python3", path, len);
}

int sparse_taichi_stop(sparse_taichi *t)
{
  if (!t)
    return 0;
  int rc = 0, status = cli_peer_stop(&t->p);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    rc = cli_fail("bench", "sparse: the Taichi peer failed (wait status %d)", status);
  sigaction(SIGPIPE, &t->old_pipe, NULL);
  free(t);
  return rc;
}

static int spawn(sparse_taichi *t, const char *python, const char *script, unsigned n,
                 unsigned threads)
{
  char ns[16], ts[16];
  snprintf(ns, sizeof ns, "%u", n);
  snprintf(ts, sizeof ts, "%u", threads);
  char *argv[] = {(char *)python, (char *)script, "--n", ns, "--threads", ts, NULL};
  int err = cli_peer_start(argv, python, &t->p);
  if (err)
    return cli_fail("bench", "sparse: cannot start %s: %s", python, strerror(err));
  return 0;
}

int sparse_taichi_start(bench *bn, unsigned n, unsigned threads, sparse_taichi **out, char *why,
                        size_t why_len)
{
  (void)bn;
  *out = NULL;
  char script[4200], python[4200];
  if (script_path(script, sizeof script)) {
    snprintf(why, why_len, SCRIPT_NAME " is not next to lsk");
    return 1;
  }
  if (python_path(python, sizeof python)) {
    snprintf(why, why_len, "no python3 (or $LSK_BENCH_PYTHON) to run it");
    return 1;
  }
  sparse_taichi *t = calloc(1, sizeof *t);
  if (!t)
    return cli_fail("bench", "out of memory"), -1;
  /* A peer that dies must not kill us through a write to its pipe. */
  struct sigaction ignore = {.sa_handler = SIG_IGN};
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &t->old_pipe);
  if (spawn(t, python, script, n, threads)) {
    sparse_taichi_stop(t);
    return -1;
  }
  char line[512];
  if (!fgets(line, sizeof line, t->p.from))
    snprintf(line, sizeof line, "skip the peer stopped before it was ready\n");
  line[strcspn(line, "\n")] = 0;
  if (strncmp(line, "ready ", 6) == 0) {
    /* The name as the peer gave it, cut to the row's width. */
    size_t len = strlen(line + 6);
    len = len < sizeof t->name - 1 ? len : sizeof t->name - 1;
    memcpy(t->name, line + 6, len);
    t->name[len] = 0;
    *out = t;
    return 0;
  }
  snprintf(why, why_len, "%s (%s)", strncmp(line, "skip ", 5) == 0 ? line + 5 : line, python);
  /* It skips, or says something else: either way, no rows. */
  fclose(t->p.to);
  t->p.to = NULL;
  if (sparse_taichi_stop(t))
    return -1;
  return 1;
}

int sparse_taichi_round(sparse_taichi *t, sparse_round *out)
{
  if (fputs("round\n", t->p.to) == EOF || fflush(t->p.to) == EOF)
    return cli_fail("bench", "sparse: the Taichi peer is gone");
  char line[512];
  if (!fgets(line, sizeof line, t->p.from))
    return cli_fail("bench", "sparse: the Taichi peer stopped before its round");
  line[strcspn(line, "\n")] = 0;
  sparse_round r;
  if (sscanf(line, "round %lf %lf %lf %lf %lf %lf %lf %lf", &r.secs[0], &r.value[0], &r.secs[1],
             &r.value[1], &r.secs[2], &r.value[2], &r.secs[3], &r.value[3]) != 8)
    return cli_fail("bench", "sparse: unexpected line from the Taichi peer: '%s'", line);
  *out = r;
  return 0;
}

const char *sparse_taichi_name(const sparse_taichi *t) { return t->name; }
