#!/usr/bin/env bash
# getting_started.sh BUILD_DIR SOURCE_DIR: docs/getting-started.md's
# programs, as a reader would use them (ctest getting_started, label
# install). Installs lsk into a temporary prefix, takes every ```c block of
# the page (each a complete program) and builds it with the page's
# pkg-config line (the rpath variable included, so it runs with no
# LD_LIBRARY_PATH), runs it in a directory of its own; then the page's
# ```cmake block builds the first program through find_package(lsk).
# A block that does not compile, exits non-zero or no longer exists fails.
set -euo pipefail
build=$1 src=$2
page=$src/docs/getting-started.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*/ | head -n1)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
unset LD_LIBRARY_PATH

# Each ```c block to c1.c, c2.c, ...; each ```cmake block to cmake1.txt, ...
awk -v dir="$tmp" '
  /^```c$/ { n++; out = dir "/c" n ".c"; next }
  /^```cmake$/ { m++; out = dir "/cmake" m ".txt"; next }
  /^```/ { out = ""; next }
  out != "" { print > out }
' "$page"
blocks=$(ls "$tmp"/c*.c 2>/dev/null | wc -l)
[ "$blocks" -ge 3 ] || { echo "getting_started.sh: $blocks C blocks in $page (3 expected)"; exit 1; }

for f in "$tmp"/c*.c; do
  name=$(basename "$f" .c)
  echo "== $name: $(head -n1 "$f")"
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/$name" "$f" \
    $(pkg-config --cflags --libs lsk) $(pkg-config --variable=rpath lsk) -lm
  mkdir -p "$tmp/run-$name"
  (cd "$tmp/run-$name" && "$tmp/$name")
done
# The trace the third program writes is JSON a viewer can read.
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); assert t["traceEvents"], "empty"' \
    "$tmp"/run-c3/queues-trace.json
else
  grep -q '"traceEvents": \[' "$tmp"/run-c3/queues-trace.json
fi

echo "== find_package(lsk): the page's CMakeLists.txt"
mkdir -p "$tmp/cm-src"
cp "$tmp/cmake1.txt" "$tmp/cm-src/CMakeLists.txt"
cp "$tmp/c1.c" "$tmp/cm-src/first.c"
cmake -S "$tmp/cm-src" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cm" >/dev/null
"$tmp/cm/first"
echo "getting_started.sh: $blocks programs ok"
