#!/bin/sh
# checksums.sh LSK EXAMPLE ARGS...: the last line of `lsk demo EXAMPLE ARGS`
# (one device, no MPI) and of `$LSK_MPIRUN -n N lsk mpi EXAMPLE ARGS` for
# N = 1, 2, 3 and 4 (3: an uneven split) must be the same "state checksum:"
# line, and every run must exit with status 0. LSK_MPIRUN: the mpirun
# command and its flags.
set -eu
lsk=$1
example=$2
shift 2
out=$("$lsk" demo "$example" "$@") || { printf '%s\n' "$out"; echo "checksums.sh: exit status not 0"; exit 1; }
want=$(printf '%s\n' "$out" | tail -n 1)
echo "no MPI: $want"
case $want in "state checksum: "*) ;; *) echo "checksums.sh: no checksum line"; exit 1 ;; esac
for n in 1 2 3 4; do
  # shellcheck disable=SC2086
  out=$($LSK_MPIRUN -n "$n" "$lsk" mpi "$example" "$@") ||
    { printf '%s\n' "$out"; echo "checksums.sh: $n ranks: exit status not 0"; exit 1; }
  got=$(printf '%s\n' "$out" | tail -n 1)
  echo "$n ranks: $got"
  if [ "$got" != "$want" ]; then
    echo "checksums.sh: $n ranks differ from the run without MPI"
    exit 1
  fi
done
