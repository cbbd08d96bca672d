/*
 * launch/tune.h: what lsk_tune (tune.c) needs of the rest of the launch
 * layer: the kernel's one small interface to it (kernel.c, resolve.c) and
 * the tune store (tune_file.c), which lsk_kernel_create reads too.
 * Private to the launch layer.
 */
#ifndef LSK_LAUNCH_TUNE_H
#define LSK_LAUNCH_TUNE_H

#include "launch/launch.h"

/* What lsk_tune and lsk_tune_stored need of a kernel for one launch
 * (resolve.c; fn names the caller), and the kernel's context (kernel.c). */
typedef struct lsk__tune_view {
  unsigned domain[3]; /* the launch's block domain (or the declared one), checked */
  int stored;         /* a kept choice for it (read at create, or set by lsk_tune) */
  unsigned stored_workers, stored_simd;
  /* With rule: the automatic rule's shape, stored choices aside, built,
   * and the kernel's CL_KERNEL_WORK_GROUP_SIZE in that build. */
  unsigned rule_workers, rule_simd;
  size_t wg_max;
  const lsk_program *prog; /* the kernel's program and name: the tune store's key */
  const char *name;
} lsk__tune_view;
int lsk__kernel_tune_view(lsk_kernel *k, const lsk_launch *cfg, int rule, const char *fn,
                          lsk__tune_view *out);
/* Replaces the kept choice for dom (w = 0: none) and forgets the last
 * resolution, so that the next automatic launch sees it. */
void lsk__kernel_keep_choice(lsk_kernel *k, const unsigned dom[3], unsigned w, unsigned s);
lsk_context *lsk__kernel_context(const lsk_kernel *k);
/* tune_file.c: the store of lsk_tune's choices (format there). Calls
 * found for each stored choice of prog's kernel that dir's index of that
 * kernel lists (lsk_kernel_create: once per kernel, so that no launch
 * reads a file). */
void lsk__tune_load_all(const lsk_program *prog, const char *dir, const char *kernel,
                        void (*found)(void *arg, const unsigned dom[3], unsigned w, unsigned s),
                        void *arg);
/* tune_file.c: writes the choice of r for (kernel, dom) of prog into dir
 * atomically, and adds dom to the kernel's index; the path (malloc'd), or
 * NULL where it could not be written. */
char *lsk__tune_store(const lsk_program *prog, const char *dir, const char *kernel,
                      const unsigned dom[3], const lsk_tune_result *r);

#endif /* LSK_LAUNCH_TUNE_H */
