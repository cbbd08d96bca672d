/*
 * strbuf.c: the growing string (strbuf.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "strbuf.h"

void cli_str_put(cli_str *b, const char *fmt, ...)
{
  if (b->failed)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || b->len + (size_t)n + 1 > b->cap) {
    size_t cap = n < 0 ? 0 : (b->len + (size_t)n + 1) * 2;
    char *s = cap ? realloc(b->s, cap) : NULL;
    if (!s) {
      b->failed = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

const char *cli_str_get(const cli_str *b) { return b->s ? b->s : ""; }

void cli_str_free(cli_str *b)
{
  free(b->s);
  *b = (cli_str){0};
}

char *cli_strf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : malloc((size_t)n + 1);
  if (s) {
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  return s;
}

char *cli_read_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  cli_str b = {0};
  char chunk[8192];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    cli_str_put(&b, "%.*s", (int)n, chunk);
  int bad = ferror(f) || b.failed;
  fclose(f);
  if (bad) {
    cli_str_free(&b);
    errno = errno ? errno : ENOMEM;
    return NULL;
  }
  return b.s ? b.s : calloc(1, 1);
}
