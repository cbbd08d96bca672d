/*
 * soa.c: SoA allocations on host and device, copies, array-of-structs
 * conversion, and the kernel arguments of generated views.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "soa/layout.h"
#include "lsk/soa.h"

typedef struct part {
  const lsk_layout *layout;
  size_t count, base;
} part;

struct lsk_soa {
  lsk__handle h;
  lsk_context *ctx;
  size_t k, bytes, align;
  part *parts;
  unsigned char *host;
  lsk_buffer *buf;
};
const lsk__htype LSK__H_SOA = {"lsk_soa", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_soa);

const lsk_layout *lsk__soa_layout(const lsk_soa *s, size_t j)
{
  return j < s->k ? s->parts[j].layout : NULL;
}

int lsk_soa_range_error(const char *file, int line, const char *layout, const char *member,
                        size_t index, size_t n)
{
  LSK__API();
  /* "FILE:LINE: " first, as compilers print positions. */
  char at[256] = "";
  if (file)
    snprintf(at, sizeof at, "%s:%d: ", file, line);
  return lsk__fail(NULL, LSK_ERANGE, "%slayout '%s' member '%s': index %zu out of range [0, %zu)",
                   at, layout ? layout : "?", member ? member : "?", index, n);
}

int lsk_soa_misaligned(const char *layout, const void *ptr, size_t align)
{
  LSK__API();
  if (!ptr)
    return lsk__fail(NULL, LSK_EINVAL, "layout '%s': NULL memory", layout ? layout : "?");
  return lsk__fail(NULL, LSK_EINVAL,
                   "layout '%s': memory at %p is not aligned to %zu bytes (%zu past a boundary)",
                   layout ? layout : "?", ptr, align, (size_t)((uintptr_t)ptr % align));
}

int lsk_soa_create(lsk_context *ctx, size_t k, const lsk_layout *const *layouts,
                   const size_t *counts, lsk_soa **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (!layouts || !counts || k == 0)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s", __func__,
                     k == 0 ? "no layouts" : "layouts or counts is NULL");
  for (size_t j = 0; j < k; ++j) {
    char what[32];
    snprintf(what, sizeof what, "layouts[%zu]", j);
    LSK__LIVE(ctx, layouts[j], LAYOUT, __func__, what);
  }
  lsk_soa *s = calloc(1, sizeof *s);
  if (!s || !(s->parts = calloc(k, sizeof *s->parts))) {
    free(s);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  if (lsk__handle_add(s, &LSK__H_SOA, ctx)) {
    free(s->parts);
    free(s);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  __atomic_store_n(&lsk__soa_expand, lsk__soa_expand_one, __ATOMIC_RELEASE); /* LSK_ARG_SOA */
  s->ctx = ctx;
  s->k = k;
  s->align =
      lsk__context_info(ctx)->base_addr_align > 16 ? lsk__context_info(ctx)->base_addr_align : 16;
  int rc = LSK_OK;
  for (size_t j = 0; j < k && !rc; ++j) {
    size_t bytes, a = layouts[j] ? layouts[j]->align : 1;
    if (!layouts[j])
      rc = lsk__fail(ctx, LSK_EINVAL, "%s: layouts[%zu] is NULL", __func__, j);
    else if (counts[j] > UINT32_MAX)
      rc = lsk__fail(ctx, LSK_ERANGE, "%s: layout '%s': %zu elements (kernels index with 32 bits)",
                     __func__, layouts[j]->name, counts[j]);
    else if (lsk_layout_size(layouts[j], counts[j], &bytes))
      rc = lsk__fail(ctx, LSK_ERANGE, "%s: %s", __func__, lsk_context_errmsg(NULL));
    else {
      /* nextByte: the next part starts at the next multiple of its alignment. */
      size_t base = (s->bytes + a - 1) / a * a;
      if (base < s->bytes || base > SIZE_MAX - bytes)
        rc = lsk__fail(ctx, LSK_ERANGE, "%s: total size overflows", __func__);
      s->parts[j] = (part){layouts[j], counts[j], base};
      s->bytes = base + bytes;
      s->align = a > s->align ? a : s->align;
    }
  }
  size_t alloc = s->bytes ? (s->bytes + s->align - 1) / s->align * s->align : s->align;
  /* Before the host copy is allocated (aligned_alloc of a huge size). */
  if (!rc && alloc > lsk__context_info(ctx)->max_alloc_size)
    rc =
        lsk__fail(ctx, LSK_ERANGE, "%s: %zu bytes exceed the largest allocation of %s (%llu bytes)",
                  __func__, alloc, lsk__context_info(ctx)->name,
                  (unsigned long long)lsk__context_info(ctx)->max_alloc_size);
  if (!rc && !(s->host = aligned_alloc(s->align, alloc)))
    rc = lsk__fail(ctx, LSK_ENOMEM, "%s: out of host memory for %zu bytes", __func__, alloc);
  if (!rc) {
    memset(s->host, 0, alloc);
    rc = lsk_buffer_create(ctx, alloc, &s->buf);
  }
  if (!rc)
    rc = lsk_soa_upload(s, NULL);
  if (rc) {
    lsk_soa_destroy(s);
    return rc;
  }
  *out = s;
  return LSK_OK;
}

void lsk_soa_destroy(lsk_soa *s)
{
  LSK__DESTROY(s, SOA, __func__);
  lsk_buffer_destroy(s->buf);
  free(s->host);
  free(s->parts);
  free(s);
}

size_t lsk_soa_parts(const lsk_soa *s)
{
  LSK__LIVE_OR(0, s, SOA, __func__, "soa");
  return s->k;
}
void *lsk_soa_host(const lsk_soa *s, size_t j)
{
  LSK__LIVE_OR(NULL, s, SOA, __func__, "soa");
  return j < s->k ? s->host + s->parts[j].base : NULL;
}
size_t lsk_soa_count(const lsk_soa *s, size_t j)
{
  LSK__LIVE_OR(0, s, SOA, __func__, "soa");
  return j < s->k ? s->parts[j].count : 0;
}
size_t lsk_soa_base(const lsk_soa *s, size_t j)
{
  LSK__LIVE_OR(0, s, SOA, __func__, "soa");
  return j < s->k ? s->parts[j].base : 0;
}
size_t lsk_soa_bytes(const lsk_soa *s)
{
  LSK__LIVE_OR(0, s, SOA, __func__, "soa");
  return s->bytes;
}
lsk_buffer *lsk_soa_buffer(const lsk_soa *s)
{
  LSK__LIVE_OR(NULL, s, SOA, __func__, "soa");
  return s->buf;
}

/* The whole allocation to or from the device on on's queue, as a buffer
 * transfer does (buffer.h): blocking until the host memory is the
 * caller's again, unless on->flags has LSK_ASYNC_NONBLOCKING. */
static int transfer(lsk_soa *s, int write, const lsk_async *on)
{
  if (!s->bytes)
    return LSK_OK;
  return write ? lsk_buffer_write(s->buf, 0, s->host, s->bytes, on)
               : lsk_buffer_read(s->buf, 0, s->host, s->bytes, on);
}

int lsk_soa_upload(lsk_soa *s, const lsk_async *on)
{
  LSK__API();
  if (on && on->event)
    *on->event = NULL;
  LSK__LIVE(NULL, s, SOA, __func__, "soa");
  return transfer(s, 1, on);
}

int lsk_soa_download(lsk_soa *s, const lsk_async *on)
{
  LSK__API();
  if (on && on->event)
    *on->event = NULL;
  LSK__LIVE(NULL, s, SOA, __func__, "soa");
  return transfer(s, 0, on);
}

/* Member info of part j by name; LSK_EINVAL naming what is missing. */
static int member_of(const lsk_soa *s, size_t j, const char *name, lsk_member_info *m,
                     const char *fn)
{
  size_t idx;
  const lsk_layout *l = s->parts[j].layout;
  if (lsk_layout_find(l, name, &idx))
    return lsk__fail(s->ctx, LSK_EINVAL, "%s: layout '%s' has no member '%s'", fn, l->name, name);
  return lsk_layout_member(l, idx, s->parts[j].count, m);
}

int lsk_soa_copy(lsk_soa *dst, size_t dj, const lsk_soa *src, size_t sj)
{
  LSK__API();
  LSK__LIVE(NULL, dst, SOA, __func__, "dst");
  LSK__LIVE(dst->ctx, src, SOA, __func__, "src");
  if (dj >= dst->k || sj >= src->k)
    return lsk__fail(dst->ctx, LSK_EINVAL, "%s: %s has no part %zu (it has %zu)", __func__,
                     dj >= dst->k ? "dst" : "src", dj >= dst->k ? dj : sj,
                     dj >= dst->k ? dst->k : src->k);
  const lsk_layout *sl = src->parts[sj].layout;
  size_t n = src->parts[sj].count;
  if (dst->parts[dj].count < n)
    return lsk__fail(dst->ctx, LSK_ERANGE, "%s: target '%s' holds %zu elements, source '%s' %zu",
                     __func__, dst->parts[dj].layout->name, dst->parts[dj].count, sl->name, n);
  for (size_t i = 0; i < sl->count; ++i) {
    lsk_member_info sm, dm;
    lsk_layout_member(sl, i, n, &sm);
    int rc = member_of(dst, dj, sm.name, &dm, __func__);
    if (rc)
      return rc;
    if (strcmp(sm.type, dm.type) || sm.kind != dm.kind || sm.rows != dm.rows || sm.cols != dm.cols)
      return lsk__fail(dst->ctx, LSK_EINVAL,
                       "%s: member '%s' is %s %ux%u in '%s' but %s %ux%u in "
                       "'%s'",
                       __func__, sm.name, sm.type, sm.rows, sm.cols, sl->name, dm.type, dm.rows,
                       dm.cols, dst->parts[dj].layout->name);
    const unsigned char *from = src->host + src->parts[sj].base + sm.offset;
    unsigned char *to = dst->host + dst->parts[dj].base + dm.offset;
    size_t comps = (size_t)sm.rows * sm.cols;
    size_t bytes = sm.kind == LSK_MEMBER_SCALAR ? sm.type_size : n * sm.type_size;
    for (size_t c = 0; c < comps; ++c)
      memcpy(to + c * (dm.size / comps), from + c * (sm.size / comps), bytes);
  }
  return LSK_OK;
}

/* Shared walk of from_aos and to_aos. */
static int aos(const lsk_soa *s, size_t j, unsigned char *aos_mem, size_t count, size_t struct_size,
               const lsk_aos_field *fields, size_t nfields, int to_soa, const char *fn)
{
  if (j >= s->k)
    return lsk__fail(s->ctx, LSK_EINVAL, "%s: the soa has no part %zu (it has %zu)", fn, j, s->k);
  if (!aos_mem || (!fields && nfields))
    return lsk__fail(s->ctx, LSK_EINVAL, "%s: %s is NULL", fn, aos_mem ? "fields" : "aos");
  if (count > s->parts[j].count)
    return lsk__fail(s->ctx, LSK_ERANGE, "%s: %zu structs for '%s' of %zu elements", fn, count,
                     s->parts[j].layout->name, s->parts[j].count);
  for (size_t f = 0; f < nfields; ++f) {
    lsk_member_info m;
    int rc = member_of(s, j, fields[f].member ? fields[f].member : "(null)", &m, fn);
    if (rc)
      return rc;
    size_t comps = (size_t)m.rows * m.cols, per = m.size / comps;
    if (fields[f].offset > struct_size || comps * m.type_size > struct_size - fields[f].offset)
      return lsk__fail(s->ctx, LSK_EINVAL,
                       "%s: field '%s' at offset %zu overruns the %zu-byte "
                       "struct",
                       fn, m.name, fields[f].offset, struct_size);
    unsigned char *col = s->host + s->parts[j].base + m.offset;
    if (m.kind == LSK_MEMBER_SCALAR) {
      if (count) {
        if (to_soa)
          memcpy(col, aos_mem + fields[f].offset, m.type_size);
        else
          for (size_t i = 0; i < count; ++i)
            memcpy(aos_mem + i * struct_size + fields[f].offset, col, m.type_size);
      }
      continue;
    }
    for (size_t i = 0; i < count; ++i)
      for (size_t c = 0; c < comps; ++c) {
        unsigned char *a = aos_mem + i * struct_size + fields[f].offset + c * m.type_size;
        unsigned char *b = col + c * per + i * m.type_size;
        if (to_soa)
          memcpy(b, a, m.type_size);
        else
          memcpy(a, b, m.type_size);
      }
  }
  return LSK_OK;
}

int lsk_soa_from_aos(lsk_soa *s, size_t j, const void *aos_mem, size_t count, size_t struct_size,
                     const lsk_aos_field *fields, size_t nfields)
{
  LSK__API();
  LSK__LIVE(NULL, s, SOA, __func__, "soa");
  /* The array is only read in this direction. */
  return aos(s, j, (unsigned char *)(uintptr_t)aos_mem, count, struct_size, fields, nfields, 1,
             __func__);
}

int lsk_soa_to_aos(const lsk_soa *s, size_t j, void *aos_mem, size_t count, size_t struct_size,
                   const lsk_aos_field *fields, size_t nfields)
{
  LSK__API();
  LSK__LIVE(NULL, s, SOA, __func__, "soa");
  return aos(s, j, aos_mem, count, struct_size, fields, nfields, 0, __func__);
}

/* Whether name is in the comma-separated list (NULL: every name is). */
static int listed(const char *list, const char *name)
{
  if (!list)
    return 1;
  while (*list) {
    size_t len = strcspn(list, ", ");
    if (len == strlen(name) && strncmp(list, name, len) == 0)
      return 1;
    list += len;
    list += strspn(list, ", ");
  }
  return 0;
}

static int view_args(const lsk_soa *s, size_t k, const size_t *parts, const char *const *members,
                     lsk_arg *args, size_t cap, size_t *count, const char *fn)
{
  LSK__LIVE(NULL, s, SOA, fn, "soa");
  if (!parts || k == 0 || !count || (!args && cap))
    return lsk__fail(s->ctx, LSK_EINVAL, "%s: %s", fn,
                     k == 0 || !parts ? "no parts" : "NULL count or args");
  size_t n = 0;
  for (size_t j = 0; j < k; ++j) {
    if (parts[j] >= s->k)
      return lsk__fail(s->ctx, LSK_EINVAL, "%s: no part %zu (the soa has %zu)", fn, parts[j], s->k);
    const part *p = &s->parts[parts[j]], *p0 = &s->parts[parts[0]];
    if (p->count != p0->count)
      return lsk__fail(s->ctx, LSK_EINVAL,
                       "%s: a view needs equal lengths: part %zu ('%s') has %zu elements, part "
                       "%zu ('%s') %zu",
                       fn, parts[0], p0->layout->name, p0->count, parts[j], p->layout->name,
                       p->count);
    for (size_t i = 0; i < p->layout->count; ++i) {
      int in = listed(members ? members[j] : NULL, p->layout->members[i].name);
      if (in && n < cap)
        args[n] = LSK_ARG_BUFFER(s->buf);
      n += in;
    }
  }
  for (size_t j = 0; j < k; ++j, ++n)
    if (n < cap)
      args[n] = LSK_ARG_ULONG((uint64_t)s->parts[parts[j]].base);
  if (n < cap)
    args[n] = LSK_ARG_UINT((uint32_t)s->parts[parts[0]].count);
  *count = n + 1;
  return *count <= cap ? LSK_OK
                       : lsk__fail(s->ctx, LSK_ERANGE, "%s: %zu arguments needed, room for %zu", fn,
                                   *count, cap);
}

int lsk_soa_view_args(const lsk_soa *s, size_t k, const size_t *parts, const char *const *members,
                      lsk_arg *args, size_t cap, size_t *count)
{
  LSK__API();
  return view_args(s, k, parts, members, args, cap, count, __func__);
}

int lsk_soa_args(const lsk_soa *s, size_t j, const lsk_emit_options *opt, lsk_arg *args, size_t cap,
                 size_t *count)
{
  LSK__API();
  LSK__LIVE(NULL, s, SOA, __func__, "soa");
  const char *members[1] = {opt ? opt->members : NULL};
  return view_args(s, 1, &j, members, args, cap, count, __func__);
}
