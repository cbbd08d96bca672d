/*
 * check_queues.c: several queues of one context, events and wait lists,
 * non-blocking transfers from pinned memory, the buffer cache, and device
 * verify failures reported per queue and kernel. Every result against a C
 * reference; the orderings are forced with user events, so that a missing
 * dependency shows as a wrong result, not as a lucky race.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "testutil.h"

static const char *src =
    "LSK_KERNEL void produce(LSK_CTX, __global uint *d, uint n, uint salt)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (g < n)\n"
    "        d[g] = g * 2654435761u + salt;\n"
    "    }\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void consume(LSK_CTX, __global const uint *d, __global uint *o, uint n)\n"
    "{\n"
    "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
    "    LSK_FOREACH(it) {\n"
    "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
    "      if (g < n)\n"
    "        o[g] = d[g] ^ (d[g] >> 7);\n"
    "    }\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void bad_a(LSK_CTX, uint code)\n"
    "{\n"
    "  LSK_FOREACH(it) {\n"
    "    if (it.idx == 0)\n"
    "      LSK_VERIFY1(0, \"planted in a\", code);\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void bad_b(LSK_CTX, uint code)\n"
    "{\n"
    "  LSK_FOREACH(it) {\n"
    "    if (it.idx == 0)\n"
    "      LSK_VERIFY1(0, \"planted in b\", code);\n"
    "  }\n"
    "}\n"
    "LSK_KERNEL void good(LSK_CTX, __global uint *d)\n"
    "{\n"
    "  LSK_FOREACH(it) {\n"
    "    if (it.idx == 0)\n"
    "      atomic_inc(d);\n"
    "  }\n"
    "}\n";

static const lsk_launch one = {.domain = {64}, .blocks = {4}};

static uint32_t produced(uint32_t g, uint32_t salt) { return g * 2654435761u + salt; }
static uint32_t consumed(uint32_t v) { return v ^ (v >> 7); }

/* n zero uints, written by the host: oclgrind counts neither a fill nor a
 * buffer's fresh memory as initialized. */
static lsk_buffer *zeros(lsk_context *ctx, size_t n)
{
  lsk_buffer *b = NULL;
  uint32_t *z = calloc(n, 4);
  ck_assert_ptr_nonnull(z);
  TU_OK(ctx, lsk_buffer_create(ctx, n * 4, &b));
  TU_OK(ctx, lsk_buffer_write(b, 0, z, n * 4, NULL));
  free(z);
  return b;
}

static void nap_ms(long ms)
{
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Producer on one queue, consumer on another, ordered only by the
 * producer's event; the producer held by a user event until the consumer
 * is enqueued and has had time to run early if its wait were ignored. */
/* gated: the producer is held by a user event (not under oclgrind, whose
 * clFlush runs the queue to its end and would wait for ever). */
static void producer_consumer(const uint32_t *sizes, size_t nsizes, int gated)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "queues.cl", src);
  lsk_kernel *prod = tu_kernel(p, "produce"), *cons = tu_kernel(p, "consume");
  lsk_queue *qa = NULL, *qb = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, &(lsk_queue_options){.name = "producer"}, &qa));
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &qb));
  ck_assert_str_eq(lsk_queue_name(qa), "producer");
  ck_assert_str_eq(lsk_queue_name(qb), "queue 2");
  ck_assert_str_eq(lsk_queue_name(lsk_context_queue(ctx)), "default");
  for (size_t si = 0; si < nsizes; ++si) {
    uint32_t n = sizes[si], salt = 17u + (uint32_t)si;
    lsk_buffer *d = zeros(ctx, n), *o = zeros(ctx, n);
    lsk_event *gate = NULL, *made = NULL, *used = NULL;
    TU_OK(ctx, lsk_event_user_create(ctx, &gate));
    if (!gated)
      TU_OK(ctx, lsk_event_user_complete(gate));
    TU_OK(ctx, lsk_kernel_launch(
                   prod, &one, LSK_ARGS(LSK_ARG_BUFFER(d), LSK_ARG_UINT(n), LSK_ARG_UINT(salt)),
                   &(lsk_async){.queue = qa, .wait = &gate, .nwait = 1, .event = &made}));
    TU_OK(ctx, lsk_kernel_launch(
                   cons, &one, LSK_ARGS(LSK_ARG_BUFFER(d), LSK_ARG_BUFFER(o), LSK_ARG_UINT(n)),
                   &(lsk_async){.queue = qb, .wait = &made, .nwait = 1, .event = &used}));
    ck_assert_str_eq(lsk_event_what(used), "kernel 'consume'");
    lsk_event_state st;
    if (gated) {
      TU_OK(ctx, lsk_queue_flush(qb));
      nap_ms(20);
      TU_OK(ctx, lsk_event_state_get(used, &st));
      ck_assert_msg(st != LSK_EVENT_COMPLETE && st != LSK_EVENT_FAILED,
                    "the consumer ran before its producer (state %d)", (int)st);
      TU_OK(ctx, lsk_event_user_complete(gate));
    }
    TU_OK(ctx, lsk_event_wait(used));
    TU_OK(ctx, lsk_event_state_get(made, &st));
    ck_assert_int_eq(st, LSK_EVENT_COMPLETE);
    TU_OK(ctx, lsk_queue_finish(qb));
    unsigned *got = tu_read_uints(ctx, o, n);
    for (uint32_t g = 0; g < n; ++g)
      ck_assert_msg(got[g] == consumed(produced(g, salt)), "n %u: o[%u] = %u, want %u", n, g,
                    got[g], consumed(produced(g, salt)));
    free(got);
    lsk_event_release(gate);
    lsk_event_release(made);
    lsk_event_release(used);
    lsk_buffer_destroy(d);
    lsk_buffer_destroy(o);
  }
  TU_OK(ctx, lsk_queue_destroy(qa));
  TU_OK(ctx, lsk_queue_destroy(qb));
  lsk_kernel_destroy(prod);
  lsk_kernel_destroy(cons);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}

START_TEST(test_queues_producer_consumer)
{
  static const uint32_t sizes[] = {1, 1000, 65537, 1u << 20};
  producer_consumer(sizes, sizeof sizes / sizeof *sizes, 1);
}
END_TEST

START_TEST(test_grind_queues_producer_consumer)
{
  static const uint32_t sizes[] = {1, 300};
  producer_consumer(sizes, 2, 0);
}
END_TEST

/* Non-blocking round trips on a second queue: pinned upload, kernel,
 * copy, fill, read back, map; each step waits only for the one before by
 * queue order, the host waits once per round. */
/* pinned: the host side in lsk_pinned memory. Not under oclgrind, which
 * does not see host stores into memory that stays mapped, and so reports
 * an upload from it as uninitialized (its shadow of the mapping). */
static void round_trip(const uint32_t *sizes, size_t nsizes, int pinned)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "queues.cl", src);
  lsk_kernel *cons = tu_kernel(p, "consume");
  lsk_queue *q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  for (size_t si = 0; si < nsizes; ++si) {
    uint32_t n = sizes[si];
    size_t bytes = (size_t)n * 4;
    lsk_pinned *up = NULL, *down = NULL;
    uint32_t *in, *out;
    if (pinned) {
      TU_OK(ctx, lsk_pinned_create(ctx, bytes, &up));
      TU_OK(ctx, lsk_pinned_create(ctx, 2 * bytes, &down));
      ck_assert_uint_eq(lsk_pinned_size(up), bytes);
      in = lsk_pinned_ptr(up);
      out = lsk_pinned_ptr(down);
      ck_assert_uint_eq((uintptr_t)in % 64, 0);
      ck_assert_uint_eq((uintptr_t)out % 64, 0);
    } else {
      in = calloc(n, 4);
      out = calloc(2 * (size_t)n, 4);
      ck_assert(in && out);
    }
    for (uint32_t g = 0; g < n; ++g) {
      ck_assert_uint_eq(out[g], 0); /* zeroed */
      in[g] = produced(g, 5);
    }
    lsk_buffer *d = NULL, *o = NULL, *c = NULL;
    TU_OK(ctx, lsk_buffer_create(ctx, bytes, &d));
    TU_OK(ctx, lsk_buffer_create(ctx, bytes, &o));
    TU_OK(ctx, lsk_buffer_create(ctx, 2 * bytes, &c));
    lsk_async on = {.queue = q};
    TU_OK(ctx, lsk_buffer_write(d, 0, in, bytes,
                                &(lsk_async){.queue = q, .flags = LSK_ASYNC_NONBLOCKING}));
    TU_OK(ctx,
          lsk_kernel_launch(cons, &one,
                            LSK_ARGS(LSK_ARG_BUFFER(d), LSK_ARG_BUFFER(o), LSK_ARG_UINT(n)), &on));
    uint32_t pattern = 0xabcd1234u;
    TU_OK(ctx, lsk_buffer_fill(c, &pattern, 4, bytes, bytes, &on));
    TU_OK(ctx, lsk_buffer_copy(c, 0, o, 0, bytes, &on));
    lsk_event *done = NULL;
    TU_OK(ctx, lsk_buffer_read(
                   c, 0, out, 2 * bytes,
                   &(lsk_async){.queue = q, .event = &done, .flags = LSK_ASYNC_NONBLOCKING}));
    TU_OK(ctx, lsk_event_wait(done));
    for (uint32_t g = 0; g < n; ++g) {
      ck_assert_uint_eq(out[g], consumed(produced(g, 5)));
      ck_assert_uint_eq(out[n + g], pattern);
    }
    lsk_event_release(done);
    /* Map without blocking: the pointer is good once its event is. */
    void *m = NULL;
    lsk_event *mapped = NULL;
    TU_OK(ctx, lsk_buffer_map(
                   o, 0, bytes, &m,
                   &(lsk_async){.queue = q, .event = &mapped, .flags = LSK_ASYNC_NONBLOCKING}));
    TU_OK(ctx, lsk_event_wait(mapped));
    ck_assert_uint_eq(((uint32_t *)m)[n - 1], consumed(produced(n - 1, 5)));
    TU_OK(ctx, lsk_buffer_unmap(o, m, &on));
    TU_OK(ctx, lsk_queue_finish(q));
    lsk_event_release(mapped);
    lsk_buffer_destroy(d);
    lsk_buffer_destroy(o);
    lsk_buffer_destroy(c);
    if (pinned) {
      lsk_pinned_destroy(up);
      lsk_pinned_destroy(down);
    } else {
      free(in);
      free(out);
    }
  }
  /* Size 0: nothing moves, but an event asked for exists and completes. */
  lsk_buffer *b = zeros(ctx, 4);
  lsk_event *e = NULL;
  TU_OK(ctx,
        lsk_buffer_write(b, 0, NULL, 0,
                         &(lsk_async){.queue = q, .event = &e, .flags = LSK_ASYNC_NONBLOCKING}));
  ck_assert_ptr_nonnull(e);
  TU_OK(ctx, lsk_event_wait(e));
  lsk_event_release(e);
  lsk_buffer_destroy(b);
  TU_OK(ctx, lsk_queue_destroy(q));
  lsk_kernel_destroy(cons);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}

START_TEST(test_queues_async_round_trip)
{
  static const uint32_t sizes[] = {1, 7, 1000, 300000};
  round_trip(sizes, sizeof sizes / sizeof *sizes, 1);
}
END_TEST

START_TEST(test_grind_queues_round_trip)
{
  static const uint32_t sizes[] = {1, 70};
  round_trip(sizes, 2, 0);
}
END_TEST

/* The kernel library on a named queue after a wait list: a scan on queue
 * b of data that queue a produces, held by a user event; the sum with
 * lsk_reduce on b too. */
START_TEST(test_queues_library)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "queues.cl", src);
  lsk_kernel *prod = tu_kernel(p, "produce");
  lsk_queue *qa = NULL, *qb = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &qa));
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &qb));
  uint32_t n = 100003;
  lsk_buffer *d = zeros(ctx, n), *s = zeros(ctx, n);
  lsk_event *gate = NULL, *made = NULL, *scanned = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));
  TU_OK(ctx,
        lsk_kernel_launch(prod, &one, LSK_ARGS(LSK_ARG_BUFFER(d), LSK_ARG_UINT(n), LSK_ARG_UINT(3)),
                          &(lsk_async){.queue = qa, .wait = &gate, .nwait = 1, .event = &made}));
  TU_OK(ctx, lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_INCLUSIVE, d, 0, s, 0, n, NULL,
                      &(lsk_async){.queue = qb, .wait = &made, .nwait = 1, .event = &scanned}));
  ck_assert_ptr_nonnull(scanned);
  TU_OK(ctx, lsk_queue_flush(qb));
  nap_ms(20);
  lsk_event_state st;
  TU_OK(ctx, lsk_event_state_get(scanned, &st));
  ck_assert_int_ne(st, LSK_EVENT_COMPLETE);
  TU_OK(ctx, lsk_event_user_complete(gate));
  uint32_t sum = 0;
  TU_OK(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, d, 0, n, &sum, sizeof sum, NULL,
                        &(lsk_async){.queue = qb}));
  unsigned *got = tu_read_uints(ctx, s, n);
  uint32_t run = 0;
  for (uint32_t g = 0; g < n; ++g) {
    run += produced(g, 3);
    ck_assert_msg(got[g] == run, "s[%u] = %u, want %u", g, got[g], run);
  }
  ck_assert_uint_eq(sum, run);
  free(got);
  lsk_event_release(gate);
  lsk_event_release(made);
  lsk_event_release(scanned);
  lsk_buffer_destroy(d);
  lsk_buffer_destroy(s);
  TU_OK(ctx, lsk_queue_destroy(qa));
  TU_OK(ctx, lsk_queue_destroy(qb));
  lsk_kernel_destroy(prod);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

static void stats_eq(lsk_context *ctx, uint64_t hits, uint64_t misses, uint64_t held,
                     uint64_t nheld, uint64_t in_use, uint64_t high)
{
  lsk_buffer_cache_stats s;
  TU_OK(ctx, lsk_buffer_cache_stats_get(ctx, &s));
  ck_assert_msg(s.hits == hits && s.misses == misses && s.bytes_held == held &&
                    s.buffers_held == nheld && s.bytes_in_use == in_use && s.high_water == high,
                "stats: hits %llu misses %llu held %llu (%llu buffers) in use %llu high %llu; "
                "want %llu %llu %llu (%llu) %llu %llu",
                (unsigned long long)s.hits, (unsigned long long)s.misses,
                (unsigned long long)s.bytes_held, (unsigned long long)s.buffers_held,
                (unsigned long long)s.bytes_in_use, (unsigned long long)s.high_water,
                (unsigned long long)hits, (unsigned long long)misses, (unsigned long long)held,
                (unsigned long long)nheld, (unsigned long long)in_use, (unsigned long long)high);
}

/* The cache hands a buffer freed on queue a to queue b only once a has
 * passed the free: a's consumer of the buffer is held by a user event, b
 * allocates the same size class and overwrites what it gets; if b got a's
 * buffer, a's result would be b's pattern. Statistics exact throughout. */
START_TEST(test_queues_cache_order)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "queues.cl", src);
  lsk_kernel *prod = tu_kernel(p, "produce"), *cons = tu_kernel(p, "consume");
  lsk_queue *qa = NULL, *qb = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &qa));
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &qb));
  stats_eq(ctx, 0, 0, 0, 0, 0, 0);
  const uint32_t n = 1000; /* 4000 bytes: the class of 4096 */
  lsk_buffer *x = NULL, *y = NULL, *out = zeros(ctx, n);
  TU_OK(ctx, lsk_buffer_alloc(ctx, n * 4, &x, &(lsk_async){.queue = qa}));
  ck_assert_uint_eq(lsk_buffer_size(x), n * 4);
  stats_eq(ctx, 0, 1, 0, 0, 4096, 4096);
  cl_mem xmem = lsk_buffer_cl(x);
  lsk_event *gate = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));
  lsk_async on_a = {.queue = qa};
  TU_OK(ctx, lsk_kernel_launch(prod, &one,
                               LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_UINT(n), LSK_ARG_UINT(11)),
                               &(lsk_async){.queue = qa, .wait = &gate, .nwait = 1}));
  TU_OK(ctx, lsk_kernel_launch(cons, &one,
                               LSK_ARGS(LSK_ARG_BUFFER(x), LSK_ARG_BUFFER(out), LSK_ARG_UINT(n)),
                               &on_a));
  TU_OK(ctx, lsk_buffer_free(x, &(lsk_async){.queue = qa}));
  stats_eq(ctx, 0, 1, 4096, 1, 0, 4096);
  /* Queue b: a has not passed the free, so a new buffer. */
  TU_OK(ctx, lsk_buffer_alloc(ctx, 3900, &y, &(lsk_async){.queue = qb}));
  ck_assert_ptr_ne(lsk_buffer_cl(y), xmem);
  stats_eq(ctx, 0, 2, 4096, 1, 4096, 8192);
  uint32_t pattern = 0x5eed5eedu;
  TU_OK(ctx, lsk_buffer_fill(y, &pattern, 4, 0, 3900, &(lsk_async){.queue = qb}));
  TU_OK(ctx, lsk_queue_finish(qb));
  TU_OK(ctx, lsk_event_user_complete(gate));
  TU_OK(ctx, lsk_queue_finish(qa));
  unsigned *got = tu_read_uints(ctx, out, n);
  for (uint32_t g = 0; g < n; ++g)
    ck_assert_msg(got[g] == consumed(produced(g, 11)), "out[%u] = %u: the buffer was reused early",
                  g, got[g]);
  free(got);
  /* Now a has passed the free: b takes its own y back at once (the same
   * queue needs no wait), a takes x back. */
  TU_OK(ctx, lsk_buffer_free(y, &(lsk_async){.queue = qb}));
  stats_eq(ctx, 0, 2, 8192, 2, 0, 8192);
  lsk_buffer *x2 = NULL, *y2 = NULL;
  TU_OK(ctx, lsk_buffer_alloc(ctx, 4096, &x2, &(lsk_async){.queue = qb}));
  stats_eq(ctx, 1, 2, 4096, 1, 4096, 8192);
  TU_OK(ctx, lsk_buffer_alloc(ctx, 3600, &y2, &(lsk_async){.queue = qa}));
  stats_eq(ctx, 2, 2, 0, 0, 8192, 8192);
  ck_assert(lsk_buffer_cl(x2) == xmem || lsk_buffer_cl(y2) == xmem);
  /* Another class: a miss; destroy is a free on the buffer's own queue. */
  lsk_buffer *z = NULL;
  TU_OK(ctx, lsk_buffer_alloc(ctx, 100, &z, &(lsk_async){.queue = qa}));
  stats_eq(ctx, 2, 3, 0, 0, 8192 + 256, 8192 + 256);
  lsk_buffer_destroy(z);
  TU_OK(ctx, lsk_buffer_free(x2, NULL));
  TU_OK(ctx, lsk_buffer_free(y2, &(lsk_async){.queue = qa}));
  stats_eq(ctx, 2, 3, 8192 + 256, 3, 0, 8192 + 256);
  TU_OK(ctx, lsk_buffer_cache_trim(ctx));
  stats_eq(ctx, 2, 3, 0, 0, 0, 8192 + 256);
  lsk_event_release(gate);
  lsk_buffer_destroy(out);
  TU_OK(ctx, lsk_queue_destroy(qa));
  TU_OK(ctx, lsk_queue_destroy(qb));
  lsk_kernel_destroy(prod);
  lsk_kernel_destroy(cons);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Turned off, the cache holds nothing and every allocation is new. */
START_TEST(test_queues_cache_off)
{
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.no_buffer_cache = 1});
  lsk_buffer *a = NULL, *b = NULL;
  TU_OK(ctx, lsk_buffer_alloc(ctx, 1000, &a, NULL));
  TU_OK(ctx, lsk_buffer_free(a, NULL));
  TU_OK(ctx, lsk_buffer_alloc(ctx, 1000, &b, NULL));
  stats_eq(ctx, 0, 2, 0, 0, 1000, 1000);
  uint32_t sum = 1;
  lsk_buffer *d = zeros(ctx, 5000);
  TU_OK(ctx, lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, d, 0, 5000, &sum, sizeof sum, NULL, NULL));
  ck_assert_uint_eq(sum, 0);
  TU_OK(ctx, lsk_buffer_free(b, NULL));
  lsk_buffer_destroy(d);
  lsk_context_destroy(ctx);
}
END_TEST

/* Failures planted on two queues, each followed by a good kernel on its
 * queue (counting with an atomic: the queues may run at once): each queue's check names its own
 * queue and failing kernel (not the last one launched), and the context's check reports both in
 * turn. */
START_TEST(test_queues_verify)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "queues.cl", src);
  lsk_kernel *ka = tu_kernel(p, "bad_a"), *kb = tu_kernel(p, "bad_b"), *kg = tu_kernel(p, "good");
  lsk_queue *q1 = NULL, *q2 = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, &(lsk_queue_options){.name = "one"}, &q1));
  TU_OK(ctx, lsk_queue_create(ctx, &(lsk_queue_options){.name = "two"}, &q2));
  lsk_buffer *d = zeros(ctx, 1);
  lsk_launch l = {.domain = {32}, .blocks = {1}};
  for (int round = 0; round < 2; ++round) {
    TU_OK(ctx, lsk_kernel_launch(kb, &l, LSK_ARGS(LSK_ARG_UINT(22)), &(lsk_async){.queue = q2}));
    TU_OK(ctx, lsk_kernel_launch(ka, &l, LSK_ARGS(LSK_ARG_UINT(11)), &(lsk_async){.queue = q1}));
    TU_OK(ctx, lsk_kernel_launch(kg, &l, LSK_ARGS(LSK_ARG_BUFFER(d)), &(lsk_async){.queue = q1}));
    TU_OK(ctx, lsk_kernel_launch(kg, &l, LSK_ARGS(LSK_ARG_BUFFER(d)), &(lsk_async){.queue = q2}));
    if (round == 0) {
      TU_FAILS(ctx, lsk_queue_finish(q1), LSK_EVERIFY,
               "on queue 'one' in kernel 'bad_a' at queues.cl:25: planted in a [11] (1 failure)");
      TU_FAILS(ctx, lsk_queue_finish(q2), LSK_EVERIFY,
               "on queue 'two' in kernel 'bad_b' at queues.cl:32: planted in b [22]");
    } else {
      /* The context: q1 first (made first), q2's kept for the next check. */
      TU_FAILS(ctx, lsk_context_finish(ctx), LSK_EVERIFY, "queue 'one' in kernel 'bad_a'");
      TU_FAILS(ctx, lsk_context_finish(ctx), LSK_EVERIFY, "queue 'two' in kernel 'bad_b'");
    }
    TU_OK(ctx, lsk_queue_finish(q1));
    TU_OK(ctx, lsk_queue_finish(q2));
    TU_OK(ctx, lsk_context_finish(ctx));
  }
  /* Two kernels failing on one queue before one check: each check reports
   * one, none is lost (the one made first, then the other). */
  TU_OK(ctx, lsk_kernel_launch(kb, &l, LSK_ARGS(LSK_ARG_UINT(44)), &(lsk_async){.queue = q1}));
  TU_OK(ctx, lsk_kernel_launch(ka, &l, LSK_ARGS(LSK_ARG_UINT(55)), &(lsk_async){.queue = q1}));
  TU_FAILS(ctx, lsk_queue_finish(q1), LSK_EVERIFY,
           "kernel 'bad_a' at queues.cl:25: planted in a [55]");
  TU_FAILS(ctx, lsk_queue_finish(q1), LSK_EVERIFY,
           "kernel 'bad_b' at queues.cl:32: planted in b [44]");
  TU_OK(ctx, lsk_queue_finish(q1));
  /* An unchecked failure is reported by the queue's destroy. */
  TU_OK(ctx, lsk_kernel_launch(ka, &l, LSK_ARGS(LSK_ARG_UINT(33)), &(lsk_async){.queue = q1}));
  TU_OK(ctx, lsk_queue_finish(q2));
  lsk_event *m = NULL;
  TU_OK(ctx, lsk_kernel_launch(kb, &l, LSK_ARGS(LSK_ARG_UINT(34)), &(lsk_async){.queue = q1}));
  m = NULL;
  TU_OK(ctx, lsk_queue_marker(&(lsk_async){.queue = q1, .event = &m}));
  TU_OK(ctx, lsk_event_wait(m));
  lsk_event_release(m);
  TU_FAILS(
      ctx, lsk_queue_destroy(q1), LSK_EVERIFY,
      "queue 'one' in kernel 'bad_a' at queues.cl:25: planted in a [33] (1 failure); and 1 more "
      "kernel failed on the queue");
  unsigned *got = tu_read_uints(ctx, d, 1);
  ck_assert_uint_eq(got[0], 4);
  free(got);
  lsk_buffer_destroy(d);
  TU_OK(ctx, lsk_queue_destroy(q2));
  lsk_kernel_destroy(ka);
  lsk_kernel_destroy(kb);
  lsk_kernel_destroy(kg);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Events: profiling times in order, wait_all, markers between queues; a
 * queue with work held is not destroyed (LSK_EBUSY) and loses nothing. */
START_TEST(test_queues_events)
{
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.profiling = 1});
  lsk_program *p = tu_program(ctx, "queues.cl", src);
  lsk_kernel *prod = tu_kernel(p, "produce");
  lsk_queue *q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  uint32_t n = 4096;
  lsk_buffer *d = zeros(ctx, n);
  lsk_event *e[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 2; ++i)
    TU_OK(ctx, lsk_kernel_launch(prod, &one,
                                 LSK_ARGS(LSK_ARG_BUFFER(d), LSK_ARG_UINT(n), LSK_ARG_UINT(i)),
                                 &(lsk_async){.queue = i ? q : NULL, .event = &e[i]}));
  /* The default queue waits for q's marker. */
  TU_OK(ctx, lsk_queue_marker(&(lsk_async){.queue = q, .wait = e, .nwait = 2, .event = &e[2]}));
  ck_assert_str_eq(lsk_event_what(e[2]), "marker");
  TU_OK(ctx, lsk_event_wait_all(e, 3));
  for (int i = 0; i < 2; ++i) {
    lsk_event_times t;
    TU_OK(ctx, lsk_event_times_get(e[i], &t));
    ck_assert_msg(t.queued <= t.submitted && t.submitted <= t.start && t.start <= t.end,
                  "times out of order: %llu %llu %llu %llu", (unsigned long long)t.queued,
                  (unsigned long long)t.submitted, (unsigned long long)t.start,
                  (unsigned long long)t.end);
    ck_assert(t.end > 0);
  }
  /* Busy: a command held by a user event. */
  lsk_event *gate = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));
  TU_OK(ctx, lsk_kernel_launch(prod, &one,
                               LSK_ARGS(LSK_ARG_BUFFER(d), LSK_ARG_UINT(n), LSK_ARG_UINT(77)),
                               &(lsk_async){.queue = q, .wait = &gate, .nwait = 1}));
  TU_FAILS(ctx, lsk_queue_destroy(q), LSK_EBUSY, "still has work pending");
  TU_OK(ctx, lsk_event_user_complete(gate));
  TU_FAILS(ctx, lsk_event_user_complete(gate), LSK_EINVAL, "complete already");
  TU_OK(ctx, lsk_queue_finish(q));
  unsigned *got = tu_read_uints(ctx, d, n);
  for (uint32_t g = 0; g < n; ++g)
    ck_assert_uint_eq(got[g], produced(g, 77));
  free(got);
  TU_OK(ctx, lsk_queue_destroy(q));
  for (int i = 0; i < 3; ++i)
    lsk_event_release(e[i]);
  lsk_event_release(gate);
  lsk_buffer_destroy(d);
  lsk_kernel_destroy(prod);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* Completes a user event after a delay, from another thread. */
typedef struct later {
  lsk_event *ev;
  long ms;
} later;

static void *complete_later(void *arg)
{
  later *l = arg;
  nap_ms(l->ms);
  lsk_event_user_complete(l->ev);
  return NULL;
}

/* An association built on a second queue behind a held command, then read
 * with on NULL (the default queue): the read waits for the build, as the
 * association keeps its last build's event, and sees its ranges (read
 * before the build, every range would be empty). */
START_TEST(test_queues_assoc_read_elsewhere)
{
  lsk_context *ctx = tu_context();
  lsk_queue *q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  enum { N = 5000, KEYS = 37 };
  uint32_t *keys = malloc(N * 4);
  size_t count[KEYS] = {0};
  for (uint32_t i = 0; i < N; ++i) {
    keys[i] = (i * 7919u) % (KEYS + 3); /* 3 keys past nkeys: skipped */
    count[keys[i] < KEYS ? keys[i] : 0] += keys[i] < KEYS;
  }
  lsk_buffer *k = zeros(ctx, N);
  TU_OK(ctx, lsk_buffer_write(k, 0, keys, N * 4, NULL));
  lsk_assoc *a = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, KEYS, N, NULL, &a));
  lsk_event *gate = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));
  TU_OK(ctx, lsk_assoc_build(a, k, 0, N, &(lsk_async){.queue = q, .wait = &gate, .nwait = 1}));
  later l = {gate, 50};
  pthread_t t;
  ck_assert_int_eq(pthread_create(&t, NULL, complete_later, &l), 0);
  size_t stored = 0, skipped = 0, want = 0;
  TU_OK(ctx, lsk_assoc_size(a, &stored, &skipped, NULL));
  pthread_join(t, NULL);
  for (unsigned key = 0; key < KEYS; ++key) {
    size_t b = 0, e = 0;
    TU_OK(ctx, lsk_assoc_range(a, key, &b, &e, NULL));
    ck_assert_msg(e - b == count[key], "key %u: %zu elements, want %zu", key, e - b, count[key]);
    want += count[key];
  }
  ck_assert_uint_eq(stored, want);
  ck_assert_uint_eq(skipped, N - want);
  lsk_event_release(gate);
  lsk_assoc_destroy(a);
  lsk_buffer_destroy(k);
  free(keys);
  TU_OK(ctx, lsk_queue_destroy(q));
  lsk_context_destroy(ctx);
}
END_TEST

/* A vector used on a second queue: its size is read on the queue the call
 * names, so it sees a count written there behind a held command (on the
 * default queue it would read the count before the write). */
START_TEST(test_queues_vector)
{
  lsk_context *ctx = tu_context();
  lsk_queue *q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));
  lsk_vector *v = NULL;
  TU_OK(ctx, lsk_vector_create(ctx, 4, 16, &v));
  const lsk_async on = {.queue = q};
  lsk_event *gate = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));
  uint32_t five = 5;
  TU_OK(ctx, lsk_buffer_fill(lsk_vector_count(v), &five, 4, 0, 4,
                             &(lsk_async){.queue = q, .wait = &gate, .nwait = 1}));
  later l = {gate, 50};
  pthread_t t;
  ck_assert_int_eq(pthread_create(&t, NULL, complete_later, &l), 0);
  size_t size = 0, over = 9;
  TU_OK(ctx, lsk_vector_size(v, &size, &over, &on));
  pthread_join(t, NULL);
  ck_assert_uint_eq(size, 5);
  ck_assert_uint_eq(over, 0);
  TU_OK(ctx, lsk_vector_clear(v, &on));
  TU_OK(ctx, lsk_vector_size(v, &size, NULL, &on));
  ck_assert_uint_eq(size, 0);
  lsk_event_release(gate);
  lsk_vector_destroy(v);
  TU_OK(ctx, lsk_queue_destroy(q));
  lsk_context_destroy(ctx);
}
END_TEST

/* Four threads, each driving its own queue of one context: kernels, the
 * kernel library (scan and reduce, whose temporary buffers come from the
 * cache on each thread's queue), transfers; each checks its own results
 * against C, 30 rounds. */
typedef struct worker {
  lsk_context *ctx;
  lsk_kernel *prod;
  unsigned id;
  char why[256];
} worker;

static void *drive(void *arg)
{
  worker *w = arg;
  lsk_context *ctx = w->ctx;
  lsk_queue *q = NULL;
  uint32_t n = 5000 + 777 * w->id;
  lsk_buffer *d = NULL, *s = NULL;
  uint32_t *got = malloc(n * 4);
  int rc = got ? lsk_queue_create(ctx, NULL, &q) : LSK_ENOMEM;
  if (!rc)
    rc = lsk_buffer_alloc(ctx, n * 4, &d, &(lsk_async){.queue = q});
  if (!rc)
    rc = lsk_buffer_alloc(ctx, n * 4, &s, &(lsk_async){.queue = q});
  const lsk_async on = {.queue = q};
  for (unsigned round = 0; !rc && round < 30; ++round) {
    uint32_t salt = w->id * 1000 + round, sum = 0;
    rc = lsk_kernel_launch(w->prod, &one,
                           LSK_ARGS(LSK_ARG_BUFFER(d), LSK_ARG_UINT(n), LSK_ARG_UINT(salt)), &on);
    if (!rc)
      rc = lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, d, 0, s, 0, n, NULL, &on);
    if (!rc)
      rc = lsk_reduce(ctx, LSK_TYPE_UINT, LSK_OP_SUM, d, 0, n, &sum, sizeof sum, NULL, &on);
    if (!rc)
      rc = lsk_buffer_read(s, 0, got, n * 4, &on);
    if (!rc)
      rc = lsk_queue_finish(q);
    uint32_t run = 0;
    for (uint32_t g = 0; !rc && g < n; ++g) {
      if (got[g] != run) {
        snprintf(w->why, sizeof w->why, "thread %u round %u: s[%u] = %u, want %u", w->id, round, g,
                 got[g], run);
        rc = LSK_EVERIFY;
      }
      run += produced(g, salt);
    }
    if (!rc && sum != run) {
      snprintf(w->why, sizeof w->why, "thread %u round %u: sum %u, want %u", w->id, round, sum,
               run);
      rc = LSK_EVERIFY;
    }
  }
  if (rc && !w->why[0])
    snprintf(w->why, sizeof w->why, "thread %u: %s: %s", w->id, lsk_status_name(rc),
             lsk_context_errmsg(ctx));
  lsk_buffer_free(d, &(lsk_async){.queue = q});
  lsk_buffer_free(s, &(lsk_async){.queue = q});
  if (q) {
    lsk_queue_finish(q);
    if (lsk_queue_destroy(q) != LSK_OK && !w->why[0])
      snprintf(w->why, sizeof w->why, "thread %u: destroy: %s", w->id, lsk_context_errmsg(ctx));
  }
  free(got);
  return NULL;
}

START_TEST(test_queues_threads)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "queues.cl", src);
  lsk_kernel *prod = tu_kernel(p, "produce");
  worker w[4];
  pthread_t t[4];
  for (unsigned i = 0; i < 4; ++i) {
    w[i] = (worker){.ctx = ctx, .prod = prod, .id = i};
    ck_assert_int_eq(pthread_create(&t[i], NULL, drive, &w[i]), 0);
  }
  for (unsigned i = 0; i < 4; ++i)
    pthread_join(t[i], NULL);
  for (unsigned i = 0; i < 4; ++i)
    ck_assert_msg(w[i].why[0] == 0, "%s", w[i].why);
  /* Every buffer went back: only idle ones are held. */
  lsk_buffer_cache_stats st;
  TU_OK(ctx, lsk_buffer_cache_stats_get(ctx, &st));
  ck_assert_uint_eq(st.bytes_in_use, 0);
  ck_assert(st.hits > 0);
  lsk_kernel_destroy(prod);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_queues(void)
{
  Suite *s = suite_create("queues");
  TCase *tc = tcase_create("queues");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_queues_producer_consumer);
  tcase_add_test(tc, test_queues_async_round_trip);
  tcase_add_test(tc, test_queues_library);
  tcase_add_test(tc, test_queues_cache_order);
  tcase_add_test(tc, test_queues_cache_off);
  tcase_add_test(tc, test_queues_verify);
  tcase_add_test(tc, test_queues_events);
  tcase_add_test(tc, test_queues_threads);
  tcase_add_test(tc, test_queues_vector);
  tcase_add_test(tc, test_queues_assoc_read_elsewhere);
  suite_add_tcase(s, tc);
  return s;
}

/* Small cases under oclgrind: the kernels of two queues, ordered by
 * events, with no race or uninitialized read. No user event holds a
 * command here: oclgrind 21.10 runs a queue to its end at every flush,
 * and would wait for ever for the event (the cache's order test uses one). */
Suite *suite_grind_queues(void)
{
  Suite *s = suite_create("grind_queues");
  TCase *tc = tcase_create("grind_queues");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, test_grind_queues_producer_consumer);
  tcase_add_test(tc, test_grind_queues_round_trip);
  tcase_add_test(tc, test_queues_verify);
  suite_add_tcase(s, tc);
  return s;
}
