#!/bin/sh
# tools_layering.sh SOURCE_DIR: checks how what is not the library
# includes what (docs/architecture.md), from the #include lines:
# - host/ (liblsk) holds nothing of the command, the bench or the
#   examples, and includes none of their headers;
# - tools/common, the bottom of the tools, includes only lsk's public
#   headers and its own;
# - bench/ includes tools/common's headers and its own, never an
#   example's (the cases that run the examples live in
#   examples/<x>/bench_<x>.c);
# - an example's library (examples/<x>/, but its demo*.c, bench_*.c and
#   check_*.c and their headers) includes lsk's public headers and its own folder's alone,
#   so that it builds on its own against an installed lsk;
# - no header of tools/, bench/ or examples/ includes, directly or not, one
#   that includes it back;
# - nothing under tests/ (liblsk's suites and scripts) includes an
#   example's header: an example's tests live in its folder, in its own
#   test binary, and lsk_tests links no example.
# Prints each wrong include and exits 1 if there is one.
#
# tools_layering.sh --mutants SOURCE_DIR: the check can fail: on a copy of
# the tree with example headers included from tests/ (quoted, by a path
# into examples/, and in angle brackets) it must fail naming each, and pass
# on the same copy without them.
set -eu
export LC_ALL=C
if [ "${1:-}" = --mutants ]; then
  src=$2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for d in host tools bench examples tests; do
    cp -R "$src/$d" "$tmp/$d"
  done
  sh "$0" "$tmp" >"$tmp/clean.log" 2>&1 || {
    cat "$tmp/clean.log"
    echo "tools_layering.sh --mutants: the unplanted copy fails"
    exit 1
  }
  plant() { # FILE LINE: LINE goes in front of tests/FILE
    { echo "$2"; cat "$tmp/tests/$1"; } >"$tmp/plant" && mv "$tmp/plant" "$tmp/tests/$1"
  }
  plant core/check_resource.c '#include "pixel.h"'
  plant mem/check_grind_pool.c '#include "../../examples/pic/pic_check.h"'
  plant testutil.h '#include <heat.h>'
  rc=0
  sh "$0" "$tmp" >"$tmp/mutant.log" 2>&1 || rc=$?
  cat "$tmp/mutant.log"
  caught=0
  for want in "tests/core/check_resource.c includes pixel.h" \
    "tests/mem/check_grind_pool.c includes ../../examples/pic/pic_check.h" \
    "tests/testutil.h includes heat.h"; do
    if grep -qF "$want" "$tmp/mutant.log"; then
      caught=$((caught + 1))
    else
      echo "tools_layering.sh --mutants: not reported: $want"
    fi
  done
  if [ "$rc" -eq 1 ] && [ "$caught" -eq 3 ]; then
    echo "tools_layering.sh --mutants: all 3 planted includes of an example's header reported"
    exit 0
  fi
  echo "tools_layering.sh --mutants: exit $rc, $caught of 3 planted includes reported"
  exit 1
fi
src=$1
tmp=${TMPDIR:-/tmp}/lsk-tools-layering.$$
trap 'rm -f "$tmp".*' EXIT
bad=0
wrong() {
  echo "tools_layering.sh: $*"
  bad=1
}
# The quoted includes of a file, one per line.
includes() { sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"; }
# The file of lsk's tree an include names (by its base name, in the tools'
# folders and the examples), or nothing (a public lsk/ header, a
# generated one).
resolve() {
  case $1 in lsk/*) return 0 ;; esac
  find "$src/tools" "$src/bench" "$src/examples" -name "$(basename "$1")" | head -n1
}

[ ! -e "$src/host/cli" ] || wrong "host/cli/ is still there"
names=$(find "$src/tools" "$src/bench" "$src/examples" -name '*.h' -exec basename {} \; | sort -u)
for f in $(find "$src/host" -name '*.c' -o -name '*.h'); do
  for h in $(includes "$f"); do
    if echo "$names" | grep -qx "$(basename "$h")"; then
      wrong "${f#"$src"/} includes $h (not the library's)"
    fi
  done
done

for f in $(find "$src/tools/common" -name '*.c' -o -name '*.h'); do
  for h in $(includes "$f"); do
    r=$(resolve "$h")
    case $r in "" | "$src"/tools/common/*) ;; *) wrong "${f#"$src"/} includes ${r#"$src"/}" ;; esac
  done
done

for f in $(find "$src/bench" -name '*.c' -o -name '*.h'); do
  for h in $(includes "$f"); do
    r=$(resolve "$h")
    case $r in "" | "$src"/bench/* | "$src"/tools/common/*) ;; *) wrong "${f#"$src"/} includes ${r#"$src"/}" ;; esac
  done
done

for d in "$src"/examples/*/; do
  for f in $(find "$d" -name '*.c' -o -name '*.h'); do
    case $(basename "$f") in demo*.c | bench_*.c | check_*.c | *_check.h | *_demo.h | *_suites.h) continue ;; esac
    for h in $(includes "$f"); do
      r=$(resolve "$h")
      case $r in "" | "$d"*) ;; *) wrong "${f#"$src"/} includes ${r#"$src"/} (an example's library)" ;; esac
    done
  done
done

# tests/: no include names an example's header (by its base name; a header
# of tests/ of the same name is tests' own), quoted or in angle brackets,
# nor any path into examples/.
exnames=$(find "$src/examples" -name '*.h' -exec basename {} \; | sort -u)
testnames=$(find "$src/tests" -name '*.h' -exec basename {} \; | sort -u)
for f in $(find "$src/tests" -name '*.c' -o -name '*.h' -o -name '*.cpp'); do
  for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\([^>"]*\)[>"].*/\1/p' "$f"); do
    b=$(basename "$h")
    case $h in
    *examples/*) wrong "${f#"$src"/} includes $h (an example's; its tests live in its folder)" ;;
    *)
      if echo "$exnames" | grep -qx "$b" && ! echo "$testnames" | grep -qx "$b"; then
        wrong "${f#"$src"/} includes $h (an example's; its tests live in its folder)"
      fi
      ;;
    esac
  done
done

# Cycles: every header-to-header edge, through tsort.
: >"$tmp.edges"
for f in $(find "$src/tools" "$src/bench" "$src/examples" -name '*.h'); do
  for h in $(includes "$f"); do
    r=$(resolve "$h")
    [ -n "$r" ] && echo "${f#"$src"/} ${r#"$src"/}" >>"$tmp.edges"
  done
done
if ! tsort "$tmp.edges" >/dev/null 2>"$tmp.cycle"; then
  wrong "an include cycle among the headers:"
  cat "$tmp.cycle"
fi
n=$(wc -l <"$tmp.edges")
[ "$bad" -ne 0 ] || echo "tools_layering.sh: host/ holds and includes none of the tools; tools/common, bench/ and the examples' libraries include only what is below them; $n header includes, no cycle; tests/ includes no example's header"
exit "$bad"
