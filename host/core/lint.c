/*
 * lint.c: lsk_source_check, the barriers that a program's text places
 * where not every worker of the block reaches them.
 *
 * The device library makes a barrier or block collective written inside a
 * ForEach or master body a compile error (cl/lsk_foreach.h); this scanner
 * also finds what a macro cannot see: a function of the source that
 * contains one (declared LSK_COLLECTIVE, or calling a collective, to any
 * depth) called from such a body, and a `break` directly in a body (it
 * leaves the worker's loop over its indices, silently wrong), or a
 * `continue` directly in a master body (the body is a loop of one pass). With
 * LSK_SOURCE_CHECK_DIVERGENT it also flags, as a heuristic, a barrier under
 * an `if` or `while` whose condition names the worker or the work-item.
 *
 * Only the text is read, after lsk__blank_noise (comments, literals and
 * preprocessor lines blanked), so a macro of the user's that hides a
 * barrier or a body is not seen.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/build.h"

#define LINT_MAX_FUNCS 1024

/* One function definition of the source: its name and body [open, close]. */
typedef struct lint_fn {
  char name[64];
  size_t open, close;
  int collective;
} lint_fn;

typedef struct lint {
  const char *t; /* the blanked text */
  size_t n;
  const char *name;
  lint_fn *fns;
  size_t nfns;
  char *report;
  size_t len, cap;
  int count, nomem;
  size_t seen[256]; /* the positions reported: one finding per call */
  size_t nseen;
} lint;

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The identifier at i (its length), 0 if none starts there. */
static size_t ident_at(const lint *l, size_t i)
{
  if (i >= l->n || !(isalpha((unsigned char)l->t[i]) || l->t[i] == '_') ||
      (i > 0 && ident_char(l->t[i - 1])))
    return 0;
  size_t e = i;
  while (e < l->n && ident_char(l->t[e]))
    ++e;
  return e - i;
}

static int ident_is(const lint *l, size_t i, size_t len, const char *word)
{
  return len == strlen(word) && memcmp(l->t + i, word, len) == 0;
}

static size_t skip_ws(const lint *l, size_t i)
{
  while (i < l->n && isspace((unsigned char)l->t[i]))
    ++i;
  return i;
}

/* The position of the bracket that closes the one at i (n if none). */
static size_t match(const lint *l, size_t i)
{
  char open = l->t[i], close = open == '(' ? ')' : open == '{' ? '}' : ']';
  int depth = 0;
  for (; i < l->n; ++i) {
    if (l->t[i] == open)
      ++depth;
    else if (l->t[i] == close && --depth == 0)
      return i;
  }
  return l->n;
}

/* The end (inclusive) of the statement that starts at i: a block, or text
 * to the first `;` outside brackets, taking in the blocks it contains and
 * an `else` that follows. */
static size_t statement_end(const lint *l, size_t i)
{
  for (;;) {
    i = skip_ws(l, i);
    size_t e = l->n;
    if (i < l->n && l->t[i] == '{') {
      e = match(l, i);
    } else {
      for (size_t j = i; j < l->n; ++j) {
        if (l->t[j] == '(' || l->t[j] == '[') {
          j = match(l, j);
        } else if (l->t[j] == '{') {
          e = match(l, j);
          break;
        } else if (l->t[j] == ';') {
          e = j;
          break;
        }
      }
    }
    if (e >= l->n)
      return l->n ? l->n - 1 : 0;
    size_t k = skip_ws(l, e + 1), len = ident_at(l, k);
    if (!len || !ident_is(l, k, len, "else"))
      return e;
    i = k + len; /* the else branch belongs to the statement */
  }
}

static unsigned line_of(const lint *l, size_t at)
{
  unsigned line = 1;
  for (size_t i = 0; i < at && i < l->n; ++i)
    line += l->t[i] == '\n';
  return line;
}

static void add(lint *l, size_t at, const char *fmt, ...)
{
  for (size_t k = 0; k < l->nseen; ++k)
    if (l->seen[k] == at)
      return;
  if (l->nseen < sizeof l->seen / sizeof l->seen[0])
    l->seen[l->nseen++] = at;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char *line = lsk__strdupf("%s:%u: %s\n", l->name, line_of(l, at), msg);
  size_t k = line ? strlen(line) : 0;
  if (line && l->len + k + 1 > l->cap) {
    size_t cap = (l->len + k + 1) * 2;
    char *r = realloc(l->report, cap);
    if (r) {
      l->report = r;
      l->cap = cap;
    } else {
      free(line);
      line = NULL;
    }
  }
  if (!line) {
    l->nomem = 1;
    return;
  }
  memcpy(l->report + l->len, line, k + 1);
  l->len += k;
  l->count++;
  free(line);
}

/* Whether the identifier at i (length len) names a barrier or one of the
 * device library's collectives (not lsk_block_idx and lsk_block_nd). */
static int builtin_collective(const lint *l, size_t i, size_t len)
{
  static const char *const exact[] = {"barrier",
                                      "lsk_sync",
                                      "lsk_sync_local",
                                      "lsk_list_append_var",
                                      "lsk_pool_alloc_var",
                                      "lsk_pool_recycle_var",
                                      "LSK_BLOCK_VECTOR_APPEND"};
  for (size_t k = 0; k < sizeof exact / sizeof exact[0]; ++k)
    if (ident_is(l, i, len, exact[k]))
      return 1;
  const char *s = l->t + i;
  return len > 10 && memcmp(s, "lsk_block_", 10) == 0 &&
         !(len >= 13 && memcmp(s + 10, "idx", 3) == 0) &&
         !(len >= 12 && memcmp(s + 10, "nd", 2) == 0);
}

static lint_fn *function_named(const lint *l, size_t i, size_t len)
{
  for (size_t k = 0; k < l->nfns; ++k)
    if (ident_is(l, i, len, l->fns[k].name))
      return &l->fns[k];
  return NULL;
}

static int is_collective(const lint *l, size_t i, size_t len)
{
  if (builtin_collective(l, i, len))
    return 1;
  const lint_fn *f = function_named(l, i, len);
  return f && f->collective;
}

/* The first call of a collective in [from, to], its position in *at and
 * its length in *len; 0 if none. */
static int first_collective_call(const lint *l, size_t from, size_t to, size_t *at, size_t *len)
{
  for (size_t i = from; i <= to && i < l->n; ++i) {
    size_t k = ident_at(l, i);
    if (!k)
      continue;
    size_t p = skip_ws(l, i + k);
    if (p < l->n && l->t[p] == '(' && is_collective(l, i, k)) {
      *at = i;
      *len = k;
      return 1;
    }
    i += k - 1;
  }
  return 0;
}

/* The function definitions at file scope: NAME ( ... ) { ... }, with
 * LSK_COLLECTIVE among the words before NAME. */
static void find_functions(lint *l)
{
  size_t decl_start = 0;
  for (size_t i = 0; i < l->n && l->nfns < LINT_MAX_FUNCS; ++i) {
    char c = l->t[i];
    if (c == ';' || c == '}') {
      decl_start = i + 1;
      continue;
    }
    if (c == '{') {
      size_t e = match(l, i);
      decl_start = e + 1;
      i = e;
      continue;
    }
    size_t k = ident_at(l, i);
    if (!k)
      continue;
    size_t p = skip_ws(l, i + k);
    if (k < sizeof l->fns[0].name && p < l->n && l->t[p] == '(') {
      size_t b = skip_ws(l, match(l, p) + 1);
      if (b < l->n && l->t[b] == '{') {
        lint_fn *f = &l->fns[l->nfns++];
        memcpy(f->name, l->t + i, k);
        f->name[k] = '\0';
        f->open = b;
        f->close = match(l, b);
        f->collective = 0;
        for (size_t j = decl_start; j + 14 <= i; ++j)
          if (memcmp(l->t + j, "LSK_COLLECTIVE", 14) == 0 && !ident_char(l->t[j + 14]) &&
              (j == 0 || !ident_char(l->t[j - 1])))
            f->collective = 1;
        decl_start = f->close + 1;
        i = f->close;
        continue;
      }
    }
    i += k - 1;
  }
  /* A function that calls a collective is one: to a fixed point. */
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t k = 0; k < l->nfns; ++k) {
      size_t at, len;
      if (!l->fns[k].collective &&
          first_collective_call(l, l->fns[k].open + 1, l->fns[k].close, &at, &len)) {
        l->fns[k].collective = 1;
        changed = 1;
      }
    }
  }
}

/* Whether position at lies in a loop (with_switch: or a switch) nested in
 * [from, to]. The lockstep macros are loops too. */
static int in_nested_loop(const lint *l, size_t from, size_t to, size_t at, int with_switch)
{
  static const char *const loops[] = {"do",         "LSK_MASTER",        "for",
                                      "while",      "LSK_FOREACH",       "LSK_FOREACH_N",
                                      "LSK_BLOCKS", "LSK_ASSOC_FOREACH", "switch"};
  size_t nloops = sizeof loops / sizeof loops[0] - !with_switch;
  for (size_t i = from; i < at && i <= to; ++i) {
    size_t k = ident_at(l, i);
    if (!k)
      continue;
    for (size_t w = 0; w < nloops; ++w) {
      if (!ident_is(l, i, k, loops[w]))
        continue;
      size_t s = skip_ws(l, i + k);
      if (w >= 2 && s < l->n && l->t[s] == '(')
        s = match(l, s) + 1;
      if (statement_end(l, s) >= at)
        return 1;
    }
    i += k - 1;
  }
  return 0;
}

/* The body of the ForEach or master macro `what` at i (length k): its
 * collective calls, and a `break` (in a master body also a `continue`)
 * outside loops of the body's own. */
static void check_body(lint *l, size_t i, size_t k, const char *what, const char *why)
{
  size_t s = skip_ws(l, i + k);
  int master = strcmp(what, "LSK_MASTER") == 0;
  if (!master) {
    if (s >= l->n || l->t[s] != '(')
      return;
    s = match(l, s) + 1;
  }
  s = skip_ws(l, s);
  size_t e = statement_end(l, s);
  unsigned at_line = line_of(l, i);
  for (size_t j = s; j <= e && j < l->n; ++j) {
    size_t m = ident_at(l, j);
    if (!m)
      continue;
    size_t p = skip_ws(l, j + m);
    if (p < l->n && l->t[p] == '(' && is_collective(l, j, m)) {
      int builtin = builtin_collective(l, j, m);
      add(l, j, "%.*s%s inside %s (line %u): %s; a barrier must be reached by every worker", (int)m,
          l->t + j, builtin ? "" : " (a function with a barrier)", what, at_line, why);
    } else if (ident_is(l, j, m, "break") && !in_nested_loop(l, s, e, j, 1)) {
      add(l, j, "break inside %s (line %u): %s", what, at_line,
          master ? "it leaves the master body only (the body is a loop of one pass)"
                 : "it leaves the worker's loop over its indices, not the body; use continue, "
                   "or a flag");
    } else if (master && ident_is(l, j, m, "continue") && !in_nested_loop(l, s, e, j, 0)) {
      add(l, j,
          "continue inside LSK_MASTER (line %u): it leaves the master body only (the body "
          "is a loop of one pass), not the loop around it",
          at_line);
    }
    j += m - 1;
  }
}

/* A collective call under an if or while whose condition names the worker
 * or the work-item (a heuristic). */
static void check_divergent(lint *l)
{
  static const char *const ids[] = {"lsk_worker", "get_local_id", "get_global_id"};
  for (size_t i = 0; i < l->n; ++i) {
    size_t k = ident_at(l, i);
    if (!k)
      continue;
    if (ident_is(l, i, k, "if") || ident_is(l, i, k, "while")) {
      size_t c = skip_ws(l, i + k);
      if (c < l->n && l->t[c] == '(') {
        size_t ce = match(l, c);
        int names = 0;
        for (size_t j = c; j < ce && !names; ++j)
          for (size_t w = 0; w < 3; ++w) {
            size_t len = ident_at(l, j);
            if (len && ident_is(l, j, len, ids[w]))
              names = 1;
          }
        size_t at, len;
        if (names && first_collective_call(l, ce + 1, statement_end(l, ce + 1), &at, &len))
          add(l, at,
              "%.*s under a condition on the worker (line %u): workers that skip it never "
              "reach the barrier",
              (int)len, l->t + at, line_of(l, i));
      }
    }
    i += k - 1;
  }
}

char *lsk__lint(const char *source, const char *name, unsigned flags, int *count)
{
  *count = 0;
  lint l = {0};
  char *t = lsk__blank_noise(source);
  l.fns = calloc(LINT_MAX_FUNCS, sizeof *l.fns);
  if (!t || !l.fns) {
    free(t);
    free(l.fns);
    *count = -1;
    return NULL;
  }
  l.t = t;
  l.n = strlen(t);
  l.name = name;
  find_functions(&l);
  for (size_t i = 0; i < l.n; ++i) {
    size_t k = ident_at(&l, i);
    if (!k)
      continue;
    if (ident_is(&l, i, k, "LSK_FOREACH") || ident_is(&l, i, k, "LSK_FOREACH_N") ||
        ident_is(&l, i, k, "LSK_ASSOC_FOREACH"))
      check_body(&l, i, k, "LSK_FOREACH", "workers run different numbers of indices");
    else if (ident_is(&l, i, k, "LSK_MASTER"))
      check_body(&l, i, k, "LSK_MASTER", "only worker 0 runs the body");
    i += k - 1;
  }
  if (flags & LSK_SOURCE_CHECK_DIVERGENT)
    check_divergent(&l);
  free(t);
  free(l.fns);
  if (l.nomem) {
    free(l.report);
    *count = -1;
    return NULL;
  }
  *count = l.count;
  return l.report;
}

int lsk_source_check(const char *source, const char *name, unsigned flags, char **report)
{
  LSK__API();
  if (report)
    *report = NULL;
  if (!source || !report)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, source ? "report" : "source");
  if (flags & ~(unsigned)LSK_SOURCE_CHECK_DIVERGENT)
    return lsk__fail(NULL, LSK_EINVAL, "%s: flags 0x%x: unknown bits", __func__, flags);
  int count;
  *report = lsk__lint(source, name ? name : "source", flags, &count);
  if (count < 0)
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  return count;
}
