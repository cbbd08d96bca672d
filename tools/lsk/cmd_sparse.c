/*
 * cmd_sparse.c: `lsk sparse FILE`: read a sparse definition, print its
 * nodes, blocks and bytes, or the generated OpenCL C (docs/sparse.md).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char usage_text[] =
    "usage: lsk sparse FILE [--emit-cl]\n"
    "Reads a sparse definition (lines: 'sparse NAME [align A]', then nodes from the root\n"
    "down, 'dense|bitmasked|pointer NAME AXES SIZE...' and 'dynamic NAME AXIS LENGTH\n"
    "[chunk C]', then 'place TYPE NAME' for the leaf's fields; # comments) and prints\n"
    "each node's blocks and bytes, or the OpenCL C generated for kernels on it\n"
    "(--emit-cl). See docs/sparse.md.\n";

int cmd_sparse(int argc, char **argv)
{
  const char *file = NULL;
  int emit = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return 0;
    } else if (strcmp(a, "--emit-cl") == 0) {
      emit = 1;
    } else if (a[0] != '-' && !file) {
      file = a;
    } else {
      return cli_usage("sparse", usage_text, "%s '%s'",
                       a[0] == '-' ? "unknown option" : "unexpected argument", a);
    }
  }
  if (!file)
    return cli_usage("sparse", usage_text, "missing sparse FILE");
  lsk_sparse_def *d = NULL;
  char *text = NULL;
  int rc = lsk_sparse_def_load(file, &d);
  if (!rc)
    rc = emit ? lsk_sparse_def_emit_cl(d, &text) : lsk_sparse_def_describe(d, &text);
  if (rc)
    cli_fail("sparse", "%s", lsk_errmsg());
  else
    fputs(text, stdout);
  lsk_free(text);
  lsk_sparse_def_destroy(d);
  return rc ? 1 : 0;
}
