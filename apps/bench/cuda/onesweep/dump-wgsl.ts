// Writes the WGSL that onesweep.cu ports: the radix sort's kernels as the plan specializes them on an
// NVIDIA GPU (subgroups of 32, 256 invocations of 13 keys, one-word ballots, unrolled, u32 keys
// ascending). Compare it with the port after a change to the WGSL:
//
//   apps/bench/node_modules/.bin/esbuild apps/bench/cuda/onesweep/dump-wgsl.ts --bundle --platform=node \
//     --format=esm --outfile=/tmp/dump-wgsl.mjs && node /tmp/dump-wgsl.mjs OUT_DIR ['{"skipClears":false}']
//
// The optional second argument is JSON merged into the pass's spec (another shape's WGSL, for
// dump-spirv.mjs or a diff).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { digitPasses } from '../../../../packages/sort/src/kernels/radix-digits.js';
import { digitScanKernel, radixHistogramKernel } from '../../../../packages/sort/src/kernels/radix-histogram.js';
import { onesweepKernel } from '../../../../packages/sort/src/kernels/radix-onesweep.js';

const out = process.argv[2] ?? 'onesweep-wgsl';
mkdirSync(out, { recursive: true });
const passes = digitPasses([0, 32]);
const overrides = JSON.parse(process.argv[3] ?? '{}') as Record<string, unknown>;
const pass = {
  keyType: 'u32',
  descending: false,
  width: 8,
  subgroups: true,
  maskWords: 1,
  workgroupSize: 256,
  elementsPerThread: 13,
  maxGroups: 8,
  maxSpin: 64,
  lookBackWindow: 8,
  batchScatter: false,
  leaderPopcount: true,
  skipClears: true,
  forceFallback: false,
  unrolled: true,
  padLast: true,
  ...overrides,
} as const;
const files: Record<string, string> = {
  'onesweep-none.wgsl': onesweepKernel({ ...pass, values: 'none' }).wgsl(),
  'onesweep-move.wgsl': onesweepKernel({ ...pass, values: 'move' }).wgsl(),
  // The pass as it was before padLast (2026-12-05): every phase tests each key's index.
  'onesweep-none-index-tests.wgsl': onesweepKernel({ ...pass, values: 'none', padLast: false }).wgsl(),
  'histogram.wgsl': radixHistogramKernel({
    keyType: 'u32',
    descending: false,
    passes,
    workgroupSize: 256,
    elementsPerThread: 16,
  }).wgsl(),
  'digit-scan.wgsl': digitScanKernel({ passes: passes.length }).wgsl(),
};
for (const [name, wgsl] of Object.entries(files)) writeFileSync(join(out, name), wgsl);
console.log(`wrote ${Object.keys(files).join(', ')} to ${out}`);
