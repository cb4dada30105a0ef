#!/usr/bin/env bash
# luma.gl beside our bench in ONE run on a GPU machine: our rows that luma pairs with (scan,
# reduce, pack, sort-pairs; u32; the decoupled-fallback scans), then luma.gl's at 2^16, 2^20, 2^24
# and 2^28, on the same card one after the other, so every ratio of the dashboard's "WebGPU
# libraries" tab compares two numbers of one machine state.
#
# Here, from the repository root (see "Running on a remote GPU machine" in apps/bench/README.md):
#   pnpm --filter @scan/bench build && pnpm --filter @scan/bench build:luma
#   bash scripts/remote-bench.sh --host <gpu machine> --bundle --no-build --carry apps/bench/dist-luma \
#     --run 'bash apps/bench/baselines/luma/gpu-run.sh "$OUT" "$COMMIT"'
# It writes gpu.txt, ours.json, luma.json and their logs into the folder. Copy the two reports into
# benchmarks/ as <device>-<date>-<commit>-luma-ours.json and <device>-<date>-<commit>-luma-9.4.2.json
# (device h100 or h200, as gpu.txt says): the dashboard loads them from there.
#
# LUMA_SIZES (default 16,20,24,28) and LUMA_RUNS (default 50) change luma's side; our side runs the
# same sizes. LUMA_ONLY (default scan,reduce,pack,sort-pairs) picks the primitives of both sides:
# LUMA_ONLY=toolbox runs issue 49's toolbox instead (histogram, lower-bound, reduce-by-key,
# scan-by-key; ours at mean segment 16, the mean luma's by-key rows are paired with), `all` both.
# LUMA_TIMEOUT (default 320) is luma's step's limit in seconds. Each step has a timeout and a failed step does not stop the next; luma's report is
# rewritten after every case, so a timeout or a crash at 2^28 keeps the sizes before it.
set -euo pipefail
out=${1:?usage: gpu-run.sh OUTPUT_FOLDER COMMIT}
commit=${2:?usage: gpu-run.sh OUTPUT_FOLDER COMMIT}
sizes=${LUMA_SIZES:-16,20,24,28}
runs=${LUMA_RUNS:-50}
only=${LUMA_ONLY:-scan,reduce,pack,sort-pairs}
mkdir -p "$out"
# Our bench names the primitives as luma's harness does; only its group names differ.
toolbox=histogram,lower-bound,reduce-by-key,scan-by-key
ours_only=$(echo "copy,$only" | sed -E -e "s/(^|,)all(,|$)/\1scan,reduce,pack,sort-pairs,$toolbox\2/" \
  -e "s/(^|,)toolbox(,|$)/\1$toolbox\2/" -e 's/(^|,)sort(,|$)/\1sort-pairs\2/')

# step and record_gpu (run from the repository root).
source apps/bench/device-steps.sh
record_gpu
bench_sizes=$(echo "$sizes" | sed 's/\([0-9][0-9]*\)/2^\1/g')
step ours timeout 240 node apps/bench/dist/cli.js --only "$ours_only" --types u32 \
  --algorithms decoupled-fallback --segment-means 16 --sizes "$bench_sizes" --commit "$commit" --out "$out/ours.json"
step luma timeout "${LUMA_TIMEOUT:-320}" node --max-old-space-size=24000 apps/bench/dist-luma/luma.js --only "$only" \
  --sizes "$sizes" --runs "$runs" --commit "$commit" --out "$out/luma.json"
