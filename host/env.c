/*
 * env.c: every environment variable lsk reads goes through here.
 *   LSK_DEVICE     device selector (see lsk_device_select)
 *   LSK_CACHE_DIR  directory of the on-disk program binary cache
 */
#include <stdlib.h>

#include "internal.h"

const char *lsk__getenv(const char *name)
{
  const char *v = getenv(name);
  return (v && *v) ? v : NULL;
}
