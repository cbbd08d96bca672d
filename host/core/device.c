/*
 * device.c: enumerating devices over all platforms, their facts, and
 * resolving a selector (LSK_DEVICE) to one of them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif

static void get_str(cl_device_id d, cl_device_info what, char *dst)
{
  dst[0] = 0;
  if (clGetDeviceInfo(d, what, LSK_NAME_MAX, dst, NULL) != CL_SUCCESS)
    dst[0] = 0;
  dst[LSK_NAME_MAX - 1] = 0;
}

static void get_pstr(cl_platform_id p, cl_platform_info what, char *dst)
{
  dst[0] = 0;
  if (clGetPlatformInfo(p, what, LSK_NAME_MAX, dst, NULL) != CL_SUCCESS)
    dst[0] = 0;
  dst[LSK_NAME_MAX - 1] = 0;
}

/* How d was made from its parent, into buf: "" for a whole device, else
 * "U of P compute units (how)", the parent's own description first
 * (" / " between) where the parent is a sub-device too. */
static void describe_partition(cl_device_id d, char *buf, size_t cap, int depth)
{
  buf[0] = 0;
  cl_device_id parent = NULL;
  if (clGetDeviceInfo(d, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL) != CL_SUCCESS ||
      !parent)
    return;
  size_t used = 0;
  if (depth < 4) {
    describe_partition(parent, buf, cap, depth + 1);
    used = strlen(buf);
    if (used)
      used += (size_t)snprintf(buf + used, cap - used, " / ");
  }
  cl_uint cu = 0, pcu = 0;
  clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
  clGetDeviceInfo(parent, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof pcu, &pcu, NULL);
  cl_device_partition_property type[16] = {0};
  size_t tsize = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_PARTITION_TYPE, sizeof type, type, &tsize) != CL_SUCCESS)
    tsize = 0;
  char how[64] = "sub-device";
  size_t nt = tsize / sizeof type[0];
  if (nt >= 2 && type[0] == CL_DEVICE_PARTITION_EQUALLY) {
    snprintf(how, sizeof how, "equally %lld", (long long)type[1]);
  } else if (nt >= 2 && type[0] == CL_DEVICE_PARTITION_BY_COUNTS) {
    size_t h = (size_t)snprintf(how, sizeof how, "by counts");
    for (size_t i = 1;
         i < nt && type[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END && h < sizeof how; ++i)
      h += (size_t)snprintf(how + h, sizeof how - h, "%s%lld", i == 1 ? " " : ",",
                            (long long)type[i]);
  } else if (nt >= 2 && type[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN) {
    snprintf(how, sizeof how, "by affinity domain 0x%llx", (unsigned long long)type[1]);
  }
  if (used < cap)
    snprintf(buf + used, cap - used, "%u of %u compute units (%s)", cu, pcu, how);
}

int lsk__device_info(cl_platform_id platform, cl_device_id d, lsk_device_info *info)
{
  memset(info, 0, sizeof *info);
  get_pstr(platform, CL_PLATFORM_NAME, info->platform_name);
  get_pstr(platform, CL_PLATFORM_VENDOR, info->platform_vendor);
  get_pstr(platform, CL_PLATFORM_VERSION, info->platform_version);
  get_str(d, CL_DEVICE_NAME, info->name);
  get_str(d, CL_DEVICE_VENDOR, info->vendor);
  get_str(d, CL_DEVICE_VERSION, info->version);
  get_str(d, CL_DRIVER_VERSION, info->driver_version);
  get_str(d, CL_DEVICE_OPENCL_C_VERSION, info->opencl_c_version);

  cl_device_type type = 0;
  cl_uint cu = 0, align_bits = 0, warp = 0;
  cl_ulong local = 0, global = 0, maxalloc = 0;
  size_t wg = 0;
  cl_int err = clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  if (!err)
    err = clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
  if (!err)
    err = clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  if (!err)
    err = clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof info->max_work_item_sizes,
                          info->max_work_item_sizes, NULL);
  if (!err)
    err = clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  if (!err)
    err = clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
  if (!err)
    err = clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
  if (!err)
    err = clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  if (err)
    return err;

  char ext[8192] = "";
  size_t n = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) == CL_SUCCESS && n < sizeof ext)
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
  else if (n >= sizeof ext) {
    char *big = malloc(n);
    if (big && clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, big, NULL) == CL_SUCCESS) {
      /* Keep only what we look for; the list is long on some drivers. */
      snprintf(ext, sizeof ext, "%s%s%s", strstr(big, "cl_khr_fp64") ? " cl_khr_fp64" : "",
               strstr(big, "cl_khr_int64_base_atomics") ? " cl_khr_int64_base_atomics" : "",
               strstr(big, "cl_nv_device_attribute_query") ? " cl_nv_device_attribute_query" : "");
    }
    free(big);
  }
  cl_device_fp_config fp64 = 0;
  clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  if (strstr(ext, "cl_nv_device_attribute_query") &&
      clGetDeviceInfo(d, CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL) != CL_SUCCESS)
    warp = 0;

  info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  info->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  /* Mesa's llvmpipe caps a kernel's loop iterations (its OpenCL runs on
   * the Gallium llvmpipe driver): long per-block loops end early there. */
  info->loops_capped = strstr(info->name, "llvmpipe") != NULL;
  info->compute_units = cu;
  info->max_work_group_size = wg;
  info->local_mem_size = local;
  info->global_mem_size = global;
  info->max_alloc_size = maxalloc;
  info->base_addr_align = align_bits / 8;
  info->warp_size = warp;
  info->has_fp64 = fp64 != 0 || strstr(ext, "cl_khr_fp64") != NULL;
  info->has_int64_atomics = strstr(ext, "cl_khr_int64_base_atomics") != NULL;
  describe_partition(d, info->partition, sizeof info->partition, 0);
  return CL_SUCCESS;
}

/* All devices of all platforms, in ICD order. A platform whose
 * clGetDeviceIDs fails (CL_DEVICE_NOT_FOUND: Mesa's Clover with no device)
 * contributes nothing. */
int lsk_device_list(lsk_device_info **out, size_t *count)
{
  LSK__API();
  if (!out || !count)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, out ? "count" : "out");
  *out = NULL;
  *count = 0;
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &np);
  if (err == -1001 || (err == CL_SUCCESS && np == 0))
    return lsk__fail(NULL, LSK_ENODEV,
                     "%s: no OpenCL platform found (install a driver, e.g. "
                     "pocl-opencl-icd)",
                     __func__);
  if (err)
    return lsk__fail_cl(NULL, err, "clGetPlatformIDs", "%s", "");
  cl_platform_id *plats = calloc(np, sizeof *plats);
  if (!plats)
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  err = clGetPlatformIDs(np, plats, NULL);
  lsk_device_info *list = NULL;
  size_t n = 0;
  for (cl_uint p = 0; err == CL_SUCCESS && p < np; ++p) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
      continue;
    cl_device_id *devs = calloc(nd, sizeof *devs);
    lsk_device_info *grown = devs ? realloc(list, (n + nd) * sizeof *list) : NULL;
    if (!grown) {
      free(devs);
      free(list);
      free(plats);
      return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
    }
    list = grown;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, devs, NULL) == CL_SUCCESS) {
      for (cl_uint d = 0; d < nd; ++d) {
        if (lsk__device_info(plats[p], devs[d], &list[n]) != CL_SUCCESS)
          continue;
        list[n].index = (unsigned)n;
        list[n].platform_index = p;
        list[n].device_index = d;
        ++n;
      }
    }
    free(devs);
  }
  free(plats);
  if (err) {
    free(list);
    return lsk__fail_cl(NULL, err, "clGetPlatformIDs", "%s", "");
  }
  if (n == 0) {
    free(list);
    return lsk__fail(NULL, LSK_ENODEV,
                     "%s: %u OpenCL platform(s) but no device (install a driver, "
                     "e.g. pocl-opencl-icd)",
                     __func__, np);
  }
  *out = list;
  *count = n;
  return LSK_OK;
}

void lsk_device_list_free(lsk_device_info *list) { free(list); }

/* Case-insensitive substring. */
static int contains(const char *hay, const char *needle)
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

/* A selector part that is all digits is an index. */
static int parse_index(const char *s, size_t len, unsigned *v)
{
  if (len == 0 || len > 9)
    return 0;
  unsigned r = 0;
  for (size_t i = 0; i < len; ++i) {
    if (!isdigit((unsigned char)s[i]))
      return 0;
    r = r * 10 + (unsigned)(s[i] - '0');
  }
  *v = r;
  return 1;
}

static int platform_matches(const lsk_device_info *d, const char *part)
{
  unsigned i;
  if (strcmp(part, "*") == 0)
    return 1;
  if (parse_index(part, strlen(part), &i))
    return d->platform_index == i;
  return contains(d->platform_name, part) || contains(d->platform_vendor, part) ||
         contains(d->platform_version, part);
}

static int device_matches(const lsk_device_info *d, const char *part)
{
  unsigned i;
  if (strcmp(part, "*") == 0)
    return 1;
  if (parse_index(part, strlen(part), &i))
    return d->device_index == i;
  return contains(d->name, part) || contains(d->vendor, part);
}

/* Whether list entry i (d) matches one selector (device.h's forms). */
static int selector_matches(const lsk_device_info *d, size_t i, const char *sel)
{
  const char *colon = strchr(sel, ':');
  unsigned flat;
  if (!colon && parse_index(sel, strlen(sel), &flat))
    return i == flat;
  if (!colon)
    return platform_matches(d, sel) || device_matches(d, sel);
  size_t plen = (size_t)(colon - sel);
  char part[LSK_NAME_MAX];
  if (plen >= sizeof part)
    return 0;
  memcpy(part, sel, plen);
  part[plen] = 0;
  return platform_matches(d, part) && device_matches(d, colon + 1);
}

/* LSK_ENODEV: "fn: no such device: 'selector'where; the devices are ...". */
static int list_devices_in_message(const char *fn, const char *selector, const char *where,
                                   const lsk_device_info *list, size_t n)
{
  char buf[3072];
  size_t used = 0;
  for (size_t i = 0; i < n && used < sizeof buf; ++i) {
    int w =
        snprintf(buf + used, sizeof buf - used, "\n  %zu (%u:%u): %s / %s", i,
                 list[i].platform_index, list[i].device_index, list[i].platform_name, list[i].name);
    if (w < 0)
      break;
    used += (size_t)w;
  }
  return lsk__fail(NULL, LSK_ENODEV,
                   "%s: no such device: '%s'%s; the devices are (index (platform:device)):%s", fn,
                   selector, where, buf);
}

/* lsk_device_select over a list already made. */
int lsk__device_select_in(const lsk_device_info *list, size_t n, const char *selector,
                          unsigned *index)
{
  const char *origin = "";
  if (!selector || !*selector) {
    selector = lsk__getenv("LSK_DEVICE");
    origin = selector ? " (LSK_DEVICE)" : "";
  }
  long found = -1;
  if (!selector) {
    for (size_t i = 0; i < n && found < 0; ++i)
      if (list[i].is_gpu)
        found = (long)i;
    if (found < 0)
      found = 0;
  } else {
    for (size_t i = 0; i < n && found < 0; ++i)
      if (selector_matches(&list[i], i, selector))
        found = (long)i;
  }
  if (found < 0)
    return list_devices_in_message("lsk_device_select", selector, origin, list, n);
  *index = (unsigned)found;
  return LSK_OK;
}

/* Every device a group's selector names (group.h): the comma-separated
 * parts in order, each naming every device it matches, no device twice,
 * at most cap (idx[cap]); NULL or "": LSK_DEVICE read the same way, unset:
 * the one device lsk__device_select_in picks. LSK_ENODEV listing the
 * devices for a part that matches none, LSK_EINVAL for an empty part or
 * more than cap; messages (the thread's) start with fn. */
int lsk__device_select_all(const lsk_device_info *list, size_t n, const char *selector,
                           const char *fn, unsigned *idx, size_t cap, size_t *count)
{
  *count = 0;
  const char *origin = "";
  if (!selector || !*selector) {
    selector = lsk__getenv("LSK_DEVICE");
    origin = selector ? " (LSK_DEVICE)" : "";
  }
  if (!selector) { /* the one device lsk_device_select(NULL) picks */
    int rc = lsk__device_select_in(list, n, NULL, &idx[0]);
    *count = rc ? 0 : 1;
    return rc;
  }
  char *text = lsk__strdup(selector);
  if (!text)
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  int rc = LSK_OK;
  unsigned npart = 0;
  for (char *part = text, *next; part && !rc; part = next) {
    next = strchr(part, ',');
    if (next)
      *next++ = 0;
    ++npart;
    /* Spaces around a part are not part of it ("pocl, llvmpipe"). */
    while (*part == ' ')
      ++part;
    size_t len = strlen(part);
    while (len && part[len - 1] == ' ')
      part[--len] = 0;
    if (!len) {
      rc = lsk__fail(NULL, LSK_EINVAL, "%s: device list '%s'%s: part %u is empty", fn, selector,
                     origin, npart);
      break;
    }
    int matched = 0;
    for (size_t i = 0; i < n && !rc; ++i) {
      if (!selector_matches(&list[i], i, part))
        continue;
      matched = 1;
      size_t k = 0;
      while (k < *count && idx[k] != i)
        ++k;
      if (k < *count)
        continue; /* named by an earlier part: one member */
      if (*count == cap)
        rc = lsk__fail(NULL, LSK_EINVAL, "%s: device list '%s'%s names more than %zu devices", fn,
                       selector, origin, cap);
      else
        idx[(*count)++] = (unsigned)i;
    }
    if (!rc && !matched) {
      char *where = lsk__strdupf(" (part %u of '%s'%s)", npart, selector, origin);
      rc = list_devices_in_message(fn, part, where ? where : "", list, n);
      free(where);
    }
  }
  free(text);
  if (rc)
    *count = 0;
  return rc;
}

int lsk_device_select(const char *selector, unsigned *index)
{
  LSK__API();
  if (!index)
    return lsk__fail(NULL, LSK_EINVAL, "%s: index is NULL", __func__);
  lsk_device_info *list;
  size_t n;
  int rc = lsk_device_list(&list, &n);
  if (!rc)
    rc = lsk__device_select_in(list, n, selector, index);
  lsk_device_list_free(list);
  return rc;
}

int lsk_device_select_all(const char *selector, unsigned *indices, size_t cap, size_t *count)
{
  LSK__API();
  if (count)
    *count = 0;
  if (!indices || !count)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, !indices ? "indices" : "count");
  if (cap == 0)
    return lsk__fail(NULL, LSK_EINVAL, "%s: cap is 0", __func__);
  lsk_device_info *list;
  size_t n;
  int rc = lsk_device_list(&list, &n);
  if (!rc)
    rc = lsk__device_select_all(list, n, selector, __func__, indices, cap, count);
  lsk_device_list_free(list);
  return rc;
}

/* The OpenCL ids of a listed device (re-enumerated). */
int lsk__device_ids(const lsk_device_info *info, cl_platform_id *platform, cl_device_id *device)
{
  cl_uint np = 0, nd = 0;
  cl_platform_id plats[64];
  cl_int err = clGetPlatformIDs(64, plats, &np);
  if (err)
    return err;
  if (info->platform_index >= np || info->platform_index >= 64)
    return CL_INVALID_PLATFORM;
  cl_device_id devs[64];
  err = clGetDeviceIDs(plats[info->platform_index], CL_DEVICE_TYPE_ALL, 64, devs, &nd);
  if (err)
    return err;
  if (info->device_index >= nd || info->device_index >= 64)
    return CL_INVALID_DEVICE;
  *platform = plats[info->platform_index];
  *device = devs[info->device_index];
  return CL_SUCCESS;
}

void lsk__device_position(cl_device_id device, lsk_device_info *info)
{
  cl_uint np = 0;
  cl_platform_id plats[64];
  unsigned flat = 0;
  /* A sub-device is not listed: its root device's place. */
  for (int depth = 0; depth < 8; ++depth) {
    cl_device_id parent = NULL;
    if (clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL) !=
            CL_SUCCESS ||
        !parent)
      break;
    device = parent;
  }
  if (clGetPlatformIDs(64, plats, &np) != CL_SUCCESS)
    return;
  for (cl_uint p = 0; p < np && p < 64; ++p) {
    cl_device_id devs[64];
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < nd && d < 64; ++d, ++flat)
      if (devs[d] == device) {
        info->index = flat;
        info->platform_index = p;
        info->device_index = d;
        return;
      }
  }
}
