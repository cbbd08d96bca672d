/* testutil.c: helpers shared by the suites (see testutil.h). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>

#include "testutil.h"

#undef _mark_point /* libcheck's own, which tu_mark calls */

/* The last lines passed on, newest at [0]. */
#define TU_MARKS 8
static _Thread_local struct {
  const char *file;
  int line;
} marks[TU_MARKS];

void tu_mark(const char *file, int line)
{
  for (int i = 0; i < TU_MARKS; ++i)
    if (marks[i].line == line && marks[i].file == file)
      return;
  memmove(marks + 1, marks, (TU_MARKS - 1) * sizeof marks[0]);
  marks[0].file = file;
  marks[0].line = line;
  _mark_point(file, line);
}

lsk_context *tu_context(void) { return tu_context_opt(NULL); }

lsk_context *tu_context_opt(const lsk_context_options *opt)
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

lsk_program *tu_program(lsk_context *ctx, const char *name, const char *src)
{
  lsk_program *p = NULL;
  TU_OK(ctx, lsk_program_create(ctx, src, &(lsk_program_options){.name = name}, &p));
  return p;
}

lsk_kernel *tu_kernel(lsk_program *prog, const char *name)
{
  lsk_kernel *k = NULL;
  TU_OK(NULL, lsk_kernel_create(prog, name, &k));
  return k;
}

lsk_buffer *tu_zeros(lsk_context *ctx, size_t n)
{
  lsk_buffer *b = NULL;
  /* A whole-buffer write, not a fill: oclgrind takes no fill as
   * initializing memory (kernels under it that add to these would be
   * reported). Blocking, so done before the caller goes on: a test may use
   * the buffer on another queue. */
  unsigned *zeros = calloc(n ? n : 1, sizeof *zeros);
  ck_assert_ptr_nonnull(zeros);
  TU_OK(ctx, lsk_buffer_create(ctx, n * sizeof(unsigned), &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, zeros, n * sizeof(unsigned), NULL));
  free(zeros);
  return b;
}

unsigned *tu_read_uints(lsk_context *ctx, lsk_buffer *b, size_t n)
{
  unsigned *h = malloc(n * sizeof *h);
  ck_assert_ptr_nonnull(h);
  TU_OK(ctx, lsk_buffer_read(b, 0, h, n * sizeof *h, NULL));
  return h;
}

char *tu_function_text(const char *text, const char *start)
{
  const char *at = strstr(text, start);
  ck_assert_msg(at != NULL, "no function %s in the text", start);
  const char *end = strstr(at, "\n}\n");
  ck_assert_ptr_nonnull(end);
  size_t len = (size_t)(end - at);
  char *body = malloc(len + 1);
  ck_assert_ptr_nonnull(body);
  memcpy(body, at, len);
  body[len] = 0;
  return body;
}

void tu_tempdir(char *dir, size_t cap, const char *tag)
{
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, cap, "%s/lsk-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
  if (!mkdtemp(dir)) {
    perror(dir);
    exit(1);
  }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

int tu_remove_tree(const char *dir) { return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

/* The test case's directory (tu_case_dir). */
static char case_dir[1024];

static void case_setup(void) { tu_tempdir(case_dir, sizeof case_dir, "case"); }

static void case_teardown(void)
{
  if (case_dir[0])
    tu_remove_tree(case_dir);
  case_dir[0] = 0;
}

void tu_case_dir(TCase *tc) { tcase_add_unchecked_fixture(tc, case_setup, case_teardown); }

void tu_sub_dir(char *dir, size_t cap, const char *tag)
{
  ck_assert_msg(case_dir[0] != 0, "no case directory (tu_case_dir)");
  snprintf(dir, cap, "%s/%s-XXXXXX", case_dir, tag);
  ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s failed", dir);
}

int tu_count_named(const char *dir, const char *part)
{
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && (!part || strstr(e->d_name, part));
  closedir(d);
  return n;
}

uint32_t tu_rng(uint64_t *state)
{
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*state >> 33);
}

const size_t tu_sizes[TU_NSIZES] = {0, 1, 7, 1000, (1u << 20) + 3};

const lsk_algo_options tu_shapes[TU_NSHAPES] = {
    {0},
    {.workers = 1},
    {.workers = 3, .simd = 5, .tile = 1000},
    {.workers = 12, .simd = 1, .tile = 100, .blocks = 7},
    {.workers = 1, .simd = 1, .tile = 64, .blocks = 3},
};

int tu_fits(lsk_context *ctx, lsk_kernel *k, const lsk_launch *cfg)
{
  unsigned w, s;
  int rc = lsk_kernel_shape(k, cfg, &w, &s);
  if (rc == LSK_ELAUNCH && strstr(lsk_context_errmsg(ctx), "(CL_KERNEL_WORK_GROUP_SIZE)")) {
    printf("skipped: %s\n", lsk_context_errmsg(ctx));
    return 0;
  }
  TU_OK(ctx, rc);
  return 1;
}

int tu_loop_capped(lsk_context *ctx) { return lsk_context_device(ctx)->loops_capped; }

/* The cap is 65535 iterations; a work-item's block and step loops get an
 * eighth of it, the loops inside each step (simd lanes, the block
 * collectives' rounds) the rest. */
#define TU_LOOP_STEPS_MAX (65535u / 8)

int tu_loop_steps(lsk_context *ctx, const char *what, size_t steps)
{
  if (!tu_loop_capped(ctx) || steps <= TU_LOOP_STEPS_MAX)
    return 0;
  printf("skipped: %s: about %zu loop iterations per work-item, past what %s runs (llvmpipe ends a "
         "work-item's loops after 65535 iterations)\n",
         what, steps, lsk_context_device(ctx)->name);
  return 1;
}

size_t tu_steps(lsk_context *ctx, size_t domain, unsigned workers, unsigned simd)
{
  unsigned w = workers, s = simd;
  if (!w || !s)
    lsk_auto_shape(lsk_context_device(ctx), domain, 0, w ? NULL : &w, s ? NULL : &s);
  size_t lanes = (size_t)w * s;
  return (domain + lanes - 1) / lanes;
}

int tu_algo_capped(lsk_context *ctx, const char *what, size_t n, const lsk_algo_options *o)
{
  if (!tu_loop_capped(ctx))
    return 0;
  const lsk_algo_options none = {0};
  o = o ? o : &none;
  const lsk_device_info *d = lsk_context_device(ctx);
  size_t tile = o->tile ? o->tile : 2048, tiles = (n + tile - 1) / tile;
  size_t blocks = o->blocks ? o->blocks : (d->compute_units ? d->compute_units : 1) * 16;
  if (blocks > tiles)
    blocks = tiles ? tiles : 1;
  size_t per_block = (tiles + blocks - 1) / blocks;
  char buf[256];
  snprintf(buf, sizeof buf, "%s of %zu with workers %u simd %u tile %zu blocks %zu", what, n,
           o->workers, o->simd, tile, blocks);
  return tu_loop_steps(ctx, buf, per_block * tu_steps(ctx, tile, o->workers, o->simd));
}

int tu_fp64(lsk_context *ctx, const char *what)
{
  const lsk_device_info *d = lsk_context_device(ctx);
  if (d->has_fp64)
    return 1;
  printf("skipped: %s: no fp64 on %s\n", what, d->name);
  return 0;
}

int tu_skip_on(lsk_context *ctx, int rc, int skip_rc, const char *text)
{
  const char *m = lsk_context_errmsg(ctx);
  if (rc != skip_rc || !strstr(m, text))
    return 0;
  printf("skipped: %s\n", m);
  return 1;
}

int tu_over_limits(lsk_context *ctx, int rc)
{
  return tu_skip_on(ctx, rc, LSK_ELAUNCH, "(CL_KERNEL_WORK_GROUP_SIZE)");
}

int tu_fill_run(lsk_context *ctx, const char *src, const char *cache_dir, unsigned salt, unsigned n,
                unsigned *compiled, unsigned *loaded, char *why, size_t cap)
{
  char opts[32];
  snprintf(opts, sizeof opts, "-DSALT=%uu", salt);
  lsk_program *p = NULL;
  lsk_kernel *k = NULL;
  lsk_buffer *b = NULL;
  uint32_t *host = malloc((size_t)n * sizeof *host);
  int rc = host ? LSK_OK : LSK_ENOMEM;
  if (!rc)
    rc = lsk_program_create(
        ctx, src,
        &(lsk_program_options){.name = "fill.cl", .build_options = opts, .cache_dir = cache_dir},
        &p);
  if (!rc)
    rc = lsk_kernel_create(p, "fill", &k);
  if (!rc)
    rc = lsk_buffer_create(ctx, (size_t)n * sizeof *host, &b);
  if (!rc)
    rc = lsk_kernel_run(k, &(lsk_launch){.domain = {64}, .blocks = {2}},
                        LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(n)), NULL);
  if (!rc)
    rc = lsk_buffer_read(b, 0, host, (size_t)n * sizeof *host, NULL);
  lsk_program_stats st = {0};
  if (!rc)
    rc = lsk_program_stats_get(p, &st);
  if (rc)
    snprintf(why, cap, "%s: %s", lsk_status_name(rc), lsk_context_errmsg(ctx));
  for (unsigned i = 0; !rc && i < n; ++i)
    if (host[i] != 9u * i + salt) {
      snprintf(why, cap, "data[%u] = %u, wanted %u", i, host[i], 9u * i + salt);
      rc = 1;
    }
  *compiled = st.compiled;
  *loaded = st.cache_loads;
  lsk_buffer_destroy(b);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  free(host);
  return rc ? 1 : 0;
}

/* Philox4x32-10 from the published algorithm (Salmon et al., SC'11): ten
 * rounds of two 32x32 -> 64-bit products, the key bumped by the Weyl
 * constants before each round after the first. */
void tu_philox(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
  uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
                     (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
    for (int i = 0; i < 4; ++i)
      c[i] = n[i];
  }
  for (int i = 0; i < 4; ++i)
    out[i] = c[i];
}

/* The variates of cl/lsk_random.h in double precision (the uniform ones
 * exact). */
double tu_uniform24(uint32_t r) { return (double)(r >> 8) * 0x1.0p-24; }

double tu_uniform53(uint32_t hi, uint32_t lo)
{
  return (double)(((uint64_t)(hi >> 5) << 26) | (lo >> 6)) * 0x1.0p-53;
}

double tu_normal24(uint32_t r0, uint32_t r1)
{
  return sqrt(-2.0 * log(tu_uniform24(r0) + 0x1.0p-24)) *
         cos(2.0 * 3.14159265358979323846 * tu_uniform24(r1));
}

double tu_normal53(const uint32_t r[4])
{
  return sqrt(-2.0 * log(tu_uniform53(r[0], r[1]) + 0x1.0p-53)) *
         cos(2.0 * 3.14159265358979323846 * tu_uniform53(r[2], r[3]));
}
