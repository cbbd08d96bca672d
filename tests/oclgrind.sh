#!/usr/bin/env bash
# oclgrind.sh OCLGRIND LSK_TESTS [SUITE]: run the "grind" suite (or SUITE) under oclgrind with
# race and uninitialized-memory checks, and fail on any report in its log
# (oclgrind itself exits 0 when it reports errors).
set -u
oclgrind=$1 tests=$2 suite=${3:-grind}
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
# No fork: oclgrind's runtime lives in this one process. Its simulator is
# the only device there, whatever LSK_DEVICE says for the other tests.
CK_FORK=no LSK_DEVICE='' "$oclgrind" --data-races --uninitialized --log "$log" "$tests" "$suite" >"$out" 2>&1
rc=$?
cat "$out"
# Fatal errors (an instruction the checker does not support) go to stderr.
if grep -q "OCLGRIND FATAL" "$out"; then
  echo "oclgrind.sh: oclgrind stopped with a fatal error"
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "oclgrind.sh: the $suite suite failed under oclgrind (exit $rc)"
  cat "$log"
  exit 1
fi
if [ -s "$log" ]; then
  echo "oclgrind.sh: oclgrind reported $(grep -c 'Kernel:' "$log") error(s):"
  cat "$log"
  exit 1
fi
echo "oclgrind.sh: no errors reported"
