/*
 * tune_file.c: the store of lsk_tune's choices, one small text file per
 * (device and its partition where it is a sub-device, driver, lsk
 * version, program, kernel, domain) in the tune directory:
 *
 *     lsk tune 1
 *     key 5f0c3a61d2e4b7a9
 *     workers 16
 *     simd 256
 *     # comment lines: what was tuned, and the times
 *
 * The file is named by a 64-bit hash of the key text; the "key" line holds
 * a second, independent hash of it, so a collision or a foreign file is
 * detected. A file that is not exactly this is ignored (the rule applies)
 * and replaced by the next lsk_tune. Files are written to a temporary name
 * and renamed, so a reader never sees half of one. Beside the choices, an
 * index per kernel lists its domains that have one (below).
 *
 * The check of a file's bytes (lsk__tune_parse) is apart from the reading
 * and the OpenCL calls so that it can be fuzzed without a device
 * (tests/fuzz/fuzz_tune_file.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/tune.h"

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

/* The text that identifies a choice. */
static char *tune_key(const lsk_program *prog, const char *kernel, const unsigned dom[3])
{
  const lsk_device_info *d = lsk__context_info(lsk__program_context(prog));
  /* The prelude (generated SoA views) is part of what is built. */
  const char *source = lsk__program_source(prog), *prelude = lsk__program_prelude(prog);
  uint64_t src = lsk__hash64(source, strlen(source), 4) ^ lsk__hash64(prelude, strlen(prelude), 5);
  /* A sub-device is not its parent (fewer compute units): its partition
   * joins the key; a whole device's key is as it was before sub-devices.
   * Likewise a device under modeled shapes (LSK_SHAPES) is not the device:
   * the model's name joins the key. */
  return lsk__strdupf("lsk %s\n%s\n%s\n%s\n%s\n%s\n%s%s%s%s%s%ssource %016llx\noptions %s\n"
                      "kernel %s\ndomain %ux%ux%u",
                      LSK_VERSION_STRING, d->platform_name, d->platform_version, d->name,
                      d->version, d->driver_version, d->partition[0] ? "partition " : "",
                      d->partition, d->partition[0] ? "\n" : "", d->shapes[0] ? "shapes " : "",
                      d->shapes, d->shapes[0] ? "\n" : "", (unsigned long long)src,
                      lsk__program_options(prog), kernel, dom[0], dom[1], dom[2]);
}

static char *tune_path(const char *dir, const char *key)
{
  return lsk__strdupf("%s/%016llx.tune", dir, (unsigned long long)lsk__hash64(key, strlen(key), 1));
}

/* Reads the stored choice of (kernel, dom) of prog from dir; 1 if there is
 * a well-formed one. Never fails otherwise: a missing or corrupt file is
 * no choice. */
static int load(const lsk_program *prog, const char *dir, const char *kernel, const unsigned dom[3],
                unsigned *w, unsigned *s)
{
  char *key = tune_key(prog, kernel, dom);
  char *path = key ? tune_path(dir, key) : NULL;
  FILE *f = path ? fopen(path, "rb") : NULL;
  int found = 0;
  if (f) {
    char text[LSK__TUNE_FILE_MAX + 1]; /* one byte more: a longer file is refused */
    size_t n = fread(text, 1, sizeof text, f);
    found = !ferror(f) && lsk__tune_parse(text, n, key, w, s);
    fclose(f);
  }
  free(path);
  free(key);
  return found;
}

/*
 * A kernel's index: the domains that have a stored choice, one line each
 * ("domain X Y Z"), in <hash>.tunes beside the choices, so that
 * lsk_kernel_create reads a kernel's choices once and no launch reads a
 * file. Keyed as a choice of domain 0x0x0 (no real domain). Two processes
 * tuning one kernel at once may each write the index without the other's
 * domain: that domain's choice is then just not used until tuned again.
 */
#define INDEX_MAX_DOMAINS 64

static char *index_path(const lsk_program *prog, const char *dir, const char *kernel)
{
  static const unsigned none[3] = {0, 0, 0};
  char *key = tune_key(prog, kernel, none);
  char *path = key ? lsk__strdupf("%s/%016llx.tunes", dir,
                                  (unsigned long long)lsk__hash64(key, strlen(key), 1))
                   : NULL;
  free(key);
  return path;
}

/* The domains the index lists (at most INDEX_MAX_DOMAINS); 0 if none or
 * unreadable (then there is no choice). */
static size_t index_read(const char *path, unsigned dom[][3])
{
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f)
    return 0;
  char line[128];
  size_t n = 0;
  while (n < INDEX_MAX_DOMAINS && fgets(line, sizeof line, f))
    if (sscanf(line, "domain %u %u %u", &dom[n][0], &dom[n][1], &dom[n][2]) == 3 && dom[n][0] &&
        dom[n][1] && dom[n][2])
      ++n;
  fclose(f);
  return n;
}

/* Adds dom to the index (atomically replaced); failures only cost the
 * choice's use by later kernels. */
static void index_add(const lsk_program *prog, const char *dir, const char *kernel,
                      const unsigned d[3])
{
  char *path = index_path(prog, dir, kernel);
  unsigned dom[INDEX_MAX_DOMAINS + 1][3];
  size_t n = index_read(path, dom), i = 0;
  while (i < n && memcmp(dom[i], d, sizeof dom[i]) != 0)
    ++i;
  if (path && i == n) {
    if (n == INDEX_MAX_DOMAINS) /* the oldest goes */
      memmove(dom[0], dom[1], --n * sizeof dom[0]);
    memcpy(dom[n++], d, sizeof dom[0]);
    char text[INDEX_MAX_DOMAINS * 48 + 64];
    size_t used = (size_t)snprintf(text, sizeof text,
                                   "# lsk: the domains of kernel %s with a choice\n", kernel);
    for (size_t k = 0; k < n && used < sizeof text; ++k)
      used += (size_t)snprintf(text + used, sizeof text - used, "domain %u %u %u\n", dom[k][0],
                               dom[k][1], dom[k][2]);
    lsk__file_part part = {text, used < sizeof text ? used : sizeof text - 1};
    lsk__file_replace(path, &part, 1);
  }
  free(path);
}

void lsk__tune_load_all(const lsk_program *prog, const char *dir, const char *kernel,
                        void (*found)(void *arg, const unsigned dom[3], unsigned w, unsigned s),
                        void *arg)
{
  char *path = index_path(prog, dir, kernel);
  unsigned dom[INDEX_MAX_DOMAINS][3];
  size_t n = index_read(path, dom);
  free(path);
  for (size_t i = 0; i < n; ++i) {
    unsigned w = 0, s = 0;
    if (load(prog, dir, kernel, dom[i], &w, &s))
      found(arg, dom[i], w, s);
  }
}

char *lsk__tune_store(const lsk_program *prog, const char *dir, const char *kernel,
                      const unsigned dom[3], const lsk_tune_result *r)
{
  char *key = tune_key(prog, kernel, dom);
  char *path = key ? tune_path(dir, key) : NULL;
  char *text = NULL;
  if (path) {
    const lsk_device_info *d = lsk__context_info(lsk__program_context(prog));
    text = lsk__strdupf(LSK__TUNE_MAGIC "\nkey %016llx\nworkers %u\nsimd %u\n"
                                        "# kernel %s of '%s', block domain %ux%ux%u, on %s (%s, "
                                        "driver %s), lsk %s\n"
                                        "# best %.6f ms; automatic rule %u x %u: %.6f ms\n",
                        (unsigned long long)lsk__hash64(key, strlen(key), 2), r->workers, r->simd,
                        kernel, lsk__program_name(prog), dom[0], dom[1], dom[2], d->name,
                        d->platform_name, d->driver_version, LSK_VERSION_STRING, r->best * 1e3,
                        r->rule_workers, r->rule_simd, r->rule_best * 1e3);
  }
  lsk__file_part part = {text, text ? strlen(text) : 0};
  int ok = text && lsk__make_dirs(dir) == 0 && lsk__file_replace(path, &part, 1) == 0;
  if (ok)
    index_add(prog, dir, kernel, dom);
  free(text);
  free(key);
  if (!ok) {
    free(path);
    return NULL;
  }
  return path;
}
