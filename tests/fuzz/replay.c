/*
 * replay.c: a main() for the fuzz targets without libFuzzer (any
 * compiler): every file named, and every file in every directory named,
 * goes once through LLVMFuzzerTestOneInput. A crash or a failed check
 * aborts; no input at all is an error (an empty corpus tests nothing).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return -1;
  }
  unsigned char *data = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? 2 * cap : 4096;
      unsigned char *grown = realloc(data, cap);
      if (!grown) {
        free(data);
        fclose(f);
        return -1;
      }
      data = grown;
    }
    size_t got = fread(data + len, 1, cap - len, f);
    len += got;
    if (got == 0)
      break;
  }
  fclose(f);
  /* An exact-size copy, so that ASan sees a read past the input. */
  unsigned char *exact = malloc(len ? len : 1);
  if (exact)
    memcpy(exact, data, len);
  free(data);
  if (!exact)
    return -1;
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

int main(int argc, char **argv)
{
  size_t inputs = 0;
  for (int a = 1; a < argc; ++a) {
    struct stat st;
    if (stat(argv[a], &st) != 0) {
      fprintf(stderr, "replay: no such file or directory: %s\n", argv[a]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (run_file(argv[a]))
        return 1;
      ++inputs;
      continue;
    }
    DIR *d = opendir(argv[a]);
    if (!d) {
      fprintf(stderr, "replay: cannot read directory %s\n", argv[a]);
      return 1;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
      if (e->d_name[0] == '.')
        continue;
      size_t n = strlen(argv[a]) + strlen(e->d_name) + 2;
      char *path = malloc(n);
      if (!path)
        return 1;
      snprintf(path, n, "%s/%s", argv[a], e->d_name);
      int rc = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? run_file(path) : 0;
      if (!rc && S_ISREG(st.st_mode))
        ++inputs;
      free(path);
      if (rc) {
        closedir(d);
        return 1;
      }
    }
    closedir(d);
  }
  if (inputs == 0) {
    fprintf(stderr, "replay: no inputs\n");
    return 1;
  }
  printf("replay: %zu inputs, no failure\n", inputs);
  return 0;
}
