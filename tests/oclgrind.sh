#!/usr/bin/env bash
# oclgrind.sh [--expect] OCLGRIND LSK_TESTS [SUITE...]: run the suites
# (default: the "grind" suite) under oclgrind with race and
# uninitialized-memory checks, and fail on any report (oclgrind itself
# exits 0 when it reports errors).
# --expect: the planted-defects check (suite grind_planted): pass only if
# the suite passes, says that its kernels ran, and oclgrind reports a data
# race in planted_race, an invalid read in planted_oob and an uninitialized
# value in planted_uninit.
# LSK_GRIND_COUNTS=FILE: also count the instructions each kernel runs, in
# one worker thread (tests/oclgrind_coverage.sh), and on success write to
# FILE a line per kernel invocation, "NAME vector" where it called vload8,
# else "NAME scalar"; the counts themselves stay out of the printed log.
set -u
expect=0
if [ "${1:-}" = --expect ]; then
  expect=1
  shift
fi
oclgrind=$1 tests=$2
shift 2
[ $# -gt 0 ] || set -- grind
out=$(mktemp)
trap 'rm -f "$out"' EXIT
counts=${LSK_GRIND_COUNTS:-}
extra=()
if [ -n "$counts" ]; then
  # One thread: runs with the counter and one thread per core aborted
  # (SIGABRT) twice under heavy load; the checks do not depend on it.
  extra=(--inst-counts --num-threads 1)
  rm -f "$counts"
fi
# No fork: oclgrind's runtime lives in this one process. Its simulator is
# the only device there, whatever LSK_DEVICE says for the other tests.
# Reports go to stderr with the tests' output: oclgrind's --log FILE
# reopens (truncates) the file for every context, so it keeps only the
# last test's reports.
# LSK_GRIND_FLAGS replaces the checks (one suite: see tests/CMakeLists.txt).
# shellcheck disable=SC2086
# No ledger (tests/ledger.c): oclgrind's runtime calls the public
# clReleaseEvent itself, which the ledger would count as ours.
CK_FORK=no LSK_LEDGER=0 LSK_DEVICE='' "$oclgrind" ${LSK_GRIND_FLAGS:---data-races --uninitialized} \
  "${extra[@]}" "$tests" "$@" >"$out" 2>&1
rc=$?
# Each invocation's counts: a line naming its kernel, one per instruction
# kind, a blank line.
awk '/^Instructions executed for kernel / { skip = 1; next }
     skip && /^$/ { skip = 0; next }
     !skip' "$out"
# Fatal errors (an instruction the checker does not support) go to stderr.
if grep -q "OCLGRIND FATAL" "$out"; then
  echo "oclgrind.sh: oclgrind stopped with a fatal error"
  exit 1
fi
if [ "$rc" -eq 77 ]; then
  exit 77
fi
if [ "$rc" -ne 0 ]; then
  echo "oclgrind.sh: the suites failed under oclgrind (exit $rc)"
  exit 1
fi
# Every report names its kernel, or the API function for runtime errors.
nerr=$(grep -cE $'^\t(Kernel|Function): ' "$out")
if [ "$expect" -eq 1 ]; then
  # Each report is a message line, then a tab-indented "Kernel: NAME".
  race=$(grep -A2 -iE 'data race' "$out" | grep -cE $'^\tKernel: planted_race')
  oob=$(grep -A2 -E 'Invalid read' "$out" | grep -cE $'^\tKernel: planted_oob')
  uninit=$(grep -A2 -E 'Uninitialized value' "$out" | grep -cE $'^\tKernel: planted_uninit')
  ran=$(grep -c '^grind_planted: all three kernels ran' "$out")
  echo "oclgrind.sh: $nerr report(s): $race data race(s) in planted_race," \
    "$oob invalid read(s) in planted_oob, $uninit uninitialized value(s) in" \
    "planted_uninit; kernels ran: $ran"
  if [ "$race" -ge 1 ] && [ "$oob" -ge 1 ] && [ "$uninit" -ge 1 ] && [ "$ran" -eq 1 ]; then
    echo "oclgrind.sh: all planted defects reported"
    exit 0
  fi
  echo "oclgrind.sh: a planted defect went unreported, or its kernel did not run"
  exit 1
fi
if [ "$nerr" -ne 0 ]; then
  echo "oclgrind.sh: oclgrind reported $nerr error(s), above"
  exit 1
fi
echo "oclgrind.sh: no errors reported"
if [ -n "$counts" ]; then
  awk -F"'" '/^Instructions executed for kernel/ { if (k != "") print k, v; k = $2; v = "scalar"; next }
             /call _Z6vload8/ { v = "vector" }
             END { if (k != "") print k, v }' "$out" >"$counts.tmp" && mv "$counts.tmp" "$counts"
fi
