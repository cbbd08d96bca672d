#!/usr/bin/env bash
# emit_c.sh LSK SRC BUILD: the host C and OpenCL C that `lsk layout` generates
# for docs/examples/hits.layout compile cleanly: the C with -Wall -Wextra
# -Wpedantic -Werror against lsk's headers, the OpenCL C is checked by the
# soa suite's kernels. Also a staggered view (lsk layout --stagger 384): its
# columns 384 bytes further on each, the matrix stride with them.
set -euo pipefail
lsk=$1 src=$2 build=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$lsk" layout "$src/docs/examples/hits.layout" --emit-c > "$tmp/hits.h"
"$lsk" layout "$src/docs/examples/hits.layout" --emit-c --members x,cov --view hxy > "$tmp/hxy.h"
"$lsk" layout "$src/docs/examples/hits.layout" --emit-c --stagger 384 --view hst > "$tmp/hst.h"
cat > "$tmp/use.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hits.h"
#include "hxy.h"
#include "hst.h"
int main(void)
{
  size_t n = 1000;
  void *mem = aligned_alloc(HITS_ALIGN, hits_bytes(n));
  hits_host h;
  hxy_host s;
  cl_float x = 0, c = 0;
  int rc = hits_bind(&h, mem, n) || hxy_bind(&s, mem, n) || hits_set_x(&h, 999, 2.5f) ||
           hits_set_cov(&h, 3, 2, 1, 7.0f) || hxy_get_x(&s, 999, &x) || hxy_get_cov(&s, 3, 2, 1, &c);
  /* A failed checked access names this file and line, the layout and the
   * member. */
  int line = __LINE__, bad = hits_get_x(&h, 1000, &x) != LSK_ERANGE;
  char want[128];
  snprintf(want, sizeof want, "use.c:%d: layout 'hits' member 'x': index 1000 out of range [0, 1000)", line);
  bad = bad || strstr(lsk_context_errmsg(NULL), want) == NULL;
  bad = bad || hits_bind(&h, (char *)mem + 4, n) != LSK_EINVAL;
  /* Staggered, n = 1000 (pointers only: mem is not touched through it): x
   * 4000 -> 4096 + 384 = 4480 bytes, cov's stride 4480 / 4; 16 columns and
   * components (x, y, pos 3, cov 9, amp, module) take the stagger. */
  hst_host t;
  rc = rc || hst_bind(&t, mem, n);
  bad = bad || (char *)t.y - (char *)mem != 4480 || t.lsk_stride_cov != 1120 ||
        hst_bytes(n) != hits_bytes(n) + 16 * 384 || HST_STAGGER != 384;
  /* The const view (views: docs/soa.md): the same memory through const
   * pointers, getters only; x[999] = 2.5 and cov(3; 2, 1) = 7 from above. */
  hits_const_host k = hits_as_const(&h), k2;
  cl_float kx = 0, kc = 0;
  rc = rc || hits_bind_const(&k2, (const void *)mem, n) || hits_const_get_x(&k2, 999, &kx) ||
       hits_const_get_cov(&k, 3, 2, 1, &kc);
  bad = bad || k2.x != h.x || kx != 2.5f || kc != 7.0f || hits_const_get_x(&k, n, &kx) != LSK_ERANGE;
  free(mem);
  return rc || bad || x != 2.5f || c != 7.0f;
}
C
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$src/include" -I"$build/include" -I"$tmp" \
  -o "$tmp/use" "$tmp/use.c" "$build/liblsk.a" -lOpenCL
"$tmp/use"
echo "emit_c.sh: generated host C compiles and works"
