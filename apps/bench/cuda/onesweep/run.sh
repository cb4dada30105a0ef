#!/usr/bin/env bash
# Builds the CUDA port of the onesweep radix sort, checks it, times it beside CUB (cupy.sort) and
# torch.sort, and profiles both with Nsight Compute. See README.md.
#
#   bash apps/bench/cuda/onesweep/run.sh [OUT]        (from the repository root; OUT defaults to ./out)
#
# Needs nvcc, ncu, python3 with cupy (and torch) on PATH, an sm_90 GPU (H100/H200).
# Outputs in OUT: build.log, check.txt, timings.jsonl (+ port.txt, vendor.txt), ncu_*.csv
# (+ .ncu-rep reports), summary.txt (also printed last). Takes ~4-6 minutes.
# At the end (also on failure) everything but summary.txt and timings.jsonl is packed into
# OUT/cuda-out.tar.gz (the .ncu-rep reports into OUT/cuda-ncu-reps.tar.gz) and the packed files are
# removed, since the device machine returns only a few files (KEEP_UNPACKED=1 keeps them).
# Files named variants* (variants.sh's) are left alone.
# Environment knobs: PROFILE_LOG2N (default 28), TIME_LOG2N (default 20,24,28), REPS (default 20),
# SKIP_NCU=1, EXTRA_NVCC_FLAGS (e.g. -maxrregcount=64, or -DRANK_COUNTER=1: see README "Experiments"),
# KEEP_UNPACKED=1.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:-./out}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
BUILD="${TMPDIR:-/tmp}/onesweep-build.$$"
mkdir -p "$BUILD"
BIN="$BUILD/onesweep"
PROFILE_LOG2N="${PROFILE_LOG2N:-28}"
TIME_LOG2N="${TIME_LOG2N:-20,24,28}"
REPS="${REPS:-20}"
T0=$(date +%s)
stamp() { echo "== [$(( $(date +%s) - T0 ))s] $*"; }

# Pack OUT into a few files on exit (see the head of this file). The exit status is kept.
pack() {
  (
    cd "$OUT" || exit 0
    files=() reps=()
    for f in *; do
      [ -f "$f" ] || continue
      case "$f" in
        summary.txt | timings.jsonl | cuda-out.tar.gz | cuda-ncu-reps.tar.gz | variants*) ;;
        *.ncu-rep) reps+=("$f") ;;
        *) files+=("$f") ;;
      esac
    done
    if [ "${#files[@]}" -gt 0 ] && tar -czf cuda-out.tar.gz "${files[@]}"; then
      [ "${KEEP_UNPACKED:-0}" = 1 ] || rm -f "${files[@]}"
    fi
    if [ "${#reps[@]}" -gt 0 ] && tar -czf cuda-ncu-reps.tar.gz "${reps[@]}"; then
      [ "${KEEP_UNPACKED:-0}" = 1 ] || rm -f "${reps[@]}"
    fi
    for t in cuda-out.tar.gz cuda-ncu-reps.tar.gz; do
      [ -f "$t" ] || continue
      size=$(stat -c %s "$t" 2> /dev/null || echo 0)
      echo "packed $OUT/$t ($(( size / 1024 )) KiB)"
      [ "$size" -gt $((16 * 1024 * 1024)) ] && echo "warning: $t is over 16 MiB: the device machine will not return it"
    done
  )
}
trap pack EXIT

# ---- 1. Build -----------------------------------------------------------------------------------
stamp "build"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv > "$OUT/gpu.txt" 2>&1 || true
cat "$OUT/gpu.txt"
nvcc --version | tail -n 2 > "$OUT/build.log" 2>&1
if ! nvcc -arch=sm_90 -O3 -lineinfo -std=c++17 ${EXTRA_NVCC_FLAGS:-} -Xptxas -v -o "$BIN" "$HERE/onesweep.cu" >> "$OUT/build.log" 2>&1; then
  cat "$OUT/build.log"
  echo "BUILD FAILED"
  exit 1
fi
# Registers / spills per kernel, as ptxas reports them.
grep -E "Compiling entry|Used [0-9]+ registers|spill" "$OUT/build.log" | sed 's/ptxas info    : //' > "$OUT/ptxas.txt"

# ---- 2. Correctness (both variants, keys only and key-value, sizes off the tile) -----------------
stamp "check"
CHECK_SIZES="1,100,3328,3329,26625,65539,1000003,1048576,16777216,16777259"
: > "$OUT/check.txt"
"$BIN" --n "$CHECK_SIZES" --check --no-sort --variant both 2>&1 | tee -a "$OUT/check.txt"
"$BIN" --n "$CHECK_SIZES" --check --no-sort --variant both --values 2>&1 | tee -a "$OUT/check.txt"
CHECK_FAILED=0
grep -q "FAIL\|MISMATCH\|CUDA error" "$OUT/check.txt" && CHECK_FAILED=1

# ---- 3. Timing: the port (full sorts, per-kernel times, phase ablation of one pass) vs vendors ---
stamp "time port"
: > "$OUT/port.txt"
"$BIN" --log2n "$TIME_LOG2N" --check --variant both --reps "$REPS" --warmup 5 2>&1 | tee -a "$OUT/port.txt"
"$BIN" --log2n "$TIME_LOG2N" --check --variant both --reps "$REPS" --warmup 5 --values 2>&1 | tee -a "$OUT/port.txt"
stamp "ablation (one digit pass, pass 0) at 2^$PROFILE_LOG2N"
"$BIN" --log2n "$PROFILE_LOG2N" --no-sort --ablate --variant both --reps "$REPS" --warmup 5 2>&1 | tee -a "$OUT/port.txt"
"$BIN" --log2n "$PROFILE_LOG2N" --no-sort --ablate --stops 7 --values --variant both --reps "$REPS" --warmup 5 2>&1 | tee -a "$OUT/port.txt"
stamp "time vendors (cupy.sort = CUB onesweep, torch.sort)"
python3 "$HERE/cub_sort.py" --log2n "$TIME_LOG2N" --reps "$REPS" --warmup 5 --check 2>&1 | tee "$OUT/vendor.txt"
grep -h '^{' "$OUT/port.txt" "$OUT/vendor.txt" > "$OUT/timings.jsonl"

# ---- 4. Profiles (Nsight Compute) -----------------------------------------------------------------
# Metrics (not --set full, to keep the replays few). The list is first tried on one small kernel;
# metrics this ncu does not know are dropped (listed in ncu_dropped.txt). If ncu still fails, the
# standard sections are collected instead. ncu locks clocks to base (--clock-control base, its
# default), so its durations run longer than the event timings: read them as ratios.
METRICS=(
  gpu__time_duration.sum
  sm__cycles_elapsed.avg.per_second
  launch__registers_per_thread
  launch__shared_mem_per_block_static
  launch__occupancy_limit_registers
  launch__occupancy_limit_shared_mem
  launch__occupancy_limit_warps
  launch__occupancy_limit_blocks
  sm__maximum_warps_per_active_cycle_pct
  sm__warps_active.avg.pct_of_peak_sustained_active
  smsp__inst_executed.sum
  smsp__issue_active.avg.pct_of_peak_sustained_active
  sm__throughput.avg.pct_of_peak_sustained_elapsed
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__sass_inst_executed_op_shared_st.sum
  smsp__sass_inst_executed_op_shared_atom.sum
  smsp__average_warp_latency_per_inst_issued.ratio
  smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
  smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
  smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
  smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
  smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
  smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
  smsp__average_warps_issue_stalled_membar_per_issue_active.ratio
  smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
  smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio
  smsp__average_warps_issue_stalled_selected_per_issue_active.ratio
  smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio
  smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio
  smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio
  smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
  smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio
  smsp__average_warps_issue_stalled_misc_per_issue_active.ratio
  dram__throughput.avg.pct_of_peak_sustained_elapsed
  lts__throughput.avg.pct_of_peak_sustained_elapsed
  dram__bytes.sum
  dram__bytes_read.sum
  dram__bytes_write.sum
  lts__t_bytes.sum
)

if [ "${SKIP_NCU:-0}" != 1 ] && command -v ncu > /dev/null; then
  stamp "ncu metric names (validated on one small kernel)"
  ncu --version > "$OUT/ncu_version.txt" 2>&1
  ncu --query-metrics > "$OUT/ncu_query.txt" 2>&1 || true  # for reference only
  KEEP=("${METRICS[@]}")
  : > "$OUT/ncu_dropped.txt"
  # Profile one small pass with the list; drop every metric the error names, until it runs.
  for attempt in 1 2 3 4 5 6; do
    METRIC_LIST="$(IFS=,; echo "${KEEP[*]}")"
    if timeout 90 ncu --metrics "$METRIC_LIST" --kernel-name regex:onesweep_pass --launch-count 1 \
        "$BIN" --log2n 16 --no-sort --ablate --stops 7 --reps 1 --warmup 0 > "$OUT/ncu_validate.log" 2>&1 \
        && ! grep -q "==ERROR==" "$OUT/ncu_validate.log"; then
      break
    fi
    NEXT=()
    for m in "${KEEP[@]}"; do
      if grep "==ERROR==" "$OUT/ncu_validate.log" | grep -qwF -- "${m%%.*}"; then echo "$m" >> "$OUT/ncu_dropped.txt"; else NEXT+=("$m"); fi
    done
    if [ "${#NEXT[@]}" = "${#KEEP[@]}" ]; then
      echo "ncu fails with the metric list for another reason (see ncu_validate.log); profiles will use sections"
      break
    fi
    KEEP=("${NEXT[@]}")
  done
  METRIC_LIST="$(IFS=,; echo "${KEEP[*]}")"
  [ -s "$OUT/ncu_dropped.txt" ] && { echo "dropped (unknown to this ncu):"; cat "$OUT/ncu_dropped.txt"; }

  # profile NAME FILTER_ARGS... -- COMMAND...: metrics, else sections; CSV from the saved report.
  profile() {
    local name="$1"; shift
    local filt=()
    while [ "$1" != "--" ]; do filt+=("$1"); shift; done
    shift
    rm -f "$OUT/ncu_$name.ncu-rep"
    if ! timeout 240 ncu --metrics "$METRIC_LIST" "${filt[@]}" -f -o "$OUT/ncu_$name" "$@" > "$OUT/ncu_$name.log" 2>&1 \
        || [ ! -s "$OUT/ncu_$name.ncu-rep" ]; then
      echo "ncu with --metrics failed for $name (see ncu_$name.log); retrying with sections"
      mv "$OUT/ncu_$name.log" "$OUT/ncu_$name.metrics-failed.log"
      timeout 240 ncu --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
        --section MemoryWorkloadAnalysis_Tables "${filt[@]}" -f -o "$OUT/ncu_$name" "$@" > "$OUT/ncu_$name.log" 2>&1 || true
    fi
    if [ -s "$OUT/ncu_$name.ncu-rep" ]; then
      ncu --import "$OUT/ncu_$name.ncu-rep" --csv --page raw --print-units base > "$OUT/ncu_$name.csv" 2>> "$OUT/ncu_$name.log" || true
    else
      echo "ncu produced no report for $name (see ncu_$name.log)"
    fi
  }

  stamp "ncu: port at 2^$PROFILE_LOG2N (histogram, pass 0 per stop-after variant, faithful and robust)"
  # Launch order: faithful {histogram, digit_scan, pass0 stop 1..7}, robust {same}; the filter keeps
  # the histograms and the passes. Then the key-value pass (stop 7, both variants).
  profile port --kernel-name "regex:radix_histogram|onesweep_pass" -- \
    "$BIN" --log2n "$PROFILE_LOG2N" --no-sort --ablate --variant both --reps 1 --warmup 0
  profile port_values --kernel-name "regex:onesweep_pass" -- \
    "$BIN" --log2n "$PROFILE_LOG2N" --no-sort --ablate --stops 7 --values --variant both --reps 1 --warmup 0
  stamp "ncu: CUB via cupy.sort / cupy.argsort at 2^$PROFILE_LOG2N"
  profile cub --kernel-name "regex:DeviceRadixSort" --launch-count 8 -- \
    python3 "$HERE/cub_sort.py" --profile --log2n "$PROFILE_LOG2N"
  profile cub_pairs --kernel-name "regex:DeviceRadixSort" --launch-count 8 -- \
    python3 "$HERE/cub_sort.py" --profile --pairs --log2n "$PROFILE_LOG2N"
else
  stamp "ncu skipped (SKIP_NCU=1 or no ncu on PATH)"
fi

# ---- 5. Summary ---------------------------------------------------------------------------------
stamp "summary"
python3 - "$OUT" > "$OUT/summary.txt" 2>&1 <<'EOF'
import csv, json, os, re, sys
out = sys.argv[1]

print("== Timings (median ms; Gkeys/s = n / ms) ==")
rows = []
try:
    for line in open(os.path.join(out, "timings.jsonl")):
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass
except OSError:
    pass
print(f"{'impl':14} {'variant':9} {'values':6} {'n':>11} {'phase':13} {'ms':>9} {'Gkeys/s':>8}  per kernel (ms)")
for r in rows:
    if "ms" not in r:
        continue
    k = r.get("kernels_ms")
    ks = " ".join(f"{a}={b:.3f}" for a, b in k.items()) if k else ""
    print(f"{r['impl']:14} {r.get('variant', '-'):9} {str(r['values']):6} {r['n']:11d} {r.get('phase', '-'):13} "
          f"{r['ms']:9.4f} {r['gkeys_per_s']:8.3f}  {ks}")

def short(name):
    # ncu may print template arguments as true/false or as (bool)1 / 1: accept every spelling.
    yes = lambda v: v.strip().lower() in ("true", "1", "(bool)1")
    m = re.search(r"onesweep_pass<([^,>]+), ([^,>]+), (?:\(int\))?(\d)>", name)
    if m:
        phases = {"1": "load", "2": "early", "3": "rank", "4": "offsets", "5": "lookback", "6": "stage", "7": "full"}
        return f"port pass {'kv' if yes(m.group(1)) else 'k'} {'robust' if yes(m.group(2)) else 'faithful'} {phases[m.group(3)]}"
    m = re.search(r"radix_histogram<([^>]+)>", name)
    if m:
        return f"port histogram {'robust' if yes(m.group(1)) else 'faithful'}"
    for key in ("Onesweep", "Histogram", "ExclusiveSum", "Upsweep", "Downsweep", "SingleTile", "Scan"):
        if "DeviceRadixSort" + key in name:
            return "cub " + key
    return name[:40]

def num(row, key):
    v = row.get(key, "")
    try:
        return float(str(v).replace(",", ""))
    except ValueError:
        return None

cols = [
    ("time_us", "gpu__time_duration.sum", 1e-3),
    ("regs", "launch__registers_per_thread", 1),
    ("occ_lim_reg", "launch__occupancy_limit_registers", 1),
    ("occ_lim_smem", "launch__occupancy_limit_shared_mem", 1),
    ("theo_occ%", "sm__maximum_warps_per_active_cycle_pct", 1),
    ("ach_occ%", "sm__warps_active.avg.pct_of_peak_sustained_active", 1),
    ("bank_cf_ld", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1),
    ("bank_cf_st", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 1),
    ("smem_wavef", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 1),
    ("dram%", "dram__throughput.avg.pct_of_peak_sustained_elapsed", 1),
    ("l2%", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 1),
    ("dram_MB", "dram__bytes.sum", 1e-6),
    ("issue%", "smsp__issue_active.avg.pct_of_peak_sustained_active", 1),
]
stall_prefix = "smsp__average_warps_issue_stalled_"
for name in ("port", "port_values", "cub", "cub_pairs"):
    path = os.path.join(out, f"ncu_{name}.csv")
    if not os.path.exists(path):
        continue
    text = open(path).read().splitlines()
    start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
    if start is None:
        print(f"\n== ncu_{name}.csv: no data (see ncu_{name}.log) ==")
        continue
    data = list(csv.DictReader(text[start:]))
    data = [r for r in data if r.get("Kernel Name")]  # drops the units row
    print(f"\n== ncu {name} ({len(data)} kernels; ncu clocks locked to base; stalls = warps per issued instruction) ==")
    print(f"{'kernel':36} " + " ".join(f"{c[0]:>12}" for c in cols) + "  top stalls")
    for r in data:
        vals = []
        for label, key, scale in cols:
            v = num(r, key)
            vals.append(f"{v * scale:12.2f}" if v is not None else f"{'-':>12}")
        stalls = []
        for k, v in r.items():
            if k and k.startswith(stall_prefix):
                x = num(r, k)
                if x is not None:
                    stalls.append((x, k[len(stall_prefix):].replace("_per_issue_active.ratio", "")))
        stalls.sort(reverse=True)
        top = " ".join(f"{n}={x:.2f}" for x, n in stalls[:5])
        print(f"{short(r['Kernel Name']):36} " + " ".join(vals) + "  " + top)
EOF
cat "$OUT/summary.txt"
rm -rf "$BUILD"
stamp "done; outputs in $OUT"
if [ "$CHECK_FAILED" = 1 ]; then echo "CORRECTNESS CHECK FAILED (see check.txt)"; exit 1; fi
exit 0
