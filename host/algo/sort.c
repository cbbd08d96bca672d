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
/* Loop iterations per work-item at most on the GPU path there (half the
 * cap: docs/rusticl.md). */
#define SORT_CAPPED_ITERATIONS 32768u
/* Elements per segment at least on GPUs (by default). */
#define SORT_GPU_SEGMENT 256u
/* The GPU path (kernels/sort.cl, lsk_sort_bcount_K and _bscatter_K):
 * workers per block unless the caller chose them, the digit bits it
 * wants, chunks of LSK_WORKERS elements per block at least (each block
 * adds 2^bits counters to the scan), blocks per compute unit at most. */
#define SORT_GPU_WORKERS 256u
#define SORT_GPU_BITS 8u
#define SORT_GPU_CHUNKS 16u
#define SORT_GPU_BLOCKS_PER_CU 8u

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
 * it where none does): 11 on CPUs (PoCL, 2^24 uint keys: docs/perf/algorithms.md,
 * "Radix sort", has the measurements), 8 on GPUs (not measured). LSK_ELAUNCH where none
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

/* The kernels of one sort, all from the build of its key's class
 * (kernels/sort.cl, -D LSK_SORT_KEY=K): u32 (uint, int), f32 (float), u64
 * (ulong, long), f64 (double); the copy's by the key's width. */
typedef struct sort_kernels {
  lsk_kernel *count, *scatter, *copy, *plan;
} sort_kernels;

/* The GPU path's count and scatter (kernels/sort.cl, _bcount_K and
 * _bscatter_K: a block's counters, not a work-item's). */
static int sort_kernels_gpu(const sort_job *j, sort_kernels *k)
{
  int wide = lsk_type_size(j->type) == 8;
  int is_float = j->type == LSK_TYPE_FLOAT || j->type == LSK_TYPE_DOUBLE;
  char key[4], options[32], count[32], scatter[32];
  snprintf(key, sizeof key, "%c%s", is_float ? 'f' : 'u', wide ? "64" : "32");
  snprintf(options, sizeof options, "-DLSK_SORT_KEY=%s", key);
  snprintf(count, sizeof count, "lsk_sort_bcount_%s", key);
  snprintf(scatter, sizeof scatter, "lsk_sort_bscatter_%s", key);
  int rc = lsk__lib_kernel_for(j->ctx, LSK__LIB_SORT, options, count, &k->count);
  return rc ? rc : lsk__lib_kernel_for(j->ctx, LSK__LIB_SORT, options, scatter, &k->scatter);
}

static int sort_kernels_get(const sort_job *j, sort_kernels *k)
{
  int wide = lsk_type_size(j->type) == 8;
  int is_float = j->type == LSK_TYPE_FLOAT || j->type == LSK_TYPE_DOUBLE;
  char key[4], options[32], count[32], scatter[32];
  snprintf(key, sizeof key, "%c%s", is_float ? 'f' : 'u', wide ? "64" : "32");
  snprintf(options, sizeof options, "-DLSK_SORT_KEY=%s", key);
  snprintf(count, sizeof count, "lsk_sort_count_%s", key);
  snprintf(scatter, sizeof scatter, "lsk_sort_scatter_%s", key);
  int rc;
  if ((rc = lsk__lib_kernel_for(j->ctx, LSK__LIB_SORT, options, count, &k->count)) ||
      (rc = lsk__lib_kernel_for(j->ctx, LSK__LIB_SORT, options, scatter, &k->scatter)) ||
      (rc = lsk__lib_kernel_for(j->ctx, LSK__LIB_SORT, options,
                                wide ? "lsk_sort_copy_ulong" : "lsk_sort_copy_uint", &k->copy)))
    return rc;
  return lsk__lib_kernel_for(j->ctx, LSK__LIB_SORT, options, "lsk_sort_plan", &k->plan);
}

/* One sort's plan, kernels, shape and scratch buffers. */
typedef struct sort_run {
  const sort_job *j;
  lsk__plan p;
  sort_kernels k;
  lsk_launch l; /* of the segment kernels: count and scatter */
  unsigned bits;
  int gpu;       /* the GPU path: the counters a block's */
  size_t nseg;   /* count columns: segments (blocks on the GPU path) */
  size_t seglen; /* elements per column */
  size_t noa;    /* OR/AND pairs: one per work-item */
  size_t local;  /* bytes of the count and scatter kernels' local memory */
  lsk_buffer *counts, *starts, *oa, *state, *ktmp, *vtmp;
} sort_run;

/* The count and scatter kernels' shapes at r->l, both run with the same
 * workers: the fewer of the two; r->l takes them and the simd width. */
static int sort_query(sort_run *r, lsk_kernel_info *ic, lsk_kernel_info *is)
{
  int rc;
  if ((rc = lsk_kernel_query(r->k.count, &r->l, ic)) ||
      (rc = lsk_kernel_query(r->k.scatter, &r->l, is)))
    return rc;
  if (is->workers != ic->workers) {
    r->l.workers = ic->workers < is->workers ? ic->workers : is->workers;
    if ((rc = lsk_kernel_query(r->k.count, &r->l, ic)) ||
        (rc = lsk_kernel_query(r->k.scatter, &r->l, is)))
      return rc;
  }
  r->l.workers = ic->workers;
  r->l.simd = ic->simd;
  return LSK_OK;
}

/* One segment per work-item, so every kernel of the segments takes the
 * same workers: the fewer of the two kernels' shapes. Then the digit
 * bits, with the counters beside the larger of the two kernels' own
 * local memory. */
static int sort_shape(sort_run *r)
{
  r->l = lsk__plan_launch(&r->p, r->p.blocks);
  lsk_kernel_info ic, is;
  int rc;
  if ((rc = sort_query(r, &ic, &is)))
    return rc;
  uint64_t local = lsk__context_info(r->j->ctx)->local_mem_size;
  uint64_t used =
      ic.local_static_bytes > is.local_static_bytes ? ic.local_static_bytes : is.local_static_bytes;
  return choose_bits(r->j, ic.workers, local > used ? local - used : 0, &r->bits);
}

/* Segments: blocks x workers. Unless the caller chose the blocks: on CPUs
 * two blocks per compute unit, on GPUs the library's usual number but
 * segments of SORT_GPU_SEGMENT elements at least (each has 2^bits counters
 * to write and scan); at most SORT_CAPPED_SEGMENT long where loops are
 * capped. */
static int sort_segments(sort_run *r)
{
  const sort_job *j = r->j;
  const lsk_device_info *dev = lsk__context_info(j->ctx);
  size_t n = j->n, w = r->l.workers;
  int chosen = j->algo && j->algo->blocks;
  size_t blocks = chosen        ? j->algo->blocks
                  : dev->is_gpu ? r->p.blocks
                                : lsk_auto_blocks(dev, r->p.tiles, 1, 2);
  if (!chosen && dev->is_gpu) {
    size_t most = (n + (size_t)SORT_GPU_SEGMENT * w - 1) / ((size_t)SORT_GPU_SEGMENT * w);
    blocks = blocks < most ? blocks : most ? most : 1;
  }
  if (!chosen && dev->loops_capped) {
    size_t need = (n + (size_t)SORT_CAPPED_SEGMENT * w - 1) / ((size_t)SORT_CAPPED_SEGMENT * w);
    blocks = blocks > need ? blocks : need;
  }
  size_t radix = (size_t)1 << r->bits;
  r->nseg = blocks * w;
  if (r->nseg > UINT32_MAX / radix)
    return lsk__fail(j->ctx, LSK_ERANGE,
                     "%s: %zu blocks of %zu workers make %zu counters of %zu digits, past 2^32 - 1",
                     j->fn, blocks, w, r->nseg, radix);
  r->seglen = (n + r->nseg - 1) / r->nseg;
  r->l.blocks[0] = blocks;
  r->noa = r->nseg;
  r->local = (radix + 1) * r->l.workers * 4;
  return LSK_OK;
}

/* The GPU path's local memory for 2^bits digits and w workers: the scatter's
 * next slots (2^bits), a copy of the counters per group of 32 workers, and
 * a digit per worker (kernels/sort.cl). */
static uint64_t gpu_local(unsigned bits, size_t w)
{
  uint64_t radix = (uint64_t)1 << bits, groups = (w + 31) / 32;
  return (radix * (1 + groups) + w) * 4;
}

/* Whether the GPU path runs: LSK_SORT_GPU where set, else on GPUs that
 * are not also CPUs (oclgrind says it is both: it keeps checking the
 * per-worker kernels unless told, like the CPU paths of algo.c). */
static int use_gpu_path(const sort_job *j)
{
  if (lsk__getenv("LSK_SORT_GPU"))
    return lsk__getenv_bool("LSK_SORT_GPU", 0);
  const lsk_device_info *d = lsk__context_info(j->ctx);
  return d->is_gpu && !d->is_cpu;
}

/* The GPU path's kernels, shape, digit bits and blocks: SORT_GPU_WORKERS
 * workers unless the caller chose them (as many as both kernels allow);
 * the caller's bits, else the most up to SORT_GPU_BITS whose counters fit
 * beside the kernels' own local memory; blocks the caller's, else up to
 * SORT_GPU_BLOCKS_PER_CU per compute unit with SORT_GPU_CHUNKS chunks
 * each at least (where loops are capped, few enough chunks per block that
 * the scatter's loops stay under the cap). Returns 1 where
 * the caller's bits do not fit (the per-worker path then decides). */
static int sort_gpu_plan(sort_run *r)
{
  const sort_job *j = r->j;
  const lsk_device_info *dev = lsk__context_info(j->ctx);
  int rc = sort_kernels_gpu(j, &r->k);
  if (rc)
    return rc;
  r->l = lsk__plan_launch(&r->p, r->p.blocks);
  if (!r->p.workers)
    r->l.domain[0] = SORT_GPU_WORKERS;
  lsk_kernel_info ic, is;
  if ((rc = sort_query(r, &ic, &is)))
    return rc;
  size_t w = r->l.workers;
  uint64_t local = dev->local_mem_size;
  uint64_t used =
      ic.local_static_bytes > is.local_static_bytes ? ic.local_static_bytes : is.local_static_bytes;
  uint64_t avail = local > used ? local - used : 0;
  if (j->bits) {
    if (gpu_local(j->bits, w) > avail)
      return 1;
    r->bits = j->bits;
  } else {
    unsigned b = SORT_GPU_BITS;
    while (b > 1 && gpu_local(b, w) > avail)
      --b;
    if (gpu_local(b, w) > avail)
      return 1;
    r->bits = b;
  }
  size_t n = j->n, blocks;
  if (j->algo && j->algo->blocks)
    blocks = j->algo->blocks;
  else {
    blocks = lsk_auto_blocks(dev, n, w * SORT_GPU_CHUNKS, SORT_GPU_BLOCKS_PER_CU);
    if (dev->loops_capped) {
      /* The scatter's loop iterations per chunk and work-item: the
       * zeroing and the groups' scan (radix x groups / w each), the rank
       * (31), the chunk's own; half of the cap in all. */
      size_t radix = (size_t)1 << r->bits, groups = (w + 31) / 32;
      size_t per_chunk = 2 * ((radix * groups + w - 1) / w) + 34;
      size_t most = SORT_CAPPED_ITERATIONS / per_chunk, chunks = (n + w - 1) / w;
      most = most ? most : 1;
      size_t need = (chunks + most - 1) / most;
      blocks = blocks > need ? blocks : need;
    }
  }
  /* Whole chunks per block, and no block past the keys. */
  size_t chunks = (n + w - 1) / w;
  size_t per = (chunks + blocks - 1) / blocks;
  per = per ? per : 1;
  blocks = (chunks + per - 1) / per;
  blocks = blocks ? blocks : 1;
  size_t radix = (size_t)1 << r->bits;
  if (blocks > UINT32_MAX / radix || blocks > UINT32_MAX / w || per * w > UINT32_MAX)
    return lsk__fail(j->ctx, LSK_ERANGE,
                     "%s: %zu blocks of %zu workers make %zu counters of %zu digits, past 2^32 - 1",
                     j->fn, blocks, w, blocks, radix);
  r->gpu = 1;
  r->l.blocks[0] = blocks;
  r->nseg = blocks;
  r->seglen = per * w;
  r->noa = blocks * w;
  r->local = (size_t)gpu_local(r->bits, w);
  return LSK_OK;
}

/*
 * The arguments of the count and scatter kernels (kernels/sort.cl): one
 * table of every value either takes, and each kernel's parameters, in its
 * order, as places in it. A pass changes PASS, FIRST, SHIFT and MASK.
 */
/* clang-format off */
enum {
  A_STATE, A_PASS, A_FIRST, A_KIN, A_KOUT, A_KTMP, A_VIN, A_VOUT, A_VTMP, A_VALUES, A_N, A_SEGLEN,
  A_X, A_SHIFT, A_MASK, A_COUNTS, A_NSEG, A_OA, A_LOCAL, A_ALL
};
static const unsigned char count_params[] = {
  A_STATE, A_PASS, A_FIRST, A_KIN, A_KOUT, A_KTMP, A_N, A_SEGLEN, A_X, A_SHIFT, A_MASK, A_COUNTS,
  A_NSEG, A_OA, A_LOCAL};
static const unsigned char scatter_params[] = {
  A_STATE, A_PASS, A_KIN, A_KOUT, A_KTMP, A_VIN, A_VOUT, A_VTMP, A_VALUES, A_N, A_SEGLEN, A_X,
  A_SHIFT, A_MASK, A_COUNTS, A_NSEG, A_LOCAL};
/* clang-format on */
#define SORT_PARAMS 17
_Static_assert(sizeof count_params <= SORT_PARAMS && sizeof scatter_params <= SORT_PARAMS,
               "SORT_PARAMS holds every kernel's parameters");

/* The kernel k with the table's values at params. */
static int sort_launch(const sort_run *r, lsk_kernel *k, const lsk_arg *all,
                       const unsigned char *params, size_t n)
{
  lsk_arg args[SORT_PARAMS];
  for (size_t i = 0; i < n; ++i)
    args[i] = all[params[i]];
  return lsk__launch_q(k, r->j->q, r->j->fn, &r->l, args, n);
}

/* The buffers where a kernel reads the values and writes them (the keys'
 * where there are none: the kernels then never touch them). */
static void sort_table(const sort_run *r, lsk_arg all[A_ALL])
{
  const sort_job *j = r->j;
  int v = j->vin != NULL;
  all[A_STATE] = LSK_ARG_BUFFER(r->state);
  all[A_KIN] = LSK_ARG_BUFFER(j->kin);
  all[A_KOUT] = LSK_ARG_BUFFER(j->kout);
  all[A_KTMP] = LSK_ARG_BUFFER(r->ktmp);
  all[A_VIN] = LSK_ARG_BUFFER(v ? j->vin : j->kin);
  all[A_VOUT] = LSK_ARG_BUFFER(v ? j->vout : j->kin);
  all[A_VTMP] = LSK_ARG_BUFFER(v ? r->vtmp : j->kin);
  all[A_VALUES] = LSK_ARG_UINT(v);
  all[A_N] = LSK_ARG_UINT((uint32_t)j->n);
  all[A_SEGLEN] = LSK_ARG_UINT((uint32_t)r->seglen);
  all[A_X] = order_arg(j);
  all[A_COUNTS] = LSK_ARG_BUFFER(r->counts);
  all[A_NSEG] = LSK_ARG_UINT((uint32_t)r->nseg);
  all[A_OA] = LSK_ARG_BUFFER(r->oa);
  all[A_LOCAL] = LSK_ARG_LOCAL(r->local);
}

/* Per digit: the counts (pass 0's with the OR and AND, then the plan), the
 * scan that makes each count its segment's first slot for its digit (into
 * starts: out of place, so that GPUs take the scan's single-pass
 * look-back, which in-place calls do not), and the scatter from starts;
 * the passes the plan skips return at once. Then the copy, where the plan
 * needs one. */
static int sort_passes(const sort_run *r)
{
  const sort_job *j = r->j;
  unsigned keybits = (unsigned)lsk_type_size(j->type) * 8;
  unsigned passes = (keybits + r->bits - 1) / r->bits;
  lsk_arg all[A_ALL];
  sort_table(r, all);
  int rc = LSK_OK;
  for (unsigned pass = 0; pass < passes && !rc; ++pass) {
    unsigned shift = pass * r->bits, width = keybits - shift < r->bits ? keybits - shift : r->bits;
    uint32_t mask = (uint32_t)(((uint64_t)1 << width) - 1);
    all[A_PASS] = LSK_ARG_UINT(pass);
    all[A_FIRST] = LSK_ARG_UINT(pass == 0);
    all[A_SHIFT] = LSK_ARG_UINT(shift);
    all[A_MASK] = LSK_ARG_UINT(mask);
    all[A_COUNTS] = LSK_ARG_BUFFER(r->counts);
    rc = sort_launch(r, r->k.count, all, count_params, sizeof count_params);
    if (!rc && pass == 0) {
      lsk_launch lp = r->l;
      lp.blocks[0] = 1;
      rc = lsk__launch_q(r->k.plan, j->q, j->fn, &lp,
                         LSK_ARGS(LSK_ARG_BUFFER(r->oa), LSK_ARG_UINT((uint32_t)r->noa),
                                  LSK_ARG_UINT(keybits), LSK_ARG_UINT(r->bits),
                                  LSK_ARG_UINT((uint32_t)j->in_place), LSK_ARG_BUFFER(r->state)));
    }
    if (!rc)
      rc = lsk__scan_q(j->ctx, j->q, j->fn, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, r->counts, 0,
                       r->starts, 0, ((size_t)mask + 1) * r->nseg, j->algo);
    all[A_COUNTS] = LSK_ARG_BUFFER(r->starts);
    if (!rc)
      rc = sort_launch(r, r->k.scatter, all, scatter_params, sizeof scatter_params);
  }
  if (rc)
    return rc;
  lsk_launch lc = lsk__plan_launch(&r->p, r->p.blocks);
  return lsk__launch_q(r->k.copy, j->q, j->fn, &lc,
                       LSK_ARGS(all[A_STATE], all[A_KIN], all[A_KOUT], all[A_KTMP], all[A_VIN],
                                all[A_VOUT], all[A_VTMP], all[A_VALUES], all[A_N],
                                LSK_ARG_UINT((uint32_t)r->p.per_block)));
}

static int run(const sort_job *j)
{
  lsk_context *ctx = j->ctx;
  lsk_queue *q = j->q;
  sort_run r = {.j = j};
  int rc;
  if ((rc = lsk__algo_plan(ctx, j->fn, j->n, j->algo, &r.p)) || (rc = sort_kernels_get(j, &r.k)))
    return rc;
  /* The GPU path where chosen and its bits fit; else the per-worker one. */
  if (use_gpu_path(j)) {
    sort_kernels cpu = r.k;
    if ((rc = sort_gpu_plan(&r)) != 1 && rc)
      return rc;
    if (!r.gpu)
      r.k = cpu;
  }
  if (!r.gpu && ((rc = sort_shape(&r)) || (rc = sort_segments(&r))))
    return rc;
  size_t radix = (size_t)1 << r.bits;
  if (!(rc = lsk__scratch(ctx, q, radix * r.nseg * 4, &r.counts)) &&
      !(rc = lsk__scratch(ctx, q, radix * r.nseg * 4, &r.starts)) &&
      !(rc = lsk__scratch(ctx, q, r.noa * 16, &r.oa)) &&
      !(rc = lsk__scratch(ctx, q, SORT_STATE_WORDS * 4, &r.state)) &&
      !(rc = lsk__scratch(ctx, q, j->n * lsk_type_size(j->type), &r.ktmp)) &&
      !(j->vin && (rc = lsk__scratch(ctx, q, j->n * 4, &r.vtmp))))
    rc = sort_passes(&r);
  lsk__scratch_free(r.counts, q);
  lsk__scratch_free(r.starts, q);
  lsk__scratch_free(r.oa, q);
  lsk__scratch_free(r.state, q);
  lsk__scratch_free(r.ktmp, q);
  lsk__scratch_free(r.vtmp, q);
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

/* The checks of both calls, then the sort on on's queue. */
static int sort_call(lsk_context *ctx, const char *fn, lsk_type type, lsk_buffer *keys,
                     lsk_buffer *values, int with_values, size_t n, lsk_buffer *out_keys,
                     lsk_buffer *out_values, const lsk_sort_options *opt, const lsk_async *on)
{
  const lsk_algo_options *algo = opt ? &opt->algo : NULL;
  lsk__lib_clear(on);
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
  rc = lsk__lib_begin(ctx, on, fn, &o);
  j.q = o.q;
  if (!rc && n > 0)
    rc = run(&j);
  return lsk__lib_end(ctx, &o, rc, fn);
}

int lsk_sort(lsk_context *ctx, lsk_type type, lsk_buffer *keys, size_t n, lsk_buffer *out_keys,
             const lsk_sort_options *opt, const lsk_async *on)
{
  LSK__API();
  return sort_call(ctx, __func__, type, keys, NULL, 0, n, out_keys, NULL, opt, on);
}

int lsk_sort_by_key(lsk_context *ctx, lsk_type type, lsk_buffer *keys, lsk_buffer *values, size_t n,
                    lsk_buffer *out_keys, lsk_buffer *out_values, const lsk_sort_options *opt,
                    const lsk_async *on)
{
  LSK__API();
  return sort_call(ctx, __func__, type, keys, values, 1, n, out_keys, out_values, opt, on);
}
