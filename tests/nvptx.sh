#!/usr/bin/env bash
# nvptx.sh LSK SOURCE_DIR OUT_DIR [JOBS]: the ctest label nvptx. Compiles
# every kernel file lsk ships (the globs kernels/*.cl and examples/*/*.cl)
# and every kind of generated SoA accessor the way NVIDIA's OpenCL does,
# through PTX: `lsk check --no-device` on each line of tests/nvptx/recipes
# (clang and libclc for nvptx64-nvidia-nvcl, OpenCL C 1.2, -Werror, the
# GPU shapes of the automatic rule; the static shared memory of each kernel
# from the PTX against NVIDIA's 48 KiB; with ptxas, sm_90's registers,
# spills, barriers and occupancy, failing on any spill; with cuobjdump or
# nvdisasm, each kernel's global loads and stores of 16 and 8 bytes in its
# SASS). Then: the 16-byte access (a double2 column loads as one
# ld.global.v2.f64), the SASS counts of tests/nvptx/*.counts (the Kokkos
# alignment study's kernel, tests/nvptx/study.cl, and its CUDA form
# study.cu where nvcc is), and the sm_90 table (OUT_DIR/sm90.md, printed;
# docs/perf/nvptx-sm90.md keeps a dated copy).
# Skipped (77) without clang or libclc; the sm_90 step is skipped, with its
# reason, without the CUDA toolkit's ptxas, the SASS step without cuobjdump
# and nvdisasm (the CUDA toolkit's, or NVIDIA's PyPI wheels, which
# `./run.sh nvidia-tools` installs into BUILD/nvidia-tools). JOBS runs at once
# (default: the cores).
set -uo pipefail
lsk=$1 src=$2 out=$3 jobs=${4:-$(nproc 2>/dev/null || echo 2)}
start=$(date +%s.%N)

# The tools, found as `lsk check` finds them (it gets the same CLANG).
# tools_missing: why they cannot be used, in $why (empty if they can).
tools_missing() {
  clang=${CLANG:-}
  if [ -z "$clang" ]; then
    for c in clang-15 clang; do
      if command -v "$c" >/dev/null; then clang=$c; break; fi
    done
  fi
  if [ -z "$clang" ] || ! command -v "$clang" >/dev/null; then
    why="no clang-15 or clang in PATH (Debian: apt-get install clang-15)"
    return
  fi
  if ! "$clang" -print-targets 2>/dev/null | grep -q nvptx64; then
    why="$clang has no nvptx64 target"
    return
  fi
  libclc=${LSK_LIBCLC:-/usr/lib/clc/nvptx64--nvidiacl.bc}
  if [ ! -r "$libclc" ]; then
    why="no libclc for nvptx64 at $libclc (Debian: apt-get install libclc-15)"
    return
  fi
  # A kernel without lsk: the tools work together (clang-14 cannot read
  # libclc-15's bitcode, for one).
  local probe
  probe=$(mktemp -d)
  echo '__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }' >"$probe/k.cl"
  if ! "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -finclude-default-header \
    -Xclang -mlink-builtin-bitcode -Xclang "$libclc" -Wno-linker-warnings -O3 -S \
    -o "$probe/k.ptx" "$probe/k.cl" >"$probe/log" 2>&1; then
    why="$clang with $libclc cannot compile a plain kernel to PTX (Debian: clang-15 with"
    why+=" libclc-15): $(head -c 300 "$probe/log")"
  fi
  rm -rf "$probe"
}
# LSK_NVPTX_DEVICE=1 (tests/nvidia.sh on the GPU): the selected device's
# figures too, beside the prediction (OUT_DIR/device.md); without clang,
# the device's alone.
with_device=${LSK_NVPTX_DEVICE:-0}
why=
tools_missing
nvptx=1
flags=(--tsv)
[ "$with_device" = 1 ] || flags+=(--no-device)
if [ -n "$why" ]; then
  if [ "$with_device" != 1 ]; then
    echo "nvptx.sh: skipped: $why"
    exit 77
  fi
  echo "nvptx.sh: NVPTX skipped: $why; the device's figures only"
  nvptx=0
  flags+=(--no-nvptx)
  export CLANG=
else
  export CLANG=$clang LSK_LIBCLC=$libclc
fi
# NVIDIA's tools: in PATH, else the CUDA toolkit's folder, else the PyPI
# wheels' in the build (./run.sh nvidia-tools); a variable set, even empty, decides.
wheels=$(cd "$(dirname "$lsk")/../.." 2>/dev/null && pwd)/nvidia-tools/nvidia/cu13/bin
cuda_tool() { # VARIABLE PROGRAM: the path, or empty
  if [ -n "${!1+set}" ]; then
    echo "${!1}"
  elif command -v "$2" 2>/dev/null; then
    :
  else
    for d in /usr/local/cuda/bin "$wheels"; do
      [ -x "$d/$2" ] && { echo "$d/$2"; return; }
    done
  fi
}
ptxas=$(cuda_tool PTXAS ptxas)
if [ $nvptx = 0 ]; then
  :
elif [ -n "$ptxas" ]; then
  export PTXAS=$ptxas
  echo "nvptx.sh: $clang, $libclc, $ptxas ($("$ptxas" --version | tail -n 1))"
else
  export PTXAS=
  echo "nvptx.sh: $clang, $libclc; sm_90 and SASS steps skipped: no ptxas (the CUDA toolkit's; not in" \
    "Debian) in PATH, /usr/local/cuda/bin or $wheels (./run.sh nvidia-tools installs it there)"
fi
# The SASS step: lsk check reads it with cuobjdump, else nvdisasm.
CUOBJDUMP=$(cuda_tool CUOBJDUMP cuobjdump) NVDISASM=$(cuda_tool NVDISASM nvdisasm)
export CUOBJDUMP NVDISASM
sass=0
if [ $nvptx = 1 ] && [ -n "$ptxas" ] && [ -n "$CUOBJDUMP$NVDISASM" ]; then
  sass=1
  if [ -n "$CUOBJDUMP" ]; then echo "nvptx.sh: SASS: $CUOBJDUMP -sass"; else echo "nvptx.sh: SASS: $NVDISASM"; fi
elif [ $nvptx = 1 ] && [ -n "$ptxas" ]; then
  echo "nvptx.sh: SASS step skipped: no cuobjdump or nvdisasm in PATH, /usr/local/cuda/bin or" \
    "$wheels (./run.sh nvidia-tools installs NVIDIA's wheels there)"
fi

rm -rf "$out"
mkdir -p "$out/layouts" "$out/ptx" "$out/runs"
cd "$src" || exit 1

# @soa:FILE: a layout file for each LSK_SOA_DEFINE(view, align, MEMBERS) of
# FILE, from its X-macro "#define MEMBERS(COLUMN, MATRIX, SCALAR) ...";
# prints "--layout PATH" for each, in order.
soa_layouts() {
  local f=$1 joined d v a m body
  [ -r "$f" ] || { echo "nvptx.sh: @soa:$f: no such file" >&2; return 1; }
  joined=$(sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$f")
  while IFS= read -r d; do
    read -r v a m <<<"$(sed -E 's/LSK_SOA_DEFINE\(([^,]+), *([^,]+), *([^)]+)\)/\1 \2 \3/' <<<"$d")"
    body=$(grep -E "^#define $m\(COLUMN, *MATRIX, *SCALAR\)" <<<"$joined")
    if [ -z "$body" ]; then
      echo "nvptx.sh: $f: LSK_SOA_DEFINE($v, $a, $m) without #define $m(COLUMN, MATRIX, SCALAR)" >&2
      return 1
    fi
    {
      echo "# made by tests/nvptx.sh from $f: LSK_SOA_DEFINE($v, $a, $m)"
      echo "layout $v align $a"
      grep -oE '(COLUMN|MATRIX|SCALAR)\([^)]*\)' <<<"${body#*)}" |
        sed -E -e 's/COLUMN\(([^,]+), *([^)]+)\)/column \1 \2/' \
          -e 's/MATRIX\(([^,]+), *([^,]+), *([^,]+), *([^)]+)\)/matrix \1 \2 \3 \4/' \
          -e 's/SCALAR\(([^,]+), *([^)]+)\)/scalar \1 \2/'
    } >"$out/layouts/$v.layout"
    printf -- '--layout %s\n' "$out/layouts/$v.layout"
  done < <(grep -oE 'LSK_SOA_DEFINE\([A-Za-z0-9_]+, *[0-9]+, *[A-Za-z0-9_]+\)' <<<"$joined")
}

# The runs: the recipes, then the default for each globbed file none covers.
n=0 fail=0
declare -A covered
add_run() { # COVERS ARGS...
  local covers=$1 t
  shift
  local args=()
  for t in "$@"; do
    if [[ $t == @soa:* ]]; then
      local made
      made=$(soa_layouts "${t#@soa:}") || return 1
      # shellcheck disable=SC2206
      args+=($made)
    else
      args+=("$t")
    fi
  done
  n=$((n + 1))
  {
    printf 'cd %q\n' "$src"
    printf '%q ' "$lsk" check "${args[@]}" "${flags[@]}" --ptx "$out/ptx/run$n"
    printf '>%q 2>%q\necho $? >%q\n' "$out/runs/$n.tsv" "$out/runs/$n.err" "$out/runs/$n.rc"
  } >"$out/runs/$n.sh"
  echo "$covers: ${args[*]}" >"$out/runs/$n.what"
  covered[$covers]=1
}
# tests/nvptx/recipes, then any tests/nvptx/*.recipes (a part's own file).
while read -r covers rest; do
  [[ -z $covers || $covers == \#* ]] && continue
  if [ ! -e "$covers" ]; then
    echo "note: tests/nvptx recipes name $covers, not in this tree: skipped"
    continue
  fi
  # shellcheck disable=SC2086
  add_run "$covers" $rest || fail=1
done < <(cat "$src/tests/nvptx/recipes" "$src"/tests/nvptx/*.recipes 2>/dev/null)
for f in kernels/*.cl examples/*/*.cl; do
  if [ -z "${covered[$f]:-}" ]; then
    echo "note: $f: no line in tests/nvptx/recipes: checked as '$f --domain 2048'"
    add_run "$f" "$f" --domain 2048 || fail=1
  fi
done

# All runs, JOBS at once.
printf '%s\n' "$out"/runs/*.sh | xargs -P "$jobs" -n 1 bash

# Their results.
rows=0 files=0
for i in $(seq 1 $n); do
  rc=$(cat "$out/runs/$i.rc" 2>/dev/null || echo 99)
  what=$(cat "$out/runs/$i.what")
  k=$(grep -c "^$([ $nvptx = 1 ] && echo nvptx || echo device)" "$out/runs/$i.tsv" || true)
  rows=$((rows + k))
  files=$((files + 1))
  if [ "$rc" != 0 ] || [ "$k" = 0 ]; then
    echo "FAIL ($rc, $k kernels): lsk check $what"
    sed 's/^/  /' "$out/runs/$i.err"
    fail=1
  fi
done

if [ $nvptx = 1 ]; then
  # The 16-byte access: in soa_load one ld.global.v2.f64 reads the double2
  # column; aos_load (two doubles aligned to 8) loads them one by one.
  entry() { awk -v e="$2" '$0 ~ "^\\.entry " e "\\(" {p = 1} p {print} p && /^}/ {exit}' "$1"; }
  d2=$(grep -l 'double2.cl' "$out"/runs/*.what | head -n 1)
  d2ptx=$(find "$out/ptx/run$(basename "$d2" .what)" -name 'double2.*.ptx' 2>/dev/null | head -n 1)
  if [ -z "$d2ptx" ]; then
    echo "FAIL: no PTX of tests/nvptx/double2.cl"
    fail=1
  elif ! entry "$d2ptx" soa_load | grep -q 'ld\.global\.v2\.f64' ||
    entry "$d2ptx" aos_load | grep -q 'ld\.global\.v2\.f64' ||
    [ "$(entry "$d2ptx" aos_load | grep -c 'ld\.global\.f64')" -lt 2 ]; then
    echo "FAIL: the double2 column is not one ld.global.v2.f64 (or the struct is); PTX: $d2ptx"
    entry "$d2ptx" soa_load | grep 'ld\.global'
    entry "$d2ptx" aos_load | grep 'ld\.global'
    fail=1
  else
    echo "16-byte access: soa_load reads the double2 column with one ld.global.v2.f64:"
    entry "$d2ptx" soa_load | grep 'ld\.global\.v2\.f64' | sed 's/^[[:space:]]*/  /'
  fi

  # Views (tests/nvptx/views.cl): an enforced view's alignment lets a pair
  # of doubles load as one ld.global.v2.f64; a relaxed view's does not.
  vw=$(grep -l 'views_generated.h --domain 256$' "$out"/runs/*.what | head -n 1)
  vptx=$([ -n "$vw" ] && find "$out/ptx/run$(basename "$vw" .what)" -name 'views.*.ptx' | head -n 1)
  if [ -z "$vptx" ]; then
    echo "FAIL: no PTX of tests/nvptx/views.cl"
    fail=1
  elif ! entry "$vptx" enforced_pairs | grep -q 'ld\.global\.v2\.f64' ||
    [ "$(entry "$vptx" relaxed_pairs | grep -c 'ld\.global\.f64')" -lt 2 ]; then
    echo "FAIL: enforced_pairs has no ld.global.v2.f64, or relaxed_pairs not two ld.global.f64: $vptx"
    fail=1
  else
    echo "views: enforced_pairs reads a pair of doubles with one ld.global.v2.f64, relaxed_pairs with two ld.global.f64"
  fi

  # The table: per file (the recipe's COVERS, with the input and options
  # where one file has several runs) and configuration, one row for the
  # kernels with the same figures.
  for i in $(seq 1 $n); do
    covers=$(sed 's/: .*//' "$out/runs/$i.what")
    grep '^nvptx' "$out/runs/$i.tsv" | sed "s|^|$covers\t|"
  done | sort -s -t "$(printf '\t')" -k1,1 >"$out/nvptx.tsv"
  {
    echo "| file | kernels | domain | workers x simd | shared | registers | spills (st/ld) | stack | barriers | workers limit | warps/SM | occupancy (limit) | ld/st 128, 64 |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    awk -F '\t' '
      # $1 covers, $3 file, $4 options, $5 kernel, $6 domain, $8 x $9 shape,
      # $10 register-limited, $11 shared, $12 regs, $13/$14 spills, $15 stack,
      # $16 barriers, $17 workers limit, $18 warps, $19 occupancy, $20 limit,
      # $21 to $24 the global loads/stores of 16 and 8 bytes in the SASS.
      NR == FNR { if (!seen[$1 FS $3 FS $4]++) variants[$1]++; next }
      {
        label = $1 ($3 != $1 ? " via " $3 : "") (variants[$1] > 1 && $4 != "-" ? " " $4 : "")
        shape = $8 " x " $9 ($10 == 1 ? " (register limit)" : "")
        shared = ($11 % 1024 == 0 && $11 > 0 ? $11 / 1024 " KiB" : $11 " B")
        occ = ($19 == "-" ? "-" : $19 "% (" $20 ")")
        ldst = ($21 == "-" || $21 == "" ? "-" : $21 "/" $22 ", " $23 "/" $24)
        row = label " | %s | " $6 " | " shape " | " shared " | " $12 " | " $13 "/" $14 " | " $15 " | " $16 " | " $17 " | " $18 " | " occ " | " ldst
        if (!(row in names)) { order[++nrows] = row; names[row] = $5 } else names[row] = names[row] ", " $5
      }
      END { for (i = 1; i <= nrows; ++i) { r = order[i]; sub(/%s/, names[r], r); print "| " r " |" } }
    ' "$out/nvptx.tsv" "$out/nvptx.tsv"
  } >"$out/sm90.md"

  # The SASS counts: each line "COVERS KERNEL LD128 ST128 LD64 ST64" of
  # tests/nvptx/*.counts against every row of that kernel under COVERS
  # (each configuration; OUT_DIR/sass.tsv has them all); a COVERS of a
  # .cu file is compiled with nvcc for sm_90 and counted the same way.
  if [ $sass = 1 ]; then
    awk -F '\t' '{ print $1 "\t" $5 "\t" $21 "\t" $22 "\t" $23 "\t" $24 }' "$out/nvptx.tsv" >"$out/sass.tsv"
    nvcc=$(cuda_tool NVCC nvcc)
    awk '!/^#/ && $1 ~ /\.cu$/ { print $1 }' "$src"/tests/nvptx/*.counts | sort -u >"$out/cuda.list"
    while read -r cu; do
      cubin=$out/$(basename "$cu" .cu).cuda.cubin
      if [ -z "$nvcc" ]; then
        echo "note: $cu: no nvcc in PATH or /usr/local/cuda/bin: its counts are not checked"
        continue
      elif ! "$nvcc" -arch=sm_90 -cubin -o "$cubin" "$cu" >"$out/nvcc.log" 2>&1; then
        # The CUDA form is the reference, not lsk's: a note (nvcc wants a
        # host C++ compiler even for a cubin).
        echo "note: $cu: nvcc -arch=sm_90 -cubin failed: its counts are not checked:"
        sed 's/^/  /' "$out/nvcc.log" | head -n 5
        continue
      fi
      # The listing counted as lsk check counts (check_ptx.c's sass_ldst).
      if [ -n "$CUOBJDUMP" ]; then "$CUOBJDUMP" -sass "$cubin"; else "$NVDISASM" "$cubin"; fi |
        awk -v f="$cu" '
          function done() { if (k != "") print f "\t" k "\t" n["L128"]+0 "\t" n["S128"]+0 "\t" n["L64"]+0 "\t" n["S64"]+0 }
          /^[ \t]*\.section/ { done(); k = ""; split("", n); next }
          /Function : / || /^\.text\./ { done(); k = $NF; sub(/^\.text\./, "", k); sub(/:$/, "", k); split("", n); next }
          k != "" && match($0, /^[ \t]*\/\*[0-9a-f]+\*\/[ \t]+(@!?[A-Z0-9]+[ \t]+)?(LDG|STG)\.[A-Z0-9.]*/) {
            op = substr($0, RSTART, RLENGTH); sub(/.*[ \t]/, "", op)
            w = ("." op ".") ~ /\.128\./ ? "128" : ("." op ".") ~ /\.64\./ ? "64" : ""
            if (w != "") n[substr(op, 1, 1) w]++
          }
          END { done() }' >>"$out/sass.tsv"
    done <"$out/cuda.list"
    if awk '
      FNR == NR { k = $1 SUBSEP $2; got[k] = (rows[k]++ ? got[k] ";" : "") $3 " " $4 " " $5 " " $6; file[$1] = 1; next }
      /^#/ || NF == 0 { next }
      $1 ~ /\.cu$/ && !($1 in file) { next } # not compiled: said above
      {
        key = $1 SUBSEP $2; want = $3 " " $4 " " $5 " " $6; ++n
        if (!(key in got)) { print "FAIL: no SASS counts of " $1 " " $2; bad = 1; next }
        m = split(got[key], g, ";"); wrong = 0
        for (i = 1; i <= m; ++i)
          if (g[i] != want) { print "FAIL: " $1 " " $2 ": ld/st 128, ld/st 64 " g[i] ", expected " want " (" FILENAME ")"; wrong = bad = 1 }
        if (!wrong) printf "  %-28s %-10s ld/st 128 %s/%s, ld/st 64 %s/%s\n", $1, $2, $3, $4, $5, $6
      }
      END { exit bad }' FS='\t' "$out/sass.tsv" FS=' ' "$src"/tests/nvptx/*.counts >"$out/sass.out"; then
      echo "SASS counts as tests/nvptx/*.counts says ($(grep -c '^  ' "$out/sass.out") kernels):"
      cat "$out/sass.out"
    else
      cat "$out/sass.out"
      fail=1
    fi
  fi
  kernels=$(wc -l <"$out/nvptx.tsv")
  configs=$(find "$out/ptx" -name '*.ptx' | wc -l)
  spills=$(awk -F '\t' '$13 != "-" && ($13 + $14) > 0' "$out/nvptx.tsv" | wc -l)
  maxshared=$(awk -F '\t' '$11 > m {m = $11} END {print m + 0}' "$out/nvptx.tsv")
  echo
  cat "$out/sm90.md"
  echo
fi
end=$(date +%s.%N)
if [ "$with_device" = 1 ]; then
  # The device's own figures beside the prediction, per kernel.
  for i in $(seq 1 $n); do
    covers=$(sed 's/: .*//' "$out/runs/$i.what")
    grep -E '^(device|nvptx)' "$out/runs/$i.tsv" | sed "s|^|$covers\t|"
  done >"$out/both.tsv"
  {
    echo "| file | kernel | domain | device: workers x simd | device: workers limit | predicted limit | device: local | predicted shared | device: private |"
    echo "|---|---|---|---|---|---|---|---|---|"
    awk -F '\t' '
      $2 == "nvptx" { key = $1 FS $3 FS $4 FS $5; lim[key] = $17; sh[key] = $11 }
      $2 == "device" { key = $1 FS $3 FS $4 FS $5; order[++n] = key; row[key] = $1 ($3 != $1 ? " via " $3 : "") ($4 != "-" ? " " $4 : "") " | " $5 " | " $6 " | " $8 " x " $9 " | " $10; loc[key] = $11; prv[key] = $12 }
      END {
        for (i = 1; i <= n; ++i) {
          k = order[i]
          printf "| %s | %s | %s B | %s | %s B |\n", row[k], (k in lim ? lim[k] : "-"), loc[k], (k in sh ? sh[k] " B" : "-"), prv[k]
        }
      }' "$out/both.tsv"
  } >"$out/device.md"
  echo
  cat "$out/device.md"
  echo
fi
if [ $nvptx = 1 ]; then
  printf 'nvptx.sh: %d runs, %d kernel rows, %d configurations compiled, largest static shared %s bytes, %d with spills; %.1f s\n' \
    "$files" "$kernels" "$configs" "$maxshared" "$spills" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
else
  printf 'nvptx.sh: %d runs on the device; %.1f s\n' "$files" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
fi
[ "$fail" = 0 ] && echo "nvptx.sh: ok" || echo "nvptx.sh: FAILED"
exit $fail
