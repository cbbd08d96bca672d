/* soa_kernels.cl: lockstep kernels over generated SoA views (the prelude
 * holds the code generated for layout 'parts'). */

/* out = a*b + m(0,2) - m(2,0) + v(1)*w.x + w.y*s + id; and m(1,1) = i. */
LSK_KERNEL void compute(LSK_CTX, PARTS_PARAMS(p))
{
  parts_view v = PARTS_VIEW(p);
  LSK_BLOCKS(b, (p_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < p_n) {
        double2 w = parts_w(v, i);
        double r = parts_a(v, i) * parts_b(v, i) + (parts_m(v, i, 0, 2) - parts_m(v, i, 2, 0)) +
                   parts_v(v, i, 1, 0) * w.x + w.y * parts_s(v) + (double)parts_id(v, i);
        parts_set_out(v, i, r);
        parts_set_m(v, i, 1, 1, (float)i);
      }
    }
  }
}

/* Reads through the const view only. */
LSK_KERNEL void sum_a(LSK_CTX, PARTS_CONST_PARAMS(p), __global double *total)
{
  parts_const_view v = PARTS_CONST_VIEW(p);
  LSK_MASTER {
    double s = 0;
    for (uint i = 0; i < p_n; ++i)
      s += parts_const_a(v, i);
    total[0] = s;
  }
}

/* Out-of-range accesses (with -DPARTS_CHECK=1 they must not happen). */
LSK_KERNEL void out_of_range(LSK_CTX, PARTS_PARAMS(p), int bad, __global double *got)
{
  parts_view v = PARTS_VIEW(p);
  LSK_MASTER {
    got[0] = parts_a(v, (uint)bad);
    parts_set_b(v, (uint)bad, 99.0f);
    parts_set_v(v, 0, (uint)bad, 0, 7.0);
  }
}
