/*
 * layout_parse.c: the layout text format (see lsk_layout_parse):
 *   layout NAME [align A] [stagger S]
 *   column TYPE NAME
 *   matrix TYPE ROWS COLS NAME
 *   scalar TYPE NAME
 * Every error names the file and line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soa/layout.h"

/* Splits a line (modified in place) at blanks; stops at '#'. At most
 * LSK__MAX_TOKENS words; -1 if there are more. */
int lsk__tokenize(char *line, char **tok)
{
  int n = 0;
  for (char *p = line; *p && *p != '#';) {
    while (*p == ' ' || *p == '\t' || *p == '\r')
      *p++ = 0;
    if (!*p || *p == '#')
      break;
    if (n == LSK__MAX_TOKENS)
      return -1;
    tok[n++] = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
      ++p;
    if (*p == '#')
      *p = 0;
  }
  return n;
}

/* A decimal number up to max: 1, or 0 if s is anything else. */
int lsk__parse_uint(const char *s, unsigned long max, unsigned long *v)
{
  if (!isdigit((unsigned char)*s))
    return 0;
  char *end;
  *v = strtoul(s, &end, 10);
  return *end == 0 && *v <= max;
}

/* The words after 'layout NAME': "align A" and "stagger S", each at most
 * once, in either order. 0 if anything else is there. */
static int layout_options(char **tok, int n, unsigned long *align, unsigned long *stagger)
{
  int seen_align = 0, seen_stagger = 0;
  if (n < 2 || n % 2)
    return 0;
  for (int i = 2; i < n; i += 2) {
    if (strcmp(tok[i], "align") == 0 && !seen_align++) {
      if (!lsk__parse_uint(tok[i + 1], 1ul << 20, align) || *align == 0)
        return 0;
    } else if (strcmp(tok[i], "stagger") == 0 && !seen_stagger++) {
      if (!lsk__parse_uint(tok[i + 1], LSK_LAYOUT_MAX_STAGGER, stagger))
        return 0;
    } else {
      return 0;
    }
  }
  return 1;
}

/* Restates the thread's last message (from a builder call) as
 * "file:line: <message without the function name>". */
int lsk__at_line(int rc, const char *file, unsigned lineno)
{
  const char *msg = lsk_context_errmsg(NULL);
  const char *colon = strstr(msg, ": ");
  char *copy = lsk__strdup(colon ? colon + 2 : msg);
  rc = lsk__fail(NULL, rc, "%s:%u: %s", file, lineno, copy ? copy : "error");
  free(copy);
  return rc;
}

/* One line of a layout file (lsk__text_lines' callback); *state is the
 * layout, made by the first line. */
static int layout_line(void *state, char **tok, int n, const char *file, unsigned lineno)
{
  lsk_layout **lp = state, *l = *lp;
  const char *kw = tok[0];
  int rc;
  if (!l) {
    unsigned long align = 0, stagger = 0;
    if (strcmp(kw, "layout") != 0)
      return lsk__fail(NULL, LSK_EINVAL, "%s:%u: expected 'layout NAME' first, found '%s'", file,
                       lineno, kw);
    if (!layout_options(tok, n, &align, &stagger))
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s:%u: expected 'layout NAME [align A]' with A from 1 to 1048576, "
                       "and optionally 'stagger S' with S from 0 to %u (a multiple of A)",
                       file, lineno, LSK_LAYOUT_MAX_STAGGER);
    if ((rc = lsk_layout_create(tok[1], align, lp)) || (rc = lsk_layout_set_stagger(*lp, stagger)))
      return lsk__at_line(rc, file, lineno);
    return LSK_OK;
  }
  if (strcmp(kw, "column") == 0 || strcmp(kw, "scalar") == 0) {
    if (n != 3)
      return lsk__fail(NULL, LSK_EINVAL, "%s:%u: expected '%s TYPE NAME'", file, lineno, kw);
    rc = kw[0] == 'c' ? lsk_layout_add_column(l, tok[1], tok[2])
                      : lsk_layout_add_scalar(l, tok[1], tok[2]);
  } else if (strcmp(kw, "matrix") == 0) {
    unsigned long r, c;
    if (n != 5 || !lsk__parse_uint(tok[2], 64, &r) || !lsk__parse_uint(tok[3], 64, &c))
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s:%u: expected 'matrix TYPE ROWS COLS NAME' with ROWS and COLS from 1 to "
                       "64",
                       file, lineno);
    rc = lsk_layout_add_matrix(l, tok[1], (unsigned)r, (unsigned)c, tok[4]);
  } else if (strcmp(kw, "layout") == 0) {
    return lsk__fail(NULL, LSK_EINVAL, "%s:%u: a second 'layout' line", file, lineno);
  } else {
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s:%u: unknown keyword '%s' (layout, column, matrix or scalar)", file, lineno,
                     kw);
  }
  return rc ? lsk__at_line(rc, file, lineno) : LSK_OK;
}

int lsk__text_lines(const char *text, const char *file, lsk__line_fn line, void *state,
                    const char *fn)
{
  char *copy = lsk__strdup(text);
  if (!copy)
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  int rc = LSK_OK;
  unsigned lineno = 0;
  char *save = copy;
  for (char *at = copy; at && !rc; at = save) {
    char *nl = strchr(at, '\n');
    save = nl ? nl + 1 : NULL;
    if (nl)
      *nl = 0;
    ++lineno;
    char *tok[LSK__MAX_TOKENS];
    int n = lsk__tokenize(at, tok);
    if (n < 0)
      rc = lsk__fail(NULL, LSK_EINVAL, "%s:%u: too many words", file, lineno);
    else if (n > 0)
      rc = line(state, tok, n, file, lineno);
  }
  free(copy);
  return rc;
}

int lsk_layout_parse(const char *text, const char *file, lsk_layout **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  if (!text)
    return lsk__fail(NULL, LSK_EINVAL, "%s: text is NULL", __func__);
  if (!file)
    file = "layout";
  lsk_layout *l = NULL;
  int rc = lsk__text_lines(text, file, layout_line, &l, __func__);
  if (!rc && !l)
    rc = lsk__fail(NULL, LSK_EINVAL, "%s: no 'layout NAME' line", file);
  if (rc) {
    lsk_layout_destroy(l);
    return rc;
  }
  *out = l;
  return LSK_OK;
}

int lsk_layout_load(const char *path, lsk_layout **out)
{
  LSK__API();
  if (!out || !path)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, path ? "out" : "path");
  *out = NULL;
  int rc;
  char *text = lsk__read_file(NULL, path, 1u << 20, __func__, &rc);
  if (text)
    rc = lsk_layout_parse(text, path, out);
  free(text);
  return rc;
}
