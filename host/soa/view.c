/*
 * view.c: views in CMSSW's sense, made from layouts or from other views
 * (include/lsk/layout.h, docs/soa.md "Views"). A view is only a list of
 * columns over sources (layouts); the generated code (view_emit.c) and
 * the arguments (view_args.c) take each column on its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soa/layout.h"

const lsk__htype LSK__H_VIEW = {"lsk_view", NULL, 0};
LSK__HANDLE_FIRST(lsk_view);

void lsk_view_destroy(lsk_view *v)
{
  LSK__DESTROY(v, VIEW, __func__);
  for (size_t i = 0; i < v->ncol; ++i)
    free(v->cols[i].name);
  free(v->cols);
  free(v->src);
  free(v->name);
  free(v);
}

/* *out: a new view of no column over nsrc sources. */
static int view_new(const char *name, size_t nsrc, size_t maxcol, const lsk_view_options *opt,
                    lsk_view **out, const char *fn)
{
  const char *why = lsk__bad_identifier(name);
  if (why) {
    return lsk__fail(NULL, LSK_EINVAL, "%s: view name '%s' %s", fn, name ? name : "(null)", why);
  }
  size_t align = opt && opt->align ? opt->align : LSK_LAYOUT_DEFAULT_ALIGN;
  if (align & (align - 1)) {
    return lsk__fail(NULL, LSK_EINVAL, "%s: view '%s': alignment %zu is not a power of two", fn,
                     name, align);
  }
  if (opt && opt->enforce_align != 0 && opt->enforce_align != 1) {
    return lsk__fail(NULL, LSK_EINVAL, "%s: view '%s': enforce_align %d is neither 0 nor 1", fn,
                     name, opt->enforce_align);
  }
  lsk_view *v = calloc(1, sizeof *v);
  if (v) {
    v->name = lsk__strdup(name);
    v->src = calloc(nsrc ? nsrc : 1, sizeof *v->src);
    v->cols = calloc(maxcol ? maxcol : 1, sizeof *v->cols);
  }
  if (!v || !v->name || !v->src || !v->cols || lsk__handle_add(v, &LSK__H_VIEW, NULL)) {
    if (v) {
      free(v->name);
      free(v->src);
      free(v->cols);
    }
    free(v);
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  }
  v->align = align;
  v->enforce = opt ? opt->enforce_align : 0;
  v->nsrc = nsrc;
  *out = v;
  return LSK_OK;
}

/* Appends column (src, member) called name (len bytes); refuses a name
 * the view has. */
static int add_col(lsk_view *v, size_t src, size_t member, const char *name, size_t len,
                   const char *fn)
{
  char buf[128];
  if (len >= sizeof buf)
    return lsk__fail(NULL, LSK_EINVAL, "%s: view '%s': column name '%.*s...' is too long", fn,
                     v->name, 40, name);
  memcpy(buf, name, len);
  buf[len] = 0;
  const char *why = lsk__bad_identifier(buf);
  if (why)
    return lsk__fail(NULL, LSK_EINVAL, "%s: view '%s': column name '%s' %s", fn, v->name, buf, why);
  for (size_t i = 0; i < v->ncol; ++i)
    if (strcmp(v->cols[i].name, buf) == 0)
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s: view '%s': two columns called '%s' (rename one: \"local=%s\")", fn,
                       v->name, buf, buf);
  if (!(v->cols[v->ncol].name = lsk__strdup(buf)))
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  v->cols[v->ncol].src = src;
  v->cols[v->ncol].member = member;
  ++v->ncol;
  return LSK_OK;
}

/* The next item of a column list at *list: the local name and the name it
 * selects ("a" or "a=b"); 0 at the end. */
static int next_item(const char **list, const char **local, size_t *llen, const char **sel,
                     size_t *slen)
{
  const char *p = *list + strspn(*list, ", ");
  if (!*p)
    return 0;
  size_t len = strcspn(p, ", ");
  const char *eq = memchr(p, '=', len);
  *local = p;
  *llen = eq ? (size_t)(eq - p) : len;
  *sel = eq ? eq + 1 : p;
  *slen = eq ? len - *llen - 1 : len;
  *list = p + len;
  return 1;
}

/* The candidates a column list picks from: n names, each standing for
 * member member[i] of source src[i]. */
typedef struct cands {
  size_t n;
  const char **name;
  size_t *src, *member;
  const char *what; /* "layout 'hits'" or "view 'pos'", for messages */
} cands;

/* Adds the columns list selects from c (NULL: all of them, unrenamed). */
static int add_list(lsk_view *v, const cands *c, const char *list, const char *fn)
{
  for (size_t i = 0; !list && i < c->n; ++i) {
    int rc = add_col(v, c->src[i], c->member[i], c->name[i], strlen(c->name[i]), fn);
    if (rc)
      return rc;
  }
  const char *local, *sel;
  size_t llen, slen;
  while (list && next_item(&list, &local, &llen, &sel, &slen)) {
    size_t i = 0;
    while (i < c->n && !(strlen(c->name[i]) == slen && strncmp(c->name[i], sel, slen) == 0))
      ++i;
    if (i == c->n)
      return lsk__fail(NULL, LSK_EINVAL, "%s: view '%s': %s has no %s '%.*s'", fn, v->name, c->what,
                       c->what[0] == 'l' ? "member" : "column", (int)slen, sel);
    int rc = add_col(v, c->src[i], c->member[i], local, llen, fn);
    if (rc)
      return rc;
  }
  return LSK_OK;
}

static int cands_alloc(cands *c, size_t n, const char *fn)
{
  c->n = n;
  c->name = calloc(n ? n : 1, sizeof *c->name);
  c->src = calloc(n ? n : 1, sizeof *c->src);
  c->member = calloc(n ? n : 1, sizeof *c->member);
  return c->name && c->src && c->member ? LSK_OK
                                        : lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
}

static void cands_free(cands *c)
{
  free(c->name);
  free(c->src);
  free(c->member);
}

static int finish(lsk_view *v, int rc, lsk_view **out, const char *fn)
{
  if (!rc && v->ncol == 0)
    rc = lsk__fail(NULL, LSK_EINVAL, "%s: view '%s' has no column", fn, v->name);
  if (rc) {
    lsk_view_destroy(v);
    return rc;
  }
  *out = v;
  return LSK_OK;
}

int lsk_view_create(const char *name, size_t k, const lsk_layout *const *layouts,
                    const char *const *columns, const lsk_view_options *opt, lsk_view **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  if (k == 0 || !layouts)
    return lsk__fail(NULL, LSK_EINVAL, "%s: no layout", __func__);
  size_t maxcol = 0;
  for (size_t j = 0; j < k; ++j) {
    char what[40];
    snprintf(what, sizeof what, "layouts[%zu]", j);
    LSK__LIVE(NULL, layouts[j], LAYOUT, __func__, what);
    maxcol += layouts[j]->count;
  }
  lsk_view *v = NULL;
  int rc = view_new(name, k, maxcol, opt, &v, __func__);
  for (size_t j = 0; j < k && !rc; ++j) {
    const lsk_layout *l = layouts[j];
    char what[96];
    snprintf(what, sizeof what, "layout '%s'", l->name);
    cands c = {0};
    rc = cands_alloc(&c, l->count, __func__);
    for (size_t i = 0; !rc && i < l->count; ++i) {
      c.name[i] = l->members[i].name;
      c.src[i] = j;
      c.member[i] = i;
    }
    c.what = what;
    v->src[j] = l;
    if (!rc)
      rc = add_list(v, &c, columns ? columns[j] : NULL, __func__);
    cands_free(&c);
  }
  return v ? finish(v, rc, out, __func__) : rc;
}

int lsk_view_from_views(const char *name, size_t k, const lsk_view *const *views,
                        const char *const *columns, const lsk_view_options *opt, lsk_view **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  if (k == 0 || !views)
    return lsk__fail(NULL, LSK_EINVAL, "%s: no view", __func__);
  size_t maxcol = 0, nsrc = 0;
  for (size_t j = 0; j < k; ++j) {
    char what[40];
    snprintf(what, sizeof what, "views[%zu]", j);
    LSK__LIVE(NULL, views[j], VIEW, __func__, what);
    maxcol += views[j]->ncol;
    nsrc += views[j]->nsrc;
  }
  lsk_view *v = NULL;
  int rc = view_new(name, nsrc, maxcol, opt, &v, __func__);
  /* View j's sources follow those of the views before it. */
  for (size_t j = 0, shift = 0; j < k && !rc; shift += views[j]->nsrc, ++j) {
    const lsk_view *w = views[j];
    char what[96];
    snprintf(what, sizeof what, "view '%s'", w->name);
    cands c = {0};
    rc = cands_alloc(&c, w->ncol, __func__);
    for (size_t i = 0; !rc && i < w->ncol; ++i) {
      c.name[i] = w->cols[i].name;
      c.src[i] = shift + w->cols[i].src;
      c.member[i] = w->cols[i].member;
    }
    c.what = what;
    for (size_t s = 0; s < w->nsrc; ++s)
      v->src[shift + s] = w->src[s];
    if (!rc)
      rc = add_list(v, &c, columns ? columns[j] : NULL, __func__);
    cands_free(&c);
  }
  return v ? finish(v, rc, out, __func__) : rc;
}

const char *lsk_view_name(const lsk_view *v)
{
  LSK__LIVE_OR(NULL, v, VIEW, __func__, "view");
  return v->name;
}

size_t lsk_view_column_count(const lsk_view *v)
{
  LSK__LIVE_OR(0, v, VIEW, __func__, "view");
  return v->ncol;
}

const char *lsk_view_column_name(const lsk_view *v, size_t i)
{
  LSK__LIVE_OR(NULL, v, VIEW, __func__, "view");
  return i < v->ncol ? v->cols[i].name : NULL;
}

size_t lsk_view_source_count(const lsk_view *v)
{
  LSK__LIVE_OR(0, v, VIEW, __func__, "view");
  return v->nsrc;
}
