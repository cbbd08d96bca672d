/*
 * cmd_demo.c: `lsk demo` dispatch (no subcommand: the pixel clustering
 * pipeline, examples/pixel/demo.c; `pic`, `heat` and `sparse`: those examples'
 * demo.c) and `lsk demo tour`, a short tour of lockstep kernels on the
 * selected device. Three kernels, each its own program, each
 * launched twice (the first launch builds) and checked against plain C on the host: iota  data[i] =
 * i: LSK_BLOCKS over data blocks, LSK_FOREACH, LSK_VERIFY var   y[i] = x*x + x: a context variable
 * (LSK_VAR) carries x[i] from one ForEach to the next sum   per-block sums: per-worker partial sums
 * in local memory, lsk_sync, then LSK_MASTER adds them The kernels use uint arithmetic (wrapping),
 * so device and host agree bit for bit whatever the compiler contracts or reorders.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "heat_demo.h"
#include "pic_demo.h"
#include "sparse_demo.h"
#include "parse.h"
#include "pixel_demo.h"

#define DEFAULT_SIZE (1u << 20)
#define MAX_SIZE (1u << 30)
#define SENTINEL 0xdeadbeefu
#define SUM_DOMAIN 256u /* the sum kernel's block domain, for the host reference */

static const char *const usage_text =
    "usage: lsk [--device SEL] demo tour [--size N] [--inject-fault]\n"
    "Runs three lockstep kernels on the device (iota, a context variable, master and\n"
    "sync), each launched twice, and checks their results against plain C.\n"
    "  --size N          elements per kernel (default 1048576; suffixes k, M, G:\n"
    "                    powers of 1024; at most 1G)\n"
    "  --inject-fault    skip the buffer reset before iota's second launch, so that its\n"
    "                    LSK_VERIFY fires: shows how a device check is reported (exit 1)\n";

/* The sources, one program each. Line numbers in messages count from the
 * first line of each string. */
static const char iota_cl[] =
    "/* data[i] = i. The buffer is filled with SENTINEL before each launch; the\n"
    " * check catches an index that is written twice or was not reset. */\n"
    "LSK_KERNEL void iota(LSK_CTX, __global uint *data, uint n, uint sentinel)\n"
    "{\n"
    "  uint nblocks = (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE;\n"
    "  LSK_BLOCKS(b, nblocks) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (g < n) {\n"
    /* One line: a multi-line LSK_VERIFY reports its last line. */
    "        LSK_VERIFY2(data[g] == sentinel, \"element not reset or written twice\", g, "
    "data[g]);\n"
    "        data[g] = g;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

static const char var_cl[] =
    "/* y[i] = x[i]*x[i] + x[i]. The first ForEach loads x into a context\n"
    " * variable; the second reads it back at the same index. */\n"
    "LSK_KERNEL void var(LSK_CTX, __global const uint *x, __global uint *y, uint n)\n"
    "{\n"
    "  uint nblocks = (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE;\n"
    "  LSK_BLOCKS(b, nblocks) {\n"
    "    uint base = b * LSK_DOMAIN_SIZE;\n"
    "    LSK_VAR(uint, v);\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = base + it.idx;\n"
    "      LSK_VAR_AT(v, it) = g < n ? x[g] : 0u;\n"
    "    }\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = base + it.idx;\n"
    "      uint a = LSK_VAR_AT(v, it);\n"
    "      if (g < n)\n"
    "        y[g] = a * a + a;\n"
    "    }\n"
    "  }\n"
    "}\n";

static const char sum_cl[] =
    "/* out[b] = the sum of x over data block b. Each worker adds its indices\n"
    " * into its own slot of local memory; after lsk_sync the master adds the\n"
    " * slots. The second lsk_sync keeps the next block from overwriting the\n"
    " * slots while the master still reads them. */\n"
    "LSK_KERNEL void sum(LSK_CTX, __global const uint *x, __global uint *out, uint n)\n"
    "{\n"
    "  LSK_SHARED(uint, partial, LSK_WORKERS);\n"
    "  uint nblocks = (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE;\n"
    "  LSK_BLOCKS(b, nblocks) {\n"
    "    uint acc = 0;\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (g < n)\n"
    "        acc += x[g];\n"
    "    }\n"
    "    partial[lsk_worker()] = acc;\n"
    "    lsk_sync();\n"
    "    LSK_MASTER {\n"
    "      uint s = 0;\n"
    "      for (uint w = 0; w < LSK_WORKERS; ++w)\n"
    "        s += partial[w];\n"
    "      out[b] = s;\n"
    "    }\n"
    "    lsk_sync();\n"
    "  }\n"
    "}\n";

typedef struct demo {
  lsk_context *ctx;
  const lsk_device_info *dev;
  unsigned n;
  int inject_fault;
  uint32_t *x;    /* input of var and sum, n elements */
  uint32_t *got;  /* results read back, n elements */
  lsk_buffer *bx; /* x on the device */
} demo;

/* One step: what ran and how it went. */
typedef struct step {
  const char *name, *what;
  lsk_program *prog;
  lsk_kernel *kernel;
  lsk_launch cfg;
  size_t data_blocks;
  unsigned workers, simd;
  double t[2];     /* seconds; < 0: did not run */
  int compiled;    /* 1 compiled, 0 loaded from the disk cache, -1 unknown */
  char check[160]; /* "ok", the mismatch, or the error */
  int rc;          /* the lsk status of a failure, or 0 */
} step;

/* x[i]: a scrambled pattern, so that a wrong index shows. */
static uint32_t input(size_t i) { return (uint32_t)(i * 2654435761u) >> 7; }

/* Creates the step's program and kernel for a launch over d->n elements in
 * data blocks of domain indices. */
static int step_open(demo *d, step *s, const char *name, const char *what, const char *file,
                     const char *source, unsigned domain)
{
  memset(s, 0, sizeof *s);
  s->name = name;
  s->what = what;
  s->t[0] = s->t[1] = -1;
  s->compiled = -1;
  s->data_blocks = (d->n + (size_t)domain - 1) / domain;
  /* A few blocks per compute unit keep every unit busy; LSK_BLOCKS walks
   * the remaining data blocks, so the result does not depend on it. */
  size_t grid = (size_t)(d->dev->compute_units ? d->dev->compute_units : 1) * 8;
  s->cfg.domain[0] = domain;
  s->cfg.blocks[0] = grid < s->data_blocks ? grid : s->data_blocks;
  lsk_program_options po = {.name = file};
  int rc = lsk_program_create(d->ctx, source, &po, &s->prog);
  if (!rc)
    rc = lsk_kernel_create(s->prog, name, &s->kernel);
  return rc;
}

static void step_close(step *s)
{
  lsk_kernel_destroy(s->kernel);
  lsk_program_destroy(s->prog);
  s->kernel = NULL;
  s->prog = NULL;
}

/* Two timed synchronous launches. reset, if not NULL, is filled with
 * SENTINEL before each (unless --inject-fault skips the second fill). */
static int step_run(demo *d, step *s, const lsk_arg *args, size_t nargs, lsk_buffer *reset)
{
  for (int i = 0; i < 2; ++i) {
    if (reset && !(i == 1 && d->inject_fault)) {
      uint32_t pattern = SENTINEL;
      int rc = lsk_buffer_fill(reset, &pattern, sizeof pattern, 0, lsk_buffer_size(reset), NULL);
      if (!rc)
        rc = lsk_context_finish(d->ctx);
      if (rc)
        return rc;
    }
    double t0 = cli_now();
    int rc = lsk_kernel_run(s->kernel, &s->cfg, args, nargs, NULL);
    /* A verify failure still ran the kernel; other failures show no time. */
    if (!rc || rc == LSK_EVERIFY)
      s->t[i] = cli_now() - t0;
    if (rc)
      return rc;
    if (i == 0) {
      /* Both known once the first launch has built the configuration. */
      lsk_program_stats st;
      if (lsk_program_stats_get(s->prog, &st) == LSK_OK)
        s->compiled = st.compiled > 0 ? 1 : st.cache_loads > 0 ? 0 : -1;
      if ((rc = lsk_kernel_shape(s->kernel, &s->cfg, &s->workers, &s->simd)))
        return rc;
    }
  }
  return LSK_OK;
}

/* Compares got with want(i) over n elements; fills s->check. 0 if equal. */
static int step_compare(step *s, const char *array, const uint32_t *got, size_t n,
                        uint32_t (*want)(const demo *, size_t), const demo *d)
{
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want(d, i) && wrong++ == 0)
      first = i;
  if (!wrong) {
    snprintf(s->check, sizeof s->check, "ok");
    return 0;
  }
  snprintf(s->check, sizeof s->check, "MISMATCH: %s[%zu] = %u, want %u (%zu of %zu wrong)", array,
           first, (unsigned)got[first], (unsigned)want(d, first), wrong, n);
  return 1;
}

/* An lsk failure inside a step: recorded for step_print. */
static int step_error(step *s, int rc)
{
  s->rc = rc;
  snprintf(s->check, sizeof s->check, "FAILED: %s", lsk_status_name(rc));
  return 1;
}

/* The step's line; after it, on stderr, the message of a failure. */
static void step_print(const demo *d, const step *s)
{
  char shape[48] = "-", blocks[48], t0[32] = "-", t1[32] = "-";
  if (s->workers)
    snprintf(shape, sizeof shape, "%u x %u", s->workers, s->simd);
  snprintf(blocks, sizeof blocks, "%zu/%zu", s->cfg.blocks[0], s->data_blocks);
  if (s->t[0] >= 0)
    snprintf(t0, sizeof t0, "%.2f ms%s", 1e3 * s->t[0],
             s->compiled == 1   ? " +build"
             : s->compiled == 0 ? " +cache"
                                : "");
  if (s->t[1] >= 0)
    snprintf(t1, sizeof t1, "%.2f ms", 1e3 * s->t[1]);
  printf("%-5s %-24s %6u %9s %11s %16s %10s  %s\n", s->name, s->what, s->cfg.domain[0], shape,
         blocks, t0, t1, s->check);
  if (s->rc)
    cli_fail_lsk("demo", d->ctx, s->rc, s->name);
}

static uint32_t want_iota(const demo *d, size_t i)
{
  (void)d;
  return (uint32_t)i;
}

static uint32_t want_var(const demo *d, size_t i)
{
  uint32_t a = d->x[i];
  return a * a + a;
}

static uint32_t want_sum(const demo *d, size_t b)
{
  uint32_t s = 0;
  size_t end = (b + 1) * SUM_DOMAIN < d->n ? (b + 1) * SUM_DOMAIN : d->n;
  for (size_t i = b * SUM_DOMAIN; i < end; ++i)
    s += d->x[i];
  return s;
}

/* (a) iota over a 256-index domain, workers and simd automatic. */
static int demo_iota(demo *d)
{
  step s;
  lsk_buffer *data = NULL;
  int rc = step_open(d, &s, "iota", "data[i] = i", "iota.cl", iota_cl, 256);
  if (!rc)
    rc = lsk_buffer_create(d->ctx, (size_t)d->n * 4, &data);
  if (!rc)
    rc = step_run(d, &s, LSK_ARGS(LSK_ARG_BUFFER(data), LSK_ARG_UINT(d->n), LSK_ARG_UINT(SENTINEL)),
                  data);
  if (!rc)
    rc = lsk_buffer_read(data, 0, d->got, (size_t)d->n * 4, NULL);
  int failed = rc ? step_error(&s, rc) : step_compare(&s, "data", d->got, d->n, want_iota, d);
  step_print(d, &s);
  lsk_buffer_destroy(data);
  step_close(&s);
  return failed;
}

/* (b) a context variable carries x[i] between two ForEach. */
static int demo_var(demo *d)
{
  step s;
  lsk_buffer *y = NULL;
  int rc = step_open(d, &s, "var", "y = x*x + x via LSK_VAR", "var.cl", var_cl, 512);
  if (!rc)
    rc = lsk_buffer_create(d->ctx, (size_t)d->n * 4, &y);
  if (!rc)
    rc = step_run(d, &s, LSK_ARGS(LSK_ARG_BUFFER(d->bx), LSK_ARG_BUFFER(y), LSK_ARG_UINT(d->n)),
                  NULL);
  if (!rc)
    rc = lsk_buffer_read(y, 0, d->got, (size_t)d->n * 4, NULL);
  int failed = rc ? step_error(&s, rc) : step_compare(&s, "y", d->got, d->n, want_var, d);
  step_print(d, &s);
  lsk_buffer_destroy(y);
  step_close(&s);
  return failed;
}

/* (c) block sums: partial sums in local memory, lsk_sync, LSK_MASTER. */
static int demo_sum(demo *d)
{
  step s;
  lsk_buffer *out = NULL;
  int rc = step_open(d, &s, "sum", "block sums, master+sync", "sum.cl", sum_cl, SUM_DOMAIN);
  if (!rc)
    rc = lsk_buffer_create(d->ctx, s.data_blocks * 4, &out);
  if (!rc)
    rc = step_run(d, &s, LSK_ARGS(LSK_ARG_BUFFER(d->bx), LSK_ARG_BUFFER(out), LSK_ARG_UINT(d->n)),
                  NULL);
  if (!rc)
    rc = lsk_buffer_read(out, 0, d->got, s.data_blocks * 4, NULL);
  int failed =
      rc ? step_error(&s, rc) : step_compare(&s, "out", d->got, s.data_blocks, want_sum, d);
  step_print(d, &s);
  lsk_buffer_destroy(out);
  step_close(&s);
  return failed;
}

/* `lsk demo tour`: the three kernels above. */
static int demo_tour(int argc, char **argv)
{
  demo d = {.n = DEFAULT_SIZE};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--inject-fault") == 0) {
      d.inject_fault = 1;
      continue;
    }
    if (strcmp(a, "--size") == 0 || strncmp(a, "--size=", 7) == 0) {
      const char *v = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
      unsigned long long n;
      int urc = cli_opt_size("demo", usage_text, "--size", v, 1, MAX_SIZE, &n);
      if (urc)
        return urc;
      d.n = (unsigned)n;
      continue;
    }
    return cli_usage("demo", usage_text, "%s '%s'",
                     a[0] == '-' ? "unknown option" : "unexpected argument", a);
  }

  if (cli_context_open("demo", &d.ctx))
    return 1;
  d.dev = lsk_context_device(d.ctx);
  int failed = 0, rc = 0;
  d.x = malloc((size_t)d.n * sizeof *d.x);
  d.got = malloc((size_t)d.n * sizeof *d.got);
  if (!d.x || !d.got) {
    rc = cli_fail("demo", "out of host memory for %u elements; try a smaller --size", d.n);
    goto demo_out;
  }
  for (size_t i = 0; i < d.n; ++i)
    d.x[i] = input(i);
  int lrc = lsk_buffer_create(d.ctx, (size_t)d.n * 4, &d.bx);
  if (!lrc)
    lrc = lsk_buffer_write(d.bx, 0, d.x, (size_t)d.n * 4, NULL);
  if (lrc) {
    rc = cli_fail_lsk("demo", d.ctx, lrc, "input buffer");
    if (lrc == LSK_ERANGE)
      cli_fail("demo", "try a smaller --size: at most %llu elements fit in one buffer on %s",
               (unsigned long long)(d.dev->max_alloc_size / 4), d.dev->name);
    goto demo_out;
  }

  printf("lsk %s demo on %s (%s), platform %u:%u %s%s%s%s\n", lsk_version(), d.dev->name,
         d.dev->is_gpu   ? "GPU"
         : d.dev->is_cpu ? "CPU"
                         : "other",
         d.dev->platform_index, d.dev->device_index, d.dev->platform_name,
         d.dev->shapes[0] ? ", shapes of the " : "", d.dev->shapes,
         d.dev->shapes[0] ? " model" : "");
  printf("%u uint elements per kernel; workers and simd automatic\n\n", d.n);
  printf("%-5s %-24s %6s %9s %11s %16s %10s  %s\n", "step", "what", "domain", "wrk x simd",
         "blocks", "first launch", "second", "check");
  fflush(stdout);
  static const struct {
    const char *name;
    int (*run)(demo *);
  } steps[] = {{"iota", demo_iota}, {"var", demo_var}, {"sum", demo_sum}};
  char names[64] = "";
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i)
    if (steps[i].run(&d)) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", failed++ ? ", " : "", steps[i].name);
    }
  printf("\nblocks: launched / data blocks walked with LSK_BLOCKS; first launch: including the\n"
         "build (+build) or the load from LSK_CACHE_DIR (+cache); times are wall clock of\n"
         "lsk_kernel_run (launch, wait, verify check)\n");
  if (failed)
    rc = cli_fail("demo", "%d of 3 steps failed on %s: %s", failed, d.dev->name, names);

demo_out:
  lsk_buffer_destroy(d.bx);
  lsk_context_destroy(d.ctx);
  free(d.x);
  free(d.got);
  return rc;
}

/* `lsk demo --help`: every demo, one line each (the one list: the names
 * cmd_demo dispatches; tests/cli_docs.sh reads it). */
static const char demo_list_text[] =
    "usage: lsk [--device SEL] demo [NAME] [options]\n"
    "The demos, each checked against plain C on the host:\n"
    "  pixel   pixel-detector clustering on SoA (the default, when no NAME is given)\n"
    "  tour    three small lockstep kernels: iota, a context variable, master and sync\n"
    "  pic     particle-in-cell on frames from a device pool\n"
    "  heat    a 2-D heat stencil on a grid with halos\n"
    "  sparse  a fire front over a sparse field, its blocks activated and deactivated\n"
    "`lsk demo NAME --help` lists NAME's options.\n";

/* `lsk demo`: the pixel pipeline (examples/pixel/demo.c; also `pixel`);
 * `tour`, `pic`, `heat` and `sparse` name the others; `--help` alone lists
 * them. */
int cmd_demo(int argc, char **argv)
{
  if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    fputs(demo_list_text, stdout);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "pixel") == 0)
    return pixel_demo(argc - 1, argv + 1); /* examples/pixel/demo.c */
  if (argc > 1 && strcmp(argv[1], "pic") == 0)
    return pic_demo(argc - 1, argv + 1); /* examples/pic/demo.c */
  if (argc > 1 && strcmp(argv[1], "heat") == 0)
    return heat_demo(argc - 1, argv + 1); /* examples/heat/demo.c */
  if (argc > 1 && strcmp(argv[1], "sparse") == 0)
    return sparse_demo(argc - 1, argv + 1); /* examples/sparse/demo.c */
  if (argc > 1 && strcmp(argv[1], "tour") == 0)
    return demo_tour(argc - 1, argv + 1);
  return pixel_demo(argc, argv); /* examples/pixel/demo.c */
}
