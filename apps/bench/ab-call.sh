#!/usr/bin/env bash
# Times two or more builds of the bench against each other in ONE call on the GPU machine, so that
# every ratio comes from one card: each round runs every build once, in turn, with the same
# arguments (alternating evens out the clock and the card's warmth), then ab-compare.py prints each
# case's mean over the rounds and its change against the first build, and the geometric mean.
#
# Build each version's bench here first (`pnpm --filter "@scan/bench..." build` in a worktree of that
# commit) and copy its apps/bench/dist into one folder per build under an ignored path, e.g.
# bench-results/ab/base and bench-results/ab/new; then, through the device tool (carry .gpu and
# bench-results/ab) or scripts/remote-bench.sh --run:
#   source .gpu/remote.sh && bash apps/bench/ab-call.sh "$OUT" bench-results/ab base new -- \
#     --only scan,pack --types u32 --sizes 2^24,2^28
# ROUNDS (default 2) and PER_RUN (seconds each run may take, default 200) are read from the
# environment. Writes OUT/<build>-<round>.json and .log, ab.md (the table), and packs the reports
# into ab.tgz (few files come back from a device call).
set -uo pipefail
out=${1:?usage: ab-call.sh OUT BUILDS_DIR BUILD... -- BENCH_ARGS...}
dir=${2:?usage: ab-call.sh OUT BUILDS_DIR BUILD... -- BENCH_ARGS...}
shift 2
builds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do builds+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#builds[@]} -ge 2 ] || { echo "ab-call.sh: give at least two builds" >&2; exit 2; }
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/device-steps.sh"
record_gpu
for round in $(seq 1 "${ROUNDS:-2}"); do
  for b in "${builds[@]}"; do
    echo "== round $round: $b" >&2
    timeout "${PER_RUN:-200}" node "$dir/$b/cli.js" "$@" --commit "$b" --out "$out/$b-$round.json" >"$out/$b-$round.log" 2>&1 ||
      echo "== $b round $round ended with $? (see $b-$round.log)" >&2
  done
done
python3 "$(dirname "${BASH_SOURCE[0]}")/ab-compare.py" "$out" "${builds[@]}" | tee "$out/ab.md"
(cd "$out" && tar czf ab.tgz ./*.json ./*.log gpu.txt && rm -f ./*.json ./*.log)
