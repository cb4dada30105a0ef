import type { CaseModule, CaseSelection } from './case-module.js';
import { type CaseShape, CORE_PRIMITIVES, type ScanAlgorithmName } from './case-types.js';

// The cases of @scan/core: scan, reduce, enumerate, distribute, split and pack. Their workloads
// live in child/workloads/ (one file per primitive), so this module stays small.

/** The algorithms run when `--algorithms` is not given ('auto' is one of them by another name). */
export const DEFAULT_SCAN_ALGORITHMS: readonly ScanAlgorithmName[] = ['blelloch', 'reduce-then-scan', 'decoupled-fallback'];

/**
 * The scan configurations run for one algorithm; `withVariants` adds inclusive, backward, i32 max
 * and f32 add.
 *
 * @example
 * ```ts
 * scanShapes('blelloch', false); // [{ primitive: 'scan', algorithm: 'blelloch', type: 'u32', op: 'add', inclusive: false, backward: false }]
 * scanShapes('decoupled-fallback', true).length; // 5
 * ```
 */
export function scanShapes(algorithm: ScanAlgorithmName, withVariants: boolean): CaseShape[] {
  const base = { primitive: 'scan', algorithm, type: 'u32', op: 'add', inclusive: false, backward: false } as const;
  const shapes: CaseShape[] = [base];
  if (withVariants) {
    shapes.push({ ...base, inclusive: true }, { ...base, backward: true }, { ...base, type: 'i32', op: 'max' }, { ...base, type: 'f32' });
  }
  return shapes;
}

/**
 * Split and pack: the one-pass kernels with u32 and with u8 flags, beside the paper's
 * scan-then-scatter on u32 flags.
 *
 * @example
 * ```ts
 * compactShapes().length; // 6: split and pack, three ways each
 * ```
 */
export function compactShapes(): CaseShape[] {
  return (['split', 'pack'] as const).flatMap((primitive) => [
    { primitive, algorithm: 'single-pass', type: 'u32', flagType: 'u32' } as const,
    { primitive, algorithm: 'single-pass', type: 'u32', flagType: 'u8' } as const,
    { primitive, algorithm: 'scan-then-scatter', type: 'u32', flagType: 'u32' } as const,
  ]);
}

/**
 * The core configurations in report order: the scans, three reductions, enumerate, distribute,
 * split and pack.
 *
 * @example
 * ```ts
 * coreShapes({}).length; // 7 scans + 3 reduces + enumerate + distribute + 6 split/pack = 18
 * ```
 */
export function coreShapes(selection: Pick<CaseSelection, 'algorithms'>): CaseShape[] {
  // Without --algorithms the variants run on the fastest portable algorithm only; naming
  // algorithms asks for a side-by-side comparison, so each gets every variant.
  const scans = selection.algorithms
    ? selection.algorithms.flatMap((a) => scanShapes(a, true))
    : DEFAULT_SCAN_ALGORITHMS.flatMap((a) => scanShapes(a, a === 'decoupled-fallback'));
  return [
    ...scans,
    { primitive: 'reduce', type: 'u32', op: 'add' },
    { primitive: 'reduce', type: 'f32', op: 'add' },
    { primitive: 'reduce', type: 'u32', op: 'max' },
    { primitive: 'enumerate', type: 'u32', backward: false },
    { primitive: 'distribute', type: 'u32', backward: false },
    ...compactShapes(),
  ];
}

/**
 * `@scan/core` in the case registry. Enumerate, split and pack read generated 0/1 flags and get
 * the selection's density; split and pack also take `--tuning`, the plan options of a sweep.
 *
 * @example
 * ```ts
 * CORE_CASES.primitives; // ['scan', 'reduce', 'enumerate', 'distribute', 'split', 'pack']
 * ```
 */
export const CORE_CASES: CaseModule = {
  package: '@scan/core',
  primitives: CORE_PRIMITIVES,
  shapes: coreShapes,
  caseFields: (shape, selection) => {
    const compact = shape.primitive === 'split' || shape.primitive === 'pack';
    return {
      ...(compact || shape.primitive === 'enumerate' ? { density: selection.density } : {}),
      ...(selection.tuning && compact ? { tuning: selection.tuning } : {}),
    };
  },
};
