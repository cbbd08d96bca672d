/*
 * cmd_mpi.c: `lsk mpi heat|pic`, the examples over MPI (lsk_mpi), run
 * under mpirun: MPI_Init, a rank per device (lsk_mpi_create), the run,
 * and on rank 0 the result; a failure on any rank ends every rank with
 * the failing rank's message (lsk_mpi_agree) and exit status 1. Built
 * where lsk_mpi is (LSK_HAVE_MPI); otherwise it says so.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
    "usage: mpirun -n N lsk [--device SEL] mpi heat|pic [options]\n"
    "The examples distributed over MPI ranks, one device per rank (the devices SEL\n"
    "matches, shared out by rank within each node). `lsk mpi heat --help` and\n"
    "`lsk mpi pic --help` list their options.\n";

#ifndef LSK_HAVE_MPI
int cmd_mpi(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  return cli_fail("mpi", "this lsk was built without MPI (install libopenmpi-dev and rebuild)");
}
#else
#include "heat_mpi.h"

static int mpi_heat(lsk_mpi *m, int argc, char **argv)
{
  static const char cmd[] = "mpi heat";
  cli_heat_options o;
  int rc = cli_heat_parse(cmd, argc, argv, &o);
  if (rc)
    return rc < 0 ? 0 : rc;
  int root = lsk_mpi_rank(m) == 0;
  lsk_heat_run run = {.gx = o.gx,
                      .gy = o.gy,
                      .steps = o.steps,
                      .seed = o.seed,
                      .alpha = o.alpha,
                      .parts = {o.parts[0], o.parts[1]}};
  lsk_heat_result res;
  rc = lsk_heat_mpi_run(m, &run, o.check, &res);
  if (rc)
    return root ? cli_fail_lsk(cmd, lsk_mpi_context(m), rc, NULL) : 1;
  if (root) {
    printf("lsk %s mpi heat: %d ranks (%ux%u), %zux%zu cells, %u steps, alpha %g\n", lsk_version(),
           lsk_mpi_size(m), res.parts[0], res.parts[1], o.gx, o.gy, o.steps, (double)o.alpha);
    if (o.check)
      printf("every cell equal to the C reference (bit for bit)\n");
    if (res.timed && res.seconds > 0)
      printf("%.3f ms per step (%.1f steps/s, steps %u to %u), halo: %zu bytes per step sent by "
             "rank 0\n",
             1e3 * res.seconds / res.timed, res.timed / res.seconds, o.steps - res.timed + 1,
             o.steps, res.halo_bytes);
    printf("state checksum: %016llx\n", (unsigned long long)res.checksum);
  }
  return 0;
}

int cmd_mpi(int argc, char **argv)
{
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    fputs(usage_text, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  int (*run)(lsk_mpi *, int, char **) = NULL;
  if (strcmp(argv[1], "heat") == 0)
    run = mpi_heat;
  if (!run)
    return cli_usage("mpi", usage_text, "unknown example '%s'", argv[1]);
  MPI_Init(&argc, &argv);
  lsk_mpi *m = NULL;
  int rc = lsk_mpi_create(NULL, &m);
  if (rc) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      cli_fail_lsk("mpi", NULL, rc, "lsk_mpi_create");
    MPI_Finalize();
    return 1;
  }
  rc = run(m, argc - 1, argv + 1);
  lsk_mpi_destroy(m);
  MPI_Finalize();
  return rc;
}
#endif
