/*
 * front_ref.c: the sparse front's C model (front.h): the grid as dense
 * arrays plus an activity flag per 16 x 16 block, stepped with the same
 * float operations in the same order as front.cl, so that the device's
 * cells and its set of active blocks can be compared with it every step.
 * The model keeps the cells of inactive blocks 0, which is what the
 * device's ambient reads give and what a recycled block holds when it is
 * activated again.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"

/* Every product and sum rounded on its own, as on the device (front.cl is
 * FP_CONTRACT OFF): clang fuses a * b + c within an expression where the
 * target has FMA unless told not to; GCC does not in ISO C (-std=c11), and
 * warns about this pragma. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

void lsk_front_params_default(lsk_front_params *p)
{
  *p = (lsk_front_params){.alpha = 0.2f,
                          .keep = 0.85f,
                          .heat = 2.0f,
                          .rate = 0.5f,
                          .ignite = 0.02f,
                          .on = 0.01f,
                          .off = 0.001f};
}

/* Whether cell (i, j) is inside the initial disc of radius r around the
 * grid's centre (the point n/2, n/2): twice the distances, in integers. */
static int in_disc(unsigned n, unsigned r, unsigned i, unsigned j)
{
  int64_t dx = 2 * (int64_t)i + 1 - n, dy = 2 * (int64_t)j + 1 - n;
  return dx * dx + dy * dy <= 4 * (int64_t)r * r;
}

int lsk_front_model_init(lsk_front_model *m, unsigned n, unsigned radius)
{
  memset(m, 0, sizeof *m);
  n = n ? n : 1024;
  radius = radius ? radius : 8;
  if (n < LSK_FRONT_MIN || n > LSK_FRONT_MAX || (n & (n - 1)) || radius >= n / 2)
    return lsk_context_set_error(
        NULL, LSK_EINVAL, "lsk_front_model_init: size %u or radius %u out of range", n, radius);
  size_t cells = (size_t)n * n;
  m->n = n;
  m->nb = n / LSK_FRONT_BLOCK;
  m->u = calloc(cells, sizeof *m->u);
  m->v = calloc(cells, sizeof *m->v);
  m->b = calloc(cells, sizeof *m->b);
  m->active = calloc((size_t)m->nb * m->nb, 1);
  if (!m->u || !m->v || !m->b || !m->active) {
    lsk_front_model_free(m);
    return lsk_context_set_error(NULL, LSK_ENOMEM, "lsk_front_model_init: out of host memory");
  }
  for (unsigned j = 0; j < n; ++j)
    for (unsigned i = 0; i < n; ++i)
      if (in_disc(n, radius, i, j)) {
        m->u[(size_t)j * n + i] = 1.0f;
        m->active[(j / LSK_FRONT_BLOCK) * m->nb + i / LSK_FRONT_BLOCK] = 1;
      }
  return LSK_OK;
}

void lsk_front_model_free(lsk_front_model *m)
{
  free(m->u);
  free(m->v);
  free(m->b);
  free(m->active);
  memset(m, 0, sizeof *m);
}

size_t lsk_front_model_active(const lsk_front_model *m)
{
  size_t k = 0;
  for (size_t i = 0; i < (size_t)m->nb * m->nb; ++i)
    k += m->active[i];
  return k;
}

/* u of cell (i, j) as the ambient get reads it: 0 beyond the grid (i, j
 * wrapped past 0 are huge) and in inactive blocks (kept 0). */
static float get_u(const lsk_front_model *m, unsigned i, unsigned j)
{
  return i < m->n && j < m->n ? m->u[(size_t)j * m->n + i] : 0.0f;
}

/* The diffuse struct-for over one active block (front.cl, front_diffuse). */
static void diffuse_block(lsk_front_model *m, unsigned bi, unsigned bj, const lsk_front_params *p)
{
  for (unsigned y = 0; y < LSK_FRONT_BLOCK; ++y)
    for (unsigned x = 0; x < LSK_FRONT_BLOCK; ++x) {
      unsigned i = bi * LSK_FRONT_BLOCK + x, j = bj * LSK_FRONT_BLOCK + y;
      size_t c = (size_t)j * m->n + i;
      float uc = m->u[c], bc = m->b[c];
      float lap = ((get_u(m, i - 1u, j) + get_u(m, i + 1u, j)) +
                   (get_u(m, i, j - 1u) + get_u(m, i, j + 1u))) -
                  4.0f * uc;
      float burn = uc > p->ignite ? p->rate * (1.0f - bc) : 0.0f;
      m->v[c] = (uc + p->alpha * lap) * p->keep + p->heat * burn;
      m->b[c] = bc + burn;
    }
}

/* The settle struct-for over one active block: u = v; deactivated (and
 * zeroed, as a recycled block comes back) if no cell is above off. */
static void settle_block(lsk_front_model *m, unsigned bi, unsigned bj, const lsk_front_params *p)
{
  int warm = 0;
  for (unsigned y = 0; y < LSK_FRONT_BLOCK; ++y) {
    size_t c = ((size_t)bj * LSK_FRONT_BLOCK + y) * m->n + bi * LSK_FRONT_BLOCK;
    for (unsigned x = 0; x < LSK_FRONT_BLOCK; ++x) {
      m->u[c + x] = m->v[c + x];
      warm |= m->u[c + x] > p->off;
    }
  }
  if (warm)
    return;
  m->active[bj * m->nb + bi] = 0;
  for (unsigned y = 0; y < LSK_FRONT_BLOCK; ++y) {
    size_t c = ((size_t)bj * LSK_FRONT_BLOCK + y) * m->n + bi * LSK_FRONT_BLOCK;
    memset(m->u + c, 0, LSK_FRONT_BLOCK * sizeof *m->u);
    memset(m->v + c, 0, LSK_FRONT_BLOCK * sizeof *m->v);
    memset(m->b + c, 0, LSK_FRONT_BLOCK * sizeof *m->b);
  }
}

/* Marks the block of cell (i, j) for activation if (i, j) is in the grid. */
static void mark(const lsk_front_model *m, uint8_t *to, unsigned i, unsigned j)
{
  if (i < m->n && j < m->n)
    to[(j / LSK_FRONT_BLOCK) * m->nb + i / LSK_FRONT_BLOCK] = 1;
}

void lsk_front_model_step(lsk_front_model *m, const lsk_front_params *p)
{
  size_t nbb = (size_t)m->nb * m->nb;
  for (size_t k = 0; k < nbb; ++k)
    if (m->active[k])
      diffuse_block(m, (unsigned)(k % m->nb), (unsigned)(k / m->nb), p);
  for (size_t k = 0; k < nbb; ++k)
    if (m->active[k])
      settle_block(m, (unsigned)(k % m->nb), (unsigned)(k / m->nb), p);
  /* The spread visits the blocks active when it starts (the struct-for's
   * element list); the blocks it activates hold zeros, so which it visits
   * first changes nothing. Marks first, then activation. */
  uint8_t *to = calloc(nbb, 1);
  for (size_t k = 0; to && k < nbb; ++k) {
    if (!m->active[k])
      continue;
    unsigned i0 = (unsigned)(k % m->nb) * LSK_FRONT_BLOCK;
    unsigned j0 = (unsigned)(k / m->nb) * LSK_FRONT_BLOCK;
    for (unsigned j = j0; j < j0 + LSK_FRONT_BLOCK; ++j)
      for (unsigned i = i0; i < i0 + LSK_FRONT_BLOCK; ++i)
        if (m->u[(size_t)j * m->n + i] > p->on) {
          mark(m, to, i - 1u, j);
          mark(m, to, i + 1u, j);
          mark(m, to, i, j - 1u);
          mark(m, to, i, j + 1u);
        }
  }
  for (size_t k = 0; to && k < nbb; ++k)
    m->active[k] |= to[k];
  free(to);
}

/* One field's cells against the model's, into d. */
static void compare_field(const lsk_front_model *m, char field, const float *got, const float *want,
                          float tol, lsk_front_diff *d)
{
  for (size_t c = 0; c < (size_t)m->n * m->n; ++c) {
    if (memcmp(&got[c], &want[c], sizeof *got) == 0)
      continue;
    ++d->inexact;
    double diff = fabs((double)got[c] - (double)want[c]);
    if (!(diff <= d->max_diff)) /* NaN too */
      d->max_diff = diff;
    double scale = fabs((double)want[c]) > 1 ? fabs((double)want[c]) : 1;
    if (diff <= (double)tol * scale)
      continue;
    if (d->cells++ == 0) {
      d->field = field;
      d->i = (unsigned)(c % m->n);
      d->j = (unsigned)(c / m->n);
      d->got = got[c];
      d->want = want[c];
    }
  }
}

int lsk_front_compare(const lsk_front_model *m, const float *u, const float *b,
                      const uint8_t *active, float tol, lsk_front_diff *d)
{
  lsk_front_diff local;
  if (!d)
    d = &local;
  *d = (lsk_front_diff){0};
  compare_field(m, 'u', u, m->u, tol, d);
  compare_field(m, 'b', b, m->b, tol, d);
  for (size_t k = 0; k < (size_t)m->nb * m->nb; ++k)
    if (!active[k] != !m->active[k] && d->blocks++ == 0) {
      d->bi = (unsigned)(k % m->nb);
      d->bj = (unsigned)(k / m->nb);
      d->active = active[k] != 0;
    }
  return d->cells == 0 && d->blocks == 0;
}
