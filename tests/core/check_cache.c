/*
 * check_cache.c: the on-disk cache of program binaries. Each test works in
 * a fresh temporary directory (mkdtemp) and removes it at the end; a
 * fixture removes whatever a failed test left.
 *
 * The kernel's result depends on the block domain, so a binary loaded for
 * the wrong configuration gives a wrong result, not just a wrong count.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h" /* lsk__include_key, lsk__include_dirs */
#include "testutil.h"

static const char *fill_src = "LSK_KERNEL void fill(LSK_CTX, __global uint *data, uint n)\n"
                              "{\n"
                              "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                              "    LSK_FOREACH(it) {\n"
                              "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
                              "      if (g < n)\n"
                              "        data[g] = 5u * g + LSK_DOMAIN_SIZE + SALT;\n"
                              "    }\n"
                              "  }\n"
                              "}\n"
                              "LSK_KERNEL void twice(LSK_CTX, __global uint *data, uint n)\n"
                              "{\n"
                              "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                              "    LSK_FOREACH(it) {\n"
                              "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
                              "      if (g < n)\n"
                              "        data[g] *= 2u;\n"
                              "    }\n"
                              "  }\n"
                              "}\n";

enum { N = 777 };

/* ------------------------------------------------------------------ */
/* The temporary directory                                             */

/* The tests' directories live in the test case's (tu_case_dir). */
static void make_tmpdir(char *dir, size_t cap) { tu_sub_dir(dir, cap, "t"); }

static void remove_tree(const char *dir) { ck_assert_int_eq(tu_remove_tree(dir), 0); }

/* Entries of dir whose name ends with suffix (NULL: all but . and ..) or,
 * with contains, has it anywhere. The first match's path goes to first. */
static int count_entries(const char *dir, const char *suffix, const char *contains, char *first,
                         size_t cap)
{
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    const char *name = e->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
      continue;
    size_t len = strlen(name);
    if (suffix && (len < strlen(suffix) || strcmp(name + len - strlen(suffix), suffix) != 0))
      continue;
    if (contains && !strstr(name, contains))
      continue;
    if (n++ == 0 && first)
      snprintf(first, cap, "%s/%s", dir, name);
  }
  closedir(d);
  return n;
}

static int count_bins(const char *dir) { return count_entries(dir, ".bin", NULL, NULL, 0); }

static void assert_no_tmp(const char *dir)
{
  char name[4096] = "";
  int n = count_entries(dir, NULL, ".tmp.", name, sizeof name);
  ck_assert_msg(n == 0, "%d temporary file(s) left in %s, e.g. %s", n, dir, name);
}

/* The one .bin file of dir. */
static void the_bin(const char *dir, char *path, size_t cap)
{
  int n = count_entries(dir, ".bin", NULL, path, cap);
  ck_assert_msg(n == 1, "%d .bin files in %s, wanted 1", n, dir);
}

static off_t file_size(const char *path)
{
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  return st.st_size;
}

/* ------------------------------------------------------------------ */
/* Programs                                                            */

static lsk_context *cache_context(const char *dir)
{
  return tu_context_opt(&(lsk_context_options){.cache_dir = dir});
}

static lsk_program *fill_program(lsk_context *ctx, const lsk_program_options *opt)
{
  lsk_program_options o = opt ? *opt : (lsk_program_options){0};
  if (!o.name)
    o.name = "fill.cl";
  if (!o.build_options)
    o.build_options = "-DSALT=11";
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(ctx, fill_src, &o, &p));
  return p;
}

/* Runs fill with the domain and checks the result (salt 11 unless the
 * options say otherwise). */
static void run_fill(lsk_context *ctx, lsk_program *p, unsigned domain, unsigned salt)
{
  lsk_kernel *k = tu_kernel(p, "fill");
  lsk_buffer *b = tu_zeros(ctx, N);
  lsk_launch cfg = {.domain = {domain}, .blocks = {3}};
  TU_OK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(N)), NULL));
  unsigned *h = tu_read_uints(ctx, b, N);
  for (unsigned i = 0; i < N; ++i)
    ck_assert_msg(h[i] == 5u * i + domain + salt, "data[%u] = %u, wanted %u (domain %u)", i, h[i],
                  5u * i + domain + salt, domain);
  free(h);
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
}

static lsk_program_stats stats(lsk_program *p)
{
  lsk_program_stats st;
  memset(&st, 0xff, sizeof st);
  TU_OK(NULL, lsk_program_stats_get(p, &st));
  return st;
}

#define ASSERT_STATS(p, conf, comp, loads)                                                         \
  do {                                                                                             \
    lsk_program_stats st_ = stats(p);                                                              \
    ck_assert_msg(                                                                                 \
        st_.configurations == (conf) && st_.compiled == (comp) && st_.cache_loads == (loads),      \
        "stats: %u configurations, %u compiled, %u loaded; wanted %u, %u, %u", st_.configurations, \
        st_.compiled, st_.cache_loads, (unsigned)(conf), (unsigned)(comp), (unsigned)(loads));     \
  } while (0)

/* A fresh program of fill run once with domain: its stats and result. */
static void fresh_run(lsk_context *ctx, unsigned domain, unsigned comp, unsigned loads)
{
  lsk_program *p = fill_program(ctx, NULL);
  ASSERT_STATS(p, 0, 0, 0); /* nothing is built at create */
  run_fill(ctx, p, domain, 11);
  ASSERT_STATS(p, 1, comp, loads);
  lsk_program_destroy(p);
}

/* ------------------------------------------------------------------ */

START_TEST(test_cache_first_build_compiles)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  lsk_context *ctx = cache_context(dir);
  ck_assert_int_eq(count_bins(dir), 0);
  fresh_run(ctx, 64, 1, 0);
  ck_assert_int_eq(count_bins(dir), 1);
  ck_assert_int_eq(count_entries(dir, NULL, NULL, NULL, 0), 1); /* nothing else either */
  char bin[4096];
  the_bin(dir, bin, sizeof bin);
  ck_assert_int_gt(file_size(bin), 0);
  assert_no_tmp(dir);
  lsk_context_destroy(ctx);
  remove_tree(dir);
}
END_TEST

START_TEST(test_cache_second_program_loads)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  lsk_context *ctx = cache_context(dir);
  fresh_run(ctx, 64, 1, 0);
  fresh_run(ctx, 64, 0, 1);
  fresh_run(ctx, 64, 0, 1);
  ck_assert_int_eq(count_bins(dir), 1);
  lsk_context_destroy(ctx);

  /* Another context on the same directory. */
  ctx = cache_context(dir);
  fresh_run(ctx, 64, 0, 1);
  lsk_context_destroy(ctx);
  ck_assert_int_eq(count_bins(dir), 1);
  assert_no_tmp(dir);
  remove_tree(dir);
}
END_TEST

/* Across processes, which is what the disk cache is for: a child process
 * builds, the parent loads. The test process has not touched OpenCL yet,
 * so the child may (OpenCL runtimes do not survive a fork). */
START_TEST(test_cache_shared_across_processes)
{
  const char *ckfork = getenv("CK_FORK");
  if (ckfork && strcmp(ckfork, "no") == 0) {
    fprintf(stderr, "test_cache_shared_across_processes: CK_FORK=no, not checked\n");
    return;
  }
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    lsk_context *ctx = NULL;
    lsk_program *p = NULL;
    int rc = lsk_context_create(&(lsk_context_options){.cache_dir = dir}, &ctx);
    if (!rc)
      rc = lsk_program_create(
          ctx, fill_src, &(lsk_program_options){.name = "fill.cl", .build_options = "-DSALT=11"},
          &p);
    if (!rc)
      rc = lsk_program_build(p, "fill", &(lsk_launch){.domain = {128}, .blocks = {1}});
    lsk_program_destroy(p);
    lsk_context_destroy(ctx);
    _exit(rc ? 1 : 0);
  }
  int st = 0;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's build failed");
  ck_assert_int_eq(count_bins(dir), 1);

  lsk_context *ctx = cache_context(dir);
  fresh_run(ctx, 128, 0, 1);
  lsk_context_destroy(ctx);
  remove_tree(dir);
}
END_TEST

START_TEST(test_cache_other_configuration_compiles)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  lsk_context *ctx = cache_context(dir);
  fresh_run(ctx, 64, 1, 0);
  fresh_run(ctx, 128, 1, 0);
  ck_assert_int_eq(count_bins(dir), 2);
  fresh_run(ctx, 32, 1, 0);
  ck_assert_int_eq(count_bins(dir), 3);

  /* One program with all three: each loaded, each right. */
  lsk_program *p = fill_program(ctx, NULL);
  run_fill(ctx, p, 32, 11);
  run_fill(ctx, p, 64, 11);
  run_fill(ctx, p, 128, 11);
  ASSERT_STATS(p, 3, 0, 3);
  lsk_program_destroy(p);

  /* Explicit workers are another configuration too (4 x 16: the
   * automatic rule picks 2 x 32 on CPUs, 8 x 8 on llvmpipe, 64 x 1 on
   * GPUs). */
  p = fill_program(ctx, NULL);
  lsk_launch cfg = {.domain = {64}, .blocks = {1}, .workers = 4, .simd = 16};
  TU_OK(ctx, lsk_program_build(p, "fill", &cfg));
  lsk_kernel *k = tu_kernel(p, "fill");
  unsigned w = 0, s = 0;
  TU_OK(ctx, lsk_kernel_shape(k, &cfg, &w, &s));
  ck_assert_uint_eq(w, 4);
  ck_assert_uint_eq(s, 16);
  lsk_kernel_destroy(k);
  ASSERT_STATS(p, 1, 1, 0);
  lsk_program_destroy(p);
  ck_assert_int_eq(count_bins(dir), 4);
  assert_no_tmp(dir);
  lsk_context_destroy(ctx);
  remove_tree(dir);
}
END_TEST

/* Build options and the source are part of the key. */
START_TEST(test_cache_key_covers_options_and_source)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  lsk_context *ctx = cache_context(dir);
  fresh_run(ctx, 64, 1, 0);
  lsk_program *p = fill_program(ctx, &(lsk_program_options){.build_options = "-DSALT=12"});
  run_fill(ctx, p, 64, 12);
  ASSERT_STATS(p, 1, 1, 0);
  lsk_program_destroy(p);
  ck_assert_int_eq(count_bins(dir), 2);

  /* The same kernel text with one more line. */
  size_t len = strlen(fill_src);
  char *src = malloc(len + 32);
  ck_assert_ptr_nonnull(src);
  snprintf(src, len + 32, "%s// changed\n", fill_src);
  p = NULL;
  TU_OK(ctx,
        lsk_program_create(
            ctx, src, &(lsk_program_options){.name = "fill.cl", .build_options = "-DSALT=11"}, &p));
  run_fill(ctx, p, 64, 11);
  ASSERT_STATS(p, 1, 1, 0);
  lsk_program_destroy(p);
  free(src);
  ck_assert_int_eq(count_bins(dir), 3);
  lsk_context_destroy(ctx);
  remove_tree(dir);
}
END_TEST

/* Damage the one entry with damage(), then: the next program compiles and
 * is right, the entry is rewritten whole, and the one after loads it. */
static void check_damaged(void (*damage)(const char *path, off_t size), const char *what)
{
  char dir[4096], bin[4096];
  make_tmpdir(dir, sizeof dir);
  lsk_context *ctx = cache_context(dir);
  fresh_run(ctx, 64, 1, 0);
  the_bin(dir, bin, sizeof bin);
  off_t size = file_size(bin);
  damage(bin, size);

  lsk_program *p = fill_program(ctx, NULL);
  run_fill(ctx, p, 64, 11);
  lsk_program_stats st = stats(p);
  ck_assert_msg(st.compiled == 1 && st.cache_loads == 0 && st.configurations == 1,
                "%s entry: %u compiled, %u loaded; wanted 1 compiled, 0 loaded", what, st.compiled,
                st.cache_loads);
  lsk_program_destroy(p);

  char again[4096];
  the_bin(dir, again, sizeof again);
  ck_assert_str_eq(again, bin);
  ck_assert_msg(file_size(bin) == size, "%s entry rewritten with %lld bytes, first had %lld", what,
                (long long)file_size(bin), (long long)size);
  fresh_run(ctx, 64, 0, 1);
  assert_no_tmp(dir);
  lsk_context_destroy(ctx);
  remove_tree(dir);
}

static void write_garbage(const char *path, off_t size)
{
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  for (off_t i = 0; i < size; ++i)
    fputc((int)((i * 131 + 7) & 0xff), f);
  ck_assert_int_eq(fclose(f), 0);
}

static void truncate_half(const char *path, off_t size)
{
  ck_assert_int_eq(truncate(path, size / 2), 0);
}

/* One byte in the middle (inside the binary) flipped: same size, same
 * header, only the checksum can tell. */
static void flip_byte(const char *path, off_t size)
{
  FILE *f = fopen(path, "r+b");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseeko(f, size / 2, SEEK_SET), 0);
  int c = fgetc(f);
  ck_assert_int_ne(c, EOF);
  ck_assert_int_eq(fseeko(f, size / 2, SEEK_SET), 0);
  fputc(c ^ 0x5a, f);
  ck_assert_int_eq(fclose(f), 0);
}

static void append_byte(const char *path, off_t size)
{
  (void)size;
  FILE *f = fopen(path, "ab");
  ck_assert_ptr_nonnull(f);
  fputc('x', f);
  ck_assert_int_eq(fclose(f), 0);
}

static void make_empty(const char *path, off_t size)
{
  (void)size;
  ck_assert_int_eq(truncate(path, 0), 0);
}

START_TEST(test_cache_corrupt_entry_garbage) { check_damaged(write_garbage, "garbage"); }
END_TEST

START_TEST(test_cache_corrupt_entry_truncated) { check_damaged(truncate_half, "truncated"); }
END_TEST

START_TEST(test_cache_corrupt_entry_flipped_byte) { check_damaged(flip_byte, "flipped byte"); }
END_TEST

START_TEST(test_cache_corrupt_entry_trailing_byte) { check_damaged(append_byte, "trailing"); }
END_TEST

START_TEST(test_cache_corrupt_entry_empty) { check_damaged(make_empty, "empty"); }
END_TEST

START_TEST(test_cache_same_configuration_builds_once)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  lsk_context *ctx = cache_context(dir);
  lsk_program *p = fill_program(ctx, NULL);
  run_fill(ctx, p, 64, 11);
  run_fill(ctx, p, 64, 11);
  ASSERT_STATS(p, 1, 1, 0);
  /* Build ahead, shape, launch again, and another kernel of the program:
   * all the same configuration. */
  lsk_launch cfg = {.domain = {64}, .blocks = {3}};
  TU_OK(ctx, lsk_program_build(p, "fill", &cfg));
  TU_OK(ctx, lsk_program_build(p, "twice", &cfg));
  lsk_kernel *k = tu_kernel(p, "twice");
  lsk_buffer *b = tu_zeros(ctx, N);
  unsigned w = 0, s = 0;
  TU_OK(ctx, lsk_kernel_shape(k, &cfg, &w, &s));
  for (int i = 0; i < 3; ++i)
    TU_OK(ctx, lsk_kernel_launch(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(N)), NULL));
  TU_OK(ctx, lsk_context_finish(ctx));
  ASSERT_STATS(p, 1, 1, 0);
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  ck_assert_int_eq(count_bins(dir), 1);

  /* The same without a disk cache. */
  p = fill_program(ctx, &(lsk_program_options){.cache_dir = ""});
  run_fill(ctx, p, 64, 11);
  run_fill(ctx, p, 64, 11);
  ASSERT_STATS(p, 1, 1, 0);
  run_fill(ctx, p, 16, 11);
  ASSERT_STATS(p, 2, 2, 0);
  lsk_program_destroy(p);
  ck_assert_int_eq(count_bins(dir), 1);
  assert_no_tmp(dir);
  lsk_context_destroy(ctx);
  remove_tree(dir);
}
END_TEST

/* The program's cache_dir overrides the context's; "" turns it off. */
START_TEST(test_cache_program_option_overrides)
{
  char a[4096], b[4096];
  make_tmpdir(a, sizeof a);
  make_tmpdir(b, sizeof b);
  lsk_context *ctx = cache_context(a);
  lsk_program *p = fill_program(ctx, &(lsk_program_options){.cache_dir = b});
  run_fill(ctx, p, 64, 11);
  ASSERT_STATS(p, 1, 1, 0);
  lsk_program_destroy(p);
  ck_assert_int_eq(count_bins(a), 0);
  ck_assert_int_eq(count_bins(b), 1);
  p = fill_program(ctx, &(lsk_program_options){.cache_dir = b});
  run_fill(ctx, p, 64, 11);
  ASSERT_STATS(p, 1, 0, 1);
  lsk_program_destroy(p);

  for (int i = 0; i < 2; ++i) {
    p = fill_program(ctx, &(lsk_program_options){.cache_dir = ""});
    run_fill(ctx, p, 32, 11);
    ASSERT_STATS(p, 1, 1, 0);
    lsk_program_destroy(p);
  }
  ck_assert_int_eq(count_bins(a), 0);
  ck_assert_int_eq(count_bins(b), 1);
  lsk_context_destroy(ctx);

  /* A context without a cache and a program with one. */
  ctx = cache_context(NULL);
  p = fill_program(ctx, &(lsk_program_options){.cache_dir = a});
  run_fill(ctx, p, 64, 11);
  lsk_program_destroy(p);
  ck_assert_int_eq(count_bins(a), 1);
  lsk_context_destroy(ctx);
  remove_tree(a);
  remove_tree(b);
}
END_TEST

START_TEST(test_cache_env_dir)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  ck_assert_int_eq(setenv("LSK_CACHE_DIR", dir, 1), 0);
  lsk_context *ctx = tu_context();
  fresh_run(ctx, 64, 1, 0);
  fresh_run(ctx, 64, 0, 1);
  lsk_context_destroy(ctx);
  ck_assert_int_eq(count_bins(dir), 1);
  /* Set but empty: no cache. */
  ck_assert_int_eq(setenv("LSK_CACHE_DIR", "", 1), 0);
  ctx = tu_context();
  fresh_run(ctx, 64, 1, 0);
  lsk_context_destroy(ctx);
  unsetenv("LSK_CACHE_DIR");
  remove_tree(dir);
}
END_TEST

/* A cache directory that does not exist yet is made, parents included. */
START_TEST(test_cache_creates_directory)
{
  char dir[4096], sub[4200];
  make_tmpdir(dir, sizeof dir);
  snprintf(sub, sizeof sub, "%s/a/b/", dir);
  lsk_context *ctx = cache_context(sub);
  fresh_run(ctx, 64, 1, 0);
  fresh_run(ctx, 64, 0, 1);
  lsk_context_destroy(ctx);
  ck_assert_int_eq(count_bins(sub), 1);
  assert_no_tmp(sub);
  remove_tree(dir);
}
END_TEST

/* A cache directory that cannot be made (a path under a regular file):
 * builds still work, from source each time. */
START_TEST(test_cache_unwritable_dir)
{
  char dir[4096], file[4200], bad[4300];
  make_tmpdir(dir, sizeof dir);
  snprintf(file, sizeof file, "%s/plain-file", dir);
  FILE *f = fopen(file, "w");
  ck_assert_ptr_nonnull(f);
  fputs("not a directory\n", f);
  ck_assert_int_eq(fclose(f), 0);
  snprintf(bad, sizeof bad, "%s/cache", file);

  lsk_context *ctx = cache_context(bad);
  fresh_run(ctx, 64, 1, 0);
  fresh_run(ctx, 64, 1, 0);
  lsk_program *p = fill_program(ctx, NULL);
  TU_OK(ctx, lsk_program_build(p, "fill", &(lsk_launch){.domain = {32}, .blocks = {1}}));
  ASSERT_STATS(p, 1, 1, 0);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);

  /* The file itself as the directory. */
  ctx = cache_context(file);
  fresh_run(ctx, 64, 1, 0);
  lsk_context_destroy(ctx);

  ck_assert_int_eq(count_entries(dir, NULL, NULL, NULL, 0), 1);
  ck_assert_int_eq(file_size(file), (off_t)strlen("not a directory\n"));
  remove_tree(dir);
}
END_TEST

/* A cache directory whose path is too long for the system (ENAMETOOLONG at
 * every component past the limit): builds compile each time, no crash. */
START_TEST(test_cache_dir_name_too_long)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  size_t cap = strlen(dir) + 6000;
  char *longdir = malloc(cap);
  ck_assert_ptr_nonnull(longdir);
  size_t n = (size_t)snprintf(longdir, cap, "%s/", dir);
  while (n + 300 < cap) {
    memset(longdir + n, 'd', 299); /* each component over NAME_MAX (255) */
    longdir[n + 299] = '/';
    n += 300;
  }
  longdir[n] = 0;
  lsk_context *ctx = cache_context(longdir);
  fresh_run(ctx, 64, 1, 0);
  fresh_run(ctx, 64, 1, 0);
  lsk_context_destroy(ctx);
  free(longdir);
  ck_assert_int_eq(count_entries(dir, NULL, NULL, NULL, 0), 0);
  remove_tree(dir);
}
END_TEST

/* A file of text at dir/name, last modified age seconds ago. */
static void plant(const char *dir, const char *name, long age)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("half an entry", f);
  ck_assert_int_eq(fclose(f), 0);
  struct timespec t[2];
  ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &t[0]), 0);
  t[0].tv_sec -= age;
  t[1] = t[0];
  ck_assert_int_eq(utimensat(AT_FDCWD, path, t, 0), 0);
}

static int exists(const char *dir, const char *name)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat st;
  return stat(path, &st) == 0;
}

/* What a writer killed mid-write leaves (its temporary file) is removed by
 * the next store once it is old (10 minutes); a fresh one may be a live
 * writer's and stays, and so do files that are not lsk's. */
START_TEST(test_cache_stale_temp_removed)
{
  char dir[4096];
  make_tmpdir(dir, sizeof dir);
  static const char *old_tmp = "0123456789abcdef.bin.tmp.4242.0";
  static const char *new_tmp = "0123456789abcdef.bin.tmp.4242.1";
  static const char *other = "notes.bin.tmp.1";
  plant(dir, old_tmp, 3600);
  plant(dir, new_tmp, 5);
  plant(dir, other, 3600);
  lsk_context *ctx = cache_context(dir);
  fresh_run(ctx, 64, 1, 0);
  ck_assert_msg(!exists(dir, old_tmp), "the stale temporary file is still there");
  ck_assert(exists(dir, new_tmp));
  ck_assert(exists(dir, other));
  ck_assert_int_eq(count_bins(dir), 1);
  /* A load does not sweep (only stores do) and is not disturbed. */
  plant(dir, old_tmp, 3600);
  fresh_run(ctx, 64, 0, 1);
  ck_assert(exists(dir, old_tmp));
  lsk_context_destroy(ctx);
  remove_tree(dir);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Headers: the key covers every file the build reads through #include */

/* A kernel that writes VALUE, which its headers define. */
#define KONST_KERNEL                                                                               \
  "LSK_KERNEL void konst(LSK_CTX, __global uint *out)\n"                                           \
  "{\n"                                                                                            \
  "  LSK_BLOCKS(b, 1) {\n"                                                                         \
  "    LSK_FOREACH(it) {\n"                                                                        \
  "      if (it.idx == 0)\n"                                                                       \
  "        out[0] = VALUE;\n"                                                                      \
  "    }\n"                                                                                        \
  "  }\n"                                                                                          \
  "}\n"

/* dir/name with text in it, replacing what was there. */
static void write_text(const char *dir, const char *name, const char *text)
{
  char path[4300];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_msg(f != NULL, "cannot write %s", path);
  fputs(text, f);
  ck_assert_int_eq(fclose(f), 0);
}

/* dir/name, made. */
static void make_sub(const char *dir, const char *name, char *out, size_t cap)
{
  snprintf(out, cap, "%s/%s", dir, name);
  ck_assert_int_eq(mkdir(out, 0755), 0);
}

/* What one build-and-run of konst saw. */
typedef struct konst_result {
  int rc;
  unsigned value, compiled, loaded;
  char why[512];
} konst_result;

/* A fresh context on cache, a program of src with opts, konst run once:
 * its value and the program's statistics. No assertion: forked children
 * run it. */
static konst_result konst_run(const char *cache, const char *src, const char *opts)
{
  konst_result r = {0};
  lsk_context *ctx = NULL;
  lsk_program *p = NULL;
  lsk_kernel *k = NULL;
  lsk_buffer *b = NULL;
  lsk_program_stats st = {0};
  r.rc = lsk_context_create(&(lsk_context_options){.cache_dir = cache}, &ctx);
  if (!r.rc)
    r.rc = lsk_program_create(
        ctx, src, &(lsk_program_options){.name = "konst.cl", .build_options = opts}, &p);
  if (!r.rc)
    r.rc = lsk_kernel_create(p, "konst", &k);
  if (!r.rc)
    r.rc = lsk_buffer_create(ctx, sizeof r.value, &b);
  if (!r.rc)
    r.rc = lsk_kernel_run(k, &(lsk_launch){.domain = {1}, .blocks = {1}},
                          LSK_ARGS(LSK_ARG_BUFFER(b)), NULL);
  if (!r.rc)
    r.rc = lsk_buffer_read(b, 0, &r.value, sizeof r.value, NULL);
  if (!r.rc)
    r.rc = lsk_program_stats_get(p, &st);
  if (r.rc)
    snprintf(r.why, sizeof r.why, "%s: %s", lsk_status_name(r.rc),
             ctx ? lsk_context_errmsg(ctx) : "no context");
  r.compiled = st.compiled;
  r.loaded = st.cache_loads;
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
  return r;
}

/* konst_run in a process of its own (the test's process never touches
 * OpenCL, so it may fork each time), or in this one under CK_FORK=no (the
 * disk cache is still the only thing two programs share); then its value
 * and whether it compiled or loaded, checked. */
static void konst_step(const char *step, const char *cache, const char *src, const char *opts,
                       unsigned want, unsigned compiled, unsigned loaded)
{
  konst_result r;
  const char *ckfork = getenv("CK_FORK");
  if (ckfork && strcmp(ckfork, "no") == 0) {
    r = konst_run(cache, src, opts);
  } else {
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
      close(fd[0]);
      r = konst_run(cache, src, opts);
      _exit(write(fd[1], &r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], &r, sizeof r);
    close(fd[0]);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(got == (ssize_t)sizeof r && WIFEXITED(st) && WEXITSTATUS(st) == 0,
                  "%s: the child process failed", step);
  }
  ck_assert_msg(r.rc == 0, "%s: %s", step, r.why);
  ck_assert_msg(r.value == want, "%s: VALUE %u, wanted %u", step, r.value, want);
  ck_assert_msg(r.compiled == compiled && r.loaded == loaded,
                "%s: %u compiled, %u loaded; wanted %u, %u", step, r.compiled, r.loaded, compiled,
                loaded);
}

/* The case: a header included through -I changes a constant
 * between two processes that share the cache; the second must compile and
 * compute the new value, not load the first one's binary. The header keeps
 * its size (nothing may rely on size or time). */
START_TEST(test_cache_include_header_changes)
{
  char dir[4096], cache[4200], inc[4200], opts[4300];
  make_tmpdir(dir, sizeof dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  make_sub(dir, "inc", inc, sizeof inc);
  snprintf(opts, sizeof opts, "-I %s", inc);
  static const char *src = "#include \"value.h\"\n" KONST_KERNEL;
  write_text(inc, "value.h", "#define VALUE 7u\n");
  konst_step("first process", cache, src, opts, 7, 1, 0);
  write_text(inc, "value.h", "#define VALUE 8u\n");
  konst_step("header changed", cache, src, opts, 8, 1, 0);
  konst_step("header unchanged", cache, src, opts, 8, 0, 1);
  ck_assert_int_eq(count_bins(cache), 2);
  /* Back to the first text: the first entry serves it again. */
  write_text(inc, "value.h", "#define VALUE 7u\n");
  konst_step("header as first", cache, src, opts, 7, 0, 1);
  assert_no_tmp(cache);
  remove_tree(dir);
}
END_TEST

/* Headers included by headers, <...> and "...", and the -I order: a
 * header of the same name put into an earlier -I directory is the one the
 * compiler reads, and the key sees it. -Idir spelled without a space. */
START_TEST(test_cache_include_nested_and_order)
{
  char dir[4096], cache[4200], a[4200], b[4200], opts[8600];
  make_tmpdir(dir, sizeof dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  make_sub(dir, "a", a, sizeof a);
  make_sub(dir, "b", b, sizeof b);
  snprintf(opts, sizeof opts, "-DUNUSED=1 -I%s -I %s", a, b);
  static const char *src = "#include <top.h>\n" KONST_KERNEL;
  write_text(b, "top.h", "#include \"deep.h\"\n#define VALUE (DEEP + 1u)\n");
  write_text(b, "deep.h", "#define DEEP 40u\n");
  konst_step("first", cache, src, opts, 41, 1, 0);
  konst_step("again", cache, src, opts, 41, 0, 1);
  write_text(b, "deep.h", "#define DEEP 50u\n");
  konst_step("nested header changed", cache, src, opts, 51, 1, 0);
  write_text(a, "top.h", "#define VALUE 99u\n");
  konst_step("earlier -I directory", cache, src, opts, 99, 1, 0);
  konst_step("earlier -I directory again", cache, src, opts, 99, 0, 1);
  remove_tree(dir);
}
END_TEST

/* Every file named is followed, even under #if 0, and a name that is
 * found nowhere still makes a well-defined key (the same one each time);
 * once such a file appears the key changes. An #include whose name is a
 * macro cannot be followed without a preprocessor: those builds never use
 * the disk cache, so they are never stale either. */
START_TEST(test_cache_include_missing_and_computed)
{
  char dir[4096], cache[4200], inc[4200], opts[4300];
  make_tmpdir(dir, sizeof dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  make_sub(dir, "inc", inc, sizeof inc);
  snprintf(opts, sizeof opts, "-I %s", inc);
  static const char *src =
      "#if 0\n#include \"absent.h\"\n#endif\n#include \"value.h\"\n" KONST_KERNEL;
  write_text(inc, "value.h", "#define VALUE 3u\n");
  konst_step("with a missing header", cache, src, opts, 3, 1, 0);
  konst_step("with a missing header again", cache, src, opts, 3, 0, 1);
  write_text(inc, "absent.h", "#error never read\n");
  konst_step("the missing header appears", cache, src, opts, 3, 1, 0);
  ck_assert_int_eq(count_bins(cache), 2);

  static const char *computed = "#define HEADER \"value.h\"\n#include HEADER\n" KONST_KERNEL;
  konst_step("computed include", cache, computed, opts, 3, 1, 0);
  write_text(inc, "value.h", "#define VALUE 4u\n");
  konst_step("computed include, header changed", cache, computed, opts, 4, 1, 0);
  konst_step("computed include, again", cache, computed, opts, 4, 1, 0);
  ck_assert_int_eq(count_bins(cache), 2);
  remove_tree(dir);
}
END_TEST

/* The include directories the key looks in: each spelling of each flag,
 * in order; a quoted directory with and without its quotes; a flag inside
 * a -D value is not one. */
START_TEST(test_cache_include_dirs_parsed)
{
  char **d = NULL;
  size_t n = 99;
  ck_assert_int_eq(lsk__include_dirs("-cl-std=CL1.2 -I a -Ib\t-isystem c -iquote\nd -idirafter e "
                                     "-isysteme2 -DX=\"-I nope\" -I \"s p\" -Dq -I",
                                     &d, &n),
                   LSK_OK);
  static const char *want[] = {"a", "b", "c", "d", "e", "e2", "\"s p\"", "s p"};
  ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
  for (size_t i = 0; i < n; ++i) {
    ck_assert_str_eq(d[i], want[i]);
    free(d[i]);
  }
  free(d);
  ck_assert_int_eq(lsk__include_dirs("", &d, &n), LSK_OK);
  ck_assert_uint_eq(n, 0);
  free(d);
  ck_assert_int_eq(lsk__include_dirs(NULL, &d, &n), LSK_OK);
  ck_assert_uint_eq(n, 0);
  free(d);
}
END_TEST

/* lsk__include_key on its own: the same files give the same key; a
 * changed, added or nested file another; what is and is not an #include
 * line; a cycle of headers ends; what cannot be followed says so. */
static char *inc_key(const char *text, const char *opts)
{
  char *k = NULL;
  ck_assert_int_eq(lsk__include_key(text, opts, &k), LSK_OK);
  ck_assert_ptr_nonnull(k);
  return k;
}

START_TEST(test_cache_include_key_unit)
{
  char dir[4096], a[4200], b[4200], opts[8600];
  make_tmpdir(dir, sizeof dir);
  make_sub(dir, "a", a, sizeof a);
  make_sub(dir, "b", b, sizeof b);
  snprintf(opts, sizeof opts, "-DZ=1 -I %s -I%s/", a, b);
  write_text(b, "x.h", "#include \"y.h\"\n#include <x.h>\n"); /* y.h; itself: a cycle */
  write_text(b, "y.h", "int y;\n");
  static const char *text = "  #  include /* a comment */ <x.h>\n"
                            "#includes \"nope.h\"\n#include_nextx \"nope.h\"\n"
                            "#if 0\n#include \"absent.h\"\n#endif\n";
  char *k1 = inc_key(text, opts), *k2 = inc_key(text, opts);
  ck_assert_str_eq(k1, k2);
  ck_assert_msg(strstr(k1, "x.h(") && strstr(k1, "y.h(") && strstr(k1, "absent.h") &&
                    !strstr(k1, "nope.h"),
                "key: %s", k1);
  free(k2);
  write_text(b, "y.h", "int z;\n"); /* the same size */
  k2 = inc_key(text, opts);
  ck_assert_str_ne(k1, k2);
  free(k2);
  write_text(b, "y.h", "int y;\n");
  k2 = inc_key(text, opts);
  ck_assert_str_eq(k1, k2);
  free(k2);
  write_text(a, "y.h", "int y;\n"); /* "y.h" from b/x.h: b first, but a counts too */
  k2 = inc_key(text, opts);
  ck_assert_str_ne(k1, k2);
  free(k2);
  write_text(a, "absent.h", "\n");
  char *k3 = inc_key(text, opts);
  ck_assert_ptr_null(strstr(k1, "absent.h("));
  ck_assert_ptr_nonnull(strstr(k3, "absent.h("));
  free(k3);
  free(k1);
  /* No #include: a key all the same. */
  k1 = inc_key("kernel void f(void) {}\n", opts);
  ck_assert_str_eq(k1, "includes:");
  free(k1);
  /* What cannot be followed: a macro, an unterminated or empty name. */
  static const char *bad[] = {"#include HEADER\n", "#include \"x.h\n", "#include <x.h\n",
                              "#include \"\"\n", "#include\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    char *k = (char *)&k;
    ck_assert_int_eq(lsk__include_key(bad[i], opts, &k), LSK__KEY_UNFOLLOWED);
    ck_assert_ptr_null(k);
  }
  remove_tree(dir);
}
END_TEST

Suite *suite_cache(void)
{
  Suite *s = suite_create("cache");
  TCase *tc = tcase_create("core");
  tu_case_dir(tc);
  tcase_add_test(tc, test_cache_first_build_compiles);
  tcase_add_test(tc, test_cache_second_program_loads);
  tcase_add_test(tc, test_cache_shared_across_processes);
  tcase_add_test(tc, test_cache_other_configuration_compiles);
  tcase_add_test(tc, test_cache_key_covers_options_and_source);
  tcase_add_test(tc, test_cache_same_configuration_builds_once);
  tcase_add_test(tc, test_cache_program_option_overrides);
  tcase_add_test(tc, test_cache_env_dir);
  tcase_add_test(tc, test_cache_creates_directory);
  tcase_add_test(tc, test_cache_unwritable_dir);
  tcase_add_test(tc, test_cache_stale_temp_removed);
  tcase_add_test(tc, test_cache_dir_name_too_long);
  suite_add_tcase(s, tc);
  tc = tcase_create("corrupt");
  tu_case_dir(tc);
  tcase_add_test(tc, test_cache_corrupt_entry_garbage);
  tcase_add_test(tc, test_cache_corrupt_entry_truncated);
  tcase_add_test(tc, test_cache_corrupt_entry_flipped_byte);
  tcase_add_test(tc, test_cache_corrupt_entry_trailing_byte);
  tcase_add_test(tc, test_cache_corrupt_entry_empty);
  suite_add_tcase(s, tc);
  tc = tcase_create("include");
  tcase_set_timeout(tc, 600);
  tu_case_dir(tc);
  tcase_add_test(tc, test_cache_include_dirs_parsed);
  tcase_add_test(tc, test_cache_include_key_unit);
#ifndef LSK_TEST_SANITIZED
  /* About a dozen real compiles of changed headers, each in a new process:
   * under the sanitizers (every allocation of the compiler unwinds the
   * stack: fast_unwind_on_malloc=0) three minutes of CI. The sanitizer
   * build keeps the scanner's own cases above, which run all of
   * cache_key.c. */
  tcase_add_test(tc, test_cache_include_header_changes);
  tcase_add_test(tc, test_cache_include_nested_and_order);
  tcase_add_test(tc, test_cache_include_missing_and_computed);
#else
  (void)test_cache_include_header_changes;
  (void)test_cache_include_nested_and_order;
  (void)test_cache_include_missing_and_computed;
#endif
  suite_add_tcase(s, tc);
  return s;
}
