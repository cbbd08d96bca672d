/*
 * cmd_info.c: `lsk info`, the lsk version, the device a context gets, and
 * the workers and simd the automatic rule (lsk_auto_shape) picks for a
 * block domain, or for a table of domains.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "parse.h"

static const char *const usage_text =
    "usage: lsk [--device SEL] info [--domain X[xY[xZ]]]\n"
    "Prints the lsk version, the selected device, and the workers and simd that the\n"
    "automatic rule picks (workers = simd = 0 in lsk_launch) for a block domain of\n"
    "X*Y*Z indices; without --domain, for a table of domains.\n"
    "  --domain X[xY[xZ]]  block domain extents, each >= 1, at most 16777216 indices\n";

static void print_row(const lsk_device_info *dev, const unsigned ext[3])
{
  size_t size = (size_t)ext[0] * ext[1] * ext[2];
  unsigned w, s;
  lsk_auto_shape(dev, size, 0, &w, &s);
  size_t stride = (size_t)w * s;
  size_t steps = (size + stride - 1) / stride;
  char dom[48];
  if (ext[2] > 1)
    snprintf(dom, sizeof dom, "%ux%ux%u (%zu)", ext[0], ext[1], ext[2], size);
  else if (ext[1] > 1)
    snprintf(dom, sizeof dom, "%ux%u (%zu)", ext[0], ext[1], size);
  else
    snprintf(dom, sizeof dom, "%zu", size);
  /* Idle: index positions of the last step that are masked. */
  printf("  %20s %8u %6u %6zu %6zu %6zu\n", dom, w, s, steps, steps * s, steps * stride - size);
}

int cmd_info(int argc, char **argv)
{
  unsigned ext[3] = {0, 0, 0};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--domain") == 0 || strncmp(a, "--domain=", 9) == 0) {
      const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v)
        return cli_usage("info", usage_text,
                         "option '--domain' needs a value such as 256 or 16x16");
      if (cli_parse_domain(v, ext) != 0)
        return cli_usage("info", usage_text,
                         "bad block domain '%s': expected X, XxY or XxYxZ, each >= 1, "
                         "at most 16777216 indices in all",
                         v);
      continue;
    }
    return cli_usage("info", usage_text, "%s '%s'",
                     a[0] == '-' ? "unknown option" : "unexpected argument", a);
  }

  lsk_context *ctx;
  if (cli_context_open("info", &ctx))
    return 1;
  const lsk_device_info *d = lsk_context_device(ctx);
  const char *sel;
  const char *origin = cli_device_origin(&sel);
  const char *cache = getenv("LSK_CACHE_DIR");
  char b1[32], b2[32];

  printf("lsk %s\n", lsk_version());
  printf("device    %u (%u:%u) %s, %s, %u compute units\n", d->index, d->platform_index,
         d->device_index, d->name,
         d->is_gpu   ? "GPU"
         : d->is_cpu ? "CPU"
                     : "other",
         d->compute_units);
  printf("platform  %s, %s\n", d->platform_name, d->platform_version);
  if (origin)
    printf("selected  by %s%s%s\n", origin, origin[0] == '-' ? " " : "=", sel);
  else
    printf("selected  by default (the first GPU, else the first device)\n");
  printf("limits    max work-group %zu (preferred multiple %zu), local memory %s, largest "
         "allocation %s\n",
         d->max_work_group_size, d->preferred_multiple,
         cli_fmt_bytes(d->local_mem_size, b1, sizeof b1),
         cli_fmt_bytes(d->max_alloc_size, b2, sizeof b2));
  if (d->shapes[0])
    printf("shapes    %s model (LSK_SHAPES): launches, the kernel library and the examples "
           "choose as on that GPU; choices, not speed\n",
           d->shapes);
  if (cache && *cache)
    printf("cache     program binaries in LSK_CACHE_DIR=%s\n", cache);
  else
    printf("cache     off (set LSK_CACHE_DIR to keep program binaries across runs)\n");
  if (lsk_tune_dir(ctx))
    printf("tune      shapes stored by 'lsk tune' in %s come before the rule below "
           "(LSK_TUNE=0: off)\n",
           lsk_tune_dir(ctx));
  else
    printf("tune      off: automatic launches use the rule below only\n");

  printf("\nautomatic shape (lsk_auto_shape; a kernel's own work-group limit can lower "
         "workers):\n");
  printf("  %20s %8s %6s %6s %6s %6s\n", "domain", "workers", "simd", "steps", "slots", "idle");
  if (ext[0]) {
    print_row(d, ext);
  } else {
    static const unsigned table[] = {1, 16, 42, 128, 256, 1024, 4096};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
      print_row(d, (const unsigned[3]){table[i], 1, 1});
  }
  printf("steps: ForEach iterations per worker; slots: LSK_VAR elements per worker;\n"
         "idle: masked index positions in the last step\n");
  lsk_context_destroy(ctx);
  return 0;
}
