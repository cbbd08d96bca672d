/*
 * algo.h: what the kernel library's algorithms share: element types,
 * operations, and the options every algorithm takes.
 *
 * The algorithms (reduce.h, scan.h, compact.h, assoc.h, vector.h) are lsk
 * kernels from kernels/, built on first use for the context's device and
 * kept until the context is destroyed. Every call that enqueues takes
 * `const lsk_async *on` last (queue.h): it runs on on->queue (NULL: the
 * default queue), in order with the caller's own launches and transfers
 * there; its first command waits for on->wait and on->event gets an
 * event of its last. Their temporary buffers come from the context's
 * buffer cache (buffer.h), so calls on different queues never share one.
 * A call that hands a value to the host (lsk_reduce, lsk_compact's count)
 * blocks until it has it; every other call never blocks, its _to form
 * included, which writes the value into a device buffer
 * (lsk_queue_finish or lsk_context_finish waits and reports device
 * errors).
 *
 * Thread-safety: calls on different queues may run from different
 * threads at once; see each object for its own calls.
 */
#ifndef LSK_ALGO_H
#define LSK_ALGO_H
#include "buffer.h"
#include "program.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum lsk_type {
  LSK_TYPE_INT = 1, /* 32-bit, OpenCL int */
  LSK_TYPE_UINT,
  LSK_TYPE_LONG, /* 64-bit */
  LSK_TYPE_ULONG,
  LSK_TYPE_FLOAT,
  LSK_TYPE_DOUBLE, /* needs a device with cl_khr_fp64 */
} lsk_type;

/* Size in bytes and OpenCL C name of a type; 0 and "?" for a bad one. */
size_t lsk_type_size(lsk_type type);
const char *lsk_type_name(lsk_type type);

#ifdef __cplusplus
}
#endif

/*
 * LSK_TYPE_OF(p): the lsk_type of what p points to, for a pointer to int,
 * unsigned, long, unsigned long, long long, unsigned long long (the
 * <stdint.h> types are some of these), float or double; a compile error
 * for any other pointer. C11 _Generic in C, overloads in C++. long is
 * LSK_TYPE_LONG or LSK_TYPE_INT as its size is 8 or 4 bytes.
 */
#ifndef __cplusplus
#define LSK_TYPE_OF(p)                                                                             \
  _Generic((p),                                                                                    \
      int *: LSK_TYPE_INT,                                                                         \
      unsigned *: LSK_TYPE_UINT,                                                                   \
      long *: (sizeof(long) == 8 ? LSK_TYPE_LONG : LSK_TYPE_INT),                                  \
      unsigned long *: (sizeof(long) == 8 ? LSK_TYPE_ULONG : LSK_TYPE_UINT),                       \
      long long *: LSK_TYPE_LONG,                                                                  \
      unsigned long long *: LSK_TYPE_ULONG,                                                        \
      float *: LSK_TYPE_FLOAT,                                                                     \
      double *: LSK_TYPE_DOUBLE)
#else
extern "C++" {
inline lsk_type lsk__type_of(int *) { return LSK_TYPE_INT; }
inline lsk_type lsk__type_of(unsigned *) { return LSK_TYPE_UINT; }
inline lsk_type lsk__type_of(long *) { return sizeof(long) == 8 ? LSK_TYPE_LONG : LSK_TYPE_INT; }
inline lsk_type lsk__type_of(unsigned long *)
{
  return sizeof(long) == 8 ? LSK_TYPE_ULONG : LSK_TYPE_UINT;
}
inline lsk_type lsk__type_of(long long *) { return LSK_TYPE_LONG; }
inline lsk_type lsk__type_of(unsigned long long *) { return LSK_TYPE_ULONG; }
inline lsk_type lsk__type_of(float *) { return LSK_TYPE_FLOAT; }
inline lsk_type lsk__type_of(double *) { return LSK_TYPE_DOUBLE; }
}
#define LSK_TYPE_OF(p) lsk__type_of(p)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lsk_op {
  LSK_OP_SUM = 1, /* integers wrap around; see docs/algorithms.md for floats */
  LSK_OP_MIN,
  LSK_OP_MAX,
} lsk_op;

/*
 * Options of every algorithm; all zeros means automatic, which is what
 * users should want. The knobs exist for tests and tuning: results never
 * depend on them, except for the rounding of float sums.
 */
typedef struct lsk_algo_options {
  unsigned workers; /* workers per block */
  unsigned simd;    /* indices per worker step */
  unsigned tile;    /* elements a block handles per step of its loop (its
                     * block domain), at most LSK_MAX_DOMAIN */
  size_t blocks;    /* blocks launched in the main pass */
} lsk_algo_options;

#ifdef __cplusplus
}
#endif
#endif /* LSK_ALGO_H */
