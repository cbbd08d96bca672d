/*
 * bench/sparse_ref.c: the sparse case's C comparison, written the honest
 * way on one thread: a table of block pointers (NULL: inactive) over a
 * pool of 16 x 16-float blocks taken from a free list, the leaf's cell
 * (i, j) at (i & 15) + 16 * (j & 15) in its block, block (i >> 4) + nb *
 * (j >> 4) in the table (the first axis fastest, as lsk's). A freed block
 * is zeroed when it goes back to the list, as lsk's GC does, so a block
 * taken again reads zeros. Also the ring (sparse_case.h), which every side
 * computes the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "sparse_case.h"

const char *const sparse_op_names[SPARSE_OPS] = {"activate", "update", "dense", "deactivate"};

sparse_ring sparse_ring_of(unsigned n)
{
  uint32_t r0 = (uint32_t)((uint64_t)n * 1000 / 4096), r1 = (uint32_t)((uint64_t)n * 1100 / 4096);
  return (sparse_ring){.n = n, .centre = n / 2, .r0sq = r0 * r0, .r1sq = r1 * r1};
}

int sparse_in_ring(const sparse_ring *r, unsigned i, unsigned j)
{
  int64_t di = (int64_t)i - r->centre, dj = (int64_t)j - r->centre;
  uint64_t d = (uint64_t)(di * di + dj * dj);
  return d >= r->r0sq && d < r->r1sq;
}

int sparse_ref_init(sparse_ref *c, unsigned n, uint32_t capacity)
{
  *c = (sparse_ref){.ring = sparse_ring_of(n), .nb = n / SPARSE_BLOCK, .capacity = capacity};
  size_t blocks = (size_t)c->nb * c->nb, cells = SPARSE_BLOCK * SPARSE_BLOCK;
  c->table = calloc(blocks, sizeof *c->table);
  c->store = calloc((size_t)capacity * cells, sizeof *c->store);
  c->free_list = malloc((size_t)capacity * sizeof *c->free_list);
  if (!c->table || !c->store || !c->free_list)
    return cli_fail("bench", "sparse: out of host memory for the C structure");
  /* Block 0 on top: the first taken are the first in memory. */
  for (uint32_t k = 0; k < capacity; ++k)
    c->free_list[k] = capacity - 1 - k;
  c->nfree = capacity;
  return 0;
}

void sparse_ref_free(sparse_ref *c)
{
  free(c->table);
  free(c->store);
  free(c->free_list);
  *c = (sparse_ref){0};
}

/* The ring test of the 16 cells (i0 .. i0 + 15, j) without a branch, so
 * that it vectorizes: 32-bit arithmetic, exact for n up to 2^15. */
static int row_meets_ring(const sparse_ring *r, unsigned i0, unsigned j)
{
  int dj = (int)j - (int)r->centre, any = 0;
  for (unsigned k = 0; k < SPARSE_BLOCK; ++k) {
    int di = (int)(i0 + k) - (int)r->centre;
    uint32_t d = (uint32_t)(di * di + dj * dj);
    any |= (d >= r->r0sq) & (d < r->r1sq);
  }
  return any;
}

/* x = 1 in the ring, over every cell; the block taken where it has none.
 * A block's row of 16 cells is tested first (lsk's kernel does the same
 * per worker), then its cells one by one only where it meets the ring. */
static int activate(sparse_ref *c)
{
  unsigned n = c->ring.n;
  for (unsigned j = 0; j < n; ++j)
    for (unsigned i = 0; i < n; ++i) {
      if (i % SPARSE_BLOCK == 0 && !row_meets_ring(&c->ring, i, j)) {
        i += SPARSE_BLOCK - 1;
        continue;
      }
      if (!sparse_in_ring(&c->ring, i, j))
        continue;
      float **slot = &c->table[(i >> 4) + c->nb * (j >> 4)];
      if (!*slot) {
        if (!c->nfree)
          return cli_fail("bench", "sparse: the C pool of %u blocks ran out", c->capacity);
        *slot = c->store + (size_t)c->free_list[--c->nfree] * SPARSE_BLOCK * SPARSE_BLOCK;
      }
      (*slot)[(i & 15) + SPARSE_BLOCK * (j & 15)] = 1.0f;
    }
  return 0;
}

/* The struct-for: the active blocks, each cell of each. */
static double update(sparse_ref *c)
{
  double sum = 0;
  for (size_t b = 0; b < (size_t)c->nb * c->nb; ++b) {
    float *x = c->table[b];
    if (!x)
      continue;
    for (unsigned k = 0; k < SPARSE_BLOCK * SPARSE_BLOCK; ++k) {
      float v = 0.5f * x[k] + 1.0f;
      x[k] = v;
      sum += v;
    }
  }
  return sum;
}

/* The dense loop: every cell, looked up through the table. */
static double dense(sparse_ref *c)
{
  double sum = 0;
  unsigned n = c->ring.n;
  for (unsigned j = 0; j < n; ++j)
    for (unsigned i = 0; i < n; ++i) {
      float *x = c->table[(i >> 4) + c->nb * (j >> 4)];
      if (!x)
        continue;
      float *p = &x[(i & 15) + SPARSE_BLOCK * (j & 15)];
      float v = 0.5f * *p + 1.0f;
      *p = v;
      sum += v;
    }
  return sum;
}

static uint64_t active_cells(const sparse_ref *c)
{
  uint64_t blocks = 0;
  for (size_t b = 0; b < (size_t)c->nb * c->nb; ++b)
    blocks += c->table[b] != NULL;
  return blocks * SPARSE_BLOCK * SPARSE_BLOCK;
}

/* Every block zeroed and back on the free list, then the count (0). */
static uint64_t deactivate(sparse_ref *c)
{
  for (size_t b = 0; b < (size_t)c->nb * c->nb; ++b) {
    float *x = c->table[b];
    if (!x)
      continue;
    memset(x, 0, SPARSE_BLOCK * SPARSE_BLOCK * sizeof *x);
    c->free_list[c->nfree++] = (uint32_t)((x - c->store) / (SPARSE_BLOCK * SPARSE_BLOCK));
    c->table[b] = NULL;
  }
  return active_cells(c);
}

int sparse_ref_round(sparse_ref *c, sparse_round *out)
{
  double t0 = cli_now();
  if (activate(c))
    return 1;
  double t1 = cli_now();
  out->secs[0] = t1 - t0;
  /* The count is the check's, outside the time (lsk's is too). */
  out->value[0] = (double)active_cells(c);
  t1 = cli_now();
  out->value[1] = update(c);
  double t2 = cli_now();
  out->value[2] = dense(c);
  double t3 = cli_now();
  out->value[3] = (double)deactivate(c);
  double t4 = cli_now();
  out->secs[1] = t2 - t1;
  out->secs[2] = t3 - t2;
  out->secs[3] = t4 - t3;
  return 0;
}
