/* A barrier under a condition on the worker, outside any ForEach: the
 * workers at or above 2 never reach it; `lsk check` flags line 8. */
LSK_DECLARE_DOMAIN(part, 256);

LSK_KERNEL void part(LSK_CTX, __global float *x)
{
  if (lsk_worker() < 2)
    lsk_sync();
  LSK_FOREACH(it) { x[it.idx] += 1.0f; }
}
