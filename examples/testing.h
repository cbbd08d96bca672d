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

/* Bad input (the suites badinput_<x>), as lsk's own bad-input rows
 * (tests/badinput/badinput.h): each row calls one public function with one
 * bad argument and checks the status and the message, which starts
 * "<function>: " and holds the text. ex_bi_clear sets the thread's message,
 * and ctx's if ctx is not NULL, to one no row expects, so that a row cannot
 * pass on an earlier message. */
static inline void ex_bi_clear(lsk_context *ctx)
{
  (void)lsk_soa_range_error(NULL, 0, "bi_sentinel", "none", 1, 0);
  if (ctx) {
    lsk_buffer *b = NULL;
    (void)lsk_buffer_create(ctx, SIZE_MAX, &b);
  }
}

/* Asserts rc == want and that msg's message (NULL: the thread's) starts
 * with "fn: " (or "fn:<digit>", a parser's position) and contains text. */
static inline void ex_bi_check(int line, const char *expr, int rc, int want, lsk_context *msg,
                               const char *fn, const char *text)
{
  const char *m = lsk_context_errmsg(msg);
  ck_assert_msg(rc == want, "line %d: %s -> %s, wanted %s: %s", line, expr, lsk_status_name(rc),
                lsk_status_name(want), m);
  size_t n = strlen(fn);
  ck_assert_msg(strncmp(m, fn, n) == 0 && m[n] == ':' &&
                    (m[n + 1] == ' ' || (m[n + 1] >= '0' && m[n + 1] <= '9')),
                "line %d: %s: message '%s' does not start with '%s: '", line, expr, m, fn);
  ck_assert_msg(strstr(m, text) != NULL, "line %d: %s: message '%s' lacks '%s'", line, expr, m,
                text);
}

/* A status-returning call of fn: expr fails with want; the message is on
 * msg. */
#define EX_BAD(msg, fn, expr, want, text) EX_BAD_AT(msg, fn, fn, expr, want, text)

/* The same where the message starts with another name, at (a function
 * that fn calls and that reports under its own name). */
#define EX_BAD_AT(msg, fn, at, expr, want, text)                                                   \
  do {                                                                                             \
    (void)(fn);                                                                                    \
    ex_bi_clear(msg);                                                                              \
    int ex_bi_rc_ = (expr);                                                                        \
    ex_bi_check(__LINE__, #expr, ex_bi_rc_, (want), (msg), (at), (text));                          \
  } while (0)

/* A call without a status (a getter, a destroy): it returns the neutral
 * value (or nothing: pass 0 for both) and explains in the thread's
 * message. */
#define EX_BADV(fn, expr, neutral, text)                                                           \
  do {                                                                                             \
    ex_bi_clear(NULL);                                                                             \
    ck_assert_msg((expr) == (neutral), "line %d: %s did not give %s", __LINE__, #expr, #neutral);  \
    ex_bi_check(__LINE__, #expr, 0, 0, NULL, (fn), (text));                                        \
  } while (0)

/* A call that has no way to report (pure functions, frees): it must not
 * crash and must give the documented neutral value (cond). */
#define EX_QUIET(fn, cond)                                                                         \
  do {                                                                                             \
    (void)(fn);                                                                                    \
    ck_assert_msg((cond), "line %d: %s", __LINE__, #cond);                                         \
  } while (0)

/* The texts of lsk's handle registry's messages. */
#define EX_WRONG(type, is) "is not a live lsk_" type " (it is a live lsk_" is ")"
#define EX_ORPHAN(parent) "is unusable: its " parent

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
