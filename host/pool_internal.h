/*
 * pool_internal.h: the pool object, shared by pool.c, chunklist.c and
 * pic.c. Not installed.
 */
#ifndef LSK_POOL_INTERNAL_H
#define LSK_POOL_INTERNAL_H

#include "internal.h"
#include "lsk/pool.h"

/* Header words: mirrors cl/lsk_pool.h. */
enum {
  LSK__POOL_FREE_LEN = 1,
  LSK__POOL_FRESH,
  LSK__POOL_CAPACITY,
  LSK__POOL_CELL_WORDS = 5,
  LSK__POOL_FREE_OFF,
  LSK__POOL_REC_OFF,
  LSK__POOL_CELLS_OFF,
  LSK__POOL_REFUSED,
  LSK__POOL_MISUSE,
  LSK__POOL_GCS,
  LSK__POOL_FRAME_SIZE,
  LSK__POOL_FRAME_HEAD,
  LSK__POOL_CURSOR = 16,   /* a cache line of its own (atomic) */
  LSK__POOL_RECYCLED = 32, /* a cache line of its own (atomic) */
  LSK__POOL_HEADER_WORDS = 48,
  LSK__POOL_LARGE_WORDS = 64 /* zero-filled a block per cell */
};

struct lsk_pool {
  lsk__handle h;
  lsk_context *ctx;
  lsk_buffer *buf;
  size_t capacity;
  size_t align;                               /* of cells, bytes */
  size_t cell_words;                          /* stride / 4 */
  size_t free_off, rec_off, cells_off, words; /* in uints */
  const lsk_layout *layout;                   /* frames, else NULL */
  unsigned frame_size;
  size_t frame_head_words;
};

/* The enqueued GC, without argument checks. */
int lsk__pool_gc(lsk_pool *pool);
/* Blocks of a grid-strided pass over n items in tiles of `tile`. */
size_t lsk__pool_blocks(const lsk_context *ctx, size_t n, unsigned tile);

#endif /* LSK_POOL_INTERNAL_H */
