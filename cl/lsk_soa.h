/*
 * lsk_soa.h: what code generated from SoA layouts (lsk layout --emit-cl,
 * lsk_layout_emit_cl) needs on the device.
 */
#ifndef LSK_CL_SOA_H
#define LSK_CL_SOA_H

#include "lsk_config.h"
#include "lsk_verify.h"

/* Range check of a generated accessor called at file:line (its caller's:
 * the accessors are macros that pass __FILE__ and __LINE__ when the
 * layout's CHECK is on): 1 if i < n, else records a range failure naming
 * what ("layout 'L' member 'M'") with the index (as signed, so -1 reads -1)
 * and the size, and returns 0 so that the access does not happen. */
LSK_INLINE int lsk__soa_in(__global uint *ctx, uint i, uint n, __constant char *what,
                           __constant char *file, uint line)
{
  if (i < n)
    return 1;
  lsk__verify_fail(ctx, file, line, LSK__VKIND_RANGE, what, 2, (long)(int)i, (long)n, 0, 0);
  return 0;
}

/* ceil(x / a) * a for a power of two a: the layout byte rule. */
LSK_INLINE ulong lsk__soa_align(ulong x, ulong a) { return (x + a - 1) & ~(a - 1); }

#endif /* LSK_CL_SOA_H */
