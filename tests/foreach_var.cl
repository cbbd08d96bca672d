/*
 * foreach_var.cl: PMacc's lockstep forms in lsk (tests/device/check_foreach_var.c):
 * a ForEach whose result is a context variable (LSK_FOREACH_VAR_N), a
 * context variable with an initial value (LSK_VAR_INIT_N), and ForEach
 * over sizes other than the block domain: 1, D - 1, D, D + 1 and 3 D + 5
 * for the block domain D, each a case c of its own.
 *
 * Per block b and case c, region r = (b * NCASES + c) * stride of the
 * outputs (stride >= 3 D + 5, indices at or past n stay as the host wrote
 * them):
 *   out[r + i]    init(b, c) + fv_mix(i, c) for i < n: the initial value and
 *                 the ForEach's result, added in a third ForEach
 *   where[r + i]  (worker << 16) | slot of index i
 *   execs[r + i]  how often index i ran (a ForEach over a run-time n)
 *   good[b * NCASES + c]   slots that held init(b, c) before the add, over
 *                          all workers: W * LSK_SLOTS(n)
 *   total[b * NCASES + c]  the block sum of the ForEach's result
 * one and zero are 1 and 0 at run time: n * one + zero is the run-time
 * count.
 */
#define NCASES 5

/* The body's value (a helper function: PMacc's functor). */
uint fv_mix(uint i, uint c) { return (i + 1u) * 2654435761u ^ (c << 24); }

#define CASE(c, N)                                                                                 \
  {                                                                                                \
    uint r = (lsk_block_idx() * NCASES + (c)) * stride;                                            \
    LSK_FOREACH_VAR_N(uint, v, it, (N), fv_mix(it.idx, (c)));                                         \
    LSK_VAR_INIT_N(uint, w, (N), 1000u * ((c) + 1u) + lsk_block_idx());                            \
    uint ok = 0;                                                                                   \
    for (uint s = 0; s < LSK_SLOTS(N); ++s)                                                        \
      ok += w[s] == 1000u * ((c) + 1u) + lsk_block_idx();                                          \
    atomic_add(&good[lsk_block_idx() * NCASES + (c)], ok);                                         \
    LSK_FOREACH_N(it, (N)) { LSK_VAR_AT(w, it) += LSK_VAR_AT(v, it); }                             \
    LSK_FOREACH_N(it, (N))                                                                         \
    {                                                                                              \
      out[r + it.idx] = LSK_VAR_AT(w, it);                                                         \
      where[r + it.idx] = (lsk_worker() << 16) | it.slot;                                          \
    }                                                                                              \
    LSK_FOREACH_N(it, (N) * one + zero) { atomic_inc(&execs[r + it.idx]); }                        \
    uint sum = lsk_block_reduce_var_add_uint(scratch, v, (N));                                     \
    LSK_MASTER { total[lsk_block_idx() * NCASES + (c)] = sum; }                                    \
  }

LSK_KERNEL void forms(LSK_CTX, __global uint *out, __global uint *where, __global uint *execs,
                      __global uint *good, __global uint *total, uint stride, uint one, uint zero)
{
  LSK_BLOCK_SCRATCH(uint, scratch);
  CASE(0, 1)
#if LSK_DOMAIN_SIZE > 1
  CASE(1, LSK_DOMAIN_SIZE - 1)
#endif
  CASE(2, LSK_DOMAIN_SIZE)
  CASE(3, LSK_DOMAIN_SIZE + 1)
  CASE(4, 3 * LSK_DOMAIN_SIZE + 5)
}

/* The forms over the block domain, without _N: out[b * D + i] as case 2's. */
LSK_KERNEL void domain_forms(LSK_CTX, __global uint *out)
{
  LSK_FOREACH_VAR(uint, v, it, fv_mix(it.idx, 2u));
  LSK_VAR_INIT(uint, w, 3000u + lsk_block_idx());
  LSK_FOREACH(it) { LSK_VAR_AT(w, it) += LSK_VAR_AT(v, it); }
  LSK_FOREACH(it) { out[lsk_block_idx() * LSK_DOMAIN_SIZE + it.idx] = LSK_VAR_AT(w, it); }
}
