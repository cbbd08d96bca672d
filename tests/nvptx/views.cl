/*
 * views.cl: kernels over views made with lsk_view_* (CMSSW's views), for
 * the ctest label nvptx: a view joining two layouts (vj: hits' x and y,
 * clus' q and charge renamed e), a subset of it read through its const form
 * (vs: px and charge), and an enforced view (va, alignment 128: cplx's z
 * and clus' charge), whose constructor checks each column's address and
 * lets clang assume the alignment, and vr, the same view relaxed. In the
 * PTX, enforced_pairs reads each pair of doubles with one
 * ld.global.v2.f64 (the alignment is known), relaxed_pairs with two
 * ld.global.f64. Their generated code is
 * tests/nvptx/views_generated.h (tests/soa/check_soa_views.c keeps it
 * current); tests/nvptx/views.recipes builds it.
 */

LSK_KERNEL void join_sum(LSK_CTX, VJ_PARAMS(p))
{
  vj_view v = VJ_VIEW(p);
  LSK_BLOCKS(b, (p_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    uint base = b * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, lsk_domain_count(base, p_n)) {
      uint i = base + it.idx;
      vj_set_e(v, i, (double)(vj_x(v, i) + vj_y(v, i) + vj_q(v, i, 1, 0)));
    }
  }
}

LSK_KERNEL void subset_read(LSK_CTX, VS_CONST_PARAMS(p), __global double *out)
{
  vs_const_view v = VS_CONST_VIEW(p);
  LSK_BLOCKS(b, (p_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    uint base = b * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, lsk_domain_count(base, p_n)) {
      uint i = base + it.idx;
      out[i] = vs_const_charge(v, i) * (double)vs_const_px(v, i);
    }
  }
}

/* Pairs of the double column e into the double2 column z. */
LSK_KERNEL void enforced_pairs(LSK_CTX, VA_PARAMS(p))
{
  va_view v = VA_VIEW(p);
  uint npairs = p_n / 2;
  LSK_BLOCKS(b, (npairs + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    uint base = b * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, lsk_domain_count(base, npairs)) {
      uint i = base + it.idx;
      double x = va_e(v, 2 * i), y = va_e(v, 2 * i + 1);
      va_set_z(v, i, (double2)(x + y, x - y));
    }
  }
}

/* The same over the relaxed view: nothing known past 8 bytes. */
LSK_KERNEL void relaxed_pairs(LSK_CTX, VR_PARAMS(p))
{
  vr_view v = VR_VIEW(p);
  uint npairs = p_n / 2;
  LSK_BLOCKS(b, (npairs + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    uint base = b * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, lsk_domain_count(base, npairs)) {
      uint i = base + it.idx;
      double x = vr_e(v, 2 * i), y = vr_e(v, 2 * i + 1);
      vr_set_z(v, i, (double2)(x + y, x - y));
    }
  }
}
