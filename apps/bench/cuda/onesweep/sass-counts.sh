#!/usr/bin/env bash
# Static instruction counts of the onesweep pass, from its SASS: the port (onesweep.cu) in several
# knob builds, at every phase-ablation stop, beside CUB's own onesweep kernel (keys only, u32). No
# GPU is needed, only a compiler and a disassembler, so this runs on the device machine (nvcc and
# cuobjdump of its CUDA) or on any machine with a CUDA toolkit.
#
# The phases of the pass are unrolled per key, so a phase's static count (the difference between two
# stops) is what each invocation issues for it; the look-back's loops are the exception.
#
# Usage: bash sass-counts.sh OUTPUT_FOLDER
#   CONFIGS="name|defines ..." replaces the builds below (same form as variants.sh).
#   A toolkit whose cuobjdump cannot read the cubins of this nvcc (an older one) can still be used:
#   PTXAS=/old/ptxas CUOBJDUMP=/old/cuobjdump PTX_VERSION=7.8 assembles nvcc's PTX with the older
#   ptxas after lowering the PTX version (enough for this code; the counts are then that ptxas's).
set -euo pipefail
out=${1:?usage: sass-counts.sh OUTPUT_FOLDER}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
ptxas=${PTXAS:-ptxas}
cuobjdump=${CUOBJDUMP:-cuobjdump}
arch=sm_90

default_configs=(
  "shift|"
  "shift_split|-DRANK_FIXUP_SPLIT=1"
  "sign_split|-DRANK_FIXUP_SPLIT=1 -DRANK_BITS=1"
  "constmask_split|-DRANK_FIXUP_SPLIT=1 -DRANK_BITS=2"
  "cubptx_split|-DRANK_FIXUP_SPLIT=1 -DRANK_BITS=3"
  "pad_split|-DRANK_FIXUP_SPLIT=1 -DPAD_LAST=1"
  "pad_sign_split|-DRANK_FIXUP_SPLIT=1 -DPAD_LAST=1 -DRANK_BITS=1"
  "pad_sign_split_e16|-DRANK_FIXUP_SPLIT=1 -DPAD_LAST=1 -DRANK_BITS=1 -DKEYS_PER_THREAD=16"
)
if [ -n "${CONFIGS:-}" ]; then IFS=$'\n' read -r -d '' -a configs <<< "$CONFIGS" || true; else configs=("${default_configs[@]}"); fi

# cubin NAME SOURCE DEFINES...: $out/NAME.cubin and NAME.ptxas (registers), through PTX.
cubin() {
  local name=$1 src=$2
  shift 2
  nvcc -arch=$arch -O3 -std=c++17 "$@" -ptx -o "$out/$name.ptx" "$src"
  [ -n "${PTX_VERSION:-}" ] && sed -i "s/^\.version .*/.version $PTX_VERSION/" "$out/$name.ptx"
  "$ptxas" -arch=$arch -O3 -v -o "$out/$name.cubin" "$out/$name.ptx" > "$out/$name.ptxas" 2>&1
}
# sass CUBIN FUNCTION: the function's instructions, one per line, without addresses and encodings.
sass() {
  "$cuobjdump" -sass -fun "$2" "$1" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's/^\s+\/\*[0-9a-f]+\*\/\s+//; s/\s*\/\*.*//'
}
# opcounts: the counts of the opcodes that tell the ranking's forms apart.
opcounts() {
  awk '{ op = $1; if (op ~ /^@/) op = $2; sub(/\..*/, "", op); sub(/;/, "", op); n[op]++ }
    END { printf "%d VOTE, %d LOP3, %d ISETP, %d SEL, %d SHF, %d IMAD, %d R2P", n["VOTE"], n["LOP3"], n["ISETP"], n["SEL"], n["SHF"], n["IMAD"], n["R2P"] }'
}
# registers PTXAS_LOG FUNCTION
registers() { grep -A4 "Compiling entry function '$2'" "$1" | grep -o 'Used [0-9]* registers' | head -n 1 | grep -o '[0-9]*'; }

{
  echo "# onesweep pass, static SASS instructions per invocation, $(date -u +%F), $(nvcc --version | tail -n 1), ptxas $("$ptxas" --version | tail -n 1)"
  echo
  echo "| build | registers | load | + early counts | + rank | + tile offsets | + look-back | + staging | full | rank per key | full pass: opcodes |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for c in "${configs[@]}"; do
    name=${c%%|*}
    read -r -a defines <<< "${c#*|}"
    cubin "$name" "$here/onesweep.cu" "${defines[@]}"
    keys=13
    for d in "${defines[@]}"; do [[ $d == -DKEYS_PER_THREAD=* ]] && keys=${d#*=}; done
    row="| $name | $(registers "$out/$name.ptxas" '_Z13onesweep_passILb0ELb0ELi7EEv10PassParams')"
    declare -A stop=()
    for s in 1 2 3 4 5 6 7; do
      stop[$s]=$(sass "$out/$name.cubin" "_Z13onesweep_passILb0ELb0ELi${s}EEv10PassParams" | wc -l)
      row="$row | ${stop[$s]}"
    done
    rank=$(( (stop[3] - stop[2]) / keys ))
    ops=$(sass "$out/$name.cubin" '_Z13onesweep_passILb0ELb0ELi7EEv10PassParams' | opcounts)
    echo "$row | $rank | $ops |"
  done
  # CUB's onesweep kernel for u32 keys only, as this toolkit's CUB instantiates it for sm_90.
  printf '#include <cub/device/device_radix_sort.cuh>\nvoid sort(unsigned* in, unsigned* out, int n, void* t, size_t b) { cub::DeviceRadixSort::SortKeys(t, b, in, out, n); }\n' > "$out/cub.cu"
  cubin cub "$out/cub.cu"
  fn=$(grep -m 1 -o "_ZN3cub[A-Za-z0-9_]*DeviceRadixSortOnesweepKernel[A-Za-z0-9_]*" "$out/cub.ptx")
  echo
  echo "CUB onesweep kernel (keys only, u32): $(registers "$out/cub.ptxas" "$fn") registers, $(sass "$out/cub.cubin" "$fn" | wc -l) instructions: $(sass "$out/cub.cubin" "$fn" | opcounts)"
} | tee "$out/sass-counts.md"
