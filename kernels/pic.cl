/*
 * pic.cl: the particle-in-cell binning step on frames (host/pic.c runs it;
 * docs/dynamic-memory.md explains it). host/pic.c builds this file with the
 * generated OpenCL C view of its frame layout `pframe` in front (columns
 * id, x, y, vx, vy) and the frame size as the block domain of the per-cell
 * kernels, so a ForEach covers the F slots of one frame.
 *
 * Each cell's particles are in its list of frames, in any slots: an empty
 * slot has id 0 (masked, as PIConGPU's multiMask). No frame of a list is
 * empty, and a list is at least half full (nf * F < 2 * count + 2 * F).
 * A step:
 *   pic_move    block per cell: move every particle; a leaver is masked
 *               out and appended to the exchange buffer (one atomic per
 *               block and frame), its destination counted (the count's
 *               atomic gives its rank among the destination's incoming)
 *   lsk_scan    the counts into offsets (host)
 *   pic_bucket  the exchange, bucketed by destination: offset plus rank,
 *               no atomics
 *   pic_frames  per cell, the frames that stayers plus incoming need,
 *               allocated from the pool and linked at the tail (the host
 *               grows the pool and reruns this kernel if it ran out); the
 *               counts back to zero for the next step
 *   pic_fill    block per cell: the incoming fill the holes (a block scan
 *               per frame ranks them), frames left empty are unlinked and
 *               recycled; a list less than half full is compacted first
 *   GC          lsk_pool_gc (host)
 * Every block writes only its own cell's frames; blocks meet only through
 * atomics (counts, the exchange's length, the pool). No block waits.
 */
#define PIC_EX_COUNT 0  /* ctl: exchange length this step */
#define PIC_LEFT 1      /* ctl: the last step's */
#define PIC_COMPACTED 2 /* ctl: lists compacted, in all steps */
#define PIC_COLS 5      /* id, x, y, vx, vy; the exchange adds dest, rank */

LSK_INLINE int pic_wrap(int v, int w) { return v < 0 ? v + w : v >= w ? v - w : v; }

LSK_INLINE pframe_view pic_frame(__global uint *pool, uint f, __global uint *ctx)
{
  __global void *p = pool;
  return pframe_view_make(p, p, p, p, p, lsk_frame_base(pool, f), LSK_DOMAIN_SIZE, ctx);
}

LSK_KERNEL void pic_move(LSK_CTX, __global uint *pool, __global const uint *head,
                         __global const uint *count, __global uint *stay, __global uint *incoming,
                         __global uint *ex, __global uint *ctl, uint cap, uint gx, uint gy)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_VAR(uint, dest); /* a leaver's new cell, else LSK_POOL_INVALID */
  const int w = (int)(gx << 16), h = (int)(gy << 16);
  LSK_VERIFY(lsk_frame_size(pool) == LSK_DOMAIN_SIZE, "pic: domain is not the frame size");
  LSK_BLOCKS(c, gx * gy)
  {
    uint left = 0;
    for (uint f = head[c]; f != LSK_POOL_INVALID; f = lsk_frame_next(pool, f)) {
      pframe_view v = pic_frame(pool, f, LSK_CTX_FWD);
      uint mine = 0;
      /* Every slot moves, empty ones too: no branch on the data, so the
       * loop vectorizes. An empty slot's stale values are a valid
       * position and velocity (a former particle's, or zeros), stay one,
       * and are never read as a particle. */
      LSK_FOREACH(it)
      {
        uint i = it.idx;
        int x = pic_wrap(pframe_x(v, i) + pframe_vx(v, i), w);
        int y = pic_wrap(pframe_y(v, i) + pframe_vy(v, i), h);
        uint d = ((uint)y >> 16) * gx + ((uint)x >> 16);
        pframe_set_x(v, i, x);
        pframe_set_y(v, i, y);
        uint leave = pframe_id(v, i) != 0 && d != c;
        LSK_VAR_AT(dest, it) = leave ? d : LSK_POOL_INVALID;
        mine += leave;
      }
      uint e = lsk_block_append(s, (volatile __global uint *)ctl + PIC_EX_COUNT, mine);
      /* The view again rather than kept across the barrier (PoCL would
       * keep a copy per work-item in memory). The count's atomic gives
       * the leaver its rank among the destination's incoming. */
      pframe_view u = pic_frame(pool, f, LSK_CTX_FWD);
      LSK_FOREACH(it)
      {
        uint i = it.idx, d = LSK_VAR_AT(dest, it);
        if (d != LSK_POOL_INVALID) {
          LSK_VERIFY(e < cap, "pic: exchange overflow", e, cap);
          uint rank = atomic_inc(&incoming[d]);
          if (e < cap) {
            ex[e] = pframe_id(u, i);
            ex[cap + e] = (uint)pframe_x(u, i);
            ex[2 * cap + e] = (uint)pframe_y(u, i);
            ex[3 * cap + e] = (uint)pframe_vx(u, i);
            ex[4 * cap + e] = (uint)pframe_vy(u, i);
            ex[5 * cap + e] = d;
            ex[6 * cap + e] = rank;
          }
          pframe_set_id(u, i, 0);
          ++e;
        }
      }
      left += mine;
    }
    uint gone = lsk_block_reduce_add_uint(s, left);
    LSK_MASTER stay[c] = count[c] - gone;
  }
}

/* The exchange into buckets by destination: offs holds each cell's first
 * position (an exclusive scan of the counts), the rank (from pic_move's
 * atomic count) the place after it; every place is taken once. */
LSK_KERNEL void pic_bucket(LSK_CTX, __global const uint *ex, __global const uint *ctl,
                           __global const uint *offs, __global uint *bk, uint cap)
{
  uint n = min(ctl[PIC_EX_COUNT], cap);
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint e = b * LSK_DOMAIN_SIZE + it.idx;
      if (e < n) {
        uint p = offs[ex[5 * cap + e]] + ex[6 * cap + e];
        for (uint k = 0; k < PIC_COLS; ++k)
          bk[k * cap + p] = ex[k * cap + e];
      }
    }
    lsk_sync(); /* PoCL: all work-items take the data block together */
  }
}

/* One work-item per cell: link as many frames as stayers plus incoming
 * need. Stops at the first refused allocation (the pool counts it). The
 * counts (already scanned into offs) are zeroed for the next step. */
LSK_KERNEL void pic_frames(LSK_CTX, __global uint *pool, __global uint *head,
                           __global const uint *stay, __global const uint *offs,
                           __global uint *incoming, __global uint *nfr, uint ncells)
{
  uint fs = lsk_frame_size(pool);
  LSK_BLOCKS(b, (ncells + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint c = b * LSK_DOMAIN_SIZE + it.idx;
      if (c < ncells) {
        uint need = (stay[c] + (offs[c + 1] - offs[c]) + fs - 1) / fs, have = 0;
        uint tail = LSK_POOL_INVALID;
        incoming[c] = 0;
        for (uint f = head[c]; f != LSK_POOL_INVALID; f = lsk_frame_next(pool, f)) {
          tail = f;
          ++have;
        }
        for (; have < need; ++have) {
          uint f = lsk_pool_alloc(pool);
          if (f == LSK_POOL_INVALID)
            break;
          if (tail == LSK_POOL_INVALID)
            head[c] = f;
          else
            lsk_frame_set_next(pool, tail, f);
          tail = f;
        }
        nfr[c] = have; /* pic_fill needs no walk to count them */
      }
    }
    lsk_sync(); /* PoCL: all work-items take the data block together */
  }
}

LSK_KERNEL void pic_fill(LSK_CTX, __global uint *pool, __global uint *head, __global uint *count,
                         __global const uint *stay, __global const uint *offs,
                         __global const uint *nfr, __global const uint *bk, __global uint *ctl,
                         uint cap, uint ncells)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_VAR(uint, pre); /* a flag, then its exclusive prefix in the frame */
  LSK_VAR(uint, id);
  LSK_VAR(int, x);
  LSK_VAR(int, y);
  LSK_VAR(int, vx);
  LSK_VAR(int, vy);
  const uint F = LSK_DOMAIN_SIZE;
  LSK_BLOCKS(c, ncells)
  {
    uint in0 = offs[c], nin = offs[c + 1] - in0, keep = stay[c], n = keep + nin;
    uint nf = nfr[c]; /* from pic_frames: a walk here would wait on each frame */
    /*
     * Two passes over the frames, each a block scan per frame:
     *   0 (only for a list less than half full) compaction: the occupied
     *     slots move to the write position pos, which lags the read
     *     position, so a frame is read whole (before the barrier) before
     *     anything is written into it; pos lies in frame wf (first slot
     *     wbase), so one frame's writes fall in wf and the frame after;
     *   1 the incoming particles fill the empty slots in slot order (the
     *     scan ranks the holes); nothing else is written, and each frame's
     *     header gets its particle count.
     * One loop with one call of the scan, and loops that run or not, never
     * an if around a collective: PoCL 3.1 crashes on two call sites of
     * lsk_block_scan_var and miscompiles a collective in a uniform if.
     */
    uint pos = 0, wbase = 0, wf = head[c], placed = 0, sparse = nf * F >= 2 * n + 2 * F;
    LSK_MASTER if (sparse) atomic_inc(&ctl[PIC_COMPACTED]);
    for (uint pass = sparse ? 0 : 1; pass < 2; ++pass) {
      for (uint f = head[c]; f != LSK_POOL_INVALID; f = lsk_frame_next(pool, f)) {
        pframe_view v = pic_frame(pool, f, LSK_CTX_FWD);
        LSK_FOREACH(it)
        {
          uint i = it.idx;
          LSK_VAR_AT(id, it) = pframe_id(v, i);
          LSK_VAR_AT(pre, it) = (LSK_VAR_AT(id, it) != 0) == (pass == 0);
          if (pass == 0) {
            LSK_VAR_AT(x, it) = pframe_x(v, i);
            LSK_VAR_AT(y, it) = pframe_y(v, i);
            LSK_VAR_AT(vx, it) = pframe_vx(v, i);
            LSK_VAR_AT(vy, it) = pframe_vy(v, i);
          }
        }
        uint total = lsk_block_scan_var_add_uint(s, pre, F, 0);
        uint wnext = pass == 0 ? lsk_frame_next(pool, wf) : LSK_POOL_INVALID;
        pframe_view a = pic_frame(pool, wf, LSK_CTX_FWD), b = pic_frame(pool, wnext, LSK_CTX_FWD);
        lsk_sync();
        LSK_FOREACH(it)
        {
          uint i = it.idx;
          if (pass == 0 && LSK_VAR_AT(id, it) != 0) {
            uint d = pos + LSK_VAR_AT(pre, it) - wbase;
            pframe_view t = d < F ? a : b;
            d = d < F ? d : d - F;
            pframe_set_id(t, d, LSK_VAR_AT(id, it));
            pframe_set_x(t, d, LSK_VAR_AT(x, it));
            pframe_set_y(t, d, LSK_VAR_AT(y, it));
            pframe_set_vx(t, d, LSK_VAR_AT(vx, it));
            pframe_set_vy(t, d, LSK_VAR_AT(vy, it));
          } else if (pass == 1 && LSK_VAR_AT(id, it) == 0 && placed + LSK_VAR_AT(pre, it) < nin) {
            uint q = in0 + placed + LSK_VAR_AT(pre, it);
            pframe_set_id(v, i, bk[q]);
            pframe_set_x(v, i, (int)bk[cap + q]);
            pframe_set_y(v, i, (int)bk[2 * cap + q]);
            pframe_set_vx(v, i, (int)bk[3 * cap + q]);
            pframe_set_vy(v, i, (int)bk[4 * cap + q]);
          }
        }
        if (pass == 0) {
          pos += total;
          if (pos >= wbase + F) {
            wbase += F;
            wf = wnext;
          }
        } else {
          uint here = min(total, nin - placed);
          LSK_MASTER lsk_frame_header(pool, f)[LSK_FRAME_COUNT] = F - total + here;
          placed += here;
        }
      }
      lsk_sync();
      /* After the compaction, the slots from `keep` on are emptied. */
      for (uint f = pass == 0 ? wf : LSK_POOL_INVALID; f != LSK_POOL_INVALID;
           f = lsk_frame_next(pool, f), wbase += F) {
        pframe_view v = pic_frame(pool, f, LSK_CTX_FWD);
        LSK_FOREACH(it) if (wbase + it.idx >= keep) pframe_set_id(v, it.idx, 0);
      }
      LSK_VERIFY(pass == 1 || pos == keep,
                 "pic: stayers found in compaction differ from the move's", c, pos, keep);
      lsk_sync();
    }
    LSK_VERIFY(placed == nin, "pic: frames missing for the incoming particles", c, placed, nin);
    /* The master unlinks and recycles the frames left empty (the GC
     * zero-fills them). */
    LSK_MASTER
    {
      uint prev = LSK_POOL_INVALID;
      for (uint g = head[c]; g != LSK_POOL_INVALID;) {
        uint next = lsk_frame_next(pool, g);
        if (lsk_frame_header(pool, g)[LSK_FRAME_COUNT] == 0) {
          if (prev == LSK_POOL_INVALID)
            head[c] = next;
          else
            lsk_frame_set_next(pool, prev, next);
          lsk_pool_recycle(pool, g);
        } else {
          prev = g;
        }
        g = next;
      }
      count[c] = n;
    }
    lsk_sync();
  }
  LSK_MASTER if (lsk_block_idx() == 0)
  {
    ctl[PIC_LEFT] = ctl[PIC_EX_COUNT];
    ctl[PIC_EX_COUNT] = 0;
  }
}
