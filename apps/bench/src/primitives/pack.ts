import { createPackPlan, type ScatterTuning } from '@scan/core';
import { pack as cpuPack } from '@scan/core/cpu';
import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { readWords } from '../child/gpu.js';
import { countDifferences, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { type CompactFields, compactShapes, preparePartition } from './shared/partition.js';

/** A pack case: the algorithm, the flags' type, the density of 1-flags and `--tuning`. */
export type PackCase = Case<'pack', CompactFields>;

/**
 * `pack` in the registry: stream compaction (keep the 1-flagged elements, in order) of
 * index-encoded data, three ways (see `compactShapes`); checked for membership, order and
 * `packedCount` on the GPU.
 *
 * @example
 * ```ts
 * PACK.shapes(selection).map((s) => `${s.algorithm} ${s.flagType}`); // ['single-pass u32', 'single-pass u8', 'scan-then-scatter u32']
 * ```
 */
export const PACK = benchModule<PackCase>({
  package: '@scan/core',
  primitives: ['pack'],
  shapes: (selection) => compactShapes('pack', selection),
  async workload(ctx, c) {
    const n = c.n;
    const d = await preparePartition(ctx, c, 'pack');
    // A sweep's tuning goes to the plan's unstable `tuning` (ScatterTuning), which checks its keys and values.
    const tuning = c.tuning ? { tuning: c.tuning as ScatterTuning } : {};
    const plan = createPackPlan(ctx, { type: c.type, flags: c.flagType, algorithm: c.algorithm, ...tuning });
    return {
      bytes: bytesMoved('pack', n, d.ones, c.flagType === 'u8' ? 1 : 4),
      output: d.output,
      ones: d.ones,
      encode: (encoder) => plan.encode(encoder, { input: d.data, flags: d.planFlags, output: d.output, count: n, packedCount: d.count }),
      verify: d.verify,
      async compareWithCpu() {
        const data = await readArray(ctx, d.data, n, c.type);
        const flags = (await readArray(ctx, d.flags, n, 'u32')) as Uint32Array;
        const expected = cpuPack(data, flags);
        const [packedCount] = await readWords(ctx, d.count, 1);
        if (packedCount !== expected.length) return Math.abs(expected.length - packedCount!) || 1;
        return countDifferences(expected, await readArray(ctx, d.output, expected.length, c.type));
      },
      destroy() {
        plan.destroy();
        d.pool.destroy();
      },
    };
  },
});
