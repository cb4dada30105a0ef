import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { enumerateCases, PRIMITIVES, SAMPLED_PRIMITIVES, seriesName } from '../src/cases.js';
import { bytesMoved } from '../src/metrics.js';
import { parseCli } from '../src/options.js';
import { type SpmvCase, singleProductCase, spmvColumns, spmvGflops, spmvShapes, spmvVectorWords } from '../src/primitives/spmv.js';
import { mtxName, readMtxSize, selectMatrices } from '../src/spmv-mtx-file.js';
import { DEFAULT_MATRICES, matrixShape, parseMatrixList, parseMatrixName, parseMatrixSize } from '../src/spmv-suite.js';

const base = { sizes: [4096], runs: 10, warmup: 1, seed: 1, density: 0.5 };

describe('the SpMV matrix suite', () => {
  test('sizes: decimal K and M, 2^k, plain counts', () => {
    expect(parseMatrixSize('1M')).toBe(1_000_000);
    expect(parseMatrixSize('64k')).toBe(64_000);
    expect(parseMatrixSize('2^20')).toBe(2 ** 20);
    expect(parseMatrixSize('2048')).toBe(2048);
    expect(() => parseMatrixSize('4G')).toThrow(/4G/);
    expect(() => parseMatrixSize('0')).toThrow();
  });

  test('the default suite in closed form', () => {
    const shapes = Object.fromEntries(DEFAULT_MATRICES.map((name) => [name, matrixShape(parseMatrixName(name))]));
    expect(shapes).toEqual({
      'poisson2d-2048': { rows: 2048 ** 2, cols: 2048 ** 2, nnz: 5 * 2048 ** 2 - 4 * 2048 },
      'biased-1M': { rows: 1e6, cols: 1e6, nnz: 2e6 - 1 },
      'biased-16M': { rows: 16e6, cols: 16e6, nnz: 32e6 - 1 },
      'powerlaw-4M': { rows: 4e6, cols: 4e6, nnz: 64e6 },
      'uniform-4M': { rows: 4e6, cols: 4e6, nnz: 64e6 },
      'banded-4M': { rows: 4e6, cols: 4e6, nnz: 9 * 4e6 - 20 },
      'stencil27-100': { rows: 1e6, cols: 1e6, nnz: 298 ** 3 },
      // Nominal: the generated ones have a little fewer.
      'geometric-1M': { rows: 1e6, cols: 1e6, nnz: 12e6 },
      'rmat-2^20': { rows: 2 ** 20, cols: 2 ** 20, nnz: 32 * 2 ** 20 },
    });
  });

  test('small matrices: the band and the uniform rows are clipped to the columns', () => {
    expect(matrixShape(parseMatrixName('banded-3')).nnz).toBe(9);
    expect(matrixShape(parseMatrixName('banded-1')).nnz).toBe(1);
    expect(matrixShape(parseMatrixName('uniform-5')).nnz).toBe(25);
    expect(matrixShape(parseMatrixName('poisson2d-1')).nnz).toBe(1);
  });

  test('bad names name the text', () => {
    expect(() => parseMatrixName('dense-4M')).toThrow(/dense-4M/);
    expect(() => parseMatrixName('poisson2d-70000')).toThrow(/2\^31/);
    expect(() => parseMatrixList(' , ')).toThrow(/--matrices/);
  });

  test('--mtx: the header gives n, the base name names the case; alone it replaces the suite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scan-bench-mtx-'));
    const path = join(dir, 'tiny.mtx');
    writeFileSync(path, '%%MatrixMarket matrix coordinate real general\n% a comment\n3 4 2\n1 1 1.5\n3 4 -2\n');
    expect(readMtxSize(path)).toEqual({ rows: 3, cols: 4, entries: 2 });
    expect(mtxName(path)).toBe('tiny');
    expect(selectMatrices(undefined, path)).toEqual([{ name: 'tiny', n: 2, path }]);
    expect(selectMatrices('biased-10', path).map((m) => m.name)).toEqual(['biased-10', 'tiny']);
    expect(selectMatrices(undefined, undefined).map((m) => m.name)).toEqual(DEFAULT_MATRICES);
    writeFileSync(join(dir, 'bad.mtx'), 'not a matrix\n');
    expect(() => readMtxSize(join(dir, 'bad.mtx'))).toThrow(/bad\.mtx/);
  });
});

describe('SpMV cases', () => {
  test('in the default list; --only spmv,spmv-t,spmm gives every algorithm per matrix, spmm auto, branchless and merge', () => {
    expect(SAMPLED_PRIMITIVES).not.toEqual(expect.arrayContaining(['spmv']));
    expect(PRIMITIVES).toEqual(expect.arrayContaining(['spmv', 'spmv-t', 'spmm']));
    expect(enumerateCases(base).filter((c) => ['spmv', 'spmv-t', 'spmm'].includes(c.primitive))).toHaveLength(13 * DEFAULT_MATRICES.length);
    const matrices = parseMatrixList('poisson2d-64,biased-1000');
    const cases = enumerateCases({ ...base, only: ['spmv', 'spmv-t', 'spmm', 'copy'], matrices });
    expect(cases.map((c) => c.id)).toEqual([
      'spmv auto f32 poisson2d-64@20224',
      'spmv row f32 poisson2d-64@20224',
      'spmv segmented f32 poisson2d-64@20224',
      'spmv branchless f32 poisson2d-64@20224',
      'spmv merge f32 poisson2d-64@20224',
      'spmv auto f32 biased-1000@1999',
      'spmv row f32 biased-1000@1999',
      'spmv segmented f32 biased-1000@1999',
      'spmv branchless f32 biased-1000@1999',
      'spmv merge f32 biased-1000@1999',
      'spmv-t auto f32 poisson2d-64@20224',
      'spmv-t row f32 poisson2d-64@20224',
      'spmv-t segmented f32 poisson2d-64@20224',
      'spmv-t branchless f32 poisson2d-64@20224',
      'spmv-t merge f32 poisson2d-64@20224',
      'spmv-t auto f32 biased-1000@1999',
      'spmv-t row f32 biased-1000@1999',
      'spmv-t segmented f32 biased-1000@1999',
      'spmv-t branchless f32 biased-1000@1999',
      'spmv-t merge f32 biased-1000@1999',
      'spmm auto f32 k 8 poisson2d-64@20224',
      'spmm branchless f32 k 8 poisson2d-64@20224',
      'spmm merge f32 k 8 poisson2d-64@20224',
      'spmm auto f32 k 8 biased-1000@1999',
      'spmm branchless f32 k 8 biased-1000@1999',
      'spmm merge f32 k 8 biased-1000@1999',
      'copy u32@4096',
    ]);
    expect(cases[0]).toMatchObject({ matrix: 'poisson2d-64', type: 'f32', n: 20224, seed: 1, runs: 10 });
    expect(cases[20]).toMatchObject({ k: 8 });
    expect(cases[0]!.matrixPath).toBeUndefined();
  });

  test('the default suite when --matrices is not given', () => {
    const cases = enumerateCases({ ...base, only: ['spmm'] }).filter((c) => c.algorithm === 'auto');
    expect(cases.map((c) => c.matrix)).toEqual(DEFAULT_MATRICES);
  });

  test('the CLI: --matrices and --mtx reach the cases; a bad name exits as a bad option', () => {
    const inv = parseCli(['--only', 'spmv', '--matrices', 'poisson2d-16,banded-100']);
    expect(inv.kind === 'run' && inv.options.matrices?.map((m) => m.name)).toEqual(['poisson2d-16', 'banded-100']);
    expect(() => parseCli(['--only', 'spmv', '--matrices', 'nope-1'])).toThrow(/nope-1/);
  });

  test('bytes, columns, GFLOPS and the single-vector comparison', () => {
    expect(bytesMoved('spmv', 1000, spmvVectorWords(100, 200, 1))).toBe(8000 + 4 * 300);
    expect(bytesMoved('spmm', 1000, spmvVectorWords(100, 200, 8))).toBe(8000 + 4 * 8 * 300);
    expect(spmvColumns({ primitive: 'spmm', k: 8 })).toBe(8);
    expect(spmvColumns({ primitive: 'spmv-t' })).toBe(1);
    expect(spmvGflops(1e6, 8, 2)).toBe(8);
    expect(spmvGflops(1e6, 1, 0)).toBeUndefined();
    const [spmm] = enumerateCases({ ...base, only: ['spmm'], matrices: parseMatrixList('biased-100') });
    const single = singleProductCase(spmm as SpmvCase);
    expect(single).toMatchObject({ primitive: 'spmv', algorithm: 'auto', matrix: 'biased-100', n: 199 });
    expect(single.k).toBeUndefined();
    expect(seriesName(spmvShapes([{ name: 'x', n: 1 }])[0]!)).toBe('spmv auto f32 x');
  });
});
