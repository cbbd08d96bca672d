/*
 * check_lint.c: `lsk check`'s reading of the source for barriers that not
 * every worker of the block reaches (lsk_source_check, with its heuristic
 * for a barrier under a condition on the worker). Each finding is a
 * problem, named FILE:LINE. The certain findings refuse every build, so
 * the compilers are not run after them.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"

int check_lint(check *c)
{
  char *report = NULL;
  int n = lsk_source_check(c->source, c->file, LSK_SOURCE_CHECK_DIVERGENT, &report);
  if (n < 0) {
    check_problem(c, "%s", lsk_context_errmsg(NULL));
    return 0;
  }
  for (char *line = report; line && *line;) {
    char *end = strchr(line, '\n');
    if (end)
      *end = '\0';
    check_problem(c, "%s", line);
    line = end ? end + 1 : line + strlen(line);
  }
  lsk_free(report);
  if (n == 0)
    return 0;
  /* The heuristic's findings alone leave the builds to run. */
  char *certain = NULL;
  int m = lsk_source_check(c->source, c->file, 0, &certain);
  lsk_free(certain);
  return m > 0;
}
