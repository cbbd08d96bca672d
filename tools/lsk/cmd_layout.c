/*
 * cmd_layout.c: `lsk layout FILE`: read a layout file, print its byte
 * layout for a number of elements, or the generated OpenCL C or host C.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "parse.h"

static const char usage_text[] =
    "usage: lsk layout FILE [--elements N] [--align A] [--stagger S] [--emit-cl | --emit-c]\n"
    "                  [--members a,b,...] [--view NAME]\n"
    "Reads a layout file (lines: 'layout NAME [align A] [stagger S]', 'column TYPE NAME',\n"
    "'matrix TYPE ROWS COLS NAME', 'scalar TYPE NAME', # comments) and prints each\n"
    "member's offset, size and padding for N elements (default 0), or the generated\n"
    "OpenCL C (--emit-cl) or host C (--emit-c) of a view of it. --stagger S (lsk's\n"
    "own, not CMSSW's; a multiple of A, 0: none) adds S bytes after every column and\n"
    "matrix component, so that columns are not a power of two apart.\n";

static int parse_size(const char *s, size_t *v)
{
  unsigned long long x;
  if (cli_parse_uint(s, 0, SIZE_MAX, &x))
    return -1;
  *v = (size_t)x;
  return 0;
}

int cmd_layout(int argc, char **argv)
{
  const char *file = NULL;
  size_t n = 0, align = 0, stagger = SIZE_MAX; /* SIZE_MAX: the file's */
  int emit = 0;                                /* 1: cl, 2: c */
  lsk_emit_options eo = {0};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return 0;
    } else if (strcmp(a, "--elements") == 0) {
      if (parse_size(v, &n))
        return cli_usage("layout", usage_text, "--elements needs a count, not '%s'", v ? v : "");
      ++i;
    } else if (strcmp(a, "--align") == 0) {
      if (parse_size(v, &align) || align == 0)
        return cli_usage("layout", usage_text, "--align needs a power of two, not '%s'",
                         v ? v : "");
      ++i;
    } else if (strcmp(a, "--stagger") == 0) {
      if (parse_size(v, &stagger) || stagger == SIZE_MAX)
        return cli_usage("layout", usage_text, "--stagger needs a byte count, not '%s'",
                         v ? v : "");
      ++i;
    } else if (strcmp(a, "--emit-cl") == 0 || strcmp(a, "--emit-c") == 0) {
      emit = strcmp(a, "--emit-cl") == 0 ? 1 : 2;
    } else if (strcmp(a, "--members") == 0 && v) {
      eo.members = argv[++i];
    } else if (strcmp(a, "--view") == 0 && v) {
      eo.view_name = argv[++i];
    } else if (a[0] != '-' && !file) {
      file = a;
    } else {
      return cli_usage("layout", usage_text, "%s '%s'",
                       a[0] == '-' ? "unknown option" : "unexpected argument", a);
    }
  }
  if (!file)
    return cli_usage("layout", usage_text, "missing layout FILE");
  lsk_layout *l = NULL;
  char *text = NULL;
  int rc = lsk_layout_load(file, &l);
  /* A given stagger replaces the file's: cleared first, since a new
   * alignment must divide the stagger in force. */
  if (!rc && stagger != SIZE_MAX)
    rc = lsk_layout_set_stagger(l, 0);
  if (!rc && align)
    rc = lsk_layout_set_align(l, align);
  if (!rc && stagger != SIZE_MAX)
    rc = lsk_layout_set_stagger(l, stagger);
  if (!rc)
    rc = emit == 1   ? lsk_layout_emit_cl(l, &eo, &text)
         : emit == 2 ? lsk_layout_emit_c(l, &eo, &text)
                     : lsk_layout_describe(l, n, &text);
  if (rc)
    cli_fail("layout", "%s", lsk_context_errmsg(NULL));
  else
    fputs(text, stdout);
  lsk_free(text);
  lsk_layout_destroy(l);
  return rc ? 1 : 0;
}
