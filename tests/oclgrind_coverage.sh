#!/usr/bin/env bash
# oclgrind_coverage.sh OCLGRIND SOURCE_DIR [NAME=VALUE...] TESTS SUITE... [-- ...]...:
# run the oclgrind suites (per test binary TESTS: lsk_tests and the
# examples' lsk_<x>_tests, "--" between) under oclgrind's instruction
# counter (no checks: the oclgrind_* tests do those) and fail unless every
# kernel that lsk ships (kernels/*.cl with every build of the families
# built per type, the examples' kernels) ran at least once, and every
# reduce and scan kernel ran both its vload8 path and its scalar one.
# Prints the kernels run and how many times. CC (default cc) preprocesses
# the families built per type to name their kernels.
set -u
oclgrind=$1 src=$2
shift 2
out=$(mktemp) one=$(mktemp) want=$(mktemp) ran=$(mktemp)
trap 'rm -f "$out" "$one" "$want" "$ran"' EXIT
# One worker thread: the run aborted twice (SIGABRT, under heavy load) with
# oclgrind's default of one per core; the instruction counter is the one
# plugin that only this test uses, and the counts need no parallelism.
# A run may start with NAME=VALUE words: its environment (LSK_SHAPES=nvidia:
# the GPU kernels of the families that choose a CPU path on oclgrind).
while [ $# -gt 0 ]; do
  run=() vars=()
  while [ $# -gt 0 ] && [[ "$1" =~ ^[A-Z_]+= ]]; do
    vars+=("$1")
    shift
  done
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    run+=("$1")
    shift
  done
  [ $# -gt 0 ] && shift # the --
  env "${vars[@]}" CK_FORK=no LSK_LEDGER=0 LSK_DEVICE='' "$oclgrind" --num-threads 1 --inst-counts \
    "${run[@]}" >"$one" 2>&1
  rc=$?
  cat "$one" >>"$out"
  if [ "$rc" -ne 0 ]; then
    cat "$one"
    echo "oclgrind_coverage.sh: the suites failed under oclgrind (exit $rc): ${run[*]}"
    exit 1
  fi
done
# The kernels lsk ships (its kernel library and its examples): plain
# LSK_KERNEL definitions, and the kernels of every build of a family
# written once over a type (the builds of its "lsk-builds:" line, the
# product of the lists; the names from the preprocessor, with the device
# library in front as the host puts it).
builds() {
  local spec axis name vals v out=("")
  spec=$(sed -n 's/^ \* lsk-builds: //p' "$1")
  [ -n "$spec" ] || return 0
  for axis in $spec; do
    name=${axis%%=*} vals=${axis#*=}
    local next=()
    for o in "${out[@]}"; do
      for v in ${vals//,/ }; do next+=("$o -D$name=$v"); done
    done
    out=("${next[@]}")
  done
  printf '%s\n' "${out[@]}"
}
{
  sed -nE 's/^LSK_KERNEL void ([a-z_0-9]+)\(.*/\1/p' "$src"/kernels/*.cl "$src"/examples/*/*.cl
  for f in "$src"/kernels/*.cl; do
    builds "$f" | while IFS= read -r defs; do
      # shellcheck disable=SC2086
      ${CC:-cc} -E -P -x c -I "$src/cl" -include lsk_device.h -DLSK_WORKERS=1 -DLSK_SIMD=1 \
        -DLSK_DOMAIN_SIZE=1 -Dcl_khr_fp64 -Dcl_khr_int64_base_atomics $defs "$f" |
        grep -oE '__kernel __attribute__\(\(reqd_work_group_size\([^)]*\)\)\) void [a-z_0-9]+' |
        sed 's/.* //'
    done
  done
} | sort -u >"$want"
# Each invocation's counts start with its kernel's name; the vector path
# is the one that calls vload8.
awk -F"'" '/^Instructions executed for kernel/ { if (k != "") print k, v; k = $2; v = "scalar"; next }
           /call _Z6vload8/ { v = "vector" }
           END { if (k != "") print k, v }' "$out" | sort | uniq -c >"$ran"
echo "oclgrind_coverage.sh: kernel invocations (count, kernel, path):"
cat "$ran"
missing=0
while read -r k; do
  case $k in
  lsk_reduce_* | lsk_scan_*) paths="scalar vector" ;;
  *) paths="" ;;
  esac
  if ! grep -qE " $k (scalar|vector)\$" "$ran"; then
    echo "oclgrind_coverage.sh: kernel $k never ran"
    missing=$((missing + 1))
    continue
  fi
  for p in $paths; do
    if ! grep -qE " $k $p\$" "$ran"; then
      echo "oclgrind_coverage.sh: kernel $k never ran its $p path"
      missing=$((missing + 1))
    fi
  done
done <"$want"
n=$(wc -l <"$want")
if [ "$missing" -ne 0 ]; then
  echo "oclgrind_coverage.sh: $missing of the $n shipped kernels (or their paths) not run"
  exit 1
fi
echo "oclgrind_coverage.sh: all $n shipped kernels ran (reduce and scan: both paths)"
