/*
 * cache.c: the optional on-disk cache of program binaries.
 *
 * One file per build, named by a 64-bit hash of the key text (lsk version,
 * platform, device, driver, build options and the whole source including
 * the device library). The file holds a second, independent hash of the key
 * and a checksum of the binary, so a collision, a truncated write or a
 * corrupt file is detected; such an entry is removed and the caller builds
 * from source. Entries are written to a temporary file and renamed, so a
 * reader never sees half an entry.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static const char magic[8] = {'L', 'S', 'K', 'B', 'I', 'N', '0', '1'};

/* FNV-1a, 64-bit, with a seed mixed into the offset basis. */
uint64_t lsk__hash64(const void *data, size_t len, uint64_t seed)
{
  const unsigned char *p = data;
  uint64_t h = 1469598103934665603ull ^ (seed * 0x9e3779b97f4a7c15ull);
  for (size_t i = 0; i < len; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static char *entry_path(const char *dir, const char *key)
{
  return lsk__strdupf("%s/%016llx.bin", dir, (unsigned long long)lsk__hash64(key, strlen(key), 1));
}

/* The whole entry file, malloc'd, if it is no longer than a valid entry can
 * be (lsk__cache_entry_parse checks the rest); NULL otherwise. */
static unsigned char *read_entry(FILE *f, size_t *n)
{
  long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (end < 32 || (unsigned long)end > (1ul << 31) + 32 || fseek(f, 0, SEEK_SET) != 0)
    return NULL;
  unsigned char *data = malloc((size_t)end);
  if (data && fread(data, 1, (size_t)end, f) != (size_t)end) {
    free(data);
    data = NULL;
  }
  *n = (size_t)end;
  return data;
}

cl_program lsk__cache_load(lsk_context *ctx, const char *dir, const char *key)
{
  char *path = entry_path(dir, key);
  if (!path)
    return NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    free(path);
    return NULL;
  }
  size_t n = 0, sz = 0;
  const unsigned char *entry_bin = NULL;
  unsigned char *bin = read_entry(f, &n);
  int ok = bin && lsk__cache_entry_parse(bin, n, key, &entry_bin, &sz) == LSK_OK;
  fclose(f);
  cl_program prog = NULL;
  if (ok) {
    const unsigned char *bins[1] = {entry_bin};
    cl_int status = CL_SUCCESS, err;
    prog = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &sz, bins, &status, &err);
    if (!err && status == CL_SUCCESS)
      err = clBuildProgram(prog, 1, &ctx->device, NULL, NULL, NULL);
    if (err || status != CL_SUCCESS) {
      if (prog)
        clReleaseProgram(prog);
      prog = NULL;
    }
  }
  if (!prog)
    remove(path); /* bad entry: never trusted, rebuilt by the caller */
  free(bin);
  free(path);
  return prog;
}

/* mkdir -p for the cache directory (and the tune directory). */
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

void lsk__cache_store(lsk_context *ctx, const char *dir, const char *key, cl_program program)
{
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) || size == 0)
    return;
  unsigned char *bin = malloc(size);
  unsigned char *bins[1] = {bin};
  char *path = entry_path(dir, key);
  static unsigned counter;
  char *tmp = path ? lsk__strdupf("%s.tmp.%ld.%u", path, (long)getpid(), counter++) : NULL;
  if (!bin || !tmp || clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) ||
      lsk__make_dirs(dir))
    goto store_out;
  FILE *f = fopen(tmp, "wb");
  if (!f)
    goto store_out;
  uint64_t khash = lsk__hash64(key, strlen(key), 2), sz = size, sum = lsk__hash64(bin, size, 3);
  int ok = fwrite(magic, 1, sizeof magic, f) == sizeof magic &&
           fwrite(&khash, sizeof khash, 1, f) == 1 && fwrite(&sz, sizeof sz, 1, f) == 1 &&
           fwrite(bin, 1, size, f) == size && fwrite(&sum, sizeof sum, 1, f) == 1;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0)
    remove(tmp);
store_out:
  (void)ctx;
  free(tmp);
  free(path);
  free(bin);
}
