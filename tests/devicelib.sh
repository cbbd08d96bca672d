#!/usr/bin/env bash
# devicelib.sh SRC: every header of the device library (SRC/cl) compiles on
# its own as OpenCL C 1.2 with -pedantic -Werror (so it includes what it
# uses, and uses no Clang extension: NVIDIA's compiler rejects them), under
# a few lockstep configurations; cl/lsk_shared.h also compiles as C11 (the
# host includes it); every cl/ guard is LSK_CL_<NAME>_H (no clash with
# include/lsk/). Templates (cl/lsk_*_t.h: no guard, parameters defined by
# their includer) compile through the headers that include them. Then
# every build of the kernel library's files that need no generated prelude
# (a family written once over a type lists its builds on its line
# "lsk-builds: NAME=v1,v2 ...", the product of the lists), and
# tests/nvptx/recipes has a line for each of those builds. Skipped (77)
# without clang (CLANG overrides it).
set -euo pipefail
src=$1
clang=${CLANG:-clang}
if ! command -v "$clang" > /dev/null; then
  echo "devicelib.sh: no $clang: skipped"
  exit 77
fi
cc=${CC:-cc}
fail=0
configs=("-DLSK_WORKERS=64 -DLSK_SIMD=1 -DLSK_DOMAIN_SIZE=64 -DLSK_DOMAIN_X=64 -DLSK_DOMAIN_Y=1 -DLSK_DOMAIN_Z=1"
         "-DLSK_WORKERS=1 -DLSK_SIMD=4 -DLSK_DOMAIN_SIZE=256 -DLSK_DOMAIN_X=16 -DLSK_DOMAIN_Y=16 -DLSK_DOMAIN_Z=1"
         "-DLSK_WORKERS=32 -DLSK_SIMD=2 -DLSK_DOMAIN_SIZE=1000 -Dcl_khr_fp64 -Dcl_khr_int64_base_atomics")
for h in "$src"/cl/*.h; do
  name=$(basename "$h" .h)
  [[ $name == *_t ]] && continue
  guard=LSK_CL_$(echo "${name#lsk_}" | tr '[:lower:]' '[:upper:]')_H
  if ! grep -q "^#ifndef $guard\$" "$h" || ! grep -q "^#define $guard\$" "$h"; then
    echo "FAIL: cl/$name.h: its include guard is not $guard"
    fail=1
  fi
  for cfg in "${configs[@]}"; do
    # shellcheck disable=SC2086
    if ! "$clang" -x cl -cl-std=CL1.2 -fsyntax-only -Xclang -finclude-default-header \
        -target spir64 -I "$src/cl" $cfg -pedantic -Werror "$h"; then
      echo "FAIL: cl/$name.h alone, with $cfg"
      fail=1
    fi
  done
done
# The builds of a kernel file: one line of -D options per build (an empty
# line for a file built once), from its "lsk-builds:" line.
builds() {
  local spec axis name vals v out=("")
  spec=$(sed -n 's/^ \* lsk-builds: //p' "$1")
  for axis in $spec; do
    name=${axis%%=*} vals=${axis#*=}
    local next=()
    for o in "${out[@]}"; do
      for v in ${vals//,/ }; do next+=("$o -D $name=$v"); done
    done
    out=("${next[@]}")
  done
  printf '%s\n' "${out[@]}"
}
# The kernel library's files that need no generated prelude (all but
# compact.cl and sparse.cl: tests/nvptx/recipes builds those behind one),
# as the host builds them (the device library in front), with
# the same strictness: a Clang extension there would fail on NVIDIA as it
# did (variadic macros).
nk=0
for f in "$src"/kernels/*.cl; do
  k=$(basename "$f" .cl)
  [ "$k" = compact ] || [ "$k" = sparse ] && continue
  while IFS= read -r defs; do
    cfg="${configs[0]} -Dcl_khr_fp64$defs"
    nk=$((nk + 1))
    # shellcheck disable=SC2086
    if ! "$clang" -x cl -cl-std=CL1.2 -fsyntax-only -Xclang -finclude-default-header \
        -target spir64 -I "$src/cl" -include lsk_device.h $cfg -pedantic -Werror "$f"; then
      echo "FAIL: kernels/$k.cl, with $cfg"
      fail=1
    fi
    # The NVPTX check compiles each build: a recipe line for the file
    # with each of the build's -D options.
    if [ -n "$defs" ]; then
      pat="^kernels/$k.cl "
      # shellcheck disable=SC2086
      set -- $defs
      line=$({ grep -E "$pat" "$src/tests/nvptx/recipes" || true; } | while IFS= read -r r; do
        ok=1
        for ((i = 2; i <= $#; i += 2)); do
          [[ " $r " == *" -D ${!i} "* ]] || ok=0
        done
        if [ $ok = 1 ]; then echo "$r"; fi
      done)
      if [ -z "$line" ]; then
        echo "FAIL: tests/nvptx/recipes has no line for kernels/$k.cl with$defs"
        fail=1
      fi
    fi
  done < <(builds "$f")
done
if command -v "$cc" > /dev/null &&
    ! "$cc" -x c -std=c11 -fsyntax-only -Wall -Wextra -pedantic -Werror "$src/cl/lsk_shared.h"; then
  echo "FAIL: cl/lsk_shared.h as C11"
  fail=1
fi
[ $fail = 0 ] && echo "devicelib.sh: $(ls "$src"/cl/*.h | wc -l) headers, ${#configs[@]} configurations, $nk kernel builds: ok"
exit $fail
