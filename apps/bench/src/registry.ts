import type { BenchModule } from './bench-module.js';
import type { CaseRecord } from './case-types.js';
import type { WorkloadFactory } from './child/workload.js';
import { BY_KEY } from './primitives/by-key.js';
import { COPY } from './primitives/copy.js';
import { DISTRIBUTE } from './primitives/distribute.js';
import { ENUMERATE } from './primitives/enumerate.js';
import { FIRST_CALL } from './primitives/first-call.js';
import { FRAME_LOOP } from './primitives/frame-loop.js';
import { HISPARSE } from './primitives/hisparse.js';
import { HISPARSE_ADD } from './primitives/hisparse-add.js';
import { OPERATOR_REDUCE, OPERATOR_SCAN } from './primitives/operators.js';
import { PACK } from './primitives/pack.js';
import { READ_ONLY } from './primitives/read-only.js';
import { REDUCE } from './primitives/reduce.js';
import { SCAN } from './primitives/scan.js';
import { SEGMENTED_REDUCE } from './primitives/segmented-reduce.js';
import { SEGMENTED_SCAN } from './primitives/segmented-scan.js';
import { SEGMENTED_SORT } from './primitives/segmented-sort.js';
import { SORT } from './primitives/sort.js';
import { SORT_PAIRS } from './primitives/sort-pairs.js';
import { SPLAT_FRAME } from './primitives/splat-frame.js';
import { SPLIT } from './primitives/split.js';
import { SPMV } from './primitives/spmv.js';
import { TCU } from './primitives/tcu.js';
import { ARG_MAX, HISTOGRAM, SEARCH, TOP_K } from './primitives/toolbox.js';
import { TRIDIAG } from './primitives/tridiag.js';
import { WATER } from './primitives/water.js';

/**
 * The registry: every primitive's module, in report order — the one list `--only`, the default
 * list, `enumerateCases` and the child's runner are built from. Adding a primitive means one module
 * in `src/primitives/` and one line here.
 *
 * @example
 * ```ts
 * BENCH_MODULES.flatMap((m) => m.primitives); // ['scan', 'reduce', 'operator-scan', 'operator-reduce', …, 'copy', 'read-only']
 * ```
 */
export const BENCH_MODULES = [
  SCAN,
  REDUCE,
  OPERATOR_SCAN,
  OPERATOR_REDUCE,
  ENUMERATE,
  DISTRIBUTE,
  SPLIT,
  PACK,
  SEGMENTED_SCAN,
  SEGMENTED_REDUCE,
  BY_KEY,
  HISTOGRAM,
  ARG_MAX,
  SORT,
  SORT_PAIRS,
  SEGMENTED_SORT,
  TOP_K,
  SEARCH,
  TRIDIAG,
  WATER,
  SPLAT_FRAME,
  TCU,
  SPMV,
  HISPARSE,
  HISPARSE_ADD,
  FRAME_LOOP,
  FIRST_CALL,
  COPY,
  READ_ONLY,
] as const satisfies readonly BenchModule[];

/** The case type of a module. */
export type CaseOf<M> = M extends BenchModule<infer C> ? C : never;

/**
 * Any case of the registry: the union of the modules' case types (narrowed by `primitive`); a field
 * of another primitive's case reads as `unknown`, as in a report's JSON (see `CaseRecord`).
 *
 * @example
 * ```ts
 * if (c.primitive === 'spmm') c.k; // number | undefined
 * ```
 */
export type BenchCase = CaseOf<(typeof BENCH_MODULES)[number]> & CaseRecord;

/** What a case measures: a name of one module's `primitives`. */
export type Primitive = CaseOf<(typeof BENCH_MODULES)[number]>['primitive'];

const BY_PRIMITIVE = new Map<string, BenchModule>(BENCH_MODULES.flatMap((m) => m.primitives.map((p) => [p, m as BenchModule] as const)));

/**
 * The module of `primitive`, or undefined for a name no module has (a report of another tool).
 *
 * @example
 * ```ts
 * moduleOf('spmm')?.package; // '@scan/spmv'
 * ```
 */
export function moduleOf(primitive: string): BenchModule | undefined {
  return BY_PRIMITIVE.get(primitive);
}

/**
 * The workload of a case timed by the common path; throws for a primitive no module has, or one
 * that runs its own way (the frame cases).
 *
 * @example
 * ```ts
 * const w = await workloadOf(c.primitive)(ctx, c);
 * ```
 */
export function workloadOf(primitive: string): WorkloadFactory {
  const module = moduleOf(primitive);
  if (!module) throw new Error(`${primitive}: no module of the registry has this primitive`);
  const workload = module.workload;
  if (!workload) throw new Error(`${primitive}: a case that runs its own way has no throughput workload`);
  return (ctx, c) => workload.call(module, ctx, c);
}

/**
 * Whether a case of `primitive` is timed by the common path (verified, timed beside the copy
 * baseline, a row of the throughput table), rather than run its own way (the frame cases' records).
 *
 * @example
 * ```ts
 * isThroughputPrimitive('scan'); // true
 * isThroughputPrimitive('frame-loop'); // false
 * ```
 */
export function isThroughputPrimitive(primitive: string): boolean {
  return moduleOf(primitive)?.run === undefined;
}
