/*
 * parts.h: the SoA layout of the SoA tests, written once in C, with a fill
 * pattern and the plain C reference of tests/soa_kernels.cl's compute.
 */
#ifndef LSK_TEST_PARTS_H
#define LSK_TEST_PARTS_H

#include <stddef.h>

#include "testutil.h"

#define PARTS_MEMBERS(COLUMN, MATRIX, SCALAR)                                                      \
  COLUMN(double, a)                                                                                \
  COLUMN(float, b)                                                                                 \
  MATRIX(float, 3, 3, m)                                                                           \
  MATRIX(double, 3, 1, v)                                                                          \
  COLUMN(double2, w)                                                                               \
  COLUMN(uint, id)                                                                                 \
  SCALAR(double, s)                                                                                \
  COLUMN(double, out)
LSK_SOA_DEFINE(parts, 128, PARTS_MEMBERS)

static inline void parts_fill(parts *p, size_t n)
{
  for (size_t i = 0; i < n; ++i) {
    p->a[i] = 0.5 + (double)(i % 97);
    p->b[i] = (float)(i % 13) - 6.0f;
    for (int k = 0; k < 9; ++k)
      p->m[i + k * p->m_stride] = (float)((i * 7 + (size_t)k) % 23);
    for (int k = 0; k < 3; ++k)
      p->v[i + k * p->v_stride] = (double)k * 0.25 + (double)(i % 5);
    p->w[i].s[0] = (double)(i % 11);
    p->w[i].s[1] = -(double)(i % 3);
    p->id[i] = (cl_uint)(i * 3);
    p->out[i] = -1;
  }
  p->s[0] = 1.5;
}

/* The kernel's formula in plain C, from the same host arrays. */
static inline double parts_reference(const parts *p, size_t i)
{
  return p->a[i] * p->b[i] + (double)(p->m[i + 6 * p->m_stride] - p->m[i + 2 * p->m_stride]) +
         p->v[i + p->v_stride] * p->w[i].s[0] + p->w[i].s[1] * p->s[0] + (double)p->id[i];
}

#endif /* LSK_TEST_PARTS_H */
