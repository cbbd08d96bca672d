/*
 * block.cl: kernels for tests/device/check_block.c, one program built once per
 * (domain, workers, simd). Block b of the grid works on its own slice of
 * the inputs (lsk_block_idx(), no grid-strided loop: the host launches one
 * block per slice).
 */

/* Which optional parts this build has: fp64, and double atomics. */
LSK_KERNEL void features(LSK_CTX, __global uint *out)
{
  LSK_MASTER
  {
#ifdef LSK_HAS_FP64
    out[0] = 1;
#else
    out[0] = 0;
#endif
#if defined(LSK_HAS_INT64_ATOMICS) && defined(LSK_HAS_FP64)
    out[1] = 1;
#else
    out[1] = 0;
#endif
  }
}

/*
 * Each kernel is compiled for every shape, and PoCL's compile time grows
 * with the barriers: min and max are tested on uint and float only
 * (NOPS = 3), add and bcast on every type (NOPS = 1); outputs of the
 * untested operations stay as the host wrote them.
 *
 * worker_T(in, out): v = in[b*W + w]; out[(b*W + w)*10 + j] for j =
 * 0..2 reduce add, min, max; 3..8 scan add, min, max as (exclusive, total)
 * pairs; 9 bcast.
 */
#define WORKER_KERNEL(T, NOPS)                                                                     \
  LSK_KERNEL void worker_##T(LSK_CTX, __global const T *in, __global T *out)                       \
  {                                                                                                \
    LSK_BLOCK_SCRATCH(T, s);                                                                       \
    uint i = lsk_block_idx() * LSK_WORKERS + lsk_worker();                                         \
    T v = in[i], t;                                                                                \
    __global T *o = out + (size_t)i * 10;                                                          \
    o[0] = lsk_block_reduce_add_##T(s, v);                                                         \
    o[3] = lsk_block_scan_add_##T(s, v, &t);                                                       \
    o[4] = t;                                                                                      \
    o[9] = lsk_block_bcast_##T(s, v);                                                              \
    if (NOPS > 1) {                                                                                \
      o[1] = lsk_block_reduce_min_##T(s, v);                                                       \
      o[2] = lsk_block_reduce_max_##T(s, v);                                                       \
      o[5] = lsk_block_scan_min_##T(s, v, &t);                                                     \
      o[6] = t;                                                                                    \
      o[7] = lsk_block_scan_max_##T(s, v, &t);                                                     \
      o[8] = t;                                                                                    \
    }                                                                                              \
  }

/*
 * var_T(in, out, tot): the block's slice in[b*D + i] as a context variable;
 * tot[b*9 + j] for j = 0..2 reduce_var add, min, max, then the totals of
 * the six scans; out[(b*6 + j)*D + i] for j = 0..5 scan_var add, min, max,
 * each inclusive then exclusive: collectives in uniform branches of a loop.
 */
#define VAR_KERNEL(T, NOPS)                                                                        \
  LSK_KERNEL void var_##T(LSK_CTX, __global const T *in, __global T *out, __global T *tot)         \
  {                                                                                                \
    LSK_BLOCK_SCRATCH(T, s);                                                                       \
    LSK_VAR(T, v);                                                                                 \
    LSK_VAR(T, c);                                                                                 \
    uint b = lsk_block_idx();                                                                      \
    LSK_FOREACH(it) LSK_VAR_AT(v, it) = in[b * LSK_DOMAIN_SIZE + it.idx];                          \
    T r[9];                                                                                        \
    r[0] = lsk_block_reduce_var_add_##T(s, v, LSK_DOMAIN_SIZE);                                    \
    if (NOPS > 1) {                                                                                \
      r[1] = lsk_block_reduce_var_min_##T(s, v, LSK_DOMAIN_SIZE);                                  \
      r[2] = lsk_block_reduce_var_max_##T(s, v, LSK_DOMAIN_SIZE);                                  \
    }                                                                                              \
    for (int j = 0; j < 2 * NOPS; ++j) {                                                           \
      LSK_FOREACH(it) LSK_VAR_AT(c, it) = LSK_VAR_AT(v, it);                                       \
      int incl = (j & 1) == 0;                                                                     \
      if (j < 2)                                                                                   \
        r[3 + j] = lsk_block_scan_var_add_##T(s, c, LSK_DOMAIN_SIZE, incl);                        \
      else if (j < 4)                                                                              \
        r[3 + j] = lsk_block_scan_var_min_##T(s, c, LSK_DOMAIN_SIZE, incl);                        \
      else                                                                                         \
        r[3 + j] = lsk_block_scan_var_max_##T(s, c, LSK_DOMAIN_SIZE, incl);                        \
      __global T *o = out + (size_t)(b * 6 + j) * LSK_DOMAIN_SIZE;                                 \
      LSK_FOREACH(it) o[it.idx] = LSK_VAR_AT(c, it);                                               \
    }                                                                                              \
    LSK_MASTER                                                                                     \
    {                                                                                              \
      for (int j = 0; j < 9; ++j)                                                                  \
        if (NOPS > 1 || j == 0 || j == 3 || j == 4)                                                \
          tot[b * 9 + j] = r[j];                                                                   \
    }                                                                                              \
  }

#define KERNELS(T, NOPS) WORKER_KERNEL(T, NOPS) VAR_KERNEL(T, NOPS)
KERNELS(int, 1)
KERNELS(uint, 3)
KERNELS(long, 1)
KERNELS(ulong, 1)
KERNELS(float, 3)
#ifdef LSK_HAS_FP64
KERNELS(double, 1)
#endif

/*
 * A non-commutative associative operation: affine maps x -> a*x + b over
 * uint (wrapping), as (a, b); then(f, g) is "f, then g", so a fold in
 * domain order is the composition in domain order.
 */
LSK_INLINE uint2 affine_then(uint2 f, uint2 g) { return (uint2)(g.x * f.x, g.x * f.y + g.y); }
LSK_BLOCK_DEFINE(affine, uint2, affine_then, ((uint2)(1u, 0u)))

/* out[(b*W + w)*3 + j]: reduce, exclusive scan, total over the workers. */
LSK_KERNEL void worker_affine(LSK_CTX, __global const uint2 *in, __global uint2 *out)
{
  LSK_BLOCK_SCRATCH(uint2, s);
  uint i = lsk_block_idx() * LSK_WORKERS + lsk_worker();
  uint2 t;
  out[i * 3] = lsk_block_reduce_affine_uint2(s, in[i]);
  out[i * 3 + 1] = lsk_block_scan_affine_uint2(s, in[i], &t);
  out[i * 3 + 2] = t;
}

/* tot[b*3 + j]: reduce_var, the inclusive and the exclusive scan's totals;
 * out[(b*2 + j)*D + i]: the inclusive (j = 0) and exclusive scans. */
LSK_KERNEL void var_affine(LSK_CTX, __global const uint2 *in, __global uint2 *out,
                           __global uint2 *tot)
{
  LSK_BLOCK_SCRATCH(uint2, s);
  LSK_VAR(uint2, v);
  LSK_VAR(uint2, c);
  uint b = lsk_block_idx();
  LSK_FOREACH(it) LSK_VAR_AT(v, it) = in[b * LSK_DOMAIN_SIZE + it.idx];
  uint2 r[3];
  r[0] = lsk_block_reduce_var_affine_uint2(s, v, LSK_DOMAIN_SIZE);
  for (int j = 0; j < 2; ++j) {
    LSK_FOREACH(it) LSK_VAR_AT(c, it) = LSK_VAR_AT(v, it);
    r[1 + j] = lsk_block_scan_var_affine_uint2(s, c, LSK_DOMAIN_SIZE, j == 0);
    LSK_FOREACH(it) out[(b * 2 + j) * LSK_DOMAIN_SIZE + it.idx] = LSK_VAR_AT(c, it);
  }
  LSK_MASTER
  {
    for (int j = 0; j < 3; ++j)
      tot[b * 3 + j] = r[j];
  }
}

/* out[(b*W + w)*3 + j]: count, any, all of pred = in[b*W + w] != 0. */
LSK_KERNEL void preds(LSK_CTX, __global const uint *in, __global uint *out)
{
  LSK_BLOCK_SCRATCH(uint, s);
  uint i = lsk_block_idx() * LSK_WORKERS + lsk_worker();
  int p = in[i] != 0;
  out[i * 3] = lsk_block_count(s, p);
  out[i * 3 + 1] = (uint)lsk_block_any(s, p);
  out[i * 3 + 2] = (uint)lsk_block_all(s, p);
}

/*
 * append_block / append_each(req, count, items, hits, cap): worker w of
 * block b appends req[b*W + w] items, item j being (b*W + w) << 8 | j,
 * into items[0, cap) with lsk_block_append, or one lsk_append per item;
 * hits[slot] counts the stores into each slot.
 */
LSK_KERNEL void append_block(LSK_CTX, __global const uint *req, __global uint *count,
                             __global uint *items, __global uint *hits, uint cap)
{
  LSK_BLOCK_SCRATCH(uint, s);
  uint i = lsk_block_idx() * LSK_WORKERS + lsk_worker();
  uint n = req[i];
  uint slot = lsk_block_append(s, count, n);
  for (uint j = 0; j < n; ++j)
    if (slot + j < cap) {
      items[slot + j] = i << 8 | j;
      atomic_inc(&hits[slot + j]);
    }
}

LSK_KERNEL void append_each(LSK_CTX, __global const uint *req, __global uint *count,
                            __global uint *items, __global uint *hits, uint cap)
{
  uint i = lsk_block_idx() * LSK_WORKERS + lsk_worker();
  for (uint j = 0; j < req[i]; ++j) {
    uint slot = lsk_append(count);
    if (slot < cap) {
      items[slot] = i << 8 | j;
      atomic_inc(&hits[slot]);
    }
  }
}

/*
 * atomics_float(in, g, blk, ret): worker w of block b applies its M values
 * in[(b*W + w)*M + j] to g[0..2] (add, min, max, global) and to the block's
 * local add, min, max, which the master stores in blk[b*3 + 0..2]; and adds
 * 1 to g[3] M times, keeping what each add returned in ret.
 */
#define ATOMICS_M 4
LSK_KERNEL void atomics_float(LSK_CTX, __global const float *in, __global float *g,
                              __global float *blk, __global float *ret)
{
  LSK_SHARED(float, l, 3);
  uint b = lsk_block_idx(), i = b * LSK_WORKERS + lsk_worker();
  LSK_MASTER
  {
    l[0] = 0.0f;
    l[1] = INFINITY;
    l[2] = -INFINITY;
  }
  lsk_sync();
  for (uint j = 0; j < ATOMICS_M; ++j) {
    float x = in[i * ATOMICS_M + j];
    lsk_atomic_add_float(&g[0], x);
    lsk_atomic_min_float(&g[1], x);
    lsk_atomic_max_float(&g[2], x);
    lsk_atomic_add_float_local(&l[0], x);
    lsk_atomic_min_float_local(&l[1], x);
    lsk_atomic_max_float_local(&l[2], x);
    ret[i * ATOMICS_M + j] = lsk_atomic_add_float(&g[3], 1.0f);
  }
  lsk_sync();
  LSK_MASTER
  {
    for (int j = 0; j < 3; ++j)
      blk[b * 3 + j] = l[j];
  }
}

/* The same on doubles, global only (there are no local double atomics). */
#if defined(LSK_HAS_INT64_ATOMICS) && defined(LSK_HAS_FP64)
LSK_KERNEL void atomics_double(LSK_CTX, __global const double *in, __global double *g,
                               __global double *ret)
{
  uint i = lsk_block_idx() * LSK_WORKERS + lsk_worker();
  for (uint j = 0; j < ATOMICS_M; ++j) {
    double x = in[i * ATOMICS_M + j];
    lsk_atomic_add_double(&g[0], x);
    lsk_atomic_min_double(&g[1], x);
    lsk_atomic_max_double(&g[2], x);
    ret[i * ATOMICS_M + j] = lsk_atomic_add_double(&g[3], 1.0);
  }
}
#endif
