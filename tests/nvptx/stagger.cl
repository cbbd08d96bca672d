/* stagger.cl: the accessors of a staggered layout (the prelude: --layout
 * tests/nvptx/stagger.layout) through PTX, as tests/nvptx/recipes builds
 * it: a double2 column, a matrix (whose stride includes the stagger), a
 * scalar, const and mutable views. The same kinds run on PoCL and under
 * oclgrind in tests/soa/check_stagger.c. */
LSK_KERNEL void stag_use(LSK_CTX, STAG_CONST_PARAMS(src), STAG_PARAMS(dst))
{
  stag_const_view x = STAG_CONST_VIEW(src);
  stag_view y = STAG_VIEW(dst);
  LSK_BLOCKS(b, (src_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < src_n) {
        double2 z = stag_const_z(x, i);
        stag_set_z(y, i, z.yx);
        for (uint r = 0; r < 3; ++r)
          for (uint c = 0; c < 3; ++c)
            stag_set_m(y, i, r, c, stag_const_m(x, i, c, r));
        stag_set_out(y, i, (float)(z.x * stag_const_s(x)) + stag_const_out(x, i));
      }
    }
  }
}
