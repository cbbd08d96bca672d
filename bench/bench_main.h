/*
 * bench_main.h: `lsk bench`, the one entry of the bench (the static library
 * lsk_bench) that the command calls: argv as main() passes a subcommand
 * its arguments, "bench" first; returns the exit status (0, 1, or 2 for a
 * usage error). bench_main.c.
 */
#ifndef LSK_BENCH_MAIN_H
#define LSK_BENCH_MAIN_H

int bench_main(int argc, char **argv);

#endif /* LSK_BENCH_MAIN_H */
