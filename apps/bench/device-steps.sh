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
