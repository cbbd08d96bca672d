/*
 * env.c: every environment variable lsk reads goes through here.
 *   LSK_DEVICE     device selector (see lsk_device_select)
 *   LSK_CACHE_DIR  directory of the on-disk program binary cache
 *   LSK_TUNE       boolean, default on: automatic launches use the choices
 *                  stored by lsk_tune (tune.h); 0 turns them off
 *   LSK_TUNE_DIR   directory of those choices; else $XDG_CACHE_HOME/lsk,
 *                  else $HOME/.cache/lsk
 *   LSK_SHAPES     the facts launch shapes are chosen by: "nvidia" (an
 *                  NVIDIA GPU's, lsk_device_model) or "device" (the
 *                  device's own, as when unset)
 *   LSK_COMPACT_CPU boolean, unset by default: compactors created while it
 *                  is set take the CPU path (1) or the lockstep path (0)
 *                  on any device (host/algo/compact.c)
 *   LSK_SCAN_CPU   boolean, unset by default: scans take the CPU path (1)
 *                  or the lockstep path (0) on any device (host/algo/scan.c)
 * Booleans follow the OpenCL ICD loader: True, true, T or 1 is true, any
 * other value false.
 */
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "core/objects.h"

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

/* a equals the lowercase word b, ignoring a's case. */
static int same_word(const char *a, const char *b)
{
  while (*a && tolower((unsigned char)*a) == *b)
    ++a, ++b;
  return !*a && !*b;
}

/* LSK_SHAPES, case-insensitive: unset, empty or "device" LSK_SHAPES_DEVICE,
 * "nvidia" LSK_SHAPES_NVIDIA; any other value -1 and *bad the value. */
int lsk__getenv_shapes(const char **bad)
{
  const char *v = lsk__getenv("LSK_SHAPES");
  if (!v || same_word(v, "device"))
    return LSK_SHAPES_DEVICE;
  if (same_word(v, "nvidia"))
    return LSK_SHAPES_NVIDIA;
  *bad = v;
  return -1;
}

/* The directory of stored tune choices: the context option if given ("":
 * none), else LSK_TUNE (off: none), LSK_TUNE_DIR, XDG_CACHE_HOME/lsk or
 * HOME/.cache/lsk. Read here, with the rest of the environment, so that
 * the context needs nothing of the launch layer to be made. */
int lsk__tune_dir_init(const char *opt, char **dir)
{
  *dir = NULL;
  if (opt) {
    if (*opt && !(*dir = lsk__strdup(opt)))
      return LSK_ENOMEM;
    return LSK_OK;
  }
  if (!lsk__getenv_bool("LSK_TUNE", 1))
    return LSK_OK;
  const char *v;
  if ((v = lsk__getenv("LSK_TUNE_DIR")) != NULL)
    *dir = lsk__strdup(v);
  else if ((v = lsk__getenv("XDG_CACHE_HOME")) != NULL)
    *dir = lsk__strdupf("%s/lsk", v);
  else if ((v = lsk__getenv("HOME")) != NULL)
    *dir = lsk__strdupf("%s/.cache/lsk", v);
  else
    return LSK_OK; /* nowhere to keep choices: none */
  return *dir ? LSK_OK : LSK_ENOMEM;
}
