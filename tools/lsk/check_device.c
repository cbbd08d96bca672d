/*
 * check_device.c: `lsk check` on the selected device: the file built as
 * lsk builds it, and each kernel's shape, work-group limit and memory
 * (lsk_kernel_query) at its block domain.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cli.h"

void check_device(check *c)
{
  lsk_context *ctx;
  if (cli_context_open("check", &ctx)) {
    c->problems++;
    fprintf(stderr, "lsk: check: --no-device checks NVPTX alone\n");
    return;
  }
  const lsk_device_info *d = lsk_context_device(ctx);
  lsk_program *prog = NULL;
  lsk_program_options po = check_program_options(c);
  int rc = lsk_program_create(ctx, c->source, &po, &prog);
  char *names = NULL;
  unsigned ldom[3] = {0, 0, 0};
  check_listing_domain(c, ldom);
  lsk_launch lcfg = {
      .domain = {ldom[0], ldom[1], ldom[2]}, .blocks = {1}, .workers = c->workers, .simd = c->simd};
  if (!rc)
    rc = lsk_program_kernel_names(prog, &lcfg, &names);
  if (rc) {
    if (rc == LSK_EDOMAIN)
      check_problem(c, "no block domain to build with: the file declares none; give --domain X");
    else
      check_problem(c, "%s: %s", d->name, lsk_context_errmsg(ctx));
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
    kinfo *k = check_kernel_of(c, name);
    if (!k) {
      check_problem(c, "out of memory");
      break;
    }
    check_resolve_domain(c, k);
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
      check_problem(c, "%s: %s", d->name, lsk_context_errmsg(ctx));
    else
      k->dev_done = 1;
  }
  lsk_free(names);
  lsk_program_destroy(prog);
  lsk_context_destroy(ctx);
}
