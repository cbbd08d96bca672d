#!/usr/bin/env bash
# oclgrind.sh OCLGRIND LSK_TESTS [SUITE...]: run the suites (default: the
# "grind" suite) under oclgrind with race and uninitialized-memory checks,
# and fail on any report (oclgrind itself exits 0 when it reports errors).
set -u
oclgrind=$1 tests=$2
shift 2
[ $# -gt 0 ] || set -- grind
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# No fork: oclgrind's runtime lives in this one process. Its simulator is
# the only device there, whatever LSK_DEVICE says for the other tests.
# Reports go to stderr with the tests' output: oclgrind's --log FILE
# reopens (truncates) the file for every context, so it keeps only the
# last test's reports.
CK_FORK=no LSK_DEVICE='' "$oclgrind" --data-races --uninitialized "$tests" "$@" >"$out" 2>&1
rc=$?
cat "$out"
# Fatal errors (an instruction the checker does not support) go to stderr.
if grep -q "OCLGRIND FATAL" "$out"; then
  echo "oclgrind.sh: oclgrind stopped with a fatal error"
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "oclgrind.sh: the suites failed under oclgrind (exit $rc)"
  exit 1
fi
# Every report names its kernel, or the API function for runtime errors.
nerr=$(grep -cE $'^\t(Kernel|Function): ' "$out")
if [ "$nerr" -ne 0 ]; then
  echo "oclgrind.sh: oclgrind reported $nerr error(s), above"
  exit 1
fi
echo "oclgrind.sh: no errors reported"
