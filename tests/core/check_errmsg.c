/*
 * check_errmsg.c: the message a user reads is the failure just returned
 * (docs/errors.md, "Messages"). Each test reads it the way a program
 * does, through a CHECK macro that copies lsk_context_errmsg(ctx) when a
 * call fails, and compares with what the failure must say, built here
 * independently (the pointer printed with %p, the text passed in).
 */
#include <stdio.h>
#include <threads.h>

#include "testutil.h"

/* What a user writes: on failure, keep the context's message. */
static char seen[1 << 16];
#define CHECK(ctx, call)                                                                           \
  ((chk_rc_ = (call)) != LSK_OK                                                                    \
       ? (snprintf(seen, sizeof seen, "%s", lsk_context_errmsg(ctx)), chk_rc_)                     \
       : LSK_OK)
static int chk_rc_;

#define EARLIER "(earlier) "

/* s is want marked "(earlier) ". */
static int is_marked(const char *s, const char *want)
{
  return strncmp(s, EARLIER, strlen(EARLIER)) == 0 && strcmp(s + strlen(EARLIER), want) == 0;
}

static char *copy(const char *s)
{
  char *c = malloc(strlen(s) + 1);
  ck_assert_ptr_nonnull(c);
  return strcpy(c, s);
}

/* (a) a failure is current; (b) after a success it is marked, read from
 * the context and from lsk_errmsg(); (c) a read of a destroyed buffer is
 * what the context's message then says, not the older failure. */
START_TEST(test_errmsg_current_marked_dead_handle)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = NULL;
  ck_assert_int_eq(CHECK(ctx, lsk_program_create(ctx, NULL, NULL, &p)), LSK_EINVAL);
  ck_assert_msg(strncmp(seen, "lsk_program_create: ", 20) == 0, "(a) '%s'", seen);
  ck_assert_str_eq(lsk_errmsg(), seen);
  char *a = copy(seen);

  lsk_buffer *b = NULL;
  ck_assert_int_eq(CHECK(ctx, lsk_buffer_create(ctx, 16, &b)), LSK_OK);
  ck_assert_msg(is_marked(lsk_context_errmsg(ctx), a), "(b) ctx: '%s'", lsk_context_errmsg(ctx));
  ck_assert_msg(is_marked(lsk_errmsg(), a), "(b) thread: '%s'", lsk_errmsg());

  lsk_buffer_destroy(b);
  char data[4];
  char want[256];
  snprintf(want, sizeof want,
           "lsk_buffer_read: buf %p is not a live lsk_buffer (destroyed or never created)",
           (void *)b);
  ck_assert_int_eq(CHECK(ctx, lsk_buffer_read(b, 0, data, sizeof data, NULL)), LSK_EINVAL);
  ck_assert_msg(strcmp(seen, want) == 0, "(c) CHECK read '%s', not '%s'", seen, want);
  ck_assert_str_eq(lsk_errmsg(), want);
  /* And marked in its turn by the next success. */
  ck_assert_int_eq(CHECK(ctx, lsk_context_finish(ctx)), LSK_OK);
  ck_assert_msg(is_marked(lsk_context_errmsg(ctx), want), "'%s'", lsk_context_errmsg(ctx));
  free(a);
  lsk_context_destroy(ctx);
}
END_TEST

/* (d) a failure on ctx2 is not ctx1's: ctx1 keeps its own text, marked. */
START_TEST(test_errmsg_other_context)
{
  lsk_context *c1 = tu_context(), *c2 = tu_context();
  lsk_buffer *b = NULL;
  ck_assert_int_eq(CHECK(c1, lsk_buffer_create(c1, 0, &b)), LSK_EINVAL);
  char *one = copy(seen);
  ck_assert_int_eq(CHECK(c2, lsk_program_create(c2, NULL, NULL, NULL)), LSK_EINVAL);
  ck_assert_msg(strncmp(seen, "lsk_program_create: ", 20) == 0, "'%s'", seen);
  ck_assert_msg(is_marked(lsk_context_errmsg(c1), one), "(d) ctx1 reads '%s'",
                lsk_context_errmsg(c1));
  ck_assert_str_eq(lsk_errmsg(), seen); /* the thread's last: c2's */
  free(one);
  lsk_context_destroy(c2);
  lsk_context_destroy(c1);
}
END_TEST

static const char *verify_src = "LSK_KERNEL void plain(LSK_CTX, __global const int *v)\n"
                                "{\n"
                                "  LSK_MASTER { LSK_VERIFY(v[0] == 0, \"first is not zero\"); }\n"
                                "}\n";

/* The input that makes verify_src's kernel fail: v[0] = 5. */
static lsk_buffer *failing_input(lsk_context *ctx)
{
  int host[4] = {5, 0, 0, 0};
  lsk_buffer *v = NULL;
  TU_OK(ctx, lsk_buffer_create(ctx, sizeof host, &v));
  TU_OK(ctx, lsk_buffer_write(v, 0, host, sizeof host, NULL));
  return v;
}

/* (e) lsk_kernel_run finds the failure in a finish it calls itself (a
 * public function inside another): the failure is still current. */
START_TEST(test_errmsg_nested_verify)
{
  lsk_context *ctx = tu_context();
  lsk_program *p = tu_program(ctx, "errmsg.cl", verify_src);
  lsk_kernel *k = tu_kernel(p, "plain");
  lsk_buffer *v = failing_input(ctx);
  lsk_launch cfg = {.domain = {4}, .blocks = {1}};
  ck_assert_int_eq(CHECK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(v)), NULL)),
                   LSK_EVERIFY);
  ck_assert_msg(strstr(seen, "first is not zero") && strncmp(seen, EARLIER, strlen(EARLIER)) != 0,
                "(e) '%s'", seen);
  ck_assert_str_eq(lsk_errmsg(), seen);
  lsk_buffer_destroy(v);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

/* (e) continued: lsk_group_finish finishes its first member (which
 * fails), then the second (which succeeds, a public call inside the
 * group's): the group's failure stays current. */
START_TEST(test_errmsg_nested_success_after_failure)
{
  lsk_group *g = NULL;
  int rc = lsk_group_create(NULL, &(lsk_group_options){.partition = 2}, &g);
  if (rc != LSK_OK) {
    printf("skipped: the device cannot be split in two: %s\n", lsk_errmsg());
    return;
  }
  lsk_context *ctx = lsk_group_context(g, 0);
  lsk_program *p = tu_program(ctx, "errmsg.cl", verify_src);
  lsk_kernel *k = tu_kernel(p, "plain");
  lsk_buffer *v = failing_input(ctx);
  lsk_launch cfg = {.domain = {4}, .blocks = {1}};
  TU_OK(ctx, lsk_kernel_launch(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(v)), NULL));
  ck_assert_int_eq(CHECK(NULL, lsk_group_finish(g)), LSK_EVERIFY);
  ck_assert_msg(strncmp(seen, "lsk_group_finish: ", 18) == 0 && strstr(seen, "first is not zero") &&
                    !strstr(seen, EARLIER),
                "'%s'", seen);
  lsk_buffer_destroy(v);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_group_destroy(g);
}
END_TEST

/* (f) another thread's failure, on the same context, changes nothing
 * here: not the text, not whether it is current. */
static int fail_there(void *arg)
{
  lsk_buffer *b = NULL;
  int rc = lsk_buffer_create(arg, 0, &b);
  rc = rc == LSK_EINVAL && strncmp(lsk_errmsg(), "lsk_buffer_create: ", 19) == 0;
  (void)lsk_buffer_read(NULL, 0, NULL, 0, NULL); /* and one without a context */
  return rc;
}

START_TEST(test_errmsg_other_thread)
{
  lsk_context *ctx = tu_context();
  ck_assert_int_eq(CHECK(ctx, lsk_program_create(ctx, NULL, NULL, NULL)), LSK_EINVAL);
  char *mine = copy(seen);
  thrd_t t;
  int ok = 0;
  ck_assert_int_eq(thrd_create(&t, fail_there, ctx), thrd_success);
  ck_assert_int_eq(thrd_join(t, &ok), thrd_success);
  ck_assert_int_eq(ok, 1);
  ck_assert_str_eq(lsk_context_errmsg(ctx), mine); /* current still */
  ck_assert_str_eq(lsk_errmsg(), mine);
  free(mine);
  lsk_context_destroy(ctx);
}
END_TEST

/* (g) reading a destroyed context's message returns the thread's and
 * writes nothing: the thread's last failure stays what it was. */
START_TEST(test_errmsg_dead_context_read)
{
  lsk_context *ctx = tu_context(), *dead = tu_context();
  lsk_context_destroy(dead);
  ck_assert_int_eq(CHECK(ctx, lsk_program_create(ctx, NULL, NULL, NULL)), LSK_EINVAL);
  char *before = copy(lsk_errmsg());
  ck_assert_str_eq(lsk_context_errmsg(dead), before);
  ck_assert_str_eq(lsk_errmsg(), before);
  ck_assert_str_eq(lsk_context_errmsg(ctx), before);
  /* A live handle of another type is no context either. */
  lsk_buffer *b = tu_zeros(ctx, 4);
  ck_assert_str_eq(lsk_context_errmsg((const lsk_context *)b), lsk_errmsg());
  ck_assert_msg(is_marked(lsk_errmsg(), before), "'%s'", lsk_errmsg()); /* tu_zeros succeeded */
  free(before);
  lsk_buffer_destroy(b);
  lsk_context_destroy(ctx);
}
END_TEST

/* (h) long messages come through whole: 9000 bytes given to
 * lsk_context_set_error, and a build log of many long errors. */
START_TEST(test_errmsg_long)
{
  lsk_context *ctx = tu_context();
  size_t n = 9000;
  char *big = malloc(n + 1);
  ck_assert_ptr_nonnull(big);
  memcpy(big, "user_fn: ", 9);
  for (size_t i = 9; i < n; ++i)
    big[i] = (char)('a' + i % 26);
  big[n] = 0;
  ck_assert_int_eq(CHECK(ctx, lsk_context_set_error(ctx, LSK_EIO, "%s", big)), LSK_EIO);
  ck_assert_uint_eq(strlen(seen), n);
  ck_assert_str_eq(seen, big);
  ck_assert_str_eq(lsk_errmsg(), big);

  /* Twelve undeclared identifiers of 900 letters each, the last named z. */
  size_t len = 0, cap = 16 * 1024 + 12 * 1000;
  char *src = malloc(cap);
  ck_assert_ptr_nonnull(src);
  len += (size_t)snprintf(src + len, cap - len, "LSK_KERNEL void k(LSK_CTX, __global int *d)\n{\n");
  for (int e = 0; e < 12; ++e) {
    len += (size_t)snprintf(src + len, cap - len, "  d[%d] = ", e);
    for (int i = 0; i < 900; ++i)
      src[len++] = (char)(e == 11 ? 'z' : 'a' + e);
    len += (size_t)snprintf(src + len, cap - len, ";\n");
  }
  snprintf(src + len, cap - len, "}\n");
  lsk_program *p = NULL;
  ck_assert_int_eq(CHECK(ctx, lsk_program_create(ctx, src, NULL, &p)), LSK_OK);
  lsk_kernel *k = tu_kernel(p, "k");
  lsk_buffer *d = tu_zeros(ctx, 12);
  lsk_launch cfg = {.domain = {1}, .blocks = {1}};
  ck_assert_int_eq(CHECK(ctx, lsk_kernel_run(k, &cfg, LSK_ARGS(LSK_ARG_BUFFER(d)), NULL)),
                   LSK_EBUILD);
  char last[901];
  memset(last, 'z', 900);
  last[900] = 0;
  ck_assert_msg(strlen(seen) > 8192 && strstr(seen, last), "a build log of %zu bytes, cut",
                strlen(seen));
  ck_assert_str_eq(lsk_errmsg(), seen);
  free(src);
  free(big);
  lsk_buffer_destroy(d);
  lsk_kernel_destroy(k);
  lsk_program_destroy(p);
  lsk_context_destroy(ctx);
}
END_TEST

Suite *suite_errmsg(void)
{
  Suite *s = suite_create("errmsg");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_errmsg_current_marked_dead_handle);
  tcase_add_test(tc, test_errmsg_other_context);
  tcase_add_test(tc, test_errmsg_nested_verify);
  tcase_add_test(tc, test_errmsg_nested_success_after_failure);
  tcase_add_test(tc, test_errmsg_other_thread);
  tcase_add_test(tc, test_errmsg_dead_context_read);
  tcase_add_test(tc, test_errmsg_long);
  suite_add_tcase(s, tc);
  return s;
}
