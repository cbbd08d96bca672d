/* main.c: placeholder dispatch of the lsk command, being written. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int cli_fail(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "lsk: %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

double cli_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "devices") == 0)
    return cmd_devices(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "info") == 0)
    return cmd_info(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "demo") == 0)
    return cmd_demo(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "bench") == 0)
    return cmd_bench(argc - 1, argv + 1);
  fprintf(stderr, "usage: lsk devices|info|demo|bench\n");
  return 2;
}
