/* study.cl: the Kokkos alignment study's kernel, c[i] = a[i] * b[i] + d[i]
 * over complex doubles (three loads, one store per element; 1024 of them
 * in blocks of 256), in four forms whose sm_90 SASS tests/nvptx.sh counts:
 *   soa16: a generated SoA view (--layout tests/nvptx/cplx.layout), its
 *          double2 column (16 bytes, aligned to 16): one LDG.E.128 per
 *          load, one STG.E.128 for the store;
 *   soa8:  the same view's columns read and written through cplx8, a
 *          struct that promises 8 bytes only (lsk's layouts refuse a
 *          double2 column in a layout aligned to 8, so this is how an
 *          8-aligned complex reaches such memory): two LDG.E.64 per load,
 *          two STG.E.64;
 *   aos16: plain arrays of struct {double re, im;} aligned to 16: 128-bit;
 *   aos8:  the same struct aligned to 8: 64-bit.
 * tests/nvptx/study.cu is the study's CUDA form, for nvcc. */
typedef struct __attribute__((aligned(16))) {
  double re, im;
} cplx16;
typedef struct __attribute__((aligned(8))) {
  double re, im;
} cplx8;

#define STUDY_N 1024u

/* x * y + z, written out as the CUDA form writes it. */
#define STUDY_FMA(r, x, y, z)                                                                      \
  do {                                                                                             \
    (r).re = (x).re * (y).re - (x).im * (y).im + (z).re;                                           \
    (r).im = (x).re * (y).im + (x).im * (y).re + (z).im;                                           \
  } while (0)

/* The elements: blocks of the domain over STUDY_N. */
#define STUDY_EACH(i)                                                                              \
  LSK_BLOCKS(lsk__b, (STUDY_N + LSK_DOMAIN_SIZE - 1u) / LSK_DOMAIN_SIZE)                           \
  LSK_FOREACH(lsk__it)                                                                             \
  for (uint i = lsk__b * LSK_DOMAIN_SIZE + lsk__it.idx; i < STUDY_N; i = STUDY_N)

LSK_KERNEL void soa16(LSK_CTX, CPLX_CONST_PARAMS(a), CPLX_CONST_PARAMS(b), CPLX_CONST_PARAMS(d),
                      CPLX_PARAMS(c))
{
  cplx_const_view va = CPLX_CONST_VIEW(a), vb = CPLX_CONST_VIEW(b), vd = CPLX_CONST_VIEW(d);
  cplx_view vc = CPLX_VIEW(c);
  STUDY_EACH(i)
  {
    double2 x = cplx_const_z(va, i), y = cplx_const_z(vb, i), z = cplx_const_z(vd, i), r;
    r.x = x.x * y.x - x.y * y.y + z.x;
    r.y = x.x * y.y + x.y * y.x + z.y;
    cplx_set_z(vc, i, r);
  }
}

LSK_KERNEL void soa8(LSK_CTX, CPLX_CONST_PARAMS(a), CPLX_CONST_PARAMS(b), CPLX_CONST_PARAMS(d),
                     CPLX_PARAMS(c))
{
  cplx_const_view va = CPLX_CONST_VIEW(a), vb = CPLX_CONST_VIEW(b), vd = CPLX_CONST_VIEW(d);
  cplx_view vc = CPLX_VIEW(c);
  __global const cplx8 *pa = (__global const cplx8 *)va.z, *pb = (__global const cplx8 *)vb.z,
                       *pd = (__global const cplx8 *)vd.z;
  __global cplx8 *pc = (__global cplx8 *)vc.z;
  STUDY_EACH(i)
  {
    cplx8 x = pa[i], y = pb[i], z = pd[i], r;
    STUDY_FMA(r, x, y, z);
    pc[i] = r;
  }
}

LSK_KERNEL void aos16(LSK_CTX, __global const cplx16 *restrict a, __global const cplx16 *restrict b,
                      __global const cplx16 *restrict d, __global cplx16 *restrict c)
{
  STUDY_EACH(i)
  {
    cplx16 x = a[i], y = b[i], z = d[i], r;
    STUDY_FMA(r, x, y, z);
    c[i] = r;
  }
}

LSK_KERNEL void aos8(LSK_CTX, __global const cplx8 *restrict a, __global const cplx8 *restrict b,
                     __global const cplx8 *restrict d, __global cplx8 *restrict c)
{
  STUDY_EACH(i)
  {
    cplx8 x = a[i], y = b[i], z = d[i], r;
    STUDY_FMA(r, x, y, z);
    c[i] = r;
  }
}
