#!/usr/bin/env bash
# run.sh TARGET SECONDS: a libFuzzer campaign on one of lsk's parsers.
#
#   tests/fuzz/run.sh layout 600        # layout | selector | pixel_file | cache_entry | tune_file | sparse_def
#
# Builds tests/fuzz as its own project with clang (ASan+UBSan, coverage)
# in $FUZZ_BUILD (default: build-fuzz), starts from the seed corpus
# corpus/TARGET of the target's folder (tests/fuzz, or examples/<x>/fuzz
# for an example's: pixel_file), and keeps what it finds in
# $FUZZ_BUILD/work/TARGET (the seed corpus is only read). A crashing input
# lands in $FUZZ_BUILD/artifacts/. MERGE=1 afterwards merges the new
# coverage into the seed corpus (-merge=1 keeps the smallest inputs that
# cover it). Extra libFuzzer flags: FUZZ_FLAGS (e.g. "-jobs=2 -workers=2").
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: tests/fuzz/run.sh layout|selector|pixel_file|cache_entry|tune_file|sparse_def SECONDS" >&2
  exit 2
fi
target=$1 secs=$2
here=$(cd "$(dirname "$0")" && pwd)
build=${FUZZ_BUILD:-$here/../../build-fuzz}
clang=${CLANG:-$(command -v clang-15 || command -v clang || true)}
if [ -z "$clang" ]; then
  echo "run.sh: no clang found (apt-get install clang-15)" >&2
  exit 1
fi
# The target's folder: lsk's own, or an example's.
dir=
for d in "$here" "$here"/../../examples/*/fuzz; do
  [ -f "$d/fuzz_$target.c" ] && dir=$(cd "$d" && pwd)
done
[ -n "$dir" ] || { echo "run.sh: no target '$target'" >&2; exit 2; }
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target "fuzz_$target" -j "$(nproc)" >/dev/null
work=$build/work/$target
mkdir -p "$work" "$build/artifacts"
flags=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
       -artifact_prefix="$build/artifacts/fuzz_$target-")
[ -f "$dir/$target.dict" ] && flags+=(-dict="$dir/$target.dict")
# shellcheck disable=SC2086
LSK_DEVICE='' "$build/fuzz_$target" "${flags[@]}" ${FUZZ_FLAGS:-} "$work" "$dir/corpus/$target"
if [ "${MERGE:-0}" = 1 ]; then
  LSK_DEVICE='' "$build/fuzz_$target" -merge=1 "$dir/corpus/$target" "$work"
fi
