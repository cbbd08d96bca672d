/*
 * check_nvptx.c: `lsk check` for NVIDIA GPUs: each kernel's configuration
 * built as lsk builds it (lsk_program_text) and compiled by clang with
 * libclc for nvptx64-nvidia-nvcl (the route of NVIDIA's OpenCL), at the
 * shapes the automatic rule gives on the H100 model (check_occupancy.h),
 * again under a kernel's own register limit where ptxas (the CUDA
 * toolkit's, for sm_90) says it has one; the PTX and ptxas's report read
 * by check_ptx.c, and so is the SASS of ptxas's cubin as cuobjdump -sass
 * (or nvdisasm) prints it: each kernel's global loads and stores by width.
 * Each configuration is compiled once.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "process.h"

/* program (a name, or a path with a '/') in PATH, else in
 * /usr/local/cuda/bin, else beside ptxas (a wheel's or toolkit's bin); 0
 * with its path in buf. */
static int find_cuda_tool(const char *program, const char *ptxas, char *buf, size_t len)
{
  if (!cli_find_program(program, buf, len))
    return 0;
  if (strchr(program, '/'))
    return -1;
  char *p = cli_strf("/usr/local/cuda/bin/%s", program);
  int rc = p ? cli_find_program(p, buf, len) : -1;
  free(p);
  const char *slash = ptxas ? strrchr(ptxas, '/') : NULL;
  if (rc && slash && (p = cli_strf("%.*s/%s", (int)(slash - ptxas), ptxas, program))) {
    rc = cli_find_program(p, buf, len);
    free(p);
  }
  return rc;
}

/* The SASS's reader: CUOBJDUMP (cuobjdump -sass), else NVDISASM, each
 * found where find_cuda_tool looks unless its variable names it; an empty
 * variable rules that one out. Needs ptxas's cubin. */
static void find_disasm(check_tools *t)
{
  const char *ptxas = t->have_ptxas ? t->ptxas : NULL;
  const char *names[] = {"cuobjdump", "nvdisasm"}, *vars[] = {"CUOBJDUMP", "NVDISASM"};
  int ruled_out = 0;
  for (int i = 0; i < 2 && !t->have_disasm; ++i) {
    const char *e = getenv(vars[i]);
    if (e && !*e) {
      ++ruled_out;
      continue;
    }
    if (!find_cuda_tool(e ? e : names[i], ptxas, t->disasm, sizeof t->disasm)) {
      t->have_disasm = 1;
      t->is_nvdisasm = i == 1;
    }
  }
  if (!t->have_ptxas)
    snprintf(t->disasm_why, sizeof t->disasm_why, "no ptxas, no cubin to read");
  else if (!t->have_disasm && ruled_out == 2)
    snprintf(t->disasm_why, sizeof t->disasm_why, "CUOBJDUMP and NVDISASM are empty");
  else if (!t->have_disasm)
    snprintf(t->disasm_why, sizeof t->disasm_why,
             "no cuobjdump or nvdisasm (the CUDA toolkit's, or pip's nvidia-cuda-cuobjdump) in "
             "PATH, /usr/local/cuda/bin or beside ptxas");
  t->have_disasm = t->have_ptxas && t->have_disasm;
}

void check_find_tools(check_tools *t)
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
  find_disasm(t);
}

/* One compiled configuration: its PTX and ptxas's report. */
typedef struct build {
  unsigned dom[3], w, s;
  int ok, sass_ok, disasm_ok;
  char *ptx, *sass, *disasm; /* disasm: the SASS listing */
} build;

/* The NVPTX run: where its files go, the builds made. */
typedef struct nvptx {
  check *c;
  check_tools t;
  lsk_device_info h;
  char *dir;       /* where the files go */
  char *tmp;       /* a temporary folder to remove, or NULL */
  char *text_path; /* the text lsk builds */
  build *b;
  size_t nb;
} nvptx;

static int write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  size_t n = strlen(text);
  int bad = fwrite(text, 1, n, f) != n;
  return fclose(f) || bad ? -1 : 0;
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

static const char *base_name(const char *path)
{
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* The length of the file's base name without ".cl". */
static int stem_len(const char *base)
{
  size_t len = strlen(base);
  if (len > 3 && strcmp(base + len - 3, ".cl") == 0)
    len -= 3;
  return (int)len;
}

/* The path of a file of the configuration ("<dir>/<file>.d64x1x1.w64s1<ext>"),
 * malloc'd. */
static char *config_path(const nvptx *n, const unsigned dom[3], unsigned w, unsigned s,
                         const char *ext)
{
  const char *b = base_name(n->c->file);
  return cli_strf("%s/%.*s.d%ux%ux%u.w%us%u%s", n->dir, stem_len(b), b, dom[0], dom[1], dom[2], w,
                  s, ext);
}

/* clang on the text lsk builds (n->text_path) with the configuration's
 * options opts, into the PTX file ptx; 0, or 1 after the problem. */
static int compile_ptx(nvptx *n, const char *opts, const char *ptx, const char *what)
{
  check *c = n->c;
  char *store = NULL, **words = NULL;
  size_t nwords = 0;
  if (split_options(opts, &words, &nwords, &store)) {
    check_problem(c, "out of memory");
    return 1;
  }
  char *argv[64 + 32];
  size_t a = 0;
  char *fixed[] = {n->t.clang, "-x", "cl", "-target", "nvptx64-nvidia-nvcl", "-Xclang",
                   "-target-cpu", "-Xclang", NVPTX_CPU, "-Xclang", "-finclude-default-header",
                   "-Xclang", "-mlink-builtin-bitcode", "-Xclang", n->t.libclc,
                   /* libclc is built as nvptx64--nvidiacl: the triples differ in
                    * name only. */
                   "-Wno-linker-warnings", "-O3", "-Werror", "-pedantic", "-S", "-o", (char *)ptx};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; ++i)
    argv[a++] = fixed[i];
  int rc = nwords > 64;
  if (rc)
    check_problem(c, "nvptx: more than 64 compiler options");
  for (size_t i = 0; !rc && i < nwords; ++i)
    argv[a++] = words[i];
  argv[a++] = n->text_path;
  argv[a] = NULL;
  if (!rc && (rc = run_program(argv, NULL)) != 0)
    check_problem(c, "nvptx: clang %s for %s%s%s", rc < 0 ? "could not run" : "failed", what,
                  c->ptx_dir ? "; the text it compiled: " : "", c->ptx_dir ? n->text_path : "");
  free(words);
  free(store);
  return rc ? 1 : 0;
}

/* The SASS listing of cubin into the file listing, kept in b: cuobjdump
 * -sass or nvdisasm, whichever was found. */
static void disassemble(nvptx *n, build *b, const char *cubin, const char *listing,
                        const char *what)
{
  char *cuobjdump[] = {n->t.disasm, "-sass", (char *)cubin, NULL};
  char *nvdisasm[] = {n->t.disasm, (char *)cubin, NULL};
  int rc = run_program(n->t.is_nvdisasm ? nvdisasm : cuobjdump, listing);
  b->disasm = cli_read_file(listing);
  if (rc != 0 || !b->disasm)
    check_problem(n->c, "nvptx: %s failed for %s:\n%.2000s", n->t.disasm, what,
                  b->disasm ? b->disasm : "(no output)");
  else
    b->disasm_ok = 1;
}

/* ptxas on b's PTX file ptx for sm_90, its report (sass) kept in b; the
 * cubin's SASS where a disassembler is. */
static void assemble_sass(nvptx *n, build *b, const char *ptx, const char *sass, const char *cubin,
                          const char *listing, const char *what)
{
  char *argv[] = {n->t.ptxas, "-arch=" SASS_ARCH, "-v", (char *)ptx, "-o", (char *)cubin, NULL};
  int rc = run_program(argv, sass);
  b->sass = cli_read_file(sass);
  if (rc != 0 || !b->sass)
    check_problem(n->c, "nvptx: ptxas failed for %s:\n%s", what, b->sass ? b->sass : "(no output)");
  else
    b->sass_ok = 1;
  if (b->sass_ok && n->t.have_disasm)
    disassemble(n, b, cubin, listing, what);
  remove(cubin);
}

/* Compiles b's configuration: the text, clang, ptxas where it is. */
static void compile(nvptx *n, build *b)
{
  check *c = n->c;
  lsk_program_options po = check_program_options(c);
  char *text = NULL, *opts = NULL, dom[48], what[96];
  snprintf(what, sizeof what, "domain %s, %u x %u", check_fmt_dom(b->dom, dom, sizeof dom), b->w,
           b->s);
  if (lsk_program_text(c->source, &po, b->dom, b->w, b->s, &text, &opts)) {
    check_problem(c, "nvptx: %s", lsk_context_errmsg(NULL));
    return;
  }
  char *ptx = config_path(n, b->dom, b->w, b->s, ".ptx");
  char *sass = config_path(n, b->dom, b->w, b->s, ".ptxas.txt");
  char *cubin = config_path(n, b->dom, b->w, b->s, ".cubin");
  char *listing = config_path(n, b->dom, b->w, b->s, ".sass");
  int rc = 1;
  if (access(n->text_path, R_OK) != 0 && write_text(n->text_path, text))
    check_problem(c, "nvptx: cannot write %s: %s", n->text_path, strerror(errno));
  else if (!ptx || !sass || !cubin || !listing)
    check_problem(c, "out of memory");
  else
    rc = compile_ptx(n, opts, ptx, what);
  if (!rc && !(b->ptx = cli_read_file(ptx)))
    check_problem(c, "nvptx: cannot read %s", ptx);
  b->ok = b->ptx != NULL;
  if (b->ok && n->t.have_ptxas)
    assemble_sass(n, b, ptx, sass, cubin, listing, what);
  free(ptx);
  free(sass);
  free(cubin);
  free(listing);
  lsk_free(text);
  lsk_free(opts);
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
  *b = (build){.dom = {dom[0], dom[1], dom[2]}, .w = w, .s = s};
  compile(n, b);
  return b;
}

/* Where the files go (--ptx DIR, else a temporary folder) and the path of
 * the text lsk builds, "<dir>/<file without .cl>.lsk.cl"; 0, or 1 after
 * the problem. */
static int nvptx_open(nvptx *n)
{
  check *c = n->c;
  if (c->ptx_dir) {
    mkdir(c->ptx_dir, 0755);
    n->dir = cli_strf("%s", c->ptx_dir);
  } else {
    const char *tmp = getenv("TMPDIR");
    n->tmp = cli_strf("%s/lsk-check.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (n->tmp && !mkdtemp(n->tmp)) {
      check_problem(c, "nvptx: cannot make a temporary folder: %s", strerror(errno));
      free(n->tmp);
      n->tmp = NULL;
      return 1;
    }
    n->dir = n->tmp ? cli_strf("%s", n->tmp) : NULL;
  }
  const char *b = base_name(c->file);
  n->text_path = n->dir ? cli_strf("%s/%.*s.lsk.cl", n->dir, stem_len(b), b) : NULL;
  if (!n->text_path) {
    check_problem(c, "out of memory");
    return 1;
  }
  remove(n->text_path);
  return 0;
}

/* The kernels: the entries of the listing build's PTX, each with its
 * domain resolved; 0, or 1 after the problem. */
static int nvptx_kernels(nvptx *n)
{
  check *c = n->c;
  unsigned ldom[3], lw, ls;
  if (!check_listing_domain(c, ldom)) {
    check_problem(c,
                  "nvptx: no block domain to build with: the file declares none; give --domain X");
    return 1;
  }
  check_gpu_shape(&n->h, ldom, c->workers, c->simd, 0, &lw, &ls);
  build *lb = get_build(n, ldom, lw, ls);
  if (!lb || !lb->ok)
    return 1;
  char name[128];
  for (const char *p = lb->ptx; (p = ptx_next_entry(p, name, sizeof name)) != NULL;) {
    kinfo *k = check_kernel_of(c, name);
    if (!k) {
      check_problem(c, "out of memory");
      return 1;
    }
    check_resolve_domain(c, k);
  }
  return 0;
}

/* One try of kernel k at the shape its domain and kernel_max give: 1 if
 * done, 0 to try again under the register limit now in k->occ. */
static int nvptx_try(nvptx *n, kinfo *k, size_t kernel_max)
{
  check *c = n->c;
  check_gpu_shape(&n->h, k->dom, c->workers, c->simd, kernel_max, &k->w, &k->s);
  k->limited = kernel_max != 0;
  if (k->w > n->h.max_work_group_size) {
    check_problem(c, "kernel '%s': %u workers exceed the %zu of an H100", k->name, k->w,
                  n->h.max_work_group_size);
    return 1;
  }
  build *b = get_build(n, k->dom, k->w, k->s);
  if (!b || !b->ok)
    return 1;
  size_t blen;
  if (!ptx_entry_body(b->ptx, k->name, &blen)) {
    check_problem(c, "nvptx: no entry '%s' in the PTX", k->name);
    return 1;
  }
  k->ptx_done = 1;
  k->shared = ptx_entry_shared(b->ptx, k->name);
  k->sass = 0;
  k->ldst_done = 0;
  if (!b->sass_ok)
    return 1;
  if (sass_entry(b->sass, k->name, &k->sa)) {
    check_problem(c, "nvptx: ptxas says nothing of '%s'", k->name);
    return 1;
  }
  k->sass = 1;
  k->ldst_done = b->disasm_ok && !sass_ldst(b->disasm, k->name, &k->ls);
  if (b->disasm_ok && !k->ldst_done)
    check_problem(c, "nvptx: no SASS of '%s' in %s's listing", k->name, n->t.disasm);
  k->occ =
      check_occupancy_of(&n->h, k->w, k->sa.regs, k->sa.smem > k->shared ? k->sa.smem : k->shared);
  if (k->w <= k->occ.wg_limit)
    return 1;
  if (c->workers || kernel_max) {
    check_problem(c, "kernel '%s': %u workers exceed its limit of %u on an H100 (%u registers)",
                  k->name, k->w, k->occ.wg_limit, k->sa.regs);
    return 1;
  }
  return 0;
}

/* What NVIDIA's limits make problems: shared memory past 48 KiB, spills. */
static void nvptx_limits(nvptx *n)
{
  check *c = n->c;
  for (size_t i = 0; i < c->nk; ++i) {
    kinfo *k = &c->k[i];
    if (k->ptx_done && k->shared > n->h.local_mem_size)
      check_problem(c, "kernel '%s': %llu bytes of static shared memory, more than NVIDIA's 48 KiB",
                    k->name, k->shared);
    if (k->sass && (k->sa.spill_st || k->sa.spill_ld))
      check_problem(c,
                    "kernel '%s': spills on " SASS_ARCH " (%llu bytes stored, %llu loaded; %u "
                    "registers)",
                    k->name, k->sa.spill_st, k->sa.spill_ld, k->sa.regs);
  }
}

/* The builds' memory, and the files unless --ptx keeps them. */
static void nvptx_close(nvptx *n)
{
  for (size_t i = 0; i < n->nb; ++i) {
    static const char *const ext[] = {".ptx", ".ptxas.txt", ".sass"};
    for (int e = 0; n->tmp && e < 3; ++e) {
      char *path = config_path(n, n->b[i].dom, n->b[i].w, n->b[i].s, ext[e]);
      if (path)
        remove(path);
      free(path);
    }
    free(n->b[i].ptx);
    free(n->b[i].sass);
    free(n->b[i].disasm);
  }
  free(n->b);
  if (n->tmp) {
    if (n->text_path)
      remove(n->text_path);
    rmdir(n->tmp);
  }
  free(n->tmp);
  free(n->dir);
  free(n->text_path);
}

void check_nvptx(check *c, const check_tools *t)
{
  nvptx n = {.c = c, .t = *t, .h = check_h100_model()};
  if (!nvptx_open(&n) && !nvptx_kernels(&n)) {
    for (size_t i = 0; i < c->nk; ++i) {
      kinfo *k = &c->k[i];
      size_t kernel_max = 0;
      /* Again under the kernel's own register limit, as a launch on the
       * GPU does; a third try only to report a limit still exceeded. */
      for (int attempt = 0; k->has_dom && attempt < 3; ++attempt) {
        if (nvptx_try(&n, k, kernel_max))
          break;
        kernel_max = k->occ.wg_limit;
      }
    }
    nvptx_limits(&n);
  }
  nvptx_close(&n);
}
