#!/usr/bin/env bash
# The WGSL radix sort (through Dawn) in several shapes of its one-sweep pass, in one device call,
# through the bench's `--tuning`. A shape is the keys per invocation, then letters:
#   i     partial tiles tested key by key instead of padded (`padLast: false`, before 2026-12-05);
#   b     the scatter's workgroup loads batched (`batchScatter: true`, an experiment, off by default);
#   f     the leader lane by firstTrailingBit instead of countOneBits (`leaderPopcount: false`);
#   k     the tile's counters cleared although WGSL zero-initializes them (`skipClears: false`);
#   wN    N invocations per workgroup (a power of two; default 256).
# A shape may end in @SET, Dawn toggles on top of SCAN_DAWN_TOGGLES, to see what a step of the
# translation costs (the SPIR-V of each: dump-spirv.mjs, no GPU needed):
#   @norobust  enable disable_robustness (Tint's index clamps, loop counters and shuffle clamps off);
#   @vmm       enable use_vulkan_memory_model;  @novmm  disable it (storage buffers become Coherent);
#   @noinit    enable disable_workgroup_init.
# On the H200 the pass fell off a cliff past 13 keys (10.7 ms at 13, 15.9 at 14) while the CUDA
# port of the pass is fastest at 16; the shapes say where it stands after a change.
#
# With SASS=1 each shape runs with the NVIDIA driver's shader disk cache in its own folder, and
# driver-sass.py then reads the registers the driver gave each pipeline (the pass is the pipeline with
# the most VOTE instructions: 8 per key). Needs `zstd` and `nvdisasm` (/usr/local/cuda/bin) on the
# GPU machine. A run of two shapes at five sizes, then two SASS=1 shapes, took past 560 s on
# 2026-12-05: give SASS=1 its own run.
#
# From the repository root (see "Running on a remote GPU machine" in apps/bench/README.md):
#   bash scripts/remote-bench.sh --host <gpu machine> --bundle --run 'bash apps/bench/cuda/onesweep/wgsl-variants.sh "$OUT" "$COMMIT"'
# Writes one bench report per shape (sort and sort-pairs, radix only, u32, 2^24 and 2^28) and a table.
set -uo pipefail
out=${1:?usage: wgsl-variants.sh OUTPUT_FOLDER COMMIT}
commit=${2:?usage: wgsl-variants.sh OUTPUT_FOLDER COMMIT}
mkdir -p "$out"
shapes=${SHAPES:-"12 13 13i 14 16"}
sizes=${SIZES:-2^24,2^28}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# SCAN_DAWN_TOGGLES ("enable-dawn-features=a,b disable-dawn-features=c") with one more toggle on or off.
with_toggle() { # KIND(enable|disable) TOGGLE
  local kind=$1 toggle=$2 word out=() found=0
  for word in ${SCAN_DAWN_TOGGLES:-}; do
    if [[ $word == "$kind-dawn-features="* ]]; then word="$word,$toggle"; found=1; fi
    out+=("$word")
  done
  ((found)) || out+=("$kind-dawn-features=$toggle")
  echo "${out[*]}"
}
# The letters and the radix tuning each sets: b turns on an experiment; f and k turn off what is on by
# default since 2026-12-05. Without its letter a tuning is left to the plan's default, so this script
# need not know it. packRanks, stashKeys and rereadCounts lost on 2026-12-05 and were removed.
declare -A setting_of=([b]='"batchScatter":true' [f]='"leaderPopcount":false' [k]='"skipClears":false')
for shape in $shapes; do
  set_name=
  [[ $shape == *@* ]] && set_name=${shape#*@}
  base_shape=${shape%@*}
  toggles=${SCAN_DAWN_TOGGLES:-}
  case $set_name in
    '') ;;
    norobust) toggles=$(with_toggle enable disable_robustness) ;;
    vmm) toggles=$(with_toggle enable use_vulkan_memory_model) ;;
    novmm) toggles=$(with_toggle disable use_vulkan_memory_model) ;;
    noinit) toggles=$(with_toggle enable disable_workgroup_init) ;;
    *) echo "unknown toggle set @$set_name (norobust, vmm, novmm, noinit)" >&2; exit 2 ;;
  esac
  keys=${base_shape%%[a-z]*}
  flags=${base_shape#"$keys"}
  pad=true
  [[ $flags == *i* ]] && pad=false
  wg=256
  [[ $flags =~ w([0-9]+) ]] && wg=${BASH_REMATCH[1]}
  tuning="{\"elementsPerThread\":$keys,\"padLast\":$pad,\"workgroupSize\":$wg"
  for letter in b f k; do
    [[ $flags == *$letter* ]] && tuning+=",${setting_of[$letter]}"
  done
  tuning+="}"
  echo "== $shape: $tuning${set_name:+ toggles: $toggles}"
  cache=()
  if [[ ${SASS:-0} == 1 ]]; then
    mkdir -p "$out/cache-$shape"
    cache=(env __GL_SHADER_DISK_CACHE=1 "__GL_SHADER_DISK_CACHE_PATH=$out/cache-$shape" __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1)
  fi
  SCAN_DAWN_TOGGLES=$toggles timeout 240 "${cache[@]}" node apps/bench/dist/cli.js --only sort,sort-pairs --types u32 --sizes "$sizes" --tuning "$tuning" \
    --commit "$commit" --out "$out/sort-$shape.json" >"$out/sort-$shape.log" 2>&1 || echo "== $shape FAILED (see sort-$shape.log)"
  if [[ ${SASS:-0} == 1 ]]; then
    # The passes (keys only and key–value) are the pipelines with 8 VOTEs per key.
    python3 "$here/driver-sass.py" "$out/cache-$shape" "$out/sass-$shape" | awk -v s="$shape" -v v="VOTE $((8 * keys))," '$0 ~ v {print "sass", s, $0}' | tee -a "$out/registers.txt"
    rm -rf "$out/cache-$shape"
  fi
done
# One line per shape and case: the radix rows' median ms.
node -e '
const fs = require("fs");
const dir = process.argv[1];
for (const f of fs.readdirSync(dir).filter((f) => /^sort-.*\.json$/.test(f)).sort()) {
  const r = JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8"));
  for (const x of r.results.filter((x) => x.case.algorithm === "radix")) {
    console.log(f.padEnd(16), x.case.series.padEnd(34), String(x.case.n).padStart(10), x.status, x.measurement ? x.measurement.medianMs.toFixed(3) : "-");
  }
}' "$out" | tee "$out/summary.txt"
# The tuning of the shape that sorted the largest size fastest (keys only), for a sweep over sizes after.
# Shapes run under other Dawn toggles (@SET) are left out: a browser cannot set toggles.
node -e '
const fs = require("fs");
const dir = process.argv[1];
let best;
for (const f of fs.readdirSync(dir).filter((f) => /^sort-[^@]*\.json$/.test(f))) {
  for (const x of JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8")).results) {
    if (x.case.primitive !== "sort" || x.case.algorithm !== "radix" || !x.measurement) continue;
    if (!best || x.case.n > best.n || (x.case.n === best.n && x.measurement.medianMs < best.ms)) best = { n: x.case.n, ms: x.measurement.medianMs, tuning: x.case.tuning };
  }
}
if (best) { fs.writeFileSync(`${dir}/best-tuning.json`, JSON.stringify(best.tuning)); console.log("fastest at", best.n, ":", best.ms, "ms,", JSON.stringify(best.tuning)); }' "$out"
