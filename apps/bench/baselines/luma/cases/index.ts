import type { WebGPUDevice } from '@luma.gl/webgpu';
import type { LumaPrimitive, Workload } from '../workload.js';
import { PACK_DENSITY, packWorkload } from './pack.js';
import { reduceWorkload } from './reduce.js';
import { scanWorkload } from './scan.js';
import { sortWorkload } from './sort.js';

/**
 * The case fields of the bench's row that a luma primitive measures the same work as (`type` and
 * the fields the bench's `describeVariant` reads): they go into the report's case, so that the
 * dashboard pairs the row with ours by the same fields it reads from our cases.
 */
export type BenchShape = { readonly type: 'u32' } & Readonly<Record<string, string | number | boolean>>;

/** How one primitive is set up, the luma class that runs it, and the bench row it compares with. */
export interface LumaCase {
  readonly create: (luma: WebGPUDevice, n: number, seed: number) => Workload;
  /** luma.gl's class (the report's `case.call`). */
  readonly call: string;
  /** The bench case's fields (same primitive name, same n, same device). */
  readonly shape: BenchShape;
  /** The shape in the bench's words (`describeVariant` of it; a test keeps the two equal). */
  readonly variant: string;
}

/**
 * Every primitive the harness times, in report order, with the bench row each compares with:
 * scan ↔ `scan … u32 add excl fwd`, reduce ↔ `reduce u32 add`, pack ↔ `pack … u32 u32 flags`
 * (density 0.5), sort-pairs ↔ `sort-pairs … u32 u32 values`.
 *
 * @example
 * ```ts
 * const w = LUMA_CASES.scan.create(luma, 1024, 1);
 * ```
 */
export const LUMA_CASES: Readonly<Record<LumaPrimitive, LumaCase>> = {
  scan: {
    create: scanWorkload,
    call: 'GPUScan',
    shape: { type: 'u32', op: 'add', inclusive: false, backward: false },
    variant: 'u32 add excl fwd',
  },
  reduce: { create: reduceWorkload, call: 'GPUReduction', shape: { type: 'u32', op: 'add' }, variant: 'u32 add' },
  pack: {
    create: packWorkload,
    call: 'GPUCompaction',
    shape: { type: 'u32', flagType: 'u32', density: PACK_DENSITY },
    variant: 'u32 u32 flags',
  },
  'sort-pairs': { create: sortWorkload, call: 'GPUSort', shape: { type: 'u32', valueType: 'u32' }, variant: 'u32 u32 values' },
};
