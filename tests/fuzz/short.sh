#!/bin/sh
# short.sh BINARY SECONDS CORPUS DICT ARTIFACTS: a short libFuzzer run (the
# ctest tests fuzz_<target>). New inputs go to a temporary directory, not
# into the seed corpus; a crashing input is kept in ARTIFACTS and named in
# the output. Fails on any crash, sanitizer report, leak or timeout.
set -eu
bin=$1 secs=$2 corpus=$3 dict=$4 artifacts=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"
set -- -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/$(basename "$bin")-"
[ -f "$dict" ] && set -- "$@" -dict="$dict"
exec "$bin" "$@" "$work" "$corpus"
