import { createScanPlan, type ScanOp } from '@scan/core';
import { scan as cpuScan } from '@scan/core/cpu';
import { benchModule } from '../bench-module.js';
import { type Case, type CaseSelection, type CaseShape, SCAN_ALGORITHM_NAMES, type ScanAlgorithmName } from '../case-types.js';
import { encodeFill, runElementCheck } from '../child/device-ops.js';
import { BufferPool, submitAndWait } from '../child/gpu.js';
import { checkScanKernel, type ScanCheckSpec } from '../child/kernels/check-scan.js';
import { countDifferences, POISON, randomFillMode, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';

// The scan of @scan/core: every algorithm `--algorithms` names, with the scan variants.

/** A scan case: the algorithm of `createScanPlan`, the operator, and the direction. */
export type ScanCase = Case<'scan', { algorithm: ScanAlgorithmName; op: ScanOp; inclusive: boolean; backward: boolean }>;

/** The algorithms run when `--algorithms` is not given ('auto' is one of them by another name). */
export const DEFAULT_SCAN_ALGORITHMS: readonly ScanAlgorithmName[] = ['blelloch', 'reduce-then-scan', 'decoupled-fallback'];

/**
 * The scan configurations run for one algorithm; `withVariants` adds inclusive, backward, i32 max
 * and f32 add.
 *
 * @example
 * ```ts
 * scanShapes('blelloch', false); // [{ primitive: 'scan', algorithm: 'blelloch', type: 'u32', op: 'add', inclusive: false, backward: false }]
 * scanShapes('decoupled-fallback', true).length; // 5
 * ```
 */
export function scanShapes(algorithm: ScanAlgorithmName, withVariants: boolean): CaseShape<ScanCase>[] {
  const base = { primitive: 'scan', algorithm, type: 'u32', op: 'add', inclusive: false, backward: false } as const;
  const shapes: CaseShape<ScanCase>[] = [base];
  if (withVariants) {
    shapes.push({ ...base, inclusive: true }, { ...base, backward: true }, { ...base, type: 'i32', op: 'max' }, { ...base, type: 'f32' });
  }
  return shapes;
}

/**
 * The scan configurations of a selection: without `--algorithms` the variants run on the fastest
 * portable algorithm only; naming algorithms asks for a side-by-side comparison, so each gets
 * every variant.
 *
 * @example
 * ```ts
 * selectedScanShapes({}).length; // 7: blelloch, reduce-then-scan, decoupled-fallback with its 4 variants
 * ```
 */
export function selectedScanShapes(selection: Pick<CaseSelection, 'algorithms'>): CaseShape<ScanCase>[] {
  return selection.algorithms
    ? selection.algorithms.flatMap((a) => scanShapes(a, true))
    : DEFAULT_SCAN_ALGORITHMS.flatMap((a) => scanShapes(a, a === 'decoupled-fallback'));
}

function scanAlgorithm(name: string): ScanAlgorithmName {
  if ((SCAN_ALGORITHM_NAMES as readonly string[]).includes(name)) return name as ScanAlgorithmName;
  throw new Error(`scan: algorithm ${name} is not one of ${SCAN_ALGORITHM_NAMES.join(', ')}`);
}

/**
 * `scan` in the registry: random data (f32: small integers) with the case's type, operator,
 * direction and algorithm; checked element by element against the scan recurrence.
 *
 * @example
 * ```ts
 * const w = await SCAN.workload?.(ctx, c);
 * ```
 */
export const SCAN = benchModule<ScanCase>({
  package: '@scan/core',
  primitives: ['scan'],
  shapes: selectedScanShapes,
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const spec: ScanCheckSpec = { type: c.type, op: c.op, inclusive: c.inclusive, backward: c.backward };
    const input = pool.storage(4 * n, 'scan input');
    const output = pool.storage(4 * n, 'scan output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, input, n, randomFillMode(c.type), c.seed);
    encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createScanPlan(ctx, { ...spec, algorithm: scanAlgorithm(c.algorithm), maxCount: n });
    const check = checkScanKernel(spec);
    return {
      bytes: bytesMoved('scan', n),
      output,
      encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
      verify: () => runElementCheck(ctx, pool, check, input, output, n),
      async compareWithCpu() {
        const data = await readArray(ctx, input, n, c.type);
        const expected = cpuScan(data, { op: spec.op, inclusive: spec.inclusive, backward: spec.backward });
        return countDifferences(expected, await readArray(ctx, output, n, c.type));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});
