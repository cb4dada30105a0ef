import type { BenchModule } from './bench-module.js';
import type { CaseSelection } from './case-types.js';
import { BENCH_MODULES, type BenchCase, type Primitive } from './registry.js';

// Builds a run's cases from the registry (registry.ts); nothing here names a primitive. This
// module and everything it imports are free of Node modules: the dashboard bundles it for the browser.

export type { CaseSelection } from './case-types.js';

/**
 * Primitives whose modules run a sample of their shapes in a software adapter's default run
 * (`CaseSelection.sample`): `hisparse-add` (its add compiles many kernels and reads counts back
 * every run), `frame-loop` and `first-call` (the sort's plan alone compiles for most of a minute on
 * SwiftShader). Every shape runs on a GPU and whenever `--only` names them.
 *
 * @example
 * ```ts
 * SAMPLED_PRIMITIVES; // ['hisparse-add', 'frame-loop', 'first-call']
 * ```
 */
export const SAMPLED_PRIMITIVES: readonly Primitive[] = BENCH_MODULES.filter((m) => m.sample !== undefined).flatMap((m) => m.primitives);

/**
 * Every primitive name `--only` accepts, in report order (the registry's modules').
 *
 * @example
 * ```ts
 * parseNameList('scan,copy', PRIMITIVES, '--only'); // ['scan', 'copy']
 * ```
 */
export const PRIMITIVES: readonly Primitive[] = BENCH_MODULES.flatMap((m) => m.primitives);

/**
 * The fields a series name is made of: a case or a shape of any primitive (or a report's case).
 * `describeVariant` reads the fields below by name, in this order, where the case has them.
 */
export type VariantFields = { readonly primitive: string; readonly type: string } & { readonly [field: string]: unknown };

/**
 * Short description of a case's configuration, e.g. `u32 add excl fwd`, with `mean 16` for
 * segmented cases, `seg 256` (and the f16 input type) for the tcu cases, `256 bins` for histograms, for the sorts the key
 * type, `u32 values` when values move with the keys and `desc` when descending, for the
 * HiSparse products the node size, `segmented combine` when the sums are reduced by records and
 * `region leaves` when the pool has them, and
 * for the frame cases the plan first and the count source (`gpu count`) or first-call variant last.
 *
 * @example
 * ```ts
 * describeVariant({ primitive: 'scan', type: 'i32', op: 'max', inclusive: false, backward: false }); // 'i32 max excl fwd'
 * describeVariant({ primitive: 'segmented-reduce', type: 'u32', op: 'add', segmentMean: 16 }); // 'u32 add mean 16'
 * describeVariant({ primitive: 'tcu-scan', type: 'f32', inputType: 'f16', segmentSize: 256 }); // 'f16 seg 256'
 * describeVariant({ primitive: 'pack', algorithm: 'single-pass', type: 'u32', flagType: 'u8' }); // 'u32 u8 flags'
 * describeVariant({ primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32' }); // 'u32 u32 values'
 * describeVariant({ primitive: 'sort', algorithm: 'radix', type: 'f32', descending: true }); // 'f32 desc'
 * describeVariant({ primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32', valueWidth: 16 }); // 'u32 16-byte values'
 * describeVariant({ primitive: 'spmm', algorithm: 'auto', type: 'f32', k: 8, matrix: 'biased-1M' }); // 'f32 k 8 biased-1M'
 * describeVariant({ primitive: 'histogram', type: 'u32', bins: 256 }); // 'u32 256 bins'
 * describeVariant({ primitive: 'hisparse-spmv', type: 'f32', nodeSize: 32, matrix: 'biased-1M' }); // 'f32 d 32 biased-1M'
 * describeVariant({ primitive: 'hisparse-spmv', type: 'f32', nodeSize: 32, combine: 'segmented', matrix: 'biased-1M' }); // 'f32 d 32 segmented combine biased-1M'
 * describeVariant({ primitive: 'hisparse-spmv', type: 'f32', nodeSize: 16, regionLeaves: true, matrix: 'uniform-256K' }); // 'f32 d 16 region leaves uniform-256K'
 * describeVariant({ primitive: 'hisparse-add', type: 'f32', nodeSize: 64, add: 'a+b', matrix: 'biased-1M' }); // 'f32 d 64 a+b biased-1M'
 * describeVariant({ primitive: 'frame-loop', frameWorkload: 'scan', type: 'u32', op: 'add', inclusive: false, countSource: 'gpu' }); // 'scan u32 add excl gpu count'
 * describeVariant({ primitive: 'first-call', frameWorkload: 'pack', type: 'u32', flagType: 'u32', firstCall: 'no-wait' }); // 'pack u32 u32 flags no-wait'
 * ```
 */
export function describeVariant(c: VariantFields): string {
  const f = c as VariantFields & Readonly<Record<string, string | number | boolean | undefined>>;
  const parts: string[] = [...(f.frameWorkload !== undefined ? [String(f.frameWorkload)] : []), String(f.inputType ?? f.type)];
  // Values wider than 4 bytes (sort-pairs' `valueWidth`) by their width: `16-byte values`.
  if (f.valueType !== undefined) parts.push(f.valueWidth !== undefined ? `${f.valueWidth}-byte values` : `${f.valueType} values`);
  if (f.descending) parts.push('desc');
  if (f.op) parts.push(String(f.op));
  if (f.inclusive !== undefined) parts.push(f.inclusive ? 'incl' : 'excl');
  if (f.backward !== undefined) parts.push(f.backward ? 'bwd' : 'fwd');
  if (f.segmentMean !== undefined) parts.push(`mean ${f.segmentMean}`);
  if (f.segmentSize !== undefined) parts.push(`seg ${f.segmentSize}`);
  if (f.flagType !== undefined) parts.push(`${f.flagType} flags`);
  if (f.k !== undefined) parts.push(`k ${f.k}`);
  if (f.bins !== undefined) parts.push(`${f.bins} bins`);
  if (f.nodeSize !== undefined) parts.push(`d ${f.nodeSize}`);
  if (f.add !== undefined) parts.push(String(f.add));
  if (f.combine !== undefined && f.combine !== 'atomic') parts.push(`${f.combine} combine`);
  if (f.regionLeaves === true) parts.push('region leaves');
  if (f.matrix !== undefined) parts.push(String(f.matrix));
  if (f.countSource !== undefined) parts.push(`${f.countSource} count`);
  if (f.firstCall !== undefined) parts.push(String(f.firstCall));
  if (f.keyBits !== undefined) parts.push(`${f.keyBits}-bit keys`);
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
export function seriesName(c: VariantFields): string {
  return [c.primitive, c.algorithm, describeVariant(c)].filter(Boolean).join(' ');
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
  const { only, types } = selection;
  const cases: BenchCase[] = [];
  for (const module of BENCH_MODULES as readonly BenchModule[]) {
    // Every module is in the default list; --only keeps the ones it names. Skipping a module also
    // skips its shapes (the SpMV suite is parsed only when an SpMV primitive runs).
    if (only && !module.primitives.some((p) => only.includes(p))) continue;
    const all = module.shapes(selection);
    const shapes = (selection.sample && module.sample ? module.sample(all) : all).filter(
      (s) => (!only || only.includes(s.primitive)) && (!types || module.anyType || types.includes(s.type)),
    );
    for (const { n: fixed, ...shape } of shapes) {
      const series = seriesName(shape);
      // The SpMV cases have their matrix's size; --sizes does not apply to them. A water case runs
      // (and reports) a square grid's cells.
      // A module with sizes of its own (the frame cases) runs them when the command line gave none.
      const requested = module.defaultSizes && selection.defaulted?.includes('sizes') ? module.defaultSizes : selection.sizes;
      const sizes = fixed !== undefined ? [fixed] : requested.map((n) => module.caseSize?.(n) ?? n);
      for (const n of [...new Set(sizes)]) {
        if (module.runsAt && !module.runsAt(shape, n)) continue;
        // The shape is the module's own, so the case is of its module's case type.
        cases.push({
          ...shape,
          id: `${series}@${n}`,
          series,
          n,
          seed: selection.seed,
          runs: selection.runs,
          warmup: selection.warmup,
        } as BenchCase);
      }
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
