/*
 * model.c: device models, the facts under which lsk chooses launch shapes
 * as it would on another device (lsk_shapes, device.h). One model today:
 * an NVIDIA H100. The automatic rule, the kernel library and the examples
 * read only lsk_device_info, so a context whose info is the model's takes
 * every shape that GPU would take; `lsk check` reads the same model for its
 * offline NVIDIA report.
 */
#include <stdio.h>
#include <string.h>

#include "core/objects.h"

/* NVIDIA H100 (sm_90) as its OpenCL reports it. */
#define H100_WARP 32u
#define H100_COMPUTE_UNITS 132u
#define H100_MAX_WORKERS 1024u
#define H100_MAX_ITEMS_Z 64u
#define H100_LOCAL_MEM 49152ull /* 48 KiB: CL_DEVICE_LOCAL_MEM_SIZE */

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The shape facts of the H100 on top of *d, each limit capped by what d
 * already allows (a d of zeros: the model's own). */
static void nvidia_shapes(lsk_device_info *d)
{
  static const size_t items[3] = {H100_MAX_WORKERS, H100_MAX_WORKERS, H100_MAX_ITEMS_Z};
  d->is_gpu = 1;
  d->is_cpu = 0;
  d->warp_size = H100_WARP;
  d->preferred_multiple = H100_WARP;
  d->compute_units = H100_COMPUTE_UNITS;
  d->max_work_group_size = d->max_work_group_size
                               ? (size_t)min_u64(d->max_work_group_size, H100_MAX_WORKERS)
                               : H100_MAX_WORKERS;
  for (int i = 0; i < 3; ++i)
    d->max_work_item_sizes[i] =
        d->max_work_item_sizes[i] ? (size_t)min_u64(d->max_work_item_sizes[i], items[i]) : items[i];
  d->local_mem_size =
      d->local_mem_size ? min_u64(d->local_mem_size, H100_LOCAL_MEM) : H100_LOCAL_MEM;
  snprintf(d->shapes, sizeof d->shapes, "nvidia");
}

int lsk__shapes_resolve(const char *fn, lsk_shapes opt, lsk_shapes *out)
{
  *out = LSK_SHAPES_DEVICE;
  if (opt == LSK_SHAPES_DEVICE || opt == LSK_SHAPES_NVIDIA) {
    *out = opt;
    return LSK_OK;
  }
  if (opt != LSK_SHAPES_DEFAULT)
    return lsk__fail(NULL, LSK_EINVAL, "%s: shapes %d is none of LSK_SHAPES_*", fn, (int)opt);
  const char *bad = NULL;
  int s = lsk__getenv_shapes(&bad);
  if (s < 0)
    return lsk__fail(NULL, LSK_EINVAL, "%s: bad LSK_SHAPES '%s': 'nvidia' or 'device' wanted", fn,
                     bad);
  *out = (lsk_shapes)s;
  return LSK_OK;
}

void lsk__device_model(lsk_shapes shapes, lsk_device_info *info)
{
  if (shapes == LSK_SHAPES_NVIDIA)
    nvidia_shapes(info);
}

int lsk_device_model(lsk_shapes shapes, const lsk_device_info *real, lsk_device_info *out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  lsk_shapes s;
  int rc = lsk__shapes_resolve(__func__, shapes, &s);
  if (rc)
    return rc;
  if (!real && s == LSK_SHAPES_DEVICE)
    return lsk__fail(NULL, LSK_EINVAL, "%s: real is NULL with the device's own shapes", __func__);
  if (real) {
    if (out != real)
      *out = *real;
    lsk__device_model(s, out);
    return LSK_OK;
  }
  lsk_device_info d;
  memset(&d, 0, sizeof d);
  snprintf(d.name, sizeof d.name, "NVIDIA H100 (model)");
  snprintf(d.vendor, sizeof d.vendor, "NVIDIA Corporation");
  d.has_fp64 = d.has_int64_atomics = 1;
  lsk__device_model(s, &d);
  *out = d;
  return LSK_OK;
}
