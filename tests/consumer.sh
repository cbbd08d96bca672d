#!/usr/bin/env bash
# consumer.sh BUILD_DIR SOURCE_DIR: install lsk into a temporary prefix and
# build tests/consumer/iota.c and its C++ twin iota.cpp against it, through
# pkg-config and through find_package(lsk); run them. Then the examples on
# their own against that prefix (cmake -S examples), their tests run there.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*/ | head -n1)

echo "== pkg-config"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/iota-pc" "$src/tests/consumer/iota.c" \
  $(pkg-config --cflags --libs lsk)
LD_LIBRARY_PATH="$libdir" "$tmp/iota-pc"

# The C++ consumer (tests/consumer/iota.cpp: the argument macros, SoA
# views, a CL_TARGET_OPENCL_VERSION of its own): each standard from C++11
# compiles, the C++11 build runs.
cxx=${CXX:-c++}
if command -v "$cxx" >/dev/null; then
  for std in 11 14 17 20; do
    echo "== pkg-config, $cxx -std=c++$std"
    # shellcheck disable=SC2046
    "$cxx" -std=c++$std -Wall -Wextra -pedantic -Werror -o "$tmp/iota-cxx$std" \
      "$src/tests/consumer/iota.cpp" $(pkg-config --cflags --libs lsk)
  done
  LD_LIBRARY_PATH="$libdir" "$tmp/iota-cxx11"
else
  echo "consumer.sh: no C++ compiler ($cxx): the C++ consumer is not built"
fi

echo "== find_package(lsk)"
cmake -S "$src/tests/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cm" >/dev/null
"$tmp/cm/iota"
if command -v "$cxx" >/dev/null; then
  "$tmp/cm/iota_cxx"
fi

# lsk_mpi, where it was built: through pkg-config (lsk-mpi) and through
# find_package(lsk COMPONENTS mpi), each run on 2 ranks under mpirun.
if [ -f "$libdir/pkgconfig/lsk-mpi.pc" ] && command -v mpirun >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  echo "== pkg-config lsk-mpi"
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -Werror -o "$tmp/ring-pc" "$src/tests/consumer/mpi_ring.c" \
    $(pkg-config --cflags --libs lsk-mpi)
  LD_LIBRARY_PATH="$libdir" mpirun -n 2 "$tmp/ring-pc"
  echo "== find_package(lsk COMPONENTS mpi)"
  cmake -S "$src/tests/consumer" -B "$tmp/cm-mpi" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DWITH_MPI=ON \
    >/dev/null
  cmake --build "$tmp/cm-mpi" >/dev/null
  mpirun -n 2 "$tmp/cm-mpi/mpi_ring"
  nm -D "$libdir"/liblsk_mpi.so | grep -E ' T ' | grep -vE ' lsk_mpi_' &&
    { echo "consumer.sh: liblsk_mpi exports more than lsk_mpi_*"; exit 1; }
fi

# The examples are not part of the library's ABI.
if nm -D "$libdir"/liblsk.so | grep -E ' lsk_(pixel|pic)_'; then
  echo "consumer.sh: liblsk exports the examples' functions"
  exit 1
fi

# The installed device headers compile offline, all of them through
# lsk_device.h (where clang is).
if command -v clang >/dev/null; then
  echo "== include/lsk/cl/lsk_device.h, offline"
  clang -x cl -cl-std=CL1.2 -fsyntax-only -Xclang -finclude-default-header -target spir64 \
    -I "$tmp/prefix/include/lsk/cl" -DLSK_WORKERS=64 -DLSK_SIMD=1 -DLSK_DOMAIN_SIZE=64 \
    -pedantic -Werror "$tmp/prefix/include/lsk/cl/lsk_device.h"
fi

# The installed library needs no file of lsk's at run time.
[ -z "$(find "$tmp/prefix" -name '*.cl')" ] || { echo "consumer.sh: .cl files installed?"; exit 1; }

# The examples, as a project of their own against the installed package:
# a copy of examples/ outside lsk's tree, so that nothing but the installed
# public headers (and lsk_embed_sources from the CMake package) can serve
# them; every example built (libraries, their own test binaries
# lsk_<x>_tests on examples/testing.h, the smoke program), then their tests
# with ctest there: each example's suites on the default device and the
# smoke program (skipped, 77, where there is no device).
echo "== examples against the installed lsk"
cp -r "$src/examples" "$tmp/examples"
cmake -S "$tmp/examples" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_C_FLAGS=-Werror \
  >/dev/null
cmake --build "$tmp/ex" -j 2 >/dev/null
for t in lsk_pixel_tests lsk_pic_tests lsk_heat_tests lsk_examples_smoke; do
  [ -x "$tmp/ex/$t" ] || { echo "consumer.sh: the examples' build made no $t"; exit 1; }
done
LD_LIBRARY_PATH="$libdir" ctest --test-dir "$tmp/ex" -j 2 --output-on-failure
