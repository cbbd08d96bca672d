/* A raw barrier() inside a ForEach body: refused at line 8. */
LSK_DECLARE_DOMAIN(bump, 256);

LSK_KERNEL void bump(LSK_CTX, __global float *x)
{
  LSK_FOREACH_N(it, 200) {
    x[it.idx] += 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
