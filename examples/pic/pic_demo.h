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

#ifdef LSK_HAVE_MPI
#include "lsk/mpi.h"
int pic_demo_mpi(lsk_mpi *m, int argc, char **argv);
#endif

#endif /* LSK_PIC_DEMO_H */
