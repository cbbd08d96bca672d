#!/usr/bin/env bash
# run.sh: set-up, build and run lsk on a Debian 12 machine.
#
#   ./run.sh demo [args]    install what is missing, build, run `lsk demo`
#   ./run.sh test [args]    the same, then the whole test suite (ctest args)
#   ./run.sh bench [args]   the same, then `lsk bench`
#   ./run.sh sanitize [args] the test suite in an AddressSanitizer +
#                           UndefinedBehaviorSanitizer build (build-asan)
#   ./run.sh build          install and build only
#   ./run.sh nvidia-tools   install NVIDIA's ptxas, cuobjdump and nvdisasm from
#                           PyPI into BUILD_DIR/nvidia-tools (the nvptx label's
#                           sm_90 and SASS steps); NVIDIA_TOOLS=1 makes `test`
#                           do it too
#
# Packages are installed with apt-get when missing (as root; otherwise the
# missing list is printed); NO_INSTALL=1 skips that and builds with what is
# there (a machine without network: see docs/nvidia.md). BUILD_DIR (default:
# build) and CMAKE_ARGS can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")"

# openmpi-bin and libopenmpi-dev: Debian's Open MPI, for the optional
# lsk_mpi component and its tests (liblsk never needs it).
PACKAGES=(cmake make gcc libc6-dev pkg-config ocl-icd-opencl-dev opencl-headers
          pocl-opencl-icd check clinfo oclgrind mesa-opencl-icd llvm-15 clang
          openmpi-bin libopenmpi-dev)
# clang-15 and libclc-15 (Debian's, the clang of PoCL and the libclc of Mesa's
# OpenCL, named here so that the nvptx tests keep them): `lsk check` and the
# ctest label nvptx compile kernels for nvptx64-nvidia-nvcl with them.
PACKAGES+=(clang-15 libclc-15)
# abigail-tools (abidw, abidiff): the ABI guard, ctest abi_check (abi/abi.sh).
PACKAGES+=(abigail-tools)
BUILD_DIR=${BUILD_DIR:-build}

# NVIDIA's tools for the ctest label nvptx without the CUDA toolkit (not in
# Debian): NVIDIA's PyPI wheels, installed by pip --target into
# BUILD_DIR/nvidia-tools (nothing system-wide; tests/nvptx.sh looks there).
# ptxas from nvidia-cuda-nvcc 13.0.88, the build of the toolkit whose
# figures docs/nvidia.md gives; cuobjdump and nvdisasm 13.2.51, the oldest
# 13.x on PyPI, which read 13.0's cubins. About 52 MB to download, 117 MB
# unpacked. Not part of `test` by default: CI's run is already near its
# time budget, and the sm_90 and SASS steps add minutes on 2 cores.
NVIDIA_WHEELS=(nvidia-cuda-nvcc==13.0.88 nvidia-cuda-cuobjdump==13.2.51
               nvidia-cuda-nvdisasm==13.2.51)
nvidia_tools() {
  local dir=$BUILD_DIR/nvidia-tools bin
  bin=$dir/nvidia/cu13/bin
  if [ -x "$bin/ptxas" ] && [ -x "$bin/cuobjdump" ] && [ -x "$bin/nvdisasm" ]; then
    return 0
  fi
  if ! python3 -m pip --version >/dev/null 2>&1; then
    local all=("${PACKAGES[@]}")
    PACKAGES=(python3-pip)
    install_missing
    PACKAGES=("${all[@]}")
  fi
  # --target installs are outside Debian's externally managed Python.
  echo "run.sh: installing ${NVIDIA_WHEELS[*]} into $dir"
  python3 -m pip install -q --no-deps --upgrade --target "$dir" "${NVIDIA_WHEELS[@]}" ||
    echo "run.sh: pip could not install NVIDIA's wheels: the nvptx label skips sm_90 and SASS" >&2
}

install_missing() {
  [ "${NO_INSTALL:-0}" = 1 ] && return 0
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "run.sh: missing packages: ${missing[*]}" >&2
    echo "run.sh: install them as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "run.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
  # shellcheck disable=SC2086
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLSK_WERROR=ON ${CMAKE_ARGS:-} >/dev/null
  cmake --build "$BUILD_DIR" -j "$(nproc)"
}

# ctest runs its tests in parallel, one per core, unless told otherwise.
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$(nproc)}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  demo) install_missing; build; exec "$BUILD_DIR/tools/lsk/lsk" demo "$@" ;;
  test) install_missing; build
        [ "${NVIDIA_TOOLS:-0}" = 1 ] && nvidia_tools
        exec ctest --test-dir "$BUILD_DIR" --output-on-failure "$@" ;;
  bench) install_missing; build; exec "$BUILD_DIR/tools/lsk/lsk" bench "$@" ;;
  sanitize) install_missing
        BUILD_DIR=${SANITIZE_DIR:-build-asan} CMAKE_ARGS="${CMAKE_ARGS:-} -DLSK_SANITIZE=ON" build
        exec ctest --test-dir "${SANITIZE_DIR:-build-asan}" --output-on-failure "$@" ;;
  build) install_missing; build ;;
  nvidia-tools) nvidia_tools ;;
  *) echo "usage: ./run.sh demo|test|sanitize|bench|build|nvidia-tools [args]" >&2; exit 2 ;;
esac
