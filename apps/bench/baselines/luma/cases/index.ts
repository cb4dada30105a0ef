import type { WebGPUDevice } from '@luma.gl/webgpu';
import { LUMA_CASE_NAMES, type LumaCaseName, type LumaPrimitive, type Workload } from '../workload.js';
import { histogramWorkload } from './histogram.js';
import { lowerBoundWorkload } from './lower-bound.js';
import { PACK_DENSITY, packWorkload } from './pack.js';
import { reduceWorkload } from './reduce.js';
import { RUN_MEAN, reduceByKeyWorkload } from './reduce-by-key.js';
import { scanWorkload } from './scan.js';
import { scanByKeyWorkload } from './scan-by-key.js';
import { sortWorkload } from './sort.js';

/**
 * The case fields of the bench's row that a luma primitive measures the same work as (`type` and
 * the fields the bench's `describeVariant` reads): they go into the report's case, so that the
 * dashboard pairs the row with ours by the same fields it reads from our cases.
 */
export type BenchShape = { readonly type: 'u32' } & Readonly<Record<string, string | number | boolean>>;

/** How one case is set up, the luma class that runs it, and the bench row it compares with. */
export interface LumaCase {
  /** The bench primitive (the report's `case.primitive`, the `--only` name). */
  readonly primitive: LumaPrimitive;
  readonly create: (luma: WebGPUDevice, n: number, seed: number) => Workload;
  /** luma.gl's class (the report's `case.call`). */
  readonly call: string;
  /** The bench case's fields (same primitive name, same n, same device). */
  readonly shape: BenchShape;
  /**
   * Fields where luma's work differs from that bench case (f32 values where ours are u32, sorted
   * needles where ours are random): the report's case has them over `shape`'s, so it says what
   * luma ran; the dashboard still pairs the row with the bench case (it pairs by primitive, size,
   * `segmentMean` and `density`, then by the closest of the other fields).
   */
  readonly differs?: Readonly<Record<string, string | number | boolean>>;
  /**
   * The case in the bench's words: `describeVariant` of `shape` with `differs` over it, then any
   * words for `differs` fields that `describeVariant` does not show (a test keeps them so).
   */
  readonly variant: string;
}

/**
 * Every case the harness times, in report order, with the bench row each compares with:
 * scan ↔ `scan … u32 add excl fwd`, reduce ↔ `reduce u32 add`, pack ↔ `pack … u32 u32 flags`
 * (density 0.5), sort-pairs ↔ `sort-pairs … u32 u32 values`, histogram-256 and -65536 ↔
 * `histogram u32 256 bins` and `… 65536 bins`, lower-bound ↔ `lower-bound u32` (luma's needles
 * sorted, ours random), reduce-by-key ↔ `reduce-by-key u32 add mean 16` (luma's values f32), scan-by-key ↔ `scan-by-key u32 add excl mean 16`
 * (luma reads head flags, ours the keys).
 *
 * @example
 * ```ts
 * const w = LUMA_CASES.scan.create(luma, 1024, 1);
 * ```
 */
export const LUMA_CASES: Readonly<Record<LumaCaseName, LumaCase>> = {
  scan: {
    primitive: 'scan',
    create: scanWorkload,
    call: 'GPUScan',
    shape: { type: 'u32', op: 'add', inclusive: false, backward: false },
    variant: 'u32 add excl fwd',
  },
  reduce: { primitive: 'reduce', create: reduceWorkload, call: 'GPUReduction', shape: { type: 'u32', op: 'add' }, variant: 'u32 add' },
  pack: {
    primitive: 'pack',
    create: packWorkload,
    call: 'GPUCompaction',
    shape: { type: 'u32', flagType: 'u32', density: PACK_DENSITY },
    variant: 'u32 u32 flags',
  },
  'sort-pairs': {
    primitive: 'sort-pairs',
    create: sortWorkload,
    call: 'GPUSort',
    shape: { type: 'u32', valueType: 'u32' },
    variant: 'u32 u32 values',
  },
  'histogram-256': {
    primitive: 'histogram',
    create: histogramWorkload(256),
    call: 'GPUHistogram',
    shape: { type: 'u32', bins: 256 },
    variant: 'u32 256 bins',
  },
  'histogram-65536': {
    primitive: 'histogram',
    create: histogramWorkload(65536),
    call: 'GPUHistogram',
    shape: { type: 'u32', bins: 65536 },
    variant: 'u32 65536 bins',
  },
  'lower-bound': {
    primitive: 'lower-bound',
    create: lowerBoundWorkload,
    call: 'GPUGallopingSearch',
    shape: { type: 'u32' },
    differs: { needleOrder: 'sorted' },
    variant: 'u32 sorted needles',
  },
  'reduce-by-key': {
    primitive: 'reduce-by-key',
    create: reduceByKeyWorkload,
    call: 'GPUGroupAggregation',
    shape: { type: 'u32', op: 'add', segmentMean: RUN_MEAN },
    differs: { type: 'f32', keyForm: 'dense' },
    variant: 'f32 add mean 16 dense keys',
  },
  'scan-by-key': {
    primitive: 'scan-by-key',
    create: scanByKeyWorkload,
    call: 'GPUScan',
    shape: { type: 'u32', op: 'add', inclusive: false, segmentMean: RUN_MEAN },
    differs: { keyForm: 'head flags' },
    variant: 'u32 add excl mean 16 head flags',
  },
};

/**
 * The cases of the `--only` primitives, in report order.
 *
 * @example
 * ```ts
 * casesOf(['histogram']); // ['histogram-256', 'histogram-65536']
 * ```
 */
export function casesOf(only: readonly LumaPrimitive[], cases: Readonly<Record<LumaCaseName, LumaCase>> = LUMA_CASES): LumaCaseName[] {
  return LUMA_CASE_NAMES.filter((name) => only.includes(cases[name].primitive));
}
