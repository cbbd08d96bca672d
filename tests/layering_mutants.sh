#!/bin/sh
# layering_mutants.sh SOURCE_DIR: tests/layering.sh must catch what it is
# for. Each mutant is planted in a copy of the tree (host/, tests/,
# examples/), and layering.sh, run on that copy's includes, must fail with
# the message that names it; the unchanged copy must pass. Exits 1 naming
# every mutant that went through.
set -eu
src=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lsk-mutants.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0

fresh() {
  rm -rf "$tmp/tree"
  mkdir "$tmp/tree"
  cp -R "$src/host" "$src/tests" "$src/examples" "$tmp/tree/"
}
# plant FILE LINE: LINE goes after FILE's first #include.
plant() {
  awk -v line="$2" '{ print } !done && /^#include/ { print line; done = 1 }' "$tmp/tree/$1" \
    >"$tmp/planted"
  mv "$tmp/planted" "$tmp/tree/$1"
}
# expect WHAT PATTERN: layering.sh fails on the tree, saying PATTERN.
expect() {
  if sh "$src/tests/layering.sh" "$tmp/tree" >"$tmp/out" 2>&1; then
    echo "NOT CAUGHT: $1"
    bad=1
  elif grep -q "$2" "$tmp/out"; then
    echo "caught: $1"
  else
    echo "CAUGHT, BUT NOT AS '$2': $1"
    cat "$tmp/out"
    bad=1
  fi
}

fresh
if ! sh "$src/tests/layering.sh" "$tmp/tree" >"$tmp/out" 2>&1; then
  echo "the unchanged tree fails:"
  cat "$tmp/out"
  exit 1
fi

# An algorithm reads a context's fields: it must include the core's
# private header to compile.
fresh
plant host/algo/sort.c '#include "core/objects.h"'
printf 'size_t planted(const lsk_context *c) { return c->info.max_alloc_size; }\n' \
  >>"$tmp/tree/host/algo/sort.c"
expect "algo/sort.c reads lsk_context's fields through core/objects.h" \
  'private header of core'

# The same through the layer header: the struct moved into core.h.
fresh
printf 'struct lsk_context {\n  int planted;\n};\n' >>"$tmp/tree/host/core/core.h"
expect "core/core.h defines struct lsk_context" 'wrong struct'

# A launch file takes the kernel library's header (a later layer).
fresh
plant host/launch/enqueue.c '#include "algo/algo.h"'
expect "launch/enqueue.c includes algo/algo.h" 'wrong way'

# A layer header brings in its own layer's private header.
fresh
plant host/soa/soa.h '#include "soa/layout.h"'
expect "soa/soa.h includes soa/layout.h" 'layer header'

# A test of internals takes a private header instead of the layer's.
fresh
plant tests/core/check_cache.c '#include "core/build.h"'
expect "tests/core/check_cache.c includes core/build.h" 'private header of core'

# lsk_mpi, on the public API, takes a layer header.
fresh
plant host/mpi/mpi.c '#include "core/core.h"'
expect "mpi/mpi.c includes core/core.h" 'public API only'

exit "$bad"
