/*
 * pic_mpi_main.c: lsk_pic_mpi_run as a program of its own, for the tests
 * (examples/pic/mpi_checksums.sh) until `lsk mpi pic` runs it:
 *   mpirun -n N lsk_pic_mpi_run [--size GXxGY] [--particles N] [--steps S]
 *          [--seed X] [--frame F] [--parts PXxPY] [--check-every K]
 *          [--reference] [--fail-at RANK:STEP]
 * The defaults are `lsk demo pic`'s; rank 0 prints the run and, last,
 * "state checksum: " and 16 hex digits, as `lsk demo pic` does with the
 * same options. A failure on any rank ends every rank, rank 0 printing
 * the message; exit status 1 (2: bad usage).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pic_mpi.h"

static int pair(const char *v, unsigned *a, unsigned *b)
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

int main(int argc, char **argv)
{
  lsk_pic_mpi_options o = {
      .gx = 64, .gy = 64, .particles = 262144, .steps = 100, .seed = 1, .fail_rank = -1};
  int bad = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
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
      bad = pair(v, &o.gx, &o.gy) || !o.gx || !o.gy;
    else if (strcmp(a, "--parts") == 0)
      bad = pair(v, &o.parts[0], &o.parts[1]);
    else if (strcmp(a, "--fail-at") == 0) {
      bad = pair(v, &r, &s);
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
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (bad) {
    if (rank == 0)
      fprintf(stderr, "lsk_pic_mpi_run: bad option or value (see examples/pic/pic_mpi_main.c)\n");
    MPI_Finalize();
    return 2;
  }
  lsk_mpi *m = NULL;
  int rc = lsk_mpi_create(NULL, &m);
  if (rc) {
    if (rank == 0)
      fprintf(stderr, "lsk_pic_mpi_run: lsk_mpi_create: %s\n", lsk_context_errmsg(NULL));
    MPI_Finalize();
    return 1;
  }
  lsk_pic_mpi_result res;
  rc = lsk_pic_mpi_run(m, &o, &res);
  if (rc && rank == 0)
    fprintf(stderr, "lsk_pic_mpi_run: %s\n", lsk_context_errmsg(lsk_mpi_context(m)));
  if (!rc && rank == 0) {
    printf("lsk_pic_mpi_run: %d ranks (%ux%u), %zu particles, %ux%u cells, %u steps, seed %llu\n",
           lsk_mpi_size(m), res.parts[0], res.parts[1], o.particles, o.gx, o.gy, o.steps,
           (unsigned long long)o.seed);
    if (res.timed && res.seconds > 0)
      printf("%.3f ms per step (steps %u to %u, with their checks); %llu particles changed rank "
             "(%llu past the next rank; at most %llu from one rank in one step)\n",
             1e3 * res.seconds / res.timed, o.steps - res.timed + 1, o.steps,
             (unsigned long long)res.migrated, (unsigned long long)res.far,
             (unsigned long long)res.most);
    if (o.reference)
      printf("every particle equal to the C reference\n");
    printf("state checksum: %016llx\n", (unsigned long long)res.checksum);
  }
  lsk_mpi_destroy(m);
  MPI_Finalize();
  return rc ? 1 : 0;
}
