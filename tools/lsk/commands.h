/*
 * commands.h: the lsk command's own subcommands (tools/lsk/cmd_<sub>.c),
 * each called by main.c with its name first in argv and returning the exit
 * status (cli.h). `lsk bench` is bench/'s (bench_main.h); `lsk demo` and
 * `lsk mpi` dispatch to the examples' drivers.
 */
#ifndef LSK_TOOLS_COMMANDS_H
#define LSK_TOOLS_COMMANDS_H

int cmd_devices(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_demo(int argc, char **argv); /* `lsk demo [tour|pic|heat]` */
int cmd_tune(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_sparse(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_mpi(int argc, char **argv); /* `lsk mpi heat|pic|halo` */

#endif /* LSK_TOOLS_COMMANDS_H */
