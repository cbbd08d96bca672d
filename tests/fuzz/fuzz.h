/*
 * fuzz.h: shared by the fuzz targets. A target is built twice: with
 * libFuzzer (clang -fsanitize=fuzzer) and with replay.c, a main() that
 * feeds it every file of a corpus (any compiler, in every build).
 */
#ifndef LSK_FUZZ_H
#define LSK_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lsk/lsk.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property the library promises: a failure is a finding, reported like a
 * sanitizer's (the fuzzer keeps the input). */
#define FUZZ_CHECK(cond)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s (last message: %s)\n", __FILE__, __LINE__, #cond,   \
              lsk_context_errmsg(NULL));                                                           \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

/* The input as a C string (malloc'd; NULL when out of memory): the text
 * ends at its first NUL, if it has one. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1);
  if (text) {
    memcpy(text, data, size);
    text[size] = 0;
  }
  return text;
}

#endif
