#!/usr/bin/env bash
# The WGSL radix sort (through Dawn) in several shapes of its one-sweep pass, in one device call,
# through the bench's `--tuning`. A shape is the keys per invocation, then `i` for partial tiles
# tested key by key instead of padded (`padLast: false`, the pass before 2026-12-05). On the H200 the
# pass falls off a cliff past 13 keys (10.7 ms at 13, 15.9 at 14) while the CUDA port of the pass
# is fastest at 16; the shapes say where it stands after a change.
#
# Here: pnpm --filter @scan/bench build && bash ../shared/gpu/pack.sh
# Device call: carry [".gpu", "apps/bench/dist"], command
#   source .gpu/remote.sh && bash apps/bench/cuda/onesweep/wgsl-variants.sh "$OUT" <commit>
# Writes one bench report per shape (sort and sort-pairs, radix only, u32, 2^24 and 2^28) and a table.
set -uo pipefail
out=${1:?usage: wgsl-variants.sh OUTPUT_FOLDER COMMIT}
commit=${2:?usage: wgsl-variants.sh OUTPUT_FOLDER COMMIT}
mkdir -p "$out"
shapes=${SHAPES:-"12 13 13i 14 16"}
for shape in $shapes; do
  keys=${shape%%[a-z]*}
  flags=${shape#"$keys"}
  pad=true
  [[ $flags == *i* ]] && pad=false
  tuning="{\"elementsPerThread\":$keys,\"padLast\":$pad}"
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
