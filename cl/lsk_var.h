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
#include "lsk_foreach.h"
#include "lsk_idx.h"

/* LSK_VAR_N(T, name, n): a context variable for a ForEach over n indices
 * (n a compile-time constant, smaller or larger than the block domain: a
 * worker holds LSK_SLOTS(n) slots). LSK_VAR(T, name): over the block
 * domain. */
#define LSK_VAR_N(T, name, n) T name[LSK_SLOTS(n)]
#define LSK_VAR(T, name) LSK_VAR_N(T, name, LSK_DOMAIN_SIZE)

/* LSK_VAR_AT(name, it): the element of the variable for ForEach index it. */
#define LSK_VAR_AT(name, it) ((name)[(it).slot])

/*
 * LSK_VAR_INIT_N(T, name, n, value), LSK_VAR_INIT(T, name, value): a
 * context variable with every slot of the worker set to value (PMacc's
 * lockstep::makeVar<T>(forEach, value)): the slots of masked indices too,
 * so that no slot is ever read uninitialized. value is evaluated once per
 * worker, before the slots are set; no synchronization. The macro is a
 * declaration followed by a loop, so write it where a declaration may
 * stand (not as the body of an if); it also declares lsk__init_<name>.
 */
#define LSK_VAR_INIT_N(T, name, n, value)                                                          \
  T lsk__init_##name = (value);                                                                    \
  LSK_VAR_N(T, name, n);                                                                           \
  for (uint lsk__slot_##name = 0; lsk__slot_##name < LSK_SLOTS(n); ++lsk__slot_##name)             \
  name[lsk__slot_##name] = lsk__init_##name
#define LSK_VAR_INIT(T, name, value) LSK_VAR_INIT_N(T, name, LSK_DOMAIN_SIZE, value)

/*
 * LSK_FOREACH_VAR_N(T, name, it, n, expr), LSK_FOREACH_VAR(T, name, it,
 * expr): a ForEach over n indices (n a compile-time constant, any size)
 * whose result is a context variable: name's element for each index is
 * expr, evaluated in the ForEach body with `it` that index (PMacc's
 * `auto name = forEach([&](auto const idx) { return expr; })`). For a
 * result that takes several statements, make expr a call of a helper
 * function. Slots of masked indices are left unset: read name through a
 * ForEach over the same n (or a block collective's _var form with n).
 * Like LSK_FOREACH_N, no synchronization before or after, and a barrier or
 * collective in expr does not compile. A declaration followed by a loop,
 * as LSK_VAR_INIT_N.
 */
#define LSK_FOREACH_VAR_N(T, name, it, n, expr)                                                    \
  LSK_VAR_N(T, name, n);                                                                           \
  LSK_FOREACH_N(it, n) LSK_VAR_AT(name, it) = (expr)
#define LSK_FOREACH_VAR(T, name, it, expr) LSK_FOREACH_VAR_N(T, name, it, LSK_DOMAIN_SIZE, expr)

/*
 * LSK_SHARED(T, name, count): static local memory shared by the block.
 * OpenCL 1.2 allows __local variables only at kernel function scope, so use
 * it there. Dynamic local memory is a kernel parameter
 * (__local uchar *p) bound on the host with LSK_ARG_DYN_LOCAL.
 */
#define LSK_SHARED(T, name, count) __local T name[count]

#endif /* LSK_CL_VAR_H */
