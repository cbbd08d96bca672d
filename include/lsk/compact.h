/*
 * compact.h: stable stream compaction (copy_if) by a predicate written in
 * OpenCL C (kernels/compact.cl; docs/compact.md).
 *
 * A compactor is the user's predicate compiled with lsk's compaction
 * kernels. The source must define, with exactly this name and these
 * parameter types (a function or a function-like macro):
 *
 *   plain buffer (opt->layout NULL):
 *     int lsk_select(uint i, __global const T *data, ulong arg)
 *   SoA rows (opt->layout a layout called NAME):
 *     int lsk_select(uint i, NAME_const_view v, ulong arg)
 *
 * returning nonzero if element (row) i is selected; LSK_COMPACT_IN names
 * the second parameter's type in either case. T is opt->data_type
 * ("uint", a struct the source declares...; default void). For SoA the
 * generated views of the layout (lsk_layout_emit_cl, docs/soa.md) come
 * before the source, so the predicate reads v with NAME_const_M(v, i...).
 * arg is the value given to the call (a threshold, a seed: use
 * as_float((uint)arg) or as_double(arg) for a float). i runs over [0, n);
 * the predicate may be called more than once per index and in any order, so
 * it must be a pure function of (i, data, arg). It must not read past what
 * the buffer holds: lsk cannot check a plain buffer's span for it.
 *
 * Results are stable: the selected indices (rows) come out in increasing
 * order, whatever the workers, simd, tile and blocks. Output goes to slots
 * [0, count); a slot at or past the capacity is not written, and the count
 * returned is still the number selected, so count > capacity tells how
 * many did not fit (the caller can grow the output and run again).
 *
 * Cost: two reads of the input and one write of the selected elements,
 * three launches (one when a single block suffices). Calls are enqueued on
 * on's queue (algo.h); those that return the count to the host block, the
 * _to variants never do (the count is written to a device buffer).
 *
 * Thread-safety: as for the context. A compactor holds device scratch (its
 * counters), so it is used on one queue at a time: calls on another queue
 * wait for the last one (an event or lsk_queue_finish). A compactor
 * belongs to its context and must be destroyed before it.
 */
#ifndef LSK_COMPACT_H
#define LSK_COMPACT_H
#include <stdint.h>

#include "algo.h"
#include "layout.h"
#include "soa.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_compactor lsk_compactor;

/* All zeros means the defaults. */
typedef struct lsk_compactor_options {
  /* Name of the predicate's source in compiler messages ("pred.cl:3: ...");
   * NULL: "predicate". */
  const char *name;
  /* Extra options for the OpenCL compiler (-D switches for the predicate,
   * -DNAME_CHECK=1 for range-checked views). */
  const char *build_options;
  /* NULL: the predicate reads a plain buffer. Else the layout of the SoA
   * parts the compactor works on; it must outlive the compactor. */
  const lsk_layout *layout;
  /* Plain buffer only: the element type the predicate sees (an OpenCL C
   * type name); NULL: void. */
  const char *data_type;
} lsk_compactor_options;

/*
 * lsk_compactor_create: compile source with the compaction kernels (the
 * configuration that automatic launches use is built here, so a bad
 * predicate fails here). Other configurations (given workers, simd or tile)
 * are built at their first use and kept.
 * Errors: LSK_EINVAL (NULL, source without lsk_select, data_type with a
 * layout), LSK_EBUILD (the message holds the compiler log, whose lines
 * name opt->name and the predicate's own line numbers), LSK_ENOMEM, and
 * those of builds.
 */
int lsk_compactor_create(lsk_context *ctx, const char *source, const lsk_compactor_options *opt,
                         lsk_compactor **out /* OUT */);
/* NULL is a no-op. Work already enqueued still completes. */
void lsk_compactor_destroy(lsk_compactor *c);

/*
 * lsk_compactor_source: what lsk_compactor_create compiles, without a
 * context, for offline checks of a predicate (`lsk check --compact`):
 * *program is source followed by the compaction kernels
 * (kernels/compact.cl), *prelude the generated input type (for a layout:
 * its views and the row copy). lsk_program_text of them, with opt->name
 * and opt->build_options as the program's, is the text a device compiler
 * sees. Free both with lsk_free.
 * Errors: lsk_compactor_create's checks of source and opt (LSK_EINVAL),
 * NULL program or prelude, LSK_ENOMEM.
 */
int lsk_compactor_source(const char *source, const lsk_compactor_options *opt,
                         char **program /* OUT */, char **prelude /* OUT */);

/*
 * lsk_compact: the indices i in [0, n) with lsk_select(i, data, arg) true,
 * in increasing order, as uints to out[out_offset + k] for k < min(count,
 * capacity); waits and sets *count to the number selected. A plain-buffer
 * compactor only. data may be NULL if the predicate ignores it (it then
 * sees a non-NULL pointer that it must not read). out must hold capacity
 * uints from out_offset and must not be data. n = 0 selects nothing.
 * opt may be NULL.
 * Errors: LSK_EINVAL (NULL, SoA compactor, out is data, bad options),
 * LSK_ERANGE (n or the output span beyond 2^32 - 1 or the buffer),
 * LSK_EVERIFY, and those of launches and transfers.
 * Enqueues; blocks.
 */
int lsk_compact(lsk_compactor *c, lsk_buffer *data, size_t n, uint64_t arg, lsk_buffer *out,
                size_t out_offset, size_t capacity, size_t *count /* OUT */,
                const lsk_algo_options *opt, const lsk_async *on);

/*
 * lsk_compact_to: the same without waiting: the number selected goes to
 * uint element count_index of count_buf (ordered before later work on the
 * queue). count_buf must be neither data nor, within the output span, out.
 * Enqueues; never blocks.
 */
int lsk_compact_to(lsk_compactor *c, lsk_buffer *data, size_t n, uint64_t arg, lsk_buffer *out,
                   size_t out_offset, size_t capacity, lsk_buffer *count_buf, size_t count_index,
                   const lsk_algo_options *opt, const lsk_async *on);

/*
 * lsk_compact_soa: the selected row indices of part `part` of src (n = its
 * element count) with an SoA compactor, as lsk_compact; _to as
 * lsk_compact_to. The part must be of the compactor's layout (checked only
 * as far as the part's bytes: its size must fit the allocation); out and
 * count_buf must not be the soa's buffer.
 * Enqueues; blocks.
 */
int lsk_compact_soa(lsk_compactor *c, const lsk_soa *src, size_t part, uint64_t arg,
                    lsk_buffer *out, size_t out_offset, size_t capacity, size_t *count /* OUT */,
                    const lsk_algo_options *opt, const lsk_async *on);
/* Enqueues; never blocks. */
int lsk_compact_soa_to(lsk_compactor *c, const lsk_soa *src, size_t part, uint64_t arg,
                       lsk_buffer *out, size_t out_offset, size_t capacity, lsk_buffer *count_buf,
                       size_t count_index, const lsk_algo_options *opt, const lsk_async *on);

/*
 * lsk_compact_rows: copy the selected rows of part sj of src, in order, to
 * rows [0, count) of part dj of dst (both of the compactor's layout), on
 * the device; waits and sets *count to the number selected. Every column
 * and every component of every matrix member is copied; scalars are left
 * alone. The capacity is dst's part's element count: rows past it are not
 * written. dst may be src with another part, not the same part.
 * lsk_compact_rows_to: without waiting, the count to count_buf[count_index]
 * (count_buf must not be either soa's buffer).
 * Errors: as lsk_compact, and LSK_EINVAL for a plain-buffer compactor or
 * dst's part being src's part.
 * Enqueues; blocks.
 */
int lsk_compact_rows(lsk_compactor *c, const lsk_soa *src, size_t sj, lsk_soa *dst, size_t dj,
                     uint64_t arg, size_t *count /* OUT */, const lsk_algo_options *opt,
                     const lsk_async *on);
/* Enqueues; never blocks. */
int lsk_compact_rows_to(lsk_compactor *c, const lsk_soa *src, size_t sj, lsk_soa *dst, size_t dj,
                        uint64_t arg, lsk_buffer *count_buf, size_t count_index,
                        const lsk_algo_options *opt, const lsk_async *on);

#ifdef __cplusplus
}
#endif
#endif /* LSK_COMPACT_H */
