/*
 * cmd_tune.c: `lsk tune`, lsk_tune on the bench's kernels. For each block
 * domain asked for, it tunes the triad (bench_kernels.cl; the bench's other
 * kernel, `empty`, has nothing to tune) on the bench's triad fixture
 * (bench/triad.h: the same data, the same check), prints the table it
 * measured with the automatic rule's shape and the best marked, checks the
 * result against C, and stores the choice for later automatic launches
 * (tune.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "parse.h"
#include "triad.h"

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

/* The options. */
typedef struct tune_args {
  unsigned domains[MAX_DOMAINS], ndomains, log2n, repeat;
  int no_store;
} tune_args;

/* What one domain's tuning found, for the summary. */
typedef struct tuned {
  unsigned rule[2], best[2];
  double ratio;
} tuned;

/* 0, a usage error's status, or -1 after the help. */
static int parse_args(int argc, char **argv, tune_args *o)
{
  *o = (tune_args){.domains = {4096}, .ndomains = 1, .log2n = 25, .repeat = 5};
  int quick = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return -1;
    } else if (strcmp(a, "--quick") == 0) {
      quick = 1;
    } else if (strcmp(a, "--no-store") == 0) {
      o->no_store = 1;
    } else if (strcmp(a, "--domain") == 0 && v && (o->ndomains = parse_domains(v, o->domains))) {
      ++i;
    } else if (strcmp(a, "--size") == 0 || strcmp(a, "--repeat") == 0) {
      int size = strcmp(a, "--size") == 0, rc;
      unsigned long long x;
      if ((rc = cli_opt_uint("tune", usage_text, a, v, size ? 10 : 1, size ? 31 : 1000, &x)))
        return rc;
      *(size ? &o->log2n : &o->repeat) = (unsigned)x;
      ++i;
    } else {
      return cli_usage("tune", usage_text, "bad option or value '%s'", a);
    }
  }
  if (quick) {
    o->log2n = o->log2n < 16 ? o->log2n : 16;
    o->repeat = 2;
  }
  return 0;
}

/* The triad tuned for one block domain: the table, the choice, the check
 * of the result against C. 0, or 1 after the message. */
static int tune_domain(lsk_context *ctx, lsk_program *prog, triad *t, const tune_args *o,
                       unsigned domain, tuned *out)
{
  lsk_kernel *k = NULL;
  if (lsk_kernel_create(prog, "triad", &k))
    return cli_fail_lsk("tune", ctx, 1, NULL);
  size_t data_blocks = (t->n + domain - 1) / domain;
  lsk_launch cfg = {.domain = {domain}, .blocks = {data_blocks}};
  lsk_tune_options opt = {.repeat = o->repeat, .no_restore = 1, .no_store = o->no_store};
  lsk_tune_result r;
  printf("\nblock domain %u:\n", domain);
  fflush(stdout);
  int rc = lsk_tune(k, &cfg,
                    LSK_ARGS(LSK_ARG_BUFFER(t->da), LSK_ARG_BUFFER(t->db), LSK_ARG_BUFFER(t->dc),
                             LSK_ARG_DOUBLE(3.0), LSK_ARG_UINT((unsigned)t->n)),
                    &opt, &r, NULL);
  if (rc) {
    rc = cli_fail_lsk("tune", ctx, rc, "lsk_tune");
  } else {
    print_table(&r, 3.0 * sizeof(double) * (double)t->n, domain);
    *out = (tuned){{r.rule_workers, r.rule_simd}, {r.workers, r.simd}, r.rule_best / r.best};
    printf("automatic %u x %u / best %u x %u: %.3f (time ratio; 1 is the best)\n", r.rule_workers,
           r.rule_simd, r.workers, r.simd, out->ratio);
    if (r.stored)
      printf("stored: %s\n", r.path);
    /* After tuning, a holds the last run's result: it must be C's. */
    char who[48];
    snprintf(who, sizeof who, "block domain %u", domain);
    rc = bench_triad_check(ctx, "tune", t, who);
    lsk_tune_result_free(&r);
  }
  lsk_kernel_destroy(k);
  return rc;
}

int cmd_tune(int argc, char **argv)
{
  tune_args o;
  int rc = parse_args(argc, argv, &o);
  if (rc)
    return rc < 0 ? 0 : rc;
  lsk_context *ctx;
  if (cli_context_open_opt("tune", &(lsk_context_options){.profiling = 1}, &ctx))
    return 1;
  const lsk_device_info *d = lsk_context_device(ctx);
  if (cli_need_fp64("tune", ctx, "the tuned triad uses double")) /* the bench's, in double */
    return 1;
  printf("lsk %s tune on %s (%s, driver %s)\n", lsk_version(), d->name, d->platform_name,
         d->driver_version);
  printf("kernel triad of bench_kernels.cl, 2^%u doubles, best of %u interleaved rounds\n", o.log2n,
         o.repeat);
  const char *dir = lsk_tune_dir(ctx);
  if (o.no_store || !dir)
    printf("choices are not stored (%s)\n", o.no_store ? "--no-store" : "LSK_TUNE=0");
  triad t = {0};
  lsk_program *prog = NULL;
  rc = bench_triad_data(ctx, "tune", o.log2n, &t);
  if (!rc && lsk_program_create(ctx, bench_kernels_source,
                                &(lsk_program_options){.name = "bench_kernels.cl"}, &prog))
    rc = cli_fail_lsk("tune", ctx, 1, NULL);
  tuned found[MAX_DOMAINS];
  for (unsigned di = 0; di < o.ndomains && !rc; ++di)
    rc = tune_domain(ctx, prog, &t, &o, o.domains[di], &found[di]);
  if (!rc && o.ndomains > 1) {
    printf("\n%8s %12s %12s %16s\n", "domain", "automatic", "best", "automatic/best");
    for (unsigned di = 0; di < o.ndomains; ++di)
      printf("%8u %5u x %-4u %5u x %-4u %16.3f\n", o.domains[di], found[di].rule[0],
             found[di].rule[1], found[di].best[0], found[di].best[1], found[di].ratio);
  }
  lsk_program_destroy(prog);
  bench_triad_teardown(&t);
  lsk_context_destroy(ctx);
  return rc ? 1 : 0;
}
