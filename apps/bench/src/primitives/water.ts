// The simulation comes from the water app's package export `@scan/water/sim` (its sources: the
// bench bundles them like the packages'), so the bench and the app run the same step.

import type { ScanContext } from '@scan/core';
import { defineKernel, read } from '@scan/core/kit';
import { cpuAdiStep, createWaterSim, type WaterSim } from '@scan/water/sim';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { type CheckOutcome, encodeReduceTree, runCheck } from '../child/device-ops.js';
import { BufferPool, encodeKernel, readWords } from '../child/gpu.js';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL } from '../child/kernels/common.js';
import { readArray, UnsupportedCaseError, type Workload } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';

/** The shallow-water case: one full ADI step of `apps/water` (`--only water-adi-step`), f32. */
export type WaterCase = Case<'water-adi-step'>;

/** The simulation's largest grid side (apps/water): 4096 × 4096 = 2^24 cells. */
export const WATER_MAX_SIDE = 4096;

/**
 * The grid side of a case of size N (cells): ⌊√N⌋, at least 2 — 2048 × 2048 at N = 2^22
 * (`--sizes 2^22`), 1024 at the default 2^20. Past {@link WATER_MAX_SIDE} the case is skipped.
 *
 * @example
 * ```ts
 * waterGridSide(2 ** 22); // 2048
 * ```
 */
export function waterGridSide(size: number): number {
  return Math.max(2, Math.floor(Math.sqrt(size)));
}

/**
 * The size a water case reports for a requested N: the cells of the grid it runs (side², so 2^21
 * becomes 1448² = 2,096,704), or N itself past the largest grid, where the case is skipped — never
 * a size it did not run.
 *
 * @example
 * ```ts
 * waterCaseSize(2 ** 21); // 2096704
 * waterCaseSize(2 ** 26); // 67108864 (skipped when run)
 * ```
 */
export function waterCaseSize(size: number): number {
  const side = waterGridSide(size);
  return side > WATER_MAX_SIDE ? size : side * side;
}

/**
 * The water configuration (f32).
 *
 * @example
 * ```ts
 * waterShapes(); // [{ primitive: 'water-adi-step', type: 'f32' }]
 * ```
 */
export function waterShapes(): CaseShape<WaterCase>[] {
  return [{ primitive: 'water-adi-step', type: 'f32' }];
}

/** Counts the heights `h` (of `n` cells) that are NaN or infinite. */
const checkFiniteKernel = defineKernel({
  name: 'bench/check-finite-f32',
  bindings: { h: read('array<f32>'), ...ERROR_BINDING },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  if ((bitcast<u32>(h[i]) & 0x7f800000u) == 0x7f800000u) { mismatch(i); }
}
`,
})({});

/**
 * Relative change of Σh allowed between the start and a check: the step conserves it exactly up to
 * rounding (apps/water measures 1.5e-6 after 200 steps at 64²); the f32 tree sum adds ~log2(N)·6e-8.
 */
const VOLUME_TOLERANCE = 1e-4;

/**
 * One ADI step of the Kass & Miller shallow-water simulation of `apps/water` on an N×N grid: row
 * coefficients, N contiguous tridiagonal solves, column coefficients, N interleaved solves, and the
 * increment — five passes, no read-back. The pool is flat (depth 1) with three drops, so nothing is
 * uploaded from the host (Dawn in Node; see DESIGN.md). Each timed run advances the simulation,
 * so the checks are invariants rather than one fixed output: every height finite and Σh (summed on
 * the GPU by the bench's own tree) within 1e-4 of its value before the first step; at small sizes
 * the first step is compared with the CPU reference (`cpuAdiStep`, Thomas in f64). Time per step is
 * the table's `ms` (steps/s = 1000 / ms) and G cells per second its Gelem/s.
 *
 * @example
 * ```ts
 * const w = await waterWorkload(ctx, c);
 * ```
 */
async function waterWorkload(ctx: ScanContext, c: WaterCase): Promise<Workload> {
  const side = waterGridSide(c.n);
  if (side > WATER_MAX_SIDE) {
    throw new UnsupportedCaseError(`past the simulation's largest grid, ${WATER_MAX_SIDE}² = ${WATER_MAX_SIDE ** 2} cells`);
  }
  const cells = side * side;
  const pool = new BufferPool(ctx);
  const sim: WaterSim = createWaterSim(ctx, { size: side, terrain: 'flat' });
  try {
    sim.drop(side * 0.3, side * 0.4, Math.max(2, side / 16), 0.4);
    sim.drop(side * 0.7, side * 0.6, Math.max(2, side / 24), 0.3);
    sim.drop(side * 0.5, side * 0.8, Math.max(2, side / 32), -0.2);
  } catch (error) {
    sim.destroy();
    throw error;
  }
  const volume = async (): Promise<number> => {
    const encoder = ctx.device.createCommandEncoder();
    const total = encodeReduceTree(ctx, pool, encoder, sim.heightBuffer, cells, 'f32', 'add');
    ctx.device.queue.submit([encoder.finish()]);
    return new Float32Array((await readWords(ctx, total, 1)).buffer)[0]!;
  };
  const startVolume = await volume();
  // The state before the first step, for the CPU comparison (small grids only; at rest, hⁿ⁻² = hⁿ⁻¹).
  const before = cells <= 2 ** 16 ? await readArray(ctx, sim.heightBuffer, cells, 'f32') : undefined;
  return {
    bytes: bytesMoved('water-adi-step', cells),
    get output() {
      return sim.heightBuffer;
    },
    encode: (encoder) => sim.step(encoder),
    async verify(): Promise<CheckOutcome> {
      const outcome = await runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(
          ctx,
          encoder,
          checkFiniteKernel,
          { h: sim.heightBuffer, err: errors, params: pool.params(checkFiniteKernel, { n: cells }) },
          { invocations: cells },
        ),
      );
      const drift = Math.abs((await volume()) - startVolume) / startVolume;
      if (!(drift <= VOLUME_TOLERANCE)) {
        console.error(`water-adi-step: Σh drifted by ${drift} (relative) after ${sim.steps} steps`);
        return { mismatches: outcome.mismatches + 1, first: outcome.first ?? 0 };
      }
      return outcome;
    },
    async compareWithCpu() {
      if (!before || sim.steps !== 1) return 0;
      const actual = await readArray(ctx, sim.heightBuffer, cells, 'f32');
      const o = sim.options;
      const { next } = cpuAdiStep({
        size: side,
        height: before,
        previous: before,
        bottom: new Float32Array(cells),
        g: o.g,
        dt: o.dt,
        dx: o.dx,
      });
      let wrong = 0;
      for (let i = 0; i < cells; i++) if (!(Math.abs(actual[i]! - next[i]!) <= 2e-5)) wrong++;
      return wrong;
    },
    destroy() {
      sim.destroy();
      pool.destroy();
    },
  };
}

/**
 * The water step in the registry: a case runs (and reports) the square grid of a size
 * ({@link waterCaseSize}).
 *
 * @example
 * ```ts
 * WATER.caseSize?.(2 ** 21); // 2096704
 * ```
 */
export const WATER = benchModule<WaterCase>({
  package: '@scan/water',
  primitives: ['water-adi-step'],
  shapes: waterShapes,
  caseSize: waterCaseSize,
  workload: waterWorkload,
});
