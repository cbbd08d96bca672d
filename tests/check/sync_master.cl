/* lsk_sync_local() inside LSK_MASTER: refused at line 9. */
LSK_DECLARE_DOMAIN(head, 256);

LSK_KERNEL void head(LSK_CTX, __global float *x)
{
  __local float first;
  LSK_MASTER {
    first = x[0];
    lsk_sync_local();
  }
  lsk_sync_local();
  x[1] = first;
}
