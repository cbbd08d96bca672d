/*
 * pixel_internal.h: what the pixel example's host files share (pixel.c,
 * pixel_ref.c, pixel_gen.c, pixel_file.c, pixel_stream.c). Not installed.
 */
#ifndef LSK_PIXEL_INTERNAL_H
#define LSK_PIXEL_INTERNAL_H

#include <math.h>

#include "pixel.h"

/* A cluster's exact sums: charge, lowest pixel, and charge-weighted first
 * and second moments of the offsets from it (64 bits: a long cluster of
 * large charges passes 2^32). */
typedef struct px_sums {
  uint32_t q;
  uint16_t xmin, ymin;
  uint64_t sx, sy, sxx, syy;
} px_sums;

/* The hit of a cluster in a module placed at p; sets all but module and
 * cluster. */
void px_hit_of(const px_sums *s, const lsk_pixel_placement *p, const float *bs, lsk_pixel_hit *h);

/* phi (radians, -pi to pi) as CMS's int16 (phi2short): round(phi * 2^15
 * / pi), 2^15 wrapping to -2^15. px_hits (pixel.cl) does the same. */
static inline int16_t px_iphi(float phi)
{
  int32_t i = (int32_t)roundf(phi * 10430.378350470453f); /* 2^15 / pi, as px_hits */
  return (int16_t)(uint16_t)((uint32_t)i & 0xffffu);
}

/* Whether digi i of ev is invalid (LSK_PIXEL_INVALID, in a set of at
 * most 9999 modules per event), and the module id that marks one in ev
 * (UINT32_MAX, which no digi's module is, where 9999 is a module). */
static inline uint32_t px_invalid_id(const lsk_pixel_events *ev)
{
  return ev->modules <= LSK_PIXEL_INVALID ? LSK_PIXEL_INVALID : UINT32_MAX;
}
static inline int px_invalid(const lsk_pixel_events *ev, size_t i)
{
  return ev->module[i] == px_invalid_id(ev);
}

/* LSK_EINVAL on ctx (naming fn) unless cuts[0..n) are usable ranges (the
 * first at module 0, first_module increasing, n 1 to LSK_PIXEL_MAX_CUTS). */
int px_cuts_usable(lsk_context *ctx, const char *fn, const lsk_pixel_cut *cuts, uint32_t n);

/* LSK_EINVAL on ctx (naming fn) unless ev is usable: its arrays there,
 * events and modules within the limits, start rising from 0 to digis
 * with at most max_digis per module (UINT32_MAX: no limit). pixel.c; the
 * runs of lsk_pixel and of lsk_pixel_stream check their input with it. */
int px_events_usable(lsk_context *ctx, const char *fn, const lsk_pixel_events *ev,
                     uint32_t max_digis);

/* LSK_EINVAL (naming fn) unless r has room for ev's results. */
int px_result_fits(const lsk_pixel_result *r, const lsk_pixel_events *ev, const char *fn);

/* px_module's static local memory in the build that px's runs use (the
 * tests hold it to 32 KiB: docs/example-pixel-cluster.md). */
int px_module_local(lsk_pixel *px, uint64_t *bytes /* OUT */);

#endif /* LSK_PIXEL_INTERNAL_H */
