/*
 * declare.c: reading LSK_DECLARE_DOMAIN(kernel, X), LSK_DECLARE_DOMAIN2(kernel,
 * X, Y) and LSK_DECLARE_DOMAIN3(kernel, X, Y, Z) lines from a program's source, so that the host
 * knows a kernel's own block domain before anything is built.
 *
 * Only the text is read: comments, string literals and preprocessor lines
 * are skipped, and the extents must be integer literals.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/build.h"

/* A copy of src with comments and the insides of literals blanked
 * (newlines kept, so line numbers stay right), and preprocessor lines too.
 * Also lint.c's. */
char *lsk__blank_noise(const char *src)
{
  size_t n = strlen(src);
  char *t = malloc(n + 1);
  if (!t)
    return NULL;
  memcpy(t, src, n + 1);
  int line_start = 1;
  for (size_t i = 0; i < n; ++i) {
    if (t[i] == '/' && t[i + 1] == '/') {
      while (i < n && t[i] != '\n')
        t[i++] = ' ';
    } else if (t[i] == '/' && t[i + 1] == '*') {
      t[i] = t[i + 1] = ' ';
      for (i += 2; i < n && !(t[i] == '*' && t[i + 1] == '/'); ++i)
        if (t[i] != '\n')
          t[i] = ' ';
      if (i < n)
        t[i] = t[i + 1] = ' ', ++i;
    } else if (t[i] == '"' || t[i] == '\'') {
      char q = t[i];
      for (++i; i < n && t[i] != q && t[i] != '\n'; ++i) {
        if (t[i] == '\\' && i + 1 < n)
          t[i++] = ' ';
        t[i] = ' ';
      }
    } else if (line_start && t[i] == '#') {
      /* A directive, with its continuation lines. */
      while (i < n && t[i] != '\n') {
        if (t[i] == '\\' && t[i + 1] == '\n')
          ++i;
        else
          t[i] = ' ';
        ++i;
      }
    }
    if (i < n && t[i] == '\n')
      line_start = 1;
    else if (i < n && !isspace((unsigned char)t[i]))
      line_start = 0;
  }
  return t;
}

static const char *skip_ws(const char *p)
{
  while (isspace((unsigned char)*p))
    ++p;
  return p;
}

static unsigned line_of(const char *text, const char *p)
{
  unsigned line = 1;
  for (; text < p; ++text)
    line += *text == '\n';
  return line;
}

/* Parses one declaration of rank extents (the macro's name says how many)
 * after the macro name. Returns NULL or a message. */
static char *parse_one(const char *p, int rank, lsk__decl *d)
{
  p = skip_ws(p);
  if (*p != '(')
    return lsk__strdup("expected '(' after the macro name");
  p = skip_ws(p + 1);
  const char *id = p;
  while (isalnum((unsigned char)*p) || *p == '_')
    ++p;
  if (p == id || isdigit((unsigned char)*id))
    return lsk__strdup("expected a kernel name as the first argument");
  size_t idlen = (size_t)(p - id);
  d->domain[0] = d->domain[1] = d->domain[2] = 1;
  int k = 0;
  for (p = skip_ws(p); *p == ','; p = skip_ws(p)) {
    if (k == 3)
      return lsk__strdup("more than 3 extents");
    p = skip_ws(p + 1);
    char *end;
    unsigned long v = strtoul(p, &end, 0);
    if (end == p || !isdigit((unsigned char)*p))
      return lsk__strdup("extents must be integer literals");
    while (*end == 'u' || *end == 'U')
      ++end;
    if (v == 0 || v > LSK_MAX_DOMAIN)
      return lsk__strdupf("extent %lu is out of range [1, %u]", v, LSK_MAX_DOMAIN);
    d->domain[k++] = (unsigned)v;
    p = end;
  }
  if (k == 0)
    return lsk__strdup("no extents given");
  if (k != rank)
    return k == 1 ? lsk__strdupf("1 extent given, LSK_DECLARE_DOMAIN%d takes %d", rank, rank)
                  : lsk__strdupf("%d extents given: use LSK_DECLARE_DOMAIN%s(kernel, ...) for %d, "
                                 "OpenCL C 1.2 having no variadic macros",
                                 k, k == 2 ? "2" : "3", k);
  if (*p != ')')
    return lsk__strdup("expected ')'");
  if ((uint64_t)d->domain[0] * d->domain[1] * d->domain[2] > LSK_MAX_DOMAIN)
    return lsk__strdupf("domain %ux%ux%u exceeds %u indices", d->domain[0], d->domain[1],
                        d->domain[2], LSK_MAX_DOMAIN);
  d->kernel = malloc(idlen + 1);
  if (!d->kernel)
    return lsk__strdup("out of memory");
  memcpy(d->kernel, id, idlen);
  d->kernel[idlen] = 0;
  return NULL;
}

char *lsk__scan_declarations(const char *source, lsk__decl **decls, size_t *ndecls)
{
  static const char macro[] = "LSK_DECLARE_DOMAIN";
  *decls = NULL;
  *ndecls = 0;
  char *text = lsk__blank_noise(source);
  if (!text)
    return lsk__strdup("out of memory");
  char *err = NULL;
  for (const char *p = text; !err && (p = strstr(p, macro)) != NULL; p += sizeof macro - 1) {
    int word_start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    /* LSK_DECLARE_DOMAIN, LSK_DECLARE_DOMAIN2 or LSK_DECLARE_DOMAIN3. */
    const char *q = p + sizeof macro - 1;
    int rank = *q == '2' || *q == '3' ? *q++ - '0' : 1;
    if (!word_start || isalnum((unsigned char)*q) || *q == '_')
      continue;
    lsk__decl d = {0};
    char *why = parse_one(q, rank, &d);
    for (size_t i = 0; !why && i < *ndecls; ++i)
      if (strcmp((*decls)[i].kernel, d.kernel) == 0)
        why = lsk__strdupf("kernel '%s' is declared twice", d.kernel);
    lsk__decl *grown = why ? NULL : realloc(*decls, (*ndecls + 1) * sizeof **decls);
    if (!why && !grown)
      why = lsk__strdup("out of memory");
    if (why) {
      err = lsk__strdupf("%u: malformed LSK_DECLARE_DOMAIN: %s", line_of(text, p), why);
      free(why);
      free(d.kernel);
      break;
    }
    *decls = grown;
    (*decls)[(*ndecls)++] = d;
  }
  free(text);
  if (err) {
    lsk__free_declarations(*decls, *ndecls);
    *decls = NULL;
    *ndecls = 0;
  }
  return err;
}

void lsk__free_declarations(lsk__decl *decls, size_t ndecls)
{
  for (size_t i = 0; i < ndecls; ++i)
    free(decls[i].kernel);
  free(decls);
}
