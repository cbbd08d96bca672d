/* grind_soa.cl: every kind of generated SoA accessor, for oclgrind (suite
 * grind_soa). The prelude holds the views of layouts 'parts' (tests/parts.h),
 * 'hc' (two layouts, some members) and 'cplx' (one double2 column).
 * soa_kernels.cl's compute covers the mutable view's getters. */

/* Through the const view's getters into the mutable view's setters, every
 * member kind: columns (double, float, double2, uint), matrices (float 3x3,
 * transposed; double 3x1) and the scalar (block 0's master). */
LSK_KERNEL void copy_all(LSK_CTX, PARTS_CONST_PARAMS(src), PARTS_PARAMS(dst))
{
  parts_const_view x = PARTS_CONST_VIEW(src);
  parts_view y = PARTS_VIEW(dst);
  LSK_BLOCKS(b, (src_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < src_n) {
        parts_set_a(y, i, parts_const_a(x, i) + 1.0);
        parts_set_b(y, i, parts_const_b(x, i) * 2.0f);
        for (uint r = 0; r < 3; ++r)
          for (uint c = 0; c < 3; ++c)
            parts_set_m(y, i, r, c, parts_const_m(x, i, c, r));
        for (uint r = 0; r < 3; ++r)
          parts_set_v(y, i, r, 0, parts_const_v(x, i, r, 0) - 1.0);
        double2 w = parts_const_w(x, i);
        parts_set_w(y, i, (double2)(w.y, w.x));
        parts_set_id(y, i, parts_const_id(x, i) ^ 5u);
        parts_set_out(y, i, parts_const_out(x, i) + parts_const_s(x));
      }
    }
  }
  if (lsk_block_idx() == 0)
    LSK_MASTER parts_set_s(y, parts_const_s(x) * 3.0);
}

/* A view of two layouts: charge = x + y + q(1, 0). */
LSK_KERNEL void merged(LSK_CTX, HC_PARAMS(h))
{
  hc_view v = HC_VIEW(h);
  LSK_BLOCKS(b, (h_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < h_n)
        hc_set_charge(v, i, hc_x(v, i) + hc_y(v, i) + hc_q(v, i, 1, 0));
    }
  }
}

/* The double2 column, one 16-byte element per index: out = re^2 + im^2,
 * and the element swapped in place. (Not re * im: LLVM makes that a
 * shufflevector with an undef lane, on which oclgrind 21.10's uninitialized
 * checker crashes.) */
LSK_KERNEL void cplx_swap(LSK_CTX, CPLX_PARAMS(c), __global double *out)
{
  cplx_view v = CPLX_VIEW(c);
  LSK_BLOCKS(b, (c_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < c_n) {
        double2 z = cplx_z(v, i);
        out[i] = dot(z, z);
        cplx_set_z(v, i, z.yx);
      }
    }
  }
}
