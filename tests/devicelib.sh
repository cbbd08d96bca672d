#!/usr/bin/env bash
# devicelib.sh SRC: every header of the device library (SRC/cl) compiles on
# its own as OpenCL C 1.2 with -pedantic -Werror (so it includes what it
# uses, and uses no Clang extension: NVIDIA's compiler rejects them), under
# a few lockstep configurations; cl/lsk_shared.h also compiles as C11 (the
# host includes it); every cl/ guard is LSK_CL_<NAME>_H (no clash with
# include/lsk/). Skipped (77) without clang (CLANG overrides it).
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
# The kernel library's files that need no generated prelude, as the host
# builds them (the device library in front), with the same strictness: a
# Clang extension there would fail on NVIDIA as it did (variadic macros).
for k in reduce scan assoc pool; do
  cfg=${configs[0]}
  # shellcheck disable=SC2086
  if ! "$clang" -x cl -cl-std=CL1.2 -fsyntax-only -Xclang -finclude-default-header \
      -target spir64 -I "$src/cl" -include lsk_device.h $cfg -pedantic -Werror \
      "$src/kernels/$k.cl"; then
    echo "FAIL: kernels/$k.cl, with $cfg"
    fail=1
  fi
done
if command -v "$cc" > /dev/null &&
    ! "$cc" -x c -std=c11 -fsyntax-only -Wall -Wextra -pedantic -Werror "$src/cl/lsk_shared.h"; then
  echo "FAIL: cl/lsk_shared.h as C11"
  fail=1
fi
[ $fail = 0 ] && echo "devicelib.sh: $(ls "$src"/cl/*.h | wc -l) headers, ${#configs[@]} configurations, 4 kernel files: ok"
exit $fail
