/*
 * badinput.h: the rows of the bad-input suites (check_badinput*.c). Each
 * row calls one public function with one bad argument and checks the
 * status and the message: it starts "<function>: " and holds the text
 * (which names the offending value). tests/badinput/badinput_coverage.sh counts the
 * rows run per function (bi_count) and fails if a public function of the
 * headers in include/lsk/ has none.
 */
#ifndef LSK_BADINPUT_H
#define LSK_BADINPUT_H

#include "testutil.h"

/* Sets the message of ctx (NULL: the thread's) and of a context of the
 * suite's own to a sentinel, so that a row cannot pass on an earlier
 * message. */
void bi_clear(lsk_context *ctx);
/* A test case whose tests run with the suite's own context made first
 * (bi_clear and bi_check use it). */
TCase *bi_tcase(const char *name);
/* Counts a row of fn: appends fn to the file $LSK_BADINPUT_ROWS if set
 * (tests/badinput/badinput_coverage.sh counts them). */
void bi_count(const char *fn);
/* Asserts rc == want and that msg's message (NULL: the thread's) starts
 * with "fn: " and contains text; that lsk_errmsg() is the same text, and
 * for msg NULL so is the message of a context that did not fail (a
 * failure that cannot name its context shows there); and that after a
 * call that succeeds lsk_errmsg() is the text marked "(earlier) ". */
void bi_check(int line, const char *expr, int rc, int want, lsk_context *msg, const char *fn,
              const char *text);

/* A status-returning call: expr fails with want; the message is on msg. */
#define BAD(msg, fn, expr, want, text)                                                             \
  do {                                                                                             \
    bi_count(fn);                                                                                  \
    bi_clear(msg);                                                                                 \
    int bi_rc_ = (expr);                                                                           \
    bi_check(__LINE__, #expr, bi_rc_, (want), (msg), (fn), (text));                                \
  } while (0)

/* The same for a parser whose messages start "file:line: " (at) as a
 * compiler's do, not with the function's name. */
#define BAD_AT(msg, fn, at, expr, want, text)                                                      \
  do {                                                                                             \
    bi_count(fn);                                                                                  \
    bi_clear(msg);                                                                                 \
    int bi_rc_ = (expr);                                                                           \
    bi_check(__LINE__, #expr, bi_rc_, (want), (msg), (at), (text));                                \
  } while (0)

/* A call without a status (a getter, a destroy): it returns the neutral
 * value (or nothing: pass 0 for both) and explains in the thread's
 * message. */
#define BADV(fn, expr, neutral, text)                                                              \
  do {                                                                                             \
    bi_count(fn);                                                                                  \
    bi_clear(NULL);                                                                                \
    ck_assert_msg((expr) == (neutral), "line %d: %s did not give %s", __LINE__, #expr, #neutral);  \
    bi_check(__LINE__, #expr, 0, 0, NULL, (fn), (text));                                           \
  } while (0)

/* A call that has no way to report (pure functions, frees): it must not
 * crash and must give the documented neutral value (cond). */
#define QUIET(fn, cond)                                                                            \
  do {                                                                                             \
    bi_count(fn);                                                                                  \
    ck_assert_msg((cond), "line %d: %s", __LINE__, #cond);                                         \
  } while (0)

/* Handles that were destroyed just now: the registry no longer knows them
 * (nothing else is created between this and the call that uses it). */
lsk_buffer *bi_dead_buffer(lsk_context *ctx);

/* The texts of the registry's messages. */
#define DEAD(type) "is not a live lsk_" type " (destroyed or never created)"
#define WRONG(type, is) "is not a live lsk_" type " (it is a live lsk_" is ")"
#define ORPHAN(parent) "is unusable: its " parent

#endif
