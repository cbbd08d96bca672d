/* iota.cl: the iota family of the lockstep core tests. Every kernel writes
 * data[g] = g for g < n, verifying first that data[g] was still zero. */
LSK_DECLARE_DOMAIN(iota42, 42);

#define IOTA_STORE(g)                                                          \
  if ((g) < n) {                                                               \
    LSK_VERIFY2(data[g] == 0, "target not zero", g, data[g]);                   \
    data[g] = (g);                                                             \
  }

/* Grid-strided loop over data blocks of LSK_DOMAIN_SIZE elements. */
LSK_KERNEL void iota(LSK_CTX, __global uint *data, uint n)
{
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint g = b * LSK_DOMAIN_SIZE + it.idx;
      IOTA_STORE(g)
    }
  }
}

/* The same, staged through dynamic local memory: each index is stored by
 * one worker and written out by the worker that owns the mirrored index. */
LSK_KERNEL void iota_local(LSK_CTX, __global uint *data, uint n, __local uint *stage)
{
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) { stage[it.idx] = b * LSK_DOMAIN_SIZE + it.idx; }
    lsk_sync();
    LSK_FOREACH(it) {
      uint g = stage[LSK_DOMAIN_SIZE - 1 - it.idx];
      IOTA_STORE(g)
    }
    lsk_sync();
  }
}

/* Declares its own domain of 42. */
LSK_KERNEL void iota42(LSK_CTX, __global uint *data, uint n)
{
  LSK_BLOCKS(b, (n + iota42_DOMAIN_SIZE - 1) / iota42_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint g = b * iota42_DOMAIN_SIZE + it.idx;
      IOTA_STORE(g)
    }
  }
}

/* An N-D domain: the index goes to (x, y, z) and back. */
LSK_KERNEL void iota_nd(LSK_CTX, __global uint *data, uint n)
{
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {
    LSK_FOREACH(it) {
      uint3 p = lsk_domain_nd(it.idx);
      uint g = b * LSK_DOMAIN_SIZE + p.x + LSK_DOMAIN_X * (p.y + LSK_DOMAIN_Y * p.z);
      IOTA_STORE(g)
    }
  }
}
