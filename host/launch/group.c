/*
 * group.c: several devices in one process (include/lsk/group.h,
 * docs/devices.md): the members' contexts, one OpenCL context shared per
 * platform, sub-devices, the split of a range by weights, and the weights
 * measured with a triad. In the launch layer for the triad (a kernel of
 * its own); the contexts are made with lsk_context_wrap.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch/launch.h"

struct lsk_group {
  lsk__handle h;
  unsigned n;
  lsk_context *ctx[LSK_GROUP_MAX];
  /* The weights, measured once (lsk_group_weights) under lock. */
  pthread_mutex_t lock;
  int measured;
  double gbs[LSK_GROUP_MAX];
};
static const lsk__htype LSK__H_GROUP = {"lsk_group", NULL, 0};
LSK__HANDLE_FIRST(lsk_group);

/* ------------------------------------------------------------------ */
/* The split.                                                          */

/* lsk_split_range's rule, its messages naming fn. */
static int split(const char *fn, size_t n, const double *w, unsigned parts, size_t *first)
{
  double sum = 0;
  for (unsigned i = 0; i < parts; ++i) {
    if (!(w[i] > 0) || !isfinite(w[i]))
      return lsk__fail(NULL, LSK_EINVAL,
                       "%s: weights[%u] is %g: each weight must be positive and finite", fn, i,
                       w[i]);
    sum += w[i];
  }
  if (!isfinite(sum))
    return lsk__fail(NULL, LSK_EINVAL, "%s: the %u weights sum to %g: scale them down", fn, parts,
                     sum);
  first[0] = 0;
  double before = 0;
  for (unsigned i = 1; i < parts; ++i) {
    before += w[i - 1];
    /* The nearest integer, halves up (truncation of a value >= 0.5 is
     * its floor); never past n, never below the previous boundary (sums
     * of positive weights only grow). */
    double at = (double)n * (before / sum) + 0.5;
    size_t b = at >= (double)n ? n : (size_t)at;
    first[i] = b < first[i - 1] ? first[i - 1] : b;
  }
  first[parts] = n;
  return LSK_OK;
}

int lsk_split_range(size_t n, const double *weights, unsigned parts, size_t *first)
{
  LSK__API();
  if (!weights || !first)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, !weights ? "weights" : "first");
  if (parts == 0)
    return lsk__fail(NULL, LSK_EINVAL, "%s: parts is 0", __func__);
  return split(__func__, n, weights, parts, first);
}

/* ------------------------------------------------------------------ */
/* Making the group.                                                   */

/* A member before its context: its platform, its device and whether the
 * group made that device (a sub-device, released once the context holds
 * it). */
typedef struct member {
  cl_platform_id platform;
  cl_device_id device;
  int sub;
  const lsk_device_info *info; /* the listed device it is or comes from */
} member;

static const char *partition_kinds(const cl_device_partition_property *p, size_t n, char *buf,
                                   size_t cap)
{
  size_t used = 0;
  buf[0] = 0;
  for (size_t i = 0; i < n && p[i] && used < cap; ++i)
    used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? ", " : "",
                             p[i] == CL_DEVICE_PARTITION_EQUALLY              ? "equally"
                             : p[i] == CL_DEVICE_PARTITION_BY_COUNTS          ? "by counts"
                             : p[i] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ? "by affinity domain"
                                                                              : "other");
  return used ? buf : "none";
}

/* Splits m->device into k equal sub-devices at out[0..k); LSK_EINVAL
 * naming the device where it cannot. */
static int partition(const member *m, unsigned k, member *out, const char *fn)
{
  const lsk_device_info *d = m->info;
  cl_device_partition_property kinds[8] = {0};
  size_t size = 0;
  if (clGetDeviceInfo(m->device, CL_DEVICE_PARTITION_PROPERTIES, sizeof kinds, kinds, &size) !=
      CL_SUCCESS)
    size = 0;
  size_t nk = size / sizeof kinds[0];
  int equally = 0;
  for (size_t i = 0; i < nk; ++i)
    equally |= kinds[i] == CL_DEVICE_PARTITION_EQUALLY;
  char text[96];
  if (!equally)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: opt->partition %u: device %u (%s, %s) cannot be partitioned equally (its "
                     "partition types: %s)",
                     fn, k, d->index, d->name, d->platform_name,
                     partition_kinds(kinds, nk, text, sizeof text));
  cl_uint most = 0;
  if (clGetDeviceInfo(m->device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof most, &most, NULL) !=
      CL_SUCCESS)
    most = 0;
  if (d->compute_units < k || most < k)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: opt->partition %u: device %u (%s, %s) has %u compute units and at most "
                     "%u sub-devices",
                     fn, k, d->index, d->name, d->platform_name, d->compute_units, most);
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY,
                                          (cl_device_partition_property)(d->compute_units / k), 0};
  cl_uint got = 0;
  cl_int err = clCreateSubDevices(m->device, props, 0, NULL, &got);
  cl_device_id *subs = err || got < k ? NULL : calloc(got, sizeof *subs);
  if (!err && got >= k && !subs)
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
  if (!err && got < k)
    err = CL_DEVICE_PARTITION_FAILED;
  if (!err)
    err = clCreateSubDevices(m->device, props, got, subs, NULL);
  if (err) {
    free(subs);
    return lsk__fail_cl(NULL, err, "clCreateSubDevices",
                        " (%s: opt->partition %u of device %u, %s, %s: %u sub-devices of %u "
                        "compute units)",
                        fn, k, d->index, d->name, d->platform_name, got, d->compute_units / k);
  }
  for (cl_uint i = 0; i < got; ++i) {
    if (i < k)
      out[i] = (member){m->platform, subs[i], 1, d};
    else
      clReleaseDevice(subs[i]); /* the units left over */
  }
  free(subs);
  return LSK_OK;
}

/* The members' contexts: one OpenCL context for the members of each
 * platform (one per member where the platform refuses several devices),
 * a queue and an lsk_context_wrap each. */
static int make_contexts(lsk_group *g, const member *m, const lsk_group_options *o, const char *fn)
{
  cl_command_queue_properties qp =
      (o->context.profiling || o->context.trace) ? CL_QUEUE_PROFILING_ENABLE : 0;
  for (unsigned i = 0; i < g->n; ++i) {
    if (g->ctx[i])
      continue;
    /* The members of i's platform not made yet. */
    unsigned who[LSK_GROUP_MAX], nd = 0;
    cl_device_id devs[LSK_GROUP_MAX];
    for (unsigned j = i; j < g->n; ++j)
      if (!g->ctx[j] && m[j].platform == m[i].platform) {
        who[nd] = j;
        devs[nd++] = m[j].device;
      }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)m[i].platform, 0};
    cl_int err;
    cl_context cl = clCreateContext(props, nd, devs, NULL, NULL, &err);
    if (err && nd > 1) { /* alone, then; the others get theirs in turn */
      nd = 1;
      cl = clCreateContext(props, 1, devs, NULL, NULL, &err);
    }
    if (err)
      return lsk__fail_cl(NULL, err, "clCreateContext", " (%s: member %u, %s)", fn, i,
                          m[i].info->name);
    int rc = LSK_OK;
    for (unsigned k = 0; k < nd && !rc; ++k) {
      unsigned j = who[k];
      cl_command_queue q = clCreateCommandQueue(cl, m[j].device, qp, &err);
      if (err) {
        rc = lsk__fail_cl(NULL, err, "clCreateCommandQueue", " (%s: member %u, %s)", fn, j,
                          m[j].info->name);
        break;
      }
      rc = lsk_context_wrap(cl, m[j].device, q, &o->context, &g->ctx[j]);
      clReleaseCommandQueue(q); /* the context holds it */
      if (rc)
        rc = lsk__fail(NULL, rc, "%s: member %u (%s): %s", fn, j, m[j].info->name,
                       lsk_context_errmsg(NULL));
    }
    clReleaseContext(cl); /* each member's context holds it */
    if (rc)
      return rc;
  }
  return LSK_OK;
}

void lsk_group_destroy(lsk_group *g)
{
  LSK__DESTROY(g, GROUP, __func__);
  for (unsigned i = 0; i < g->n; ++i)
    lsk_context_destroy(g->ctx[i]);
  pthread_mutex_destroy(&g->lock);
  free(g);
}

int lsk_group_create(const char *selector, const lsk_group_options *opt, lsk_group **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  lsk_group_options o = opt ? *opt : (lsk_group_options){0};
  if (o.partition == 1 || o.partition > LSK_GROUP_MAX)
    return lsk__fail(
        NULL, LSK_EINVAL,
        "%s: opt->partition is %u: 0 for whole devices, or 2 to %u sub-devices of each", __func__,
        o.partition, LSK_GROUP_MAX);
  if (o.context.device)
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: opt->context.device is '%s': the selector names the devices", __func__,
                     o.context.device);
  lsk_device_info *list = NULL;
  size_t nlist = 0, nsel = 0;
  unsigned idx[LSK_GROUP_MAX];
  int rc = lsk_device_list(&list, &nlist);
  if (rc && rc != LSK_ENOMEM) /* the listing's message, under this function's name */
    rc = lsk__fail(NULL, rc, "%s: %s", __func__, lsk_context_errmsg(NULL));
  if (!rc)
    rc = lsk__device_select_all(list, nlist, selector, __func__, idx, LSK_GROUP_MAX, &nsel);
  member m[LSK_GROUP_MAX];
  unsigned nm = 0;
  for (size_t s = 0; s < nsel && !rc; ++s) {
    member whole = {.info = &list[idx[s]]};
    cl_int err = lsk__device_ids(whole.info, &whole.platform, &whole.device);
    if (err)
      rc = lsk__fail_cl(NULL, err, __func__, " (device %u, %s)", whole.info->index,
                        whole.info->name);
    else if (nm + (o.partition ? o.partition : 1) > LSK_GROUP_MAX)
      rc = lsk__fail(NULL, LSK_EINVAL, "%s: more than %u members (%zu devices, partition %u)",
                     __func__, LSK_GROUP_MAX, nsel, o.partition);
    else if (o.partition && !(rc = partition(&whole, o.partition, &m[nm], __func__)))
      nm += o.partition;
    else if (!o.partition)
      m[nm++] = whole;
  }
  lsk_group *g = rc ? NULL : lsk__handle_new(sizeof *g, &LSK__H_GROUP, NULL);
  if (!rc && !g)
    rc = lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  if (g && pthread_mutex_init(&g->lock, NULL)) {
    lsk__handle_remove(g, &LSK__H_GROUP, __func__);
    free(g);
    g = NULL;
    rc = lsk__fail(NULL, LSK_ENOMEM, "%s: no mutex", __func__);
  }
  if (g) {
    g->n = nm;
    rc = make_contexts(g, m, &o, __func__);
  }
  /* The contexts hold the sub-devices they use. */
  for (unsigned i = 0; i < nm; ++i)
    if (m[i].sub)
      clReleaseDevice(m[i].device);
  lsk_device_list_free(list);
  if (rc && g) {
    char msg[1024]; /* the failure's message, not the clean-up's */
    snprintf(msg, sizeof msg, "%s", lsk_context_errmsg(NULL));
    lsk_group_destroy(g);
    return lsk__fail(NULL, rc, "%s", msg);
  }
  if (!rc)
    *out = g;
  return rc;
}

unsigned lsk_group_size(const lsk_group *g)
{
  LSK__LIVE_OR(0, g, GROUP, __func__, "g");
  return g->n;
}

lsk_context *lsk_group_context(const lsk_group *g, unsigned member)
{
  LSK__LIVE_OR(NULL, g, GROUP, __func__, "g");
  if (member >= g->n) {
    lsk__fail(NULL, LSK_EINVAL, "%s: member %u is out of range: the group has %u", __func__, member,
              g->n);
    return NULL;
  }
  return g->ctx[member];
}

/* "member 1 (pthread-haswell, 1 of 2 compute units (equally 1), PoCL)". */
#define MEMBER_NAME (3 * LSK_NAME_MAX + 32)
static void member_name(const lsk_group *g, unsigned i, char *buf, size_t cap)
{
  const lsk_device_info *d = lsk_context_device(g->ctx[i]);
  snprintf(buf, cap, "member %u (%s%s%s, %s)", i, d->name, d->partition[0] ? ", " : "",
           d->partition, d->platform_name);
}

int lsk_group_share(lsk_group *g, lsk_buffer *buf, unsigned member, lsk_buffer **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, g, GROUP, __func__, "g");
  LSK__LIVE(NULL, buf, BUFFER, __func__, "buf");
  if (member >= g->n)
    return lsk__fail(NULL, LSK_EINVAL, "%s: member %u is out of range: the group has %u", __func__,
                     member, g->n);
  unsigned from = 0;
  while (from < g->n && g->ctx[from] != lsk__buffer_context(buf))
    ++from;
  if (from == g->n)
    return lsk__fail(NULL, LSK_EINVAL, "%s: buf belongs to no member of the group", __func__);
  if (lsk__buffer_cached(buf))
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: buf comes from the buffer cache (lsk_buffer_alloc), which reuses its "
                     "memory: share a buffer of lsk_buffer_create",
                     __func__);
  lsk_context *to = g->ctx[member];
  if (lsk__context_cl(to) != lsk__context_cl(lsk__buffer_context(buf))) {
    char a[MEMBER_NAME], b[MEMBER_NAME];
    member_name(g, member, a, sizeof a);
    member_name(g, from, b, sizeof b);
    return lsk__fail(NULL, LSK_EINVAL,
                     "%s: %s and %s, buf's, have no OpenCL context in common (another platform): "
                     "copy through the host",
                     __func__, a, b);
  }
  int rc = lsk__buffer_share(to, buf, __func__, out);
  if (rc)
    lsk__fail(NULL, rc, "%s", lsk_context_errmsg(to));
  return rc;
}

int lsk_group_finish(lsk_group *g)
{
  LSK__API();
  LSK__LIVE(NULL, g, GROUP, __func__, "g");
  int first = LSK_OK;
  for (unsigned i = 0; i < g->n; ++i) {
    int rc = lsk_context_finish(g->ctx[i]);
    if (rc && !first) {
      char who[MEMBER_NAME];
      member_name(g, i, who, sizeof who);
      first = lsk__fail(NULL, rc, "%s: %s: %s", __func__, who, lsk_context_errmsg(g->ctx[i]));
    }
  }
  return first;
}

/* ------------------------------------------------------------------ */
/* The weights: a triad on each member.                                */

/* The bench's lsk triad (`lsk bench triad`, bench_kernels.cl), in float:
 * the weights measure the kernel the bench measures. Full data blocks run
 * with no test per element (ForEach's count is the tail; a test in the body
 * becomes masked loads and stores on AVX2), and lsk_sync() ends each data
 * block so that PoCL's workers finish one before the next
 * (docs/lockstep.md, "The last data block"; figures: docs/perf/triad.md,
 * "The triad on AVX2"). */
static const char triad_src[] =
    "LSK_KERNEL void lsk_triad(LSK_CTX, __global float *restrict a,\n"
    "                          __global const float *restrict b,\n"
    "                          __global const float *restrict c, float s, uint n)\n"
    "{\n"
    "  LSK_BLOCKS(blk, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    uint base = blk * LSK_DOMAIN_SIZE;\n"
    "    LSK_FOREACH_N(it, min((uint)LSK_DOMAIN_SIZE, n - base)) {\n"
    "      uint i = base + it.idx;\n"
    "      a[i] = b[i] + s * c[i];\n"
    "    }\n"
    "    lsk_sync();\n"
    "  }\n"
    "}\n";

#define TRIAD_DOMAIN 256u
#define TRIAD_FIRST (1u << 20)
#define TRIAD_LAST (1u << 24)
#define TRIAD_SHORT 1e-3 /* seconds: a run this short is mostly overhead */
#define TRIAD_ROUNDS 3

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One member's triad: its kernel, its arrays a, b = 1, c = 2 of n floats,
 * its best time. */
typedef struct triad {
  lsk_context *ctx;
  lsk_program *prog;
  lsk_kernel *k;
  lsk_buffer *buf[3];
  unsigned n;
  double best;
} triad;

static void triad_free(triad *t)
{
  for (int i = 0; i < 3; ++i)
    lsk_buffer_destroy(t->buf[i]);
  lsk_kernel_destroy(t->k);
  lsk_program_destroy(t->prog);
}

/* One timed run (s = 3); the best time kept. */
static int triad_run(triad *t)
{
  lsk_launch cfg = {.domain = {TRIAD_DOMAIN}, .blocks = {(t->n + TRIAD_DOMAIN - 1) / TRIAD_DOMAIN}};
  double t0 = now();
  int rc =
      lsk_kernel_run(t->k, &cfg,
                     LSK_ARGS(LSK_ARG_BUFFER(t->buf[0]), LSK_ARG_BUFFER(t->buf[1]),
                              LSK_ARG_BUFFER(t->buf[2]), LSK_ARG_FLOAT(3.0f), LSK_ARG_UINT(t->n)),
                     NULL);
  double dt = now() - t0;
  if (!rc && (t->best == 0 || dt < t->best))
    t->best = dt;
  return rc;
}

/* The arrays at n elements, and a run that builds (or warms up). */
static int triad_size(triad *t, unsigned n)
{
  static const float init[3] = {0, 1, 2};
  for (int i = 0; i < 3; ++i) {
    lsk_buffer_destroy(t->buf[i]);
    t->buf[i] = NULL;
  }
  t->n = n;
  int rc = LSK_OK;
  for (int i = 0; i < 3 && !rc; ++i)
    if (!(rc = lsk_buffer_create(t->ctx, (size_t)n * 4, &t->buf[i])))
      rc = lsk_buffer_fill(t->buf[i], &init[i], 4, 0, (size_t)n * 4, NULL);
  t->best = 0;
  return rc ? rc : triad_run(t);
}

/* The member's kernel and the size of its runs: from TRIAD_FIRST
 * elements, four times more while a run is short (and the arrays fit in
 * half the device's memory, each one allocation). */
static int triad_open(triad *t)
{
  const lsk_device_info *d = lsk__context_info(t->ctx);
  uint64_t most = d->max_alloc_size / 4;
  if (d->global_mem_size && d->global_mem_size / 24 < most)
    most = d->global_mem_size / 24;
  unsigned n = most < TRIAD_FIRST ? (unsigned)most : TRIAD_FIRST;
  if (n < TRIAD_DOMAIN)
    return lsk__fail(t->ctx, LSK_ERANGE, "lsk_triad: %s has too little memory for the triad",
                     d->name);
  lsk_program_options po = {.name = "lsk_triad.cl"};
  int rc = lsk_program_create(t->ctx, triad_src, &po, &t->prog);
  if (!rc)
    rc = lsk_kernel_create(t->prog, "lsk_triad", &t->k);
  if (!rc)
    rc = triad_size(t, n); /* builds */
  while (!rc && (rc = triad_run(t)) == LSK_OK && t->best < TRIAD_SHORT && n < TRIAD_LAST &&
         (uint64_t)n * 4 <= most)
    rc = triad_size(t, n *= 4);
  return rc;
}

/* The result, at three places: 1 + 3 * 2. */
static int triad_check(triad *t)
{
  const size_t at[3] = {0, t->n / 2, t->n - 1};
  int rc = LSK_OK;
  for (int i = 0; i < 3 && !rc; ++i) {
    float v = 0;
    rc = lsk_buffer_read(t->buf[0], at[i] * 4, &v, 4, NULL);
    if (!rc && v != 7.0f)
      rc = lsk__fail(t->ctx, LSK_EVERIFY, "lsk_triad: a[%zu] is %g, want 7", at[i], (double)v);
  }
  return rc;
}

/* The weights, measured at the first call (under the lock): each member
 * sized and built, then TRIAD_ROUNDS rounds of one run on each member in
 * turn (each alone; interleaved, so that a slower moment of the machine
 * is spread over all), the best run of each. */
static int measured(lsk_group *g, const char *fn, double *out)
{
  pthread_mutex_lock(&g->lock);
  int rc = LSK_OK;
  unsigned failed = 0;
  if (!g->measured) {
    triad *t = calloc(g->n, sizeof *t);
    if (!t)
      rc = lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", fn);
    for (unsigned i = 0; i < g->n && !rc; ++i) {
      t[i].ctx = g->ctx[i];
      rc = triad_open(&t[i]);
      failed = i;
    }
    for (unsigned r = 0; r < TRIAD_ROUNDS && !rc; ++r)
      for (unsigned i = 0; i < g->n && !rc; ++i) {
        rc = triad_run(&t[i]);
        failed = i;
      }
    for (unsigned i = 0; i < g->n && !rc; ++i) {
      rc = triad_check(&t[i]);
      failed = i;
      g->gbs[i] = 12.0 * t[i].n / t[i].best / 1e9;
    }
    if (rc && t) {
      char who[MEMBER_NAME];
      member_name(g, failed, who, sizeof who);
      lsk__fail(NULL, rc, "%s: the triad on %s: %s", fn, who, lsk_context_errmsg(g->ctx[failed]));
    }
    for (unsigned i = 0; t && i < g->n; ++i)
      triad_free(&t[i]);
    free(t);
    g->measured = !rc;
  }
  if (!rc)
    memcpy(out, g->gbs, g->n * sizeof *out);
  pthread_mutex_unlock(&g->lock);
  return rc;
}

int lsk_group_weights(lsk_group *g, double *weights)
{
  LSK__API();
  LSK__LIVE(NULL, g, GROUP, __func__, "g");
  if (!weights)
    return lsk__fail(NULL, LSK_EINVAL, "%s: weights is NULL", __func__);
  return measured(g, __func__, weights);
}

int lsk_group_split(lsk_group *g, size_t n, const double *weights, size_t *first)
{
  LSK__API();
  LSK__LIVE(NULL, g, GROUP, __func__, "g");
  if (!first)
    return lsk__fail(NULL, LSK_EINVAL, "%s: first is NULL", __func__);
  double w[LSK_GROUP_MAX];
  int rc = weights ? LSK_OK : measured(g, __func__, w);
  return rc ? rc : split(__func__, n, weights ? weights : w, g->n, first);
}
