#!/usr/bin/env bash
# The WGSL radix sort (through Dawn) in several shapes of its one-sweep pass, in one device call,
# through the bench's `--tuning`. A shape is the keys per invocation followed by letters:
#   s  per-key registers as scalars instead of private arrays (`scalarKeys`). On the H200 the arrays
#      fell off a cliff past 13 keys (11.2 ms at 13, 17.2 at 14, 16.1 at 16) while the CUDA port of
#      the pass is fastest at 16; this says whether scalars move it;
#   g  the ranking's ballots test their bit by a sign shift (`ballotBits: 'sign'`): 5 instructions
#      per bit instead of 7 as nvcc compiles the port (sass-counts.sh), the ranking being the
#      phase where the pass issues twice CUB's instructions.
#   p  partial tiles padded with the key that sorts last (`padLast`): no index test per key in the
#      ranking, the tile offsets and the staging (5% fewer instructions, 64 registers instead of 80
#      as nvcc compiles the port).
#
# Here: pnpm --filter @scan/bench build && bash ../shared/gpu/pack.sh
# Device call: carry [".gpu", "apps/bench/dist"], command
#   source .gpu/remote.sh && bash apps/bench/cuda/onesweep/wgsl-variants.sh "$OUT" <commit>
# Writes one bench report per shape (sort and sort-pairs, radix only, u32, 2^24 and 2^28) and a table.
set -uo pipefail
out=${1:?usage: wgsl-variants.sh OUTPUT_FOLDER COMMIT}
commit=${2:?usage: wgsl-variants.sh OUTPUT_FOLDER COMMIT}
mkdir -p "$out"
shapes=${SHAPES:-"13 13g 13p 13gp 13sgp 16sgp"}
for shape in $shapes; do
  keys=${shape%%[a-z]*}
  flags=${shape#"$keys"}
  scalars=false
  [[ $flags == *s* ]] && scalars=true
  ballots=shift
  [[ $flags == *g* ]] && ballots=sign
  pad=false
  [[ $flags == *p* ]] && pad=true
  tuning="{\"elementsPerThread\":$keys,\"scalarKeys\":$scalars,\"ballotBits\":\"$ballots\",\"padLast\":$pad}"
  echo "== $shape: $tuning"
  timeout 240 node apps/bench/dist/cli.js --only sort,sort-pairs --types u32 --sizes 2^24,2^28 --tuning "$tuning" \
    --commit "$commit" --out "$out/sort-$shape.json" >"$out/sort-$shape.log" 2>&1 || echo "== $shape FAILED (see sort-$shape.log)"
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
