/*
 * pixel_gen.c: the pixel example's seeded event generator
 * (lsk_pixel_generate, examples/pixel/pixel.h). Per module: a few clusters
 * grown pixel by pixel from a random centre (each new pixel next to one
 * already in the cluster), their charge shared at random; one cluster in
 * ten a longer streak, as a track at a shallow angle leaves; isolated
 * noise pixels; some modules empty, a few crowded. The module's digis are
 * then shuffled, as a readout interleaves clusters.
 */
#include <stdlib.h>
#include <string.h>

#include "pixel_internal.h"

typedef struct gen {
  uint64_t s;
  /* The set so far, grown by doubling. */
  size_t n, cap;
  uint16_t *x, *y, *adc;
  uint32_t *module, *truth;
  uint32_t *grid; /* NX * NY: digi index + 1 within the module, 0 free */
} gen;

/* splitmix64: any seed, 0 included, gives a good stream. */
static uint32_t rnd(gen *g)
{
  uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static uint32_t below(gen *g, uint32_t n) { return (uint32_t)(((uint64_t)rnd(g) * n) >> 32); }

static int grow(gen *g)
{
  size_t cap = g->cap ? 2 * g->cap : 4096;
  void *p[5] = {realloc(g->x, cap * 2), NULL, NULL, NULL, NULL};
  if (p[0])
    g->x = p[0];
  p[1] = realloc(g->y, cap * 2);
  if (p[1])
    g->y = p[1];
  p[2] = realloc(g->adc, cap * 2);
  if (p[2])
    g->adc = p[2];
  p[3] = realloc(g->module, cap * 4);
  if (p[3])
    g->module = p[3];
  p[4] = realloc(g->truth, cap * 4);
  if (p[4])
    g->truth = p[4];
  for (int i = 0; i < 5; ++i)
    if (!p[i])
      return LSK_ENOMEM;
  g->cap = cap;
  return LSK_OK;
}

/* A digi at (x, y) unless the pixel is taken or the module full; 1 if
 * added. first is the module's first digi. */
static int add(gen *g, size_t first, uint32_t m, int x, int y, uint32_t adc, uint32_t truth)
{
  if (x < 0 || y < 0 || x >= (int)LSK_PIXEL_NX || y >= (int)LSK_PIXEL_NY ||
      g->n - first >= LSK_PIXEL_BLOCK_DIGIS)
    return 0;
  uint32_t *cell = &g->grid[(size_t)x * LSK_PIXEL_NY + (size_t)y];
  if (*cell || (g->n == g->cap && grow(g)))
    return 0;
  size_t i = g->n++;
  *cell = (uint32_t)(i - first + 1);
  g->x[i] = (uint16_t)x;
  g->y[i] = (uint16_t)y;
  g->adc[i] = (uint16_t)(adc < 1 ? 1 : adc > 65535 ? 65535 : adc);
  g->module[i] = m;
  g->truth[i] = truth;
  return 1;
}

/* One cluster: its pixels grown from a centre, the charge shared by
 * random weights. */
static void cluster(gen *g, size_t first, uint32_t m, uint32_t truth)
{
  int streak = below(g, 10) == 0;
  uint32_t want = streak ? 5 + below(g, 10) : 1 + below(g, 3) + below(g, 4);
  uint32_t charge = 6000 + below(g, 20000) + (streak ? 20000 : 0), w[24], sum = 0;
  int px[24], py[24];
  px[0] = (int)below(g, LSK_PIXEL_NX);
  py[0] = (int)below(g, LSK_PIXEL_NY);
  uint32_t k = 1;
  for (uint32_t tries = 0; k < want && tries < 4 * want; ++tries) {
    /* A streak walks along y; a blob grows around any of its pixels. */
    uint32_t from = streak ? k - 1 : below(g, k);
    int dx = (int)below(g, 3) - 1, dy = streak ? 1 : (int)below(g, 3) - 1;
    int x = px[from] + dx, y = py[from] + dy, dup = 0;
    for (uint32_t j = 0; j < k; ++j)
      dup |= px[j] == x && py[j] == y;
    if (!dup) {
      px[k] = x;
      py[k++] = y;
    }
  }
  for (uint32_t j = 0; j < k; ++j)
    sum += (w[j] = 1 + below(g, 100));
  for (uint32_t j = 0; j < k; ++j)
    add(g, first, m, px[j], py[j], (uint32_t)((uint64_t)charge * w[j] / sum), truth);
}

static int module(gen *g, uint32_t m)
{
  size_t first = g->n;
  uint32_t kind = below(g, 100), truth = 0;
  if (kind < 12)
    return LSK_OK; /* empty */
  uint32_t nclus = kind < 14 ? 60 + below(g, 40) : 1 + below(g, 4) + below(g, 4);
  for (uint32_t c = 0; c < nclus && g->n - first < LSK_PIXEL_BLOCK_DIGIS; ++c) {
    size_t before = g->n;
    cluster(g, first, m, truth);
    truth += g->n > before;
  }
  /* Noise: single pixels below the threshold. */
  for (uint32_t c = below(g, 3); c > 0; --c)
    truth += (uint32_t)add(g, first, m, (int)below(g, LSK_PIXEL_NX), (int)below(g, LSK_PIXEL_NY),
                           300 + below(g, 1500), truth);
  /* Shuffle (Fisher-Yates) and free the module's pixels again. */
  size_t n = g->n - first;
  for (size_t i = n; i > 1; --i) {
    size_t j = first + below(g, (uint32_t)i), a = first + i - 1;
    uint16_t t16;
    uint32_t t32;
    t16 = g->x[a], g->x[a] = g->x[j], g->x[j] = t16;
    t16 = g->y[a], g->y[a] = g->y[j], g->y[j] = t16;
    t16 = g->adc[a], g->adc[a] = g->adc[j], g->adc[j] = t16;
    t32 = g->truth[a], g->truth[a] = g->truth[j], g->truth[j] = t32;
  }
  for (size_t i = first; i < g->n; ++i)
    g->grid[(size_t)g->x[i] * LSK_PIXEL_NY + g->y[i]] = 0;
  return LSK_OK;
}

int lsk_pixel_generate(const lsk_pixel_gen_options *opt, lsk_pixel_events **out)
{
  static const char fn[] = "lsk_pixel_generate";
  if (!out)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  uint32_t events = opt && opt->events ? opt->events : 10;
  uint32_t modules = opt && opt->modules ? opt->modules : 512;
  if (events > LSK_PIXEL_MAX_EVENTS || modules > LSK_PIXEL_MAX_MODULES)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %u events of %u modules: at most %u and %u",
                                 fn, events, modules, LSK_PIXEL_MAX_EVENTS, LSK_PIXEL_MAX_MODULES);
  gen g = {.s = opt ? opt->seed : 0};
  uint32_t *per = calloc(events, 4);
  g.grid = calloc((size_t)LSK_PIXEL_NX * LSK_PIXEL_NY, 4);
  int rc = !per || !g.grid || grow(&g) ? LSK_ENOMEM : LSK_OK;
  for (uint32_t e = 0; !rc && e < events; ++e) {
    size_t before = g.n;
    for (uint32_t m = 0; !rc && m < modules; ++m)
      rc = module(&g, m);
    per[e] = (uint32_t)(g.n - before);
    if (g.n > UINT32_MAX / 2)
      rc = lsk_context_set_error(NULL, LSK_EINVAL, "%s: %u events of %u modules: too many digis",
                                 fn, events, modules);
  }
  lsk_pixel_events *ev = NULL;
  if (rc == LSK_ENOMEM)
    rc = lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory", fn);
  if (!rc)
    rc = lsk_pixel_events_create(events, modules, g.n, 1, &ev);
  if (!rc) {
    memcpy(ev->x, g.x, g.n * 2);
    memcpy(ev->y, g.y, g.n * 2);
    memcpy(ev->adc, g.adc, g.n * 2);
    memcpy(ev->module, g.module, g.n * 4);
    memcpy(ev->truth, g.truth, g.n * 4);
    rc = lsk_pixel_events_index(ev, per);
  }
  free(g.x);
  free(g.y);
  free(g.adc);
  free(g.module);
  free(g.truth);
  free(g.grid);
  free(per);
  if (rc) {
    lsk_pixel_events_destroy(ev);
    return rc;
  }
  *out = ev;
  return LSK_OK;
}
