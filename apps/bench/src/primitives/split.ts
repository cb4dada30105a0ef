import { createSplitPlan, type ScatterTuning } from '@scan/core';
import { split as cpuSplit } from '@scan/core/cpu';
import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { readWords } from '../child/gpu.js';
import { countDifferences, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { type CompactFields, compactShapes, preparePartition } from './shared/partition.js';

/** A split case: the algorithm, the flags' type, the density of 1-flags and `--tuning`. */
export type SplitCase = Case<'split', CompactFields>;

/**
 * `split` in the registry: a stable split (0-flags first) of index-encoded data by random flags,
 * three ways (see `compactShapes`); checked for partition, stability and `falseCount` on the GPU.
 *
 * @example
 * ```ts
 * SPLIT.shapes(selection).length; // 3
 * ```
 */
export const SPLIT = benchModule<SplitCase>({
  package: '@scan/core',
  primitives: ['split'],
  shapes: (selection) => compactShapes('split', selection),
  async workload(ctx, c) {
    const n = c.n;
    const d = await preparePartition(ctx, c, 'split');
    // A sweep's tuning goes to the plan's unstable `tuning` (ScatterTuning), which checks its keys and values.
    const tuning = c.tuning ? { tuning: c.tuning as ScatterTuning } : {};
    const plan = createSplitPlan(ctx, { type: c.type, flags: c.flagType, algorithm: c.algorithm, ...tuning });
    return {
      bytes: bytesMoved('split', n, 0, c.flagType === 'u8' ? 1 : 4),
      output: d.output,
      ones: d.ones,
      encode: (encoder) => plan.encode(encoder, { input: d.data, flags: d.planFlags, output: d.output, count: n, falseCount: d.count }),
      verify: d.verify,
      async compareWithCpu() {
        const data = await readArray(ctx, d.data, n, c.type);
        const flags = (await readArray(ctx, d.flags, n, 'u32')) as Uint32Array;
        const expected = cpuSplit(data, flags);
        const [falseCount] = await readWords(ctx, d.count, 1);
        const wrongCount = falseCount === expected.falseCount ? 0 : 1;
        return wrongCount + countDifferences(expected.output, await readArray(ctx, d.output, n, c.type));
      },
      destroy() {
        plan.destroy();
        d.pool.destroy();
      },
    };
  },
});
