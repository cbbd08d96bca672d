/*
 * sparse_fixture.c: the device suites' structure, model, adapter and
 * kernels (sparse_fixture.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "sparse_fixture.h"

/* A growing string for the adapter. */
typedef struct sbuf {
  char *s;
  size_t len, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  ck_assert_int_ge(n, 0);
  if (b->len + (size_t)n + 1 > b->cap) {
    b->cap = (b->len + (size_t)n + 1) * 2;
    b->s = realloc(b->s, b->cap);
    ck_assert_ptr_nonnull(b->s);
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* "(c)[0], (c)[1]": the axes of mask (bit a: axis a) but skip (-1: none). */
static void coords(sbuf *b, unsigned mask, int skip)
{
  const char *sep = "";
  for (unsigned a = 0; a < LSK_SPARSE_MAX_AXES; ++a) {
    if ((int)a == skip || !(mask >> a & 1u))
      continue;
    put(b, "%s(c)[%u]", sep, a);
    sep = ", ";
  }
}

/* The axes of node m's functions: those of the nodes from the root to it
 * (a chain: nodes 0 to m). */
static unsigned path_axes(const lsk_sparse_def *def, unsigned m)
{
  unsigned mask = 0;
  for (unsigned i = 0; i <= m; ++i) {
    lsk_snode n;
    TU_OK(NULL, lsk_sparse_def_node(def, i, &n));
    for (const char *a = n.axes; *a; ++a)
      mask |= 1u << (*a - 'i');
  }
  return mask;
}

static void upper(char *dst, const char *src, size_t cap)
{
  size_t i = 0;
  for (; src[i] && i + 1 < cap; ++i)
    dst[i] = (char)(src[i] >= 'a' && src[i] <= 'z' ? src[i] - 'a' + 'A' : src[i]);
  dst[i] = 0;
}

char *spfx_adapter(const lsk_sparse_def *def, int for_level)
{
  sbuf b = {0};
  unsigned axes = lsk_sparse_def_axes(def), nodes = lsk_sparse_def_nodes(def);
  const char *type = NULL, *fname = NULL;
  TU_OK(NULL, lsk_sparse_def_field(def, 0, &type, &fname));
  ck_assert_str_eq(fname, "x");
  lsk_snode leaf;
  TU_OK(NULL, lsk_sparse_def_node(def, nodes - 1, &leaf));
  int dyn = leaf.kind == LSK_SNODE_DYNAMIC ? leaf.axes[0] - 'i' : -1;
  put(&b, "\n/* the adapter of tests/sparse/sparse_kernels.cl */\n#define SP_T %s\n", type);
  unsigned all = (1u << axes) - 1u;
  put(&b, "#define SP_AT(c) ");
  coords(&b, all, -1);
  put(&b, "\n");
  if (dyn >= 0) {
    put(&b, "#define SP_AT_LIST(c) ");
    coords(&b, all, dyn);
    put(&b,
        "\nuint sp_append(sp s, const uint *c, SP_T v) { return sp_%s_append(s, SP_AT_LIST(c), "
        "v); }\n",
        leaf.name);
    put(&b, "uint sp_length(sp s, const uint *c) { return sp_%s_length(s, SP_AT_LIST(c)); }\n",
        leaf.name);
  }
  static const char *const ops[] = {"activate", "deactivate", "is_active"};
  static const char *const rets[] = {"int", "void", "int"};
  for (int o = 0; o < 3; ++o) {
    put(&b, "%s sp_lv_%s(sp s, uint lv, const uint *c)\n{\n  switch (lv) {\n", rets[o], ops[o]);
    for (unsigned i = 0; i < nodes; ++i) {
      lsk_snode n;
      TU_OK(NULL, lsk_sparse_def_node(def, i, &n));
      int list = n.kind == LSK_SNODE_DYNAMIC;
      if (list && o == 0)
        continue; /* a list grows by appends */
      put(&b, "  case %u: %ssp_%s_%s(s, ", i, o == 1 ? "" : "return ", n.name, ops[o]);
      coords(&b, path_axes(def, i), list && o == 1 ? dyn : -1);
      put(&b, ");%s\n", o == 1 ? " return;" : "");
    }
    put(&b, "  }\n%s}\n", o == 1 ? "" : "  return -1;\n");
  }
  if (for_level >= 0) {
    lsk_snode n;
    TU_OK(NULL, lsk_sparse_def_node(def, (unsigned)for_level, &n));
    char up[64];
    upper(up, n.name, sizeof up);
    put(&b, "#define SP_FOR_LV SP_FOR_%s\n#define SP_FOREACH_LV SP_FOREACH_%s\n", up, up);
    put(&b, "#define SP_LV_POS sp_%s_pos\n#define SP_LV_LEAF %d\n", n.name,
        (unsigned)for_level == nodes - 1);
  }
  return b.s;
}

lsk_program *spfx_program(spfx *f, int lv) { return spfx_program_opts(f, lv, NULL); }

lsk_program *spfx_program_opts(spfx *f, int lv, const char *build_options)
{
  char *adapter = spfx_adapter(f->def, lv);
  const char *src = lsk_sparse_source(f->sp);
  ck_assert_ptr_nonnull(src);
  size_t n = strlen(src) + strlen(adapter) + 2;
  char *prelude = malloc(n);
  snprintf(prelude, n, "%s\n%s", src, adapter);
  lsk_program *p = NULL;
  lsk_program_options o = {
      .name = "sparse_kernels.cl", .prelude = prelude, .build_options = build_options};
  TU_OK(f->ctx, lsk_program_create_file(f->ctx, LSK_TEST_DIR "/sparse/sparse_kernels.cl", &o, &p));
  free(prelude);
  free(adapter);
  return p;
}

void spfx_open(spfx *f, const lsk_snode *nodes, unsigned n, const lsk_sparse_options *opt)
{
  memset(f, 0, sizeof *f);
  f->ctx = tu_context();
  TU_OK(NULL, lsk_sparse_def_create("sp", 0, &f->def));
  for (unsigned i = 0; i < n; ++i)
    TU_OK(NULL, lsk_sparse_def_add_node(f->def, &nodes[i]));
  TU_OK(NULL, lsk_sparse_def_place(f->def, "uint", "x"));
  TU_OK(f->ctx, lsk_sparse_create(f->ctx, f->def, opt, &f->sp));
  sm_init(&f->m, nodes, n);
  uint64_t e[LSK_SPARSE_MAX_AXES];
  TU_OK(NULL, lsk_sparse_def_extent(f->def, e));
  for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    ck_assert_msg(e[a] == f->m.ext[a], "extent %d: library %llu, model %llu", a,
                  (unsigned long long)e[a], (unsigned long long)f->m.ext[a]);
  f->prog = spfx_program(f, -1);
  f->set = tu_kernel(f->prog, "sp_set");
  f->get = tu_kernel(f->prog, "sp_get");
  f->add = tu_kernel(f->prog, "sp_add");
  f->set_gate = tu_kernel(f->prog, "sp_set_gate");
  f->level = tu_kernel(f->prog, "sp_level");
  if (sm_dynamic(&f->m)) {
    f->append = tu_kernel(f->prog, "sp_append_k");
    f->length = tu_kernel(f->prog, "sp_length_k");
  }
  /* 64 items per block, 7 blocks: every plain kernel spreads its points
   * over several work-groups that run at once. */
  f->cfg = (lsk_launch){.domain = {64}, .blocks = {7}};
}

void spfx_close(spfx *f)
{
  lsk_kernel *ks[] = {f->set, f->get, f->add, f->level, f->append, f->length, f->set_gate};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
    lsk_kernel_destroy(ks[i]);
  lsk_program_destroy(f->prog);
  lsk_sparse_destroy(f->sp);
  lsk_sparse_def_destroy(f->def);
  lsk_context_destroy(f->ctx);
  sm_free(&f->m);
}

/* A buffer of n words of data (at least one word). */
static lsk_buffer *words(spfx *f, const void *data, size_t n)
{
  lsk_buffer *b = NULL;
  uint32_t zero = 0;
  TU_OK(f->ctx, lsk_buffer_create(f->ctx, (n ? n : 1) * 4, &b));
  TU_OK(f->ctx, lsk_buffer_write(b, 0, n && data ? data : &zero, n && data ? n * 4 : 4, NULL));
  return b;
}

static void fetch(spfx *f, lsk_buffer *b, void *out, size_t n)
{
  if (out && n)
    TU_OK(f->ctx, lsk_buffer_read(b, 0, out, n * 4, NULL));
  lsk_buffer_destroy(b);
}

/* Runs k over n points with more (buffers or values) after them. */
static void run(spfx *f, lsk_kernel *k, lsk_arg *args, size_t nargs)
{
  lsk_arg a;
  TU_OK(f->ctx, lsk_sparse_use(f->sp, &a, NULL));
  args[0] = a;
  TU_OK(f->ctx, lsk_kernel_run(k, &f->cfg, args, nargs, NULL));
}

void spfx_set(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, int *ok)
{
  lsk_buffer *p = words(f, pts, 3 * (size_t)n), *v = words(f, vals, n), *o = words(f, NULL, n);
  lsk_arg args[] = {{0}, LSK_ARG_BUFFER(p), LSK_ARG_BUFFER(v), LSK_ARG_UINT(n), LSK_ARG_BUFFER(o)};
  run(f, f->set, args, 5);
  lsk_buffer_destroy(p);
  lsk_buffer_destroy(v);
  fetch(f, o, ok, n);
}

void spfx_set_gate(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, int *ok)
{
  lsk_buffer *p = words(f, pts, 3 * (size_t)n), *v = words(f, vals, n), *o = words(f, NULL, n);
  lsk_buffer *g = words(f, NULL, 1);
  lsk_arg args[] = {{0},
                    LSK_ARG_BUFFER(p),
                    LSK_ARG_BUFFER(v),
                    LSK_ARG_UINT(n),
                    LSK_ARG_BUFFER(o),
                    LSK_ARG_BUFFER(g),
                    LSK_ARG_UINT((unsigned)f->cfg.blocks[0])};
  run(f, f->set_gate, args, 7);
  lsk_buffer_destroy(p);
  lsk_buffer_destroy(v);
  lsk_buffer_destroy(g);
  fetch(f, o, ok, n);
}

void spfx_add(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, int *ok)
{
  lsk_buffer *p = words(f, pts, 3 * (size_t)n), *v = words(f, vals, n), *o = words(f, NULL, n);
  lsk_arg args[] = {{0}, LSK_ARG_BUFFER(p), LSK_ARG_BUFFER(v), LSK_ARG_UINT(n), LSK_ARG_BUFFER(o)};
  run(f, f->add, args, 5);
  lsk_buffer_destroy(p);
  lsk_buffer_destroy(v);
  fetch(f, o, ok, n);
}

void spfx_hold(spfx *f, unsigned pool, unsigned n)
{
  lsk_kernel *k = tu_kernel(f->prog, "sp_hold");
  lsk_arg args[] = {{0}, LSK_ARG_UINT(pool), LSK_ARG_UINT(n)};
  run(f, k, args, 3);
  lsk_kernel_destroy(k);
}

uint32_t spfx_poke(spfx *f, unsigned q, uint32_t value)
{
  lsk_kernel *k = tu_kernel(f->prog, "sp_poke");
  lsk_buffer *o = words(f, NULL, 1);
  lsk_arg args[] = {{0}, LSK_ARG_UINT(q), LSK_ARG_UINT(value), LSK_ARG_BUFFER(o)};
  run(f, k, args, 4);
  lsk_kernel_destroy(k);
  uint32_t old;
  fetch(f, o, &old, 1);
  return old;
}

void spfx_get(spfx *f, const uint32_t *pts, unsigned n, uint32_t *out)
{
  lsk_buffer *p = words(f, pts, 3 * (size_t)n), *o = words(f, NULL, n);
  lsk_arg args[] = {{0}, LSK_ARG_BUFFER(p), LSK_ARG_UINT(n), LSK_ARG_BUFFER(o)};
  run(f, f->get, args, 4);
  lsk_buffer_destroy(p);
  fetch(f, o, out, n);
}

void spfx_level(spfx *f, unsigned lv, int op, const uint32_t *pts, unsigned n, int *res)
{
  lsk_buffer *p = words(f, pts, 3 * (size_t)n), *o = words(f, NULL, n);
  lsk_arg args[] = {{0},
                    LSK_ARG_BUFFER(p),
                    LSK_ARG_UINT(n),
                    LSK_ARG_UINT(lv),
                    LSK_ARG_UINT((unsigned)op),
                    LSK_ARG_BUFFER(o)};
  run(f, f->level, args, 6);
  lsk_buffer_destroy(p);
  fetch(f, o, res, n);
}

void spfx_append(spfx *f, const uint32_t *pts, const uint32_t *vals, unsigned n, uint32_t *idx)
{
  lsk_buffer *p = words(f, pts, 3 * (size_t)n), *v = words(f, vals, n), *o = words(f, NULL, n);
  lsk_arg args[] = {{0}, LSK_ARG_BUFFER(p), LSK_ARG_BUFFER(v), LSK_ARG_UINT(n), LSK_ARG_BUFFER(o)};
  run(f, f->append, args, 5);
  lsk_buffer_destroy(p);
  lsk_buffer_destroy(v);
  fetch(f, o, idx, n);
}

void spfx_length(spfx *f, const uint32_t *pts, unsigned n, uint32_t *len)
{
  lsk_buffer *p = words(f, pts, 3 * (size_t)n), *o = words(f, NULL, n);
  lsk_arg args[] = {{0}, LSK_ARG_BUFFER(p), LSK_ARG_UINT(n), LSK_ARG_BUFFER(o)};
  run(f, f->length, args, 4);
  lsk_buffer_destroy(p);
  fetch(f, o, len, n);
}

uint32_t *spfx_read(spfx *f)
{
  uint32_t *got = malloc(f->m.total * 4);
  ck_assert_ptr_nonnull(got);
  TU_OK(f->ctx, lsk_sparse_read(f->sp, "x", got, f->m.total * 4, NULL));
  return got;
}

void spfx_check(spfx *f, const char *what)
{
  uint32_t *got = spfx_read(f);
  uint32_t c[3];
  for (uint64_t i = 0; i < f->m.total; ++i) {
    sm_unflat(&f->m, i, c);
    uint32_t want = (uint32_t)sm_get(&f->m, c);
    ck_assert_msg(got[i] == want, "%s: x(%u, %u, %u) = %u, model %u", what, c[0], c[1], c[2],
                  got[i], want);
  }
  free(got);
  for (unsigned lv = 0; lv < f->m.nodes; ++lv) {
    lsk_snode n;
    TU_OK(NULL, lsk_sparse_def_node(f->def, lv, &n));
    uint64_t active = 0, want = sm_count(&f->m, (int)lv);
    TU_OK(f->ctx, lsk_sparse_count(f->sp, n.name, &active, NULL));
    ck_assert_msg(active == want, "%s: level %s: %llu active, model %llu", what, n.name,
                  (unsigned long long)active, (unsigned long long)want);
  }
}

void spfx_point(const spfx *f, uint64_t *rng, uint32_t *c)
{
  for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a)
    c[a] = (uint32_t)(tu_rng(rng) % f->m.ext[a]);
  if (sm_dynamic(&f->m))
    c[f->m.node[f->m.nodes - 1].dyn_axis] = 0;
}

lsk_sparse_level_stats spfx_stats(spfx *f, unsigned lv)
{
  lsk_sparse_level_stats st[LSK_SPARSE_MAX_NODES];
  memset(st, 0, sizeof st);
  TU_OK(f->ctx, lsk_sparse_stats_get(f->sp, st, f->m.nodes, NULL));
  return st[lv];
}
