/*
 * check_badinput_queues.c: bad input to every public function of queue.h,
 * pinned.h, trace.h, the asynchronous and cached calls of buffer.h and
 * lsk_kernel_launch_async (rows: badinput.h): NULLs, an event of another
 * context, a NULL in a wait list, released events and destroyed queues, a
 * wait list longer than allowed, a queue destroyed with work pending, and
 * what each leaves behind (nothing lost).
 */
#include <stdint.h>
#include <stdio.h>

#include "badinput.h"

static const char *src = "LSK_KERNEL void fill(LSK_CTX, __global uint *data, uint n)\n"
                         "{\n"
                         "  LSK_FOREACH(it) {\n"
                         "    if (it.idx < n)\n"
                         "      data[it.idx] = it.idx + 1u;\n"
                         "  }\n"
                         "}\n";

static const lsk_launch one = {.domain = {64}, .blocks = {1}};

/* An event released just now: nothing is made between this and the call
 * that uses it (a new handle could take its address). */
static lsk_event *dead_event(lsk_context *ctx)
{
  lsk_event *e = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &e));
  lsk_event_release(e);
  return e;
}

/* ------------------------------------------------------------------ */
/* queue.h                                                             */

START_TEST(test_bi_queues)
{
  lsk_context *ctx = tu_context(), *other = tu_context();
  lsk_buffer *buf = tu_zeros(ctx, 64);
  lsk_queue *q = NULL, *out = (lsk_queue *)&out;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &q));

  BAD(ctx, "lsk_queue_create", lsk_queue_create(ctx, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_queue_create", lsk_queue_create(NULL, NULL, &out), LSK_EINVAL, "ctx is NULL");
  ck_assert_ptr_null(out);
  BAD(NULL, "lsk_queue_create", lsk_queue_create((lsk_context *)buf, NULL, &out), LSK_EINVAL,
      WRONG("context", "buffer"));
  char longname[100];
  memset(longname, 'q', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  BAD(ctx, "lsk_queue_create", lsk_queue_create(ctx, &(lsk_queue_options){.name = longname}, &out),
      LSK_EINVAL, "longer than 63 bytes");

  /* The default queue goes with the context. */
  BAD(ctx, "lsk_queue_destroy", lsk_queue_destroy(lsk_context_queue(ctx)), LSK_EINVAL,
      "'default' is the context's default queue");
  BAD(NULL, "lsk_queue_destroy", lsk_queue_destroy((lsk_queue *)buf), LSK_EINVAL,
      WRONG("queue", "buffer"));
  QUIET("lsk_queue_destroy", lsk_queue_destroy(NULL) == LSK_OK);

  BADV("lsk_context_queue", lsk_context_queue((lsk_context *)buf), NULL,
       WRONG("context", "buffer"));
  QUIET("lsk_context_queue", lsk_context_queue(NULL) == NULL);
  BAD(NULL, "lsk_queue_finish", lsk_queue_finish(NULL), LSK_EINVAL, "q is NULL");
  BAD(NULL, "lsk_queue_flush", lsk_queue_flush((lsk_queue *)buf), LSK_EINVAL,
      WRONG("queue", "buffer"));
  BADV("lsk_queue_name", lsk_queue_name((lsk_queue *)buf)[0], 0, WRONG("queue", "buffer"));
  QUIET("lsk_queue_name", lsk_queue_name(NULL)[0] == 0);
  BADV("lsk_queue_cl", lsk_queue_cl((lsk_queue *)buf), NULL, WRONG("queue", "buffer"));

  /* A destroyed queue refuses everything. */
  lsk_queue *dead = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &dead));
  TU_OK(ctx, lsk_queue_destroy(dead));
  BAD(NULL, "lsk_queue_finish", lsk_queue_finish(dead), LSK_EINVAL, DEAD("queue"));
  BAD(NULL, "lsk_queue_destroy", lsk_queue_destroy(dead), LSK_EINVAL, DEAD("queue"));
  BAD(ctx, "lsk_buffer_write_async",
      lsk_buffer_write_async(buf, 0, longname, 4, &(lsk_async){.queue = dead}), LSK_EINVAL,
      DEAD("queue"));

  /* A queue of another context. */
  lsk_queue *oq = lsk_context_queue(other);
  BAD(ctx, "lsk_buffer_fill_async",
      lsk_buffer_fill_async(buf, longname, 4, 0, 4, &(lsk_async){.queue = oq}), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");

  /* Objects of the kernel library that take a queue. */
  lsk_pool *pool = (lsk_pool *)&pool;
  BAD(ctx, "lsk_pool_create", lsk_pool_create(ctx, 16, 4, &(lsk_pool_options){.queue = oq}, &pool),
      LSK_EINVAL, "opt->queue: queue 'default' belongs to another context");
  lsk_assoc *as = NULL;
  BAD(ctx, "lsk_assoc_create", lsk_assoc_create(ctx, 4, 4, &(lsk_assoc_options){.queue = oq}, &as),
      LSK_EINVAL, "opt->queue: queue 'default' belongs to another context");
  BAD(ctx, "lsk_assoc_create",
      lsk_assoc_create(ctx, 4, 4, &(lsk_assoc_options){.algo.on = &(lsk_async){0}}, &as),
      LSK_EINVAL, "opt->algo.on is set; an association takes opt->queue");
  ck_assert_ptr_null(as);

  /* An object whose queue was destroyed refuses to launch on it. */
  lsk_queue *gone_q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &gone_q));
  lsk_pool *pl = NULL;
  TU_OK(ctx, lsk_pool_create(ctx, 16, 4, &(lsk_pool_options){.queue = gone_q}, &pl));
  TU_OK(ctx, lsk_queue_destroy(gone_q));
  BAD(ctx, "lsk_pool_gc", lsk_pool_gc(pl), LSK_EINVAL, DEAD("queue"));
  lsk_pool_destroy(pl);
  /* A vector on a queue: refused for a queue of another context, a dead
   * queue, a bad vector; a destroyed queue refuses its later calls. */
  lsk_vector *vec = NULL;
  TU_OK(ctx, lsk_vector_create(ctx, 4, 8, &vec));
  BAD(ctx, "lsk_vector_set_queue", lsk_vector_set_queue(vec, oq), LSK_EINVAL,
      "q: queue 'default' belongs to another context");
  BAD(NULL, "lsk_vector_set_queue", lsk_vector_set_queue(NULL, NULL), LSK_EINVAL, "vector is NULL");
  lsk_queue *vq = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &vq));
  TU_OK(ctx, lsk_vector_set_queue(vec, vq));
  TU_OK(ctx, lsk_vector_clear(vec));
  TU_OK(ctx, lsk_queue_finish(vq));
  TU_OK(ctx, lsk_queue_destroy(vq));
  size_t vsize = 9;
  BAD(ctx, "lsk_vector_size", lsk_vector_size(vec, &vsize, NULL), LSK_EINVAL, DEAD("queue"));
  BAD(ctx, "lsk_vector_set_queue", lsk_vector_set_queue(vec, vq), LSK_EINVAL, DEAD("queue"));
  TU_OK(ctx, lsk_vector_set_queue(vec, NULL));
  TU_OK(ctx, lsk_vector_size(vec, &vsize, NULL));
  ck_assert_uint_eq(vsize, 0);
  lsk_vector_destroy(vec);
  /* A library call failing early leaves no event behind. */
  lsk_event *stale = (lsk_event *)&stale;
  BAD(ctx, "lsk_scan",
      lsk_scan(ctx, (lsk_type)99, LSK_SCAN_EXCLUSIVE, buf, 0, buf, 0, 4,
               &(lsk_algo_options){.on = &(lsk_async){.event = &stale}}),
      LSK_EINVAL, "type 99");
  ck_assert_ptr_null(stale);

  /* Work pending: refused, and nothing lost. */
  lsk_event *gate = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));
  uint32_t v = 7;
  TU_OK(ctx, lsk_buffer_fill_async(buf, &v, 4, 0, 256,
                                   &(lsk_async){.queue = q, .wait = &gate, .nwait = 1}));
  BAD(ctx, "lsk_queue_destroy", lsk_queue_destroy(q), LSK_EBUSY,
      "queue 'queue 1' still has work pending");
  TU_OK(ctx, lsk_event_user_complete(gate));
  TU_OK(ctx, lsk_queue_finish(q));
  unsigned *got = tu_read_uints(ctx, buf, 64);
  for (int i = 0; i < 64; ++i)
    ck_assert_uint_eq(got[i], 7);
  free(got);
  TU_OK(ctx, lsk_queue_destroy(q));

  BAD(NULL, "lsk_queue_marker", lsk_queue_marker(NULL), LSK_EINVAL, "on is NULL");
  BAD(NULL, "lsk_queue_marker", lsk_queue_marker(&(lsk_async){0}), LSK_EINVAL, "on->event is NULL");
  lsk_event *ev = NULL;
  BAD(NULL, "lsk_queue_marker", lsk_queue_marker(&(lsk_async){.event = &ev}), LSK_EINVAL,
      "no wait list to name the context");

  lsk_event_release(gate);
  lsk_buffer_destroy(buf);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

/* Wait lists and events. */
START_TEST(test_bi_events)
{
  lsk_context *ctx = tu_context(), *other = tu_context();
  lsk_buffer *buf = tu_zeros(ctx, 64);
  lsk_program *p = tu_program(ctx, "fill.cl", src);
  lsk_kernel *k = tu_kernel(p, "fill");
  lsk_event *mine = NULL, *theirs = NULL, *gone = NULL, *out = (lsk_event *)&out;
  TU_OK(ctx, lsk_event_user_create(ctx, &mine));
  TU_OK(other, lsk_event_user_create(other, &theirs));

  /* Wait lists: another context's event, a NULL, a released one, too
   * long, NULL with a count. Nothing is enqueued by a refused call. */
  lsk_event *list[LSK_WAIT_MAX + 1];
  for (int i = 0; i <= LSK_WAIT_MAX; ++i)
    list[i] = mine;
  lsk_event *mixed[3] = {mine, theirs, mine};
  lsk_event *holed[2] = {mine, NULL};
  lsk_event *dead[1] = {NULL};
  BAD(ctx, "lsk_kernel_launch_async",
      lsk_kernel_launch_async(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                              &(lsk_async){.wait = mixed, .nwait = 3}),
      LSK_EINVAL, "on->wait[1] is an event of another context");
  BAD(ctx, "lsk_kernel_launch_async",
      lsk_kernel_launch_async(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                              &(lsk_async){.wait = holed, .nwait = 2}),
      LSK_EINVAL, "on->wait[1] is NULL");
  dead[0] = dead_event(ctx);
  BAD(ctx, "lsk_kernel_launch_async",
      lsk_kernel_launch_async(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                              &(lsk_async){.wait = dead, .nwait = 1}),
      LSK_EINVAL, DEAD("event"));
  BAD(ctx, "lsk_kernel_launch_async",
      lsk_kernel_launch_async(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                              &(lsk_async){.wait = list, .nwait = LSK_WAIT_MAX + 1}),
      LSK_EINVAL, "a wait list of 65 events; at most 64");
  BAD(ctx, "lsk_kernel_launch_async",
      lsk_kernel_launch_async(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                              &(lsk_async){.wait = NULL, .nwait = 2}),
      LSK_EINVAL, "on->wait is NULL with nwait 2");
  BAD(NULL, "lsk_kernel_launch_async",
      lsk_kernel_launch_async(NULL, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)), NULL),
      LSK_EINVAL, "kernel is NULL");
  /* The event out-parameter is cleared on failure. */
  lsk_event *e = (lsk_event *)&e;
  BAD(ctx, "lsk_kernel_launch_async",
      lsk_kernel_launch_async(k, NULL, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                              &(lsk_async){.event = &e}),
      LSK_EINVAL, "cfg is NULL");
  ck_assert_ptr_null(e);
  /* The whole list of 64 is fine. */
  TU_OK(ctx, lsk_event_user_complete(mine));
  TU_OK(ctx,
        lsk_kernel_launch_async(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                                &(lsk_async){.wait = list, .nwait = LSK_WAIT_MAX, .event = &e}));
  TU_OK(ctx, lsk_event_wait(e));
  unsigned *got = tu_read_uints(ctx, buf, 64);
  for (unsigned i = 0; i < 64; ++i)
    ck_assert_uint_eq(got[i], i + 1);
  free(got);

  BAD(NULL, "lsk_event_wait", lsk_event_wait(NULL), LSK_EINVAL, "ev is NULL");
  gone = dead_event(ctx);
  BAD(NULL, "lsk_event_wait", lsk_event_wait(gone), LSK_EINVAL, DEAD("event"));
  BAD(NULL, "lsk_event_wait", lsk_event_wait((lsk_event *)buf), LSK_EINVAL,
      WRONG("event", "buffer"));
  BAD(NULL, "lsk_event_wait_all", lsk_event_wait_all(NULL, 2), LSK_EINVAL, "evs is NULL with n 2");
  QUIET("lsk_event_wait_all", lsk_event_wait_all(NULL, 0) == LSK_OK);
  BAD(NULL, "lsk_event_wait_all", lsk_event_wait_all(list, LSK_WAIT_MAX + 1), LSK_EINVAL,
      "65 events; at most 64");
  BAD(NULL, "lsk_event_wait_all", lsk_event_wait_all(holed, 2), LSK_EINVAL, "evs[1] is NULL");
  BAD(ctx, "lsk_event_wait_all", lsk_event_wait_all(mixed, 3), LSK_EINVAL,
      "evs[1] is an event of another context than evs[0]");
  lsk_event_state st = LSK_EVENT_QUEUED;
  gone = dead_event(ctx);
  BAD(NULL, "lsk_event_state_get", lsk_event_state_get(gone, &st), LSK_EINVAL, DEAD("event"));
  BAD(ctx, "lsk_event_state_get", lsk_event_state_get(e, NULL), LSK_EINVAL, "state is NULL");
  lsk_event_times t;
  BAD(ctx, "lsk_event_times_get", lsk_event_times_get(e, NULL), LSK_EINVAL, "out is NULL");
  /* Without profiling: refused where the runtime has no times (PoCL;
   * rusticl gives times anyway). */
  cl_ulong tq;
  if (clGetEventProfilingInfo(lsk_event_cl(e), CL_PROFILING_COMMAND_QUEUED, sizeof tq, &tq, NULL) ==
      CL_PROFILING_INFO_NOT_AVAILABLE)
    BAD(ctx, "lsk_event_times_get", lsk_event_times_get(e, &t), LSK_EINVAL,
        "its queue has no profiling");
  BAD(ctx, "lsk_event_times_get", lsk_event_times_get(mine, &t), LSK_EINVAL,
      "a user event has no device times");
  BAD(NULL, "lsk_event_times_get", lsk_event_times_get(NULL, &t), LSK_EINVAL, "ev is NULL");
  gone = dead_event(ctx);
  BADV("lsk_event_what", lsk_event_what(gone)[0], 0, DEAD("event"));
  QUIET("lsk_event_what", lsk_event_what(NULL)[0] == 0);
  BADV("lsk_event_cl", lsk_event_cl((lsk_event *)buf), NULL, WRONG("event", "buffer"));
  QUIET("lsk_event_release", (lsk_event_release(NULL), 1));
  gone = dead_event(ctx);
  BADV("lsk_event_release", (lsk_event_release(gone), 0), 0, DEAD("event"));
  BADV("lsk_event_release", (lsk_event_release((lsk_event *)buf), 0), 0, WRONG("event", "buffer"));
  ck_assert_uint_eq(lsk_buffer_size(buf), 256); /* untouched */

  BAD(NULL, "lsk_event_user_create", lsk_event_user_create(NULL, &out), LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_event_user_create", lsk_event_user_create(ctx, NULL), LSK_EINVAL, "out is NULL");
  BAD(ctx, "lsk_event_user_complete", lsk_event_user_complete(e), LSK_EINVAL, "not a user event");
  BAD(ctx, "lsk_event_user_complete", lsk_event_user_complete(mine), LSK_EINVAL,
      "complete already");
  gone = dead_event(ctx);
  BAD(NULL, "lsk_event_user_complete", lsk_event_user_complete(gone), LSK_EINVAL, DEAD("event"));

  lsk_event_release(e);
  lsk_event_release(mine);
  lsk_event_release(theirs);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_buffer_destroy(buf);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* buffer.h's asynchronous calls and the cache, pinned.h               */

START_TEST(test_bi_async_buffers)
{
  lsk_context *ctx = tu_context(), *other = tu_context();
  lsk_buffer *a = tu_zeros(ctx, 16), *b = tu_zeros(ctx, 16), *ob = tu_zeros(other, 16);
  lsk_buffer *gone = bi_dead_buffer(ctx);
  uint32_t host[16] = {0};

  BAD(NULL, "lsk_buffer_write_async", lsk_buffer_write_async(NULL, 0, host, 4, NULL), LSK_EINVAL,
      "buf is NULL");
  BAD(ctx, "lsk_buffer_write_async", lsk_buffer_write_async(a, 0, NULL, 4, NULL), LSK_EINVAL,
      "host pointer is NULL");
  BAD(ctx, "lsk_buffer_write_async", lsk_buffer_write_async(a, 60, host, 8, NULL), LSK_ERANGE,
      "offset 60 + size 8 exceeds the buffer's 64 bytes");
  gone = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_read_async", lsk_buffer_read_async(gone, 0, host, 4, NULL), LSK_EINVAL,
      DEAD("buffer"));
  BAD(ctx, "lsk_buffer_read_async", lsk_buffer_read_async(a, 0, host, 65, NULL), LSK_ERANGE,
      "size 65");
  BAD(ctx, "lsk_buffer_fill_async", lsk_buffer_fill_async(a, host, 3, 0, 12, NULL), LSK_EINVAL,
      "pattern_size 3");
  BAD(ctx, "lsk_buffer_fill_async", lsk_buffer_fill_async(a, NULL, 4, 0, 12, NULL), LSK_EINVAL,
      "pattern is NULL");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 0, NULL, 0, 4, NULL), LSK_EINVAL, "src is NULL");
  BAD(NULL, "lsk_buffer_copy", lsk_buffer_copy(NULL, 0, a, 0, 4, NULL), LSK_EINVAL, "dst is NULL");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 0, ob, 0, 4, NULL), LSK_EINVAL,
      "src belongs to another context");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 0, b, 40, 40, NULL), LSK_ERANGE,
      "40 bytes from offset 40 of 64 (src)");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 8, a, 0, 16, NULL), LSK_EINVAL, "overlap");
  void *m = (void *)host;
  BAD(ctx, "lsk_buffer_map_async", lsk_buffer_map_async(a, 0, 0, NULL, &m), LSK_EINVAL,
      "size is 0");
  ck_assert_ptr_null(m);
  BAD(ctx, "lsk_buffer_map_async", lsk_buffer_map_async(a, 0, 4, NULL, NULL), LSK_EINVAL,
      "ptr is NULL");
  BAD(ctx, "lsk_buffer_unmap_async", lsk_buffer_unmap_async(a, NULL, NULL), LSK_EINVAL,
      "ptr is NULL");
  BAD(NULL, "lsk_buffer_unmap_async", lsk_buffer_unmap_async(NULL, host, NULL), LSK_EINVAL,
      "buf is NULL");

  /* The cache. */
  lsk_buffer *c = (lsk_buffer *)&c;
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, 0, NULL, &c), LSK_EINVAL, "size is 0");
  ck_assert_ptr_null(c);
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, 4, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_buffer_alloc", lsk_buffer_alloc(NULL, 4, NULL, &c), LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, 4, lsk_context_queue(other), &c), LSK_EINVAL,
      "queue 'default' belongs to another context");
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, SIZE_MAX, NULL, &c), LSK_ERANGE,
      "exceeds the largest allocation");
  BAD(ctx, "lsk_buffer_free", lsk_buffer_free(a, NULL), LSK_EINVAL,
      "made by lsk_buffer_create; lsk_buffer_destroy frees it");
  gone = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_free", lsk_buffer_free(gone, NULL), LSK_EINVAL, DEAD("buffer"));
  QUIET("lsk_buffer_free", lsk_buffer_free(NULL, NULL) == LSK_OK);
  TU_OK(ctx, lsk_buffer_alloc(ctx, 4, NULL, &c));
  BAD(ctx, "lsk_buffer_free", lsk_buffer_free(c, lsk_context_queue(other)), LSK_EINVAL,
      "queue 'default' belongs to another context");
  TU_OK(ctx, lsk_buffer_free(c, NULL)); /* still live after the refusal */
  BAD(NULL, "lsk_buffer_cache_stats_get", lsk_buffer_cache_stats_get(NULL, NULL), LSK_EINVAL,
      "ctx is NULL");
  BAD(ctx, "lsk_buffer_cache_stats_get", lsk_buffer_cache_stats_get(ctx, NULL), LSK_EINVAL,
      "out is NULL");
  BAD(NULL, "lsk_buffer_cache_trim", lsk_buffer_cache_trim((lsk_context *)a), LSK_EINVAL,
      WRONG("context", "buffer"));

  /* Pinned memory. */
  lsk_pinned *pin = (lsk_pinned *)&pin;
  BAD(ctx, "lsk_pinned_create", lsk_pinned_create(ctx, 0, &pin), LSK_EINVAL, "size is 0");
  ck_assert_ptr_null(pin);
  BAD(ctx, "lsk_pinned_create", lsk_pinned_create(ctx, 4, NULL), LSK_EINVAL, "out is NULL");
  BAD(ctx, "lsk_pinned_create", lsk_pinned_create(ctx, SIZE_MAX, &pin), LSK_ERANGE,
      "exceeds the largest allocation");
  BAD(NULL, "lsk_pinned_create", lsk_pinned_create(NULL, 4, &pin), LSK_EINVAL, "ctx is NULL");
  QUIET("lsk_pinned_destroy", (lsk_pinned_destroy(NULL), 1));
  BADV("lsk_pinned_destroy", (lsk_pinned_destroy((lsk_pinned *)a), 0), 0,
       WRONG("pinned", "buffer"));
  BADV("lsk_pinned_ptr", lsk_pinned_ptr((lsk_pinned *)a), NULL, WRONG("pinned", "buffer"));
  QUIET("lsk_pinned_ptr", lsk_pinned_ptr(NULL) == NULL);
  BADV("lsk_pinned_size", lsk_pinned_size((lsk_pinned *)a), 0, WRONG("pinned", "buffer"));
  ck_assert_uint_eq(lsk_buffer_size(a), 64);

  lsk_buffer_destroy(a);
  lsk_buffer_destroy(b);
  lsk_buffer_destroy(ob);
  lsk_context_destroy(other);
  lsk_context_destroy(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* trace.h                                                             */

START_TEST(test_bi_trace)
{
  lsk_context *plain = tu_context();
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.trace = 1});
  size_t n = 5;
  lsk_trace_entry e;
  BAD(plain, "lsk_trace_count", lsk_trace_count(plain, &n), LSK_EINVAL,
      "records no trace (set lsk_context_options.trace)");
  BAD(NULL, "lsk_trace_count", lsk_trace_count(NULL, &n), LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_trace_count", lsk_trace_count(ctx, NULL), LSK_EINVAL, "n is NULL");
  BAD(ctx, "lsk_trace_get", lsk_trace_get(ctx, 0, &e), LSK_ERANGE, "command 0 of 0 recorded");
  BAD(ctx, "lsk_trace_get", lsk_trace_get(ctx, 0, NULL), LSK_EINVAL, "out is NULL");
  BAD(plain, "lsk_trace_get", lsk_trace_get(plain, 0, &e), LSK_EINVAL, "records no trace");
  BAD(ctx, "lsk_trace_write", lsk_trace_write(ctx, NULL), LSK_EINVAL, "path is NULL or empty");
  BAD(ctx, "lsk_trace_write", lsk_trace_write(ctx, "/nonexistent-dir-lsk/t.json"), LSK_EIO,
      "cannot write '/nonexistent-dir-lsk/t.json'");
  BAD(plain, "lsk_trace_write", lsk_trace_write(plain, "x.json"), LSK_EINVAL, "records no trace");
  BAD(plain, "lsk_trace_clear", lsk_trace_clear(plain), LSK_EINVAL, "records no trace");
  BAD(NULL, "lsk_trace_clear", lsk_trace_clear(NULL), LSK_EINVAL, "ctx is NULL");
  lsk_context_destroy(ctx);
  lsk_context_destroy(plain);
}
END_TEST

Suite *suite_badinput_queues(void)
{
  Suite *s = suite_create("badinput_queues");
  TCase *tc = bi_tcase("queues");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_bi_queues);
  tcase_add_test(tc, test_bi_events);
  tcase_add_test(tc, test_bi_async_buffers);
  tcase_add_test(tc, test_bi_trace);
  suite_add_tcase(s, tc);
  return s;
}
