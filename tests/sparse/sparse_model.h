/*
 * sparse_model.h: a plain-C model of a sparse structure's semantics
 * (docs/sparse.md) for the tests: a dense array over the whole index
 * space for the leaf's field, and an activity mask per level over all of
 * that level's cells. It is built from the same node list the test gives
 * lsk_sparse_def_add_node, never from the library's own definition, so
 * that the index math is computed twice, independently.
 *
 * What it models:
 *   - a cell of level m is active when every node on its path (0..m) is:
 *     dense always, bitmasked by its bit, pointer by its reference;
 *   - activating sets the path; a field read through an inactive path is
 *     the ambient zero;
 *   - deactivating a bitmasked cell clears its bit and keeps the data
 *     below (reactivation shows it again); deactivating a pointer cell
 *     drops everything below it: reactivated, it reads zeros and its
 *     descendants are inactive;
 *   - a dynamic leaf: per parent cell a length; elements k < length
 *     active, their values in the dense array at coordinate k on the
 *     node's axis.
 */
#ifndef LSK_SPARSE_MODEL_H
#define LSK_SPARSE_MODEL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsk/sparse.h"

typedef struct sm_node {
  lsk_snode_kind kind;
  unsigned size[LSK_SPARSE_MAX_AXES]; /* parts per axis (1 where it divides none) */
  unsigned dyn_axis;                  /* dynamic: its axis */
} sm_node;

typedef struct sparse_model {
  unsigned nodes, axes;
  sm_node node[LSK_SPARSE_MAX_NODES];
  uint64_t ext[LSK_SPARSE_MAX_AXES];                        /* extent per axis */
  uint64_t cext[LSK_SPARSE_MAX_NODES][LSK_SPARSE_MAX_AXES]; /* cells of node m per axis */
  uint64_t cells[LSK_SPARSE_MAX_NODES];                     /* cells of node m in all */
  unsigned char *on[LSK_SPARSE_MAX_NODES];                  /* activity per cell */
  uint32_t *len;  /* dynamic leaf: length per parent cell */
  uint64_t *val;  /* the field, over the index space (bits of the value) */
  uint64_t total; /* cells of the index space */
} sparse_model;

/* The model of nodes[0..n) (as given to lsk_sparse_def_add_node). */
static inline void sm_init(sparse_model *m, const lsk_snode *nodes, unsigned n)
{
  memset(m, 0, sizeof *m);
  m->nodes = n;
  for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    m->ext[a] = 1;
  for (unsigned i = 0; i < n; ++i) {
    sm_node *s = &m->node[i];
    s->kind = nodes[i].kind;
    for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
      s->size[a] = 1;
    for (size_t k = 0; k < strlen(nodes[i].axes); ++k) {
      unsigned a = (unsigned)(nodes[i].axes[k] - 'i');
      s->size[a] = nodes[i].sizes[k];
      s->dyn_axis = a;
      if (a + 1 > m->axes)
        m->axes = a + 1;
    }
    for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a) {
      m->ext[a] *= s->size[a];
      m->cext[i][a] = m->ext[a];
    }
    m->cells[i] = m->cext[i][0] * m->cext[i][1] * m->cext[i][2];
    m->on[i] = calloc(m->cells[i], 1);
  }
  m->total = m->ext[0] * m->ext[1] * m->ext[2];
  m->val = calloc(m->total, sizeof *m->val);
  m->len = calloc(n > 1 ? m->cells[n - 2] : 1, sizeof *m->len);
}

static inline void sm_free(sparse_model *m)
{
  for (unsigned i = 0; i < m->nodes; ++i)
    free(m->on[i]);
  free(m->val);
  free(m->len);
}

static inline int sm_dynamic(const sparse_model *m)
{
  return m->nodes && m->node[m->nodes - 1].kind == LSK_SNODE_DYNAMIC;
}

/* The flat index of global coordinates c in the index space (the order
 * of lsk_sparse_read: the first axis fastest). */
static inline uint64_t sm_flat(const sparse_model *m, const uint32_t *c)
{
  return c[0] + m->ext[0] * (c[1] + m->ext[1] * (uint64_t)c[2]);
}

static inline void sm_unflat(const sparse_model *m, uint64_t f, uint32_t *c)
{
  c[0] = (uint32_t)(f % m->ext[0]);
  c[1] = (uint32_t)(f / m->ext[0] % m->ext[1]);
  c[2] = (uint32_t)(f / m->ext[0] / m->ext[1]);
}

/* The cell of node lv that holds c (for lv = -1, the root: 0). */
static inline uint64_t sm_cell(const sparse_model *m, int lv, const uint32_t *c)
{
  if (lv < 0)
    return 0;
  uint64_t idx = 0;
  for (int a = LSK_SPARSE_MAX_AXES - 1; a >= 0; --a) {
    uint64_t w = m->ext[a] / m->cext[lv][a];
    idx = idx * m->cext[lv][a] + c[a] / w;
  }
  return idx;
}

/* The origin (lowest coordinates) of node lv's cell that holds c. */
static inline void sm_origin(const sparse_model *m, int lv, const uint32_t *c, uint32_t *o)
{
  for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a) {
    uint64_t w = m->ext[a] / m->cext[lv][a];
    o[a] = (uint32_t)(c[a] / w * w);
  }
}

/* Whether the path of nodes 0..lv to c is active (the dynamic leaf: the
 * element c is below its list's length). */
static inline int sm_active(const sparse_model *m, int lv, const uint32_t *c)
{
  for (int i = 0; i <= lv; ++i) {
    const sm_node *s = &m->node[i];
    if (s->kind == LSK_SNODE_DYNAMIC) {
      if (c[s->dyn_axis] >= m->len[sm_cell(m, i - 1, c)])
        return 0;
    } else if (s->kind != LSK_SNODE_DENSE && !m->on[i][sm_cell(m, i, c)]) {
      return 0;
    }
  }
  return 1;
}

/* Drops everything below node lv's cell that holds c: the descendants'
 * activity, the lists' lengths and the values (a recycled pointer
 * block). */
static inline void sm_drop_below(sparse_model *m, int lv, const uint32_t *c)
{
  uint32_t o[LSK_SPARSE_MAX_AXES], p[LSK_SPARSE_MAX_AXES];
  uint64_t w[LSK_SPARSE_MAX_AXES];
  sm_origin(m, lv, c, o);
  for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    w[a] = m->ext[a] / m->cext[lv][a];
  for (uint64_t z = 0; z < w[2]; ++z)
    for (uint64_t y = 0; y < w[1]; ++y)
      for (uint64_t x = 0; x < w[0]; ++x) {
        p[0] = o[0] + (uint32_t)x, p[1] = o[1] + (uint32_t)y, p[2] = o[2] + (uint32_t)z;
        for (unsigned i = (unsigned)lv + 1; i < m->nodes; ++i) {
          if (m->node[i].kind == LSK_SNODE_DYNAMIC)
            m->len[sm_cell(m, (int)i - 1, p)] = 0;
          else
            m->on[i][sm_cell(m, (int)i, p)] = 0;
        }
        m->val[sm_flat(m, p)] = 0;
      }
}

/* Activates the path of nodes 0..lv to c (not a dynamic node). */
static inline void sm_activate(sparse_model *m, int lv, const uint32_t *c)
{
  for (int i = 0; i <= lv; ++i)
    if (m->node[i].kind != LSK_SNODE_DYNAMIC)
      m->on[i][sm_cell(m, i, c)] = 1;
}

/* Deactivates node lv's cell that holds c (whose path is active). */
static inline void sm_deactivate(sparse_model *m, int lv, const uint32_t *c)
{
  switch (m->node[lv].kind) {
  case LSK_SNODE_BITMASKED: m->on[lv][sm_cell(m, lv, c)] = 0; break;
  case LSK_SNODE_POINTER:
    m->on[lv][sm_cell(m, lv, c)] = 0;
    sm_drop_below(m, lv, c);
    break;
  case LSK_SNODE_DYNAMIC: {
    uint32_t p[LSK_SPARSE_MAX_AXES] = {c[0], c[1], c[2]};
    unsigned a = m->node[lv].dyn_axis;
    uint64_t cell = sm_cell(m, lv - 1, c);
    for (uint32_t k = 0; k < m->len[cell]; ++k) {
      p[a] = k;
      m->val[sm_flat(m, p)] = 0;
    }
    m->len[cell] = 0;
    break;
  }
  default: break;
  }
}

/* The field at c as the device reads it: the ambient zero when inactive. */
static inline uint64_t sm_get(const sparse_model *m, const uint32_t *c)
{
  return sm_active(m, (int)m->nodes - 1, c) ? m->val[sm_flat(m, c)] : 0;
}

/* A write that activates (not under a dynamic node). */
static inline void sm_set(sparse_model *m, const uint32_t *c, uint64_t v)
{
  sm_activate(m, (int)m->nodes - 1, c);
  m->val[sm_flat(m, c)] = v;
}

/* An append to the list at c (the dynamic axis ignored): the element's
 * index, or LSK_SPARSE_NONE when the list is full. */
static inline uint32_t sm_append(sparse_model *m, const uint32_t *c, uint64_t v)
{
  unsigned lv = m->nodes - 1, a = m->node[lv].dyn_axis;
  sm_activate(m, (int)lv - 1, c);
  uint64_t cell = sm_cell(m, (int)lv - 1, c);
  if (m->len[cell] >= m->ext[a])
    return LSK_SPARSE_NONE;
  uint32_t p[LSK_SPARSE_MAX_AXES] = {c[0], c[1], c[2]};
  p[a] = m->len[cell]++;
  m->val[sm_flat(m, p)] = v;
  return p[a];
}

/* Active cells of node lv: cells whose whole path is active (dynamic:
 * the elements of lists whose path is). */
static inline uint64_t sm_count(const sparse_model *m, int lv)
{
  uint64_t n = 0;
  uint32_t c[LSK_SPARSE_MAX_AXES];
  if (m->node[lv].kind == LSK_SNODE_DYNAMIC) {
    for (uint64_t f = 0; f < m->total; ++f) {
      sm_unflat(m, f, c);
      n += (uint64_t)sm_active(m, lv, c);
    }
    return n;
  }
  /* One point per cell: its origin. */
  for (uint64_t f = 0; f < m->total; ++f) {
    sm_unflat(m, f, c);
    uint32_t o[LSK_SPARSE_MAX_AXES];
    sm_origin(m, lv, c, o);
    if (o[0] == c[0] && o[1] == c[1] && o[2] == c[2])
      n += (uint64_t)sm_active(m, lv, c);
  }
  return n;
}

#endif /* LSK_SPARSE_MODEL_H */
