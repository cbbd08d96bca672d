#!/bin/sh
# fake_ptxas.sh: stands in for ptxas in tests/check.sh: reports a spill
# for every entry of the PTX it is given (the real ptxas -v's format).
for a in "$@"; do
  case $a in *.ptx) ptx=$a ;; esac
done
grep -o '^\.entry [A-Za-z0-9_]*' "$ptx" | while read -r _ name; do
  echo "ptxas info    : Compiling entry function '$name' for 'sm_90'"
  echo "ptxas info    : Function properties for $name"
  echo "    8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads"
  echo "ptxas info    : Used 255 registers, used 0 barriers"
done
