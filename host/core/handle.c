/*
 * handle.c: the registry of live handles. Every opaque object is entered by
 * its _create and removed by its _destroy, with its type and its parent (the
 * context, or the program of a kernel, the pool of a list). Public functions
 * look a handle up before they touch it, so that a destroyed, never-created
 * or wrongly-typed handle is an LSK_EINVAL with a message rather than a
 * use-after-free. One mutex guards the table; a look-up is a hash probe.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

typedef struct entry {
  const void *h; /* NULL: empty slot */
  const void *parent;
  lsk__htype type;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *table;
static size_t cap, used; /* cap: a power of two, or 0 */

static const char *const type_names[] = {
#define XX(ID, name) "lsk_" #name,
    LSK__HANDLE_MAP(XX)
#undef XX
};

const char *lsk__htype_name(lsk__htype t)
{
  return (unsigned)t < sizeof type_names / sizeof type_names[0] ? type_names[t] : "?";
}

/* The parent's type: a kernel's is its program, a list's its pool, the
 * other children's their context. */
static lsk__htype parent_type(lsk__htype t)
{
  return t == LSK__H_KERNEL ? LSK__H_PROGRAM : t == LSK__H_LIST ? LSK__H_POOL : LSK__H_CONTEXT;
}

static size_t slot_of(const void *h)
{
  uint64_t x = (uint64_t)(uintptr_t)h;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

/* The slot of h, or of the empty slot where it would go. */
static size_t find(const void *h)
{
  size_t i = slot_of(h);
  while (table[i].h && table[i].h != h)
    i = (i + 1) & (cap - 1);
  return i;
}

static int grow(void)
{
  size_t ncap = cap ? cap * 2 : 256;
  entry *old = table;
  size_t ocap = cap;
  entry *t = calloc(ncap, sizeof *t);
  if (!t)
    return LSK_ENOMEM;
  table = t;
  cap = ncap;
  for (size_t i = 0; i < ocap; ++i)
    if (old[i].h)
      table[find(old[i].h)] = old[i];
  free(old);
  return LSK_OK;
}

int lsk__handle_add(const void *h, lsk__htype type, const void *parent)
{
  int rc = LSK_OK;
  pthread_mutex_lock(&lock);
  if (2 * (used + 1) > cap)
    rc = grow();
  if (!rc) {
    size_t i = find(h);
    if (!table[i].h)
      ++used;
    table[i] = (entry){h, parent, type};
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

void *lsk__handle_new(size_t size, lsk__htype type, const void *parent)
{
  void *h = calloc(1, size);
  if (h && lsk__handle_add(h, type, parent)) {
    free(h);
    h = NULL;
  }
  return h;
}

/* Linear probing: removal shifts back the entries of the run after it. */
static void remove_at(size_t i)
{
  table[i].h = NULL;
  --used;
  for (size_t j = (i + 1) & (cap - 1); table[j].h; j = (j + 1) & (cap - 1)) {
    size_t home = slot_of(table[j].h);
    /* j's entry may move to i unless its home lies cyclically in (i, j]. */
    if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
      table[i] = table[j];
      table[j].h = NULL;
      i = j;
    }
  }
}

/* What a look-up found; the message is made after the lock is released
 * (lsk__fail asks the registry whether the context is live). */
typedef struct finding {
  int found;             /* h is in the table */
  lsk__htype found_type; /* its type, if found */
  const void *dead;      /* the first ancestor that is not live, or NULL */
  lsk__htype dead_type;
} finding;

static int report(lsk_context *msg, const void *h, lsk__htype t, const char *fn, const char *what,
                  const finding *f)
{
  if (f->found && f->found_type != t)
    return lsk__fail(msg, LSK_EINVAL, "%s: %s %p is not a live %s (it is a live %s)", fn, what, h,
                     lsk__htype_name(t), lsk__htype_name(f->found_type));
  if (!f->found)
    return lsk__fail(msg, LSK_EINVAL, "%s: %s %p is not a live %s (destroyed or never created)", fn,
                     what, h, lsk__htype_name(t));
  return lsk__fail(msg, LSK_EINVAL, "%s: %s %p is unusable: its %s %p was destroyed", fn, what, h,
                   lsk__htype_name(f->dead_type) + 4, f->dead);
}

/* Looks h up; the lock is held. 0 if h is live with all its ancestors. */
static int look_up(const void *h, lsk__htype type, int parents, finding *f, size_t *slot)
{
  *f = (finding){0};
  if (!cap)
    return 1;
  size_t i = find(h);
  *slot = i;
  if (!table[i].h)
    return 1;
  f->found = 1;
  f->found_type = table[i].type;
  if (table[i].type != type)
    return 1;
  lsk__htype pt = parent_type(type);
  for (const void *p = parents ? table[i].parent : NULL; p;) {
    size_t j = find(p);
    if (table[j].h != p) {
      f->dead = p;
      f->dead_type = pt;
      return 1;
    }
    p = table[j].parent;
    pt = parent_type(pt);
  }
  return 0;
}

int lsk__handle_check(lsk_context *msg, const void *h, lsk__htype type, const char *fn,
                      const char *what)
{
  if (!h)
    return lsk__fail(msg, LSK_EINVAL, "%s: %s is NULL", fn, what);
  finding f;
  size_t i;
  pthread_mutex_lock(&lock);
  int bad = look_up(h, type, 1, &f, &i);
  pthread_mutex_unlock(&lock);
  return bad ? report(msg, h, type, fn, what, &f) : LSK_OK;
}

int lsk__handle_remove(const void *h, lsk__htype type, const char *fn)
{
  finding f;
  size_t i;
  pthread_mutex_lock(&lock);
  int bad = look_up(h, type, 0, &f, &i);
  if (!bad)
    remove_at(i);
  pthread_mutex_unlock(&lock);
  return bad ? report(NULL, h, type, fn, lsk__htype_name(type) + 4, &f) : LSK_OK;
}

int lsk__handle_live(const void *h, lsk__htype type)
{
  if (!h)
    return 0;
  pthread_mutex_lock(&lock);
  size_t i = cap ? find(h) : 0;
  int live = cap && table[i].h == h && table[i].type == type;
  pthread_mutex_unlock(&lock);
  return live;
}
