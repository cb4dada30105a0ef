#!/usr/bin/env bash
# Builds onesweep.cu in several compile-time configurations (README.md "Experiments"), checks each,
# times each (full sorts at 2^24 and 2^28, key-value at 2^28, one digit pass stopped after the rank
# and after the whole pass), and prints one summary table last.
#
#   bash apps/bench/cuda/onesweep/variants.sh [OUT]     (from the repository root; OUT defaults to ./out)
#
# Outputs in OUT (few files, on purpose): variants.jsonl (every result, one JSON object a line, with
# "config"), variants-summary.txt (the table, also printed last), variants-logs.tar.gz (builds,
# ptxas output, every run's full output). About 3 minutes on an H200.
# Environment knobs:
#   CONFIGS="default match ..."  run only these configurations (names from the list below)
#   REPS (default 20), WARMUP (default 5), JOBS (parallel builds, default nproc)
#   BUILD_ONLY=1                 build + registers only (no GPU needed; for checking the knobs compile)
#   TIME_CHECK=1                 --check on the timing runs too (2^24, 2^28, key-value 2^28). Off by
#                                default: the CPU reference sort of 2^28 keys takes ~10-20 s on the
#                                host, twice per configuration, which would break the ~4 minute budget.
#                                Correctness is gated by the check step (up to 2^24 + 43 keys, keys
#                                and key-value) for every configuration either way.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:-./out}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
WORK="${TMPDIR:-/tmp}/onesweep-variants.$$"
LOGS="$WORK/variants-logs"
mkdir -p "$LOGS"
REPS="${REPS:-20}"
WARMUP="${WARMUP:-5}"
JOBS="${JOBS:-$(nproc 2> /dev/null || echo 4)}"
TIME_CHECK="${TIME_CHECK:-0}"
NVCC_FLAGS=(-arch=sm_90 -O3 -lineinfo -std=c++17 -Xptxas -v)
T0=$(date +%s)
stamp() { echo "== [$(( $(date +%s) - T0 ))s] $*"; }

# name|nvcc defines. The defaults are RANK_MATCH=0 RANK_COUNTER=0 RANK_FIXUP_SPLIT=0 MIN_BLOCKS=0
# KEYS_PER_THREAD=13 WG_SIZE=256 RANK_BITS=0 PAD_LAST=0 (the faithful port of 5d169f8). The WGSL of
# 2026-12-05 is `split_pad` (padLast by default).
ALL_CONFIGS=(
  "default|"
  "match|-DRANK_MATCH=1"
  "counter|-DRANK_COUNTER=1"
  "split|-DRANK_FIXUP_SPLIT=1"
  "counter_split|-DRANK_COUNTER=1 -DRANK_FIXUP_SPLIT=1"
  "minb4|-DMIN_BLOCKS=4"
  "counter_minb4|-DRANK_COUNTER=1 -DMIN_BLOCKS=4"
  "e9|-DKEYS_PER_THREAD=9"
  "e12|-DKEYS_PER_THREAD=12"
  "e16|-DKEYS_PER_THREAD=16"
  "e18|-DKEYS_PER_THREAD=18"
  "wg384_e9|-DWG_SIZE=384 -DKEYS_PER_THREAD=9"
  "wg384_e12|-DWG_SIZE=384 -DKEYS_PER_THREAD=12"
  "combo|-DRANK_COUNTER=1 -DRANK_FIXUP_SPLIT=1 -DMIN_BLOCKS=4"
  "combo_match|-DRANK_MATCH=1 -DRANK_COUNTER=1 -DRANK_FIXUP_SPLIT=1 -DMIN_BLOCKS=4"
  "split_sign|-DRANK_FIXUP_SPLIT=1 -DRANK_BITS=1"
  "split_constmask|-DRANK_FIXUP_SPLIT=1 -DRANK_BITS=2"
  "split_cubptx|-DRANK_FIXUP_SPLIT=1 -DRANK_BITS=3"
  "split_cubptx_e16|-DRANK_FIXUP_SPLIT=1 -DRANK_BITS=3 -DKEYS_PER_THREAD=16"
  "split_pad|-DRANK_FIXUP_SPLIT=1 -DPAD_LAST=1"
  "split_pad_sign|-DRANK_FIXUP_SPLIT=1 -DPAD_LAST=1 -DRANK_BITS=1"
  "split_pad_sign_e16|-DRANK_FIXUP_SPLIT=1 -DPAD_LAST=1 -DRANK_BITS=1 -DKEYS_PER_THREAD=16"
)
SELECTED=()
for c in "${ALL_CONFIGS[@]}"; do
  name="${c%%|*}"
  if [ -z "${CONFIGS:-}" ] || [[ " $CONFIGS " == *" $name "* ]]; then SELECTED+=("$c"); fi
done
[ "${#SELECTED[@]}" -gt 0 ] || { echo "no configuration selected (CONFIGS=$CONFIGS)"; exit 2; }

JSONL="$OUT/variants.jsonl"
: > "$JSONL"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true
  nvcc --version | tail -n 2
} > "$LOGS/env.txt" 2>&1

# ---- 1. Builds, all at once (JOBS at a time) ------------------------------------------------------
stamp "build ${#SELECTED[@]} configurations ($JOBS at a time)"
build() {  # name, defines...
  local name="$1"; shift
  mkdir -p "$WORK/$name" "$LOGS/$name"
  echo "nvcc ${NVCC_FLAGS[*]} $* -o onesweep onesweep.cu" > "$LOGS/$name/build.log"
  if nvcc "${NVCC_FLAGS[@]}" "$@" -o "$WORK/$name/onesweep" "$HERE/onesweep.cu" >> "$LOGS/$name/build.log" 2>&1; then
    echo ok > "$LOGS/$name/build.rc"
  else
    echo FAIL > "$LOGS/$name/build.rc"
  fi
}
running=0
for c in "${SELECTED[@]}"; do
  name="${c%%|*}"; defs="${c#*|}"
  # shellcheck disable=SC2086  # the defines split on spaces on purpose
  build "$name" $defs &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n 2> /dev/null || wait; running=$((running - 1)); fi
done
wait

# ptxas: "Compiling entry function 'X'" ... "N bytes spill stores" ... "Used N registers" per entry.
# Prints "regs spill_stores spill_loads" of one mangled entry.
ptxas_of() {  # log, mangled name
  awk -v want="$2" '
    /Compiling entry function/ { cur = $0; sub(/.*function .\047?/, "", cur); sub(/\047.*/, "", cur); next }
    cur == want && /spill stores/ { for (i = 1; i <= NF; i++) { if ($i == "spill" && $(i+1) ~ /^stores/) ss = $(i-2); if ($i == "spill" && $(i+1) ~ /^loads/) sl = $(i-2) } }
    cur == want && /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i+1); cur = "" }
    END { printf "%s %s %s\n", (r == "" ? "-" : r), (ss == "" ? "-" : ss), (sl == "" ? "-" : sl) }' "$1"
}
KEYS_FULL='_Z13onesweep_passILb0ELb0ELi7EEv10PassParams'
KV_FULL='_Z13onesweep_passILb1ELb0ELi7EEv10PassParams'
KEYS_RANK='_Z13onesweep_passILb0ELb0ELi3EEv10PassParams'

# One JSON line per configuration with its build facts (the runs add theirs below).
for c in "${SELECTED[@]}"; do
  name="${c%%|*}"; defs="${c#*|}"
  log="$LOGS/$name/build.log"
  grep -E "Compiling entry|Used [0-9]+ registers|spill" "$log" | sed 's/ptxas info    : //' > "$LOGS/$name/ptxas.txt"
  read -r kr kss ksl <<< "$(ptxas_of "$log" "$KEYS_FULL")"
  read -r vr vss vsl <<< "$(ptxas_of "$log" "$KV_FULL")"
  read -r rr _ _ <<< "$(ptxas_of "$log" "$KEYS_RANK")"
  printf '{"impl":"variant-build","config":"%s","defines":"%s","build":"%s","regs_keys":"%s","spill_st_keys":"%s","spill_ld_keys":"%s","regs_kv":"%s","spill_st_kv":"%s","spill_ld_kv":"%s","regs_rank_stop":"%s"}\n' \
    "$name" "$defs" "$(cat "$LOGS/$name/build.rc")" "$kr" "$kss" "$ksl" "$vr" "$vss" "$vsl" "$rr" >> "$JSONL"
  printf '%-14s build %-4s regs keys %3s (spill st/ld %s/%s), kv %3s (%s/%s), rank-stop %3s   %s\n' \
    "$name" "$(cat "$LOGS/$name/build.rc")" "$kr" "$kss" "$ksl" "$vr" "$vss" "$vsl" "$rr" "$defs"
done

# ---- 2. Per configuration: check, time, ablate ---------------------------------------------------
# run_to NAME FILE ARGS...: one run of the configuration's binary (120 s limit), its output in the
# logs, its JSON lines (tagged with the configuration) in variants.jsonl.
run_to() {
  local name="$1" file="$2"; shift 2
  timeout 120 "$WORK/$name/onesweep" "$@" > "$LOGS/$name/$file" 2>&1
  local rc=$?
  echo "# rc=$rc" >> "$LOGS/$name/$file"
  grep '^{' "$LOGS/$name/$file" | sed "s/^{/{\"config\":\"$name\",/" >> "$JSONL"
  return $rc
}
if [ "${BUILD_ONLY:-0}" != 1 ]; then
  TC=()
  [ "$TIME_CHECK" = 1 ] && TC=(--check)
  for c in "${SELECTED[@]}"; do
    name="${c%%|*}"
    if [ "$(cat "$LOGS/$name/build.rc")" != ok ]; then
      stamp "$name: build failed, skipped"
      continue
    fi
    stamp "$name: check"
    ok=ok
    run_to "$name" check_keys.txt --n 1,3329,65539,1000003,16777259 --check --no-sort --variant faithful || ok=FAIL
    run_to "$name" check_values.txt --n 1,3329,65539,1000003,16777259 --check --no-sort --variant faithful --values || ok=FAIL
    grep -qE "FAIL|MISMATCH|CUDA error" "$LOGS/$name/check_keys.txt" "$LOGS/$name/check_values.txt" && ok=FAIL
    stamp "$name: check $ok; time keys 2^24,2^28 (+ one pass stopped after rank / full at each)"
    # The full sorts and the pass ablation in one process (one input, one CPU reference).
    tok=ok
    run_to "$name" time_keys.txt --log2n 24,28 ${TC[@]+"${TC[@]}"} --variant faithful --reps "$REPS" --warmup "$WARMUP" \
      --ablate --stops 3,7 || tok=FAIL
    stamp "$name: time key-value 2^28"
    run_to "$name" time_values.txt --log2n 28 ${TC[@]+"${TC[@]}"} --variant faithful --reps "$REPS" --warmup "$WARMUP" --values || tok=FAIL
    grep -qE "FAIL|MISMATCH|CUDA error" "$LOGS/$name/time_keys.txt" "$LOGS/$name/time_values.txt" && tok=FAIL
    # The host's view of the pass: "# onesweep_pass (faithful): R registers, S B static shared, B workgroups/SM"
    occ() { grep -m1 '^# onesweep_pass (faithful' "$1" | sed -E 's/.*: ([0-9]+) registers, ([0-9]+) B static shared, ([0-9]+) workgroups.*/\1 \2 \3/'; }
    read -r hr hs hb <<< "$(occ "$LOGS/$name/time_keys.txt")"
    read -r hvr _ hvb <<< "$(occ "$LOGS/$name/time_values.txt")"
    printf '{"impl":"variant-run","config":"%s","check":"%s","time_check":"%s","regs_keys":"%s","smem_bytes":"%s","blocks_per_sm_keys":"%s","regs_kv":"%s","blocks_per_sm_kv":"%s"}\n' \
      "$name" "$ok" "$tok" "${hr:--}" "${hs:--}" "${hb:--}" "${hvr:--}" "${hvb:--}" >> "$JSONL"
  done
fi

# ---- 3. Logs and the summary ---------------------------------------------------------------------
stamp "summary"
tar -C "$WORK" -czf "$OUT/variants-logs.tar.gz" variants-logs
python3 - "$JSONL" > "$OUT/variants-summary.txt" 2>&1 <<'EOF'
import json, sys
rows = []
for line in open(sys.argv[1]):
    try:
        rows.append(json.loads(line))
    except ValueError:
        pass
order, info = [], {}
for r in rows:
    c = r.get("config")
    if c is None:
        continue
    if c not in info:
        order.append(c)
        info[c] = {}
    d = info[c]
    impl = r.get("impl")
    if impl == "variant-build":
        d.update(defines=r["defines"], build=r["build"], regs=r["regs_keys"], regs_kv=r["regs_kv"],
                 spill=f'{r["spill_st_keys"]}/{r["spill_ld_keys"]}')
    elif impl == "variant-run":
        d.update(check=r["check"], tcheck=r["time_check"], blocks=r["blocks_per_sm_keys"], blocks_kv=r["blocks_per_sm_kv"],
                 smem=r["smem_bytes"])
        if r["regs_keys"] != "-":
            d["regs"] = r["regs_keys"]
        if r["regs_kv"] != "-":
            d["regs_kv"] = r["regs_kv"]
    elif impl == "port" and "ms" in r:
        key = ("kv" if r["values"] else "k", r["n"])
        d[key] = (r["ms"], r["gkeys_per_s"])
    elif impl == "port-pass":
        d[("stop", r["n"], r["stop_after"])] = r["ms"]

def f(v, fmt):
    return format(v, fmt) if isinstance(v, (int, float)) else "-"

N24, N28 = 1 << 24, 1 << 28
base = info.get("default", {})
print("== onesweep variants (median ms; G = G keys/s; pass = one digit pass at 2^28, rank = the pass stopped after phase 3) ==")
hdr = (f"{'config':14} {'regs':>4} {'kv':>3} {'spill':>5} {'blk/SM':>6} {'smem':>6} {'check':>5} "
       f"{'2^24 ms':>8} {'G':>6} {'2^28 ms':>8} {'G':>6} {'kv28 ms':>8} {'pass ms':>8} {'rank ms':>8} {'Δpass%':>7}  defines")
print(hdr)
for c in order:
    d = info[c]
    k24 = d.get(("k", N24), (None, None))
    k28 = d.get(("k", N28), (None, None))
    kv28 = d.get(("kv", N28), (None, None))
    p7 = d.get(("stop", N28, 7))
    p3 = d.get(("stop", N28, 3))
    b7 = base.get(("stop", N28, 7))
    delta = (p7 / b7 - 1) * 100 if isinstance(p7, float) and isinstance(b7, float) and b7 else None
    check = d.get("check", "-") if d.get("build") == "ok" else "BUILD"
    if check == "ok" and d.get("tcheck", "ok") != "ok":
        check = "tFAIL"
    blocks = d.get("blocks", "-")
    if d.get("blocks_kv", "-") not in ("-", blocks):
        blocks = f"{blocks}/{d['blocks_kv']}"
    print(f"{c:14} {d.get('regs', '-'):>4} {d.get('regs_kv', '-'):>3} {d.get('spill', '-'):>5} {blocks:>6} {d.get('smem', '-'):>6} "
          f"{check:>5} {f(k24[0], '8.3f'):>8} {f(k24[1], '6.2f'):>6} {f(k28[0], '8.3f'):>8} {f(k28[1], '6.2f'):>6} "
          f"{f(kv28[0], '8.3f'):>8} {f(p7, '8.3f'):>8} {f(p3, '8.3f'):>8} {f(delta, '+7.1f'):>7}  {d.get('defines', '')}")
print("regs/kv: ptxas registers of the keys-only / key-value pass (faithful, full); spill: spill stores/loads (keys);")
print("blk/SM: workgroups per SM the runtime allows (keys[/kv]); check: small sizes keys + kv (tFAIL: a timing run failed: CUDA error, non-zero exit, or its check with TIME_CHECK=1).")
EOF
cat "$OUT/variants-summary.txt"
rm -rf "$WORK"
stamp "done; outputs in $OUT (variants.jsonl, variants-summary.txt, variants-logs.tar.gz)"
