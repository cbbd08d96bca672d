#!/usr/bin/env bash
# public_headers.sh SRC BUILD [MPI_INCLUDE_DIR...]: every public header
# (SRC/include/lsk/*.h and the generated BUILD/include/lsk/*.h) compiles on
# its own, -Wall -Wextra -pedantic -Werror, as C11 and as C++11 (the first
# C++ compiler found: CXX, g++, clang++); lsk.h (which includes them all)
# and mpi.h as C++11, C++14, C++17 and C++20 with each C++ compiler found;
# context.h and lsk.h also as C11 and C++11 with a
# CL_TARGET_OPENCL_VERSION of the user's own (100, 300), which lsk must
# keep, not redefine. Then
# tests/consumer/iota.cpp (the argument macros, SoA views, every kind of
# argument) compiles in each C++ standard. mpi.h needs the MPI include
# directories (lsk_mpi built); without them it is left out, said so.
# Skipped (77) without any C++ compiler.
set -euo pipefail
src=$1 build=$2
shift 2
mpi_flags=()
for d in "$@"; do mpi_flags+=(-isystem "$d"); done
cc=${CC:-cc}
cxxs=()
for c in ${CXX:-} g++ clang++; do
  if command -v "$c" >/dev/null && [[ " ${cxxs[*]:-} " != *" $c "* ]]; then cxxs+=("$c"); fi
done
if [ ${#cxxs[@]} -eq 0 ]; then
  echo "public_headers.sh: no C++ compiler: skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
warn=(-Wall -Wextra -pedantic -Werror -fsyntax-only -I "$src/include" -I "$build/include")

# One line per compile: compiler, language flags, header.
jobs=$tmp/jobs
: >"$jobs"
for h in "$src"/include/lsk/*.h "$build"/include/lsk/*.h; do
  name=$(basename "$h")
  if [ "$name" = mpi.h ] && [ ${#mpi_flags[@]} -eq 0 ]; then
    echo "note: lsk/mpi.h left out (no MPI include directories: lsk_mpi not built)"
    continue
  fi
  echo "$cc|-x c -std=c11|$name" >>"$jobs"
  # Alone: C++11 with the first C++ compiler; every standard and compiler
  # through lsk.h (all headers) and iota.cpp below, so that the test stays
  # cheap in CI (each compile costs about a third of a second).
  echo "${cxxs[0]}|-x c++ -std=c++11|$name" >>"$jobs"
done
for cxx in "${cxxs[@]}"; do
  for std in 11 14 17 20; do
    echo "$cxx|-x c++ -std=c++$std|lsk.h" >>"$jobs"
    [ ${#mpi_flags[@]} -eq 0 ] || echo "$cxx|-x c++ -std=c++$std|mpi.h" >>"$jobs"
  done
done
# The user's own OpenCL version, where lsk's headers meet it (context.h,
# and lsk.h with all of them).
for name in context.h lsk.h; do
  for v in 100 300; do
    echo "$cc|-x c -std=c11 -DCL_TARGET_OPENCL_VERSION=$v|$name" >>"$jobs"
    for cxx in "${cxxs[@]}"; do
      echo "$cxx|-x c++ -std=c++11 -DCL_TARGET_OPENCL_VERSION=$v|$name" >>"$jobs"
    done
  done
done

fail=0
n=0
while IFS='|' read -r comp lang name; do
  n=$((n + 1))
  printf '#include <lsk/%s>\n' "$name" >"$tmp/alone.$n"
  # shellcheck disable=SC2086
  if ! "$comp" $lang "${warn[@]}" "${mpi_flags[@]}" "$tmp/alone.$n" 2>"$tmp/err"; then
    echo "FAIL: lsk/$name alone: $comp $lang"
    sed 's/^/  /' "$tmp/err" | head -n 20
    fail=1
  fi
done <"$jobs"
echo "$n compiles of single headers"

for cxx in "${cxxs[@]}"; do
  for std in 11 14 17 20; do
    if ! "$cxx" -std=c++$std "${warn[@]}" "$src/tests/consumer/iota.cpp" 2>"$tmp/err"; then
      echo "FAIL: tests/consumer/iota.cpp: $cxx -std=c++$std"
      sed 's/^/  /' "$tmp/err" | head -n 20
      fail=1
    fi
  done
done
[ $fail -eq 0 ] && echo "public headers: all compile as C11 and as C++11, 14, 17, 20 (${cxxs[*]})"
exit $fail
