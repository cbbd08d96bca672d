/*
 * view_args.c: the kernel arguments of a view (lsk_view_emit_cl's
 * NAME_PARAMS), column by column (lsk_view_args: CMSSW's constructor by
 * column) or from parts of lsk_soa objects (lsk_view_args_soa: CMSSW's
 * constructor by layouts, whose parts must hold equal counts).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "soa/layout.h"

/* The most columns lsk_view_args takes (a kernel has far fewer
 * parameters than that anyway). */
#define LSK__VIEW_MAX_COLS 256

/* The bytes column m spans from its offset for n elements with stride
 * (matrices), or SIZE_MAX on overflow. */
static size_t extent(const lsk__member *m, size_t n, size_t stride)
{
  size_t ts = m->type_size;
  if (m->kind == LSK_MEMBER_SCALAR)
    return ts;
  if (n == 0)
    return 0;
  size_t comps = (size_t)m->rows * m->cols, last = 0;
  if (comps > 1 && stride > (SIZE_MAX - n) / (comps - 1))
    return SIZE_MAX;
  last = (comps - 1) * stride + n;
  return last > SIZE_MAX / ts ? SIZE_MAX : last * ts;
}

/* The stride a matrix column of layout l has for n elements. */
static size_t layout_stride(const lsk_layout *l, const lsk__member *m, size_t n)
{
  size_t b = n > (SIZE_MAX - l->align) / m->type_size ? SIZE_MAX : n * m->type_size;
  b = b == SIZE_MAX ? b : (b + l->align - 1) / l->align * l->align;
  b = b > SIZE_MAX - l->stagger ? SIZE_MAX : b + l->stagger;
  return b / m->type_size;
}

/* Checks column i at mem for n elements; *stride: the stride to pass. */
static int check_col(const lsk_view *v, size_t i, size_t n, const lsk_view_mem *mem, size_t *stride,
                     size_t *span, const char *fn)
{
  const lsk__vcol *c = &v->cols[i];
  const lsk_layout *l = v->src[c->src];
  const lsk__member *m = &l->members[c->member];
  char what[200];
  snprintf(what, sizeof what, "%s: view '%s' column %zu '%s'", fn, v->name, i, c->name);
  int rc = lsk__handle_check(NULL, mem->buf, &LSK__H_BUFFER, fn, "buffer");
  if (rc)
    return lsk__fail(NULL, rc, "%s: mem[%zu].buf is not a live buffer", what, i);
  size_t need = v->enforce ? v->align : m->type_size;
  if (mem->offset % need)
    return lsk__fail(NULL, LSK_EINVAL, "%s: offset %zu is not a multiple of %zu%s", what,
                     mem->offset, need,
                     v->enforce ? " (the view's alignment, enforced)" : " (its type's size)");
  *stride = 0;
  if (m->kind == LSK_MEMBER_MATRIX) {
    *stride = mem->stride ? mem->stride : layout_stride(l, m, n);
    if (*stride < n || *stride > UINT32_MAX)
      return lsk__fail(NULL, LSK_EINVAL, "%s: stride %zu is %s", what, *stride,
                       *stride < n ? "below the count (components would overlap)"
                                   : "above UINT32_MAX");
  }
  size_t size = lsk_buffer_size(mem->buf), ext = extent(m, n, *stride);
  if (ext > size || mem->offset > size - ext)
    return lsk__fail(
        NULL, LSK_ERANGE, "%s: %zu elements need bytes [%zu, %zu + %zu) of a buffer of %zu bytes",
        what, m->kind == LSK_MEMBER_SCALAR ? (size_t)1 : n, mem->offset, mem->offset, ext, size);
  *span = ext;
  return LSK_OK;
}

/* Every column is a restrict pointer of the kernel: two columns in one
 * buffer must not share a byte (spans[i]: column i's bytes from its
 * offset, checked to fit). */
static int disjoint(const lsk_view *v, const lsk_view_mem *mem, const size_t *spans, const char *fn)
{
  for (size_t i = 0; i < v->ncol; ++i)
    for (size_t j = 0; j < i; ++j) {
      if (mem[i].buf != mem[j].buf || !spans[i] || !spans[j])
        continue;
      size_t a0 = mem[j].offset, a1 = a0 + spans[j], b0 = mem[i].offset, b1 = b0 + spans[i];
      if (a0 < b1 && b0 < a1)
        return lsk__fail(NULL, LSK_EINVAL,
                         "%s: view '%s': columns '%s' (bytes [%zu, %zu)) and '%s' (bytes [%zu, "
                         "%zu)) overlap in one buffer; each column is a restrict pointer",
                         fn, v->name, v->cols[j].name, a0, a1, v->cols[i].name, b0, b1);
    }
  return LSK_OK;
}

static int args_of(const lsk_view *v, size_t n, const lsk_view_mem *mem, lsk_arg *args, size_t cap,
                   size_t *count, const char *fn)
{
  if (n > UINT32_MAX)
    return lsk__fail(NULL, LSK_ERANGE, "%s: view '%s': %zu elements; the device count is a uint",
                     fn, v->name, n);
  size_t k = 0, spans[LSK__VIEW_MAX_COLS];
  if (v->ncol > LSK__VIEW_MAX_COLS)
    return lsk__fail(NULL, LSK_ERANGE, "%s: view '%s' has %zu columns; %d at most", fn, v->name,
                     v->ncol, LSK__VIEW_MAX_COLS);
  for (size_t i = 0; i < v->ncol; ++i) {
    size_t stride = 0;
    int rc = check_col(v, i, n, &mem[i], &stride, &spans[i], fn);
    if (rc)
      return rc;
    if (k < cap)
      args[k] = LSK_ARG_BUFFER(mem[i].buf);
    if (++k < cap)
      args[k] = LSK_ARG_ULONG((uint64_t)mem[i].offset);
    ++k;
    if (v->src[v->cols[i].src]->members[v->cols[i].member].kind == LSK_MEMBER_MATRIX) {
      if (k < cap)
        args[k] = LSK_ARG_UINT((uint32_t)stride);
      ++k;
    }
  }
  int rc = disjoint(v, mem, spans, fn);
  if (rc)
    return rc;
  if (k < cap)
    args[k] = LSK_ARG_UINT((uint32_t)n);
  *count = k + 1;
  return *count <= cap ? LSK_OK
                       : lsk__fail(NULL, LSK_ERANGE, "%s: %zu arguments needed, room for %zu", fn,
                                   *count, cap);
}

static int common(const lsk_view *v, lsk_arg *args, size_t cap, size_t *count, const char *fn)
{
  LSK__LIVE(NULL, v, VIEW, fn, "view");
  if (!count)
    return lsk__fail(NULL, LSK_EINVAL, "%s: count is NULL", fn);
  *count = 0;
  if (!args && cap)
    return lsk__fail(NULL, LSK_EINVAL, "%s: args is NULL with cap %zu", fn, cap);
  return LSK_OK;
}

int lsk_view_args(const lsk_view *v, size_t n, const lsk_view_mem *mem, size_t ncols, lsk_arg *args,
                  size_t cap, size_t *count)
{
  LSK__API();
  int rc = common(v, args, cap, count, __func__);
  if (rc)
    return rc;
  if (!mem || ncols != v->ncol)
    return lsk__fail(NULL, LSK_EINVAL, "%s: view '%s' has %zu columns; mem %s %zu", __func__,
                     v->name, v->ncol, mem ? "has" : "is NULL, ncols", ncols);
  return args_of(v, n, mem, args, cap, count, __func__);
}

/* Column i's memory in part part of soa, whose layout must have the
 * column's member by name, of the same type and shape. */
static int locate(const lsk_view *v, size_t i, const lsk_soa *soa, size_t part, lsk_view_mem *out,
                  const char *fn)
{
  const lsk__vcol *c = &v->cols[i];
  const lsk__member *m = &v->src[c->src]->members[c->member];
  const lsk_layout *l = lsk__soa_layout(soa, part);
  size_t idx;
  lsk_member_info info;
  if (lsk_layout_find(l, m->name, &idx) ||
      lsk_layout_member(l, idx, lsk_soa_count(soa, part), &info))
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: view '%s' column '%s': layout '%s' of source %zu has "
                     "no member '%s'",
                     fn, v->name, c->name, l->name, c->src, m->name);
  if (strcmp(info.type, m->type) != 0 || info.kind != m->kind || info.rows != m->rows ||
      info.cols != m->cols)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: view '%s' column '%s': member '%s' of layout '%s' (source %zu) is a "
                     "%s %ux%u, the view's a %s %ux%u",
                     fn, v->name, c->name, m->name, l->name, c->src, info.type, info.rows,
                     info.cols, m->type, m->rows, m->cols);
  out->buf = lsk_soa_buffer(soa);
  out->offset = lsk_soa_base(soa, part) + info.offset;
  out->stride = info.stride;
  return LSK_OK;
}

int lsk_view_args_soa(const lsk_view *v, size_t k, const lsk_soa *const *soas, const size_t *parts,
                      lsk_arg *args, size_t cap, size_t *count)
{
  LSK__API();
  int rc = common(v, args, cap, count, __func__);
  if (rc)
    return rc;
  if (!soas || !parts || k != v->nsrc)
    return lsk__fail(NULL, LSK_EINVAL, "%s: view '%s' has %zu sources; %s %zu", __func__, v->name,
                     v->nsrc, soas && parts ? "k is" : "soas or parts is NULL, k", k);
  size_t n = 0;
  for (size_t j = 0; j < k; ++j) {
    char what[48];
    snprintf(what, sizeof what, "soas[%zu]", j);
    LSK__LIVE(NULL, soas[j], SOA, __func__, what);
    if (parts[j] >= lsk_soa_parts(soas[j]))
      return lsk__fail(NULL, LSK_EINVAL, "%s: source %zu: no part %zu (soas[%zu] has %zu)",
                       __func__, j, parts[j], j, lsk_soa_parts(soas[j]));
    size_t nj = lsk_soa_count(soas[j], parts[j]);
    /* CMSSW's rule for a view over layouts: every layout's size is the
     * view's, whichever of its columns the view takes. */
    if (j && nj != n)
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s: view '%s' needs equal lengths: source 0 (layout '%s') has %zu "
                       "elements, source %zu (layout '%s') %zu",
                       __func__, v->name, lsk__soa_layout(soas[0], parts[0])->name, n, j,
                       lsk__soa_layout(soas[j], parts[j])->name, nj);
    n = nj;
  }
  lsk_view_mem mem[LSK__VIEW_MAX_COLS];
  if (v->ncol > LSK__VIEW_MAX_COLS)
    return lsk__fail(NULL, LSK_ERANGE, "%s: view '%s' has %zu columns; %d at most", __func__,
                     v->name, v->ncol, LSK__VIEW_MAX_COLS);
  for (size_t i = 0; i < v->ncol; ++i) {
    size_t s = v->cols[i].src;
    rc = locate(v, i, soas[s], parts[s], &mem[i], __func__);
    if (rc)
      return rc;
  }
  return args_of(v, n, mem, args, cap, count, __func__);
}
