/*
 * handle.c: which handles are live. Every opaque object starts with an
 * lsk__handle (core.h): the descriptor of its type, defined by the module
 * that owns the type, and its parent. Its _create enters it in the
 * process-wide set of live pointers and, when it has a context, in that
 * context's set of its descendants; its _destroy removes it from both.
 * Public functions look a handle up in the process-wide set before they
 * read its header, so that a destroyed, never-created or wrongly-typed
 * handle is an LSK_EINVAL with a message rather than a use-after-free: a
 * header is read only once its pointer is known to be live. A launch checks
 * its buffer arguments against its context's set in one pass under that
 * set's mutex (buffer.c, lsk__buffers_live), with no process-wide lock per
 * argument.
 *
 * Lock order: the process-wide set's mutex, then a context's set's. Each
 * set is a hash set of pointers (linear probing); a look-up is a probe.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/objects.h"

static lsk__hset live = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

/* The one type named here: the context, the parent of most types, keeps
 * the set of its live descendants. */
const lsk__htype LSK__H_CONTEXT = {"lsk_context", NULL, offsetof(lsk_context, kids)};
LSK__HANDLE_FIRST(lsk_context);

static const lsk__handle *head(const void *h) { return h; }

static size_t slot_of(const lsk__hset *s, const void *h)
{
  uint64_t x = (uint64_t)(uintptr_t)h;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (s->cap - 1);
}

/* The slot of h, or of the empty slot where it would go; s->cap > 0. */
static size_t find(const lsk__hset *s, const void *h)
{
  size_t i = slot_of(s, h);
  while (s->slot[i] && s->slot[i] != h)
    i = (i + 1) & (s->cap - 1);
  return i;
}

static int has(const lsk__hset *s, const void *h) { return s->cap && s->slot[find(s, h)] == h; }

static int grow(lsk__hset *s)
{
  size_t ncap = s->cap ? s->cap * 2 : 64;
  const void **old = s->slot;
  size_t ocap = s->cap;
  const void **t = calloc(ncap, sizeof *t);
  if (!t)
    return LSK_ENOMEM;
  s->slot = t;
  s->cap = ncap;
  for (size_t i = 0; i < ocap; ++i)
    if (old[i])
      s->slot[find(s, old[i])] = old[i];
  free(old);
  return LSK_OK;
}

static int add(lsk__hset *s, const void *h)
{
  if (2 * (s->used + 1) > s->cap && grow(s))
    return LSK_ENOMEM;
  size_t i = find(s, h);
  if (!s->slot[i]) {
    s->slot[i] = h;
    ++s->used;
  }
  return LSK_OK;
}

/* Linear probing: removal shifts back the entries of the run after it. */
static void remove_at(lsk__hset *s, size_t i)
{
  s->slot[i] = NULL;
  --s->used;
  size_t mask = s->cap - 1;
  for (size_t j = (i + 1) & mask; s->slot[j]; j = (j + 1) & mask) {
    size_t home = slot_of(s, s->slot[j]);
    /* j's entry may move to i unless its home lies cyclically in (i, j]. */
    if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
      s->slot[i] = s->slot[j];
      s->slot[j] = NULL;
      i = j;
    }
  }
}

static void drop(lsk__hset *s, const void *h)
{
  if (s->cap) {
    size_t i = find(s, h);
    if (s->slot[i])
      remove_at(s, i);
  }
}

int lsk__hset_init(lsk__hset *s)
{
  s->slot = NULL;
  s->cap = s->used = 0;
  return pthread_mutex_init(&s->lock, NULL);
}

void lsk__hset_free(lsk__hset *s)
{
  free(s->slot);
  s->slot = NULL;
  s->cap = s->used = 0;
  pthread_mutex_destroy(&s->lock);
}

void lsk__hset_lock(lsk__hset *s) { pthread_mutex_lock(&s->lock); }

void lsk__hset_unlock(lsk__hset *s) { pthread_mutex_unlock(&s->lock); }

int lsk__hset_has(const lsk__hset *s, const void *h, const lsk__htype *t)
{
  return h && has(s, h) && head(h)->type == t;
}

/* The set of scope's descendants if scope is a live handle that keeps one,
 * else NULL; the process-wide lock is held. */
static lsk__hset *kids_of(const void *scope)
{
  if (!scope || !has(&live, scope) || !head(scope)->type->kids)
    return NULL;
  return (lsk__hset *)((char *)(uintptr_t)scope + head(scope)->type->kids);
}

int lsk__handle_add(void *h, const lsk__htype *type, const void *parent)
{
  lsk__handle *hd = h;
  pthread_mutex_lock(&live.lock);
  /* Checked under the lock that enters it: two adds of one h cannot both
   * pass (and a live handle's header is never overwritten). */
  if (has(&live, h)) {
    pthread_mutex_unlock(&live.lock);
    return LSK_EINVAL;
  }
  const void *scope = NULL;
  if (parent && has(&live, parent))
    scope = head(parent)->type->kids ? parent : head(parent)->scope;
  lsk__hset *kids = kids_of(scope);
  *hd = (lsk__handle){type, parent, kids ? scope : NULL};
  int rc = add(&live, h);
  if (!rc && kids) {
    pthread_mutex_lock(&kids->lock);
    rc = add(kids, h);
    pthread_mutex_unlock(&kids->lock);
    if (rc)
      drop(&live, h);
  }
  pthread_mutex_unlock(&live.lock);
  return rc;
}

void *lsk__handle_new(size_t size, const lsk__htype *type, const void *parent)
{
  void *h = calloc(1, size);
  if (h && lsk__handle_add(h, type, parent)) {
    free(h);
    h = NULL;
  }
  return h;
}

/* A type's name without its "lsk_", for messages about a parent. */
static const char *short_name(const lsk__htype *t)
{
  const char *n = t->name;
  return n[0] == 'l' && n[1] == 's' && n[2] == 'k' && n[3] == '_' ? n + 4 : n;
}

/* What a look-up found; the message is made after the lock is released
 * (lsk__fail asks whether the context is live). */
typedef struct finding {
  const lsk__htype *found; /* h's type if h is live, else NULL */
  const void *dead;        /* the first ancestor that is not live, or NULL */
  const lsk__htype *dead_type;
} finding;

static int report(lsk_context *msg, const void *h, const lsk__htype *t, const char *fn,
                  const char *what, const finding *f)
{
  if (f->found && f->found != t)
    return lsk__fail(msg, LSK_EINVAL, "%s: %s %p is not a live %s (it is a live %s)", fn, what, h,
                     t->name, f->found->name);
  if (!f->found)
    return lsk__fail(msg, LSK_EINVAL, "%s: %s %p is not a live %s (destroyed or never created)", fn,
                     what, h, t->name);
  return lsk__fail(msg, LSK_EINVAL, "%s: %s %p is unusable: its %s %p was destroyed", fn, what, h,
                   short_name(f->dead_type), f->dead);
}

/* Looks h up; the process-wide lock is held. 0 if h is a live handle of
 * type and, when parents is set, its ancestors are live handles of their
 * types. A header is read only once its handle is known to be live. */
static int look_up(const void *h, const lsk__htype *type, int parents, finding *f)
{
  *f = (finding){0};
  if (!has(&live, h))
    return 1;
  f->found = head(h)->type;
  if (f->found != type)
    return 1;
  const lsk__htype *pt = type->parent;
  for (const void *p = parents ? head(h)->parent : NULL; p && pt;) {
    if (!has(&live, p) || head(p)->type != pt) {
      f->dead = p;
      f->dead_type = pt;
      return 1;
    }
    p = head(p)->parent;
    pt = pt->parent;
  }
  return 0;
}

int lsk__handle_check(lsk_context *msg, const void *h, const lsk__htype *type, const char *fn,
                      const char *what)
{
  if (!h)
    return lsk__fail(msg, LSK_EINVAL, "%s: %s is NULL", fn, what);
  finding f;
  pthread_mutex_lock(&live.lock);
  int bad = look_up(h, type, 1, &f);
  pthread_mutex_unlock(&live.lock);
  return bad ? report(msg, h, type, fn, what, &f) : LSK_OK;
}

int lsk__handle_remove(const void *h, const lsk__htype *type, const char *fn)
{
  finding f;
  pthread_mutex_lock(&live.lock);
  int bad = look_up(h, type, 0, &f);
  if (!bad) {
    /* Its scope's set, if the scope is still live: a destroyed context's
     * set went with it. */
    lsk__hset *kids = kids_of(head(h)->scope);
    if (kids) {
      pthread_mutex_lock(&kids->lock);
      drop(kids, h);
      pthread_mutex_unlock(&kids->lock);
    }
    drop(&live, h);
  }
  pthread_mutex_unlock(&live.lock);
  return bad ? report(NULL, h, type, fn, short_name(type), &f) : LSK_OK;
}

int lsk__handle_live(const void *h, const lsk__htype *type)
{
  if (!h)
    return 0;
  pthread_mutex_lock(&live.lock);
  int ok = has(&live, h) && head(h)->type == type;
  pthread_mutex_unlock(&live.lock);
  return ok;
}

/* ------------------------------------------------------------------ */
/* The public face (include/lsk/handle.h), for code built on lsk.      */

int lsk_handle_add(void *h, const lsk_handle_type *type, const void *parent)
{
  if (!h || !type)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, h ? "type" : "h");
  if (!type->name || !*type->name)
    return lsk__fail(NULL, LSK_EINVAL, "%s: the type has no name", __func__);
  /* Only lsk's own contexts keep a set of descendants. */
  if (type->kids)
    return lsk__fail(NULL, LSK_EINVAL, "%s: type '%s': kids must be 0", __func__, type->name);
  if (type->parent) {
    int rc = lsk__handle_check(NULL, parent, type->parent, __func__, "parent");
    if (rc)
      return rc;
  } else if (parent) {
    return lsk__fail(NULL, LSK_EINVAL, "%s: type '%s' has no parent type, yet a parent is given",
                     __func__, type->name);
  }
  int rc = lsk__handle_add(h, type, parent);
  if (rc == LSK_EINVAL)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %p is a live handle already", __func__, h);
  return rc ? lsk__fail(NULL, LSK_ENOMEM, "%s: out of host memory", __func__) : LSK_OK;
}

int lsk_handle_check(lsk_context *msg, const void *h, const lsk_handle_type *type, const char *fn,
                     const char *what)
{
  if (!type)
    return lsk__fail(msg, LSK_EINVAL, "%s: type is NULL", __func__);
  return lsk__handle_check(msg, h, type, fn ? fn : __func__, what ? what : "handle");
}

int lsk_handle_remove(const void *h, const lsk_handle_type *type, const char *fn)
{
  if (!type)
    return lsk__fail(NULL, LSK_EINVAL, "%s: type is NULL", __func__);
  /* A context is lsk's to remove (lsk_context_destroy): removed here, it
   * would leak with its children. */
  if (type->kids)
    return lsk__fail(NULL, LSK_EINVAL, "%s: type '%s' is lsk's own", __func__,
                     type->name ? type->name : "?");
  fn = fn ? fn : __func__;
  if (!h)
    return lsk__fail(NULL, LSK_EINVAL, "%s: handle is NULL", fn);
  return lsk__handle_remove(h, type, fn);
}
