/*
 * demo_mpi.c: `lsk mpi heat`, the heat example over MPI ranks (heat_mpi.h)
 * in the lsk command: the options (demo.c's, with --parts), the run, and
 * on rank 0 the result; the command's cmd_mpi.c has made the ranks
 * (MPI_Init, lsk_mpi_create) and ends them.
 */
#include <stdio.h>

#include "cli.h"
#include "heat_demo.h"
#include "heat_mpi.h"

/* `lsk mpi heat`: the options of `lsk demo heat` (demo.c) and --parts. */
int heat_demo_mpi(lsk_mpi *m, int argc, char **argv)
{
  static const char cmd[] = "mpi heat";
  heat_demo_options o;
  int rc = heat_demo_parse(cmd, argc, argv, &o);
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
