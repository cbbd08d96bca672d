/* big_shared.cl: 64 KiB of static local memory, over NVIDIA's 48 KiB:
 * `lsk check` must fail it on NVPTX (tests/check.sh). */
LSK_DECLARE_DOMAIN(big, 256);
LSK_KERNEL void big(LSK_CTX, __global float *out)
{
  LSK_SHARED(float, tile, 16384);
  LSK_FOREACH(it) { tile[it.idx * 64u] = (float)it.idx; }
  lsk_sync();
  LSK_FOREACH(it) { out[it.idx] = tile[16383u - it.idx * 64u]; }
}
