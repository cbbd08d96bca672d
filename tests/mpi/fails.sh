#!/bin/sh
# fails.sh TEXT COMMAND...: COMMAND (an mpirun of lsk) must end, with a
# non-zero status, and its output must hold TEXT: a failure reported by
# every rank's agreement and printed once, by rank 0.
set -u
text=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ "$rc" -ne 0 ] || { echo "fails.sh: exit status 0"; exit 1; }
printf '%s\n' "$out" | grep -qF -- "$text" || { echo "fails.sh: no '$text' in the output"; exit 1; }
n=$(printf '%s\n' "$out" | grep -cF -- "$text")
[ "$n" -eq 1 ] || { echo "fails.sh: the message came $n times, not once (rank 0)"; exit 1; }
