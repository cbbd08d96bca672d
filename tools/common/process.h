/*
 * process.h: child processes for the command's code, started in one place
 * (process.c): `lsk check` runs clang and ptxas, the bench its build
 * children, the Boost.Compute peer, gnuplot and mpirun. No shell: a
 * child's arguments are an argv, never a command line.
 */
#ifndef LSK_TOOLS_PROCESS_H
#define LSK_TOOLS_PROCESS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* How a child is started; all zero: argv[0] looked up in PATH, this
 * process's environment, stdin, stdout and stderr inherited. */
typedef struct cli_spawn_options {
  const char *path;     /* the program to run; NULL: argv[0] through PATH */
  char *const *envp;    /* its environment; NULL: this process's */
  int pipe_in;          /* its stdin from a pipe (cli_child.to) */
  int pipe_out;         /* its stdout into a pipe (cli_child.from) */
  const char *out_file; /* its stdout into this file (made or emptied) */
  int err_to_out;       /* its stderr where its stdout goes */
} cli_spawn_options;

/* A started child. A caller that takes a pipe over (fdopen) sets its end
 * to -1, so that cli_child_wait leaves it alone. */
typedef struct cli_child {
  pid_t pid; /* 0: none */
  int to;    /* the write end of its stdin's pipe, or -1 */
  int from;  /* the read end of its stdout's pipe, or -1 */
} cli_child;

/*
 * cli_spawn: starts argv (argv[0] the name the child sees) as o says (o
 * may be NULL), this process's stdout flushed first so that the child's
 * output comes after it. 0 with *c filled; else an errno value (no child,
 * nothing to wait for, *c's pipes closed and -1).
 */
int cli_spawn(char *const argv[], const cli_spawn_options *o, cli_child *c /* OUT */);

/* cli_child_wait: closes the pipes still open, waits for the child
 * (through EINTR); its wait status (WIFEXITED ...), or -1 if waitpid
 * failed. c->pid is 0 afterwards. */
int cli_child_wait(cli_child *c);

/* A child whose stdin and stdout are streams: a peer that answers line by
 * line (the bench's Boost.Compute, CUDA and Taichi peers). */
typedef struct cli_peer {
  cli_child child;
  FILE *to, *from; /* its stdin and stdout; NULL where not open */
} cli_peer;

/* cli_peer_start: cli_spawn with both pipes (path as cli_spawn_options'
 * path), then the streams. 0; else an errno value with nothing left open
 * and nothing to wait for. */
int cli_peer_start(char *const argv[], const char *path, cli_peer *p /* OUT */);

/* cli_peer_stop: closes the streams and waits for the child: its wait
 * status (as cli_child_wait), 0 where none was started. */
int cli_peer_stop(cli_peer *p);

/* cli_run: cli_spawn (nothing piped), then the wait: the child's exit
 * status (0 to 255), 128 + the signal's number if a signal ended it, -1 if
 * it could not start. */
int cli_run(char *const argv[], const cli_spawn_options *o);

/* cli_find_program: name as found in PATH (an empty entry is the current
 * folder), or name itself if it has a '/', into buf; 0 if it is there and
 * executable, else -1. */
int cli_find_program(const char *name, char *buf, size_t len);

/* cli_self_path: the path of this process's executable (/proc/self/exe),
 * into buf; 0, or -1 where it cannot be read. */
int cli_self_path(char *buf, size_t len);

#endif /* LSK_TOOLS_PROCESS_H */
