/*
 * lsk_atomic.h: atomics that OpenCL C 1.2 lacks, and appends.
 *
 * Float add, min and max are compare-and-swap loops on the value's bits.
 * Such a loop is lock-free, not a lock: a retry happens only because
 * another work-item's update succeeded, so no work-item ever waits for a
 * particular other one. 64-bit versions exist only where the device has
 * cl_khr_int64_base_atomics (LSK_HAS_INT64_ATOMICS).
 *
 * Each function returns the value before the update, like atomic_add.
 * None synchronizes; any work-item may call them.
 */
#ifndef LSK_CL_ATOMIC_H
#define LSK_CL_ATOMIC_H

#include "lsk_config.h"

/* One CAS loop per (name, address space, type, its bits, cas, op). The
 * loop never reads *p plainly, which would race with the other work-items'
 * CAS (oclgrind reports it): its first CAS guesses the bits of +0.0, the
 * usual start of a sum, and when the guess is wrong it returns the current
 * value to retry with. */
#define LSK__ATOMIC_CAS(name, AS, T, U, as_T, as_U, cas, OP)                                       \
  LSK_INLINE T name(volatile AS T *p, T v)                                                         \
  {                                                                                                \
    volatile AS U *q = (volatile AS U *)p;                                                         \
    U old = 0;                                                                                     \
    for (;;) {                                                                                     \
      U want = as_U(OP(as_T(old), v));                                                             \
      U seen = cas(q, old, want);                                                                  \
      if (seen == old)                                                                             \
        return as_T(old);                                                                          \
      old = seen;                                                                                  \
    }                                                                                              \
  }

/* The operations, for scalars of any type. Comparisons rather than the
 * built-in min and max: OpenCL C leaves min/max of floats undefined for
 * infinite arguments, and the identities of min and max are infinities.
 * Min and max ignore a NaN, as fmin and fmax do, in either operand: the
 * other one is the result (a NaN only where both are). x != x holds only
 * for a NaN, and is false for integers, where it folds away.
 * @attention min and max evaluate an argument more than once: pass plain
 * values, never a call (a collective called twice, or on some workers,
 * breaks). */
#define lsk__op_add(a, b) ((a) + (b))
#define lsk__op_min(a, b) ((b) < (a) || (a) != (a) ? (b) : (a))
#define lsk__op_max(a, b) ((a) < (b) || (a) != (a) ? (b) : (a))

LSK__ATOMIC_CAS(lsk_atomic_add_float, __global, float, uint, as_float, as_uint, atomic_cmpxchg,
                lsk__op_add)
LSK__ATOMIC_CAS(lsk_atomic_min_float, __global, float, uint, as_float, as_uint, atomic_cmpxchg,
                lsk__op_min)
LSK__ATOMIC_CAS(lsk_atomic_max_float, __global, float, uint, as_float, as_uint, atomic_cmpxchg,
                lsk__op_max)
LSK__ATOMIC_CAS(lsk_atomic_add_float_local, __local, float, uint, as_float, as_uint, atomic_cmpxchg,
                lsk__op_add)
LSK__ATOMIC_CAS(lsk_atomic_min_float_local, __local, float, uint, as_float, as_uint, atomic_cmpxchg,
                lsk__op_min)
LSK__ATOMIC_CAS(lsk_atomic_max_float_local, __local, float, uint, as_float, as_uint, atomic_cmpxchg,
                lsk__op_max)

#if defined(LSK_HAS_INT64_ATOMICS) && defined(LSK_HAS_FP64)
LSK__ATOMIC_CAS(lsk_atomic_add_double, __global, double, ulong, as_double, as_ulong, atom_cmpxchg,
                lsk__op_add)
LSK__ATOMIC_CAS(lsk_atomic_min_double, __global, double, ulong, as_double, as_ulong, atom_cmpxchg,
                lsk__op_min)
LSK__ATOMIC_CAS(lsk_atomic_max_double, __global, double, ulong, as_double, as_ulong, atom_cmpxchg,
                lsk__op_max)
#endif

/*
 * lsk_append(count): reserve one slot of a bounded array whose length is
 * *count; the slot is valid if it is below the array's capacity. The count
 * keeps growing past the capacity, so the host learns how many did not fit
 * (count - capacity). One atomic per call: in a block, prefer the batched
 * lsk_block_append (lsk_block.h).
 */
LSK_INLINE uint lsk_append(volatile __global uint *count) { return atomic_inc(count); }

#endif /* LSK_CL_ATOMIC_H */
