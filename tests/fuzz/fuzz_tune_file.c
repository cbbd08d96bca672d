/*
 * fuzz_tune_file.c: a tune file's bytes (lsk__tune_parse, what the tune
 * store, host/launch/tune_file.c, applies to a file of the tune directory
 * before an automatic launch uses its workers and simd). The key is fixed;
 * the corpus's valid files carry its hash. Checks that an accepted file's
 * choice is in range and that it is exactly what the file says: the
 * canonical file written from it is accepted with the same numbers.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "launch/launch.h"

#define FUZZ_KEY "lsk fuzz key\ndevice cpu\nkernel k\ndomain 64x1x1"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* A copy of exactly size bytes, so that ASan sees any read past it. */
  char *copy = malloc(size ? size : 1);
  if (!copy)
    return 0;
  memcpy(copy, data, size);
  unsigned w = 777, s = 777;
  int ok = lsk__tune_parse(copy, size, FUZZ_KEY, &w, &s);
  if (!ok) {
    FUZZ_CHECK(w == 777 && s == 777); /* a refused file changes nothing */
  } else {
    FUZZ_CHECK(size <= LSK__TUNE_FILE_MAX && memchr(copy, 0, size) == NULL);
    FUZZ_CHECK(w >= 1 && w <= (1u << 30) && s >= 1 && s <= (1u << 30));
    FUZZ_CHECK(size >= sizeof LSK__TUNE_MAGIC && memcmp(copy, LSK__TUNE_MAGIC "\n", 11) == 0);
    char canon[128];
    int n = snprintf(canon, sizeof canon, LSK__TUNE_MAGIC "\nkey %016llx\nworkers %u\nsimd %u\n",
                     (unsigned long long)lsk__hash64(FUZZ_KEY, strlen(FUZZ_KEY), 2), w, s);
    unsigned w2 = 0, s2 = 0;
    FUZZ_CHECK(n > 0 && lsk__tune_parse(canon, (size_t)n, FUZZ_KEY, &w2, &s2) && w2 == w &&
               s2 == s);
    /* Another key's hash never matches. */
    FUZZ_CHECK(!lsk__tune_parse(copy, size, "another key", &w2, &s2));
  }
  free(copy);
  return 0;
}
