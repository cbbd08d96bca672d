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
  /* "" for the device's own facts; else the name of the device model that
   * replaced its shape facts (lsk_device_model: "nvidia"). Part of the
   * device's identity where choices are stored (tune.h): choices made
   * under a model are never the device's own, nor the other way round. */
  char shapes[16];
} lsk_device_info;

/*
 * The facts lsk chooses launch shapes by (lsk_context_options.shapes, the
 * environment variable LSK_SHAPES). A model changes what lsk *chooses*
 * (workers, simd, blocks, local memory, the kernel library's and the
 * examples' variants), never what the hardware does or how fast: a context
 * under LSK_SHAPES_NVIDIA on PoCL runs every shape an NVIDIA GPU would take,
 * on the CPU. It is for testing (the ctest label gpushape), not for speed.
 */
typedef enum lsk_shapes {
  /* The environment variable LSK_SHAPES: "nvidia" or "device" (case does
   * not matter); unset or empty: the device's own. */
  LSK_SHAPES_DEFAULT = 0,
  /* The device's own facts, whatever LSK_SHAPES says. */
  LSK_SHAPES_DEVICE = 1,
  /* An NVIDIA H100 (sm_90) as its OpenCL reports it: a GPU (is_gpu 1,
   * is_cpu 0), warps of 32 (warp_size and preferred_multiple 32), 132
   * compute units, at most 1024 work-items per group and work-item sizes
   * 1024 x 1024 x 64, 48 KiB of local memory; limits never above the real
   * device's (a launch must still run there). */
  LSK_SHAPES_NVIDIA = 2
} lsk_shapes;

/*
 * lsk_device_model: the facts of a device under the shapes of a model.
 * real NULL: the model itself (LSK_SHAPES_NVIDIA: "NVIDIA H100 (model)",
 * its shape facts as above, double precision and 64-bit atomics; memory
 * sizes, alignment and the index fields 0: not modeled). real given: a
 * copy of *real whose shape facts are the model's, each limit the smaller
 * of the model's and the real device's (work-group size, work-item sizes,
 * local memory), and shapes set to the model's name; names, memory sizes,
 * alignment, fp64, atomics, loops_capped and partition stay the real
 * device's (what the hardware can do, not a choice). This is what
 * lsk_context_device returns for a context made under the model.
 * LSK_SHAPES_DEVICE: *real unchanged (real must be given).
 * LSK_SHAPES_DEFAULT: as LSK_SHAPES in the environment says.
 * real and out may be the same. Thread-safe.
 * Errors: LSK_EINVAL (out NULL, shapes none of LSK_SHAPES_*, real NULL
 * with the device's own shapes, a bad LSK_SHAPES: the message names the
 * value); the message is the thread's (lsk_context_errmsg(NULL)).
 */
int lsk_device_model(lsk_shapes shapes, const lsk_device_info *real,
                     lsk_device_info *out /* OUT */);

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
