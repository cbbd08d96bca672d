/*
 * lsk_block_t.h: the four collectives of one operation on one type, the
 * text that every operation's collectives share (lsk_block.h documents
 * them). A template: no include guard; the includer defines
 *   LSK__BT        the type (one token: uint2, or a typedef'd struct)
 *   LSK__BSUFFIX   the functions' names end in _SUFFIX: min_int, one
 *                  token (pasted before it reaches this file: PoCL's
 *                  headers #define min and max, so a bare min would not
 *                  survive the expansion of a macro's argument)
 *   LSK__BOP       the operation: a function or a function-like macro
 *   LSK__BID       its identity, an expression of type LSK__BT
 *   LSK__BCOMMUTES 1 if it commutes (below), else 0
 *   LSK__BENTRY    1 to apply it to the identity and each worker's value on
 *                  entry (below), else 0
 * and this file #undefs them at its end. lsk_block_ops_t.h includes it for
 * the built-in operations of each type; cmake/embed.cmake puts its text in
 * the device library at every #include, behind a #line marker, so a
 * compiler names this file's own lines. LSK_BLOCK_DEFINE, the users' form,
 * is the same text as one macro: cl/lsk_block_define.h, generated from the
 * lines between the two BODY markers below by cmake/block_define.cmake.
 * Those lines are valid in a macro, so: no preprocessor lines, no //
 * comments, and every parameter spelled out (LSK__BFN names a function
 * from its arguments, not from the parameters' definitions).
 *
 * COMMUTES lets reduce_var fold each worker's slots of all steps first,
 * into eight partial results (slot k into k mod 8, then a pairwise tree:
 * independent chains a CPU runs in vector lanes, not one chain of
 * dependent adds), and combine the workers once; otherwise it combines the workers step by
 * step, which keeps domain order. ENTRY (the built-in min and max) makes
 * each worker's value OP(ID, v) on entry to the worker-level reduce and
 * scan: for floats a NaN becomes the identity there, as it does in the
 * domain-level ones, whose folds start from it. (For integers, and any op
 * with a true identity, it changes nothing.)
 */
/* LSK__BLOCK_BODY begin */
/* Pairwise tree, double-buffered: round r combines neighbours (2w, 2w+1)
 * into w, so the order is kept and the active workers stay contiguous;
 * ceil(log2 W) rounds, one barrier each. */
LSK_COLLECTIVE LSK__BT LSK__BFN(reduce, LSK__BSUFFIX)(__local LSK__BT *s, LSK__BT v)
{
  uint w = lsk_worker();
  __local LSK__BT *a = s, *b = s + LSK_WORKERS, *t;
  if (LSK__BENTRY) {
    LSK__BT id_ = LSK__BID;
    v = LSK__BOP(id_, v);
  }
  a[w] = v;
  lsk_sync_local();
  for (uint m = LSK_WORKERS; m > 1; m = (m + 1) / 2) {
    if (w < m / 2)
      b[w] = LSK__BOP(a[2 * w], a[2 * w + 1]);
    else if (2 * w + 1 == m)
      b[w] = a[2 * w];
    lsk_sync_local();
    t = a;
    a = b;
    b = t;
  }
  LSK__BT r = a[0];
  lsk_sync_local();
  return r;
}
/* Hillis-Steele over the workers, double-buffered: one barrier a round. */
LSK_COLLECTIVE LSK__BT LSK__BFN(scan, LSK__BSUFFIX)(__local LSK__BT *s, LSK__BT v, LSK__BT *total)
{
  uint w = lsk_worker();
  __local LSK__BT *a = s, *b = s + LSK_WORKERS, *t;
  if (LSK__BENTRY) {
    LSK__BT id_ = LSK__BID;
    v = LSK__BOP(id_, v);
  }
  a[w] = v;
  lsk_sync_local();
  for (uint d = 1; d < LSK_WORKERS; d <<= 1) {
    LSK__BT x = a[w];
    if (w >= d)
      x = LSK__BOP(a[w - d], x);
    b[w] = x;
    lsk_sync_local();
    t = a;
    a = b;
    b = t;
  }
  LSK__BT excl = LSK__BID;
  if (w)
    excl = a[w - 1];
  LSK__BT tot = a[LSK_WORKERS - 1];
  lsk_sync_local();
  if (total)
    *total = tot;
  return excl;
}
LSK_COLLECTIVE LSK__BT LSK__BFN(reduce_var, LSK__BSUFFIX)(__local LSK__BT *s, LSK__BT *var, uint n)
{
  LSK__BT carry = LSK__BID;
  if (LSK__BCOMMUTES) {
    LSK__BT acc[8];
    for (uint j = 0; j < 8u; ++j)
      acc[j] = LSK__BID;
    for (uint step = 0; step < LSK__STEPS(n); ++step)
      for (uint k0 = 0; k0 < LSK_SIMD; k0 += 8u)
        for (uint j = 0; j < 8u; ++j)
          if (k0 + j < LSK_SIMD && LSK__IN(step, k0 + j, n))
            acc[j] = LSK__BOP(acc[j], var[LSK__SLOT(step, k0 + j)]);
    for (uint h = 4; h > 0; h /= 2)
      for (uint j = 0; j < h; ++j)
        acc[j] = LSK__BOP(acc[j], acc[j + h]);
    return LSK__BFN(reduce, LSK__BSUFFIX)(s, acc[0]);
  }
  if (LSK__STEPS(n) <= 1) {
    for (uint step = 0; step < LSK__STEPS(n); ++step)
      for (uint k = 0; k < LSK_SIMD; ++k)
        if (LSK__IN(step, k, n))
          carry = LSK__BOP(carry, var[LSK__SLOT(step, k)]);
    return LSK__BFN(reduce, LSK__BSUFFIX)(s, carry);
  }
  for (uint step = 0; step < LSK__STEPS(n); ++step) {
    LSK__BT run = LSK__BID;
    for (uint k = 0; k < LSK_SIMD; ++k)
      if (LSK__IN(step, k, n))
        run = LSK__BOP(run, var[LSK__SLOT(step, k)]);
    LSK__BT all = LSK__BFN(reduce, LSK__BSUFFIX)(s, run);
    carry = LSK__BOP(carry, all);
  }
  return carry;
}
/* Per step: each worker scans its simd lanes, the block scans the
 * workers' sums, and a carry runs from step to step. At least one step,
 * n = 0 too (a scan of identities): where W * simd covers the whole
 * domain, steps is 0 or 1, LLVM turned the loop into a branch around the
 * barriers, and PoCL 3.1 then ran code after the call twice for some
 * work-items (tests/device/check_block.c, scan_var_one_step_rounds). */
LSK_COLLECTIVE LSK__BT LSK__BFN(scan_var, LSK__BSUFFIX)(__local LSK__BT *s, LSK__BT *var, uint n,
                                                        int inclusive)
{
  LSK__BT carry = LSK__BID;
  for (uint step = 0; step < max(LSK__STEPS(n), 1u); ++step) {
    LSK__BT run = LSK__BID;
    for (uint k = 0; k < LSK_SIMD; ++k)
      if (LSK__IN(step, k, n)) {
        LSK__BT x = var[LSK__SLOT(step, k)];
        LSK__BT next = LSK__BOP(run, x);
        var[LSK__SLOT(step, k)] = inclusive ? next : run;
        run = next;
      }
    LSK__BT tot;
    LSK__BT pre = LSK__BFN(scan, LSK__BSUFFIX)(s, run, &tot);
    pre = LSK__BOP(carry, pre);
    for (uint k = 0; k < LSK_SIMD; ++k)
      if (LSK__IN(step, k, n))
        var[LSK__SLOT(step, k)] = LSK__BOP(pre, var[LSK__SLOT(step, k)]);
    carry = LSK__BOP(carry, tot);
  }
  return carry;
}
/* LSK__BLOCK_BODY end */
#undef LSK__BT
#undef LSK__BSUFFIX
#undef LSK__BOP
#undef LSK__BID
#undef LSK__BCOMMUTES
#undef LSK__BENTRY
