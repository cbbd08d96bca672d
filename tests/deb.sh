#!/usr/bin/env bash
# deb.sh BUILD_DIR SOURCE_DIR: the Debian package (ctest install_deb, label
# install). cpack -G DEB makes it from the build, dpkg -i installs it into
# /usr, and tests/consumer/iota.c is built against it through pkg-config
# and find_package(lsk) with no path given (the system's own), and run with
# no LD_LIBRARY_PATH; /usr/bin/lsk is the package's command. The package
# is removed again at the end. Needs root (CI runs as root on Debian 12):
# skipped (77) otherwise, or where dpkg or cpack is missing, or where a
# package named lsk is installed already (it is not replaced).
set -euo pipefail
build=$1 src=$2
[ "$(id -u)" = 0 ] || { echo "deb.sh: not root: dpkg -i needs root; skipped"; exit 77; }
command -v dpkg >/dev/null && command -v cpack >/dev/null ||
  { echo "deb.sh: no dpkg or cpack: skipped"; exit 77; }
if dpkg-query -W -f='${Status}' lsk 2>/dev/null | grep 'install ok installed' >/dev/null; then
  echo "deb.sh: a package lsk is installed already; not replaced: skipped"
  exit 77
fi
tmp=$(mktemp -d)
installed=0
cleanup() {
  [ $installed = 1 ] && dpkg -r lsk >/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "== cpack -G DEB"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >/dev/null
deb=$(ls "$tmp"/pkg/lsk_*.deb)
dpkg-deb -f "$deb" Depends | grep 'ocl-icd-libopencl1' >/dev/null ||
  { echo "deb.sh: the package does not depend on ocl-icd-libopencl1"; exit 1; }
version=$(dpkg-deb -f "$deb" Version)

echo "== dpkg -i $(basename "$deb")"
installed=1
dpkg -i "$deb" >/dev/null

unset LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH
echo "== pkg-config lsk from /usr"
[ "$(pkg-config --modversion lsk)" = "$version" ] ||
  { echo "deb.sh: pkg-config's lsk is $(pkg-config --modversion lsk), the package $version"; exit 1; }
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/iota" "$src/tests/consumer/iota.c" \
  $(pkg-config --cflags --libs lsk)
"$tmp/iota"
echo "== find_package(lsk) from /usr"
cmake -S "$src/tests/consumer" -B "$tmp/cm" >/dev/null
cmake --build "$tmp/cm" --target iota >/dev/null
"$tmp/cm/iota"
grep -q "/usr/lib/liblsk.so" "$tmp/cm/CMakeCache.txt" "$tmp/cm"/CMakeFiles/iota.dir/link.txt ||
  { echo "deb.sh: the CMake build did not link /usr/lib/liblsk.so"; exit 1; }
echo "== /usr/bin/lsk"
/usr/bin/lsk --version | grep -F "lsk $version" || { echo "deb.sh: /usr/bin/lsk is not $version"; exit 1; }
echo "deb.sh: ok"
