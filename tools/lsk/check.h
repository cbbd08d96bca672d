/*
 * check.h: what the parts of `lsk check` share (cmd_check.c the command;
 * check_kernels.c the file's kernels and their domains; check_device.c
 * the selected device; check_nvptx.c clang, libclc, ptxas and cuobjdump
 * or nvdisasm; check_report.c the tables; check_prelude.c the layouts'
 * views; check_lint.c the barriers' places): the run's state and each
 * kernel's findings. The PTX, ptxas and SASS texts are read by
 * check_ptx.h, the H100 model is check_occupancy.h.
 */
#ifndef LSK_TOOLS_CHECK_H
#define LSK_TOOLS_CHECK_H

#include <stddef.h>

#include "check_occupancy.h"
#include "check_ptx.h"
#include "lsk/lsk.h"
#include "strbuf.h"

#define CHECK_MAX_KDOMS 64 /* --domain KERNEL=... options */

/* A block domain given for one kernel (--domain KERNEL=X). */
typedef struct kdomain {
  const char *kernel;
  unsigned dom[3];
} kdomain;

/* One kernel of the file and what each check found. */
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
  int sass;                  /* ptxas's figures (sa) and the occupancy (occ) are known */
  check_sass sa;
  check_occupancy occ;
  int ldst_done; /* the SASS's global loads and stores (ls) are counted */
  check_ldst ls;
} kinfo;

/* The run: the options, the source, the kernels found, the problems. */
typedef struct check {
  const char *file;
  char *source, *prelude;
  cli_str options; /* -I, -D, --options */
  unsigned dom[3];
  int has_dom;
  kdomain kdoms[CHECK_MAX_KDOMS];
  size_t nkdoms;
  unsigned workers, simd;
  int no_device, no_nvptx, tsv, emit;
  const char *ptx_dir;
  kinfo *k;
  size_t nk;
  int problems;
} check;

/* The compilers found (check_find_tools): clang and libclc for NVPTX,
 * ptxas for sm_90, cuobjdump or else nvdisasm for its SASS (disasm; is_nvdisasm
 * says which); why_not, ptxas_why and disasm_why say why one is not. */
typedef struct check_tools {
  char clang[512], libclc[512], ptxas[512], disasm[512];
  int have_clang, have_ptxas, have_disasm, is_nvdisasm;
  char why_not[1024], ptxas_why[1024], disasm_why[1024];
} check_tools;

#define NVPTX_CPU "sm_86" /* the newest that LLVM 15 knows; ptxas takes it to sm_90 */
#define SASS_ARCH "sm_90"

/* check_kernels.c. A problem: "lsk: check: FILE: <msg>" on stderr, and
 * counted (the exit status is 1 then). */
void check_problem(check *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The kernel called name, added if new; NULL without memory. */
kinfo *check_kernel_of(check *c, const char *name);
/* The kernel's block domain: given for it, declared, or the default (a
 * problem if none). */
void check_resolve_domain(check *c, kinfo *k);
/* The domain of the build that lists the kernels: the default, else the
 * first declared, else the first given for a kernel. 0 if none. */
int check_listing_domain(const check *c, unsigned dom[3] /* OUT */);
/* The program options of every build: the file's name, -I/-D/--options,
 * the prelude, no disk cache. */
lsk_program_options check_program_options(const check *c);
/* "X", "XxY" or "XxYxZ"; returns buf. */
const char *check_fmt_dom(const unsigned d[3], char *buf, size_t len);

/* check_lint.c: lsk_source_check's findings, each a problem; 1 if some
 * refuse every build (the compilers need not run), else 0. */
int check_lint(check *c);

/* check_device.c: every kernel on the selected device. */
void check_device(check *c);

/* check_nvptx.c: the compilers, and every kernel through PTX (and sm_90
 * where ptxas is, its SASS's loads and stores where a disassembler is). */
void check_find_tools(check_tools *t /* OUT */);
void check_nvptx(check *c, const check_tools *t);

/* check_report.c: the table per part, or the --tsv rows. */
void check_report(const check *c, const check_tools *t);

/* check_prelude.c: text for the prelude, each 0 or 1 after the message:
 * --prelude FILE's, --layout SPEC's view, --view NAME=SPEC+...'s view, and
 * --compact's (the compaction kernels behind the predicate in c->source,
 * their prelude in front of pre). */
int check_prelude_file(cli_str *pre, const char *path);
int check_prelude_layout(cli_str *pre, const char *spec);
int check_prelude_view(cli_str *pre, const char *arg);
int check_prelude_compact(check *c, cli_str *pre, const char *compact);
int check_prelude_sparse(cli_str *pre, const char *path);

#endif /* LSK_TOOLS_CHECK_H */
