/*
 * trace.c: what `lsk demo --trace FILE` and `--profile` do at the
 * end of a run on a context that recorded a trace (trace.h): write the
 * file, and print a per-kernel summary from the same record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct row {
  const char *name;
  lsk_trace_kind kind;
  unsigned count;
  double total_ns;
} row;

static int by_total(const void *a, const void *b)
{
  double x = ((const row *)a)->total_ns, y = ((const row *)b)->total_ns;
  return (x < y) - (x > y);
}

int cli_trace_profile(lsk_context *ctx, FILE *out)
{
  size_t n = 0;
  int rc = lsk_trace_count(ctx, &n);
  if (rc)
    return rc;
  row *rows = calloc(n ? n : 1, sizeof *rows);
  if (!rows)
    return LSK_ENOMEM;
  size_t nrows = 0;
  unsigned queues = 0;
  double all = 0;
  for (size_t i = 0; i < n && !rc; ++i) {
    lsk_trace_entry e;
    if ((rc = lsk_trace_get(ctx, i, &e)))
      break;
    double ns = e.end > e.start ? (double)(e.end - e.start) : 0;
    if (e.queue_index + 1 > queues)
      queues = e.queue_index + 1;
    all += ns;
    size_t r = 0;
    while (r < nrows && !(rows[r].kind == e.kind && strcmp(rows[r].name, e.name) == 0))
      ++r;
    if (r == nrows)
      rows[nrows++] = (row){e.name, e.kind, 0, 0};
    rows[r].count++;
    rows[r].total_ns += ns;
  }
  if (!rc) {
    qsort(rows, nrows, sizeof *rows, by_total);
    fprintf(out, "profile: %zu commands, %.3f ms of device time (the sum over queues)\n", n,
            all / 1e6);
    fprintf(out, "  %-32s %8s %12s %12s %7s\n", "kernel or transfer", "count", "total ms",
            "mean us", "share");
    for (size_t r = 0; r < nrows; ++r)
      fprintf(out, "  %-32s %8u %12.3f %12.2f %6.1f%%\n", rows[r].name, rows[r].count,
              rows[r].total_ns / 1e6, rows[r].total_ns / 1e3 / rows[r].count,
              all > 0 ? 100.0 * rows[r].total_ns / all : 0.0);
  }
  (void)queues;
  free(rows);
  return rc;
}

int cli_trace_finish(const char *cmd, lsk_context *ctx, const char *path, int profile)
{
  if (path) {
    int rc = lsk_trace_write(ctx, path);
    if (rc)
      return cli_fail_lsk(cmd, ctx, rc, "writing the trace");
    fprintf(stderr,
            "lsk: %s: trace written to %s (open it in ui.perfetto.dev or chrome://tracing)\n", cmd,
            path);
  }
  if (profile) {
    int rc = cli_trace_profile(ctx, stdout);
    if (rc)
      return cli_fail_lsk(cmd, ctx, rc, "the profile");
  }
  return 0;
}
