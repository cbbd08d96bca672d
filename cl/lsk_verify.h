/*
 * lsk_verify.h: device-side checks that the host turns into errors.
 *
 * OpenCL C has no trap and printf is lost on many drivers, so a failed
 * check is written to a record in global memory: the first failure of a
 * launch (file and line, message, up to 4 integer values) and a count of all
 * failures. The host reads it after the launch (lsk_kernel_run,
 * lsk_context_finish) and returns LSK_EVERIFY with the kernel's name.
 *
 * The record's words (LSK__VREC_*) are in lsk_shared.h, which the host
 * reads too.
 */
#ifndef LSK_CL_VERIFY_H
#define LSK_CL_VERIFY_H

#include "lsk_config.h"
#include "lsk_shared.h"

/* Copies the NUL-terminated s into the record's n bytes at m, keeping its
 * tail ("..." and the end) when it is longer: for a path, the end is the
 * part that names the file. */
LSK_INLINE void lsk__verify_copy(__global uchar *m, uint n, __constant char *s)
{
  uint len = 0;
  while (s[len] != 0)
    ++len;
  uint from = 0, i = 0;
  if (len > n - 1) {
    from = len - (n - 4);
    for (; i < 3; ++i)
      m[i] = '.';
  }
  for (; i < n - 1 && s[from] != 0; ++i, ++from)
    m[i] = (uchar)s[from];
  m[i] = 0;
}

/* Records a failure at file:line of kind LSK__VKIND_*: the message (for a
 * range check, what was checked) and n values. */
LSK_INLINE void lsk__verify_fail(__global uint *rec, __constant char *file, uint line, uint kind,
                                 __constant char *msg, uint n, long v0, long v1, long v2, long v3)
{
  /* Only the first failing work-item writes the record: no race. */
  if (atomic_inc(&rec[LSK__VREC_FAILURES]) != 0)
    return;
  rec[LSK__VREC_LINE] = line;
  rec[LSK__VREC_NVALUES] = n;
  rec[LSK__VREC_KIND] = kind;
  long v[LSK__VREC_MAX_VALUES] = {v0, v1, v2, v3};
  for (uint k = 0; k < LSK__VREC_MAX_VALUES; ++k) {
    rec[LSK__VREC_VALUES + 2 * k] = (uint)v[k];
    rec[LSK__VREC_VALUES + 2 * k + 1] = (uint)((ulong)v[k] >> 32);
  }
  lsk__verify_copy((__global uchar *)(rec + LSK__VREC_MSG), LSK__VREC_MSG_BYTES, msg);
  lsk__verify_copy((__global uchar *)(rec + LSK__VREC_FILE), LSK__VREC_FILE_BYTES, file);
}

/*
 * LSK_VERIFY(cond, "message"): if cond is false, record the failure; the
 * host reports it with the message and the file and line of the call
 * (__FILE__ and __LINE__: the program's name, NAME.prelude or an included
 * header's path, as the build's #line markers set them). LSK_VERIFY1 to
 * LSK_VERIFY4 take one to four integer values after the message, reported
 * with it. The kernel carries on; return yourself if the rest would be
 * wrong. Needs LSK_CTX in scope. Any worker may call it; no
 * synchronization. (Five names, not one variadic macro: OpenCL C 1.2 has
 * no variadic macros, and NVIDIA's compiler rejects them.)
 */
#define LSK_VERIFY(cond, msg) lsk__verify(cond, msg, 0, 0, 0, 0, 0)
#define LSK_VERIFY1(cond, msg, a) lsk__verify(cond, msg, 1, a, 0, 0, 0)
#define LSK_VERIFY2(cond, msg, a, b) lsk__verify(cond, msg, 2, a, b, 0, 0)
#define LSK_VERIFY3(cond, msg, a, b, c) lsk__verify(cond, msg, 3, a, b, c, 0)
#define LSK_VERIFY4(cond, msg, a, b, c, d) lsk__verify(cond, msg, 4, a, b, c, d)
#define lsk__verify(cond, msg, n, a, b, c, d)                                                      \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      lsk__verify_fail(lsk__ctx, __FILE__, __LINE__, LSK__VKIND_VERIFY, (msg), (n), (long)(a),     \
                       (long)(b), (long)(c), (long)(d));                                           \
  } while (0)

#endif /* LSK_CL_VERIFY_H */
