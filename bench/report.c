/*
 * bench/report.c: what `lsk bench` writes once the cases have run: the
 * table on stdout, --json FILE (every sample, for other tools; a NaN or
 * infinite number is written as null, which JSON has, not as nan or inf,
 * which it has not) and --plot FILE.png (a gnuplot script, kept, and
 * gnuplot run on it).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "process.h"

/* The table: best and median of each row, lsk against its reference. */
void bench_print_table(const bench *bn)
{
  printf("%-34s %-28s %11s %11s %9s %9s  %s\n", "case", "against", "lsk best", "ref best", "ratio",
         "median", "lsk rate");
  for (const result *r = bn->results; r; r = r->next) {
    if (!r->lsk.n)
      continue;
    double lb = bench_best(&r->lsk), rb = bench_best(&r->ref), lm = bench_median(&r->lsk),
           rm = bench_median(&r->ref);
    switch (r->kind) {
    case KIND_RATE:
      printf("%-34s %-28s %8.3f ms %8.3f ms %9.3f %9.3f  %.1f %s\n", r->name, r->ref_name, lb * 1e3,
             rb * 1e3, rb / lb, rm / lm, r->work / lb * 1e-9, r->unit);
      break;
    case KIND_LAUNCH:
      printf("%-34s %-28s %8.2f us %8.2f us %+9.2f %+9.2f  us more per launch\n", r->name,
             r->ref_name, lb, rb, lb - rb, lm - rm);
      break;
    case KIND_LIMIT:
      /* The ratio columns: its rates as fractions of the limit's. */
      printf("%-34s %-28s %8.3f ms %11s %9.3f %9.3f  %.1f %s\n", r->name, r->ref_name, lb * 1e3, "",
             r->work / lb / bn->limit_best, r->work / lm / bn->limit_median, r->work / lb * 1e-9,
             r->unit);
      break;
    case KIND_BUILD:
      printf("%-34s %-28s %8.3f ms %8.1f ms %9.4g %9.4g  ", r->name, r->ref_name, lb * 1e3,
             rb * 1e3, rb / lb, rm / lm);
      if (r->lsk_first.n)
        printf("first run %.1f ms (cold: %.1f ms)\n", bench_best(&r->lsk_first) * 1e3,
               bench_best(&r->ref_first) * 1e3);
      else
        printf("\n");
      break;
    }
  }
  bench_print_fractions(bn);
}

/* Rate of work over seconds as a fraction of limit (bytes/s). */
static double fraction(double work, double seconds, double limit) { return work / seconds / limit; }

void bench_print_fractions(const bench *bn)
{
  int any = 0;
  for (const result *r = bn->results; r; r = r->next)
    any |= r->bandwidth && r->lsk.n;
  if (!any || !(bn->limit_best > 0))
    return;
  printf("\nfraction of the limit: %.1f GB/s best (%s), %.1f GB/s the best median; reduce reads "
         "one array and scan moves 8 bytes an element, against the triad's 24\n",
         bn->limit_best * 1e-9, bn->limit_from, bn->limit_median * 1e-9);
  printf("%-34s %-28s %9s %9s %9s\n", "case", "against", "lsk best", "median", "ref best");
  for (const result *r = bn->results; r; r = r->next) {
    if (!r->bandwidth || !r->lsk.n)
      continue;
    printf("%-34s %-28s %9.3f %9.3f %9.3f\n", r->name, r->ref_name,
           fraction(r->work, bench_best(&r->lsk), bn->limit_best),
           fraction(r->work, bench_median(&r->lsk), bn->limit_median),
           fraction(r->work, bench_best(&r->ref), bn->limit_best));
  }
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

/* A number printed with fmt, or null where it is NaN or infinite. */
static void json_number(FILE *f, const char *fmt, double v)
{
  if (isfinite(v))
    fprintf(f, fmt, v);
  else
    fputs("null", f);
}

static void json_samples(FILE *f, const samples *s)
{
  fputc('[', f);
  for (unsigned i = 0; i < s->n; ++i) {
    fputs(i ? ", " : "", f);
    json_number(f, "%.9g", s->v[i]);
  }
  fputc(']', f);
}

static const char *kind_name(kind k)
{
  return k == KIND_RATE     ? "rate"
         : k == KIND_LAUNCH ? "launch"
         : k == KIND_LIMIT  ? "limit"
                            : "build";
}

int bench_write_json(const bench *bn, const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return cli_fail("bench", "cannot write '%s'", path);
  const lsk_device_info *d = lsk_context_device(bn->ctx);
  char date[32];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  fprintf(f, "{\n  \"lsk_version\": ");
  json_string(f, lsk_version());
  fprintf(f, ",\n  \"date\": \"%s\",\n  \"device\": ", date);
  json_string(f, d->name);
  fprintf(f, ",\n  \"platform\": ");
  json_string(f, d->platform_name);
  fprintf(f, ",\n  \"platform_version\": ");
  json_string(f, d->platform_version);
  fprintf(f, ",\n  \"driver\": ");
  json_string(f, d->driver_version);
  fprintf(f, ",\n  \"elements_log2\": %u,\n  \"repeat\": %u,\n  \"domain\": %u,\n", bn->log2n,
          bn->repeat, bn->domain);
  fprintf(f, "  \"units\": {\"rate\": \"seconds\", \"launch\": \"microseconds per launch\", "
             "\"build\": \"seconds\", \"limit\": \"seconds\"},\n");
  /* The limit (GB/s), where the limit case ran; bandwidth rows carry
   * their fractions of it. */
  int limit = bn->limit_best > 0;
  if (limit) {
    fprintf(f, "  \"limit\": {\"best_gb_s\": ");
    json_number(f, "%.4g", bn->limit_best * 1e-9);
    fprintf(f, ", \"median_gb_s\": ");
    json_number(f, "%.4g", bn->limit_median * 1e-9);
    fprintf(f, ", \"from\": ");
    json_string(f, bn->limit_from ? bn->limit_from : "");
    fprintf(f, "},\n");
  }
  fprintf(f, "  \"cases\": [");
  for (const result *r = bn->results; r; r = r->next) {
    fprintf(f, "%s\n    {\"case\": ", r == bn->results ? "" : ",");
    json_string(f, r->name);
    fprintf(f, ", \"against\": ");
    json_string(f, r->ref_name);
    fprintf(f, ", \"kind\": \"%s\", \"unit\": \"%s\", \"work\": ", kind_name(r->kind), r->unit);
    json_number(f, "%.0f", r->work);
    fprintf(f, ",\n");
    fprintf(f, "     \"lsk\": ");
    json_samples(f, &r->lsk);
    fprintf(f, ",\n     \"ref\": ");
    json_samples(f, &r->ref);
    if (r->kind == KIND_BUILD) {
      fprintf(f, ",\n     \"lsk_first_run\": ");
      json_samples(f, &r->lsk_first);
      fprintf(f, ",\n     \"ref_first_run\": ");
      json_samples(f, &r->ref_first);
    }
    if (limit && (r->bandwidth || r->kind == KIND_LIMIT)) {
      fprintf(f, ",\n     \"fraction_of_limit\": {\"lsk_best\": ");
      json_number(f, "%.4g", fraction(r->work, bench_best(&r->lsk), bn->limit_best));
      fprintf(f, ", \"lsk_median\": ");
      json_number(f, "%.4g", fraction(r->work, bench_median(&r->lsk), bn->limit_median));
      fprintf(f, ", \"ref_best\": ");
      json_number(f, "%.4g", fraction(r->work, bench_best(&r->ref), bn->limit_best));
      fprintf(f, "}");
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n  ]\n}\n");
  return fclose(f) ? cli_fail("bench", "error writing '%s'", path) : 0;
}

/* --plot FILE.png: a gnuplot script (FILE.gp, kept) with the speed ratio of
 * every row, best and median, on a log scale, and gnuplot run on it. */
int bench_write_plot(const bench *bn, const char *png)
{
  char script[4096];
  size_t len = strlen(png);
  if (len > 4 && strcmp(png + len - 4, ".png") == 0)
    len -= 4;
  snprintf(script, sizeof script, "%.*s.gp", (int)len, png);
  FILE *f = fopen(script, "w");
  if (!f)
    return cli_fail("bench", "cannot write '%s'", script);
  const lsk_device_info *d = lsk_context_device(bn->ctx);
  char date[32];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
  fprintf(f, "# written by lsk bench --plot; run: gnuplot %s\n", script);
  fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
             "  set terminal pngcairo size 1200,700 font ',10'\n"
             "} else {\n"
             "  set terminal png size 1200,700\n"
             "}\n");
  fprintf(f, "set output '");
  for (const char *p = png; *p; ++p)
    fprintf(f, *p == '\'' ? "''" : "%c", *p);
  fprintf(f, "'\n");
  fprintf(f, "set title \"lsk %s bench on ", lsk_version());
  for (const char *p = d->name; *p; ++p)
    if (*p != '"' && *p != '\\')
      fputc(*p, f);
  fprintf(f, " (driver ");
  for (const char *p = d->driver_version; *p; ++p)
    if (*p != '"' && *p != '\\')
      fputc(*p, f);
  fprintf(f, "), %s\\nspeed ratio: comparison time / lsk time (above 1: lsk faster)\"\n", date);
  fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
             "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset logscale y\n"
             "set grid ytics\nset key top left\nset xtics rotate by 30 right noenhanced\n"
             "set ylabel 'ratio (log scale)'\nset bmargin 10\nset lmargin 22\n");
  fprintf(f, "$data << EOD\n");
  for (const result *r = bn->results; r; r = r->next) {
    if (!r->lsk.n || !r->ref.n)
      continue;
    double rb = bench_best(&r->ref) / bench_best(&r->lsk),
           rm = bench_median(&r->ref) / bench_median(&r->lsk);
    fputc('"', f);
    for (const char *p = r->label; *p; ++p)
      if (*p != '"')
        fputc(*p, f);
    fprintf(f, "\" %.6g %.6g\n", rb, rm);
  }
  fprintf(f, "EOD\n");
  fprintf(f, "plot $data using 2:xtic(1) title 'best', '' using 3 title 'median', "
             "1 with lines lc 'black' dt 2 notitle\n");
  if (fclose(f))
    return cli_fail("bench", "error writing '%s'", script);
  char gnuplot[4096];
  if (cli_find_program("gnuplot", gnuplot, sizeof gnuplot))
    return cli_fail("bench",
                    "--plot needs gnuplot (apt-get install gnuplot-nox); the script is "
                    "in %s",
                    script);
  char *argv[] = {"gnuplot", script, NULL};
  cli_child c;
  int err = cli_spawn(argv, &(cli_spawn_options){.path = gnuplot}, &c);
  if (err)
    return cli_fail("bench", "cannot run gnuplot: %s", strerror(err));
  int status = cli_child_wait(&c);
  if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail("bench", "gnuplot %s failed (status %d)", script, status);
  printf("plot: %s (script %s)\n", png, script);
  return 0;
}
