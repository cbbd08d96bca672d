/*
 * check_resource.c: running out of something is an error with a message,
 * never a crash, and leaves nothing half-written behind.
 *
 * - device memory: the context's buffers together beyond the device's
 *   global memory are refused at create (PoCL 3.1 accepts them and aborts
 *   at first use; see docs/reliability.md);
 * - build failure: a compile error and a bad build option, with a cache
 *   directory: the status, the compiler's log, no entry stored;
 * - a full disk for the cache (RLIMIT_FSIZE in a child, SIGXFSZ ignored):
 *   the entry's write fails mid-way, the build succeeds, no temporary or
 *   partial file stays;
 * - a cache directory that cannot be written (chmod, in a child that drops
 *   root, as root ignores modes; the path-under-a-file case is in
 *   check_cache.c).
 * (Host memory: the pixel example's event sets, its suite resource_pixel,
 * examples/pixel/check_pixel_limits.c.)
 *
 * The children are forked before this process touches OpenCL (a runtime
 * does not survive a fork); they report by exit status and stderr.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/* fill and 128 more kernels made by the preprocessor: a binary several
 * times larger than the source. PoCL writes the source to a file at every
 * build, so a file size limit between the two stops lsk's cache entry
 * alone. */
static const char *big_src =
    TU_FILL_SRC "#define EXTRA(i) LSK_KERNEL void extra##i(LSK_CTX, __global uint *d) "
                "{ LSK_FOREACH(it) { d[it.idx] = it.idx * (i##u + SALT); } }\n"
                "#define EXTRA4(i) EXTRA(i##0) EXTRA(i##1) EXTRA(i##2) EXTRA(i##3)\n"
                "#define EXTRA16(i) EXTRA4(i##0) EXTRA4(i##1) EXTRA4(i##2) EXTRA4(i##3)\n"
                "EXTRA16(1) EXTRA16(2) EXTRA16(3) EXTRA16(4) EXTRA16(5) EXTRA16(6) EXTRA16(7) "
                "EXTRA16(8)\n";

enum { N = 500 };

/* fill (SALT salt, cache dir as given, "" none): tu_fill_run over N. */
static int fill_run(lsk_context *ctx, const char *src, const char *cache_dir, unsigned salt,
                    unsigned *compiled, unsigned *loaded, char *why, size_t cap)
{
  return tu_fill_run(ctx, src, cache_dir, salt, N, compiled, loaded, why, cap);
}

/* Waits for a child; asserts it exited 0. */
static void reap(pid_t pid, const char *what)
{
  int st = 0;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: child failed (%s %d)", what,
                WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

static int no_fork(const char *test)
{
  const char *ckfork = getenv("CK_FORK");
  if (ckfork && strcmp(ckfork, "no") == 0) {
    fprintf(stderr, "%s: CK_FORK=no, not checked\n", test);
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Device memory                                                       */

/* Buffers of the largest allocation until the next one would pass the
 * device's global memory: that one is refused, naming the sizes; one that
 * fits what is left is made; freeing one makes room again. Nothing is
 * written to them: drivers back a buffer at first use, so this costs no
 * memory. */
START_TEST(test_resource_buffers_beyond_global_memory)
{
  lsk_context *ctx = tu_context();
  const lsk_device_info *d = lsk_context_device(ctx);
  uint64_t global = d->global_mem_size, max = d->max_alloc_size;
  ck_assert_uint_gt(max, 0);
  ck_assert_uint_ge(global, max);
  uint64_t n = global / max;
  if (n > 64 || max > SIZE_MAX) {
    fprintf(stderr, "test_resource_buffers_beyond_global_memory: %llu buffers needed, skipped\n",
            (unsigned long long)n);
    lsk_context_destroy(ctx);
    return;
  }
  lsk_buffer *b[65] = {NULL};
  for (uint64_t i = 0; i < n; ++i)
    TU_OK(ctx, lsk_buffer_create(ctx, (size_t)max, &b[i]));
  lsk_buffer *extra = (lsk_buffer *)&extra;
  TU_FAILS(ctx, lsk_buffer_create(ctx, (size_t)max, &extra), LSK_ERANGE, "global memory of");
  ck_assert_ptr_null(extra);
  char num[64];
  snprintf(num, sizeof num, "size %llu with the %llu bytes", (unsigned long long)max,
           (unsigned long long)(n * max));
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), num), "message '%s' lacks '%s'",
                lsk_context_errmsg(ctx), num);
  snprintf(num, sizeof num, "(%llu bytes)", (unsigned long long)global);
  ck_assert_msg(strstr(lsk_context_errmsg(ctx), num), "message '%s' lacks '%s'",
                lsk_context_errmsg(ctx), num);
  uint64_t left = global - n * max;
  if (left) {
    TU_OK(ctx, lsk_buffer_create(ctx, (size_t)left, &extra));
    lsk_buffer *one = (lsk_buffer *)&one;
    TU_FAILS(ctx, lsk_buffer_create(ctx, 1, &one), LSK_ERANGE, "global memory of");
    ck_assert_ptr_null(one);
    lsk_buffer_destroy(extra);
  }
  lsk_buffer_destroy(b[0]);
  TU_OK(ctx, lsk_buffer_create(ctx, (size_t)max, &b[0]));
  for (uint64_t i = 0; i < n; ++i)
    lsk_buffer_destroy(b[i]);
  /* All freed: the context works as before. */
  char why[512] = "";
  unsigned compiled, loaded;
  ck_assert_msg(fill_run(ctx, TU_FILL_SRC, "", 1, &compiled, &loaded, why, sizeof why) == 0, "%s",
                why);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Build failure                                                       */

START_TEST(test_resource_build_failure_stores_nothing)
{
  char dir[1024];
  tu_sub_dir(dir, sizeof dir, "resource");
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.cache_dir = dir});
  const char *bad = "LSK_KERNEL void fill(LSK_CTX, __global uint *data, uint n)\n"
                    "{\n"
                    "  LSK_FOREACH(it) { data[it.idx] = n + no_such_name_qq; }\n"
                    "}\n";
  lsk_program *p = tu_program(ctx, "bad.cl", bad);
  lsk_launch cfg = {.domain = {64}, .blocks = {1}};
  TU_FAILS(ctx, lsk_program_build(p, "fill", &cfg), LSK_EBUILD, "clBuildProgram");
  const char *msg = lsk_context_errmsg(ctx);
  ck_assert_msg(strstr(msg, "bad.cl:3:") && strstr(msg, "no_such_name_qq"),
                "message lacks the log's line: %s", msg);
  lsk_program_destroy(p);

  /* An option the compiler rejects: OpenCL's code passes through, the
   * message names the call and the options. */
  p = NULL;
  TU_OK(ctx, lsk_program_create(
                 ctx, TU_FILL_SRC,
                 &(lsk_program_options){.name = "opt.cl",
                                        .build_options = "-DSALT=1u -cl-no-such-option-qq"},
                 &p));
  int rc = lsk_program_build(p, "fill", &cfg);
  ck_assert_msg(rc == CL_INVALID_BUILD_OPTIONS || rc == LSK_EBUILD, "bad option gave %s: %s",
                lsk_status_name(rc), lsk_context_errmsg(ctx));
  msg = lsk_context_errmsg(ctx);
  ck_assert_msg(strstr(msg, "clBuildProgram") && strstr(msg, "-cl-no-such-option-qq"),
                "message lacks the call or the option: %s", msg);
  lsk_program_destroy(p);
  ck_assert_int_eq(tu_count_named(dir, NULL), 0);

  /* The context and its cache still work. */
  char why[512] = "";
  unsigned compiled, loaded;
  ck_assert_msg(fill_run(ctx, TU_FILL_SRC, NULL, 2, &compiled, &loaded, why, sizeof why) == 0, "%s",
                why);
  ck_assert_int_eq(tu_count_named(dir, ".bin"), 1);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* A full disk                                                         */

/* In a child: with limit 0 none, else a limit of limit bytes on any file
 * it writes. The program is first built and stored in another directory
 * (warm), so that PoCL's own kernel cache holds all of it (PoCL compiles
 * every kernel when asked for the binary, and LLVM ends the process when
 * such a write fails) and the limited build writes only PoCL's copy of the
 * source and lsk's entry. */
static void full_disk_child(const char *dir, const char *warm, rlim_t limit)
{
  char why[512] = "";
  unsigned compiled = 0, loaded = 0;
  lsk_context *ctx = NULL;
  if (lsk_context_create(NULL, &ctx)) {
    fprintf(stderr, "full disk: %s\n", lsk_context_errmsg(NULL));
    _exit(2);
  }
  if (fill_run(ctx, big_src, limit ? warm : dir, 3, &compiled, &loaded, why, sizeof why)) {
    fprintf(stderr, "full disk, first build: %s\n", why);
    _exit(3);
  }
  if (!limit) {
    lsk_context_destroy(ctx);
    _exit(0);
  }
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit rl = {limit, limit};
  if (setrlimit(RLIMIT_FSIZE, &rl)) {
    perror("setrlimit");
    _exit(4);
  }
  /* Twice: the second finds no entry and compiles again. */
  for (int i = 0; i < 2; ++i) {
    if (fill_run(ctx, big_src, dir, 3, &compiled, &loaded, why, sizeof why)) {
      fprintf(stderr, "full disk (limit %llu): %s\n", (unsigned long long)limit, why);
      _exit(5);
    }
    if (compiled != 1 || loaded != 0) {
      fprintf(stderr, "full disk: %u compiled, %u loaded\n", compiled, loaded);
      _exit(6);
    }
    int left = tu_count_named(dir, NULL);
    if (left != 0) {
      fprintf(stderr, "full disk (limit %llu): %d files left in %s\n", (unsigned long long)limit,
              left, dir);
      _exit(7);
    }
  }
  lsk_context_destroy(ctx);
  _exit(0);
}

static pid_t full_disk_fork(const char *dir, const char *warm, rlim_t limit)
{
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0)
    full_disk_child(dir, warm, limit);
  return pid;
}

START_TEST(test_resource_cache_full_disk)
{
  if (no_fork("test_resource_cache_full_disk"))
    return;
  char dir[1024], sized[1024], bin[1400] = "";
  tu_sub_dir(dir, sizeof dir, "fulldisk");
  tu_sub_dir(sized, sizeof sized, "fullsize");
  /* The entry's size, from a child without a limit. */
  reap(full_disk_fork(sized, NULL, 0), "full disk, size");
  DIR *d = opendir(sized);
  ck_assert_ptr_nonnull(d);
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (strstr(e->d_name, ".bin"))
      snprintf(bin, sizeof bin, "%s/%s", sized, e->d_name);
  closedir(d);
  struct stat st;
  ck_assert_int_eq(stat(bin, &st), 0);
  rlim_t size = (rlim_t)st.st_size;
  fprintf(stderr, "full disk: the entry has %llu bytes\n", (unsigned long long)size);
  /* Short by one byte (the checksum's last), and by an eighth (inside the
   * binary): the write fails mid-way either way. */
  static const unsigned short_by[] = {1, 0};
  for (size_t i = 0; i < 2; ++i) {
    rlim_t limit = size - (short_by[i] ? short_by[i] : size / 8);
    char warm[1100];
    snprintf(warm, sizeof warm, "%s/warm%zu", sized, i);
    reap(full_disk_fork(dir, warm, limit), "full disk");
    ck_assert_int_eq(tu_count_named(dir, NULL), 0);
  }
  /* With room again, the entry is written and then loaded. */
  lsk_context *ctx = tu_context();
  char why[512] = "";
  unsigned compiled, loaded;
  ck_assert_msg(fill_run(ctx, big_src, dir, 3, &compiled, &loaded, why, sizeof why) == 0, "%s",
                why);
  ck_assert_uint_eq(compiled, 1);
  ck_assert_int_eq(tu_count_named(dir, ".bin"), 1);
  ck_assert_msg(fill_run(ctx, big_src, dir, 3, &compiled, &loaded, why, sizeof why) == 0, "%s",
                why);
  ck_assert_uint_eq(loaded, 1);
  ck_assert_int_eq(tu_count_named(dir, NULL), 1);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* An unwritable cache directory                                       */

/* In a child that is not root (or drops root to nobody, whom the modes
 * bind): a cache directory of mode 0555, builds from source each time,
 * nothing written. PoCL's own cache goes to a directory nobody may write. */
static void unwritable_child(const char *base, const char *cache)
{
  if (geteuid() == 0) {
    char pocl[1100];
    snprintf(pocl, sizeof pocl, "%s/pocl", base);
    if (mkdir(pocl, 0777) || chmod(pocl, 0777) || setenv("POCL_CACHE_DIR", pocl, 1) ||
        setenv("HOME", pocl, 1) || setgid(65534) || setuid(65534)) {
      perror("dropping root");
      _exit(2);
    }
  }
  lsk_context *ctx = NULL;
  if (lsk_context_create(NULL, &ctx)) {
    fprintf(stderr, "unwritable: %s\n", lsk_context_errmsg(NULL));
    _exit(3);
  }
  char why[512] = "";
  unsigned compiled = 0, loaded = 0;
  for (int i = 0; i < 2; ++i) {
    if (fill_run(ctx, TU_FILL_SRC, cache, 4, &compiled, &loaded, why, sizeof why)) {
      fprintf(stderr, "unwritable: %s\n", why);
      _exit(4);
    }
    if (compiled != 1 || tu_count_named(cache, NULL) != 0) {
      fprintf(stderr, "unwritable: %u compiled, %d files in %s\n", compiled,
              tu_count_named(cache, NULL), cache);
      _exit(5);
    }
  }
  lsk_context_destroy(ctx);
  _exit(0);
}

START_TEST(test_resource_cache_unwritable_dir)
{
  if (no_fork("test_resource_cache_unwritable_dir"))
    return;
  char base[1024], cache[1100];
  tu_sub_dir(base, sizeof base, "ro");
  snprintf(cache, sizeof cache, "%s/cache", base);
  char parent[1024]; /* the test case's directory */
  snprintf(parent, sizeof parent, "%s", base);
  *strrchr(parent, '/') = 0;
  ck_assert_int_eq(chmod(parent, 0755), 0); /* for nobody to get through */
  ck_assert_int_eq(chmod(base, 0755), 0);
  ck_assert_int_eq(mkdir(cache, 0555), 0);
  ck_assert_int_eq(chmod(cache, 0555), 0); /* whatever the umask */
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0)
    unwritable_child(base, cache);
  reap(pid, "unwritable cache directory");
  ck_assert_int_eq(tu_count_named(cache, NULL), 0);
}
END_TEST

Suite *suite_resource(void)
{
  Suite *s = suite_create("resource");
  TCase *tc = tcase_create("core");
  tu_case_dir(tc);
  tcase_add_test(tc, test_resource_buffers_beyond_global_memory);
  tcase_add_test(tc, test_resource_build_failure_stores_nothing);
  tcase_add_test(tc, test_resource_cache_full_disk);
  tcase_add_test(tc, test_resource_cache_unwritable_dir);
  suite_add_tcase(s, tc);
  return s;
}
