/*
 * cmd_check.c: `lsk check FILE.cl`: compiles a kernel file offline, as lsk
 * builds it (lsk_program_text: the device library, the prelude and the
 * file behind #line markers, the configuration's -D options), for the
 * selected device and, where clang and libclc are found, for NVIDIA GPUs
 * through PTX (target nvptx64-nvidia-nvcl: the route of NVIDIA's OpenCL);
 * where the CUDA toolkit's ptxas is found, the PTX is assembled for sm_90
 * (H100), and registers, spills, shared memory, barriers and the occupancy
 * they allow are reported per kernel. The ctest label nvptx runs it on
 * every kernel file lsk ships (tests/nvptx.sh).
 *
 * The NVPTX shapes are those of the automatic rule's GPU branch
 * (lsk_auto_shape) on a model of an H100: warps of 32, at most 1024
 * workers, and each kernel's own limit from its registers, which makes the
 * rule choose again with fewer workers, as a launch does on the GPU.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "parse.h"
#include "process.h"
#include "strbuf.h"

static const char usage_text[] =
    "usage: lsk [--device SEL] check FILE.cl [options]\n"
    "Compiles FILE as lsk builds it (the device library and a prelude in front, the\n"
    "lockstep configuration as -D options) for the selected device and, where clang\n"
    "and libclc are found, for NVIDIA GPUs through PTX (OpenCL C 1.2, -Werror); with\n"
    "the CUDA toolkit's ptxas, for sm_90 (H100) too. Errors name FILE's own lines.\n"
    "Per kernel: its block domain (declared or given), workers x simd, the work-group\n"
    "limit, local and private memory on the device; on NVPTX the static shared memory\n"
    "against NVIDIA's 48 KiB and, with ptxas, registers, spills, barriers and the\n"
    "warps per SM that they allow on an H100. Exit status: 0 passed, 1 failed (an\n"
    "error, shared memory over 48 KiB, a spill), 2 usage.\n"
    "  --domain X[xY[xZ]]     block domain of the kernels that declare none\n"
    "  --domain KERNEL=X[xY[xZ]]  one kernel's block domain\n"
    "  --workers W, --simd S  the shape (default: automatic, per device)\n"
    "  -I DIR, -D NAME[=VAL]  include folder, macro (both compilers)\n"
    "  --options TEXT         more compiler options (both compilers)\n"
    "  --prelude FILE         text put between the device library and FILE\n"
    "  --layout FILE[@M,..]   add the OpenCL C view of an SoA layout file to the prelude\n"
    "                         (of members M only, with @)\n"
    "  --view NAME=FILE[@M,..]+FILE[@M,..]...  add a view over several layouts\n"
    "  --compact TYPE|@LAYOUT FILE is a compaction predicate (lsk/compact.h): check it\n"
    "                         with the compaction kernels, on a plain buffer of TYPE\n"
    "                         or on the rows of a layout file\n"
    "  --no-device            NVPTX only (no OpenCL device needed)\n"
    "  --no-nvptx             the device only\n"
    "  --ptx DIR              keep the PTX (and ptxas's report) in DIR\n"
    "  --emit-source          print the text lsk builds and exit (options on stderr)\n"
    "  --tsv                  tab-separated rows for scripts, one per kernel and part:\n"
    "      device FILE OPTIONS KERNEL DOMAIN declared|given WORKERS SIMD WG_LIMIT\n"
    "             LOCAL PRIVATE\n"
    "      nvptx FILE OPTIONS KERNEL DOMAIN declared|given WORKERS SIMD REG_LIMITED\n"
    "             SHARED REGS SPILL_ST SPILL_LD STACK BARRIERS WG_LIMIT WARPS_SM OCC% LIMIT\n"
    "      (OPTIONS: -I, -D and --options, or -; - where ptxas did not run)\n"
    "Environment: CLANG (default clang-15, else clang), LSK_LIBCLC (default\n"
    "/usr/lib/clc/nvptx64--nvidiacl.bc, Debian's libclc-15), PTXAS (default ptxas in\n"
    "PATH, else /usr/local/cuda/bin/ptxas); an empty value turns that step off.\n";

/* ------------------------------------------------------------------ */
/* Small helpers.                                                      */

static int write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  size_t n = strlen(text);
  int bad = fwrite(text, 1, n, f) != n;
  return fclose(f) || bad ? -1 : 0;
}

static const char *fmt_dom(const unsigned d[3], char *buf, size_t len)
{
  if (d[2] > 1)
    snprintf(buf, len, "%ux%ux%u", d[0], d[1], d[2]);
  else if (d[1] > 1)
    snprintf(buf, len, "%ux%u", d[0], d[1]);
  else
    snprintf(buf, len, "%u", d[0]);
  return buf;
}

/* Runs argv (argv[0] found in PATH or a path), its stdout and stderr to
 * out_path if not NULL (else inherited); the exit status, or -1 if it could
 * not run. */
static int run_program(char *const argv[], const char *out_path)
{
  return cli_run(argv, &(cli_spawn_options){.out_file = out_path, .err_to_out = out_path != NULL});
}

/* Splits compiler options as an OpenCL implementation does: on blanks,
 * with double quotes grouping. The words point into *store (malloc'd). */
static int split_options(const char *text, char ***words, size_t *count, char **store)
{
  size_t n = strlen(text);
  char *s = malloc(n + 1), **w = malloc((n / 2 + 2) * sizeof *w);
  if (!s || !w) {
    free(s);
    free(w);
    return -1;
  }
  size_t k = 0, o = 0;
  for (const char *p = text; *p;) {
    while (isspace((unsigned char)*p))
      ++p;
    if (!*p)
      break;
    w[k++] = s + o;
    int quoted = 0;
    while (*p && (quoted || !isspace((unsigned char)*p))) {
      if (*p == '"')
        quoted = !quoted;
      else
        s[o++] = *p;
      ++p;
    }
    s[o++] = 0;
  }
  *words = w;
  *count = k;
  *store = s;
  return 0;
}

/* ------------------------------------------------------------------ */
/* The file's kernels and what each check found.                       */

typedef struct kdomain {
  const char *kernel;
  unsigned dom[3];
} kdomain;

typedef struct kinfo {
  char name[128];
  unsigned dom[3];
  int has_dom, declared, resolved;
  /* The device. */
  int dev_done;
  lsk_kernel_info dev;
  /* NVPTX. */
  int ptx_done;
  unsigned w, s;
  int limited;               /* the shape was chosen under the register limit */
  unsigned long long shared; /* static shared memory, from the PTX */
  int sass;                  /* ptxas's figures below are known */
  unsigned regs, barriers;
  unsigned long long stack, spill_st, spill_ld, smem;
  unsigned wg_limit, warps, blocks;
  const char *limiter;
} kinfo;

typedef struct check {
  const char *file;
  char *source, *prelude;
  cli_str options; /* -I, -D, --options */
  unsigned dom[3];
  int has_dom;
  kdomain *kdoms;
  size_t nkdoms;
  unsigned workers, simd;
  int no_device, no_nvptx, tsv, emit;
  const char *ptx_dir;
  kinfo *k;
  size_t nk;
  int problems;
} check;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
problem(check *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fprintf(stderr, "lsk: check: %s: ", c->file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  c->problems++;
}

static kinfo *kernel_of(check *c, const char *name)
{
  for (size_t i = 0; i < c->nk; ++i)
    if (strcmp(c->k[i].name, name) == 0)
      return &c->k[i];
  kinfo *grown = realloc(c->k, (c->nk + 1) * sizeof *grown);
  if (!grown)
    return NULL;
  c->k = grown;
  kinfo *k = &c->k[c->nk++];
  memset(k, 0, sizeof *k);
  snprintf(k->name, sizeof k->name, "%s", name);
  return k;
}

/* The kernel's block domain: given for it, declared, or the default. */
static void resolve_domain(check *c, kinfo *k)
{
  if (k->resolved)
    return;
  k->resolved = 1;
  unsigned decl[3];
  int declared = 0;
  lsk_source_declared_domain(c->source, k->name, decl, &declared);
  k->declared = declared;
  for (size_t i = 0; i < c->nkdoms; ++i)
    if (strcmp(c->kdoms[i].kernel, k->name) == 0) {
      memcpy(k->dom, c->kdoms[i].dom, sizeof k->dom);
      k->has_dom = 1;
      if (declared && memcmp(decl, k->dom, sizeof decl) != 0) {
        char a[48], b[48];
        problem(c, "kernel '%s' declares block domain %s; --domain gives %s", k->name,
                fmt_dom(decl, a, sizeof a), fmt_dom(k->dom, b, sizeof b));
        k->has_dom = 0;
      }
      return;
    }
  if (declared) {
    memcpy(k->dom, decl, sizeof decl);
    k->has_dom = 1;
  } else if (c->has_dom) {
    memcpy(k->dom, c->dom, sizeof k->dom);
    k->has_dom = 1;
  } else {
    problem(c,
            "kernel '%s' declares no block domain (LSK_DECLARE_DOMAIN) and none is given: "
            "--domain X or --domain %s=X, the domain of its launches",
            k->name, k->name);
  }
}

/* The domain of the build that lists the kernels: the default, else the
 * first declared, else the first given for a kernel. 0 if none. */
static int listing_domain(const check *c, unsigned dom[3])
{
  int declared = 0;
  if (c->has_dom) {
    memcpy(dom, c->dom, 3 * sizeof *dom);
    return 1;
  }
  lsk_source_declared_domain(c->source, NULL, dom, &declared);
  if (declared)
    return 1;
  if (c->nkdoms) {
    memcpy(dom, c->kdoms[0].dom, 3 * sizeof *dom);
    return 1;
  }
  return 0;
}

static lsk_program_options program_options(const check *c)
{
  return (lsk_program_options){.name = c->file,
                               .build_options = cli_str_get(&c->options),
                               .cache_dir = "",
                               .prelude = c->prelude};
}

/* ------------------------------------------------------------------ */
/* The selected device.                                                */

static void check_device(check *c)
{
  lsk_context *ctx;
  if (cli_context_open("check", &ctx)) {
    c->problems++;
    fprintf(stderr, "lsk: check: --no-device checks NVPTX alone\n");
    return;
  }
  const lsk_device_info *d = lsk_context_device(ctx);
  lsk_program *prog = NULL;
  lsk_program_options po = program_options(c);
  int rc = lsk_program_create(ctx, c->source, &po, &prog);
  char *names = NULL;
  unsigned ldom[3] = {0, 0, 0};
  listing_domain(c, ldom);
  lsk_launch lcfg = {
      .domain = {ldom[0], ldom[1], ldom[2]}, .blocks = {1}, .workers = c->workers, .simd = c->simd};
  if (!rc)
    rc = lsk_program_kernel_names(prog, &lcfg, &names);
  if (rc) {
    if (rc == LSK_EDOMAIN)
      problem(c, "no block domain to build with: the file declares none; give --domain X");
    else
      problem(c, "%s: %s", d->name, lsk_context_errmsg(ctx));
    lsk_free(names);
    lsk_program_destroy(prog);
    lsk_context_destroy(ctx);
    return;
  }
  if (!c->tsv)
    printf("device: %s (%s)\n", d->name, d->platform_name);
  for (char *p = names; p && *p;) {
    size_t n = strcspn(p, ";");
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
    p += n + (p[n] == ';');
    kinfo *k = kernel_of(c, name);
    if (!k) {
      problem(c, "out of memory");
      break;
    }
    resolve_domain(c, k);
    if (!k->has_dom)
      continue;
    lsk_kernel *kern = NULL;
    lsk_launch cfg = {.domain = {k->dom[0], k->dom[1], k->dom[2]},
                      .blocks = {1},
                      .workers = c->workers,
                      .simd = c->simd};
    rc = lsk_kernel_create(prog, name, &kern);
    if (!rc)
      rc = lsk_kernel_query(kern, &cfg, &k->dev);
    lsk_kernel_destroy(kern);
    if (rc)
      problem(c, "%s: %s", d->name, lsk_context_errmsg(ctx));
    else
      k->dev_done = 1;
  }
  lsk_free(names);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* NVPTX: clang and libclc to PTX, ptxas to sm_90.                     */

/* NVIDIA H100 (sm_90) as the CUDA occupancy rules have it; its warp, its
 * limit on work-items per group and its 48 KiB of static shared memory per
 * block are the library's model (h100_model below). */
#define H100_SHARED_SM 233472ull     /* 228 KiB of shared memory per SM */
#define H100_SHARED_RESERVED 1024ull /* reserved per block (sm_80 and later) */
#define H100_SHARED_UNIT 128ull      /* allocation granularity */
#define H100_REGS_SM 65536u
#define H100_REG_UNIT 256u /* registers allocated per warp in units of 256 */
#define H100_WARPS_SM 64u
#define H100_BLOCKS_SM 32u
#define NVPTX_CPU "sm_86" /* the newest that LLVM 15 knows; ptxas takes it to sm_90 */
#define SASS_ARCH "sm_90"

/* The H100's shape facts: the library's model (lsk_device_model), the one
 * LSK_SHAPES=nvidia gives a context. */
static lsk_device_info h100_model(void)
{
  lsk_device_info d;
  if (lsk_device_model(LSK_SHAPES_NVIDIA, NULL, &d) != LSK_OK)
    memset(&d, 0, sizeof d); /* not reached: the model needs no device */
  return d;
}

/* The shape of a launch on the model, as launch/shape.c resolves it:
 * automatic (the rule under kernel_max), or the given workers and simd
 * completed the GPU way. */
static void gpu_shape(const lsk_device_info *h, const unsigned dom[3], unsigned req_w,
                      unsigned req_s, size_t kernel_max, unsigned *w, unsigned *s)
{
  size_t size = (size_t)dom[0] * dom[1] * dom[2];
  if (!req_w && !req_s) {
    lsk_auto_shape(h, size, kernel_max, w, s);
  } else if (req_w) {
    *w = req_w;
    *s = req_s ? req_s : 1;
  } else {
    size_t most = kernel_max ? kernel_max : h->max_work_group_size;
    size_t want = (size + req_s - 1) / req_s;
    want = (want + h->warp_size - 1) / h->warp_size * h->warp_size;
    *w = (unsigned)(want > most ? most : want);
    *s = req_s;
  }
}

typedef struct tools {
  char clang[512], libclc[512], ptxas[512];
  int have_clang, have_ptxas;
  char why_not[1024], ptxas_why[1024];
} tools;

static void find_tools(tools *t)
{
  memset(t, 0, sizeof *t);
  const char *e = getenv("CLANG");
  if (e && !*e)
    snprintf(t->why_not, sizeof t->why_not, "CLANG is empty");
  else if (e ? cli_find_program(e, t->clang, sizeof t->clang)
             : (cli_find_program("clang-15", t->clang, sizeof t->clang) &&
                cli_find_program("clang", t->clang, sizeof t->clang)))
    snprintf(t->why_not, sizeof t->why_not, "no %s in PATH (Debian: apt-get install clang-15)",
             e ? e : "clang-15 or clang");
  if (!t->why_not[0]) {
    e = getenv("LSK_LIBCLC");
    snprintf(t->libclc, sizeof t->libclc, "%s", e ? e : "/usr/lib/clc/nvptx64--nvidiacl.bc");
    if (!*t->libclc || access(t->libclc, R_OK) != 0)
      snprintf(t->why_not, sizeof t->why_not,
               "no libclc for nvptx64 at '%s' (Debian: apt-get "
               "install libclc-15)",
               t->libclc);
  }
  t->have_clang = !t->why_not[0];
  e = getenv("PTXAS");
  if (e && !*e)
    snprintf(t->ptxas_why, sizeof t->ptxas_why, "PTXAS is empty");
  else if (e ? cli_find_program(e, t->ptxas, sizeof t->ptxas)
             : (cli_find_program("ptxas", t->ptxas, sizeof t->ptxas) &&
                cli_find_program("/usr/local/cuda/bin/ptxas", t->ptxas, sizeof t->ptxas)))
    snprintf(t->ptxas_why, sizeof t->ptxas_why,
             "no ptxas (the CUDA toolkit's; not in Debian) in PATH or /usr/local/cuda/bin");
  t->have_ptxas = !t->ptxas_why[0];
}

/* One compiled configuration: its PTX and ptxas's report. */
typedef struct build {
  unsigned dom[3], w, s;
  int ok, sass_ok;
  char *ptx, *sass;
} build;

typedef struct nvptx {
  check *c;
  tools t;
  lsk_device_info h;
  char *dir;       /* where the files go */
  char *tmp;       /* a temporary folder to remove, or NULL */
  char *text_path; /* the text lsk builds */
  build *b;
  size_t nb;
} nvptx;

static const char *base_name(const char *path)
{
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* The path of a file of the configuration ("<dir>/<file>.d64x1x1.w64s1<ext>"),
 * malloc'd. */
static char *config_path(const nvptx *n, const unsigned dom[3], unsigned w, unsigned s,
                         const char *ext)
{
  const char *b = base_name(n->c->file);
  size_t len = strlen(b);
  if (len > 3 && strcmp(b + len - 3, ".cl") == 0)
    len -= 3;
  return cli_strf("%s/%.*s.d%ux%ux%u.w%us%u%s", n->dir, (int)len, b, dom[0], dom[1], dom[2], w, s,
                  ext);
}

/* The build of a configuration, compiled on first use; NULL without
 * memory. */
static build *get_build(nvptx *n, const unsigned dom[3], unsigned w, unsigned s)
{
  for (size_t i = 0; i < n->nb; ++i)
    if (memcmp(n->b[i].dom, dom, sizeof n->b[i].dom) == 0 && n->b[i].w == w && n->b[i].s == s)
      return &n->b[i];
  build *grown = realloc(n->b, (n->nb + 1) * sizeof *grown);
  if (!grown)
    return NULL;
  n->b = grown;
  build *b = &n->b[n->nb++];
  memset(b, 0, sizeof *b);
  memcpy(b->dom, dom, sizeof b->dom);
  b->w = w;
  b->s = s;
  check *c = n->c;
  lsk_program_options po = program_options(c);
  char *text = NULL, *opts = NULL, *store = NULL, **words = NULL;
  char *ptx = NULL, *sass = NULL, *cubin = NULL;
  size_t nwords = 0;
  char dom_text[48];
  fmt_dom(dom, dom_text, sizeof dom_text);
  if (lsk_program_text(c->source, &po, dom, w, s, &text, &opts)) {
    problem(c, "nvptx: %s", lsk_context_errmsg(NULL));
    return b;
  }
  if (access(n->text_path, R_OK) != 0 && write_text(n->text_path, text)) {
    problem(c, "nvptx: cannot write %s: %s", n->text_path, strerror(errno));
    goto build_out;
  }
  ptx = config_path(n, dom, w, s, ".ptx");
  sass = config_path(n, dom, w, s, ".ptxas.txt");
  cubin = config_path(n, dom, w, s, ".cubin");
  if (!ptx || !sass || !cubin || split_options(opts, &words, &nwords, &store)) {
    problem(c, "out of memory");
    goto build_out;
  }
  char *argv[64 + 32];
  size_t a = 0;
  char *fixed[] = {n->t.clang, "-x", "cl", "-target", "nvptx64-nvidia-nvcl", "-Xclang",
                   "-target-cpu", "-Xclang", NVPTX_CPU, "-Xclang", "-finclude-default-header",
                   "-Xclang", "-mlink-builtin-bitcode", "-Xclang", n->t.libclc,
                   /* libclc is built as nvptx64--nvidiacl: the triples differ in
                    * name only. */
                   "-Wno-linker-warnings", "-O3", "-Werror", "-pedantic", "-S", "-o", ptx};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; ++i)
    argv[a++] = fixed[i];
  if (nwords > 64) {
    problem(c, "nvptx: more than 64 compiler options");
    goto build_out;
  }
  for (size_t i = 0; i < nwords; ++i)
    argv[a++] = words[i];
  argv[a++] = n->text_path;
  argv[a] = NULL;
  int rc = run_program(argv, NULL);
  if (rc != 0) {
    problem(c, "nvptx: clang %s for domain %s, %u x %u%s%s", rc < 0 ? "could not run" : "failed",
            dom_text, w, s, c->ptx_dir ? "; the text it compiled: " : "",
            c->ptx_dir ? n->text_path : "");
    goto build_out;
  }
  if (!(b->ptx = cli_read_file(ptx))) {
    problem(c, "nvptx: cannot read %s", ptx);
    goto build_out;
  }
  b->ok = 1;
  if (n->t.have_ptxas) {
    char *pargv[] = {n->t.ptxas, "-arch=" SASS_ARCH, "-v", ptx, "-o", cubin, NULL};
    rc = run_program(pargv, sass);
    b->sass = cli_read_file(sass);
    remove(cubin);
    if (rc != 0 || !b->sass)
      problem(c, "nvptx: ptxas failed for domain %s, %u x %u:\n%s", dom_text, w, s,
              b->sass ? b->sass : "(no output)");
    else
      b->sass_ok = 1;
  }
build_out:
  free(ptx);
  free(sass);
  free(cubin);
  free(words);
  free(store);
  lsk_free(text);
  lsk_free(opts);
  return b;
}

/* The body of entry name in ptx: from its '{' to the matching '}' (the
 * parameters and any performance directives before it skipped); NULL if
 * absent. */
static const char *entry_body(const char *ptx, const char *name, size_t *len)
{
  static const char kind[] = ".entry ";
  size_t nl = strlen(name);
  for (const char *p = ptx; (p = strstr(p, kind)) != NULL; p += sizeof kind - 1) {
    const char *q = p + sizeof kind - 1;
    if (strncmp(q, name, nl) != 0 || (q[nl] != '(' && !isspace((unsigned char)q[nl])))
      continue;
    /* After the parameters' ')': directives (.reqntid ...), then '{'; a
     * ';' first would make it a prototype. */
    const char *r = q + nl;
    int depth = 0;
    for (; *r && !(depth == 1 && *r == ')'); ++r)
      depth += (*r == '(') - (*r == ')');
    r += strcspn(r, "{;");
    if (*r != '{')
      continue;
    const char *open = r;
    for (depth = 0; *r; ++r) {
      depth += (*r == '{') - (*r == '}');
      if (!depth) {
        *len = (size_t)(r - open + 1);
        return open;
      }
    }
    return NULL;
  }
  return NULL;
}

/* Adds to *bytes the .shared declarations in body[0, len) ("\t.shared
 * .align 4 .b8 name[8192];"); module-level ones that the body names are
 * added by the caller. */
static unsigned long long shared_decls(const char *body, size_t len)
{
  unsigned long long total = 0;
  const char *end = body + len;
  for (const char *p = body; p < end && (p = strstr(p, ".shared")) != NULL && p < end; p += 7) {
    const char *line = p;
    while (line > body && line[-1] != '\n')
      --line;
    const char *q = line;
    while (q < p && isspace((unsigned char)*q))
      ++q;
    if (q != p)
      continue; /* an instruction such as ld.shared */
    const char *semi = memchr(p, ';', (size_t)(end - p));
    if (!semi)
      break;
    /* Element size from the type (.b8, .u32, .f64 ...), count from [N]. */
    unsigned elem = 1;
    const char *t = p + 7;
    for (; t < semi; ++t)
      if (*t == '.' && t[1] && strchr("busf", t[1]) && isdigit((unsigned char)t[2])) {
        elem = (unsigned)strtoul(t + 2, NULL, 10) / 8;
        break;
      }
    unsigned long long count = 1;
    const char *br = memchr(p, '[', (size_t)(semi - p));
    if (br)
      count = strtoull(br + 1, NULL, 10); /* extern [] is dynamic: 0 */
    total += count * (elem ? elem : 1);
  }
  return total;
}

/* The static shared memory of entry name: its own declarations and those
 * of the module that it names. */
static unsigned long long entry_shared(const char *ptx, const char *name)
{
  size_t len;
  const char *body = entry_body(ptx, name, &len);
  if (!body)
    return 0;
  unsigned long long total = shared_decls(body, len);
  /* Module-level declarations: lines starting with ".shared" at column 0
   * (or .global .shared), counted where the body names them. */
  for (const char *p = ptx; (p = strstr(p, "\n.shared")) != NULL; p += 8) {
    const char *semi = strchr(p + 1, ';');
    const char *br = semi ? memchr(p, '[', (size_t)(semi - p)) : NULL;
    const char *nm_end = br ? br : semi;
    if (!nm_end)
      break;
    const char *nm = nm_end;
    while (nm > p && !isspace((unsigned char)nm[-1]))
      --nm;
    char var[128];
    snprintf(var, sizeof var, "%.*s", (int)(nm_end - nm), nm);
    int used = 0;
    size_t vl = strlen(var);
    for (const char *u = body; !used && (u = strstr(u, var)) != NULL && u < body + len; u += vl)
      used = !(isalnum((unsigned char)u[vl]) || u[vl] == '_' || u[vl] == '$');
    if (used)
      total += shared_decls(p + 1, (size_t)(semi - p));
  }
  return total;
}

/* ptxas -v's lines for entry name. 0 if found. */
static int sass_of(const char *sass, const char *name, kinfo *k)
{
  char pat[200];
  snprintf(pat, sizeof pat, "Compiling entry function '%s'", name);
  const char *p = strstr(sass, pat);
  if (!p)
    return -1;
  const char *next = strstr(p + strlen(pat), "Compiling entry function");
  const char *end = next ? next : p + strlen(p);
  const char *q;
  k->stack = k->spill_st = k->spill_ld = 0;
  k->regs = k->barriers = 0;
  k->smem = 0;
  if ((q = strstr(p, "bytes stack frame")) && q < end) {
    const char *s = q;
    while (s > p && s[-1] != '\n' && s[-1] != ':')
      --s;
    sscanf(s, " %llu bytes stack frame, %llu bytes spill stores, %llu bytes spill loads", &k->stack,
           &k->spill_st, &k->spill_ld);
  }
  if ((q = strstr(p, "Used ")) && q < end) {
    sscanf(q, "Used %u registers", &k->regs);
    const char *b = strstr(q, "used ");
    const char *eol = strchr(q, '\n');
    if (b && (!eol || b < eol))
      sscanf(b, "used %u barriers", &k->barriers);
    const char *m = strstr(q, "bytes smem");
    if (m && (!eol || m < eol)) {
      while (m > q && m[-1] == ' ')
        --m;
      while (m > q && isdigit((unsigned char)m[-1]))
        --m;
      k->smem = strtoull(m, NULL, 10);
    }
  }
  return 0;
}

/* Occupancy on an H100 from registers, shared memory and the block's
 * warps; the block limit from registers (CL_KERNEL_WORK_GROUP_SIZE). */
static void occupancy(const lsk_device_info *h, kinfo *k)
{
  unsigned warp = h->warp_size, most = (unsigned)h->max_work_group_size;
  unsigned wpb = (k->w + warp - 1) / warp;
  unsigned regs = k->regs ? k->regs : 1;
  unsigned per_warp = (regs * warp + H100_REG_UNIT - 1) / H100_REG_UNIT * H100_REG_UNIT;
  unsigned warps_by_regs = H100_REGS_SM / per_warp;
  unsigned lim = warps_by_regs * warp;
  k->wg_limit = lim > most ? most : lim;
  unsigned long long smem = k->smem > k->shared ? k->smem : k->shared;
  unsigned long long per_block =
      (smem + H100_SHARED_RESERVED + H100_SHARED_UNIT - 1) / H100_SHARED_UNIT * H100_SHARED_UNIT;
  struct {
    unsigned blocks;
    const char *why;
  } lims[] = {{H100_WARPS_SM / wpb, "warps"},
              {H100_BLOCKS_SM, "blocks"},
              {warps_by_regs / wpb, "registers"},
              {(unsigned)(H100_SHARED_SM / per_block), "shared"}};
  k->blocks = lims[0].blocks;
  k->limiter = lims[0].why;
  for (size_t i = 1; i < sizeof lims / sizeof *lims; ++i)
    if (lims[i].blocks < k->blocks) {
      k->blocks = lims[i].blocks;
      k->limiter = lims[i].why;
    }
  k->warps = k->blocks * wpb;
}

static void check_nvptx(check *c, const tools *t)
{
  nvptx n = {.c = c, .t = *t, .h = h100_model()};
  if (c->ptx_dir) {
    mkdir(c->ptx_dir, 0755);
    n.dir = cli_strf("%s", c->ptx_dir);
  } else {
    const char *tmp = getenv("TMPDIR");
    n.tmp = cli_strf("%s/lsk-check.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (n.tmp && !mkdtemp(n.tmp)) {
      problem(c, "nvptx: cannot make a temporary folder: %s", strerror(errno));
      free(n.tmp);
      return;
    }
    n.dir = n.tmp ? cli_strf("%s", n.tmp) : NULL;
  }
  {
    /* "<dir>/<file without .cl>.lsk.cl" */
    const char *b = base_name(c->file);
    size_t len = strlen(b);
    if (len > 3 && strcmp(b + len - 3, ".cl") == 0)
      len -= 3;
    n.text_path = n.dir ? cli_strf("%s/%.*s.lsk.cl", n.dir, (int)len, b) : NULL;
    if (!n.text_path) {
      problem(c, "out of memory");
      goto nvptx_out;
    }
    remove(n.text_path);
  }
  unsigned ldom[3];
  if (!listing_domain(c, ldom)) {
    problem(c, "nvptx: no block domain to build with: the file declares none; give --domain X");
    goto nvptx_out;
  }
  unsigned lw, ls;
  gpu_shape(&n.h, ldom, c->workers, c->simd, 0, &lw, &ls);
  build *lb = get_build(&n, ldom, lw, ls);
  if (!lb || !lb->ok)
    goto nvptx_out;
  /* The kernels: the PTX's entries. */
  for (const char *p = lb->ptx; (p = strstr(p, ".entry ")) != NULL; p += 7) {
    const char *q = p + 7;
    size_t len = strcspn(q, "( \t\n");
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), q);
    kinfo *k = kernel_of(c, name);
    if (!k) {
      problem(c, "out of memory");
      goto nvptx_out;
    }
    resolve_domain(c, k);
  }
  for (size_t i = 0; i < c->nk; ++i) {
    kinfo *k = &c->k[i];
    if (!k->has_dom)
      continue;
    size_t kernel_max = 0;
    for (int attempt = 0; attempt < 3; ++attempt) {
      gpu_shape(&n.h, k->dom, c->workers, c->simd, kernel_max, &k->w, &k->s);
      k->limited = kernel_max != 0;
      if (k->w > n.h.max_work_group_size) {
        problem(c, "kernel '%s': %u workers exceed the %zu of an H100", k->name, k->w,
                n.h.max_work_group_size);
        break;
      }
      build *b = get_build(&n, k->dom, k->w, k->s);
      if (!b || !b->ok)
        break;
      size_t blen;
      if (!entry_body(b->ptx, k->name, &blen)) {
        problem(c, "nvptx: no entry '%s' in the PTX", k->name);
        break;
      }
      k->ptx_done = 1;
      k->shared = entry_shared(b->ptx, k->name);
      k->sass = 0;
      if (!b->sass_ok)
        break;
      if (sass_of(b->sass, k->name, k)) {
        problem(c, "nvptx: ptxas says nothing of '%s'", k->name);
        break;
      }
      k->sass = 1;
      occupancy(&n.h, k);
      if (k->w <= k->wg_limit)
        break;
      if (c->workers || kernel_max) {
        problem(c, "kernel '%s': %u workers exceed its limit of %u on an H100 (%u registers)",
                k->name, k->w, k->wg_limit, k->regs);
        break;
      }
      kernel_max = k->wg_limit;
    }
  }
  for (size_t i = 0; i < c->nk; ++i) {
    kinfo *k = &c->k[i];
    if (k->ptx_done && k->shared > n.h.local_mem_size)
      problem(c, "kernel '%s': %llu bytes of static shared memory, more than NVIDIA's 48 KiB",
              k->name, k->shared);
    if (k->sass && (k->spill_st || k->spill_ld))
      problem(c,
              "kernel '%s': spills on " SASS_ARCH " (%llu bytes stored, %llu loaded; %u "
              "registers)",
              k->name, k->spill_st, k->spill_ld, k->regs);
  }
nvptx_out:
  for (size_t i = 0; i < n.nb; ++i) {
    for (int e = 0; n.tmp && e < 2; ++e) {
      char *path = config_path(&n, n.b[i].dom, n.b[i].w, n.b[i].s, e ? ".ptxas.txt" : ".ptx");
      if (path)
        remove(path);
      free(path);
    }
    free(n.b[i].ptx);
    free(n.b[i].sass);
  }
  free(n.b);
  if (n.tmp) {
    if (n.text_path)
      remove(n.text_path);
    rmdir(n.tmp);
  }
  free(n.tmp);
  free(n.dir);
  free(n.text_path);
}

/* ------------------------------------------------------------------ */
/* The report.                                                         */

static void report(const check *c, const tools *t)
{
  char a[48], b[32], d[32];
  int any_dev = 0, any_ptx = 0;
  for (size_t i = 0; i < c->nk; ++i) {
    any_dev |= c->k[i].dev_done;
    any_ptx |= c->k[i].ptx_done;
  }
  if (c->tsv) {
    /* Columns: see usage_text's --tsv. */
    const char *o = c->options.len ? c->options.s : "-";
    for (size_t i = 0; i < c->nk; ++i) {
      const kinfo *k = &c->k[i];
      const char *how = k->declared ? "declared" : "given";
      fmt_dom(k->dom, a, sizeof a);
      if (k->dev_done)
        printf("device\t%s\t%s\t%s\t%s\t%s\t%u\t%u\t%zu\t%llu\t%llu\n", c->file, o, k->name, a, how,
               k->dev.workers, k->dev.simd, k->dev.work_group_max,
               (unsigned long long)k->dev.local_static_bytes,
               (unsigned long long)k->dev.private_bytes);
      if (!k->ptx_done)
        continue;
      printf("nvptx\t%s\t%s\t%s\t%s\t%s\t%u\t%u\t%d\t%llu", c->file, o, k->name, a, how, k->w, k->s,
             k->limited, k->shared);
      if (k->sass)
        printf("\t%u\t%llu\t%llu\t%llu\t%u\t%u\t%u\t%u\t%s\n", k->regs, k->spill_st, k->spill_ld,
               k->stack, k->barriers, k->wg_limit, k->warps, k->warps * 100 / H100_WARPS_SM,
               k->limiter);
      else
        printf("\t-\t-\t-\t-\t-\t-\t-\t-\t-\n");
    }
    return;
  }
  if (any_dev) {
    printf("  %-28s %-12s %-15s %-9s %-10s %s\n", "kernel", "domain", "workers x simd", "wg limit",
           "local", "private");
    for (size_t i = 0; i < c->nk; ++i) {
      const kinfo *k = &c->k[i];
      if (!k->dev_done)
        continue;
      char dom[64], shape[32];
      snprintf(dom, sizeof dom, "%s%s", fmt_dom(k->dom, a, sizeof a), k->declared ? " (decl)" : "");
      snprintf(shape, sizeof shape, "%u x %u", k->dev.workers, k->dev.simd);
      printf("  %-28s %-12s %-15s %-9zu %-10s %s\n", k->name, dom, shape, k->dev.work_group_max,
             cli_fmt_bytes(k->dev.local_static_bytes, b, sizeof b),
             cli_fmt_bytes(k->dev.private_bytes, d, sizeof d));
    }
  }
  if (c->no_nvptx)
    return;
  if (!t->have_clang) {
    printf("nvptx: skipped: %s\n", t->why_not);
    return;
  }
  printf("nvptx: clang (%s) and libclc to PTX (nvptx64-nvidia-nvcl, " NVPTX_CPU
         ", OpenCL C 1.2, -Werror); shapes of the GPU rule on an H100 model\n",
         t->clang);
  if (t->have_ptxas)
    printf("sm_90: %s -arch=" SASS_ARCH " -v; occupancy on an H100 (64 warps, 64K registers, "
           "228 KiB shared per SM)\n",
           t->ptxas);
  else
    printf("sm_90: skipped: %s\n", t->ptxas_why);
  if (!any_ptx)
    return;
  printf("  %-28s %-12s %-15s %-18s", "kernel", "domain", "workers x simd", "shared (48 KiB)");
  if (t->have_ptxas)
    printf(" %-5s %-13s %-6s %-9s %-9s %s", "regs", "spill st/ld", "stack", "barriers", "wg limit",
           "warps/SM");
  printf("\n");
  for (size_t i = 0; i < c->nk; ++i) {
    const kinfo *k = &c->k[i];
    if (!k->ptx_done)
      continue;
    char dom[64], shape[32], spill[32], occ[48];
    snprintf(dom, sizeof dom, "%s%s", fmt_dom(k->dom, a, sizeof a), k->declared ? " (decl)" : "");
    snprintf(shape, sizeof shape, "%u x %u%s", k->w, k->s, k->limited ? " (lim)" : "");
    printf("  %-28s %-12s %-15s %-18s", k->name, dom, shape, cli_fmt_bytes(k->shared, b, sizeof b));
    if (k->sass) {
      snprintf(spill, sizeof spill, "%llu/%llu", k->spill_st, k->spill_ld);
      snprintf(occ, sizeof occ, "%u (%u%%, %s)", k->warps, k->warps * 100 / H100_WARPS_SM,
               k->limiter);
      printf(" %-5u %-13s %-6llu %-9u %-9u %s", k->regs, spill, k->stack, k->barriers, k->wg_limit,
             occ);
    }
    printf("\n");
  }
}

/* ------------------------------------------------------------------ */
/* Options.                                                            */

/* Appends "-X VALUE" to the build options, quoted if it has blanks. */
static void add_option(check *c, const char *flag, const char *value)
{
  int blank = strpbrk(value, " \t") != NULL;
  cli_str_put(&c->options, "%s%s%s%s%s", c->options.len ? " " : "", flag, blank ? "\"" : "", value,
              blank ? "\"" : "");
}

/* One layout file (PATH or PATH@members), loaded; *members points into
 * spec's copy (or NULL). */
static int load_layout(const char *spec, char *copy, size_t len, lsk_layout **l,
                       const char **members)
{
  snprintf(copy, len, "%s", spec);
  char *at = strchr(copy, '@');
  *members = NULL;
  if (at) {
    *at = 0;
    *members = at + 1;
  }
  return lsk_layout_load(copy, l);
}

static int add_prelude(cli_str *pre, const char *text)
{
  cli_str_put(pre, "%s%s", pre->len ? "\n" : "", text);
  return pre->failed ? -1 : 0;
}

/* --layout SPEC: the view of one layout. */
static int prelude_layout(cli_str *pre, const char *spec)
{
  char copy[1024];
  lsk_layout *l = NULL;
  const char *members;
  char *text = NULL;
  int rc = load_layout(spec, copy, sizeof copy, &l, &members);
  lsk_emit_options eo = {.members = members};
  if (!rc)
    rc = lsk_layout_emit_cl(l, &eo, &text);
  if (!rc)
    rc = add_prelude(pre, text) ? LSK_ENOMEM : 0;
  if (rc)
    cli_fail("check", "--layout %s: %s", spec, lsk_context_errmsg(NULL));
  lsk_free(text);
  lsk_layout_destroy(l);
  return rc;
}

/* --view NAME=SPEC+SPEC...: one view over several layouts. */
static int prelude_view(cli_str *pre, const char *arg)
{
  enum { MAXL = 8 };
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg)
    return cli_fail("check", "--view %s: NAME=FILE[@M,..]+FILE... wanted", arg);
  char name[128], copies[MAXL][1024];
  snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
  lsk_layout *ls[MAXL] = {0};
  const char *members[MAXL] = {0};
  size_t k = 0;
  int rc = 0;
  for (const char *p = eq + 1; *p && !rc;) {
    size_t n = strcspn(p, "+");
    if (k == MAXL) {
      rc = cli_fail("check", "--view %s: more than %d layouts", arg, MAXL);
      break;
    }
    char spec[1024];
    snprintf(spec, sizeof spec, "%.*s", (int)n, p);
    if (load_layout(spec, copies[k], sizeof copies[k], &ls[k], &members[k]))
      rc = cli_fail("check", "--view %s: %s", arg, lsk_context_errmsg(NULL));
    ++k;
    p += n + (p[n] == '+');
  }
  char *text = NULL;
  if (!rc && lsk_layout_emit_view_cl(name, k, (const lsk_layout *const *)ls, members, &text))
    rc = cli_fail("check", "--view %s: %s", arg, lsk_context_errmsg(NULL));
  if (!rc && add_prelude(pre, text))
    rc = cli_fail("check", "out of memory");
  lsk_free(text);
  for (size_t i = 0; i < k; ++i)
    lsk_layout_destroy(ls[i]);
  return rc;
}

int cmd_check(int argc, char **argv)
{
  check c = {0};
  cli_str pre = {0};
  const char *compact = NULL;
  kdomain kd[64];
  int rc = 0;
  for (int i = 1; i < argc && !rc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    unsigned long long x;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      goto check_out;
    } else if (strcmp(a, "--domain") == 0) {
      if (!v) {
        rc = cli_usage("check", usage_text, "--domain needs X[xY[xZ]] or KERNEL=X[xY[xZ]]");
        break;
      }
      const char *eq = strchr(v, '=');
      unsigned dom[3];
      if (cli_parse_domain(eq ? eq + 1 : v, dom) || (eq && eq == v)) {
        rc = cli_usage("check", usage_text,
                       "bad value '%s' for --domain: X[xY[xZ]] or KERNEL=X[xY[xZ]], extents >= 1, "
                       "at most %u indices",
                       v, LSK_MAX_DOMAIN);
        break;
      }
      if (!eq) {
        memcpy(c.dom, dom, sizeof dom);
        c.has_dom = 1;
      } else if (c.nkdoms == sizeof kd / sizeof *kd) {
        rc = cli_usage("check", usage_text, "more than 64 --domain KERNEL=...");
        break;
      } else {
        /* The kernel's name ends at '=': written over in place. */
        argv[i + 1][eq - v] = 0;
        kd[c.nkdoms].kernel = argv[i + 1];
        memcpy(kd[c.nkdoms++].dom, dom, sizeof dom);
        c.kdoms = kd;
      }
      ++i;
    } else if (strcmp(a, "--workers") == 0 || strcmp(a, "--simd") == 0) {
      if ((rc = cli_opt_uint("check", usage_text, a, v, 1, a[2] == 'w' ? 1u << 16 : 1u << 24, &x)))
        break;
      if (a[2] == 'w')
        c.workers = (unsigned)x;
      else
        c.simd = (unsigned)x;
      ++i;
    } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0) {
      const char *val = a[2] ? a + 2 : v;
      if (!val || !*val) {
        rc = cli_usage("check", usage_text, "%s needs a value", a);
        break;
      }
      char flag[3] = {'-', a[1], 0};
      add_option(&c, flag, val);
      i += !a[2];
    } else if (strcmp(a, "--options") == 0 && v) {
      cli_str_put(&c.options, "%s%s", c.options.len ? " " : "", v);
      ++i;
    } else if (strcmp(a, "--prelude") == 0 && v) {
      char *text = cli_read_file(v);
      if (!text) {
        rc = cli_fail("check", "--prelude %s: %s", v, strerror(errno));
        break;
      }
      if (add_prelude(&pre, text))
        rc = cli_fail("check", "out of memory");
      free(text);
      ++i;
    } else if (strcmp(a, "--layout") == 0 && v) {
      rc = prelude_layout(&pre, v) ? 1 : 0;
      ++i;
    } else if (strcmp(a, "--view") == 0 && v) {
      rc = prelude_view(&pre, v) ? 1 : 0;
      ++i;
    } else if (strcmp(a, "--compact") == 0 && v) {
      compact = v;
      ++i;
    } else if (strcmp(a, "--ptx") == 0 && v) {
      c.ptx_dir = v;
      ++i;
    } else if (strcmp(a, "--no-device") == 0) {
      c.no_device = 1;
    } else if (strcmp(a, "--no-nvptx") == 0) {
      c.no_nvptx = 1;
    } else if (strcmp(a, "--emit-source") == 0) {
      c.emit = 1;
    } else if (strcmp(a, "--tsv") == 0) {
      c.tsv = 1;
    } else if (a[0] != '-' && !c.file) {
      c.file = a;
    } else {
      rc = cli_usage("check", usage_text, "%s '%s'",
                     a[0] == '-' ? (v ? "unknown option" : "missing value or unknown option")
                                 : "unexpected argument",
                     a);
    }
  }
  if (rc)
    goto check_out;
  if (!c.file) {
    rc = cli_usage("check", usage_text, "missing FILE.cl");
    goto check_out;
  }
  if (c.options.failed || pre.failed) {
    rc = cli_fail("check", "out of memory");
    goto check_out;
  }
  if (!(c.source = cli_read_file(c.file))) {
    rc = cli_fail("check", "%s: %s", c.file, strerror(errno));
    goto check_out;
  }
  if (compact) {
    /* The predicate with the compaction kernels behind it, and their
     * prelude in front of the user's. */
    lsk_layout *l = NULL;
    if (compact[0] == '@' && lsk_layout_load(compact + 1, &l)) {
      rc = cli_fail("check", "--compact %s: %s", compact, lsk_context_errmsg(NULL));
      goto check_out;
    }
    lsk_compactor_options co = {.name = c.file,
                                .build_options = cli_str_get(&c.options),
                                .layout = l,
                                .data_type = l ? NULL : compact};
    char *program = NULL, *cpre = NULL;
    rc = lsk_compactor_source(c.source, &co, &program, &cpre);
    lsk_layout_destroy(l);
    if (rc) {
      rc = cli_fail("check", "--compact %s: %s", compact, lsk_context_errmsg(NULL));
      goto check_out;
    }
    cli_str both = {0};
    cli_str_put(&both, "%s%s%s", cpre, pre.len ? "\n" : "", cli_str_get(&pre));
    lsk_free(cpre);
    free(c.source);
    c.source = program; /* lsk_free is free */
    free(pre.s);
    pre = both;
    if (pre.failed) {
      rc = cli_fail("check", "out of memory");
      goto check_out;
    }
  }
  c.prelude = pre.s ? pre.s : "";
  {
    /* A malformed LSK_DECLARE_DOMAIN, once for both compilers. */
    unsigned d[3];
    int declared;
    if (lsk_source_declared_domain(c.source, NULL, d, &declared)) {
      static const char fn[] = "lsk_source_declared_domain: ";
      const char *msg = lsk_context_errmsg(NULL);
      rc = cli_fail("check", "%s: %s", c.file,
                    strncmp(msg, fn, sizeof fn - 1) == 0 ? msg + sizeof fn - 1 : msg);
      goto check_out;
    }
  }
  if (c.emit) {
    unsigned dom[3] = {1, 1, 1}, w = c.workers ? c.workers : 1, s = c.simd ? c.simd : 1;
    listing_domain(&c, dom);
    char *text = NULL, *opts = NULL;
    lsk_program_options po = program_options(&c);
    if (lsk_program_text(c.source, &po, dom, w, s, &text, &opts)) {
      rc = cli_fail("check", "%s", lsk_context_errmsg(NULL));
      goto check_out;
    }
    fputs(text, stdout);
    fflush(stdout);
    fprintf(stderr, "lsk: check: options: %s\n", opts);
    lsk_free(text);
    lsk_free(opts);
    goto check_out;
  }
  tools t;
  find_tools(&t);
  if (!c.tsv)
    printf("lsk check %s%s%s\n", c.file, c.options.len ? " " : "", cli_str_get(&c.options));
  if (!c.no_device)
    check_device(&c);
  if (!c.no_nvptx && t.have_clang)
    check_nvptx(&c, &t);
  /* A --domain KERNEL=... that names no kernel of the file is a mistake. */
  for (size_t i = 0; i < c.nkdoms && c.nk; ++i) {
    size_t j = 0;
    while (j < c.nk && strcmp(c.k[j].name, c.kdoms[i].kernel) != 0)
      ++j;
    if (j == c.nk)
      problem(&c, "--domain %s=...: the file has no kernel '%s'", c.kdoms[i].kernel,
              c.kdoms[i].kernel);
  }
  report(&c, &t);
  if (!c.tsv)
    printf("%s: %s", c.file, c.problems ? "FAILED" : "ok");
  if (!c.tsv && c.problems)
    printf(" (%d problem%s, above on stderr)", c.problems, c.problems == 1 ? "" : "s");
  if (!c.tsv)
    printf("\n");
  rc = c.problems ? 1 : 0;
check_out:
  free(c.source);
  free(c.options.s);
  free(pre.s);
  free(c.k);
  return rc;
}
