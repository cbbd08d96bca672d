/*
 * layout.c: SoA layout descriptions, the byte rule, the CMSSW-style dump,
 * and the text format. See include/lsk/layout.h for the rule.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soa/layout.h"

const lsk__htype LSK__H_LAYOUT = {"lsk_layout", NULL, 0};
LSK__HANDLE_FIRST(lsk_layout);

static const struct {
  const char *name;
  size_t size;
} scalar_types[] = {{"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
                    {"uint", 4}, {"long", 8},  {"ulong", 8}, {"float", 4},  {"double", 8}};

/* Size of an OpenCL scalar or vector type name; 0 if unknown. *scalar is
 * set when it is a scalar. */
size_t lsk__type_size(const char *type, int *scalar)
{
  for (size_t i = 0; i < sizeof scalar_types / sizeof scalar_types[0]; ++i) {
    size_t len = strlen(scalar_types[i].name);
    if (strncmp(type, scalar_types[i].name, len) != 0)
      continue;
    const char *w = type + len;
    if (*w == 0) {
      if (scalar)
        *scalar = 1;
      return scalar_types[i].size;
    }
    /* "uint" also starts with "u"... only an exact base followed by a
     * width counts. */
    static const char *const widths[] = {"2", "3", "4", "8", "16"};
    static const size_t lanes[] = {2, 4, 4, 8, 16}; /* a 3-vector is as big as a 4-vector */
    for (size_t k = 0; k < 5; ++k)
      if (strcmp(w, widths[k]) == 0) {
        if (scalar)
          *scalar = 0;
        return scalar_types[i].size * lanes[k];
      }
  }
  return 0;
}

static const char *const keywords[] = {
    "auto",      "break",      "case",       "char",      "const",     "continue",  "default",
    "do",        "double",     "else",       "enum",      "extern",    "float",     "for",
    "goto",      "if",         "inline",     "int",       "long",      "register",  "restrict",
    "return",    "short",      "signed",     "sizeof",    "static",    "struct",    "switch",
    "typedef",   "union",      "unsigned",   "void",      "volatile",  "while",     "bool",
    "half",      "uchar",      "ushort",     "uint",      "ulong",     "size_t",    "ptrdiff_t",
    "intptr_t",  "uintptr_t",  "global",     "local",     "constant",  "private",   "kernel",
    "read_only", "write_only", "read_write", "image1d_t", "image2d_t", "image3d_t", "sampler_t",
    "event_t",   "complex",    "imaginary",  "pipe",      "uniform",   "true",      "false",
    "NULL"};

/* NULL if name may be a member or layout name, else why not. */
const char *lsk__bad_identifier(const char *name)
{
  if (!name || !*name)
    return "is empty";
  if (!(isalpha((unsigned char)name[0]) || name[0] == '_'))
    return "is not a C identifier";
  for (const char *p = name; *p; ++p)
    if (!(isalnum((unsigned char)*p) || *p == '_'))
      return "is not a C identifier";
  if (strlen(name) > 63)
    return "is longer than 63 characters";
  if (name[0] == '_' && (name[1] == '_' || isupper((unsigned char)name[1])))
    return "is reserved (starts with __ or _ and a capital)";
  if (strncmp(name, "lsk_", 4) == 0 || strncmp(name, "LSK_", 4) == 0)
    return "is reserved for lsk (starts with lsk_)";
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; ++i)
    if (strcmp(name, keywords[i]) == 0)
      return "is a C or OpenCL keyword";
  if (lsk__type_size(name, NULL))
    return "is an OpenCL type name";
  if (strncmp(name, "__", 2) == 0 || strncmp(name, "get_", 4) == 0)
    return "is reserved";
  return NULL;
}

int lsk_layout_create(const char *name, size_t align, lsk_layout **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  const char *why = lsk__bad_identifier(name);
  if (why)
    return lsk__fail(NULL, LSK_EINVAL, "%s: layout name '%s' %s", __func__, name ? name : "(null)",
                     why);
  if (align == 0)
    align = LSK_LAYOUT_DEFAULT_ALIGN;
  if (align & (align - 1))
    return lsk__fail(NULL, LSK_EINVAL, "%s: alignment %zu of layout '%s' is not a power of two",
                     __func__, align, name);
  lsk_layout *l = calloc(1, sizeof *l);
  if (!l || !(l->name = lsk__strdup(name))) {
    free(l);
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  if (lsk__handle_add(l, &LSK__H_LAYOUT, NULL)) {
    free(l->name);
    free(l);
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  l->align = align;
  *out = l;
  return LSK_OK;
}

void lsk_layout_destroy(lsk_layout *l)
{
  LSK__DESTROY(l, LAYOUT, __func__);
  for (size_t i = 0; i < l->count; ++i) {
    free(l->members[i].name);
    free(l->members[i].type);
  }
  free(l->members);
  free(l->name);
  free(l);
}

void lsk_free(void *p) { free(p); }

static int add_member(lsk_layout *l, lsk_member_kind kind, const char *type, unsigned rows,
                      unsigned cols, const char *name, const char *fn)
{
  if (!l)
    return lsk__fail(NULL, LSK_EINVAL, "%s: layout is NULL", fn);
  const char *why = lsk__bad_identifier(name);
  if (why)
    return lsk__fail(NULL, LSK_EINVAL, "%s: layout '%s': member name '%s' %s", fn, l->name,
                     name ? name : "(null)", why);
  for (size_t i = 0; i < l->count; ++i)
    if (strcmp(l->members[i].name, name) == 0)
      return lsk__fail(NULL, LSK_EINVAL, "%s: layout '%s': duplicate member name '%s'", fn, l->name,
                       name);
  int scalar = 0;
  size_t ts = type ? lsk__type_size(type, &scalar) : 0;
  if (!ts)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: layout '%s': member '%s' has unknown type '%s' (OpenCL scalar or "
                     "vector names: float, uint, double2, ...)",
                     fn, l->name, name, type ? type : "(null)");
  if (kind == LSK_MEMBER_MATRIX && !scalar)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: layout '%s': matrix member '%s' must have a scalar type, not '%s'", fn,
                     l->name, name, type);
  if (ts > l->align)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: layout '%s': member '%s' (%s, %zu bytes) is larger than the layout's "
                     "alignment %zu",
                     fn, l->name, name, type, ts, l->align);
  if (kind == LSK_MEMBER_MATRIX && (rows == 0 || cols == 0 || rows > 64 || cols > 64))
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: layout '%s': matrix member '%s' has dimension %u x %u (each 1 to 64)", fn,
                     l->name, name, rows, cols);
  lsk__member *grown = realloc(l->members, (l->count + 1) * sizeof *grown);
  if (!grown)
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  l->members = grown;
  lsk__member *m = &l->members[l->count];
  m->kind = kind;
  m->rows = kind == LSK_MEMBER_MATRIX ? rows : 1;
  m->cols = kind == LSK_MEMBER_MATRIX ? cols : 1;
  m->type_size = ts;
  m->scalar_type = scalar;
  m->name = lsk__strdup(name);
  m->type = lsk__strdup(type);
  if (!m->name || !m->type) {
    free(m->name);
    free(m->type);
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  }
  l->count++;
  return LSK_OK;
}

int lsk_layout_add_column(lsk_layout *l, const char *type, const char *name)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  return add_member(l, LSK_MEMBER_COLUMN, type, 1, 1, name, __func__);
}

int lsk_layout_add_matrix(lsk_layout *l, const char *type, unsigned rows, unsigned cols,
                          const char *name)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  return add_member(l, LSK_MEMBER_MATRIX, type, rows, cols, name, __func__);
}

int lsk_layout_add_scalar(lsk_layout *l, const char *type, const char *name)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  return add_member(l, LSK_MEMBER_SCALAR, type, 1, 1, name, __func__);
}

int lsk_layout_set_align(lsk_layout *l, size_t align)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  if (align == 0)
    align = LSK_LAYOUT_DEFAULT_ALIGN;
  if (align & (align - 1))
    return lsk__fail(NULL, LSK_EINVAL, "%s: alignment %zu of layout '%s' is not a power of two",
                     __func__, align, l->name);
  for (size_t i = 0; i < l->count; ++i)
    if (l->members[i].type_size > align)
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s: alignment %zu of layout '%s' is smaller than member "
                       "'%s' (%s, %zu bytes)",
                       __func__, align, l->name, l->members[i].name, l->members[i].type,
                       l->members[i].type_size);
  if (l->stagger % align)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: alignment %zu of layout '%s' does not divide its "
                     "stagger %zu",
                     __func__, align, l->name, l->stagger);
  l->align = align;
  return LSK_OK;
}

int lsk_layout_set_stagger(lsk_layout *l, size_t stagger)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  /* A multiple of the alignment keeps every column aligned (vector loads);
   * the cap keeps sizes far from overflow and matches the file format's. */
  if (stagger % l->align || stagger > LSK_LAYOUT_MAX_STAGGER)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: stagger %zu of layout '%s' is not a multiple of "
                     "its alignment %zu from 0 to %u",
                     __func__, stagger, l->name, l->align, LSK_LAYOUT_MAX_STAGGER);
  l->stagger = stagger;
  return LSK_OK;
}

size_t lsk_layout_stagger(const lsk_layout *l)
{
  LSK__LIVE_OR(0, l, LAYOUT, __func__, "layout");
  return l->stagger;
}

const char *lsk_layout_name(const lsk_layout *l)
{
  LSK__LIVE_OR(NULL, l, LAYOUT, __func__, "layout");
  return l->name;
}
size_t lsk_layout_align(const lsk_layout *l)
{
  LSK__LIVE_OR(0, l, LAYOUT, __func__, "layout");
  return l->align;
}
size_t lsk_layout_member_count(const lsk_layout *l)
{
  LSK__LIVE_OR(0, l, LAYOUT, __func__, "layout");
  return l->count;
}

/* ceil(x / a) * a, 0 on overflow (x > 0 never aligns to 0). */
static size_t align_up(size_t x, size_t a, int *overflow)
{
  if (x > SIZE_MAX - (a - 1)) {
    *overflow = 1;
    return 0;
  }
  return (x + a - 1) & ~(a - 1);
}

static size_t mul(size_t a, size_t b, int *overflow)
{
  if (a && b > SIZE_MAX / a) {
    *overflow = 1;
    return 0;
  }
  return a * b;
}

/* Size, per-component data bytes and padding of member m for n elements.
 * The stagger pads columns and matrix components, not scalars: it is there
 * to move streams apart, and a scalar is no stream. */
static size_t member_size(const lsk_layout *l, const lsk__member *m, size_t n, size_t *data,
                          int *overflow)
{
  size_t raw = m->kind == LSK_MEMBER_SCALAR ? m->type_size : mul(n, m->type_size, overflow);
  size_t one = align_up(raw, l->align, overflow);
  if (m->kind != LSK_MEMBER_SCALAR) {
    if (one > SIZE_MAX - l->stagger)
      *overflow = 1;
    one += l->stagger;
  }
  *data = raw;
  return mul(one, (size_t)m->rows * m->cols, overflow);
}

int lsk_layout_member(const lsk_layout *l, size_t i, size_t n, lsk_member_info *out)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  if (i >= l->count)
    return lsk__fail(NULL, LSK_ERANGE, "%s: index %zu is out of range: layout '%s' has %zu members",
                     __func__, i, l->name, l->count);
  int overflow = 0;
  size_t offset = 0, data = 0, size = 0;
  for (size_t k = 0; k <= i && !overflow; ++k) {
    size = member_size(l, &l->members[k], n, &data, &overflow);
    if (k < i) {
      if (offset > SIZE_MAX - size)
        overflow = 1;
      offset += size;
    }
  }
  if (overflow || offset > SIZE_MAX - size)
    return lsk__fail(NULL, LSK_ERANGE, "%s: layout '%s' with %zu elements overflows", __func__,
                     l->name, n);
  const lsk__member *m = &l->members[i];
  size_t per = size / ((size_t)m->rows * m->cols);
  *out = (lsk_member_info){.name = m->name,
                           .type = m->type,
                           .kind = m->kind,
                           .rows = m->rows,
                           .cols = m->cols,
                           .type_size = m->type_size,
                           .offset = offset,
                           .size = size,
                           .padding = per - data,
                           .stride = m->kind == LSK_MEMBER_MATRIX ? per / m->type_size : 0};
  return LSK_OK;
}

int lsk_layout_find(const lsk_layout *l, const char *name, size_t *index)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  if (!name || !index)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, name ? "index" : "name");
  for (size_t i = 0; i < l->count; ++i)
    if (strcmp(l->members[i].name, name) == 0) {
      *index = i;
      return LSK_OK;
    }
  return lsk__fail(NULL, LSK_EINVAL, "%s: layout '%s' has no member '%s'", __func__, l->name, name);
}

/* The size, or SIZE_MAX on overflow (no real layout is that big: sizes
 * are multiples of the alignment). */
static size_t quiet_size(const lsk_layout *l, size_t n)
{
  int overflow = 0;
  size_t total = 0, data;
  for (size_t k = 0; k < l->count && !overflow; ++k) {
    size_t s = member_size(l, &l->members[k], n, &data, &overflow);
    if (total > SIZE_MAX - s)
      overflow = 1;
    total += s;
  }
  return overflow ? SIZE_MAX : total;
}

int lsk_layout_size(const lsk_layout *l, size_t n, size_t *bytes)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  if (!bytes)
    return lsk__fail(NULL, LSK_EINVAL, "%s: bytes is NULL", __func__);
  size_t total = quiet_size(l, n);
  if (total == SIZE_MAX)
    return lsk__fail(NULL, LSK_ERANGE, "%s: layout '%s' with %zu elements does not fit in size_t",
                     __func__, l->name, n);
  *bytes = total;
  return LSK_OK;
}

size_t lsk_layout_max_elements(const lsk_layout *l, size_t max_bytes)
{
  LSK__LIVE_OR(0, l, LAYOUT, __func__, "layout");
  if (max_bytes == 0)
    max_bytes = SIZE_MAX - 1;
  /* The size grows with n: binary search the last n that fits. */
  size_t lo = 0, hi = SIZE_MAX;
  if (quiet_size(l, 0) > max_bytes)
    return 0;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2 + 1;
    if (quiet_size(l, mid) <= max_bytes)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

int lsk_layout_describe(const lsk_layout *l, size_t n, char **text)
{
  LSK__API();
  LSK__LIVE(NULL, l, LAYOUT, __func__, "layout");
  if (!text)
    return lsk__fail(NULL, LSK_EINVAL, "%s: text is NULL", __func__);
  *text = NULL;
  size_t total;
  if (lsk_layout_size(l, n, &total))
    return lsk__fail(NULL, LSK_ERANGE, "%s: layout '%s' with %zu elements does not fit in size_t",
                     __func__, l->name, n);
  lsk__sb sb = {0};
  if (l->stagger)
    lsk__sb_printf(&sb,
                   "Layout %s for %zu elements, alignment %zu, stagger %zu (lsk's, not CMSSW's):\n",
                   l->name, n, l->align, l->stagger);
  else
    lsk__sb_printf(&sb, "Layout %s for %zu elements, alignment %zu:\n", l->name, n, l->align);
  for (size_t i = 0; i < l->count; ++i) {
    lsk_member_info m;
    lsk_layout_member(l, i, n, &m);
    size_t data = m.kind == LSK_MEMBER_SCALAR ? m.type_size : n * m.type_size;
    if (m.kind == LSK_MEMBER_COLUMN)
      lsk__sb_printf(&sb, "Column %s at offset %zu has size %zu and padding %zu\n", m.name,
                     m.offset, data, m.padding);
    else if (m.kind == LSK_MEMBER_SCALAR)
      lsk__sb_printf(&sb, "Scalar %s at offset %zu has size %zu and padding %zu\n", m.name,
                     m.offset, data, m.padding);
    else
      lsk__sb_printf(&sb,
                     "Eigen value %s at offset %zu has dimension (%u x %u) and per column size "
                     "%zu and padding %zu (stride %zu)\n",
                     m.name, m.offset, m.rows, m.cols, data, m.padding, m.stride);
  }
  lsk__sb_printf(&sb, "Final offset = %zu computeDataSize(...): %zu\n", total, total);
  return lsk__sb_finish(&sb, text, __func__);
}
