#!/usr/bin/env bash
# oclgrind_coverage.sh SOURCE_DIR KERNELS_FILE...: fail unless every kernel
# that lsk ships (kernels/*.cl with every build of the families built per
# type, the examples' kernels) ran at least once under the oclgrind tests,
# and every reduce and scan kernel ran both its vload8 path and its scalar
# one. The files are the oclgrind tests' own records (tests/oclgrind.sh,
# LSK_GRIND_COUNTS: a line "NAME vector|scalar" per kernel invocation,
# from oclgrind's instruction counter), written while they ran their
# checks: ctest runs them first (fixture lsk_grind_kernels), so the suites
# run under oclgrind once. Prints the kernels run and how many times. CC
# (default cc) preprocesses the families built per type to name their
# kernels.
set -u
src=$1
shift
want=$(mktemp) ran=$(mktemp)
trap 'rm -f "$want" "$ran"' EXIT
for f in "$@"; do
  if [ ! -f "$f" ]; then
    echo "oclgrind_coverage.sh: no record $f: its oclgrind test did not pass"
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
cat "$@" | sort | uniq -c >"$ran"
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
