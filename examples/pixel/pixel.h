/*
 * pixel.h: the pixel-detector clustering example (`lsk demo`), the kind
 * of work that made the CMS pixel reconstruction move to SoA on GPUs.
 *
 * Input: digis (fired pixels: x, y, adc charge, module), grouped by
 * module as a detector's readout gives them (a module's digis contiguous,
 * in readout order, never sorted), for several events of the same number
 * of modules. The pipeline, on the device (examples/pixel/pixel.cl):
 *   cluster  one block per module, the module's digis as the block domain:
 *            connected components over the 8 neighbours (union-find);
 *            cluster ids per module dense 0..k-1 in the order of each
 *            cluster's first digi
 *   charge   in the same kernel: each cluster's charge and moments, with
 *            local atomics over digis; clusters below the threshold are
 *            masked (no hit), not deleted
 *   hits     count, scan, fill: a hit per unmasked cluster (charge-weighted
 *            centroid and spread, global position through the module's
 *            placement), hits in module order
 *   assoc    module -> hits (lsk_assoc)
 * and the same in plain C (lsk_pixel_reference) to check it against.
 * An lsk_pixel runs on one queue (lsk_pixel_options.queue) and uploads
 * from pinned memory; lsk_pixel_stream runs a set of events as batches
 * over several queues at once, as a CUDA application runs one stream per
 * batch of events, on one device or over a group of devices
 * (lsk_pixel_stream_create_group). See docs/example-pixel.md and
 * docs/devices.md.
 *
 * Thread-safety: one lsk_pixel (one lsk_pixel_stream) is used by one
 * thread at a time; lsk_pixels on different queues of one context may run
 * in different threads at once (lsk_pixel_stream does so). The host-only
 * functions (events, generator, files, reference) are reentrant.
 */
#ifndef LSK_PIXEL_H
#define LSK_PIXEL_H

#include <stdint.h>

#include "lsk/lsk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A module: NX x NY pixels of PITCH_X x PITCH_Y cm (CMS's phase-1 module:
 * 160 x 416 pixels of 100 x 150 um). */
#define LSK_PIXEL_NX 160u
#define LSK_PIXEL_NY 416u
#define LSK_PIXEL_PITCH_X 0.0100f
#define LSK_PIXEL_PITCH_Y 0.0150f
/* The most digis a module may have (CMS's clusterizer takes 4000), and
 * the most that the ordinary path's block domain holds: a module of more
 * goes to the large-module path (a block of its own with a domain of
 * LSK_PIXEL_MAX_DIGIS, its working arrays in global memory; see
 * docs/example-pixel.md, "Large modules"). */
#define LSK_PIXEL_MAX_DIGIS 4096u
#define LSK_PIXEL_BLOCK_DIGIS 256u
/* Modules per event, events per set: at most. */
#define LSK_PIXEL_MAX_MODULES 65536u
#define LSK_PIXEL_MAX_EVENTS 1000000u
/* The default charge threshold of a cluster (adc counts). */
#define LSK_PIXEL_THRESHOLD 4000u
/*
 * A charge cut per range of module ids (lsk_pixel_options.cuts): the
 * modules of an event from first_module up to the next range's first
 * take threshold. CMS's Phase-1 cut (clusterChargeCut in CMSSW's
 * SiPixelClusterizer) is LSK_PIXEL_CMS_CUTS, strict: 2000 for the first
 * barrel layer's 96 modules, 4000 above, a cluster kept when its charge
 * is above the threshold (charge > cut), cut at or below it.
 */
typedef struct lsk_pixel_cut {
  uint32_t first_module;
  uint32_t threshold;
} lsk_pixel_cut;
#define LSK_PIXEL_MAX_CUTS 64u
/* clang-format off */
#define LSK_PIXEL_CMS_CUTS {{0u, 2000u}, {96u, 4000u}}
/* clang-format on */
/* No hit: the hit index of a masked cluster. */
#define LSK_PIXEL_NONE 0xffffffffu
/*
 * Invalid digis, as CMS marks them (invalidModuleId): a digi within module
 * m's range whose module is LSK_PIXEL_INVALID, not m, is skipped by every
 * stage (no pixel, no cluster, no charge, no hit); its cluster is
 * LSK_PIXEL_INVALID_CLUSTER ((uint32_t)-9999: CMS's invalid cluster id,
 * -9999, as a uint32_t) and results count them (lsk_pixel_result.skipped).
 * Its x, y and adc are not looked at. Only in sets of at most 9999
 * modules per event: with more, 9999 is an ordinary module id.
 */
#define LSK_PIXEL_INVALID 9999u
#define LSK_PIXEL_INVALID_CLUSTER 0xffffd8f1u

/*
 * A set of events. Digis of all events in one SoA: event e's module m has
 * digis start[e * modules + m] up to start[e * modules + m + 1] - 1, and
 * module[i] == m for each of them, or LSK_PIXEL_INVALID (skipped, above).
 * Within a module no two valid digis share a pixel, and there are at most
 * LSK_PIXEL_MAX_DIGIS digis, invalid ones included.
 */
typedef struct lsk_pixel_events {
  uint32_t events;  /* events in the set */
  uint32_t modules; /* modules per event */
  size_t digis;     /* digis of all events */
  uint16_t *x;      /* [digis] in [0, LSK_PIXEL_NX) */
  uint16_t *y;      /* [digis] in [0, LSK_PIXEL_NY) */
  uint16_t *adc;    /* [digis] charge, nonzero */
  uint32_t *module; /* [digis] the module within its event */
  uint32_t *truth;  /* [digis] the generator's cluster within the module, or NULL */
  uint32_t *start;  /* [events * modules + 1] first digi of each module */
} lsk_pixel_events;

/*
 * lsk_pixel_events_create: a set with every array allocated and zeroed
 * (truth only if with_truth), start all 0: fill it, then set start (or
 * call lsk_pixel_events_index to compute it from module).
 * Errors: LSK_EINVAL (out NULL, events or modules 0 or above the limits),
 * LSK_ENOMEM. The thread's message (lsk_context_errmsg(NULL)) says why.
 */
int lsk_pixel_events_create(uint32_t events, uint32_t modules, size_t digis, int with_truth,
                            lsk_pixel_events **out /* OUT */);
void lsk_pixel_events_destroy(lsk_pixel_events *ev);

/*
 * lsk_pixel_events_index: start from module, given how many digis each
 * event has (per_event[0..events), summing to digis), checking that each
 * event's digis are grouped by module in increasing order. An invalid
 * digi (LSK_PIXEL_INVALID) goes to the module of the valid digi before it
 * in its event (module 0 before the first).
 * Errors: LSK_EINVAL naming the event and digi.
 */
int lsk_pixel_events_index(lsk_pixel_events *ev, const uint32_t *per_event);

/*
 * lsk_pixel_events_check: every rule above (start increasing from 0 to
 * digis, module ids matching start or LSK_PIXEL_INVALID, coordinates in
 * range, adc nonzero, no pixel twice in a module, at most
 * LSK_PIXEL_MAX_DIGIS per module, truth below the module's digi count;
 * an invalid digi's x, y, adc and truth are not checked). LSK_EINVAL naming the first
 * offence, "event 3 module 17: digi 5 at (10, 20) repeats digi 2".
 */
int lsk_pixel_events_check(const lsk_pixel_events *ev);

/* The generator's presets (lsk_pixel_gen_options.preset). */
#define LSK_PIXEL_PRESET_DEFAULT 0u
/* Like CMS's Phase-1 pixel detector at a pileup of 50: 1856 modules per
 * event (the default), 18,300 +- 3,500 clusters (hits) per event, the
 * first barrel layer (modules 0 to 95) eight times as busy per module as
 * the others, and 2 to 4 modules of that layer per event with a burst of
 * 300 to 1,000 more clusters (about 1,000 to 3,500 digis: the
 * large-module path). */
#define LSK_PIXEL_PRESET_PU50 1u

/* The generator's options; all zeros: the defaults. */
typedef struct lsk_pixel_gen_options {
  uint32_t events;  /* 0: 10 */
  uint32_t modules; /* per event; 0: 512 (1856 for PU50) */
  uint64_t seed;    /* any value, 0 included */
  uint32_t preset;  /* LSK_PIXEL_PRESET_*; 0: the default mix below */
  uint32_t invalid; /* digis in 10,000 marked LSK_PIXEL_INVALID (0 to 10,000;
                       events of at most 9,999 modules); 0: none */
} lsk_pixel_gen_options;

/*
 * lsk_pixel_generate: seeded events with realistic clusters: a few
 * adjacent pixels around a random centre sharing a charge (one in ten a
 * longer track-like streak), isolated noise pixels below the threshold,
 * one module in eight empty, one in fifty crowded (up to the maximum
 * digis). Digis of a module come in a random order (as a readout
 * interleaves them), truth set. The same seed gives the same events.
 * With invalid, that many in 10,000 of the digis after each module's
 * first are then marked invalid, as CMS's data marks bad ones, from a
 * stream of their own: the digis and module ranges are those of the same
 * seed without marks.
 * Errors: LSK_EINVAL (bad options), LSK_ENOMEM.
 */
int lsk_pixel_generate(const lsk_pixel_gen_options *opt, lsk_pixel_events **out /* OUT */);

/*
 * Files: a little-endian binary format: "LSKPIXEL", then as u32 the
 * version (1), events, modules per event, flags (bit 0: truth follows),
 * then the digis as u64, the module size nx and ny as u32 each (a file
 * made for another module size is refused), the digis of each event
 * (u32 each), then the columns module (u32), x, y, adc (u16) and, if
 * flagged, truth (u32). Version 2, written where the set has invalid
 * digis: an invalid digi's module is 0x80000000 | m, m the module it sits
 * in (in memory LSK_PIXEL_INVALID), so that a file gives back the same
 * start; version 1 files are read as before.
 * lsk_pixel_events_read validates everything (sizes, the file's length,
 * then lsk_pixel_events_check). A file holds at most 2^24 events x modules
 * (an empty module costs no bytes in the file but a slot in memory):
 * write refuses a larger set with LSK_EINVAL, read with LSK_EIO before it
 * allocates anything. Errors: LSK_EINVAL (a NULL, a bad set),
 * LSK_EIO (cannot open, read or write: names the path; not a pixel
 * file, another version, truncated or too long, inconsistent: names
 * path and what), LSK_ENOMEM.
 */
int lsk_pixel_events_write(const lsk_pixel_events *ev, const char *path);
int lsk_pixel_events_read(const char *path, lsk_pixel_events **out /* OUT */);

/* Where a module sits: global = r * (x, y, 0) + t, r row-major. */
typedef struct lsk_pixel_placement {
  float r[9];
  float t[3];
} lsk_pixel_placement;

/* The example's detector: modules placed on four barrel layers (cm).
 * Fills out[0..modules). */
void lsk_pixel_geometry(uint32_t modules, lsk_pixel_placement *out /* OUT */);

/* The scale of lsk_pixel_hit.iphi: phi = iphi * pi / 2^15 (CMS's int16
 * phi, phi2short: iphi = round(phi * 2^15 / pi), pi itself wrapping to
 * -2^15). */
#define LSK_PIXEL_IPHI_SCALE 32768.0

typedef struct lsk_pixel_hit {
  float x, y;       /* local position (cm, module centre at 0) */
  float xerr, yerr; /* spread (cm): sqrt(variance + 1/12) pixel pitches */
  float g[3];       /* global position (cm) */
  /* Global position relative to the beam spot (lsk_pixel_options.
   * beam_spot), its radius in x-y and its phi as a 16-bit integer (as
   * CMS's hit SoA keeps them). */
  float gb[3];
  float r;
  int16_t iphi;
  uint16_t spare;   /* 0: no padding, so that hits compare with memcmp */
  uint32_t charge;  /* the cluster's */
  uint32_t module;  /* event * modules + module */
  uint32_t cluster; /* the cluster, as an index into charge[] */
} lsk_pixel_hit;

/* A pipeline's results, for a set of events. Clusters of module k
 * (k = event * modules + module) are charge[cluster_start(k) + id] with
 * cluster_start(k) the sum of nclus[0..k). */
typedef struct lsk_pixel_result {
  size_t cap_digis, cap_modules; /* room (lsk_pixel_result_create) */
  size_t modules;                /* events * modules */
  size_t digis, clusters, nhits;
  size_t skipped; /* invalid digis (LSK_PIXEL_INVALID) */
  /* [digis] the digi's cluster within its module; an invalid digi's is
   * LSK_PIXEL_INVALID_CLUSTER */
  uint32_t *clus;
  uint32_t *nclus; /* [modules] clusters per module */
  /* [modules + 1] first cluster of each module: module k's clusters are
   * clus_start[k] to clus_start[k + 1] - 1 in charge and hit (the sum of
   * nclus before k; clus_start[modules] = clusters). */
  uint32_t *clus_start;
  uint32_t *charge;    /* [clusters] */
  uint32_t *hit;       /* [clusters] the cluster's hit, or LSK_PIXEL_NONE (masked) */
  uint32_t *hit_start; /* [modules + 1] first hit of each module */
  lsk_pixel_hit *hits; /* [nhits] in module order */
} lsk_pixel_result;

/* A result with room for ev's (as many clusters and hits as digis).
 * Errors: LSK_EINVAL, LSK_ENOMEM. */
int lsk_pixel_result_create(const lsk_pixel_events *ev, lsk_pixel_result **out /* OUT */);
void lsk_pixel_result_destroy(lsk_pixel_result *r);

/*
 * lsk_pixel_reference: the pipeline in plain C, single-threaded (an
 * occupancy grid and union-find per module), with clusters of charge
 * below threshold masked. Errors: LSK_EINVAL (a NULL, ev not valid, r
 * made for a smaller set), LSK_ENOMEM.
 */
int lsk_pixel_reference(const lsk_pixel_events *ev, uint32_t threshold, lsk_pixel_result *r);
/* The same with a threshold per range of module ids (lsk_pixel_options:
 * cuts, ncuts, strict; cuts NULL: LSK_PIXEL_THRESHOLD for all). Errors as
 * lsk_pixel_reference, and LSK_EINVAL for bad ranges. */
int lsk_pixel_reference_cuts(const lsk_pixel_events *ev, const lsk_pixel_cut *cuts, uint32_t ncuts,
                             int strict, lsk_pixel_result *r);
/* The reference of a pipeline made with opt (its threshold, cuts, strict
 * and beam spot; NULL: the defaults). Errors as lsk_pixel_reference_cuts. */
struct lsk_pixel_options;
int lsk_pixel_reference_opt(const lsk_pixel_events *ev, const struct lsk_pixel_options *opt,
                            lsk_pixel_result *r);

/*
 * lsk_pixel_compare: whether got equals want: the same cluster of every
 * digi, as many skipped, clusters per module, charges and masks (exactly), hits per module,
 * and hit positions and errors within tol (cm) each, iphi within 1. LSK_EVERIFY naming
 * the first difference ("module 17: digi 4 in cluster 2, want 1"),
 * LSK_EINVAL for a NULL.
 */
int lsk_pixel_compare(const lsk_pixel_result *want, const lsk_pixel_result *got, float tol);

/* lsk_pixel_reference_sizes: lsk_pixel_cluster_sizes in plain C from a
 * result r of ev (its clus and clus_start). LSK_EINVAL for NULL or nbins
 * below 2, LSK_ENOMEM. */
int lsk_pixel_reference_sizes(const lsk_pixel_events *ev, const lsk_pixel_result *r, uint32_t nbins,
                              uint32_t *counts /* OUT */);

/* ---- The device pipeline ---- */

typedef struct lsk_pixel lsk_pixel;

/* How the clusterizer finds a pixel's neighbours (lsk_pixel_options.lookup;
 * docs/example-pixel-cluster.md). Results never depend on it. */
enum {
  LSK_PIXEL_LOOKUP_AUTO = 0, /* the grid where local memory is plain memory
                                and large enough (CPUs), else the hash */
  LSK_PIXEL_LOOKUP_GRID = 1, /* a grid of the module: 133,120 more bytes of
                                local memory per block, one load each */
  LSK_PIXEL_LOOKUP_HASH = 2  /* a hash table and an occupancy filter: fits
                                in 16 KiB of local memory (GPUs) */
};

/* All zeros: the defaults. */
typedef struct lsk_pixel_options {
  uint32_t threshold; /* cluster charge threshold; 0: LSK_PIXEL_THRESHOLD */
  /* The per-module kernels' shape (0: automatic) and blocks (0: a few per
   * compute unit on CPUs, one per module on GPUs); results never depend
   * on them. For tests and tuning. */
  unsigned workers, simd;
  size_t blocks;
  unsigned lookup; /* LSK_PIXEL_LOOKUP_*; 0: automatic */
  /* The queue (queue.h) of everything the lsk_pixel enqueues: its
   * uploads, kernels, kernel-library calls (scans, the association) and
   * reads; its waits are lsk_queue_finish of this queue alone, so that
   * lsk_pixels on other queues run on meanwhile. NULL: the context's
   * default queue. It must outlive the lsk_pixel. */
  lsk_queue *queue;
  /* A threshold per range of module ids instead of threshold: ncuts
   * ranges (1 to LSK_PIXEL_MAX_CUTS), the first at module 0, first_module
   * increasing; copied at create. NULL: threshold for every module. */
  const lsk_pixel_cut *cuts;
  uint32_t ncuts;
  /* 1: keep a cluster whose charge is above its threshold (CMS's rule);
   * 0: at or above it (lsk's default). */
  int strict;
  /* The beam spot (cm) that hits' gb, r and iphi are relative to. */
  float beam_spot[3];
} lsk_pixel_options;

/* Wall-clock seconds of each stage of the last lsk_pixel_run: cluster is
 * the clusters with their charges (one kernel), charge the scans that
 * place each module's clusters and hits, hits the hits. */
typedef struct lsk_pixel_times {
  double upload, cluster, charge, hits, assoc, total;
} lsk_pixel_times;

/*
 * lsk_pixel_create: builds the example's program (examples/pixel/pixel.cl behind
 * the generated views of its digi, cluster and hit layouts).
 * Errors: LSK_EINVAL (a NULL, bad options, opt->queue not a live queue of
 * ctx), LSK_ELAUNCH (workers, or the grid lookup's local memory, past the
 * device's limits), LSK_ENOMEM, LSK_EBUILD, OpenCL codes.
 *
 * Memory: device buffers of the largest set run so far (grown, never
 * shrunk: the digis, clusters and hits), the per-module buffers of the
 * last set's module count (from the buffer cache, lsk_buffer_alloc on the
 * queue: a stream whose batches change size takes them back from the
 * cache), the association, and a pinned staging area (lsk_pinned) for one
 * set's digis and module starts. The kernel library's temporaries (the
 * scans') come from the buffer cache on the same queue.
 *
 * Uploads come from pinned memory: lsk_pixel_run copies the set's digi
 * columns and module starts into the staging area, in the layout of the
 * device's digi buffer, and uploads them with non-blocking lsk_buffer_write
 * (one DMA from page-locked memory on GPUs). On CPUs, where the device's
 * memory is the host's and a write is one more memcpy, the digis go
 * straight into the digi buffer mapped on the pipeline's queue (only the
 * module starts through the staging area); where that map is not aligned
 * for the view (oclgrind), the staging path. A staging
 * area rather than events allocated in pinned memory: any set works (the
 * generator's, a file's, a batch that is a view into a larger set), the
 * caller may reuse its events as soon as lsk_pixel_run returns, and the
 * pinned memory (scarce on GPU machines) stays one batch per lsk_pixel,
 * not whole data sets. The copy costs one pass over the digis on the
 * host (docs/queues-streams.md; figures: docs/perf/pixel.md, "The pinned
 * staging area").
 */
int lsk_pixel_create(lsk_context *ctx, const lsk_pixel_options *opt, lsk_pixel **out /* OUT */);
void lsk_pixel_destroy(lsk_pixel *px);

/*
 * lsk_pixel_run: the pipeline over ev on px's queue: uploads the digis
 * from the pinned staging area (growing the device buffers as needed) and
 * runs every stage. It checks only what memory safety needs (start
 * increasing from 0 to digis, at most LSK_PIXEL_MAX_DIGIS per module);
 * results are right for sets that pass lsk_pixel_events_check (the
 * generator's and the reader's do). With times NULL it waits for its
 * queue twice: for the number of hits, which the association needs, and
 * at the end; with times it also waits after each stage to time it.
 * Results stay on the device. ev is not used once it returns.
 * Errors: LSK_EINVAL, LSK_ENOMEM, LSK_EVERIFY, OpenCL codes.
 */
int lsk_pixel_run(lsk_pixel *px, const lsk_pixel_events *ev, lsk_pixel_times *times /* OUT */);

/*
 * lsk_pixel_read: the last run's results into r (made for that set or a
 * larger one). Also checks the module -> hits association against the hit
 * order: LSK_EVERIFY naming the module if a module's hits differ. Every
 * read is enqueued on px's queue, then one wait (lsk_queue_finish).
 */
int lsk_pixel_read(lsk_pixel *px, lsk_pixel_result *r);

/*
 * lsk_pixel_cluster_sizes: the last run's cluster sizes counted on the
 * device: counts[s] (s < nbins) clusters of s digis, counts[nbins] those
 * of nbins digis or more (counts[0] is 0: no cluster is empty); nbins + 1
 * entries. Each digi's cluster numbered over the run, a histogram of those
 * numbers (the sizes), then a histogram of the sizes (lsk_histogram_uint
 * twice, on px's queue); waits. Errors: LSK_EINVAL (NULL, nbins not 2 to
 * 65536, no run yet), the kernel library's.
 */
int lsk_pixel_cluster_sizes(lsk_pixel *px, uint32_t nbins, uint32_t *counts /* OUT */);

/* The lookup that px's clusterizer uses (LSK_PIXEL_LOOKUP_GRID or _HASH;
 * 0 for a NULL or destroyed px). */
unsigned lsk_pixel_lookup(const lsk_pixel *px);

/* The cluster charge threshold px applies (the option, or
 * LSK_PIXEL_THRESHOLD for 0); 0 for a NULL or destroyed px. */
uint32_t lsk_pixel_threshold(const lsk_pixel *px);

/* The per-module kernels' shape in use: workers and simd (0: lsk's
 * automatic rule decides per launch) and the most blocks a run takes.
 * Errors: LSK_EINVAL (NULL or destroyed px, NULL outputs). */
int lsk_pixel_shape(const lsk_pixel *px, unsigned *workers /* OUT */, unsigned *simd /* OUT */,
                    size_t *blocks /* OUT */);

/* The last run's module -> hits association (keys: event * modules +
 * module; elements: hit indices), owned by px; NULL before a run. */
lsk_assoc *lsk_pixel_assoc(const lsk_pixel *px);

/* The queue px runs on (the option, or the context's default queue); NULL
 * for a NULL or destroyed px. */
lsk_queue *lsk_pixel_queue(const lsk_pixel *px);

/* ---- Streams: a set of events as batches over several queues ---- */

/* The most streams, and the events of a batch by default. */
#define LSK_PIXEL_MAX_STREAMS 16u
#define LSK_PIXEL_BATCH_EVENTS 20u

typedef struct lsk_pixel_stream lsk_pixel_stream;

/* All zeros: the defaults. */
typedef struct lsk_pixel_stream_options {
  unsigned streams;        /* queues, each with a thread and an lsk_pixel; 0: 1
                              (over a group: on each member) */
  uint32_t batch_events;   /* events per batch; 0: LSK_PIXEL_BATCH_EVENTS */
  lsk_pixel_options pixel; /* every stream's pipeline (its .queue must be NULL) */
  /* Over a group (lsk_pixel_stream_create_group): each member's share of
   * the batches, lsk_group_size of them (copied); NULL: the group's
   * measured weights (lsk_group_weights). Must be NULL without a group. */
  const double *weights;
} lsk_pixel_stream_options;

/*
 * lsk_pixel_stream_create: streams queues of ctx ("stream 0", "stream 1",
 * ...: their names in a trace), an lsk_pixel on each. opt may be NULL.
 * Errors: LSK_EINVAL (a NULL, streams above LSK_PIXEL_MAX_STREAMS,
 * batch_events above LSK_PIXEL_MAX_EVENTS, pixel.queue set), and those of
 * lsk_queue_create and lsk_pixel_create.
 */
int lsk_pixel_stream_create(lsk_context *ctx, const lsk_pixel_stream_options *opt,
                            lsk_pixel_stream **out /* OUT */);
/*
 * lsk_pixel_stream_create_group: the streams over the devices of a group
 * (lsk/group.h, docs/devices.md): opt->streams (0: 1) streams on each
 * member's context, stream k on member k / opt->streams, at most
 * LSK_PIXEL_MAX_STREAMS in all. A run splits its batches over the members
 * by opt->weights (lsk_group_split over the number of batches: member i
 * takes a run of consecutive batches, by its weight), and each member's
 * streams take its batches in turn. The results are the whole set's, as
 * with one context: identical whatever the members (within the hits'
 * float rounding across different implementations). g must outlive the
 * streams. Messages of the create: the thread's (lsk_context_errmsg(NULL));
 * of the other calls: member 0's context.
 * Errors: LSK_EINVAL (a NULL, a bad g, more streams than
 * LSK_PIXEL_MAX_STREAMS, bad weights), those of lsk_group_weights where
 * they are measured, and those of lsk_pixel_stream_create.
 */
int lsk_pixel_stream_create_group(lsk_group *g, const lsk_pixel_stream_options *opt,
                                  lsk_pixel_stream **out /* OUT */);
/* Frees the lsk_pixels and the queues (each finished first). NULL is
 * allowed. */
void lsk_pixel_stream_destroy(lsk_pixel_stream *s);

/*
 * lsk_pixel_stream_run: ev cut into batches of batch_events events (the
 * last one shorter where they do not divide), batch b run on stream
 * b mod streams, each stream in a thread of its own (stream 0 in the
 * caller's) that drives its lsk_pixel on its queue: while one stream
 * uploads a batch from its pinned staging area, the others' kernels run.
 * With r not NULL each batch is read back on its stream and the batches
 * gathered into r, in order, as they complete: r is then exactly what
 * lsk_pixel_run and lsk_pixel_read over the whole set give (module,
 * cluster and hit indices of the whole set), whatever the streams and the
 * batch size. With r NULL nothing is read back (results stay on the
 * device, the last batch of each stream's). Returns when every batch is
 * done; after a failure the other streams stop at their next batch.
 * Errors: LSK_EINVAL (a NULL, ev's start out of order, r too small),
 * LSK_ENOMEM, and those of lsk_pixel_run and lsk_pixel_read, the message
 * naming the stream and the batch.
 */
int lsk_pixel_stream_run(lsk_pixel_stream *s, const lsk_pixel_events *ev,
                         lsk_pixel_result *r /* OUT, may be NULL */);

/* The streams and the events per batch of s; 0 for a NULL or destroyed s. */
unsigned lsk_pixel_stream_count(const lsk_pixel_stream *s);
uint32_t lsk_pixel_stream_batch(const lsk_pixel_stream *s);
/* Stream k's lsk_pixel (owned by s: for its lookup and shape), NULL for a
 * bad s or k. */
lsk_pixel *lsk_pixel_stream_pixel(const lsk_pixel_stream *s, unsigned k);

/* What stream k did in the last lsk_pixel_stream_run. */
typedef struct lsk_pixel_stream_stats {
  unsigned member;  /* its group member (0 without a group) */
  lsk_context *ctx; /* its context (the member's) */
  double weight;    /* its member's weight (1 without a group) */
  size_t batches;   /* batches it ran */
  uint64_t events;  /* their events */
  double seconds;   /* wall clock its thread took for them, reads included */
} lsk_pixel_stream_stats;
/* Errors: LSK_EINVAL (a bad s, k out of range, out NULL). */
int lsk_pixel_stream_stats_get(const lsk_pixel_stream *s, unsigned k,
                               lsk_pixel_stream_stats *out /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* LSK_PIXEL_H */
