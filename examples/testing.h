/*
 * testing.h: the examples' own test helpers, header-only, on libcheck and
 * lsk's public API alone. Each example's suites (check_<x>.c) build into a
 * test binary of its own (lsk_<x>_tests) with these, in lsk's tree and in
 * the standalone build against an installed lsk (`cmake -S examples`);
 * nothing of lsk's test suite (tests/testutil.h) is needed.
 *
 * A test binary lists its suites once, in <x>_suites.h (X(name, source,
 * runs), the same form as tests/suites.h; CMake reads the same lines), and
 * one of its files ends in EX_MAIN(<X>_SUITES):
 *   lsk_<x>_tests            run every suite
 *   lsk_<x>_tests NAME...    run the named suites (ctest registers one each)
 * Exit 0 if all pass, 1 if any fails, 77 (ctest's skip) without an OpenCL
 * device, 2 for a name that is no suite.
 */
#ifndef LSK_EXAMPLES_TESTING_H
#define LSK_EXAMPLES_TESTING_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lsk/lsk.h"

/* Asserts rc == LSK_OK, printing the context's message otherwise. */
#define EX_OK(ctx, expr)                                                                           \
  do {                                                                                             \
    int ex_rc_ = (expr);                                                                           \
    ck_assert_msg(ex_rc_ == LSK_OK, "%s -> %s: %s", #expr, lsk_status_name(ex_rc_),                \
                  lsk_context_errmsg(ctx));                                                        \
  } while (0)

/* Asserts that expr fails with status want and the message contains text. */
#define EX_FAILS(ctx, expr, want, text)                                                            \
  do {                                                                                             \
    int ex_rc_ = (expr);                                                                           \
    ck_assert_msg(ex_rc_ == (want), "%s -> %s, wanted %s: %s", #expr, lsk_status_name(ex_rc_),     \
                  lsk_status_name(want), lsk_context_errmsg(ctx));                                 \
    ck_assert_msg(strstr(lsk_context_errmsg(ctx), (text)) != NULL, "message '%s' lacks '%s'",      \
                  lsk_context_errmsg(ctx), (text));                                                \
  } while (0)

/* A context with options opt (NULL: the defaults) on the default device
 * (LSK_DEVICE honoured), or exit 77 where there is no device. */
static inline lsk_context *ex_context_opt(const lsk_context_options *opt)
{
  lsk_context *ctx = NULL;
  int rc = lsk_context_create(opt, &ctx);
  if (rc == LSK_ENODEV) {
    fprintf(stderr, "skipped: no OpenCL device: %s\n", lsk_context_errmsg(NULL));
    exit(77);
  }
  ck_assert_msg(rc == LSK_OK, "lsk_context_create: %s: %s", lsk_status_name(rc),
                lsk_context_errmsg(NULL));
  return ctx;
}

static inline lsk_context *ex_context(void) { return ex_context_opt(NULL); }

/* A fixed-seed generator (64-bit LCG): the next 32 random bits. */
static inline uint32_t ex_rng(uint64_t *state)
{
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*state >> 33);
}

/* Whether rc is skip_rc and ctx's message contains text (a failure that
 * only says the device lacks something): 1, with the reason on stdout. */
static inline int ex_skip_on(lsk_context *ctx, int rc, int skip_rc, const char *text)
{
  const char *m = lsk_context_errmsg(ctx);
  if (rc != skip_rc || !strstr(m, text))
    return 0;
  printf("skipped: %s\n", m);
  return 1;
}

/* Whether rc is a launch refused for the device's limits (LSK_ELAUNCH:
 * workers above CL_KERNEL_WORK_GROUP_SIZE; Mesa's llvmpipe: 32): 1, with
 * the reason on stdout. Tests of objects that pick their own kernels skip
 * then. */
static inline int ex_over_limits(lsk_context *ctx, int rc)
{
  return ex_skip_on(ctx, rc, LSK_ELAUNCH, "(CL_KERNEL_WORK_GROUP_SIZE)");
}

/* 0 if there is a device, 77 if there is none, 1 if listing failed; asked
 * in a child process: OpenCL runtimes (PoCL's thread pool) do not survive
 * a fork, and libcheck forks per test. A device that LSK_DEVICE names but
 * that is not there (rusticl's runs without mesa-opencl-icd) is none too. */
static inline int ex_have_device(void)
{
  pid_t pid = fork();
  if (pid == 0) {
    lsk_device_info *list;
    size_t n;
    int rc = lsk_device_list(&list, &n);
    if (rc == LSK_OK)
      lsk_device_list_free(list);
    else
      fprintf(stderr, "%s\n", lsk_context_errmsg(NULL));
    unsigned selected;
    if (rc == LSK_OK && getenv("LSK_DEVICE") && (rc = lsk_device_select(NULL, &selected)))
      fprintf(stderr, "%s\n", lsk_context_errmsg(NULL));
    _exit(rc == LSK_OK ? 0 : rc == LSK_ENODEV ? 77 : 1);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
    return 1;
  return WEXITSTATUS(st);
}

/* One suite of a test binary. */
typedef struct ex_suite {
  const char *name;
  Suite *(*make)(void);
} ex_suite;

/* Runs the suites that argv names (all without names); see the top. */
static inline int ex_main(int argc, char **argv, const char *prog, const ex_suite *suites, size_t n)
{
  int dev = ex_have_device();
  if (dev == 77) {
    fprintf(stderr, "skipped: no OpenCL device\n");
    return 77;
  }
  if (dev) {
    fprintf(stderr, "%s: listing the devices failed (see above)\n", prog);
    return 1;
  }
  SRunner *sr = NULL;
  for (size_t i = 0; i < n; ++i) {
    int wanted = argc < 2;
    for (int a = 1; a < argc; ++a)
      wanted |= strcmp(argv[a], suites[i].name) == 0;
    if (!wanted)
      continue;
    if (!sr)
      sr = srunner_create(suites[i].make());
    else
      srunner_add_suite(sr, suites[i].make());
  }
  if (!sr) {
    fprintf(stderr, "%s: no such suite: %s\n", prog, argc > 1 ? argv[1] : "");
    return 2;
  }
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}

/* The suites' prototypes, from a list of X(name, source, runs). */
#define EX_DECLARE_SUITE(name, source, runs) Suite *suite_##name(void);
/* main() of a test binary over the list LIST (<X>_SUITES), with the
 * suites' prototypes before it. */
#define EX_SUITE_ENTRY(name, source, runs) {#name, suite_##name},
#define EX_MAIN(LIST)                                                                              \
  LIST(EX_DECLARE_SUITE)                                                                           \
  int main(int argc, char **argv)                                                                  \
  {                                                                                                \
    static const ex_suite suites[] = {LIST(EX_SUITE_ENTRY)};                                       \
    return ex_main(argc, argv, argv[0], suites, sizeof suites / sizeof suites[0]);                 \
  }

#endif /* LSK_EXAMPLES_TESTING_H */
