/*
 * program.c: programs and their builds, one per lockstep configuration.
 *
 * The source that reaches the compiler is the embedded device library,
 * then `#line 1 "<name>"`, then the user's source, so that diagnostics and
 * __LINE__ (used by LSK_VERIFY) count the user's own lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/build.h"

const lsk__htype LSK__H_PROGRAM = {"lsk_program", &LSK__H_CONTEXT, 0};
LSK__HANDLE_FIRST(lsk_program);

/* The name as it may appear inside #line "...": no quotes or backslashes. */
static char *line_name(const char *name)
{
  char *s = lsk__strdup(name);
  for (char *p = s; p && *p; ++p)
    if (*p == '"' || *p == '\\' || *p == '\n')
      *p = '_';
  return s;
}

int lsk_program_create(lsk_context *ctx, const char *source, const lsk_program_options *opt,
                       lsk_program **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (!source || !*source)
    return lsk__fail(ctx, LSK_EINVAL, "%s: source is %s", __func__, source ? "empty" : "NULL");
  lsk_program *p = lsk__handle_new(sizeof *p, &LSK__H_PROGRAM, ctx);
  if (!p)
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  p->ctx = ctx;
  p->name = line_name(opt && opt->name ? opt->name : "source");
  p->source = lsk__strdup(source);
  p->options = lsk__strdup(opt && opt->build_options ? opt->build_options : "");
  p->prelude = lsk__strdup(opt && opt->prelude ? opt->prelude : "");
  const char *dir = opt && opt->cache_dir ? opt->cache_dir : ctx->cache_dir;
  if (dir && *dir)
    p->cache_dir = lsk__strdup(dir);
  if (!p->name || !p->source || !p->options || !p->prelude || (dir && *dir && !p->cache_dir)) {
    lsk_program_destroy(p);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  char *why = lsk__scan_declarations(p->source, &p->decls, &p->ndecls);
  if (why) {
    int rc = lsk__fail(ctx, LSK_EINVAL, "%s: %s:%s", __func__, p->name, why);
    free(why);
    lsk_program_destroy(p);
    return rc;
  }
  /* A barrier not every worker reaches: refused at every build, before the
   * device's compiler (which may crash on it) sees it. */
  int nlint;
  p->lint = lsk__lint(p->source, p->name, 0, &nlint);
  if (nlint < 0) {
    lsk_program_destroy(p);
    return lsk__fail(ctx, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  *out = p;
  return LSK_OK;
}

int lsk_program_create_file(lsk_context *ctx, const char *path, const lsk_program_options *opt,
                            lsk_program **out)
{
  LSK__API();
  if (!out)
    return lsk__fail(ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  *out = NULL;
  LSK__LIVE(NULL, ctx, CONTEXT, __func__, "ctx");
  if (!path)
    return lsk__fail(ctx, LSK_EINVAL, "%s: path is NULL", __func__);
  int rc = LSK_OK;
  char *src = lsk__read_file(ctx, path, 0, __func__, &rc);
  if (!src)
    return rc;
  lsk_program_options o = opt ? *opt : (lsk_program_options){0};
  if (!o.name)
    o.name = path;
  rc = lsk_program_create(ctx, src, &o, out);
  free(src);
  return rc;
}

void lsk_program_destroy(lsk_program *prog)
{
  LSK__DESTROY(prog, PROGRAM, __func__);
  for (lsk__build *b = prog->builds, *next; b; b = next) {
    next = b->next;
    clReleaseProgram(b->program);
    free(b);
  }
  lsk__free_declarations(prog->decls, prog->ndecls);
  free(prog->name);
  free(prog->source);
  free(prog->options);
  free(prog->prelude);
  free(prog->lint);
  free(prog->cache_dir);
  free(prog);
}

int lsk_program_stats_get(const lsk_program *prog, lsk_program_stats *out)
{
  LSK__API();
  LSK__LIVE(NULL, prog, PROGRAM, __func__, "prog");
  if (!out)
    return lsk__fail(prog->ctx, LSK_EINVAL, "%s: out is NULL", __func__);
  /* Builds update the counters under the context's lock (launches build). */
  lsk__lock(prog->ctx);
  *out = prog->stats;
  lsk__unlock(prog->ctx);
  return LSK_OK;
}

int lsk__program_declared(const lsk_program *prog, const char *kernel, unsigned domain[3])
{
  for (size_t i = 0; i < prog->ndecls; ++i)
    if (!kernel || strcmp(prog->decls[i].kernel, kernel) == 0) {
      memcpy(domain, prog->decls[i].domain, sizeof prog->decls[i].domain);
      return 1;
    }
  return 0;
}

/* Appends, after a failed build's log, the user's source lines it names
 * ("name:LINE:"), each once, so the message shows them even where the
 * compiler's log does not quote them. */
static void append_source_lines(lsk_program *prog, const char *log)
{
  char pat[LSK_NAME_MAX + 2];
  snprintf(pat, sizeof pat, "%s:", prog->name);
  unsigned seen[16];
  size_t nseen = 0;
  for (const char *p = log; nseen < 16 && (p = strstr(p, pat)) != NULL; p += strlen(pat)) {
    unsigned line = (unsigned)strtoul(p + strlen(pat), NULL, 10);
    int dup = line == 0;
    for (size_t i = 0; i < nseen && !dup; ++i)
      dup = seen[i] == line;
    if (!dup)
      seen[nseen++] = line;
  }
  if (nseen)
    lsk__append(prog->ctx, "\nsource lines:");
  for (size_t i = 0; i < nseen; ++i) {
    const char *s = prog->source;
    for (unsigned l = 1; l < seen[i] && s; ++l) {
      s = strchr(s, '\n');
      s = s ? s + 1 : NULL;
    }
    if (!s)
      continue;
    size_t len = strcspn(s, "\n");
    char *text =
        lsk__strdupf("\n  %s:%u | %.*s", prog->name, seen[i], (int)(len > 200 ? 200 : len), s);
    if (text)
      lsk__append(prog->ctx, text);
    free(text);
  }
}

/* Lines of text before p, plus one: the line p is on. */
static unsigned line_at(const char *text, const char *p)
{
  unsigned line = 1;
  for (; text < p; ++text)
    line += *text == '\n';
  return line;
}

/* Line `line` of the library text as its own file and line, from the
 * last #line marker before it ("#line N \"file\"": the next line is line N
 * of file); 0 where none comes before it. */
static int library_line(const char *lib, unsigned long line, char *file, size_t cap,
                        unsigned long *out)
{
  unsigned long at = 1, mark_at = 0, mark_n = 0;
  const char *mark = NULL;
  int mark_len = 0;
  for (const char *p = lib; p && *p && at < line; ++at) {
    if (strncmp(p, "#line ", 6) == 0) {
      char *e;
      unsigned long n = strtoul(p + 6, &e, 10);
      const char *q = e[0] == ' ' && e[1] == '"' ? strpbrk(e + 2, "\"\n") : NULL;
      if (e > p + 6 && q && *q == '"') {
        mark_at = at;
        mark_n = n;
        mark = e + 2;
        mark_len = (int)(q - mark);
      }
    }
    p = strchr(p, '\n');
    p = p ? p + 1 : NULL;
  }
  if (!mark || at != line || mark_len > 200)
    return 0;
  snprintf(file, cap, "%.*s", mark_len, mark);
  *out = mark_n + (line - mark_at - 1);
  return 1;
}

/* Some compilers (NVIDIA's) honour #line for __LINE__ but not in their
 * diagnostics, which say "<kernel>:LINE:" with LINE counted in the whole
 * text. The log with those rewritten as "name:LINE:" for the user's source,
 * "name.prelude:LINE:" for the prelude and, given the device library's
 * text (library), as its files' own lines by its #line markers (without:
 * they stay as they are). NULL without memory. */
char *lsk__map_log_lines(const char *name, const char *log, const char *library,
                         unsigned prelude_line, unsigned source_line)
{
  static const char pat[] = "<kernel>:";
  size_t cap = strlen(log) + 1, len = 0;
  for (const char *p = log; (p = strstr(p, pat)) != NULL; p += sizeof pat - 1)
    cap += strlen(name) + 24 + 200;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  const char *p = log, *q;
  while ((q = strstr(p, pat)) != NULL) {
    memcpy(out + len, p, (size_t)(q - p));
    len += (size_t)(q - p);
    p = q + sizeof pat - 1;
    char *end;
    unsigned long line = strtoul(p, &end, 10);
    char file[208];
    unsigned long fline;
    if (end != p && *end == ':' && line < prelude_line && library &&
        library_line(library, line, file, sizeof file, &fline)) {
      len += (size_t)sprintf(out + len, "%s:%lu", file, fline);
      p = end;
      continue;
    }
    if (end == p || *end != ':' || line < prelude_line) {
      memcpy(out + len, pat, sizeof pat - 1); /* not a line, or unmapped */
      len += sizeof pat - 1;
      continue;
    }
    int user = line >= source_line;
    len += (size_t)sprintf(out + len, "%s%s:%lu", name, user ? "" : ".prelude",
                           line - (user ? source_line : prelude_line) + 1);
    p = end;
  }
  strcpy(out + len, p);
  return out;
}

static int build_failed(lsk_program *prog, cl_program program, cl_int err, const char *opts,
                        unsigned prelude_line, unsigned source_line)
{
  lsk_context *ctx = prog->ctx;
  size_t n = 0;
  char *log = NULL;
  if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) ==
          CL_SUCCESS &&
      (log = malloc(n + 1)) != NULL) {
    if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, n, log, NULL))
      n = 0;
    log[n] = 0;
    char *mapped =
        lsk__map_log_lines(prog->name, log, lsk__device_source, prelude_line, source_line);
    if (mapped) {
      free(log);
      log = mapped;
    }
  }
  lsk__fail_cl(ctx, err, "clBuildProgram", " building '%s' for %s with options '%s'; log:\n%s",
               prog->name, ctx->info.name, opts, log ? log : "(no log)");
  if (log)
    append_source_lines(prog, log);
  free(log);
  return err == CL_BUILD_PROGRAM_FAILURE ? LSK_EBUILD : err;
}

/* The text and the options of one configuration, as every build hands them
 * to the compiler: the device library, the prelude and the source behind
 * #line markers; -cl-std=CL1.2 unless the options name a standard, the
 * configuration's defines, then the program's options. name is already
 * fit for #line. Either is NULL without memory (both freed by the caller). */
/* The n (at most 16) parts one after another in one malloc'd string;
 * NULL without memory. (A printf of the text would walk the device
 * library's 140 KB byte by byte, twice, on every build.) */
static char *concat(const char *const *parts, size_t n)
{
  size_t len[16], total = 1;
  for (size_t i = 0; i < n; ++i)
    total += len[i] = strlen(parts[i]);
  char *out = malloc(total), *at = out;
  if (!out)
    return NULL;
  for (size_t i = 0; i < n; ++i) {
    memcpy(at, parts[i], len[i]);
    at += len[i];
  }
  *at = '\0';
  return out;
}

void lsk__program_text(const char *name, const char *prelude, const char *source,
                       const char *options, const unsigned domain[3], unsigned workers,
                       unsigned simd, char **text, char **opts)
{
  int has_std = strstr(options, "-cl-std=") != NULL;
  *opts =
      lsk__strdupf("%s-cl-kernel-arg-info -DLSK_DOMAIN_X=%u -DLSK_DOMAIN_Y=%u -DLSK_DOMAIN_Z=%u "
                   "-DLSK_DOMAIN_SIZE=%u -DLSK_WORKERS=%u -DLSK_SIMD=%u %s",
                   has_std ? "" : "-cl-std=CL1.2 ", domain[0], domain[1], domain[2],
                   domain[0] * domain[1] * domain[2], workers, simd, options);
  const char *parts[] = {lsk__device_source, "\n#line 1 \"", name,   ".prelude\"\n", prelude,
                         "\n#line 1 \"",     name,           "\"\n", source};
  *text = concat(parts, sizeof parts / sizeof parts[0]);
}

int lsk_program_text(const char *source, const lsk_program_options *opt, const unsigned domain[3],
                     unsigned workers, unsigned simd, char **text, char **options)
{
  LSK__API();
  if (text)
    *text = NULL;
  if (options)
    *options = NULL;
  if (!text || !options)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__, text ? "options" : "text");
  if (!source || !*source)
    return lsk__fail(NULL, LSK_EINVAL, "%s: source is %s", __func__, source ? "empty" : "NULL");
  if (!domain)
    return lsk__fail(NULL, LSK_EINVAL, "%s: domain is NULL", __func__);
  unsigned dom[3] = {domain[0], domain[1] ? domain[1] : 1, domain[2] ? domain[2] : 1};
  uint64_t size = (uint64_t)dom[0] * dom[1] * dom[2];
  if (dom[0] == 0 || size > LSK_MAX_DOMAIN)
    return lsk__fail(NULL, LSK_EINVAL, "%s: domain %ux%ux%u: %s", __func__, dom[0], dom[1], dom[2],
                     dom[0] ? "more indices than LSK_MAX_DOMAIN" : "domain[0] is 0");
  if (!workers || !simd)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is 0", __func__, workers ? "simd" : "workers");
  if ((uint64_t)workers * simd > (1u << 30))
    return lsk__fail(NULL, LSK_EINVAL, "%s: simd %u x %u workers exceeds 2^30", __func__, simd,
                     workers);
  char *name = line_name(opt && opt->name ? opt->name : "source");
  int nlint = 0;
  char *lint = name ? lsk__lint(source, name, 0, &nlint) : NULL;
  if (lint) {
    int rc = lsk__fail(NULL, LSK_EBUILD, "%s: the source is refused (lsk_source_check):\n%s",
                       __func__, lint);
    free(lint);
    free(name);
    return rc;
  }
  if (name && nlint >= 0)
    lsk__program_text(name, opt && opt->prelude ? opt->prelude : "", source,
                      opt && opt->build_options ? opt->build_options : "", dom, workers, simd, text,
                      options);
  free(name);
  if (!*text || !*options) {
    free(*text);
    free(*options);
    *text = *options = NULL;
    return lsk__fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  }
  return LSK_OK;
}

int lsk_source_declared_domain(const char *source, const char *kernel, unsigned domain[3],
                               int *declared)
{
  LSK__API();
  if (domain)
    domain[0] = domain[1] = domain[2] = 0;
  if (declared)
    *declared = 0;
  if (!source || !domain || !declared)
    return lsk__fail(NULL, LSK_EINVAL, "%s: %s is NULL", __func__,
                     !source   ? "source"
                     : !domain ? "domain"
                               : "declared");
  lsk__decl *decls;
  size_t n;
  char *why = lsk__scan_declarations(source, &decls, &n);
  if (why) {
    int rc = lsk__fail(NULL, LSK_EINVAL, "%s: line %s", __func__, why);
    free(why);
    return rc;
  }
  for (size_t i = 0; i < n; ++i)
    if (!kernel || strcmp(decls[i].kernel, kernel) == 0) {
      memcpy(domain, decls[i].domain, sizeof decls[i].domain);
      *declared = 1;
      break;
    }
  lsk__free_declarations(decls, n);
  return LSK_OK;
}

/* The text that identifies a build for the disk cache: lsk, platform,
 * device and driver, the options, the whole text, and every file the text
 * may #include (cache_key.c). LSK_OK and *key; LSK_ENOMEM; or
 * LSK__KEY_UNFOLLOWED (*key NULL): this build does not use the cache. */
static int cache_key(const lsk_program *prog, const char *opts, const char *full, char **key)
{
  const lsk_device_info *d = &prog->ctx->info;
  char *inc = NULL;
  *key = NULL;
  int rc = lsk__include_key(full, opts, &inc);
  if (rc)
    return rc;
  *key =
      lsk__strdupf("lsk %s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s", LSK_VERSION_STRING, d->platform_name,
                   d->platform_version, d->name, d->version, d->driver_version, opts, full, inc);
  free(inc);
  return *key ? LSK_OK : LSK_ENOMEM;
}

static int build(lsk_program *prog, lsk__build *b)
{
  lsk_context *ctx = prog->ctx;
  if (prog->lint)
    return lsk__fail(ctx, LSK_EBUILD, "lsk_program_build: '%s' is refused (lsk_source_check):\n%s",
                     prog->name, prog->lint);
  char *opts = NULL, *full = NULL;
  lsk__program_text(prog->name, prog->prelude, prog->source, prog->options, b->domain, b->workers,
                    b->simd, &full, &opts);
  char *key = NULL;
  int rc = LSK_OK;
  if (!opts || !full || (prog->cache_dir && cache_key(prog, opts, full, &key) == LSK_ENOMEM)) {
    rc = lsk__fail(ctx, LSK_ENOMEM, "lsk_program_build: out of memory");
    goto build_out;
  }
  if (key && (b->program = lsk__cache_load(ctx, prog->cache_dir, key)) != NULL) {
    prog->stats.cache_loads++;
    goto build_out;
  }
  cl_int err;
  const char *srcs[1] = {full};
  b->program = clCreateProgramWithSource(ctx->cl, 1, srcs, NULL, &err);
  if (err) {
    rc = lsk__fail_cl(ctx, err, "clCreateProgramWithSource", " ('%s')", prog->name);
    goto build_out;
  }
  err = clBuildProgram(b->program, 1, &ctx->device, opts, NULL, NULL);
  if (err) {
    /* Where the prelude and the user's source start in the whole text. */
    /* (... prelude "\n#line 1 \"" name "\"\n" source: 12 bytes and the name
     * between them.) */
    size_t ns = strlen(prog->source), np = strlen(prog->prelude) + 12 + strlen(prog->name);
    const char *src_at = full + strlen(full) - ns;
    rc = build_failed(prog, b->program, err, opts, line_at(full, src_at - np),
                      line_at(full, src_at));
    clReleaseProgram(b->program);
    b->program = NULL;
    goto build_out;
  }
  prog->stats.compiled++;
  /* Stored only if the files the key covers are as they were before the
   * build: a header changed meanwhile may have gone into this binary, and
   * the key made before would name it for the old header. */
  if (key) {
    char *after = NULL;
    if (cache_key(prog, opts, full, &after) == LSK_OK && strcmp(key, after) == 0)
      lsk__cache_store(ctx, prog->cache_dir, key, b->program);
    free(after);
  }
build_out:
  if (!rc)
    prog->stats.configurations++;
  free(key);
  free(full);
  free(opts);
  return rc;
}

int lsk__program_get_build(lsk_program *prog, const unsigned domain[3], unsigned workers,
                           unsigned simd, lsk__build **out)
{
  for (lsk__build *b = prog->builds; b; b = b->next)
    if (memcmp(b->domain, domain, sizeof b->domain) == 0 && b->workers == workers &&
        b->simd == simd) {
      *out = b;
      return LSK_OK;
    }
  lsk__build *b = calloc(1, sizeof *b);
  if (!b)
    return lsk__fail(prog->ctx, LSK_ENOMEM, "lsk_program_build: out of memory");
  memcpy(b->domain, domain, sizeof b->domain);
  b->workers = workers;
  b->simd = simd;
  int rc = build(prog, b);
  if (rc) {
    free(b);
    return rc;
  }
  b->next = prog->builds;
  prog->builds = b;
  *out = b;
  return LSK_OK;
}

/* The accessors of core.h, for the layers above: no checks. */
lsk_context *lsk__program_context(const lsk_program *prog) { return prog->ctx; }
const char *lsk__program_name(const lsk_program *prog) { return prog->name; }
const char *lsk__program_source(const lsk_program *prog) { return prog->source; }
const char *lsk__program_prelude(const lsk_program *prog) { return prog->prelude; }
const char *lsk__program_options(const lsk_program *prog) { return prog->options; }
cl_program lsk__build_program(const lsk__build *b) { return b->program; }
const unsigned *lsk__build_domain(const lsk__build *b) { return b->domain; }
