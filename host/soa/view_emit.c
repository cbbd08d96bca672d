/*
 * view_emit.c: the OpenCL C of a view (lsk_view_emit_cl). Unlike a layout's
 * view (layout_emit.c), which recomputes every member's offset on the
 * device from one base per layout, a view's kernel takes every column as
 * its own pointer and byte offset (and a matrix's stride): CMSSW's
 * metarecords, one address per column. So the columns of one view may sit
 * in different buffers or at offsets no layout rule gives, and a view made
 * from views costs nothing more than one made from layouts. Every column
 * is still a kernel parameter of its own, so restrict keeps its meaning.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soa/layout.h"

typedef struct vemit {
  const lsk_view *v;
  char U[72]; /* the view's name in capitals */
  lsk__sb sb;
} vemit;

static const lsk__member *col_member(const lsk_view *v, size_t i)
{
  return &v->src[v->cols[i].src]->members[v->cols[i].member];
}

/* The parameters: per column its pointer (cq: "" or "const "), byte
 * offset and, for a matrix, stride. */
static void params(vemit *e, const char *cq)
{
  for (size_t i = 0; i < e->v->ncol; ++i) {
    const lsk__member *m = col_member(e->v, i);
    const char *C = e->v->cols[i].name;
    lsk__sb_printf(&e->sb, "__global %s%s *%s__R p##_%s, ulong p##_off_%s, ", cq, m->type, e->U, C,
                   C);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(&e->sb, "uint p##_stride_%s, ", C);
  }
  lsk__sb_printf(&e->sb, "uint p##_n");
}

/* The struct, constructor and VIEW macro of the mutable (cq "") or const
 * flavour. The enforced constructor checks each column's address. */
static void view_type(vemit *e, const char *cq, const char *suffix)
{
  lsk__sb *sb = &e->sb;
  const lsk_view *v = e->v;
  const char *V = v->name, *U = e->U;
  lsk__sb_printf(sb, "\ntypedef struct %s%s_view {\n", V, suffix);
  for (size_t i = 0; i < v->ncol; ++i) {
    const lsk__member *m = col_member(v, i);
    lsk__sb_printf(sb, "  __global %s%s *%s__R %s;\n", cq, m->type, U, v->cols[i].name);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "  uint lsk__stride_%s;\n", v->cols[i].name);
  }
  lsk__sb_printf(sb, "  uint lsk__n;\n  __global uint *lsk__ctx;\n} %s%s_view;\n\n", V, suffix);
  lsk__sb_printf(sb, "LSK_INLINE %s%s_view %s%s_view_make(", V, suffix, V, suffix);
  for (size_t i = 0; i < v->ncol; ++i) {
    const lsk__member *m = col_member(v, i);
    const char *C = v->cols[i].name;
    lsk__sb_printf(sb, "__global %s%s *lsk__p_%s, ulong lsk__o_%s, ", cq, m->type, C, C);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "uint lsk__s_%s, ", C);
  }
  lsk__sb_printf(sb,
                 "uint n, __global uint *ctx, __constant char *lsk__file, uint lsk__line)\n{\n"
                 "  %s%s_view lsk__v;\n  (void)lsk__file;\n  (void)lsk__line;\n",
                 V, suffix);
  for (size_t i = 0; i < v->ncol; ++i) {
    const lsk__member *m = col_member(v, i);
    const char *C = v->cols[i].name;
    lsk__sb_printf(sb,
                   "  lsk__v.%s = (__global %s%s *)((__global %suchar *)lsk__p_%s + lsk__o_%s);\n",
                   C, cq, m->type, cq, C, C);
    if (v->enforce)
      lsk__sb_printf(sb,
                     "  %s__ALIGNED(lsk__v.%s, \"view '%s' column '%s': address not aligned "
                     "to %zu bytes; bytes past one\");\n",
                     U, C, V, C, v->align);
    if (m->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "  lsk__v.lsk__stride_%s = lsk__s_%s;\n", C, C);
  }
  lsk__sb_printf(sb, "  lsk__v.lsk__n = n;\n  lsk__v.lsk__ctx = ctx;\n  return lsk__v;\n}\n");
  lsk__sb_printf(sb, "#define %s%s_VIEW(p) %s%s_view_make(", U, cq[0] ? "_CONST" : "", V, suffix);
  for (size_t i = 0; i < v->ncol; ++i) {
    const char *C = v->cols[i].name;
    lsk__sb_printf(sb, "p##_%s, p##_off_%s, ", C, C);
    if (col_member(v, i)->kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(sb, "p##_stride_%s, ", C);
  }
  lsk__sb_printf(sb, "p##_n, LSK_CTX_FWD, __FILE__, __LINE__)\n\n");
}

/* The accessors of column i, named as lsk_layout_emit_cl names a member's,
 * into sb. */
static void accessors_text(vemit *e, lsk__sb *sb, size_t i, const char *cq, const char *suffix)
{
  const lsk_view *v = e->v;
  const lsk__member *m = col_member(v, i);
  const char *V = v->name, *C = v->cols[i].name;
  const char *L = v->src[v->cols[i].src]->name;
  char what[256];
  snprintf(what, sizeof what, "view '%s' column '%s' (layout '%s' member '%s')", V, C, L, m->name);
  lsk__emit_accessors(sb, m, V, e->U, suffix, cq, C, what);
}

/* The accessors of column i; in an enforced view each body starts by
 * telling the compiler the column's alignment (U__AL). There, after the
 * constructor's check, not in it: an assumption in the check's passing
 * branch ends where the branches meet, and one before the check would let
 * the compiler drop the check. */
static void accessors(vemit *e, size_t i, const char *cq, const char *suffix)
{
  lsk__sb t = {0};
  accessors_text(e, &t, i, cq, suffix);
  if (t.failed || !t.buf) {
    e->sb.failed = 1;
    free(t.buf);
    return;
  }
  const char *C = e->v->cols[i].name;
  for (const char *p = t.buf; *p;) {
    const char *body = strstr(p, "\n{\n"), *line = strstr(p, ") { ");
    const char *at = !body ? line : !line ? body : body < line ? body : line;
    if (!e->v->enforce || !at) {
      lsk__sb_printf(&e->sb, "%s", p);
      break;
    }
    int multi = at == body;
    size_t head = (size_t)(at - p) + (multi ? 3 : 4);
    lsk__sb_printf(&e->sb, "%.*s%s%s__AL(v.%s);%s", (int)head, p, multi ? "  " : "", e->U, C,
                   multi ? "\n" : " ");
    p += head;
  }
  free(t.buf);
}

/* The guard, the switches, and the alignment check of an enforced view. */
static void head(vemit *e)
{
  lsk__sb *sb = &e->sb;
  const lsk_view *v = e->v;
  const char *U = e->U;
  lsk__sb_printf(sb, "/* Generated by lsk %s: view '%s' (alignment %zu, %s), by column: ",
                 LSK_VERSION_STRING, v->name, v->align, v->enforce ? "enforced" : "relaxed");
  for (size_t i = 0; i < v->ncol; ++i)
    lsk__sb_printf(sb, "%s%s = %s.%s", i ? ", " : "", v->cols[i].name, v->src[v->cols[i].src]->name,
                   col_member(v, i)->name);
  lsk__sb_printf(sb, ". Do not edit. */\n#ifndef LSK_VIEW_%s\n#define LSK_VIEW_%s\n", U, U);
  lsk__emit_switches(sb, U);
  if (v->enforce)
    /* Enforced: a misaligned column is a verify failure naming it (at the
     * VIEW macro's line), and clang is told the alignment (an assumption
     * on the address, which it turns into aligned loads; where a compiler
     * has no __builtin_assume, or with -DNAME_ASSUME=0, only the check). */
    lsk__sb_printf(
        sb,
        "/* -D%s_ASSUME=0: no alignment assumption (oclgrind cannot run llvm.assume). */\n"
        "#ifndef %s_ASSUME\n#define %s_ASSUME 1\n#endif\n"
        "#if %s_ASSUME && defined(__clang__)\n#define %s__ASSUME(c) __builtin_assume(c)\n#else\n"
        "#define %s__ASSUME(c)\n#endif\n#define %s__ALIGNED(p, what) do { ulong "
        "lsk__rem = (ulong)(uintptr_t)(p) %% %zuu; if (lsk__rem) lsk__verify_fail(ctx, "
        "lsk__file, lsk__line, LSK__VKIND_VERIFY, what, 1, (long)lsk__rem, 0, 0, 0); "
        "} while (0)\n#define %s__AL(p) %s__ASSUME(((ulong)(uintptr_t)(p) & %zuu) == 0)\n",
        U, U, U, U, U, U, U, v->align, U, U, v->align - 1);
  lsk__sb_printf(sb, "\n/* Kernel parameters of a view called p: per column its pointer, its "
                     "byte offset p_off_C and, for a matrix, its stride p_stride_C (elements); "
                     "then the element count. */\n");
  lsk__sb_printf(sb, "#define %s_PARAMS(p) ", U);
  params(e, "");
  lsk__sb_printf(sb, "\n#define %s_CONST_PARAMS(p) ", U);
  params(e, "const ");
  lsk__sb_printf(sb, "\n");
}

int lsk_view_emit_cl(const lsk_view *v, char **text)
{
  LSK__API();
  if (!text)
    return lsk__fail(NULL, LSK_EINVAL, "%s: text is NULL", __func__);
  *text = NULL;
  LSK__LIVE(NULL, v, VIEW, __func__, "view");
  vemit e;
  memset(&e, 0, sizeof e);
  e.v = v;
  size_t c = 0;
  for (; v->name[c] && c + 1 < sizeof e.U; ++c)
    e.U[c] = (char)toupper((unsigned char)v->name[c]);
  e.U[c] = 0;
  head(&e);
  view_type(&e, "", "");
  for (size_t i = 0; i < v->ncol; ++i)
    accessors(&e, i, "", "");
  view_type(&e, "const ", "_const");
  for (size_t i = 0; i < v->ncol; ++i)
    accessors(&e, i, "const ", "_const");
  lsk__sb_printf(&e.sb, "#endif /* LSK_VIEW_%s */\n", e.U);
  return lsk__sb_finish(&e.sb, text, __func__);
}
