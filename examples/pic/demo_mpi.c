/*
 * demo_mpi.c: `lsk mpi pic`, the binning example over MPI ranks
 * (pic_mpi.h) in the lsk command: options, the run, and on rank 0 the
 * result; the command's cmd_mpi.c has made the ranks (MPI_Init,
 * lsk_mpi_create) and ends them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "pic_demo.h"
#include "pic_mpi.h"

static const char pic_usage[] =
    "usage: mpirun -n N lsk [--device SEL] mpi pic [--size GXxGY] [--particles N] [--steps S]\n"
    "                                              [--seed X] [--frame F] [--parts PXxPY]\n"
    "                                              [--check-every K] [--reference]\n"
    "The particle-in-cell binning example (`lsk demo pic`) over MPI ranks: each rank\n"
    "holds the cells of its box, particles that leave it migrate to the rank owning\n"
    "their new cell (counts, then payload), the invariants are checked over all ranks.\n"
    "The last line is the final state's checksum, the same as `lsk demo pic` with the\n"
    "same options, for any number of ranks.\n"
    "  --size GXxGY     grid of cells (default 64x64)\n"
    "  --particles N    particles (default 262144; suffixes k, M, G: powers of 1024)\n"
    "  --steps S        steps (default 100)\n"
    "  --seed X         seed of the initial particles (default 1)\n"
    "  --frame F        particles per frame (default 128)\n"
    "  --parts PXxPY    ranks along x and y (default: MPI_Dims_create)\n"
    "  --check-every K  the global invariants every K steps (default 1)\n"
    "  --reference      rank 0 also runs the plain C reference and compares\n"
    "                   every particle at the end\n";

static int pic_pair(const char *v, unsigned *a, unsigned *b)
{
  char *end;
  unsigned long x = strtoul(v, &end, 10),
                y = *end == 'x' || *end == ':' ? strtoul(end + 1, &end, 10) : 0;
  if (*end || x > 1000000 || y > 1000000 || end == v)
    return -1;
  *a = (unsigned)x;
  *b = (unsigned)y;
  return 0;
}

/* A usage error about option a's value v (want: what it takes), said on
 * rank 0 only; its exit status. */
static int bad_value(int root, const char *a, const char *v, const char *want)
{
  return root ? cli_usage("mpi pic", pic_usage, "bad value '%s' for %s: %s wanted", v, a, want) : 2;
}

/* One option a with its value v into o: 0, or a usage error's status. */
static int parse_option(lsk_pic_mpi_options *o, const char *a, const char *v, int root)
{
  static const char cmd[] = "mpi pic";
  unsigned long long x = 0;
  unsigned r, s;
  if (strcmp(a, "--size") == 0 || strcmp(a, "--grid") == 0)
    return pic_pair(v, &o->gx, &o->gy) || !o->gx || !o->gy
               ? bad_value(root, a, v, "GXxGY, each from 1 to 1000000,")
               : 0;
  if (strcmp(a, "--parts") == 0)
    return pic_pair(v, &o->parts[0], &o->parts[1])
               ? bad_value(root, a, v, "PXxPY, each from 0 to 1000000,")
               : 0;
  if (strcmp(a, "--fail-at") == 0) {
    if (pic_pair(v, &r, &s))
      return bad_value(root, a, v, "RANK:STEP");
    o->fail_rank = (int)r;
    o->fail_step = s;
    return 0;
  }
  /* The numbers: parsed quietly on every rank; rank 0 says what is wrong
   * (cli_opt_*: the same message as every other option's). */
  if (strcmp(a, "--particles") == 0) {
    /* The one size rule (cli_parse_size), as `lsk demo pic --particles`. */
    if (cli_parse_size(v, 1, LSK_PIC_DEMO_MAX_PARTICLES, &x))
      return root ? cli_opt_size(cmd, pic_usage, a, v, 1, LSK_PIC_DEMO_MAX_PARTICLES, &x) : 2;
    o->particles = (size_t)x;
    return 0;
  }
  unsigned *to = strcmp(a, "--steps") == 0         ? &o->steps
                 : strcmp(a, "--frame") == 0       ? &o->frame_size
                 : strcmp(a, "--check-every") == 0 ? &o->check_every
                                                   : NULL;
  if (!to && strcmp(a, "--seed") != 0)
    return root ? cli_usage(cmd, pic_usage, "unknown option '%s'", a) : 2;
  if (cli_parse_uint(v, 0, 1000000000, &x))
    return root ? cli_opt_uint(cmd, pic_usage, a, v, 0, 1000000000, &x) : 2;
  if (to)
    *to = (unsigned)x;
  else
    o->seed = x;
  return 0;
}

/* `lsk mpi pic`: the binning example over the ranks (pic_mpi.h). A
 * hidden --fail-at RANK:STEP makes that rank fail in that step, for the
 * tests of a failure reaching every rank. */
int pic_demo_mpi(lsk_mpi *m, int argc, char **argv)
{
  static const char cmd[] = "mpi pic";
  lsk_pic_mpi_options o = {
      .gx = 64, .gy = 64, .particles = 262144, .steps = 100, .seed = 1, .fail_rank = -1};
  int root = lsk_mpi_rank(m) == 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      if (root)
        fputs(pic_usage, stdout);
      return 0;
    }
    if (strcmp(a, "--reference") == 0) {
      o.reference = 1;
      continue;
    }
    if (!v)
      return root ? cli_usage(cmd, pic_usage, "option needs a value or is unknown: '%s'", a) : 2;
    int rc = parse_option(&o, a, v, root);
    if (rc)
      return rc;
    ++i;
  }
  lsk_pic_mpi_result res;
  int rc = lsk_pic_mpi_run(m, &o, &res);
  if (rc)
    return root ? cli_fail_lsk(cmd, lsk_mpi_context(m), rc, NULL) : 1;
  if (root) {
    printf("lsk %s mpi pic: %d ranks (%ux%u), %zu particles, %ux%u cells, %u steps, seed %llu\n",
           lsk_version(), lsk_mpi_size(m), res.parts[0], res.parts[1], o.particles, o.gx, o.gy,
           o.steps, (unsigned long long)o.seed);
    if (res.timed && res.seconds > 0)
      printf("%.3f ms per step (%.1f steps/s, steps %u to %u, with their checks); %llu particles "
             "changed rank (%llu past the next rank; at most %llu from one rank in one step)\n",
             1e3 * res.seconds / res.timed, res.timed / res.seconds, o.steps - res.timed + 1,
             o.steps, (unsigned long long)res.migrated, (unsigned long long)res.far,
             (unsigned long long)res.most);
    if (o.reference)
      printf("every particle equal to the C reference\n");
    printf("state checksum: %016llx\n", (unsigned long long)res.checksum);
  }
  return 0;
}
