/*
 * cache_key.c: the files a build reads through #include, for the disk
 * cache's key (cache.c, program.c).
 *
 * The compiler reads more than the text it is given: every header that an
 * #include names, found in the include path of the build options (-I and
 * the like). A key made of the text and the options alone lets a changed
 * header load a stale binary. So the key also covers the bytes of every
 * file an #include could name, found by lsk itself, without a compiler:
 *
 * - every `#include "name"`, `#include <name>` (and #include_next) of the
 *   text is followed, and of each file found, recursively; conditionals
 *   are not evaluated, so a file named under `#if 0` counts too (more
 *   rebuilds, never a stale one);
 * - each name is looked up in every place a compiler may look, not only
 *   the first that has it: for "name", the including file's directory
 *   (for the program's own text, which has no file, the working
 *   directory), then the directories of -I, -iquote, -isystem and
 *   -idirafter in the order given; for <name>, those directories; an
 *   absolute name, itself. Every regular file found there counts (its
 *   path, size and two hashes of its bytes), so a header that appears in
 *   an earlier directory changes the key as much as a changed one;
 * - a name found nowhere counts as absent (the key stays well-defined; the
 *   build fails, unless the #include sits in a branch not taken, and then
 *   the file's later arrival changes the key);
 * - an #include whose name is not written out (`#include HEADER`, a macro,
 *   or a line we cannot read) cannot be followed without a preprocessor:
 *   the build does not use the disk cache (LSK__KEY_UNFOLLOWED). So do
 *   more than LSK__KEY_MAX_FILES files or a file over LSK__KEY_MAX_BYTES.
 *
 * The compiler's built-in headers (opencl-c.h) are not followed: they
 * belong to the driver, whose version is in the key already. The result
 * is deterministic: the same text, options and files give the same key in
 * every process.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/build.h"

#define LSK__KEY_MAX_FILES 4096
#define LSK__KEY_MAX_BYTES ((size_t)1 << 28)

/* A growing string; oom set once an append failed. */
typedef struct {
  char *s;
  size_t len, cap;
  int oom;
} kbuf;

static void kb_add(kbuf *b, const char *s, size_t n)
{
  if (b->oom)
    return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *s2 = realloc(b->s, cap);
    if (!s2) {
      b->oom = 1;
      return;
    }
    b->s = s2;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

static void kb_str(kbuf *b, const char *s) { kb_add(b, s, strlen(s)); }

/* A list of malloc'd strings. */
typedef struct {
  char **v;
  size_t n, cap;
} klist;

static int kl_push(klist *l, char *s)
{
  if (!s)
    return -1;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    char **v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      free(s);
      return -1;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = s;
  return 0;
}

static void kl_free(klist *l)
{
  for (size_t i = 0; i < l->n; ++i)
    free(l->v[i]);
  free(l->v);
}

static int kl_has(const klist *l, const char *s)
{
  for (size_t i = 0; i < l->n; ++i)
    if (strcmp(l->v[i], s) == 0)
      return 1;
  return 0;
}

static char *dup_n(const char *s, size_t n)
{
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = 0;
  }
  return d;
}

/* The include directories of the options, in order. A directory written
 * in double quotes (the OpenCL spelling for one with spaces) counts with
 * and without them: implementations differ in whether they remove them. */
static int add_dir(klist *dirs, const char *d, size_t n)
{
  if (n == 0)
    return 0;
  if (kl_push(dirs, dup_n(d, n)))
    return -1;
  if (n >= 2 && d[0] == '"' && d[n - 1] == '"')
    return kl_push(dirs, dup_n(d + 1, n - 2));
  return 0;
}

/* The include directories that options name (-I, -iquote, -isystem,
 * -idirafter; with a space or without), in order; LSK_OK or LSK_ENOMEM. */
int lsk__include_dirs(const char *options, char ***dirs_out, size_t *n_out)
{
  static const char *const flags[] = {"-I", "-iquote", "-isystem", "-idirafter"};
  klist dirs = {0};
  const char *p = options ? options : "";
  int want = 0; /* the previous token was a flag alone: this one is its directory */
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
      ++p;
    if (!*p)
      break;
    /* One token: up to whitespace outside double quotes. */
    const char *t = p;
    int quoted = 0;
    for (; *p && (quoted || !strchr(" \t\n\r\f\v", *p)); ++p)
      if (*p == '"')
        quoted = !quoted;
    size_t n = (size_t)(p - t);
    if (want) {
      want = 0;
      if (add_dir(&dirs, t, n))
        goto dirs_oom;
      continue;
    }
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; ++f) {
      size_t fl = strlen(flags[f]);
      if (n < fl || strncmp(t, flags[f], fl) != 0)
        continue;
      if (n == fl)
        want = 1;
      else if (add_dir(&dirs, t + fl, n - fl))
        goto dirs_oom;
      break;
    }
  }
  *dirs_out = dirs.v;
  *n_out = dirs.n;
  return LSK_OK;
dirs_oom:
  kl_free(&dirs);
  *dirs_out = NULL;
  *n_out = 0;
  return LSK_ENOMEM;
}

/* Past blanks, line splices and comments inside one directive. */
static const char *skip_blank(const char *p)
{
  for (;;) {
    if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r')
      ++p;
    else if (p[0] == '\\' && p[1] == '\n')
      p += 2;
    else if (p[0] == '\\' && p[1] == '\r' && p[2] == '\n')
      p += 3;
    else if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      p = e ? e + 2 : p + strlen(p);
    } else
      return p;
  }
}

/* The state of one key's walk. */
typedef struct {
  char **dirs;
  size_t ndirs;
  klist seen;  /* every file found so far */
  klist queue; /* files found whose #includes are still to be read */
  klist texts; /* their text, as hashed (each file is read once) */
  kbuf out;
  int unfollowed;
} walk;

/* What read_whole found. */
enum { FILE_READ, FILE_ABSENT, FILE_UNREADABLE, FILE_LARGE, FILE_NOMEM };

/* The whole regular file at path into *text (malloc'd, 0-terminated), or
 * why not. */
static int read_whole(const char *path, char **text, size_t *len)
{
  struct stat st;
  *text = NULL;
  *len = 0;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return FILE_ABSENT;
  if ((unsigned long long)st.st_size > LSK__KEY_MAX_BYTES)
    return FILE_LARGE;
  FILE *f = fopen(path, "rb");
  if (!f)
    return FILE_UNREADABLE;
  /* Read to the end, whatever stat said: the file may grow meanwhile. */
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = malloc(cap);
  int rc = buf ? FILE_READ : FILE_NOMEM;
  while (rc == FILE_READ) {
    n += fread(buf + n, 1, cap - 1 - n, f);
    if (ferror(f))
      rc = FILE_UNREADABLE;
    else if (n < cap - 1)
      break;
    else if (cap > LSK__KEY_MAX_BYTES)
      rc = FILE_LARGE;
    else {
      char *grown = realloc(buf, cap * 2);
      if (grown) {
        buf = grown;
        cap *= 2;
      } else
        rc = FILE_NOMEM;
    }
  }
  fclose(f);
  if (rc != FILE_READ) {
    free(buf);
    return rc;
  }
  buf[n] = 0;
  *text = buf;
  *len = n;
  return FILE_READ;
}

/* One candidate path of an #include: if it is a regular file, its path
 * into the key, and, the first time, its size and hashes; and its text
 * queued for its own #includes. */
static void candidate(walk *w, const char *path)
{
  if (kl_has(&w->seen, path)) {
    kb_str(&w->out, " ");
    kb_str(&w->out, path);
    return;
  }
  size_t len = 0;
  char *text = NULL;
  switch (read_whole(path, &text, &len)) {
  case FILE_ABSENT: return; /* the line in the key says: not here */
  case FILE_LARGE: w->unfollowed = 1; return;
  case FILE_NOMEM: w->out.oom = 1; return;
  default: break; /* read, or unreadable: the build will say */
  }
  char *rec = text ? lsk__strdupf(" %s(%zu %016llx %016llx)", path, len,
                                  (unsigned long long)lsk__hash64(text, len, 4),
                                  (unsigned long long)lsk__hash64(text, len, 5))
                   : lsk__strdupf(" %s(unreadable)", path);
  if (w->seen.n >= LSK__KEY_MAX_FILES || kl_push(&w->seen, lsk__strdup(path))) {
    free(text);
    free(rec);
    if (w->seen.n >= LSK__KEY_MAX_FILES)
      w->unfollowed = 1; /* too many files */
    else
      w->out.oom = 1;
    return;
  }
  if (text && kl_push(&w->queue, lsk__strdup(path))) {
    free(text);
    w->out.oom = 1;
  } else if (text && kl_push(&w->texts, text)) { /* (which freed text) */
    free(w->queue.v[--w->queue.n]);
    w->out.oom = 1;
  }
  if (!rec)
    w->out.oom = 1;
  else
    kb_str(&w->out, rec);
  free(rec);
}

static void lookup(walk *w, const char *dir, const char *name)
{
  char *path;
  if (!dir || !*dir || name[0] == '/')
    path = lsk__strdup(name);
  else
    path = lsk__strdupf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
  if (!path) {
    w->out.oom = 1;
    return;
  }
  candidate(w, path);
  free(path);
}

/* The #include lines of text (from the file at path, NULL: the program's
 * own text), each with every file its name finds. */
static void scan(walk *w, const char *text, const char *path)
{
  char *dir = NULL;
  if (path) {
    const char *slash = strrchr(path, '/');
    dir = slash ? dup_n(path, (size_t)(slash - path) + (slash == path)) : lsk__strdup(".");
    if (!dir) {
      w->out.oom = 1;
      return;
    }
  }
  for (const char *line = text; line && *line && !w->unfollowed && !w->out.oom;
       line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *p = skip_blank(line);
    if (*p != '#')
      continue;
    p = skip_blank(p + 1);
    if (strncmp(p, "include", 7) != 0)
      continue;
    p += 7;
    if (strncmp(p, "_next", 5) == 0)
      p += 5;
    if (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9'))
      continue; /* #includes, #include_nextx: another word */
    p = skip_blank(p);
    char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
    const char *end = close ? strpbrk(p + 1, close == '"' ? "\"\n" : ">\n") : NULL;
    if (!end || *end != close || end == p + 1) {
      w->unfollowed = 1; /* a macro, or not a name we can read */
      break;
    }
    char *name = dup_n(p + 1, (size_t)(end - p - 1));
    if (!name) {
      w->out.oom = 1;
      break;
    }
    kb_str(&w->out, "\n#include ");
    kb_add(&w->out, p, (size_t)(end - p + 1));
    kb_str(&w->out, " from ");
    kb_str(&w->out, path ? path : "(the source)");
    kb_str(&w->out, ":");
    if (name[0] == '/')
      candidate(w, name);
    else {
      if (close == '"')
        lookup(w, dir, name); /* the including file's directory, or the working one */
      for (size_t i = 0; i < w->ndirs && !w->unfollowed; ++i)
        lookup(w, w->dirs[i], name);
    }
    free(name);
  }
  free(dir);
}

/* The part of a build's cache key that the files its text includes make:
 * every file that each #include of text (and of the files found,
 * recursively) may name, in the include directories of options. LSK_OK
 * with *out malloc'd; LSK_ENOMEM; or LSK__KEY_UNFOLLOWED where an #include
 * cannot be followed (a macro for a name, too many or too large files):
 * that build must not use the disk cache. No message. */
int lsk__include_key(const char *text, const char *options, char **out)
{
  *out = NULL;
  walk w = {0};
  int rc = lsk__include_dirs(options, &w.dirs, &w.ndirs);
  if (rc)
    return rc;
  kb_str(&w.out, "includes:");
  scan(&w, text, NULL);
  /* Breadth first, in the order found: the same files, the same key. */
  for (size_t q = 0; q < w.queue.n && !w.unfollowed && !w.out.oom; ++q)
    scan(&w, w.texts.v[q], w.queue.v[q]);
  rc = w.out.oom ? LSK_ENOMEM : w.unfollowed ? LSK__KEY_UNFOLLOWED : LSK_OK;
  if (rc == LSK_OK)
    *out = w.out.s;
  else
    free(w.out.s);
  for (size_t i = 0; i < w.ndirs; ++i)
    free(w.dirs[i]);
  free(w.dirs);
  kl_free(&w.seen);
  kl_free(&w.queue);
  kl_free(&w.texts);
  return rc;
}
