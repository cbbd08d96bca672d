/* cmd_info.c: placeholder, being written. */
#include "cli.h"

int cmd_info(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  return cli_fail("info", "not written yet");
}
