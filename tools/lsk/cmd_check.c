/*
 * cmd_check.c: `lsk check FILE.cl`: compiles a kernel file offline, as lsk
 * builds it (lsk_program_text: the device library, the prelude and the
 * file behind #line markers, the configuration's -D options), for the
 * selected device and, where clang and libclc are found, for NVIDIA GPUs
 * through PTX (target nvptx64-nvidia-nvcl: the route of NVIDIA's OpenCL);
 * where the CUDA toolkit's ptxas is found, the PTX is assembled for sm_90
 * (H100), and registers, spills, shared memory, barriers and the occupancy
 * they allow are reported per kernel; where cuobjdump or nvdisasm is found,
 * the cubin's SASS too: each kernel's global loads and stores of 16 and 8
 * bytes (LDG/STG .128 and .64). The ctest label nvptx runs it on every
 * kernel file lsk ships (tests/nvptx.sh).
 *
 * The NVPTX shapes are those of the automatic rule's GPU branch
 * (lsk_auto_shape) on a model of an H100: warps of 32, at most 1024
 * workers, and each kernel's own limit from its registers, which makes the
 * rule choose again with fewer workers, as a launch does on the GPU.
 *
 * This file is the command: its options, the source it builds, and the
 * run of the parts (check.h): the kernels and their domains
 * (check_kernels.c), the device (check_device.c), NVPTX and sm_90
 * (check_nvptx.c, reading PTX, ptxas's report and the SASS in check_ptx.c, the H100
 * model in check_occupancy.c), the tables (check_report.c) and the
 * preludes (check_prelude.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "parse.h"

static const char usage_text[] =
    "usage: lsk [--device SEL] check FILE.cl [options]\n"
    "Compiles FILE as lsk builds it (the device library and a prelude in front, the\n"
    "lockstep configuration as -D options) for the selected device and, where clang\n"
    "and libclc are found, for NVIDIA GPUs through PTX (OpenCL C 1.2, -Werror); with\n"
    "the CUDA toolkit's ptxas, for sm_90 (H100) too. Errors name FILE's own lines.\n"
    "First it reads FILE for barriers that not every worker reaches (lsk_source_check:\n"
    "in a ForEach or master body, a break there, or under a condition on the worker).\n"
    "Per kernel: its block domain (declared or given), workers x simd, the work-group\n"
    "limit, local and private memory on the device; on NVPTX the static shared memory\n"
    "against NVIDIA's 48 KiB and, with ptxas, registers, spills, barriers and the\n"
    "warps per SM that they allow on an H100; with cuobjdump or nvdisasm, the SASS's\n"
    "global loads and stores of 16 and 8 bytes (LDG/STG .128 and .64). Exit status:\n"
    "0 passed, 1 failed (an error, shared memory over 48 KiB, a spill), 2 usage.\n"
    "  --domain X[xY[xZ]]     block domain of the kernels that declare none\n"
    "  --domain KERNEL=X[xY[xZ]]  one kernel's block domain\n"
    "  --workers W, --simd S  the shape (default: automatic, per device)\n"
    "  -I DIR, -D NAME[=VAL]  include folder, macro (both compilers)\n"
    "  --options TEXT         more compiler options (both compilers)\n"
    "  --prelude FILE         text put between the device library and FILE\n"
    "  --layout FILE[@M,..]   add the OpenCL C view of an SoA layout file to the prelude\n"
    "                         (of members M only, with @)\n"
    "  --view NAME=FILE[@M,..]+FILE[@M,..]...  add a view over several layouts\n"
    "  --sparse FILE          add the OpenCL C generated for a sparse definition file\n"
    "  --compact TYPE|@LAYOUT FILE is a compaction predicate (lsk/compact.h): check it\n"
    "                         with the compaction kernels, on a plain buffer of TYPE\n"
    "                         or on the rows of a layout file\n"
    "  --no-device            NVPTX only (no OpenCL device needed)\n"
    "  --no-nvptx             the device only\n"
    "  --ptx DIR              keep the PTX (and ptxas's report, the SASS) in DIR\n"
    "  --emit-source          print the text lsk builds and exit (options on stderr)\n"
    "  --tsv                  tab-separated rows for scripts, one per kernel and part:\n"
    "      device FILE OPTIONS KERNEL DOMAIN declared|given WORKERS SIMD WG_LIMIT\n"
    "             LOCAL PRIVATE\n"
    "      nvptx FILE OPTIONS KERNEL DOMAIN declared|given WORKERS SIMD REG_LIMITED\n"
    "             SHARED REGS SPILL_ST SPILL_LD STACK BARRIERS WG_LIMIT WARPS_SM OCC% LIMIT\n"
    "             LD128 ST128 LD64 ST64\n"
    "      (OPTIONS: -I, -D and --options, or -; - where ptxas or the SASS's reader did\n"
    "      not run)\n"
    "Environment: CLANG (default clang-15, else clang), LSK_LIBCLC (default\n"
    "/usr/lib/clc/nvptx64--nvidiacl.bc, Debian's libclc-15), PTXAS (default ptxas in\n"
    "PATH, else /usr/local/cuda/bin/ptxas), CUOBJDUMP, else NVDISASM (default: in PATH,\n"
    "/usr/local/cuda/bin or beside ptxas); an empty value turns that step off.\n";

/* Appends "-X VALUE" to the build options, quoted if it has blanks. */
static void add_option(check *c, const char *flag, const char *value)
{
  int blank = strpbrk(value, " \t") != NULL;
  cli_str_put(&c->options, "%s%s%s%s%s", c->options.len ? " " : "", flag, blank ? "\"" : "", value,
              blank ? "\"" : "");
}

/* --domain V: the default domain, or KERNEL=X one kernel's (its name ends
 * at the '=', which is written over in place); 0 or a usage error's
 * status. */
static int opt_domain(check *c, char *v)
{
  if (!v)
    return cli_usage("check", usage_text, "--domain needs X[xY[xZ]] or KERNEL=X[xY[xZ]]");
  char *eq = strchr(v, '=');
  unsigned dom[3];
  if (cli_parse_domain(eq ? eq + 1 : v, dom) || (eq && eq == v))
    return cli_usage("check", usage_text,
                     "bad value '%s' for --domain: X[xY[xZ]] or KERNEL=X[xY[xZ]], extents >= 1, "
                     "at most %u indices",
                     v, LSK_MAX_DOMAIN);
  if (!eq) {
    memcpy(c->dom, dom, sizeof dom);
    c->has_dom = 1;
    return 0;
  }
  if (c->nkdoms == CHECK_MAX_KDOMS)
    return cli_usage("check", usage_text, "more than 64 --domain KERNEL=...");
  *eq = 0;
  c->kdoms[c->nkdoms].kernel = v;
  memcpy(c->kdoms[c->nkdoms++].dom, dom, sizeof dom);
  return 0;
}

/* The options that take a value v (*used set when they do): 0, a usage
 * error's status, 1 after another failure, or -1 for an option that is
 * not one of them. */
static int opt_valued(check *c, cli_str *pre, const char **compact, const char *a, char *v,
                      int *used)
{
  unsigned long long x;
  int rc = 0;
  *used = 1;
  if (strcmp(a, "--domain") == 0) {
    rc = opt_domain(c, v);
  } else if (strcmp(a, "--workers") == 0 || strcmp(a, "--simd") == 0) {
    rc = cli_opt_uint("check", usage_text, a, v, 1, a[2] == 'w' ? 1u << 16 : 1u << 24, &x);
    if (!rc)
      *(a[2] == 'w' ? &c->workers : &c->simd) = (unsigned)x;
  } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0) {
    const char *val = a[2] ? a + 2 : v;
    *used = !a[2];
    if (!val || !*val)
      return cli_usage("check", usage_text, "%s needs a value", a);
    add_option(c, a[1] == 'I' ? "-I" : "-D", val);
  } else if (!v) {
    return -1;
  } else if (strcmp(a, "--options") == 0) {
    cli_str_put(&c->options, "%s%s", c->options.len ? " " : "", v);
  } else if (strcmp(a, "--prelude") == 0) {
    rc = check_prelude_file(pre, v);
  } else if (strcmp(a, "--layout") == 0) {
    rc = check_prelude_layout(pre, v);
  } else if (strcmp(a, "--view") == 0) {
    rc = check_prelude_view(pre, v);
  } else if (strcmp(a, "--sparse") == 0) {
    rc = check_prelude_sparse(pre, v);
  } else if (strcmp(a, "--compact") == 0) {
    *compact = v;
  } else if (strcmp(a, "--ptx") == 0) {
    c->ptx_dir = v;
  } else {
    return -1;
  }
  return rc;
}

/* The options and the file: 0, a usage error's status, 1 after another
 * failure, or -1 after the help. */
static int parse_args(check *c, cli_str *pre, const char **compact, int argc, char **argv)
{
  int *flags[] = {&c->no_device, &c->no_nvptx, &c->emit, &c->tsv};
  static const char *const flag_names[] = {"--no-device", "--no-nvptx", "--emit-source", "--tsv"};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      return -1;
    }
    size_t f = 0;
    while (f < 4 && strcmp(a, flag_names[f]) != 0)
      ++f;
    if (f < 4) {
      *flags[f] = 1;
      continue;
    }
    int used = 0, rc = opt_valued(c, pre, compact, a, v, &used);
    if (rc >= 0) {
      if (rc)
        return rc;
      i += used;
    } else if (a[0] != '-' && !c->file) {
      c->file = a;
    } else {
      return cli_usage("check", usage_text, "%s '%s'",
                       a[0] == '-' ? (v ? "unknown option" : "missing value or unknown option")
                                   : "unexpected argument",
                       a);
    }
  }
  if (!c->file)
    return cli_usage("check", usage_text, "missing FILE.cl");
  if (c->options.failed || pre->failed)
    return cli_fail("check", "out of memory");
  return 0;
}

/* The source lsk builds (the file; with --compact the compaction kernels
 * behind it) and the prelude; a malformed LSK_DECLARE_DOMAIN reported
 * here, once for both compilers. 0, or 1 after the message. */
static int load_source(check *c, cli_str *pre, const char *compact)
{
  if (!(c->source = cli_read_file(c->file)))
    return cli_fail("check", "%s: %s", c->file, strerror(errno));
  if (compact && check_prelude_compact(c, pre, compact))
    return 1;
  c->prelude = pre->s ? pre->s : "";
  unsigned d[3];
  int declared;
  if (lsk_source_declared_domain(c->source, NULL, d, &declared)) {
    static const char fn[] = "lsk_source_declared_domain: ";
    const char *msg = lsk_context_errmsg(NULL);
    return cli_fail("check", "%s: %s", c->file,
                    strncmp(msg, fn, sizeof fn - 1) == 0 ? msg + sizeof fn - 1 : msg);
  }
  return 0;
}

/* --emit-source: the text lsk builds on stdout, its options on stderr. */
static int emit_source(check *c)
{
  unsigned dom[3] = {1, 1, 1}, w = c->workers ? c->workers : 1, s = c->simd ? c->simd : 1;
  check_listing_domain(c, dom);
  char *text = NULL, *opts = NULL;
  lsk_program_options po = check_program_options(c);
  if (lsk_program_text(c->source, &po, dom, w, s, &text, &opts))
    return cli_fail("check", "%s", lsk_context_errmsg(NULL));
  fputs(text, stdout);
  fflush(stdout);
  fprintf(stderr, "lsk: check: options: %s\n", opts);
  lsk_free(text);
  lsk_free(opts);
  return 0;
}

/* The parts, the tables and the verdict: 0 passed, 1 failed, 2 when
 * nothing gives a block domain (no declaration, no --domain): what to add
 * is a usage matter, decided before any build. */
static int run_checks(check *c)
{
  unsigned dom[3];
  if (!check_listing_domain(c, dom))
    return cli_usage("check", usage_text,
                     "%s declares no block domain (LSK_DECLARE_DOMAIN): give --domain X[xY[xZ]]",
                     c->file);
  check_tools t;
  check_find_tools(&t);
  if (!c->tsv)
    printf("lsk check %s%s%s\n", c->file, c->options.len ? " " : "", cli_str_get(&c->options));
  if (check_lint(c)) {
    if (!c->tsv)
      printf("device, nvptx: not built: the source is refused (above)\n");
  } else {
    if (!c->no_device)
      check_device(c);
    if (!c->no_nvptx && t.have_clang)
      check_nvptx(c, &t);
  }
  /* A --domain KERNEL=... that names no kernel of the file is a mistake. */
  for (size_t i = 0; i < c->nkdoms && c->nk; ++i) {
    size_t j = 0;
    while (j < c->nk && strcmp(c->k[j].name, c->kdoms[i].kernel) != 0)
      ++j;
    if (j == c->nk)
      check_problem(c, "--domain %s=...: the file has no kernel '%s'", c->kdoms[i].kernel,
                    c->kdoms[i].kernel);
  }
  check_report(c, &t);
  if (!c->tsv) {
    printf("%s: %s", c->file, c->problems ? "FAILED" : "ok");
    if (c->problems)
      printf(" (%d problem%s, above on stderr)", c->problems, c->problems == 1 ? "" : "s");
    printf("\n");
  }
  return c->problems ? 1 : 0;
}

int cmd_check(int argc, char **argv)
{
  check c = {0};
  cli_str pre = {0};
  const char *compact = NULL;
  int rc = parse_args(&c, &pre, &compact, argc, argv);
  if (!rc)
    rc = load_source(&c, &pre, compact);
  if (!rc)
    rc = c.emit ? emit_source(&c) : run_checks(&c);
  free(c.source);
  cli_str_free(&c.options);
  cli_str_free(&pre);
  free(c.k);
  return rc < 0 ? 0 : rc;
}
