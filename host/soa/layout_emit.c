/*
 * layout_emit.c: OpenCL C and host C generated from a layout. The shapes
 * of the generated code are documented in docs/soa.md.
 *
 * Device side: a kernel takes a view as one restrict pointer per member, all
 * bound to the same buffer, plus the layout's byte offset in the buffer and
 * the element count. Kernel parameters are where OpenCL compilers honour
 * restrict (LLVM's noalias), and members are disjoint ranges of the buffer,
 * so the promise holds. Offsets are recomputed on the device from n with
 * the same rule as the host.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soa/layout.h"

typedef struct emit {
  size_t k; /* layouts in the view */
  const lsk_layout *const *ls;
  int **sel;        /* sel[j][i]: member i of layout j is in the view */
  const char *view; /* view name */
  char upper[72];   /* view name in capitals, for macros */
  lsk__sb sb;
} emit;

static void release(emit *e)
{
  for (size_t j = 0; e->sel && j < e->k; ++j)
    free(e->sel[j]);
  free(e->sel);
  e->sel = NULL;
}

/* Marks the members of layout j named in list (comma-separated; NULL: all). */
static int select_members(emit *e, size_t j, const char *list, const char *fn)
{
  const lsk_layout *l = e->ls[j];
  if (!(e->sel[j] = calloc(l->count ? l->count : 1, sizeof **e->sel)))
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  for (size_t i = 0; !list && i < l->count; ++i)
    e->sel[j][i] = 1;
  while (list && *list) {
    size_t len = strcspn(list, ", ");
    size_t i = 0;
    for (; i < l->count; ++i)
      if (strlen(l->members[i].name) == len && strncmp(l->members[i].name, list, len) == 0)
        break;
    if (len && i == l->count)
      return lsk__fail(NULL, LSK_EINVAL, "%s: layout '%s' has no member '%.*s'", fn, l->name,
                       (int)len, list);
    if (len && e->sel[j][i])
      return lsk__fail(NULL, LSK_EINVAL, "%s: member '%s' named twice in the view", fn,
                       l->members[i].name);
    if (len)
      e->sel[j][i] = 1;
    list += len;
    list += strspn(list, ", ");
  }
  return LSK_OK;
}

/* Checks the arguments and prepares e; on failure nothing is left to free. */
static int setup(emit *e, const char *view, size_t k, const lsk_layout *const *ls,
                 const char *const *members, char **text, const char *fn)
{
  memset(e, 0, sizeof *e);
  if (!text)
    return lsk__fail(NULL, LSK_EINVAL, "%s: text is NULL", fn);
  *text = NULL;
  if (k == 0 || !ls)
    return lsk__fail(NULL, LSK_EINVAL, "%s: no layout", fn);
  for (size_t j = 0; j < k; ++j) {
    char what[32];
    if (k > 1)
      snprintf(what, sizeof what, "layouts[%zu]", j);
    LSK__LIVE(NULL, ls[j], LAYOUT, fn, k > 1 ? what : "layout");
  }
  e->k = k;
  e->ls = ls;
  e->view = view ? view : ls[0]->name;
  const char *why = lsk__bad_identifier(e->view);
  if (why)
    return lsk__fail(NULL, LSK_EINVAL, "%s: view name '%s' %s", fn, e->view, why);
  size_t c = 0;
  for (; e->view[c] && c + 1 < sizeof e->upper; ++c)
    e->upper[c] = (char)toupper((unsigned char)e->view[c]);
  e->upper[c] = 0;
  if (!(e->sel = calloc(k, sizeof *e->sel)))
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  int rc = LSK_OK;
  size_t nsel = 0;
  for (size_t j = 0; j < k && !rc; ++j) {
    for (size_t jj = 0; jj < j && !rc; ++jj)
      if (strcmp(ls[j]->name, ls[jj]->name) == 0)
        rc = lsk__fail(NULL, LSK_EINVAL, "%s: layout '%s' appears twice in the view", fn,
                       ls[j]->name);
    if (!rc)
      rc = select_members(e, j, members ? members[j] : NULL, fn);
    /* Member names must be unique across the view's layouts. */
    for (size_t i = 0; !rc && i < ls[j]->count; ++i) {
      if (!e->sel[j][i])
        continue;
      ++nsel;
      for (size_t jj = 0; jj < j && !rc; ++jj)
        for (size_t ii = 0; ii < ls[jj]->count && !rc; ++ii)
          if (e->sel[jj][ii] && strcmp(ls[j]->members[i].name, ls[jj]->members[ii].name) == 0)
            rc = lsk__fail(NULL, LSK_EINVAL,
                           "%s: member '%s' is in layouts '%s' and '%s'; a view needs unique "
                           "names (make two views, or select one)",
                           fn, ls[j]->members[i].name, ls[jj]->name, ls[j]->name);
    }
  }
  if (!rc && nsel == 0)
    rc = lsk__fail(NULL, LSK_EINVAL, "%s: a view of layout '%s' needs at least one member", fn,
                   ls[0]->name);
  if (rc)
    release(e);
  return rc;
}

/* The prefix of layout j's offset functions: the view's name for a view of
 * one layout, view_layout for views of several. */
static void prefix(const emit *e, size_t j, char *out, size_t cap)
{
  if (e->k == 1)
    snprintf(out, cap, "%s", e->view);
  else
    snprintf(out, cap, "%s_%s", e->view, e->ls[j]->name);
}

/* The name of layout j's byte offset: "base" or "base_L". */
static void base_name(const emit *e, size_t j, char *out, size_t cap)
{
  if (e->k == 1)
    snprintf(out, cap, "base");
  else
    snprintf(out, cap, "base_%s", e->ls[j]->name);
}

/* The byte size of member m for n (an expression in n, device or host).
 * A stagger is added to each component through pad_fn (the host's
 * saturating add) or with + (NULL, the device); without one the text is
 * what it was before staggers existed. */
static void size_expr(emit *e, const lsk_layout *l, const lsk__member *m, const char *align_fn,
                      const char *pad_fn, const char *ntype)
{
  size_t a = l->align, s = l->stagger;
  if (m->kind == LSK_MEMBER_SCALAR)
    lsk__sb_printf(&e->sb, "((void)n, %zu)", (m->type_size + a - 1) / a * a);
  else if (!s)
    lsk__sb_printf(&e->sb, "%u * %s((%s)n * %zu, %zu)", m->rows * m->cols, align_fn, ntype,
                   m->type_size, a);
  else if (pad_fn)
    lsk__sb_printf(&e->sb, "%u * %s(%s((%s)n * %zu, %zu), %zu)", m->rows * m->cols, pad_fn,
                   align_fn, ntype, m->type_size, a, s);
  else
    lsk__sb_printf(&e->sb, "%u * (%s((%s)n * %zu, %zu) + %zu)", m->rows * m->cols, align_fn, ntype,
                   m->type_size, a, s);
}

/* Prints fmt once per member of the view, with sep between: @T type, @M
 * member, @U view in capitals, @B the member's layout's base name. */
static void each_selected(emit *e, const char *fmt, const char *sep)
{
  int first = 1;
  for (size_t j = 0; j < e->k; ++j)
    for (size_t i = 0; i < e->ls[j]->count; ++i) {
      if (!e->sel[j][i])
        continue;
      const lsk__member *m = &e->ls[j]->members[i];
      char base[96];
      base_name(e, j, base, sizeof base);
      if (!first)
        lsk__sb_printf(&e->sb, "%s", sep);
      first = 0;
      for (const char *p = fmt; *p;) {
        if (p[0] == '@' && p[1]) {
          const char *val = p[1] == 'T'   ? m->type
                            : p[1] == 'M' ? m->name
                            : p[1] == 'U' ? e->upper
                            : p[1] == 'B' ? base
                                          : "";
          lsk__sb_printf(&e->sb, "%s", val);
          p += 2;
        } else {
          lsk__sb_printf(&e->sb, "%c", *p++);
        }
      }
    }
}

/* The bases of the view's layouts, as "<pre>base<post>" pieces. */
static void each_base(emit *e, const char *pre, const char *post, const char *sep)
{
  for (size_t j = 0; j < e->k; ++j) {
    char base[96];
    base_name(e, j, base, sizeof base);
    lsk__sb_printf(&e->sb, "%s%s%s%s", j ? sep : "", pre, base, post);
  }
}

static void emit_offsets(emit *e, const char *qual, const char *align_fn, const char *pad_fn,
                         const char *ntype, const char *rtype)
{
  lsk__sb *sb = &e->sb;
  for (size_t j = 0; j < e->k; ++j) {
    const lsk_layout *l = e->ls[j];
    char P[128];
    prefix(e, j, P, sizeof P);
    for (size_t k = 0; k < l->count; ++k) {
      const lsk__member *m = &l->members[k];
      lsk__sb_printf(sb, "%s %s %s__size_%s(%s n) { return ", qual, rtype, P, m->name, ntype);
      size_expr(e, l, m, align_fn, pad_fn, ntype);
      lsk__sb_printf(sb, "; }\n");
      lsk__sb_printf(sb, "%s %s %s_offset_%s(%s n) { return ", qual, rtype, P, m->name, ntype);
      if (k == 0)
        lsk__sb_printf(sb, "((void)n, 0)");
      else
        lsk__sb_printf(sb, "%s_offset_%s(n) + %s__size_%s(n)", P, l->members[k - 1].name, P,
                       l->members[k - 1].name);
      lsk__sb_printf(sb, "; }\n");
    }
    lsk__sb_printf(sb, "%s %s %s_bytes(%s n) { return ", qual, rtype, P, ntype);
    if (l->count == 0)
      lsk__sb_printf(sb, "((void)n, 0)");
    else
      lsk__sb_printf(sb, "%s_offset_%s(n) + %s__size_%s(n)", P, l->members[l->count - 1].name, P,
                     l->members[l->count - 1].name);
    lsk__sb_printf(sb, "; }\n");
  }
}

/* The view struct, its constructor and accessors, for the mutable (cq = "")
 * or the const (cq = "const ") flavour. */
static void emit_cl_view(emit *e, const char *cq, const char *suffix)
{
  lsk__sb *sb = &e->sb;
  const char *V = e->view, *U = e->upper;
  lsk__sb_printf(sb, "\ntypedef struct %s%s_view {\n", V, suffix);
  for (size_t j = 0; j < e->k; ++j)
    for (size_t k = 0; k < e->ls[j]->count; ++k) {
      const lsk__member *m = &e->ls[j]->members[k];
      if (!e->sel[j][k])
        continue;
      lsk__sb_printf(sb, "  __global %s%s *%s__R %s;\n", cq, m->type, U, m->name);
      if (m->kind == LSK_MEMBER_MATRIX)
        lsk__sb_printf(sb, "  uint lsk__stride_%s;\n", m->name);
    }
  lsk__sb_printf(sb, "  uint lsk__n;\n  __global uint *lsk__ctx;\n} %s%s_view;\n\n", V, suffix);
  lsk__sb_printf(sb, "LSK_INLINE %s%s_view %s%s_view_make(", V, suffix, V, suffix);
  each_selected(e, cq[0] ? "__global const @T *lsk__p_@M" : "__global @T *lsk__p_@M", ", ");
  lsk__sb_printf(sb, ", ");
  each_base(e, "ulong ", "", ", ");
  lsk__sb_printf(sb, ", uint n, __global uint *ctx)\n{\n  %s%s_view lsk__v;\n", V, suffix);
  for (size_t j = 0; j < e->k; ++j) {
    char P[128], base[96];
    prefix(e, j, P, sizeof P);
    base_name(e, j, base, sizeof base);
    for (size_t k = 0; k < e->ls[j]->count; ++k) {
      const lsk__member *m = &e->ls[j]->members[k];
      if (!e->sel[j][k])
        continue;
      lsk__sb_printf(sb,
                     "  lsk__v.%s = (__global %s%s *)((__global %suchar *)lsk__p_%s + %s + "
                     "%s_offset_%s(n));\n",
                     m->name, cq, m->type, cq, m->name, base, P, m->name);
      if (m->kind == LSK_MEMBER_MATRIX)
        lsk__sb_printf(sb, "  lsk__v.lsk__stride_%s = (uint)(%s__size_%s(n) / %u / %zu);\n",
                       m->name, P, m->name, m->rows * m->cols, m->type_size);
    }
  }
  lsk__sb_printf(sb, "  lsk__v.lsk__n = n;\n  lsk__v.lsk__ctx = ctx;\n  return lsk__v;\n}\n");
  lsk__sb_printf(sb, "#define %s%s_VIEW(p) %s%s_view_make(", U, cq[0] ? "_CONST" : "", V, suffix);
  each_selected(e, "p##_@M", ", ");
  lsk__sb_printf(sb, ", ");
  each_base(e, "p##_", "", ", ");
  lsk__sb_printf(sb, ", p##_n, LSK_CTX_FWD)\n\n");

  /* Accessors. */
  for (size_t j = 0; j < e->k; ++j) {
    const char *L = e->ls[j]->name;
    for (size_t k = 0; k < e->ls[j]->count; ++k) {
      const lsk__member *m = &e->ls[j]->members[k];
      if (!e->sel[j][k])
        continue;
      const char *M = m->name;
      char what[256];
      /* What a failed range check names; the view too where its name is
       * not the layout's. */
      snprintf(what, sizeof what, "layout '%s' member '%s'", L, M);
      if (strcmp(V, L) != 0)
        snprintf(what + strlen(what), sizeof what - strlen(what), " (view '%s')", V);
      lsk__emit_accessors(sb, m, V, U, suffix, cq, M, what);
    }
  }
}

/* Member m's accessors, called N in view V (upper case U, suffix "" or
 * "_const", cq "" or "const"); what is what a failed range check names.
 * Shared by layout views and lsk_view views, so both read alike. */
void lsk__emit_accessors(lsk__sb *sb, const lsk__member *m, const char *V, const char *U,
                         const char *suffix, const char *cq, const char *N, const char *what)
{
  const char *T = m->type;
  char fn[160];
  snprintf(fn, sizeof fn, "%s%s_%s", V, suffix, N);
  if (m->kind == LSK_MEMBER_SCALAR) {
    lsk__sb_printf(sb, "LSK_INLINE %s %s(%s%s_view v) { return v.%s[0]; }\n", T, fn, V, suffix, N);
    if (!cq[0])
      lsk__sb_printf(sb, "LSK_INLINE void %s_set_%s(%s_view v, %s x) { v.%s[0] = x; }\n", V, N, V,
                     T, N);
  } else if (m->kind == LSK_MEMBER_COLUMN) {
    lsk__sb_printf(sb,
                   "LSK_INLINE %s lsk__%s(%s%s_view v, uint i %s__AT)\n{\n  return "
                   "%s__IN(v, i, \"%s\") ? v.%s[i] : (%s)0;\n}\n#define %s(v, i) "
                   "lsk__%s(v, i %s__POS)\n",
                   T, fn, V, suffix, U, U, what, N, T, fn, fn, U);
    if (!cq[0])
      lsk__sb_printf(sb,
                     "LSK_INLINE void lsk__%s_set_%s(%s_view v, uint i, %s x %s__AT)\n{\n  "
                     "if (%s__IN(v, i, \"%s\"))\n    v.%s[i] = x;\n}\n#define %s_set_%s(v, "
                     "i, x) lsk__%s_set_%s(v, i, x %s__POS)\n",
                     V, N, V, T, U, U, what, N, V, N, V, N, U);
  } else {
    lsk__sb_printf(sb,
                   "LSK_INLINE %s lsk__%s(%s%s_view v, uint i, uint r, uint c %s__AT)\n{\n "
                   " return %s__IN(v, i, \"%s\") && %s__INC(v, r, %u, c, %u, \"%s\") ? "
                   "v.%s[i + (r + c * %u) * v.lsk__stride_%s] : (%s)0;\n}\n#define %s(v, "
                   "i, r, c) lsk__%s(v, i, r, c %s__POS)\n",
                   T, fn, V, suffix, U, U, what, U, m->rows, m->cols, what, N, m->rows, N, T, fn,
                   fn, U);
    if (!cq[0])
      lsk__sb_printf(sb,
                     "LSK_INLINE void lsk__%s_set_%s(%s_view v, uint i, uint r, uint c, %s "
                     "x %s__AT)\n{\n  if (%s__IN(v, i, \"%s\") && %s__INC(v, r, %u, c, "
                     "%u, \"%s\"))\n    v.%s[i + (r + c * %u) * v.lsk__stride_%s] = "
                     "x;\n}\n#define %s_set_%s(v, i, r, c, x) lsk__%s_set_%s(v, i, r, c, x "
                     "%s__POS)\n",
                     V, N, V, T, U, U, what, U, m->rows, m->cols, what, N, m->rows, N, V, N, V, N,
                     U);
  }
}

/* A generated view's switches: NAME_CHECK (range-checked accessors that
 * name the caller's line) and NAME_RESTRICT. Shared with lsk_view. */
void lsk__emit_switches(lsk__sb *sb, const char *U)
{
  lsk__sb_printf(sb,
                 "/* -D%s_CHECK=1: accessors check indices (LSK_VERIFY); -D%s_RESTRICT=0: no "
                 "restrict. */\n#ifndef %s_CHECK\n#define %s_CHECK 0\n#endif\n#ifndef "
                 "%s_RESTRICT\n#define %s_RESTRICT 1\n#endif\n#if %s_RESTRICT\n#define %s__R "
                 "restrict\n#else\n#define %s__R\n#endif\n",
                 U, U, U, U, U, U, U, U, U);
  /* With CHECK on, each checked accessor is a macro that passes its
   * caller's __FILE__ and __LINE__ (__AT: the parameters, __POS: the
   * arguments), so that a failure names the user's line; with CHECK off
   * nothing is passed. */
  lsk__sb_printf(sb,
                 "#if %s_CHECK\n#define %s__AT , __constant char *lsk__file, uint lsk__line\n"
                 "#define %s__POS , __FILE__, __LINE__\n#define %s__IN(v, i, what) "
                 "lsk__soa_in((v).lsk__ctx, (i), (v).lsk__n, what, lsk__file, lsk__line)\n"
                 "#define %s__INC(v, r, R, c, C, what) (lsk__soa_in((v).lsk__ctx, (r), (R), "
                 "what \" row\", lsk__file, lsk__line) && lsk__soa_in((v).lsk__ctx, (c), (C), "
                 "what \" column\", lsk__file, lsk__line))\n#else\n#define %s__AT\n#define "
                 "%s__POS\n#define %s__IN(v, i, what) 1\n#define %s__INC(v, r, R, c, C, what) "
                 "1\n#endif\n",
                 U, U, U, U, U, U, U, U, U);
}

static int emit_cl(emit *e, char **text, const char *fn)
{
  lsk__sb *sb = &e->sb;
  const char *U = e->upper;
  lsk__sb_printf(sb, "/* Generated by lsk %s: view '%s' of ", LSK_VERSION_STRING, e->view);
  for (size_t j = 0; j < e->k; ++j) {
    lsk__sb_printf(sb, "%slayout '%s' (alignment %zu", j ? ", " : "", e->ls[j]->name,
                   e->ls[j]->align);
    if (e->ls[j]->stagger)
      lsk__sb_printf(sb, ", stagger %zu", e->ls[j]->stagger);
    lsk__sb_printf(sb, ")");
  }
  lsk__sb_printf(sb, ": ");
  each_selected(e, "@M", ", ");
  lsk__sb_printf(sb, ". Do not edit. */\n#ifndef LSK_VIEW_%s\n#define LSK_VIEW_%s\n", U, U);
  lsk__emit_switches(sb, U);
  lsk__sb_printf(sb, "\n/* Byte sizes and offsets for n elements (the host's rule). */\n");
  emit_offsets(e, "LSK_INLINE", "lsk__soa_align", NULL, "ulong", "ulong");
  lsk__sb_printf(sb, "\n/* Kernel parameters of a view called p: one pointer per member, all "
                     "to the same buffer, the byte offset of each layout in it and the element "
                     "count. */\n");
  lsk__sb_printf(sb, "#define %s_PARAMS(p) ", U);
  each_selected(e, "__global @T *@U__R p##_@M", ", ");
  lsk__sb_printf(sb, ", ");
  each_base(e, "ulong p##_", "", ", ");
  lsk__sb_printf(sb, ", uint p##_n\n#define %s_CONST_PARAMS(p) ", U);
  each_selected(e, "__global const @T *@U__R p##_@M", ", ");
  lsk__sb_printf(sb, ", ");
  each_base(e, "ulong p##_", "", ", ");
  lsk__sb_printf(sb, ", uint p##_n\n");
  emit_cl_view(e, "", "");
  emit_cl_view(e, "const ", "_const");
  lsk__sb_printf(sb, "#endif /* LSK_VIEW_%s */\n", U);
  release(e);
  return lsk__sb_finish(sb, text, fn);
}

int lsk_layout_emit_cl(const lsk_layout *l, const lsk_emit_options *opt, char **text)
{
  LSK__API();
  emit e;
  const char *members[1] = {opt ? opt->members : NULL};
  int rc = setup(&e, opt ? opt->view_name : NULL, 1, &l, members, text, __func__);
  return rc ? rc : emit_cl(&e, text, __func__);
}

int lsk_layout_emit_view_cl(const char *view_name, size_t k, const lsk_layout *const *layouts,
                            const char *const *members, char **text)
{
  LSK__API();
  if (!view_name)
    return lsk__fail(NULL, LSK_EINVAL, "%s: view_name is NULL", __func__);
  emit e;
  int rc = setup(&e, view_name, k, layouts, members, text, __func__);
  return rc ? rc : emit_cl(&e, text, __func__);
}

/* The C view's head: the guard, the alignment and the offsets. */
static void emit_c_head(emit *e, const lsk_layout *l)
{
  lsk__sb *sb = &e->sb;
  const char *V = e->view, *U = e->upper, *L = l->name;
  char stagger[48] = "";
  if (l->stagger)
    snprintf(stagger, sizeof stagger, ", stagger %zu", l->stagger);
  lsk__sb_printf(sb,
                 "/* Generated by lsk %s from layout '%s' (alignment %zu%s): host view '%s'. Do "
                 "not edit. */\n#ifndef LSK_HOST_VIEW_%s\n#define LSK_HOST_VIEW_%s\n#include "
                 "<lsk/lsk.h>\n#include <stdint.h>\n\n",
                 LSK_VERSION_STRING, L, l->align, stagger, V, U, U);
  lsk__sb_printf(sb, "#define %s_ALIGN %zu\n", U, l->align);
  if (l->stagger)
    lsk__sb_printf(sb, "#define %s_STAGGER %zu\n", U, l->stagger);
  lsk__sb_printf(sb,
                 "static inline size_t %s__align(size_t x, size_t a) { return x > SIZE_MAX - a "
                 "? SIZE_MAX : (x + a - 1) / a * a; }\n",
                 V);
  /* Sizes saturate at SIZE_MAX: a caller checks for it before allocating. */
  char align_fn[80], pad_fn[80];
  snprintf(align_fn, sizeof align_fn, "%s__align", V);
  snprintf(pad_fn, sizeof pad_fn, "%s__pad", V);
  if (l->stagger)
    lsk__sb_printf(sb,
                   "static inline size_t %s__pad(size_t x, size_t s) { return x > SIZE_MAX - s ? "
                   "SIZE_MAX : x + s; }\n",
                   V);
  emit_offsets(e, "static inline", align_fn, pad_fn, "size_t", "size_t");
}

/* The const host view (CMSSW's ConstView): const pointers, a bind that
 * takes const memory, the conversion from the mutable view; getters only
 * (emit_c_access). */
static void emit_c_const(emit *e)
{
  lsk__sb *sb = &e->sb;
  const lsk_layout *l = e->ls[0];
  const char *V = e->view;
  lsk__sb_printf(sb, "typedef struct %s_const_host {\n", V);
  for (size_t k = 0; k < l->count; ++k) {
    const lsk__member *m = &l->members[k];
    if (!e->sel[0][k])
      continue;
    lsk__sb_printf(sb, "  const cl_%s *%s;\n", m->type, m->name);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "  size_t lsk_stride_%s;\n", m->name);
  }
  lsk__sb_printf(sb, "  size_t lsk_n;\n} %s_const_host;\n\n", V);
  lsk__sb_printf(
      sb, "static inline %s_const_host %s_as_const(const %s_host *v)\n{\n  %s_const_host c;\n", V,
      V, V, V);
  for (size_t k = 0; k < l->count; ++k) {
    const lsk__member *m = &l->members[k];
    if (!e->sel[0][k])
      continue;
    lsk__sb_printf(sb, "  c.%s = v->%s;\n", m->name, m->name);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "  c.lsk_stride_%s = v->lsk_stride_%s;\n", m->name, m->name);
  }
  lsk__sb_printf(sb, "  c.lsk_n = v->lsk_n;\n  return c;\n}\n");
  lsk__sb_printf(sb,
                 "/* The const view of memory %s_bind would accept (the same checks). */\n"
                 "static inline int %s_bind_const(%s_const_host *c, const void *mem, size_t n)\n{\n"
                 "  %s_host v;\n  memset(&v, 0, sizeof v);\n  int rc = %s_bind(c ? &v : NULL, "
                 "(void *)(uintptr_t)mem, n);\n"
                 "  if (!rc)\n    *c = %s_as_const(&v);\n  return rc;\n}\n\n",
                 V, V, V, V, V, V);
}

/* The C view's struct of pointers and its bind function. */
static void emit_c_struct(emit *e, const lsk_layout *l)
{
  lsk__sb *sb = &e->sb;
  const char *V = e->view, *L = l->name;
  lsk__sb_printf(sb, "\ntypedef struct %s_host {\n", V);
  for (size_t k = 0; k < l->count; ++k) {
    const lsk__member *m = &l->members[k];
    if (!e->sel[0][k])
      continue;
    lsk__sb_printf(sb, "  cl_%s *%s;\n", m->type, m->name);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "  size_t lsk_stride_%s;\n", m->name);
  }
  lsk__sb_printf(sb, "  size_t lsk_n;\n} %s_host;\n\n", V);
  lsk__sb_printf(sb,
                 "/* Points the view at mem, which holds the layout for n elements and is "
                 "aligned to %zu bytes. */\nstatic inline int %s_bind(%s_host *v, void *mem, "
                 "size_t n)\n{\n  if (!v || !mem || (uintptr_t)mem %% %zu)\n    return "
                 "lsk_soa_misaligned(\"%s\", mem, %zu);\n  unsigned char *b = (unsigned char "
                 "*)mem;\n",
                 l->align, V, V, l->align, L, l->align);
  for (size_t k = 0; k < l->count; ++k) {
    const lsk__member *m = &l->members[k];
    if (!e->sel[0][k])
      continue;
    lsk__sb_printf(sb, "  v->%s = (cl_%s *)(b + %s_offset_%s(n));\n", m->name, m->type, V, m->name);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "  v->lsk_stride_%s = %s__size_%s(n) / %u / %zu;\n", m->name, V, m->name,
                     m->rows * m->cols, m->type_size);
  }
  lsk__sb_printf(sb, "  v->lsk_n = n;\n  return LSK_OK;\n}\n\n");
  emit_c_const(e);
}

/* The const view's getter of member m (checked, as the mutable one's). */
static void emit_c_const_get(emit *e, const char *L, const lsk__member *m)
{
  lsk__sb *sb = &e->sb;
  const char *V = e->view, *T = m->type, *M = m->name;
  if (m->kind == LSK_MEMBER_SCALAR) {
    lsk__sb_printf(sb,
                   "static inline cl_%s %s_const_%s(const %s_const_host *v) { return v->%s[0]; }\n",
                   T, V, M, V, M);
  } else if (m->kind == LSK_MEMBER_COLUMN) {
    lsk__sb_printf(sb,
                   "static inline int lsk__%s_const_get_%s(const %s_const_host *v, size_t i, cl_%s "
                   "*out, const char *file, int line)\n{\n  if (i >= v->lsk_n)\n    return "
                   "lsk_soa_range_error(file, line, \"%s\", \"%s\", i, v->lsk_n);\n  *out = "
                   "v->%s[i];\n  return LSK_OK;\n}\n#define %s_const_get_%s(v, i, out) "
                   "lsk__%s_const_get_%s(v, i, out, __FILE__, __LINE__)\n",
                   V, M, V, T, L, M, M, V, M, V, M);
  } else {
    lsk__sb_printf(sb,
                   "static inline int lsk__%s_const_get_%s(const %s_const_host *v, size_t i, "
                   "unsigned r, unsigned c, cl_%s *out, const char *file, int line)\n{\n  if (i >= "
                   "v->lsk_n || r >= %uu || c >= %uu)\n    return lsk_soa_range_error(file, line, "
                   "\"%s\", \"%s\", i, v->lsk_n);\n  *out = v->%s[i + (r + c * %uu) * "
                   "v->lsk_stride_%s];\n  return LSK_OK;\n}\n#define %s_const_get_%s(v, i, r, c, "
                   "out) lsk__%s_const_get_%s(v, i, r, c, out, __FILE__, __LINE__)\n",
                   V, M, V, T, m->rows, m->cols, L, M, M, m->rows, M, V, M, V, M);
  }
}

/* The C view's get and set of member m of layout L; the checked ones are
 * macros that pass the caller's __FILE__ and __LINE__ for the message. */
static void emit_c_access(emit *e, const char *L, const lsk__member *m)
{
  lsk__sb *sb = &e->sb;
  const char *V = e->view, *T = m->type, *M = m->name;
  if (m->kind == LSK_MEMBER_SCALAR) {
    lsk__sb_printf(sb, "static inline cl_%s %s_%s(const %s_host *v) { return v->%s[0]; }\n", T, V,
                   M, V, M);
    lsk__sb_printf(sb, "static inline void %s_set_%s(%s_host *v, cl_%s x) { v->%s[0] = x; }\n", V,
                   M, V, T, M);
  } else if (m->kind == LSK_MEMBER_COLUMN) {
    lsk__sb_printf(sb,
                   "static inline int lsk__%s_get_%s(const %s_host *v, size_t i, cl_%s *out, "
                   "const char *file, int line)\n{\n  if (i >= v->lsk_n)\n    return "
                   "lsk_soa_range_error(file, line, \"%s\", \"%s\", i, v->lsk_n);\n  *out = "
                   "v->%s[i];\n  return LSK_OK;\n}\n#define %s_get_%s(v, i, out) "
                   "lsk__%s_get_%s(v, i, out, __FILE__, __LINE__)\n",
                   V, M, V, T, L, M, M, V, M, V, M);
    lsk__sb_printf(sb,
                   "static inline int lsk__%s_set_%s(%s_host *v, size_t i, cl_%s x, const char "
                   "*file, int line)\n{\n  if (i >= v->lsk_n)\n    return "
                   "lsk_soa_range_error(file, line, \"%s\", \"%s\", i, v->lsk_n);\n  v->%s[i] = "
                   "x;\n  return LSK_OK;\n}\n#define %s_set_%s(v, i, x) lsk__%s_set_%s(v, i, x, "
                   "__FILE__, __LINE__)\n",
                   V, M, V, T, L, M, M, V, M, V, M);
  } else {
    /* Component (r, c) of element i; r and c out of range count as i. */
    lsk__sb_printf(sb,
                   "static inline int lsk__%s_get_%s(const %s_host *v, size_t i, unsigned r, "
                   "unsigned c, cl_%s *out, const char *file, int line)\n{\n  if (i >= v->lsk_n "
                   "|| r >= %uu || c >= %uu)\n    return lsk_soa_range_error(file, line, \"%s\", "
                   "\"%s\", i, v->lsk_n);\n  *out = v->%s[i + (r + c * %uu) * "
                   "v->lsk_stride_%s];\n  return LSK_OK;\n}\n#define %s_get_%s(v, i, r, c, out) "
                   "lsk__%s_get_%s(v, i, r, c, out, __FILE__, __LINE__)\n",
                   V, M, V, T, m->rows, m->cols, L, M, M, m->rows, M, V, M, V, M);
    lsk__sb_printf(sb,
                   "static inline int lsk__%s_set_%s(%s_host *v, size_t i, unsigned r, unsigned "
                   "c, cl_%s x, const char *file, int line)\n{\n  if (i >= v->lsk_n || r >= %uu "
                   "|| c >= %uu)\n    return lsk_soa_range_error(file, line, \"%s\", \"%s\", i, "
                   "v->lsk_n);\n  v->%s[i + (r + c * %uu) * v->lsk_stride_%s] = x;\n  return "
                   "LSK_OK;\n}\n#define %s_set_%s(v, i, r, c, x) lsk__%s_set_%s(v, i, r, c, x, "
                   "__FILE__, __LINE__)\n",
                   V, M, V, T, m->rows, m->cols, L, M, M, m->rows, M, V, M, V, M);
  }
  emit_c_const_get(e, L, m);
}

int lsk_layout_emit_c(const lsk_layout *l, const lsk_emit_options *opt, char **text)
{
  LSK__API();
  emit e;
  const char *members[1] = {opt ? opt->members : NULL};
  int rc = setup(&e, opt ? opt->view_name : NULL, 1, &l, members, text, __func__);
  if (rc)
    return rc;
  lsk__sb *sb = &e.sb;
  const char *U = e.upper;
  emit_c_head(&e, l);
  emit_c_struct(&e, l);
  for (size_t k = 0; k < l->count; ++k)
    if (e.sel[0][k])
      emit_c_access(&e, l->name, &l->members[k]);
  lsk__sb_printf(sb, "\n/* Kernel arguments for %s_PARAMS(p): buffer, byte offset, count. */\n", U);
  lsk__sb_printf(sb, "#define %s_ARGS(buf, base, n) ", U);
  each_selected(&e, "LSK_ARG_BUFFER(buf)", ", ");
  lsk__sb_printf(sb, ", LSK_ARG_ULONG(base), LSK_ARG_UINT(n)\n#endif /* LSK_HOST_VIEW_%s */\n", U);
  release(&e);
  return lsk__sb_finish(sb, text, __func__);
}
