/*
 * launch/launch.h: what the launch layer gives the layers above it (soa,
 * algo, mem): the kernel's handle type, the kernel library's launch on a
 * queue, and the launch-shape policy. The kernel object is the layer's
 * own (launch/kernel.h). Not installed.
 */
#ifndef LSK_LAUNCH_LAUNCH_H
#define LSK_LAUNCH_LAUNCH_H

#include "core/core.h"

extern const lsk__htype LSK__H_KERNEL;

/* enqueue.c: a launch on q, no wait list, no event (the kernel library's),
 * on the one path of every launch; its messages name fn, the library's
 * public call. */
int lsk__launch_q(lsk_kernel *k, lsk_queue *q, const char *fn, const lsk_launch *cfg,
                  const lsk_arg *args, size_t nargs);

/* args.c: a launch's arguments with the composite kinds (LSK_ARG_BUFFERS,
 * LSK_ARG_SOA) expanded into plain ones, once where the launch path and
 * lsk_tune start, so that the rest sees plain kinds only. Nothing composite:
 * *args and *nargs stay. Else *args points to a malloc'd copy that
 * *heap owns (free it); LSK_EINVAL naming fn and the argument for a bad
 * count, soa or part. LSK__ARGS_PLAIN does it in a public function's body
 * (returning the failure) and frees the copy when the function returns. */
int lsk__args_plain(lsk_context *ctx, const lsk_arg **args, size_t *nargs, lsk_arg **heap,
                    const char *fn);
void lsk__args_plain_free(lsk_arg **heap);
#define LSK__ARGS_PLAIN(ctx, args, nargs, fn)                                                      \
  __attribute__((cleanup(lsk__args_plain_free))) lsk_arg *lsk__argx_ = NULL;                       \
  do {                                                                                             \
    int lsk__argx_rc_ = lsk__args_plain((ctx), &(args), &(nargs), &lsk__argx_, (fn));              \
    if (lsk__argx_rc_)                                                                             \
      return lsk__argx_rc_;                                                                        \
  } while (0)
/* The soa layer's expansion of one LSK_ARG_SOA (launch may not call the soa
 * layer: layers depend one way, core -> launch -> soa): set by
 * lsk_soa_create, read atomically. Writes at most cap arguments and the
 * number needed to *count. */
typedef int (*lsk__soa_expand_fn)(lsk_context *ctx, const void *soa, size_t part, lsk_arg *args,
                                  size_t cap, size_t *count, const char *fn, size_t index);
extern lsk__soa_expand_fn lsk__soa_expand;

/* shape.c: the device's limit on workers per block (the smaller of the
 * work-group and first work-item limits), and a launch's shape where it
 * gives only workers or only simd (both 0: lsk_auto_shape). */
size_t lsk__device_max_workers(const lsk_device_info *dev);
void lsk__resolve_shape(const lsk_device_info *dev, size_t domain, size_t kernel_max,
                        unsigned req_w, unsigned req_s, unsigned *w, unsigned *s);
/* shape.c: a call's own workers (0: automatic) and blocks checked:
 * LSK_ELAUNCH for more workers than the device's work-group size,
 * LSK_ERANGE for more than 2^32 - 1 blocks, named under fn (not a later
 * launch). */
int lsk__check_shape(lsk_context *ctx, const char *fn, unsigned workers, size_t blocks);
/* shape.c: the kernel library's automatic number of blocks over tiles. */
size_t lsk__algo_blocks(const lsk_device_info *dev, size_t tiles);

/* tune_file.c: a tune file's bytes checked against key: 1 with *w and *s
 * set if well formed, else 0 (the fuzz target's entry, too). */
#define LSK__TUNE_MAGIC "lsk tune 1"
#define LSK__TUNE_FILE_MAX 4096
int lsk__tune_parse(const char *data, size_t n, const char *key, unsigned *w, unsigned *s);

#endif /* LSK_LAUNCH_LAUNCH_H */
