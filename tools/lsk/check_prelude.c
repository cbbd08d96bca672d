/*
 * check_prelude.c: the text `lsk check` puts between the device library
 * and the file, as a program would (lsk_program_options.prelude): a file
 * (--prelude), the OpenCL C views of SoA layouts (--layout, --view), the
 * code generated for a sparse definition (--sparse), and
 * for a compaction predicate (--compact) the compaction kernels' prelude,
 * the kernels themselves going behind the predicate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"

/* One layout file (PATH or PATH@members), loaded; *members points into
 * spec's copy (or NULL). */
static int load_layout(const char *spec, char *copy, size_t len, lsk_layout **l,
                       const char **members)
{
  snprintf(copy, len, "%s", spec);
  char *at = strchr(copy, '@');
  *members = NULL;
  if (at) {
    *at = 0;
    *members = at + 1;
  }
  return lsk_layout_load(copy, l);
}

static int add_prelude(cli_str *pre, const char *text)
{
  cli_str_put(pre, "%s%s", pre->len ? "\n" : "", text);
  return pre->failed ? -1 : 0;
}

int check_prelude_file(cli_str *pre, const char *path)
{
  char *text = cli_read_file(path);
  if (!text)
    return cli_fail("check", "--prelude %s: %s", path, strerror(errno));
  int rc = add_prelude(pre, text) ? cli_fail("check", "out of memory") : 0;
  free(text);
  return rc;
}

int check_prelude_layout(cli_str *pre, const char *spec)
{
  char copy[1024];
  lsk_layout *l = NULL;
  const char *members;
  char *text = NULL;
  int rc = load_layout(spec, copy, sizeof copy, &l, &members);
  lsk_emit_options eo = {.members = members};
  if (!rc)
    rc = lsk_layout_emit_cl(l, &eo, &text);
  if (!rc)
    rc = add_prelude(pre, text) ? LSK_ENOMEM : 0;
  if (rc)
    cli_fail("check", "--layout %s: %s", spec, lsk_context_errmsg(NULL));
  lsk_free(text);
  lsk_layout_destroy(l);
  return rc ? 1 : 0;
}

int check_prelude_view(cli_str *pre, const char *arg)
{
  enum { MAXL = 8 };
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg)
    return cli_fail("check", "--view %s: NAME=FILE[@M,..]+FILE... wanted", arg);
  char name[128], copies[MAXL][1024];
  snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
  lsk_layout *ls[MAXL] = {0};
  const char *members[MAXL] = {0};
  size_t k = 0;
  int rc = 0;
  for (const char *p = eq + 1; *p && !rc;) {
    size_t n = strcspn(p, "+");
    if (k == MAXL) {
      rc = cli_fail("check", "--view %s: more than %d layouts", arg, MAXL);
      break;
    }
    char spec[1024];
    snprintf(spec, sizeof spec, "%.*s", (int)n, p);
    if (load_layout(spec, copies[k], sizeof copies[k], &ls[k], &members[k]))
      rc = cli_fail("check", "--view %s: %s", arg, lsk_context_errmsg(NULL));
    ++k;
    p += n + (p[n] == '+');
  }
  char *text = NULL;
  if (!rc && lsk_layout_emit_view_cl(name, k, (const lsk_layout *const *)ls, members, &text))
    rc = cli_fail("check", "--view %s: %s", arg, lsk_context_errmsg(NULL));
  if (!rc && add_prelude(pre, text))
    rc = cli_fail("check", "out of memory");
  lsk_free(text);
  for (size_t i = 0; i < k; ++i)
    lsk_layout_destroy(ls[i]);
  return rc;
}

int check_prelude_sparse(cli_str *pre, const char *path)
{
  lsk_sparse_def *d = NULL;
  char *text = NULL;
  if (lsk_sparse_def_load(path, &d) || lsk_sparse_def_emit_cl(d, &text)) {
    lsk_sparse_def_destroy(d);
    return cli_fail("check", "--sparse %s: %s", path, lsk_errmsg());
  }
  cli_str_put(pre, "%s%s", pre->len ? "\n" : "", text);
  lsk_free(text);
  lsk_sparse_def_destroy(d);
  return pre->failed ? cli_fail("check", "out of memory") : 0;
}

int check_prelude_compact(check *c, cli_str *pre, const char *compact)
{
  lsk_layout *l = NULL;
  if (compact[0] == '@' && lsk_layout_load(compact + 1, &l))
    return cli_fail("check", "--compact %s: %s", compact, lsk_context_errmsg(NULL));
  lsk_compactor_options co = {.name = c->file,
                              .build_options = cli_str_get(&c->options),
                              .layout = l,
                              .data_type = l ? NULL : compact};
  char *program = NULL, *cpre = NULL;
  int rc = lsk_compactor_source(c->source, &co, &program, &cpre);
  lsk_layout_destroy(l);
  if (rc)
    return cli_fail("check", "--compact %s: %s", compact, lsk_context_errmsg(NULL));
  /* Their prelude in front of the user's. */
  cli_str both = {0};
  cli_str_put(&both, "%s%s%s", cpre, pre->len ? "\n" : "", cli_str_get(pre));
  lsk_free(cpre);
  free(c->source);
  c->source = program; /* lsk_free is free */
  cli_str_free(pre);
  *pre = both;
  return pre->failed ? cli_fail("check", "out of memory") : 0;
}
