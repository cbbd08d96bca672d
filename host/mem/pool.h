/*
 * mem/pool.h: the pool object, shared by pool.c and chunklist.c. Private
 * to the mem layer.
 */
#ifndef LSK_MEM_POOL_H
#define LSK_MEM_POOL_H

#include "mem/mem.h"

/* The header's words (LSK__POOL_*) are in cl/lsk_shared.h (lsk/shared.h,
 * through lsk/pool.h); the public LSK_POOL_INVALID must name the device's
 * no-cell. */
_Static_assert(LSK_POOL_INVALID == LSK__POOL_NONE,
               "include/lsk/pool.h and cl/lsk_shared.h disagree on LSK_POOL_INVALID");

struct lsk_pool {
  lsk__handle h;
  lsk_context *ctx;
  lsk_buffer *buf;
  size_t capacity;
  size_t align;                                         /* of cells, bytes */
  size_t cell_words;                                    /* stride / 4 */
  size_t free_off, rec_off, runs_off, cells_off, words; /* in uints */
  const lsk_layout *layout;                             /* frames, else NULL */
  unsigned frame_size;
  size_t frame_head_words;
};

#endif /* LSK_MEM_POOL_H */
