#!/bin/sh
# layering.sh SOURCE_DIR OBJECT...: checks that the host library's layers
# depend on each other in one direction only, core -> launch -> soa ->
# algo -> mem -> sparse (docs/architecture.md), and that each keeps its objects to
# itself:
# - symbols: every lsk_/lsk__ symbol an object of host/<layer>/ uses from
#   another object is defined in its own layer or one listed before it
#   (nm on the objects CMake built: what the code really calls);
# - includes: no header under host/ includes, directly or not, one that
#   includes it back; a file of host/<layer>/ includes public headers
#   (lsk/...), its own layer's headers, and of a layer before it only the
#   layer header, host/<below>/<below>.h: another layer's private headers
#   (the ones with its structs) never; a layer header includes no header of
#   its own layer; host/mpi/ (lsk_mpi, on the public API) and the tests
#   include no private header either;
# - structs: a layer header defines no struct of an object (struct lsk_x),
#   so the structs stay in the private headers and .c files of their
#   layer, and no other layer can read their fields.
# Prints the layer graph and exits 1 naming every edge that goes the wrong
# way. tests/layering_mutants.sh plants a wrong include and a struct in a
# layer header and checks that this script fails on each.
set -eu
# One collation for sort and join, whatever the caller's locale.
export LC_ALL=C
src=$1
shift
order="core launch soa algo mem sparse"
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

# Includes of quoted headers, resolved as the compiler does: beside the
# including file, else from host/ (the include directory of the library
# and of the tests that use its internals). Public headers (lsk/...) and
# system headers are not edges.
layer_dir() { # host/<layer>/ of a path, or what it is instead
  case $1 in
    "$src"/host/mpi/*) echo mpi ;;
    "$src"/host/*/*) l=${1#"$src"/host/}; echo "${l%%/*}" ;;
    "$src"/tests/*) echo tests ;;
    *) echo other ;;
  esac
}
for f in $(find "$src/host" "$src/tests" \( -name '*.c' -o -name '*.h' \)); do
  grep -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "$f" | sed 's/.*"\(.*\)"/\1/' |
    while read -r h; do
      case $h in lsk/*) continue ;; esac
      if [ -f "$(dirname "$f")/$h" ]; then
        found=$(dirname "$f")/$h
      elif [ -f "$src/host/$h" ]; then
        found=$src/host/$h
      else
        continue
      fi
      # host/ headers only: the tests' own headers are not the library's.
      case $found in "$src"/host/*) ;; *) continue ;; esac
      echo "$f $found"
    done
done | sed 's|/\./|/|g' >"$tmp.inc"
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
# Each include against the layers: f of layer L (or mpi, or tests) includes
# h of layer M.
while read -r f h; do
  lf=$(layer_dir "$f")
  lh=$(layer_dir "$h")
  rf=$(rank "$f")
  rh=$(rank "$h")
  is_layer_header=0
  [ "$h" = "$src/host/$lh/$lh.h" ] && is_layer_header=1
  if [ "$lf" = mpi ] || [ "$lh" = mpi ]; then
    if [ "$lf" != "$lh" ]; then
      echo "wrong include: $f includes $h (lsk_mpi is built on the public API only)"
      bad=1
    fi
  elif [ "$lf" = tests ]; then
    if [ "$is_layer_header" -eq 0 ]; then
      echo "wrong include: $f includes $h, a private header of $lh (include $lh/$lh.h)"
      bad=1
    fi
  elif [ "$rf" -lt 0 ]; then
    : # generated sources (embedded text): no layer, nothing to check
  elif [ "$rh" -gt "$rf" ]; then
    echo "wrong way: $f includes $h"
    bad=1
  elif [ "$lh" = "$lf" ]; then
    if [ "$f" = "$src/host/$lf/$lf.h" ]; then
      echo "wrong include: the layer header $f includes $h, a header of its own layer"
      bad=1
    fi
  elif [ "$is_layer_header" -eq 0 ]; then
    echo "wrong include: $f includes $h, a private header of $lh (include $lh/$lh.h)"
    bad=1
  fi
done <"$tmp.inc"
echo "includes checked: $(wc -l <"$tmp.inc") edges"
# Structs of objects (struct lsk_x { ... }) only where their layer alone
# sees them: never in a layer header.
for l in $order; do
  hdr=$src/host/$l/$l.h
  if [ ! -f "$hdr" ]; then
    echo "missing layer header: $hdr"
    bad=1
  elif grep -n '^[[:space:]]*\(typedef[[:space:]]\+\)\?struct[[:space:]]\+lsk_[a-z0-9][a-z0-9_]*[[:space:]]*{' "$hdr"; then
    echo "wrong struct: the layer header $hdr defines an object's struct (above): keep it in a private header of $l"
    bad=1
  fi
done
# The examples are built on the public API: no internal (lsk__) name.
if grep -rn 'lsk__\|LSK__' "$src/examples"; then
  echo "wrong way: the examples use lsk's internals (above)"
  bad=1
fi
[ "$bad" -eq 0 ] && echo "layering: ok"
exit "$bad"
