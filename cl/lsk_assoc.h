/*
 * lsk_assoc.h: reading a one-to-many association (include/lsk/assoc.h) in
 * a kernel. The host passes lsk_assoc_offsets (nkeys + 1 uints) and
 * lsk_assoc_content (element indices grouped by key); key k's elements are
 * content[j] for j in [offsets[k], offsets[k + 1]), in no particular order.
 * Every key given here must be below nkeys.
 *
 * One worker over one key (any worker, no synchronization):
 *   for (uint j = lsk_assoc_begin(offsets, k); j < lsk_assoc_end(offsets, k); ++j)
 *     use(content[j]);
 * The whole block over one key: LSK_ASSOC_FOREACH below.
 */
#ifndef LSK_CL_ASSOC_H
#define LSK_CL_ASSOC_H

#include "lsk_config.h"
#include "lsk_foreach.h"
#include "lsk_idx.h"

/* The first position of key's range in the content, one past its last,
 * and its length. */
LSK_INLINE uint lsk_assoc_begin(__global const uint *offsets, uint key) { return offsets[key]; }
LSK_INLINE uint lsk_assoc_end(__global const uint *offsets, uint key) { return offsets[key + 1u]; }
LSK_INLINE uint lsk_assoc_length(__global const uint *offsets, uint key)
{
  return offsets[key + 1u] - offsets[key];
}

/*
 * LSK_ASSOC_FOREACH(it, j, offsets, key) { body }: the block visits every
 * position j of key's range once (content[j] is the element), in chunks of
 * the block domain: a ForEach over each chunk, `it` its lsk_idx (it.idx is
 * j's place in the chunk, it.slot its context-variable slot).
 * @attention called by every worker with the same key (uniform control
 * flow); no synchronization before, after or between chunks, and, as in
 * LSK_FOREACH, no barrier in the body; `continue` moves to the next
 * position, `break` is not supported. To combine values across the block,
 * accumulate per worker in the body and use a block collective after it.
 */
#define LSK_ASSOC_FOREACH(it, j, offsets, key)                                                     \
  for (uint lsk__ae_##it = (offsets)[(key) + 1u], lsk__ac_##it = (offsets)[key];                   \
       lsk__ac_##it < lsk__ae_##it; lsk__ac_##it += LSK_DOMAIN_SIZE)                               \
    LSK_FOREACH(it)                                                                                \
  for (uint j = lsk__ac_##it + it.idx, lsk__a1_##it = j < lsk__ae_##it; lsk__a1_##it;              \
       lsk__a1_##it = 0)

#endif /* LSK_CL_ASSOC_H */
