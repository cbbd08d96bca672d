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
    "  --particles N    particles (default 262144; suffixes k, M)\n"
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

/* `lsk mpi pic`: the binning example over the ranks (pic_mpi.h). A
 * hidden --fail-at RANK:STEP makes that rank fail in that step, for the
 * tests of a failure reaching every rank. */
int pic_demo_mpi(lsk_mpi *m, int argc, char **argv)
{
  static const char cmd[] = "mpi pic";
  lsk_pic_mpi_options o = {
      .gx = 64, .gy = 64, .particles = 262144, .steps = 100, .seed = 1, .fail_rank = -1};
  int bad = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      if (lsk_mpi_rank(m) == 0)
        fputs(pic_usage, stdout);
      return 0;
    }
    if (strcmp(a, "--reference") == 0) {
      o.reference = 1;
      continue;
    }
    if (!v) {
      bad = 1;
      break;
    }
    ++i;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    unsigned r, s;
    if (strcmp(a, "--size") == 0 || strcmp(a, "--grid") == 0)
      bad = pic_pair(v, &o.gx, &o.gy) || !o.gx || !o.gy;
    else if (strcmp(a, "--parts") == 0)
      bad = pic_pair(v, &o.parts[0], &o.parts[1]);
    else if (strcmp(a, "--fail-at") == 0) {
      bad = pic_pair(v, &r, &s);
      o.fail_rank = (int)r;
      o.fail_step = s;
    } else if (strcmp(a, "--particles") == 0) {
      x <<= *end == 'k' ? 10 : *end == 'M' ? 20 : 0;
      end += *end == 'k' || *end == 'M';
      bad = *end != 0;
      o.particles = (size_t)x;
    } else {
      bad = *end != 0 || end == v || x > 1000000000u;
      if (strcmp(a, "--steps") == 0)
        o.steps = (unsigned)x;
      else if (strcmp(a, "--seed") == 0)
        o.seed = x;
      else if (strcmp(a, "--frame") == 0)
        o.frame_size = (unsigned)x;
      else if (strcmp(a, "--check-every") == 0)
        o.check_every = (unsigned)x;
      else
        bad = 1;
    }
  }
  int rank = lsk_mpi_rank(m);
  if (bad)
    return rank == 0 ? cli_usage(cmd, pic_usage, "bad option or value") : 2;
  lsk_pic_mpi_result res;
  int rc = lsk_pic_mpi_run(m, &o, &res);
  if (rc)
    return rank == 0 ? cli_fail_lsk(cmd, lsk_mpi_context(m), rc, NULL) : 1;
  if (rank == 0) {
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
