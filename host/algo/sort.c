/*
 * sort.c: lsk_sort and lsk_sort_by_key (kernels/sort.cl): a stable LSD
 * radix sort. One counting pass that also finds the digits that differ
 * between keys, a plan made on the device (which passes run, where each
 * reads and writes), then per digit a count, a scan (scan.c) and a
 * scatter, and a copy where the plan needs one. Nothing waits on the host:
 * the passes that the plan skips are launched and return at once.
 */
#include <stdio.h>
#include <string.h>

#include "algo/algo.h"

#define SORT_TYPES                                                                                 \
  ((1u << LSK_TYPE_INT) | (1u << LSK_TYPE_UINT) | (1u << LSK_TYPE_LONG) | (1u << LSK_TYPE_ULONG) | \
   (1u << LSK_TYPE_FLOAT) | (1u << LSK_TYPE_DOUBLE))

/* kernels/sort.cl: the plan's words, a pass each and the copy. */
#define SORT_MAX_PASSES 64
#define SORT_STATE_WORDS (SORT_MAX_PASSES + 1)

/* Elements per segment at most where the device ends long loops
 * (llvmpipe: 65535 iterations per work-item, lsk_device_info.loops_capped). */
#define SORT_CAPPED_SEGMENT 4096u
/* Elements per segment at least on GPUs (by default). */
#define SORT_GPU_SEGMENT 256u

/* One call: its arguments, checked. */
typedef struct sort_job {
  lsk_context *ctx;
  lsk_queue *q;
  const char *fn;
  lsk_type type;
  size_t n;
  lsk_buffer *kin, *kout, *vin, *vout; /* kout == kin in place; vin NULL without values */
  int in_place, descending;
  unsigned bits; /* 0: automatic */
  const lsk_algo_options *algo;
} sort_job;

/* The argument x of the kernels' map of a key to its order (sort.cl,
 * lsk__sort_t_K): for integers the bits to flip (the sign bit of int and
 * long, every bit for descending), for floats every bit for descending. */
static lsk_arg order_arg(const sort_job *j)
{
  int wide = lsk_type_size(j->type) == 8;
  int is_float = j->type == LSK_TYPE_FLOAT || j->type == LSK_TYPE_DOUBLE;
  int is_signed = j->type == LSK_TYPE_INT || j->type == LSK_TYPE_LONG;
  uint64_t sign = wide ? UINT64_C(1) << 63 : UINT64_C(1) << 31;
  uint64_t ones = wide ? UINT64_MAX : UINT32_MAX;
  uint64_t x = (is_signed && !is_float ? sign : 0) ^ (j->descending ? ones : 0);
  return wide ? LSK_ARG_ULONG(x) : LSK_ARG_UINT((uint32_t)x);
}

/* The digit bits: the caller's, else the most bits up to the device's
 * preference whose counters take at most half the local memory (all of
 * it where none does): 11 on CPUs (PoCL, 2^24 uint keys: docs/algorithms.md
 * has the measurements), 8 on GPUs (not measured). LSK_ELAUNCH where none
 * fits. */
static int choose_bits(const sort_job *j, unsigned workers, uint64_t avail, unsigned *bits)
{
  uint64_t per = (uint64_t)workers * 4; /* (2^bits + 1) counters per worker */
  if (j->bits) {
    if ((((uint64_t)1 << j->bits) + 1) * per > avail)
      return lsk__fail(j->ctx, LSK_ELAUNCH,
                       "%s: digit_bits %u: %llu counters for each of %u workers need %llu bytes of "
                       "local memory, %s has %llu to spare",
                       j->fn, j->bits, 1ull << j->bits, workers,
                       (unsigned long long)((((uint64_t)1 << j->bits) + 1) * per),
                       lsk__context_info(j->ctx)->name, (unsigned long long)avail);
    *bits = j->bits;
    return LSK_OK;
  }
  unsigned want = lsk__context_info(j->ctx)->is_gpu ? 8 : 11;
  for (int half = 1; half >= 0; --half)
    for (unsigned b = want; b >= 1; --b)
      if ((((uint64_t)1 << b) + 1) * per <= (half ? avail / 2 : avail)) {
        *bits = b;
        return LSK_OK;
      }
  return lsk__fail(j->ctx, LSK_ELAUNCH,
                   "%s: %u workers leave no local memory for the counters on %s (%llu bytes)",
                   j->fn, workers, lsk__context_info(j->ctx)->name, (unsigned long long)avail);
}

/* The kernel lsk_sort_<name>_<K> of the key's class: u32 (uint, int), f32
 * (float), u64 (ulong, long), f64 (double); copy: by the key's width. */
static int sort_kernel(const sort_job *j, const char *name, lsk_kernel **k)
{
  int wide = lsk_type_size(j->type) == 8;
  int is_float = j->type == LSK_TYPE_FLOAT || j->type == LSK_TYPE_DOUBLE;
  char full[48];
  if (strcmp(name, "copy") == 0)
    snprintf(full, sizeof full, "lsk_sort_copy_%s", wide ? "ulong" : "uint");
  else
    snprintf(full, sizeof full, "lsk_sort_%s_%c%s", name, is_float ? 'f' : 'u', wide ? "64" : "32");
  return lsk__lib_kernel(j->ctx, LSK__LIB_SORT, full, k);
}

static int run(const sort_job *j)
{
  lsk_context *ctx = j->ctx;
  lsk_queue *q = j->q;
  const char *fn = j->fn;
  size_t n = j->n, ksize = lsk_type_size(j->type);
  unsigned keybits = (unsigned)ksize * 8;
  lsk__plan p;
  int rc = lsk__algo_plan(ctx, fn, n, j->algo, &p);
  lsk_kernel *count, *scatter, *copy, *plan;
  if (rc || (rc = sort_kernel(j, "count", &count)) || (rc = sort_kernel(j, "scatter", &scatter)) ||
      (rc = sort_kernel(j, "copy", &copy)) ||
      (rc = lsk__lib_kernel(ctx, LSK__LIB_SORT, "lsk_sort_plan", &plan)))
    return rc;

  /* One segment per work-item, so every kernel of the segments takes the
   * same workers: the fewer of the two kernels' shapes. */
  lsk_launch l = lsk__plan_launch(&p, p.blocks);
  lsk_kernel_info ic, is;
  if ((rc = lsk_kernel_query(count, &l, &ic)) || (rc = lsk_kernel_query(scatter, &l, &is)))
    return rc;
  if (is.workers != ic.workers) {
    l.workers = ic.workers < is.workers ? ic.workers : is.workers;
    if ((rc = lsk_kernel_query(count, &l, &ic)) || (rc = lsk_kernel_query(scatter, &l, &is)))
      return rc;
  }
  unsigned w = ic.workers;
  l.workers = w;
  l.simd = ic.simd;
  uint64_t local = lsk__context_info(ctx)->local_mem_size;
  uint64_t used =
      ic.local_static_bytes > is.local_static_bytes ? ic.local_static_bytes : is.local_static_bytes;
  unsigned bits = 0;
  if ((rc = choose_bits(j, w, local > used ? local - used : 0, &bits)))
    return rc;

  /* Segments: blocks x workers. Unless the caller chose the blocks: on
   * CPUs two blocks per compute unit, on GPUs the library's usual number
   * but segments of SORT_GPU_SEGMENT elements at least (each has 2^bits
   * counters to write and scan); at most SORT_CAPPED_SEGMENT long where
   * loops are capped. */
  size_t blocks = j->algo && j->algo->blocks ? j->algo->blocks
                  : lsk__context_info(ctx)->is_gpu
                      ? p.blocks
                      : lsk_auto_blocks(lsk__context_info(ctx), p.tiles, 1, 2);
  if (!(j->algo && j->algo->blocks) && lsk__context_info(ctx)->is_gpu) {
    size_t most = (n + (size_t)SORT_GPU_SEGMENT * w - 1) / ((size_t)SORT_GPU_SEGMENT * w);
    blocks = blocks < most ? blocks : most ? most : 1;
  }
  if (!(j->algo && j->algo->blocks) && lsk__context_info(ctx)->loops_capped) {
    size_t need = (n + (size_t)SORT_CAPPED_SEGMENT * w - 1) / ((size_t)SORT_CAPPED_SEGMENT * w);
    blocks = blocks > need ? blocks : need;
  }
  size_t radix = (size_t)1 << bits, nseg = blocks * w;
  if (nseg > UINT32_MAX / radix)
    return lsk__fail(ctx, LSK_ERANGE,
                     "%s: %zu blocks of %u workers make %zu counters of %zu digits, past 2^32 - 1",
                     fn, blocks, w, nseg, radix);
  size_t seglen = (n + nseg - 1) / nseg;
  l.blocks[0] = blocks;

  lsk_buffer *counts = NULL, *oa = NULL, *state = NULL, *ktmp = NULL, *vtmp = NULL;
  if ((rc = lsk__scratch(ctx, q, radix * nseg * 4, &counts)) ||
      (rc = lsk__scratch(ctx, q, nseg * 16, &oa)) ||
      (rc = lsk__scratch(ctx, q, SORT_STATE_WORDS * 4, &state)) ||
      (rc = lsk__scratch(ctx, q, n * ksize, &ktmp)) ||
      (j->vin && (rc = lsk__scratch(ctx, q, n * 4, &vtmp))))
    goto done;

  lsk_arg x = order_arg(j);
  lsk_buffer *vin = j->vin ? j->vin : j->kin, *vout = j->vin ? j->vout : j->kin;
  lsk_buffer *vt = j->vin ? vtmp : j->kin;
  unsigned passes = (keybits + bits - 1) / bits;
  size_t local_bytes = (radix + 1) * w * 4;
  for (unsigned pass = 0; pass < passes && !rc; ++pass) {
    unsigned shift = pass * bits, width = keybits - shift < bits ? keybits - shift : bits;
    uint32_t mask = (uint32_t)(((uint64_t)1 << width) - 1);
    /* Pass 0's counts come with the OR and AND (first = 1), then the
     * plan; the other passes count where the plan says so. */
    lsk_arg ca[] = {LSK_ARG_BUFFER(state),
                    LSK_ARG_UINT(pass),
                    LSK_ARG_UINT(pass == 0),
                    LSK_ARG_BUFFER(j->kin),
                    LSK_ARG_BUFFER(j->kout),
                    LSK_ARG_BUFFER(ktmp),
                    LSK_ARG_UINT((uint32_t)n),
                    LSK_ARG_UINT((uint32_t)seglen),
                    x,
                    LSK_ARG_UINT(shift),
                    LSK_ARG_UINT(mask),
                    LSK_ARG_BUFFER(counts),
                    LSK_ARG_UINT((uint32_t)nseg),
                    LSK_ARG_BUFFER(oa),
                    LSK_ARG_LOCAL(local_bytes)};
    rc = lsk__launch_q(count, q, fn, &l, ca, sizeof ca / sizeof ca[0]);
    if (!rc && pass == 0) {
      lsk_launch lp = l;
      lp.blocks[0] = 1;
      rc = lsk__launch_q(plan, q, fn, &lp,
                         LSK_ARGS(LSK_ARG_BUFFER(oa), LSK_ARG_UINT((uint32_t)nseg),
                                  LSK_ARG_UINT(keybits), LSK_ARG_UINT(bits),
                                  LSK_ARG_UINT((uint32_t)j->in_place), LSK_ARG_BUFFER(state)));
    }
    /* Each count becomes the segment's first slot for its digit. */
    if (!rc)
      rc = lsk__scan_q(ctx, q, fn, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, counts, 0, counts, 0,
                       ((size_t)mask + 1) * nseg, j->algo);
    if (!rc) {
      lsk_arg sa[] = {LSK_ARG_BUFFER(state),
                      LSK_ARG_UINT(pass),
                      LSK_ARG_BUFFER(j->kin),
                      LSK_ARG_BUFFER(j->kout),
                      LSK_ARG_BUFFER(ktmp),
                      LSK_ARG_BUFFER(vin),
                      LSK_ARG_BUFFER(vout),
                      LSK_ARG_BUFFER(vt),
                      LSK_ARG_UINT(j->vin != NULL),
                      LSK_ARG_UINT((uint32_t)n),
                      LSK_ARG_UINT((uint32_t)seglen),
                      x,
                      LSK_ARG_UINT(shift),
                      LSK_ARG_UINT(mask),
                      LSK_ARG_BUFFER(counts),
                      LSK_ARG_UINT((uint32_t)nseg),
                      LSK_ARG_LOCAL(local_bytes)};
      rc = lsk__launch_q(scatter, q, fn, &l, sa, sizeof sa / sizeof sa[0]);
    }
  }
  if (!rc) {
    lsk_launch lc = lsk__plan_launch(&p, p.blocks);
    rc = lsk__launch_q(copy, q, fn, &lc,
                       LSK_ARGS(LSK_ARG_BUFFER(state), LSK_ARG_BUFFER(j->kin),
                                LSK_ARG_BUFFER(j->kout), LSK_ARG_BUFFER(ktmp), LSK_ARG_BUFFER(vin),
                                LSK_ARG_BUFFER(vout), LSK_ARG_BUFFER(vt),
                                LSK_ARG_UINT(j->vin != NULL), LSK_ARG_UINT((uint32_t)n),
                                LSK_ARG_UINT((uint32_t)p.per_block)));
  }
done:
  lsk__scratch_free(counts, q);
  lsk__scratch_free(oa, q);
  lsk__scratch_free(state, q);
  lsk__scratch_free(ktmp, q);
  lsk__scratch_free(vtmp, q);
  return rc;
}

/* Two arguments that must not be the same buffer. */
static int distinct(lsk_context *ctx, const char *fn, const lsk_buffer *a, const char *an,
                    const lsk_buffer *b, const char *bn)
{
  if (a && a == b)
    return lsk__fail(ctx, LSK_EINVAL, "%s: %s and %s are the same buffer", fn, an, bn);
  return LSK_OK;
}

/* The checks of both calls, then the sort on opt's queue. */
static int sort_call(lsk_context *ctx, const char *fn, lsk_type type, lsk_buffer *keys,
                     lsk_buffer *values, int with_values, size_t n, lsk_buffer *out_keys,
                     lsk_buffer *out_values, const lsk_sort_options *opt)
{
  const lsk_algo_options *algo = opt ? &opt->algo : NULL;
  lsk__lib_clear(algo);
  LSK__LIVE(NULL, ctx, CONTEXT, fn, "ctx");
  int rc = lsk__check_type(ctx, fn, type, SORT_TYPES);
  size_t ksize = lsk_type_size(type);
  if (rc || (rc = lsk__check_span(ctx, fn, "keys", keys, 0, n, ksize)))
    return rc;
  int kin_place = !out_keys || out_keys == keys;
  if (!kin_place && (rc = lsk__check_span(ctx, fn, "out_keys", out_keys, 0, n, ksize)))
    return rc;
  if (with_values) {
    if ((rc = lsk__check_span(ctx, fn, "values", values, 0, n, 4)))
      return rc;
    int vin_place = !out_values || out_values == values;
    if (kin_place != vin_place)
      return lsk__fail(ctx, LSK_EINVAL,
                       "%s: out_keys is %s and out_values is %s: both in place or neither", fn,
                       kin_place ? "in place" : "a buffer", vin_place ? "in place" : "a buffer");
    if (!vin_place && (rc = lsk__check_span(ctx, fn, "out_values", out_values, 0, n, 4)))
      return rc;
    if ((rc = distinct(ctx, fn, keys, "keys", values, "values")))
      return rc;
    if (!kin_place && ((rc = distinct(ctx, fn, out_keys, "out_keys", values, "values")) ||
                       (rc = distinct(ctx, fn, out_values, "out_values", keys, "keys")) ||
                       (rc = distinct(ctx, fn, out_keys, "out_keys", out_values, "out_values"))))
      return rc;
  }
  if (opt && opt->digit_bits > LSK_SORT_MAX_DIGIT_BITS)
    return lsk__fail(ctx, LSK_EINVAL, "%s: digit_bits %u is not 0 (automatic) or 1 to %d", fn,
                     opt->digit_bits, LSK_SORT_MAX_DIGIT_BITS);
  sort_job j = {.ctx = ctx,
                .fn = fn,
                .type = type,
                .n = n,
                .kin = keys,
                .kout = kin_place ? keys : out_keys,
                .vin = with_values ? values : NULL,
                .vout = with_values ? (kin_place ? values : out_values) : NULL,
                .in_place = kin_place,
                .descending = opt && opt->descending,
                .bits = opt ? opt->digit_bits : 0,
                .algo = algo};
  lsk__on o;
  rc = lsk__lib_begin(ctx, algo, fn, &o);
  j.q = o.q;
  if (!rc && n > 0)
    rc = run(&j);
  return lsk__lib_end(ctx, &o, rc, fn);
}

int lsk_sort(lsk_context *ctx, lsk_type type, lsk_buffer *keys, size_t n, lsk_buffer *out_keys,
             const lsk_sort_options *opt)
{
  return sort_call(ctx, __func__, type, keys, NULL, 0, n, out_keys, NULL, opt);
}

int lsk_sort_by_key(lsk_context *ctx, lsk_type type, lsk_buffer *keys, lsk_buffer *values, size_t n,
                    lsk_buffer *out_keys, lsk_buffer *out_values, const lsk_sort_options *opt)
{
  return sort_call(ctx, __func__, type, keys, values, 1, n, out_keys, out_values, opt);
}
