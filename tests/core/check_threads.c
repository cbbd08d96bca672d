/*
 * check_threads.c: lsk from several threads and processes at once.
 *
 * - two threads, each with its own context: build, launch, the kernel
 *   library (lsk_reduce), read back; both on one cache directory, so that
 *   the same entry is stored from two threads of one process;
 * - several threads on ONE context sharing one kernel (docs/threads.md):
 *   the launches bind arguments of one cl_kernel, which only the context's
 *   lock keeps apart, one more thread uses the kernel library and another
 *   makes and destroys buffers (the launches' argument checks); each
 *   thread also fails on purpose and must read its own message, not
 *   another thread's;
 * - several threads using the kernel library on one context at once
 *   (scans, reductions, associations of their own), checked against C;
 * - blocking writes and reads beside a thread that flushes the queue
 *   without pause: each read must show its own launch's result (rusticl
 *   22.3 returned from such calls before they ran);
 * - two processes building the same cache entries at once, round after
 *   round: both right, every entry whole, a third process loads them all.
 *
 * Worker threads never call ck_assert (libcheck's failure path is not for
 * other threads): they write what went wrong into their record, and the
 * test's thread asserts on it after the join.
 */
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static const char *affine_src =
    "LSK_KERNEL void affine(LSK_CTX, __global uint *data, uint n, uint a, uint b)\n"
    "{\n"
    "  LSK_BLOCKS(blk, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = blk * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (g < n)\n"
    "        data[g] = data[g] * a + b + SALT;\n"
    "    }\n"
    "  }\n"
    "}\n";

enum { N = 1000 };

typedef struct worker {
  int id;
  lsk_context *ctx; /* shared (one-context test) or own */
  lsk_kernel *k;    /* shared kernel, or NULL: the thread makes its own */
  const char *cache_dir;
  unsigned rounds, domain;
  void *(*run)(void *); /* the thread's work: NULL for launches (work) */
  size_t n;             /* lib_work: elements */
  char error[512];      /* "" if all went well */
} worker;

static void fail_at(worker *w, const char *fmt, ...)
{
  if (w->error[0])
    return; /* keep the first */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->error, sizeof w->error, fmt, ap);
  va_end(ap);
}

#define WK_OK(w, expr)                                                                             \
  do {                                                                                             \
    int rc_ = (expr);                                                                              \
    if (rc_) {                                                                                     \
      fail_at(w, "thread %d: %s -> %s: %s", (w)->id, #expr, lsk_status_name(rc_),                  \
              lsk_context_errmsg((w)->ctx));                                                       \
      goto out;                                                                                    \
    }                                                                                              \
  } while (0)

/* The coefficients of thread id in round r. */
static unsigned coef_a(int id, unsigned r) { return 3u + 2u * (unsigned)id + (r & 3u); }
static unsigned coef_b(int id, unsigned r) { return 1000u * (unsigned)id + r; }

/* Each element of the thread's buffer goes through all rounds of affine
 * (SALT 0): the expected values, in plain C. */
static void expected(int id, unsigned rounds, uint32_t *want)
{
  for (unsigned i = 0; i < N; ++i) {
    uint32_t v = i * 7u + (unsigned)id;
    for (unsigned r = 0; r < rounds; ++r)
      v = v * coef_a(id, r) + coef_b(id, r);
    want[i] = v;
  }
}

/* Launches the rounds on the thread's own buffer, and between them fails
 * on purpose with a message only this thread can have caused, then reads
 * that message back: another thread's failures come in between. */
static void *work(void *arg)
{
  worker *w = arg;
  lsk_program *p = NULL;
  lsk_kernel *k = w->k;
  lsk_buffer *b = NULL;
  uint32_t *host = malloc(N * 4), *want = malloc(N * 4);
  if (!host || !want) {
    fail_at(w, "thread %d: out of memory", w->id);
    goto out;
  }
  if (!w->ctx)
    WK_OK(w, lsk_context_create(&(lsk_context_options){.cache_dir = w->cache_dir}, &w->ctx));
  if (!k) {
    WK_OK(w, lsk_program_create(
                 w->ctx, affine_src,
                 &(lsk_program_options){.name = "affine.cl", .build_options = "-DSALT=0u"}, &p));
    WK_OK(w, lsk_kernel_create(p, "affine", &k));
  }
  for (unsigned i = 0; i < N; ++i)
    host[i] = i * 7u + (unsigned)w->id;
  WK_OK(w, lsk_buffer_create(w->ctx, N * 4, &b));
  WK_OK(w, lsk_buffer_write(b, 0, host, N * 4, NULL));
  lsk_launch cfg = {.domain = {w->domain}, .blocks = {4}};
  char mine[64] = ""; /* what this thread's last failure's message says */
  for (unsigned r = 0; r < w->rounds; ++r) {
    WK_OK(w, lsk_kernel_launch(k, &cfg,
                               LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(N),
                                        LSK_ARG_UINT(coef_a(w->id, r)),
                                        LSK_ARG_UINT(coef_b(w->id, r))),
                               NULL));
    /* Successes leave the message; other threads' failures must too. */
    if (mine[0] && !strstr(lsk_context_errmsg(w->ctx), mine)) {
      fail_at(w, "thread %d round %u: message '%s' is no longer this thread's ('%s')", w->id, r,
              lsk_context_errmsg(w->ctx), mine);
      goto out;
    }
    /* Every fourth round, a failure of this thread's own: a read past the
     * end at an offset that names the thread and round, or a launch with a
     * count of arguments that does. The other rounds launch back to back,
     * which is where unserialized argument binding would mix threads up. */
    if (r % 4)
      continue;
    int rc, read_fails = (r / 4) & 1;
    if (read_fails) {
      size_t off = 100000u * (size_t)(w->id + 1) + r;
      rc = lsk_buffer_read(b, off, host, 4, NULL);
      snprintf(mine, sizeof mine, "offset %zu + size 4", off);
    } else {
      lsk_arg extra[16];
      size_t nargs = 5 + (size_t)w->id % 8;
      for (size_t i = 0; i < nargs; ++i)
        extra[i] = LSK_ARG_UINT(0);
      rc = lsk_kernel_launch(k, &cfg, extra, nargs, NULL);
      snprintf(mine, sizeof mine, "the launch gives %zu", nargs);
    }
    if (rc != (read_fails ? LSK_ERANGE : LSK_EARGS)) {
      fail_at(w, "thread %d round %u: planted failure gave %s", w->id, r, lsk_status_name(rc));
      goto out;
    }
    if (!strstr(lsk_context_errmsg(w->ctx), mine)) {
      fail_at(w, "thread %d round %u: message '%s' is not this thread's ('%s')", w->id, r,
              lsk_context_errmsg(w->ctx), mine);
      goto out;
    }
  }
  WK_OK(w, lsk_context_finish(w->ctx));
  WK_OK(w, lsk_buffer_read(b, 0, host, N * 4, NULL));
  expected(w->id, w->rounds, want);
  for (unsigned i = 0; i < N; ++i)
    if (host[i] != want[i]) {
      fail_at(w, "thread %d: data[%u] = %u, wanted %u", w->id, i, host[i], want[i]);
      goto out;
    }
  /* The kernel library on this context: its own builds and scratch. */
  if (!w->k) {
    cl_uint sum = 0, ref = 0;
    for (unsigned i = 0; i < N; ++i)
      ref += want[i];
    WK_OK(w, lsk_reduce(w->ctx, LSK_TYPE_UINT, LSK_OP_SUM, b, 0, N, &sum, sizeof sum, NULL, NULL));
    if (sum != ref)
      fail_at(w, "thread %d: lsk_reduce gave %u, wanted %u", w->id, sum, ref);
  }
out:
  lsk_buffer_destroy(b);
  if (!w->k) {
    lsk_kernel_destroy(k);
    lsk_program_destroy(p);
  }
  free(host);
  free(want);
  return NULL;
}

/* The kernel library on a shared context, from one thread while others
 * launch: its own kernels and scratch, and the verify check it shares. */
static void *reduce_work(void *arg)
{
  worker *w = arg;
  lsk_buffer *b = NULL;
  uint32_t *host = malloc(N * 4);
  uint64_t seed = 77;
  cl_uint ref = 0, lo = UINT32_MAX;
  if (!host) {
    fail_at(w, "thread %d: out of memory", w->id);
    goto out;
  }
  for (unsigned i = 0; i < N; ++i) {
    host[i] = tu_rng(&seed);
    ref += host[i];
    lo = host[i] < lo ? host[i] : lo;
  }
  WK_OK(w, lsk_buffer_create(w->ctx, N * 4, &b));
  WK_OK(w, lsk_buffer_write(b, 0, host, N * 4, NULL));
  for (unsigned r = 0; r < w->rounds; ++r) {
    cl_uint sum = 0, min = 0;
    WK_OK(w, lsk_reduce(w->ctx, LSK_TYPE_UINT, LSK_OP_SUM, b, 0, N, &sum, sizeof sum, NULL, NULL));
    WK_OK(w, lsk_reduce(w->ctx, LSK_TYPE_UINT, LSK_OP_MIN, b, 0, N, &min, sizeof min, NULL, NULL));
    if (sum != ref || min != lo) {
      fail_at(w, "thread %d round %u: sum %u min %u, wanted %u and %u", w->id, r, sum, min, ref,
              lo);
      goto out;
    }
    size_t n = N + 1 + r;
    int rc = lsk_reduce(w->ctx, LSK_TYPE_UINT, LSK_OP_SUM, b, 0, n, &sum, sizeof sum, NULL, NULL);
    char mine[64];
    snprintf(mine, sizeof mine, "elements [0, %zu)", n);
    if (rc != LSK_ERANGE || !strstr(lsk_context_errmsg(w->ctx), mine)) {
      fail_at(w, "thread %d round %u: %s, message '%s' is not this thread's ('%s')", w->id, r,
              lsk_status_name(rc), lsk_context_errmsg(w->ctx), mine);
      goto out;
    }
  }
out:
  lsk_buffer_destroy(b);
  free(host);
  return NULL;
}

/* The kernel library from several threads on one context at once
 * (lib_work): each thread scans and reduces data of its own size (so the
 * scratch buffer the library keeps per context grows while others use it)
 * and builds an association of its own, checked against plain C every
 * round. The first calls also build the library's programs at once. */
static void *lib_work(void *arg)
{
  worker *w = arg;
  size_t n = w->n;
  enum { KEYS = 97 };
  lsk_buffer *in = NULL, *out = NULL, *keys = NULL;
  lsk_assoc *a = NULL;
  uint32_t *host = malloc(n * 4), *got = malloc(n * 4), *key = malloc(n * 4);
  uint32_t *off = malloc((KEYS + 1) * 4), want_off[KEYS + 1] = {0};
  uint64_t seed = 1000u + (uint64_t)w->id;
  if (!host || !got || !key || !off) {
    fail_at(w, "thread %d: out of memory", w->id);
    goto out;
  }
  cl_uint sum = 0;
  for (size_t i = 0; i < n; ++i) {
    host[i] = tu_rng(&seed) & 0xffffu;
    sum += host[i];
    key[i] = (uint32_t)(i * KEYS / n); /* in order, for the sorted build too */
    ++want_off[key[i] + 1];
  }
  for (unsigned k = 0; k < KEYS; ++k)
    want_off[k + 1] += want_off[k];
  WK_OK(w, lsk_buffer_create(w->ctx, n * 4, &in));
  WK_OK(w, lsk_buffer_create(w->ctx, n * 4, &out));
  WK_OK(w, lsk_buffer_create(w->ctx, n * 4, &keys));
  WK_OK(w, lsk_buffer_write(in, 0, host, n * 4, NULL));
  WK_OK(w, lsk_buffer_write(keys, 0, key, n * 4, NULL));
  WK_OK(w, lsk_assoc_create(w->ctx, KEYS, n, NULL, &a));
  for (unsigned r = 0; r < w->rounds; ++r) {
    cl_uint s = 0;
    WK_OK(w, lsk_scan(w->ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, in, 0, out, 0, n, NULL, NULL));
    WK_OK(w, lsk_reduce(w->ctx, LSK_TYPE_UINT, LSK_OP_SUM, in, 0, n, &s, sizeof s, NULL, NULL));
    WK_OK(w, (r & 1 ? lsk_assoc_build_sorted : lsk_assoc_build)(a, keys, 0, n, NULL));
    WK_OK(w, lsk_buffer_read(out, 0, got, n * 4, NULL));
    WK_OK(w, lsk_buffer_read(lsk_assoc_offsets(a), 0, off, (KEYS + 1) * 4, NULL));
    uint32_t run = 0;
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; ++i) {
      if (got[i] != run)
        bad = i;
      run += host[i];
    }
    if (s != sum || bad != n || memcmp(off, want_off, sizeof want_off)) {
      fail_at(w, "thread %d (n %zu) round %u: sum %u want %u, scan wrong from %zu, offsets %s",
              w->id, n, r, s, sum, bad, memcmp(off, want_off, sizeof want_off) ? "wrong" : "ok");
      goto out;
    }
  }
out:
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(in);
  lsk_buffer_destroy(out);
  lsk_buffer_destroy(keys);
  free(host);
  free(got);
  free(key);
  free(off);
  return NULL;
}

/* Threads still writing, launching and reading in blocking_work; the
 * flusher stops when none is. */
static atomic_int blocking_left;

/* Round after round on the thread's own buffer: a blocking write, one
 * launch of the shared kernel (data * 1 + 1), a blocking read that must
 * show the launch's result, in order on the default queue. */
static void *blocking_work(void *arg)
{
  worker *w = arg;
  lsk_buffer *b = NULL;
  uint32_t *host = malloc(N * 4);
  if (!host) {
    fail_at(w, "thread %d: out of memory", w->id);
    goto out;
  }
  WK_OK(w, lsk_buffer_create(w->ctx, N * 4, &b));
  lsk_launch cfg = {.domain = {w->domain}, .blocks = {4}};
  for (unsigned r = 0; r < w->rounds; ++r) {
    uint32_t v = 1000000u * (unsigned)w->id + r;
    for (unsigned i = 0; i < N; ++i)
      host[i] = v + i;
    WK_OK(w, lsk_buffer_write(b, 0, host, N * 4, NULL));
    WK_OK(w, lsk_kernel_launch(
                 w->k, &cfg,
                 LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(N), LSK_ARG_UINT(1), LSK_ARG_UINT(1)),
                 NULL));
    WK_OK(w, lsk_buffer_read(b, 0, host, N * 4, NULL));
    for (unsigned i = 0; i < N; i += N / 4)
      if (host[i] != v + i + 1) {
        fail_at(w, "thread %d round %u: data[%u] = %u after a blocking read, wanted %u", w->id, r,
                i, host[i], v + i + 1);
        goto out;
      }
  }
out:
  atomic_fetch_sub(&blocking_left, 1);
  lsk_buffer_destroy(b);
  free(host);
  return NULL;
}

/* Flushes the context's default queue until no blocking_work is left. */
static void *flush_work(void *arg)
{
  worker *w = arg;
  while (atomic_load(&blocking_left) > 0)
    if (lsk_queue_flush(lsk_context_queue(w->ctx))) {
      fail_at(w, "flusher: %s", lsk_context_errmsg(w->ctx));
      break;
    }
  return NULL;
}

/* Buffers made and destroyed on a shared context while other threads
 * launch on it: each launch checks its buffer arguments against the
 * context's set of live handles, which this changes (and grows) meanwhile. */
static void *churn_work(void *arg)
{
  worker *w = arg;
  enum { BATCH = 100 };
  lsk_buffer *b[BATCH] = {0};
  for (unsigned r = 0; r < w->rounds && !w->error[0]; ++r) {
    for (unsigned i = 0; i < BATCH && !w->error[0]; ++i) {
      int rc = lsk_buffer_create(w->ctx, 64, &b[i]);
      if (rc)
        fail_at(w, "churn round %u: lsk_buffer_create gave %s", r, lsk_status_name(rc));
    }
    for (unsigned i = 0; i < BATCH; ++i) {
      if (b[i] && lsk_buffer_size(b[i]) != 64)
        fail_at(w, "churn round %u: buffer %u has size %zu", r, i, lsk_buffer_size(b[i]));
      lsk_buffer_destroy(b[i]);
      b[i] = NULL;
    }
  }
  return NULL;
}

static void run_workers(worker *ws, int n)
{
  pthread_t t[8];
  ck_assert_int_le(n, 8);
  for (int i = 0; i < n; ++i)
    ck_assert_int_eq(pthread_create(&t[i], NULL, ws[i].run ? ws[i].run : work, &ws[i]), 0);
  for (int i = 0; i < n; ++i)
    ck_assert_int_eq(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < n; ++i)
    ck_assert_msg(ws[i].error[0] == 0, "%s", ws[i].error);
}

/* affine (SALT 0) on ctx, not yet built: its program to *p. */
static lsk_kernel *affine_kernel(lsk_context *ctx, lsk_program **p)
{
  TU_OK(ctx, lsk_program_create(
                 ctx, affine_src,
                 &(lsk_program_options){.name = "affine.cl", .build_options = "-DSALT=0u"}, p));
  return tu_kernel(*p, "affine");
}

/* ------------------------------------------------------------------ */

/* Two threads, two contexts, one cache directory: the same program and the
 * same library kernels are built and stored by both at once. */
START_TEST(test_threads_two_contexts)
{
  char dir[1024];
  tu_sub_dir(dir, sizeof dir, "threads");
  lsk_context_destroy(tu_context()); /* exit 77 without a device */
  worker ws[2] = {{.id = 0, .cache_dir = dir, .rounds = 20, .domain = 64},
                  {.id = 1, .cache_dir = dir, .rounds = 20, .domain = 64}};
  run_workers(ws, 2);
  for (int i = 0; i < 2; ++i)
    lsk_context_destroy(ws[i].ctx);
  ck_assert_int_eq(tu_count_named(dir, ".tmp."), 0);
  ck_assert_int_gt(tu_count_named(dir, ".bin"), 0);

  /* Whatever was stored is whole: a new context loads the program. */
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.cache_dir = dir});
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(
                 ctx, affine_src,
                 &(lsk_program_options){.name = "affine.cl", .build_options = "-DSALT=0u"}, &p));
  TU_OK(ctx, lsk_program_build(p, "affine", &(lsk_launch){.domain = {64}, .blocks = {1}}));
  lsk_program_stats st;
  TU_OK(ctx, lsk_program_stats_get(p, &st));
  ck_assert_uint_eq(st.cache_loads, 1);
  ck_assert_uint_eq(st.compiled, 0);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Four threads on one context and one kernel, not yet built: the first
 * launches build two configurations at once (two domains), then every
 * launch binds its own arguments to a shared cl_kernel. A fifth thread
 * uses the kernel library (lsk_reduce) on the same context meanwhile, a
 * sixth makes and destroys buffers on it. */
START_TEST(test_threads_one_context)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  lsk_kernel *k = affine_kernel(ctx, &p);
  /* Twice: first the builds race, then (built) only the launches do. */
  for (int pass = 0; pass < 2; ++pass) {
    worker ws[6];
    for (int i = 0; i < 4; ++i)
      ws[i] = (worker){.id = i, .ctx = ctx, .k = k, .rounds = 200, .domain = i & 1 ? 32 : 64};
    ws[4] = (worker){.id = 4, .ctx = ctx, .rounds = 20, .run = reduce_work};
    ws[5] = (worker){.id = 5, .ctx = ctx, .rounds = 20, .run = churn_work};
    run_workers(ws, 6);
    lsk_program_stats st;
    TU_OK(ctx, lsk_program_stats_get(p, &st));

    ck_assert_uint_eq(st.configurations, 2); /* each built once */
  }
  /* A thread that never failed on the context has no message. */
  ck_assert_str_eq(lsk_context_errmsg(ctx), "");
  TU_OK(ctx, lsk_context_finish(ctx));
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Two processes, one cache directory                                   */

enum { ROUNDS = 8 };

/* Builds and runs fill with SALT = round (tu_fill_run); 0 if right.
 * *compiled is 1 if this process compiled it (and so wrote the entry), 0
 * if it loaded it. */
static int fill_round(lsk_context *ctx, unsigned round, int *compiled, char *why, size_t cap)
{
  unsigned c = 0, l = 0;
  char what[400] = "";
  int rc = tu_fill_run(ctx, TU_FILL_SRC, NULL, round, N, &c, &l, what, sizeof what);
  *compiled = c == 1;
  if (!rc && c + l != 1) {
    snprintf(what, sizeof what, "%u compiled, %u loaded", c, l);
    rc = 1;
  }
  if (rc)
    snprintf(why, cap, "round %u: %s", round, what);
  return rc;
}

/* One of the two writers: waits for the start, builds every round, writes
 * the mask of the rounds it compiled to out. */
static void writer(const char *dir, int start, int out)
{
  char go;
  if (read(start, &go, 1) != 1)
    _exit(3);
  lsk_context *ctx = NULL;
  if (lsk_context_create(&(lsk_context_options){.cache_dir = dir}, &ctx)) {
    fprintf(stderr, "writer: %s\n", lsk_context_errmsg(NULL));
    _exit(2);
  }
  unsigned mask = 0;
  for (unsigned r = 0; r < ROUNDS; ++r) {
    char why[512];
    int compiled = 0;
    if (fill_round(ctx, r, &compiled, why, sizeof why)) {
      fprintf(stderr, "writer %d: %s\n", (int)getpid(), why);
      _exit(1);
    }
    mask |= (unsigned)compiled << r;
  }
  lsk_context_destroy(ctx);
  _exit(write(out, &mask, sizeof mask) == sizeof mask ? 0 : 4);
}

START_TEST(test_threads_two_processes_one_entry)
{
  const char *ckfork = getenv("CK_FORK");
  if (ckfork && strcmp(ckfork, "no") == 0) {
    fprintf(stderr, "test_threads_two_processes_one_entry: CK_FORK=no, not checked\n");
    return;
  }
  char dir[1024];
  tu_sub_dir(dir, sizeof dir, "procs");
  int start[2], out[2];
  ck_assert_int_eq(pipe(start), 0);
  ck_assert_int_eq(pipe(out), 0);
  pid_t pid[2];
  for (int i = 0; i < 2; ++i) {
    pid[i] = fork();
    ck_assert_int_ge(pid[i], 0);
    if (pid[i] == 0) {
      close(start[1]);
      close(out[0]);
      writer(dir, start[0], out[1]);
    }
  }
  close(start[0]);
  close(out[1]);
  /* Both start at once: from here on they race on every entry. */
  ck_assert_int_eq(write(start[1], "gg", 2), 2);
  close(start[1]);
  unsigned mask[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    int st = 0;
    ck_assert_int_eq(waitpid(pid[i], &st, 0), pid[i]);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer %d failed (status %d)", i, st);
  }
  for (int i = 0; i < 2; ++i)
    ck_assert_int_eq(read(out[0], &mask[i], sizeof mask[i]), (int)sizeof mask[i]);
  close(out[0]);
  unsigned both = mask[0] & mask[1];
  int nboth = 0;
  for (unsigned r = 0; r < ROUNDS; ++r)
    nboth += (both >> r) & 1u;
  fprintf(stderr, "two processes: %d of %d entries written by both\n", nboth, ROUNDS);
  ck_assert_int_eq(tu_count_named(dir, ".tmp."), 0);
  ck_assert_int_eq(tu_count_named(dir, ".bin"), ROUNDS);

  /* The third process (this one) loads every entry and gets right results. */
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.cache_dir = dir});
  for (unsigned r = 0; r < ROUNDS; ++r) {
    char why[512] = "";
    int compiled = 1;
    ck_assert_msg(fill_round(ctx, r, &compiled, why, sizeof why) == 0, "%s", why);
    ck_assert_msg(!compiled, "round %u was compiled, not loaded: a bad entry", r);
  }
  lsk_context_destroy(ctx);
}
END_TEST

/* Four threads use the kernel library on one fresh context at once. */
START_TEST(test_threads_library_one_context)
{
  lsk_context *ctx = tu_context();
  static const size_t sizes[4] = {100000, 250000, 40000, 400003};
  worker ws[4];
  for (int i = 0; i < 4; ++i)
    ws[i] = (worker){.id = i, .ctx = ctx, .rounds = 12, .run = lib_work, .n = sizes[i]};
  run_workers(ws, 4);
  lsk_context_destroy(ctx);
}
END_TEST

/* Four threads' blocking transfers on one queue while a fifth flushes
 * it: a blocking call returns when its own command has run, whoever
 * submitted it. */
START_TEST(test_threads_blocking_beside_flush)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  lsk_kernel *k = affine_kernel(ctx, &p);
  worker ws[5];
  atomic_store(&blocking_left, 4);
  for (int i = 0; i < 4; ++i)
    ws[i] =
        (worker){.id = i, .ctx = ctx, .k = k, .rounds = 150, .domain = 64, .run = blocking_work};
  ws[4] = (worker){.id = 4, .ctx = ctx, .run = flush_work};
  run_workers(ws, 5);
  TU_OK(ctx, lsk_context_finish(ctx));
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_threads(void)
{
  Suite *s = suite_create("threads");
  TCase *tc = tcase_create("contexts");
  tu_case_dir(tc);
  tcase_add_test(tc, test_threads_two_contexts);
  suite_add_tcase(s, tc);
  tc = tcase_create("one_context");
  tu_case_dir(tc);
  tcase_add_test(tc, test_threads_one_context);
  tcase_add_test(tc, test_threads_library_one_context);
  tcase_add_test(tc, test_threads_blocking_beside_flush);
  suite_add_tcase(s, tc);
  tc = tcase_create("processes");
  tu_case_dir(tc);
  tcase_add_test(tc, test_threads_two_processes_one_entry);
  suite_add_tcase(s, tc);
  return s;
}
