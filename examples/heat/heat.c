/*
 * heat.c: the heat-diffusion example (heat.h) on lsk's public API: the
 * two fields, the kernels of heat.cl, and the plain C reference.
 */
#include <stdlib.h>
#include <string.h>

#include "heat.h"

extern const char heat_kernel_source[];

struct lsk_heat {
  lsk_handle h; /* first: lsk checks the handle on every call */
  lsk_context *ctx;
  lsk_grid_box box;
  size_t storage[3];
  float alpha;
  lsk_queue *q;
  lsk_program *prog;
  lsk_kernel *interior, *rim;
  lsk_buffer *u, *v; /* current and next field */
};
static const lsk_handle_type heat_type = {"lsk_heat", &lsk_context_handle_type, 0};

/* Elements per block of the kernels' loops. */
#define TILE 256u

void lsk_heat_destroy(lsk_heat *h)
{
  if (!h || lsk_handle_remove(h, &heat_type, "lsk_heat_destroy"))
    return;
  lsk_kernel_destroy(h->interior);
  lsk_kernel_destroy(h->rim);
  lsk_program_destroy(h->prog);
  lsk_buffer_destroy(h->u);
  lsk_buffer_destroy(h->v);
  free(h);
}

float lsk_heat_initial(uint64_t seed, size_t x, size_t y)
{
  /* splitmix64 of the cell and the seed; 24 bits, exact in float. */
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + ((uint64_t)y << 32 ^ (uint64_t)x) + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (float)(z >> 40) * (100.0f / 16777216.0f);
}

/* Both fields: the own cells from lsk_heat_initial, every guard 0. */
static int init_fields(lsk_heat *h, uint64_t seed)
{
  size_t n = h->storage[0] * h->storage[1];
  float *f = calloc(n, sizeof *f);
  if (!f)
    return lsk_context_set_error(h->ctx, LSK_ENOMEM, "lsk_heat_create: out of host memory");
  for (size_t j = 0; j < h->box.extent[1]; ++j)
    for (size_t i = 0; i < h->box.extent[0]; ++i)
      f[lsk_grid_box_index(&h->box, i, j, 0)] =
          lsk_heat_initial(seed, h->box.offset[0] + i, h->box.offset[1] + j);
  int rc = lsk_buffer_write(h->u, 0, f, n * sizeof *f, NULL);
  memset(f, 0, n * sizeof *f);
  if (!rc)
    rc = lsk_buffer_write(h->v, 0, f, n * sizeof *f, NULL);
  free(f);
  return rc;
}

int lsk_heat_create(lsk_context *ctx, const lsk_grid_box *box, const lsk_heat_options *opt,
                    lsk_heat **out)
{
  static const char fn[] = "lsk_heat_create";
  if (out)
    *out = NULL;
  int rc = lsk_handle_check(NULL, ctx, &lsk_context_handle_type, fn, "ctx");
  if (rc)
    return rc;
  if (!box || !out)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: %s is NULL", fn, !box ? "box" : "out");
  if (box->dims != 2 || box->guard != 1 || !box->periodic[0] || box->periodic[1])
    return lsk_context_set_error(ctx, LSK_EINVAL,
                                 "%s: the box must be 2-D with guard 1, periodic in x only "
                                 "(dims %u, guard %u, periodic %d %d)",
                                 fn, box->dims, box->guard, box->periodic[0], box->periodic[1]);
  lsk_heat_options o = opt ? *opt : (lsk_heat_options){0};
  float alpha = o.alpha == 0 ? 0.2f : o.alpha;
  if (!(alpha > 0 && alpha <= 0.25f))
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: alpha %g is not in (0, 0.25]", fn,
                                 (double)alpha);
  lsk_heat *h = calloc(1, sizeof *h);
  if (!h)
    return lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if ((rc = lsk_handle_add(h, &heat_type, ctx))) {
    free(h);
    return rc;
  }
  h->ctx = ctx;
  h->box = *box;
  h->alpha = alpha;
  h->q = o.queue;
  size_t n = lsk_grid_box_storage(box, h->storage);
  lsk_program_options po = {.name = "heat.cl"};
  if (!(rc = lsk_program_create(ctx, heat_kernel_source, &po, &h->prog)) &&
      !(rc = lsk_kernel_create(h->prog, "heat_interior", &h->interior)) &&
      !(rc = lsk_kernel_create(h->prog, "heat_rim", &h->rim)) &&
      !(rc = lsk_buffer_create(ctx, n * sizeof(float), &h->u)) &&
      !(rc = lsk_buffer_create(ctx, n * sizeof(float), &h->v)))
    rc = init_fields(h, o.seed);
  if (rc) {
    lsk_heat_destroy(h);
    return rc;
  }
  *out = h;
  return LSK_OK;
}

lsk_buffer *lsk_heat_field(const lsk_heat *h)
{
  if (!h || lsk_handle_check(NULL, h, &heat_type, "lsk_heat_field", "h"))
    return NULL;
  return h->u;
}

static int launch(lsk_heat *h, lsk_kernel *k, size_t cells)
{
  if (cells == 0)
    return LSK_OK;
  size_t blocks = (cells + TILE - 1) / TILE;
  lsk_launch l = {.domain = {TILE}, .blocks = {blocks < 4096 ? blocks : 4096}};
  lsk_async on = {.queue = h->q};
  lsk_arg args[] = {LSK_ARG_BUFFER(h->u),
                    LSK_ARG_BUFFER(h->v),
                    LSK_ARG_UINT((uint32_t)h->box.extent[0]),
                    LSK_ARG_UINT((uint32_t)h->box.extent[1]),
                    LSK_ARG_UINT((uint32_t)h->storage[0]),
                    LSK_ARG_FLOAT(h->alpha)};
  return lsk_kernel_launch(k, &l, args, 6, &on);
}

int lsk_heat_interior(lsk_heat *h)
{
  int rc = lsk_handle_check(NULL, h, &heat_type, "lsk_heat_interior", "h");
  if (rc)
    return rc;
  size_t ex = h->box.extent[0], ey = h->box.extent[1];
  return launch(h, h->interior, ex > 2 && ey > 2 ? (ex - 2) * (ey - 2) : 0);
}

int lsk_heat_rim(lsk_heat *h)
{
  int rc = lsk_handle_check(NULL, h, &heat_type, "lsk_heat_rim", "h");
  if (rc)
    return rc;
  size_t ex = h->box.extent[0], ey = h->box.extent[1];
  size_t rows = ey < 2 ? ey : 2, cols = ex < 2 ? ex : 2, inner = ey > 2 ? ey - 2 : 0;
  rc = launch(h, h->rim, ex * rows + inner * cols);
  if (!rc) {
    lsk_buffer *t = h->u;
    h->u = h->v;
    h->v = t;
  }
  return rc;
}

int lsk_heat_step(lsk_heat *h, lsk_halo *halo)
{
  int rc = lsk_handle_check(NULL, h, &heat_type, "lsk_heat_step", "h");
  if (rc)
    return rc;
  lsk_async on = {.queue = h->q};
  if ((rc = lsk_halo_fill(halo, LSK_TYPE_FLOAT, h->u, NULL, &on)))
    return rc;
  if ((rc = lsk_heat_interior(h)))
    return rc;
  return lsk_heat_rim(h);
}

int lsk_heat_reference(size_t gx, size_t gy, float alpha, unsigned steps, float *u)
{
  if (!u || gx == 0 || gy == 0)
    return lsk_context_set_error(NULL, LSK_EINVAL, "lsk_heat_reference: %s",
                                 !u ? "u is NULL" : "an extent is 0");
  float *v = malloc(gx * gy * sizeof *v);
  if (!v)
    return lsk_context_set_error(NULL, LSK_ENOMEM, "lsk_heat_reference: out of host memory");
  for (unsigned s = 0; s < steps; ++s) {
    for (size_t y = 0; y < gy; ++y)
      for (size_t x = 0; x < gx; ++x) {
        float c = u[y * gx + x];
        float w = u[y * gx + (x + gx - 1) % gx], e = u[y * gx + (x + 1) % gx];
        float so = y > 0 ? u[(y - 1) * gx + x] : 0.0f, no = y + 1 < gy ? u[(y + 1) * gx + x] : 0.0f;
        float sum = (w + e) + (so + no);
        v[y * gx + x] = c + alpha * (sum - 4.0f * c);
      }
    memcpy(u, v, gx * gy * sizeof *v);
  }
  free(v);
  return LSK_OK;
}

uint64_t lsk_heat_checksum(const float *u, size_t n)
{
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) {
    uint32_t b;
    memcpy(&b, &u[i], 4);
    for (int k = 0; k < 4; ++k) {
      hash ^= (b >> (8 * k)) & 0xffu;
      hash *= 0x100000001b3ull;
    }
  }
  return hash;
}
