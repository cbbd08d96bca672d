/*
 * cmd_tune.c: `lsk tune`, lsk_tune on the bench's kernels. For each block
 * domain asked for, it tunes the triad (bench_kernels.cl; the bench's other
 * kernel, `empty`, has nothing to tune), prints the table it measured with
 * the automatic rule's shape and the best marked, checks the result against
 * C, and stores the choice for later automatic launches (tune.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "parse.h"

extern const char bench_kernels_source[];

#define MAX_DOMAINS 16

static const char usage_text[] =
    "usage: lsk tune [--domain D[,D...]] [--size LOG2] [--repeat N] [--no-store] [--quick]\n"
    "  --domain   block domains to tune the triad for (default 4096)\n"
    "  --size     2^LOG2 doubles per array (default 25, as lsk bench)\n"
    "  --repeat   timed rounds over all candidates, best taken (default 5)\n"
    "  --no-store measure and print, store nothing\n"
    "  --quick    a smoke run: 2^16 doubles, 2 rounds\n"
    "The choice is stored in LSK_TUNE_DIR, else $XDG_CACHE_HOME/lsk, else\n"
    "$HOME/.cache/lsk; automatic launches use it unless LSK_TUNE=0.\n";

typedef struct triad {
  size_t n;
  double *b, *c, *got;
  lsk_buffer *da, *db, *dc;
} triad;

static int triad_setup(lsk_context *ctx, triad *t, unsigned log2n)
{
  t->n = (size_t)1 << log2n;
  size_t bytes = t->n * sizeof(double);
  t->b = malloc(bytes);
  t->c = malloc(bytes);
  t->got = malloc(bytes);
  if (!t->b || !t->c || !t->got)
    return cli_fail("tune", "out of host memory for %zu doubles", t->n);
  for (size_t i = 0; i < t->n; ++i) {
    t->b[i] = (double)(i % 1000) * 0.5;
    t->c[i] = 1.0 / (double)(1 + i % 7);
  }
  double zero = 0;
  int rc = lsk_buffer_create(ctx, bytes, &t->da);
  if (!rc)
    rc = lsk_buffer_create(ctx, bytes, &t->db);
  if (!rc)
    rc = lsk_buffer_create(ctx, bytes, &t->dc);
  if (!rc)
    rc = lsk_buffer_write(t->db, 0, t->b, bytes);
  if (!rc)
    rc = lsk_buffer_write(t->dc, 0, t->c, bytes);
  if (!rc)
    rc = lsk_buffer_fill(t->da, &zero, sizeof zero, 0, bytes);
  return rc ? cli_fail_lsk("tune", ctx, rc, "triad buffers") : 0;
}

static void triad_teardown(triad *t)
{
  lsk_buffer_destroy(t->da);
  lsk_buffer_destroy(t->db);
  lsk_buffer_destroy(t->dc);
  free(t->b);
  free(t->c);
  free(t->got);
}

/* After tuning, a holds the last run's result: it must be C's. */
static int triad_check(lsk_context *ctx, triad *t)
{
  int rc = lsk_buffer_read(t->da, 0, t->got, t->n * sizeof(double));
  if (rc)
    return cli_fail_lsk("tune", ctx, rc, "reading the triad back");
  size_t bad = 0;
  for (size_t i = 0; i < t->n; ++i)
    bad += t->got[i] != t->b[i] + 3.0 * t->c[i];
  return bad ? cli_fail("tune", "triad: %zu elements differ from C", bad) : 0;
}

static void print_table(const lsk_tune_result *r, double bytes, size_t domain)
{
  printf("%8s %6s %6s %11s %11s %8s  %s\n", "workers", "simd", "steps", "best ms", "median ms",
         "GB/s", "verified");
  for (size_t i = 0; i < r->nentries; ++i) {
    const lsk_tune_entry *e = &r->entries[i];
    size_t per_step = (size_t)e->workers * e->simd;
    size_t steps = (domain + per_step - 1) / per_step;
    int is_rule = i == 0, is_best = e->workers == r->workers && e->simd == r->simd;
    const char *mark = is_rule && is_best ? "  <- automatic, best"
                       : is_rule          ? "  <- automatic"
                       : is_best          ? "  <- best"
                                          : "";
    if (e->status)
      printf("%8u %6u %6zu %11s %11s %8s  %s (%s)\n", e->workers, e->simd, steps, "-", "-", "-",
             "not run", lsk_status_name(e->status));
    else if (!e->identical)
      printf("%8u %6u %6zu %11s %11s %8s  %s\n", e->workers, e->simd, steps, "-", "-", "-",
             "NO: result differs");
    else
      printf("%8u %6u %6zu %11.3f %11.3f %8.1f  yes%s\n", e->workers, e->simd, steps, e->best * 1e3,
             e->median * 1e3, bytes / e->best * 1e-9, mark);
  }
}

/* "256,1024" into domains; 0 on a bad list. */
static unsigned parse_domains(const char *s, unsigned *out)
{
  unsigned n = 0;
  while (*s && n < MAX_DOMAINS) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || v == 0 || v > LSK_MAX_DOMAIN || (*end && *end != ','))
      return 0;
    out[n++] = (unsigned)v;
    s = *end ? end + 1 : end;
  }
  return *s ? 0 : n;
}

int cmd_tune(int argc, char **argv)
{
  unsigned domains[MAX_DOMAINS] = {4096}, ndomains = 1, log2n = 25, repeat = 5;
  int quick = 0, no_store = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    } else if (strcmp(a, "--quick") == 0) {
      quick = 1;
    } else if (strcmp(a, "--no-store") == 0) {
      no_store = 1;
    } else if (strcmp(a, "--domain") == 0 && v && (ndomains = parse_domains(v, domains))) {
      ++i;
    } else if (strcmp(a, "--size") == 0 || strcmp(a, "--repeat") == 0) {
      int size = strcmp(a, "--size") == 0, rc;
      unsigned long long x;
      if ((rc = cli_opt_uint("tune", usage_text, a, v, size ? 10 : 1, size ? 31 : 1000, &x)))
        return rc;
      *(size ? &log2n : &repeat) = (unsigned)x;
      ++i;
    } else {
      return cli_usage("tune", usage_text, "bad option or value '%s'", a);
    }
  }
  if (quick) {
    log2n = log2n < 16 ? log2n : 16;
    repeat = 2;
  }
  lsk_context *ctx;
  if (cli_context_open_opt("tune", &(lsk_context_options){.profiling = 1}, &ctx))
    return 1;
  const lsk_device_info *d = lsk_context_device(ctx);
  if (cli_need_fp64("tune", ctx, "the tuned triad uses double")) /* the bench's, in double */
    return 1;
  printf("lsk %s tune on %s (%s, driver %s)\n", lsk_version(), d->name, d->platform_name,
         d->driver_version);
  printf("kernel triad of bench_kernels.cl, 2^%u doubles, best of %u interleaved rounds\n", log2n,
         repeat);
  const char *dir = lsk_tune_dir(ctx);
  if (no_store || !dir)
    printf("choices are not stored (%s)\n", no_store ? "--no-store" : "LSK_TUNE=0");
  triad t = {0};
  lsk_program *prog = NULL;
  int rc = triad_setup(ctx, &t, log2n);
  if (!rc && lsk_program_create(ctx, bench_kernels_source,
                                &(lsk_program_options){.name = "bench_kernels.cl"}, &prog))
    rc = cli_fail_lsk("tune", ctx, 1, NULL);
  double bytes = 3.0 * sizeof(double) * (double)t.n;
  double ratio[MAX_DOMAINS] = {0};
  unsigned rule[MAX_DOMAINS][2], best[MAX_DOMAINS][2];
  for (unsigned di = 0; di < ndomains && !rc; ++di) {
    lsk_kernel *k = NULL;
    if ((rc = lsk_kernel_create(prog, "triad", &k) ? cli_fail_lsk("tune", ctx, 1, NULL) : 0))
      break;
    size_t data_blocks = (t.n + domains[di] - 1) / domains[di];
    lsk_launch cfg = {.domain = {domains[di]}, .blocks = {data_blocks}};
    lsk_tune_options opt = {.repeat = repeat, .no_restore = 1, .no_store = no_store};
    lsk_tune_result r;
    printf("\nblock domain %u:\n", domains[di]);
    fflush(stdout);
    int st = lsk_tune(k, &cfg,
                      LSK_ARGS(LSK_ARG_BUFFER(t.da), LSK_ARG_BUFFER(t.db), LSK_ARG_BUFFER(t.dc),
                               LSK_ARG_DOUBLE(3.0), LSK_ARG_UINT((unsigned)t.n)),
                      &opt, &r);
    if (st) {
      rc = cli_fail_lsk("tune", ctx, st, "lsk_tune");
    } else {
      print_table(&r, bytes, domains[di]);
      ratio[di] = r.rule_best / r.best;
      rule[di][0] = r.rule_workers;
      rule[di][1] = r.rule_simd;
      best[di][0] = r.workers;
      best[di][1] = r.simd;
      printf("automatic %u x %u / best %u x %u: %.3f (time ratio; 1 is the best)\n", r.rule_workers,
             r.rule_simd, r.workers, r.simd, ratio[di]);
      if (r.stored)
        printf("stored: %s\n", r.path);
      rc = triad_check(ctx, &t);
      lsk_tune_result_free(&r);
    }
    lsk_kernel_destroy(k);
  }
  if (!rc && ndomains > 1) {
    printf("\n%8s %12s %12s %16s\n", "domain", "automatic", "best", "automatic/best");
    for (unsigned di = 0; di < ndomains; ++di)
      printf("%8u %5u x %-4u %5u x %-4u %16.3f\n", domains[di], rule[di][0], rule[di][1],
             best[di][0], best[di][1], ratio[di]);
  }
  lsk_program_destroy(prog);
  triad_teardown(&t);
  lsk_context_destroy(ctx);
  return rc ? 1 : 0;
}
