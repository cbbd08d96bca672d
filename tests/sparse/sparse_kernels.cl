/*
 * sparse_kernels.cl: test kernels for sparse structures
 * (tests/sparse/check_sparse*.c). Every structure of the tests is called
 * `sp` with a leaf field `x` of type SP_T; the prelude is the structure's
 * generated OpenCL C (lsk_sparse_source) and the adapter that
 * tests/sparse/sparse_fixture.c writes from the same definition:
 *   SP_AT(c)         the structure's coordinates from uint c[3]
 *   SP_AT_LIST(c)    the same without a dynamic leaf's axis
 *   sp_lv_activate, sp_lv_deactivate, sp_lv_is_active (sp, level, c):
 *                    the level's generated function, level by index
 *   sp_append, sp_length (sp, c ...): the dynamic leaf's
 *   SP_FOR_LV, SP_FOREACH_LV, SP_LV_POS, SP_LV_LEAF: the struct-for of the
 *                    level the program was built for
 * Points are 3 uints each (unused axes 0); item i of a kernel works on
 * point i, items spread over LSK_BLOCKS' blocks so that many work-groups
 * act at once.
 */

#define SP_POINT(c, pts, i) uint c[3] = {pts[3 * (i)], pts[3 * (i) + 1], pts[3 * (i) + 2]}
#define SP_ITEMS(n, i)                                                                             \
  LSK_BLOCKS(b_, ((n) + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)                                   \
  LSK_FOREACH(it_)                                                                                 \
  for (uint i = b_ * LSK_DOMAIN_SIZE + it_.idx; i < (n); i = (n))

/* ok[i] = sp_x_set(point i, vals[i]): 1, or 0 when a pool ran out. */
LSK_KERNEL void sp_set(LSK_CTX, SP_PARAMS, __global const uint *pts, __global const SP_T *vals,
                       uint n, __global int *ok)
{
  SP_VIEW(s);
  SP_ITEMS(n, i)
  {
    SP_POINT(c, pts, i);
    ok[i] = sp_x_set(s, SP_AT(c), vals[i]);
  }
}

/* sp_set behind a starting gate: each work-group counts itself in *gate
 * and waits (a bounded spin: no group ever waits forever for one that
 * has not started) until `groups` have, so that the groups' first writes
 * happen at once, racing for the same blocks (tests of contested
 * installs). */
LSK_KERNEL void sp_set_gate(LSK_CTX, SP_PARAMS, __global const uint *pts,
                            __global const SP_T *vals, uint n, __global int *ok,
                            __global uint *gate, uint groups)
{
  SP_VIEW(s);
  LSK_MASTER { atomic_inc(gate); }
  for (uint spins = 0; spins < (1u << 22) && atomic_add(gate, 0u) < groups; ++spins)
    ;
  lsk_sync();
  SP_ITEMS(n, i)
  {
    SP_POINT(c, pts, i);
    ok[i] = sp_x_set(s, SP_AT(c), vals[i]);
  }
}

/* The root's link q set to value, its old value in *old: the root node
 * is a pointer node whose links start the root array (a white-box test
 * of lookups that meet a claim, which otherwise lasts a few instructions
 * of a racing activation). */
LSK_KERNEL void sp_poke(LSK_CTX, SP_PARAMS, uint q, uint value, __global uint *old)
{
  SP_VIEW(s);
  SP_ITEMS(1u, i)
  {
    *old = s.root[q];
    s.root[q] = value;
  }
}

/* n blocks taken from the structure's pool p and kept: the blocks that
 * install races hold (a claimer descheduled between taking a block and
 * installing it), never installed. */
LSK_KERNEL void sp_hold(LSK_CTX, SP_PARAMS, uint p, uint n)
{
  SP_VIEW(s);
  SP_ITEMS(n, i) { (void)lsk_pool_alloc(s.pool[p]); }
}

/* out[i] = sp_x_get(point i): the ambient zero where inactive. */
LSK_KERNEL void sp_get(LSK_CTX, SP_PARAMS, __global const uint *pts, uint n, __global SP_T *out)
{
  SP_VIEW(s);
  SP_ITEMS(n, i)
  {
    SP_POINT(c, pts, i);
    out[i] = sp_x_get(s, SP_AT(c));
  }
}

/* Adds vals[i] to the cell of point i through sp_x_ref (an atomic add on
 * the reference it activates; ok[i] 0 when a pool ran out). */
LSK_KERNEL void sp_add(LSK_CTX, SP_PARAMS, __global const uint *pts, __global const SP_T *vals,
                       uint n, __global int *ok)
{
  SP_VIEW(s);
  SP_ITEMS(n, i)
  {
    SP_POINT(c, pts, i);
    __global SP_T *r = sp_x_ref(s, SP_AT(c));
    ok[i] = r != 0;
    if (r)
      atomic_add(r, vals[i]);
  }
}

/* op 0: res[i] = activate (1, or 0 when a pool ran out); op 1:
 * deactivate (res[i] = 1); op 2: res[i] = is_active; op 3: res[i] =
 * whether sp_x_ptr is NULL (1: NULL), which never activates. */
LSK_KERNEL void sp_level(LSK_CTX, SP_PARAMS, __global const uint *pts, uint n, uint lv, uint op,
                         __global int *res)
{
  SP_VIEW(s);
  SP_ITEMS(n, i)
  {
    SP_POINT(c, pts, i);
    if (op == 0)
      res[i] = sp_lv_activate(s, lv, c);
    else if (op == 1) {
      sp_lv_deactivate(s, lv, c);
      res[i] = 1;
    } else if (op == 2)
      res[i] = sp_lv_is_active(s, lv, c);
    else
      res[i] = sp_x_ptr(s, SP_AT(c)) == 0;
  }
}

#ifdef SP_AT_LIST
/* idx[i] = the index of the element point i's list appended (vals[i]), or
 * LSK_SPARSE_NONE. */
LSK_KERNEL void sp_append_k(LSK_CTX, SP_PARAMS, __global const uint *pts, __global const SP_T *vals,
                            uint n, __global uint *idx)
{
  SP_VIEW(s);
  SP_ITEMS(n, i)
  {
    SP_POINT(c, pts, i);
    idx[i] = sp_append(s, c, vals[i]);
  }
}

/* len[i] = the length of point i's list. */
LSK_KERNEL void sp_length_k(LSK_CTX, SP_PARAMS, __global const uint *pts, uint n,
                            __global uint *len)
{
  SP_VIEW(s);
  SP_ITEMS(n, i)
  {
    SP_POINT(c, pts, i);
    len[i] = sp_length(s, c);
  }
}
#endif

#ifdef SP_FOR_LV
/* The struct-for over the program's level: each visit counts one hit at
 * the visited cell's position (hits: dense over the index space, extents
 * ex x ey x ...) and, at the leaf, adds 1 to the cell's field through
 * sp_x_cell; the visits per block are summed with a block collective and
 * added to *visits by the block's master. */
LSK_KERNEL void sp_for(LSK_CTX, SP_PARAMS, __global uint *hits, uint ex, uint ey,
                       __global uint *visits)
{
  LSK_BLOCK_SCRATCH(uint, scratch);
  SP_VIEW(s);
  SP_FOR_LV(s, b)
  {
    uint mine = 0;
    SP_FOREACH_LV(it, s, b)
    {
      uint3 p = SP_LV_POS(b, it);
      atomic_inc(hits + p.x + ex * (p.y + ey * p.z));
#if SP_LV_LEAF
      atomic_inc(sp_x_cell(s, b, it));
#endif
      ++mine;
    }
    uint sum = lsk_block_reduce_add_uint(scratch, mine);
    LSK_MASTER { atomic_add(visits, sum); }
  }
}
#endif
