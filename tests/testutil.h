/*
 * testutil.h: helpers shared by the libcheck suites.
 *
 * Conventions: one file per concept, tests/<layer>/check_<concept>.c,
 * providing Suite *suite_<concept>(void), listed once in tests/suites.h
 * (which the test main and CMake both read). Device tests
 * call tu_context(): with no OpenCL device the whole run exits 77 (ctest
 * reports "skipped").
 */
#ifndef LSK_TESTUTIL_H
#define LSK_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsk/lsk.h"
#include "suites.h"

/* Every passing ck_assert_* calls libcheck's _mark_point, which in fork
 * mode hands the file and line to the parent through a file: a write(2)
 * and two allocations per passing check. In checks of every element that
 * was most of a suite's time (sparse_tree: 540 s of 548 under the
 * sanitizers). tu_mark passes a checkpoint on only when its line is not
 * among the last few passed on by this thread, so that a crash still
 * names a checkpoint of the loop it happened in. */
void tu_mark(const char *file, int line);
#define _mark_point(file, line) tu_mark(file, line)

/* A context on the default device (LSK_DEVICE honoured), or exit 77. */
lsk_context *tu_context(void);
/* The same with options. */
lsk_context *tu_context_opt(const lsk_context_options *opt);

/* Asserts rc == LSK_OK, printing the context's message otherwise (its
 * first 3000 characters: libcheck refuses longer ones, and a vendor
 * compiler's build log can be longer). */
#define TU_OK(ctx, expr)                                                                           \
  do {                                                                                             \
    int tu_rc_ = (expr);                                                                           \
    ck_assert_msg(tu_rc_ == LSK_OK, "%s -> %s: %.3000s", #expr, lsk_status_name(tu_rc_),           \
                  lsk_context_errmsg(ctx));                                                        \
  } while (0)

/* Asserts that expr fails with status want and the message contains text. */
#define TU_FAILS(ctx, expr, want, text)                                                            \
  do {                                                                                             \
    int tu_rc_ = (expr);                                                                           \
    ck_assert_msg(tu_rc_ == (want), "%s -> %s, wanted %s: %.3000s", #expr,                         \
                  lsk_status_name(tu_rc_), lsk_status_name(want), lsk_context_errmsg(ctx));        \
    ck_assert_msg(strstr(lsk_context_errmsg(ctx), (text)) != NULL, "message '%.3000s' lacks '%s'", \
                  lsk_context_errmsg(ctx), (text));                                                \
  } while (0)

/* A program from source, and one kernel of it; both asserted to succeed. */
lsk_program *tu_program(lsk_context *ctx, const char *name, const char *src);
lsk_kernel *tu_kernel(lsk_program *prog, const char *name);

/* A buffer of n uints, all zero (the fill finished: usable on any queue). */
lsk_buffer *tu_zeros(lsk_context *ctx, size_t n);

/* Reads n uints back into a malloc'd array. */
unsigned *tu_read_uints(lsk_context *ctx, lsk_buffer *b, size_t n);

/* A function's text in generated source (OpenCL C, LLVM IR): from the
 * first occurrence of start to the next line that is a lone "}", in a
 * malloc'd string; asserted to be there. */
char *tu_function_text(const char *text, const char *start);

/* A fresh directory $TMPDIR/lsk-<tag>-XXXXXX (or under /tmp) in dir, or
 * exit(1); and removing a directory tree (0 on success). */
void tu_tempdir(char *dir, size_t cap, const char *tag);
int tu_remove_tree(const char *dir);
/* A directory per test case of tc, made and removed by an unchecked
 * fixture (in the runner's process), so that a failed test leaves nothing
 * behind. The tests make theirs inside it with tu_sub_dir (tag-XXXXXX). */
void tu_case_dir(TCase *tc);
void tu_sub_dir(char *dir, size_t cap, const char *tag);
/* Entries of dir (all but . and ..) whose name contains part (NULL: any);
 * -1 if dir cannot be read. */
int tu_count_named(const char *dir, const char *part);

/* A small program for cache and build tests: kernel fill writes
 * data[g] = 9 g + SALT for g < n (SALT from the build options, so that each
 * salt is another build and another cache entry). A macro, so that tests
 * can append more kernels to it. */
#define TU_FILL_SRC                                                                                \
  "LSK_KERNEL void fill(LSK_CTX, __global uint *data, uint n)\n"                                   \
  "{\n"                                                                                            \
  "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"                               \
  "    LSK_FOREACH(it) {\n"                                                                        \
  "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"                                                 \
  "      if (g < n)\n"                                                                             \
  "        data[g] = 9u * g + SALT;\n"                                                             \
  "    }\n"                                                                                        \
  "  }\n"                                                                                          \
  "}\n"
/* Builds src (TU_FILL_SRC and more) with -DSALT=salt into cache_dir (NULL:
 * the context's, "": none), runs fill over n elements and checks them; 0
 * if right, else 1 with why (no assertion: forked children use it too).
 * *compiled / *loaded: the program's build statistics. */
int tu_fill_run(lsk_context *ctx, const char *src, const char *cache_dir, unsigned salt, unsigned n,
                unsigned *compiled, unsigned *loaded, char *why, size_t cap);

/* Philox4x32-10 in plain C, the reference for cl/lsk_random.h. */
void tu_philox(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);
/* Its variates in double: uniform from the top 24 bits of a word, or 53
 * bits of two; Box-Muller normals from two words (24 bits each) or four. */
double tu_uniform24(uint32_t r);
double tu_uniform53(uint32_t hi, uint32_t lo);
double tu_normal24(uint32_t r0, uint32_t r1);
double tu_normal53(const uint32_t r[4]);

/* A fixed-seed generator (64-bit LCG): the next 32 random bits. */
uint32_t tu_rng(uint64_t *state);

/* The sizes every algorithm is checked at: 0, 1, 7, 1000, 2^20 + 3. */
#define TU_NSIZES 5
extern const size_t tu_sizes[TU_NSIZES];

/* Launch shapes of the device-wide algorithms: automatic; one worker;
 * multi-step with odd workers and simd; one index per worker with several
 * tiles per block; one worker of simd 1. */
#define TU_NSHAPES 5
extern const lsk_algo_options tu_shapes[TU_NSHAPES];

/* Whether k can run cfg's workers (building that configuration): 0, with
 * the reason on stdout, where the implementation's CL_KERNEL_WORK_GROUP_SIZE
 * for the build is below them (rusticl on llvmpipe: 32); any other failure
 * fails the test. Tests skip such shapes; PoCL runs all of them. */
int tu_fits(lsk_context *ctx, lsk_kernel *k, const lsk_launch *cfg);

/* Mesa's llvmpipe (rusticl) ends every work-item's loops after 65535
 * iterations in all (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS, a guard for
 * graphics shaders that also applies to OpenCL kernels), silently. Nonzero
 * on such a device. */
int tu_loop_capped(lsk_context *ctx);
/* Whether a work-item that runs about `steps` loop iterations (at least
 * its outer ones: data blocks x ForEach steps; x simd where the lanes are
 * a loop too) would run into that cap: 0 on every other device; else 1,
 * with the reason on stdout. The bound is an eighth of the cap, for the
 * loops the estimate leaves out. tu_steps: the ForEach steps
 * over domain elements with workers and simd (0: the automatic choice). */
int tu_loop_steps(lsk_context *ctx, const char *what, size_t steps);
size_t tu_steps(lsk_context *ctx, size_t domain, unsigned workers, unsigned simd);
/* The same for a device-wide pass over n elements with shape o (NULL:
 * automatic), planned as host/algo/algo.c does: tiles per block x steps per
 * tile. */
int tu_algo_capped(lsk_context *ctx, const char *what, size_t n, const lsk_algo_options *o);

/* Whether the context's device has fp64 (lsk_device_info.has_fp64): 0,
 * with "skipped: <what>: no fp64 on <device>" on stdout, where it has not.
 * Tests of double data skip then (rusticl on llvmpipe has no fp64). */
int tu_fp64(lsk_context *ctx, const char *what);

/* Whether rc is a launch refused for the device's limits (LSK_ELAUNCH:
 * workers above CL_KERNEL_WORK_GROUP_SIZE; llvmpipe: 32): 1, with the
 * reason on stdout. Tests of library objects that pick their own kernels
 * skip then. Not local memory: the pixel pipeline's hash lookup, the one
 * that needed more than llvmpipe's 32 KiB, now fits, and a test holds it
 * there (its grid lookup, for CPUs, is refused there: tu_skip_on). */
int tu_over_limits(lsk_context *ctx, int rc);
/* Whether rc is skip_rc and ctx's message contains text (a failure that
 * only says the device lacks something): 1, with the reason on stdout. */
int tu_skip_on(lsk_context *ctx, int rc, int skip_rc, const char *text);

/* The suites (tests/suites.h). */
#define X(name, source, runs) Suite *suite_##name(void);
LSK_TEST_SUITES(X)
#undef X

/* check_block.c: the block collectives at one small shape, for the grind
 * suite; the association's small cases, also run in the grind suite. */
void block_grind_case(void);
TCase *tcase_block_grind(void);
TCase *tcase_assoc_grind(void);

#endif /* LSK_TESTUTIL_H */
