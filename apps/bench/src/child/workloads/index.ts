import { isFrameCasePrimitive, type Primitive, type ThroughputPrimitive } from '../../case-types.js';
import { TCU_WORKLOADS } from '../../tcu-cases.js';
import { TRIDIAG_WORKLOADS } from '../../tridiag-cases.js';
import { WATER_WORKLOADS } from '../../water-cases.js';
import type { WorkloadFactory } from '../workload.js';
import { copyWorkload } from './copy.js';
import { distributeWorkload } from './distribute.js';
import { enumerateWorkload } from './enumerate.js';
import { HISPARSE_WORKLOADS } from './hisparse.js';
import { packWorkload } from './pack.js';
import { readOnlyWorkload } from './read-only.js';
import { reduceWorkload } from './reduce.js';
import { scanWorkload } from './scan.js';
import { segmentedReduceWorkload } from './segmented-reduce.js';
import { segmentedScanWorkload } from './segmented-scan.js';
import { sortKeysWorkload, sortPairsWorkload } from './sort.js';
import { sortSegmentedWorkload } from './sort-segmented.js';
import { splitWorkload } from './split.js';
import { SPMV_WORKLOADS } from './spmv.js';

/**
 * The workload factory of every primitive timed by the common path (the frame cases have their own: `child/frame/`).
 *
 * @example
 * ```ts
 * const w = await WORKLOADS[c.primitive](ctx, c);
 * ```
 */
export const WORKLOADS: Readonly<Record<ThroughputPrimitive, WorkloadFactory>> = {
  scan: scanWorkload,
  reduce: reduceWorkload,
  enumerate: enumerateWorkload,
  distribute: distributeWorkload,
  split: splitWorkload,
  pack: packWorkload,
  'segmented-scan': segmentedScanWorkload,
  'segmented-reduce': segmentedReduceWorkload,
  sort: sortKeysWorkload,
  'sort-pairs': sortPairsWorkload,
  'segmented-sort': sortSegmentedWorkload,
  ...TRIDIAG_WORKLOADS,
  ...WATER_WORKLOADS,
  ...TCU_WORKLOADS,
  ...SPMV_WORKLOADS,
  ...HISPARSE_WORKLOADS,
  copy: copyWorkload,
  'read-only': readOnlyWorkload,
};

/**
 * The workload factory of `primitive`; throws for the frame cases, which have none (they run
 * `runFrameLoop` / `runFirstCall` instead).
 *
 * @example
 * ```ts
 * const w = await workloadOf(c.primitive)(ctx, c);
 * ```
 */
export function workloadOf(primitive: Primitive): WorkloadFactory {
  if (isFrameCasePrimitive(primitive)) throw new Error(`${primitive}: a frame case has no throughput workload`);
  return WORKLOADS[primitive];
}
