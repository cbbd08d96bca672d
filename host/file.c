/*
 * file.c: reading a whole text file (program sources, layout files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

char *lsk__read_file(lsk_context *ctx, const char *path, size_t max, const char *fn, int *rc)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    *rc = lsk__fail(ctx, LSK_EIO, "%s: cannot open '%s'", fn, path);
    return NULL;
  }
  char *buf = NULL;
  size_t len = 0;
  *rc = LSK_OK;
  for (;;) {
    char *grown = realloc(buf, len + 4097);
    if (!grown) {
      *rc = lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory reading '%s'", fn, path);
      break;
    }
    buf = grown;
    size_t got = fread(buf + len, 1, 4096, f);
    len += got;
    if (got < 4096)
      break;
    if (max && len > max) {
      *rc = lsk__fail(ctx, LSK_EINVAL, "%s: '%s' is larger than %zu bytes", fn, path, max);
      break;
    }
  }
  if (!*rc && ferror(f))
    *rc = lsk__fail(ctx, LSK_EIO, "%s: error reading '%s'", fn, path);
  fclose(f);
  if (!*rc) {
    buf[len] = 0;
    if (strlen(buf) != len)
      *rc = lsk__fail(ctx, LSK_EINVAL, "%s: '%s' contains a NUL byte", fn, path);
  }
  if (*rc) {
    free(buf);
    return NULL;
  }
  return buf;
}
