/*
 * check_tune.c: lsk_tune and the choices it stores. Each test works in a
 * fresh temporary tune directory (LSK_TUNE_DIR), removed by a fixture.
 *
 * Which candidate is fastest is a matter of timing, which tests never
 * assert: to see that an automatic launch uses a stored choice, a test
 * rewrites the stored file's workers and simd (the format of host/launch/tune.c)
 * to a shape the rule never picks, then looks at lsk_kernel_shape.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

/* In place and not idempotent: a run that does not start from the
 * snapshot gives another result. x = g at the start, 4g after one run. */
static const char *src = "LSK_KERNEL void advance(LSK_CTX, __global uint *x, uint n)\n"
                         "{\n"
                         "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                         "    LSK_FOREACH(it) {\n"
                         "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
                         "      if (g < n)\n"
                         "        x[g] = 3u * x[g] + g;\n"
                         "    }\n"
                         "  }\n"
                         "}\n"
                         "/* Wrong on purpose: the result depends on the workers. */\n"
                         "LSK_KERNEL void wrong(LSK_CTX, __global uint *x, uint n)\n"
                         "{\n"
                         "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                         "    LSK_FOREACH(it) {\n"
                         "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
                         "      if (g < n)\n"
                         "        x[g] = LSK_WORKERS;\n"
                         "    }\n"
                         "  }\n"
                         "}\n";

enum { N = 1000, DOMAIN = 16 };

/* Shapes the rule never picks for DOMAIN (it covers it in one step with
 * 2 x 8 on CPUs, 8 x 2 on llvmpipe, a warp x 1 on GPUs). */
static const lsk_tune_shape few[] = {{1, 1}, {4, 1}, {4, 4}, {16, 1}};

/* ------------------------------------------------------------------ */
/* The temporary directory                                             */

/* The test's own directory inside the test case's (tu_case_dir: made once
 * for all the tests of the case). */
static char dir[1100];

/* The tests' environment: stored choices on, in a new directory. */
static void tune_env(void)
{
  tu_sub_dir(dir, sizeof dir, "t");
  unsetenv("LSK_TUNE");
  setenv("LSK_TUNE_DIR", dir, 1);
}

/* The number of *.tune files in the directory; the first one's path. */
static int tune_files(char *first, size_t cap)
{
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".tune") == 0 && n++ == 0 && first)
      snprintf(first, cap, "%s/%s", dir, e->d_name);
    ck_assert_msg(strstr(e->d_name, ".tmp.") == NULL, "temporary file left: %s", e->d_name);
  }
  closedir(d);
  return n;
}

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  char *text = calloc(1, 8192);
  ck_assert_ptr_nonnull(text);
  size_t n = fread(text, 1, 8191, f);
  text[n] = 0;
  fclose(f);
  return text;
}

static void spit(const char *path, const char *text)
{
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(text, 1, strlen(text), f), strlen(text));
  ck_assert_int_eq(fclose(f), 0);
}

/* Rewrites the stored file's workers and simd lines, keeping the rest. */
static void force_choice(const char *path, unsigned w, unsigned s)
{
  char *text = slurp(path), out[8192] = "";
  size_t used = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (strncmp(line, "workers ", 8) == 0)
      used += (size_t)snprintf(out + used, sizeof out - used, "workers %u\n", w);
    else if (strncmp(line, "simd ", 5) == 0)
      used += (size_t)snprintf(out + used, sizeof out - used, "simd %u\n", s);
    else
      used += (size_t)snprintf(out + used, sizeof out - used, "%s\n", line);
  }
  free(text);
  spit(path, out);
}

/* ------------------------------------------------------------------ */
/* A program, its data and the checks                                  */

typedef struct fixture {
  lsk_context *ctx;
  lsk_program *prog;
  lsk_kernel *k;
  lsk_buffer *x;
} fixture;

static void reset(fixture *f)
{
  unsigned h[N];
  for (unsigned i = 0; i < N; ++i)
    h[i] = i;
  TU_OK(f->ctx, lsk_buffer_write(f->x, 0, h, sizeof h, NULL));
}

static fixture open_fixture(const lsk_context_options *opt, const char *kernel)
{
  fixture f = {0};
  f.ctx = tu_context_opt(opt);
  f.prog = tu_program(f.ctx, "tune.cl", src);
  f.k = tu_kernel(f.prog, kernel);
  TU_OK(f.ctx, lsk_buffer_create(f.ctx, N * sizeof(unsigned), &f.x));
  reset(&f);
  return f;
}

static void close_fixture(fixture *f)
{
  lsk_buffer_destroy(f->x);
  lsk_kernel_destroy(f->k);
  lsk_program_destroy(f->prog);
  lsk_context_destroy(f->ctx);
}

static lsk_launch automatic(void) { return (lsk_launch){.domain = {DOMAIN}, .blocks = {8}}; }

#define STEP_ARGS(f) LSK_ARGS(LSK_ARG_BUFFER((f)->x), LSK_ARG_UINT(N))

/* One automatic run from x = g must give 4g. */
static void check_step_result(fixture *f)
{
  reset(f);
  lsk_launch cfg = automatic();
  TU_OK(f->ctx, lsk_kernel_run(f->k, &cfg, STEP_ARGS(f), NULL));
  unsigned *h = tu_read_uints(f->ctx, f->x, N);
  for (unsigned i = 0; i < N; ++i)
    ck_assert_msg(h[i] == 4u * i, "x[%u] = %u, wanted %u", i, h[i], 4u * i);
  free(h);
}

static void assert_shape(fixture *f, unsigned w, unsigned s)
{
  lsk_launch cfg = automatic();
  unsigned gw, gs;
  TU_OK(f->ctx, lsk_kernel_shape(f->k, &cfg, &gw, &gs));
  ck_assert_msg(gw == w && gs == s, "automatic shape %u x %u, wanted %u x %u", gw, gs, w, s);
}

static void rule_shape(fixture *f, unsigned *w, unsigned *s)
{
  lsk_auto_shape(lsk_context_device(f->ctx), DOMAIN, 0, w, s);
}

/* Tunes f's kernel over few (stored unless no_store); asserts success. */
static lsk_tune_result tune_few(fixture *f, int no_store)
{
  lsk_tune_result r;
  lsk_tune_options opt = {.repeat = 2,
                          .candidates = few,
                          .ncandidates = sizeof few / sizeof few[0],
                          .no_store = no_store};
  lsk_launch cfg = automatic();
  TU_OK(f->ctx, lsk_tune(f->k, &cfg, STEP_ARGS(f), &opt, &r, NULL));
  return r;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

START_TEST(test_tune_candidates_default_set)
{
  lsk_device_info dev = {.max_work_group_size = 4096, .max_work_item_sizes = {4096, 4096, 4096}};
  lsk_tune_shape s[16];
  size_t n = lsk_tune_candidates(&dev, 16, 0, s, 16);
  static const lsk_tune_shape want[] = {{1, 1}, {1, 16}, {2, 1}, {2, 8}, {4, 1},
                                        {4, 4}, {8, 1},  {8, 2}, {16, 1}};
  ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(s[i].workers == want[i].workers && s[i].simd == want[i].simd,
                  "candidate %zu: %u x %u, wanted %u x %u", i, s[i].workers, s[i].simd,
                  want[i].workers, want[i].simd);
  /* The kernel's limit caps the workers; cap 0 only counts. */
  ck_assert_uint_eq(lsk_tune_candidates(&dev, 16, 4, NULL, 0), 6);
  ck_assert_uint_eq(lsk_tune_candidates(&dev, 1000, 0, NULL, 0), 20);
  ck_assert_uint_eq(lsk_tune_candidates(NULL, 16, 0, NULL, 0), 0);
}
END_TEST

START_TEST(test_tune_stores_and_later_launch_uses_it)
{
  tune_env();
  fixture f = open_fixture(NULL, "advance");
  ck_assert_str_eq(lsk_tune_dir(f.ctx), dir);
  lsk_tune_result r = tune_few(&f, 0);
  unsigned rw, rs;
  rule_shape(&f, &rw, &rs);
  ck_assert_uint_eq(r.rule_workers, rw);
  ck_assert_uint_eq(r.rule_simd, rs);
  ck_assert_uint_eq(r.nentries, 1 + sizeof few / sizeof few[0]);
  for (size_t i = 0; i < r.nentries; ++i) {
    ck_assert_msg(r.entries[i].status == LSK_OK && r.entries[i].identical,
                  "candidate %u x %u: %s, identical %d", r.entries[i].workers, r.entries[i].simd,
                  lsk_status_name(r.entries[i].status), r.entries[i].identical);
    ck_assert(r.entries[i].best > 0 && r.entries[i].median >= r.entries[i].best);
  }
  ck_assert_int_eq(r.stored, 1);
  char path[2048];
  ck_assert_int_eq(tune_files(path, sizeof path), 1);
  ck_assert_str_eq(r.path, path);
  /* The same kernel uses the choice at once; the result is the same. */
  assert_shape(&f, r.workers, r.simd);
  check_step_result(&f);
  unsigned cw = r.workers, cs = r.simd;
  lsk_tune_result_free(&r);
  ck_assert_ptr_null(r.entries);
  close_fixture(&f);

  /* A new context reads it. */
  f = open_fixture(NULL, "advance");
  assert_shape(&f, cw, cs);
  int found;
  unsigned sw, ss;
  TU_OK(f.ctx,
        lsk_tune_stored(f.k, &(lsk_launch){.domain = {DOMAIN}, .blocks = {1}}, &found, &sw, &ss));
  ck_assert_int_eq(found, 1);
  ck_assert_uint_eq(sw, cw);
  close_fixture(&f);

  /* A choice the rule never makes, written into the file, is what an
   * automatic launch then uses; the result does not change. */
  force_choice(path, 2, 3);
  f = open_fixture(NULL, "advance");
  /* Read at lsk_kernel_create, all domains at once: with the file gone
   * before the first launch, the launch still takes the choice (no launch
   * reads a file). */
  char *saved = slurp(path);
  ck_assert_int_eq(remove(path), 0);
  assert_shape(&f, 2, 3);
  spit(path, saved);
  free(saved);
  check_step_result(&f);
  /* Another domain has no choice: the rule. */
  lsk_launch other = {.domain = {DOMAIN * 2}, .blocks = {1}};
  unsigned ow, os, aw, as;
  TU_OK(f.ctx, lsk_kernel_shape(f.k, &other, &ow, &os));
  lsk_auto_shape(lsk_context_device(f.ctx), DOMAIN * 2, 0, &aw, &as);
  ck_assert_uint_eq(ow, aw);
  ck_assert_uint_eq(os, as);
  /* Given workers or simd, no stored choice applies. */
  lsk_launch given = {.domain = {DOMAIN}, .blocks = {1}, .workers = 4};
  TU_OK(f.ctx, lsk_kernel_shape(f.k, &given, &ow, &os));
  ck_assert_uint_eq(ow, 4);
  /* Workers given, simd not: a GPU takes simd 1, a CPU what covers the
   * domain in one step (docs/lockstep.md). */
  ck_assert_uint_eq(os, lsk_context_device(f.ctx)->is_gpu ? 1 : 4);
  close_fixture(&f);
}
END_TEST

START_TEST(test_tune_corrupt_file_ignored_and_rewritten)
{
  tune_env();
  fixture f = open_fixture(NULL, "advance");
  lsk_tune_result r = tune_few(&f, 0);
  lsk_tune_result_free(&r);
  close_fixture(&f);
  char path[2048];
  ck_assert_int_eq(tune_files(path, sizeof path), 1);
  force_choice(path, 2, 3);
  char *good = slurp(path);
  /* Each a corruption of the good file (which says 2 x 3). */
  char *key = strstr(good, "key ");
  ck_assert_ptr_nonnull(key);
  char bad_key[8192], no_newline[8192], extra[8192], zero[8192];
  snprintf(bad_key, sizeof bad_key, "%s", good);
  bad_key[key - good + 4] = bad_key[key - good + 4] == '0' ? '1' : '0';
  snprintf(no_newline, sizeof no_newline, "%.*s", (int)strlen(good) - 1, good);
  snprintf(extra, sizeof extra, "%sbogus 1\n", good);
  snprintf(zero, sizeof zero, "%s", good);
  char *w = strstr(zero, "workers 2");
  ck_assert_ptr_nonnull(w);
  w[8] = '0';
  const char *bad[] = {"", "garbage\n", "lsk tune 2\n", bad_key, no_newline, extra, zero};
  unsigned rw = 0, rs = 0;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    spit(path, bad[i]);
    f = open_fixture(NULL, "advance");
    rule_shape(&f, &rw, &rs);
    assert_shape(&f, rw, rs);
    int found = 1;
    unsigned sw, ss;
    TU_OK(f.ctx,
          lsk_tune_stored(f.k, &(lsk_launch){.domain = {DOMAIN}, .blocks = {1}}, &found, &sw, &ss));
    ck_assert_msg(found == 0, "corruption %zu was taken for a choice", i);
    check_step_result(&f);
    close_fixture(&f);
  }
  /* The good one still works, so the corruptions were the reason. */
  spit(path, good);
  f = open_fixture(NULL, "advance");
  assert_shape(&f, 2, 3);
  /* Tuning again replaces a corrupt file with a good one. */
  spit(path, "garbage\n");
  r = tune_few(&f, 0);
  ck_assert_int_eq(r.stored, 1);
  ck_assert_str_eq(r.path, path);
  unsigned cw = r.workers, cs = r.simd;
  lsk_tune_result_free(&r);
  close_fixture(&f);
  ck_assert_int_eq(tune_files(NULL, 0), 1);
  char *text = slurp(path);
  ck_assert_msg(strncmp(text, "lsk tune 1\n", 11) == 0, "rewritten file: %s", text);
  free(text);
  f = open_fixture(NULL, "advance");
  assert_shape(&f, cw, cs);
  close_fixture(&f);
  free(good);
}
END_TEST

START_TEST(test_tune_unrunnable_choice_ignored)
{
  tune_env();
  fixture f = open_fixture(NULL, "advance");
  lsk_tune_result r = tune_few(&f, 0);
  lsk_tune_result_free(&r);
  const lsk_device_info *dev = lsk_context_device(f.ctx);
  unsigned too_many = (unsigned)dev->max_work_group_size * 2, rw, rs;
  rule_shape(&f, &rw, &rs);
  close_fixture(&f);
  char path[2048];
  ck_assert_int_eq(tune_files(path, sizeof path), 1);
  /* More workers than the device (and so the kernel) allows. */
  force_choice(path, too_many, 1);
  f = open_fixture(NULL, "advance");
  assert_shape(&f, rw, rs);
  check_step_result(&f);
  close_fixture(&f);
  /* simd x workers beyond the 32-bit index arithmetic. */
  force_choice(path, 2, 1u << 30);
  f = open_fixture(NULL, "advance");
  assert_shape(&f, rw, rs);
  close_fixture(&f);
}
END_TEST

START_TEST(test_tune_disabled)
{
  tune_env();
  fixture f = open_fixture(NULL, "advance");
  lsk_tune_result r = tune_few(&f, 0);
  unsigned rw = r.rule_workers, rs = r.rule_simd;
  lsk_tune_result_free(&r);
  close_fixture(&f);
  char path[2048];
  ck_assert_int_eq(tune_files(path, sizeof path), 1);
  force_choice(path, 2, 3);
  /* LSK_TUNE=0 (and the other false spellings) */
  const char *off[] = {"0", "false", "no"};
  for (size_t i = 0; i < sizeof off / sizeof off[0]; ++i) {
    setenv("LSK_TUNE", off[i], 1);
    f = open_fixture(NULL, "advance");
    ck_assert_ptr_null(lsk_tune_dir(f.ctx));
    assert_shape(&f, rw, rs);
    /* lsk_tune still measures, but stores nothing and is not used. */
    r = tune_few(&f, 0);
    ck_assert_int_eq(r.stored, 0);
    ck_assert_ptr_null(r.path);
    lsk_tune_result_free(&r);
    assert_shape(&f, rw, rs);
    close_fixture(&f);
  }
  setenv("LSK_TUNE", "1", 1);
  f = open_fixture(NULL, "advance");
  assert_shape(&f, 2, 3);
  close_fixture(&f);
  /* The context option: "" turns choices off whatever the environment. */
  f = open_fixture(&(lsk_context_options){.tune_dir = ""}, "advance");
  ck_assert_ptr_null(lsk_tune_dir(f.ctx));
  assert_shape(&f, rw, rs);
  close_fixture(&f);
  /* ... and a directory overrides LSK_TUNE=0. */
  setenv("LSK_TUNE", "0", 1);
  f = open_fixture(&(lsk_context_options){.tune_dir = dir}, "advance");
  assert_shape(&f, 2, 3);
  close_fixture(&f);
  /* Its text is unchanged by all this. */
  char *text = slurp(path);
  ck_assert_msg(strstr(text, "workers 2\n") && strstr(text, "simd 3\n"), "file now: %s", text);
  free(text);
}
END_TEST

START_TEST(test_tune_no_store)
{
  tune_env();
  fixture f = open_fixture(NULL, "advance");
  lsk_tune_result r = tune_few(&f, 1);
  ck_assert_int_eq(r.stored, 0);
  ck_assert_int_eq(tune_files(NULL, 0), 0);
  /* Kept in the kernel all the same. */
  assert_shape(&f, r.workers, r.simd);
  lsk_tune_result_free(&r);
  close_fixture(&f);
}
END_TEST

START_TEST(test_tune_differing_result_never_chosen)
{
  tune_env();
  fixture f = open_fixture(NULL, "wrong");
  lsk_tune_result r = tune_few(&f, 0);
  for (size_t i = 1; i < r.nentries; ++i) {
    ck_assert_int_eq(r.entries[i].status, LSK_OK);
    ck_assert_int_eq(r.entries[i].identical, r.entries[i].workers == r.rule_workers);
    if (!r.entries[i].identical)
      ck_assert(r.entries[i].best == 0);
  }
  ck_assert_uint_eq(r.workers, r.rule_workers);
  lsk_tune_result_free(&r);
  close_fixture(&f);
}
END_TEST

/* lsk_tune on its on's queue (issue 27): every command of the tuning (the
 * snapshot's reads, the restoring writes, the runs) is on that queue, as
 * the trace records them; the wait list is honoured and the event is of
 * the last command, complete on return; the buffer holds one step. */
START_TEST(test_tune_on_queue)
{
  tune_env();
  fixture f = open_fixture(&(lsk_context_options){.trace = 1}, "advance");
  lsk_queue *q = NULL;
  TU_OK(f.ctx, lsk_queue_create(f.ctx, &(lsk_queue_options){.name = "tuner"}, &q));
  lsk_event *before = NULL, *done = NULL;
  TU_OK(f.ctx, lsk_queue_marker(&(lsk_async){.queue = lsk_context_queue(f.ctx), .event = &before}));
  TU_OK(f.ctx, lsk_trace_clear(f.ctx));
  lsk_launch cfg = automatic();
  lsk_tune_options opt = {.repeat = 1, .candidates = few, .ncandidates = 1, .no_store = 1};
  lsk_tune_result r;
  TU_OK(f.ctx, lsk_tune(f.k, &cfg, STEP_ARGS(&f), &opt, &r,
                        &(lsk_async){.queue = q, .wait = &before, .nwait = 1, .event = &done}));
  lsk_event_state st = 0;
  TU_OK(f.ctx, lsk_event_state_get(done, &st));
  ck_assert_int_eq(st, LSK_EVENT_COMPLETE);
  size_t n = 0, kernels = 0;
  TU_OK(f.ctx, lsk_trace_count(f.ctx, &n));
  for (size_t i = 0; i < n; ++i) {
    lsk_trace_entry e;
    TU_OK(f.ctx, lsk_trace_get(f.ctx, i, &e));
    ck_assert_msg(strcmp(e.queue, "tuner") == 0, "command %zu (%s) on queue '%s'", i, e.name,
                  e.queue);
    kernels += e.kind == LSK_TRACE_KERNEL;
  }
  ck_assert_uint_ge(kernels, 2); /* each candidate verified, then timed */
  unsigned *h = tu_read_uints(f.ctx, f.x, N);
  for (unsigned i = 0; i < N; ++i)
    ck_assert_msg(h[i] == 4u * i, "x[%u] = %u, wanted %u", i, h[i], 4u * i);
  free(h);
  lsk_tune_result_free(&r);
  lsk_event_release(before);
  lsk_event_release(done);
  TU_OK(f.ctx, lsk_queue_destroy(q));
  close_fixture(&f);
}
END_TEST

START_TEST(test_tune_errors)
{
  tune_env();
  fixture f = open_fixture(NULL, "advance");
  lsk_launch cfg = automatic();
  lsk_tune_result r;
  TU_FAILS(f.ctx, lsk_tune(f.k, NULL, STEP_ARGS(&f), NULL, &r, NULL), LSK_EINVAL, "cfg is NULL");
  TU_FAILS(f.ctx, lsk_tune(f.k, &cfg, STEP_ARGS(&f), NULL, NULL, NULL), LSK_EINVAL, "out is NULL");
  TU_FAILS(f.ctx,
           lsk_tune(f.k, &cfg, STEP_ARGS(&f), &(lsk_tune_options){.ncandidates = 2}, &r, NULL),
           LSK_EINVAL, "candidates is NULL");
  TU_FAILS(f.ctx, lsk_tune(f.k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(f.x)), NULL, &r, NULL), LSK_EARGS,
           "takes 2 arguments");
  ck_assert_ptr_null(r.entries);
  TU_FAILS(f.ctx, lsk_tune(f.k, &(lsk_launch){.domain = {DOMAIN}}, STEP_ARGS(&f), NULL, &r, NULL),
           LSK_EINVAL, "blocks[0] is 0");
  /* A candidate that cannot run is recorded, not chosen. */
  const lsk_device_info *dev = lsk_context_device(f.ctx);
  lsk_tune_shape c[] = {{(unsigned)dev->max_work_group_size * 2, 1}, {4, 4}};
  lsk_tune_options opt = {.repeat = 1, .candidates = c, .ncandidates = 2};
  TU_OK(f.ctx, lsk_tune(f.k, &cfg, STEP_ARGS(&f), &opt, &r, NULL));
  ck_assert_uint_eq(r.nentries, 3);
  ck_assert_int_eq(r.entries[1].status, LSK_ELAUNCH);
  ck_assert_int_eq(r.entries[2].status, LSK_OK);
  ck_assert_uint_ne(r.workers, c[0].workers);
  lsk_tune_result_free(&r);
  lsk_tune_result_free(NULL);
  close_fixture(&f);
}
END_TEST

Suite *suite_tune(void)
{
  Suite *s = suite_create("tune");
  TCase *tc = tcase_create("tune");
  tu_case_dir(tc);
  tcase_add_test(tc, test_tune_candidates_default_set);
  tcase_add_test(tc, test_tune_stores_and_later_launch_uses_it);
  tcase_add_test(tc, test_tune_corrupt_file_ignored_and_rewritten);
  tcase_add_test(tc, test_tune_unrunnable_choice_ignored);
  tcase_add_test(tc, test_tune_disabled);
  tcase_add_test(tc, test_tune_no_store);
  tcase_add_test(tc, test_tune_differing_result_never_chosen);
  tcase_add_test(tc, test_tune_errors);
  tcase_add_test(tc, test_tune_on_queue);
  suite_add_tcase(s, tc);
  return s;
}
