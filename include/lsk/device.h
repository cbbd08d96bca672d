/*
 * device.h: the OpenCL devices lsk can see, their facts, and the selector
 * syntax of LSK_DEVICE.
 *
 * Devices are numbered in one flat list over all platforms, in the order
 * the ICD loader reports them; platforms without devices are skipped.
 */
#ifndef LSK_DEVICE_H
#define LSK_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LSK_NAME_MAX 128

/* The facts about one device that lsk relies on. Plain data, no handles. */
typedef struct lsk_device_info {
  unsigned index;          /* position in the flat list */
  unsigned platform_index; /* platform number as the ICD loader lists it */
  unsigned device_index;   /* device number inside its platform */
  char platform_name[LSK_NAME_MAX];
  char platform_vendor[LSK_NAME_MAX];
  char platform_version[LSK_NAME_MAX];
  char name[LSK_NAME_MAX];
  char vendor[LSK_NAME_MAX];
  char version[LSK_NAME_MAX];          /* CL_DEVICE_VERSION */
  char driver_version[LSK_NAME_MAX];   /* CL_DRIVER_VERSION */
  char opencl_c_version[LSK_NAME_MAX]; /* CL_DEVICE_OPENCL_C_VERSION */
  int is_gpu;
  int is_cpu;
  unsigned compute_units;
  size_t max_work_group_size;
  size_t max_work_item_sizes[3];
  uint64_t local_mem_size;  /* bytes */
  uint64_t global_mem_size; /* bytes */
  uint64_t max_alloc_size;  /* bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE */
  unsigned base_addr_align; /* bytes (the device reports bits) */
  unsigned warp_size;       /* CL_DEVICE_WARP_SIZE_NV, 0 elsewhere */
  /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of an empty kernel: a
   * kernel property in OpenCL, so it is known only for a context's device
   * (lsk_context_device); 0 in lsk_device_list's entries. */
  size_t preferred_multiple;
  int has_fp64;          /* double precision */
  int has_int64_atomics; /* cl_khr_int64_base_atomics */
  /* The implementation caps a kernel's loop iterations (Mesa's llvmpipe):
   * keep per-block loops short there, e.g. with more, smaller blocks. */
  int loops_capped;
  /* A sub-device (clCreateSubDevices; lsk_group_options.partition): its
   * compute units, its parent's and how the parent was split, e.g. "1 of 2
   * compute units (equally 1)", the parent's own first where it is a
   * sub-device too; "" for a whole device. Part of the device's identity
   * where choices are stored (tune.h): a sub-device's are not its
   * parent's. The index fields of a sub-device are its parent's. */
  char partition[LSK_NAME_MAX];
} lsk_device_info;

/*
 * lsk_device_list: enumerate all devices of all platforms.
 * On success *out is an array of *count entries to free with
 * lsk_device_list_free; with no device at all it returns LSK_ENODEV and
 * sets *out to NULL. Platforms that report no devices are skipped.
 * Errors: LSK_EINVAL (NULL out or count), LSK_ENODEV, LSK_ENOMEM, OpenCL
 * codes. The message goes to the calling thread (lsk_context_errmsg(NULL)).
 */
int lsk_device_list(lsk_device_info **out /* OUT */, size_t *count /* OUT */);
void lsk_device_list_free(lsk_device_info *list);

/*
 * lsk_device_select: resolve a selector to an index in the flat list.
 * selector NULL or "" means: the LSK_DEVICE environment variable if set,
 * else the first GPU, else the first device. Selector forms:
 *   "N"      the device with flat index N;
 *   "P:D"    device D of platform P; each part is an index or a
 *            substring (case-insensitive) of the platform's name, vendor
 *            or version and of the device's name or vendor;
 *   "text"   the first device whose platform or device matches "text";
 *   "*"      any device ("P:*": any device of platform P).
 * A group of devices (group.h) takes a list of these, each naming every
 * device it matches.
 * Errors: LSK_ENODEV with a message listing the devices, LSK_EINVAL.
 */
int lsk_device_select(const char *selector, unsigned *index /* OUT */);

/*
 * lsk_device_select_all: every device a list of selectors names, as a
 * group takes it: comma-separated parts in order, each naming every device
 * it matches ("pocl", "0,2", "nvidia,amd", "*"), no device twice; at most
 * cap flat indices into indices, their number in *count. NULL or "":
 * LSK_DEVICE read the same way; unset: the one device lsk_device_select
 * picks. Errors: LSK_ENODEV (a part that matches nothing; the message
 * lists the devices), LSK_EINVAL (NULL, cap 0, an empty part, more than
 * cap devices), LSK_ENOMEM; the message is the thread's.
 */
int lsk_device_select_all(const char *selector, unsigned *indices /* OUT */, size_t cap,
                          size_t *count /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* LSK_DEVICE_H */
