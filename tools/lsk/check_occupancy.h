/*
 * check_occupancy.h: `lsk check`'s model of an NVIDIA H100 (sm_90): the
 * shape the automatic rule's GPU branch gives a launch there, and the
 * occupancy that a kernel's registers, shared memory and block allow, as
 * the CUDA occupancy rules have it. Numbers in, numbers out.
 */
#ifndef LSK_TOOLS_CHECK_OCCUPANCY_H
#define LSK_TOOLS_CHECK_OCCUPANCY_H

#include <stddef.h>

#include "lsk/lsk.h"

#define H100_WARPS_SM 64u /* resident warps per SM */

/* The H100's shape facts: the library's model (lsk_device_model), the one
 * LSK_SHAPES=nvidia gives a context: warps of 32, at most 1024 workers,
 * 48 KiB of static shared memory per block. */
lsk_device_info check_h100_model(void);

/* The shape of a launch over dom on the model h, as the library resolves
 * it: automatic (the rule under kernel_max, 0: none) where neither req_w
 * nor req_s is given, else the given workers and simd completed the GPU
 * way. */
void check_gpu_shape(const lsk_device_info *h, const unsigned dom[3], unsigned req_w,
                     unsigned req_s, size_t kernel_max, unsigned *w /* OUT */,
                     unsigned *s /* OUT */);

/* A kernel's occupancy on an H100: its block limit from registers
 * (CL_KERNEL_WORK_GROUP_SIZE there), the resident blocks and warps per
 * SM, and what limits them ("warps", "blocks", "registers", "shared"). */
typedef struct check_occupancy {
  unsigned wg_limit, blocks, warps;
  const char *limiter;
} check_occupancy;

/* The occupancy of blocks of `workers` work-items whose kernel uses regs
 * registers and shared bytes of shared memory (the larger of ptxas's and
 * the PTX's count). */
check_occupancy check_occupancy_of(const lsk_device_info *h, unsigned workers, unsigned regs,
                                   unsigned long long shared);

#endif /* LSK_TOOLS_CHECK_OCCUPANCY_H */
