import { describe, expect, test } from 'vitest';
import { enumerateCases, PRIMITIVES, SAMPLED_PRIMITIVES } from '../src/cases.js';
import { type BenchOptions, MIN_RUNS, parseCli } from '../src/options.js';
import type { DeviceInfo } from '../src/report.js';
import {
  isSoftwareAdapter,
  SOFTWARE_RUNS,
  SOFTWARE_SIZES,
  SOFTWARE_WARMUP,
  softwareNote,
  softwareOptions,
} from '../src/software-adapter.js';
import { DEFAULT_MATRICES, parseMatrixList, SOFTWARE_MATRICES } from '../src/spmv-suite.js';
import { formatTable } from '../src/table.js';
import { sampleReport } from './fixtures.js';

function device(vendor: string, architecture: string, description: string, name?: string): DeviceInfo {
  return { adapter: { vendor, architecture, description, ...(name ? { device: name } : {}) }, features: {}, limits: {} };
}

const swiftShader = device('google', 'swiftshader', 'SwiftShader driver 5.0.0', 'swiftshader-device-subzero-');
const h100 = device('nvidia', 'hopper', 'NVIDIA H100 80GB HBM3');

function options(argv: string[]): BenchOptions {
  const inv = parseCli(argv);
  if (inv.kind !== 'run') throw new Error(`expected a run, got ${inv.kind}`);
  return inv.options;
}

describe('software adapters', () => {
  test('are told by the adapter names: SwiftShader, llvmpipe, lavapipe, WARP; a GPU is not one', () => {
    expect(isSoftwareAdapter(swiftShader)).toBe(true);
    expect(isSoftwareAdapter(device('mesa', '', 'llvmpipe (LLVM 15.0.6, 256 bits)'))).toBe(true);
    expect(isSoftwareAdapter(device('', '', 'lavapipe'))).toBe(true);
    expect(isSoftwareAdapter(device('microsoft', '', 'Microsoft Basic Render Driver'))).toBe(true);
    expect(isSoftwareAdapter(h100)).toBe(false);
    expect(isSoftwareAdapter(device('apple', 'metal-3', 'Apple M2 (hardware)'))).toBe(false);
    expect(isSoftwareAdapter(null)).toBe(false);
  });

  test('get small defaults for every setting left out; explicit settings win', () => {
    const all = softwareOptions(options([]));
    expect(all).toMatchObject({ sizes: SOFTWARE_SIZES, runs: SOFTWARE_RUNS, warmup: SOFTWARE_WARMUP, defaulted: [] });
    expect(all.matrices?.map((m) => m.name)).toEqual(SOFTWARE_MATRICES);
    expect(SOFTWARE_RUNS).toBeGreaterThanOrEqual(MIN_RUNS);
    const given = softwareOptions(options(['--sizes', '2^16', '--runs', '12', '--warmup', '2', '--matrices', 'biased-10']));
    expect(given).toMatchObject({ sizes: [2 ** 16], runs: 12, warmup: 2, matrices: [{ name: 'biased-10', n: 19 }] });
    expect(softwareOptions(options(['--large'])).sizes).toEqual([2 ** 20, 2 ** 24, 2 ** 26, 2 ** 28]);
    expect(softwareOptions(options(['--runs', '15'])).warmup).toBe(SOFTWARE_WARMUP);
  });

  test('the software suite: the GPU families at small sizes named in the matrix names, each verified on the CPU too', () => {
    const small = parseMatrixList(SOFTWARE_MATRICES.join(','));
    const families = (names: readonly string[]) => new Set(names.map((n) => n.slice(0, n.lastIndexOf('-'))));
    for (const f of families(SOFTWARE_MATRICES)) expect(families(DEFAULT_MATRICES)).toContain(f);
    for (const m of small) expect(m.n).toBeLessThanOrEqual(2 ** 16);
  });

  test('the default run on one: every primitive, SpMV over the small suite, the slow modules sampled', () => {
    const cases = enumerateCases(softwareOptions(options([])));
    expect(new Set(cases.map((c) => c.primitive))).toEqual(new Set(PRIMITIVES));
    expect(new Set(cases.filter((c) => c.matrix === undefined).map((c) => c.n))).toEqual(new Set(SOFTWARE_SIZES));
    expect(new Set(cases.filter((c) => c.matrix !== undefined).map((c) => c.matrix))).toEqual(new Set(SOFTWARE_MATRICES));
    expect(cases.filter((c) => c.primitive === 'spmv')).toHaveLength(5 * SOFTWARE_MATRICES.length);
    // Both tcu paths at every segment size (the subgroup-matrix ones are skipped at once there).
    expect(cases.filter((c) => c.primitive.startsWith('tcu-'))).toHaveLength(12);
    // One sum, the suite's first matrix at the package's node size; each frame plan once.
    expect(cases.filter((c) => c.primitive === 'hisparse-add').map((c) => c.id)).toEqual(['hisparse-add f32 d 64 a+b poisson2d-16@1216']);
    expect(cases.filter((c) => c.primitive === 'frame-loop').map((c) => `${c.frameWorkload} ${c.countSource}`)).toEqual([
      'sort gpu',
      'pack gpu',
      'scan gpu',
      'segmented-scan gpu',
    ]);
    expect(cases.filter((c) => c.primitive === 'first-call').map((c) => `${c.frameWorkload} ${c.firstCall}`)).toEqual([
      'sort no-wait',
      'pack no-wait',
      'scan no-wait',
      'segmented-scan no-wait',
    ]);
    // The splat frame: f32 keys only, at the software size.
    expect(cases.filter((c) => c.primitive === 'splat-frame').map((c) => c.id)).toEqual(
      SOFTWARE_SIZES.map((n) => `splat-frame splats f32 32-bit keys@${n}`),
    );
    expect(SAMPLED_PRIMITIVES).toEqual([
      'reduce-by-key',
      'scan-by-key',
      'unique',
      'unique-by-key',
      'run-length-encode',
      'histogram',
      'top-k',
      'splat-frame',
      'hisparse-add',
      'frame-loop',
      'first-call',
    ]);
    // The toolbox: each by-key primitive at the first mean, 256 bins, one k.
    expect(cases.filter((c) => c.primitive === 'top-k').map((c) => c.k)).toEqual(SOFTWARE_SIZES.map(() => 32));
    expect(new Set(cases.filter((c) => c.primitive === 'histogram').map((c) => c.bins))).toEqual(new Set([256]));
    expect(cases.every((c) => c.runs === SOFTWARE_RUNS && c.warmup === SOFTWARE_WARMUP)).toBe(true);
    // Named with --only, a sampled module runs every configuration, on a software adapter too.
    const named = enumerateCases(softwareOptions(options(['--only', 'hisparse-add,frame-loop,first-call'])));
    expect(named.filter((c) => c.primitive === 'hisparse-add')).toHaveLength(9 * SOFTWARE_MATRICES.length);
    expect(named.filter((c) => c.primitive === 'frame-loop')).toHaveLength(8);
    expect(named.filter((c) => c.primitive === 'first-call')).toHaveLength(8);
  });

  test('the table says under it that software numbers say nothing about GPUs; a GPU table does not', () => {
    const lines = formatTable({ ...sampleReport(), device: swiftShader }).split('\n');
    expect(lines.at(-2)).toBe('4 cases: 2 ok, 1 failed, 1 crashed');
    expect(lines.at(-1)).toMatch(
      /^NOTE: software adapter \(google \/ swiftshader \/ SwiftShader driver 5\.0\.0\).*say nothing about GPU performance\.$/,
    );
    expect(softwareNote(h100)).toBeUndefined();
    expect(formatTable(sampleReport())).not.toMatch(/NOTE/);
  });
});
