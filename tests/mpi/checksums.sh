#!/bin/sh
# checksums.sh LSK EXAMPLE ARGS...: the last line of `lsk demo EXAMPLE ARGS`
# (one device, no MPI) and of `$LSK_MPIRUN -n N lsk mpi EXAMPLE ARGS` for
# N = 1, 2, 3 and 4 (3: an uneven split) must be the same "state checksum:"
# line. LSK_MPIRUN: the mpirun command and its flags.
set -eu
lsk=$1
example=$2
shift 2
want=$("$lsk" demo "$example" "$@" | tail -n 1)
echo "no MPI: $want"
case $want in "state checksum: "*) ;; *) echo "checksums.sh: no checksum line"; exit 1 ;; esac
for n in 1 2 3 4; do
  # shellcheck disable=SC2086
  got=$($LSK_MPIRUN -n "$n" "$lsk" mpi "$example" "$@" | tail -n 1)
  echo "$n ranks: $got"
  if [ "$got" != "$want" ]; then
    echo "checksums.sh: $n ranks differ from the run without MPI"
    exit 1
  fi
done
