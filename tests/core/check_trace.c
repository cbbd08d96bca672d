/*
 * check_trace.c: the timeline of a context's commands (trace.h). A known
 * sequence on three queues (transfers of every kind, kernels of known
 * shape, a marker, and lsk_scan on a named queue, which is three launches
 * of known shape: host/algo/scan.c) is recorded exactly: count, order,
 * kinds, names, queues, bytes, shapes, and device times that are ordered
 * and never overlap within one in-order queue. The JSON file is read back
 * by a strict parser of its own (below) and checked against the same
 * expectations; a queue name with a quote, a backslash and a tab comes
 * back unchanged. Clearing, and a context that records nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "testutil.h"

/* ---- A strict JSON parser (RFC 8259): the whole text one value ---- */

typedef enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jv {
  jtype type;
  double num;
  char *str;        /* J_STR: the decoded bytes (NUL-terminated) */
  size_t n;         /* J_ARR, J_OBJ: members */
  struct jv *items; /* their values */
  char **keys;      /* J_OBJ: their names */
} jv;

typedef struct jparse {
  const char *base, *p, *end;
  int depth;
  char err[128];
} jparse;

static int jfail(jparse *jp, const char *what)
{
  if (!jp->err[0])
    snprintf(jp->err, sizeof jp->err, "%s at byte %td", what, jp->p - jp->base);
  return -1;
}

static void jws(jparse *jp)
{
  while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r'))
    ++jp->p;
}

static void jfree(jv *v)
{
  free(v->str);
  for (size_t i = 0; i < v->n; ++i) {
    jfree(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  memset(v, 0, sizeof *v);
}

static int hex4(jparse *jp, unsigned *out)
{
  unsigned x = 0;
  for (int i = 0; i < 4; ++i, ++jp->p) {
    if (jp->p >= jp->end)
      return jfail(jp, "short \\u escape");
    char c = *jp->p;
    unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                 : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                        : 16u;
    if (d == 16)
      return jfail(jp, "bad hex digit in \\u escape");
    x = x * 16 + d;
  }
  *out = x;
  return 0;
}

/* A string at jp->p (the opening quote), decoded into a malloc'd text. */
static int jstring(jparse *jp, char **out)
{
  ++jp->p;
  size_t cap = 16, n = 0;
  char *s = malloc(cap);
  ck_assert_ptr_nonnull(s);
  for (;;) {
    if (jp->p >= jp->end) {
      free(s);
      return jfail(jp, "unterminated string");
    }
    unsigned char c = (unsigned char)*jp->p++;
    unsigned cp;
    if (c == '"')
      break;
    if (c < 0x20) {
      free(s);
      return jfail(jp, "control character in a string");
    }
    if (c != '\\') {
      cp = c; /* a byte, copied as is (UTF-8 passes through) */
    } else {
      if (jp->p >= jp->end) {
        free(s);
        return jfail(jp, "unterminated escape");
      }
      char e = *jp->p++;
      switch (e) {
      case '"': cp = '"'; break;
      case '\\': cp = '\\'; break;
      case '/': cp = '/'; break;
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'n': cp = '\n'; break;
      case 'r': cp = '\r'; break;
      case 't': cp = '\t'; break;
      case 'u':
        if (hex4(jp, &cp)) {
          free(s);
          return -1;
        }
        if (cp >= 0xd800 && cp <= 0xdfff) { /* the names here are ASCII */
          free(s);
          return jfail(jp, "surrogate in \\u escape");
        }
        break;
      default: free(s); return jfail(jp, "bad escape");
      }
    }
    if (n + 4 >= cap) {
      cap *= 2;
      s = realloc(s, cap);
      ck_assert_ptr_nonnull(s);
    }
    if (cp < 0x80 || c != '\\') {
      s[n++] = (char)cp;
    } else if (cp < 0x800) {
      s[n++] = (char)(0xc0 | (cp >> 6));
      s[n++] = (char)(0x80 | (cp & 0x3f));
    } else {
      s[n++] = (char)(0xe0 | (cp >> 12));
      s[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
      s[n++] = (char)(0x80 | (cp & 0x3f));
    }
  }
  s[n] = 0;
  *out = s;
  return 0;
}

static int jnumber(jparse *jp, double *out)
{
  const char *a = jp->p;
  if (jp->p < jp->end && *jp->p == '-')
    ++jp->p;
#define DIGIT (jp->p < jp->end && *jp->p >= '0' && *jp->p <= '9')
  if (!DIGIT)
    return jfail(jp, "bad number");
  if (*jp->p == '0')
    ++jp->p;
  else
    while (DIGIT)
      ++jp->p;
  if (jp->p < jp->end && *jp->p == '.') {
    ++jp->p;
    if (!DIGIT)
      return jfail(jp, "no digit after '.'");
    while (DIGIT)
      ++jp->p;
  }
  if (jp->p < jp->end && (*jp->p == 'e' || *jp->p == 'E')) {
    ++jp->p;
    if (jp->p < jp->end && (*jp->p == '+' || *jp->p == '-'))
      ++jp->p;
    if (!DIGIT)
      return jfail(jp, "no digit in the exponent");
    while (DIGIT)
      ++jp->p;
  }
#undef DIGIT
  char buf[64];
  size_t len = (size_t)(jp->p - a);
  if (len >= sizeof buf)
    return jfail(jp, "number too long");
  memcpy(buf, a, len);
  buf[len] = 0;
  *out = strtod(buf, NULL);
  return 0;
}

static int jvalue(jparse *jp, jv *v);

/* The members of an array or object, after its opening bracket. */
static int jmembers(jparse *jp, jv *v, int object)
{
  ++jp->p;
  size_t cap = 0;
  jws(jp);
  if (jp->p < jp->end && *jp->p == (object ? '}' : ']')) {
    ++jp->p;
    return 0;
  }
  for (;;) {
    if (v->n == cap) {
      cap = cap ? 2 * cap : 8;
      v->items = realloc(v->items, cap * sizeof *v->items);
      ck_assert_ptr_nonnull(v->items);
      if (object) {
        v->keys = realloc(v->keys, cap * sizeof *v->keys);
        ck_assert_ptr_nonnull(v->keys);
      }
    }
    memset(&v->items[v->n], 0, sizeof *v->items);
    if (object) {
      jws(jp);
      if (jp->p >= jp->end || *jp->p != '"')
        return jfail(jp, "object key is not a string");
      if (jstring(jp, &v->keys[v->n]))
        return -1;
      jws(jp);
      if (jp->p >= jp->end || *jp->p != ':') {
        free(v->keys[v->n]);
        return jfail(jp, "no ':' after a key");
      }
      ++jp->p;
    }
    ++v->n; /* counted before parsing, so that jfree frees what was made */
    if (jvalue(jp, &v->items[v->n - 1]))
      return -1;
    jws(jp);
    if (jp->p < jp->end && *jp->p == ',') {
      ++jp->p;
      continue;
    }
    if (jp->p < jp->end && *jp->p == (object ? '}' : ']')) {
      ++jp->p;
      return 0;
    }
    return jfail(jp, object ? "expected ',' or '}'" : "expected ',' or ']'");
  }
}

static int jliteral(jparse *jp, const char *word)
{
  size_t n = strlen(word);
  if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, word, n) != 0)
    return jfail(jp, "bad literal");
  jp->p += n;
  return 0;
}

static int jvalue(jparse *jp, jv *v)
{
  memset(v, 0, sizeof *v);
  jws(jp);
  if (jp->p >= jp->end)
    return jfail(jp, "value expected");
  if (++jp->depth > 64)
    return jfail(jp, "nested too deeply");
  int rc;
  switch (*jp->p) {
  case '{':
    v->type = J_OBJ;
    rc = jmembers(jp, v, 1);
    break;
  case '[':
    v->type = J_ARR;
    rc = jmembers(jp, v, 0);
    break;
  case '"':
    v->type = J_STR;
    rc = jstring(jp, &v->str);
    break;
  case 't':
    v->type = J_TRUE;
    rc = jliteral(jp, "true");
    break;
  case 'f':
    v->type = J_FALSE;
    rc = jliteral(jp, "false");
    break;
  case 'n':
    v->type = J_NULL;
    rc = jliteral(jp, "null");
    break;
  default: v->type = J_NUM; rc = jnumber(jp, &v->num);
  }
  --jp->depth;
  return rc;
}

/* Parses text[0, len) as one JSON value with nothing but blanks after it;
 * 0, or -1 with why in err. */
static int jparse_text(const char *text, size_t len, jv *out, char *err, size_t cap)
{
  jparse jp = {text, text, text + len, 0, ""};
  int rc = jvalue(&jp, out);
  if (!rc) {
    jws(&jp);
    if (jp.p != jp.end)
      rc = jfail(&jp, "trailing garbage");
  }
  if (rc) {
    jfree(out);
    snprintf(err, cap, "%s", jp.err);
  }
  return rc;
}

static jv *jget(const jv *o, const char *key)
{
  if (o->type != J_OBJ)
    return NULL;
  for (size_t i = 0; i < o->n; ++i)
    if (strcmp(o->keys[i], key) == 0)
      return &o->items[i];
  return NULL;
}

static const char *jstr(const jv *o, const char *key)
{
  jv *v = jget(o, key);
  ck_assert_msg(v && v->type == J_STR, "member '%s' missing or not a string", key);
  return v->str;
}

static double jnum(const jv *o, const char *key)
{
  jv *v = jget(o, key);
  ck_assert_msg(v && v->type == J_NUM, "member '%s' missing or not a number", key);
  return v->num;
}

static int parses(const char *text)
{
  jv v;
  char err[128];
  int rc = jparse_text(text, strlen(text), &v, err, sizeof err);
  if (!rc)
    jfree(&v);
  return rc == 0;
}

/* The parser itself: what it accepts and what it refuses. */
START_TEST(test_trace_json_parser)
{
  jv v;
  char err[128];
  const char *doc = " {\"a\": [1, -2.5e3, 0.25, true, false, null, \"x\\\"y\\\\z\\u0041\\t\"],"
                    " \"b\": {}, \"c\": []} \n";
  ck_assert_msg(jparse_text(doc, strlen(doc), &v, err, sizeof err) == 0, "%s", err);
  jv *a = jget(&v, "a");
  ck_assert(a && a->type == J_ARR && a->n == 7);
  ck_assert(a->items[0].num == 1 && a->items[1].num == -2500 && a->items[2].num == 0.25);
  ck_assert(a->items[3].type == J_TRUE && a->items[4].type == J_FALSE &&
            a->items[5].type == J_NULL);
  ck_assert_str_eq(a->items[6].str, "x\"y\\zA\t");
  ck_assert(jget(&v, "b")->type == J_OBJ && jget(&v, "c")->n == 0);
  jfree(&v);
  static const char *const bad[] = {
      "",      "{} x",       "{}}",   "[1,]",          "{\"a\" 1}", "{a: 1}",      "[01]",  "[1.]",
      "[.5]",  "[1e]",       "[-]",   "\"a\tb\"",      "\"a\\qb\"", "\"\\u12g4\"", "\"abc", "[tru]",
      "[nul]", "{\"a\":1,}", "[1 2]", "[\"a\" \"b\"]", "[[[[",      "{\"a\":}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i)
    ck_assert_msg(!parses(bad[i]), "the parser accepted '%s'", bad[i]);
  ck_assert(parses("[1, 2]") && parses("0") && parses("\"\"") && parses(" null "));
}
END_TEST

/* ---- The known sequence ---- */

static const char *src = "LSK_KERNEL void produce(LSK_CTX, __global uint *d, uint n, uint salt)\n"
                         "{\n"
                         "  LSK_BLOCKS(b, (n + LSK_DOMAIN_SIZE - 1) / LSK_DOMAIN_SIZE) {\n"
                         "    LSK_FOREACH(it) {\n"
                         "      uint g = b * LSK_DOMAIN_SIZE + it.idx;\n"
                         "      if (g < n)\n"
                         "        d[g] = g * 2654435761u + salt;\n"
                         "    }\n"
                         "  }\n"
                         "}\n"
                         /* Once per block of the grid, whatever its shape. */
                         "LSK_KERNEL void tick(LSK_CTX, __global uint *count)\n"
                         "{\n"
                         "  LSK_FOREACH(it) {\n"
                         "    if (it.idx == 0)\n"
                         "      atomic_inc(count);\n"
                         "  }\n"
                         "}\n";

static uint32_t produced(uint32_t g, uint32_t salt) { return g * 2654435761u + salt; }

/* What one recorded command must be. */
typedef struct want {
  lsk_trace_kind kind;
  const char *name;
  const char *queue;
  unsigned queue_index;
  unsigned domain[3];
  size_t blocks[3];
  unsigned workers, simd;
  size_t bytes;
} want;

#define N 1000u
#define BYTES ((size_t)N * 4)
#define MAXW 32

typedef struct seq {
  want w[MAXW];
  size_t n;
} seq;

static void add_transfer(seq *s, lsk_trace_kind kind, const char *name, const char *queue,
                         unsigned qi, size_t bytes)
{
  ck_assert_uint_lt(s->n, MAXW);
  s->w[s->n++] =
      (want){.kind = kind, .name = name, .queue = queue, .queue_index = qi, .bytes = bytes};
}

static void add_kernel(seq *s, const char *name, const char *queue, unsigned qi,
                       const unsigned d[3], const size_t b[3], unsigned w, unsigned simd)
{
  ck_assert_uint_lt(s->n, MAXW);
  s->w[s->n++] = (want){.kind = LSK_TRACE_KERNEL,
                        .name = name,
                        .queue = queue,
                        .queue_index = qi,
                        .domain = {d[0], d[1], d[2]},
                        .blocks = {b[0], b[1], b[2]},
                        .workers = w,
                        .simd = simd};
}

/* Enqueues the sequence on ctx (made with .trace) and its queues
 * "default" (0), "alpha" (1) and a second one named qb_name (NULL: the
 * default name, "queue 2"), checks its results, and returns what the
 * record must hold, in order. */
static void run_sequence(lsk_context *ctx, const char *qb_name, seq *s)
{
  memset(s, 0, sizeof *s);
  lsk_program *p = tu_program(ctx, "trace.cl", src);
  lsk_kernel *prod = tu_kernel(p, "produce"), *tick = tu_kernel(p, "tick");
  lsk_queue *qa = NULL, *qb = NULL;
  TU_OK(ctx, lsk_queue_create(ctx, &(lsk_queue_options){.name = "alpha"}, &qa));
  TU_OK(ctx, lsk_queue_create(ctx, &(lsk_queue_options){.name = qb_name}, &qb));
  const char *qbn = qb_name ? qb_name : "queue 2";
  ck_assert_str_eq(lsk_queue_name(qb), qbn);
  lsk_buffer *a = NULL, *f = NULL, *b = NULL, *c = NULL, *cnt = NULL, *e = NULL, *sc = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, BYTES, &a));
  TU_OK(ctx, lsk_buffer_create(ctx, BYTES, &f));
  TU_OK(ctx, lsk_buffer_create(ctx, BYTES, &b));
  TU_OK(ctx, lsk_buffer_create(ctx, BYTES, &c));
  TU_OK(ctx, lsk_buffer_create(ctx, 4, &cnt));
  TU_OK(ctx, lsk_buffer_create(ctx, BYTES, &e));
  TU_OK(ctx, lsk_buffer_create(ctx, BYTES, &sc));
  /* Nothing so far is a command. */
  size_t count = 99;
  TU_OK(ctx, lsk_trace_count(ctx, &count));
  ck_assert_uint_eq(count, 0);

  static uint32_t host[N], back[N], scanned[N];
  for (uint32_t g = 0; g < N; ++g)
    host[g] = 3 * g + 1;
  uint32_t zero = 0, pattern = 0x5a5a5a5au;
  /* The default queue: a write, a fill (the counter), a fill. */
  TU_OK(ctx, lsk_buffer_write(a, 0, host, BYTES, NULL));
  add_transfer(s, LSK_TRACE_WRITE, "write", "default", 0, BYTES);
  TU_OK(ctx, lsk_buffer_fill(cnt, &zero, 4, 0, 4, NULL));
  add_transfer(s, LSK_TRACE_FILL, "fill", "default", 0, 4);
  TU_OK(ctx, lsk_buffer_fill(f, &pattern, 4, 0, BYTES, NULL));
  add_transfer(s, LSK_TRACE_FILL, "fill", "default", 0, BYTES);
  /* qa waits for the default queue by the host. */
  TU_OK(ctx, lsk_queue_finish(lsk_context_queue(ctx)));
  lsk_async on_a = {.queue = qa};
  TU_OK(ctx, lsk_buffer_write(b, 0, host, BYTES,
                              &(lsk_async){.queue = qa, .flags = LSK_ASYNC_NONBLOCKING}));
  add_transfer(s, LSK_TRACE_WRITE, "write", "alpha", 1, BYTES);
  static const unsigned d64[3] = {64, 1, 1}, d32x2[3] = {32, 2, 1}, d128[3] = {128, 1, 1},
                        d256[3] = {256, 1, 1};
  static const size_t b4[3] = {4, 1, 1}, b3x2[3] = {3, 2, 1}, b2[3] = {2, 1, 1}, b1[3] = {1, 1, 1};
  TU_OK(ctx, lsk_kernel_launch(
                 prod, &(lsk_launch){.domain = {64}, .blocks = {4}, .workers = 16, .simd = 2},
                 LSK_ARGS(LSK_ARG_BUFFER(b), LSK_ARG_UINT(N), LSK_ARG_UINT(11)), &on_a));
  add_kernel(s, "produce", "alpha", 1, d64, b4, 16, 2);
  TU_OK(ctx, lsk_kernel_launch(
                 tick, &(lsk_launch){.domain = {32, 2}, .blocks = {3, 2}, .workers = 8, .simd = 1},
                 LSK_ARGS(LSK_ARG_BUFFER(cnt)), &on_a));
  add_kernel(s, "tick", "alpha", 1, d32x2, b3x2, 8, 1);
  TU_OK(ctx, lsk_buffer_copy(c, 0, b, 0, BYTES, &on_a));
  add_transfer(s, LSK_TRACE_COPY, "copy", "alpha", 1, BYTES);
  lsk_event *m = NULL;
  TU_OK(ctx, lsk_queue_marker(&(lsk_async){.queue = qa, .event = &m}));
  add_transfer(s, LSK_TRACE_MARKER, "marker", "alpha", 1, 0);
  /* qb: after qa's marker, a read; a kernel and lsk_scan of its output. */
  TU_OK(ctx,
        lsk_buffer_read(
            c, 0, back, BYTES,
            &(lsk_async){.queue = qb, .wait = &m, .nwait = 1, .flags = LSK_ASYNC_NONBLOCKING}));
  add_transfer(s, LSK_TRACE_READ, "read", qbn, 2, BYTES);
  lsk_async on_b = {.queue = qb};
  TU_OK(ctx, lsk_kernel_launch(
                 prod, &(lsk_launch){.domain = {128}, .blocks = {2}, .workers = 4, .simd = 4},
                 LSK_ARGS(LSK_ARG_BUFFER(e), LSK_ARG_UINT(N), LSK_ARG_UINT(29)), &on_b));
  add_kernel(s, "produce", qbn, 2, d128, b2, 4, 4);
  /* 1000 elements in tiles of 256: 4 tiles, 4 blocks of one tile each; so
   * the block sums, the scan of those by one block, the scan of every
   * block (scan.c), all at the shape given. */
  lsk_algo_options ao = {.workers = 8, .simd = 2, .tile = 256, .blocks = 4};
  /* The lockstep path's three launches (on CPUs the scan's own path makes
   * two per chunk, on GPUs with 64-bit atomics the look-back two:
   * LSK_SCAN_CPU=0 and LSK_SCAN_LOOKBACK=0 keep the sequence the same
   * everywhere). */
  setenv("LSK_SCAN_CPU", "0", 1);
  setenv("LSK_SCAN_LOOKBACK", "0", 1);
  int rc = lsk_scan(ctx, LSK_TYPE_UINT, LSK_SCAN_EXCLUSIVE, e, 0, sc, 0, N, &ao, &on_b);
  unsetenv("LSK_SCAN_CPU");
  unsetenv("LSK_SCAN_LOOKBACK");
  TU_OK(ctx, rc);
  add_kernel(s, "lsk_reduce_add_uint", qbn, 2, d256, b4, 8, 2);
  add_kernel(s, "lsk_scan_uint", qbn, 2, d256, b1, 8, 2);
  add_kernel(s, "lsk_scan_uint", qbn, 2, d256, b4, 8, 2);
  TU_OK(ctx, lsk_context_finish(ctx));
  /* The default queue again: a read and a map of what qa and qb made. */
  TU_OK(ctx, lsk_buffer_read(sc, 0, scanned, BYTES, NULL));
  add_transfer(s, LSK_TRACE_READ, "read", "default", 0, BYTES);
  void *mp = NULL;
  TU_OK(ctx, lsk_buffer_map(cnt, 0, 4, &mp, NULL));
  add_transfer(s, LSK_TRACE_MAP, "map", "default", 0, 4);
  ck_assert_uint_eq(*(uint32_t *)mp, 6); /* 3 x 2 blocks */
  TU_OK(ctx, lsk_buffer_unmap(cnt, mp, NULL));
  add_transfer(s, LSK_TRACE_UNMAP, "unmap", "default", 0, 0);
  TU_OK(ctx, lsk_context_finish(ctx));

  uint32_t sum = 0;
  for (uint32_t g = 0; g < N; ++g) {
    ck_assert_uint_eq(back[g], produced(g, 11));
    ck_assert_uint_eq(scanned[g], sum);
    sum += produced(g, 29);
  }
  lsk_event_release(m);
  lsk_buffer_destroy(a);
  lsk_buffer_destroy(f);
  lsk_buffer_destroy(b);
  lsk_buffer_destroy(c);
  lsk_buffer_destroy(cnt);
  lsk_buffer_destroy(e);
  lsk_buffer_destroy(sc);
  TU_OK(ctx, lsk_queue_destroy(qa));
  TU_OK(ctx, lsk_queue_destroy(qb));
  lsk_kernel_destroy(prod);
  lsk_kernel_destroy(tick);
  lsk_program_destroy(p);
}

/* Whether the runtime's profiling times are placeholders: every command
 * with the same start and the same end, which no clock gives commands that
 * one queue ran one after another. Mesa 22.3's rusticl answers 0, 1, 2, 3
 * (queued, submitted, start, end) for every command: the record is right
 * but its times say nothing, and the overlap checks are skipped there,
 * with the reason on stdout. */
static int placeholder_clock(lsk_context *ctx, const lsk_trace_entry *es, size_t n)
{
  for (size_t i = 1; i < n; ++i)
    if (es[i].start != es[0].start || es[i].end != es[0].end)
      return 0;
  if (n < 2)
    return 0;
  printf("skipped: overlap checks: %s gives every command the same profiling times "
         "(start %llu, end %llu)\n",
         lsk_context_device(ctx)->name, (unsigned long long)es[0].start,
         (unsigned long long)es[0].end);
  return 1;
}

/* Entries of ctx's record against s, and their times; whether the clock
 * is a placeholder. */
static int check_record(lsk_context *ctx, const seq *s, lsk_trace_entry *es)
{
  size_t n = 0;
  TU_OK(ctx, lsk_trace_count(ctx, &n));
  ck_assert_msg(n == s->n, "%zu commands recorded, %zu enqueued", n, s->n);
  for (size_t i = 0; i < n; ++i) {
    lsk_trace_entry *e = &es[i];
    const want *w = &s->w[i];
    TU_OK(ctx, lsk_trace_get(ctx, i, e));
    ck_assert_msg(e->kind == w->kind, "command %zu: kind %d, want %d", i, (int)e->kind,
                  (int)w->kind);
    ck_assert_msg(strcmp(e->name, w->name) == 0, "command %zu: '%s', want '%s'", i, e->name,
                  w->name);
    ck_assert_msg(strcmp(e->queue, w->queue) == 0, "command %zu: queue '%s', want '%s'", i,
                  e->queue, w->queue);
    ck_assert_msg(e->queue_index == w->queue_index, "command %zu: queue %u, want %u", i,
                  e->queue_index, w->queue_index);
    ck_assert_msg(e->bytes == w->bytes, "command %zu (%s): %zu bytes, want %zu", i, w->name,
                  e->bytes, w->bytes);
    for (int k = 0; k < 3; ++k) {
      ck_assert_msg(e->domain[k] == w->domain[k], "command %zu (%s): domain[%d] %u, want %u", i,
                    w->name, k, e->domain[k], w->domain[k]);
      ck_assert_msg(e->blocks[k] == w->blocks[k], "command %zu (%s): blocks[%d] %zu, want %zu", i,
                    w->name, k, e->blocks[k], w->blocks[k]);
    }
    ck_assert_msg(e->workers == w->workers && e->simd == w->simd,
                  "command %zu (%s): %u workers of simd %u, want %u of %u", i, w->name, e->workers,
                  e->simd, w->workers, w->simd);
    ck_assert_msg(e->queued <= e->submitted && e->submitted <= e->start && e->start <= e->end &&
                      e->end > 0,
                  "command %zu (%s): times %llu %llu %llu %llu out of order", i, w->name,
                  (unsigned long long)e->queued, (unsigned long long)e->submitted,
                  (unsigned long long)e->start, (unsigned long long)e->end);
  }
  /* One in-order queue runs one command at a time. */
  int fake = placeholder_clock(ctx, es, n);
  for (size_t i = 0; i < n && !fake; ++i)
    for (size_t j = i + 1; j < n; ++j)
      if (es[j].queue_index == es[i].queue_index) {
        ck_assert_msg(es[i].end <= es[j].start,
                      "queue '%s': command %zu (%s) ends at %llu, after %zu (%s) starts at %llu",
                      es[i].queue, i, es[i].name, (unsigned long long)es[i].end, j, es[j].name,
                      (unsigned long long)es[j].start);
        break;
      }
  lsk_trace_entry past;
  TU_FAILS(ctx, lsk_trace_get(ctx, n, &past), LSK_ERANGE, "lsk_trace_get");
  return fake;
}

START_TEST(test_trace_records_sequence)
{
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.trace = 1});
  seq s;
  run_sequence(ctx, NULL, &s);
  ck_assert_uint_eq(s.n, 16);
  lsk_trace_entry es[MAXW];
  check_record(ctx, &s, es);
  lsk_context_destroy(ctx);
}
END_TEST

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  size_t cap = 1 << 16, n = 0;
  char *s = malloc(cap + 1);
  ck_assert_ptr_nonnull(s);
  size_t k;
  while ((k = fread(s + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      cap *= 2;
      s = realloc(s, cap + 1);
      ck_assert_ptr_nonnull(s);
    }
  }
  fclose(f);
  s[n] = 0;
  *len = n;
  return s;
}

static const char *kind_cat(lsk_trace_kind k)
{
  switch (k) {
  case LSK_TRACE_KERNEL: return "kernel";
  case LSK_TRACE_WRITE: return "write";
  case LSK_TRACE_READ: return "read";
  case LSK_TRACE_FILL: return "fill";
  case LSK_TRACE_COPY: return "copy";
  case LSK_TRACE_MAP: return "map";
  case LSK_TRACE_UNMAP: return "unmap";
  case LSK_TRACE_MARKER: return "marker";
  }
  return "?";
}

static long long ns_of(double us) { return llround(us * 1e3); }

/* The file against the record's expectations s and its entries es. */
static void check_file(const char *path, const seq *s, const lsk_trace_entry *es, int fake_clock)
{
  size_t len;
  char *text = slurp(path, &len);
  jv root;
  char err[128];
  ck_assert_msg(jparse_text(text, len, &root, err, sizeof err) == 0, "%s is not JSON: %s\n%.2000s",
                path, err, text);
  jv *evs = jget(&root, "traceEvents");
  ck_assert_msg(evs && evs->type == J_ARR, "no traceEvents array");
  uint64_t t0 = UINT64_MAX;
  for (size_t i = 0; i < s->n; ++i)
    if (es[i].start < t0)
      t0 = es[i].start;
  size_t nx = 0;
  int named[3] = {0, 0, 0};
  long long last_end[3] = {-1, -1, -1};
  for (size_t k = 0; k < evs->n; ++k) {
    const jv *ev = &evs->items[k];
    ck_assert(ev->type == J_OBJ);
    const char *ph = jstr(ev, "ph");
    double tid = jnum(ev, "tid");
    ck_assert_msg(tid >= 0 && tid < 3 && tid == floor(tid), "tid %g", tid);
    unsigned t = (unsigned)tid;
    if (strcmp(ph, "M") == 0) {
      if (strcmp(jstr(ev, "name"), "thread_name") != 0)
        continue;
      jv *args = jget(ev, "args");
      ck_assert(args != NULL);
      ck_assert_msg(!named[t], "two thread_name entries for tid %u", t);
      named[t] = 1;
      /* The queue of that index, as the record has it. */
      size_t i = 0;
      while (i < s->n && s->w[i].queue_index != t)
        ++i;
      ck_assert_uint_lt(i, s->n);
      ck_assert_str_eq(jstr(args, "name"), s->w[i].queue);
      continue;
    }
    ck_assert_str_eq(ph, "X");
    ck_assert_msg(nx < s->n, "more slices than commands");
    const want *w = &s->w[nx];
    const lsk_trace_entry *e = &es[nx];
    ck_assert_str_eq(jstr(ev, "name"), w->name);
    ck_assert_str_eq(jstr(ev, "cat"), kind_cat(w->kind));
    ck_assert_msg(t == w->queue_index, "slice %zu (%s): tid %u, want %u", nx, w->name, t,
                  w->queue_index);
    double ts = jnum(ev, "ts"), dur = jnum(ev, "dur");
    ck_assert_msg(ts >= 0 && dur >= 0, "slice %zu: ts %g dur %g", nx, ts, dur);
    /* Microseconds with three decimals: the nanoseconds exactly. */
    ck_assert_msg(ns_of(ts) == (long long)(e->start - t0), "slice %zu: ts %.3f, start %llu ns", nx,
                  ts, (unsigned long long)(e->start - t0));
    ck_assert_msg(ns_of(dur) == (long long)(e->end - e->start), "slice %zu: dur %.3f", nx, dur);
    ck_assert_msg(fake_clock || ns_of(ts) >= last_end[t],
                  "tid %u: slice %zu starts before the one before ends", t, nx);
    last_end[t] = ns_of(ts) + ns_of(dur);
    jv *args = jget(ev, "args");
    ck_assert(args != NULL);
    ck_assert_str_eq(jstr(args, "queue"), w->queue);
    if (w->kind == LSK_TRACE_KERNEL) {
      char want_dom[64], want_blocks[96];
      snprintf(want_dom, sizeof want_dom, "%ux%ux%u", w->domain[0], w->domain[1], w->domain[2]);
      snprintf(want_blocks, sizeof want_blocks, "%zux%zux%zu", w->blocks[0], w->blocks[1],
               w->blocks[2]);
      ck_assert_str_eq(jstr(args, "domain"), want_dom);
      ck_assert_str_eq(jstr(args, "blocks"), want_blocks);
      ck_assert(jnum(args, "workers") == w->workers && jnum(args, "simd") == w->simd);
    } else {
      ck_assert_msg(jnum(args, "bytes") == (double)w->bytes, "slice %zu (%s): bytes %g, want %zu",
                    nx, w->name, jnum(args, "bytes"), w->bytes);
    }
    ++nx;
  }
  ck_assert_msg(nx == s->n, "%zu slices, %zu commands", nx, s->n);
  for (unsigned t = 0; t < 3; ++t)
    ck_assert_msg(named[t], "no thread_name for tid %u", t);
  jfree(&root);
  free(text);
}

START_TEST(test_trace_write_json)
{
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.trace = 1});
  /* A name that JSON must escape: a quote, a backslash, a tab. */
  static const char odd[] = "say \"hi\"\\now\tthen";
  seq s;
  run_sequence(ctx, odd, &s);
  lsk_trace_entry es[MAXW];
  int fake = check_record(ctx, &s, es);
  char dir[1024], path[1200];
  tu_sub_dir(dir, sizeof dir, "trace");
  snprintf(path, sizeof path, "%s/t.json", dir);
  TU_OK(ctx, lsk_trace_write(ctx, path));
  check_file(path, &s, es, fake);
  /* Escaped in the text itself, not only parsed back. */
  size_t len;
  char *text = slurp(path, &len);
  ck_assert_msg(strstr(text, "\"say \\\"hi\\\"\\\\now\\u0009then\"") != NULL,
                "the escaped queue name is not in the file:\n%.2000s", text);
  free(text);
  /* Unwritable: LSK_EIO naming the path; nothing left behind. */
  char bad[1300];
  snprintf(bad, sizeof bad, "%s/no/such/dir/t.json", dir);
  TU_FAILS(ctx, lsk_trace_write(ctx, bad), LSK_EIO, bad);
  TU_FAILS(ctx, lsk_trace_write(ctx, ""), LSK_EINVAL, "lsk_trace_write");
  TU_FAILS(ctx, lsk_trace_write(ctx, NULL), LSK_EINVAL, "lsk_trace_write");
  ck_assert_int_eq(tu_count_named(dir, NULL), 1);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_trace_clear)
{
  lsk_context *ctx = tu_context_opt(&(lsk_context_options){.trace = 1});
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, 64, &b));
  uint32_t x[16] = {0};
  TU_OK(ctx, lsk_buffer_write(b, 0, x, sizeof x, NULL));
  TU_OK(ctx, lsk_buffer_read(b, 0, x, sizeof x, NULL));
  size_t n = 0;
  TU_OK(ctx, lsk_trace_count(ctx, &n));
  ck_assert_uint_eq(n, 2);
  TU_OK(ctx, lsk_trace_clear(ctx));
  TU_OK(ctx, lsk_trace_count(ctx, &n));
  ck_assert_uint_eq(n, 0);
  lsk_trace_entry e;
  TU_FAILS(ctx, lsk_trace_get(ctx, 0, &e), LSK_ERANGE, "lsk_trace_get");
  /* An empty record writes an empty list. */
  char dir[1024], path[1200];
  tu_sub_dir(dir, sizeof dir, "clear");
  snprintf(path, sizeof path, "%s/empty.json", dir);
  TU_OK(ctx, lsk_trace_write(ctx, path));
  size_t len;
  char *text = slurp(path, &len);
  jv root;
  char err[128];
  ck_assert_msg(jparse_text(text, len, &root, err, sizeof err) == 0, "%s: %s", err, text);
  jv *evs = jget(&root, "traceEvents");
  ck_assert(evs && evs->type == J_ARR && evs->n == 0);
  jfree(&root);
  free(text);
  /* Recording goes on after a clear, from the start. */
  uint32_t pat = 7;
  TU_OK(ctx, lsk_buffer_fill(b, &pat, 4, 16, 32, NULL));
  TU_OK(ctx, lsk_trace_count(ctx, &n));
  ck_assert_uint_eq(n, 1);
  TU_OK(ctx, lsk_trace_get(ctx, 0, &e));
  ck_assert_int_eq(e.kind, LSK_TRACE_FILL);
  ck_assert_str_eq(e.name, "fill");
  ck_assert_uint_eq(e.bytes, 32);
  ck_assert_str_eq(e.queue, "default");
  /* The entry's strings stay where they are while the record grows past
   * its first chunk (ASan sees a read of moved memory). */
  for (int i = 0; i < 1500; ++i)
    TU_OK(ctx, lsk_buffer_fill(b, &pat, 4, 0, 4, NULL));
  ck_assert_str_eq(e.name, "fill");
  ck_assert_str_eq(e.queue, "default");
  TU_OK(ctx, lsk_trace_count(ctx, &n));
  ck_assert_uint_eq(n, 1501);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

START_TEST(test_trace_off)
{
  lsk_context *ctx = tu_context();
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, 64, &b));
  uint32_t x[16] = {0};
  TU_OK(ctx, lsk_buffer_write(b, 0, x, sizeof x, NULL));
  size_t n = 42;
  lsk_trace_entry e;
  TU_FAILS(ctx, lsk_trace_count(ctx, &n), LSK_EINVAL, "lsk_trace_count");
  ck_assert_uint_eq(n, 42);
  TU_FAILS(ctx, lsk_trace_get(ctx, 0, &e), LSK_EINVAL, "lsk_trace_get");
  TU_FAILS(ctx, lsk_trace_clear(ctx), LSK_EINVAL, "lsk_trace_clear");
  char dir[1024], path[1200];
  tu_sub_dir(dir, sizeof dir, "off");
  snprintf(path, sizeof path, "%s/t.json", dir);
  TU_FAILS(ctx, lsk_trace_write(ctx, path), LSK_EINVAL, "lsk_trace_write");
  ck_assert_int_eq(tu_count_named(dir, NULL), 0);
  /* Each message says why. */
  TU_FAILS(ctx, lsk_trace_count(ctx, &n), LSK_EINVAL, "lsk_context_options.trace");
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_trace(void)
{
  Suite *s = suite_create("trace");
  TCase *tc = tcase_create("trace");
  tcase_set_timeout(tc, 600);
  tu_case_dir(tc);
  tcase_add_test(tc, test_trace_json_parser);
  tcase_add_test(tc, test_trace_records_sequence);
  tcase_add_test(tc, test_trace_write_json);
  tcase_add_test(tc, test_trace_clear);
  tcase_add_test(tc, test_trace_off);
  suite_add_tcase(s, tc);
  return s;
}
