/* cmd_devices.c: placeholder, being written. */
#include "cli.h"

int cmd_devices(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  return cli_fail("devices", "not written yet");
}
