/*
 * sparse_demo.h: the sparse-front example's driver in the lsk command:
 * `lsk demo sparse` (demo.c). argv as the command passes it (the example's
 * name first); returns the exit status. Built in lsk's tree only (it uses
 * the command's helpers, tools/common).
 */
#ifndef LSK_SPARSE_DEMO_H
#define LSK_SPARSE_DEMO_H

int sparse_demo(int argc, char **argv);

#endif /* LSK_SPARSE_DEMO_H */
