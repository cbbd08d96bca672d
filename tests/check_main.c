/*
 * check_main.c: runs the test suites of tests/suites.h.
 *   lsk_tests            run every suite
 *   lsk_tests NAME...    run the named suites (ctest registers one each)
 * Exit 0 if all pass, 1 if any fails, 77 if a suite needs a device and
 * there is none.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static const struct {
  const char *name;
  Suite *(*make)(void);
} suites[] = {
#define X(name, source, runs) {#name, suite_##name},
    LSK_TEST_SUITES(X)
#undef X
};
#define NSUITES (sizeof suites / sizeof suites[0])

/* 0 if there is a device, 77 if there is none, 1 if listing failed; asked
 * in a child process: OpenCL runtimes
 * (PoCL's thread pool) do not survive a fork, and libcheck forks per test. */
static int have_device(void)
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
    /* A device named by LSK_DEVICE that is not there (rusticl's tests
     * without mesa-opencl-icd): none either. */
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

int main(int argc, char **argv)
{
  /* Suites that need no device. */
  int only_status =
      argc == 2 && (strcmp(argv[1], "status") == 0 || strcmp(argv[1], "layout") == 0 ||
                    strcmp(argv[1], "sparse_def") == 0);
  int dev = only_status ? 0 : have_device();
  if (dev == 77) {
    fprintf(stderr, "skipped: no OpenCL device\n");
    return 77;
  }
  if (dev) {
    fprintf(stderr, "lsk_tests: listing the devices failed (see above)\n");
    return 1;
  }
  SRunner *sr = NULL;
  for (size_t i = 0; i < NSUITES; ++i) {
    /* A canary fails on purpose: it runs only when named. */
    int wanted = argc < 2 && !strstr(suites[i].name, "canary");
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
    fprintf(stderr, "lsk_tests: no such suite: %s\n", argc > 1 ? argv[1] : "");
    return 2;
  }
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
