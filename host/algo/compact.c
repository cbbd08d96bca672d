/*
 * compact.c: stable stream compaction by a user predicate. A compactor is
 * one lsk program: a generated prelude (the input type; for SoA the
 * layout's views and a row copy), the user's source, then
 * kernels/compact.cl, so the user's line numbers are the program's. On
 * GPUs the passes are those of scan.c with the predicate's flags as the
 * values, or on GPUs the single-pass look-back (lookback_path,
 * run_lookback); on other devices the CPU path's (cpu_path, run_cpu).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algo.h"
#include "lsk/compact.h"

/* kernels/compact.cl, embedded like the other families (LSK__LIB_MAP); it
 * is built per compactor, never as a library program of its own. */
extern const char lsk__kernels_compact[];

struct lsk_compactor {
  lsk__handle h;
  lsk_context *ctx;
  const lsk_layout *layout; /* NULL: plain buffer */
  lsk_program *prog;
  lsk_kernel *count, *scan, *indices, *rows;
  lsk_buffer *counts; /* per-block counts, then their prefix; grown */
  lsk_buffer *total;  /* one uint: the count of the waiting variants */
  /* The CPU path (cpu_path): its kernels and the flags, a bit per index. */
  int cpu;
  lsk_kernel *flags, *bits_indices, *bits_rows;
  lsk_buffer *bits; /* grown */
  /* The look-back path (lookback_path): its kernels and the ticket and
   * tile states, a word each. */
  lsk_kernel *lb_clear, *lb_indices, *lb_rows;
  lsk_buffer *cells; /* grown */
};
static const lsk__htype LSK__H_COMPACTOR = {"lsk_compactor", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_compactor);

/* The prelude of an SoA compactor: the layout's views, the names that
 * compact.cl uses, and a copy of one row (columns and every matrix
 * component; scalars are not rows). */
static char *soa_prelude(const lsk_layout *l)
{
  char *views = NULL;
  if (lsk_layout_emit_cl(l, NULL, &views))
    return NULL;
  const char *v = lsk_layout_name(l);
  char up[80];
  size_t k = 0;
  for (; v[k] && k + 1 < sizeof up; ++k)
    up[k] = (char)toupper((unsigned char)v[k]);
  up[k] = 0;
  lsk__sb b = {0};
  lsk__sb_printf(&b, "%s\n#define LSK_COMPACT_SOA 1\n#define LSK_COMPACT_IN %s_const_view\n", views,
                 v);
  lsk__sb_printf(&b, "#define LSK_COMPACT_SRC_PARAMS(p) %s_CONST_PARAMS(p)\n", up);
  lsk__sb_printf(&b, "#define LSK_COMPACT_SRC_VIEW(p) %s_CONST_VIEW(p)\n", up);
  lsk__sb_printf(&b, "#define LSK_COMPACT_DST_T %s_view\n", v);
  lsk__sb_printf(&b, "#define LSK_COMPACT_DST_PARAMS(p) %s_PARAMS(p)\n", up);
  lsk__sb_printf(&b, "#define LSK_COMPACT_DST_VIEW(p) %s_VIEW(p)\n", up);
  lsk__sb_printf(
      &b, "LSK_INLINE void lsk__compact_copy_row(%s_const_view s, uint i, %s_view d, uint j)\n{\n",
      v, v);
  for (size_t m = 0; m < lsk_layout_member_count(l); ++m) {
    lsk_member_info mi;
    lsk_layout_member(l, m, 0, &mi);
    if (mi.kind == LSK_MEMBER_COLUMN)
      lsk__sb_printf(&b, "  %s_set_%s(d, j, %s_const_%s(s, i));\n", v, mi.name, v, mi.name);
    else if (mi.kind == LSK_MEMBER_MATRIX)
      lsk__sb_printf(&b,
                     "  for (uint c = 0; c < %u; ++c)\n    for (uint r = 0; r < %u; ++r)\n"
                     "      %s_set_%s(d, j, r, c, %s_const_%s(s, i, r, c));\n",
                     mi.cols, mi.rows, v, mi.name, v, mi.name);
  }
  lsk__sb_printf(&b, "  (void)s; (void)i; (void)d; (void)j;\n}\n");
  lsk_free(views);
  if (b.failed) {
    free(b.buf);
    return NULL;
  }
  return b.buf;
}

/*
 * The CPU path (kernels/compact.cl, "The CPU path"): where the device is
 * no GPU and runs loops of any length (not llvmpipe), each work-item owns
 * a contiguous segment: a pass evaluates the predicate once per index into
 * a bit each and counts, then each segment writes its selected indices in
 * order, 8 per store. On PoCL's 2 cores (2026-11-27) the lockstep path's
 * last pass took five times its first; see docs/compact.md. GPUs keep the
 * lockstep path (a scan per tile step, coalesced stores).
 */
static int cpu_path(lsk_context *ctx) { return lsk__algo_cpu_path(ctx, "LSK_COMPACT_CPU"); }

/*
 * The look-back path (kernels/compact.cl, "The look-back path"): one pass,
 * one block per tile, that reads the input once from memory (each tile a
 * second time from the cache), where the lockstep path's count pass and
 * last pass read it twice. Its tile states are 32-bit words (a 2-bit flag,
 * a 30-bit count) with OpenCL 1.2's atomics, so every device can run it,
 * for n < 2^30 (the inclusive counts reach n). Chosen by LSK_COMPACT_LOOKBACK
 * first (1 on, 0 off: the tests run it on PoCL, the bench times both paths
 * on a GPU), then where the CPU path is taken it is not, then on GPUs.
 */
#define LOOKBACK_MAX (1u << 30)
/* The look-back's workers where the caller names none (run_lookback). */
#define LOOKBACK_WORKERS 256u

static int lookback_path(const lsk_compactor *c, size_t n)
{
  if (n >= LOOKBACK_MAX)
    return 0;
  if (lsk__getenv("LSK_COMPACT_LOOKBACK"))
    return lsk__getenv_bool("LSK_COMPACT_LOOKBACK", 0);
  if (c->cpu)
    return 0;
  const lsk_device_info *d = lsk__context_info(c->ctx);
  return d && d->is_gpu;
}

/* The CPU path's part of the prelude, after the rest: its switch and
 * lsk__compact_lut, byte b's set bits' places (0 to 7), the k-th in bits
 * 4k to 4k + 3 (kernels/compact.cl, lsk_compact_bits_indices). */
static char *cpu_prelude(const char *rest)
{
  lsk__sb b = {0};
  lsk__sb_printf(&b, "%s#define LSK_COMPACT_CPU 1\n__constant uint lsk__compact_lut[256] = {",
                 rest);
  for (unsigned v = 0; v < 256; ++v) {
    uint32_t t = 0;
    for (unsigned bit = 0, k = 0; bit < 8; ++bit)
      if (v >> bit & 1)
        t |= (uint32_t)bit << (4 * k++);
    lsk__sb_printf(&b, "%s0x%xu", v % 8 ? ", " : v ? ",\n  " : "\n  ", (unsigned)t);
  }
  lsk__sb_printf(&b, "};\n");
  if (b.failed) {
    free(b.buf);
    return NULL;
  }
  return b.buf;
}

/* An OpenCL C type name: words of letters, digits and underscores. */
static int type_name_ok(const char *t)
{
  if (!*t)
    return 0;
  for (; *t; ++t)
    if (!isalnum((unsigned char)*t) && *t != '_' && *t != ' ')
      return 0;
  return 1;
}

/*
 * The per-block counts for `blocks` blocks, written whole once: oclgrind
 * 21.10 takes words that kernels write in a buffer created right after
 * another was released for uninitialized unless the host wrote them first.
 * The write waits, so the buffer is made at creation for the blocks the
 * automatic plan can use, and only options that ask for more blocks grow it.
 */
static int words_buffer(lsk_compactor *c, lsk_buffer **buf, size_t words)
{
  uint32_t *zero = calloc(words, sizeof *zero);
  if (!zero)
    return lsk__fail(c->ctx, LSK_ENOMEM, "lsk_compactor: out of memory");
  /* Work still queued on the old buffer keeps it alive (OpenCL). */
  lsk_buffer_destroy(*buf);
  *buf = NULL;
  int rc = lsk_buffer_create(c->ctx, words * sizeof *zero, buf);
  if (!rc)
    rc = lsk_buffer_write(*buf, 0, zero, words * sizeof *zero, NULL);
  free(zero);
  return rc;
}

static int counts_buffer(lsk_compactor *c, size_t blocks)
{
  return words_buffer(c, &c->counts, blocks);
}

/* The compactor's program: the checks of source and options, then the
 * prelude (the input type; for SoA the layout's views and a row copy) and
 * the program text (source, then compact.cl). ctx may be NULL. */
static int compactor_text(lsk_context *ctx, const char *fn, const char *source,
                          const lsk_compactor_options *opt, char **program, char **prelude)
{
  *program = *prelude = NULL;
  if (!source)
    return lsk__fail(ctx, LSK_EINVAL, "%s: source is NULL", fn);
  lsk_compactor_options o = opt ? *opt : (lsk_compactor_options){0};
  if (o.layout)
    LSK__LIVE(ctx, o.layout, LAYOUT, fn, "opt->layout");
  if (!strstr(source, "lsk_select"))
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: the source defines no lsk_select (int lsk_select(uint i, "
                     "LSK_COMPACT_IN in, ulong arg), see lsk/compact.h)",
                     fn);
  if (o.layout && o.data_type)
    return lsk__fail(ctx, LSK_EINVAL,
                     "%s: data_type '%s' is for plain buffers; an SoA predicate gets the view of "
                     "layout '%s'",
                     fn, o.data_type, lsk_layout_name(o.layout));
  if (o.data_type && !type_name_ok(o.data_type))
    return lsk__fail(ctx, LSK_EINVAL, "%s: data_type '%s' is not an OpenCL C type name", fn,
                     o.data_type);
  *prelude = o.layout ? soa_prelude(o.layout)
                      : lsk__strdupf("#define LSK_COMPACT_DATA_T %s\n#define "
                                     "LSK_COMPACT_IN __global const LSK_COMPACT_DATA_T *\n",
                                     o.data_type ? o.data_type : "void");
  if (*prelude && ctx && cpu_path(ctx)) {
    char *p = cpu_prelude(*prelude);
    free(*prelude);
    *prelude = p;
  }
  *program = lsk__strdupf("%s\n%s", source, lsk__kernels_compact);
  if (!*prelude || !*program) {
    free(*prelude);
    free(*program);
    *program = *prelude = NULL;
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  }
  return LSK_OK;
}

int lsk_compactor_source(const char *source, const lsk_compactor_options *opt, char **program,
                         char **prelude)
{
  LSK__API();
  if (program)
    *program = NULL;
  if (prelude)
    *prelude = NULL;
  if (!program || !prelude)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, program ? "prelude" : "program");
  return compactor_text(NULL, __func__, source, opt, program, prelude);
}

int lsk_compactor_create(lsk_context *ctx, const char *source, const lsk_compactor_options *opt,
                         lsk_compactor **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  lsk_compactor_options o = opt ? *opt : (lsk_compactor_options){0};
  char *prelude, *full;
  int rc = compactor_text(ctx, __func__, source, &o, &full, &prelude);
  if (rc)
    return rc;
  lsk_compactor *c = lsk__handle_new(sizeof *c, &LSK__H_COMPACTOR, ctx);
  if (!c) {
    free(prelude);
    free(full);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  c->ctx = ctx;
  c->layout = o.layout;
  c->cpu = strstr(prelude, "#define LSK_COMPACT_CPU 1\n") != NULL; /* cpu_prelude */
  /* LSK_COMPACT_LOOKBACK_HOOK (tests): the look-back's test orders. */
  const char *hook = lsk__getenv("LSK_COMPACT_LOOKBACK_HOOK");
  if (hook && (strtoul(hook, NULL, 10) & 3u)) {
    char *p = lsk__strdupf("%s#define LSK_COMPACT_LOOKBACK_HOOK %lu\n", prelude,
                           strtoul(hook, NULL, 10) & 3u);
    free(prelude);
    prelude = p;
    if (!prelude) {
      free(full);
      lsk_compactor_destroy(c);
      return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
    }
  }
  lsk_program_options po = {
      .name = o.name ? o.name : "predicate", .build_options = o.build_options, .prelude = prelude};
  rc = lsk_program_create(ctx, full, &po, &c->prog);
  free(prelude);
  free(full);
  /* The automatic configuration now: a bad predicate fails here. */
  lsk__plan p;
  if (!rc)
    rc = lsk__algo_plan(ctx, __func__, 1, NULL, &p);
  lsk_launch l = lsk__plan_launch(&p, 1);
  if (!rc)
    rc = lsk_program_build(c->prog, "lsk_compact_indices", &l);
  if (!rc && !(rc = lsk_kernel_create(c->prog, "lsk_compact_count", &c->count)) &&
      !(rc = lsk_kernel_create(c->prog, "lsk_compact_scan", &c->scan)) &&
      !(rc = lsk_kernel_create(c->prog, "lsk_compact_indices", &c->indices)) && c->layout)
    rc = lsk_kernel_create(c->prog, "lsk_compact_rows", &c->rows);
  if (!rc && !(rc = lsk_kernel_create(c->prog, "lsk_compact_lookback_clear", &c->lb_clear)) &&
      !(rc = lsk_kernel_create(c->prog, "lsk_compact_lookback_indices", &c->lb_indices)) &&
      c->layout)
    rc = lsk_kernel_create(c->prog, "lsk_compact_lookback_rows", &c->lb_rows);
  if (!rc && c->cpu && !(rc = lsk_kernel_create(c->prog, "lsk_compact_flags", &c->flags)) &&
      !(rc = lsk_kernel_create(c->prog, "lsk_compact_bits_indices", &c->bits_indices)) && c->layout)
    rc = lsk_kernel_create(c->prog, "lsk_compact_bits_rows", &c->bits_rows);
  /* Whole-buffer writes: the buffers are defined from the start. */
  uint32_t zero = 0;
  if (!rc && !(rc = lsk_buffer_create(ctx, sizeof zero, &c->total)))
    rc = lsk_buffer_write(c->total, 0, &zero, sizeof zero, NULL);
  /* The automatic plan's largest number of blocks (shape.c). */
  if (!rc)
    rc = counts_buffer(c, lsk__algo_blocks(lsk__context_info(ctx), SIZE_MAX));
  if (rc) {
    lsk_compactor_destroy(c);
    return rc;
  }
  *out = c;
  return LSK_OK;
}

void lsk_compactor_destroy(lsk_compactor *c)
{
  LSK__DESTROY(c, COMPACTOR, __func__);
  lsk_kernel_destroy(c->count);
  lsk_kernel_destroy(c->scan);
  lsk_kernel_destroy(c->indices);
  lsk_kernel_destroy(c->rows);
  lsk_kernel_destroy(c->flags);
  lsk_kernel_destroy(c->bits_indices);
  lsk_kernel_destroy(c->bits_rows);
  lsk_kernel_destroy(c->lb_clear);
  lsk_kernel_destroy(c->lb_indices);
  lsk_kernel_destroy(c->lb_rows);
  lsk_program_destroy(c->prog);
  lsk_buffer_destroy(c->counts);
  lsk_buffer_destroy(c->bits);
  lsk_buffer_destroy(c->cells);
  lsk_buffer_destroy(c->total);
  free(c);
}

/* The CPU path's passes (cpu_path) on queue q: segments of a multiple of
 * 32 indices, blocks x workers of them. rows: the row kernel, else the
 * index kernel; the arguments as run()'s. */
static int run_cpu(lsk_compactor *c, const char *fn, int rows, const lsk_arg *in, size_t nin,
                   size_t n, uint64_t arg, const lsk_arg *outs, size_t nout, lsk_buffer *count_buf,
                   size_t count_index, const lsk__plan *p, const lsk_algo_options *opt,
                   lsk_queue *q)
{
  lsk_context *ctx = c->ctx;
  lsk_launch l;
  size_t nseg;
  int rc = lsk__algo_segments(ctx, fn, c->flags, p, opt, n, UINT32_MAX, &l, &nseg);
  if (rc)
    return rc;
  size_t seglen = (n + nseg - 1) / nseg;
  seglen = seglen < 32 ? 32 : (seglen + 31) / 32 * 32;
  size_t words = (n + 31) / 32;
  if (lsk_buffer_size(c->counts) < nseg * sizeof(uint32_t) &&
      (rc = words_buffer(c, &c->counts, nseg)))
    return rc;
  if ((!c->bits || lsk_buffer_size(c->bits) < words * sizeof(uint32_t)) &&
      (rc = words_buffer(c, &c->bits, words ? words : 1)))
    return rc;
  lsk_arg *a = malloc((nin + nout + 8) * sizeof *a);
  if (!a)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  size_t k = 0;
  memcpy(a, in, nin * sizeof *a);
  k = nin;
  a[k++] = LSK_ARG_ULONG(arg);
  a[k++] = LSK_ARG_UINT((uint32_t)n);
  a[k++] = LSK_ARG_UINT((uint32_t)seglen);
  a[k++] = LSK_ARG_BUFFER(c->bits);
  a[k++] = LSK_ARG_BUFFER(c->counts);
  rc = lsk__launch_q(c->flags, q, fn, &l, a, k);
  lsk_launch one = l;
  one.blocks[0] = 1;
  if (!rc)
    rc = lsk__launch_q(c->scan, q, fn, &one,
                       LSK_ARGS(LSK_ARG_BUFFER(c->counts), LSK_ARG_UINT((uint32_t)nseg)));
  /* The last pass: the input's arguments only for rows. */
  k = 0;
  if (rows) {
    memcpy(a, in, nin * sizeof *a);
    k = nin;
  }
  a[k++] = LSK_ARG_UINT((uint32_t)n);
  a[k++] = LSK_ARG_UINT((uint32_t)seglen);
  a[k++] = LSK_ARG_BUFFER(c->bits);
  a[k++] = LSK_ARG_BUFFER(c->counts);
  memcpy(a + k, outs, nout * sizeof *a);
  k += nout;
  a[k++] = LSK_ARG_BUFFER(count_buf);
  a[k++] = LSK_ARG_UINT((uint32_t)count_index);
  if (!rc)
    rc = lsk__launch_q(rows ? c->bits_rows : c->bits_indices, q, fn, &l, a, k);
  free(a);
  return rc;
}

/* The look-back path's pass (lookback_path) on queue q: the states
 * cleared, then one block per tile; the arguments as run()'s. */
static int run_lookback(lsk_compactor *c, const char *fn, int rows, const lsk_arg *in, size_t nin,
                        size_t n, uint64_t arg, const lsk_arg *outs, size_t nout,
                        lsk_buffer *count_buf, size_t count_index, const lsk__plan *p, lsk_queue *q)
{
  lsk_context *ctx = c->ctx;
  size_t tiles = p->tiles ? p->tiles : 1; /* n = 0: one empty tile */
  size_t words = tiles + 1;               /* the ticket, a state per tile */
  int rc;
  if ((!c->cells || lsk_buffer_size(c->cells) < words * sizeof(uint32_t)) &&
      (rc = words_buffer(c, &c->cells, words)))
    return rc;
  size_t cblocks = (words + p->tile - 1) / p->tile;
  lsk_launch lc = lsk__plan_launch(p, cblocks < p->blocks ? cblocks : p->blocks);
  rc = lsk__launch_q(c->lb_clear, q, fn, &lc,
                     LSK_ARGS(LSK_ARG_BUFFER(c->cells), LSK_ARG_UINT((uint32_t)words)));
  lsk_arg *a = malloc((nin + nout + 5) * sizeof *a);
  if (!a)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  memcpy(a, in, nin * sizeof *a);
  size_t n_args = nin;
  a[n_args++] = LSK_ARG_ULONG(arg);
  a[n_args++] = LSK_ARG_UINT((uint32_t)n);
  a[n_args++] = LSK_ARG_BUFFER(c->cells);
  memcpy(a + n_args, outs, nout * sizeof *a);
  n_args += nout;
  a[n_args++] = LSK_ARG_BUFFER(count_buf);
  a[n_args++] = LSK_ARG_UINT((uint32_t)count_index);
  /* One block per tile (compact.cl): the options' blocks do not apply.
   * Workers: the caller's, else the rule's, at most 256 (a tile of 2048
   * in 8 steps): on an H200, 2^25 elements took 0.34 ms so and 0.65 ms at
   * the rule's 1024, whose blocks each looked back for 2 elements a worker
   * (lsk bench --only cuda, 2026-11-27). */
  lsk_kernel *k = rows ? c->lb_rows : c->lb_indices;
  lsk_launch l = lsk__plan_launch(p, tiles);
  lsk_kernel_info info;
  if (!rc && !l.workers && !l.simd && !(rc = lsk_kernel_query(k, &l, &info)) &&
      info.workers > LOOKBACK_WORKERS)
    l.workers = LOOKBACK_WORKERS;
  if (!rc)
    rc = lsk__launch_q(k, q, fn, &l, a, n_args);
  free(a);
  return rc;
}

/* One compaction: in[0, nin) are the input's kernel arguments, outs[0,
 * nout) those of the output (index or rows kernel). */
static int run(lsk_compactor *c, const char *fn, lsk_kernel *last, const lsk_arg *in, size_t nin,
               size_t n, uint64_t arg, const lsk_arg *outs, size_t nout, lsk_buffer *count_buf,
               size_t count_index, const lsk_algo_options *opt, const lsk_async *on)
{
  lsk_context *ctx = c->ctx;
  lsk__plan p;
  lsk__on o;
  int rc = lsk__algo_plan(ctx, fn, n, opt, &p);
  if (!rc)
    rc = lsk__lib_begin(ctx, on, fn, &o);
  if (rc)
    return rc;
  if (lookback_path(c, n)) {
    rc = run_lookback(c, fn, last == c->rows, in, nin, n, arg, outs, nout, count_buf, count_index,
                      &p, o.q);
    return lsk__lib_end(ctx, &o, rc, fn);
  }
  if (c->cpu) {
    rc = run_cpu(c, fn, last == c->rows, in, nin, n, arg, outs, nout, count_buf, count_index, &p,
                 opt, o.q);
    return lsk__lib_end(ctx, &o, rc, fn);
  }
  if (p.blocks > 1 && lsk_buffer_size(c->counts) < p.blocks * sizeof(uint32_t) &&
      (rc = counts_buffer(c, p.blocks)))
    return rc;
  lsk_arg *a = malloc((nin + nout + 8) * sizeof *a);
  if (!a)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", fn);
  memcpy(a, in, nin * sizeof *a);
  size_t k = nin;
  a[k++] = LSK_ARG_ULONG(arg);
  a[k++] = LSK_ARG_UINT((uint32_t)n);
  a[k++] = LSK_ARG_UINT((uint32_t)p.per_block);
  if (p.blocks > 1) {
    lsk_launch l = lsk__plan_launch(&p, p.blocks);
    a[k] = LSK_ARG_BUFFER(c->counts);
    rc = lsk__launch_q(c->count, o.q, fn, &l, a, k + 1);
    l = lsk__plan_launch(&p, 1);
    if (!rc)
      rc = lsk__launch_q(c->scan, o.q, fn, &l,
                         LSK_ARGS(LSK_ARG_BUFFER(c->counts), LSK_ARG_UINT((uint32_t)p.blocks)));
  }
  a[k++] = LSK_ARG_BUFFER(c->counts);
  a[k++] = LSK_ARG_UINT(p.blocks > 1);
  memcpy(a + k, outs, nout * sizeof *a);
  k += nout;
  a[k++] = LSK_ARG_BUFFER(count_buf);
  a[k++] = LSK_ARG_UINT((uint32_t)count_index);
  lsk_launch l = lsk__plan_launch(&p, p.blocks);
  if (!rc)
    rc = lsk__launch_q(last, o.q, fn, &l, a, k);
  free(a);
  return lsk__lib_end(ctx, &o, rc, fn);
}

/* The count of a waiting variant: read back on the call's queue (run
 * checked it), then that queue's device verify. */
static int wait_count(lsk_compactor *c, int rc, size_t *count, const lsk_async *on)
{
  uint32_t got = 0;
  lsk_queue *q = on && on->queue ? on->queue : lsk__context_queue(c->ctx);
  if (!rc)
    rc = lsk__buffer_rw(c->total, 0, 0, &got, sizeof got, q, 1, "lsk_compact");
  if (!rc)
    rc = lsk__verify_check(q);
  *count = rc ? 0 : got;
  return rc;
}

/* Checks shared by the calls: compactor kind, count buffer, options. */
static int check_common(lsk_compactor *c, const char *fn, int soa, int to, size_t *count,
                        lsk_buffer *count_buf, size_t count_index)
{
  LSK__LIVE(NULL, c, COMPACTOR, fn, "compactor");
  if (to && !count_buf)
    return lsk__fail(c->ctx, LSK_EINVAL, "%s: count_buf is NULL", fn);
  if (soa && !c->layout)
    return lsk__fail(c->ctx, LSK_EINVAL,
                     "%s: the compactor reads a plain buffer (it was created without a layout)",
                     fn);
  if (!soa && c->layout)
    return lsk__fail(c->ctx, LSK_EINVAL, "%s: the compactor reads SoA parts of layout '%s'", fn,
                     lsk_layout_name(c->layout));
  if (count_buf)
    return lsk__check_span(c->ctx, fn, "count_buf", count_buf, count_index, 1, sizeof(uint32_t));
  if (!count)
    return lsk__fail(c->ctx, LSK_EINVAL, "%s: count is NULL", fn);
  return LSK_OK;
}

/* The index output: out span, and no overlap with the count or the input. */
static int check_out(lsk_compactor *c, const char *fn, const lsk_buffer *input, lsk_buffer *out,
                     size_t out_offset, size_t capacity, lsk_buffer *count_buf, size_t count_index)
{
  int rc = lsk__check_span(c->ctx, fn, "out", out, out_offset, capacity, sizeof(uint32_t));
  if (rc)
    return rc;
  if (input && out == input)
    return lsk__fail(c->ctx, LSK_EINVAL,
                     "%s: out is the input's buffer (blocks write it while others read)", fn);
  if (count_buf && count_buf == input)
    return lsk__fail(c->ctx, LSK_EINVAL, "%s: count_buf is the input's buffer", fn);
  if (count_buf == out && count_index >= out_offset && count_index - out_offset < capacity)
    return lsk__fail(c->ctx, LSK_EINVAL, "%s: count_index %zu is inside out [%zu, %zu)", fn,
                     count_index, out_offset, out_offset + capacity);
  return LSK_OK;
}

static int compact_buffer(lsk_compactor *c, const char *fn, lsk_buffer *data, size_t n,
                          uint64_t arg, lsk_buffer *out, size_t out_offset, size_t capacity,
                          lsk_buffer *count_buf, size_t count_index, const lsk_algo_options *opt,
                          const lsk_async *on)
{
  int rc;
  if (data && (rc = lsk__check_span(c->ctx, fn, "data", data, 0, 0, 1)))
    return rc;
  if (n > UINT32_MAX)
    return lsk__fail(c->ctx, LSK_ERANGE, "%s: n %zu exceeds 2^32 - 1 elements", fn, n);
  if ((rc = check_out(c, fn, data, out, out_offset, capacity, count_buf, count_index)))
    return rc;
  /* A predicate that ignores its data still needs a pointer argument (one
   * that run() does not replace). */
  lsk_arg in = LSK_ARG_BUFFER(data ? data : c->total);
  lsk_arg outs[3] = {LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)out_offset),
                     LSK_ARG_UINT((uint32_t)capacity)};
  return run(c, fn, c->indices, &in, 1, n, arg, outs, 3, count_buf, count_index, opt, on);
}

int lsk_compact_to(lsk_compactor *c, lsk_buffer *data, size_t n, uint64_t arg, lsk_buffer *out,
                   size_t out_offset, size_t capacity, lsk_buffer *count_buf, size_t count_index,
                   const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  int rc = check_common(c, __func__, 0, 1, NULL, count_buf, count_index);
  return rc ? rc
            : compact_buffer(c, __func__, data, n, arg, out, out_offset, capacity, count_buf,
                             count_index, opt, on);
}

int lsk_compact(lsk_compactor *c, lsk_buffer *data, size_t n, uint64_t arg, lsk_buffer *out,
                size_t out_offset, size_t capacity, size_t *count, const lsk_algo_options *opt,
                const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  int rc = check_common(c, __func__, 0, 0, count, NULL, 0);
  if (rc)
    return rc;
  rc = compact_buffer(c, __func__, data, n, arg, out, out_offset, capacity, c->total, 0, opt, on);
  return wait_count(c, rc, count, on);
}

/* The kernel arguments of the view of part j (args malloc'd), after
 * checking that the part's bytes, by the compactor's layout, fit. */
static int part_args(lsk_compactor *c, const char *fn, const char *what, const lsk_soa *s, size_t j,
                     lsk_arg **args, size_t *nargs)
{
  *args = NULL;
  int live = lsk__handle_check(c->ctx, s, &LSK__H_SOA, fn, what);
  if (live)
    return live;
  if (lsk__buffer_context(lsk_soa_buffer(s)) != c->ctx)
    return lsk__fail(c->ctx, LSK_EINVAL, "%s: %s belongs to another context", fn, what);
  if (j >= lsk_soa_parts(s))
    return lsk__fail(c->ctx, LSK_EINVAL, "%s: %s has no part %zu (it has %zu)", fn, what, j,
                     lsk_soa_parts(s));
  size_t bytes = 0;
  if (lsk_layout_size(c->layout, lsk_soa_count(s, j), &bytes) ||
      lsk_soa_base(s, j) + bytes > lsk_soa_bytes(s))
    return lsk__fail(c->ctx, LSK_EINVAL,
                     "%s: %s part %zu (%zu elements at byte %zu) is not of layout '%s' (%zu "
                     "bytes past the allocation's %zu)",
                     fn, what, j, lsk_soa_count(s, j), lsk_soa_base(s, j),
                     lsk_layout_name(c->layout), bytes, lsk_soa_bytes(s));
  size_t cap = lsk_layout_member_count(c->layout) + 2;
  if (!(*args = malloc(cap * sizeof **args)))
    return lsk__fail(c->ctx, LSK_ENOMEM, "%s: out of memory", fn);
  int rc = lsk_soa_args(s, j, NULL, *args, cap, nargs);
  if (rc) {
    free(*args);
    *args = NULL;
  }
  return rc;
}

static int compact_soa(lsk_compactor *c, const char *fn, const lsk_soa *src, size_t part,
                       uint64_t arg, lsk_buffer *out, size_t out_offset, size_t capacity,
                       lsk_buffer *count_buf, size_t count_index, const lsk_algo_options *opt,
                       const lsk_async *on)
{
  lsk_arg *in;
  size_t nin;
  int rc = part_args(c, fn, "src", src, part, &in, &nin);
  if (rc)
    return rc;
  rc = check_out(c, fn, lsk_soa_buffer(src), out, out_offset, capacity, count_buf, count_index);
  lsk_arg outs[3] = {LSK_ARG_BUFFER(out), LSK_ARG_UINT((uint32_t)out_offset),
                     LSK_ARG_UINT((uint32_t)capacity)};
  if (!rc)
    rc = run(c, fn, c->indices, in, nin, lsk_soa_count(src, part), arg, outs, 3, count_buf,
             count_index, opt, on);
  free(in);
  return rc;
}

int lsk_compact_soa_to(lsk_compactor *c, const lsk_soa *src, size_t part, uint64_t arg,
                       lsk_buffer *out, size_t out_offset, size_t capacity, lsk_buffer *count_buf,
                       size_t count_index, const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  int rc = check_common(c, __func__, 1, 1, NULL, count_buf, count_index);
  return rc ? rc
            : compact_soa(c, __func__, src, part, arg, out, out_offset, capacity, count_buf,
                          count_index, opt, on);
}

int lsk_compact_soa(lsk_compactor *c, const lsk_soa *src, size_t part, uint64_t arg,
                    lsk_buffer *out, size_t out_offset, size_t capacity, size_t *count,
                    const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  int rc = check_common(c, __func__, 1, 0, count, NULL, 0);
  if (rc)
    return rc;
  rc = compact_soa(c, __func__, src, part, arg, out, out_offset, capacity, c->total, 0, opt, on);
  return wait_count(c, rc, count, on);
}

static int rows(lsk_compactor *c, const char *fn, const lsk_soa *src, size_t sj, lsk_soa *dst,
                size_t dj, uint64_t arg, lsk_buffer *count_buf, size_t count_index,
                const lsk_algo_options *opt, const lsk_async *on)
{
  lsk_arg *in = NULL, *outs = NULL;
  size_t nin = 0, nout = 0;
  int rc = part_args(c, fn, "src", src, sj, &in, &nin);
  if (!rc)
    rc = part_args(c, fn, "dst", dst, dj, &outs, &nout);
  if (!rc && src == dst && sj == dj)
    rc = lsk__fail(c->ctx, LSK_EINVAL,
                   "%s: dst part %zu is the src part (rows would be overwritten while read)", fn,
                   dj);
  if (!rc && (count_buf == lsk_soa_buffer(src) || count_buf == lsk_soa_buffer(dst)))
    rc = lsk__fail(c->ctx, LSK_EINVAL, "%s: count_buf is a soa's buffer", fn);
  if (!rc)
    rc = run(c, fn, c->rows, in, nin, lsk_soa_count(src, sj), arg, outs, nout, count_buf,
             count_index, opt, on);
  free(in);
  free(outs);
  return rc;
}

int lsk_compact_rows_to(lsk_compactor *c, const lsk_soa *src, size_t sj, lsk_soa *dst, size_t dj,
                        uint64_t arg, lsk_buffer *count_buf, size_t count_index,
                        const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  int rc = check_common(c, __func__, 1, 1, NULL, count_buf, count_index);
  return rc ? rc : rows(c, __func__, src, sj, dst, dj, arg, count_buf, count_index, opt, on);
}

int lsk_compact_rows(lsk_compactor *c, const lsk_soa *src, size_t sj, lsk_soa *dst, size_t dj,
                     uint64_t arg, size_t *count, const lsk_algo_options *opt, const lsk_async *on)
{
  LSK__API();
  lsk__lib_clear(on);
  int rc = check_common(c, __func__, 1, 0, count, NULL, 0);
  if (rc)
    return rc;
  rc = rows(c, __func__, src, sj, dst, dj, arg, c->total, 0, opt, on);
  return wait_count(c, rc, count, on);
}
