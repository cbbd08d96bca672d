/*
 * demo.c: `lsk demo pic`, the particle-in-cell binning example on frames
 * (pic.h) in the lsk command: particles in frames per cell of a periodic
 * 2-D grid, moved for a number of steps; after each checked step the
 * device's state is compared with the plain C reference step's: no
 * particle lost or duplicated, each in the cell its position says, the
 * pool's live cells equal to the frames in use, every cell holding the
 * same particles as the reference's. Exit 1 on any difference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "pic.h"
#include "pic_demo.h"

static const char *const usage_text =
    "usage: lsk [--device SEL] demo pic [--grid GXxGY] [--particles N] [--frame F]\n"
    "                                   [--steps S] [--check-every K] [--seed X]\n"
    "                                   [--trace FILE] [--profile]\n"
    "Particles in frames per cell of a periodic 2-D grid (frames from a device pool);\n"
    "each step moves them, migrates those that leave their cell, compacts each cell's\n"
    "frames, recycles empty ones and runs the pool's GC. Checked against plain C.\n"
    "The last line is the final state's checksum (as `lsk mpi pic` prints it).\n"
    "  --grid GXxGY      grid of cells (default 64x64; --size is the same)\n"
    "  --particles N     particles (default 262144; suffixes k, M, G: powers of 1024)\n"
    "  --frame F         particles per frame, a power of two from 8 to 4096 (default 128)\n"
    "  --steps S         steps (default 100)\n"
    "  --check-every K   compare with the reference every K steps (default 1; 0: only\n"
    "                    at the end); the reference steps every step regardless\n"
    "  --seed X          seed of the initial particles (default 1): drawn on the device\n"
    "                    from the counter-based generator (Philox4x32-10)\n"
    "  --trace FILE      record every launch and transfer of the run (set-up,\n"
    "                    steps, the checks' reads); write the timeline to FILE as\n"
    "                    trace-event JSON (ui.perfetto.dev, chrome://tracing, or\n"
    "                    docs/tools/trace_png.py to draw it)\n"
    "  --profile         print each kernel's and transfer's count, total and mean\n"
    "                    device time at the end\n";

typedef struct pic_run {
  lsk_context *ctx;
  lsk_pic *pic;
  unsigned gx, gy;
  size_t n;
  lsk_particle *ref, *got, *binned;
  uint32_t *cell, *start;
} pic_run;

static int cmp_id(const void *a, const void *b)
{
  uint32_t x = ((const lsk_particle *)a)->id, y = ((const lsk_particle *)b)->id;
  return (x > y) - (x < y);
}

/* The invariants and the comparison; returns 0 or prints what differs. */
static int check(pic_run *r, unsigned step, lsk_pic_stats *st)
{
  int rc = lsk_pic_read(r->pic, r->got, r->cell, r->n, st);
  if (rc)
    return cli_fail_lsk("demo pic", r->ctx, rc, "reading the frames");
  if (st->particles != r->n)
    return cli_fail("demo pic", "step %u: %zu particles in the frames, want %zu", step,
                    st->particles, r->n);
  if (st->pool.live != st->frames)
    return cli_fail("demo pic", "step %u: the pool has %zu live cells, the lists %zu frames", step,
                    st->pool.live, st->frames);
  for (size_t c = 0; c < (size_t)r->gx * r->gy; ++c) {
    size_t a = r->start[c], k = r->start[c + 1] - a;
    qsort(r->got + a, k, sizeof *r->got, cmp_id);
    qsort(r->binned + a, k, sizeof *r->binned, cmp_id);
    for (size_t i = a; i < a + k; ++i) {
      const lsk_particle *g = &r->got[i];
      uint32_t at = (uint32_t)(g->y / LSK_PIC_UNIT) * r->gx + (uint32_t)(g->x / LSK_PIC_UNIT);
      if (r->cell[i] != c || at != c)
        return cli_fail("demo pic", "step %u: particle %u at %d,%d is in cell %u", step, g->id,
                        g->x, g->y, r->cell[i]);
      if (memcmp(g, &r->binned[i], sizeof *g))
        return cli_fail("demo pic", "step %u, cell %zu: particle %u differs from the C reference",
                        step, c, g->id);
    }
  }
  /* Sorted ids must be 1..n: nothing lost, nothing doubled. */
  qsort(r->got, r->n, sizeof *r->got, cmp_id);
  for (size_t i = 0; i < r->n; ++i)
    if (r->got[i].id != i + 1)
      return cli_fail("demo pic", "step %u: particle %zu lost or doubled", step, i + 1);
  return 0;
}

static int run(pic_run *r, unsigned fs, unsigned steps, unsigned every, unsigned seed)
{
  const lsk_device_info *d = lsk_context_device(r->ctx);
  double t0 = cli_now();
  /* Particles 1..n from the counter-based generator: the same for any
   * shape or number of ranks (`lsk mpi pic` draws them so too). */
  int rc = lsk_pic_generate(r->ctx, r->gx, r->gy, seed, 1, r->n, NULL, r->ref);
  if (rc)
    return cli_fail_lsk("demo pic", r->ctx, rc, "drawing the particles");
  rc = lsk_pic_create(r->ctx, r->gx, r->gy, r->ref, r->n, &(lsk_pic_options){.frame_size = fs},
                      &r->pic);
  if (rc)
    return cli_fail_lsk("demo pic", r->ctx, rc, NULL);
  printf("lsk %s demo pic on %s: %zu particles, %ux%u cells, frames of %u (set up in %.0f ms)\n",
         lsk_version(), d->name, r->n, r->gx, r->gy, fs, 1e3 * (cli_now() - t0));
  printf("%6s %10s %8s %8s %8s %12s %12s  %s\n", "step", "left cell", "frames", "pool", "grows",
         "device ms", "C ms", "check");
  double dev = 0, ref = 0;
  lsk_pic_stats st = {0};
  for (unsigned s = 1; s <= steps; ++s) {
    /* A step that is checked puts its particles into their frames within
     * the timing; otherwise the next step does. */
    int checked = (every && s % every == 0) || s == steps;
    double a = cli_now();
    if ((rc = lsk_pic_step(r->pic)) || (checked && (rc = lsk_pic_settle(r->pic))) ||
        (rc = lsk_context_finish(r->ctx)))
      return cli_fail_lsk("demo pic", r->ctx, rc, "step");
    double b = cli_now();
    lsk_pic_reference_step(r->gx, r->gy, r->ref, r->n, r->binned, r->start);
    double c = cli_now();
    if (s > 1 || steps == 1) { /* the first step builds the kernels */
      dev += b - a;
      ref += c - b;
    }
    if (checked && check(r, s, &st))
      return 1;
    if (checked && (s == steps || s <= 3 || s % (steps / 10 ? steps / 10 : 1) == 0))
      printf("%6u %10zu %8zu %8zu %8zu %12.3f %12.3f  ok\n", s, st.left, st.frames,
             st.pool.capacity, st.grows, 1e3 * (b - a), 1e3 * (c - b));
  }
  unsigned timed = steps > 1 ? steps - 1 : 1;
  printf("\nsteps 2 to %u: device %.3f ms per step (%.1f M particles/s), C reference %.3f ms "
         "(%.1f M particles/s); wall clock, one wait per step\n",
         steps, 1e3 * dev / timed, (double)r->n * timed / dev / 1e6, 1e3 * ref / timed,
         (double)r->n * timed / ref / 1e6);
  /* The last step was checked: got holds the final state. */
  uint64_t sum;
  if ((rc = lsk_pic_checksum(r->got, r->n, &sum)))
    return cli_fail_lsk("demo pic", NULL, rc, "checksum");
  printf("state checksum: %016llx\n", (unsigned long long)sum);
  return 0;
}

int pic_demo(int argc, char **argv)
{
  pic_run r = {.gx = 64, .gy = 64, .n = 262144};
  unsigned fs = 128, steps = 100, every = 1, seed = 1;
  const char *trace = NULL;
  int profile = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--profile") == 0) {
      profile = 1;
      continue;
    }
    if (!v)
      return cli_usage("demo pic", usage_text, "%s '%s'",
                       a[0] == '-' ? "option needs a value or is unknown:" : "unexpected argument",
                       a);
    ++i;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    unsigned long long n;
    if (strcmp(a, "--trace") == 0) {
      if (!*v)
        return cli_usage("demo pic", usage_text, "--trace needs a file name");
      trace = v;
    } else if (strcmp(a, "--grid") == 0 || strcmp(a, "--size") == 0) {
      unsigned long y = *end == 'x' ? strtoul(end + 1, &end, 10) : 0;
      if (*end || x == 0 || y == 0 || x > LSK_PIC_MAX_EXTENT || y > LSK_PIC_MAX_EXTENT)
        return cli_usage("demo pic", usage_text, "bad grid '%s': expected GXxGY such as 64x64", v);
      r.gx = (unsigned)x;
      r.gy = (unsigned)y;
    } else if (strcmp(a, "--particles") == 0) {
      int urc = cli_opt_size("demo pic", usage_text, a, v, 1, LSK_PIC_DEMO_MAX_PARTICLES, &n);
      if (urc)
        return urc;
      r.n = (size_t)n;
    } else if (cli_parse_uint(v, strcmp(a, "--check-every") != 0, 1000000, &n)) {
      return cli_usage("demo pic", usage_text, "bad value '%s' for %s", v, a);
    } else if (strcmp(a, "--frame") == 0) {
      fs = (unsigned)n;
    } else if (strcmp(a, "--steps") == 0) {
      steps = (unsigned)n;
    } else if (strcmp(a, "--check-every") == 0) {
      every = (unsigned)n;
    } else if (strcmp(a, "--seed") == 0) {
      seed = (unsigned)n;
    } else {
      return cli_usage("demo pic", usage_text, "unknown option '%s'", a);
    }
  }
  size_t cells = (size_t)r.gx * r.gy;
  r.ref = malloc(r.n * sizeof *r.ref);
  r.got = malloc(r.n * sizeof *r.got);
  r.binned = malloc(r.n * sizeof *r.binned);
  r.cell = malloc(r.n * sizeof *r.cell);
  r.start = malloc((cells + 1) * sizeof *r.start);
  int rc = 0;
  if (!r.ref || !r.got || !r.binned || !r.cell || !r.start)
    rc = cli_fail("demo pic", "out of host memory for %zu particles", r.n);
  /* --trace, --profile: the context records its commands (trace.h). */
  lsk_context_options copt = {.trace = trace || profile};
  if (!rc && cli_context_open_opt("demo pic", &copt, &r.ctx))
    rc = 1;
  if (!rc)
    rc = run(&r, fs, steps, every, seed);
  if (!rc && (trace || profile))
    rc = cli_trace_finish("demo pic", r.ctx, trace, profile);
  lsk_pic_destroy(r.pic);
  lsk_context_destroy(r.ctx);
  free(r.ref);
  free(r.got);
  free(r.binned);
  free(r.cell);
  free(r.start);
  return rc;
}
