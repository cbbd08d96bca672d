/* A helper of the source's own that holds a barrier (LSK_COLLECTIVE, and
 * one more that calls it), called inside a ForEach body: refused at line
 * 20; the compiler alone cannot see it. */
LSK_DECLARE_DOMAIN(smooth, 256);

LSK_COLLECTIVE float exchange(__local float *s, float v)
{
  s[lsk_worker()] = v;
  lsk_sync_local();
  return s[(lsk_worker() + 1) % LSK_WORKERS];
}

float neighbour(__local float *s, float v) { return exchange(s, v); }

LSK_KERNEL void smooth(LSK_CTX, __global float *x)
{
  __local float s[LSK_WORKERS];
  LSK_FOREACH(it) {
    float v = x[it.idx];
    x[it.idx] = 0.5f * (v + neighbour(s, v));
  }
}
