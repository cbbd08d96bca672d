/*
 * core/handle.h: handle types and their liveness checks inside the
 * library. Not installed; code outside the library has the same through
 * include/lsk/handle.h (lsk_handle_add, _check, _remove).
 *
 * A module of the library that owns an opaque type makes it a handle by
 *   - putting an lsk__handle first in its struct (LSK__HANDLE_FIRST checks),
 *   - defining its descriptor, named LSK__H_<ID> for the macros below, e.g.
 *       static const lsk__htype LSK__H_PIC = {"lsk_pic", &LSK__H_CONTEXT, 0};
 *   - creating with lsk__handle_new or lsk__handle_add, starting each public
 *     function with LSK__LIVE / LSK__LIVE_OR and each _destroy with
 *     LSK__DESTROY(h, PIC, "lsk_pic_destroy").
 * The core (handle.c) knows no type but through these descriptors.
 */
#ifndef LSK_CORE_HANDLE_H
#define LSK_CORE_HANDLE_H

#include <pthread.h>
#include <stddef.h>

#include "lsk/handle.h"

/* A handle type (the public lsk_handle_type): its name ("lsk_<what>";
 * messages about a dead parent drop "lsk_") and its parent's type (NULL:
 * none). kids, for a type that keeps the set of its live descendants (the
 * context), is the offset of that lsk__hset in its struct; 0 otherwise. */
typedef lsk_handle_type lsk__htype;

/* The first member of every handle's struct, written by lsk__handle_add. */
typedef struct lsk__handle {
  const lsk__htype *type;
  const void *parent; /* the parent handle (context, a kernel's program...); NULL: none */
  const void *scope;  /* the nearest ancestor that keeps a set of its descendants; NULL: none */
} lsk__handle;
#define LSK__HANDLE_FIRST(T) _Static_assert(offsetof(T, h) == 0, #T ": its lsk__handle comes first")
/* Code outside the library reserves the header as the public lsk_handle. */
_Static_assert(sizeof(lsk__handle) == sizeof(lsk_handle), "lsk_handle holds an lsk__handle");

/* A set of live handles under its own mutex: the process-wide one, and one
 * per context for the context's descendants. */
typedef struct lsk__hset {
  pthread_mutex_t lock;
  const void **slot; /* NULL: empty slot */
  size_t cap, used;  /* cap: a power of two, or 0 */
} lsk__hset;
/* An empty set and its mutex: 0, or the pthread error. */
int lsk__hset_init(lsk__hset *s);
void lsk__hset_free(lsk__hset *s);
/* A pass over a scope's set: lock, then 1 if h is in it with type t (the
 * type read from h only once it is known to be live), then unlock. */
void lsk__hset_lock(lsk__hset *s);
int lsk__hset_has(const lsk__hset *s, const void *h, const lsk__htype *t);
void lsk__hset_unlock(lsk__hset *s);

/* The context's type: the parent of most handle types. */
/* The context's type, the public lsk_context_handle_type. */
#define LSK__H_CONTEXT lsk_context_handle_type

/* Writes h's header (type, parent: NULL for none, else a live handle) and
 * enters h as live; LSK_ENOMEM without a message if a set cannot grow,
 * LSK_EINVAL without one if h is live already (header left alone). */
int lsk__handle_add(void *h, const lsk__htype *type, const void *parent);
/* A zeroed handle of size bytes, entered as with lsk__handle_add; NULL
 * (nothing left allocated) when out of memory. */
void *lsk__handle_new(size_t size, const lsk__htype *type, const void *parent);
/* LSK_OK if h is a live handle of type whose ancestors are all live; else
 * LSK_EINVAL with "fn: what ... is NULL / is not a live lsk_<type> ... / its
 * context ... was destroyed" recorded on msg (NULL: the thread). */
int lsk__handle_check(struct lsk_context *msg, const void *h, const lsk__htype *type,
                      const char *fn, const char *what);
/* Removes h for its _destroy; LSK_EINVAL (thread message) if it is not a
 * live handle of type, which the caller must then leave alone. */
int lsk__handle_remove(const void *h, const lsk__htype *type, const char *fn);
/* 1 if h is a live handle of type (parents not looked at); no message. */
int lsk__handle_live(const void *h, const lsk__htype *type);

/* Return rc from the enclosing function if the handle check fails. */
#define LSK__LIVE(msg, h, type, fn, what)                                                          \
  do {                                                                                             \
    int lsk_live_rc_ = lsk__handle_check((msg), (h), &LSK__H_##type, (fn), (what));                \
    if (lsk_live_rc_)                                                                              \
      return lsk_live_rc_;                                                                         \
  } while (0)
/* The same for functions without a status: return val; silently for NULL
 * (the documented neutral answer), with the thread's message otherwise. */
#define LSK__LIVE_OR(val, h, type, fn, what)                                                       \
  do {                                                                                             \
    if (!(h) || lsk__handle_check(NULL, (h), &LSK__H_##type, (fn), (what)))                        \
      return val;                                                                                  \
  } while (0)
/* The first lines of a _destroy: NULL is a no-op, a handle that is not live
 * is left alone (thread message), else it is removed and freed below. */
#define LSK__DESTROY(h, type, fn)                                                                  \
  do {                                                                                             \
    if (!(h) || lsk__handle_remove((h), &LSK__H_##type, (fn)))                                     \
      return;                                                                                      \
  } while (0)

#endif /* LSK_CORE_HANDLE_H */
