/*
 * check_kernels.c: `lsk check`'s kernels of the file and their block
 * domains (given for a kernel, declared with LSK_DECLARE_DOMAIN, or the
 * default), the program options every build uses, and its problems.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

void check_problem(check *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fprintf(stderr, "lsk: check: %s: ", c->file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  c->problems++;
}

kinfo *check_kernel_of(check *c, const char *name)
{
  for (size_t i = 0; i < c->nk; ++i)
    if (strcmp(c->k[i].name, name) == 0)
      return &c->k[i];
  kinfo *grown = realloc(c->k, (c->nk + 1) * sizeof *grown);
  if (!grown)
    return NULL;
  c->k = grown;
  kinfo *k = &c->k[c->nk++];
  memset(k, 0, sizeof *k);
  snprintf(k->name, sizeof k->name, "%s", name);
  return k;
}

void check_resolve_domain(check *c, kinfo *k)
{
  if (k->resolved)
    return;
  k->resolved = 1;
  unsigned decl[3];
  int declared = 0;
  lsk_source_declared_domain(c->source, k->name, decl, &declared);
  k->declared = declared;
  for (size_t i = 0; i < c->nkdoms; ++i)
    if (strcmp(c->kdoms[i].kernel, k->name) == 0) {
      memcpy(k->dom, c->kdoms[i].dom, sizeof k->dom);
      k->has_dom = 1;
      if (declared && memcmp(decl, k->dom, sizeof decl) != 0) {
        char a[48], b[48];
        check_problem(c, "kernel '%s' declares block domain %s; --domain gives %s", k->name,
                      check_fmt_dom(decl, a, sizeof a), check_fmt_dom(k->dom, b, sizeof b));
        k->has_dom = 0;
      }
      return;
    }
  if (declared) {
    memcpy(k->dom, decl, sizeof decl);
    k->has_dom = 1;
  } else if (c->has_dom) {
    memcpy(k->dom, c->dom, sizeof k->dom);
    k->has_dom = 1;
  } else {
    check_problem(c,
                  "kernel '%s' declares no block domain (LSK_DECLARE_DOMAIN) and none is given: "
                  "--domain X or --domain %s=X, the domain of its launches",
                  k->name, k->name);
  }
}

int check_listing_domain(const check *c, unsigned dom[3])
{
  int declared = 0;
  if (c->has_dom) {
    memcpy(dom, c->dom, 3 * sizeof *dom);
    return 1;
  }
  lsk_source_declared_domain(c->source, NULL, dom, &declared);
  if (declared)
    return 1;
  if (c->nkdoms) {
    memcpy(dom, c->kdoms[0].dom, 3 * sizeof *dom);
    return 1;
  }
  return 0;
}

lsk_program_options check_program_options(const check *c)
{
  return (lsk_program_options){.name = c->file,
                               .build_options = cli_str_get(&c->options),
                               .cache_dir = "",
                               .prelude = c->prelude};
}

const char *check_fmt_dom(const unsigned d[3], char *buf, size_t len)
{
  if (d[2] > 1)
    snprintf(buf, len, "%ux%ux%u", d[0], d[1], d[2]);
  else if (d[1] > 1)
    snprintf(buf, len, "%ux%u", d[0], d[1]);
  else
    snprintf(buf, len, "%u", d[0]);
  return buf;
}
