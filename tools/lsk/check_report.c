/*
 * check_report.c: what `lsk check` prints once the checks have run: per
 * part (the device, NVPTX, sm_90 and its SASS) a table of the kernels, or with
 * --tsv one tab-separated row per kernel and part (cmd_check.c's usage
 * text lists the columns).
 */
#include <stdio.h>

#include "check.h"
#include "cli.h"

/* --tsv: one row per kernel and part, for scripts. */
static void report_tsv(const check *c)
{
  const char *o = c->options.len ? c->options.s : "-";
  char a[48];
  for (size_t i = 0; i < c->nk; ++i) {
    const kinfo *k = &c->k[i];
    const char *how = k->declared ? "declared" : "given";
    check_fmt_dom(k->dom, a, sizeof a);
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
      printf("\t%u\t%llu\t%llu\t%llu\t%u\t%u\t%u\t%u\t%s", k->sa.regs, k->sa.spill_st,
             k->sa.spill_ld, k->sa.stack, k->sa.barriers, k->occ.wg_limit, k->occ.warps,
             k->occ.warps * 100 / H100_WARPS_SM, k->occ.limiter);
    else
      printf("\t-\t-\t-\t-\t-\t-\t-\t-\t-");
    if (k->ldst_done)
      printf("\t%u\t%u\t%u\t%u\n", k->ls.ld128, k->ls.st128, k->ls.ld64, k->ls.st64);
    else
      printf("\t-\t-\t-\t-\n");
  }
}

/* The kernel's domain for the tables: "64x4 (decl)" where it declares it. */
static const char *domain_text(const kinfo *k, char *buf, size_t len)
{
  char a[48];
  snprintf(buf, len, "%s%s", check_fmt_dom(k->dom, a, sizeof a), k->declared ? " (decl)" : "");
  return buf;
}

/* The device's table. */
static void report_device(const check *c)
{
  char b[32], d[32], dom[64], shape[32];
  printf("  %-28s %-12s %-15s %-9s %-10s %s\n", "kernel", "domain", "workers x simd", "wg limit",
         "local", "private");
  for (size_t i = 0; i < c->nk; ++i) {
    const kinfo *k = &c->k[i];
    if (!k->dev_done)
      continue;
    snprintf(shape, sizeof shape, "%u x %u", k->dev.workers, k->dev.simd);
    printf("  %-28s %-12s %-15s %-9zu %-10s %s\n", k->name, domain_text(k, dom, sizeof dom), shape,
           k->dev.work_group_max, cli_fmt_bytes(k->dev.local_static_bytes, b, sizeof b),
           cli_fmt_bytes(k->dev.private_bytes, d, sizeof d));
  }
}

/* NVPTX's table, with sm_90's columns where ptxas ran. */
static void report_nvptx(const check *c, const check_tools *t)
{
  char b[32], dom[64], shape[32], spill[32], occ[48];
  printf("  %-28s %-12s %-15s %-18s", "kernel", "domain", "workers x simd", "shared (48 KiB)");
  if (t->have_ptxas)
    printf(" %-5s %-13s %-6s %-9s %-9s %-*s", "regs", "spill st/ld", "stack", "barriers",
           "wg limit", t->have_disasm ? 17 : 0, "warps/SM");
  if (t->have_disasm)
    printf(" %-11s %s", "ld/st 128", "ld/st 64");
  printf("\n");
  for (size_t i = 0; i < c->nk; ++i) {
    const kinfo *k = &c->k[i];
    if (!k->ptx_done)
      continue;
    snprintf(shape, sizeof shape, "%u x %u%s", k->w, k->s, k->limited ? " (lim)" : "");
    printf("  %-28s %-12s %-15s %-18s", k->name, domain_text(k, dom, sizeof dom), shape,
           cli_fmt_bytes(k->shared, b, sizeof b));
    if (k->sass) {
      snprintf(spill, sizeof spill, "%llu/%llu", k->sa.spill_st, k->sa.spill_ld);
      snprintf(occ, sizeof occ, "%u (%u%%, %s)", k->occ.warps, k->occ.warps * 100 / H100_WARPS_SM,
               k->occ.limiter);
      printf(" %-5u %-13s %-6llu %-9u %-9u %-*s", k->sa.regs, spill, k->sa.stack, k->sa.barriers,
             k->occ.wg_limit, t->have_disasm ? 17 : 0, occ);
    }
    if (k->ldst_done) {
      snprintf(spill, sizeof spill, "%u/%u", k->ls.ld128, k->ls.st128);
      printf(" %-11s %u/%u", spill, k->ls.ld64, k->ls.st64);
    }
    printf("\n");
  }
}

void check_report(const check *c, const check_tools *t)
{
  int any_dev = 0, any_ptx = 0;
  for (size_t i = 0; i < c->nk; ++i) {
    any_dev |= c->k[i].dev_done;
    any_ptx |= c->k[i].ptx_done;
  }
  if (c->tsv) {
    report_tsv(c);
    return;
  }
  if (any_dev)
    report_device(c);
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
  if (t->have_disasm)
    printf("sass: %s%s of the cubin: global loads/stores of 16 bytes (LDG/STG .128) and 8 bytes "
           "(.64)\n",
           t->disasm, t->is_nvdisasm ? "" : " -sass");
  else
    printf("sass: skipped: %s\n", t->disasm_why);
  if (any_ptx)
    report_nvptx(c, t);
}
