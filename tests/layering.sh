#!/bin/sh
# layering.sh SOURCE_DIR OBJECT...: checks that the host library's layers
# depend on each other in one direction only, core -> launch -> soa ->
# algo -> mem (docs/architecture.md), in two ways:
# - symbols: every lsk_/lsk__ symbol an object of host/<layer>/ uses from
#   another object is defined in its own layer or one listed before it
#   (nm on the objects CMake built: what the code really calls);
# - includes: no header under host/ includes, directly or not, one that
#   includes it back, and a source of host/<layer>/ includes only headers
#   of host/, of its own layer or of one before it.
# Prints the layer graph and exits 1 naming every edge that goes the wrong
# way.
set -eu
# One collation for sort and join, whatever the caller's locale.
export LC_ALL=C
src=$1
shift
order="core launch soa algo mem"
rank() { # the layer's position, from a path with host/<layer>/ in it
  n=0
  for l in $order; do
    case $1 in */host/$l/*) echo $n; return ;; esac
    n=$((n + 1))
  done
  echo -1 # generated sources (embedded text): no layer, nothing to check
}
layer_of() {
  for l in $order; do case $1 in */host/$l/*) echo $l; return ;; esac; done
  echo generated
}
tmp=${TMPDIR:-/tmp}/lsk-layering.$$
trap 'rm -f "$tmp".*' EXIT
: >"$tmp.def"
: >"$tmp.use"
for o in "$@"; do
  l=$(layer_of "$o")
  r=$(rank "$o")
  f=$(basename "$o" .c.o)
  nm "$o" | awk -v l="$l" -v r="$r" -v f="$f" -v def="$tmp.def" -v use="$tmp.use" '
    $1 == "U" && $2 ~ /^lsk_/ { print $2, l, r, f >> use }
    NF == 3 && $2 ~ /^[TDRBC]$/ && $3 ~ /^lsk_/ { print $3, l, r, f >> def }'
done
bad=0
# symbol user-layer user-rank user-file <- def-layer def-rank def-file
sort "$tmp.def" >"$tmp.defs"
sort "$tmp.use" | join - "$tmp.defs" >"$tmp.edges"
echo "layer graph (from the symbols each layer uses):"
awk '$2 != $5 { print "  " $2 " -> " $5 }' "$tmp.edges" | sort -u
if awk '$3 >= 0 && $6 > $3 { print "wrong way: " $4 ".c (" $2 ") uses " $1 " of " $7 ".c (" $5 ")"; bad = 1 }
        END { exit bad }' "$tmp.edges"; then :; else bad=1; fi

# Includes of quoted headers under host/.
for f in $(find "$src/host" -path "$src/host/cli" -prune -o \( -name '*.c' -o -name '*.h' \) -print); do
  grep -o '^#include "[^"]*"' "$f" | sed 's/#include "\(.*\)"/\1/' | while read -r h; do
    case $h in lsk/*) continue ;; esac
    found=$(find "$src/host" -path "$src/host/cli" -prune -o -name "$(basename "$h")" -print | head -n1)
    [ -n "$found" ] || continue
    echo "$f $found"
  done
done >"$tmp.inc"
# Cycles: a header reaching itself through the include edges.
if ! awk '
  { out[$1] = out[$1] " " $2 }
  function reach(from, to, seen,   n, k, a) {
    n = split(out[from], a, " ")
    for (k = 1; k <= n; ++k) {
      if (a[k] == to) return 1
      if (!(a[k] in seen)) { seen[a[k]] = 1; if (reach(a[k], to, seen)) return 1 }
    }
    return 0
  }
  END {
    bad = 0
    for (h in out) { delete s; if (h ~ /\.h$/ && reach(h, h, s)) { print "include cycle through " h; bad = 1 } }
    exit bad
  }' "$tmp.inc"; then
  bad=1
fi
while read -r f h; do
  rf=$(rank "$f")
  rh=$(rank "$h")
  if [ "$rf" -ge 0 ] && [ "$rh" -gt "$rf" ]; then
    echo "wrong way: $f includes $h"
    bad=1
  fi
done <"$tmp.inc"
echo "includes checked: $(wc -l <"$tmp.inc") edges"
# The examples are built on the public API: no internal (lsk__) name.
if grep -rn 'lsk__\|LSK__' "$src/examples"; then
  echo "wrong way: the examples use lsk's internals (above)"
  bad=1
fi
[ "$bad" -eq 0 ] && echo "layering: ok"
exit "$bad"
