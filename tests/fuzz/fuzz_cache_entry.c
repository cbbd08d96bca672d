/*
 * fuzz_cache_entry.c: an on-disk cache entry's bytes
 * (lsk__cache_entry_parse, the validation lsk__cache_load applies before it
 * hands a binary to OpenCL). The key is fixed: the corpus's valid entries
 * are made for it (make_corpus.c). Checks that an accepted entry's binary
 * lies inside the input and has the length the entry says.
 */
#include <string.h>

#include "fuzz.h"
#include "core/core.h"

#define FUZZ_KEY "lsk fuzz key\nplatform pocl\ndevice cpu\noptions -DLSK_WORKERS=64\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* A copy of exactly size bytes, so that ASan sees any read past it. */
  unsigned char *copy = malloc(size ? size : 1);
  if (!copy)
    return 0;
  memcpy(copy, data, size);
  const unsigned char *bin = (const unsigned char *)&bin;
  size_t binsize = 12345;
  int rc = lsk__cache_entry_parse(copy, size, FUZZ_KEY, &bin, &binsize);
  if (rc == LSK_OK) {
    FUZZ_CHECK(size >= 32 && binsize == size - 32 && bin == copy + 24);
    FUZZ_CHECK(memcmp(copy, "LSKBIN01", 8) == 0);
  } else {
    FUZZ_CHECK(rc == LSK_EIO && bin == NULL && binsize == 0);
  }
  /* Another key never matches the same bytes' key hash by accident here. */
  if (rc == LSK_OK)
    FUZZ_CHECK(lsk__cache_entry_parse(copy, size, "another key", &bin, &binsize) == LSK_EIO);
  free(copy);
  return 0;
}
