/*
 * file.c: reading a whole text file (program sources, layout files),
 * replacing a file atomically (cache entries, tune files), and making a
 * directory with its parents (the cache's, the tune directory).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/objects.h"

/* The whole text file at path, NUL-terminated, malloc'd; NULL with *rc
 * set (LSK_EIO, LSK_ENOMEM, LSK_EINVAL for a NUL byte or more than max
 * bytes, max 0: no limit) and the message naming fn and path. */
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

/* A new temporary file beside path, opened for writing; -1 if none can be
 * made. The name is unique in this process (pid and an atomic counter, so
 * two threads never share one) and O_EXCL keeps it from being anyone
 * else's, such as a file left by a crashed process that had the same pid. */
static int open_temp(const char *path, char **tmp)
{
  static atomic_uint counter;
  for (int attempt = 0; attempt < 8; ++attempt) {
    unsigned n = atomic_fetch_add(&counter, 1u);
    *tmp = lsk__strdupf("%s.tmp.%ld.%u", path, (long)getpid(), n);
    if (!*tmp)
      return -1;
    int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0)
      return fd;
    free(*tmp);
    *tmp = NULL;
    if (errno != EEXIST)
      return -1;
  }
  return -1;
}

/* Writes all of data; 0 on success. Retries short writes and EINTR. */
static int write_all(int fd, const void *data, size_t n)
{
  const char *p = data;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Replaces path by a file holding the parts, atomically: written whole to
 * a unique temporary file beside it, fsync'ed, renamed over path. 0 on
 * success; on any failure -1 with errno saying why, path unchanged and no
 * temporary file left behind. No message: the callers' stores are best
 * effort, and lsk_trace_write names errno in its own. */
int lsk__file_replace(const char *path, const lsk__file_part *parts, size_t nparts)
{
  char *tmp = NULL;
  int fd = open_temp(path, &tmp);
  if (fd < 0)
    return -1;
  int ok = 1;
  for (size_t i = 0; ok && i < nparts; ++i)
    ok = write_all(fd, parts[i].data, parts[i].size) == 0;
  ok = ok && fsync(fd) == 0;
  ok = (close(fd) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    int why = errno; /* the caller's message names it, not unlink's */
    unlink(tmp);
    errno = why;
    ok = 0;
  }
  free(tmp);
  return ok ? 0 : -1;
}

/* mkdir -p. */
int lsk__make_dirs(const char *dir)
{
  char *d = lsk__strdup(dir);
  if (!d)
    return -1;
  for (char *p = d + 1; *p; ++p) {
    if (*p != '/')
      continue;
    *p = 0;
    if (mkdir(d, 0755) && errno != EEXIST) {
      free(d);
      return -1;
    }
    *p = '/';
  }
  int rc = (mkdir(d, 0755) && errno != EEXIST) ? -1 : 0;
  free(d);
  return rc;
}
