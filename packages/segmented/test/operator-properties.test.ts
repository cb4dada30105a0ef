// Seeded property tests of user-defined operators in segments, on the GPU (issue 48): each seed
// draws an operator from @scan/gpu-testing's small algebra (operator-algebra.ts: a scalar, vector or
// record of 1–8 lanes; per-lane add/min/max/xor, f32 affine maps, 2×2 integer matrices), its data
// and head flags of a drawn density (none to every record a head; record 0 need not be flagged),
// and checks the GPU's segmented scans (forward and backward, inclusive and exclusive) and
// segmented reduction bit for bit against the CPU references (segmentedScanWith,
// segmentedReduceWith) at every size of SIZES and at one drawn from TILE_EDGES (tiles of 256 × K
// records). Compiling the pipelines is most of the time on SwiftShader, so each seed's plans run in
// one submit (runBatch) at every size; odd seeds cut the records into ranges of 512 (dispatches
// joined by carries). The public segmentedScan and segmentedReduce then run at the drawn size (their
// pipelines cached), segmentedReduce also with `{ offsets }` holding empty segments (the identity).
// A few seeds run again with the portable (no-subgroup) kernels. A seed draws the same operator,
// density and class as in core's tests (test/operator-properties.test.ts, and the node test).
// A failure names its seed; replay one alone (the browser sees only VITE_-prefixed variables) with
//   VITE_OPERATOR_SEED=<seed> npx vitest run --project browser test/operator-properties.test.ts
// and run more seeds with VITE_OPERATOR_SEED_COUNT=<k>.
import type { HostArray, Operator, ScanContext } from '@scan/core';
import { segmentedReduceWith, segmentedScanWith } from '@scan/core/kit';
import {
  bufferOf,
  createRng,
  type DrawnOperator,
  describeDrawn,
  drawData,
  drawOperator,
  encodeRecords,
  getTestContext,
  operatorOf,
  operatorSeeds,
  PORTABLE_SCAN_VARIANTS,
  PROPERTY_SIZES,
  PROPERTY_TILE_EDGES,
  poisoned,
  propertyProblem,
  runBatch,
  SCAN_VARIANTS,
} from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { packHeadFlags } from '../src/cpu/pack-head-flags.js';
import { segmentedReduce, segmentedScan } from '../src/index.js';
import { createOperatorSegmentedPlan } from '../src/plans/operator-segmented-plan.js';

const SIZES = PROPERTY_SIZES;
const TILE_EDGES = PROPERTY_TILE_EDGES;
/**
 * Seeds run: 5 by default, about 6 s each on SwiftShader (2 cores), nearly all of it compiling the
 * seed's five segmented pipelines (the public functions then find them cached); the first PORTABLE
 * also without subgroups, with two of the scan variants. About 40 s in all; VITE_OPERATOR_SEED_COUNT
 * runs more where there is time (a real GPU).
 */
const SEEDS = operatorSeeds(5);
const PORTABLE = 1;

const VARIANTS = SCAN_VARIANTS;
type Variant = (typeof VARIANTS)[number];
const PORTABLE_VARIANTS = PORTABLE_SCAN_VARIANTS;

function expectAgrees(d: DrawnOperator, op: Operator<unknown>, what: string, got: ArrayBuffer | HostArray, want: HostArray): void {
  expect(propertyProblem(d, op, what, got, want, 'test/operator-properties.test.ts')).toBeUndefined();
}

/** Segments the head flags make: record 0 starts one whatever its flag. */
function segmentCount(heads: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < heads.length; i++) count += heads[i] === 1 || i === 0 ? 1 : 0;
  return count;
}

/**
 * Offsets of the segments the head flags make, with empty segments drawn in: before any segment
 * (several at the start too) and after the last.
 */
function offsetsOf(heads: Uint8Array, seed: number): Uint32Array {
  const rng = createRng(seed ^ 0x0ff5e7);
  const out: number[] = [];
  for (let i = 0; i < Math.max(1, heads.length); i++) {
    if (i > 0 && heads[i] !== 1) continue;
    while (rng.float() < 0.25) out.push(i);
    out.push(i);
  }
  while (rng.float() < 0.4) out.push(heads.length);
  out.push(heads.length);
  return Uint32Array.from(out);
}

/** The reference of a reduction over offsets: the non-empty segments' (by head flags), the identity for an empty one. */
function reduceOffsetsWith(op: Operator<unknown>, data: HostArray, offsets: Uint32Array, Class: DrawnOperator['Class']): HostArray {
  const n = offsets[offsets.length - 1]!;
  const heads = new Uint8Array(n);
  for (let k = 0; k + 1 < offsets.length; k++) if (offsets[k + 1]! > offsets[k]!) heads[offsets[k]!] = 1;
  const reduced = n === 0 ? new Uint32Array(0) : segmentedReduceWith(op, data, heads);
  const compact = new Uint32Array(reduced.buffer, reduced.byteOffset, reduced.byteLength / 4);
  const identity = new Uint32Array(encodeRecords(op, [op.identity], Class).buffer);
  const w = op.lanes.length;
  const out = new Class((offsets.length - 1) * w);
  const words = new Uint32Array(out.buffer);
  for (let k = 0, j = 0; k + 1 < offsets.length; k++) {
    words.set(offsets[k + 1]! > offsets[k]! ? compact.subarray(w * j, w * ++j) : identity, w * k);
  }
  return out;
}

/** The segmented scan `variants` and the reduction of `d`'s operator at every size, in one submit, against the references. */
async function checkPlans(ctx: ScanContext, d: DrawnOperator, variants: readonly Variant[], label: string): Promise<void> {
  const op = operatorOf(d);
  const sizes = [...SIZES, d.n];
  const maxChunkRecords = d.seed % 2 === 1 ? 512 : undefined;
  const modes = [...variants.map((v) => ({ mode: 'scan' as const, ...v })), { mode: 'reduce' as const, inclusive: true, backward: false }];
  const jobs = sizes.flatMap((n) => {
    const { data, heads } = drawData({ ...d, n }, op);
    return modes.map((m) => ({ ...m, n, data, heads }));
  });
  const owned: { destroy(): void }[] = [];
  const results = await runBatch(
    ctx,
    jobs.map((job) => ({
      record: (encoder: GPUCommandEncoder) => {
        const plan = createOperatorSegmentedPlan(ctx, { op, ...job, maxCount: undefined, maxChunkRecords, forceFallback: false });
        const segments = segmentCount(job.heads);
        const input = bufferOf(ctx, job.data);
        const headBits = bufferOf(ctx, packHeadFlags(job.heads));
        const bytes = (job.mode === 'scan' ? job.n : segments) * op.bytes;
        const output = poisoned(ctx, bytes);
        owned.push(input, headBits, plan);
        plan.encode(encoder, { input, headBits, output, count: job.n, segments });
        return [{ buffer: output, bytes }];
      },
    })),
    owned,
  );
  jobs.forEach((job, i) => {
    const got = results[i]![0]!;
    const how = `n=${job.n} segments=${segmentCount(job.heads)} maxChunkRecords=${maxChunkRecords} ${label}`;
    if (job.mode === 'reduce') {
      expectAgrees(d, op, `segmented reduce ${how}`, got, segmentedReduceWith(op, job.data, job.heads));
    } else {
      const { inclusive, backward } = job;
      const want = segmentedScanWith(op, job.data, job.heads, { inclusive, backward });
      expectAgrees(d, op, `segmented scan inclusive=${inclusive} backward=${backward} ${how}`, got, want);
    }
  });
}

/** The public segmentedScan and segmentedReduce (head flags, and offsets with empty segments) at the drawn size. */
async function checkPublic(ctx: ScanContext, d: DrawnOperator, variants: readonly Variant[], label: string): Promise<void> {
  const op = operatorOf(d);
  const { data, heads } = drawData(d, op);
  for (const { inclusive, backward } of variants) {
    const got = await segmentedScan(ctx, data, heads, { op, inclusive, backward });
    expect(got, `seed ${d.seed}: segmentedScan's class`).toBeInstanceOf(d.Class);
    const want = segmentedScanWith(op, data, heads, { inclusive, backward });
    expectAgrees(d, op, `segmentedScan() inclusive=${inclusive} backward=${backward} n=${d.n} ${label}`, got, want);
  }
  const totals = await segmentedReduce(ctx, data, heads, { op });
  expectAgrees(d, op, `segmentedReduce() heads n=${d.n} ${label}`, totals, segmentedReduceWith(op, data, heads));
  // Offsets with empty segments, at the drawn size and with no records at all.
  for (const n of [d.n, 0]) {
    const { data: part, heads: partHeads } = drawData({ ...d, n }, op);
    const offsets = offsetsOf(partHeads, d.seed + n);
    const got = await segmentedReduce(ctx, part, { offsets }, { op });
    expect(got, `seed ${d.seed}: segmentedReduce's class`).toBeInstanceOf(d.Class);
    const what = `segmentedReduce() offsets n=${n} segments=${offsets.length - 1} (${offsets.length - 1 - segmentCount(partHeads)} empty) ${label}`;
    expectAgrees(d, op, what, got, reduceOffsetsWith(op, part, offsets, d.Class));
  }
}

describe('operators drawn from a small algebra, in segments on the GPU, against the CPU references', () => {
  for (const [index, seed] of SEEDS.entries()) {
    const d = drawOperator(seed, { sizes: TILE_EDGES });
    it(`seed ${seed} (${describeDrawn(d)})`, async () => {
      const ctx = await getTestContext();
      await checkPlans(ctx, d, VARIANTS, '(subgroups where the device has them)');
      await checkPublic(ctx, d, VARIANTS, '(subgroups where the device has them)');
    });

    if (index < PORTABLE) {
      it(`seed ${seed} without subgroups (${describeDrawn(d)})`, async () => {
        const ctx = await getTestContext({ subgroups: false });
        await checkPlans(ctx, d, PORTABLE_VARIANTS, '(no subgroups)');
        await checkPublic(ctx, d, PORTABLE_VARIANTS, '(no subgroups)');
      });
    }
  }
});
