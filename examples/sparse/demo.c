/*
 * demo.c: `lsk demo sparse`, the sparse-front example (front.h) in the lsk
 * command: a fire front spreading over an n x n sparse grid (pointer blocks
 * of 16 x 16 cells), blocks activated ahead of it and deactivated behind.
 * After every checked step the device's cells and its set of active blocks
 * are compared with the C model's (front_ref.c); exit 1 on any difference.
 * The last line is a checksum of the device's final u and b.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "front.h"
#include "parse.h"
#include "sparse_demo.h"

static const char cmd[] = "demo sparse";

static const char usage_text[] =
    "usage: lsk [--device SEL] demo sparse [--size N] [--steps S] [--radius R] [--pool B]\n"
    "                                      [--check-every K]\n"
    "A fire front spreading outward over an N x N sparse field (pointer blocks of\n"
    "16 x 16 cells): each step diffuses and burns over the active blocks (a struct-for\n"
    "reading neighbours as zero where their block is inactive), deactivates blocks that\n"
    "have cooled, and activates the blocks next to hot cells. Checked against a plain C\n"
    "model of the same grid (dense arrays and a flag per block).\n"
    "  --size N          cells per side, a power of two from 32 to 32768 (default 1024)\n"
    "  --steps S         steps (default 500)\n"
    "  --radius R        the hot disc at the start, in cells (default 8)\n"
    "  --pool B          leaf blocks in the pool at first (default: lsk's, a quarter of\n"
    "                    all); a pool that runs out is grown and the step's spread rerun\n"
    "  --check-every K   compare with the model every K steps (default 1; 0: only at\n"
    "                    the end); the model steps every step regardless\n";

typedef struct demo_opts {
  unsigned size, steps, radius, every;
  size_t pool;
} demo_opts;

static int parse(int argc, char **argv, demo_opts *o)
{
  *o = (demo_opts){.size = 1024, .steps = 500, .radius = 8, .every = 1};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return -1;
    }
    unsigned long long n;
    int rc;
    if (strcmp(a, "--size") == 0) {
      if ((rc = cli_opt_uint(cmd, usage_text, a, v, LSK_FRONT_MIN, LSK_FRONT_MAX, &n)))
        return rc;
      if (n & (n - 1))
        return cli_usage(cmd, usage_text, "bad value '%s' for --size: a power of two wanted", v);
      o->size = (unsigned)n;
    } else if (strcmp(a, "--steps") == 0) {
      if ((rc = cli_opt_uint(cmd, usage_text, a, v, 0, 1000000, &n)))
        return rc;
      o->steps = (unsigned)n;
    } else if (strcmp(a, "--radius") == 0) {
      if ((rc = cli_opt_uint(cmd, usage_text, a, v, 1, LSK_FRONT_MAX / 2 - 1, &n)))
        return rc;
      o->radius = (unsigned)n;
    } else if (strcmp(a, "--pool") == 0) {
      if ((rc = cli_opt_uint(cmd, usage_text, a, v, 1, 1u << 22, &n)))
        return rc;
      o->pool = (size_t)n;
    } else if (strcmp(a, "--check-every") == 0) {
      if ((rc = cli_opt_uint(cmd, usage_text, a, v, 0, 1000000, &n)))
        return rc;
      o->every = (unsigned)n;
    } else {
      return cli_usage(cmd, usage_text, "%s '%s'",
                       a[0] == '-' ? "unknown option" : "unexpected argument", a);
    }
    ++i;
  }
  if (o->radius >= o->size / 2)
    return cli_usage(cmd, usage_text, "--radius %u must be below half the size %u", o->radius,
                     o->size);
  return 0;
}

/* FNV-1a (64 bits) over the floats' bytes, little-endian, in order. */
static uint64_t fnv(uint64_t h, const float *x, size_t n)
{
  for (size_t i = 0; i < n; ++i) {
    uint32_t w;
    memcpy(&w, &x[i], 4);
    for (int k = 0; k < 4; ++k) {
      h ^= (w >> (8 * k)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

typedef struct demo_run {
  lsk_context *ctx;
  lsk_front *f;
  lsk_front_model m;
  float *u, *b;
  uint8_t *act;
} demo_run;

/* The device's state against the model's after step s: 0, or 1 printed. */
static int check(demo_run *r, unsigned s, size_t *inexact, double *max_diff)
{
  int rc = lsk_front_read(r->f, r->u, r->b, r->act);
  if (rc)
    return cli_fail_lsk(cmd, r->ctx, rc, "reading the grid");
  lsk_front_diff d;
  int same = lsk_front_compare(&r->m, r->u, r->b, r->act, 1e-6f, &d);
  *inexact += d.inexact;
  if (d.max_diff > *max_diff)
    *max_diff = d.max_diff;
  if (d.blocks)
    return cli_fail(cmd,
                    "step %u: %zu blocks differ from the C model, first (%u, %u): %s on the "
                    "device",
                    s, d.blocks, d.bi, d.bj, d.active ? "active" : "inactive");
  if (!same)
    return cli_fail(cmd,
                    "step %u: %zu cells differ from the C model, first %c(%u, %u) = %.9g, "
                    "the model's %.9g",
                    s, d.cells, d.field, d.i, d.j, (double)d.got, (double)d.want);
  return 0;
}

static int run(demo_run *r, const demo_opts *o)
{
  lsk_front_params p;
  lsk_front_params_default(&p);
  double t0 = cli_now();
  lsk_front_options fo = {.size = o->size, .radius = o->radius, .pool_blocks = o->pool};
  int rc = lsk_front_create(r->ctx, &fo, &r->f);
  if (rc)
    return cli_fail_lsk(cmd, r->ctx, rc, NULL);
  if ((rc = lsk_front_model_init(&r->m, o->size, o->radius)))
    return cli_fail_lsk(cmd, NULL, rc, NULL);
  size_t cells = (size_t)o->size * o->size, nbb = (size_t)r->m.nb * r->m.nb;
  r->u = malloc(cells * sizeof *r->u);
  r->b = malloc(cells * sizeof *r->b);
  r->act = malloc(nbb);
  if (!r->u || !r->b || !r->act)
    return cli_fail(cmd, "out of host memory for %ux%u cells", o->size, o->size);
  /* The pool after the initial disc (which may have grown it). */
  lsk_sparse_level_stats st[2];
  if ((rc = lsk_sparse_stats_get(lsk_front_sparse(r->f), st, 2, NULL)))
    return cli_fail_lsk(cmd, r->ctx, rc, "statistics");
  printf("lsk %s demo sparse on %s: %ux%u cells (pointer %ux%u blocks over dense 16x16), "
         "%u steps, a disc of radius %u on %llu blocks, a pool of %zu (set up in %.0f ms)\n",
         lsk_version(), lsk_context_device(r->ctx)->name, o->size, o->size, r->m.nb, r->m.nb,
         o->steps, o->radius, (unsigned long long)st[0].active, st[0].pool_blocks,
         1e3 * (cli_now() - t0));
  printf("%6s %8s %6s %6s %7s %6s %10s %10s  %s\n", "step", "active", "+on", "-off", "pool",
         "grows", "device ms", "C ms", "check");
  size_t inexact = 0, checks = 0, most = 0, on_total = 0, off_total = 0, active_cells = 0;
  double max_diff = 0, dev = 0, ref = 0;
  unsigned grows = 0;
  /* The initial state first (front_init's activation). */
  if ((rc = check(r, 0, &inexact, &max_diff)))
    return rc;
  ++checks;
  most = lsk_front_model_active(&r->m);
  uint8_t *before = malloc(nbb);
  if (!before)
    return cli_fail(cmd, "out of host memory");
  for (unsigned s = 1; !rc && s <= o->steps; ++s) {
    memcpy(before, r->m.active, nbb);
    lsk_front_step_info info;
    double a = cli_now();
    if ((rc = lsk_front_step(r->f, &info))) {
      rc = cli_fail_lsk(cmd, r->ctx, rc, "step");
      break;
    }
    double b = cli_now();
    lsk_front_model_step(&r->m, &p);
    double c = cli_now();
    size_t on = 0, off = 0, active = 0;
    for (size_t k = 0; k < nbb; ++k) {
      on += r->m.active[k] && !before[k];
      off += !r->m.active[k] && before[k];
      active += r->m.active[k];
    }
    on_total += on;
    off_total += off;
    most = active > most ? active : most;
    grows += info.grows;
    if (s > 1 || o->steps == 1) { /* the first step builds the kernels */
      dev += b - a;
      ref += c - b;
      active_cells += active * LSK_FRONT_BLOCK * LSK_FRONT_BLOCK;
    }
    int checked = (o->every && s % o->every == 0) || s == o->steps;
    if (checked && (rc = check(r, s, &inexact, &max_diff)))
      break;
    checks += checked;
    if (s <= 3 || s == o->steps || s % (o->steps / 10 ? o->steps / 10 : 1) == 0)
      printf("%6u %8zu %6zu %6zu %7zu %6u %10.3f %10.3f  %s\n", s, active, on, off, info.pool,
             info.grows, 1e3 * (b - a), 1e3 * (c - b), checked ? "ok" : "-");
  }
  free(before);
  if (rc)
    return rc;
  unsigned timed = o->steps > 1 ? o->steps - 1 : 1;
  printf("\n%zu blocks activated, %zu deactivated, at most %zu of %zu active at once; the pool "
         "grew %u times\n",
         on_total, off_total, most, nbb, grows);
  if (inexact)
    printf("%zu checks against the C model: every block's activity equal, every cell within "
           "1e-6 (%zu not bit for bit, the largest difference %.3g)\n",
           checks, inexact, max_diff);
  else
    printf("%zu checks against the C model: every cell (bit for bit) and every block's activity "
           "equal\n",
           checks);
  if (o->steps)
    printf("steps 2 to %u: device %.3f ms per step (%.1f M active cells/s), C model %.3f ms "
           "per step; wall clock, one wait per step (lsk_sparse_check)\n",
           o->steps, 1e3 * dev / timed, dev > 0 ? (double)active_cells / dev / 1e6 : 0.0,
           1e3 * ref / timed);
  /* The last step was checked: u and b hold the device's final state. */
  uint64_t h = fnv(fnv(0xcbf29ce484222325ull, r->u, cells), r->b, cells);
  printf("state checksum: %016llx\n", (unsigned long long)h);
  return 0;
}

int sparse_demo(int argc, char **argv)
{
  demo_opts o;
  int rc = parse(argc, argv, &o);
  if (rc)
    return rc < 0 ? 0 : rc;
  demo_run r = {0};
  if (cli_context_open(cmd, &r.ctx))
    return 1;
  rc = run(&r, &o);
  lsk_front_destroy(r.f);
  lsk_front_model_free(&r.m);
  lsk_context_destroy(r.ctx);
  free(r.u);
  free(r.b);
  free(r.act);
  return rc;
}
