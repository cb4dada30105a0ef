import type { ElementType } from '@scan/core';
import {
  BASELINES,
  type BenchCase,
  type CaseShape,
  CORE_PRIMITIVES,
  type Primitive,
  type ScanAlgorithmName,
  SEGMENTED_PRIMITIVES,
  SORT_PRIMITIVES,
  SPMV_PRIMITIVES,
  TCU_PRIMITIVES,
  TRIDIAG_PRIMITIVES,
  WATER_PRIMITIVES,
} from './case-types.js';
import { DEFAULT_SEGMENT_MEANS, segmentedShapes } from './segmented-cases.js';
import { sortShapes } from './sort-cases.js';
import { type SizedShape, spmvShapes } from './spmv-cases.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from './spmv-suite.js';
import { tcuShapes } from './tcu-cases.js';
import { tridiagShapes } from './tridiag-cases.js';
import { waterCaseSize, waterShapes } from './water-cases.js';

/**
 * Primitives left out of the default list, run only when `--only` names them: the tcu cases (16
 * configurations, the emulated path very slow on SwiftShader; see the README) and the SpMV cases
 * (a suite of matrices with up to 64M nonzeros, meant for a GPU).
 */
export const OPT_IN_PRIMITIVES: readonly Primitive[] = [...TCU_PRIMITIVES, ...SPMV_PRIMITIVES];

/** Every primitive name `--only` accepts. */
export const PRIMITIVES: readonly Primitive[] = [
  ...CORE_PRIMITIVES,
  ...SEGMENTED_PRIMITIVES,
  ...SORT_PRIMITIVES,
  ...TRIDIAG_PRIMITIVES,
  ...WATER_PRIMITIVES,
  ...TCU_PRIMITIVES,
  ...SPMV_PRIMITIVES,
  ...BASELINES,
];

/** The algorithms run when `--algorithms` is not given ('auto' is one of them by another name). */
export const DEFAULT_SCAN_ALGORITHMS: readonly ScanAlgorithmName[] = ['blelloch', 'reduce-then-scan', 'decoupled-fallback'];

/** What {@link enumerateCases} needs from the command line. */
export interface CaseSelection {
  readonly sizes: readonly number[];
  /** Primitive filter; undefined means every primitive but the {@link OPT_IN_PRIMITIVES} (tcu), and both baselines. */
  readonly only?: readonly Primitive[];
  /** Element-type filter (baselines always stay: they move bits, not values). */
  readonly types?: readonly ElementType[];
  /** Scan algorithms; when given, each named algorithm gets the full set of scan variants. */
  readonly algorithms?: readonly ScanAlgorithmName[];
  /** Mean segment lengths of the segmented cases (default {@link DEFAULT_SEGMENT_MEANS}). */
  readonly segmentMeans?: readonly number[];
  readonly runs: number;
  readonly warmup: number;
  readonly seed: number;
  readonly density: number;
  /** Internal plan options of the split and pack cases (`--tuning`), for sweeps. */
  readonly tuning?: Readonly<Record<string, number | boolean>>;
  /** Matrices of the SpMV cases (`--matrices`, `--mtx`); default the suite {@link DEFAULT_MATRICES}. */
  readonly matrices?: readonly MatrixSource[];
}

/**
 * Short description of a case's configuration, e.g. `u32 add excl fwd`, with `mean 16` for
 * segmented cases, `seg 256` (and the f16 input type) for the tcu cases, and for the sorts the key
 * type, `u32 values` when values move with the keys and `desc` when descending.
 *
 * @example
 * ```ts
 * describeVariant({ primitive: 'scan', type: 'i32', op: 'max', inclusive: false, backward: false }); // 'i32 max excl fwd'
 * describeVariant({ primitive: 'segmented-reduce', type: 'u32', op: 'add', segmentMean: 16 }); // 'u32 add mean 16'
 * describeVariant({ primitive: 'tcu-scan', type: 'f32', inputType: 'f16', segmentSize: 256 }); // 'f16 seg 256'
 * describeVariant({ primitive: 'pack', algorithm: 'single-pass', type: 'u32', flagType: 'u8' }); // 'u32 u8 flags'
 * describeVariant({ primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32' }); // 'u32 u32 values'
 * describeVariant({ primitive: 'sort', algorithm: 'radix', type: 'f32', descending: true }); // 'f32 desc'
 * describeVariant({ primitive: 'spmm', algorithm: 'auto', type: 'f32', k: 8, matrix: 'biased-1M' }); // 'f32 k 8 biased-1M'
 * ```
 */
export function describeVariant(c: CaseShape): string {
  const parts: string[] = [c.inputType ?? c.type];
  if (c.valueType !== undefined) parts.push(`${c.valueType} values`);
  if (c.descending) parts.push('desc');
  if (c.op) parts.push(c.op);
  if (c.inclusive !== undefined) parts.push(c.inclusive ? 'incl' : 'excl');
  if (c.backward !== undefined) parts.push(c.backward ? 'bwd' : 'fwd');
  if (c.segmentMean !== undefined) parts.push(`mean ${c.segmentMean}`);
  if (c.segmentSize !== undefined) parts.push(`seg ${c.segmentSize}`);
  if (c.flagType !== undefined) parts.push(`${c.flagType} flags`);
  if (c.k !== undefined) parts.push(`k ${c.k}`);
  if (c.matrix !== undefined) parts.push(c.matrix);
  return parts.join(' ');
}

/**
 * The series name of a case: primitive, algorithm (if any) and variant.
 *
 * @example
 * ```ts
 * seriesName({ primitive: 'reduce', type: 'f32', op: 'add' }); // 'reduce f32 add'
 * ```
 */
export function seriesName(c: CaseShape): string {
  return [c.primitive, c.algorithm, describeVariant(c)].filter(Boolean).join(' ');
}

/** The scan configurations run for one algorithm; `withVariants` adds inclusive, backward, i32 max and f32 add. */
function scanShapes(algorithm: ScanAlgorithmName, withVariants: boolean): CaseShape[] {
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
 */
function compactShapes(): CaseShape[] {
  return (['split', 'pack'] as const).flatMap((primitive) => [
    { primitive, algorithm: 'single-pass', type: 'u32', flagType: 'u32' } as const,
    { primitive, algorithm: 'single-pass', type: 'u32', flagType: 'u8' } as const,
    { primitive, algorithm: 'scan-then-scatter', type: 'u32', flagType: 'u32' } as const,
  ]);
}

/**
 * Every configuration of the default list (before filters), in report order, plus those of the
 * {@link OPT_IN_PRIMITIVES} named in `optIn` (the SpMV ones over `matrices`, each with its `n`).
 */
export function defaultShapes(
  algorithms?: readonly ScanAlgorithmName[],
  segmentMeans = DEFAULT_SEGMENT_MEANS,
  optIn: readonly Primitive[] = [],
  matrices?: readonly MatrixSource[],
): SizedShape[] {
  // Without --algorithms the variants run on the fastest portable algorithm only; naming
  // algorithms asks for a side-by-side comparison, so each gets every variant.
  const scans = algorithms
    ? algorithms.flatMap((a) => scanShapes(a, true))
    : DEFAULT_SCAN_ALGORITHMS.flatMap((a) => scanShapes(a, a === 'decoupled-fallback'));
  return [
    ...scans,
    { primitive: 'reduce', type: 'u32', op: 'add' },
    { primitive: 'reduce', type: 'f32', op: 'add' },
    { primitive: 'reduce', type: 'u32', op: 'max' },
    { primitive: 'enumerate', type: 'u32', backward: false },
    { primitive: 'distribute', type: 'u32', backward: false },
    ...compactShapes(),
    ...segmentedShapes(segmentMeans),
    ...sortShapes(),
    ...tridiagShapes(),
    ...waterShapes(),
    ...tcuShapes().filter((s) => optIn.includes(s.primitive)),
    // The suite is parsed only when an SpMV primitive is asked for.
    ...(optIn.some((p) => (SPMV_PRIMITIVES as readonly Primitive[]).includes(p))
      ? spmvShapes(matrices ?? parseMatrixList(DEFAULT_MATRICES.join(','))).filter((s) => optIn.includes(s.primitive))
      : []),
    { primitive: 'copy', type: 'u32' },
    { primitive: 'read-only', type: 'u32' },
  ];
}

/**
 * The cases of a run: each selected configuration at each size (series-major, sizes ascending).
 *
 * @example
 * ```ts
 * const cases = enumerateCases({ sizes: [4096], only: ['copy'], runs: 20, warmup: 5, seed: 1, density: 0.5 });
 * cases[0].id; // 'copy u32@4096'
 * ```
 */
export function enumerateCases(selection: CaseSelection): BenchCase[] {
  const shapes = defaultShapes(selection.algorithms, selection.segmentMeans, selection.only, selection.matrices).filter(
    (s) =>
      (!selection.only || selection.only.includes(s.primitive)) &&
      (!selection.types || BASELINES.includes(s.primitive) || selection.types.includes(s.type)),
  );
  const cases: BenchCase[] = [];
  for (const { n: fixed, ...shape } of shapes) {
    const series = seriesName(shape);
    const flags = shape.primitive === 'enumerate' || shape.primitive === 'split' || shape.primitive === 'pack';
    // The SpMV cases have their matrix's size; --sizes does not apply to them. A water case runs
    // (and reports) a square grid's cells.
    const sizes =
      fixed !== undefined ? [fixed] : shape.primitive === 'water-adi-step' ? selection.sizes.map(waterCaseSize) : selection.sizes;
    for (const n of [...new Set(sizes)]) {
      // A fixed segment longer than the array would just be the whole array again.
      if (shape.segmentSize !== undefined && shape.segmentSize > n) continue;
      cases.push({
        ...shape,
        ...(flags ? { density: selection.density } : {}),
        ...(selection.tuning && (shape.primitive === 'split' || shape.primitive === 'pack') ? { tuning: selection.tuning } : {}),
        id: `${series}@${n}`,
        series,
        n,
        seed: selection.seed,
        runs: selection.runs,
        warmup: selection.warmup,
      });
    }
  }
  return cases;
}

/**
 * Parses a comma-separated list of names against the allowed ones, naming the first unknown.
 *
 * @example
 * ```ts
 * parseNameList('scan,copy', PRIMITIVES, '--only'); // ['scan', 'copy']
 * ```
 */
export function parseNameList<T extends string>(text: string, allowed: readonly T[], option: string): T[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new Error(`${option}: expected a comma-separated list of ${allowed.join(', ')}`);
  for (const name of names) {
    if (!(allowed as readonly string[]).includes(name)) throw new Error(`${option}: unknown "${name}"; expected ${allowed.join(', ')}`);
  }
  return [...new Set(names)] as T[];
}
