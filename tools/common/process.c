/*
 * process.c: child processes (process.h). posix_spawn appears in this file
 * only.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.h"

extern char **environ;

static void close_fd(int *fd)
{
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

/* The child's side of the pipes and the output file; 0 or an errno value. */
static int file_actions(posix_spawn_file_actions_t *fa, const cli_spawn_options *o, const int in[2],
                        const int out[2])
{
  int err = 0;
  if (o->pipe_in)
    err = err ? err : posix_spawn_file_actions_adddup2(fa, in[0], 0);
  if (o->pipe_out)
    err = err ? err : posix_spawn_file_actions_adddup2(fa, out[1], 1);
  else if (o->out_file)
    err = err ? err
              : posix_spawn_file_actions_addopen(fa, 1, o->out_file, O_WRONLY | O_CREAT | O_TRUNC,
                                                 0644);
  if (o->err_to_out)
    err = err ? err : posix_spawn_file_actions_adddup2(fa, 1, 2);
  /* The parent's ends and the originals are not the child's to keep. */
  for (int i = 0; i < 2; ++i) {
    if (o->pipe_in)
      err = err ? err : posix_spawn_file_actions_addclose(fa, in[i]);
    if (o->pipe_out)
      err = err ? err : posix_spawn_file_actions_addclose(fa, out[i]);
  }
  return err;
}

int cli_spawn(char *const argv[], const cli_spawn_options *opt, cli_child *c)
{
  const cli_spawn_options none = {0};
  const cli_spawn_options *o = opt ? opt : &none;
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  *c = (cli_child){.pid = 0, .to = -1, .from = -1};
  if ((o->pipe_in && pipe(in)) || (o->pipe_out && pipe(out))) {
    int err = errno;
    close_fd(&in[0]);
    close_fd(&in[1]);
    return err;
  }
  posix_spawn_file_actions_t fa;
  int err = posix_spawn_file_actions_init(&fa);
  if (!err) {
    err = file_actions(&fa, o, in, out);
    fflush(stdout);
    char *const *envp = o->envp ? o->envp : environ;
    if (!err)
      err = o->path ? posix_spawn(&c->pid, o->path, &fa, NULL, argv, envp)
                    : posix_spawnp(&c->pid, argv[0], &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
  }
  /* The child's ends are the child's now. */
  close_fd(&in[0]);
  close_fd(&out[1]);
  c->to = in[1];
  c->from = out[0];
  if (err) {
    close_fd(&c->to);
    close_fd(&c->from);
    c->pid = 0;
  }
  return err;
}

int cli_child_wait(cli_child *c)
{
  close_fd(&c->to);
  close_fd(&c->from);
  if (!c->pid)
    return -1;
  int status = 0;
  pid_t got;
  while ((got = waitpid(c->pid, &status, 0)) < 0 && errno == EINTR)
    ;
  c->pid = 0;
  return got < 0 ? -1 : status;
}

int cli_peer_start(char *const argv[], const char *path, cli_peer *p)
{
  p->to = p->from = NULL;
  int err =
      cli_spawn(argv, &(cli_spawn_options){.path = path, .pipe_in = 1, .pipe_out = 1}, &p->child);
  if (err)
    return err;
  p->to = fdopen(p->child.to, "w");
  if (p->to)
    p->child.to = -1; /* the stream's now */
  p->from = fdopen(p->child.from, "r");
  if (p->from)
    p->child.from = -1;
  if (p->to && p->from)
    return 0;
  err = errno;
  cli_peer_stop(p);
  return err;
}

int cli_peer_stop(cli_peer *p)
{
  if (p->to)
    fclose(p->to);
  if (p->from)
    fclose(p->from);
  p->to = p->from = NULL;
  return p->child.pid ? cli_child_wait(&p->child) : 0;
}

int cli_run(char *const argv[], const cli_spawn_options *o)
{
  cli_spawn_options plain = o ? *o : (cli_spawn_options){0};
  plain.pipe_in = plain.pipe_out = 0;
  cli_child c;
  if (cli_spawn(argv, &plain, &c))
    return -1;
  int st = cli_child_wait(&c);
  if (st < 0)
    return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int cli_find_program(const char *name, char *buf, size_t len)
{
  if (strchr(name, '/')) {
    snprintf(buf, len, "%s", name);
    return access(buf, X_OK) == 0 ? 0 : -1;
  }
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t n = strcspn(path, ":");
    snprintf(buf, len, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", name);
    if (access(buf, X_OK) == 0)
      return 0;
    path += n;
    path += *path == ':';
  }
  return -1;
}

int cli_self_path(char *buf, size_t len)
{
  if (len < 2)
    return -1;
  ssize_t n = readlink("/proc/self/exe", buf, len - 1);
  if (n <= 0)
    return -1;
  buf[n] = 0;
  return 0;
}
