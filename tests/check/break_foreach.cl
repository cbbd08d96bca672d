/* A break directly in a ForEach body (it leaves the worker's loop, not the
 * body): refused at line 10; one inside a loop of the body's own (line 12)
 * is fine. */
LSK_DECLARE_DOMAIN(stop, 256);

LSK_KERNEL void stop(LSK_CTX, __global float *x)
{
  LSK_FOREACH(it) {
    if (x[it.idx] < 0.0f)
      break;
    for (int k = 0; k < 4; ++k)
      if (x[k] > 1.0f) break;
    x[it.idx] += 1.0f;
  }
}
