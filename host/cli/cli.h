/*
 * cli.h: the lsk command's subcommands. Each returns the exit status:
 * 0 success, 1 failure, 2 usage error; messages go to stderr as
 * "lsk: <cmd>: <msg>".
 */
#ifndef LSK_CLI_H
#define LSK_CLI_H

#include "lsk/lsk.h"

int cmd_devices(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* Prints "lsk: <cmd>: <msg>\n" to stderr; returns 1. */
int cli_fail(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Monotonic time in seconds. */
double cli_now(void);

#endif /* LSK_CLI_H */
