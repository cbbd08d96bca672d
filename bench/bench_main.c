/*
 * bench_main.c: `lsk bench`, the one measure of lsk's speed. Each case
 * times lsk against hand-written raw OpenCL (and plain C where it makes
 * sense) in the same run, interleaved, after warm-up; device times come
 * from OpenCL profiling events, host-side costs from a monotonic clock.
 * Results are checked against a C reference before anything is timed.
 *
 * This file is the bench's entry (bench_main.h, which the lsk command
 * calls): it parses the arguments and runs the table of cases. The rest of
 * bench/: the cases' list (list.h) and table (cases.c), the statistics
 * (stats.c), the report writers (report.c), the build case's child
 * processes (child.c, behind the hidden flag BENCH_BUILD_CHILD_FLAG) and
 * one file per case family; the cases that run the examples live with
 * them (examples/<x>/bench_<x>.c).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_main.h"
#include "parse.h"

static const char usage_head[] =
    "usage: lsk bench [--quick] [--sweep] [--size LOG2] [--repeat N] [--domain D]\n"
    "                 [--workers W] [--simd S] [--blocks B] [--json FILE] [--plot FILE.png]\n"
    "                 [--no-build] [--only CASE,...] [--skip CASE,...] [--trace FILE]\n"
    "  --skip CASE,...  leave these cases out (the limit runs where a row needs it).\n"
    "  --trace FILE  record every command lsk enqueues in the run (the cases share\n"
    "                one context) and write the timeline to FILE as trace-event JSON\n"
    "                (ui.perfetto.dev, chrome://tracing, docs/tools/trace_png.py).\n"
    "                Not recorded: the raw OpenCL rows, the build case's child\n"
    "                processes, the Boost.Compute peer. Each lsk command then makes\n"
    "                an event that the record keeps: compare timings of a traced run\n"
    "                only with traced runs. Off by default.\n";

/* The usage text: its head, then the cases from the table (with help:
 * one line each). */
static const char *usage(char *buf, size_t len, int help)
{
  size_t n = (size_t)snprintf(buf, len, "%s", usage_head);
  bench_case_list(buf + (n < len ? n : len), n < len ? len - n : 0, help);
  return buf;
}

int bench_main(int argc, char **argv)
{
  char text[4096];
  const char *usage_text = usage(text, sizeof text, 0);
  bench bn = {.log2n = 25, .repeat = 15, .domain = 4096};
  bn.tail = &bn.results;
  const char *json = NULL, *plot = NULL;
  int sweep = 0, no_build = 0;
  const char *only = NULL, *skip = NULL;
  unsigned long long x;
  /* A child of the build case (bench/child.c). */
  if (argc == 4 && strcmp(argv[1], BENCH_BUILD_CHILD_FLAG) == 0) {
    if (cli_parse_uint(argv[3], 1, LSK_MAX_DOMAIN, &x))
      return cli_fail("bench", "build child: bad domain '%s'", argv[3]);
    return bench_build_child(argv[2], (unsigned)x);
  }
  /* The numeric options, where each goes and its range. */
  const struct {
    const char *name;
    unsigned long long min, max;
    unsigned *to;
  } nums[] = {{"--size", 10, 31, &bn.log2n},
              {"--repeat", 1, MAX_REPEAT, &bn.repeat},
              {"--domain", 1, UINT_MAX, &bn.domain},
              {"--workers", 1, UINT_MAX, &bn.workers},
              {"--simd", 1, UINT_MAX, &bn.simd}};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    size_t num = 0;
    while (num < sizeof nums / sizeof nums[0] && strcmp(a, nums[num].name) != 0)
      ++num;
    int rc;
    if (num < sizeof nums / sizeof nums[0]) {
      if ((rc = cli_opt_uint("bench", usage_text, a, v, nums[num].min, nums[num].max, &x)))
        return rc;
      *nums[num].to = (unsigned)x;
      ++i;
    } else if (strcmp(a, "--blocks") == 0) {
      if ((rc = cli_opt_uint("bench", usage_text, a, v, 1, SIZE_MAX, &x)))
        return rc;
      bn.blocks = (size_t)x;
      ++i;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage(text, sizeof text, 1), stdout);
      return 0;
    } else if (strcmp(a, "--quick") == 0)
      bn.quick = 1;
    else if (strcmp(a, "--sweep") == 0)
      sweep = 1;
    else if (strcmp(a, "--json") == 0 && v)
      json = argv[++i];
    else if (strcmp(a, "--plot") == 0 && v)
      plot = argv[++i];
    else if (strcmp(a, "--trace") == 0 && v && *v)
      bn.trace = argv[++i];
    else if (strcmp(a, "--no-build") == 0)
      no_build = 1;
    else if (strcmp(a, "--only") == 0 && v) {
      size_t len;
      const char *bad = bench_unknown_case(v, &len);
      if (bad)
        return cli_usage("bench", usage_text, "no such case '%.*s' in --only %s", (int)len, bad, v);
      only = argv[++i];
    } else if (strcmp(a, "--skip") == 0 && v) {
      size_t len;
      const char *bad = bench_unknown_case(v, &len);
      if (bad)
        return cli_usage("bench", usage_text, "no such case '%.*s' in --skip %s", (int)len, bad, v);
      skip = argv[++i];
    } else
      return cli_usage("bench", usage_text, "bad option or value '%s'", a);
  }
  if (bn.quick) {
    bn.log2n = bn.log2n < 16 ? bn.log2n : 16;
    bn.repeat = 3;
  }
  /* The progress line rewrites itself with \r: on a terminal only. */
  bn.progress = !bn.quick && isatty(STDERR_FILENO);
  int rc = bench_open(&bn);
  if (!rc && sweep)
    rc = bench_sweep(&bn);
  if (!rc && !sweep)
    rc = bench_run(&bn, only, skip, no_build);
  if (!rc && !sweep)
    bench_print_table(&bn);
  if (!rc && json)
    rc = bench_write_json(&bn, json);
  if (!rc && plot && !sweep)
    rc = bench_write_plot(&bn, plot);
  if (!rc && bn.trace)
    rc = cli_trace_finish("bench", bn.ctx, bn.trace, 0);
  bench_close(&bn);
  return rc ? 1 : 0;
}
