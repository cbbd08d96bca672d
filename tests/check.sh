#!/usr/bin/env bash
# check.sh LSK SOURCE_DIR: `lsk check`'s output and exit status (ctest
# check_cli): the README's kernel passes, with its row on the device and,
# where clang and libclc are, on NVPTX; a kernel with an error fails and
# every compiler names the file's own line 8; 64 KiB of static local
# memory fails on NVPTX (NVIDIA's 48 KiB); a spill that ptxas reports fails
# (a stand-in ptxas); the SASS's counts where cuobjdump or nvdisasm is;
# --tsv's columns; --emit-source's text; usage errors;
# barriers that not every worker reaches (the tests/check/*_foreach.cl,
# sync_master.cl and divergent.cl fixtures) fail at their lines, and
# sync_after.cl passes.
# The device parts are skipped without an OpenCL device, the NVPTX ones
# without clang and libclc (77 if both are missing).
# shellcheck disable=SC2015 # "test && ok || bad": ok only prints
set -uo pipefail
lsk=$1 src=$2
cd "$src" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# run NAME ARGS...: lsk check ARGS, stdout and stderr in $tmp/NAME.{out,err}, status in $rc.
run() {
  local name=$1
  shift
  "$lsk" check "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  rc=$?
}
has() { grep -qE -- "$2" "$tmp/$1.out" "$tmp/$1.err"; }
show() { sed 's/^/    /' "$tmp/$1.out" "$tmp/$1.err"; }

# NVIDIA's PyPI tools in the build (./run.sh nvidia-tools), after the system's.
wheels=$(cd "$(dirname "$lsk")/../.." 2>/dev/null && pwd)/nvidia-tools/nvidia/cu13/bin
[ -d "$wheels" ] && export PATH="$PATH:$wheels"

device=1
"$lsk" devices >/dev/null 2>&1 || device=0
nvptx=1
if ! "$lsk" check docs/examples/scale.cl --domain 1024 --no-device >/dev/null 2>&1 ||
  "$lsk" check docs/examples/scale.cl --domain 1024 --no-device | grep -q '^nvptx: skipped'; then
  nvptx=0
fi
[ $device = 0 ] && echo "check.sh: no OpenCL device: the device parts are skipped"
[ $nvptx = 0 ] && echo "check.sh: no clang with libclc: the NVPTX parts are skipped"
[ $device = 0 ] && [ $nvptx = 0 ] && exit 77
only=()
[ $device = 0 ] && only=(--no-device)
[ $nvptx = 0 ] && only=(--no-nvptx)

# The README's kernel (docs/examples/scale.cl), launched with domain 1024.
run scale docs/examples/scale.cl --domain 1024 "${only[@]}"
if [ $rc = 0 ] && has scale '^docs/examples/scale.cl: ok$'; then ok "scale.cl passes"; else bad "scale.cl (rc $rc)"; show scale; fi
if [ $device = 1 ]; then
  has scale '^  scale +1024 +[0-9]+ x [0-9]+ +[0-9]+ ' && ok "scale.cl: the device's row" ||
    { bad "scale.cl: no device row"; show scale; }
fi
if [ $nvptx = 1 ]; then
  has scale '^  scale +1024 +1024 x 1 +0 bytes' && ok "scale.cl: NVPTX, 1024 x 1, no shared memory" ||
    { bad "scale.cl: no NVPTX row of 1024 x 1"; show scale; }
  if has scale '^sm_90: skipped'; then
    echo "check.sh: no ptxas: the sm_90 columns are not checked"
  else
    has scale '^  scale .* [0-9]+ +0/0 +0 +0 +1024 +64 \(100%, warps\)' &&
      ok "scale.cl: sm_90 registers, no spill, 64 warps" || { bad "scale.cl: sm_90 row"; show scale; }
    # The SASS: scale's float loads and stores are 32-bit, none of 16 or 8 bytes.
    if has scale '^sass: skipped'; then
      echo "check.sh: no cuobjdump or nvdisasm: the SASS columns are not checked"
    else
      has scale '^  scale .*\(100%, warps\) +0/0 +0/0$' && ok "scale.cl: SASS, no 128- or 64-bit access" ||
        { bad "scale.cl: SASS columns"; show scale; }
    fi
  fi
fi

# A kernel with an error on line 8: each compiler names tests/check/broken.cl:8.
run broken tests/check/broken.cl "${only[@]}"
[ $rc = 1 ] && has broken 'broken.cl: FAILED' && ok "broken.cl fails (status 1)" ||
  { bad "broken.cl: status $rc"; show broken; }
if [ $device = 1 ]; then
  has broken 'broken\.cl:8:[0-9]+: .*undeclared_thing_xyz' && has broken 'broken\.cl:8 \| ' &&
    ok "broken.cl: the device's log names line 8" || { bad "broken.cl: device line"; show broken; }
fi
if [ $nvptx = 1 ]; then
  grep -qE '^tests/check/broken\.cl:8:20: error: use of undeclared identifier' "$tmp/broken.err" &&
    has broken 'nvptx: clang failed for domain 64, 64 x 1' &&
    ok "broken.cl: clang names line 8" || { bad "broken.cl: clang line"; show broken; }

  # Static shared memory over 48 KiB.
  run big tests/check/big_shared.cl --no-device
  [ $rc = 1 ] && has big "kernel 'big': 65536 bytes of static shared memory, more than NVIDIA's 48 KiB" &&
    ok "big_shared.cl: 64 KiB fails on NVPTX" || { bad "big_shared.cl (rc $rc)"; show big; }

  # A spill (ptxas stand-in): fails; its 255 registers let 256 workers, so
  # the rule chooses again under that limit, as a launch on the GPU does.
  CUOBJDUMP='' NVDISASM='' PTXAS=$src/tests/check/fake_ptxas.sh run spill docs/examples/scale.cl --domain 1024 --no-device
  [ $rc = 1 ] && has spill "kernel 'scale': spills on sm_90 \(8 bytes stored, 8 loaded; 255 registers\)" &&
    has spill '^  scale +1024 +256 x 1 \(lim\)' && ok "a spill fails; the rule under the register limit" ||
    { bad "spill (rc $rc)"; show spill; }

  # --tsv: the nvptx row's columns.
  # (the stand-in writes no cubin: no SASS, its columns -).
  CUOBJDUMP='' NVDISASM='' PTXAS=$src/tests/check/fake_ptxas.sh run tsv docs/examples/scale.cl --domain 1024 --no-device --tsv -D X=1
  has tsv "$(printf '^nvptx\tdocs/examples/scale.cl\t-DX=1\tscale\t1024\tgiven\t256\t1\t1\t0\t255\t8\t8\t8\t0\t256\t8\t12\tregisters\t-\t-\t-\t-$')" &&
    ok "--tsv row" || { bad "--tsv row"; show tsv; }

  # A compaction predicate with the compaction kernels behind it.
  run compact tests/nvptx/compact_uint.cl --compact uint --domain 2048 --no-device
  [ $rc = 0 ] && has compact '^  lsk_compact_indices +2048 +1024 x 1' && ok "--compact uint" ||
    { bad "--compact (rc $rc)"; show compact; }

  # Without clang: the step says why, and the device part decides.
  CLANG='' run noclang docs/examples/scale.cl --domain 1024 --no-device
  [ $rc = 0 ] && has noclang '^nvptx: skipped: CLANG is empty' && ok "CLANG= skips NVPTX" ||
    { bad "CLANG= (rc $rc)"; show noclang; }
fi

# Barriers that not every worker reaches (docs/lockstep.md): each fixture
# fails naming its own FILE:LINE, before any compiler runs; a barrier
# behind the file's own macro fails in each compiler through the device
# library's guard, at its line; a barrier after the ForEach passes on both.
while read -r name line text; do
  run "$name" "tests/check/$name.cl" "${only[@]}"
  [ $rc = 1 ] && has "$name" "tests/check/$name\.cl:$line: $text" && has "$name" 'not built: the source is refused' &&
    ok "$name.cl fails at line $line" || { bad "$name.cl (rc $rc)"; show "$name"; }
done <<'FIXTURES'
sync_foreach 9 lsk_sync inside LSK_FOREACH \(line 6\)
barrier_foreach 8 barrier inside LSK_FOREACH \(line 6\)
sync_master 9 lsk_sync_local inside LSK_MASTER \(line 7\)
collective_foreach 9 lsk_block_reduce_add_int inside LSK_FOREACH \(line 8\)
helper_foreach 20 neighbour \(a function with a barrier\) inside LSK_FOREACH \(line 18\)
break_foreach 10 break inside LSK_FOREACH \(line 8\)
FIXTURES
# The heuristic alone: a problem, and the compilers still run.
run divergent tests/check/divergent.cl "${only[@]}"
[ $rc = 1 ] && has divergent 'tests/check/divergent\.cl:8: lsk_sync under a condition on the worker \(line 7\)' &&
  ! has divergent 'not built' && ok "divergent.cl fails at line 8" || { bad "divergent.cl (rc $rc)"; show divergent; }
if [ $device = 1 ]; then
  run macro_dev tests/check/macro_foreach.cl --no-nvptx
  [ $rc = 1 ] && has macro_dev 'macro_foreach\.cl:10:[0-9]+[: ].*lsk_error_barrier_inside_LSK_FOREACH' &&
    ok "macro_foreach.cl: the device's compiler names line 10" || { bad "macro_foreach.cl: device (rc $rc)"; show macro_dev; }
  run after_dev tests/check/sync_after.cl --no-nvptx
  [ $rc = 0 ] && ok "sync_after.cl passes on the device" || { bad "sync_after.cl: device (rc $rc)"; show after_dev; }
fi
if [ $nvptx = 1 ]; then
  run macro_ptx tests/check/macro_foreach.cl --no-device
  [ $rc = 1 ] && grep -qE "^tests/check/macro_foreach\.cl:10:5: error: passing '__private lsk_error_barrier_inside_LSK_FOREACH' to parameter of incompatible type 'int'" "$tmp/macro_ptx.err" &&
    ok "macro_foreach.cl: clang names line 10" || { bad "macro_foreach.cl: clang (rc $rc)"; show macro_ptx; }
  run after_ptx tests/check/sync_after.cl --no-device
  [ $rc = 0 ] && has after_ptx '^  shift +256 \(decl\) +256 x 1' && ok "sync_after.cl passes on NVPTX (-Werror)" ||
    { bad "sync_after.cl: NVPTX (rc $rc)"; show after_ptx; }
fi

# --emit-source: the text lsk builds, the user's file behind its #line.
run emit tests/check/broken.cl --emit-source
[ $rc = 0 ] && grep -q '^#line 1 "tests/check/broken.cl"$' "$tmp/emit.out" &&
  grep -q '^#define LSK_CL_DEVICE_H\|^#define LSK_CL_CONFIG_H' "$tmp/emit.out" &&
  grep -q -- '-DLSK_DOMAIN_SIZE=64 -DLSK_WORKERS=1 -DLSK_SIMD=1' "$tmp/emit.err" &&
  ok "--emit-source" || { bad "--emit-source (rc $rc)"; head -c 600 "$tmp/emit.err"; }

# Usage and missing domains.
run usage docs/examples/scale.cl --domain 0
[ $rc = 2 ] && has usage "bad value '0' for --domain" && ok "--domain 0 is a usage error" ||
  { bad "--domain 0 (rc $rc)"; show usage; }
run nodomain docs/examples/scale.cl "${only[@]}"
[ $rc = 2 ] && has nodomain 'declares no block domain \(LSK_DECLARE_DOMAIN\): give --domain X' &&
  ok "no domain: a usage error that says to give --domain" ||
  { bad "no domain (rc $rc)"; show nodomain; }

run nokernel docs/examples/scale.cl --domain 1024 --domain nosuch=4 "${only[@]}"
[ $rc = 1 ] && has nokernel "--domain nosuch=...: the file has no kernel 'nosuch'" &&
  ok "--domain KERNEL=X for no kernel fails" || { bad "--domain nosuch (rc $rc)"; show nokernel; }
printf 'LSK_DECLARE_DOMAIN2(k, 4);\nLSK_KERNEL void k(LSK_CTX) {}\n' >"$tmp/malformed.cl"
run malformed "$tmp/malformed.cl"
[ $rc = 1 ] && has malformed 'malformed.cl: line 1: malformed LSK_DECLARE_DOMAIN: 1 extent given' &&
  ok "a malformed declaration fails, with its line" || { bad "malformed (rc $rc)"; show malformed; }

[ $fail = 0 ] && echo "check.sh: ok" || echo "check.sh: FAILED"
exit $fail
