/*
 * pic_mpi.c: the particle-in-cell binning example over MPI (pic_mpi.h),
 * on the public API of liblsk, lsk_mpi and the pic example.
 *
 * The migration: each rank sorts what leaves it by destination rank (the
 * owner of the particle's new cell, from the decomposition: any rank, not
 * only a neighbour), MPI_Alltoall sends the counts, each rank sizes its
 * receive buffer from them (host buffers that grow, never too small: the
 * counts come first), and MPI_Alltoallv sends the particles. Simple, and
 * right for a particle that passes a rank one cell wide; a point-to-point
 * exchange with the neighbours would need a second hop for those.
 *
 * Failures: the ranks agree twice a step, after the counts (a rank that
 * failed before the payload, or cannot hold it, stops everyone before any
 * payload moves) and after the checks; every collective is called by
 * every rank until then, with nothing to send where a rank failed.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pic_mpi.h"

static const char fn[] = "lsk_pic_mpi_run";

typedef struct run {
  lsk_mpi *m;
  lsk_context *ctx;
  MPI_Comm comm;
  int rank, size;
  lsk_pic_mpi_options o;
  lsk_mpi_grid *g;
  lsk_grid_box box;
  unsigned px, py;
  unsigned *col, *row; /* the part of each column and row of cells */
  int *owner;          /* the rank of part (col, row): owner[row * px + col] */
  lsk_pic *pic;
  MPI_Datatype type; /* a particle: five 32-bit words */
  int *sc, *rc, *sd, *rd;
  lsk_particle *out, *sorted, *in, *got;
  size_t out_cap, sorted_cap, in_cap, got_cap, cell_cap;
  uint32_t *cell;
  size_t local; /* the particles this rank holds */
  uint64_t want[3], migrated, most, far;
} run;

/* *p holds at least need elements of size bytes (grown by half again). */
static int grow(run *r, void **p, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return LSK_OK;
  size_t more = *cap + *cap / 2;
  more = more > need ? more : need;
  void *q = realloc(*p, more * size);
  if (!q)
    return lsk_context_set_error(r->ctx, LSK_ENOMEM, "%s: out of host memory for %zu particles", fn,
                                 more);
  *p = q;
  *cap = more;
  return LSK_OK;
}

static int mpi_ok(run *r, int mrc, const char *what)
{
  if (mrc == MPI_SUCCESS)
    return LSK_OK;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(mrc, text, &len);
  return lsk_context_set_error(r->ctx, LSK_ECOMM, "%s: %s: %s", fn, what, text);
}

/* A 64-bit mix of an id (splitmix64's finalizer): the xor of all ids'
 * mixes catches a particle lost and another doubled. */
static uint64_t mix(uint32_t id)
{
  uint64_t z = id + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The rank owning a particle's cell. */
static int owner_of(const run *r, const lsk_particle *q)
{
  unsigned cx = (unsigned)(q->x / LSK_PIC_UNIT), cy = (unsigned)(q->y / LSK_PIC_UNIT);
  return r->owner[r->row[cy] * r->px + r->col[cx]];
}

/* The split rule along one axis (lsk_grid_split's: the first g % parts
 * parts have one cell more): the first cell of part p, and each cell's
 * part. */
static unsigned first_of(unsigned g, unsigned parts, unsigned p)
{
  unsigned q = g / parts, big = g % parts;
  return p * q + (p < big ? p : big);
}

static void parts_of(unsigned g, unsigned parts, unsigned *of)
{
  for (unsigned p = 0; p < parts; ++p)
    for (unsigned c = first_of(g, parts, p); c < first_of(g, parts, p + 1); ++c)
      of[c] = p;
}

/* The decomposition, this rank's window, and the owner table. */
static int decompose(run *r)
{
  lsk_mpi_grid_options go = {.dims = 2,
                             .global = {r->o.gx, r->o.gy},
                             .guard = 0,
                             .periodic = {1, 1},
                             .parts = {r->o.parts[0], r->o.parts[1]}};
  int rc = lsk_mpi_grid_create(r->m, &go, &r->g);
  if (rc)
    return rc; /* agreed */
  unsigned parts[3];
  r->box = *lsk_mpi_grid_box(r->g);
  rc = lsk_mpi_grid_parts(r->g, parts, NULL);
  r->px = parts[0];
  r->py = parts[1];
  r->col = malloc((size_t)r->o.gx * sizeof *r->col);
  r->row = malloc((size_t)r->o.gy * sizeof *r->row);
  r->owner = malloc((size_t)r->px * r->py * sizeof *r->owner);
  if (!rc && (!r->col || !r->row || !r->owner))
    rc = lsk_context_set_error(r->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if (!rc) {
    parts_of(r->o.gx, r->px, r->col);
    parts_of(r->o.gy, r->py, r->row);
  }
  /* Each part's rank: the owner of its first cell. */
  for (unsigned j = 0; !rc && j < r->py; ++j)
    for (unsigned i = 0; !rc && i < r->px; ++i) {
      size_t cell[3] = {first_of(r->o.gx, r->px, i), first_of(r->o.gy, r->py, j), 0};
      rc = lsk_mpi_grid_owner(r->g, cell, &r->owner[j * r->px + i]);
    }
  return lsk_mpi_agree(r->m, rc);
}

/*
 * The migration of out[0..n) (n 0 where this rank failed: rc): sorted by
 * destination, the counts to every rank, then the payload into in; the
 * arrivals' count in *got. The ranks agree between counts and payload.
 */
static int migrate(run *r, int rc, const lsk_particle *out, size_t n, size_t *got)
{
  *got = 0;
  memset(r->sc, 0, (size_t)r->size * sizeof *r->sc);
  if (rc)
    n = 0;
  if (!rc)
    rc = grow(r, (void **)&r->sorted, &r->sorted_cap, n, sizeof *r->sorted);
  if (rc)
    n = 0;
  for (size_t i = 0; i < n; ++i)
    ++r->sc[owner_of(r, &out[i])];
  r->sd[0] = 0;
  for (int k = 1; k < r->size; ++k)
    r->sd[k] = r->sd[k - 1] + r->sc[k - 1];
  for (size_t i = 0; i < n; ++i)
    r->sorted[r->sd[owner_of(r, &out[i])]++] = out[i];
  for (int k = 0; k < r->size; ++k)
    r->sd[k] -= r->sc[k];
  int mrc = MPI_Alltoall(r->sc, 1, MPI_INT, r->rc, 1, MPI_INT, r->comm);
  if (!rc)
    rc = mpi_ok(r, mrc, "MPI_Alltoall of the counts");
  size_t total = 0;
  for (int k = 0; !rc && k < r->size; ++k) {
    r->rd[k] = (int)total;
    total += (size_t)r->rc[k];
  }
  if (!rc && r->local + total > INT_MAX)
    rc = lsk_context_set_error(r->ctx, LSK_ERANGE, "%s: rank %d would hold %zu particles", fn,
                               r->rank, r->local + total);
  if (!rc)
    rc = grow(r, (void **)&r->in, &r->in_cap, total ? total : 1, sizeof *r->in);
  if ((rc = lsk_mpi_agree(r->m, rc)))
    return rc;
  rc = mpi_ok(r,
              MPI_Alltoallv(r->sorted ? r->sorted : r->in, r->sc, r->sd, r->type, r->in, r->rc,
                            r->rd, r->type, r->comm),
              "MPI_Alltoallv of the particles");
  if (!rc)
    *got = total;
  return rc;
}

/* The invariants, collective: locally every particle in this rank's
 * window and in the cell its position says, as many as the rank was
 * given; globally the count and id checksums. Leaves the state in got. */
static int check(run *r, int rc, unsigned step)
{
  uint64_t mine[3] = {0, 0, 0}, all[3] = {0, 0, 0};
  if (!rc)
    rc = grow(r, (void **)&r->got, &r->got_cap, r->local + 1, sizeof *r->got);
  if (!rc)
    rc = grow(r, (void **)&r->cell, &r->cell_cap, r->got_cap, sizeof *r->cell);
  lsk_pic_stats st = {0};
  if (!rc)
    rc = lsk_pic_read(r->pic, r->got, r->cell, r->got_cap, &st);
  if (!rc && st.particles != r->local)
    rc = lsk_context_set_error(r->ctx, LSK_EVERIFY,
                               "%s: step %u: rank %d holds %zu particles, was given %zu", fn, step,
                               r->rank, st.particles, r->local);
  if (!rc && st.pool.live != st.frames)
    rc = lsk_context_set_error(r->ctx, LSK_EVERIFY,
                               "%s: step %u: rank %d: the pool has %zu live frames, the lists %zu",
                               fn, step, r->rank, st.pool.live, st.frames);
  const unsigned gx = r->o.gx;
  for (size_t i = 0; !rc && i < r->local; ++i) {
    const lsk_particle *q = &r->got[i];
    unsigned cx = (unsigned)(q->x / LSK_PIC_UNIT), cy = (unsigned)(q->y / LSK_PIC_UNIT);
    if (r->cell[i] != cy * gx + cx || cx - r->box.offset[0] >= r->box.extent[0] ||
        cy - r->box.offset[1] >= r->box.extent[1])
      rc = lsk_context_set_error(r->ctx, LSK_EVERIFY,
                                 "%s: step %u: particle %u at %d,%d (cell %u,%u) is in cell %u of "
                                 "rank %d, whose cells are %zu..%zu x %zu..%zu",
                                 fn, step, q->id, q->x, q->y, cx, cy, r->cell[i], r->rank,
                                 r->box.offset[0], r->box.offset[0] + r->box.extent[0] - 1,
                                 r->box.offset[1], r->box.offset[1] + r->box.extent[1] - 1);
    mine[0] += 1;
    mine[1] += q->id;
    mine[2] ^= mix(q->id);
  }
  int m1 = MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_SUM, r->comm);
  int m2 = MPI_Allreduce(mine + 2, all + 2, 1, MPI_UINT64_T, MPI_BXOR, r->comm);
  if (!rc)
    rc = mpi_ok(r, m1 != MPI_SUCCESS ? m1 : m2, "MPI_Allreduce of the checksums");
  if (!rc && (all[0] != r->want[0] || all[1] != r->want[1] || all[2] != r->want[2]))
    rc = lsk_context_set_error(r->ctx, LSK_EVERIFY,
                               "%s: step %u: %llu particles on all ranks (want %llu), id sum %llu "
                               "(want %llu), id hash %016llx (want %016llx)",
                               fn, step, (unsigned long long)all[0], (unsigned long long)r->want[0],
                               (unsigned long long)all[1], (unsigned long long)r->want[1],
                               (unsigned long long)all[2], (unsigned long long)r->want[2]);
  return rc;
}

/* This rank's share of the ids, drawn and routed to their owners; the
 * expected checksums; the pic of this rank's window. */
static int start(run *r)
{
  size_t n = r->o.particles, q = n / (size_t)r->size, big = n % (size_t)r->size;
  size_t k = q + ((size_t)r->rank < big),
         first = 1 + (size_t)r->rank * q + ((size_t)r->rank < big ? (size_t)r->rank : big);
  uint64_t x = 0;
  for (size_t id = first; id < first + k; ++id)
    x ^= mix((uint32_t)id);
  int rc = mpi_ok(r, MPI_Allreduce(&x, &r->want[2], 1, MPI_UINT64_T, MPI_BXOR, r->comm),
                  "MPI_Allreduce of the id hash");
  r->want[0] = n;
  r->want[1] = (uint64_t)n * (n + 1) / 2;
  if (!rc)
    rc = grow(r, (void **)&r->out, &r->out_cap, k ? k : 1, sizeof *r->out);
  if (!rc)
    rc = lsk_pic_generate(r->ctx, r->o.gx, r->o.gy, r->o.seed, (uint32_t)first, k, NULL, r->out);
  size_t got = 0;
  if ((rc = migrate(r, rc, r->out, k, &got)))
    return rc;
  r->local = got;
  lsk_pic_options po = {.frame_size = r->o.frame_size,
                        .x0 = (unsigned)r->box.offset[0],
                        .y0 = (unsigned)r->box.offset[1],
                        .wx = (unsigned)r->box.extent[0],
                        .wy = (unsigned)r->box.extent[1]};
  rc = lsk_pic_create(r->ctx, r->o.gx, r->o.gy, r->in, got, &po, &r->pic);
  rc = check(r, rc, 0);
  return lsk_mpi_agree(r->m, rc);
}

/* One step: move, take the leavers, migrate, put the arrivals; checked
 * steps test the invariants. Agreed. */
static int step(run *r, unsigned s, int checked)
{
  int rc = lsk_pic_step(r->pic);
  if (!rc && r->rank == r->o.fail_rank && s == r->o.fail_step)
    rc = lsk_context_set_error(
        r->ctx, LSK_EVERIFY, "%s: step %u: rank %d fails here (fail_step: a test)", fn, s, r->rank);
  size_t n = 0, got = 0;
  if (!rc)
    rc = lsk_pic_take(r->pic, NULL, 0, &n);
  if (!rc)
    rc = grow(r, (void **)&r->out, &r->out_cap, n, sizeof *r->out);
  if (!rc && n)
    rc = lsk_pic_take(r->pic, r->out, r->out_cap, &n);
  for (size_t i = 0; !rc && i < n; ++i) {
    const lsk_particle *q = &r->out[i];
    if (owner_of(r, q) == r->rank)
      rc = lsk_context_set_error(r->ctx, LSK_EVERIFY,
                                 "%s: step %u: particle %u left rank %d's window but is in it", fn,
                                 s, q->id, r->rank);
    /* Past the next rank along an axis (periodic distance over 1). */
    unsigned a = r->col[q->x / LSK_PIC_UNIT], b = r->col[r->box.offset[0]];
    unsigned c = r->row[q->y / LSK_PIC_UNIT], d = r->row[r->box.offset[1]];
    unsigned dx = a > b ? a - b : b - a, dy = c > d ? c - d : d - c;
    dx = dx < r->px - dx ? dx : r->px - dx;
    dy = dy < r->py - dy ? dy : r->py - dy;
    r->far += dx > 1 || dy > 1;
  }
  if ((rc = migrate(r, rc, r->out, n, &got)))
    return rc;
  r->local = r->local - n + got;
  r->migrated += n;
  r->most = n > r->most ? n : r->most;
  rc = lsk_pic_put(r->pic, r->in, got);
  if (checked)
    rc = check(r, rc, s);
  return lsk_mpi_agree(r->m, rc);
}

static int cmp_id(const void *a, const void *b)
{
  uint32_t x = ((const lsk_particle *)a)->id, y = ((const lsk_particle *)b)->id;
  return (x > y) - (x < y);
}

/* Rank 0's check of the whole final state, sorted by id: ids 1..n, and
 * with reference the C reference's particles, field by field. */
static int verify(run *r, lsk_particle *all)
{
  size_t n = r->o.particles;
  qsort(all, n, sizeof *all, cmp_id);
  for (size_t i = 0; i < n; ++i)
    if (all[i].id != i + 1)
      return lsk_context_set_error(r->ctx, LSK_EVERIFY, "%s: id %zu lost or doubled at the end", fn,
                                   i + 1);
  if (!r->o.reference)
    return LSK_OK;
  size_t cells = (size_t)r->o.gx * r->o.gy;
  lsk_particle *ref = malloc(n * sizeof *ref), *binned = malloc(n * sizeof *binned);
  uint32_t *start = malloc((cells + 1) * sizeof *start);
  int rc = !ref || !binned || !start
               ? lsk_context_set_error(r->ctx, LSK_ENOMEM, "%s: out of host memory", fn)
               : lsk_pic_generate(r->ctx, r->o.gx, r->o.gy, r->o.seed, 1, n, NULL, ref);
  for (unsigned s = 0; !rc && s < r->o.steps; ++s)
    rc = lsk_pic_reference_step(r->o.gx, r->o.gy, ref, n, binned, start);
  for (size_t i = 0; !rc && i < n; ++i)
    if (memcmp(&all[i], &ref[i], sizeof *all))
      rc = lsk_context_set_error(r->ctx, LSK_EVERIFY,
                                 "%s: particle %u at %d,%d moving %d,%d; the C reference's at "
                                 "%d,%d moving %d,%d",
                                 fn, all[i].id, all[i].x, all[i].y, all[i].vx, all[i].vy, ref[i].x,
                                 ref[i].y, ref[i].vx, ref[i].vy);
  free(ref);
  free(binned);
  free(start);
  return rc;
}

/* Every particle to rank 0 (the last check left this rank's in got),
 * verified and hashed there; the checksum broadcast. Agreed. */
static int finish(run *r, lsk_pic_mpi_result *out)
{
  int count = (int)r->local, *counts = NULL, *displs = NULL, rc = LSK_OK;
  lsk_particle *all = NULL;
  if (r->rank == 0) {
    counts = malloc((size_t)r->size * sizeof *counts);
    displs = malloc((size_t)r->size * sizeof *displs);
    all = malloc((r->o.particles ? r->o.particles : 1) * sizeof *all);
    if (!counts || !displs || !all)
      rc = lsk_context_set_error(r->ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  }
  int mrc = MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, r->comm);
  if (!rc)
    rc = mpi_ok(r, mrc, "MPI_Gather of the counts");
  if (!rc && r->rank == 0) {
    size_t total = 0;
    for (int k = 0; k < r->size; ++k) {
      displs[k] = (int)total;
      total += (size_t)counts[k];
    }
    if (total != r->o.particles)
      rc = lsk_context_set_error(r->ctx, LSK_EVERIFY, "%s: %zu particles at the end, want %zu", fn,
                                 total, r->o.particles);
  }
  if (!(rc = lsk_mpi_agree(r->m, rc))) {
    rc = mpi_ok(r, MPI_Gatherv(r->got, count, r->type, all, counts, displs, r->type, 0, r->comm),
                "MPI_Gatherv of the particles");
    if (!rc && r->rank == 0 && !(rc = verify(r, all)))
      rc = lsk_pic_checksum(all, r->o.particles, &out->checksum);
    if (!(rc = lsk_mpi_agree(r->m, rc)))
      rc = mpi_ok(r, MPI_Bcast(&out->checksum, 1, MPI_UINT64_T, 0, r->comm),
                  "MPI_Bcast of the checksum");
  }
  free(counts);
  free(displs);
  free(all);
  return rc;
}

int lsk_pic_mpi_run(lsk_mpi *m, const lsk_pic_mpi_options *opt, lsk_pic_mpi_result *out)
{
  lsk_context *ctx = lsk_mpi_context(m);
  if (!ctx)
    return lsk_context_set_error(NULL, LSK_EINVAL, "%s: m is NULL or not an lsk_mpi", fn);
  run r = {.m = m, .ctx = ctx, .comm = lsk_mpi_comm(m), .type = MPI_DATATYPE_NULL};
  r.rank = lsk_mpi_rank(m);
  r.size = lsk_mpi_size(m);
  int rc = LSK_OK;
  if (!opt || !out)
    rc = lsk_context_set_error(ctx, LSK_EINVAL, "%s: %s is NULL", fn, !opt ? "opt" : "out");
  else if (opt->gx == 0 || opt->gy == 0 || opt->gx > LSK_PIC_MAX_EXTENT ||
           opt->gy > LSK_PIC_MAX_EXTENT)
    rc = lsk_context_set_error(ctx, LSK_EINVAL, "%s: grid %ux%u: extents must be from 1 to %u", fn,
                               opt->gx, opt->gy, LSK_PIC_MAX_EXTENT);
  else if (opt->particles == 0 || opt->particles > INT_MAX)
    rc = lsk_context_set_error(ctx, LSK_EINVAL, "%s: %zu particles: must be from 1 to 2^31 - 1", fn,
                               opt->particles);
  if (!rc) {
    r.o = *opt;
    memset(out, 0, sizeof *out);
  }
  if (!rc)
    rc = mpi_ok(&r, MPI_Type_contiguous(5, MPI_UINT32_T, &r.type), "MPI_Type_contiguous");
  if (!rc)
    rc = mpi_ok(&r, MPI_Type_commit(&r.type), "MPI_Type_commit");
  r.sc = malloc(4 * (size_t)r.size * sizeof *r.sc);
  if (!rc && !r.sc)
    rc = lsk_context_set_error(ctx, LSK_ENOMEM, "%s: out of host memory", fn);
  if (r.sc) {
    r.rc = r.sc + r.size;
    r.sd = r.rc + r.size;
    r.rd = r.sd + r.size;
  }
  if (!(rc = lsk_mpi_agree(m, rc)) && !(rc = decompose(&r))) {
    out->parts[0] = r.px;
    out->parts[1] = r.py;
    rc = start(&r);
  }
  /* Step 1 builds the step's kernels: the time counts the steps after it. */
  double t0 = 0;
  unsigned every = r.o.check_every ? r.o.check_every : 1;
  for (unsigned s = 1; !rc && s <= r.o.steps; ++s) {
    if (s == 2 || r.o.steps == 1) {
      rc = lsk_mpi_agree(m, lsk_context_finish(ctx));
      MPI_Barrier(r.comm);
      t0 = MPI_Wtime();
    }
    if (!rc)
      rc = step(&r, s, s % every == 0 || s == r.o.steps);
  }
  if (!rc && r.o.steps) {
    double span = MPI_Wtime() - t0;
    uint64_t sums[2] = {r.migrated, r.far}, all[2] = {0, 0}, most = 0;
    MPI_Allreduce(&span, &out->seconds, 1, MPI_DOUBLE, MPI_MAX, r.comm);
    MPI_Allreduce(sums, all, 2, MPI_UINT64_T, MPI_SUM, r.comm);
    MPI_Allreduce(&r.most, &most, 1, MPI_UINT64_T, MPI_MAX, r.comm);
    out->timed = r.o.steps > 1 ? r.o.steps - 1 : 1;
    out->migrated = all[0];
    out->far = all[1];
    out->most = most;
  }
  if (!rc)
    rc = finish(&r, out);
  lsk_pic_destroy(r.pic);
  lsk_mpi_grid_destroy(r.g);
  if (r.type != MPI_DATATYPE_NULL)
    MPI_Type_free(&r.type);
  free(r.sc);
  free(r.col);
  free(r.row);
  free(r.owner);
  free(r.out);
  free(r.sorted);
  free(r.in);
  free(r.got);
  free(r.cell);
  return rc;
}
