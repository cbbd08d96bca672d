/*
 * tune.h: measure a kernel's launch shapes on the device and keep the
 * fastest for later automatic launches.
 *
 * lsk_tune runs a kernel with a set of (workers, simd) candidates on the
 * context's device, checks that every candidate leaves the same bytes in
 * every buffer argument as the automatic rule's shape, times each with
 * OpenCL profiling events (a monotonic clock where the queue has no
 * profiling), and picks the fastest. The choice is stored in the per-user
 * tune directory, one small text file per key; the key is a hash of the
 * platform, device (and its partition, for a sub-device:
 * lsk_device_info.partition; and its modeled shapes, under LSK_SHAPES:
 * lsk_device_info.shapes, so that a model's choices and the device's own
 * never mix), driver, lsk version, the program's source and build
 * options, the kernel name and the block domain. A launch with workers and
 * simd both 0 (automatic) then uses the stored choice where there is one and
 * the kernel can run it; otherwise the rule of docs/lockstep.md.
 *
 * The tune directory: lsk_context_options.tune_dir, else the environment:
 * LSK_TUNE=0 (or false, F...) turns stored choices off, LSK_TUNE_DIR names
 * the directory, else $XDG_CACHE_HOME/lsk, else $HOME/.cache/lsk. A context
 * reads it once, at creation; a kernel looks a (domain) up once, at its first
 * automatic launch with that domain, and keeps the answer: no file is read
 * on the launch path after that.
 */
#ifndef LSK_TUNE_H
#define LSK_TUNE_H

#include "program.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lsk_tune_shape {
  unsigned workers;
  unsigned simd;
} lsk_tune_shape;

/* All zeros means the defaults. */
typedef struct lsk_tune_options {
  /* Timed rounds over all candidates (interleaved, the order rotated each
   * round); each candidate's best is compared. 0: 5. */
  unsigned repeat;
  /* The candidates; NULL: the default set (lsk_tune_candidates). The
   * automatic rule's shape is always measured too, first. */
  const lsk_tune_shape *candidates;
  size_t ncandidates;
  /* Non-zero: timed runs do not restore the buffers from the snapshot
   * first. Only for kernels whose output does not feed their input (a
   * triad); verification runs always start from the snapshot. */
  int no_restore;
  /* Non-zero: measure and report, but store nothing. */
  int no_store;
} lsk_tune_options;

/* One measured candidate. */
typedef struct lsk_tune_entry {
  unsigned workers, simd;
  int status;    /* LSK_OK, or why the candidate could not run (LSK_ELAUNCH...) */
  int identical; /* 1: its result is byte for byte the automatic shape's */
  double best;   /* seconds, best of the timed rounds; 0 if not timed */
  double median; /* seconds */
} lsk_tune_entry;

typedef struct lsk_tune_result {
  unsigned domain[3];               /* the block domain tuned */
  unsigned workers, simd;           /* the choice: the fastest identical */
  unsigned rule_workers, rule_simd; /* the automatic rule without tuning */
  double best, rule_best;           /* their best times, seconds */
  int stored;                       /* 1: the choice was written */
  char *path;                       /* the tune file (malloc'd), or NULL */
  size_t nentries;
  lsk_tune_entry *entries; /* entries[0] is the rule's shape */
} lsk_tune_result;

/*
 * lsk_tune: tune kernel k for the launch cfg (its domain and blocks; its
 * workers and simd are ignored) with the arguments args, as for
 * lsk_kernel_launch. The buffers among args are read first (the snapshot)
 * and written back before each verification run and, unless
 * opt->no_restore, before each timed run; after the tuning they hold the
 * result of the last run. The kernel must be deterministic: a candidate
 * whose result differs from the rule's is reported (identical 0) and never
 * chosen. opt may be NULL. On success *out holds the table; free it with
 * lsk_tune_result_free. The choice is stored unless opt->no_store or the
 * context has no tune directory; a failure to store is not an error
 * (out->stored is 0). Unless stored choices are off for the context, k's
 * own later automatic launches use the choice at once, stored or not.
 * Every transfer and launch runs on on->queue (NULL: the default queue),
 * the first after on's wait list; *on->event, if asked, completes with the
 * last (it is complete on return). Other queues run on meanwhile: keep
 * them off args' buffers.
 * Errors: LSK_EINVAL, LSK_ENOMEM, and those of lsk_kernel_launch for the
 * rule's shape (a failing candidate is only recorded in its entry).
 * Thread-safety: as for the kernel's context.
 * Enqueues; blocks.
 */
int lsk_tune(lsk_kernel *k, const lsk_launch *cfg, const lsk_arg *args, size_t nargs,
             const lsk_tune_options *opt, lsk_tune_result *out /* OUT */, const lsk_async *on);

/* Frees what lsk_tune allocated in r and zeros it. NULL is a no-op. */
void lsk_tune_result_free(lsk_tune_result *r);

/*
 * lsk_tune_candidates: the default candidate set for a block domain of
 * domain_size on dev with kernel_max the kernel's CL_KERNEL_WORK_GROUP_SIZE
 * (0: the device's max): workers 1, 2, 4, ... up to min(domain_size,
 * kernel_max, the device's max), each with simd 1 and with the one-step simd
 * ceil(domain_size / workers). Writes at most cap shapes to out (which may
 * be NULL with cap 0) and returns how many there are.
 */
size_t lsk_tune_candidates(const lsk_device_info *dev, size_t domain_size, size_t kernel_max,
                           lsk_tune_shape *out /* OUT */, size_t cap);

/*
 * lsk_tune_stored: the stored choice that an automatic launch of k with
 * cfg's domain uses. *found is 1 and *workers, *simd are set if there is one
 * that the kernel can run; 0 otherwise (none, corrupt, unusable, or stored
 * choices turned off). Builds the configuration if needed.
 * Errors: those of lsk_kernel_shape.
 */
int lsk_tune_stored(lsk_kernel *k, const lsk_launch *cfg, int *found /* OUT */,
                    unsigned *workers /* OUT */, unsigned *simd /* OUT */);

/* lsk_tune_dir: the context's tune directory, or NULL if stored choices are
 * off for it. Valid while the context lives. */
const char *lsk_tune_dir(const lsk_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* LSK_TUNE_H */
