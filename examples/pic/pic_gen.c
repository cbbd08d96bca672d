/*
 * pic_gen.c: the binning example's initial particles from the
 * counter-based generator (lsk_pic_generate, examples/pic/pic_gen.cl) and
 * the hash of a whole state (lsk_pic_checksum), which `lsk demo pic` and
 * the MPI driver print.
 */
#include <stdlib.h>
#include <string.h>

#include "pic.h"

extern const char pic_gen_kernel_source[];

_Static_assert(sizeof(lsk_particle) == 20, "a particle is five 32-bit words");

int lsk_pic_generate(lsk_context *ctx, unsigned gx, unsigned gy, uint64_t seed, uint32_t first_id,
                     size_t n, const lsk_algo_options *opt, lsk_particle *out)
{
  static const char fn[] = "lsk_pic_generate";
  int rc = lsk_handle_check(NULL, ctx, &lsk_context_handle_type, fn, "ctx");
  if (rc)
    return rc;
  if (!out)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: out is NULL", fn);
  if (gx == 0 || gy == 0 || gx > LSK_PIC_MAX_EXTENT || gy > LSK_PIC_MAX_EXTENT)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: grid %ux%u: extents must be from 1 to %u",
                                 fn, gx, gy, LSK_PIC_MAX_EXTENT);
  if (first_id == 0)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: first id 0 (ids start at 1)", fn);
  if (n > (1u << 31) || (n && n - 1 > UINT32_MAX - first_id))
    return lsk_context_set_error(ctx, LSK_EINVAL,
                                 "%s: %zu particles from id %u: at most 2^31, ids below 2^32", fn,
                                 n, first_id);
  if (n == 0)
    return LSK_OK;
  unsigned tile = opt && opt->tile ? opt->tile : 256;
  if (tile > LSK_MAX_DOMAIN)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: tile %u above %u", fn, tile, LSK_MAX_DOMAIN);
  size_t tiles = (n + tile - 1) / tile;
  lsk_launch l = {.domain = {tile},
                  .blocks = {opt && opt->blocks
                                 ? opt->blocks
                                 : lsk_auto_blocks(lsk_context_device(ctx), tiles, 1, 0)},
                  .workers = opt ? opt->workers : 0,
                  .simd = opt ? opt->simd : 0};
  lsk_program *prog = NULL;
  lsk_kernel *k = NULL;
  lsk_buffer *buf = NULL;
  lsk_program_options po = {.name = "pic_gen.cl"};
  rc = lsk_program_create(ctx, pic_gen_kernel_source, &po, &prog);
  if (!rc)
    rc = lsk_kernel_create(prog, "pic_generate", &k);
  if (!rc)
    rc = lsk_buffer_create(ctx, n * sizeof *out, &buf);
  if (!rc)
    rc = lsk_kernel_launch(k, &l,
                           LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(first_id),
                                    LSK_ARG_UINT((uint32_t)n), LSK_ARG_UINT(gx), LSK_ARG_UINT(gy),
                                    LSK_ARG_ULONG(seed), LSK_ARG_UINT(LSK_PIC_RANDOM_STREAM)),
                           NULL);
  if (!rc)
    rc = lsk_buffer_read(buf, 0, out, n * sizeof *out, NULL);
  if (!rc)
    rc = lsk_context_finish(ctx);
  lsk_buffer_destroy(buf);
  lsk_kernel_destroy(k);
  lsk_program_destroy(prog);
  return rc;
}

static int cmp_particle(const void *a, const void *b)
{
  const lsk_particle *x = a, *y = b;
  if (x->id != y->id)
    return (x->id > y->id) - (x->id < y->id);
  int32_t u[4] = {x->x, x->y, x->vx, x->vy}, v[4] = {y->x, y->y, y->vx, y->vy};
  for (int i = 0; i < 4; ++i)
    if (u[i] != v[i])
      return (u[i] > v[i]) - (u[i] < v[i]);
  return 0;
}

/* FNV-1a 64 over a word's four bytes, low first. */
static uint64_t fnv_word(uint64_t h, uint32_t w)
{
  for (int i = 0; i < 4; ++i) {
    h ^= (w >> (8 * i)) & 0xffu;
    h *= 0x100000001b3ull;
  }
  return h;
}

int lsk_pic_checksum(const lsk_particle *p, size_t n, uint64_t *out)
{
  static const char fn[] = "lsk_pic_checksum";
  if (!out)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: out is NULL", fn);
  if (!p && n)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: p is NULL", fn);
  lsk_particle *s = malloc((n ? n : 1) * sizeof *s);
  if (!s)
    return lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory for %zu particles", fn,
                                 n);
  if (n)
    memcpy(s, p, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_particle);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) {
    h = fnv_word(h, s[i].id);
    h = fnv_word(h, (uint32_t)s[i].x);
    h = fnv_word(h, (uint32_t)s[i].y);
    h = fnv_word(h, (uint32_t)s[i].vx);
    h = fnv_word(h, (uint32_t)s[i].vy);
  }
  free(s);
  *out = h;
  return LSK_OK;
}
