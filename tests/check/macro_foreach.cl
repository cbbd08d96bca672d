/* lsk_sync() inside a ForEach body, behind a macro of the file's own: the
 * reading of the text does not see it, the device library's guard does:
 * the compiler's error names line 10. */
#define STEP() lsk_sync()
LSK_DECLARE_DOMAIN(bump, 256);

LSK_KERNEL void bump(LSK_CTX, __global float *x)
{
  LSK_FOREACH(it) {
    STEP();
    x[it.idx] += 1.0f;
  }
}
