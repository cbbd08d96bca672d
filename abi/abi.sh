#!/usr/bin/env bash
# abi.sh: liblsk's and lsk_mpi's ABI, recorded and guarded with Debian's
# abigail-tools (abidw, abidiff). docs/architecture.md, "The ABI".
#
#   abi/abi.sh record BUILD_DIR   write abi/liblsk.abi and abi/liblsk_mpi.abi
#                                 from BUILD_DIR's libraries (a -g build:
#                                 RelWithDebInfo or Debug); the same as
#                                 `cmake --build BUILD_DIR --target abi_record`
#   abi/abi.sh check BUILD_DIR    compare BUILD_DIR's libraries with the
#                                 record (ctest abi_check)
#   abi/abi.sh mutant BUILD_DIR   build liblsk alone from a copy of the tree
#                                 with a field inserted into the public
#                                 lsk_launch; require `check` to fail on it,
#                                 and to pass it against a record of the
#                                 major version before (ctest abi_mutant)
#
# Only the public types count: abidw and abidiff are given the public
# headers (include/lsk and the generated version.h, shared.h) and drop
# every type not defined there. check fails on any change to the recorded
# functions, variables or public types (abidiff's exit bits 4 or 8, added
# symbols aside) unless the library's SONAME changed, i.e. the project's
# major version was raised (CMakeLists.txt's project(VERSION): SOVERSION
# is the major). Additions pass, with a note to re-record. Exit 77 (ctest:
# skipped) where abidw is not installed.
set -euo pipefail
mode=${1:-} build=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
usage() { sed -n '2,/^set -euo/p' "$0" | grep '^#'; exit 2; }
[ -n "$mode" ] && [ -d "$build" ] || usage
build=$(cd "$build" && pwd)
command -v abidw >/dev/null && command -v abidiff >/dev/null ||
  { echo "abi.sh: abidw/abidiff not found (apt-get install abigail-tools): skipped"; exit 77; }

# The libraries: name, then the built file (lsk_mpi only where it was built).
libs() {
  echo liblsk "$build/liblsk.so"
  [ -e "$build/liblsk_mpi.so" ] && echo liblsk_mpi "$build/liblsk_mpi.so"
  return 0
}

soname() { readelf -d "$1" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p'; }

record() {
  libs | while read -r name so; do
    readelf -S "$so" | grep '\.debug_info' >/dev/null ||
      { echo "abi.sh: $so has no debug info: record from a -g build (RelWithDebInfo)"; exit 1; }
    dump "$so" "$src" "$build" "$here/$name.abi"
    echo "abi.sh: recorded $here/$name.abi ($(soname "$so"))"
  done
}

# dump SO SRC BUILD OUT: SO's ABI as abixml, public types only: those
# defined in SRC's and BUILD's include/lsk (the tree SO was built from).
# The record and the check both compare such dumps (a dump has no source
# locations, so abidiff cannot tell public from private in it: it is
# filtered when it is made).
dump() {
  abidw --headers-dir "$2/include/lsk" --headers-dir "$3/include/lsk" --drop-private-types \
    --no-show-locs --no-corpus-path --no-comp-dir-path --out-file "$4" "$1"
}

# check_one NAME SO RECORD SRC BUILD: 0 compatible (or a raised major), 1
# not.
check_one() {
  local name=$1 so=$2 rec=$3 rc=0 out
  [ -f "$rec" ] || { echo "abi.sh: no record $rec: run abi/abi.sh record"; return 1; }
  local now_abi
  now_abi=$(mktemp)
  dump "$so" "$4" "$5" "$now_abi"
  out=$(abidiff "$rec" "$now_abi") || rc=$?
  local was now
  was=$(sed -n "1,3s/.*soname='\([^']*\)'.*/\1/p" "$rec" | head -n1)
  now=$(soname "$so")
  if [ $((rc & 3)) -ne 0 ]; then
    rm -f "$now_abi"
    echo "$out"
    echo "abi.sh: $name: abidiff failed (exit $rc)"
    return 1
  fi
  if [ "$rc" -eq 0 ]; then
    rm -f "$now_abi"
    echo "abi.sh: $name: the ABI of $was is unchanged"
    return 0
  fi
  # Only added functions or variables? abidiff again without them.
  local rc2=0
  abidiff --no-added-syms "$rec" "$now_abi" >/dev/null || rc2=$?
  rm -f "$now_abi"
  if [ "$rc2" -eq 0 ]; then
    echo "$out"
    echo "abi.sh: $name: additions only (compatible); re-record: abi/abi.sh record BUILD_DIR"
    return 0
  fi
  echo "$out"
  if [ "$was" != "$now" ]; then
    echo "abi.sh: $name: incompatible changes, and the major version was raised ($was -> $now):" \
      "re-record: abi/abi.sh record BUILD_DIR"
    return 0
  fi
  echo "abi.sh: $name: incompatible ABI change in $now without a new major version:" \
    "undo it, or raise the major version in CMakeLists.txt's project(VERSION) and re-record"
  return 1
}

check() {
  local fail=0
  readelf -S "$build/liblsk.so" | grep '\.debug_info' >/dev/null ||
    { echo "abi.sh: $build/liblsk.so has no debug info (not a -g build): skipped"; exit 77; }
  while read -r name so; do
    check_one "$name" "$so" "$here/$name.abi" "$src" "$build" || fail=1
  done < <(libs)
  return $fail
}

# A copy of the tree with a field inserted into the public lsk_launch
# before its blocks (the struct's size and later offsets change): liblsk
# alone, no tests, command or examples.
mutant() {
  local tmp rc=0
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  mkdir "$tmp/src"
  (cd "$src" && tar cf - CMakeLists.txt include host cl kernels cmake) | tar xf - -C "$tmp/src"
  local h="$tmp/src/include/lsk/program.h"
  grep -q '^  size_t blocks\[3\];$' "$h" ||
    { echo "abi.sh: mutant: lsk_launch's 'size_t blocks[3];' not found in program.h"; return 1; }
  sed -i 's/^  size_t blocks\[3\];$/  unsigned blocks_mutant[2];\n  size_t blocks[3];/' "$h"
  cmake -S "$tmp/src" -B "$tmp/b" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLSK_BUILD_TESTS=OFF \
    -DLSK_BUILD_CLI=OFF -DLSK_BUILD_EXAMPLES=OFF -DLSK_MPI=OFF >/dev/null
  cmake --build "$tmp/b" -j "$(nproc)" --target lsk_shared >/dev/null
  check_one liblsk "$tmp/b/liblsk.so" "$here/liblsk.abi" "$tmp/src" "$tmp/b" || rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "abi.sh: mutant: the check passed a library whose lsk_launch changed"
    return 1
  fi
  echo "abi.sh: mutant: the check fails on the changed lsk_launch, as it must"
  # The same change after a raised major version passes: the record as if
  # it were of the major before (its SONAME one lower).
  local major
  major=$(sed -n "1,3s/.*soname='liblsk\.so\.\([0-9]*\)'.*/\1/p" "$here/liblsk.abi" | head -n1)
  sed "1,3s/soname='liblsk\.so\.$major'/soname='liblsk.so.$((major - 1))'/" "$here/liblsk.abi" \
    >"$tmp/older.abi"
  if ! check_one liblsk "$tmp/b/liblsk.so" "$tmp/older.abi" "$tmp/src" "$tmp/b" >/dev/null; then
    echo "abi.sh: mutant: the check fails on the change although the major version was raised"
    return 1
  fi
  echo "abi.sh: mutant: with the major version raised, the same change passes"
}

case "$mode" in
  record) record ;;
  check) check ;;
  mutant) mutant ;;
  *) usage ;;
esac
