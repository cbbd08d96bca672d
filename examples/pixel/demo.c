/*
 * demo.c: `lsk demo` (the default demo), the pixel-detector clustering
 * pipeline
 * (examples/pixel/pixel.h, docs/example-pixel.md) on the selected device:
 * generated (or read) events, the device pipeline and the plain C
 * reference timed on the same events, every output compared (the cluster
 * of every digi, charges, masks, hits and the association), and a short
 * table. Then the same events as batches over --streams N queues
 * (lsk_pixel_stream: a thread, a queue and an lsk_pixel per stream,
 * uploads from pinned memory), every run's results compared with C.
 * --trace FILE and --profile record every command of every queue
 * (lsk_context_options.trace). With --devices SEL the streams run over a
 * group of devices (lsk/group.h: SEL may name several, --partition K
 * splits each into sub-devices), the batches split over them by weights
 * (--weights, or a triad measured on each), and a line per device says
 * what it did. Exit 1 on any difference.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "pixel.h"
#include "pixel_demo.h"

#define TOL 2e-5f /* cm */

static const char *const usage_text =
    "usage: lsk [--device SEL] demo [pixel] [--events N] [--modules M] [--seed S]\n"
    "                               [--preset pu50] [--invalid N]\n"
    "                               [--repeat R] [--threshold Q] [--input FILE]\n"
    "                               [--output FILE] [--workers W] [--simd S]\n"
    "                               [--lookup grid|hash] [--streams N] [--batch E]\n"
    "                               [--trace FILE] [--profile] [--cms-cut]\n"
    "                               [--devices SEL [--partition K] [--weights W,W...]]\n"
    "(`lsk demo --help` lists the other demos: tour, pic, heat.)\n"
    "Pixel-detector clustering on SoA: digis grouped by module, clustered (one block\n"
    "per module), cluster charges, hits and the module -> hits association on the\n"
    "device, checked against the same pipeline in plain C and timed against it.\n"
    "  --events N        events to generate (default 200)\n"
    "  --modules M       modules per event (default 512)\n"
    "  --seed S          the generator's seed (default 1)\n"
    "  --preset pu50     events like CMS's at pileup 50: 1856 modules (the default\n"
    "                    --modules then), 18,300 +- 3,500 hits per event, the first\n"
    "                    barrel layer crowded, some modules of thousands of digis\n"
    "  --invalid N       mark N digis in 10,000 invalid (module 9999, as CMS's data\n"
    "                    marks bad digis): every stage skips them (default 0)\n"
    "  --repeat R        timed runs of each, the best counts (default 3)\n"
    "  --threshold Q     cluster charge threshold (default 4000)\n"
    "  --cms-cut         CMS's Phase-1 charge cut instead: a cluster kept above 2000\n"
    "                    below module 96, above 4000 from it (LSK_PIXEL_CMS_CUTS)\n"
    "  --input FILE      read the events from FILE (written by --output) instead\n"
    "  --output FILE     write the events to FILE\n"
    "  --workers W, --simd S   the per-module kernels' shape (default: automatic)\n"
    "  --lookup grid|hash      how the clusterizer finds neighbours (default: the grid\n"
    "                    where local memory holds it, as on CPUs, else the hash)\n"
    "  --streams N       then the events as batches over N queues at once, 1 to 16: a\n"
    "                    thread and a pipeline per queue, uploads from pinned memory\n"
    "                    overlapping the other batches' kernels (default 1)\n"
    "  --batch E         events per batch of the streams (default 20)\n"
    "  --trace FILE      record every command of every queue; write the trace to FILE\n"
    "                    (Chrome trace-event JSON: ui.perfetto.dev opens it)\n"
    "  --profile         record every command; print the device time per kernel\n"
    "  --devices SEL     run the streams over a group of devices instead: SEL is a\n"
    "                    comma-separated list of selectors, each naming every device it\n"
    "                    matches ('pthread', '0,2', 'pocl,llvmpipe', '*'); --streams N\n"
    "                    streams on each; the batches split over the devices by weight,\n"
    "                    and a line per device says what it did (docs/devices.md)\n"
    "  --partition K     with --devices: split each device into K equal sub-devices\n"
    "  --weights W,...   with --devices: each device's share (default: a short triad\n"
    "                    measured on each)\n";

/* What one device of a group did (--devices). */
typedef struct member_did {
  double weight, busy;
  size_t batches;
  uint64_t events;
  unsigned streams;
} member_did;

typedef struct demo {
  lsk_pixel_events *ev;
  lsk_context *ctx;
  lsk_pixel *px;
  lsk_pixel_options po;
  lsk_pixel_result *got, *want, *sgot;
  unsigned repeat, streams;
  uint32_t threshold, batch;
  /* --devices: the group, its weights (nweights 0: measured). */
  lsk_group *g;
  double weights[LSK_PIXEL_MAX_STREAMS];
  unsigned nweights;
  member_did did[LSK_PIXEL_MAX_STREAMS];
} demo;

/* "1,2.5,3": at most cap positive numbers; their count, or 0 if bad. */
static unsigned parse_weights(const char *v, double *out, unsigned cap)
{
  unsigned n = 0;
  for (const char *p = v; *p;) {
    char *end;
    errno = 0;
    double x = strtod(p, &end);
    if (end == p || errno || n == cap || (*end && *end != ','))
      return 0;
    out[n++] = x;
    p = *end ? end + 1 : end;
    if (*end && !*p)
      return 0;
  }
  return n;
}

static int parse(const char *v, unsigned long max, unsigned long *out)
{
  unsigned long long x;
  if (cli_parse_uint(v, 0, max, &x))
    return -1;
  *out = (unsigned long)x;
  return 0;
}

/* What each device of the group did in the last run, kept for the
 * report (keep_members) and printed after the table (print_members). */
static void keep_members(demo *d, lsk_pixel_stream *s)
{
  unsigned n = lsk_pixel_stream_count(s), m = lsk_group_size(d->g), per = n / m;
  for (unsigned i = 0; i < m; ++i) {
    member_did *md = &d->did[i];
    *md = (member_did){.streams = per};
    for (unsigned j = 0; j < per; ++j) {
      lsk_pixel_stream_stats st;
      if (lsk_pixel_stream_stats_get(s, i * per + j, &st) != LSK_OK)
        continue;
      md->batches += st.batches;
      md->events += st.events;
      md->busy = st.seconds > md->busy ? st.seconds : md->busy;
      md->weight = st.weight;
    }
  }
}

static void print_members(const demo *d)
{
  unsigned m = lsk_group_size(d->g);
  double wsum = 0;
  for (unsigned i = 0; i < m; ++i)
    wsum += d->did[i].weight;
  printf("\n%-6s %8s %8s %7s %9s  %s\n", "device", "weight", "batches", "events", "busy ms",
         "(the last run)");
  for (unsigned i = 0; i < m; ++i) {
    const member_did *md = &d->did[i];
    lsk_context *c = lsk_group_context(d->g, i);
    const lsk_device_info *dev = lsk_context_device(c);
    printf("%-6u %7.1f%% %8zu %7llu %9.3f  %s (%s)%s%s, %u stream%s%s\n", i,
           100.0 * md->weight / wsum, md->batches, (unsigned long long)md->events, 1e3 * md->busy,
           dev->name, dev->platform_name, dev->partition[0] ? ", sub-device: " : "", dev->partition,
           md->streams, md->streams == 1 ? "" : "s",
           i > 0 && lsk_context_cl(c) == lsk_context_cl(lsk_group_context(d->g, 0))
               ? ", device 0's OpenCL context"
               : "");
  }
  printf("weight: its share of the batches (%s); busy: its slowest stream, wall clock\n",
         d->nweights ? "--weights" : "as its bandwidth on a short triad, measured on each");
}

/* The streams: a checked run (it allocates), then repeat timed runs,
 * each read back and compared with C (want) after its time. Best time in
 * *best; the number of runs compared in *checked. */
static int run_streams(demo *d, double *best, unsigned *checked)
{
  lsk_pixel_stream *s = NULL;
  lsk_pixel_stream_options so = {.streams = d->streams,
                                 .batch_events = d->batch,
                                 .pixel = d->po,
                                 .weights = d->nweights ? d->weights : NULL};
  int rc = d->g ? lsk_pixel_stream_create_group(d->g, &so, &s)
                : lsk_pixel_stream_create(d->ctx, &so, &s);
  if (rc)
    return cli_fail_lsk("demo", d->g ? NULL : d->ctx, rc, "creating the streams");
  /* Messages of a group's streams: on device 0's context. */
  lsk_context *sctx = d->g ? lsk_group_context(d->g, 0) : d->ctx;
  *checked = 0;
  for (unsigned r = 0; r <= d->repeat; ++r) {
    double t0 = cli_now();
    if ((rc = lsk_pixel_stream_run(s, d->ev, d->sgot))) {
      rc = cli_fail_lsk("demo", sctx, rc, "streams");
      break;
    }
    double t = cli_now() - t0;
    if (r > 0)
      *best = r == 1 || t < *best ? t : *best;
    if (lsk_pixel_compare(d->want, d->sgot, TOL)) {
      rc = cli_fail("demo", "%u streams: run %u differs from the C reference: %s", d->streams, r,
                    lsk_context_errmsg(NULL));
      break;
    }
    ++*checked;
  }
  if (!rc && d->g)
    keep_members(d, s);
  lsk_pixel_stream_destroy(s);
  return rc;
}

/* The demo's cluster-size histogram: sizes 1 to SIZE_BINS - 1, then the
 * rest. */
#define SIZE_BINS 10

/* The best of repeat interleaved runs each: the whole pipeline with one
 * wait (*total), the C reference into d->want (*ref), and a run that waits
 * after each stage to time it (*best). 0, or 1 after the message. */
static int timed_runs(demo *d, lsk_pixel_times *best, double *total, double *ref)
{
  const lsk_pixel_events *ev = d->ev;
  lsk_pixel_times t;
  int rc;
  /* A first run allocates the device buffers; not timed. */
  if ((rc = lsk_pixel_run(d->px, ev, NULL)))
    return cli_fail_lsk("demo", d->ctx, rc, "pipeline");
  for (unsigned r = 0; r < d->repeat; ++r) {
    double t0 = cli_now();
    if ((rc = lsk_pixel_run(d->px, ev, NULL)))
      return cli_fail_lsk("demo", d->ctx, rc, "pipeline");
    double t1 = cli_now();
    if ((rc = d->po.cuts
                  ? lsk_pixel_reference_cuts(ev, d->po.cuts, d->po.ncuts, d->po.strict, d->want)
                  : lsk_pixel_reference(ev, d->threshold, d->want)))
      return cli_fail_lsk("demo", NULL, rc, "C reference");
    double t2 = cli_now();
    if ((rc = lsk_pixel_run(d->px, ev, &t)))
      return cli_fail_lsk("demo", d->ctx, rc, "pipeline");
    *total = r == 0 || t1 - t0 < *total ? t1 - t0 : *total;
    *ref = r == 0 || t2 - t1 < *ref ? t2 - t1 : *ref;
    if (r == 0 || t.total < best->total)
      *best = t;
  }
  return 0;
}

/* The results read back and compared with C's (d->want), and the cluster
 * sizes counted on the device (two histograms, before the read) into
 * sizes; 0, or 1 after the message. */
static int checked_results(demo *d, uint32_t sizes[SIZE_BINS + 1])
{
  const lsk_pixel_events *ev = d->ev;
  uint32_t ref_sizes[SIZE_BINS + 1];
  int rc;
  if ((rc = lsk_pixel_cluster_sizes(d->px, SIZE_BINS, sizes)))
    return cli_fail_lsk("demo", d->ctx, rc, "cluster sizes");
  if ((rc = lsk_pixel_read(d->px, d->got)))
    return cli_fail_lsk("demo", d->ctx, rc, "reading the results");
  int same = lsk_pixel_compare(d->want, d->got, TOL);
  if (same)
    return cli_fail("demo", "the device differs from the C reference: %s",
                    lsk_context_errmsg(NULL));
  if (lsk_pixel_reference_sizes(ev, d->want, SIZE_BINS, ref_sizes) ||
      memcmp(sizes, ref_sizes, sizeof ref_sizes))
    return cli_fail("demo", "the device's cluster-size histogram differs from the C reference's");
  return 0;
}

/* The counts, the cluster sizes and the per-stage table. */
static void print_counts(const demo *d, const uint32_t sizes[SIZE_BINS + 1],
                         const lsk_pixel_times *best)
{
  const lsk_pixel_events *ev = d->ev;
  size_t truth = 0;
  for (size_t k = 0; ev->truth && k < d->got->modules; ++k) {
    uint32_t n = 0;
    for (uint32_t i = ev->start[k]; i < ev->start[k + 1]; ++i)
      n = ev->truth[i] + 1 > n ? ev->truth[i] + 1 : n;
    truth += n;
  }
  char cut[80];
  if (d->po.cuts)
    snprintf(cut, sizeof cut, "CMS's cut: charge > 2000 below module 96, > 4000 from it");
  else
    snprintf(cut, sizeof cut, "charge >= %u", d->threshold);
  printf("%u events x %u modules: %zu digis -> %zu clusters -> %zu hits (%s)\n", ev->events,
         ev->modules, ev->digis, d->got->clusters, d->got->nhits, cut);
  if (d->got->skipped)
    printf("%zu invalid digis (module %u) skipped by every stage, as by C\n", d->got->skipped,
           LSK_PIXEL_INVALID);
  if (ev->truth)
    printf("the generator made %zu clusters (some touch, and are one cluster then)\n", truth);
  printf("cluster sizes (digis; histogram on the device, equal to C's):");
  for (unsigned b = 1; b <= SIZE_BINS; ++b)
    printf(" %u%s:%u", b, b == SIZE_BINS ? "+" : "", sizes[b]);
  printf("\n");
  double n = ev->events;
  printf("\n%-26s %10s %12s\n", "stage (lsk, waits between)", "ms", "us/event");
  const struct {
    const char *name;
    double v;
  } rows[] = {{"upload digis", best->upload},
              {"cluster and charge", best->cluster},
              {"scans (first cluster, hit)", best->charge},
              {"hits (+ counts read)", best->hits},
              {"association", best->assoc}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
    printf("%-26s %10.3f %12.2f\n", rows[i].name, 1e3 * rows[i].v, 1e6 * rows[i].v / n);
}

/* The whole pipeline's rates (one wait, the streams, C) and the check. */
static void print_whole(const demo *d, double total, double streamed, double ref, unsigned checked)
{
  const lsk_pixel_events *ev = d->ev;
  double n = ev->events;
  char sname[48];
  if (d->g)
    snprintf(sname, sizeof sname, "lsk, %u devices x %u (+ read)", lsk_group_size(d->g),
             d->streams);
  else
    snprintf(sname, sizeof sname, "lsk, %u stream%s (+ read)", d->streams,
             d->streams == 1 ? "" : "s");
  printf("\n%-26s %10s %12s %12s\n", "whole pipeline", "ms", "us/event", "events/s");
  printf("%-26s %10.3f %12.2f %12.0f\n", "lsk (one wait)", 1e3 * total, 1e6 * total / n, n / total);
  printf("%-26s %10.3f %12.2f %12.0f\n", sname, 1e3 * streamed, 1e6 * streamed / n, n / streamed);
  printf("%-26s %10.3f %12.2f %12.0f\n", "C reference, 1 thread", 1e3 * ref, 1e6 * ref / n,
         n / ref);
  printf("lsk / C: %.2f times the events per second (best of %u; wall clock, upload included)\n",
         ref / total, d->repeat);
  uint32_t batch = d->batch ? d->batch : LSK_PIXEL_BATCH_EVENTS;
  if (d->g)
    printf("devices: %u, %u stream%s each (a queue and a thread), %u batches of up to %u events "
           "split over the devices by weight, results read back and gathered: %.2f times the "
           "one-device run's events per second\n",
           lsk_group_size(d->g), d->streams, d->streams == 1 ? "" : "s",
           (ev->events + batch - 1) / batch, batch, total / streamed);
  else
    printf("streams: %u queue%s, a thread each, %u batches of up to %u events round-robin, "
           "uploads from pinned memory, results read back and gathered: %.2f times the one-wait "
           "run's events per second\n",
           d->streams, d->streams == 1 ? "" : "s", (ev->events + batch - 1) / batch, batch,
           total / streamed);
  if (d->g)
    print_members(d);
  printf("check: every digi's cluster, cluster charges and masks identical to C; hits within "
         "%g cm; association ok; the streams' %u runs too\n",
         (double)TOL, checked);
}

/* The device pipeline and the reference, timed; the comparison; the
 * streams; the report. */
static int run(demo *d)
{
  lsk_pixel_times best = {0};
  double total = 0, ref = 0, streamed = 0;
  uint32_t sizes[SIZE_BINS + 1];
  unsigned checked = 0;
  int rc = timed_runs(d, &best, &total, &ref);
  if (!rc)
    rc = checked_results(d, sizes);
  if (!rc)
    rc = run_streams(d, &streamed, &checked);
  if (rc)
    return rc;
  print_counts(d, sizes, &best);
  print_whole(d, total, streamed, ref, checked);
  return 0;
}

/* The options that are not the demo's state. */
typedef struct pixel_args {
  lsk_pixel_options po;
  lsk_pixel_gen_options g;
  const char *input, *output, *trace, *devices, *weights;
  unsigned partition;
  int profile;
} pixel_args;

/* The options with a value v, but --streams and --batch: 0 if a is one of
 * them and v is good for it, else -1. */
static int parse_valued(demo *d, pixel_args *o, const char *a, const char *v)
{
  unsigned long x = 0;
  if (strcmp(a, "--devices") == 0)
    o->devices = v;
  else if (strcmp(a, "--weights") == 0)
    o->weights = v;
  else if (strcmp(a, "--partition") == 0 && !parse(v, LSK_GROUP_MAX, &x) && x >= 2)
    o->partition = (unsigned)x;
  else if (strcmp(a, "--input") == 0)
    o->input = v;
  else if (strcmp(a, "--trace") == 0)
    o->trace = v;
  else if (strcmp(a, "--output") == 0)
    o->output = v;
  else if (strcmp(a, "--events") == 0 && !parse(v, LSK_PIXEL_MAX_EVENTS, &x) && x)
    o->g.events = (uint32_t)x;
  else if (strcmp(a, "--modules") == 0 && !parse(v, LSK_PIXEL_MAX_MODULES, &x) && x)
    o->g.modules = (uint32_t)x;
  else if (strcmp(a, "--seed") == 0 && !parse(v, (unsigned long)-1, &x))
    o->g.seed = x;
  else if (strcmp(a, "--repeat") == 0 && !parse(v, 100, &x) && x)
    d->repeat = (unsigned)x;
  else if (strcmp(a, "--workers") == 0 && !parse(v, 1024, &x) && x)
    o->po.workers = (unsigned)x;
  else if (strcmp(a, "--simd") == 0 && !parse(v, LSK_PIXEL_BLOCK_DIGIS, &x) && x)
    o->po.simd = (unsigned)x;
  else if (strcmp(a, "--threshold") == 0 && !parse(v, 0xffffffffu, &x) && x)
    d->threshold = (uint32_t)x;
  else if (strcmp(a, "--invalid") == 0 && !parse(v, 10000, &x))
    o->g.invalid = (uint32_t)x;
  else if (strcmp(a, "--preset") == 0 && (!strcmp(v, "pu50") || !strcmp(v, "default")))
    o->g.preset = strcmp(v, "pu50") == 0 ? LSK_PIXEL_PRESET_PU50 : LSK_PIXEL_PRESET_DEFAULT;
  else if (strcmp(a, "--lookup") == 0 && (!strcmp(v, "grid") || !strcmp(v, "hash")))
    o->po.lookup = v[0] == 'g' ? LSK_PIXEL_LOOKUP_GRID : LSK_PIXEL_LOOKUP_HASH;
  else
    return -1;
  return 0;
}

/* The options into d and o: 0, a usage error's status, or -1 after the
 * help. */
static int parse_args(int argc, char **argv, demo *d, pixel_args *o)
{
  /* modules 0: the generator's default (512; 1856 for --preset pu50). */
  *o = (pixel_args){.g = {.events = 200, .modules = 0, .seed = 1}};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    unsigned long long n = 0;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return -1;
    }
    if (strcmp(a, "--profile") == 0) {
      o->profile = 1;
      continue;
    }
    if (strcmp(a, "--cms-cut") == 0) {
      static const lsk_pixel_cut cms[] = LSK_PIXEL_CMS_CUTS;
      o->po.cuts = cms;
      o->po.ncuts = 2;
      o->po.strict = 1;
      continue;
    }
    if (strcmp(a, "--streams") == 0 || strcmp(a, "--batch") == 0) {
      int streams = a[2] == 's';
      int urc = cli_opt_uint("demo", usage_text, a, v, 1,
                             streams ? LSK_PIXEL_MAX_STREAMS : LSK_PIXEL_MAX_EVENTS, &n);
      if (urc)
        return urc;
      if (streams)
        d->streams = (unsigned)n;
      else
        d->batch = (uint32_t)n;
      ++i;
      continue;
    }
    if (!v)
      return cli_usage("demo", usage_text, "%s '%s'",
                       a[0] == '-' ? "option needs a value or is unknown:" : "unexpected argument",
                       a);
    ++i;
    if (parse_valued(d, o, a, v))
      return cli_usage("demo", usage_text, "bad option or value: %s %s", a, v);
  }
  if ((o->partition || o->weights) && !o->devices)
    return cli_usage("demo", usage_text, "%s needs --devices",
                     o->partition ? "--partition" : "--weights");
  if (o->devices && (o->trace || o->profile))
    return cli_usage("demo", usage_text,
                     "--trace and --profile record one context: not with --devices");
  if (o->weights && !(d->nweights = parse_weights(o->weights, d->weights, LSK_PIXEL_MAX_STREAMS)))
    return cli_usage("demo", usage_text,
                     "bad --weights '%s': numbers separated by commas, one per device", o->weights);
  return 0;
}

int pixel_demo(int argc, char **argv)
{
  demo d = {.repeat = 3, .threshold = LSK_PIXEL_THRESHOLD, .streams = 1};
  pixel_args o;
  int prc = parse_args(argc, argv, &d, &o);
  if (prc)
    return prc < 0 ? 0 : prc;
  lsk_pixel_options po = o.po;
  lsk_pixel_gen_options g = o.g;
  const char *input = o.input, *output = o.output, *trace = o.trace, *devices = o.devices;
  unsigned partition = o.partition;
  int profile = o.profile;
  int rc = input ? lsk_pixel_events_read(input, &d.ev) : lsk_pixel_generate(&g, &d.ev);
  if (rc)
    return cli_fail_lsk("demo", NULL, rc, input ? "reading events" : "generating events");
  if (output && (rc = lsk_pixel_events_write(d.ev, output))) {
    lsk_pixel_events_destroy(d.ev);
    return cli_fail_lsk("demo", NULL, rc, "writing events");
  }
  lsk_context_options co = {.trace = trace || profile};
  if (lsk_pixel_result_create(d.ev, &d.got) || lsk_pixel_result_create(d.ev, &d.want) ||
      lsk_pixel_result_create(d.ev, &d.sgot)) {
    rc = cli_fail_lsk("demo", NULL, LSK_ENOMEM, "results");
  } else if (cli_context_open_opt("demo", &co, &d.ctx)) {
    rc = 1;
  } else if (devices &&
             (rc = lsk_group_create(devices, &(lsk_group_options){.partition = partition}, &d.g))) {
    rc = cli_fail_lsk("demo", NULL, rc, "--devices");
  } else if (d.g && d.nweights && d.nweights != lsk_group_size(d.g)) {
    rc = cli_fail("demo", "--weights gives %u weights for %u devices ('%s')", d.nweights,
                  lsk_group_size(d.g), devices);
  } else {
    const lsk_device_info *dev = lsk_context_device(d.ctx);
    printf("lsk %s demo: pixel-detector clustering on %s (%s)%s%s%s\n", lsk_version(), dev->name,
           dev->platform_name, dev->shapes[0] ? ", shapes of the " : "", dev->shapes,
           dev->shapes[0] ? " model" : "");
    if (input)
      printf("events from %s\n", input);
    else
      printf("generated events, seed %llu%s%s\n", (unsigned long long)g.seed,
             output ? ", written to " : "", output ? output : "");
    double t0 = cli_now();
    po.threshold = d.threshold;
    d.po = po;
    rc = lsk_pixel_create(d.ctx, &po, &d.px);
    if (rc)
      rc = cli_fail_lsk("demo", d.ctx, rc, "building the pipeline");
    else {
      printf("kernels built in %.0f ms; neighbours by %s lookup\n", 1e3 * (cli_now() - t0),
             lsk_pixel_lookup(d.px) == LSK_PIXEL_LOOKUP_GRID ? "grid" : "hash");
      rc = run(&d);
    }
    /* The trace and profile of everything that ran, a failed run's too. */
    if ((trace || profile) && cli_trace_finish("demo", d.ctx, trace, profile))
      rc = 1;
  }
  lsk_pixel_destroy(d.px);
  lsk_group_destroy(d.g);
  lsk_context_destroy(d.ctx);
  lsk_pixel_result_destroy(d.got);
  lsk_pixel_result_destroy(d.want);
  lsk_pixel_result_destroy(d.sgot);
  lsk_pixel_events_destroy(d.ev);
  return rc;
}
