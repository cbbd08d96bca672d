#!/usr/bin/env bash
# nvidia.sh: lsk's tests and bench on an NVIDIA GPU through NVIDIA's OpenCL.
# See docs/nvidia.md.
#
#   tests/nvidia.sh fetch   on a Debian 12 machine with network (no root
#                           needed): download into .deb/ the packages a GPU
#                           machine without network may lack (the ICD loader,
#                           the OpenCL headers, libcheck)
#   tests/nvidia.sh [run]   on the GPU machine: find NVIDIA's OpenCL library,
#                           make the ICD loader find it, then ./run.sh test
#                           and lsk bench / tune; everything goes to OUT
#                           (default: build-nvidia/results/)
#   tests/nvidia.sh pack    here, without a GPU: build build-gpu and pack it
#                           for the GPU machine (tests/gpu_run.sh pack)
#   tests/nvidia.sh gpu [rerun | STEP...]
#                           on the GPU machine: the same setup, then the
#                           prepared run of binaries built elsewhere
#                           (tests/gpu_run.sh: under 10 minutes, each step
#                           time-boxed, results packed into OUT)
#
# Without an NVIDIA GPU it says so and exits 77 (the "skipped" status).
#
# Environment: OUT (results), BUILD_DIR (default build-nvidia),
# BENCH_ARGS (default "--repeat 21"), LSK_DEVICE (default nvidia),
# TEST_ARGS (ctest's, default none: the whole suite).
# LSK_NVIDIA_SELFTEST=1 runs the same steps on the machine's PoCL instead
# (the vendor library libpocl.so.2, the loader always unpacked from .deb/,
# the quick bench): a check of this script on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT_DIR=$PWD
DEB_DIR=$ROOT_DIR/.deb
PACKAGES=(ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers check libsubunit-dev
          libsubunit0 pkg-config pkgconf pkgconf-bin libpkgconf3 libgomp1)

say() { echo "nvidia.sh: $*" >&2; }
die() { say "$*"; exit 1; }

if [ "${1:-run}" = fetch ]; then
  command -v apt-get >/dev/null || die "fetch needs apt-get (Debian 12)"
  mkdir -p "$DEB_DIR"
  (cd "$DEB_DIR" && apt-get download "${PACKAGES[@]}") ||
    die "apt-get download failed (run 'apt-get update' as root first?)"
  say "packages in $DEB_DIR; copy that folder to the GPU machine's checkout"
  ls -l "$DEB_DIR" >&2
  exit 0
fi
MODE=${1:-run}
[ $# -gt 0 ] && shift
[ "$MODE" = pack ] && exec tests/gpu_run.sh pack
[ "$MODE" = run ] || [ "$MODE" = gpu ] ||
  { echo "usage: tests/nvidia.sh [fetch | run | pack | gpu [rerun | STEP...]]" >&2; exit 2; }

SELFTEST=${LSK_NVIDIA_SELFTEST:-0}
export BUILD_DIR=${BUILD_DIR:-build-nvidia}
OUT=${OUT:-$ROOT_DIR/$BUILD_DIR/results}
WORK=$ROOT_DIR/$BUILD_DIR/nvidia-env
VENDOR_LIB=libnvidia-opencl.so.1
export LSK_DEVICE=${LSK_DEVICE:-nvidia}
if [ "$SELFTEST" = 1 ]; then
  VENDOR_LIB=libpocl.so.2
  LSK_DEVICE=pocl
fi

# 1. Is there an NVIDIA GPU at all?
have_gpu() {
  if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    return 0
  fi
  compgen -G '/proc/driver/nvidia/gpus/*' >/dev/null || [ -e /dev/nvidia0 ]
}
if [ "$SELFTEST" != 1 ] && ! have_gpu; then
  say "no NVIDIA GPU on this machine (nvidia-smi -L lists none, no /proc/driver/nvidia/gpus," \
      "no /dev/nvidia0): nothing to run"
  exit 77
fi
mkdir -p "$OUT" "$WORK"

# 2. NVIDIA's OpenCL implementation: libnvidia-opencl.so.1, from the driver
# (Debian: nvidia-opencl-icd; containers: NVIDIA_DRIVER_CAPABILITIES=compute).
find_vendor_lib() {
  local p
  p=$(ldconfig -p 2>/dev/null | awk -v n="$VENDOR_LIB" '$1 == n { print $NF; exit }')
  if [ -n "$p" ] && [ -e "$p" ]; then echo "$p"; return 0; fi
  for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/nvidia/lib64 \
           /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu/nvidia/current; do
    if [ -e "$d/$VENDOR_LIB" ]; then echo "$d/$VENDOR_LIB"; return 0; fi
  done
  return 1
}
LIB=$(find_vendor_lib) ||
  die "$VENDOR_LIB (NVIDIA's OpenCL) is not installed. On Debian: apt-get install" \
      "nvidia-opencl-icd (non-free; the same version as the driver). In a container: start it" \
      "with NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all) so that the driver's libraries" \
      "are mounted."
say "vendor library: $LIB"

# 3. The vendor file that tells the ICD loader about it. The system's
# /etc/OpenCL/vendors/nvidia.icd if it names the library; otherwise one of
# our own, and OCL_ICD_VENDORS pointing at its folder (the loader then reads
# only that folder).
if [ "$SELFTEST" != 1 ] && grep -qs "$VENDOR_LIB" /etc/OpenCL/vendors/*.icd; then
  say "vendor file: $(grep -ls "$VENDOR_LIB" /etc/OpenCL/vendors/*.icd | head -n1)"
else
  mkdir -p "$WORK/vendors"
  echo "$LIB" >"$WORK/vendors/nvidia.icd"
  export OCL_ICD_VENDORS=$WORK/vendors
  say "vendor file: $WORK/vendors/nvidia.icd (OCL_ICD_VENDORS=$OCL_ICD_VENDORS)"
fi

# 4. The ICD loader (libOpenCL.so.1), the headers and libcheck: from the
# system if there, else unpacked from .deb/ (dpkg -x; no root, no network).
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
unpack_debs() {
  local root=$WORK/root deb
  compgen -G "$DEB_DIR/*.deb" >/dev/null ||
    die "no .deb files in $DEB_DIR: run 'tests/nvidia.sh fetch' on a Debian 12 machine with" \
        "network and copy .deb/ into this checkout (or, as root with network: ./run.sh build)"
  mkdir -p "$root"
  for deb in "$DEB_DIR"/*.deb; do
    if command -v dpkg >/dev/null; then
      dpkg -x "$deb" "$root"
    else # not Debian: a .deb is an ar archive holding data.tar.*
      (cd "$WORK" && ar x "$deb" && tar -xf data.tar.* -C "$root" && rm -f data.tar.* \
        control.tar.* debian-binary)
    fi
  done
  local lib=$root/usr/lib/x86_64-linux-gnu
  [ -e "$lib/libOpenCL.so.1" ] || die "the .deb files in $DEB_DIR hold no libOpenCL.so.1"
  export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # pkg-config too, for images that lack it (CUDA images often do).
  command -v pkg-config >/dev/null || export PATH=$root/usr/bin:$PATH
  export LIBRARY_PATH=$lib${LIBRARY_PATH:+:$LIBRARY_PATH}
  export CPATH=$root/usr/include${CPATH:+:$CPATH}
  # check.pc says prefix=/usr: point it at $root instead (not with
  # PKG_CONFIG_SYSROOT_DIR, which would move every package's paths there,
  # the installed lsk.pc's of the consumer test too).
  if ! have_pkg check && [ -e "$lib/pkgconfig/check.pc" ]; then
    sed -i "s|^prefix=/usr\$|prefix=$root/usr|" "$lib"/pkgconfig/*.pc
    export PKG_CONFIG_PATH=$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  fi
  CMAKE_ARGS="${CMAKE_ARGS:-} -DOpenCL_INCLUDE_DIR=$root/usr/include"
  CMAKE_ARGS+=" -DOpenCL_LIBRARY=$lib/libOpenCL.so"
  export CMAKE_ARGS
  say "unpacked ${DEB_DIR}/*.deb into $root (LD_LIBRARY_PATH, CPATH, CMAKE_ARGS set)"
}
missing=()
for p in "${PACKAGES[@]}"; do have_pkg "$p" || missing+=("$p"); done
if [ "$SELFTEST" = 1 ] || [ ${#missing[@]} -gt 0 ]; then
  [ ${#missing[@]} -gt 0 ] && say "not installed: ${missing[*]}"
  unpack_debs
fi
if [ "$MODE" = gpu ]; then
  # Binaries built elsewhere: ctest (CMake 3.20+) runs the tests; python3
  # draws the trace; tar and gzip unpack the pack.
  for tool in ctest cmake python3 tar gzip timeout; do
    command -v "$tool" >/dev/null || die "$tool is missing: the GPU run needs it"
  done
  exec tests/gpu_run.sh run "$@"
fi
for tool in cmake make cc pkg-config; do
  command -v "$tool" >/dev/null || die "$tool is missing: lsk needs cmake (3.20+), make, a C11" \
    "compiler and pkg-config to build"
done
# run.sh installs nothing: what is needed is there now, and a GPU machine
# may have no network for apt-get.
export NO_INSTALL=1

# 5. What the loader sees, then the tests, then the bench.
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
  fi
  echo "LSK_DEVICE=$LSK_DEVICE OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  git -C "$ROOT_DIR" log --oneline -1 2>/dev/null || true
} | tee "$OUT/machine.txt"

# (pipefail: a pipeline fails when the command before tee fails)
status=0
# shellcheck disable=SC2086 # TEST_ARGS (ctest's, e.g. -R REGEX) is split on purpose
./run.sh test ${TEST_ARGS:-} 2>&1 | tee "$OUT/test.txt" || status=1
LSK=$ROOT_DIR/$BUILD_DIR/tools/lsk/lsk
# The bench's cuda case times lsk-peer-cuda: the one built next to lsk where
# this machine has nvcc, else one carried from a machine that has
# (LSK_BENCH_CUDA_PEER, or build-gpu's or build's); without one the case
# says why it skips.
if [ -z "${LSK_BENCH_CUDA_PEER:-}" ] && [ ! -x "$ROOT_DIR/$BUILD_DIR/tools/lsk/lsk-peer-cuda" ]; then
  for p in build-gpu build; do
    if [ -x "$ROOT_DIR/$p/tools/lsk/lsk-peer-cuda" ]; then
      export LSK_BENCH_CUDA_PEER=$ROOT_DIR/$p/tools/lsk/lsk-peer-cuda
      break
    fi
  done
fi
say "CUDA peer: ${LSK_BENCH_CUDA_PEER:-$ROOT_DIR/$BUILD_DIR/tools/lsk/lsk-peer-cuda}"
if [ -x "$LSK" ]; then
  "$LSK" devices 2>&1 | tee "$OUT/devices.txt" || status=1
  "$LSK" info 2>&1 | tee "$OUT/info.txt" || status=1
  # shellcheck disable=SC2206 # BENCH_ARGS is split into words on purpose
  bench=(${BENCH_ARGS:---repeat 21})
  [ "$SELFTEST" = 1 ] && bench=(--quick)
  plot=()
  command -v gnuplot >/dev/null && plot=(--plot "$OUT/bench.png")
  "$LSK" bench "${bench[@]}" --json "$OUT/bench.json" "${plot[@]}" 2>&1 |
    tee "$OUT/bench.txt" || status=1
  # shellcheck disable=SC2054 # the commas are lsk tune's list syntax
  tune=(--domain 256,1024,4096 --no-store)
  [ "$SELFTEST" = 1 ] && tune+=(--quick)
  "$LSK" tune "${tune[@]}" 2>&1 | tee "$OUT/tune.txt" || status=1
  # Every kernel file of the nvptx label built by NVIDIA's compiler: its own
  # workers limit, local and private memory per kernel beside the sm_90
  # prediction (docs/check.md; table: docs/perf/nvptx-sm90.md) in
  # nvptx/device.md; the prediction itself where clang and libclc are
  # installed.
  LSK_NVPTX_DEVICE=1 "$ROOT_DIR/tests/nvptx.sh" "$LSK" "$ROOT_DIR" "$OUT/nvptx" 2>&1 |
    tee "$OUT/nvptx.txt" || status=1
else
  status=1
fi
say "results in $OUT ($([ $status -eq 0 ] && echo all passed || echo FAILURES, see the logs))"
exit $status
