/* A block collective inside a ForEach body: refused at line 9. */
LSK_DECLARE_DOMAIN(sum, 256);

LSK_KERNEL void sum(LSK_CTX, __global const int *x, __global int *out)
{
  LSK_BLOCK_SCRATCH(int, s);
  int total = 0;
  LSK_FOREACH(it) {
    total = lsk_block_reduce_add_int(s, x[it.idx]);
  }
  LSK_MASTER out[0] = total;
}
