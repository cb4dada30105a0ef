import type { WebGPUDevice } from '@luma.gl/webgpu';
import type { LumaPrimitive, Workload } from '../workload.js';
import { packWorkload } from './pack.js';
import { reduceWorkload } from './reduce.js';
import { scanWorkload } from './scan.js';
import { sortWorkload } from './sort.js';

/** How one primitive is set up, and the bench primitive its time is to be compared with. */
export interface LumaCase {
  readonly create: (luma: WebGPUDevice, n: number, seed: number) => Workload;
  /** The bench's row to compare with (`apps/bench`, same n): primitive and variant. */
  readonly compareWith: string;
}

/**
 * Every primitive the harness times, in report order.
 *
 * @example
 * ```ts
 * const w = LUMA_CASES.scan.create(luma, 1024, 1);
 * ```
 */
export const LUMA_CASES: Readonly<Record<LumaPrimitive, LumaCase>> = {
  scan: { create: scanWorkload, compareWith: 'scan u32 add excl' },
  reduce: { create: reduceWorkload, compareWith: 'reduce u32 add' },
  pack: { create: packWorkload, compareWith: 'pack u32 (u32 flags)' },
  sort: { create: sortWorkload, compareWith: 'sort-pairs u32/u32' },
};
