/*
 * reduce.cl: device-wide reductions (sum, min, max) in two passes. Pass 1:
 * each block folds its run of consecutive tiles into one value per block;
 * pass 2: one block folds those values. No block waits for another: the
 * host orders the passes.
 *
 * The barrier at the end of each tile is for CPU back-ends: PoCL runs the
 * code between two barriers one work-item after the other, so without it
 * worker 0 would read its part of every tile before worker 1 starts, and
 * the block's reads would stop being contiguous.
 *
 * The order of a float sum is fixed for a given shape, so a sum is the
 * same from run to run.
 *
 * Written once over the element type and the operation, like CLBlast's
 * kernels over `real`: the host builds one program per pair, with
 * -D LSK_T=<type> -D LSK_OP=<op>, whose one kernel is
 * lsk_reduce_<op>_<type> (lsk_reduce_add_float for LSK_T=float,
 * LSK_OP=ADD). The builds (tests/oclgrind_coverage.sh and
 * tests/devicelib.sh read this line; double where the device has fp64):
 * lsk-builds: LSK_T=int,uint,long,ulong,float,double LSK_OP=ADD,MIN,MAX
 */
#if !defined(LSK_T) || !defined(LSK_OP)
#error "kernels/reduce.cl is built per type and operation: -D LSK_T=<type> -D LSK_OP=ADD|MIN|MAX"
#endif

/*
 * The operation, upper case (PoCL's headers #define min and max, so a bare
 * min would not survive a macro's expansion): its part of the kernel's
 * name, the type it folds in (integer sums in the unsigned twin, where
 * wrap-around is defined; min and max in the type itself), its identity,
 * and its scalar and vector forms.
 */
#define LSK__R_NAME LSK__PASTE(LSK__R_NAME_, LSK_OP)
#define LSK__R_NAME_ADD add_
#define LSK__R_NAME_MIN min_
#define LSK__R_NAME_MAX max_
#define LSK__R_ACC LSK__PASTE(LSK__R_ACC_, LSK_OP)
#define LSK__R_ACC_ADD LSK__ADD_T(LSK_T)
#define LSK__R_ACC_MIN LSK_T
#define LSK__R_ACC_MAX LSK_T
#define LSK__R_ID LSK__PASTE(LSK__R_ID_, LSK_OP)
#define LSK__R_ID_ADD 0
#define LSK__R_ID_MIN LSK__MIN_ID(LSK_T)
#define LSK__R_ID_MAX LSK__MAX_ID(LSK_T)
#define LSK__R_OP LSK__PASTE(LSK__R_OP_, LSK_OP)
#define LSK__R_OP_ADD lsk__op_add
#define LSK__R_OP_MIN lsk__op_min
#define LSK__R_OP_MAX lsk__op_max
#define LSK__R_VOP LSK__PASTE(LSK__R_VOP_, LSK_OP)
#define LSK__R_VOP_ADD lsk__op_add
#define LSK__R_VOP_MIN lsk__vmin
#define LSK__R_VOP_MAX lsk__vmax
#define lsk__vmin(a, b) select((a), (b), (b) < (a))
#define lsk__vmax(a, b) select((a), (b), (a) < (b))

/* The accumulator's vectors and the conversions between the types. */
#define LSK__R_ACC8 LSK__PASTE(LSK__R_ACC, 8)
#define LSK__R_ACC4 LSK__PASTE(LSK__R_ACC, 4)
#define LSK__R_ACC2 LSK__PASTE(LSK__R_ACC, 2)
#define LSK__R_AS_ACC LSK__PASTE(as_, LSK__R_ACC)
#define LSK__R_AS_ACC8 LSK__PASTE(as_, LSK__R_ACC8)
#define LSK__R_AS_T LSK__PASTE(as_, LSK_T)

/*
 * The vector path: when each worker's lanes of a step are 8-aligned runs
 * and every step of a full tile is full (the CPU shapes), a worker folds
 * its lanes 8 at a time into an 8-wide accumulator with vload8: on CPUs
 * this is one vector load and one vector add per 8 elements, with no
 * context variable in memory between the tile loop's barriers. Elements of
 * a partial last tile go to a scalar accumulator. Otherwise (GPU shapes),
 * each worker keeps one accumulator per slot, a context variable, so the
 * loop carries no dependency from one index to the next either.
 */
#define LSK__REDUCE_VEC (LSK_SIMD % 8 == 0 && LSK_DOMAIN_SIZE % LSK__STRIDE == 0)

/* lsk_reduce_OP_T(in, base, n, per_block, out, out_index): block b folds
 * in[base + i] for i in tiles [b * per_block, (b + 1) * per_block) of
 * LSK_DOMAIN_SIZE elements, below n, into out[out_index + b]. */
#define LSK__REDUCE_KERNEL LSK__PASTE3(lsk_reduce_, LSK__R_NAME, LSK_T)
LSK_KERNEL void LSK__REDUCE_KERNEL(LSK_CTX, __global const LSK_T *restrict in, uint base, uint n,
                                   uint per_block, __global LSK_T *restrict out, uint out_index)
{
  LSK_BLOCK_SCRATCH(LSK__R_ACC, scratch);
  __global const LSK_T *src = in + base;
  lsk__tiles tiles = lsk__tile_run(n, per_block);
#if LSK__REDUCE_VEC
  LSK__R_ACC8 acc8 = (LSK__R_ACC8)(LSK__R_ID);
  LSK__R_ACC tail = (LSK__R_ACC)(LSK__R_ID);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    __global const LSK_T *tile = src + (size_t)t * LSK_DOMAIN_SIZE;
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;
    for (uint step = 0; step < LSK__STEPS(LSK_DOMAIN_SIZE); ++step) {
      uint i0 = LSK__INDEX(step, 0);
      if (i0 + LSK_SIMD <= left) {
        for (uint k = 0; k < LSK_SIMD; k += 8) {
          LSK__R_ACC8 x = LSK__R_AS_ACC8(vload8(0, tile + i0 + k));
          acc8 = LSK__R_VOP(acc8, x);
        }
      } else {
        for (uint k = 0; k < LSK_SIMD; ++k)
          if (i0 + k < left) {
            LSK__R_ACC x = LSK__R_AS_ACC(tile[i0 + k]);
            tail = LSK__R_OP(tail, x);
          }
      }
    }
    lsk_sync();
  }
  LSK__R_ACC4 h4 = LSK__R_VOP(acc8.lo, acc8.hi);
  LSK__R_ACC2 h2 = LSK__R_VOP(h4.lo, h4.hi);
  LSK__R_ACC h1 = LSK__R_OP(h2.x, h2.y);
  LSK__R_ACC mine = LSK__R_OP(h1, tail);
  LSK__R_ACC r = LSK__PASTE3(lsk_block_reduce_, LSK__R_NAME, LSK__R_ACC)(scratch, mine);
#else
  LSK_VAR(LSK__R_ACC, acc);
  LSK_FOREACH(it) LSK_VAR_AT(acc, it) = (LSK__R_ACC)(LSK__R_ID);
  for (uint t = tiles.first; t < tiles.end; ++t) {
    __global const LSK_T *tile = src + (size_t)t * LSK_DOMAIN_SIZE;
    uint left = t < tiles.full ? LSK_DOMAIN_SIZE : n - t * LSK_DOMAIN_SIZE;
    LSK_FOREACH(it) if (it.idx < left)
    {
      LSK__R_ACC x = LSK__R_AS_ACC(tile[it.idx]);
      LSK_VAR_AT(acc, it) = LSK__R_OP(LSK_VAR_AT(acc, it), x);
    }
    lsk_sync();
  }
  LSK__R_ACC r =
      LSK__PASTE3(lsk_block_reduce_var_, LSK__R_NAME, LSK__R_ACC)(scratch, acc, LSK_DOMAIN_SIZE);
#endif
  LSK_MASTER out[out_index + lsk_block_idx()] = LSK__R_AS_T(r);
}
