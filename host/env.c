/*
 * env.c: every environment variable lsk reads goes through here.
 *   LSK_DEVICE     device selector (see lsk_device_select)
 *   LSK_CACHE_DIR  directory of the on-disk program binary cache
 *   LSK_TUNE       boolean, default on: automatic launches use the choices
 *                  stored by lsk_tune (tune.h); 0 turns them off
 *   LSK_TUNE_DIR   directory of those choices; else $XDG_CACHE_HOME/lsk,
 *                  else $HOME/.cache/lsk
 * Booleans follow the OpenCL ICD loader: True, true, T or 1 is true, any
 * other value false.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *lsk__getenv(const char *name)
{
  const char *v = getenv(name);
  return (v && *v) ? v : NULL;
}

int lsk__getenv_bool(const char *name, int def)
{
  const char *v = lsk__getenv(name);
  if (!v)
    return def;
  return strcmp(v, "True") == 0 || strcmp(v, "true") == 0 || strcmp(v, "T") == 0 ||
         strcmp(v, "1") == 0;
}
