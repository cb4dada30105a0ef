import { type ScanContext, ScanError } from '@scan/core';
import { invalidArgument } from '@scan/core/kit';
import { TERRAIN_NAMES, type TerrainName } from './terrain.js';

/** Grid sizes the simulation accepts (cells per side). */
export const MIN_SIZE = 2;
export const MAX_SIZE = 4096;

/** Options of {@link createWaterSim}. Every field but `size` has a default. */
export interface WaterSimOptions {
  /** Cells per side of the square N×N grid, an integer in 2..4096. */
  size: number;
  /**
   * The bottom: a named terrain (generated at this size, seeded where random) or an N·N
   * `Float32Array` of bottom heights, row-major. Default `'flat'`.
   */
  terrain?: TerrainName | Float32Array;
  /** Time step Δt, > 0 (default 0.25). The scheme is implicit, so large steps stay stable (and damp). */
  dt?: number;
  /** Cell size Δx, > 0 (default 1). */
  dx?: number;
  /** Gravity g, > 0 (default 9.81). */
  g?: number;
  /** Initial water surface height; cells whose bottom is above it start dry (default 1). */
  waterLevel?: number;
  /**
   * Fraction of the velocity (hⁿ⁻¹ − hⁿ⁻²) removed each step, in [0, 1) (default 0: none). It
   * leaves the volume conserved: the removed term sums to zero once the volume is at rest.
   */
  damping?: number;
  /** Seed of the random terrains (`'hills'`), an unsigned 32-bit integer (default 1). */
  seed?: number;
}

/** {@link WaterSimOptions} with every default filled in and the terrain still unresolved. */
export interface ResolvedWaterOptions {
  readonly size: number;
  readonly terrain: TerrainName | Float32Array;
  readonly dt: number;
  readonly dx: number;
  readonly g: number;
  readonly waterLevel: number;
  readonly damping: number;
  readonly seed: number;
}

/** Throws the `INVALID_ARGUMENT` error every bad option gets: it names the argument and its value. */
export function invalidOption(argument: string, value: unknown, why: string): never {
  return invalidArgument(argument, value, why);
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) invalidOption(name, value, 'must be a finite number > 0');
  return value;
}

/**
 * Checks the options and fills in the defaults; throws `ScanError` (`INVALID_ARGUMENT`) naming the
 * first bad argument, or `TOO_LARGE` when an N·N f32 buffer is past what the device can bind.
 *
 * @example
 * ```ts
 * resolveWaterOptions({ size: 128 }).dt; // 0.25
 * resolveWaterOptions({ size: 1 }); // throws: size = 1: must be an integer in 2..4096
 * ```
 */
export function resolveWaterOptions(options: WaterSimOptions, ctx?: ScanContext): ResolvedWaterOptions {
  if (options === null || typeof options !== 'object') invalidOption('options', options, 'expected an object with at least { size }');
  const { size } = options;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) {
    invalidOption('size', size, `must be an integer in ${MIN_SIZE}..${MAX_SIZE}`);
  }
  const terrain = options.terrain ?? 'flat';
  if (terrain instanceof Float32Array) {
    if (terrain.length !== size * size)
      invalidOption('terrain', terrain, `a custom terrain must hold size·size = ${size * size} bottom heights`);
    if (!terrain.every(Number.isFinite)) invalidOption('terrain', terrain, 'bottom heights must be finite');
  } else if (!(TERRAIN_NAMES as readonly unknown[]).includes(terrain)) {
    invalidOption('terrain', terrain, `expected one of ${TERRAIN_NAMES.join(', ')} or a Float32Array`);
  }
  const dt = positive('dt', options.dt, 0.25);
  const dx = positive('dx', options.dx, 1);
  const g = positive('g', options.g, 9.81);
  const waterLevel = options.waterLevel ?? 1;
  if (typeof waterLevel !== 'number' || !Number.isFinite(waterLevel)) invalidOption('waterLevel', waterLevel, 'must be a finite number');
  const damping = options.damping ?? 0;
  if (typeof damping !== 'number' || !(damping >= 0 && damping < 1)) invalidOption('damping', damping, 'must be a number in [0, 1)');
  const seed = options.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    invalidOption('seed', seed, 'must be an unsigned 32-bit integer');
  }
  if (ctx) {
    const bytes = 4 * size * size;
    const limit = Math.min(ctx.caps.limits.maxStorageBufferBindingSize, ctx.caps.limits.maxBufferSize);
    if (bytes > limit) {
      throw new ScanError(
        'TOO_LARGE',
        `size = ${size}: a ${size}×${size} f32 grid needs ${bytes}-byte buffers; this device binds at most ${limit}`,
        {
          argument: 'size',
        },
      );
    }
  }
  return { size, terrain, dt, dx, g, waterLevel, damping, seed };
}
