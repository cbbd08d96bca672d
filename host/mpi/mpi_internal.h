/*
 * mpi_internal.h: what the files of lsk_mpi share (host/mpi/).
 */
#ifndef LSK_MPI_INTERNAL_H
#define LSK_MPI_INTERNAL_H

#include <stdarg.h>

#include "lsk/mpi.h"

struct lsk_mpi {
  lsk_handle h;
  MPI_Comm comm; /* lsk_mpi's duplicate of the user's */
  MPI_Comm node; /* the ranks sharing this rank's memory */
  int rank, size, node_rank, device;
  lsk_context *ctx;
};

extern const lsk_handle_type lsk__mpi_type;

/* The message fmt on ctx (NULL: the thread's); returns status. */
int lsk__mpi_fail(lsk_context *ctx, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* rc, and if it is a failure whose message a liblsk call that succeeded
 * after it has marked "(earlier) " (each liblsk call lsk_mpi makes is a
 * call of its own: docs/errors.md), that message current again on ctx. */
int lsk__mpi_return(lsk_context *ctx, int rc);
/* LSK_ECOMM with MPI's text where mrc is not MPI_SUCCESS. */
int lsk__mpi_check(lsk_context *ctx, int mrc, const char *fn, const char *call);
/* lsk_mpi_agree under fn's name. */
int lsk__mpi_agree(lsk_mpi *m, int status, const char *fn);

#endif
