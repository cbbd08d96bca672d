/*
 * check_ptx_test.c: sass_ldst (check_ptx.c) on SASS text with counts worked
 * by hand (ctest check_sass_parse; no CUDA tools needed): the study's four
 * kernels (tests/nvptx/study.cl) as cuobjdump -sass and nvdisasm printed
 * them (tests/nvptx/study.sass, study.nvdisasm, from ptxas 13.0 for sm_90),
 * and a written sample of what must not count.
 * Usage: lsk_check_ptx_test SOURCE_DIR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_ptx.h"

static int failures;

static char *slurp(const char *dir, const char *name)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/nvptx/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("FAIL: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
    printf("FAIL: cannot read %s\n", path);
    exit(1);
  }
  s[n] = 0;
  fclose(f);
  return s;
}

/* Expects sass_ldst(text, name) to give rc and the four counts. */
static void expect(const char *what, const char *text, const char *name, int rc, unsigned ld128,
                   unsigned st128, unsigned ld64, unsigned st64)
{
  check_ldst k;
  int got = sass_ldst(text, name, &k);
  if (got != rc || k.ld128 != ld128 || k.st128 != st128 || k.ld64 != ld64 || k.st64 != st64) {
    printf("FAIL: %s %s: rc %d, ld/st 128 %u/%u, 64 %u/%u; expected rc %d, %u/%u, %u/%u\n", what,
           name, got, k.ld128, k.st128, k.ld64, k.st64, rc, ld128, st128, ld64, st64);
    ++failures;
  } else
    printf("ok: %s %s: ld/st 128 %u/%u, 64 %u/%u\n", what, name, ld128, st128, ld64, st64);
}

/* A written sample: only global LDG/STG of 16 and 8 bytes count. */
static const char sample[] =
    "\t\tFunction : k\n"
    "        /*0000*/                   ULDC.64 UR4, c[0x0][0x208] ;      /* 0x0000820000047ab9 "
    "*/\n"
    "                                                                     /* 0x000fe20000000a00 "
    "*/\n"
    "        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;\n"
    "        /*0020*/                   LDS.128 R4, [R0] ;\n"
    "        /*0030*/                   LD.E.128 R8, desc[UR4][R2.64] ;\n"
    "        /*0040*/                   ST.E.64 desc[UR4][R2.64], R8 ;\n"
    "        /*0050*/              @!PT LDG.E.128.SYS R8, desc[UR4][R2.64] ;\n"
    "        /*0060*/              @P1 STG.E.64 desc[UR4][R2.64], R8 ;\n"
    "        /*0070*/                   LDG.E.U8 R9, desc[UR4][R2.64] ;\n"
    "        /*0080*/                   LDG.E R9, desc[UR4][R2.64] ;\n"
    "        /*0090*/                   STG.E.128 desc[UR4][R2.64+0x10], R4 ;\n"
    "        /*00a0*/                   LDG.E.64.CONSTANT R10, desc[UR4][R2.64] ;\n"
    "        /*00b0*/                   RED.E.ADD.F64.RN.STRONG.GPU desc[UR4][R2.64], R10 ;\n"
    "        /*00c0*/                   EXIT ;\n"
    "\t\tFunction : k2\n"
    "        /*0000*/                   STG.E.128 desc[UR4][R2.64], R4 ;\n";

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s SOURCE_DIR\n", argv[0]);
    return 2;
  }
  /* The listings, counted by hand: aos16 and soa16 three LDG.E.128 (aos16's
   * .CONSTANT, all three predicated @!P0) and one STG.E.128; aos8 six
   * LDG.E.64.CONSTANT and two STG.E.64, soa8 six LDG.E.64 and two STG.E.64. */
  const char *files[] = {"study.sass", "study.nvdisasm"};
  for (int f = 0; f < 2; ++f) {
    char *s = slurp(argv[1], files[f]);
    expect(files[f], s, "aos16", 0, 3, 1, 0, 0);
    expect(files[f], s, "soa16", 0, 3, 1, 0, 0);
    expect(files[f], s, "aos8", 0, 0, 0, 6, 2);
    expect(files[f], s, "soa8", 0, 0, 0, 6, 2);
    expect(files[f], s, "soa", -1, 0, 0, 0, 0);
    expect(files[f], s, "soa1", -1, 0, 0, 0, 0);
    free(s);
  }
  /* The sample: LDG.E.128.SYS under a predicate and STG.E.128; STG.E.64
   * under @P1 and LDG.E.64.CONSTANT; not ULDC.64, LDC.64, LDS.128, the
   * generic LD/ST, LDG.E.U8, the 32-bit LDG.E, RED's .F64, nor k2's. */
  expect("sample", sample, "k", 0, 1, 1, 1, 1);
  expect("sample", sample, "k2", 0, 0, 1, 0, 0);
  printf("%s\n", failures ? "check_ptx_test: FAILED" : "check_ptx_test: ok");
  return failures ? 1 : 0;
}
