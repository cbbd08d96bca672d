/*
 * lsk_list.h: chunked lists on the device: append-only arrays of elements
 * of a fixed size whose storage comes from a pool (lsk_pool.h), one chunk
 * per pool cell. A chunk holds 2^log2 elements; element i is in chunk
 * i >> log2 at position i & (2^log2 - 1), found in O(1) through the list's
 * chunk table. The list is one __global uint buffer (lsk_list_buffer on the
 * host): a header, then the chunk table (LSK_POOL_INVALID: no chunk yet).
 *
 * Append is one atomic add on the length (lsk_list_append), or one per
 * block (lsk_list_append_var). A chunk is made by the first appender that
 * needs it, without a lock: it allocates a cell and installs it with one
 * compare-and-swap; if another work-item installed one first, it recycles
 * its cell and uses the other (nobody ever waits). In the block version
 * only one worker of the block makes each chunk, and only the two end
 * chunks of the block's range can race with another block.
 *
 * Out of space (the pool is exhausted, or the table is full): the element
 * has no storage, the append gives a NULL address, and the element is
 * counted as lost (lsk_list_usage_get on the host); the length still counts
 * it. Nothing is lost silently: the host can grow the pool, clear the list
 * and run again.
 */
#ifndef LSK_CL_LIST_H
#define LSK_CL_LIST_H

#include "lsk_block.h"
#include "lsk_config.h"
#include "lsk_foreach.h"
#include "lsk_pool.h"
#include "lsk_shared.h"

/* The header's words (LSK__LIST_*) are in lsk_shared.h, which the host
 * reads too. */

LSK_INLINE uint lsk_list_length(__global const uint *list) { return list[LSK__LIST_LEN]; }

/* The address of element i in chunk cell (LSK_POOL_INVALID: none, NULL). */
LSK_INLINE __global uchar *lsk__list_addr(__global uint *pool, __global const uint *list, uint cell,
                                          uint i)
{
  if (cell == LSK_POOL_INVALID)
    return 0;
  uint pos = i & ((1u << list[LSK__LIST_LOG2]) - 1u);
  return (__global uchar *)lsk_pool_cell(pool, cell) + (ulong)pos * list[LSK__LIST_ELEM_BYTES];
}

/* The chunk c, made if it does not exist yet: lock-free (see above).
 * LSK_POOL_INVALID if c is past the table or the pool is exhausted. */
LSK_INLINE uint lsk__list_chunk(__global uint *pool, __global uint *list, uint c)
{
  if (c >= list[LSK__LIST_CHUNKS])
    return LSK_POOL_INVALID;
  volatile __global uint *t = (volatile __global uint *)list + LSK__LIST_HEADER_WORDS + c;
  /* An atomic read: another work-group may be installing it. */
  uint cur = atomic_cmpxchg(t, LSK_POOL_INVALID, LSK_POOL_INVALID);
  if (cur != LSK_POOL_INVALID)
    return cur;
  uint mine = lsk_pool_alloc(pool);
  if (mine == LSK_POOL_INVALID)
    return atomic_cmpxchg(t, LSK_POOL_INVALID, LSK_POOL_INVALID);
  cur = atomic_cmpxchg(t, LSK_POOL_INVALID, mine);
  if (cur == LSK_POOL_INVALID)
    return mine;
  lsk_pool_recycle(pool, mine);
  return cur;
}

/*
 * lsk_list_append(pool, list, &i): appends one element; returns its address
 * (write elem_bytes there), or NULL if it has no storage (counted as lost).
 * *i gets its index. One atomic on the length, and one atomic read of the
 * chunk table. Any work-item.
 */
LSK_INLINE __global uchar *lsk_list_append(__global uint *pool, __global uint *list, uint *i)
{
  uint e = atomic_inc((volatile __global uint *)list + LSK__LIST_LEN);
  *i = e;
  __global uchar *p =
      lsk__list_addr(pool, list, lsk__list_chunk(pool, list, e >> list[LSK__LIST_LOG2]), e);
  if (!p)
    atomic_inc((volatile __global uint *)list + LSK__LIST_LOST);
  return p;
}

/*
 * lsk_list_append_var(s, pool, list, want, at, n): the block appends one
 * element for every index of a ForEach over [0, n) with want[slot] != 0,
 * in domain order, with one atomic on the length for the whole block.
 * at[slot] gets the element's address (NULL: no storage, counted as lost,
 * or not wanted). want (uint) and at (__global uchar *) are context
 * variables over n. Returns the index of the block's first element
 * (elements are consecutive) and, in *count, how many the block appended.
 * Scratch: LSK_BLOCK_SCRATCH(uint).
 * @attention every worker, uniform control flow; includes barriers.
 */
LSK_COLLECTIVE uint lsk_list_append_var(__local uint *s, __global uint *pool, __global uint *list,
                                        const uint *want, __global uchar **at, uint n, uint *count)
{
  uint base, total;
  uint e = lsk_block_append_ex(s, (volatile __global uint *)list + LSK__LIST_LEN,
                               lsk__pool_count_var(want, n), &base, &total);
  *count = total;
  uint log2 = list[LSK__LIST_LOG2], mask = (1u << log2) - 1u;
  uint c0 = base >> log2, c1 = (base + total - 1u) >> log2;
  /* One maker per chunk of the range: the owner of its first element, or
   * of the range's first element. The end chunks' cells go through local
   * memory (another block may have made them); the middle ones only this
   * block touches, so after the barrier a plain read finds them. */
  uint mine = e;
  for (uint step = 0; step < LSK__STEPS(n); ++step)
    for (uint j = 0; j < LSK_SIMD; ++j)
      if (LSK__IN(step, j, n) && want[LSK__SLOT(step, j)] != 0) {
        if (e == base || (e & mask) == 0) {
          uint c = e >> log2, cell = lsk__list_chunk(pool, list, c);
          if (c == c0)
            s[0] = cell;
          if (c == c1)
            s[1] = cell;
          if (cell == LSK_POOL_INVALID) {
            uint end = min(base + total, (c + 1u) << log2);
            atomic_add((volatile __global uint *)list + LSK__LIST_LOST, end - max(base, c << log2));
          }
        }
        ++e;
      }
  lsk_sync();
  e = mine;
  for (uint step = 0; step < LSK__STEPS(n); ++step)
    for (uint j = 0; j < LSK_SIMD; ++j)
      if (LSK__IN(step, j, n)) {
        uint slot = LSK__SLOT(step, j);
        at[slot] = 0;
        if (want[slot] != 0) {
          uint c = e >> log2;
          uint cell = c == c0                      ? s[0]
                      : c == c1                    ? s[1]
                      : c < list[LSK__LIST_CHUNKS] ? list[LSK__LIST_HEADER_WORDS + c]
                                                   : LSK_POOL_INVALID;
          at[slot] = lsk__list_addr(pool, list, cell, e);
          ++e;
        }
      }
  lsk_sync_local();
  return base;
}

/* The address of element i (i below the length) in a later kernel than the
 * one that appended it; NULL if it has no storage. */
LSK_INLINE __global uchar *lsk_list_at(__global uint *pool, __global const uint *list, uint i)
{
  uint c = i >> list[LSK__LIST_LOG2];
  if (c >= list[LSK__LIST_CHUNKS])
    return 0;
  return lsk__list_addr(pool, list, list[LSK__LIST_HEADER_WORDS + c], i);
}

#endif /* LSK_CL_LIST_H */
