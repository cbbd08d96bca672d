/*
 * lsk_var.h: context variables and local memory.
 *
 * A context variable holds one value per slot of the calling worker, so it
 * carries per-index state from one ForEach to the next over the same
 * domain. It lives in private memory (registers when small).
 */
#ifndef LSK_CL_VAR_H
#define LSK_CL_VAR_H

#include "lsk_config.h"

/* LSK_VAR_N(T, name, n): a context variable for a ForEach over n indices
 * (n a compile-time constant). LSK_VAR(T, name): over the block domain. */
#define LSK_VAR_N(T, name, n) T name[LSK_SLOTS(n)]
#define LSK_VAR(T, name) LSK_VAR_N(T, name, LSK_DOMAIN_SIZE)

/* LSK_VAR_AT(name, it): the element of the variable for ForEach index it. */
#define LSK_VAR_AT(name, it) ((name)[(it).slot])

/*
 * LSK_SHARED(T, name, count): static local memory shared by the block.
 * OpenCL 1.2 allows __local variables only at kernel function scope, so use
 * it there. Dynamic local memory is a kernel parameter
 * (__local uchar *p) bound on the host with LSK_ARG_DYN_LOCAL.
 */
#define LSK_SHARED(T, name, count) __local T name[count]

#endif /* LSK_CL_VAR_H */
