/*
 * pixel_ref.c: the pixel example's host side that needs no device
 * (examples/pixel/pixel.h): event sets and their rules, the detector's
 * geometry, results, the plain C reference pipeline and the comparison.
 * The generator is in pixel_gen.c, files in pixel_file.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pixel.h"
#include "pixel_internal.h"

void lsk_pixel_events_destroy(lsk_pixel_events *ev)
{
  if (!ev)
    return;
  free(ev->x);
  free(ev->y);
  free(ev->adc);
  free(ev->module);
  free(ev->truth);
  free(ev->start);
  free(ev);
}

int lsk_pixel_events_create(uint32_t events, uint32_t modules, size_t digis, int with_truth,
                            lsk_pixel_events **out)
{
  static const char fn[] = "lsk_pixel_events_create";
  if (!out)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  if (events == 0 || events > LSK_PIXEL_MAX_EVENTS)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %u events: must be from 1 to %u", fn,
                                 events, LSK_PIXEL_MAX_EVENTS);
  if (modules == 0 || modules > LSK_PIXEL_MAX_MODULES)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %u modules: must be from 1 to %u", fn,
                                 modules, LSK_PIXEL_MAX_MODULES);
  size_t nm = (size_t)events * modules;
  if (digis > nm * LSK_PIXEL_MAX_DIGIS || digis > UINT32_MAX)
    return lsk_context_set_error(NULL, LSK_EINVAL,
                                 "%s: %zu digis: more than %u per module or 2^32 in all", fn, digis,
                                 LSK_PIXEL_MAX_DIGIS);
  lsk_pixel_events *ev = calloc(1, sizeof *ev);
  size_t d = digis ? digis : 1;
  if (ev) {
    *ev = (lsk_pixel_events){.events = events, .modules = modules, .digis = digis};
    ev->x = calloc(d, 2);
    ev->y = calloc(d, 2);
    ev->adc = calloc(d, 2);
    ev->module = calloc(d, 4);
    ev->truth = with_truth ? calloc(d, 4) : NULL;
    ev->start = calloc(nm + 1, 4);
  }
  if (!ev || !ev->x || !ev->y || !ev->adc || !ev->module || (with_truth && !ev->truth) ||
      !ev->start) {
    lsk_pixel_events_destroy(ev);
    return lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory for %zu digis", fn,
                                 digis);
  }
  ev->start[nm] = (uint32_t)digis;
  *out = ev;
  return LSK_OK;
}

int lsk_pixel_events_index(lsk_pixel_events *ev, const uint32_t *per_event)
{
  static const char fn[] = "lsk_pixel_events_index";
  if (!ev || !per_event)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %s is NULL", fn, ev ? "per_event" : "ev");
  size_t i = 0, nm = ev->modules;
  /* Pass 0 checks, pass 1 writes: a failure leaves start as it was. */
  for (int write = 0; write < 2; ++write) {
    i = 0;
    for (uint32_t e = 0; e < ev->events; ++e) {
      size_t end = i + per_event[e];
      if (end > ev->digis)
        return lsk_context_set_error(NULL, LSK_EINVAL,
                                     "%s: event %u: %u digis, only %zu left of %zu", fn, e,
                                     per_event[e], ev->digis - i, ev->digis);
      uint32_t m = 0, last = 0; /* m: the next module without a start */
      for (; i < end; ++i) {
        /* An invalid digi stays in the module of the digi before it. */
        if (px_invalid(ev, i)) {
          while (write && m <= last)
            ev->start[e * nm + m++] = (uint32_t)i;
          continue;
        }
        if (ev->module[i] < last || ev->module[i] >= nm)
          return lsk_context_set_error(
              NULL, LSK_EINVAL,
              "%s: event %u digi %zu: module %u after module %u (modules are 0 to "
              "%zu, grouped in increasing order)",
              fn, e, i, ev->module[i], last, nm - 1);
        last = ev->module[i];
        while (write && m <= last)
          ev->start[e * nm + m++] = (uint32_t)i;
      }
      while (write && m < nm)
        ev->start[e * nm + m++] = (uint32_t)i;
    }
    if (i != ev->digis)
      return lsk_context_set_error(NULL, LSK_EINVAL, "%s: the events hold %zu digis, the set %zu",
                                   fn, i, ev->digis);
  }
  ev->start[(size_t)ev->events * nm] = (uint32_t)i;
  return LSK_OK;
}

int lsk_pixel_events_check(const lsk_pixel_events *ev)
{
  static const char fn[] = "lsk_pixel_events_check";
  if (!ev)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: ev is NULL", fn);
  if (!ev->x || !ev->y || !ev->adc || !ev->module || !ev->start)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: a digi column or start is NULL", fn);
  if (ev->events == 0 || ev->events > LSK_PIXEL_MAX_EVENTS || ev->modules == 0 ||
      ev->modules > LSK_PIXEL_MAX_MODULES || ev->digis > UINT32_MAX)
    return lsk_context_set_error(NULL, LSK_EINVAL,
                                 "%s: %u events of %u modules, %zu digis: out of range", fn,
                                 ev->events, ev->modules, ev->digis);
  size_t nm = (size_t)ev->events * ev->modules;
  if (ev->start[0] != 0 || ev->start[nm] != ev->digis)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: start runs from %u to %u, want 0 to %zu",
                                 fn, ev->start[0], ev->start[nm], ev->digis);
  /* Which digi of the module holds each pixel (index + 1), to find repeats;
   * cleared module by module. */
  uint16_t *grid = calloc((size_t)LSK_PIXEL_NX * LSK_PIXEL_NY, 2);
  if (!grid)
    return lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory", fn);
  int rc = LSK_OK;
  for (size_t k = 0; k < nm && !rc; ++k) {
    size_t a = ev->start[k], b = ev->start[k + 1];
    size_t e = k / ev->modules, m = k - e * ev->modules;
    if (b < a) {
      rc = lsk_context_set_error(NULL, LSK_EINVAL, "%s: event %zu module %zu: start %zu to %zu", fn,
                                 e, m, a, b);
      break;
    }
    if (b - a > LSK_PIXEL_MAX_DIGIS) {
      rc = lsk_context_set_error(NULL, LSK_EINVAL,
                                 "%s: event %zu module %zu: %zu digis, more than %u (start %zu "
                                 "to %zu)",
                                 fn, e, m, b - a, LSK_PIXEL_MAX_DIGIS, a, b);
      break;
    }
    size_t i = a;
    for (; i < b && !rc; ++i) {
      size_t p = (size_t)ev->x[i] * LSK_PIXEL_NY + ev->y[i];
      if (px_invalid(ev, i))
        continue; /* skipped by every stage: nothing to check */
      if (ev->module[i] != m)
        rc = lsk_context_set_error(NULL, LSK_EINVAL,
                                   "%s: event %zu module %zu: digi %zu says module %u", fn, e, m,
                                   i - a, ev->module[i]);
      else if (ev->x[i] >= LSK_PIXEL_NX || ev->y[i] >= LSK_PIXEL_NY || ev->adc[i] == 0)
        rc = lsk_context_set_error(
            NULL, LSK_EINVAL,
            "%s: event %zu module %zu: digi %zu at (%u, %u) adc %u: outside %ux%u or adc 0", fn, e,
            m, i - a, ev->x[i], ev->y[i], ev->adc[i], LSK_PIXEL_NX, LSK_PIXEL_NY);
      else if (grid[p])
        rc = lsk_context_set_error(NULL, LSK_EINVAL,
                                   "%s: event %zu module %zu: digi %zu at (%u, %u) repeats digi %u",
                                   fn, e, m, i - a, ev->x[i], ev->y[i], grid[p] - 1u);
      else if (ev->truth && ev->truth[i] >= b - a)
        rc = lsk_context_set_error(NULL, LSK_EINVAL,
                                   "%s: event %zu module %zu: digi %zu: truth %u (of %zu digis)",
                                   fn, e, m, i - a, ev->truth[i], b - a);
      else
        grid[p] = (uint16_t)(i - a + 1);
    }
    for (size_t j = a; j < i; ++j)
      if (!px_invalid(ev, j) && ev->x[j] < LSK_PIXEL_NX && ev->y[j] < LSK_PIXEL_NY)
        grid[(size_t)ev->x[j] * LSK_PIXEL_NY + ev->y[j]] = 0;
  }
  free(grid);
  return rc;
}

void lsk_pixel_geometry(uint32_t modules, lsk_pixel_placement *out)
{
  /* Four barrel layers; a layer's modules on ladders of 8 along z, the
   * ladders around phi. Local x runs along phi, local y along z. */
  static const float radius[4] = {2.9f, 6.8f, 10.9f, 16.0f};
  for (uint32_t m = 0; out && m < modules; ++m) {
    uint32_t layer = (uint32_t)((uint64_t)m * 4 / modules);
    uint32_t first = (uint32_t)(((uint64_t)layer * modules + 3) / 4);
    uint32_t next = (uint32_t)(((uint64_t)(layer + 1) * modules + 3) / 4);
    uint32_t i = m - first, ladders = (next - first + 7) / 8, ladder = i / 8, zi = i - ladder * 8;
    double phi = 6.283185307179586 * (ladder + 0.5 * layer) / (ladders ? ladders : 1);
    float c = (float)cos(phi), s = (float)sin(phi);
    lsk_pixel_placement p = {
        .r = {-s, 0.0f, c, c, 0.0f, s, 0.0f, 1.0f, 0.0f},
        .t = {radius[layer] * c, radius[layer] * s, ((float)zi - 3.5f) * 6.6f},
    };
    out[m] = p;
  }
}

void lsk_pixel_result_destroy(lsk_pixel_result *r)
{
  if (!r)
    return;
  free(r->clus);
  free(r->nclus);
  free(r->clus_start);
  free(r->charge);
  free(r->hit);
  free(r->hit_start);
  free(r->hits);
  free(r);
}

int lsk_pixel_result_create(const lsk_pixel_events *ev, lsk_pixel_result **out)
{
  static const char fn[] = "lsk_pixel_result_create";
  if (!out)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  if (!ev)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: ev is NULL", fn);
  if (ev->events == 0 || ev->events > LSK_PIXEL_MAX_EVENTS || ev->modules == 0 ||
      ev->modules > LSK_PIXEL_MAX_MODULES || ev->digis > UINT32_MAX)
    return lsk_context_set_error(
        NULL, LSK_EINVAL, "%s: ev has %u events, %u modules, %zu digis (limits %u, %u, 2^32 - 1)",
        fn, ev->events, ev->modules, ev->digis, LSK_PIXEL_MAX_EVENTS, LSK_PIXEL_MAX_MODULES);
  size_t nm = (size_t)ev->events * ev->modules, d = ev->digis ? ev->digis : 1;
  lsk_pixel_result *r = calloc(1, sizeof *r);
  if (r) {
    r->cap_digis = ev->digis;
    r->cap_modules = nm;
    r->clus = malloc(d * 4);
    r->nclus = malloc(nm * 4);
    r->clus_start = malloc((nm + 1) * 4);
    r->charge = malloc(d * 4);
    r->hit = malloc(d * 4);
    r->hit_start = malloc((nm + 1) * 4);
    r->hits = malloc(d * sizeof *r->hits);
  }
  if (!r || !r->clus || !r->nclus || !r->clus_start || !r->charge || !r->hit || !r->hit_start ||
      !r->hits) {
    lsk_pixel_result_destroy(r);
    return lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory for %zu digis", fn,
                                 ev->digis);
  }
  *out = r;
  return LSK_OK;
}

int px_result_fits(const lsk_pixel_result *r, const lsk_pixel_events *ev, const char *fn)
{
  size_t nm = (size_t)ev->events * ev->modules;
  if (r->cap_digis < ev->digis || r->cap_modules < nm)
    return lsk_context_set_error(
        NULL, LSK_EINVAL, "%s: the result holds %zu digis and %zu modules, the events %zu and %zu",
        fn, r->cap_digis, r->cap_modules, ev->digis, nm);
  return LSK_OK;
}

/* Union-find: link the larger root under the smaller, so a set's root is
 * its smallest digi (the device's fixed point too). */
static uint32_t find(uint32_t *parent, uint32_t i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* One module: cluster ids of digis [a, b), returns the number of
 * clusters. grid (NX * NY, zero) holds index + 1 of each digi meanwhile;
 * parent has room for LSK_PIXEL_MAX_DIGIS. */
static uint32_t cluster_module(const lsk_pixel_events *ev, size_t a, size_t b, uint32_t *grid,
                               uint32_t *parent, uint32_t *clus)
{
  uint32_t n = (uint32_t)(b - a), k = 0;
  /* Invalid digis take no pixel and no part. */
  for (uint32_t i = 0; i < n; ++i) {
    parent[i] = i;
    if (!px_invalid(ev, a + i))
      grid[(size_t)ev->x[a + i] * LSK_PIXEL_NY + ev->y[a + i]] = i + 1;
  }
  /* Half the neighbours each: every pair is met once. */
  static const int nb[4][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}};
  for (uint32_t i = 0; i < n; ++i) {
    int x = ev->x[a + i], y = ev->y[a + i];
    for (int j = 0; j < 4 && !px_invalid(ev, a + i); ++j) {
      int u = x + nb[j][0], v = y + nb[j][1];
      if (u < 0 || v < 0 || v >= (int)LSK_PIXEL_NY)
        continue;
      uint32_t o = grid[(size_t)u * LSK_PIXEL_NY + v];
      if (!o)
        continue;
      uint32_t ra = find(parent, i), rb = find(parent, o - 1);
      if (ra < rb)
        parent[rb] = ra;
      else if (rb < ra)
        parent[ra] = rb;
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (px_invalid(ev, a + i)) {
      clus[a + i] = LSK_PIXEL_INVALID_CLUSTER;
      continue;
    }
    uint32_t r = find(parent, i);
    clus[a + i] = r == i ? k++ : clus[a + r];
    grid[(size_t)ev->x[a + i] * LSK_PIXEL_NY + ev->y[a + i]] = 0;
  }
  return k;
}

int px_cuts_usable(lsk_context *ctx, const char *fn, const lsk_pixel_cut *cuts, uint32_t n)
{
  if (n == 0 || n > LSK_PIXEL_MAX_CUTS)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: ncuts %u: must be 1 to %u", fn, n,
                                 LSK_PIXEL_MAX_CUTS);
  if (cuts[0].first_module != 0)
    return lsk_context_set_error(ctx, LSK_EINVAL, "%s: cuts[0].first_module is %u, want 0", fn,
                                 cuts[0].first_module);
  for (uint32_t i = 1; i < n; ++i)
    if (cuts[i].first_module <= cuts[i - 1].first_module)
      return lsk_context_set_error(ctx, LSK_EINVAL,
                                   "%s: cuts[%u].first_module %u is not above cuts[%u]'s %u", fn, i,
                                   cuts[i].first_module, i - 1, cuts[i - 1].first_module);
  return LSK_OK;
}

/* Module m's threshold under cuts (usable). */
static uint32_t cut_of(const lsk_pixel_cut *cuts, uint32_t n, uint32_t m)
{
  uint32_t t = cuts[0].threshold;
  for (uint32_t i = 1; i < n && cuts[i].first_module <= m; ++i)
    t = cuts[i].threshold;
  return t;
}

int lsk_pixel_reference(const lsk_pixel_events *ev, uint32_t threshold, lsk_pixel_result *r)
{
  if (!ev || !r)
    return lsk_context_set_error(NULL, LSK_EINVAL, "lsk_pixel_reference: %s is NULL",
                                 ev ? "r" : "ev");
  lsk_pixel_cut one = {0, threshold};
  int rc = lsk_pixel_reference_cuts(ev, &one, 1, 0, r);
  const char *why = strchr(lsk_context_errmsg(NULL), ':');
  if (rc) /* under this function's name */
    return lsk_context_set_error(NULL, rc, "lsk_pixel_reference%s", why ? why : ": failed");
  return LSK_OK;
}

static int reference(const lsk_pixel_events *ev, const lsk_pixel_cut *cuts, uint32_t ncuts,
                     int strict, const float *bs, lsk_pixel_result *r, const char *fn);

int lsk_pixel_reference_cuts(const lsk_pixel_events *ev, const lsk_pixel_cut *cuts, uint32_t ncuts,
                             int strict, lsk_pixel_result *r)
{
  static const float origin[3] = {0.0f, 0.0f, 0.0f};
  return reference(ev, cuts, ncuts, strict, origin, r, "lsk_pixel_reference_cuts");
}

int lsk_pixel_reference_opt(const lsk_pixel_events *ev, const lsk_pixel_options *opt,
                            lsk_pixel_result *r)
{
  static const lsk_pixel_options none = {0};
  if (!opt)
    opt = &none;
  lsk_pixel_cut one = {0, opt->threshold ? opt->threshold : LSK_PIXEL_THRESHOLD};
  if (opt->ncuts && !opt->cuts)
    return lsk_context_set_error(NULL, LSK_EINVAL, "lsk_pixel_reference_opt: opt->cuts is NULL");
  return reference(ev, opt->cuts ? opt->cuts : &one, opt->cuts ? opt->ncuts : 1, opt->strict,
                   opt->beam_spot, r, "lsk_pixel_reference_opt");
}

/* The reference pipeline: cuts (NULL: the default threshold), strict,
 * the beam spot bs; messages under fn. */
static int reference(const lsk_pixel_events *ev, const lsk_pixel_cut *cuts, uint32_t ncuts,
                     int strict, const float *bs, lsk_pixel_result *r, const char *fn)
{
  lsk_pixel_cut dflt = {0, LSK_PIXEL_THRESHOLD};
  if (!cuts) {
    cuts = &dflt;
    ncuts = 1;
  }
  if (!ev || !r)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %s is NULL", fn, ev ? "r" : "ev");
  /* Memory safety: the working arrays hold LSK_PIXEL_MAX_DIGIS. */
  int rc = px_result_fits(r, ev, fn);
  if (!rc)
    rc = px_events_usable(NULL, fn, ev, LSK_PIXEL_MAX_DIGIS);
  if (!rc)
    rc = px_cuts_usable(NULL, fn, cuts, ncuts);
  if (rc)
    return rc;
  size_t nm = (size_t)ev->events * ev->modules;
  uint32_t *grid = calloc((size_t)LSK_PIXEL_NX * LSK_PIXEL_NY, 4);
  lsk_pixel_placement *pl = malloc(ev->modules * sizeof *pl);
  /* A module's working arrays: on the heap (a module of 4096 digis
   * would take 176 KiB of a thread's stack). */
  uint32_t *parent = malloc(LSK_PIXEL_MAX_DIGIS * sizeof *parent);
  px_sums *s = malloc(LSK_PIXEL_MAX_DIGIS * sizeof *s);
  if (!grid || !pl || !parent || !s) {
    free(grid);
    free(pl);
    free(parent);
    free(s);
    return lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory", fn);
  }
  lsk_pixel_geometry(ev->modules, pl);
  r->modules = nm;
  r->digis = ev->digis;
  r->skipped = 0;
  size_t c0 = 0, h = 0;
  for (size_t k = 0; k < nm; ++k) {
    size_t a = ev->start[k], b = ev->start[k + 1];
    uint32_t nk = cluster_module(ev, a, b, grid, parent, r->clus);
    r->nclus[k] = nk;
    r->clus_start[k] = (uint32_t)c0;
    for (uint32_t c = 0; c < nk; ++c)
      s[c] = (px_sums){.xmin = 0xffff, .ymin = 0xffff};
    for (size_t i = a; i < b; ++i) {
      if (r->clus[i] == LSK_PIXEL_INVALID_CLUSTER) {
        ++r->skipped;
        continue;
      }
      px_sums *p = &s[r->clus[i]];
      p->q += ev->adc[i];
      p->xmin = ev->x[i] < p->xmin ? ev->x[i] : p->xmin;
      p->ymin = ev->y[i] < p->ymin ? ev->y[i] : p->ymin;
    }
    for (size_t i = a; i < b; ++i) {
      if (r->clus[i] == LSK_PIXEL_INVALID_CLUSTER)
        continue;
      px_sums *p = &s[r->clus[i]];
      uint64_t q = ev->adc[i], dx = ev->x[i] - p->xmin, dy = ev->y[i] - p->ymin;
      p->sx += q * dx;
      p->sy += q * dy;
      p->sxx += q * dx * dx;
      p->syy += q * dy * dy;
    }
    r->hit_start[k] = (uint32_t)h;
    uint32_t pm = (uint32_t)(k - k / ev->modules * ev->modules);
    const lsk_pixel_placement *place = &pl[pm];
    uint32_t threshold = cut_of(cuts, ncuts, pm);
    for (uint32_t c = 0; c < nk; ++c) {
      r->charge[c0 + c] = s[c].q;
      r->hit[c0 + c] = LSK_PIXEL_NONE;
      if (strict ? s[c].q <= threshold : s[c].q < threshold)
        continue; /* masked */
      r->hit[c0 + c] = (uint32_t)h;
      px_hit_of(&s[c], place, bs, &r->hits[h]);
      r->hits[h].module = (uint32_t)k;
      r->hits[h].cluster = (uint32_t)(c0 + c);
      ++h;
    }
    c0 += nk;
  }
  r->hit_start[nm] = (uint32_t)h;
  r->clus_start[nm] = (uint32_t)c0;
  r->clusters = c0;
  r->nhits = h;
  free(grid);
  free(pl);
  free(parent);
  free(s);
  return LSK_OK;
}

_Static_assert(sizeof(lsk_pixel_hit) == 60, "lsk_pixel_hit has no padding (memcmp of hits)");

/* The hit of a cluster, from its exact sums: the same float operations as
 * px_hit in examples/pixel/pixel.cl. */
void px_hit_of(const px_sums *s, const lsk_pixel_placement *p, const float *bs, lsk_pixel_hit *h)
{
  float q = (float)s->q;
  float mx = (float)s->sx / q, my = (float)s->sy / q;
  float vx = fmaxf((float)s->sxx / q - mx * mx, 0.0f);
  float vy = fmaxf((float)s->syy / q - my * my, 0.0f);
  float x = ((float)s->xmin + mx + 0.5f - 0.5f * (float)LSK_PIXEL_NX) * LSK_PIXEL_PITCH_X;
  float y = ((float)s->ymin + my + 0.5f - 0.5f * (float)LSK_PIXEL_NY) * LSK_PIXEL_PITCH_Y;
  h->x = x;
  h->y = y;
  h->xerr = sqrtf(vx + 1.0f / 12.0f) * LSK_PIXEL_PITCH_X;
  h->yerr = sqrtf(vy + 1.0f / 12.0f) * LSK_PIXEL_PITCH_Y;
  for (int i = 0; i < 3; ++i) {
    h->g[i] = p->r[3 * i] * x + p->r[3 * i + 1] * y + p->t[i];
    h->gb[i] = h->g[i] - bs[i];
  }
  h->r = sqrtf(h->gb[0] * h->gb[0] + h->gb[1] * h->gb[1]);
  h->iphi = px_iphi(atan2f(h->gb[1], h->gb[0]));
  h->spare = 0;
  h->charge = s->q;
}

static int near(float a, float b, float tol) { return fabsf(a - b) <= tol; }

int lsk_pixel_compare(const lsk_pixel_result *want, const lsk_pixel_result *got, float tol)
{
  static const char fn[] = "lsk_pixel_compare";
  if (!want || !got)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: %s is NULL", fn, want ? "got" : "want");
  if (want->modules != got->modules || want->digis != got->digis)
    return lsk_context_set_error(NULL, LSK_EVERIFY,
                                 "%s: %zu modules and %zu digis, want %zu and %zu", fn,
                                 got->modules, got->digis, want->modules, want->digis);
  if (want->skipped != got->skipped)
    return lsk_context_set_error(NULL, LSK_EVERIFY, "%s: %zu digis skipped, want %zu", fn,
                                 got->skipped, want->skipped);
  size_t c0 = 0;
  for (size_t k = 0; k < want->modules; ++k) {
    if (got->nclus[k] != want->nclus[k])
      return lsk_context_set_error(NULL, LSK_EVERIFY, "%s: module %zu: %u clusters, want %u", fn, k,
                                   got->nclus[k], want->nclus[k]);
    if (got->clus_start[k] != c0 || want->clus_start[k] != c0)
      return lsk_context_set_error(NULL, LSK_EVERIFY,
                                   "%s: module %zu: clusters start at %u, want %u (%zu)", fn, k,
                                   got->clus_start[k], want->clus_start[k], c0);
    if (got->hit_start[k + 1] != want->hit_start[k + 1])
      return lsk_context_set_error(NULL, LSK_EVERIFY, "%s: module %zu: hits end at %u, want %u", fn,
                                   k, got->hit_start[k + 1], want->hit_start[k + 1]);
    c0 += want->nclus[k];
  }
  if (got->clus_start[want->modules] != c0 || want->clus_start[want->modules] != c0)
    return lsk_context_set_error(NULL, LSK_EVERIFY, "%s: clusters end at %u, want %u (%zu)", fn,
                                 got->clus_start[want->modules], want->clus_start[want->modules],
                                 c0);
  if (got->clusters != c0 || want->clusters != c0 || got->nhits != want->nhits)
    return lsk_context_set_error(NULL, LSK_EVERIFY,
                                 "%s: %zu clusters and %zu hits, want %zu and %zu", fn,
                                 got->clusters, got->nhits, want->clusters, want->nhits);
  for (size_t i = 0; i < want->digis; ++i)
    if (got->clus[i] != want->clus[i])
      return lsk_context_set_error(NULL, LSK_EVERIFY, "%s: digi %zu in cluster %u, want %u", fn, i,
                                   got->clus[i], want->clus[i]);
  for (size_t c = 0; c < c0; ++c)
    if (got->charge[c] != want->charge[c] || got->hit[c] != want->hit[c])
      return lsk_context_set_error(
          NULL, LSK_EVERIFY, "%s: cluster %zu: charge %u hit %d, want %u hit %d", fn, c,
          got->charge[c], (int)got->hit[c], want->charge[c], (int)want->hit[c]);
  for (size_t h = 0; h < want->nhits; ++h) {
    const lsk_pixel_hit *a = &got->hits[h], *b = &want->hits[h];
    if (a->module != b->module || a->cluster != b->cluster || a->charge != b->charge)
      return lsk_context_set_error(
          NULL, LSK_EVERIFY, "%s: hit %zu: module %u cluster %u charge %u, want %u, %u, %u", fn, h,
          a->module, a->cluster, a->charge, b->module, b->cluster, b->charge);
    /* iphi within 1: atan2 may differ by an ulp, and the rounding with it
     * (modulo 2^16: -2^15 and 2^15 - 1 are neighbours). */
    uint16_t dphi = (uint16_t)((uint16_t)a->iphi - (uint16_t)b->iphi);
    if (!near(a->gb[0], b->gb[0], tol) || !near(a->gb[1], b->gb[1], tol) ||
        !near(a->gb[2], b->gb[2], tol) || !near(a->r, b->r, tol) || (dphi > 1 && dphi < 0xffff))
      return lsk_context_set_error(
          NULL, LSK_EVERIFY,
          "%s: hit %zu (module %u): beam-spot relative (%.5f, %.5f, %.5f) r %.5f iphi %d; want "
          "(%.5f, %.5f, %.5f) r %.5f iphi %d within %g",
          fn, h, b->module, a->gb[0], a->gb[1], a->gb[2], a->r, a->iphi, b->gb[0], b->gb[1],
          b->gb[2], b->r, b->iphi, tol);
    if (!near(a->x, b->x, tol) || !near(a->y, b->y, tol) || !near(a->xerr, b->xerr, tol) ||
        !near(a->yerr, b->yerr, tol) || !near(a->g[0], b->g[0], tol) ||
        !near(a->g[1], b->g[1], tol) || !near(a->g[2], b->g[2], tol))
      return lsk_context_set_error(
          NULL, LSK_EVERIFY,
          "%s: hit %zu (module %u): at (%.6f, %.6f) +- (%.6f, %.6f), global (%.5f, "
          "%.5f, %.5f); want (%.6f, %.6f) +- (%.6f, %.6f), (%.5f, %.5f, %.5f) within %g",
          fn, h, b->module, a->x, a->y, a->xerr, a->yerr, a->g[0], a->g[1], a->g[2], b->x, b->y,
          b->xerr, b->yerr, b->g[0], b->g[1], b->g[2], tol);
  }
  return LSK_OK;
}

int lsk_pixel_reference_sizes(const lsk_pixel_events *ev, const lsk_pixel_result *r, uint32_t nbins,
                              uint32_t *counts)
{
  if (!ev || !r || !counts || nbins < 2)
    return lsk_context_set_error(NULL, LSK_EINVAL, "lsk_pixel_reference_sizes: %s",
                                 nbins < 2 ? "nbins below 2" : "an argument is NULL");
  uint32_t *size = calloc(r->clusters ? r->clusters : 1, sizeof *size);
  if (!size)
    return lsk_context_set_error(NULL, LSK_ENOMEM, "lsk_pixel_reference_sizes: out of memory");
  size_t nm = (size_t)ev->events * ev->modules;
  for (size_t k = 0; k < nm; ++k)
    for (uint32_t d = ev->start[k]; d < ev->start[k + 1]; ++d)
      if (r->clus[d] != LSK_PIXEL_INVALID_CLUSTER)
        ++size[r->clus_start[k] + r->clus[d]];
  memset(counts, 0, ((size_t)nbins + 1) * sizeof *counts);
  for (size_t c = 0; c < r->clusters; ++c)
    ++counts[size[c] < nbins ? size[c] : nbins];
  free(size);
  return LSK_OK;
}
