/*
 * handle.h: lsk's handle checks for objects of code built on lsk.
 *
 * Every lsk object is checked on every call: a destroyed, never-made or
 * wrong-type handle is LSK_EINVAL with a message that names it ("is not a
 * live lsk_buffer (it is a live lsk_kernel)", "... (destroyed or never
 * created)", "its context ... was destroyed"), never a use-after-free. A
 * library or pipeline built on lsk gives its own objects the same checks
 * and messages (the examples' lsk_pixel and lsk_pic do):
 *
 *     struct my_thing { lsk_handle h; ... };         the header comes first
 *     static const lsk_handle_type my_thing_type =
 *         {"my_thing", &lsk_context_handle_type, 0};  name, parent's type
 *
 *     my_thing_create:  lsk_handle_add(t, &my_thing_type, ctx)
 *     each function:    lsk_handle_check(NULL, t, &my_thing_type, "my_thing_run", "t")
 *     my_thing_destroy: lsk_handle_remove(t, &my_thing_type, "my_thing_destroy")
 *
 * An object whose context is destroyed is orphaned: every check on it then
 * fails ("its context ... was destroyed") until its own _destroy frees it.
 * Thread-safe: the checks take a process-wide lock (for a handle of a
 * context, also that context's set).
 *
 * The three keep the message as it is when they succeed (status.h): they
 * are parts of the library's own call, not calls of the user's. A library
 * built on lsk sees each other lsk call it makes as a call of its own, so
 * a cleanup call that succeeds after a failure marks it "(earlier) ":
 * re-raise the failure with lsk_context_set_error before returning it.
 */
#ifndef LSK_HANDLE_H
#define LSK_HANDLE_H

#include <stddef.h>

#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A handle type. name: how messages call it ("lsk_pic"); parent: the type
 * of the handle an object belongs to (&lsk_context_handle_type for an
 * object of a context; NULL for none); kids: 0 (lsk's own contexts keep the
 * set of their descendants there). */
typedef struct lsk_handle_type {
  const char *name;
  const struct lsk_handle_type *parent;
  size_t kids;
} lsk_handle_type;

/* The header lsk writes into an object at lsk_handle_add; the object's
 * first member. Its contents are lsk's. */
typedef struct lsk_handle {
  const void *lsk_private[3];
} lsk_handle;

/* The type of lsk_context: the parent type of most objects. */
extern const lsk_handle_type lsk_context_handle_type;

/*
 * lsk_handle_add: makes h, which starts with an lsk_handle, a live handle
 * of type whose parent is parent (a live handle of type->parent; NULL when
 * the type has none). Errors: LSK_EINVAL (h or type NULL, type without a
 * name or with kids, parent not a live handle of type->parent: the message
 * says which), LSK_ENOMEM; the message goes to the thread
 * (lsk_context_errmsg(NULL)).
 */
int lsk_handle_add(void *h, const lsk_handle_type *type, const void *parent);

/*
 * lsk_handle_check: LSK_OK if h is a live handle of type whose ancestors
 * are all live; else LSK_EINVAL with lsk's message ("fn: what is NULL",
 * "fn: what <address> is not a live <name> ...") on msg (NULL: the
 * thread's message).
 */
int lsk_handle_check(lsk_context *msg, const void *h, const lsk_handle_type *type, const char *fn,
                     const char *what);

/*
 * lsk_handle_remove: for h's _destroy: LSK_OK once h is no longer a handle
 * (the caller then frees it); LSK_EINVAL, with the thread's message, if h
 * is NULL or not a live handle of type: the caller must leave it alone.
 */
int lsk_handle_remove(const void *h, const lsk_handle_type *type, const char *fn);

#ifdef __cplusplus
}
#endif
#endif /* LSK_HANDLE_H */
