import { HISPARSE_PRIMITIVES } from '../src/primitives/hisparse.js';
import { HISPARSE_ADD } from '../src/primitives/hisparse-add.js';
import { SEGMENTED_SORT } from '../src/primitives/segmented-sort.js';
import { SORT } from '../src/primitives/sort.js';
import { SORT_PAIRS } from '../src/primitives/sort-pairs.js';
import { SPMV_PRIMITIVES, spmvGflops } from '../src/primitives/spmv.js';
import type { CaseResult } from '../src/report.js';

/** The throughput units the charts can draw. */
export type Unit = 'gbps' | 'gelems' | 'gkeys' | 'gflops';

/** Axis titles of the units. */
export const UNIT_TITLE: Readonly<Record<Unit, string>> = {
  gbps: 'GB/s (bytes the primitive must move)',
  gelems: 'G elements/s',
  gkeys: 'G keys/s',
  gflops: 'GFLOPS (2·nnz·k per product)',
};

/** Short unit names for tooltips and the table. */
export const UNIT_SHORT: Readonly<Record<Unit, string>> = { gbps: 'GB/s', gelems: 'Gelem/s', gkeys: 'G keys/s', gflops: 'GFLOPS' };

const SORTS = new Set<string>([SORT, SORT_PAIRS, SEGMENTED_SORT].flatMap((m) => m.primitives));
// `sparse-add` is a CUDA baseline's primitive (csrgeam), matched by HiSparse's add (`hisparse-add`):
// both in GFLOPS over the same 2·nnz of `spmvGflops`, so the two lines share an axis. HiSparse's
// products are sparse products over the same suite of matrices: GFLOPS, a point per matrix, as spmv.
const SPMV = new Set<string>([...SPMV_PRIMITIVES, ...HISPARSE_PRIMITIVES, ...HISPARSE_ADD.primitives, 'sparse-add']);

/**
 * The unit a primitive is usually quoted in: keys per second for sorts, GFLOPS for sparse
 * products, GB/s for everything else (bandwidth-bound primitives are judged against copy).
 *
 * @example
 * ```ts
 * naturalUnit('sort'); // 'gkeys'
 * naturalUnit('scan'); // 'gbps'
 * ```
 */
export function naturalUnit(primitive: string): Unit {
  if (SORTS.has(primitive)) return 'gkeys';
  if (SPMV.has(primitive)) return 'gflops';
  return 'gbps';
}

/**
 * A result's value in `unit`, or undefined when it has none (not timed, below the timer's
 * resolution, or GFLOPS of a case that is not a sparse product). G keys/s and G elements/s are the
 * same number: elements per second.
 *
 * @example
 * ```ts
 * metricValue(result, 'gkeys'); // 23.3
 * ```
 */
export function metricValue(result: CaseResult, unit: Unit): number | undefined {
  const m = result.measurement;
  if (result.status !== 'ok' || !m) return undefined;
  let value: number | undefined | null;
  if (unit === 'gbps') value = m.gbps;
  else if (unit === 'gflops')
    value = result.gflops ?? (result.matrix ? spmvGflops(result.matrix.nnz, result.matrix.k, m.medianMs) : undefined);
  else value = m.gelemsPerS;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Whether an algorithm is one of the seed papers' (the 2007 scan primitives, the 2009 branchless
 * SpMV) or a modern one (decoupled look-back, one-sweep radix, merge path, the partition method);
 * undefined for cases with nothing to compare.
 *
 * @example
 * ```ts
 * lineage('sort', 'split-radix'); // 'paper'
 * lineage('scan', 'decoupled-fallback'); // 'modern'
 * ```
 */
export function lineage(primitive: string, algorithm: string | undefined): 'paper' | 'modern' | undefined {
  const paper = PAPER_ALGORITHMS[primitive];
  if (!paper) return undefined;
  if (primitive.startsWith('tridiag-')) return primitive === 'tridiag-cr' ? 'paper' : 'modern';
  if (algorithm === undefined || algorithm === 'auto') return undefined;
  return paper.includes(algorithm) ? 'paper' : 'modern';
}

/** Per primitive, the algorithms the seed papers describe; the others are modern. */
const PAPER_ALGORITHMS: Readonly<Record<string, readonly string[]>> = {
  scan: ['blelloch'],
  split: ['scan-then-scatter'],
  pack: ['scan-then-scatter'],
  'segmented-scan': ['tree'],
  sort: ['split-radix'],
  'sort-pairs': ['split-radix'],
  spmv: ['segmented', 'branchless'],
  'spmv-t': ['segmented', 'branchless'],
  spmm: ['segmented', 'branchless'],
  // Sengupta et al. solve tridiagonal systems by cyclic reduction; PCR, CR+PCR and the partition
  // method came later. The four are separate primitives of the bench.
  'tridiag-cr': [],
  'tridiag-pcr': [],
  'tridiag-cr-pcr': [],
  'tridiag-partition': [],
};

/**
 * The group a primitive is drawn in by the paper-versus-modern view: the four tridiagonal solvers
 * share one chart.
 *
 * @example
 * ```ts
 * lineageGroup('tridiag-pcr'); // 'tridiag'
 * ```
 */
export function lineageGroup(primitive: string): string {
  return primitive.startsWith('tridiag-') ? 'tridiag' : primitive;
}
