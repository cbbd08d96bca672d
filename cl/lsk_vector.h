/*
 * lsk_vector.h: appending to a fixed-capacity device vector (the host side
 * is include/lsk/vector.h). A vector reaches a kernel as three parameters,
 *
 *   LSK_VECTOR_PARAMS(T, v)  ->  __global T *v_data,
 *                                volatile __global uint *v_count,
 *                                uint v_capacity
 *
 * bound on the host with LSK_VECTOR_ARGS(vec) (or lsk_vector_args).
 * Elements live in v_data[0, min(count, capacity)). An append takes slots
 * with an atomic add on the count, which keeps growing past the capacity:
 * the host reads count - capacity as the number that did not fit, and can
 * grow the vector and run again. Nothing waits and nothing is lost
 * silently. At most 2^32 - 1 appends between two clears (the count is a
 * uint).
 *
 * The order of the elements depends on the scheduling of work-items: sort
 * on the host, or use stream compaction (compact.h) where order matters.
 */
#ifndef LSK_CL_VECTOR_H
#define LSK_CL_VECTOR_H

#include "lsk_atomic.h"
#include "lsk_block.h"
#include "lsk_config.h"

/* What an append returns when the element does not fit. */
#define LSK_VECTOR_FULL 0xffffffffu

#define LSK_VECTOR_PARAMS(T, v)                                                                    \
  __global T *v##_data, volatile __global uint *v##_count, uint v##_capacity

/*
 * lsk_vector_append(count, capacity): reserve one slot; returns it, or
 * LSK_VECTOR_FULL if it is at or past the capacity (the count still grows).
 * One atomic per call; any work-item may call it; no synchronization.
 */
LSK_INLINE uint lsk_vector_append(volatile __global uint *count, uint capacity)
{
  uint slot = lsk_append(count);
  return slot < capacity ? slot : LSK_VECTOR_FULL;
}

/* LSK_VECTOR_APPEND(v): lsk_vector_append on the parameters of v. */
#define LSK_VECTOR_APPEND(v) lsk_vector_append(v##_count, v##_capacity)

/* LSK_VECTOR_PUSH(v, x): append x if it fits (a statement). */
#define LSK_VECTOR_PUSH(v, x)                                                                      \
  do {                                                                                             \
    uint lsk__vslot = LSK_VECTOR_APPEND(v);                                                        \
    if (lsk__vslot != LSK_VECTOR_FULL)                                                             \
      (v##_data)[lsk__vslot] = (x);                                                                \
  } while (0)

/*
 * LSK_BLOCK_VECTOR_APPEND(s, v, n): the block appends n elements per worker
 * (n may differ between workers and be 0) with one atomic for the whole
 * block (lsk_block_append). Returns this worker's first slot: its elements
 * go to slot, slot + 1, ..., slot + n - 1, and the one at slot + k is
 * stored only if slot + k < v_capacity (lsk_vector_fits). Scratch:
 * LSK_BLOCK_SCRATCH(uint, s). @attention called by every worker of the
 * block in uniform control flow; contains barriers.
 */
#define LSK_BLOCK_VECTOR_APPEND(s, v, n) lsk_block_append((s), v##_count, (n))

/* lsk_vector_fits(slot, capacity): whether a slot from a block append (or
 * one of its successors) may be written. */
LSK_INLINE int lsk_vector_fits(uint slot, uint capacity) { return slot < capacity; }

#endif /* LSK_CL_VECTOR_H */
