/* double2.cl: the 16-byte access in the PTX (tests/nvptx.sh): a double2
 * column of an SoA view (the prelude: --layout tests/nvptx/cplx.layout)
 * loads as one ld.global.v2.f64; a struct of two doubles aligned to 8 as
 * two ld.global.f64. The same kernels as test_soa_double2_loads_16_bytes
 * (tests/soa/check_soa.c) reads in PoCL's LLVM IR. */
typedef struct __attribute__((aligned(8))) {
  double re, im;
} cplx8;

LSK_KERNEL void soa_load(LSK_CTX, CPLX_CONST_PARAMS(c), __global double *out)
{
  cplx_const_view v = CPLX_CONST_VIEW(c);
  LSK_FOREACH(it)
  {
    double2 z = cplx_const_z(v, it.idx);
    out[it.idx] = z.x * z.y;
  }
}

LSK_KERNEL void aos_load(LSK_CTX, __global const cplx8 *in, __global double *out)
{
  LSK_FOREACH(it)
  {
    cplx8 z = in[it.idx];
    out[it.idx] = z.re * z.im;
  }
}
