/*
 * pixel_file.c: the pixel example's event files (examples/pixel/pixel.h).
 * Little-endian whatever the host, every field at a fixed place:
 *
 *   0  "LSKPIXEL"       8 bytes
 *   8  version          u32 (1; 2 where there are invalid digis)
 *  12  events           u32
 *  16  modules          u32 (per event)
 *  20  flags            u32 (bit 0: truth follows)
 *  24  digis            u64
 *  32  nx, ny           u32 each: the module size the pixels are for
 *  40  digis per event  u32 [events]
 *      module u32 [digis], x u16 [digis], y u16 [digis], adc u16 [digis],
 *      truth u32 [digis] (if flagged)
 *
 * Invalid digis (LSK_PIXEL_INVALID in memory) are written as module
 * 0x80000000 | m, m the module whose digis they sit among, so that the
 * reader puts them back there (the id alone would not say which module
 * an invalid digi at a module's start belongs to); such a file is
 * version 2, any other version 1, as before.
 *
 * A reader checks the header against the limits and the file's length
 * before it allocates anything, then every digi (lsk_pixel_events_check):
 * a bad file is an error with a message, never a crash or a huge
 * allocation. Empty modules cost no bytes in a file but a start entry in
 * memory, so events x modules is bounded too (MAX_SLOTS; found by
 * fuzzing: a 32 KB file asked for 2 GB, a 4 MB one for 262 GB).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixel_internal.h"

#define MAGIC "LSKPIXEL"
#define VERSION 2u /* the newest this lsk reads */
#define INVALID_BIT 0x80000000u
#define HEADER 40u
/* Module slots (events x modules) of a file: 64 MB of start in memory. */
#define MAX_SLOTS (1u << 24)

static void put32(unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; ++i)
    p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get32(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t get16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Bytes per digi after the header and the per-event counts. */
static size_t digi_bytes(int truth) { return 10u + (truth ? 4u : 0u); }

int lsk_pixel_events_write(const lsk_pixel_events *ev, const char *path)
{
  static const char fn[] = "lsk_pixel_events_write";
  if (!path)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: path is NULL", fn);
  int rc = lsk_pixel_events_check(ev);
  if (rc)
    return rc;
  if ((uint64_t)ev->events * ev->modules > MAX_SLOTS)
    return lsk_context_set_error(
        NULL, LSK_EINVAL,
        "%s: %u events of %u modules: more than %u module slots, which a file may "
        "not hold",
        fn, ev->events, ev->modules, MAX_SLOTS);
  size_t d = ev->digis, nm = ev->modules, bytes = HEADER + 4 * (size_t)ev->events;
  bytes += d * digi_bytes(ev->truth != NULL);
  unsigned char *b = malloc(bytes), *p;
  if (!b)
    return lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory for %zu bytes", fn,
                                 bytes);
  memcpy(b, MAGIC, 8);
  size_t bad = 0; /* invalid digis */
  for (size_t i = 0; i < d; ++i)
    bad += px_invalid(ev, i);
  put32(b + 8, bad ? 2u : 1u);
  put32(b + 12, ev->events);
  put32(b + 16, ev->modules);
  put32(b + 20, ev->truth ? 1u : 0u);
  put32(b + 24, (uint32_t)d);
  put32(b + 28, (uint32_t)((uint64_t)d >> 32));
  put32(b + 32, LSK_PIXEL_NX);
  put32(b + 36, LSK_PIXEL_NY);
  p = b + HEADER;
  for (uint32_t e = 0; e < ev->events; ++e, p += 4)
    put32(p, ev->start[(e + 1) * nm] - ev->start[e * nm]);
  for (size_t k = 0; k < (size_t)ev->events * nm; ++k)
    for (size_t i = ev->start[k]; i < ev->start[k + 1]; ++i, p += 4)
      put32(p, px_invalid(ev, i) ? INVALID_BIT | (uint32_t)(k % nm) : ev->module[i]);
  const uint16_t *col[3] = {ev->x, ev->y, ev->adc};
  for (int c = 0; c < 3; ++c)
    for (size_t i = 0; i < d; ++i, p += 2) {
      p[0] = (unsigned char)col[c][i];
      p[1] = (unsigned char)(col[c][i] >> 8);
    }
  for (size_t i = 0; ev->truth && i < d; ++i, p += 4)
    put32(p, ev->truth[i]);
  FILE *f = fopen(path, "wb");
  if (!f) {
    rc =
        lsk_context_set_error(NULL, LSK_EIO, "%s: cannot open '%s': %s", fn, path, strerror(errno));
  } else {
    size_t put = fwrite(b, 1, bytes, f);
    int closed = fclose(f);
    if (put != bytes || closed)
      rc = lsk_context_set_error(NULL, LSK_EIO, "%s: cannot write '%s': %s", fn, path,
                                 strerror(errno));
  }
  free(b);
  return rc;
}

/* The whole file, if it is no longer than max bytes; *len its length. */
static unsigned char *slurp(const char *path, size_t max, size_t *len, int *rc)
{
  static const char fn[] = "lsk_pixel_events_read";
  FILE *f = fopen(path, "rb");
  if (!f) {
    *rc =
        lsk_context_set_error(NULL, LSK_EIO, "%s: cannot open '%s': %s", fn, path, strerror(errno));
    return NULL;
  }
  unsigned char *b = NULL;
  long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (end < 0 || fseek(f, 0, SEEK_SET) != 0)
    *rc =
        lsk_context_set_error(NULL, LSK_EIO, "%s: cannot read '%s': %s", fn, path, strerror(errno));
  else if ((unsigned long)end > max)
    *rc = lsk_context_set_error(
        NULL, LSK_EIO, "%s: '%s': %ld bytes, more than its header says (%zu)", fn, path, end, max);
  else if (!(b = malloc((size_t)end ? (size_t)end : 1)))
    *rc = lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory for '%s'", fn, path);
  else if (fread(b, 1, (size_t)end, f) != (size_t)end) {
    *rc = lsk_context_set_error(NULL, LSK_EIO, "%s: cannot read '%s'", fn, path);
    free(b);
    b = NULL;
  }
  *len = end > 0 ? (size_t)end : 0;
  fclose(f);
  return b;
}

/* The header's sizes, checked against the limits and the file's length. */
static int header(const unsigned char *b, size_t len, const char *path, uint32_t *events,
                  uint32_t *modules, size_t *digis, int *truth)
{
  static const char fn[] = "lsk_pixel_events_read";
  if (len < HEADER || memcmp(b, MAGIC, 8) != 0)
    return lsk_context_set_error(
        NULL, LSK_EIO, "%s: '%s' is not a pixel event file (no LSKPIXEL header)", fn, path);
  uint32_t version = get32(b + 8), flags = get32(b + 20);
  uint64_t d = get32(b + 24) | (uint64_t)get32(b + 28) << 32;
  *events = get32(b + 12);
  *modules = get32(b + 16);
  *truth = flags & 1u;
  if (version == 0 || version > VERSION)
    return lsk_context_set_error(NULL, LSK_EIO,
                                 "%s: '%s': version %u, this lsk reads versions 1 to %u", fn, path,
                                 version, VERSION);
  if (flags > 1u || get32(b + 32) != LSK_PIXEL_NX || get32(b + 36) != LSK_PIXEL_NY)
    return lsk_context_set_error(
        NULL, LSK_EIO, "%s: '%s': flags %u, modules of %ux%u pixels (want %ux%u)", fn, path, flags,
        get32(b + 32), get32(b + 36), LSK_PIXEL_NX, LSK_PIXEL_NY);
  if (*events == 0 || *events > LSK_PIXEL_MAX_EVENTS || *modules == 0 ||
      *modules > LSK_PIXEL_MAX_MODULES || d > (uint64_t)*events * *modules * LSK_PIXEL_MAX_DIGIS ||
      d > UINT32_MAX)
    return lsk_context_set_error(NULL, LSK_EIO,
                                 "%s: '%s': %u events of %u modules with %llu digis: out of range",
                                 fn, path, *events, *modules, (unsigned long long)d);
  if ((uint64_t)*events * *modules > MAX_SLOTS)
    return lsk_context_set_error(
        NULL, LSK_EIO, "%s: '%s': %u events of %u modules: more than %u module slots, out of range",
        fn, path, *events, *modules, MAX_SLOTS);
  size_t want = HEADER + 4 * (size_t)*events + (size_t)d * digi_bytes(*truth);
  if (len != want)
    return lsk_context_set_error(NULL, LSK_EIO, "%s: '%s': %zu bytes, want %zu for %llu digis (%s)",
                                 fn, path, len, want, (unsigned long long)d,
                                 len < want ? "truncated" : "too long");
  *digis = (size_t)d;
  return LSK_OK;
}

int lsk_pixel_events_read(const char *path, lsk_pixel_events **out)
{
  static const char fn[] = "lsk_pixel_events_read";
  if (!out)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  if (!path)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: path is NULL", fn);
  int rc = LSK_OK, truth = 0;
  size_t len = 0, digis = 0;
  uint32_t events = 0, modules = 0;
  /* No file longer than the largest valid one is read in. */
  size_t most = HEADER + 4 * (size_t)LSK_PIXEL_MAX_EVENTS + (size_t)UINT32_MAX * digi_bytes(1);
  unsigned char *b = slurp(path, most, &len, &rc), *p;
  if (!b)
    return rc;
  lsk_pixel_events *ev = NULL;
  uint8_t *inv = NULL; /* version 2: which digis are invalid */
  rc = header(b, len, path, &events, &modules, &digis, &truth);
  if (!rc)
    rc = lsk_pixel_events_create(events, modules, digis, truth, &ev);
  uint32_t *per = rc ? NULL : malloc((size_t)events * 4);
  if (!rc && !per)
    rc = lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory", fn);
  if (!rc) {
    p = b + HEADER;
    uint64_t sum = 0;
    for (uint32_t e = 0; e < events; ++e, p += 4)
      sum += per[e] = get32(p);
    for (size_t i = 0; i < digis; ++i, p += 4)
      ev->module[i] = get32(p);
    /* Version 2's invalid digis: their module for the index, marked
     * invalid once it is made. */
    if (get32(b + 8) >= 2u && !(inv = calloc(digis ? digis : 1, 1)))
      rc = lsk_context_set_error(NULL, LSK_ENOMEM, "%s: out of host memory", fn);
    /* One way to write each set, so that a file read back and written
     * is the same file: 9999 itself is no module id in a file of at most
     * 9999 modules per event, and a version 2 file has invalid digis. */
    size_t marked = 0;
    for (size_t i = 0; i < digis && !rc; ++i)
      if (ev->module[i] == LSK_PIXEL_INVALID && modules <= LSK_PIXEL_INVALID)
        rc = lsk_context_set_error(NULL, LSK_EIO,
                                   "%s: '%s': digi %zu: module %u (an invalid digi is written as "
                                   "0x80000000 | its module)",
                                   fn, path, i, LSK_PIXEL_INVALID);
    for (size_t i = 0; inv && i < digis && !rc; ++i)
      if (ev->module[i] & INVALID_BIT) {
        ++marked;
        if (modules > LSK_PIXEL_INVALID)
          rc = lsk_context_set_error(NULL, LSK_EIO,
                                     "%s: '%s': digi %zu is invalid in a set of %u modules per "
                                     "event (at most %u may have invalid digis)",
                                     fn, path, i, modules, LSK_PIXEL_INVALID);
        inv[i] = 1;
        ev->module[i] &= ~INVALID_BIT;
      }
    if (inv && !rc && !marked)
      rc = lsk_context_set_error(NULL, LSK_EIO, "%s: '%s': version 2 without invalid digis", fn,
                                 path);
    uint16_t *col[3] = {ev->x, ev->y, ev->adc};
    for (int c = 0; c < 3; ++c)
      for (size_t i = 0; i < digis; ++i, p += 2)
        col[c][i] = get16(p);
    for (size_t i = 0; truth && i < digis; ++i, p += 4)
      ev->truth[i] = get32(p);
    if (!rc && sum != digis)
      rc = lsk_context_set_error(NULL, LSK_EIO,
                                 "%s: '%s': the events' counts sum to %llu, the header says %zu",
                                 fn, path, (unsigned long long)sum, digis);
  }
  int bad = !rc && lsk_pixel_events_index(ev, per);
  for (size_t i = 0; !rc && !bad && inv && i < digis; ++i)
    if (inv[i])
      ev->module[i] = LSK_PIXEL_INVALID;
  if (!rc && (bad || lsk_pixel_events_check(ev)))
    rc = lsk_context_set_error(NULL, LSK_EIO, "%s: '%s': %s", fn, path, lsk_context_errmsg(NULL));
  free(inv);
  free(per);
  free(b);
  if (rc) {
    lsk_pixel_events_destroy(ev);
    return rc;
  }
  *out = ev;
  return LSK_OK;
}
