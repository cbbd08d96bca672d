#!/bin/sh
# kernel_census.sh: instructions executed by each kernel of an `lsk bench`
# run on PoCL's CPU device, and by named host functions (the C references),
# counted by valgrind's callgrind. The counts do not depend on the load of
# the machine, so two builds can be compared where timings are too noisy
# (docs/perf/README.md, "Instruction counts"); they say nothing of memory
# stalls, so a row that waits on memory needs its timings too.
#
#   docs/tools/kernel_census.sh LSK [FUNCTION ...] -- [lsk bench options]
#
# LSK is the lsk binary (build/tools/lsk/lsk); each FUNCTION is a host
# function counted beside the kernels (c_churn, sparse_ref_round; the
# binary must keep its symbols: the RelWithDebInfo build does). Example:
#
#   docs/tools/kernel_census.sh build/tools/lsk/lsk c_churn -- --only pool --repeat 1
#
# Prints, per kernel, the instructions and the calls of its work-group
# function (PoCL runs one call per work-group: divide by the launch's
# blocks for launches), largest first. The bench runs once before, without
# valgrind, so that PoCL's kernel cache holds every build (a compile under
# valgrind would take minutes); set POCL_CACHE_DIR alike for both runs if
# it is not the default. Needs valgrind (apt-get install valgrind).
set -eu
[ $# -ge 1 ] || {
  echo "usage: $0 LSK [FUNCTION ...] -- [lsk bench options]" >&2
  exit 2
}
lsk=$1
shift
toggles="--toggle-collect=_pocl_kernel_*"
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  toggles="$toggles --toggle-collect=$1"
  shift
done
[ $# -gt 0 ] && shift
command -v valgrind >/dev/null || {
  echo "$0: valgrind not found (apt-get install valgrind)" >&2
  exit 1
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$lsk" bench "$@" >"$out/warm.txt" 2>&1 || {
  cat "$out/warm.txt" >&2
  exit 1
}
# shellcheck disable=SC2086 # toggles is a list of options
valgrind --tool=callgrind --callgrind-out-file="$out/cg" $toggles "$lsk" bench "$@" \
  >"$out/run.txt" 2>&1 || {
  tail -20 "$out/run.txt" >&2
  exit 1
}
# Self cost per function (the counted ones only have cost) and the calls
# made to each, from callgrind's own file: "fn=(id) name" names a function
# once, "calls=N ..." precedes a call's line, "cfn=" names its callee.
awk '
  /^c?fn=\(/ {
    id = $1; sub(/^c?fn=/, "", id)
    if (NF > 1) { name = $0; sub(/^[^ ]* /, "", name); names[id] = name }
    if ($0 ~ /^fn=/) { cur = id; incall = 0 } else callee = id
    next
  }
  /^calls=/ { split($1, c, "="); calls[callee] += c[2]; incall = 1; next }
  /^[0-9+*-]/ {
    if (incall) { incall = 0; next }
    self[cur] += $NF
  }
  END {
    for (id in self)
      if (self[id] >= 1000) { # skips the dynamic loader, a few hundred
        n = names[id]; sub(/^_pocl_kernel_/, "", n); sub(/_workgroup$/, "", n)
        printf "%15.0f %10d  %s\n", self[id], calls[id], n
      }
  }' "$out/cg" | sort -rn | awk 'BEGIN { printf "%15s %10s  %s\n", "instructions", "calls", "kernel or function" } { print }'
