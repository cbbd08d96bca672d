/*
 * demo.c: `lsk demo heat`, the heat-diffusion example (heat.h) in the lsk
 * command: the grid as one box on one device (its periodic guards filled
 * on the device by lsk_halo_fill); and the options it shares with `lsk mpi
 * heat` (demo_mpi.c: decomposed over MPI ranks, heat_mpi.h). Both print,
 * as their last line, "state checksum: " and the final grid's hash: the
 * same for every decomposition, and checked against the plain C reference.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "heat.h"
#include "heat_demo.h"
#include "parse.h"

static const char usage_text[] =
    "usage: lsk [--device SEL] demo heat [--size GXxGY] [--steps S] [--seed X] [--alpha A]\n"
    "                                    [--no-check]\n"
    "       mpirun -n N lsk [--device SEL] mpi heat [the same options] [--parts PXxPY]\n"
    "2-D heat diffusion (explicit 5-point stencil), periodic in x, 0 beyond the first\n"
    "and last rows; one box with guard cells on one device, or one per MPI rank with\n"
    "the halo exchanged while the interior is computed. The last line is the final\n"
    "grid's checksum, the same for any number of ranks.\n"
    "  --size GXxGY   grid of cells (default 256x256)\n"
    "  --steps S      steps (default 100)\n"
    "  --seed X       seed of the initial field (default 1)\n"
    "  --alpha A      diffusion number in (0, 0.25] (default 0.2)\n"
    "  --parts PXxPY  ranks along x and y (mpi heat; default: MPI_Dims_create)\n"
    "  --no-check     skip the comparison with the C reference\n";

int heat_demo_parse(const char *cmd, int argc, char **argv, heat_demo_options *o)
{
  *o =
      (heat_demo_options){.gx = 256, .gy = 256, .steps = 100, .seed = 1, .alpha = 0.2f, .check = 1};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return -1;
    }
    if (strcmp(a, "--no-check") == 0) {
      o->check = 0;
      continue;
    }
    if (!v)
      return cli_usage(cmd, usage_text, "%s '%s'",
                       a[0] == '-' ? "option needs a value or is unknown:" : "unexpected argument",
                       a);
    ++i;
    unsigned long long n;
    if (strcmp(a, "--size") == 0 || strcmp(a, "--parts") == 0) {
      char *end;
      unsigned long x = strtoul(v, &end, 10), y = *end == 'x' ? strtoul(end + 1, &end, 10) : 0;
      if (*end || x == 0 || y == 0 || x > 65536 || y > 65536)
        return cli_usage(cmd, usage_text, "bad %s '%s': expected AxB such as 256x128", a, v);
      if (a[2] == 's')
        o->gx = x, o->gy = y;
      else
        o->parts[0] = (unsigned)x, o->parts[1] = (unsigned)y;
    } else if (strcmp(a, "--alpha") == 0) {
      char *end;
      double al = strtod(v, &end);
      if (*end || !(al > 0 && al <= 0.25))
        return cli_usage(cmd, usage_text, "bad --alpha '%s': expected (0, 0.25]", v);
      o->alpha = (float)al;
    } else if (cli_parse_uint(v, 0, 100000000, &n)) {
      return cli_usage(cmd, usage_text, "bad value '%s' for %s", v, a);
    } else if (strcmp(a, "--steps") == 0) {
      o->steps = (unsigned)n;
    } else if (strcmp(a, "--seed") == 0) {
      o->seed = n;
    } else {
      return cli_usage(cmd, usage_text, "unknown option '%s'", a);
    }
  }
  return 0;
}

/* The own cells of the whole-grid box, x fastest. */
static int read_grid(lsk_heat *h, const lsk_grid_box *b, float *out)
{
  size_t s[3], n = lsk_grid_box_storage(b, s);
  float *col = malloc(n * sizeof *col);
  if (!col)
    return LSK_ENOMEM;
  int rc = lsk_buffer_read(lsk_heat_field(h), 0, col, n * sizeof *col, NULL);
  for (size_t y = 0; !rc && y < b->extent[1]; ++y)
    memcpy(out + y * b->extent[0], col + lsk_grid_box_index(b, 0, y, 0),
           b->extent[0] * sizeof *col);
  free(col);
  return rc;
}

int heat_demo(int argc, char **argv)
{
  static const char cmd[] = "demo heat";
  heat_demo_options o;
  int rc = heat_demo_parse(cmd, argc, argv, &o);
  if (rc)
    return rc < 0 ? 0 : rc;
  lsk_grid_box box;
  if (lsk_grid_split(2, (size_t[3]){o.gx, o.gy, 1}, (unsigned[3]){1, 1, 1}, (unsigned[3]){0, 0, 0},
                     1, (int[3]){1, 0, 0}, &box))
    return cli_fail_lsk(cmd, NULL, LSK_EINVAL, "the grid");
  lsk_context *ctx;
  if (cli_context_open(cmd, &ctx))
    return 1;
  lsk_heat *h = NULL;
  lsk_halo *halo = NULL;
  float *got = malloc(o.gx * o.gy * sizeof *got), *want = malloc(o.gx * o.gy * sizeof *want);
  lsk_heat_options ho = {.alpha = o.alpha, .seed = o.seed};
  if (!got || !want)
    rc = cli_fail(cmd, "out of host memory");
  else if ((rc = lsk_heat_create(ctx, &box, &ho, &h)) || (rc = lsk_halo_create(ctx, &box, &halo)))
    rc = cli_fail_lsk(cmd, ctx, rc, NULL);
  double dev = 0;
  if (!rc) {
    printf("lsk %s demo heat on %s: %zux%zu cells, %u steps, alpha %g\n", lsk_version(),
           lsk_context_device(ctx)->name, o.gx, o.gy, o.steps, (double)o.alpha);
    /* The first step builds the kernels: not timed. */
    for (unsigned s = 0; !rc && s < o.steps; ++s) {
      double t0 = cli_now();
      if ((rc = lsk_heat_step(h, halo)) || (rc = lsk_context_finish(ctx)))
        rc = cli_fail_lsk(cmd, ctx, rc, "step");
      if (s > 0)
        dev += cli_now() - t0;
    }
  }
  if (!rc && (rc = read_grid(h, &box, got)))
    rc = cli_fail_lsk(cmd, ctx, rc, "reading the grid");
  if (!rc && o.check) {
    for (size_t y = 0; y < o.gy; ++y)
      for (size_t x = 0; x < o.gx; ++x)
        want[y * o.gx + x] = lsk_heat_initial(o.seed, x, y);
    double t0 = cli_now();
    lsk_heat_reference(o.gx, o.gy, o.alpha, o.steps, want);
    double ref = cli_now() - t0;
    for (size_t i = 0; !rc && i < o.gx * o.gy; ++i)
      if (memcmp(&got[i], &want[i], sizeof *got))
        rc = cli_fail(cmd, "cell (%zu, %zu) is %.9g, the C reference %.9g", i % o.gx, i / o.gx,
                      (double)got[i], (double)want[i]);
    if (!rc)
      printf("every cell equal to the C reference (bit for bit); C: %.3f ms per step\n",
             1e3 * ref / (o.steps ? o.steps : 1));
  }
  if (!rc) {
    if (o.steps > 1)
      printf("device: %.3f ms per step (%.1f M cells/s), one wait per step\n",
             1e3 * dev / (o.steps - 1), (double)o.gx * o.gy * (o.steps - 1) / dev / 1e6);
    printf("state checksum: %016llx\n", (unsigned long long)lsk_heat_checksum(got, o.gx * o.gy));
  }
  lsk_halo_destroy(halo);
  lsk_heat_destroy(h);
  lsk_context_destroy(ctx);
  free(got);
  free(want);
  return rc;
}
