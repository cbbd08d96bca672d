/*
 * pic_gen.cl: the binning example's initial particles (lsk_pic_generate,
 * examples/pic/pic_gen.c) from the counter-based generator
 * (cl/lsk_random.h). Particle first_id + i takes the four words of
 * lsk_random4(seed, LSK_PIC_RANDOM_STREAM, id, 0), so it depends on (seed,
 * id, grid) alone: not on the launch shape, on how many are drawn at once,
 * or on which rank draws them. The formulas are pic.h's; all integer
 * (32x32 -> 64-bit products), so every device and the plain C reference of
 * the tests agree exactly.
 *
 * A particle is five words (id, x, y, vx, vy: lsk_particle's layout).
 * Blocks take tiles of LSK_DOMAIN_SIZE particles, grid-strided.
 */
#define PIC_UNIT 65536u

/* r * m >> 32 for m below 2^32: uniform in [0, m). */
LSK_INLINE uint pic_scale(uint r, uint m) { return mul_hi(r, m); }

LSK_KERNEL void pic_generate(LSK_CTX, __global uint *out, uint first_id, uint n, uint gx, uint gy,
                             ulong seed, uint stream)
{
  const uint w = gx * PIC_UNIT, h = gy * PIC_UNIT;
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint i = b * LSK_DOMAIN_SIZE + it.idx;
      if (i < n) {
        uint id = first_id + i;
        uint4 r = lsk_random4(seed, stream, id, 0u);
        uint v = (r.w & 255u) < 26u ? 2u * PIC_UNIT : PIC_UNIT / 4u;
        uint vmx = min(v, w - 1u), vmy = min(v, h - 1u);
        __global uint *o = out + 5ul * i;
        o[0] = id;
        o[1] = pic_scale(r.x, w);
        o[2] = pic_scale(r.y, h);
        o[3] = (uint)((int)pic_scale(r.z, 2u * vmx + 1u) - (int)vmx);
        o[4] = (uint)((int)pic_scale(r.w & ~255u, 2u * vmy + 1u) - (int)vmy);
      }
    }
  }
}
