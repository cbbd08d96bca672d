/* triad.cl: the bench's SoA triad and its struct-of-three form (the
 * source text of bench/soa.c, a = b + s * c), for the SASS counts of
 * tests/nvptx.sh: each double column is one 8-byte LDG.E.64 or STG.E.64
 * (prelude: --layout tests/nvptx/tri.layout). */
typedef struct tri_aos {
  double a, b, c;
} tri_aos;

LSK_KERNEL void soa_triad(LSK_CTX, TRI_PARAMS(t), double s)
{
  tri_view v = TRI_VIEW(t);
  LSK_BLOCKS(blk, (t_n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint i = blk * LSK_DOMAIN_SIZE + it.idx;
      if (i < t_n)
        tri_set_a(v, i, tri_b(v, i) + s * tri_c(v, i));
    }
  }
}

LSK_KERNEL void aos_triad(LSK_CTX, __global tri_aos *restrict p, double s, uint n)
{
  LSK_BLOCKS(blk, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint i = blk * LSK_DOMAIN_SIZE + it.idx;
      if (i < n)
        p[i].a = p[i].b + s * p[i].c;
    }
  }
}
