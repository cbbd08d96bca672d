/*
 * lsk_type.h: what code written once over a scalar type needs to know of
 * it, looked up by the type's name: the block collectives' built-in
 * operations (lsk_block.h, once per type) and the kernel library's
 * families, which the host builds once per type with -D LSK_T=<type>
 * (kernels/reduce.cl, for one). CLBlast does the same with its `real`
 * and PRECISION. Types: int, uint, long, ulong, float, double.
 *
 *   LSK__ADD_T(T)    the type T adds in: the unsigned twin of a signed
 *                    integer (its adds wrap, where a signed overflow would
 *                    be undefined behaviour), T itself otherwise
 *   LSK__ADD(T)      T's add, a function-like macro: on the unsigned bits
 *                    for int and long (lsk__add_int), else lsk__op_add
 *   LSK__MIN_ID(T)   the identity of min: T's largest value (+inf for reals)
 *   LSK__MAX_ID(T)   the identity of max: T's smallest value (-inf)
 *
 * None defines anything for a type it does not know: the name is left
 * pasted (LSK__ADD_T_uint2), and the compiler names the line that used it.
 */
#ifndef LSK_CL_TYPE_H
#define LSK_CL_TYPE_H

#include "lsk_atomic.h"

/* Token pasting after expansion: LSK__PASTE(lsk_scan_, LSK_T) is
 * lsk_scan_float where LSK_T is float. */
#define LSK__PASTE_(a, b) a##b
#define LSK__PASTE(a, b) LSK__PASTE_(a, b)
#define LSK__PASTE3(a, b, c) LSK__PASTE(LSK__PASTE(a, b), c)
#define LSK__PASTE4(a, b, c, d) LSK__PASTE(LSK__PASTE3(a, b, c), d)

/* Signed adds on the unsigned bits: they wrap. */
#define lsk__add_int(a, b) as_int(as_uint(a) + as_uint(b))
#define lsk__add_long(a, b) as_long(as_ulong(a) + as_ulong(b))

/* Each with its own pasting macro, not LSK__PASTE: a macro is not expanded
 * again inside its own expansion, and a family's traits reached through
 * LSK__PASTE may use these (LSK__PASTE(LSK__R_ACC_, LSK_OP) is
 * LSK__ADD_T(LSK_T) in kernels/reduce.cl). */
#define LSK__ADD_T(T) LSK__ADD_T_I(T)
#define LSK__ADD_T_I(T) LSK__ADD_T_##T
#define LSK__ADD(T) LSK__ADD_I(T)
#define LSK__ADD_I(T) LSK__ADD_##T
#define LSK__MIN_ID(T) LSK__MIN_ID_I(T)
#define LSK__MIN_ID_I(T) LSK__MIN_ID_##T
#define LSK__MAX_ID(T) LSK__MAX_ID_I(T)
#define LSK__MAX_ID_I(T) LSK__MAX_ID_##T

#define LSK__ADD_T_int uint
#define LSK__ADD_int lsk__add_int
#define LSK__MIN_ID_int INT_MAX
#define LSK__MAX_ID_int INT_MIN

#define LSK__ADD_T_uint uint
#define LSK__ADD_uint lsk__op_add
#define LSK__MIN_ID_uint UINT_MAX
#define LSK__MAX_ID_uint 0

#define LSK__ADD_T_long ulong
#define LSK__ADD_long lsk__add_long
#define LSK__MIN_ID_long LONG_MAX
#define LSK__MAX_ID_long LONG_MIN

#define LSK__ADD_T_ulong ulong
#define LSK__ADD_ulong lsk__op_add
#define LSK__MIN_ID_ulong ULONG_MAX
#define LSK__MAX_ID_ulong 0

#define LSK__ADD_T_float float
#define LSK__ADD_float lsk__op_add
#define LSK__MIN_ID_float INFINITY
#define LSK__MAX_ID_float -INFINITY

#define LSK__ADD_T_double double
#define LSK__ADD_double lsk__op_add
#define LSK__MIN_ID_double (double)INFINITY
#define LSK__MAX_ID_double -(double)INFINITY

#endif /* LSK_CL_TYPE_H */
