#!/usr/bin/env bash
# BENCHMARKS.md's summary, measured so that every ratio comes from ONE remote run: our bench, the
# CUDA libraries (baselines/cuda.py) and the WebGPU libraries on npm (luma.gl, baselines/luma), one
# after the other on the same card, then the table (dist/summary.js). Two parts, one run each (each
# under 10 minutes):
#   sizes  scan, reduce, pack, split, sort, sort-pairs, the segmented primitives at 2^20, 2^24, 2^28,
#          against CUB/torch and luma.gl (about 5 minutes on the H100, 2026-12-05; up to 8 if luma.gl takes its 330 s);
#   suite  SpMV (A·x, Aᵀ·x) and HiSparse A·x over the suite's six matrices, the tridiagonal solver at
#          2^22, against cuSPARSE (about 5 minutes; HISPARSE_ADD=1 adds HiSparse A + 2A, slower).
#
# Here, from the repository root (the GPU machine needs Python with PyTorch and CuPy; see
# "Running on a remote GPU machine" in apps/bench/README.md):
#   pnpm --filter @scan/bench build && pnpm --filter @scan/bench build:luma
#   bash scripts/remote-bench.sh --host <gpu machine> --bundle --no-build --carry apps/bench/dist-luma \
#     --run 'bash apps/bench/summary-call.sh "$OUT" "$COMMIT" sizes'      (then: suite)
# It writes gpu.txt, the reports (ours*.json, cuda.json, luma.json), their logs and summary.md, then
# packs them into summary-<part>.tgz and keeps only that and summary.md (few files to bring back;
# `suite` with HISPARSE_ADD=1 writes 10). Copy the
# reports into benchmarks/ as <device>-<date>-<commit>-summary-<part>-<name>.json (the dashboard
# loads them from there) and the tables into BENCHMARKS.md ("Summary").
set -euo pipefail
out=${1:?usage: summary-call.sh OUTPUT_FOLDER COMMIT sizes|suite}
commit=${2:?usage: summary-call.sh OUTPUT_FOLDER COMMIT sizes|suite}
part=${3:?usage: summary-call.sh OUTPUT_FOLDER COMMIT sizes|suite}
mkdir -p "$out"

# step and record_gpu (run from the repository root).
source apps/bench/device-steps.sh
record_gpu
bench=(node apps/bench/dist/cli.js --commit "$commit")
case "$part" in
  sizes)
    step ours timeout 200 "${bench[@]}" --only scan,reduce,pack,split,sort,sort-pairs,segmented-reduce,segmented-scan \
      --types u32 --algorithms decoupled-fallback --sizes 2^20,2^24,2^28 --segment-means 16 --out "$out/ours.json"
    step cuda timeout 150 python3 apps/bench/baselines/cuda.py --sizes 20,24,28 \
      --only copy,scan,reduce,pack,sort,sort-pairs,segmented-reduce --commit "$commit" --out "$out/cuda.json"
    # Its verification holds 2^28 pairs as JavaScript arrays: past Node's default heap (out of memory on 2026-12-05).
    # 200 s ended it before GPUSort at 2^28, its last case (H100, 2026-12-05, the call after the heap fix).
    step luma timeout 330 node --max-old-space-size=24000 apps/bench/dist-luma/luma.js --sizes 20,24,28 --commit "$commit" --out "$out/luma.json"
    ;;
  suite)
    step ours-spmv timeout 420 "${bench[@]}" --only spmv,spmv-t,hisparse-spmv --out "$out/ours-spmv.json"
    step ours-tridiag timeout 60 "${bench[@]}" --only tridiag-partition --sizes 2^22 --out "$out/ours-tridiag.json"
    if [ "${HISPARSE_ADD:-0}" = 1 ]; then
      step ours-add timeout 200 "${bench[@]}" --only hisparse-add --runs 10 --warmup 2 --out "$out/ours-add.json"
    fi
    cuda_only=copy,spmv,spmv-t,tridiag
    [ "${HISPARSE_ADD:-0}" = 1 ] && cuda_only=$cuda_only,sparse-add
    step cuda timeout 200 python3 apps/bench/baselines/cuda.py --sizes 22 --only "$cuda_only" --commit "$commit" --out "$out/cuda.json"
    ;;
  *)
    echo "summary-call.sh: unknown part '$part' (sizes or suite)" >&2
    exit 2
    ;;
esac
reports=()
for r in "$out"/ours*.json "$out/cuda.json" "$out/luma.json"; do [ -s "$r" ] && reports+=("$r"); done
node apps/bench/dist/summary.js "${reports[@]}" | tee "$out/summary.md"
files=$(cd "$out" && ls -A | grep -v -x -e summary.md -e "summary-$part.tgz" || true)
# shellcheck disable=SC2086 # the names are the script's own, without spaces
(cd "$out" && tar czf "summary-$part.tgz" $files && rm -f $files)
echo "packed into $out/summary-$part.tgz: $(echo $files)"
