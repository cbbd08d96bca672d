/*
 * heat_demo.h: the heat example's drivers in the lsk command: `lsk demo
 * heat` (demo.c) and `lsk mpi heat` (demo_mpi.c, where lsk_mpi is built:
 * m is the command's, its ranks made), with the options they share. argv
 * as the command passes it (the example's name first); each returns the
 * exit status. Built in lsk's tree only (they use the command's helpers,
 * tools/common).
 */
#ifndef LSK_HEAT_DEMO_H
#define LSK_HEAT_DEMO_H

#include <stddef.h>
#include <stdint.h>

int heat_demo(int argc, char **argv);

/* The options of both. heat_demo_parse: 0, the exit status of a usage
 * error, or -1 after printing the help. */
typedef struct heat_demo_options {
  size_t gx, gy;
  unsigned steps, parts[2];
  uint64_t seed;
  float alpha;
  int check;
} heat_demo_options;
int heat_demo_parse(const char *cmd, int argc, char **argv, heat_demo_options *o /* OUT */);

#ifdef LSK_HAVE_MPI
#include "lsk/mpi.h"
int heat_demo_mpi(lsk_mpi *m, int argc, char **argv);
#endif

#endif /* LSK_HEAT_DEMO_H */
