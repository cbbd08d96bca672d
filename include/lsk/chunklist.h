/*
 * chunklist.h: chunked lists, the host's part (device: cl/lsk_list.h).
 *
 * A chunked list is an append-only array on the device whose storage comes
 * from a pool in chunks of a power-of-two number of elements, one pool cell
 * per chunk; element i is found in O(1) through the list's chunk table.
 * Kernels take the list's buffer (lsk_list_buffer) and its pool's buffer as
 * two __global uint * arguments and append with one atomic per element or
 * per block. See docs/dynamic-memory.md.
 *
 * Thread-safety: as for the context. The pool must outlive the list.
 */
#ifndef LSK_CHUNKLIST_H
#define LSK_CHUNKLIST_H

#include "pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_list lsk_list;

/*
 * lsk_list_create: an empty list of elements of elem_bytes (a multiple of
 * 4), chunk elements per chunk (a power of two; chunk * elem_bytes must fit
 * a cell of pool), for up to max_length elements (the chunk table has
 * ceil(max_length / chunk) entries). No chunk is allocated yet.
 * Errors: LSK_EINVAL (NULL, sizes), LSK_ERANGE (too large), LSK_ENOMEM,
 * OpenCL codes.
 */
int lsk_list_create(lsk_pool *pool, size_t elem_bytes, size_t chunk, size_t max_length,
                    lsk_list **out /* OUT */);
/* Frees the host object and the table; chunks still allocated stay
 * allocated in the pool (lsk_list_clear first to give them back). NULL is
 * a no-op. */
void lsk_list_destroy(lsk_list *list);

/* The list's device buffer (header and chunk table), the kernel argument. */
lsk_buffer *lsk_list_buffer(const lsk_list *list);

typedef struct lsk_list_usage {
  size_t length;     /* elements appended, with storage or not */
  size_t max_length; /* elements the chunk table can address */
  size_t chunks;     /* chunks allocated */
  size_t lost;       /* appended elements that got no storage */
} lsk_list_usage;

/* lsk_list_usage_get: waits for queued work (every queue) and reads the
 * list's header and table on on's queue (its device verify failures are
 * reported).
 * Enqueues; blocks. */
int lsk_list_usage_get(lsk_list *list, lsk_list_usage *out /* OUT */, const lsk_async *on);

/*
 * lsk_list_read: copies elements [first, first + count) to dst
 * (count * elem_bytes bytes, which dst_bytes, dst's size, must hold:
 * LSK_EINVAL otherwise), waiting for queued work as lsk_list_usage_get
 * does and reading on on's queue. LSK_ERANGE if the range passes the
 * length, or an element in it has no storage (the message names the first
 * such element).
 * Enqueues; blocks.
 */
int lsk_list_read(lsk_list *list, size_t first, size_t count, void *dst /* OUT */, size_t dst_bytes,
                  const lsk_async *on);

/* lsk_list_clear: enqueues a kernel on on's queue that recycles every chunk
 * into the pool (free after the next GC) and empties the list.
 * Enqueues; never blocks. */
int lsk_list_clear(lsk_list *list, const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_CHUNKLIST_H */
