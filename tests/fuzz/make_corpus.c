/*
 * make_corpus.c: writes the binary seeds of corpus/pixel_file and
 * corpus/cache_entry (the text seeds are written by hand). Run from the
 * repository root after a change of either format:
 *   build-fuzz/fuzz_make_corpus tests/fuzz/corpus
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "pixel.h"
#include "core/core.h"

#define FUZZ_KEY "lsk fuzz key\nplatform pocl\ndevice cpu\noptions -DLSK_WORKERS=64\n"

static int pixel(const char *dir, const char *name, uint32_t events, uint32_t modules,
                 uint64_t seed, int truth)
{
  lsk_pixel_gen_options opt = {events, modules, seed};
  lsk_pixel_events *ev = NULL;
  char path[512];
  snprintf(path, sizeof path, "%s/pixel_file/%s", dir, name);
  int rc = lsk_pixel_generate(&opt, &ev);
  if (!rc && !truth) {
    free(ev->truth);
    ev->truth = NULL;
  }
  if (!rc)
    rc = lsk_pixel_events_write(ev, path);
  lsk_pixel_events_destroy(ev);
  if (rc)
    fprintf(stderr, "%s: %s\n", path, lsk_context_errmsg(NULL));
  return rc;
}

static int entry(const char *dir, const char *name, const char *bin, size_t size, int valid)
{
  char path[512];
  snprintf(path, sizeof path, "%s/cache_entry/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f)
    return 1;
  uint64_t khash = lsk__hash64(FUZZ_KEY, strlen(FUZZ_KEY), 2), sz = size;
  uint64_t sum = lsk__hash64(bin, size, 3) + (valid ? 0 : 1);
  fwrite("LSKBIN01", 1, 8, f);
  fwrite(&khash, sizeof khash, 1, f);
  fwrite(&sz, sizeof sz, 1, f);
  fwrite(bin, 1, size, f);
  fwrite(&sum, sizeof sum, 1, f);
  return fclose(f) != 0;
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: fuzz_make_corpus CORPUS_DIR\n");
    return 2;
  }
  const char *d = argv[1];
  int bad = pixel(d, "one_event_one_module", 1, 1, 1, 1) ||
            pixel(d, "two_events_four_modules", 2, 4, 7, 1) ||
            pixel(d, "three_events_no_truth", 3, 2, 3, 0) ||
            pixel(d, "one_event_sixteen_modules", 1, 16, 42, 1);
  static const char elf[] = "\x7f"
                            "ELF binary of a program built for the device";
  bad = bad || entry(d, "valid_entry", elf, sizeof elf - 1, 1) ||
        entry(d, "valid_one_byte", "x", 1, 1) || entry(d, "bad_checksum", elf, sizeof elf - 1, 0);
  return bad;
}
