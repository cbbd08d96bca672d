#!/usr/bin/env bash
# gpu_run.sh: the prepared GPU run (docs/nvidia.md, "The GPU run"): every
# binary built on a machine without a GPU, carried to the GPU machine with
# the ICD loader's .deb files, run there in under 10 minutes, each step
# time-boxed, the results packed into at most 8 files.
#
#   tests/gpu_run.sh pack        here (no GPU needed): configure and build
#                                GPU_BUILD (default build-gpu: this
#                                machine's compilers, MPI off, the CUDA peer
#                                where nvcc is), then pack what its tests
#                                and tools need, debug info stripped, into
#                                GPU_BUILD/pack.tar.gz (the file to carry)
#   tests/nvidia.sh gpu [STEP...]
#                                on the GPU machine: nvidia.sh's setup (the
#                                vendor library, the loader from .deb/), then
#                                `tests/gpu_run.sh run`: the pack unpacked
#                                into GPU_BUILD and the steps run (all when
#                                none is named)
#   tests/nvidia.sh gpu rerun    the steps that did not pass in the last run:
#                                the status.tsv in GPU_BUILD/results, or in
#                                the folder GPU_RUN_PREVIOUS (status.tsv and
#                                suite-passed.txt brought back from a run on
#                                another machine); the suite then runs the
#                                tests that did not pass only
#
# Steps, in order, each under `timeout` (seconds: the step's box, less where
# the run's budget GPU_RUN_BUDGET, default 540, has less left):
#   machine  20   nvidia-smi, lsk devices, lsk info
#   peer     30   lsk-peer-cuda alone at 2^16, every case checked
#   cuda     90   lsk bench --only cuda: lsk against CUDA, CUB, cuRAND
#   streams  120  lsk demo pixel --preset pu50 with 1, 2, 4, 8 streams
#                 (uploads from pinned memory)
#   trace    30   the same with 2 streams and --trace, drawn as a PNG by
#                 docs/tools/trace_png.py
#   algo     110  lsk bench --only sort,histogram,random,bufcache,overlap,
#                 streams
#   suite    140  ctest on GPU_BUILD without the labels that need no GPU or
#                 what the pack or the GPU machine lacks (the fuzz engines,
#                 CMake's install files, an MPI build; gpushape models the
#                 GPU on PoCL) (SUITE_ARGS; default -LE
#                 'oclgrind|rusticl|fuzz|nvptx|mpi|gpushape|install' -E
#                 '^(docs_paths|cli_docs)$'), 8 at a time, 90 s per test;
#                 tests not reached in the box count as not run
#   nvptx    45   tests/nvptx.sh with NVIDIA's own compiler (LSK_NVPTX_DEVICE=1)
#
# Output (OUT, default GPU_BUILD/out), at most 8 files as the device tool
# brings back: summary.txt (a line per step: status, seconds; the rows that
# matter; the rerun command), status.tsv, suite-passed.txt, cuda.txt,
# streams.txt, algo.txt, trace-2streams.png, results.tar.gz (every log and
# JSON file of GPU_BUILD/results).
#
# LSK_NVIDIA_SELFTEST=1 (set by `LSK_NVIDIA_SELFTEST=1 tests/nvidia.sh gpu`):
# the same on PoCL with small sizes (--quick, fewer events, a few tests),
# a check of the script on a machine without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
GPU_BUILD=${GPU_BUILD:-build-gpu}
PACK=$GPU_BUILD/pack.tar.gz
RES=$ROOT/$GPU_BUILD/results
OUT=${OUT:-$ROOT/$GPU_BUILD/out}
SELFTEST=${LSK_NVIDIA_SELFTEST:-0}
STEPS=(machine peer cuda streams trace algo suite nvptx)
declare -A BOX=([machine]=20 [peer]=30 [cuda]=90 [streams]=120 [trace]=30 [algo]=110
                [suite]=140 [nvptx]=45)

say() { echo "gpu_run.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# ---- pack (here) ----
if [ "${1:-}" = pack ]; then
  if [ ! -e "$GPU_BUILD/CMakeCache.txt" ]; then
    # shellcheck disable=SC2086 # CMAKE_ARGS is split into words on purpose
    cmake -S . -B "$GPU_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLSK_WERROR=ON -DLSK_MPI=OFF \
      ${CMAKE_ARGS:-} >/dev/null || die "cmake failed"
  fi
  cmake --build "$GPU_BUILD" -j "${JOBS:-$(nproc)}" || die "the build failed"
  [ -x "$GPU_BUILD/tools/lsk/lsk-peer-cuda" ] ||
    say "no lsk-peer-cuda in $GPU_BUILD (no nvcc here?): the peer and cuda steps will skip"
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  # What the tests and tools read: programs, libraries, CTest files,
  # generated sources and scripts; not objects, CMake's own files or old
  # results.
  tar -C "$ROOT" -cf - --exclude='*.o' --exclude='*.d' --exclude="$GPU_BUILD/CMakeFiles" \
    --exclude='*/CMakeFiles/*.dir' --exclude="$GPU_BUILD/Testing" --exclude="$GPU_BUILD/results" \
    --exclude="$GPU_BUILD/out" --exclude="$GPU_BUILD/prev" --exclude="$PACK" \
    --exclude="$GPU_BUILD/nvidia-env" --exclude="$GPU_BUILD/nvidia-tools" \
    --exclude="$GPU_BUILD/taichi-venv" --exclude="$GPU_BUILD/tests/fuzz/engine" "$GPU_BUILD" |
    tar -C "$stage" -xf -
  # Debug info off the programs (the pack is carried, 64 MiB in all).
  find "$stage" -type f \( -perm -u+x -o -name '*.so*' -o -name '*.a' \) -print0 |
    while IFS= read -r -d '' f; do
      if head -c 4 "$f" | grep -q 'ELF'; then strip --strip-debug "$f" 2>/dev/null || true; fi
    done
  {
    echo "SRC_ROOT=$ROOT"
    echo "PACKED=$(date -u +%Y-%m-%dT%H:%M:%SZ) $(git -C "$ROOT" log --oneline -1 2>/dev/null)"
  } >"$stage/$GPU_BUILD/pack.env"
  # gzip, not xz: every image has it.
  tar -C "$stage" -czf "$PACK" "$GPU_BUILD" || die "packing failed"
  say "packed $PACK ($(du -h "$PACK" | cut -f1)); with .deb/ ($(du -sh .deb 2>/dev/null | cut -f1))"
  say "device tool: command 'tests/nvidia.sh gpu', carry [\".deb\", \"$PACK\"], timeout_s 600"
  exit 0
fi

# ---- run (on the GPU machine, after tests/nvidia.sh's setup) ----
# Sizes: the GPU's, or small ones on PoCL.
REPEAT=${GPU_RUN_REPEAT:-11}
BUDGET=${GPU_RUN_BUDGET:-540}
BENCH_SIZE=()
PIXEL=(--preset pu50 --events 400 --batch 20 --repeat 3)
TRACE_PIXEL=(--preset pu50 --events 40 --batch 10 --repeat 1)
SUITE_DEFAULT=(-LE 'oclgrind|rusticl|fuzz|nvptx|mpi|gpushape|install')
# Tests left out by name (with the passed ones on a rerun: ctest takes one -E).
SUITE_EXCLUDE=docs_paths\|cli_docs
if [ "$SELFTEST" = 1 ]; then
  REPEAT=3
  BENCH_SIZE=(--quick)
  PIXEL=(--events 40 --batch 10 --repeat 1)
  TRACE_PIXEL=(--events 20 --batch 10 --repeat 1)
  SUITE_DEFAULT=(-R '^(bench_cuda_skip|bench_cuda_stand_in|cli_demo_streams|trace)$')
  BOX[cuda]=120 BOX[algo]=240 BOX[suite]=200 BOX[streams]=120 BOX[nvptx]=300
  BUDGET=${GPU_RUN_BUDGET:-1200}
fi
# shellcheck disable=SC2206 # SUITE_ARGS is split into words on purpose
[ -n "${SUITE_ARGS:-}" ] && SUITE_DEFAULT=(${SUITE_ARGS}) && SUITE_EXCLUDE=

step_machine() {
  {
    date -u +%Y-%m-%dT%H:%M:%SZ
    command -v nvidia-smi >/dev/null &&
      nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
    echo "LSK_DEVICE=${LSK_DEVICE:-} OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-}"
    echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
    cat "$GPU_BUILD/pack.env" 2>/dev/null
    git -C "$ROOT" log --oneline -1 2>/dev/null
    "$LSK" devices && "$LSK" info
  } >"$RES/machine.txt" 2>&1
}
step_peer() {
  [ -x "$PEER" ] || { echo "no $PEER in the pack (built without nvcc)" >"$RES/peer.txt"; return 77; }
  "$PEER" --log2n 16 --repeat 1 >"$RES/peer.txt" 2>&1
}
step_cuda() {
  "$LSK" bench "${BENCH_SIZE[@]}" --repeat "$REPEAT" --no-build --only cuda \
    --json "$RES/cuda.json" >"$RES/cuda.txt" 2>&1
}
step_streams() {
  local n rc=0
  : >"$RES/streams.txt"
  for n in 1 2 4 8; do
    echo "== lsk demo pixel ${PIXEL[*]} --streams $n" >>"$RES/streams.txt"
    "$LSK" demo pixel "${PIXEL[@]}" --streams "$n" >>"$RES/streams.txt" 2>&1 || rc=1
  done
  return $rc
}
step_trace() {
  "$LSK" demo pixel "${TRACE_PIXEL[@]}" --streams 2 --trace "$RES/trace-2streams.json" \
    >"$RES/trace.txt" 2>&1 || return 1
  python3 "$ROOT/docs/tools/trace_png.py" "$RES/trace-2streams.json" "$RES/trace-2streams-all.png" \
    --width 1600 >>"$RES/trace.txt" 2>&1 || return 1
  # trace-2streams.png: the streams' part alone (the demo's one-wait run and
  # its C reference come first), from the streams' first command to the last.
  local win
  win=$(python3 - "$RES/trace-2streams.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
names = {(e.get("pid"), e.get("tid")): e["args"]["name"] for e in ev
         if e.get("ph") == "M" and e.get("name") == "thread_name"}
x = [e for e in ev if e.get("ph") == "X"]
t0 = min(e["ts"] for e in x)
s = [e for e in x if names.get((e.get("pid"), e.get("tid")), "").startswith("stream")]
print("%.3f:%.3f" % ((min(e["ts"] for e in s) - t0) / 1e3, (max(e["ts"] + e["dur"] for e in s) - t0) / 1e3))
PY
) || return 1
  echo "streams window (ms): $win" >>"$RES/trace.txt"
  python3 "$ROOT/docs/tools/trace_png.py" "$RES/trace-2streams.json" "$RES/trace-2streams.png" \
    --width 1600 --window "$win" >>"$RES/trace.txt" 2>&1
}
step_algo() {
  "$LSK" bench "${BENCH_SIZE[@]}" --repeat "$REPEAT" --no-build \
    --only sort,histogram,random,bufcache,overlap,streams --json "$RES/algo.json" >"$RES/algo.txt" 2>&1
}
step_suite() {
  local args=("${SUITE_DEFAULT[@]}") rc names=${SUITE_EXCLUDE:-}
  if [ -s "${GPU_RUN_SUITE_SKIP:-}" ]; then
    names=${names:+$names|}$(paste -sd'|' "$GPU_RUN_SUITE_SKIP")
  fi
  [ -n "$names" ] && args+=(-E "^($names)\$")
  # ctest's own limit a little inside the step's box, so that it reports.
  ctest --test-dir "$GPU_BUILD" "${args[@]}" -j "${SUITE_JOBS:-8}" --timeout 90 \
    --stop-time "$(date -d "+$(($1 - 10)) seconds" +%H:%M:%S)" --output-on-failure \
    >"$RES/suite.txt" 2>&1
  rc=$?
  sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) \.*   Passed.*/\1/p' "$RES/suite.txt" \
    >>"$RES/suite-passed.txt"
  sort -u -o "$RES/suite-passed.txt" "$RES/suite-passed.txt"
  return $rc
}
step_nvptx() {
  LSK_NVPTX_DEVICE=1 "$ROOT/tests/nvptx.sh" "$LSK" "$ROOT" "$RES/nvptx" >"$RES/nvptx.txt" 2>&1
}

# One step, under the run's timeout (the script calls itself: a hang or a
# crash loses that step alone; timeout ends the step's whole process group).
if [ "${1:-}" = _step ]; then
  LSK=$ROOT/$GPU_BUILD/tools/lsk/lsk
  PEER=$ROOT/$GPU_BUILD/tools/lsk/lsk-peer-cuda
  "step_$2" "$3"
  exit
fi
[ "${1:-}" = run ] || { echo "usage: tests/gpu_run.sh pack | run [rerun | STEP...]" >&2; exit 2; }
shift
T0=$SECONDS

# The pack: unpacked where the build is not there yet; its paths made this
# tree's (text files: sed; programs with a path built in: a link from the
# path where it was built, where that path is free).
if [ ! -e "$GPU_BUILD/CTestTestfile.cmake" ]; then
  [ -e "$PACK" ] || die "neither $GPU_BUILD nor $PACK: run 'tests/gpu_run.sh pack' where it was built"
  tar -C "$ROOT" -xzf "$PACK" || die "unpacking $PACK failed"
  say "unpacked $PACK"
fi
if [ -e "$GPU_BUILD/pack.env" ]; then
  SRC_ROOT=$(sed -n 's/^SRC_ROOT=//p' "$GPU_BUILD/pack.env")
  if [ -n "$SRC_ROOT" ] && [ "$SRC_ROOT" != "$ROOT" ]; then
    grep -rlIF "$SRC_ROOT" "$GPU_BUILD" --exclude=pack.tar.gz 2>/dev/null |
      while IFS= read -r f; do sed -i "s|$SRC_ROOT|$ROOT|g" "$f"; done
    if [ ! -e "$SRC_ROOT" ] && mkdir -p "$(dirname "$SRC_ROOT")" 2>/dev/null &&
       ln -s "$ROOT" "$SRC_ROOT" 2>/dev/null; then
      say "built in $SRC_ROOT: that path now links here"
    fi
  fi
fi
# The tools the tests name by their path where the pack was built (cmake,
# ctest, python3): this machine's where those paths are missing.
mapfile -t ctestfiles < <(find "$GPU_BUILD" -name CTestTestfile.cmake)
for tool in cmake ctest python3; do
  here=$(command -v "$tool") || continue
  grep -ho "\"/[^\" ]*/$tool\"" "${ctestfiles[@]}" 2>/dev/null | tr -d '"' | sort -u |
    while IFS= read -r there; do
      [ -x "$there" ] || sed -i "s|\"$there\"|\"$here\"|g" "${ctestfiles[@]}"
    done
done
LSK=$ROOT/$GPU_BUILD/tools/lsk/lsk
[ -x "$LSK" ] || die "no $LSK: the pack or the build is incomplete"
# The cuda case finds lsk-peer-cuda next to lsk (built with it, where nvcc
# was); not through LSK_BENCH_CUDA_PEER, which would also reach the
# suite's bench_cuda_* tests.
unset LSK_BENCH_CUDA_PEER

# Which steps: all, the ones named, or (rerun) those not passed last time.
PREV=${GPU_RUN_PREVIOUS:-$RES}
if [ "${1:-}" = rerun ]; then
  [ -e "$PREV/status.tsv" ] || die "rerun: no $PREV/status.tsv (GPU_RUN_PREVIOUS names the folder)"
  mapfile -t todo < <(awk -F'\t' '$2 != "pass" && $2 != "skip" { print $1 }' "$PREV/status.tsv")
  [ ${#todo[@]} -gt 0 ] || { say "rerun: every step passed last time"; exit 0; }
  if [ -e "$PREV/suite-passed.txt" ]; then
    cp "$PREV/suite-passed.txt" "$ROOT/$GPU_BUILD/suite-passed.prev"
    export GPU_RUN_SUITE_SKIP=$ROOT/$GPU_BUILD/suite-passed.prev
  fi
elif [ $# -gt 0 ]; then
  todo=("$@")
else
  todo=("${STEPS[@]}")
fi
for s in "${todo[@]}"; do
  [ -n "${BOX[$s]:-}" ] || die "unknown step '$s' (steps: ${STEPS[*]})"
done
mkdir -p "$RES" "$OUT"
[ -e "$RES/status.tsv" ] || : >"$RES/status.tsv"

[ -e "$RES/suite-passed.txt" ] || : >"$RES/suite-passed.txt"
for s in "${todo[@]}"; do
  left=$((BUDGET - (SECONDS - T0)))
  box=${BOX[$s]}
  [ "$box" -gt "$left" ] && box=$left
  if [ "$box" -lt 10 ]; then
    st=notime secs=0
  else
    say "step $s (at most ${box} s)"
    t=$SECONDS
    timeout -k 5 "$box" "$ROOT/tests/gpu_run.sh" _step "$s" "$box"
    rc=$?
    secs=$((SECONDS - t))
    case $rc in
      0) st=pass ;;
      77) st=skip ;;
      124 | 137) st=timeout ;;
      *) st=fail ;;
    esac
  fi
  say "step $s: $st (${secs} s)"
  # The latest line of a step wins.
  grep -v "^$s	" "$RES/status.tsv" >"$RES/status.tsv.new"
  printf '%s\t%s\t%s\n' "$s" "$st" "$secs" >>"$RES/status.tsv.new"
  mv "$RES/status.tsv.new" "$RES/status.tsv"
done

# ---- summary and what comes back ----
{
  echo "lsk GPU run: $(date -u +%Y-%m-%dT%H:%M:%SZ), $((SECONDS - T0)) s, steps: ${todo[*]}"
  head -n 3 "$RES/machine.txt" 2>/dev/null
  echo
  echo "step	status	seconds"
  cat "$RES/status.tsv"
  echo
  [ -e "$RES/peer.txt" ] && { echo "== peer alone"; head -n 3 "$RES/peer.txt"; }
  [ -e "$RES/cuda.txt" ] && { echo "== cuda (lsk / CUDA)"; grep -E '^cuda:|skipped' "$RES/cuda.txt"; }
  [ -e "$RES/streams.txt" ] && { echo "== pixel streams"; grep -E '^== |streams \(\+ read\)|^lsk \(one wait\)|^streams:' "$RES/streams.txt"; }
  [ -e "$RES/algo.txt" ] && { echo "== algo rows"; grep -E '^(sort|histogram|random|bufcache|overlap|pixel streams)' "$RES/algo.txt"; }
  [ -e "$RES/suite.txt" ] && { echo "== suite"; grep -E 'tests passed|tests failed|\(Failed\)|\(Timeout\)|Not Run' "$RES/suite.txt"; }
  echo
  if grep -qvP '\t(pass|skip)\t' "$RES/status.tsv"; then
    echo "rerun what did not pass: tests/nvidia.sh gpu rerun (same machine), or bring back"
    echo "status.tsv and suite-passed.txt into build-gpu/prev and run"
    echo "GPU_RUN_PREVIOUS=build-gpu/prev tests/nvidia.sh gpu rerun (carry build-gpu/prev too)"
  else
    echo "every step passed or skipped"
  fi
} >"$RES/summary.txt"
cp "$RES/summary.txt" "$RES/status.tsv" "$RES/suite-passed.txt" "$OUT/"
for f in cuda.txt streams.txt algo.txt trace-2streams.png; do
  [ -e "$RES/$f" ] && cp "$RES/$f" "$OUT/"
done
tar -C "$RES/.." -czf "$OUT/results.tar.gz" "$(basename "$RES")"
cat "$RES/summary.txt"
! grep -qvP '\t(pass|skip)\t' "$RES/status.tsv"
