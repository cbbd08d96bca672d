/*
 * def_parse.c: the sparse definition's text format (lsk_sparse_def_parse):
 *   sparse NAME [align A]
 *   dense|bitmasked|pointer NAME AXES SIZE... [under PARENT]
 *   dynamic NAME AXIS LENGTH [chunk C] [under PARENT]
 *   place TYPE NAME
 * Every error names the file, the line and the rule broken.
 */
#include <stdlib.h>
#include <string.h>

#include "sparse/def.h"

static const struct {
  const char *word;
  lsk_snode_kind kind;
} kinds[] = {{"dense", LSK_SNODE_DENSE},
             {"bitmasked", LSK_SNODE_BITMASKED},
             {"pointer", LSK_SNODE_POINTER},
             {"dynamic", LSK_SNODE_DYNAMIC}};

/* A node line's words into s (kind known); a message on a bad form. */
static int node_line(char **tok, int n, lsk_snode *s, const char *file, unsigned line)
{
  unsigned long v;
  s->name = n > 1 ? tok[1] : NULL;
  s->axes = n > 2 ? tok[2] : NULL;
  if (s->kind == LSK_SNODE_DYNAMIC) {
    int ok = (n == 4 || (n == 6 && strcmp(tok[4], "chunk") == 0)) &&
             lsk__parse_uint(tok[3], 0xffffffffu, &v);
    s->sizes[0] = ok ? (unsigned)v : 0;
    if (ok && n == 6 && (ok = lsk__parse_uint(tok[5], 1u << 20, &v)))
      s->chunk = v ? (unsigned)v : 1;
    if (!ok)
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s:%u: expected 'dynamic NAME AXIS LENGTH [chunk C]' with numbers for "
                       "LENGTH and C",
                       file, line);
    return LSK_OK;
  }
  size_t naxes = s->axes ? strlen(s->axes) : 0;
  if (n < 4 || naxes > LSK_SPARSE_MAX_AXES || (size_t)n != 3 + naxes)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s:%u: expected '%s NAME AXES SIZE...' with one size per letter of AXES",
                     file, line, tok[0]);
  for (size_t k = 0; k < naxes; ++k) {
    if (!lsk__parse_uint(tok[3 + k], 1ul << 31, &v))
      return lsk__fail(NULL, LSK_EINVAL, "%s:%u: size '%s' is not a number up to 2^31", file, line,
                       tok[3 + k]);
    s->sizes[k] = (unsigned)v;
  }
  return LSK_OK;
}

/* The first line: 'sparse NAME [align A]'. */
static int first_line(char **tok, int n, const char *file, unsigned line, lsk_sparse_def **d)
{
  unsigned long align = 0;
  if (strcmp(tok[0], "sparse") != 0)
    return lsk__fail(NULL, LSK_EINVAL, "%s:%u: expected 'sparse NAME' first, found '%s'", file,
                     line, tok[0]);
  if (!(n == 2 || (n == 4 && strcmp(tok[2], "align") == 0 &&
                   lsk__parse_uint(tok[3], 1u << 20, &align) && align)))
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s:%u: expected 'sparse NAME [align A]' with A a power of two from 4 to 128",
                     file, line);
  int rc = lsk_sparse_def_create(tok[1], align, d);
  return rc ? lsk__at_line(rc, file, line) : LSK_OK;
}

/* One statement after the first line. */
static int statement(lsk_sparse_def *d, char **tok, int n, const char *file, unsigned line)
{
  int rc;
  if (strcmp(tok[0], "place") == 0) {
    if (n != 3)
      return lsk__fail(NULL, LSK_EINVAL, "%s:%u: expected 'place TYPE NAME'", file, line);
    rc = lsk_sparse_def_place(d, tok[1], tok[2]);
    return rc ? lsk__at_line(rc, file, line) : LSK_OK;
  }
  if (strcmp(tok[0], "sparse") == 0)
    return lsk__fail(NULL, LSK_EINVAL, "%s:%u: a second 'sparse' line", file, line);
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; ++i)
    if (strcmp(tok[0], kinds[i].word) == 0) {
      lsk_snode s = {.kind = kinds[i].kind};
      /* 'under PARENT' last: the node's place in a tree. */
      if (n > 2 && strcmp(tok[n - 2], "under") == 0) {
        s.parent = tok[n - 1];
        n -= 2;
      }
      if ((rc = node_line(tok, n, &s, file, line)))
        return rc;
      rc = lsk_sparse_def_add_node(d, &s);
      return rc ? lsk__at_line(rc, file, line) : LSK_OK;
    }
  return lsk__fail(NULL, LSK_EINVAL,
                   "%s:%u: unknown keyword '%s' (sparse, dense, bitmasked, pointer, dynamic or "
                   "place)",
                   file, line, tok[0]);
}

/* One line (lsk__text_lines' callback); *state is the definition, made
 * by the first line. */
static int def_line(void *state, char **tok, int n, const char *file, unsigned line)
{
  lsk_sparse_def **d = state;
  return *d ? statement(*d, tok, n, file, line) : first_line(tok, n, file, line, d);
}

int lsk_sparse_def_parse(const char *text, const char *file, lsk_sparse_def **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  if (!text)
    return lsk__fail(NULL, LSK_EINVAL, "%s: text is NULL", __func__);
  if (!file)
    file = "sparse";
  lsk_sparse_def *d = NULL;
  int rc = lsk__text_lines(text, file, def_line, &d, __func__);
  if (!rc && !d)
    rc = lsk__fail(NULL, LSK_EINVAL, "%s: no 'sparse NAME' line", file);
  if (!rc && !d->nfields)
    rc = lsk__fail(NULL, LSK_EINVAL, "%s: sparse '%s' places no field", file, d->name);
  if (!rc)
    rc = lsk__sparse_check(d, NULL, file);
  if (rc) {
    lsk_sparse_def_destroy(d);
    return rc;
  }
  *out = d;
  return LSK_OK;
}

int lsk_sparse_def_load(const char *path, lsk_sparse_def **out)
{
  LSK__API();
  if (!out || !path)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, path ? "out" : "path");
  *out = NULL;
  int rc;
  char *text = lsk__read_file(NULL, path, 1u << 20, __func__, &rc);
  if (text)
    rc = lsk_sparse_def_parse(text, path, out);
  free(text);
  return rc;
}
