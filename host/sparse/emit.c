/*
 * emit.c: the OpenCL C generated from a sparse definition (the names are
 * in docs/sparse.md): the view of a structure's buffers, for every node a
 * walk from the root to its cell with every shift and mask a constant, the
 * nodes' and fields' functions (through the walk, or with its steps
 * written into them as a lookup), the struct-for's macros, and the
 * tables that the library's generic kernels (kernels/sparse.cl) read,
 * compiled only where LSK__SPARSE_LIB_<NAME> is defined (with lib: the
 * structure's own program; `lsk check --sparse` takes it as a -D).
 */
#include <ctype.h>
#include <string.h>

#include "sparse/def.h"

typedef struct em {
  const lsk_sparse_def *d;
  lsk__sb *sb;
  unsigned mask;         /* the axes of the node whose functions are being written */
  char up[LSK__SP_NAME]; /* the structure's name in capitals */
} em;

#define P(...) lsk__sb_printf(e->sb, __VA_ARGS__)

static const char *const coord[] = {"i", "j", "k"};
static const char *const walk_coord[] = {"c0", "c1", "c2"};

/* "uint i, uint j" over the node's axes (e->mask), skipping axis skip. */
static void params(em *e, int skip)
{
  for (unsigned a = 0; a < e->d->axes; ++a)
    if ((int)a != skip && (e->mask >> a & 1))
      P(", uint %s", coord[a]);
}
/* "i, j, 0" as the walk takes them: the node's axes but skip, else 0. */
static void walk_args(em *e, int skip)
{
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    P(", %s", (e->mask >> a & 1) && (int)a != skip ? coord[a] : "0u");
}
/* "i, j" over the node's axes, as a call passes them on. */
static void call_args(em *e)
{
  for (unsigned a = 0; a < e->d->axes; ++a)
    if (e->mask >> a & 1)
      P(", %s", coord[a]);
}

/* Node m's cell index in its block from the coordinates, named cn[a]. */
static void digits(em *e, const lsk__snode *n, const char *const *cn)
{
  int any = 0;
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    if (n->lg[a]) {
      P("%s(((%s >> %uu) & %uu) << %uu)", any++ ? " | " : "", cn[a], n->shift[a],
        (1u << n->lg[a]) - 1u, n->mult[a]);
    }
  if (!any)
    P("0u");
}

/* The container holding node m's arrays, from its pool cell's index. */
static void cont_of(em *e, unsigned cont, const char *cell)
{
  if (cont == 0)
    P("(__global uchar *)v.root");
  else
    P("(v.cells[%u] + (ulong)(%s) * %zuu)", cont - 1, cell, e->d->cont_bytes[cont]);
}

/* A bitmasked node's bit of cell f at offset off tested: 0 where clear. */
static void bit_test(em *e, size_t off)
{
  P("  if (!lsk__sp_bit(c + %zu, f))\n    return 0;\n", off);
}

/* The steps from the root down to node m's cell: c, its container, and
 * f, its flat index there (cn names the coordinates). Where a node on the
 * way is inactive the function returns 0; with look, a lookup that
 * activates nothing, else as the int act says. */
static void walk_steps(em *e, unsigned m, int look, const char *const *cn)
{
  unsigned way[LSK_SPARSE_MAX_NODES], len = 0;
  for (int q = (int)m; q >= 0; q = e->d->node[q].parent)
    way[len++] = (unsigned)q;
  P("  __global uchar *c = (__global uchar *)v.root;\n  uint f = 0;\n");
  while (len--) {
    unsigned n = way[len];
    const lsk__snode *q = &e->d->node[n];
    if (q->kind == LSK_SNODE_DYNAMIC)
      break;
    P("  f = f * %lluu + (", (unsigned long long)q->ncells);
    digits(e, q, cn);
    P(");\n");
    if (n == m)
      break;
    if (q->kind == LSK_SNODE_BITMASKED && look)
      bit_test(e, q->off);
    else if (q->kind == LSK_SNODE_BITMASKED)
      P("  if (act)\n    lsk__sp_bit_set(c + %zu, f);\n  else if (!lsk__sp_bit(c + %zu, f))\n"
        "    return 0;\n",
        q->off, q->off);
    else if (q->kind == LSK_SNODE_POINTER && look) {
      P("  {\n    uint b;\n    if (!lsk__sp_block(((__global uint *)(c + %zu))[f], &b))\n"
        "      return 0;\n    c = ",
        q->off);
      cont_of(e, (unsigned)q->pool + 1, "b");
      P(";\n    f = 0;\n  }\n");
    } else if (q->kind == LSK_SNODE_POINTER) {
      P("  {\n    __global uint *l = (__global uint *)(c + %zu) + f;\n"
        "    uint r = act ? lsk__sp_install(v.pool[%d], l, v.lists, %uu) : lsk__sp_ref(*l);\n"
        "    if (!r)\n      return 0;\n    c = ",
        q->off, q->pool, n);
      cont_of(e, (unsigned)q->pool + 1, "r - 1u");
      P(";\n    f = 0;\n  }\n");
    }
  }
}

/* walk_steps as a lookup, in a function whose parameters are the node's
 * coordinates (e->mask). Through a walk function, its caller and theirs,
 * each returning NULL on its own way, every NULL test stayed in PoCL's
 * code after inlining, and a dense loop over a sparse field took about a
 * third longer (docs/perf/sparse.md, "Field pointers"). */
static void lookup_steps(em *e, unsigned m)
{
  const char *names[LSK_SPARSE_MAX_AXES];
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    names[a] = e->mask >> a & 1 ? coord[a] : "0u";
  walk_steps(e, m, 1, names);
}

/* Node m's walk: the container holding its cell (a dynamic node: its
 * list) and the cell's flat index there; NULL where an ancestor is
 * inactive, or with act, where one could not be activated. */
static void emit_walk(em *e, unsigned m)
{
  const char *s = e->d->name;
  P("LSK_INLINE __global uchar *%s__walk%u(%s v, uint c0, uint c1, uint c2, int act, uint *flat)\n"
    "{\n",
    s, m, s);
  walk_steps(e, m, 0, walk_coord);
  P("  (void)act;\n  *flat = f;\n  return c;\n}\n");
}

/* Is cell f of node m (container c) active; activate it; deactivate it. */
static void cell_active(em *e, const lsk__snode *n)
{
  if (n->kind == LSK_SNODE_BITMASKED)
    P("lsk__sp_bit(c + %zu, f)", n->off);
  else if (n->kind == LSK_SNODE_POINTER)
    P("lsk__sp_ref(((__global uint *)(c + %zu))[f]) != 0", n->off);
  else
    P("1");
}

static void emit_level(em *e, unsigned m)
{
  const lsk__snode *n = &e->d->node[m];
  e->mask = lsk__sparse_axes_of(e->d, m);
  const char *s = e->d->name;
  if (n->kind == LSK_SNODE_DYNAMIC)
    return;
  P("LSK_INLINE int %s_%s_is_active(%s v", s, n->name, s);
  params(e, -1);
  P(")\n{\n");
  lookup_steps(e, m);
  if (n->kind == LSK_SNODE_DENSE) /* unused: a warning, an error on NVPTX (-Werror) */
    P("  (void)c;\n  (void)f;\n");
  P("  return ");
  cell_active(e, n);
  P(";\n}\n");
  P("LSK_INLINE int %s_%s_activate(%s v", s, n->name, s);
  params(e, -1);
  P(")\n{\n  uint f;\n  __global uchar *c = %s__walk%u(v", s, m);
  walk_args(e, -1);
  P(", 1, &f);\n  if (!c)\n    return 0;\n");
  if (n->kind == LSK_SNODE_BITMASKED)
    P("  lsk__sp_bit_set(c + %zu, f);\n", n->off);
  if (n->kind == LSK_SNODE_POINTER)
    P("  return lsk__sp_install(v.pool[%d], (__global uint *)(c + %zu) + f, v.lists, "
      "%uu) != 0;\n",
      n->pool, n->off, m);
  else
    P("  return 1;\n");
  P("}\n");
  P("LSK_INLINE void %s_%s_deactivate(%s v", s, n->name, s);
  params(e, -1);
  P(")\n{\n  uint f;\n  __global uchar *c = %s__walk%u(v", s, m);
  walk_args(e, -1);
  P(", 0, &f);\n  if (!c)\n    return;\n");
  if (n->kind == LSK_SNODE_BITMASKED)
    P("  lsk__sp_bit_clear(c + %zu, f);\n", n->off);
  else if (n->kind == LSK_SNODE_POINTER)
    P("  lsk__sp_unlink(v.pool[%d], (__global uint *)(c + %zu) + f);\n", n->pool, n->off);
  else
    P("  (void)f;\n");
  P("}\n");
}

/* A dynamic node's list functions: length, is_active, deactivate, append. */
static void emit_dynamic(em *e, unsigned m)
{
  const lsk__snode *n = &e->d->node[m];
  e->mask = lsk__sparse_axes_of(e->d, m);
  const char *s = e->d->name;
  int ax = (int)n->axis[0];
  unsigned max = n->size[ax];
  P("LSK_INLINE uint %s_%s_length(%s v", s, n->name, s);
  params(e, ax);
  P(")\n{\n  uint f;\n  __global uchar *c = %s__walk%u(v", s, m);
  walk_args(e, ax);
  P(", 0, &f);\n  return c ? min(((__global uint *)(c + %zu))[f], %uu) : 0u;\n}\n", n->off, max);
  P("LSK_INLINE int %s_%s_is_active(%s v", s, n->name, s);
  params(e, -1);
  P(")\n{\n  return %s < %s_%s_length(v", coord[ax], s, n->name);
  for (unsigned a = 0; a < e->d->axes; ++a)
    if ((int)a != ax && (e->mask >> a & 1))
      P(", %s", coord[a]);
  P(");\n}\n");
  P("LSK_INLINE void %s_%s_deactivate(%s v", s, n->name, s);
  params(e, ax);
  P(")\n{\n  uint f;\n  __global uchar *c = %s__walk%u(v", s, m);
  walk_args(e, ax);
  P(", 0, &f);\n  if (c)\n    lsk__sp_clear_list(v.pool[%d], (__global uint *)(c + %zu) + f, "
    "(__global uint *)(c + %zu) + f);\n}\n",
    n->pool, n->off, n->off2);
  P("LSK_INLINE uint %s_%s_append(%s v", s, n->name, s);
  params(e, ax);
  /* Its fields' values, as lsk__a<field>: a field may be called v, f or
   * x, as the locals below are. */
  for (unsigned f = 0; f < e->d->nfields; ++f)
    if (e->d->field[f].node == m)
      P(", %s lsk__a%u", e->d->field[f].type, f);
  P(")\n{\n  uint f;\n  __global uchar *c = %s__walk%u(v", s, m);
  walk_args(e, ax);
  P(", 1, &f);\n  if (!c)\n    return LSK_SPARSE_NONE;\n"
    "  uint x = atomic_inc((volatile __global uint *)(c + %zu) + f);\n"
    "  if (x >= %uu) {\n    atomic_inc((volatile __global uint *)v.lists + LSK__SPL_PAST + %u);\n"
    "    return LSK_SPARSE_NONE;\n  }\n"
    "  uint r = lsk__sp_chunk(v.pool[%d], (__global uint *)(c + %zu) + f, x >> %uu, 1, v.lists, "
    "%uu);\n  if (!r)\n    return LSK_SPARSE_NONE;\n"
    "  __global uchar *lsk__k = ",
    n->off, max, m, n->pool, n->off2, n->log2chunk, m);
  cont_of(e, (unsigned)n->pool + 1, "r - 1u");
  P(";\n");
  for (unsigned f = 0; f < e->d->nfields; ++f)
    if (e->d->field[f].node == m)
      P("  ((__global %s *)(lsk__k + %zu))[x & %uu] = lsk__a%u;\n", e->d->field[f].type,
        e->d->field[f].off, n->chunk - 1, f);
  P("  return x;\n}\n");
}

/* Leaf L's cell of the coordinates: its container and flat index; with
 * act, activated. A dynamic leaf: the element's chunk. */
static void emit_leaf(em *e, unsigned L)
{
  const lsk_sparse_def *d = e->d;
  const lsk__snode *n = &d->node[L];
  const char *s = d->name;
  P("LSK_INLINE __global uchar *%s__leaf%u(%s v, uint c0, uint c1, uint c2, int act, uint *flat)\n"
    "{\n  __global uchar *c = %s__walk%u(v, c0, c1, c2, act, flat);\n  if (!c)\n    return 0;\n",
    s, L, s, s, L);
  if (n->kind == LSK_SNODE_BITMASKED)
    P("  if (act)\n    lsk__sp_bit_set(c + %zu, *flat);\n  else if (!lsk__sp_bit(c + %zu, *flat))\n"
      "    return 0;\n",
      n->off, n->off);
  if (n->kind == LSK_SNODE_DYNAMIC) {
    unsigned ax = n->axis[0];
    P("  uint x = c%u, f = *flat;\n", ax);
    P("  if (x >= %uu)\n    return 0;\n", n->size[ax]);
    P("  if (act)\n    atomic_max((volatile __global uint *)(c + %zu) + f, x + 1u);\n"
      "  else if (x >= ((__global uint *)(c + %zu))[f])\n    return 0;\n",
      n->off, n->off);
    P("  uint r = lsk__sp_chunk(v.pool[%d], (__global uint *)(c + %zu) + f, x >> %uu, act, "
      "v.lists, %uu);\n  if (!r)\n    return 0;\n"
      "  *flat = x & %uu;\n  return ",
      n->pool, n->off2, n->log2chunk, L, n->chunk - 1);
    cont_of(e, (unsigned)n->pool + 1, "r - 1u");
    P(";\n");
  } else {
    P("  return c;\n");
  }
  P("}\n");
}

/* The body of field f's pointer, on a leaf that is not dynamic: a lookup
 * (lookup_steps), the leaf's own bit test where it is bitmasked. */
static void emit_lookup(em *e, const lsk__sfield *f)
{
  const lsk__snode *leaf = &e->d->node[f->node];
  lookup_steps(e, f->node);
  if (leaf->kind == LSK_SNODE_BITMASKED)
    bit_test(e, leaf->off);
  P("  return (__global %s *)(c + %zu) + f;\n}\n", f->type, f->off);
}

static void emit_fields(em *e)
{
  const lsk_sparse_def *d = e->d;
  const char *s = d->name;
  for (unsigned i = 0; i < d->nfields; ++i) {
    const lsk__sfield *f = &d->field[i];
    const char *t = f->type, *x = f->name;
    e->mask = lsk__sparse_axes_of(d, f->node);
    for (int act = 0; act < 2; ++act) {
      P("LSK_INLINE __global %s *%s_%s_%s(%s v", t, s, x, act ? "ref" : "ptr", s);
      params(e, -1);
      P(")\n{\n");
      if (!act && d->node[f->node].kind != LSK_SNODE_DYNAMIC) {
        emit_lookup(e, f);
        continue;
      }
      P("  uint f;\n  __global uchar *c = %s__leaf%u(v", s, f->node);
      walk_args(e, -1);
      P(", %d, &f);\n  return c ? (__global %s *)(c + %zu) + f : 0;\n}\n", act, t, f->off);
    }
    P("LSK_INLINE %s %s_%s_get(%s v", t, s, x, s);
    params(e, -1);
    P(")\n{\n  __global %s *p = %s_%s_ptr(v", t, s, x);
    call_args(e);
    P(");\n  return p ? *p : (%s)0;\n}\n", t);
    P("LSK_INLINE int %s_%s_set(%s v", s, x, s);
    params(e, -1);
    P(", %s value)\n{\n  __global %s *p = %s_%s_ref(v", t, t, s, x);
    call_args(e);
    P(");\n  if (p)\n    *p = value;\n  return p != 0;\n}\n");
  }
}

/* Node m's struct-for step: lsk__sp_step, then, where the device library
 * defines the read hint (CPUs), the hint for each of m's fields over the
 * cells of the block this block of workers takes next. */
static void emit_step(em *e, unsigned m)
{
  const lsk_sparse_def *d = e->d;
  const char *s = d->name;
  P("LSK_INLINE int %s__step%u(%s v, lsk_sparse_block *b)\n{\n"
    "  if (!lsk__sp_step(v.lists, %uu, b))\n    return 0;\n",
    s, m, s, m);
  int hints = 0; /* the next block read once, before the first field's hint */
  for (unsigned f = 0; f < d->nfields; ++f) {
    if (d->field[f].node != m)
      continue;
    if (!hints++)
      P("#ifdef LSK__PREFETCH_R\n  lsk_sparse_block n;\n"
        "  if (lsk__sp_load(v.lists, %uu, b->e + lsk_grid_size(), &n)) {\n"
        "    __global const uchar *c = %s__bcont%u(v, n);\n",
        m, s, m);
    P("    lsk__sp_ahead(c + %zu + (ulong)n.first * %zuu, (ulong)n.count * %zuu);\n",
      d->field[f].off, d->field[f].size, d->field[f].size);
  }
  if (hints)
    P("  }\n#endif\n");
  P("  return 1;\n}\n");
}

/* The block's container for node m (a dynamic node: the chunk's). */
static void emit_block(em *e, unsigned m)
{
  const lsk__snode *n = &e->d->node[m];
  const char *s = e->d->name;
  unsigned cont = n->kind == LSK_SNODE_DYNAMIC ? (unsigned)n->pool + 1 : n->cont;
  P("LSK_INLINE __global uchar *%s__bcont%u(%s v, lsk_sparse_block b)\n{\n  (void)b;\n  return ", s,
    m, s);
  cont_of(e, cont, "b.cont");
  P(";\n}\n");
  P("LSK_INLINE uint3 %s_%s_pos(lsk_sparse_block b, lsk_idx it)\n{\n  return (uint3)(", s, n->name);
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a) {
    if (n->kind == LSK_SNODE_DYNAMIC && n->axis[0] == a)
      P("%sb.base[%u] + it.idx", a ? ", " : "", a);
    else if (n->lg[a])
      P("%sb.base[%u] + (((it.idx >> %uu) & %uu) << %uu)", a ? ", " : "", a, n->mult[a],
        (1u << n->lg[a]) - 1u, n->shift[a]);
    else
      P("%sb.base[%u]", a ? ", " : "", a);
  }
  P(");\n}\n");
  char up[LSK__SP_NAME];
  size_t k = 0;
  for (; n->name[k]; ++k)
    up[k] = (char)toupper((unsigned char)n->name[k]);
  up[k] = 0;
  emit_step(e, m);
  P("#define %s_FOR_%s(v, b) \\\n"
    "  for (lsk_sparse_block b = {LSK_SPARSE_NONE, 0, 0, 0, {0, 0, 0}}; \\\n"
    "       %s__step%u((v), &b);)\n",
    e->up, up, s, m);
  P("#define %s_FOREACH_%s(it, v, b) ", e->up, up);
  if (n->kind == LSK_SNODE_DYNAMIC)
    P("LSK_FOREACH_N(it, (b).count)\n");
  else if (n->kind == LSK_SNODE_DENSE)
    P("LSK_FOREACH(it)\n");
  else if (n->kind == LSK_SNODE_BITMASKED)
    P("LSK_FOREACH(it) if (lsk__sp_bit(%s__bcont%u((v), (b)) + %zu, (b).first + (it).idx))\n", s, m,
      n->off);
  else
    P("LSK_FOREACH(it) if (((__global uint *)(%s__bcont%u((v), (b)) + %zu))[(b).first + "
      "(it).idx])\n",
      s, m, n->off);
}

static void emit_block_fields(em *e)
{
  const lsk_sparse_def *d = e->d;
  const char *s = d->name;
  for (unsigned i = 0; i < d->nfields; ++i) {
    const lsk__sfield *f = &d->field[i];
    P("LSK_INLINE __global %s *%s_%s_block(%s v, lsk_sparse_block b)\n{\n"
      "  return (__global %s *)(%s__bcont%u(v, b) + %zu) + b.first;\n}\n",
      f->type, s, f->name, s, f->type, s, f->node, f->off);
    P("LSK_INLINE __global %s *%s_%s_cell(%s v, lsk_sparse_block b, lsk_idx it)\n{\n"
      "  return %s_%s_block(v, b) + it.idx;\n}\n",
      f->type, s, f->name, s, s, f->name);
  }
}

static void emit_view(em *e)
{
  const lsk_sparse_def *d = e->d;
  const char *s = d->name;
  unsigned np = d->npools ? d->npools : 1;
  /* cells[p]: pool p's first block, read from its header once per kernel
   * (in the walks the compiler could not keep it: a store to a field may
   * alias the header); a block's stride is a constant. */
  P("typedef struct %s {\n  __global uint *root;\n  __global uint *lists;\n"
    "  __global uint *pool[%u];\n  __global uchar *cells[%u];\n} %s;\n",
    s, np, np, s);
  P("#define %s_PARAMS __global uint *%s__root, __global uint *%s__lists", e->up, s, s);
  for (unsigned p = 0; p < d->npools; ++p)
    P(", __global uint *%s__pool%u", s, p);
  P("\n#define %s_VIEW(v) %s v = {%s__root, %s__lists, {", e->up, s, s, s);
  for (unsigned p = 0; p < np; ++p)
    P(p < d->npools ? "%s%s__pool%u" : "%s0", p ? ", " : "", s, p);
  P("}, {");
  for (unsigned p = 0; p < np; ++p)
    if (p < d->npools)
      P("%s(__global uchar *)(%s__pool%u + %s__pool%u[LSK__POOL_CELLS_OFF])", p ? ", " : "", s, p,
        s, p);
    else
      P("0");
  P("}}\n");
  P("#define %s_AXES %u\n", e->up, d->axes);
  for (unsigned a = 0; a < d->axes; ++a)
    P("#define %s_EXTENT_%c %lluu\n", e->up, 'I' + a, (unsigned long long)d->extent[a]);
}

/* The library's tables (kernels/sparse.cl): one row per node. */
static void emit_tables(em *e)
{
  const lsk_sparse_def *d = e->d;
  const char *s = d->name;
  P("\n/* The library's part (kernels/sparse.cl), where LSK__SPARSE_LIB_%s is\n"
    " * defined: the structure's own program. */\n#ifdef LSK__SPARSE_LIB_%s\n",
    e->up, e->up);
  P("#define LSK__SP_T %s\n#define LSK__SP_PARAMS %s_PARAMS\n#define LSK__SP_VIEW %s_VIEW\n", s,
    e->up, e->up);
  P("#define LSK__SP_NODES %uu\n#define LSK__SP_AXES %uu\n", d->nnodes, d->axes);
  /* Row 0 is the root's one cell: dense, one cell, no pool, no digits. */
  P("__constant uint lsk__sp_node[%u][LSK__SPN_COLS] = {\n"
    "  {%u, %uu, %uu, 0, 0, 1u, 0, 0u, 0, %uu, 1u, 0, 0, 0, 0, 0, 0, 0, 0, 0},\n",
    d->nnodes + 1, LSK_SNODE_DENSE, 0xffffffffu, 0xffffffffu, 0xffffffffu);
  for (unsigned m = 0; m < d->nnodes; ++m) {
    const lsk__snode *n = &d->node[m];
    unsigned dax = n->kind == LSK_SNODE_DYNAMIC ? n->axis[0] : 0;
    P("  {%u, %uu, %uu, %zu, %zu, %lluu, %u, %uu, %u, %uu, %lluu", n->kind,
      n->pool >= 0 ? (unsigned)n->pool : 0xffffffffu, n->cont ? n->cont - 1 : 0xffffffffu, n->off,
      n->off2, (unsigned long long)n->ncells, n->log2chunk,
      n->kind == LSK_SNODE_DYNAMIC ? n->size[dax] : 0, dax,
      n->parent >= 0 ? (unsigned)n->parent : 0xffffffffu, (unsigned long long)n->inl);
    for (unsigned a = 0; a < 3; ++a)
      P(", %u", n->lg[a]);
    for (unsigned a = 0; a < 3; ++a)
      P(", %u", n->shift[a]);
    for (unsigned a = 0; a < 3; ++a)
      P(", %u", n->mult[a]);
    P("},\n");
  }
  /* Per field: column offset, bytes, its leaf, then its dense array's
   * extent along each axis (1 along an axis its way does not have). */
  P("};\n__constant uint lsk__sp_field[%u][6] = {", d->nfields);
  for (unsigned f = 0; f < d->nfields; ++f) {
    uint64_t ext[LSK_SPARSE_MAX_AXES];
    lsk__sparse_field_extent(d, f, ext);
    P("%s{%zu, %zu, %u, %lluu, %lluu, %lluu}", f ? ", " : "", d->field[f].off, d->field[f].size,
      d->field[f].node, (unsigned long long)ext[0], (unsigned long long)ext[1],
      (unsigned long long)ext[2]);
  }
  P("};\n");
  /* Field f's leaf cell, for the library's copies. */
  P("LSK_INLINE __global uchar *lsk__sp_leaf_cell(%s v, uint f, uint c0, uint c1, uint c2, int act,"
    " uint *flat)\n{\n  switch (f) {\n",
    s);
  for (unsigned f = 0; f < d->nfields; ++f)
    P("  case %u: return %s__leaf%u(v, c0, c1, c2, act, flat);\n", f, s, d->field[f].node);
  P("  }\n  return 0;\n}\n#endif\n");
}

int lsk__sparse_emit(const lsk_sparse_def *d, int lib, char **text, const char *fn)
{
  lsk__sb sb = {0};
  em ev = {.d = d, .sb = &sb}, *e = &ev;
  size_t k = 0;
  for (; d->name[k]; ++k)
    e->up[k] = (char)toupper((unsigned char)d->name[k]);
  e->up[k] = 0;
  if (lib)
    P("#define LSK__SPARSE_LIB_%s\n", e->up);
  P("/* Generated by lsk from sparse '%s' (docs/sparse.md). */\n#ifndef LSK__SPARSE_%s\n"
    "#define LSK__SPARSE_%s\n",
    d->name, e->up, e->up);
  emit_view(e);
  for (unsigned m = 0; m < d->nnodes; ++m)
    emit_walk(e, m);
  for (unsigned m = 0; m < d->nnodes; ++m) {
    emit_level(e, m);
    if (d->node[m].kind == LSK_SNODE_DYNAMIC)
      emit_dynamic(e, m);
  }
  for (unsigned m = 0; m < d->nnodes; ++m)
    if (d->node[m].nfields)
      emit_leaf(e, m);
  emit_fields(e);
  for (unsigned m = 0; m < d->nnodes; ++m)
    emit_block(e, m);
  emit_block_fields(e);
  emit_tables(e);
  P("#endif\n");
  return lsk__sb_finish(&sb, text, fn);
}

int lsk_sparse_def_emit_cl(const lsk_sparse_def *def, char **text)
{
  LSK__API();
  LSK__LIVE(NULL, def, SPARSE_DEF, __func__, "def");
  if (!text)
    return lsk__fail(NULL, LSK_EINVAL, "%s: text is NULL", __func__);
  *text = NULL;
  int rc = lsk__sparse_check(def, NULL, __func__);
  return rc ? rc : lsk__sparse_emit(def, 0, text, __func__);
}
