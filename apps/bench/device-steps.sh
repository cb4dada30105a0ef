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
