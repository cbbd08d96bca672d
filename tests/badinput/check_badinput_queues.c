/*
 * check_badinput_queues.c: bad input to every public function of queue.h,
 * pinned.h, trace.h, the lsk_async forms and cached calls of buffer.h, the
 * enqueue rule's flags and on of launch, run and tune (rows: badinput.h): NULLs, an event of
 * another context, a NULL in a wait list, released events and destroyed queues, a wait list longer
 * than allowed, a queue destroyed with work pending, and what each leaves behind (nothing lost).
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
  BAD(ctx, "lsk_buffer_write",
      lsk_buffer_write(buf, 0, longname, 4,
                       &(lsk_async){.queue = dead, .flags = LSK_ASYNC_NONBLOCKING}),
      LSK_EINVAL, DEAD("queue"));

  /* A queue of another context. */
  lsk_queue *oq = lsk_context_queue(other);
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(buf, longname, 4, 0, 4, &(lsk_async){.queue = oq}),
      LSK_EINVAL, "on->queue: queue 'default' belongs to another context");

  /* Objects of the kernel library keep no queue: each call names its own,
   * refused when it is another context's or dead. */
  lsk_pool *pl = NULL;
  TU_OK(ctx, lsk_pool_create(ctx, 16, 4, NULL, &pl));
  BAD(ctx, "lsk_pool_gc", lsk_pool_gc(pl, &(lsk_async){.queue = oq}), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");
  lsk_assoc *as = NULL;
  TU_OK(ctx, lsk_assoc_create(ctx, 4, 4, NULL, &as));
  BAD(ctx, "lsk_assoc_build", lsk_assoc_build(as, buf, 0, 0, &(lsk_async){.queue = oq}), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");
  lsk_assoc_destroy(as);
  lsk_queue *gone_q = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, NULL, &gone_q));
  TU_OK(ctx, lsk_queue_destroy(gone_q));
  BAD(ctx, "lsk_pool_gc", lsk_pool_gc(pl, &(lsk_async){.queue = gone_q}), LSK_EINVAL,
      DEAD("queue"));
  lsk_pool_destroy(pl);
  /* A vector on a queue: refused for a queue of another context or a
   * dead one; the default queue still serves it. */
  lsk_vector *vec = NULL;
  TU_OK(ctx, lsk_vector_create(ctx, 4, 8, &vec));
  BAD(ctx, "lsk_vector_clear", lsk_vector_clear(vec, &(lsk_async){.queue = oq}), LSK_EINVAL,
      "on->queue: queue 'default' belongs to another context");
  size_t vsize = 9;
  BAD(ctx, "lsk_vector_size", lsk_vector_size(vec, &vsize, NULL, &(lsk_async){.queue = gone_q}),
      LSK_EINVAL, DEAD("queue"));
  TU_OK(ctx, lsk_vector_size(vec, &vsize, NULL, NULL));
  ck_assert_uint_eq(vsize, 0);
  lsk_vector_destroy(vec);
  /* A library call failing early leaves no event behind. */
  lsk_event *stale = (lsk_event *)&stale;
  BAD(ctx, "lsk_scan",
      lsk_scan(ctx, (lsk_type)99, LSK_SCAN_EXCLUSIVE, buf, 0, buf, 0, 4, NULL,
               &(lsk_async){.event = &stale}),
      LSK_EINVAL, "type 99");
  ck_assert_ptr_null(stale);

  /* Work pending: refused, and nothing lost. */
  lsk_event *gate = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));
  uint32_t v = 7;
  TU_OK(ctx,
        lsk_buffer_fill(buf, &v, 4, 0, 256, &(lsk_async){.queue = q, .wait = &gate, .nwait = 1}));
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
  BAD(ctx, "lsk_kernel_launch",
      lsk_kernel_launch(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                        &(lsk_async){.wait = mixed, .nwait = 3}),
      LSK_EINVAL, "on->wait[1] is an event of another context");
  BAD(ctx, "lsk_kernel_launch",
      lsk_kernel_launch(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                        &(lsk_async){.wait = holed, .nwait = 2}),
      LSK_EINVAL, "on->wait[1] is NULL");
  dead[0] = dead_event(ctx);
  BAD(ctx, "lsk_kernel_launch",
      lsk_kernel_launch(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                        &(lsk_async){.wait = dead, .nwait = 1}),
      LSK_EINVAL, DEAD("event"));
  BAD(ctx, "lsk_kernel_launch",
      lsk_kernel_launch(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                        &(lsk_async){.wait = list, .nwait = LSK_WAIT_MAX + 1}),
      LSK_EINVAL, "a wait list of 65 events; at most 64");
  BAD(ctx, "lsk_kernel_launch",
      lsk_kernel_launch(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                        &(lsk_async){.wait = NULL, .nwait = 2}),
      LSK_EINVAL, "on->wait is NULL with nwait 2");
  BAD(NULL, "lsk_kernel_launch",
      lsk_kernel_launch(NULL, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)), NULL),
      LSK_EINVAL, "kernel is NULL");
  /* The event out-parameter is cleared on failure. */
  lsk_event *e = (lsk_event *)&e;
  BAD(ctx, "lsk_kernel_launch",
      lsk_kernel_launch(k, NULL, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
                        &(lsk_async){.event = &e}),
      LSK_EINVAL, "cfg is NULL");
  ck_assert_ptr_null(e);
  /* The whole list of 64 is fine. */
  TU_OK(ctx, lsk_event_user_complete(mine));
  TU_OK(ctx, lsk_kernel_launch(k, &one, LSK_ARGS(LSK_ARG_BUFFER(buf), LSK_ARG_UINT(64)),
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

  BAD(NULL, "lsk_buffer_write",
      lsk_buffer_write(NULL, 0, host, 4, &(lsk_async){.flags = LSK_ASYNC_NONBLOCKING}), LSK_EINVAL,
      "buf is NULL");
  BAD(ctx, "lsk_buffer_write",
      lsk_buffer_write(a, 0, NULL, 4, &(lsk_async){.flags = LSK_ASYNC_NONBLOCKING}), LSK_EINVAL,
      "host pointer is NULL");
  BAD(ctx, "lsk_buffer_write",
      lsk_buffer_write(a, 60, host, 8, &(lsk_async){.flags = LSK_ASYNC_NONBLOCKING}), LSK_ERANGE,
      "offset 60 + size 8 exceeds the buffer's 64 bytes");
  gone = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_read",
      lsk_buffer_read(gone, 0, host, 4, &(lsk_async){.flags = LSK_ASYNC_NONBLOCKING}), LSK_EINVAL,
      DEAD("buffer"));
  BAD(ctx, "lsk_buffer_read",
      lsk_buffer_read(a, 0, host, 65, &(lsk_async){.flags = LSK_ASYNC_NONBLOCKING}), LSK_ERANGE,
      "size 65");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(a, host, 3, 0, 12, NULL), LSK_EINVAL,
      "pattern_size 3");
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(a, NULL, 4, 0, 12, NULL), LSK_EINVAL,
      "pattern is NULL");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 0, NULL, 0, 4, NULL), LSK_EINVAL, "src is NULL");
  BAD(NULL, "lsk_buffer_copy", lsk_buffer_copy(NULL, 0, a, 0, 4, NULL), LSK_EINVAL, "dst is NULL");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 0, ob, 0, 4, NULL), LSK_EINVAL,
      "src belongs to another context");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 0, b, 40, 40, NULL), LSK_ERANGE,
      "40 bytes from offset 40 of 64 (src)");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 8, a, 0, 16, NULL), LSK_EINVAL, "overlap");
  void *m = (void *)host;
  BAD(ctx, "lsk_buffer_map",
      lsk_buffer_map(a, 0, 0, &m, &(lsk_async){.flags = LSK_ASYNC_NONBLOCKING}), LSK_EINVAL,
      "size is 0");
  ck_assert_ptr_null(m);
  BAD(ctx, "lsk_buffer_map",
      lsk_buffer_map(a, 0, 4, NULL, &(lsk_async){.flags = LSK_ASYNC_NONBLOCKING}), LSK_EINVAL,
      "ptr is NULL");
  BAD(ctx, "lsk_buffer_unmap", lsk_buffer_unmap(a, NULL, NULL), LSK_EINVAL, "ptr is NULL");
  BAD(NULL, "lsk_buffer_unmap", lsk_buffer_unmap(NULL, host, NULL), LSK_EINVAL, "buf is NULL");

  /* The cache. */
  lsk_buffer *c = (lsk_buffer *)&c;
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, 0, &c, NULL), LSK_EINVAL, "size is 0");
  ck_assert_ptr_null(c);
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, 4, NULL, NULL), LSK_EINVAL, "out is NULL");
  BAD(NULL, "lsk_buffer_alloc", lsk_buffer_alloc(NULL, 4, &c, NULL), LSK_EINVAL, "ctx is NULL");
  BAD(ctx, "lsk_buffer_alloc",
      lsk_buffer_alloc(ctx, 4, &c, &(lsk_async){.queue = lsk_context_queue(other)}), LSK_EINVAL,
      "queue 'default' belongs to another context");
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, SIZE_MAX, &c, NULL), LSK_ERANGE,
      "exceeds the largest allocation");
  BAD(ctx, "lsk_buffer_free", lsk_buffer_free(a, NULL), LSK_EINVAL,
      "made by lsk_buffer_create; lsk_buffer_destroy frees it");
  gone = bi_dead_buffer(ctx);
  BAD(NULL, "lsk_buffer_free", lsk_buffer_free(gone, NULL), LSK_EINVAL, DEAD("buffer"));
  QUIET("lsk_buffer_free", lsk_buffer_free(NULL, NULL) == LSK_OK);
  TU_OK(ctx, lsk_buffer_alloc(ctx, 4, &c, NULL));
  BAD(ctx, "lsk_buffer_free", lsk_buffer_free(c, &(lsk_async){.queue = lsk_context_queue(other)}),
      LSK_EINVAL, "queue 'default' belongs to another context");
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
      "cannot write '/nonexistent-dir-lsk/t.json': No such file or directory");
  BAD(plain, "lsk_trace_write", lsk_trace_write(plain, "x.json"), LSK_EINVAL, "records no trace");
  BAD(plain, "lsk_trace_clear", lsk_trace_clear(plain), LSK_EINVAL, "records no trace");
  BAD(NULL, "lsk_trace_clear", lsk_trace_clear(NULL), LSK_EINVAL, "ctx is NULL");
  lsk_context_destroy(ctx);
  lsk_context_destroy(plain);
}
END_TEST

/* The enqueue rule (issue 27): LSK_ASYNC_NONBLOCKING only on host
 * transfers, no unknown flag bits, alloc's on names only a queue, and
 * every marked call refuses a bad on before enqueueing anything. */
#define NB (&(lsk_async){.flags = LSK_ASYNC_NONBLOCKING})
#define NOT_TRANSFER "LSK_ASYNC_NONBLOCKING in on->flags, but"
START_TEST(test_bi_rule)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *a = tu_zeros(ctx, 64), *b = tu_zeros(ctx, 64);
  lsk_program *p = tu_program(ctx, "fill.cl", src);
  lsk_kernel *k = tu_kernel(p, "fill");
  lsk_launch one = {.domain = {64}, .blocks = {1}};
  uint32_t host[16] = {0}, pattern = 7;
  lsk_event *ev = (lsk_event *)&ev, *gate = NULL;
  TU_OK(ctx, lsk_event_user_create(ctx, &gate));

  BAD(ctx, "lsk_buffer_write", lsk_buffer_write(a, 0, host, 4, &(lsk_async){.flags = 2}),
      LSK_EINVAL, "on->flags 0x2 has bits lsk does not know");
  BAD(ctx, "lsk_buffer_read",
      lsk_buffer_read(a, 0, host, 4, &(lsk_async){.event = &ev, .flags = 1u << 31}), LSK_EINVAL,
      "on->flags 0x80000000 has bits lsk does not know");
  ck_assert_ptr_null(ev);
  BAD(ctx, "lsk_buffer_fill", lsk_buffer_fill(a, &pattern, 4, 0, 16, NB), LSK_EINVAL,
      NOT_TRANSFER " lsk_buffer_fill is no host transfer");
  BAD(ctx, "lsk_buffer_copy", lsk_buffer_copy(a, 0, b, 0, 16, NB), LSK_EINVAL,
      NOT_TRANSFER " lsk_buffer_copy is no host transfer");
  BAD(ctx, "lsk_buffer_unmap", lsk_buffer_unmap(a, host, NB), LSK_EINVAL,
      NOT_TRANSFER " lsk_buffer_unmap is no host transfer");
  BAD(ctx, "lsk_queue_marker",
      lsk_queue_marker(
          &(lsk_async){.wait = &gate, .nwait = 1, .event = &ev, .flags = LSK_ASYNC_NONBLOCKING}),
      LSK_EINVAL, NOT_TRANSFER " lsk_queue_marker is no host transfer");
  BAD(ctx, "lsk_kernel_launch",
      lsk_kernel_launch(k, &one, LSK_ARGS(LSK_ARG_BUFFER(a), LSK_ARG_UINT(16)), NB), LSK_EINVAL,
      NOT_TRANSFER " lsk_kernel_launch is no host transfer");
  BAD(ctx, "lsk_kernel_run",
      lsk_kernel_run(k, &one, LSK_ARGS(LSK_ARG_BUFFER(a), LSK_ARG_UINT(16)), NB), LSK_EINVAL,
      NOT_TRANSFER " lsk_kernel_run is no host transfer");
  BAD(ctx, "lsk_kernel_run",
      lsk_kernel_run(k, &one, LSK_ARGS(LSK_ARG_BUFFER(a), LSK_ARG_UINT(16)),
                     &(lsk_async){.wait = NULL, .nwait = 1, .event = &ev}),
      LSK_EINVAL, "on->wait is NULL with nwait 1");
  ck_assert_ptr_null(ev);
  lsk_tune_result r;
  BAD(ctx, "lsk_tune",
      lsk_tune(k, &one, LSK_ARGS(LSK_ARG_BUFFER(a), LSK_ARG_UINT(16)), NULL, &r, NB), LSK_EINVAL,
      NOT_TRANSFER " lsk_tune is no host transfer");
  BAD(ctx, "lsk_tune",
      lsk_tune(k, &one, LSK_ARGS(LSK_ARG_BUFFER(a), LSK_ARG_UINT(16)), NULL, &r,
               &(lsk_async){.wait = &gate, .nwait = LSK_WAIT_MAX + 1}),
      LSK_EINVAL, "a wait list of 65 events; at most 64");

  /* The cache: alloc enqueues nothing, free takes a whole on. */
  lsk_buffer *c = (lsk_buffer *)&c;
  BAD(ctx, "lsk_buffer_alloc",
      lsk_buffer_alloc(ctx, 4, &c, &(lsk_async){.wait = &gate, .nwait = 1}), LSK_EINVAL,
      "on has a wait list; an allocation enqueues nothing");
  ck_assert_ptr_null(c);
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, 4, &c, &(lsk_async){.event = &ev}), LSK_EINVAL,
      "on has an event; an allocation enqueues nothing");
  BAD(ctx, "lsk_buffer_alloc", lsk_buffer_alloc(ctx, 4, &c, NB), LSK_EINVAL,
      "on has a flag; an allocation enqueues nothing");
  TU_OK(ctx, lsk_buffer_alloc(ctx, 4, &c, NULL));
  BAD(ctx, "lsk_buffer_free", lsk_buffer_free(c, NB), LSK_EINVAL,
      NOT_TRANSFER " lsk_buffer_free is no host transfer");
  BAD(ctx, "lsk_buffer_free", lsk_buffer_free(c, &(lsk_async){.wait = NULL, .nwait = 2}),
      LSK_EINVAL, "on->wait is NULL with nwait 2");
  TU_OK(ctx, lsk_buffer_free(c, NULL)); /* still live after the refusals */

  /* Nothing was enqueued: the gate held nothing. */
  TU_OK(ctx, lsk_event_user_complete(gate));
  TU_OK(ctx, lsk_context_finish(ctx));
  uint32_t got[16];
  TU_OK(ctx, lsk_buffer_read(a, 0, got, sizeof got, NULL));
  for (int i = 0; i < 16; ++i)
    ck_assert_uint_eq(got[i], 0);
  lsk_event_release(gate);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_buffer_destroy(a);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST
#undef NB
#undef NOT_TRANSFER

Suite *suite_badinput_queues(void)
{
  Suite *s = suite_create("badinput_queues");
  TCase *tc = bi_tcase("queues");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_bi_queues);
  tcase_add_test(tc, test_bi_events);
  tcase_add_test(tc, test_bi_async_buffers);
  tcase_add_test(tc, test_bi_rule);
  tcase_add_test(tc, test_bi_trace);
  suite_add_tcase(s, tc);
  return s;
}
