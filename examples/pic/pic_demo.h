/*
 * pic_demo.h: the binning example's drivers in the lsk command: `lsk demo
 * pic` (demo.c) and `lsk mpi pic` (demo_mpi.c, where lsk_mpi is built: m
 * is the command's, its ranks made). argv as the command passes it (the
 * example's name first); each returns the exit status. Built in lsk's tree
 * only (they use the command's helpers, tools/common).
 */
#ifndef LSK_PIC_DEMO_H
#define LSK_PIC_DEMO_H

int pic_demo(int argc, char **argv);

/* The most particles either driver takes (--particles, parsed by
 * cli_opt_size: 2G; the run itself takes fewer than 2^31 across ranks). */
#define LSK_PIC_DEMO_MAX_PARTICLES (1ull << 31)

#ifdef LSK_HAVE_MPI
#include "lsk/mpi.h"
int pic_demo_mpi(lsk_mpi *m, int argc, char **argv);
#endif

#endif /* LSK_PIC_DEMO_H */
