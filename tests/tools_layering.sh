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
#   that includes it back.
# Prints each wrong include and exits 1 if there is one.
set -eu
export LC_ALL=C
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
[ "$bad" -ne 0 ] || echo "tools_layering.sh: host/ holds and includes none of the tools; tools/common, bench/ and the examples' libraries include only what is below them; $n header includes, no cycle"
exit "$bad"
