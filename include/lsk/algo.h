/*
 * algo.h: what the kernel library's algorithms share: element types,
 * operations, and the options every algorithm takes.
 *
 * The algorithms (reduce.h, scan.h, compact.h, assoc.h, vector.h) are lsk
 * kernels from kernels/, built on first use for the context's device and
 * kept until the context is destroyed. They are enqueued on the queue
 * that opt->on names (the default queue without one), in order with the
 * caller's own launches and transfers on that queue; their temporary
 * buffers come from the context's buffer cache (buffer.h), so calls on
 * different queues never share one. A call that returns a value to the
 * host waits for its queue; the others do not (lsk_queue_finish or
 * lsk_context_finish waits and reports device errors).
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
  /* Where the call runs (queue.h): its queue, the events its first command
   * waits for, and an event of its last command. NULL: the default queue. */
  const lsk_async *on;
} lsk_algo_options;

#ifdef __cplusplus
}
#endif
#endif /* LSK_ALGO_H */
