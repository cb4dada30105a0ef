# Sourced by the scripts that run on a GPU machine (summary-call.sh, baselines/luma/gpu-run.sh) after
# they set `out`: `step NAME COMMAND...` runs one measurement with its output in $out/NAME.log and its
# last lines on the screen, and a failure does not stop the steps after it (a table with a gap beats
# no table); `record_gpu` writes the card, driver and clock to $out/gpu.txt.
step() {
  local name=$1
  shift
  echo "== $name"
  if "$@" >"$out/$name.log" 2>&1; then tail -n 20 "$out/$name.log"; else echo "== $name FAILED (exit $?)"; tail -n 30 "$out/$name.log"; fi
}

record_gpu() {
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$out/gpu.txt" 2>&1 || true
  cat "$out/gpu.txt"
}

# Optional, called by no script by default: the user-defined operator cases (issue 48) and their CUDA
# anchors in one device call, so every ratio comes from one card. From the repository root, with `out` set
# (the GPU machine needs PyTorch; JAX with CUDA for the JAX lines, which are left out with a line saying
# why when it is missing):
#   source apps/bench/device-steps.sh; out="$OUT"; record_gpu; operator_steps "$COMMIT"
# `operator_bench_step COMMIT [SIZES]` runs ours (operator-scan, operator-reduce, and the built-in reduce
# for the user add's comparison; the built-in scan runs inside each user-add scan case, the ×scan column)
# into $out/operators-ours.json — named so that summary-call.sh's ours*.json does not take it up;
# `operator_cuda_step [LOG2 SIZES…]` runs cuda/operators.py (default 20 24 26) into
# $out/cuda-operators.log, its JSON lines also in $out/cuda-operators.jsonl.
operator_bench_step() {
  local commit=${1:?usage: operator_bench_step COMMIT [SIZES]}
  local sizes=${2:-2^20,2^24,2^26,2^28}
  step ours-operators timeout "${OPERATOR_BENCH_TIMEOUT:-420}" node apps/bench/dist/cli.js --commit "$commit" \
    --only reduce,operator-scan,operator-reduce --sizes "$sizes" --out "$out/operators-ours.json"
}

operator_cuda_step() {
  local sizes=("$@")
  [ ${#sizes[@]} -gt 0 ] || sizes=(20 24 26)
  step cuda-operators timeout "${OPERATOR_CUDA_TIMEOUT:-300}" python3 apps/bench/cuda/operators.py "${sizes[@]}"
  grep '^{' "$out/cuda-operators.log" >"$out/cuda-operators.jsonl" || true
}

operator_steps() {
  operator_bench_step "${1:?usage: operator_steps COMMIT}"
  operator_cuda_step
}

# `toolbox_cuda_step [LOG2 SIZES…]` runs cuda/toolbox.py (default 20 24 28): the torch anchors of
# issue 49's toolbox, into $out/cuda-toolbox.log and its JSON lines into $out/cuda-toolbox.jsonl.
toolbox_cuda_step() {
  local sizes=("$@")
  [ ${#sizes[@]} -gt 0 ] || sizes=(20 24 28)
  step cuda-toolbox timeout "${TOOLBOX_CUDA_TIMEOUT:-300}" python3 apps/bench/cuda/toolbox.py "${sizes[@]}"
  grep '^{' "$out/cuda-toolbox.log" >"$out/cuda-toolbox.jsonl" || true
}

# `toolbox_steps COMMIT [BENCH_DIST]`: issue 49's toolbox in one device call — ours (the bench built
# in BENCH_DIST, default apps/bench/dist) at 2^20, 2^24 and 2^28 into $out/toolbox-ours.json, the torch
# anchors (toolbox_cuda_step), and luma.gl's toolbox classes (apps/bench/dist-luma, built by
# `pnpm --filter @scan/bench build:luma` and carried) into $out/toolbox-luma.json. Each step has its
# own timeout (TOOLBOX_OURS_TIMEOUT, TOOLBOX_CUDA_TIMEOUT, TOOLBOX_LUMA_TIMEOUT) so that the three fit
# one 600 s call.
toolbox_steps() {
  local commit=${1:?usage: toolbox_steps COMMIT [BENCH_DIST]}
  local dist=${2:-apps/bench/dist}
  step ours-toolbox timeout "${TOOLBOX_OURS_TIMEOUT:-220}" node "$dist/cli.js" --commit "$commit" \
    --only reduce-by-key,scan-by-key,unique,unique-by-key,run-length-encode,histogram,arg-max,top-k,lower-bound \
    --segment-means 16 --sizes 2^20,2^24,2^28 --out "$out/toolbox-ours.json"
  TOOLBOX_CUDA_TIMEOUT=${TOOLBOX_CUDA_TIMEOUT:-110} toolbox_cuda_step 20 24 28
  step luma-toolbox timeout "${TOOLBOX_LUMA_TIMEOUT:-200}" node --max-old-space-size=24000 apps/bench/dist-luma/luma.js \
    --only toolbox --sizes 20,24,28 --commit "$commit" --out "$out/toolbox-luma.json"
}

# `sort_steps COMMIT [BENCH_DIST]`: issue 50's sort targets in one device call — ours (the bench built
# in BENCH_DIST, default apps/bench/dist: copy, sort and sort-pairs with every key type and value width
# the bench has) at 2^20, 2^24 and 2^26 into $out/sort-ours.json; gridwise's OneSweep on u32 and u64
# keys (apps/bench/dist-gridwise, built here by `GRIDWISE_SRC=… pnpm --filter @scan/bench build:gridwise`
# and carried) into $out/sort-gridwise.json; the CUDA libraries (cupy.sort on uint32/uint64/uint16,
# torch.sort on int32/int64/int16, torch.sort + index_select with 16-byte values) into
# $out/sort-cuda.json; then the summary table of the three (dist/summary.js) into $out/sort-summary.md.
# The reports are named so that summary-call.sh's ours*.json does not take them up. Each step has its
# own timeout (SORT_OURS_TIMEOUT, SORT_GRIDWISE_TIMEOUT, SORT_CUDA_TIMEOUT) so the three fit one 600 s
# call; SORT_SIZES (log2, default 20,24,26) changes the sizes of all three, SORT_OURS_ARGS adds flags to
# ours (e.g. "--runs 10"). From the repository root, with `out` set:
#   source apps/bench/device-steps.sh; out="$OUT"; record_gpu; sort_steps "$COMMIT"
sort_steps() {
  local commit=${1:?usage: sort_steps COMMIT [BENCH_DIST]}
  local dist=${2:-apps/bench/dist}
  local sizes=${SORT_SIZES:-20,24,26}
  local bench_sizes
  bench_sizes=$(echo "$sizes" | sed 's/\([0-9][0-9]*\)/2^\1/g')
  # shellcheck disable=SC2086 # SORT_OURS_ARGS is a list of flags
  step sort-ours timeout "${SORT_OURS_TIMEOUT:-260}" node "$dist/cli.js" --commit "$commit" \
    --only copy,sort,sort-pairs --sizes "$bench_sizes" ${SORT_OURS_ARGS:-} --out "$out/sort-ours.json"
  if [ -f apps/bench/dist-gridwise/gridwise.js ]; then
    step sort-gridwise timeout "${SORT_GRIDWISE_TIMEOUT:-110}" node --max-old-space-size=8000 apps/bench/dist-gridwise/gridwise.js \
      --types u32,u64 --sizes "$sizes" --runs 20 --warmup 3 --commit "$commit" --out "$out/sort-gridwise.json"
  else
    echo "== sort-gridwise skipped: apps/bench/dist-gridwise/gridwise.js is missing (build it with GRIDWISE_SRC set and carry apps/bench/dist-gridwise)"
  fi
  step sort-cuda timeout "${SORT_CUDA_TIMEOUT:-140}" python3 apps/bench/baselines/cuda.py --sizes "$sizes" \
    --only copy,sort,sort-pairs --sort-keys u32,u64,u16 --value-widths 4,16 --commit "$commit" --out "$out/sort-cuda.json"
  local reports=() r
  for r in "$out/sort-ours.json" "$out/sort-cuda.json" "$out/sort-gridwise.json"; do [ -s "$r" ] && reports+=("$r"); done
  if [ ${#reports[@]} -gt 0 ]; then
    step sort-summary node "$dist/summary.js" --sizes "$bench_sizes" "${reports[@]}"
    cp "$out/sort-summary.log" "$out/sort-summary.md" 2>/dev/null || true
  fi
}

# `segmented_subgroup_steps COMMIT`: `@scan/segmented`'s single pass of (heads, value) pairs on an
# NVIDIA card, where unconverged subgroup shuffles once gave wrong results that SwiftShader never
# shows; run it after changing that pass or the kit's blocks under it. Every segmented function of
# the node suite on host
# data at 2^20 and 2^24 against the CPU reference (tooling/node-suite/dist/stress.js, built by
# `pnpm --filter @scan/node-suite build` and carried: carry the single files dist/stress.js and
# apps/bench/dist/cli.js, the source maps would pass the 64 MiB carry limit), and the by-key cases,
# each checked on the GPU, at 2^24 and 2^28 into $out/bykey-ours.json. Any "FAILED" or a call not
# "ok" is a defect to fix before landing. From the repository root, with `out` set:
#   source apps/bench/device-steps.sh; out="$OUT"; record_gpu; segmented_subgroup_steps "$COMMIT"
segmented_subgroup_steps() {
  local commit=${1:?usage: segmented_subgroup_steps COMMIT}
  step stress-segmented timeout "${SEGMENTED_STRESS_TIMEOUT:-150}" node --expose-gc --max-old-space-size=16384 \
    tooling/node-suite/dist/stress.js --only segmented. --sizes 20,24 --rounds 1 --json "$out/stress-segmented.json"
  step ours-bykey timeout "${BYKEY_OURS_TIMEOUT:-170}" node apps/bench/dist/cli.js --commit "$commit" \
    --only copy,reduce-by-key,scan-by-key,unique,unique-by-key,run-length-encode --sizes 2^24,2^28 --runs 10 --out "$out/bykey-ours.json"
}

# `hisparse_steps COMMIT [NODE_SIZES] [PART]`: issue 51's tables — ours at node size 64 (or NODE_SIZES)
# over the SpMV suite and cuSPARSE on the same matrices. PART `spmv` times A·x and Aᵀ·x (ours into
# $out/hisparse-spmv-ours.json; cuSPARSE SpMV and SpMVᵀ), `add` times hisparse-add (A + 2A, the paper's
# A + B and Aᵀ + Bᵀ, by GPU timestamps through the add plan, into $out/hisparse-add-ours.json;
# cuSPARSE csrgeam on the same pairs); the default, both, passes one 600 s call on an H100 (the two
# ours steps took about 360 s and 280 s there on 2026-12-07), so give each part its own call. The CUDA
# step builds the matrices with apps/bench/dist/matrix-export.js: carry it beside cli.js.
hisparse_steps() {
  local commit=${1:?usage: hisparse_steps COMMIT [NODE_SIZES] [spmv|add]}
  local part=${3:-all}
  local matrices=poisson2d-2048,biased-1M,biased-16M,powerlaw-4M,uniform-4M,banded-4M,stencil27-100,geometric-1M,rmat-2^20
  local ours cuda
  case $part in
    spmv) ours=hisparse-spmv,hisparse-spmv-t cuda=spmv,spmv-t ;;
    add) ours=hisparse-add cuda=sparse-add ;;
    *) part=all ours=hisparse-add,hisparse-spmv,hisparse-spmv-t cuda=spmv,spmv-t,sparse-add ;;
  esac
  step "hisparse-$part-ours" timeout "${HISPARSE_OURS_TIMEOUT:-380}" node apps/bench/dist/cli.js --commit "$commit" \
    --only "copy,$ours" --node-sizes "${2:-64}" --matrices "$matrices" \
    --sizes 2^24 --runs 10 --out "$out/hisparse-$part-ours.json"
  step "hisparse-$part-cuda" timeout "${HISPARSE_CUDA_TIMEOUT:-180}" python3 apps/bench/baselines/cuda.py \
    --only "copy,$cuda" --sizes 24 --matrices "$matrices" --commit "$commit" --out "$out/hisparse-$part-cuda.json"
}

# `unique_ab_steps BEFORE_CLI AFTER_CLI`: an A/B of two bench builds on the unique and run-length encode cases (and copy)
# at 2^24 and 2^28, alternated twice, into $out/unique-{before,after}-{1,2}.json — for a change to
# the run-heads plans (carry both cli.js files, e.g. apps/bench/dist/cli-before.js built from main).
unique_ab_steps() {
  local before=${1:?usage: unique_ab_steps BEFORE_CLI AFTER_CLI} after=${2:?usage: unique_ab_steps BEFORE_CLI AFTER_CLI}
  local round side cli
  for round in 1 2; do
    for side in before after; do
      cli=$before
      [ "$side" = after ] && cli=$after
      step "unique-$side-$round" timeout 80 node "$cli" --commit "$side" --only copy,unique,run-length-encode --sizes 2^24,2^28 --runs 10 \
        --out "$out/unique-$side-$round.json"
    done
  done
}
