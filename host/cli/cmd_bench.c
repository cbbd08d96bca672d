/* cmd_bench.c: placeholder, being written. */
#include "cli.h"

int cmd_bench(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  return cli_fail("bench", "not written yet");
}
