/* badinput.c: helpers of the bad-input suites (see badinput.h). */
#include <ctype.h>
#include <stdio.h>

#include "badinput.h"

void bi_clear(lsk_context *ctx)
{
  /* Messages no row expects: the thread's from a public function that
   * only reports, the context's from a size no device allocates. */
  (void)lsk_soa_range_error(NULL, 0, "bi_sentinel", "none", 1, 0);
  if (ctx) {
    lsk_buffer *b = NULL;
    (void)lsk_buffer_create(ctx, SIZE_MAX, &b);
  }
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
}

lsk_buffer *bi_dead_buffer(lsk_context *ctx)
{
  lsk_buffer *b = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, 16, &b));
  lsk_buffer_destroy(b);
  return b;
}
