/* The right place: lsk_sync() after the ForEach, reached by every worker;
 * a ForEach and a master with continue, a nested loop's break, else after
 * master. Passes. */
LSK_DECLARE_DOMAIN(shift, 256);

LSK_KERNEL void shift(LSK_CTX, __global float *x)
{
  __local float s[LSK_DOMAIN_SIZE];
  LSK_FOREACH(it) {
    if (it.idx == 3)
      continue;
    s[it.idx] = x[lsk_block_idx() * LSK_DOMAIN_SIZE + it.idx];
  }
  lsk_sync();
  LSK_FOREACH(it) {
    for (int k = 0; k < 2; ++k)
      if (k == 1) break;
    x[lsk_block_idx() * LSK_DOMAIN_SIZE + it.idx] = s[(it.idx + 1) % LSK_DOMAIN_SIZE];
  }
  LSK_MASTER x[0] = 1.0f;
  else x[1] = 2.0f;
}
