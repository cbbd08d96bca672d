/*
 * tune.c: lsk_tune (measure candidate shapes, verify, pick the fastest) and
 * the tune directory, one small text file per (device and its partition
 * where it is a sub-device, driver, lsk version, program, kernel, domain):
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
 * and renamed, so a reader never sees half of one.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define TUNE_MAX_REPEAT 1000

/* ------------------------------------------------------------------ */
/* The directory and the files.                                        */

const char *lsk_tune_dir(const lsk_context *ctx)
{
  LSK__LIVE_OR(NULL, ctx, CONTEXT, __func__, "ctx");
  return ctx->tune_dir;
}

/* The text that identifies a choice. */
static char *tune_key(const lsk_program *prog, const char *kernel, const unsigned dom[3])
{
  const lsk_device_info *d = &prog->ctx->info;
  /* The prelude (generated SoA views) is part of what is built. */
  uint64_t src = lsk__hash64(prog->source, strlen(prog->source), 4) ^
                 lsk__hash64(prog->prelude, strlen(prog->prelude), 5);
  /* A sub-device is not its parent (fewer compute units): its partition
   * joins the key; a whole device's key is as it was before sub-devices.
   * Likewise a device under modeled shapes (LSK_SHAPES) is not the device:
   * the model's name joins the key. */
  return lsk__strdupf("lsk %s\n%s\n%s\n%s\n%s\n%s\n%s%s%s%s%s%ssource %016llx\noptions %s\n"
                      "kernel %s\ndomain %ux%ux%u",
                      LSK_VERSION_STRING, d->platform_name, d->platform_version, d->name,
                      d->version, d->driver_version, d->partition[0] ? "partition " : "",
                      d->partition, d->partition[0] ? "\n" : "", d->shapes[0] ? "shapes " : "",
                      d->shapes, d->shapes[0] ? "\n" : "", (unsigned long long)src, prog->options,
                      kernel, dom[0], dom[1], dom[2]);
}

static char *tune_path(const char *dir, const char *key)
{
  return lsk__strdupf("%s/%016llx.tune", dir, (unsigned long long)lsk__hash64(key, strlen(key), 1));
}

int lsk__tune_load(const lsk_program *prog, const char *dir, const char *kernel,
                   const unsigned dom[3], unsigned *w, unsigned *s)
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
    if (lsk__tune_load(prog, dir, kernel, dom[i], &w, &s))
      found(arg, dom[i], w, s);
  }
}

/* Writes the choice atomically; returns the path (malloc'd) or NULL. */
static char *tune_store(const lsk_program *prog, const char *dir, const char *kernel,
                        const unsigned dom[3], const lsk_tune_result *r)
{
  char *key = tune_key(prog, kernel, dom);
  char *path = key ? tune_path(dir, key) : NULL;
  char *text = NULL;
  if (path) {
    const lsk_device_info *d = &prog->ctx->info;
    text = lsk__strdupf(LSK__TUNE_MAGIC "\nkey %016llx\nworkers %u\nsimd %u\n"
                                        "# kernel %s of '%s', block domain %ux%ux%u, on %s (%s, "
                                        "driver %s), lsk %s\n"
                                        "# best %.6f ms; automatic rule %u x %u: %.6f ms\n",
                        (unsigned long long)lsk__hash64(key, strlen(key), 2), r->workers, r->simd,
                        kernel, prog->name, dom[0], dom[1], dom[2], d->name, d->platform_name,
                        d->driver_version, LSK_VERSION_STRING, r->best * 1e3, r->rule_workers,
                        r->rule_simd, r->rule_best * 1e3);
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

/* ------------------------------------------------------------------ */
/* Tuning.                                                             */

/* One distinct buffer among the arguments: its snapshot and the result of
 * the rule's shape (NULL: the same bytes as the snapshot). */
typedef struct snap {
  lsk_buffer *buf;
  unsigned char *before, *after;
} snap;

typedef struct tuner {
  lsk_kernel *k;
  lsk_context *ctx;
  lsk_launch cfg;
  const lsk_arg *args;
  size_t nargs;
  snap *snaps;
  size_t nsnaps;
  unsigned char *scratch;
  int profiling;
} tuner;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int restore(tuner *t)
{
  for (size_t i = 0; i < t->nsnaps; ++i) {
    int rc = lsk_buffer_write(t->snaps[i].buf, 0, t->snaps[i].before, t->snaps[i].buf->size);
    if (rc)
      return rc;
  }
  return LSK_OK;
}

/* Takes the snapshot of every distinct buffer argument. */
static int take_snapshot(tuner *t)
{
  size_t biggest = 0;
  if (!(t->snaps = calloc(t->nargs ? t->nargs : 1, sizeof *t->snaps)))
    return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
  for (size_t i = 0; i < t->nargs; ++i) {
    if (t->args[i].kind != LSK_ARG_KIND_BUFFER || !t->args[i].v.buffer)
      continue;
    lsk_buffer *b = t->args[i].v.buffer;
    int live = lsk__handle_check(t->ctx, b, &LSK__H_BUFFER, "lsk_tune", "buffer argument");
    if (live)
      return live;
    if (b->ctx != t->ctx)
      return lsk__fail(t->ctx, LSK_EINVAL, "lsk_tune: argument %zu: buffer of another context", i);
    size_t j = 0;
    while (j < t->nsnaps && t->snaps[j].buf != b)
      ++j;
    if (j < t->nsnaps)
      continue;
    snap *sn = &t->snaps[t->nsnaps++];
    sn->buf = b;
    if (!(sn->before = malloc(b->size)))
      return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory for a %zu-byte snapshot",
                       b->size);
    int rc = lsk_buffer_read(b, 0, sn->before, b->size);
    if (rc)
      return rc;
    biggest = b->size > biggest ? b->size : biggest;
  }
  if (biggest && !(t->scratch = malloc(biggest)))
    return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
  return LSK_OK;
}

static void free_snapshot(tuner *t)
{
  for (size_t i = 0; i < t->nsnaps; ++i) {
    free(t->snaps[i].before);
    free(t->snaps[i].after);
  }
  free(t->snaps);
  free(t->scratch);
}

/* Reads every buffer back. With first, keeps the results as the reference;
 * otherwise *same says whether they equal it. */
static int compare(tuner *t, int first, int *same)
{
  *same = 1;
  for (size_t i = 0; i < t->nsnaps; ++i) {
    snap *sn = &t->snaps[i];
    size_t size = sn->buf->size;
    int rc = lsk_buffer_read(sn->buf, 0, t->scratch, size);
    if (rc)
      return rc;
    const unsigned char *ref = sn->after ? sn->after : sn->before;
    if (first && memcmp(t->scratch, sn->before, size) != 0) {
      if (!(sn->after = malloc(size)))
        return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
      memcpy(sn->after, t->scratch, size);
    } else if (!first && memcmp(t->scratch, ref, size) != 0) {
      *same = 0;
    }
  }
  return LSK_OK;
}

/* One timed run of a shape, in seconds. */
static int timed_run(tuner *t, unsigned w, unsigned s, double *secs)
{
  lsk_launch c = t->cfg;
  c.workers = w;
  c.simd = s;
  if (t->profiling) {
    cl_event ev;
    int rc = lsk_kernel_launch(t->k, &c, t->args, t->nargs, &ev);
    if (rc)
      return rc;
    cl_ulong t0 = 0, t1 = 0;
    cl_int err = clWaitForEvents(1, &ev);
    if (!err)
      err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (!err)
      err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    clReleaseEvent(ev);
    if (err)
      return lsk__fail_cl(t->ctx, err, "clGetEventProfilingInfo", " (lsk_tune)");
    *secs = 1e-9 * (double)(t1 - t0);
    return LSK_OK;
  }
  double t0 = now();
  int rc = lsk_kernel_launch(t->k, &c, t->args, t->nargs, NULL);
  if (!rc) {
    cl_int err = clFinish(t->ctx->queue);
    if (err)
      rc = lsk__fail_cl(t->ctx, err, "clFinish", " (lsk_tune)");
  }
  *secs = now() - t0;
  return rc;
}

void lsk_tune_result_free(lsk_tune_result *r)
{
  if (!r)
    return;
  free(r->entries);
  free(r->path);
  memset(r, 0, sizeof *r);
}

/* The candidates: the rule's shape first, then the given or default ones,
 * each once. */
static int make_entries(tuner *t, const lsk_tune_options *opt, const unsigned dom[3], unsigned rw,
                        unsigned rs, size_t wg_max, lsk_tune_result *out)
{
  size_t size = (size_t)dom[0] * dom[1] * dom[2];
  const lsk_tune_shape *cand = opt ? opt->candidates : NULL;
  size_t ncand = cand ? opt->ncandidates : 0;
  lsk_tune_shape *def = NULL;
  if (!cand) {
    ncand = lsk_tune_candidates(&t->ctx->info, size, wg_max, NULL, 0);
    if (!(def = calloc(ncand ? ncand : 1, sizeof *def)))
      return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
    lsk_tune_candidates(&t->ctx->info, size, wg_max, def, ncand);
    cand = def;
  }
  out->entries = calloc(ncand + 1, sizeof *out->entries);
  if (!out->entries) {
    free(def);
    return lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory");
  }
  out->entries[0] = (lsk_tune_entry){.workers = rw, .simd = rs, .identical = 1};
  size_t n = 1;
  for (size_t i = 0; i < ncand; ++i) {
    int seen = !cand[i].workers || !cand[i].simd;
    for (size_t j = 0; j < n && !seen; ++j)
      seen = out->entries[j].workers == cand[i].workers && out->entries[j].simd == cand[i].simd;
    if (!seen)
      out->entries[n++] = (lsk_tune_entry){.workers = cand[i].workers, .simd = cand[i].simd};
  }
  out->nentries = n;
  free(def);
  return LSK_OK;
}

/* Timed rounds over the entries that verified, the order rotated each
 * round; fills best and median. */
static int time_rounds(tuner *t, lsk_tune_result *out, unsigned repeat, int no_restore)
{
  size_t n = out->nentries;
  double *v = malloc(n * repeat * sizeof *v);
  unsigned *count = calloc(n, sizeof *count);
  int rc = (!v || !count) ? lsk__fail(t->ctx, LSK_ENOMEM, "lsk_tune: out of memory") : LSK_OK;
  for (unsigned r = 0; r < repeat && !rc; ++r)
    for (size_t j = 0; j < n && !rc; ++j) {
      size_t i = (r + j) % n;
      lsk_tune_entry *e = &out->entries[i];
      if (e->status || !e->identical)
        continue;
      if (!no_restore && (rc = restore(t)))
        break;
      rc = timed_run(t, e->workers, e->simd, &v[i * repeat + count[i]]);
      if (!rc)
        count[i]++;
    }
  if (!rc)
    rc = lsk_context_finish(t->ctx);
  for (size_t i = 0; i < n && !rc; ++i) {
    if (!count[i])
      continue;
    double *s = &v[i * repeat];
    qsort(s, count[i], sizeof *s, cmp_double);
    out->entries[i].best = s[0];
    out->entries[i].median =
        count[i] % 2 ? s[count[i] / 2] : 0.5 * (s[count[i] / 2 - 1] + s[count[i] / 2]);
  }
  free(v);
  free(count);
  return rc;
}

int lsk_tune(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
             const lsk_tune_options *opt, lsk_tune_result *out)
{
  if (out)
    memset(out, 0, sizeof *out);
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  lsk_context *ctx = lsk__kernel_program(k)->ctx;
  if (!cfg || !out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s is NULL", __func__, !cfg ? "cfg" : "out");
  if (nargs && !args)
    return lsk__fail(ctx, LSK_EINVAL, "%s: args is NULL", __func__);
  if (opt && opt->candidates == NULL && opt->ncandidates)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %zu candidates but candidates is NULL", __func__,
                     opt->ncandidates);
  unsigned repeat = opt && opt->repeat ? opt->repeat : 5;
  if (repeat > TUNE_MAX_REPEAT)
    return lsk__fail(ctx, LSK_EINVAL, "%s: repeat %u is above %u", __func__, repeat,
                     TUNE_MAX_REPEAT);
  unsigned dom[3], rw, rs;
  size_t wg_max;
  int rc = lsk__kernel_domain(k, cfg, __func__, dom);
  if (!rc)
    rc = lsk__kernel_rule_shape(k, dom, __func__, &rw, &rs, &wg_max);
  if (rc)
    return rc;
  tuner t = {.k = k, .ctx = ctx, .cfg = *cfg, .args = args, .nargs = nargs};
  cl_command_queue_properties qp = 0;
  t.profiling =
      clGetCommandQueueInfo(ctx->queue, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL) == CL_SUCCESS &&
      (qp & CL_QUEUE_PROFILING_ENABLE);
  memcpy(out->domain, dom, sizeof dom);
  out->rule_workers = rw;
  out->rule_simd = rs;
  if ((rc = make_entries(&t, opt, dom, rw, rs, wg_max, out)) || (rc = take_snapshot(&t)))
    goto tune_out;

  /* Each candidate once from the snapshot: builds it, warms it up, and its
   * result is compared with the rule's. */
  for (size_t i = 0; i < out->nentries; ++i) {
    lsk_tune_entry *e = &out->entries[i];
    lsk_launch c = *cfg;
    c.workers = e->workers;
    c.simd = e->simd;
    if ((rc = restore(&t)))
      goto tune_out;
    e->status = lsk_kernel_run(k, &c, args, nargs);
    if (e->status && i == 0) {
      rc = e->status;
      goto tune_out;
    }
    if (!e->status && (rc = compare(&t, i == 0, &e->identical)))
      goto tune_out;
  }
  if ((rc = time_rounds(&t, out, repeat, opt && opt->no_restore)))
    goto tune_out;

  size_t pick = 0;
  for (size_t i = 1; i < out->nentries; ++i) {
    const lsk_tune_entry *e = &out->entries[i];
    if (!e->status && e->identical && e->best < out->entries[pick].best)
      pick = i;
  }
  out->workers = out->entries[pick].workers;
  out->simd = out->entries[pick].simd;
  out->best = out->entries[pick].best;
  out->rule_best = out->entries[0].best;
  lsk__kernel_set_tuned(k, dom, out->workers, out->simd);
  if (ctx->tune_dir && !(opt && opt->no_store)) {
    out->path = tune_store(lsk__kernel_program(k), ctx->tune_dir, lsk__kernel_name(k), dom, out);
    out->stored = out->path != NULL;
  }
tune_out:
  free_snapshot(&t);
  if (rc)
    lsk_tune_result_free(out);
  return rc;
}

int lsk_tune_stored(lsk_kernel *k, const lsk_launch *cfg, int *found, unsigned *workers,
                    unsigned *simd)
{
  if (found)
    *found = 0;
  LSK__LIVE(NULL, k, KERNEL, __func__, "kernel");
  if (!cfg || !found || !workers || !simd)
    return lsk__fail(lsk__kernel_program(k)->ctx, LSK_EINVAL, "%s: %s is NULL", __func__,
                     !cfg       ? "cfg"
                     : !found   ? "found"
                     : !workers ? "workers"
                                : "simd");
  lsk_launch c = *cfg;
  c.workers = c.simd = 0;
  unsigned dom[3], tw, ts;
  int rc = lsk__kernel_domain(k, &c, __func__, dom);
  if (!rc)
    rc = lsk_kernel_shape(k, &c, workers, simd);
  if (rc)
    return rc;
  *found = lsk__kernel_tuned(k, dom, &tw, &ts) && tw == *workers && ts == *simd;
  return LSK_OK;
}
