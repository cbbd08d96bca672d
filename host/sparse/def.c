/*
 * def.c: sparse definitions (include/lsk/sparse.h): the chain of nodes and
 * the leaf's fields, the rules each addition must keep, the plan (where
 * each node's arrays lie in the containers, sparse/sparse.h) and the
 * description `lsk sparse` prints. A definition is a plain host object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sparse/def.h"

const lsk__htype LSK__H_SPARSE_DEF = {"lsk_sparse_def", NULL, 0};
LSK__HANDLE_FIRST(lsk_sparse_def);

static const char *const kind_names[] = {"?", "dense", "bitmasked", "pointer", "dynamic"};

static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
static unsigned log2u(uint64_t x)
{
  unsigned r = 0;
  while (x > 1) {
    x >>= 1;
    ++r;
  }
  return r;
}
static size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

int lsk_sparse_def_create(const char *name, size_t align, lsk_sparse_def **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  const char *why = lsk__bad_identifier(name);
  if (why || strlen(name) >= LSK__SP_NAME)
    return lsk__fail(NULL, LSK_EINVAL, "%s: name '%s' %s", __func__, name ? name : "(null)",
                     why ? why : "is too long (63 characters at most)");
  if (align && (align < 4 || align > 128 || !is_pow2(align)))
    return lsk__fail(NULL, LSK_EINVAL, "%s: align %zu: must be a power of two from 4 to 128",
                     __func__, align);
  lsk_sparse_def *d = calloc(1, sizeof *d);
  if (!d || lsk__handle_add(d, &LSK__H_SPARSE_DEF, NULL)) {
    free(d);
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of host memory", __func__);
  }
  strcpy(d->name, name);
  d->align = align ? align : 64;
  *out = d;
  return LSK_OK;
}

void lsk_sparse_def_destroy(lsk_sparse_def *def)
{
  if (!def || lsk__handle_remove(def, &LSK__H_SPARSE_DEF, __func__))
    return;
  free(def);
}

/* Is name taken by a node or a field of d? */
static int name_taken(const lsk_sparse_def *d, const char *name)
{
  for (unsigned i = 0; i < d->nnodes; ++i)
    if (strcmp(d->node[i].name, name) == 0)
      return 1;
  for (unsigned i = 0; i < d->nfields; ++i)
    if (strcmp(d->field[i].name, name) == 0)
      return 1;
  return strcmp(d->name, name) == 0;
}

/* The axes string as axis numbers, increasing; 0 on anything else. */
static int parse_axes(const char *axes, lsk__snode *n)
{
  n->naxes = 0;
  int last = -1;
  for (const char *p = axes; p && *p; ++p) {
    int a = *p - 'i';
    if (a < 0 || a >= LSK_SPARSE_MAX_AXES || a <= last)
      return 0;
    n->axis[n->naxes++] = (unsigned)a;
    last = a;
  }
  return n->naxes > 0;
}

/* Each rule a node must keep against its ancestors (parent p, -1: the
 * root); 0, or 1 with the rule broken, and the value breaking it, in why. */
static int node_rule(const lsk_sparse_def *d, const lsk_snode *s, int p, lsk__snode *n, char *why,
                     size_t cap)
{
#define RULE(...) return snprintf(why, cap, __VA_ARGS__), 1
  if (d->nnodes == LSK_SPARSE_MAX_NODES)
    RULE("is one too many (LSK_SPARSE_MAX_NODES is 8)");
  if (p >= 0 && d->node[p].kind == LSK_SNODE_DYNAMIC)
    RULE("goes under dynamic node '%s': only fields may follow one", d->node[p].name);
  if (p >= 0 && d->node[p].nfields)
    RULE("goes under a node with fields ('%s'): fields are placed in leaves", d->node[p].name);
  if (s->kind < LSK_SNODE_DENSE || s->kind > LSK_SNODE_DYNAMIC)
    RULE("has an unknown kind %d", (int)s->kind);
  if (!parse_axes(s->axes, n))
    RULE("has bad axes '%s': letters of \"ijk\" in increasing order, each once",
         s->axes ? s->axes : "(null)");
  if (s->kind == LSK_SNODE_DYNAMIC && n->naxes != 1)
    RULE("is dynamic over %u axes ('%s'): a list has one", n->naxes, s->axes);
  for (unsigned k = 0; k < n->naxes; ++k) {
    unsigned a = n->axis[k];
    uint64_t extent = 1;
    for (int q = p; q >= 0; q = d->node[q].parent) {
      extent *= d->node[q].size[a];
      if (d->node[q].size[a] > 1 && s->kind == LSK_SNODE_DYNAMIC)
        RULE("is dynamic on axis %c, which ancestor '%s' divides: a list's axis must be its own",
             'i' + a, d->node[q].name);
    }
    if (s->sizes[k] == 0)
      RULE("has a size of 0 along %c", 'i' + a);
    if (s->kind != LSK_SNODE_DYNAMIC && !is_pow2(s->sizes[k]))
      RULE("has a size of %u along %c, not a power of two (each cell's digits are taken with "
           "shifts and masks)",
           s->sizes[k], 'i' + a);
    if (extent * s->sizes[k] > (1ull << 31))
      RULE("makes the extent along %c %llu, past 2^31", 'i' + a,
           (unsigned long long)(extent * s->sizes[k]));
  }
  if (s->kind == LSK_SNODE_DYNAMIC && s->chunk && !is_pow2(s->chunk))
    RULE("has a chunk of %u, not a power of two", s->chunk);
  if (s->kind == LSK_SNODE_DYNAMIC && s->chunk > (1u << 20))
    RULE("has a chunk of %u, more than 2^20 elements", s->chunk);
  uint64_t cells = 1;
  for (unsigned k = 0; k < n->naxes; ++k)
    cells *= s->kind == LSK_SNODE_DYNAMIC ? 1 : s->sizes[k];
  if (cells > LSK_MAX_DOMAIN)
    RULE("has %llu cells per block, more than 2^24 (LSK_MAX_DOMAIN: a block is a launch's "
         "domain)",
         (unsigned long long)cells);
  return 0;
#undef RULE
}

/* The parent a node names (NULL: the node added last); -2 if none. */
static int parent_of(const lsk_sparse_def *d, const char *name)
{
  if (!name)
    return (int)d->nnodes - 1;
  for (unsigned m = 0; m < d->nnodes; ++m)
    if (strcmp(d->node[m].name, name) == 0)
      return (int)m;
  return -2;
}

int lsk_sparse_def_add_node(lsk_sparse_def *def, const lsk_snode *node)
{
  LSK__API();
  LSK__LIVE(NULL, def, SPARSE_DEF, __func__, "def");
  if (!node)
    return lsk__fail(NULL, LSK_EINVAL, "%s: node is NULL", __func__);
  const char *why = lsk__bad_identifier(node->name);
  if (why || strlen(node->name) >= LSK__SP_NAME || name_taken(def, node->name))
    return lsk__fail(NULL, LSK_EINVAL, "%s: sparse '%s': node name '%s' %s", __func__, def->name,
                     node->name ? node->name : "(null)",
                     why                                  ? why
                     : strlen(node->name) >= LSK__SP_NAME ? "is too long"
                                                          : "is taken");
  int p = parent_of(def, node->parent);
  if (p == -2)
    return lsk__fail(NULL, LSK_EINVAL, "%s: sparse '%s': node '%s' goes under '%s', no node of it",
                     __func__, def->name, node->name, node->parent);
  lsk__snode n = {.kind = node->kind, .pool = -1, .parent = p};
  char rule[160];
  if (node_rule(def, node, p, &n, rule, sizeof rule))
    return lsk__fail(NULL, LSK_EINVAL, "%s: sparse '%s': node '%s' %s", __func__, def->name,
                     node->name, rule);
  strcpy(n.name, node->name);
  if (p >= 0)
    def->node[p].nkids++;
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    n.size[a] = 1;
  for (unsigned k = 0; k < n.naxes; ++k)
    n.size[n.axis[k]] = node->sizes[k];
  if (n.kind == LSK_SNODE_DYNAMIC) {
    n.chunk = node->chunk ? node->chunk : 32;
    n.log2chunk = log2u(n.chunk);
  }
  def->node[def->nnodes++] = n;
  return lsk__sparse_plan(def, __func__);
}

int lsk_sparse_def_place(lsk_sparse_def *def, const char *type, const char *name)
{
  LSK__API();
  LSK__LIVE(NULL, def, SPARSE_DEF, __func__, "def");
  int scalar = 0;
  size_t size = type ? lsk__type_size(type, &scalar) : 0;
  if (!size || !scalar)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: sparse '%s': field type '%s' is not a scalar OpenCL type (char uchar "
                     "short ushort int uint long ulong float double)",
                     __func__, def->name, type ? type : "(null)");
  const char *why = lsk__bad_identifier(name);
  if (why || strlen(name) >= LSK__SP_NAME || name_taken(def, name))
    return lsk__fail(NULL, LSK_EINVAL, "%s: sparse '%s': field name '%s' %s", __func__, def->name,
                     name ? name : "(null)",
                     why                            ? why
                     : strlen(name) >= LSK__SP_NAME ? "is too long"
                                                    : "is taken");
  if (!def->nnodes)
    return lsk__fail(NULL, LSK_EINVAL, "%s: sparse '%s': field '%s' comes before any node",
                     __func__, def->name, name);
  lsk__snode *leaf = &def->node[def->nnodes - 1];
  if (leaf->nkids)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: sparse '%s': field '%s' in node '%s', which has nodes under it: fields "
                     "are placed in leaves",
                     __func__, def->name, name, leaf->name);
  if (leaf->kind == LSK_SNODE_POINTER)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: sparse '%s': field '%s' under pointer '%s': a pointer's cells hold "
                     "references; put a dense node below it",
                     __func__, def->name, name, def->node[def->nnodes - 1].name);
  if (def->nfields == LSK_SPARSE_MAX_FIELDS)
    return lsk__fail(NULL, LSK_EINVAL, "%s: sparse '%s': field '%s' is one too many (%d at most)",
                     __func__, def->name, name, LSK_SPARSE_MAX_FIELDS);
  lsk__sfield *f = &def->field[def->nfields++];
  memset(f, 0, sizeof *f);
  strcpy(f->type, type);
  strcpy(f->name, name);
  f->size = size;
  f->node = def->nnodes - 1;
  leaf->nfields++;
  return lsk__sparse_plan(def, __func__);
}

unsigned lsk__sparse_axes_of(const lsk_sparse_def *d, unsigned m)
{
  unsigned mask = 0;
  for (int q = (int)m; q >= 0; q = d->node[q].parent)
    for (unsigned k = 0; k < d->node[q].naxes; ++k)
      mask |= 1u << d->node[q].axis[k];
  return mask;
}

void lsk__sparse_field_extent(const lsk_sparse_def *d, unsigned f,
                              uint64_t extent[LSK_SPARSE_MAX_AXES])
{
  unsigned mask = lsk__sparse_axes_of(d, d->field[f].node);
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    extent[a] = a < d->axes && (mask >> a & 1) ? d->extent[a] : 1;
}

/* Extents (the largest along any way from the root; lsk__sparse_check
 * wants them equal) and each node's digits: lg (its own bits), shift
 * (the bits of the nodes below it: the extent's bits less its own and its
 * ancestors') and mult (its weight in the cell index, first axis
 * fastest). */
static void plan_digits(lsk_sparse_def *d)
{
  unsigned above[LSK_SPARSE_MAX_NODES][LSK_SPARSE_MAX_AXES];
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    d->extent[a] = 1;
  d->axes = 0;
  for (unsigned m = 0; m < d->nnodes; ++m) {
    lsk__snode *n = &d->node[m];
    unsigned w = 0;
    for (unsigned k = 0; k < n->naxes; ++k)
      d->axes = n->axis[k] + 1 > d->axes ? n->axis[k] + 1 : d->axes;
    n->ncells = n->kind == LSK_SNODE_DYNAMIC ? n->chunk : 1;
    for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a) {
      uint64_t e = n->size[a];
      for (int q = n->parent; q >= 0; q = d->node[q].parent)
        e *= d->node[q].size[a];
      d->extent[a] = e > d->extent[a] ? e : d->extent[a];
      n->lg[a] = n->kind == LSK_SNODE_DYNAMIC ? 0 : log2u(n->size[a]);
      above[m][a] = n->lg[a] + (n->parent >= 0 ? above[n->parent][a] : 0);
      n->mult[a] = w;
      w += n->lg[a];
      if (n->kind != LSK_SNODE_DYNAMIC)
        n->ncells *= n->size[a];
    }
  }
  for (unsigned m = 0; m < d->nnodes; ++m)
    for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a) {
      unsigned bits = is_pow2(d->extent[a]) ? log2u(d->extent[a]) : 0;
      d->node[m].shift[a] = bits > above[m][a] ? bits - above[m][a] : 0;
    }
}

/* Node m's arrays in its container (its parent's, or under a pointer the
 * pointer's pool's); off[] holds each container's bytes so far. A pointer
 * or dynamic node gets a pool, whose blocks are a new container. */
static void plan_node(lsk_sparse_def *d, unsigned m, size_t *off)
{
  lsk__snode *n = &d->node[m];
  const lsk__snode *p = n->parent >= 0 ? &d->node[n->parent] : NULL;
  size_t a = d->align;
  n->cont = !p ? 0 : p->kind == LSK_SNODE_POINTER ? (unsigned)p->pool + 1 : p->cont;
  n->inl = !p || p->kind == LSK_SNODE_POINTER ? 1 : p->inl * p->ncells;
  n->maxblocks = !p ? 1 : p->maxblocks * p->ncells;
  n->pool = -1;
  size_t *o = &off[n->cont];
  uint64_t cells = n->inl * n->ncells;
  switch (n->kind) {
  case LSK_SNODE_DENSE: return;
  case LSK_SNODE_BITMASKED:
    n->off = round_up(*o, a);
    *o = n->off + (cells + 31) / 32 * 4;
    return;
  case LSK_SNODE_POINTER:
    n->off = round_up(*o, a);
    *o = n->off + cells * 4;
    break;
  case LSK_SNODE_DYNAMIC:
    n->maxblocks *= (n->size[n->axis[0]] + n->chunk - 1) / n->chunk;
    n->off = round_up(*o, a);
    n->off2 = round_up(n->off + n->inl * 4, a);
    *o = n->off2 + n->inl * 4;
    break;
  }
  n->pool = (int)d->npools;
  d->pool_node[d->npools++] = (int)m;
  /* A chunk's first word links the next chunk. */
  off[d->npools] = n->kind == LSK_SNODE_DYNAMIC ? 4 : 0;
}

int lsk__sparse_plan(lsk_sparse_def *d, const char *fn)
{
  (void)fn;
  size_t off[LSK_SPARSE_MAX_NODES + 1] = {0};
  plan_digits(d);
  d->npools = 0;
  for (unsigned m = 0; m < d->nnodes; ++m)
    plan_node(d, m, off);
  for (unsigned f = 0; f < d->nfields; ++f) {
    const lsk__snode *n = &d->node[d->field[f].node];
    int dyn = n->kind == LSK_SNODE_DYNAMIC;
    size_t *o = &off[dyn ? (unsigned)n->pool + 1 : n->cont];
    d->field[f].off = round_up(*o, d->align);
    *o = d->field[f].off + (dyn ? n->ncells : n->inl * n->ncells) * d->field[f].size;
  }
  for (unsigned c = 0; c <= d->npools; ++c)
    d->cont_bytes[c] = round_up(off[c] ? off[c] : 4, d->align);
  return LSK_OK;
}

int lsk__sparse_check(const lsk_sparse_def *d, lsk_context *ctx, const char *fn)
{
  if (!d->nnodes || !d->nfields)
    return lsk__fail(ctx, LSK_EINVAL, "%s: sparse '%s' has no %s", fn, d->name,
                     d->nnodes ? "field" : "node");
  int dynamic[LSK_SPARSE_MAX_AXES] = {0};
  for (unsigned m = 0; m < d->nnodes; ++m)
    if (d->node[m].kind == LSK_SNODE_DYNAMIC)
      dynamic[d->node[m].axis[0]] = 1;
  for (unsigned m = 0; m < d->nnodes; ++m) {
    const lsk__snode *n = &d->node[m];
    if (!n->nkids && !n->nfields)
      return lsk__fail(ctx, LSK_EINVAL,
                       "%s: sparse '%s': node '%s' has neither nodes nor fields under it", fn,
                       d->name, n->name);
    for (unsigned a = 0; a < d->axes && !n->nkids; ++a) {
      uint64_t e = 1;
      for (int q = (int)m; q >= 0; q = d->node[q].parent)
        e *= d->node[q].kind == LSK_SNODE_DYNAMIC ? 1 : d->node[q].size[a];
      if (dynamic[a] && e > 1)
        return lsk__fail(ctx, LSK_EINVAL,
                         "%s: sparse '%s': axis %c is a dynamic node's and divided on the way to "
                         "leaf '%s': an axis is one or the other",
                         fn, d->name, 'i' + a, n->name);
      if (!dynamic[a] && e != d->extent[a])
        return lsk__fail(ctx, LSK_EINVAL,
                         "%s: sparse '%s': leaf '%s' reaches %llu along axis %c, another leaf "
                         "%llu: every leaf of a tree divides each axis to the same extent",
                         fn, d->name, n->name, (unsigned long long)e, 'i' + a,
                         (unsigned long long)d->extent[a]);
    }
  }
  for (unsigned a = 0; a < d->axes; ++a) {
    int used = 0;
    for (unsigned m = 0; m < d->nnodes; ++m)
      for (unsigned k = 0; k < d->node[m].naxes; ++k)
        used |= d->node[m].axis[k] == a;
    if (!used)
      return lsk__fail(ctx, LSK_EINVAL, "%s: sparse '%s': no node divides axis %c (axes %s)", fn,
                       d->name, 'i' + a, d->axes == 2 ? "i, j" : "i, j, k");
  }
  return LSK_OK;
}

int lsk__sparse_node_index(const lsk_sparse_def *d, const char *name)
{
  if (!name)
    return d->nfields ? (int)d->field[0].node : d->nnodes ? (int)d->nnodes - 1 : -1;
  for (unsigned m = 0; m < d->nnodes; ++m)
    if (strcmp(d->node[m].name, name) == 0)
      return (int)m;
  return -1;
}

const char *lsk_sparse_def_name(const lsk_sparse_def *def)
{
  LSK__LIVE_OR(NULL, def, SPARSE_DEF, __func__, "def");
  return def->name;
}
unsigned lsk_sparse_def_axes(const lsk_sparse_def *def)
{
  LSK__LIVE_OR(0, def, SPARSE_DEF, __func__, "def");
  return def->axes;
}
unsigned lsk_sparse_def_nodes(const lsk_sparse_def *def)
{
  LSK__LIVE_OR(0, def, SPARSE_DEF, __func__, "def");
  return def->nnodes;
}
unsigned lsk_sparse_def_fields(const lsk_sparse_def *def)
{
  LSK__LIVE_OR(0, def, SPARSE_DEF, __func__, "def");
  return def->nfields;
}

int lsk_sparse_def_node(const lsk_sparse_def *def, unsigned i, lsk_snode *out)
{
  LSK__API();
  LSK__LIVE(NULL, def, SPARSE_DEF, __func__, "def");
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  if (i >= def->nnodes)
    return lsk__fail(NULL, LSK_ERANGE, "%s: node %u: sparse '%s' has %u", __func__, i, def->name,
                     def->nnodes);
  static const char *const axes[] = {"i", "j", "k"};
  const lsk__snode *n = &def->node[i];
  memset(out, 0, sizeof *out);
  out->kind = n->kind;
  out->name = n->name;
  /* The definition's own string for the axes: kept beside the node. */
  out->axes = n->naxes == 1     ? axes[n->axis[0]]
              : n->naxes == 3   ? "ijk"
              : n->axis[0] == 0 ? (n->axis[1] == 1 ? "ij" : "ik")
                                : "jk";
  for (unsigned k = 0; k < n->naxes; ++k)
    out->sizes[k] = n->size[n->axis[k]];
  out->chunk = n->chunk;
  out->parent = n->parent >= 0 ? def->node[n->parent].name : NULL;
  return LSK_OK;
}

int lsk_sparse_def_field(const lsk_sparse_def *def, unsigned i, const char **type,
                         const char **name)
{
  LSK__API();
  LSK__LIVE(NULL, def, SPARSE_DEF, __func__, "def");
  if (!type || !name)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, type ? "name" : "type");
  if (i >= def->nfields)
    return lsk__fail(NULL, LSK_ERANGE, "%s: field %u: sparse '%s' has %u", __func__, i, def->name,
                     def->nfields);
  *type = def->field[i].type;
  *name = def->field[i].name;
  return LSK_OK;
}

int lsk_sparse_def_extent(const lsk_sparse_def *def, uint64_t extent[LSK_SPARSE_MAX_AXES])
{
  LSK__API();
  LSK__LIVE(NULL, def, SPARSE_DEF, __func__, "def");
  if (!extent)
    return lsk__fail(NULL, LSK_EINVAL, "%s: extent is NULL", __func__);
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    extent[a] = a < def->axes ? def->extent[a] : 1;
  return LSK_OK;
}

int lsk_sparse_def_describe(const lsk_sparse_def *def, char **text)
{
  LSK__API();
  LSK__LIVE(NULL, def, SPARSE_DEF, __func__, "def");
  if (!text)
    return lsk__fail(NULL, LSK_EINVAL, "%s: text is NULL", __func__);
  *text = NULL;
  lsk__sb sb = {0};
  lsk__sb_printf(&sb, "sparse %s: %u axes, extent", def->name, def->axes);
  for (unsigned a = 0; a < def->axes; ++a)
    lsk__sb_printf(&sb, "%s%llu", a ? " x " : " ", (unsigned long long)def->extent[a]);
  lsk__sb_printf(&sb, ", align %zu\n", def->align);
  for (unsigned m = 0; m < def->nnodes; ++m) {
    const lsk__snode *n = &def->node[m];
    lsk__sb_printf(&sb, "node %u %-9s %-12s under %-12s axes ", m, kind_names[n->kind], n->name,
                   n->parent >= 0 ? def->node[n->parent].name : "the root");
    for (unsigned k = 0; k < n->naxes; ++k)
      lsk__sb_printf(&sb, "%c", 'i' + n->axis[k]);
    lsk__sb_printf(&sb, ", %llu cells per %s, at most %llu %s", (unsigned long long)n->ncells,
                   n->kind == LSK_SNODE_DYNAMIC ? "chunk" : "block",
                   (unsigned long long)n->maxblocks,
                   n->kind == LSK_SNODE_DYNAMIC ? "chunks" : "blocks");
    if (n->pool >= 0)
      lsk__sb_printf(&sb, "; its pool's blocks: %zu bytes", def->cont_bytes[n->pool + 1]);
    lsk__sb_printf(&sb, "\n");
  }
  for (unsigned f = 0; f < def->nfields; ++f) {
    const lsk__snode *n = &def->node[def->field[f].node];
    lsk__sb_printf(&sb, "field %-8s %-12s in %-12s at offset %zu of its %s\n", def->field[f].type,
                   def->field[f].name, n->name, def->field[f].off,
                   n->kind == LSK_SNODE_DYNAMIC ? "chunks"
                   : n->cont                    ? "blocks"
                                                : "root block");
  }
  lsk__sb_printf(&sb, "root block: %zu bytes\n", def->cont_bytes[0]);
  return lsk__sb_finish(&sb, text, __func__);
}
