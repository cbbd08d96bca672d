/*
 * cache.c: the optional on-disk cache of program binaries.
 *
 * One file per build (cache_entry.c writes and checks its bytes), named
 * by a 64-bit hash of the key text (lsk version,
 * platform, device, driver, build options, the whole source including
 * the device library, and every file it may #include: cache_key.c). The
 * file holds a second, independent hash of the key and a checksum of the
 * binary, so a collision, a truncated write or a
 * corrupt file is detected; such an entry is never trusted: the caller
 * builds from source and its store replaces the entry (a rename). It is
 * not removed on reading: another process may have renamed a good entry
 * onto that path since it was read. Entries are written to a temporary file, flushed and
 * renamed, so a reader never sees half an entry, and a failed write (full
 * disk, file size limit) removes its temporary file; one left by a killed
 * writer is removed by a later store once it is old.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/build.h"

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
  /* A bad entry is left in place: the caller's store replaces it. */
  free(bin);
  free(path);
  return prog;
}

/* A temporary file older than this is a dead writer's (a write takes well
 * under a second): a process killed mid-write leaves its temporary file,
 * and the next store into the directory removes it. */
#define LSK__STALE_TMP_SECONDS 600

/* Removes the stale temporary files of dir: "<16 hex digits>.bin.tmp.*"
 * regular files last modified more than LSK__STALE_TMP_SECONDS ago. */
static void sweep_stale(const char *dir)
{
  DIR *d = opendir(dir);
  if (!d)
    return;
  time_t now = time(NULL);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    const char *name = e->d_name;
    if (strspn(name, "0123456789abcdef") != 16 || strncmp(name + 16, ".bin.tmp.", 9) != 0)
      continue;
    char *p = lsk__strdupf("%s/%s", dir, name);
    struct stat st;
    if (p && lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
        difftime(now, st.st_mtime) > LSK__STALE_TMP_SECONDS)
      unlink(p);
    free(p);
  }
  closedir(d);
}

/* Best effort: any failure (no space, a file size limit, no permission, a
 * directory that is a file) leaves the cache as it was, with no temporary
 * file behind; the build itself has succeeded and is not affected. The
 * entry is written whole to a temporary file, flushed to disk (fsync) and
 * only then renamed over the entry's name, so that after a crash or power
 * loss the name holds either the old entry, the new one or nothing, never
 * a torn one (the reader's checksum would catch that too, at the cost of a
 * rebuild). Two writers of the same entry each rename a whole file: the
 * last one wins, and both files are the same build. */
void lsk__cache_store(lsk_context *ctx, const char *dir, const char *key, cl_program program)
{
  (void)ctx;
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) || size == 0)
    return;
  unsigned char *bin = malloc(size);
  unsigned char *bins[1] = {bin};
  char *path = entry_path(dir, key);
  if (!bin || !path || clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) ||
      lsk__make_dirs(dir))
    goto store_out;
  lsk__cache_entry_write(path, key, bin, size);
  sweep_stale(dir);
store_out:
  free(path);
  free(bin);
}
