/*
 * lsk_foreach.h: ForEach over a block domain, master, and block sync.
 *
 * Mapping (PMacc's): with W workers and simd S, worker w at step i covers
 * the indices i*S*W + w*S + s for s in [0, S), in that order; the slot of
 * such an index in the worker's context variables is i*S + s. Indices at or
 * beyond the domain size are masked: the body does not run for them.
 *
 * Why both loops: each worker takes S consecutive indices per step. With
 * S*W >= n there is one step and each worker has one contiguous run, which
 * CPU back-ends such as PoCL vectorize well; with S = 1 consecutive workers
 * take consecutive indices, which GPUs coalesce.
 */
#ifndef LSK_CL_FOREACH_H
#define LSK_CL_FOREACH_H

#include "lsk_config.h"
#include "lsk_idx.h"

LSK_INLINE lsk_idx lsk__first(uint step)
{
  lsk_idx r;
  r.idx = step * LSK__STRIDE + lsk_worker() * LSK_SIMD;
  r.slot = step * LSK_SIMD;
  return r;
}

/*
 * The barrier guard. A barrier that not every worker of the block reaches
 * hangs a GPU and crashes PoCL's work-group function, so the device
 * library makes one written inside a ForEach or master body a compile
 * error at the user's line. At file scope lsk__barrier_token is an int
 * constant; the ForEach and master macros declare a local of the same name
 * whose type names the mistake; every barrier and block collective passes
 * the token to lsk__barrier_ok(int) (cl/lsk_barrier_guards.h, the last
 * header). Inside a body the compiler then reports, at the user's line:
 *   passing 'lsk_error_barrier_inside_LSK_FOREACH' to parameter of
 *   incompatible type 'int'
 * The guard is lexical: a barrier in a function called from the body is
 * the host's to refuse (lsk_source_check). In a ForEach the local is the
 * loop's own step counter (an extra one-pass loop around it was
 * miscompiled by Mesa's rusticl at 2^20 indices); a master body is a
 * loop of one pass that folds away.
 */
typedef struct {
  uint step;
} lsk_error_barrier_inside_LSK_FOREACH;
typedef struct {
  uint once;
} lsk_error_barrier_inside_LSK_MASTER;
enum { lsk__barrier_token = 0 };
LSK_INLINE void lsk__barrier_ok(int outside_foreach_and_master) { (void)outside_foreach_and_master; }

/*
 * LSK_FOREACH_N(it, n) { body }: run body once for every index of [0, n)
 * that this worker owns, with `it` an lsk_idx. n is a compile-time constant
 * (the block domain) or a run-time count up to it (lsk_domain_count: the
 * indices of a partial data block), or a count larger than the domain
 * (PMacc's ForEach over a size of its own): the workers then take more
 * steps, with the same mapping. The test is per step, not per index:
 * every step before the last partial one runs the body unguarded, so the
 * compiler versions the loop and full steps vectorize with plain loads and
 * stores. Called by every worker.
 * @attention no implicit synchronization before or after; no barrier inside
 * the body (workers run different numbers of indices): lsk_sync(), a block
 * collective or barrier() written in the body does not compile (below);
 * `continue` moves to the next index, `break` is not supported.
 */
#define LSK_FOREACH_N(it, n)                                                                       \
  for (lsk_error_barrier_inside_LSK_FOREACH lsk__barrier_token = {0};                               \
       lsk__barrier_token.step < LSK__STEPS(n); ++lsk__barrier_token.step)                          \
    for (lsk_idx it = lsk__first(lsk__barrier_token.step);                                         \
         it.slot < (lsk__barrier_token.step + 1) * LSK_SIMD; ++it.idx, ++it.slot)                  \
      if (lsk__barrier_token.step < LSK__FULL(n) || it.idx < (uint)(n))

/* LSK_FOREACH(it): ForEach over the block domain. */
#define LSK_FOREACH(it) LSK_FOREACH_N(it, LSK_DOMAIN_SIZE)

/*
 * LSK_MASTER { body }: body runs on exactly one worker of the block, always
 * the same one (worker 0). Nothing is broadcast: write local memory, then
 * lsk_sync(). Called by every worker; no synchronization.
 * @attention no barrier inside the body (the other workers never reach
 * it): like ForEach's, such a body does not compile. The body is the one
 * pass of a loop, so `break` and `continue` in it leave the body only;
 * `else` after it still belongs to the worker test.
 */
#define LSK_MASTER                                                                                 \
  if (lsk_worker() == 0)                                                                           \
    for (lsk_error_barrier_inside_LSK_MASTER lsk__barrier_token = {1}; lsk__barrier_token.once;    \
         lsk__barrier_token.once = 0)

/*
 * lsk_sync: block-wide barrier with local and global memory fences.
 * @attention must be reached by every worker of the block.
 */
LSK_INLINE void lsk_sync(void) { barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }

/*
 * lsk_sync_local: block-wide barrier with a local memory fence only, for
 * exchanges through local memory. With one worker there is no one to wait
 * for and no barrier (PoCL 3.1 also fails on some barriers in branches of
 * one-work-item groups). Always inlined: PoCL 3.1's kernel compiler crashes
 * on barriers in functions that LLVM declines to inline.
 * @attention must be reached by every worker of the block.
 */
LSK_INLINE __attribute__((always_inline)) void lsk_sync_local(void)
{
  if (LSK_WORKERS > 1)
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif /* LSK_CL_FOREACH_H */
