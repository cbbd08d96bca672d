/* scale.cl: the kernel of the README, in a file of its own for `lsk check`:
 *   lsk check docs/examples/scale.cl --domain 1024
 * (the README launches it with domain 1024; it declares none). */
LSK_KERNEL void scale(LSK_CTX, __global float *x, float a, uint n)
{
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    uint base = b * LSK_DOMAIN_SIZE;
    LSK_FOREACH_N(it, lsk_domain_count(base, n)) x[base + it.idx] *= a;
  }
}
