/*
 * cmd_mpi.c: `lsk mpi heat|pic|halo`, run under mpirun: MPI_Init, a rank
 * per device (lsk_mpi_create), the run, and on rank 0 the result; a
 * failure on any rank ends every rank with the failing rank's message
 * (lsk_mpi_agree) and exit status 1. heat and pic are the examples'
 * drivers (examples/<x>/demo_mpi.c); halo, the exchange of lsk_mpi timed
 * against memcpy, is the command's own. Built where lsk_mpi is
 * (LSK_HAVE_MPI); otherwise it says so.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "parse.h"

static const char usage_text[] =
    "usage: mpirun -n N lsk [--device SEL] mpi heat|pic|halo [options]\n"
    "The examples distributed over MPI ranks, one device per rank (the devices SEL\n"
    "matches, shared out by rank within each node). `lsk mpi heat --help` and\n"
    "`lsk mpi pic --help` list their options.\n"
    "  halo [--size GXxGY] [--guard G] [--columns K] [--reps R]\n"
    "      time the halo exchange of K float columns of a GXxGY grid split in rows\n"
    "      over the ranks (default 2048x2048, guard 2, 4 columns, 50 exchanges)\n"
    "      against a memcpy of the same bytes (lsk bench's mpi case runs it)\n";

#ifndef LSK_HAVE_MPI
int cmd_mpi(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  (void)usage_text; /* used by the MPI build alone (-Werror=unused-const-variable) */
  return cli_fail("mpi", "this lsk was built without MPI (install libopenmpi-dev and rebuild)");
}
#else
#include "lsk/mpi.h"
#include "heat_demo.h"
#include "pic_demo.h"

/* `lsk mpi halo`: exchanges of K columns over a row split, timed from a
 * barrier to the slowest rank; then the same bytes through memcpy. */
static int mpi_halo(lsk_mpi *m, int argc, char **argv)
{
  static const char cmd[] = "mpi halo";
  size_t gx = 2048, gy = 2048;
  unsigned long long guard = 2, ncol = 4, reps = 50;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v)
      return cli_usage(cmd, usage_text, "option needs a value or is unknown: '%s'", a);
    ++i;
    if (strcmp(a, "--size") == 0) {
      char *end;
      gx = strtoul(v, &end, 10);
      gy = *end == 'x' ? strtoul(end + 1, &end, 10) : 0;
      if (*end || gx == 0 || gy == 0 || gx > 65536 || gy > 65536)
        return cli_usage(cmd, usage_text, "bad --size '%s'", v);
    } else if (strcmp(a, "--guard") == 0     ? cli_parse_uint(v, 1, 16, &guard)
               : strcmp(a, "--columns") == 0 ? cli_parse_uint(v, 1, 64, &ncol)
               : strcmp(a, "--reps") == 0    ? cli_parse_uint(v, 1, 100000, &reps)
                                             : 1) {
      return cli_usage(cmd, usage_text, "bad option or value: %s '%s'", a, v);
    }
  }
  lsk_context *ctx = lsk_mpi_context(m);
  int size = lsk_mpi_size(m), root = lsk_mpi_rank(m) == 0;
  lsk_mpi_grid_options go = {.dims = 2,
                             .global = {gx, gy},
                             .guard = (unsigned)guard,
                             .periodic = {1, 1},
                             .parts = {1, (unsigned)size}};
  lsk_mpi_grid *g = NULL;
  lsk_mpi_halo *h = NULL;
  lsk_buffer *cols[64] = {0};
  lsk_type types[64];
  int rc = lsk_mpi_grid_create(m, &go, &g);
  if (rc)
    return root ? cli_fail_lsk(cmd, ctx, rc, NULL) : 1;
  size_t cells = lsk_grid_box_storage(lsk_mpi_grid_box(g), NULL);
  for (unsigned c = 0; c < ncol; ++c) {
    types[c] = LSK_TYPE_FLOAT;
    if (!rc)
      rc = lsk_buffer_create(ctx, cells * 4, &cols[c]);
    if (!rc)
      rc = lsk_buffer_fill(cols[c], &(float){1.0f}, 4, 0, cells * 4, NULL);
  }
  if (!rc)
    rc = lsk_mpi_halo_create(g, types, ncol, &h);
  if (!rc)
    rc = lsk_context_finish(ctx);
  double t = 0;
  for (unsigned long long r = 0; r < reps + 2; ++r) {
    if (r == 2) {
      MPI_Barrier(lsk_mpi_comm(m));
      t = MPI_Wtime();
    }
    int xrc = lsk_mpi_halo_exchange(h, cols, NULL);
    rc = rc ? rc : xrc;
  }
  if (!rc)
    rc = lsk_context_finish(ctx);
  t = MPI_Wtime() - t;
  double slowest = 0;
  MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, lsk_mpi_comm(m));
  size_t bytes = lsk_mpi_halo_bytes(h);
  /* The same bytes through memcpy, as many times. */
  char *a = malloc(bytes ? bytes : 1), *b = malloc(bytes ? bytes : 1);
  double mt = 0;
  if (a && b) {
    memset(a, 1, bytes ? bytes : 1);
    double t0 = cli_now();
    for (unsigned long long r = 0; r < reps; ++r) {
      memcpy(b, a, bytes);
      a[r % (bytes ? bytes : 1)] = b[(r * 7) % (bytes ? bytes : 1)]; /* keeps the copies */
    }
    mt = cli_now() - t0;
  }
  free(a);
  free(b);
  rc = lsk_mpi_agree(m, rc);
  if (!rc && root)
    printf("halo exchange: %d ranks, %zu bytes per rank per exchange, %.6f ms per exchange "
           "(%.1f MB/s); memcpy %.6f ms (%.1f MB/s)\n",
           size, bytes, 1e3 * slowest / (double)reps, bytes * (double)reps / slowest / 1e6,
           1e3 * mt / (double)reps, mt > 0 ? bytes * (double)reps / mt / 1e6 : 0.0);
  else if (rc && root)
    cli_fail_lsk(cmd, ctx, rc, NULL);
  lsk_mpi_halo_destroy(h);
  for (unsigned c = 0; c < ncol; ++c)
    lsk_buffer_destroy(cols[c]);
  lsk_mpi_grid_destroy(g);
  return rc ? 1 : 0;
}

int cmd_mpi(int argc, char **argv)
{
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    fputs(usage_text, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  int (*run)(lsk_mpi *, int, char **) = NULL;
  if (strcmp(argv[1], "heat") == 0)
    run = heat_demo_mpi; /* examples/heat/demo_mpi.c */
  else if (strcmp(argv[1], "pic") == 0)
    run = pic_demo_mpi; /* examples/pic/demo_mpi.c */
  else if (strcmp(argv[1], "halo") == 0)
    run = mpi_halo;
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
