#!/bin/sh
# pic_checksums.sh LSK ARGS...: the last line of `lsk demo pic ARGS` (one
# device, no MPI) and of `$LSK_MPIRUN -n N lsk mpi pic ARGS --reference`
# (which also compares every particle with the C reference on rank 0)
# must be the same "state checksum:" line, for N = 1, 2, 3 and 4 (3: an
# uneven split), and every run must exit with status 0.
# With PARTS=PXxPY set: one run, on PX * PY ranks split so (--parts), and
# some particles must have gone past the next rank (ranks one cell wide).
# LSK_MPIRUN: the mpirun command and its flags.
set -eu
lsk=$1
shift
want=$("$lsk" demo pic "$@" | tail -n 1)
echo "no MPI: $want"
case $want in "state checksum: "*) ;; *) echo "pic_checksums.sh: no checksum line"; exit 1 ;; esac
if [ -n "${PARTS:-}" ]; then
  n=$((${PARTS%x*} * ${PARTS#*x}))
  # shellcheck disable=SC2086
  out=$($LSK_MPIRUN -n "$n" "$lsk" mpi pic "$@" --reference --parts "$PARTS") ||
    { printf '%s\n' "$out"; echo "pic_checksums.sh: exit status not 0"; exit 1; }
  printf '%s\n' "$out"
  got=$(printf '%s\n' "$out" | tail -n 1)
  [ "$got" = "$want" ] || { echo "pic_checksums.sh: $PARTS ranks differ from the run without MPI"; exit 1; }
  printf '%s\n' "$out" | grep -qE '\([1-9][0-9]* past the next rank' ||
    { echo "pic_checksums.sh: no particle went past the next rank"; exit 1; }
  exit 0
fi
for n in 1 2 3 4; do
  # shellcheck disable=SC2086
  out=$($LSK_MPIRUN -n "$n" "$lsk" mpi pic "$@" --reference) ||
    { printf '%s\n' "$out"; echo "pic_checksums.sh: $n ranks: exit status not 0"; exit 1; }
  got=$(printf '%s\n' "$out" | tail -n 1)
  echo "$n ranks: $got"
  if [ "$got" != "$want" ]; then
    echo "pic_checksums.sh: $n ranks differ from the run without MPI"
    exit 1
  fi
done
