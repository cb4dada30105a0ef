import type { ScanContext } from '@scan/core';
import { invalidOption } from './options.js';
import { type CreateWaterSimOptions, createWaterSim } from './water-sim.js';

/** A disturbance applied before the first step (see `WaterSim.drop`). */
export interface Drop {
  x: number;
  y: number;
  radius: number;
  height: number;
}

/** Options of {@link simulate}: a simulation, the drops to start it with, and how far to run it. */
export interface SimulateOptions extends CreateWaterSimOptions {
  /** Steps to take, an integer ≥ 0. */
  steps: number;
  /** Drops applied, in order, before the first step. */
  drops?: readonly Drop[];
}

/** Steps recorded per command buffer: long enough to amortize a submit, short enough for the watchdog. */
const STEPS_PER_SUBMIT = 16;

/**
 * Runs a simulation headless and resolves to its final heights (N·N f32, row-major); everything it
 * allocates is freed, also on error. Used by the tests and handy for offline runs.
 *
 * @example
 * ```ts
 * const h = await simulate(ctx, { size: 64, steps: 200, drops: [{ x: 31.5, y: 31.5, radius: 6, height: 0.2 }] });
 * ```
 */
export async function simulate(ctx: ScanContext, options: SimulateOptions): Promise<Float32Array> {
  const { steps, drops = [] } = options ?? ({} as SimulateOptions);
  if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 0) invalidOption('steps', steps, 'must be an integer ≥ 0');
  const sim = createWaterSim(ctx, options);
  try {
    for (const d of drops) sim.drop(d.x, d.y, d.radius, d.height);
    for (let done = 0; done < steps; done += STEPS_PER_SUBMIT) {
      const encoder = ctx.device.createCommandEncoder({ label: 'water simulate' });
      for (let i = done; i < Math.min(steps, done + STEPS_PER_SUBMIT); i++) sim.step(encoder);
      ctx.device.queue.submit([encoder.finish()]);
    }
    return await sim.readHeights();
  } finally {
    sim.destroy();
  }
}
