/*
 * check_device.c: the device list, selectors (LSK_DEVICE included), a
 * platform without devices, and wrapping an OpenCL context of the caller's.
 *
 * Expectations are computed here from the raw OpenCL enumeration or from
 * the list itself, never taken from lsk's own selection.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>

#include <time.h>

#include "testutil.h"

/* The list, asserted to have at least one device; exit 77 with none. */
static lsk_device_info *device_list(size_t *n)
{
  lsk_device_info *list = NULL;
  int rc = lsk_device_list(&list, n);
  if (rc == LSK_ENODEV) {
    fprintf(stderr, "skipped: no OpenCL device: %s\n", lsk_context_errmsg(NULL));
    exit(77);
  }
  ck_assert_msg(rc == LSK_OK, "lsk_device_list: %s: %s", lsk_status_name(rc),
                lsk_context_errmsg(NULL));
  ck_assert_ptr_nonnull(list);
  ck_assert_uint_ge(*n, 1);
  return list;
}

/* Case-insensitive substring, as the selector syntax documents it. */
static int icontains(const char *hay, const char *needle)
{
  size_t nl = strlen(needle);
  for (; *hay; ++hay) {
    size_t i = 0;
    while (i < nl && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
      ++i;
    if (i == nl)
      return 1;
  }
  return nl == 0;
}

/* The documented "text" selector: first device whose platform (name,
 * vendor, version) or device (name, vendor) contains text. -1 if none. */
static long expect_text(const lsk_device_info *list, size_t n, const char *text)
{
  for (size_t i = 0; i < n; ++i) {
    const lsk_device_info *d = &list[i];
    if (icontains(d->platform_name, text) || icontains(d->platform_vendor, text) ||
        icontains(d->platform_version, text) || icontains(d->name, text) ||
        icontains(d->vendor, text))
      return (long)i;
  }
  return -1;
}

/* The documented default: first GPU, else the first device. */
static unsigned expect_default(const lsk_device_info *list, size_t n)
{
  for (size_t i = 0; i < n; ++i)
    if (list[i].is_gpu)
      return (unsigned)i;
  return 0;
}

/* The raw OpenCL ids of a listed device. */
static void raw_ids(const lsk_device_info *d, cl_platform_id *plat, cl_device_id *dev)
{
  cl_uint np = 0, nd = 0;
  ck_assert_int_eq(clGetPlatformIDs(0, NULL, &np), CL_SUCCESS);
  ck_assert_uint_lt(d->platform_index, np);
  cl_platform_id *plats = calloc(np, sizeof *plats);
  ck_assert_ptr_nonnull(plats);
  ck_assert_int_eq(clGetPlatformIDs(np, plats, NULL), CL_SUCCESS);
  *plat = plats[d->platform_index];
  free(plats);
  ck_assert_int_eq(clGetDeviceIDs(*plat, CL_DEVICE_TYPE_ALL, 0, NULL, &nd), CL_SUCCESS);
  ck_assert_uint_lt(d->device_index, nd);
  cl_device_id *devs = calloc(nd, sizeof *devs);
  ck_assert_ptr_nonnull(devs);
  ck_assert_int_eq(clGetDeviceIDs(*plat, CL_DEVICE_TYPE_ALL, nd, devs, NULL), CL_SUCCESS);
  *dev = devs[d->device_index];
  free(devs);
}

static void select_ok(const char *selector, unsigned want)
{
  unsigned got = 12345;
  int rc = lsk_device_select(selector, &got);
  ck_assert_msg(rc == LSK_OK, "lsk_device_select('%s') -> %s: %s", selector ? selector : "(null)",
                lsk_status_name(rc), lsk_context_errmsg(NULL));
  ck_assert_msg(got == want, "lsk_device_select('%s') gave %u, wanted %u",
                selector ? selector : "(null)", got, want);
}

static void select_fails(const char *selector, const char *text)
{
  unsigned got = 12345;
  TU_FAILS(NULL, lsk_device_select(selector, &got), LSK_ENODEV, text);
  ck_assert_uint_eq(got, 12345);
}

/* A tiny lsk kernel, run and checked on ctx. */
static const char *iota_src = "LSK_KERNEL void iota(LSK_CTX, __global uint *data, uint n)\n"
                              "{\n"
                              "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                              "    LSK_FOREACH(it) {\n"
                              "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
                              "      if (g < n)\n"
                              "        data[g] = 7u * g + 1u;\n"
                              "    }\n"
                              "  }\n"
                              "}\n";

static void run_iota(lsk_context *ctx)
{
  enum { N = 1000 };
  lsk_program *p = tu_program(ctx, "iota.cl", iota_src);
  lsk_kernel *k = tu_kernel(p, "iota");
  lsk_buffer *b = tu_zeros(ctx, N);
  lsk_launch cfg = {.domain = {64}, .blocks = {4}};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(N)), NULL));
  unsigned *h = tu_read_uints(ctx, b, N);
  for (unsigned i = 0; i < N; ++i)
    ck_assert_uint_eq(h[i], 7u * i + 1u);
  free(h);
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
}

/* ------------------------------------------------------------------ */

START_TEST(test_device_list_facts)
{
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  for (size_t i = 0; i < n; ++i) {
    const lsk_device_info *d = &list[i];
    ck_assert_uint_eq(d->index, i);
    ck_assert_uint_gt(strlen(d->platform_name), 0);
    ck_assert_uint_gt(strlen(d->name), 0);
    ck_assert_uint_gt(strlen(d->version), 0);
    ck_assert_uint_gt(d->compute_units, 0);
    ck_assert_uint_gt(d->max_work_group_size, 0);
    ck_assert_uint_gt(d->max_work_item_sizes[0], 0);
    ck_assert_uint_gt(d->local_mem_size, 0);
    ck_assert_uint_gt(d->global_mem_size, 0);
    ck_assert_uint_gt(d->max_alloc_size, 0);
    ck_assert_uint_le(d->max_alloc_size, d->global_mem_size);
    ck_assert_uint_gt(d->base_addr_align, 0);
    /* Strings are terminated inside their arrays. */
    ck_assert_ptr_nonnull(memchr(d->name, 0, LSK_NAME_MAX));
    ck_assert_ptr_nonnull(memchr(d->platform_name, 0, LSK_NAME_MAX));
    /* Platforms and devices in ICD order, devices in order inside. */
    if (i > 0) {
      const lsk_device_info *p = &list[i - 1];
      ck_assert(p->platform_index < d->platform_index ||
                (p->platform_index == d->platform_index && p->device_index < d->device_index));
    }
  }
  lsk_device_list_free(list);
}
END_TEST

/* The facts against the raw OpenCL queries, and the count against the raw
 * enumeration over all platforms. */
START_TEST(test_device_list_matches_opencl)
{
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  cl_uint np = 0;
  ck_assert_int_eq(clGetPlatformIDs(0, NULL, &np), CL_SUCCESS);
  cl_platform_id *plats = calloc(np, sizeof *plats);
  ck_assert_ptr_nonnull(plats);
  ck_assert_int_eq(clGetPlatformIDs(np, plats, NULL), CL_SUCCESS);
  size_t total = 0;
  for (cl_uint p = 0; p < np; ++p) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS)
      total += nd;
  }
  free(plats);
  ck_assert_uint_eq(n, total);

  for (size_t i = 0; i < n; ++i) {
    cl_platform_id plat;
    cl_device_id dev;
    raw_ids(&list[i], &plat, &dev);
    char name[LSK_NAME_MAX] = "";
    size_t wg = 0;
    cl_ulong local = 0, maxalloc = 0;
    cl_uint align = 0;
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    name[LSK_NAME_MAX - 1] = 0;
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), 0);
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL), 0);
    ck_assert_int_eq(
        clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL), 0);
    ck_assert_int_eq(
        clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, NULL), 0);
    ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL), 0);
    ck_assert_str_eq(list[i].name, name);
    ck_assert_uint_eq(list[i].max_work_group_size, wg);
    ck_assert_uint_eq(list[i].local_mem_size, local);
    ck_assert_uint_eq(list[i].max_alloc_size, maxalloc);
    ck_assert_uint_eq(list[i].base_addr_align, align / 8); /* bits to bytes */
    ck_assert_int_eq(list[i].is_gpu, (type & CL_DEVICE_TYPE_GPU) != 0);
    ck_assert_int_eq(list[i].is_cpu, (type & CL_DEVICE_TYPE_CPU) != 0);
  }
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_list_null_args)
{
  lsk_device_info *list = (lsk_device_info *)&list;
  size_t n = 7;
  TU_FAILS(NULL, lsk_device_list(NULL, &n), LSK_EINVAL, "out");
  TU_FAILS(NULL, lsk_device_list(&list, NULL), LSK_EINVAL, "count");
  lsk_device_list_free(NULL); /* a no-op */
  TU_FAILS(NULL, lsk_device_select("0", NULL), LSK_EINVAL, "index");
}
END_TEST

START_TEST(test_device_select_default)
{
  unsetenv("LSK_DEVICE");
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  unsigned want = expect_default(list, n);
  select_ok(NULL, want);
  select_ok("", want);
  lsk_context *ctx = tu_context();
  ck_assert_uint_eq(lsk_context_device(ctx)->index, want);
  ck_assert_str_eq(lsk_context_device(ctx)->name, list[want].name);
  lsk_context_destroy(ctx);
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_select_index)
{
  unsetenv("LSK_DEVICE");
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  select_ok("0", 0);
  for (size_t i = 0; i < n; ++i) {
    char sel[32];
    snprintf(sel, sizeof sel, "%zu", i);
    select_ok(sel, (unsigned)i);
  }
  char past[32];
  snprintf(past, sizeof past, "%zu", n);
  select_fails(past, past);
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_select_platform_device)
{
  unsetenv("LSK_DEVICE");
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  for (size_t i = 0; i < n; ++i) {
    char sel[64];
    snprintf(sel, sizeof sel, "%u:%u", list[i].platform_index, list[i].device_index);
    select_ok(sel, (unsigned)i);
  }
  /* A device index past the platform's devices. */
  char sel[64];
  snprintf(sel, sizeof sel, "%u:%u", list[0].platform_index, 999u);
  select_fails(sel, sel);
  /* A name part and an index part: the platform's first device. */
  snprintf(sel, sizeof sel, "%.20s:%u", list[0].platform_name, list[0].device_index);
  if (!strchr(list[0].platform_name, ':'))
    select_ok(sel, 0);
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_select_substring)
{
  unsetenv("LSK_DEVICE");
  size_t n = 0;
  lsk_device_info *list = device_list(&n);

  /* Part of list[0]'s platform name, upper-cased. */
  const char *pn = list[0].platform_name;
  size_t len = strlen(pn);
  size_t start = len > 3 ? 1 : 0;
  size_t take = len - start > 5 ? 5 : len - start;
  char sub[8] = "";
  int digits = 1;
  for (size_t i = 0; i < take; ++i) {
    sub[i] = (char)toupper((unsigned char)pn[start + i]);
    digits &= isdigit((unsigned char)sub[i]) != 0;
  }
  sub[take] = 0;
  if (!digits && !strchr(sub, ':')) {
    long want = expect_text(list, n, sub);
    ck_assert_int_ge(want, 0);
    select_ok(sub, (unsigned)want);
  } else {
    fprintf(stderr, "test_device_select_substring: platform name '%s' gives no usable part\n", pn);
  }

  /* The device's own name, lower-cased. */
  char lname[LSK_NAME_MAX];
  size_t i = 0;
  for (; list[0].name[i] && i + 1 < sizeof lname; ++i)
    lname[i] = (char)tolower((unsigned char)list[0].name[i]);
  lname[i] = 0;
  if (!strchr(lname, ':'))
    select_ok(lname, (unsigned)expect_text(list, n, lname));

  /* PoCL's platform vendor is "The pocl project". */
  long pocl = expect_text(list, n, "pocl");
  if (pocl >= 0) {
    select_ok("pocl", (unsigned)pocl);
    select_ok("POCL", (unsigned)pocl);
  } else {
    fprintf(stderr, "test_device_select_substring: no PoCL device, 'pocl' not checked\n");
  }
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_select_unknown)
{
  unsetenv("LSK_DEVICE");
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  select_fails("no-such-gpu", "'no-such-gpu'");
  const char *msg = lsk_context_errmsg(NULL);
  /* The message lists every device. */
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(strstr(msg, list[i].name) != NULL, "message '%s' lacks device '%s'", msg,
                  list[i].name);
  ck_assert_ptr_null(strstr(msg, "(LSK_DEVICE)"));
  select_fails("no-such-platform:0", "no-such-platform:0");

  /* lsk_context_create with the same selector fails the same way. */
  lsk_context *ctx = (lsk_context *)&ctx;
  TU_FAILS(NULL, lsk_context_create(&(lsk_context_options){.device = "no-such-gpu"}, &ctx),
           LSK_ENODEV, "'no-such-gpu'");
  ck_assert_ptr_null(ctx);
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_env_unknown)
{
  ck_assert_int_eq(setenv("LSK_DEVICE", "no-such-gpu", 1), 0);
  select_fails(NULL, "'no-such-gpu' (LSK_DEVICE)");
  select_fails("", "(LSK_DEVICE)");
  lsk_context *ctx = (lsk_context *)&ctx;
  TU_FAILS(NULL, lsk_context_create(NULL, &ctx), LSK_ENODEV, "(LSK_DEVICE)");
  ck_assert_ptr_null(ctx);
  TU_FAILS(NULL, lsk_context_create(&(lsk_context_options){0}, &ctx), LSK_ENODEV, "no-such-gpu");
  ck_assert_ptr_null(ctx);

  /* An explicit selector wins over the variable. */
  select_ok("0", 0);
  TU_OK(NULL, lsk_context_create(&(lsk_context_options){.device = "0"}, &ctx));
  ck_assert_uint_eq(lsk_context_device(ctx)->index, 0);
  lsk_context_destroy(ctx);
}
END_TEST

/* LSK_DEVICE picks the last device; with several devices that is not the
 * default one, so the variable must have been read. */
START_TEST(test_device_env_honoured)
{
  unsetenv("LSK_DEVICE");
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  unsigned last = (unsigned)(n - 1);
  char sel[32];
  snprintf(sel, sizeof sel, "%u", last);
  ck_assert_int_eq(setenv("LSK_DEVICE", sel, 1), 0);
  select_ok(NULL, last);
  lsk_context *ctx = NULL;
  TU_OK(NULL, lsk_context_create(NULL, &ctx));
  ck_assert_uint_eq(lsk_context_device(ctx)->index, last);
  ck_assert_str_eq(lsk_context_device(ctx)->name, list[last].name);
  lsk_context_destroy(ctx);

  /* The P:D form through the variable. */
  snprintf(sel, sizeof sel, "%u:%u", list[last].platform_index, list[last].device_index);
  ck_assert_int_eq(setenv("LSK_DEVICE", sel, 1), 0);
  select_ok(NULL, last);
  /* Set but empty counts as unset. */
  ck_assert_int_eq(setenv("LSK_DEVICE", "", 1), 0);
  select_ok(NULL, expect_default(list, n));
  if (n < 2)
    fprintf(stderr,
            "test_device_env_honoured: one device only, so LSK_DEVICE=%u is also the "
            "default\n",
            last);
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_context_facts)
{
  unsetenv("LSK_DEVICE");
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  lsk_context *ctx = NULL;
  TU_OK(NULL, lsk_context_create(&(lsk_context_options){.device = "0"}, &ctx));
  const lsk_device_info *d = lsk_context_device(ctx);
  ck_assert_uint_eq(d->index, 0);
  ck_assert_str_eq(d->name, list[0].name);
  ck_assert_str_eq(d->platform_name, list[0].platform_name);
  ck_assert_uint_eq(d->max_work_group_size, list[0].max_work_group_size);
  cl_platform_id plat;
  cl_device_id dev;
  raw_ids(&list[0], &plat, &dev);
  ck_assert_ptr_eq(lsk_context_cl_device(ctx), dev);
  cl_context qctx = NULL;
  cl_device_id qdev = NULL;
  ck_assert_int_eq(
      clGetCommandQueueInfo(lsk_context_cl_queue(ctx), CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL),
      CL_SUCCESS);
  ck_assert_int_eq(
      clGetCommandQueueInfo(lsk_context_cl_queue(ctx), CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL),
      CL_SUCCESS);
  ck_assert_ptr_eq(qctx, lsk_context_cl(ctx));
  ck_assert_ptr_eq(qdev, dev);
  ck_assert_str_eq(lsk_context_errmsg(ctx), "");
  /* The preferred multiple, against an empty kernel built by hand; the
   * list, which has no context, leaves it 0. */
  const char *src = "__kernel void probe(void) {}";
  cl_int err;
  cl_program p = clCreateProgramWithSource(qctx, 1, &src, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(p, 1, &dev, "", NULL, NULL), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "probe", &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  size_t multiple = 0;
  ck_assert_int_eq(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                            sizeof multiple, &multiple, NULL),
                   CL_SUCCESS);
  ck_assert_uint_gt(multiple, 0);
  ck_assert_uint_eq(d->preferred_multiple, multiple);
  ck_assert_uint_eq(list[0].preferred_multiple, 0);
  clReleaseKernel(k);
  clReleaseProgram(p);
  TU_OK(ctx, lsk_context_finish(ctx));
  lsk_context_destroy(ctx);
  lsk_context_destroy(NULL); /* a no-op */
  lsk_device_list_free(list);
}
END_TEST

/* Mesa's Clover, and rusticl without RUSTICL_ENABLE, are platforms that
 * report no device. Listing and context creation must step over them. */
START_TEST(test_device_empty_platform)
{
  unsetenv("LSK_DEVICE");
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &np);
  if (err != CL_SUCCESS || np == 0) {
    fprintf(stderr, "test_device_empty_platform: no OpenCL platform (%d), not checked\n", err);
    return;
  }
  cl_platform_id *plats = calloc(np, sizeof *plats);
  ck_assert_ptr_nonnull(plats);
  ck_assert_int_eq(clGetPlatformIDs(np, plats, NULL), CL_SUCCESS);
  long empty = -1;
  for (cl_uint p = 0; p < np && empty < 0; ++p) {
    cl_uint nd = 0;
    err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
    if (err != CL_SUCCESS || nd == 0)
      empty = (long)p;
  }
  char pname[256] = "";
  if (empty >= 0)
    clGetPlatformInfo(plats[empty], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
  free(plats);
  if (empty < 0) {
    fprintf(stderr, "test_device_empty_platform: every platform has a device (install "
                    "mesa-opencl-icd for one without), not checked\n");
    return;
  }
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(list[i].platform_index != (unsigned)empty,
                  "device %zu '%s' listed on platform %ld '%s', which has no devices", i,
                  list[i].name, empty, pname);
  lsk_context *ctx = NULL;
  TU_OK(NULL, lsk_context_create(NULL, &ctx));
  ck_assert_uint_ne(lsk_context_device(ctx)->platform_index, (unsigned)empty);
  lsk_context_destroy(ctx);
  /* Selecting the empty platform by index finds nothing. */
  char sel[32];
  snprintf(sel, sizeof sel, "%ld:0", empty);
  select_fails(sel, sel);
  lsk_device_list_free(list);
}
END_TEST

/* Selection among several devices. PoCL shows two devices of different
 * names with POCL_DEVICES="basic pthread"; it reads the variable at the
 * first OpenCL call, which in a forked test is this test's (a value the
 * user set is kept). Without two devices the test says so and returns. */
START_TEST(test_device_several_devices)
{
  unsetenv("LSK_DEVICE");
  setenv("POCL_DEVICES", "basic pthread", 0);
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  if (n < 2) {
    fprintf(stderr,
            "test_device_several_devices: %zu device(s) (not PoCL, or CK_FORK=no), not "
            "checked\n",
            n);
    lsk_device_list_free(list);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    char sel[64];
    ck_assert_uint_eq(list[i].index, i);
    snprintf(sel, sizeof sel, "%zu", i);
    select_ok(sel, (unsigned)i);
    snprintf(sel, sizeof sel, "%u:%u", list[i].platform_index, list[i].device_index);
    select_ok(sel, (unsigned)i);
    /* By name: the first device with that name, which may be an earlier
     * one of the same name. */
    if (!strchr(list[i].name, ':'))
      select_ok(list[i].name, (unsigned)expect_text(list, n, list[i].name));

    /* LSK_DEVICE and opt->device each pick device i for a context, which
     * really is that device and runs a kernel. */
    snprintf(sel, sizeof sel, "%zu", i);
    ck_assert_int_eq(setenv("LSK_DEVICE", sel, 1), 0);
    select_ok(NULL, (unsigned)i);
    lsk_context *ctx = NULL;
    TU_OK(NULL, lsk_context_create(NULL, &ctx));
    ck_assert_uint_eq(lsk_context_device(ctx)->index, i);
    lsk_context_destroy(ctx);
    unsetenv("LSK_DEVICE");
    TU_OK(NULL, lsk_context_create(&(lsk_context_options){.device = sel}, &ctx));
    const lsk_device_info *d = lsk_context_device(ctx);
    ck_assert_uint_eq(d->index, i);
    ck_assert_str_eq(d->name, list[i].name);
    ck_assert_uint_eq(d->platform_index, list[i].platform_index);
    ck_assert_uint_eq(d->device_index, list[i].device_index);
    cl_platform_id plat;
    cl_device_id dev;
    raw_ids(&list[i], &plat, &dev);
    ck_assert_ptr_eq(lsk_context_cl_device(ctx), dev);
    run_iota(ctx);
    lsk_context_destroy(ctx);
  }
  select_ok(NULL, expect_default(list, n));
  lsk_device_list_free(list);
}
END_TEST

/* ------------------------------------------------------------------ */
/* lsk_context_wrap                                                    */

static cl_uint refcount_ctx(cl_context c)
{
  cl_uint r = 0;
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof r, &r, NULL), CL_SUCCESS);
  return r;
}

static cl_uint refcount_queue(cl_command_queue q)
{
  cl_uint r = 0;
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof r, &r, NULL),
                   CL_SUCCESS);
  return r;
}

START_TEST(test_device_wrap_keeps_callers_objects)
{
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  cl_platform_id plat;
  cl_device_id dev;
  raw_ids(&list[0], &plat, &dev);
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  cl_context cctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(cctx, dev, 0, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_uint ctx_refs = refcount_ctx(cctx), q_refs = refcount_queue(q);

  lsk_context *ctx = NULL;
  TU_OK(NULL, lsk_context_wrap(cctx, dev, q, NULL, &ctx));
  ck_assert_ptr_eq(lsk_context_cl(ctx), cctx);
  ck_assert_ptr_eq(lsk_context_cl_device(ctx), dev);
  ck_assert_ptr_eq(lsk_context_cl_queue(ctx), q);
  ck_assert_str_eq(lsk_context_device(ctx)->name, list[0].name);
  ck_assert_uint_eq(lsk_context_device(ctx)->max_work_group_size, list[0].max_work_group_size);
  run_iota(ctx);
  lsk_context_destroy(ctx);

  /* lsk gave back exactly the references it took. PoCL keeps a queue
   * reference per finished command until the queue is next finished, and
   * drops it from its own thread: on a loaded machine that can come a
   * little later, so wait for it (a leaked reference never goes). */
  for (int tries = 0; tries < 200; ++tries) {
    ck_assert_int_eq(clFinish(q), CL_SUCCESS);
    if (refcount_queue(q) == q_refs)
      break;
    nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
  }
  ck_assert_uint_eq(refcount_ctx(cctx), ctx_refs);
  ck_assert_uint_eq(refcount_queue(q), q_refs);
  /* And the objects still work. */
  cl_mem m = clCreateBuffer(cctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_uint pat = 0xabcdu, back[16];
  ck_assert_int_eq(clEnqueueFillBuffer(q, m, &pat, sizeof pat, 0, 64, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, back, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_uint_eq(back[15], 0xabcdu);
  clReleaseMemObject(m);
  ck_assert_int_eq(clReleaseCommandQueue(q), CL_SUCCESS);
  ck_assert_int_eq(clReleaseContext(cctx), CL_SUCCESS);
  lsk_device_list_free(list);
}
END_TEST

START_TEST(test_device_wrap_rejects_foreign_queue)
{
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  cl_platform_id plat;
  cl_device_id dev;
  raw_ids(&list[0], &plat, &dev);
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  cl_context c1 = clCreateContext(props, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_context c2 = clCreateContext(props, 1, &dev, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_command_queue q2 = clCreateCommandQueue(c2, dev, 0, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_uint r1 = refcount_ctx(c1), r2 = refcount_ctx(c2), rq = refcount_queue(q2);

  lsk_context *ctx = (lsk_context *)&ctx;
  TU_FAILS(NULL, lsk_context_wrap(c1, dev, q2, NULL, &ctx), LSK_EINVAL, "another context");
  ck_assert_ptr_null(ctx);
  TU_FAILS(NULL, lsk_context_wrap(NULL, dev, q2, NULL, &ctx), LSK_EINVAL, "context is NULL");
  TU_FAILS(NULL, lsk_context_wrap(c2, NULL, q2, NULL, &ctx), LSK_EINVAL, "device is NULL");
  TU_FAILS(NULL, lsk_context_wrap(c2, dev, NULL, NULL, &ctx), LSK_EINVAL, "queue is NULL");
  TU_FAILS(NULL, lsk_context_wrap(c2, dev, q2, NULL, NULL), LSK_EINVAL, "out is NULL");
  /* Failures took no references. */
  ck_assert_uint_eq(refcount_ctx(c1), r1);
  ck_assert_uint_eq(refcount_ctx(c2), r2);
  ck_assert_uint_eq(refcount_queue(q2), rq);
  /* The matching triple works. */
  TU_OK(NULL, lsk_context_wrap(c2, dev, q2, NULL, &ctx));
  run_iota(ctx);
  lsk_context_destroy(ctx);
  /* PoCL drops its per-command queue references from its own thread (see
   * test_device_wrap_keeps_callers_objects): wait for them. */
  for (int tries = 0; tries < 200; ++tries) {
    ck_assert_int_eq(clFinish(q2), CL_SUCCESS);
    if (refcount_queue(q2) == rq)
      break;
    nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
  }
  ck_assert_uint_eq(refcount_ctx(c2), r2);
  ck_assert_uint_eq(refcount_queue(q2), rq);

  clReleaseCommandQueue(q2);
  clReleaseContext(c2);
  clReleaseContext(c1);
  lsk_device_list_free(list);
}
END_TEST

/* A wrapped context's device facts place the device in the flat list like
 * lsk_context_create's do (index, platform_index, device_index). Two PoCL
 * devices as in test_device_several_devices, so that a position other
 * than 0 is seen. */
START_TEST(test_device_wrap_reports_position)
{
  setenv("POCL_DEVICES", "basic pthread", 0);
  size_t n = 0;
  lsk_device_info *list = device_list(&n);
  if (n < 2)
    fprintf(stderr, "test_device_wrap_reports_position: %zu device(s), only position 0 checked\n",
            n);
  for (size_t i = 0; i < n; ++i) {
    cl_platform_id plat;
    cl_device_id dev;
    raw_ids(&list[i], &plat, &dev);
    cl_int err;
    cl_context cctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(cctx, dev, 0, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    lsk_context *ctx = NULL;
    TU_OK(NULL, lsk_context_wrap(cctx, dev, q, NULL, &ctx));
    const lsk_device_info *d = lsk_context_device(ctx);
    ck_assert_str_eq(d->name, list[i].name);
    ck_assert_str_eq(d->platform_name, list[i].platform_name);
    ck_assert_msg(d->index == list[i].index && d->platform_index == list[i].platform_index &&
                      d->device_index == list[i].device_index,
                  "wrapped device '%s' reports index %u (%u:%u); the list has it at %u (%u:%u)",
                  d->name, d->index, d->platform_index, d->device_index, list[i].index,
                  list[i].platform_index, list[i].device_index);
    lsk_context_destroy(ctx);
    clReleaseCommandQueue(q);
    clReleaseContext(cctx);
  }
  lsk_device_list_free(list);
}
END_TEST

Suite *suite_device(void)
{
  Suite *s = suite_create("device");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_device_list_facts);
  tcase_add_test(tc, test_device_list_matches_opencl);
  tcase_add_test(tc, test_device_list_null_args);
  tcase_add_test(tc, test_device_select_default);
  tcase_add_test(tc, test_device_select_index);
  tcase_add_test(tc, test_device_select_platform_device);
  tcase_add_test(tc, test_device_select_substring);
  tcase_add_test(tc, test_device_select_unknown);
  tcase_add_test(tc, test_device_env_unknown);
  tcase_add_test(tc, test_device_env_honoured);
  tcase_add_test(tc, test_device_context_facts);
  tcase_add_test(tc, test_device_empty_platform);
  tcase_add_test(tc, test_device_several_devices);
  suite_add_tcase(s, tc);
  TCase *wrap = tcase_create("wrap");
  tcase_add_test(wrap, test_device_wrap_keeps_callers_objects);
  tcase_add_test(wrap, test_device_wrap_rejects_foreign_queue);
  tcase_add_test(wrap, test_device_wrap_reports_position);
  suite_add_tcase(s, wrap);
  return s;
}
