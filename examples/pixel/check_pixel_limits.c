/*
 * check_pixel_limits.c: the pixel example at the limits of its machine.
 *
 * - resource_pixel: host memory (RLIMIT_AS in a child forked before this
 *   process touches OpenCL, reporting by exit status and stderr):
 *   LSK_ENOMEM with the size, and the next, small set is made;
 * - shapes_pixel: the clusterizer's automatic lookup under the H100 model
 *   (lsk_shapes; docs/nvidia.md, "GPU shapes on any device").
 *
 * Moved from lsk's suites resource (tests/core/check_resource.c) and
 * shapes (tests/launch/check_shapes.c), assertions unchanged.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <sys/resource.h>

#include "pixel.h"
#include "testing.h"

#if defined(__SANITIZE_ADDRESS__)
#define EX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EX_ASAN 1
#endif
#endif

/* ------------------------------------------------------------------ */
/* Host memory                                                         */

/* The child's end: exit 0 wanted. */
static void reap(pid_t pid, const char *what)
{
  int st = 0;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: child failed (%s %d)", what,
                WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* Without a fork (CK_FORK=no) a child would share the runner's state:
 * the test says so and checks nothing. */
static int no_fork(const char *test)
{
  const char *ckfork = getenv("CK_FORK");
  if (ckfork && strcmp(ckfork, "no") == 0) {
    fprintf(stderr, "%s: CK_FORK=no, not checked\n", test);
    return 1;
  }
  return 0;
}

/* A set of 16 Mi digis (224 MiB) under an address-space limit of what the
 * child has plus 64 MiB: LSK_ENOMEM naming the count, and the next, small
 * set is made. Not under AddressSanitizer, whose shadow memory needs the
 * address space. */
START_TEST(test_resource_host_out_of_memory)
{
#ifdef EX_ASAN
  fprintf(stderr, "test_resource_host_out_of_memory: not under AddressSanitizer (RLIMIT_AS)\n");
  return;
#endif
  if (no_fork("test_resource_host_out_of_memory"))
    return;
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld", &pages) != 1)
      _exit(2);
    fclose(f);
    rlim_t lim = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (64u << 20);
    struct rlimit rl = {lim, lim};
    if (setrlimit(RLIMIT_AS, &rl))
      _exit(3);
    lsk_pixel_events *ev = NULL;
    int rc = lsk_pixel_events_create(1, 65536, (size_t)16 << 20, 1, &ev);
    if (rc != LSK_ENOMEM || ev ||
        !strstr(lsk_context_errmsg(NULL), "out of host memory for 16777216 digis")) {
      fprintf(stderr, "host memory: %s: %s\n", lsk_status_name(rc), lsk_context_errmsg(NULL));
      _exit(4);
    }
    rc = lsk_pixel_events_create(1, 16, 100, 1, &ev);
    lsk_pixel_events_destroy(ev);
    _exit(rc == LSK_OK ? 0 : 5);
  }
  reap(pid, "host out of memory");
}
END_TEST

Suite *suite_resource_pixel(void)
{
  Suite *s = suite_create("resource_pixel");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_resource_host_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

/* ------------------------------------------------------------------ */
/* Modeled shapes                                                      */

/* The test sets LSK_SHAPES itself (gpushape_shapes_pixel runs it under
 * LSK_SHAPES=nvidia): the context option alone picks the model. */
static void shapes_env(const char *v)
{
  if (v)
    setenv("LSK_SHAPES", v, 1);
  else
    unsetenv("LSK_SHAPES");
}

static lsk_context *context_with(lsk_shapes shapes)
{
  return ex_context_opt(&(lsk_context_options){.shapes = shapes});
}

/* The pixel clusterizer's automatic lookup follows the model: 48 KiB
 * cannot hold the grid (162 KiB), so the hash, as on NVIDIA; the grid
 * asked for is refused with the figures. */
START_TEST(test_shapes_pixel_lookup)
{
  shapes_env(NULL);
  lsk_context *ctx = context_with(LSK_SHAPES_NVIDIA);
  lsk_pixel *px = NULL;
  EX_OK(ctx, lsk_pixel_create(ctx, NULL, &px));
  ck_assert_uint_eq(lsk_pixel_lookup(px), LSK_PIXEL_LOOKUP_HASH);
  lsk_pixel_destroy(px);
  EX_FAILS(ctx, lsk_pixel_create(ctx, &(lsk_pixel_options){.lookup = LSK_PIXEL_LOOKUP_GRID}, &px),
           LSK_ELAUNCH, "has 49152");
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_shapes_pixel(void)
{
  Suite *s = suite_create("shapes_pixel");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_shapes_pixel_lookup);
  suite_add_tcase(s, tc);
  return s;
}
