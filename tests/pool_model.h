/*
 * pool_model.h: a plain-C model of the pool allocator's semantics
 * (docs/dynamic-memory.md, The pool and The GC) for the tests: which cells the next allocations
 * get, and the exact free list after a GC, given the order in which the
 * device recorded the recycles.
 */
#ifndef LSK_POOL_MODEL_H
#define LSK_POOL_MODEL_H

#include <stdlib.h>
#include <string.h>

typedef struct pool_model {
  unsigned cap, nfree, fresh, cursor;
  unsigned *free; /* cap entries */
} pool_model;

static inline void pm_init(pool_model *m, unsigned cap)
{
  memset(m, 0, sizeof *m);
  m->cap = cap;
  m->free = calloc(cap ? cap : 1, sizeof *m->free);
}

static inline void pm_free(pool_model *m) { free(m->free); }

/* The cell for cursor value c, or 0xffffffff. */
static inline unsigned pm_take(const pool_model *m, unsigned c)
{
  if (c < m->nfree)
    return m->free[c];
  return c - m->nfree < m->cap - m->fresh ? m->fresh + (c - m->nfree) : 0xffffffffu;
}

/* k allocations: their cells (some 0xffffffff past exhaustion) into out. */
static inline void pm_alloc(pool_model *m, unsigned k, unsigned *out)
{
  for (unsigned j = 0; j < k; ++j)
    out[j] = pm_take(m, m->cursor + j);
  m->cursor += k;
}

/* The GC with the recycled list rec[0..nrec): the free list's unused part
 * moves to the front (the remaining tail if it is shorter than the used
 * head, else the last `used` entries fill the head), then rec is appended. */
static inline void pm_gc(pool_model *m, const unsigned *rec, unsigned nrec)
{
  unsigned avail = m->nfree + (m->cap - m->fresh);
  unsigned used = m->cursor < m->nfree ? m->cursor : m->nfree, rem = m->nfree - used;
  unsigned taken = m->cursor < avail ? m->cursor : avail;
  if (rem < used)
    memmove(m->free, m->free + used, rem * sizeof *m->free);
  else
    memmove(m->free, m->free + rem, used * sizeof *m->free);
  if (nrec > m->cap - rem)
    nrec = m->cap - rem;
  memcpy(m->free + rem, rec, nrec * sizeof *rec);
  m->nfree = rem + nrec;
  m->fresh += taken - used;
  m->cursor = 0;
}

#endif /* LSK_POOL_MODEL_H */
