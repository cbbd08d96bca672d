#!/usr/bin/env bash
# run_each.sh CMD [ARG...] [-- CMD [ARG...]]...: runs each command in turn,
# for one ctest test over suites of several test binaries (group_two_pocl:
# lsk_tests' group_devices, then lsk_pixel_tests' pixel_group). All run;
# the exit status is the first that is neither 0 nor 77 (a failure); else
# 77 (ctest's skip) if every command skipped; else 0.
set -u
[ $# -gt 0 ] || { echo "usage: run_each.sh CMD [ARG...] [-- CMD [ARG...]]..." >&2; exit 2; }
status=77 failed=0
while [ $# -gt 0 ]; do
  cmd=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    cmd+=("$1")
    shift
  done
  [ $# -gt 0 ] && shift # the --
  "${cmd[@]}"
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
    echo "run_each.sh: ${cmd[*]}: exit status $rc"
    [ "$failed" -ne 0 ] || failed=$rc
  fi
  [ "$rc" -eq 0 ] && status=0
done
[ "$failed" -eq 0 ] || exit "$failed"
exit "$status"
