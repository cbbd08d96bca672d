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
  uint32_t most;  /* digis per module at most */
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
  if (x < 0 || y < 0 || x >= (int)LSK_PIXEL_NX || y >= (int)LSK_PIXEL_NY || g->n - first >= g->most)
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

/* Module m's digis: nclus clusters (the default mix's own count where
 * nclus is UINT32_MAX), noise, shuffled. */
static int module(gen *g, uint32_t m, uint32_t nclus)
{
  size_t first = g->n;
  uint32_t truth = 0;
  if (nclus == UINT32_MAX) {
    uint32_t kind = below(g, 100);
    if (kind < 12)
      return LSK_OK; /* empty */
    nclus = kind < 14 ? 60 + below(g, 40) : 1 + below(g, 4) + below(g, 4);
  }
  for (uint32_t c = 0; c < nclus && g->n - first < g->most; ++c) {
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

/* PU50: each event's clusters per module (counts[modules]): a total of
 * 18,300 + 3,500 * (a sum of 12 uniforms - 6, about normal), bursts of 300
 * to 1,000 in 2 to 4 first-layer modules, the rest spread by weight (8 in
 * the first layer's 96 modules, 1 elsewhere). */
static void pu50_counts(gen *g, uint32_t modules, uint32_t *counts)
{
  double z = -6.0;
  for (int i = 0; i < 12; ++i)
    z += rnd(g) / 4294967296.0;
  double total = 18300.0 + 3500.0 * z;
  uint32_t left = total < 1000.0 ? 1000u : (uint32_t)total;
  uint32_t inner = modules < 96 ? modules : 96, wsum = 8 * inner + (modules - inner);
  memset(counts, 0, modules * sizeof *counts);
  for (uint32_t b = 2 + below(g, 3); b > 0; --b) {
    uint32_t n = 300 + below(g, 701);
    counts[below(g, inner)] += n;
    left = left > n ? left - n : 0;
  }
  for (uint32_t c = 0; c < left; ++c) {
    uint32_t w = below(g, wsum);
    counts[w < 8 * inner ? w / 8 : inner + (w - 8 * inner)] += 1;
  }
}

/* Each digi but a module's first marked invalid with probability per /
 * 10,000, from a stream of its own (the seed's events stay as they are
 * without marks). A module's first digi stays valid so that every mark
 * stays in its module (an invalid digi belongs to the module of the valid
 * one before it) and no module grows past its digis. */
static void mark_invalid(gen *g, uint64_t seed, uint32_t per)
{
  gen m = {.s = seed ^ 0x5eed1a7a11d0c0deull};
  uint32_t prev = LSK_PIXEL_INVALID; /* digi i - 1's module, unmarked */
  for (size_t i = 0; per && i < g->n; ++i) {
    uint32_t mod = g->module[i];
    if (below(&m, 10000) < per && mod == prev)
      g->module[i] = LSK_PIXEL_INVALID;
    prev = mod;
  }
}

int lsk_pixel_generate(const lsk_pixel_gen_options *opt, lsk_pixel_events **out)
{
  static const char fn[] = "lsk_pixel_generate";
  if (!out)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  uint32_t preset = opt ? opt->preset : 0;
  if (preset > LSK_PIXEL_PRESET_PU50)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: preset %u is none of LSK_PIXEL_PRESET_*",
                                 fn, preset);
  uint32_t events = opt && opt->events ? opt->events : 10;
  uint32_t modules = opt && opt->modules ? opt->modules : preset ? 1856 : 512;
  if (events > LSK_PIXEL_MAX_EVENTS || modules > LSK_PIXEL_MAX_MODULES)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %u events of %u modules: at most %u and %u",
                                 fn, events, modules, LSK_PIXEL_MAX_EVENTS, LSK_PIXEL_MAX_MODULES);
  uint32_t invalid = opt ? opt->invalid : 0;
  if (invalid > 10000 || (invalid && modules >= LSK_PIXEL_INVALID))
    return lsk_context_set_error(NULL, LSK_EINVAL,
                                 "%s: invalid %u in 10,000 with %u modules: at most 10,000, and "
                                 "invalid digis need fewer than %u modules",
                                 fn, invalid, modules, LSK_PIXEL_INVALID);
  /* The default mix stays within the ordinary path's 256 digis per module
   * (its events are the same as before there was a large-module path). */
  gen g = {.s = opt ? opt->seed : 0, .most = preset ? LSK_PIXEL_MAX_DIGIS : LSK_PIXEL_BLOCK_DIGIS};
  uint32_t *per = calloc(events, 4), *counts = preset ? calloc(modules, 4) : NULL;
  if (preset && !counts) {
    free(per);
    per = NULL;
  }
  g.grid = calloc((size_t)LSK_PIXEL_NX * LSK_PIXEL_NY, 4);
  int rc = !per || !g.grid || grow(&g) ? LSK_ENOMEM : LSK_OK;
  for (uint32_t e = 0; !rc && e < events; ++e) {
    size_t before = g.n;
    if (preset)
      pu50_counts(&g, modules, counts);
    for (uint32_t m = 0; !rc && m < modules; ++m)
      rc = module(&g, m, preset ? counts[m] : UINT32_MAX);
    per[e] = (uint32_t)(g.n - before);
    if (g.n > UINT32_MAX / 2)
      rc = lsk_context_set_error(NULL, LSK_EINVAL, "%s: %u events of %u modules: too many digis",
                                 fn, events, modules);
  }
  lsk_pixel_events *ev = NULL;
  if (rc == LSK_ENOMEM)
    rc = lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory", fn);
  if (!rc)
    mark_invalid(&g, opt ? opt->seed : 0, invalid);
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
  free(counts);
  if (rc) {
    lsk_pixel_events_destroy(ev);
    return rc;
  }
  *out = ev;
  return LSK_OK;
}
