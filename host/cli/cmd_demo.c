/* cmd_demo.c: placeholder, being written. */
#include "cli.h"

int cmd_demo(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  return cli_fail("demo", "not written yet");
}
