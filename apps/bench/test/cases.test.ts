import { describe, expect, test } from 'vitest';
import { type CaseSelection, describeVariant, enumerateCases, PRIMITIVES, parseNameList, seriesName } from '../src/cases.js';
import { parseCli } from '../src/options.js';
import { waterCaseSize } from '../src/primitives/water.js';
import { DEFAULT_MATRICES, parseMatrixList } from '../src/spmv-suite.js';

const base: CaseSelection = { sizes: [1 << 16, 1 << 20], runs: 20, warmup: 3, seed: 1, density: 0.5 };

describe('enumerateCases', () => {
  test('the default list: every primitive, every scan algorithm and the scan variants, the SpMV suite, both baselines', () => {
    // The default list holds every module; these checks look at the throughput cases before tcu.
    const every = enumerateCases(base);
    expect(new Set(every.map((c) => c.primitive))).toEqual(new Set(PRIMITIVES));
    const all = every.filter(
      (c) => !['tcu-reduce', 'tcu-scan', 'hisparse-add', 'frame-loop', 'first-call', 'splat-frame'].includes(c.primitive),
    );
    // The SpMV cases run over the matrix suite (one n each), between the water step and the
    // baselines: 13 of @scan/spmv, then 2 · (3 + 2) HiSparse products — every node size with the
    // atomic combine, d 32 and 64 also with the segmented one (hisparse-add is counted apart).
    const spmvAt = all.findIndex((c) => c.primitive === 'spmv');
    const spmv = all.filter((c) => c.matrix !== undefined);
    expect(spmv).toHaveLength(DEFAULT_MATRICES.length * (13 + 10));
    expect(spmv.filter((c) => c.primitive.startsWith('hisparse-'))).toHaveLength(DEFAULT_MATRICES.length * 10);
    expect(spmv.filter((c) => c.combine === 'segmented').map((c) => c.nodeSize)).toEqual(
      Array<number[]>(2 * DEFAULT_MATRICES.length)
        .fill([32, 64])
        .flat(),
    );
    expect(all.slice(spmvAt, spmvAt + spmv.length)).toEqual(spmv);
    expect(all[spmvAt - 1]?.primitive).toBe('water-adi-step');
    expect(all[spmvAt + spmv.length]?.primitive).toBe('copy');
    const cases = all.filter((c) => c.matrix === undefined);
    const series = [...new Set(cases.map((c) => c.series))];
    expect(series).toEqual([
      'scan blelloch u32 add excl fwd',
      'scan reduce-then-scan u32 add excl fwd',
      'scan decoupled-fallback u32 add excl fwd',
      'scan decoupled-fallback u32 add incl fwd',
      'scan decoupled-fallback u32 add excl bwd',
      'scan decoupled-fallback i32 max excl fwd',
      'scan decoupled-fallback f32 add excl fwd',
      'reduce u32 add',
      'reduce f32 add',
      'reduce u32 max',
      'operator-scan u32 user-add excl fwd',
      'operator-scan vec4<f32> add incl fwd',
      'operator-scan vec2<f32> affine incl fwd',
      'operator-scan vec2<f32> affine incl bwd',
      'operator-reduce u32 user-add',
      'operator-reduce {value,index} argmax',
      'enumerate u32 fwd',
      'distribute u32 fwd',
      'split single-pass u32 u32 flags',
      'split single-pass u32 u8 flags',
      'split scan-then-scatter u32 u32 flags',
      'pack single-pass u32 u32 flags',
      'pack single-pass u32 u8 flags',
      'pack scan-then-scatter u32 u32 flags',
      'segmented-scan single-pass u32 add excl fwd mean 16',
      'segmented-scan single-pass u32 add excl bwd mean 16',
      'segmented-scan tree u32 add excl fwd mean 16',
      'segmented-scan tree u32 add excl bwd mean 16',
      'segmented-scan single-pass u32 add excl fwd mean 4096',
      'segmented-scan single-pass u32 add excl bwd mean 4096',
      'segmented-scan tree u32 add excl fwd mean 4096',
      'segmented-scan tree u32 add excl bwd mean 4096',
      'segmented-reduce u32 add mean 16',
      'segmented-reduce u32 add mean 4096',
      'reduce-by-key u32 add mean 16',
      'scan-by-key u32 add excl mean 16',
      'unique u32 mean 16',
      'unique-by-key u32 mean 16',
      'run-length-encode u32 mean 16',
      'reduce-by-key u32 add mean 4096',
      'scan-by-key u32 add excl mean 4096',
      'unique u32 mean 4096',
      'unique-by-key u32 mean 4096',
      'run-length-encode u32 mean 4096',
      'histogram u32 256 bins',
      'histogram u32 65536 bins',
      'arg-max f32',
      'sort radix u32',
      'sort split-radix u32',
      'sort radix i32',
      'sort radix f32',
      'sort radix u64',
      'sort radix u16',
      'sort radix f16',
      'sort-pairs radix u32 u32 values',
      'sort-pairs split-radix u32 u32 values',
      'sort-pairs radix u32 8-byte values',
      'sort-pairs radix u32 12-byte values',
      'sort-pairs radix u32 16-byte values',
      'segmented-sort u32 mean 1024',
      'top-k f32 k 1',
      'top-k f32 k 32',
      'top-k f32 k 1024',
      'lower-bound u32',
      'tridiag-cr f32',
      'tridiag-pcr f32',
      'tridiag-cr-pcr f32',
      'tridiag-partition f32',
      'water-adi-step f32',
      'copy u32',
      'read-only u32',
    ]);
    expect(cases).toHaveLength(series.length * 2);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    // On a GPU nothing is sampled: every tcu, hisparse-add and frame configuration runs too.
    expect(every.filter((c) => c.primitive === 'hisparse-add')).toHaveLength(9 * DEFAULT_MATRICES.length);
    expect(every.filter((c) => c.primitive === 'frame-loop' || c.primitive === 'first-call').length).toBeGreaterThan(0);
  });

  test('the tcu cases: both paths side by side, segments longer than n left out', () => {
    const cases = enumerateCases({ ...base, sizes: [4096, 1 << 16], only: ['copy', 'tcu-reduce', 'tcu-scan'] });
    expect(cases.map((c) => c.id)).toEqual([
      'tcu-reduce subgroup-matrix f16 seg 16@4096',
      'tcu-reduce subgroup-matrix f16 seg 16@65536',
      'tcu-reduce emulated f16 seg 16@4096',
      'tcu-reduce emulated f16 seg 16@65536',
      'tcu-reduce subgroup-matrix f16 seg 256@4096',
      'tcu-reduce subgroup-matrix f16 seg 256@65536',
      'tcu-reduce emulated f16 seg 256@4096',
      'tcu-reduce emulated f16 seg 256@65536',
      'tcu-reduce subgroup-matrix f16 seg 4096@4096',
      'tcu-reduce subgroup-matrix f16 seg 4096@65536',
      'tcu-reduce emulated f16 seg 4096@4096',
      'tcu-reduce emulated f16 seg 4096@65536',
      'tcu-reduce subgroup-matrix f16 seg 65536@65536',
      'tcu-reduce emulated f16 seg 65536@65536',
      'tcu-scan subgroup-matrix f16 seg 16@4096',
      'tcu-scan subgroup-matrix f16 seg 16@65536',
      'tcu-scan emulated f16 seg 16@4096',
      'tcu-scan emulated f16 seg 16@65536',
      'tcu-scan subgroup-matrix f16 seg 256@4096',
      'tcu-scan subgroup-matrix f16 seg 256@65536',
      'tcu-scan emulated f16 seg 256@4096',
      'tcu-scan emulated f16 seg 256@65536',
      'tcu-scan subgroup-matrix f16 seg 4096@4096',
      'tcu-scan subgroup-matrix f16 seg 4096@65536',
      'tcu-scan emulated f16 seg 4096@4096',
      'tcu-scan emulated f16 seg 4096@65536',
      'tcu-scan subgroup-matrix f16 seg 65536@65536',
      'tcu-scan emulated f16 seg 65536@65536',
      'copy u32@4096',
      'copy u32@65536',
    ]);
    expect(cases.find((c) => c.id === 'tcu-scan emulated f16 seg 256@4096')).toMatchObject({
      primitive: 'tcu-scan',
      algorithm: 'emulated',
      type: 'f32',
      inputType: 'f16',
      segmentSize: 256,
      n: 4096,
    });
    expect(cases.some((c) => c.density !== undefined || c.segmentMean !== undefined)).toBe(false);
  });

  test('each case carries its size (an SpMV case the nonzeros of its matrix) and run settings; flag primitives get the density', () => {
    const cases = enumerateCases({ ...base, sizes: [4096], density: 0.25, matrices: parseMatrixList('biased-10') });
    for (const c of cases) {
      const n = c.matrix === undefined ? 4096 : 19;
      expect(c).toMatchObject({ n, runs: 20, warmup: 3, seed: 1, id: `${c.series}@${n}` });
      expect(c.density !== undefined).toBe(['enumerate', 'split', 'pack'].includes(c.primitive));
    }
    expect(cases.find((c) => c.primitive === 'pack')?.density).toBe(0.25);
  });

  test('a water case reports the cells of the grid it runs; past the largest grid it keeps its size (and is skipped when run)', () => {
    const cases = enumerateCases({ ...base, sizes: [2 ** 20, 2 ** 21, 2 ** 24, 2 ** 26], only: ['water-adi-step'] });
    expect(cases.map((c) => c.n)).toEqual([2 ** 20, 1448 ** 2, 2 ** 24, 2 ** 26]);
    expect(cases.map((c) => c.id)).toEqual([
      `water-adi-step f32@${2 ** 20}`,
      'water-adi-step f32@2096704',
      `water-adi-step f32@${2 ** 24}`,
      `water-adi-step f32@${2 ** 26}`,
    ]);
    expect([waterCaseSize(3), waterCaseSize(2 ** 24 + 1), waterCaseSize(4097 ** 2)]).toEqual([4, 2 ** 24, 4097 ** 2]);
  });

  test('--only filters primitives', () => {
    const cases = enumerateCases({ ...base, only: ['copy'] });
    expect(cases.map((c) => c.id)).toEqual(['copy u32@65536', 'copy u32@1048576']);
  });

  test('--segment-means sets the segmented cases, which carry their mean', () => {
    const cases = enumerateCases({ ...base, sizes: [4096], only: ['segmented-scan', 'segmented-reduce'], segmentMeans: [4] });
    expect(cases.map((c) => c.id)).toEqual([
      'segmented-scan single-pass u32 add excl fwd mean 4@4096',
      'segmented-scan single-pass u32 add excl bwd mean 4@4096',
      'segmented-scan tree u32 add excl fwd mean 4@4096',
      'segmented-scan tree u32 add excl bwd mean 4@4096',
      'segmented-reduce u32 add mean 4@4096',
    ]);
    expect(cases.every((c) => c.segmentMean === 4 && c.density === undefined)).toBe(true);
    expect(cases.find((c) => c.primitive === 'segmented-reduce')).toMatchObject({ type: 'u32', op: 'add' });
    expect(cases.find((c) => c.primitive === 'segmented-reduce')?.algorithm).toBeUndefined();
  });

  test('--node-sizes sets the node sizes of the HiSparse cases', () => {
    const cases = enumerateCases({
      ...base,
      only: ['hisparse-spmv', 'hisparse-add'],
      nodeSizes: [64],
      matrices: parseMatrixList('biased-10'),
    });
    expect(cases.map((c) => c.nodeSize)).toEqual([64, 64, 64, 64, 64]);
    expect(cases.map((c) => c.series)).toEqual([
      'hisparse-spmv f32 d 64 biased-10',
      'hisparse-spmv f32 d 64 segmented combine biased-10',
      'hisparse-add f32 d 64 a+2a biased-10',
      'hisparse-add f32 d 64 a+b biased-10',
      'hisparse-add f32 d 64 at+bt biased-10',
    ]);
    expect(parseCli(['--node-sizes', '2^6,16,64'])).toMatchObject({ kind: 'run', options: { nodeSizes: [16, 64] } });
    expect(() => parseCli(['--node-sizes', '48'])).toThrow(/--node-sizes "48": expected a power of two from 4 to 256/);
  });

  test('--region-leaves adds a region-leaf product per node size, and only to the products', () => {
    const cases = enumerateCases({
      ...base,
      only: ['hisparse-spmv', 'hisparse-spmv-t', 'hisparse-add'],
      nodeSizes: [16, 64],
      regionLeaves: true,
      matrices: parseMatrixList('uniform-1K'),
    });
    expect(cases.filter((c) => c.regionLeaves === true).map((c) => c.series)).toEqual([
      'hisparse-spmv f32 d 16 region leaves uniform-1K',
      'hisparse-spmv f32 d 64 region leaves uniform-1K',
      'hisparse-spmv-t f32 d 16 region leaves uniform-1K',
      'hisparse-spmv-t f32 d 64 region leaves uniform-1K',
    ]);
    expect(cases.filter((c) => c.primitive === 'hisparse-add').every((c) => c.regionLeaves === undefined)).toBe(true);
    expect(parseCli(['--region-leaves'])).toMatchObject({ kind: 'run', options: { regionLeaves: true } });
    const plain = parseCli([]);
    expect(plain.kind === 'run' && plain.options.regionLeaves).toBeUndefined();
  });

  test('--algorithms names scan algorithms only: the segmented cases keep both of theirs', () => {
    const cases = enumerateCases({ ...base, sizes: [4096], algorithms: ['blelloch'], segmentMeans: [16] });
    expect(cases.filter((c) => c.primitive === 'segmented-scan').map((c) => c.algorithm)).toEqual([
      'single-pass',
      'single-pass',
      'tree',
      'tree',
    ]);
  });

  test('--types filters element types but keeps the baselines', () => {
    const every = enumerateCases({ ...base, sizes: [4096], types: ['f32'], matrices: parseMatrixList('biased-10') });
    // The tcu, sum and frame cases are checked elsewhere; here only that they keep to f32 too.
    const apart = ['tcu-reduce', 'tcu-scan', 'hisparse-add', 'frame-loop', 'first-call', 'splat-frame'];
    expect(every.filter((c) => apart.includes(c.primitive)).every((c) => c.type === 'f32')).toBe(true);
    const cases = every.filter((c) => !apart.includes(c.primitive));
    expect(cases.map((c) => c.series.replace(/^(spmv|spmv-t|spmm) .*/, '$1'))).toEqual([
      'scan decoupled-fallback f32 add excl fwd',
      'reduce f32 add',
      'operator-scan vec4<f32> add incl fwd',
      'operator-scan vec2<f32> affine incl fwd',
      'operator-scan vec2<f32> affine incl bwd',
      'operator-reduce {value,index} argmax',
      'arg-max f32',
      'sort radix f32',
      'top-k f32 k 1',
      'top-k f32 k 32',
      'top-k f32 k 1024',
      'tridiag-cr f32',
      'tridiag-pcr f32',
      'tridiag-cr-pcr f32',
      'tridiag-partition f32',
      'water-adi-step f32',
      ...Array<string>(5).fill('spmv'),
      ...Array<string>(5).fill('spmv-t'),
      ...Array<string>(3).fill('spmm'),
      'hisparse-spmv f32 d 16 biased-10',
      'hisparse-spmv f32 d 32 biased-10',
      'hisparse-spmv f32 d 32 segmented combine biased-10',
      'hisparse-spmv f32 d 64 biased-10',
      'hisparse-spmv f32 d 64 segmented combine biased-10',
      'hisparse-spmv-t f32 d 16 biased-10',
      'hisparse-spmv-t f32 d 32 biased-10',
      'hisparse-spmv-t f32 d 32 segmented combine biased-10',
      'hisparse-spmv-t f32 d 64 biased-10',
      'hisparse-spmv-t f32 d 64 segmented combine biased-10',
      'copy u32',
      'read-only u32',
    ]);
  });

  test('--algorithms gives each named algorithm every scan variant', () => {
    const cases = enumerateCases({ ...base, sizes: [4096], only: ['scan'], algorithms: ['blelloch', 'auto'] });
    expect(cases).toHaveLength(10);
    expect(cases.filter((c) => c.algorithm === 'blelloch').map((c) => describeVariant(c))).toEqual([
      'u32 add excl fwd',
      'u32 add incl fwd',
      'u32 add excl bwd',
      'i32 max excl fwd',
      'f32 add excl fwd',
    ]);
  });
});

test('series names', () => {
  expect(seriesName({ primitive: 'scan', algorithm: 'blelloch', type: 'u32', op: 'add', inclusive: true, backward: true })).toBe(
    'scan blelloch u32 add incl bwd',
  );
  expect(seriesName({ primitive: 'split', type: 'f32' })).toBe('split f32');
  expect(
    seriesName({
      primitive: 'segmented-scan',
      algorithm: 'tree',
      type: 'u32',
      op: 'add',
      inclusive: false,
      backward: true,
      segmentMean: 16,
    }),
  ).toBe('segmented-scan tree u32 add excl bwd mean 16');
  expect(seriesName({ primitive: 'tcu-reduce', algorithm: 'subgroup-matrix', type: 'f32', inputType: 'f16', segmentSize: 256 })).toBe(
    'tcu-reduce subgroup-matrix f16 seg 256',
  );
});

test('parseNameList names the unknown entry and the allowed ones', () => {
  expect(parseNameList('scan, copy,scan', PRIMITIVES, '--only')).toEqual(['scan', 'copy']);
  expect(() => parseNameList('scan,quicksort', PRIMITIVES, '--only')).toThrow(/--only: unknown "quicksort"; expected scan, reduce/);
  expect(() => parseNameList('', PRIMITIVES, '--only')).toThrow(/--only/);
});
