/*
 * make_corpus.c: writes the binary seeds of corpus/cache_entry (the text
 * seeds are written by hand; the pixel example's event file has its own,
 * examples/pixel/fuzz/make_corpus.c). Run from the repository root after a
 * change of the format:
 *   build-fuzz/fuzz_make_corpus tests/fuzz/corpus
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "core/core.h"

#define FUZZ_KEY "lsk fuzz key\nplatform pocl\ndevice cpu\noptions -DLSK_WORKERS=64\n"

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
  static const char elf[] = "\x7f"
                            "ELF binary of a program built for the device";
  int bad = entry(d, "valid_entry", elf, sizeof elf - 1, 1) ||
            entry(d, "valid_one_byte", "x", 1, 1) ||
            entry(d, "bad_checksum", elf, sizeof elf - 1, 0);
  return bad;
}
