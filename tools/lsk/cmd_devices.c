/*
 * cmd_devices.c: `lsk devices`, every OpenCL device lsk can see, one block
 * each, the device lsk would use marked with '*', and how to choose
 * another.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char *const usage_text =
    "usage: lsk [--device SEL] devices\n"
    "Lists every OpenCL device by flat index and platform:device, with the facts lsk\n"
    "relies on. '*' marks the device lsk uses: the one --device or LSK_DEVICE selects,\n"
    "else the first GPU, else the first device.\n";

/* Platforms that report no device; the library skips them. Their names go
 * to names (comma-separated, truncated). Returns the count, *total the
 * number of platforms. */
static unsigned empty_platforms(unsigned *total, char *names, size_t len)
{
  cl_platform_id plats[64];
  cl_uint np = 0;
  names[0] = 0;
  *total = 0;
  if (clGetPlatformIDs(64, plats, &np) != CL_SUCCESS)
    return 0;
  if (np > 64)
    np = 64;
  *total = np;
  unsigned empty = 0;
  size_t used = 0;
  for (cl_uint p = 0; p < np; ++p) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS && nd > 0)
      continue;
    char name[LSK_NAME_MAX] = "";
    if (clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof name, name, NULL) != CL_SUCCESS)
      snprintf(name, sizeof name, "platform %u", (unsigned)p);
    name[sizeof name - 1] = 0;
    if (used < len) {
      int w = snprintf(names + used, len - used, "%s%s", empty ? ", " : "", name);
      used += w > 0 ? (size_t)w : 0;
    }
    ++empty;
  }
  return empty;
}

static void print_device(const lsk_device_info *d, int selected)
{
  char b1[32], b2[32], b3[32];
  printf("%c %u  %u:%u  %s\n", selected ? '*' : ' ', d->index, d->platform_index, d->device_index,
         d->name);
  printf("    %-18s %s, %s\n", "platform", d->platform_name, d->platform_version);
  printf("    %-18s %s (vendor %s)\n", "type",
         d->is_gpu   ? "GPU"
         : d->is_cpu ? "CPU"
                     : "other",
         d->vendor);
  printf("    %-18s %s\n", "OpenCL C", d->opencl_c_version);
  printf("    %-18s %s\n", "driver", d->driver_version);
  printf("    %-18s %u\n", "compute units", d->compute_units);
  printf("    %-18s %zu\n", "max work-group", d->max_work_group_size);
  printf("    %-18s %s\n", "local memory", cli_fmt_bytes(d->local_mem_size, b1, sizeof b1));
  printf("    %-18s %s (largest allocation %s)\n", "global memory",
         cli_fmt_bytes(d->global_mem_size, b2, sizeof b2),
         cli_fmt_bytes(d->max_alloc_size, b3, sizeof b3));
  printf("    %-18s %u bytes\n", "base alignment", d->base_addr_align);
  if (d->warp_size)
    printf("    %-18s %u\n", "warp size", d->warp_size);
  /* A kernel property: ask a context on this device for it. */
  char sel[16];
  snprintf(sel, sizeof sel, "%u", d->index);
  lsk_context *ctx = NULL;
  if (lsk_context_create(&(lsk_context_options){.device = sel}, &ctx) == LSK_OK)
    printf("    %-18s %zu\n", "preferred multiple", lsk_context_device(ctx)->preferred_multiple);
  lsk_context_destroy(ctx);
  printf("    %-18s %s\n", "fp64", d->has_fp64 ? "yes" : "no");
  printf("    %-18s %s\n", "64-bit atomics", d->has_int64_atomics ? "yes" : "no");
}

int cmd_devices(int argc, char **argv)
{
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
    cli_fail("devices", "unexpected argument '%s'", argv[i]);
    fputs(usage_text, stderr);
    return 2;
  }

  lsk_device_info *list;
  size_t n;
  int rc = lsk_device_list(&list, &n);
  if (rc)
    return cli_fail_lsk("devices", NULL, rc, NULL);

  const char *sel;
  const char *origin = cli_device_origin(&sel);
  unsigned chosen;
  int bad = lsk_device_select(NULL, &chosen) != LSK_OK;

  printf("OpenCL devices (index, platform:device, name):\n");
  for (size_t i = 0; i < n; ++i) {
    printf("\n");
    print_device(&list[i], !bad && list[i].index == chosen);
  }
  printf("\n");
  if (bad)
    printf("No device is marked: %s%s%s matches none.\n", origin, origin[0] == '-' ? " " : "=",
           sel);
  else if (origin)
    printf("* the device that %s%s%s selects.\n", origin, origin[0] == '-' ? " " : "=", sel);
  else
    printf("* the device lsk uses by default (the first GPU, else the first device).\n");
  printf("Choose a device with LSK_DEVICE=SEL or 'lsk --device SEL <command>', SEL being a\n"
         "flat index (0), platform:device (0:0; each an index or a name substring) or a\n"
         "name substring (nvidia, pocl).\n");

  unsigned total;
  char names[512];
  unsigned empty = empty_platforms(&total, names, sizeof names);
  if (empty)
    printf("%u of %u OpenCL platforms %s no devices and %s not listed: %s.\n", empty, total,
           empty == 1 ? "has" : "have", empty == 1 ? "is" : "are", names);
  lsk_device_list_free(list);
  if (bad)
    return cli_fail("devices",
                    "no such device: '%s' (%s); use an index or platform:device "
                    "from the list above",
                    sel, origin);
  return 0;
}
