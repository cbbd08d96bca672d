/*
 * check_occupancy.c: `lsk check`'s H100 model (check_occupancy.h): the
 * GPU shape of a launch and the occupancy a kernel allows.
 */
#include <string.h>

#include "check_occupancy.h"

/* NVIDIA H100 (sm_90) as the CUDA occupancy rules have it; its warp, its
 * limit on work-items per group and its 48 KiB of static shared memory per
 * block are the library's model (check_h100_model). */
#define H100_SHARED_SM 233472ull     /* 228 KiB of shared memory per SM */
#define H100_SHARED_RESERVED 1024ull /* reserved per block (sm_80 and later) */
#define H100_SHARED_UNIT 128ull      /* allocation granularity */
#define H100_REGS_SM 65536u
#define H100_REG_UNIT 256u /* registers allocated per warp in units of 256 */
#define H100_BLOCKS_SM 32u

lsk_device_info check_h100_model(void)
{
  lsk_device_info d;
  if (lsk_device_model(LSK_SHAPES_NVIDIA, NULL, &d) != LSK_OK)
    memset(&d, 0, sizeof d); /* not reached: the model needs no device */
  return d;
}

void check_gpu_shape(const lsk_device_info *h, const unsigned dom[3], unsigned req_w,
                     unsigned req_s, size_t kernel_max, unsigned *w, unsigned *s)
{
  size_t size = (size_t)dom[0] * dom[1] * dom[2];
  if (!req_w && !req_s) {
    lsk_auto_shape(h, size, kernel_max, w, s);
  } else if (req_w) {
    *w = req_w;
    *s = req_s ? req_s : 1;
  } else {
    size_t most = kernel_max ? kernel_max : h->max_work_group_size;
    size_t want = (size + req_s - 1) / req_s;
    want = (want + h->warp_size - 1) / h->warp_size * h->warp_size;
    *w = (unsigned)(want > most ? most : want);
    *s = req_s;
  }
}

check_occupancy check_occupancy_of(const lsk_device_info *h, unsigned workers, unsigned regs,
                                   unsigned long long shared)
{
  check_occupancy o;
  unsigned warp = h->warp_size, most = (unsigned)h->max_work_group_size;
  unsigned wpb = (workers + warp - 1) / warp;
  regs = regs ? regs : 1;
  unsigned per_warp = (regs * warp + H100_REG_UNIT - 1) / H100_REG_UNIT * H100_REG_UNIT;
  unsigned warps_by_regs = H100_REGS_SM / per_warp;
  unsigned lim = warps_by_regs * warp;
  o.wg_limit = lim > most ? most : lim;
  unsigned long long per_block =
      (shared + H100_SHARED_RESERVED + H100_SHARED_UNIT - 1) / H100_SHARED_UNIT * H100_SHARED_UNIT;
  struct {
    unsigned blocks;
    const char *why;
  } lims[] = {{H100_WARPS_SM / wpb, "warps"},
              {H100_BLOCKS_SM, "blocks"},
              {warps_by_regs / wpb, "registers"},
              {(unsigned)(H100_SHARED_SM / per_block), "shared"}};
  o.blocks = lims[0].blocks;
  o.limiter = lims[0].why;
  for (size_t i = 1; i < sizeof lims / sizeof *lims; ++i)
    if (lims[i].blocks < o.blocks) {
      o.blocks = lims[i].blocks;
      o.limiter = lims[i].why;
    }
  o.warps = o.blocks * wpb;
  return o;
}
