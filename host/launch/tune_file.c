/*
 * tune_file.c: checking the bytes of one tune file (format in tune.c),
 * apart from the file reading and the OpenCL calls so that it can be
 * fuzzed without a device (tests/fuzz/fuzz_tune_file.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A positive decimal number that fills the rest of the line. */
static int parse_count(const char *p, unsigned *v)
{
  if (*p < '1' || *p > '9')
    return 0;
  char *end;
  unsigned long x = strtoul(p, &end, 10);
  if (*end != 0 || x == 0 || x > (1ul << 30))
    return 0;
  *v = (unsigned)x;
  return 1;
}

/* Lines of text (NUL-terminated, changed in place); 1 if well formed. */
static int parse_lines(char *text, const char *key, unsigned *w, unsigned *s)
{
  char want[32];
  snprintf(want, sizeof want, "%016llx", (unsigned long long)lsk__hash64(key, strlen(key), 2));
  int line_no = 0, have_key = 0;
  unsigned tw = 0, ts = 0;
  for (char *line = text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (!next)
      return 0; /* every line ends with a newline, the last one too */
    *next++ = 0;
    if (line_no++ == 0) {
      if (strcmp(line, LSK__TUNE_MAGIC) != 0)
        return 0;
    } else if (line[0] == '#') {
      continue;
    } else if (strncmp(line, "key ", 4) == 0 && !have_key) {
      if (strcmp(line + 4, want) != 0)
        return 0;
      have_key = 1;
    } else if (strncmp(line, "workers ", 8) == 0 && !tw) {
      if (!parse_count(line + 8, &tw))
        return 0;
    } else if (strncmp(line, "simd ", 5) == 0 && !ts) {
      if (!parse_count(line + 5, &ts))
        return 0;
    } else {
      return 0;
    }
  }
  if (!have_key || !tw || !ts)
    return 0;
  *w = tw;
  *s = ts;
  return 1;
}

int lsk__tune_parse(const char *data, size_t n, const char *key, unsigned *w, unsigned *s)
{
  if (!data || !key || n > LSK__TUNE_FILE_MAX || memchr(data, 0, n) != NULL)
    return 0;
  char text[LSK__TUNE_FILE_MAX + 1];
  memcpy(text, data, n);
  text[n] = 0;
  return parse_lines(text, key, w, s);
}
