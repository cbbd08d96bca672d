/*
 * pic.cl: the particle-in-cell binning step on frames (examples/pic/pic.c runs it;
 * docs/example-pic.md explains it). examples/pic/pic.c builds this file with the
 * generated OpenCL C view of its frame layout `pframe` in front (columns
 * id, x, y, vx, vy) and the frame size as the block domain of the per-cell
 * and per-frame kernels, so a ForEach covers the F slots of one frame.
 *
 * Each cell's particles are in its list of frames, in any slots: an empty
 * slot has id 0 (masked, as PIConGPU's multiMask). No frame of a list is
 * empty, and a list is at least half full (nf * F < 2 * count + 2 * F).
 * Each listed frame's header holds its particle count, its cell (plus
 * one; 0 for a frame in no list: free frames are zero-filled) and, during
 * a step, the rank of its first hole among its cell's holes. So the two
 * kernels that touch every particle go through the pool's frames in
 * memory order, not list by list (no waiting on a next link). A step:
 *   pic_move    per frame: first the incoming of the last step fill its
 *               holes (see pic_fill), then every particle moves; a leaver
 *               is masked out and appended to the exchange buffer (one
 *               atomic per frame), its destination counted (the count's
 *               atomic gives its rank among the destination's incoming);
 *               the header's count drops by the leavers. A pic of a
 *               window of the grid (pic_dest) counts a leaver whose new
 *               cell is outside it for bucket ncells, the outbox, which
 *               the host takes (lsk_pic_take)
 *   lsk_scan    the counts into offsets (host)
 *   pic_bucket  the exchange, bucketed by destination: offset plus rank,
 *               no atomics
 *   pic_frames  per cell (one work-item): the list walked once; frames
 *               left empty are unlinked and recycled unless the incoming
 *               need them, more are allocated at the tail if they do (the
 *               host grows the pool and reruns this kernel if it ran out);
 *               each frame gets the rank of its first hole; the counts
 *               back to zero for the next step
 *   pic_compact block per cell, only for a list less than half full: the
 *               incoming fill its holes, then compaction, and the frames
 *               left empty recycled
 *   GC          lsk_pool_gc (host)
 * The incoming particles wait in the buckets until the next step's
 * pic_move fills them in, while it streams through the frames anyway: a
 * separate pass (pic_fill) would read every frame's ids and write its
 * holes from memory once more. lsk_pic_settle and lsk_pic_read run
 * pic_fill instead. The host knows whether a fill is
 * pending (the kernels take it as an argument); pic_compact fills the
 * lists it compacts itself and marks their frames PIC_FILLED, so the next
 * fill passes them by.
 * Blocks meet only through atomics (counts, the exchange's length, the
 * pool) and the host's kernel order. No block waits.
 */
#define PIC_EX_COUNT 0  /* ctl: exchange length this step */
#define PIC_LEFT 1      /* ctl: the last step's */
#define PIC_COMPACTED 2 /* ctl: lists compacted, in all steps */
/* The exchange: a row of PIC_ROW words per particle (id, x, y, vx, vy), so
 * that pic_bucket's scattered write of a particle misses once; then the
 * destination and rank columns (examples/pic/pic.c writes the first exchange). */
#define PIC_ROW 8
/* Frame header words of the example (the pool leaves two to the user). */
#define PIC_CELL LSK_FRAME_USER     /* the cell whose list holds the frame, plus one; 0: none */
#define PIC_AT (LSK_FRAME_USER + 1) /* the rank of the frame's first hole among the cell's */
#define PIC_FILLED 0xffffffffu      /* PIC_AT once pic_compact filled the frame's holes */
/* The flat kernels' scratch: two prefix buffers of W + 1 words (alternating
 * between frames, so one barrier per frame suffices). */
#define PIC_SCRATCH (2 * (LSK_WORKERS + 1))

/* x + v on a periodic axis of w units: x in [0, w), |v| < w, w < 2^31.
 * In uint: the sum reaches 2w - 2, past 2^31 on the widest grids (int
 * would overflow). A negative v gives a sum in (-w, w), which as uint is
 * 2^31 or more exactly when it is below 0. Selects, no branch: the move
 * loop vectorizes. */
LSK_INLINE int pic_step(int x, int v, int w)
{
  uint s = (uint)x + (uint)v, uw = (uint)w;
  uint back = s >= 0x80000000u ? s + uw : s, fwd = s >= uw ? s - uw : s;
  return (int)(v < 0 ? back : fwd);
}

LSK_INLINE pframe_view pic_frame(__global uint *pool, uint f, __global uint *ctx)
{
  __global void *p = pool;
  return pframe_view_make(p, p, p, p, p, lsk_frame_base(pool, f), LSK_DOMAIN_SIZE, ctx);
}

/* The exclusive prefix of v over the block's workers, and their total, with
 * one barrier: each worker adds up the counts before its own (a few words
 * on CPUs, where a barrier costs more than that). Calls alternate between
 * the two halves of the scratch (s is one half: W + 1 words), so a call's
 * writes never meet the reads of the call before. */
LSK_COLLECTIVE uint pic_prefix(__local uint *s, uint v, uint *total)
{
  uint w = lsk_worker(), pre = 0, all = 0;
  s[w] = v;
  lsk_sync_local();
  for (uint j = 0; j < LSK_WORKERS; ++j) {
    uint x = s[j];
    pre += j < w ? x : 0u;
    all += x;
  }
  *total = all;
  return pre;
}

/* The frames a block of the flat kernels takes: a contiguous run of the
 * pool's cells, so that a core streams through memory. */
LSK_INLINE uint pic_run_lo(uint nf)
{
  uint per = (nf + lsk_grid_size() - 1) / lsk_grid_size();
  return min(nf, lsk_block_idx() * per);
}
LSK_INLINE uint pic_run_hi(uint nf)
{
  uint per = (nf + lsk_grid_size() - 1) / lsk_grid_size();
  return min(nf, lsk_block_idx() * per + per);
}

/*
 * With pending (uniform), the incoming particles of frame f's cell with
 * ranks from the frame's PIC_AT on fill its holes, in slot order, unless
 * PIC_AT is PIC_FILLED. A block collective (one barrier): sp is one half of
 * the scratch. Each worker fills only its own slots of a ForEach over the
 * frame, so a ForEach after it reads them without a barrier. Nothing here
 * marks the frame filled: every worker reads PIC_AT, and the barrier orders
 * local memory only; the host says whether fills are pending.
 */
LSK_COLLECTIVE void pic_fill_frame(__local uint *sp, __global uint *pool, uint f,
                                   __global const uint *offs, __global const uint *bk, uint pending,
                                   __global uint *ctx)
{
  __global uint *hd = lsk_frame_header(pool, f);
  uint c = hd[PIC_CELL] - 1u, at = 0, nin = 0, holes = 0;
  if (pending && c != LSK_POOL_INVALID) {
    at = hd[PIC_AT];
    nin = at == PIC_FILLED ? 0u : offs[c + 1] - offs[c];
  }
  /* Each worker lists its holes without a branch on the data (one pass
   * over the ids; their number is the worker's share of the prefix), then
   * fills them from the bucket in a row. */
  uint slot[LSK_SLOTS(LSK_DOMAIN_SIZE)];
  if (at < nin) {
    pframe_view v = pic_frame(pool, f, ctx);
    LSK_FOREACH(it)
    {
      slot[holes] = it.idx;
      holes += pframe_id(v, it.idx) == 0;
    }
  }
  uint total, r = pic_prefix(sp, holes, &total);
  if (at < nin) {
    /* The view made again after the barrier. */
    uint q = offs[c] + at + r, end = offs[c + 1];
    uint k = q < end ? min(holes, end - q) : 0u;
    pframe_view v = pic_frame(pool, f, ctx);
    for (uint j = 0; j < k; ++j, ++q) {
      uint i = slot[j];
      __global const uint *row = bk + (ulong)PIC_ROW * q;
      pframe_set_id(v, i, row[0]);
      pframe_set_x(v, i, (int)row[1]);
      pframe_set_y(v, i, (int)row[2]);
      pframe_set_vx(v, i, (int)row[3]);
      pframe_set_vy(v, i, (int)row[4]);
    }
    LSK_MASTER hd[LSK_FRAME_COUNT] += min(total, nin - at);
  }
}

/* The bucket of a position (x, y) in a window [x0, x0 + wx) x [y0, y0 +
 * wy) of the grid: its cell's index in the window (row-major), or wx * wy,
 * the outbox's bucket, outside it. Unsigned differences: a cell left of or
 * above the window wraps to 2^32 - k, past the extent. Selects, no branch. */
LSK_INLINE uint pic_dest(int x, int y, uint x0, uint y0, uint wx, uint wy)
{
  uint cx = ((uint)x >> 16) - x0, cy = ((uint)y >> 16) - y0;
  return cx < wx && cy < wy ? cy * wx + cx : wx * wy;
}

LSK_KERNEL void pic_move(LSK_CTX, __global uint *pool, __global uint *incoming, __global uint *ex,
                         __global uint *ctl, uint cap, uint gx, uint gy, __global const uint *offs,
                         __global const uint *bk, uint pending, uint x0, uint y0, uint wx, uint wy)
{
  LSK_SHARED(uint, s, PIC_SCRATCH);
  const int w = (int)(gx << 16), h = (int)(gy << 16);
  LSK_VERIFY(lsk_frame_size(pool) == LSK_DOMAIN_SIZE, "pic: domain is not the frame size");
  const uint nf = lsk_pool_capacity(pool), hi = pic_run_hi(nf);
  for (uint f = pic_run_lo(nf); f < hi; ++f) {
    /* Two prefixes per frame: the fill's in one half of the scratch, the
     * leavers' in the other. */
    __local uint *sp = s + (LSK_WORKERS + 1);
    pic_fill_frame(s, pool, f, offs, bk, pending, LSK_CTX_FWD);
    uint c = lsk_frame_header(pool, f)[PIC_CELL] - 1u, mine = 0;
    if (c != LSK_POOL_INVALID) {
      pframe_view v = pic_frame(pool, f, LSK_CTX_FWD);
      /* Every slot moves, empty ones too: no branch on the data, so the
       * loop vectorizes. An empty slot's stale values are a valid
       * position and velocity (a former particle's, or zeros), stay one,
       * and are never read as a particle. */
      LSK_FOREACH(it)
      {
        uint i = it.idx;
        int x = pic_step(pframe_x(v, i), pframe_vx(v, i), w);
        int y = pic_step(pframe_y(v, i), pframe_vy(v, i), h);
        uint d = pic_dest(x, y, x0, y0, wx, wy);
        pframe_set_x(v, i, x);
        pframe_set_y(v, i, y);
        mine += pframe_id(v, i) != 0 && d != c;
      }
    }
    uint total, first = pic_prefix(sp, mine, &total);
    if (lsk_worker() == 0 && total) {
      sp[LSK_WORKERS] = atomic_add((volatile __global uint *)ctl + PIC_EX_COUNT, total);
      lsk_frame_header(pool, f)[LSK_FRAME_COUNT] -= total;
    }
    lsk_sync_local();
    if (mine) {
      /* The cell and the view again rather than kept across the barrier
       * (PoCL would keep them per work-item in memory); the destinations
       * recomputed from the positions just written, in cache. The
       * leavers' slots are listed first without a branch on the data,
       * then their counts' atomics go in a row (each atomic waits for the
       * stores before it: none of the exchange's then), then their writes. */
      uint e = sp[LSK_WORKERS] + first, cc = lsk_frame_header(pool, f)[PIC_CELL] - 1u, k = 0;
      uint at[LSK_SLOTS(LSK_DOMAIN_SIZE)], to[LSK_SLOTS(LSK_DOMAIN_SIZE)];
      pframe_view u = pic_frame(pool, f, LSK_CTX_FWD);
      LSK_FOREACH(it)
      {
        uint i = it.idx;
        uint d = pic_dest(pframe_x(u, i), pframe_y(u, i), x0, y0, wx, wy);
        at[k] = i;
        to[k] = d;
        k += pframe_id(u, i) != 0 && d != cc;
      }
      uint rank[LSK_SLOTS(LSK_DOMAIN_SIZE)];
      for (uint j = 0; j < k; ++j)
        rank[j] = atomic_inc(&incoming[to[j]]);
      LSK_VERIFY2(e + k <= cap, "pic: exchange overflow", e + k, cap);
      for (uint j = 0; j < k && e + j < cap; ++j) {
        uint i = at[j], q = e + j;
        __global uint *row = ex + (ulong)PIC_ROW * q;
        row[0] = pframe_id(u, i);
        row[1] = (uint)pframe_x(u, i);
        row[2] = (uint)pframe_y(u, i);
        row[3] = (uint)pframe_vx(u, i);
        row[4] = (uint)pframe_vy(u, i);
        ex[(ulong)PIC_ROW * cap + q] = to[j];
        ex[(ulong)(PIC_ROW + 1) * cap + q] = rank[j];
        pframe_set_id(u, i, 0);
      }
    }
  }
}

/* The exchange into buckets by destination (the outbox, bucket ncells,
 * too): offs holds each cell's first
 * position (an exclusive scan of the counts), the rank (from pic_move's
 * atomic count) the place after it; every place is taken once. A row is
 * one 8-word store, so a particle's scattered write misses once. */
LSK_KERNEL void pic_bucket(LSK_CTX, __global const uint *ex, __global const uint *ctl,
                           __global const uint *offs, __global uint *bk, uint cap, uint put)
{
  /* put: the host's exchange (lsk_pic_create, lsk_pic_put), of put rows
   * with that stride; otherwise the step's, its length in ctl. */
  uint n = put ? put : min(ctl[PIC_EX_COUNT], cap);
  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint e = b * LSK_DOMAIN_SIZE + it.idx;
      if (e < n)
        vstore8(vload8(e, ex),
                offs[ex[(ulong)PIC_ROW * cap + e]] + ex[(ulong)(PIC_ROW + 1) * cap + e], bk);
    }
    lsk_sync(); /* PoCL: all work-items take the data block together */
  }
}

/*
 * One work-item per cell, the list walked once (headers only): the frames
 * that pic_move left empty are unlinked and recycled unless the incoming
 * particles need them; the holes of the others come first, then those
 * empty frames, then frames allocated at the tail. Every frame gets the
 * rank of its first hole (PIC_AT) for pic_fill. Since every hole of a
 * frame before the last one in the list is filled, no frame stays empty.
 * Stops at the first refused allocation (the pool counts it; the host
 * grows the pool and runs this again: the frames linked stay, now empty
 * ones the incoming need). The counts (already scanned into offs) are
 * zeroed for the next step. PIC_AT is set for every frame of a list, so no
 * frame still holds a PIC_FILLED from the step before.
 */
LSK_KERNEL void pic_frames(LSK_CTX, __global uint *pool, __global uint *head, __global uint *count,
                           __global const uint *offs, __global uint *incoming, __global uint *nfr,
                           uint ncells, __global uint *ctl, uint first)
{
  uint fs = lsk_frame_size(pool);
  /* pic_bucket has read the exchange's length: it starts again from 0 (on
   * the first run only; a rerun after the pool grew leaves it), as does
   * the outbox's count (bucket ncells), scanned into offs. first is 1 in a
   * step (the length is the step's leavers), 2 after lsk_pic_put. */
  LSK_MASTER if (first && lsk_block_idx() == 0)
  {
    if (first == 1)
      ctl[PIC_LEFT] = ctl[PIC_EX_COUNT];
    ctl[PIC_EX_COUNT] = 0;
    incoming[ncells] = 0;
  }
  LSK_BLOCKS(b, (ncells + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE)
  {
    LSK_FOREACH(it)
    {
      uint c = b * LSK_DOMAIN_SIZE + it.idx;
      if (c < ncells) {
        uint nin = offs[c + 1] - offs[c], stay = 0, full = 0, empty = 0;
        incoming[c] = 0;
        for (uint f = head[c]; f != LSK_POOL_INVALID; f = lsk_frame_next(pool, f)) {
          uint k = lsk_frame_header(pool, f)[LSK_FRAME_COUNT];
          stay += k;
          full += k != 0;
          empty += k == 0;
        }
        uint holes = full * fs - stay;
        uint extra = nin > holes ? (nin - holes + fs - 1) / fs : 0u;
        uint at = 0, used = 0, have = 0, tail = LSK_POOL_INVALID;
        for (uint f = head[c]; f != LSK_POOL_INVALID;) {
          __global uint *hd = lsk_frame_header(pool, f);
          uint next = hd[LSK_FRAME_NEXT] - 1u, k = hd[LSK_FRAME_COUNT];
          if (k == 0 && used == extra) {
            if (tail == LSK_POOL_INVALID)
              head[c] = next;
            else
              lsk_frame_set_next(pool, tail, next);
            hd[PIC_CELL] = 0; /* pic_fill skips it; the GC zero-fills it */
            lsk_pool_recycle(pool, f);
          } else {
            used += k == 0;
            hd[PIC_AT] = at;
            at += fs - k;
            tail = f;
            ++have;
          }
          f = next;
        }
        for (; used < extra; ++used, ++have) {
          uint f = lsk_pool_alloc(pool);
          if (f == LSK_POOL_INVALID)
            break;
          if (tail == LSK_POOL_INVALID)
            head[c] = f;
          else
            lsk_frame_set_next(pool, tail, f);
          __global uint *hd = lsk_frame_header(pool, f);
          hd[PIC_CELL] = c + 1;
          hd[PIC_AT] = at;
          at += fs;
          tail = f;
        }
        count[c] = stay + nin;
        nfr[c] = have; /* pic_compact needs no walk to decide */
      }
    }
    lsk_sync(); /* PoCL: all work-items take the data block together */
  }
}

/* Per frame: the incoming particles still waiting in the buckets fill the
 * frames' holes (lsk_pic_settle, lsk_pic_read; a step leaves this to the
 * next step's pic_move). */
LSK_KERNEL void pic_fill(LSK_CTX, __global uint *pool, __global const uint *offs,
                         __global const uint *bk)
{
  LSK_SHARED(uint, s, PIC_SCRATCH);
  const uint nf = lsk_pool_capacity(pool), hi = pic_run_hi(nf);
  for (uint f = pic_run_lo(nf); f < hi; ++f)
    pic_fill_frame(s + (f & 1) * (LSK_WORKERS + 1), pool, f, offs, bk, 1, LSK_CTX_FWD);
}

/*
 * Block per cell: a list less than half full is compacted, once the
 * incoming particles have filled its holes. The occupied
 * slots move to the write position pos, which lags the read position, so a
 * frame is read whole (before the barrier) before anything is written into
 * it; pos lies in frame wf (first slot wbase), so one frame's writes fall
 * in wf and the frame after. Then the slots from the count on are emptied,
 * the headers get their counts, and the frames left empty are unlinked and
 * recycled. Loops that run or not, never an if around a collective: PoCL
 * 3.1 miscompiles a collective in a uniform if.
 */
LSK_KERNEL void pic_compact(LSK_CTX, __global uint *pool, __global uint *head,
                            __global const uint *count, __global const uint *nfr,
                            __global uint *ctl, uint ncells, __global const uint *offs,
                            __global const uint *bk, uint pending)
{
  LSK_BLOCK_SCRATCH(uint, s);
  LSK_SHARED(uint, sf, PIC_SCRATCH);
  LSK_VAR(uint, pre); /* a flag, then its exclusive prefix in the frame */
  LSK_VAR(uint, id);
  LSK_VAR(int, x);
  LSK_VAR(int, y);
  LSK_VAR(int, vx);
  LSK_VAR(int, vy);
  const uint F = LSK_DOMAIN_SIZE;
  LSK_BLOCKS(c, ncells)
  {
    uint keep = count[c];
    for (uint go = nfr[c] * F >= 2 * keep + 2 * F; go; go = 0) {
      uint pos = 0, wbase = 0, wf = head[c], side = 0;
      LSK_MASTER atomic_inc(&ctl[PIC_COMPACTED]);
      /* First the incoming that wait for this list's holes. */
      for (uint f = head[c]; f != LSK_POOL_INVALID; f = lsk_frame_next(pool, f), side ^= 1)
        pic_fill_frame(sf + side * (LSK_WORKERS + 1), pool, f, offs, bk, pending, LSK_CTX_FWD);
      lsk_sync();
      for (uint f = head[c]; f != LSK_POOL_INVALID; f = lsk_frame_next(pool, f)) {
        pframe_view v = pic_frame(pool, f, LSK_CTX_FWD);
        LSK_FOREACH(it)
        {
          uint i = it.idx;
          LSK_VAR_AT(id, it) = pframe_id(v, i);
          LSK_VAR_AT(pre, it) = LSK_VAR_AT(id, it) != 0;
          LSK_VAR_AT(x, it) = pframe_x(v, i);
          LSK_VAR_AT(y, it) = pframe_y(v, i);
          LSK_VAR_AT(vx, it) = pframe_vx(v, i);
          LSK_VAR_AT(vy, it) = pframe_vy(v, i);
        }
        uint total = lsk_block_scan_var_add_uint(s, pre, F, 0);
        uint wnext = lsk_frame_next(pool, wf);
        pframe_view a = pic_frame(pool, wf, LSK_CTX_FWD), b = pic_frame(pool, wnext, LSK_CTX_FWD);
        lsk_sync();
        LSK_FOREACH(it)
        {
          if (LSK_VAR_AT(id, it) != 0) {
            uint d = pos + LSK_VAR_AT(pre, it) - wbase;
            pframe_view t = d < F ? a : b;
            d = d < F ? d : d - F;
            pframe_set_id(t, d, LSK_VAR_AT(id, it));
            pframe_set_x(t, d, LSK_VAR_AT(x, it));
            pframe_set_y(t, d, LSK_VAR_AT(y, it));
            pframe_set_vx(t, d, LSK_VAR_AT(vx, it));
            pframe_set_vy(t, d, LSK_VAR_AT(vy, it));
          }
        }
        pos += total;
        if (pos >= wbase + F) {
          wbase += F;
          wf = wnext;
        }
      }
      lsk_sync();
      /* The slots from `keep` on are emptied. */
      for (uint f = wf; f != LSK_POOL_INVALID; f = lsk_frame_next(pool, f), wbase += F) {
        pframe_view v = pic_frame(pool, f, LSK_CTX_FWD);
        LSK_FOREACH(it) if (wbase + it.idx >= keep) pframe_set_id(v, it.idx, 0);
      }
      LSK_VERIFY3(pos == keep, "pic: particles found in compaction differ from the count", c, pos,
                 keep);
      lsk_sync();
      /* The master sets the counts, unlinks and recycles the frames left
       * empty (the GC zero-fills them). */
      LSK_MASTER
      {
        uint prev = LSK_POOL_INVALID, base = 0;
        for (uint g = head[c]; g != LSK_POOL_INVALID; base += F) {
          uint next = lsk_frame_next(pool, g);
          uint k = keep > base ? min(F, keep - base) : 0u;
          if (k == 0) {
            if (prev == LSK_POOL_INVALID)
              head[c] = next;
            else
              lsk_frame_set_next(pool, prev, next);
            lsk_pool_recycle(pool, g);
          } else {
            lsk_frame_header(pool, g)[LSK_FRAME_COUNT] = k;
            lsk_frame_header(pool, g)[PIC_AT] = PIC_FILLED; /* the fill is done */
            prev = g;
          }
          g = next;
        }
      }
      lsk_sync();
    }
  }
}
