/*
 * lsk_verify.h: device-side checks that the host turns into errors.
 *
 * OpenCL C has no trap and printf is lost on many drivers, so a failed
 * check is written to a record in global memory: the first failure of a
 * launch (line, message, up to 4 integer values) and a count of all
 * failures. The host reads it after the launch (lsk_kernel_run,
 * lsk_context_finish) and returns LSK_EVERIFY with the kernel's name.
 *
 * Record layout, in uints (mirrored in host/internal.h):
 *   [0] failures  [1] line  [2] number of values  [3] unused
 *   [4..11] values as (low, high) pairs  [12..43] message, 128 bytes
 */
#ifndef LSK_VERIFY_H
#define LSK_VERIFY_H

#define LSK__VREC_MSG 12
#define LSK__VREC_MSG_BYTES 128

LSK_INLINE void lsk__verify_fail(__global uint *rec, uint line, __constant char *msg, uint n, long v0,
                             long v1, long v2, long v3)
{
  /* Only the first failing work-item writes the record: no race. */
  if (atomic_inc(&rec[0]) != 0)
    return;
  rec[1] = line;
  rec[2] = n;
  long v[4] = {v0, v1, v2, v3};
  for (uint k = 0; k < 4; ++k) {
    rec[4 + 2 * k] = (uint)v[k];
    rec[5 + 2 * k] = (uint)((ulong)v[k] >> 32);
  }
  __global uchar *m = (__global uchar *)(rec + LSK__VREC_MSG);
  uint i = 0;
  for (; i < LSK__VREC_MSG_BYTES - 1 && msg[i] != 0; ++i)
    m[i] = (uchar)msg[i];
  m[i] = 0;
}

#define lsk__nargs(...) lsk__nargs_(__VA_ARGS__, 4, 3, 2, 1, 0, 0)
#define lsk__nargs_(m, a, b, c, d, n, ...) n
#define lsk__v0(...) lsk__pick(0, __VA_ARGS__, 0, 0, 0, 0, 0)
#define lsk__pick(z, m, a, b, c, d, ...) (long)(a), (long)(b), (long)(c), (long)(d)

/*
 * LSK_VERIFY(cond, "message"[, v0[, v1[, v2[, v3]]]]): if cond is false,
 * record the failure with up to four integer values. The kernel carries
 * on; return yourself if the rest would be wrong. Needs LSK_CTX in scope.
 * Any worker may call it; no synchronization.
 */
#define LSK_VERIFY(cond, ...)                                                  \
  do {                                                                         \
    if (!(cond))                                                               \
      lsk__verify_fail(lsk__ctx, __LINE__, lsk__msg(__VA_ARGS__, 0),           \
                       lsk__nargs(__VA_ARGS__), lsk__v0(__VA_ARGS__));         \
  } while (0)
#define lsk__msg(m, ...) (m)

#endif /* LSK_VERIFY_H */
