/* badinput.c: helpers of the bad-input suites (see badinput.h). */
#include <ctype.h>
#include <stdio.h>

#include "badinput.h"

/* A context of the suite's own, whose message only bi_clear sets: a row
 * whose failure goes to the thread (no context, or a dead handle that
 * cannot say its context) must show through it (bi_check). Made once per
 * test process before the test's own objects (bi_tcase: made later, it
 * could take the address of a context the test destroyed and still
 * passes), destroyed at its exit before the ledger counts (whose handler
 * was registered first, so runs after). */
static lsk_context *fixture;

static void fixture_drop(void)
{
  lsk_context_destroy(fixture);
  fixture = NULL;
}

static void plant(lsk_context *ctx)
{
  lsk_buffer *b = NULL;
  (void)lsk_buffer_create(ctx, SIZE_MAX, &b);
}

static void fixture_make(void)
{
  if (!fixture) {
    fixture = tu_context();
    atexit(fixture_drop);
  }
}

TCase *bi_tcase(const char *name)
{
  TCase *tc = tcase_create(name);
  tcase_add_checked_fixture(tc, fixture_make, NULL);
  return tc;
}

void bi_clear(lsk_context *ctx)
{
  /* Messages no row expects: the context's from a size no device
   * allocates (the fixture's too), then the thread's from a public
   * function that only reports. */
  fixture_make(); /* made already by bi_tcase's fixture */
  plant(fixture);
  if (ctx)
    plant(ctx);
  if (!ctx)
    (void)lsk_soa_range_error(NULL, 0, "bi_sentinel", "none", 1, 0);
}

void bi_count(const char *fn)
{
  const char *path = getenv("LSK_BADINPUT_ROWS");
  if (!path || !*path)
    return;
  /* One short append per row: the forked tests share the file. */
  FILE *f = fopen(path, "a");
  if (f) {
    fprintf(f, "%s\n", fn);
    fclose(f);
  }
}

void bi_check(int line, const char *expr, int rc, int want, lsk_context *msg, const char *fn,
              const char *text)
{
  const char *m = lsk_context_errmsg(msg);
  ck_assert_msg(rc == want, "line %d: %s -> %s, wanted %s: %s", line, expr, lsk_status_name(rc),
                lsk_status_name(want), m);
  size_t n = strlen(fn);
  ck_assert_msg(strncmp(m, fn, n) == 0 && m[n] == ':' &&
                    (m[n + 1] == ' ' || isdigit((unsigned char)m[n + 1])),
                "line %d: %s: message '%s' does not start with '%s: '", line, expr, m, fn);
  ck_assert_msg(strstr(m, text) != NULL, "line %d: %s: message '%s' lacks '%s'", line, expr, m,
                text);
  /* The thread's last failure is the row's, and a context that did not
   * fail shows it when its own message (bi_clear's) is older and the
   * row's failure could not name a context. */
  ck_assert_msg(strcmp(lsk_errmsg(), m) == 0,
                "line %d: %s: lsk_errmsg() '%s' is not the row's '%s'", line, expr, lsk_errmsg(),
                m);
  if (!msg) {
    const char *f = lsk_context_errmsg(fixture);
    ck_assert_msg(strcmp(f, m) == 0, "line %d: %s: an unharmed context reads '%s', not '%s'", line,
                  expr, f, m);
  }
  /* A call that succeeds marks it: the text, "(earlier) " in front. */
  size_t len = strlen(m);
  char *copy = malloc(len + 1);
  ck_assert_ptr_nonnull(copy);
  memcpy(copy, m, len + 1);
  ck_assert_int_eq(lsk_queue_flush(lsk_context_queue(fixture)), LSK_OK);
  const char *e = lsk_errmsg();
  int marked = strncmp(e, "(earlier) ", 10) == 0 && strcmp(e + 10, copy) == 0;
  ck_assert_msg(marked, "line %d: %s: after a success lsk_errmsg() reads '%s'", line, expr, e);
  free(copy);
}

lsk_buffer *bi_dead_buffer(lsk_context *ctx)
{
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, 16, &b));
  lsk_buffer_destroy(b);
  return b;
}
