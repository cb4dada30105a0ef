// Seeded property tests of user-defined operators on the GPU (issue 48): each seed draws an operator
// from @scan/gpu-testing's small algebra (operator-algebra.ts: a scalar, vector or record of 1–8
// lanes; per-lane add/min/max/xor, f32 affine maps, 2×2 integer matrices) and its data, and checks
// the GPU's scans (forward and backward, inclusive and exclusive) and reduction bit for bit against
// the CPU references (scanWith, reduceWith) at every size of SIZES — one workgroup's 256 invocations
// and its neighbours, and several tiles of 256 × K records — and at one size drawn from TILE_EDGES.
// A seed draws the same operator as in the node test (test/node/operators/operator-properties.node.test.ts),
// only larger. Compiling the pipelines is most of the time on SwiftShader, so each seed's plans run
// in one submit (runBatch) at every size; odd seeds cut the records into ranges of 512 (several
// dispatches joined by carries). A few seeds run again with the portable (no-subgroup) kernels, and
// through the public scan and reduce.
// A failure names its seed; replay one alone (the browser sees only VITE_-prefixed variables) with
//   VITE_OPERATOR_SEED=<seed> npx vitest run --project browser test/operator-properties.test.ts
// and run more seeds with VITE_OPERATOR_SEED_COUNT=<k>.
import {
  bufferOf,
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
import type { ScanContext } from '../src/context.js';
import { reduce, scan } from '../src/index.js';
import { reduceWith, scanWith } from '../src/operators/cpu-operator.js';
import type { HostArray } from '../src/operators/host-records.js';
import type { Operator } from '../src/operators/operator-type.js';
import { createOperatorReducePlan } from '../src/plans/operator-reduce-plan.js';
import { createOperatorScanPlan } from '../src/plans/operator-scan-plan.js';

const SIZES = PROPERTY_SIZES;
const TILE_EDGES = PROPERTY_TILE_EDGES;
/**
 * Seeds run: 8 by default, about 3 s each on SwiftShader (2 cores), nearly all of it compiling the
 * seed's pipelines (a scan per variant, the reduction's two); the first PORTABLE also without
 * subgroups, whose pipelines compile slower (5–8 s a seed), with two of the scan variants. About
 * 35 s in all; VITE_OPERATOR_SEED_COUNT runs more where there is time (a real GPU).
 */
const SEEDS = operatorSeeds(8);
const PORTABLE = 2;

const VARIANTS = SCAN_VARIANTS;
type Variant = (typeof VARIANTS)[number];
const PORTABLE_VARIANTS = PORTABLE_SCAN_VARIANTS;

function expectAgrees(d: DrawnOperator, op: Operator<unknown>, what: string, got: ArrayBuffer | HostArray, want: HostArray): void {
  expect(propertyProblem(d, op, what, got, want, 'test/operator-properties.test.ts')).toBeUndefined();
}

/** The scan `variants` and the reduction of `d`'s operator at every size, in one submit, against the references. */
async function checkPlans(ctx: ScanContext, d: DrawnOperator, variants: readonly Variant[], label: string): Promise<void> {
  const op = operatorOf(d);
  const sizes = [...SIZES, d.n];
  const maxChunkRecords = d.seed % 2 === 1 ? 512 : undefined;
  const modes = [...variants.map((v) => ({ mode: 'scan' as const, ...v })), { mode: 'reduce' as const, inclusive: true, backward: false }];
  const jobs = sizes.flatMap((n) => {
    const { data } = drawData({ ...d, n }, op);
    return modes.map((m) => ({ ...m, n, data }));
  });
  const owned: { destroy(): void }[] = [];
  const results = await runBatch(
    ctx,
    jobs.map((job) => ({
      record: (encoder: GPUCommandEncoder) => {
        const plan =
          job.mode === 'scan'
            ? createOperatorScanPlan(ctx, { op, ...job, maxCount: undefined, maxChunkRecords, forceFallback: false })
            : createOperatorReducePlan(ctx, { op, maxCount: undefined, maxChunkRecords });
        const input = bufferOf(ctx, job.data);
        const bytes = job.mode === 'scan' ? job.data.byteLength : op.bytes;
        const output = poisoned(ctx, bytes);
        owned.push(input, plan);
        plan.encode(encoder, { input, output, count: job.n });
        return [{ buffer: output, bytes }];
      },
    })),
    owned,
  );
  jobs.forEach((job, i) => {
    const got = results[i]![0]!;
    const how = `n=${job.n} maxChunkRecords=${maxChunkRecords} ${label}`;
    if (job.mode === 'reduce') {
      expectAgrees(d, op, `reduce ${how}`, got, encodeRecords(op, [reduceWith(op, job.data)], d.Class));
    } else {
      const { inclusive, backward } = job;
      expectAgrees(d, op, `scan inclusive=${inclusive} backward=${backward} ${how}`, got, scanWith(op, job.data, { inclusive, backward }));
    }
  });
}

describe('operators drawn from a small algebra, on the GPU, against the CPU references', () => {
  for (const [index, seed] of SEEDS.entries()) {
    const d = drawOperator(seed, { sizes: TILE_EDGES });
    it(`seed ${seed} (${describeDrawn(d)})`, async () => {
      await checkPlans(await getTestContext(), d, VARIANTS, '(subgroups where the device has them)');
    });

    if (index < PORTABLE) {
      it(`seed ${seed} without subgroups, and through scan and reduce (${describeDrawn(d)})`, async () => {
        const ctx = await getTestContext({ subgroups: false });
        await checkPlans(ctx, d, PORTABLE_VARIANTS, '(no subgroups)');
        // The public functions at the drawn size: the array class comes back, the records agree.
        const op = operatorOf(d);
        const { data } = drawData(d, op);
        for (const { inclusive, backward } of PORTABLE_VARIANTS) {
          const got = await scan(ctx, data, { op, inclusive, backward });
          expect(got, `seed ${seed}: scan's class`).toBeInstanceOf(d.Class);
          expectAgrees(
            d,
            op,
            `scan() inclusive=${inclusive} backward=${backward} n=${d.n} (no subgroups)`,
            got,
            scanWith(op, data, { inclusive, backward }),
          );
        }
        const total = await reduce(ctx, data, { op });
        expectAgrees(
          d,
          op,
          `reduce() n=${d.n} (no subgroups)`,
          encodeRecords(op, [total], d.Class),
          encodeRecords(op, [reduceWith(op, data)], d.Class),
        );
      });
    }
  }
});
