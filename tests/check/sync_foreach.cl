/* lsk_sync() inside a ForEach body (issue 27): refused at line 9. */
LSK_DECLARE_DOMAIN(bump, 256);

LSK_KERNEL void bump(LSK_CTX, __global float *x)
{
  LSK_FOREACH(it)
  {
    x[lsk_block_idx() * LSK_DOMAIN_SIZE + it.idx] += 1.0f;
    lsk_sync();
  }
}
