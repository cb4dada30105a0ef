// Argument checks of @scan/spmv (shared by the GPU functions and the CPU references): every bad
// input is a ScanError with code INVALID_ARGUMENT whose `argument` names the field and whose
// message shows the value; good inputs normalize to the documented defaults. Bad inputs go
// through the CPU references too, so this also checks that they validate as the shared checks do.
import { ScanError } from '@scan/core';
import { describe, expect, it } from 'vitest';
import { type CsrMatrix, cooToCsr, csrToCoo, spmm, spmv, spmvErrorBound, transposeCsr } from '../src/cpu/index.js';
import { checkCoo, checkCsr, checkPlanOptions, checkVector, normalizeSpmmOptions, normalizeSpmvOptions } from '../src/validate.js';

function invalid(fn: () => unknown, argument: string, message: RegExp): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected a ScanError matching ${message}`).toBeInstanceOf(ScanError);
  const error = thrown as ScanError;
  expect(error.code).toBe('INVALID_ARGUMENT');
  expect(error.argument).toBe(argument);
  expect(error.message).toMatch(message);
}

const u32 = (...v: number[]) => Uint32Array.from(v);
const f32 = (...v: number[]) => Float32Array.from(v);

/** 2×3: [[1, 0, 2], [0, 3, 0]]. */
const A: CsrMatrix = { rows: 2, cols: 3, rowPtr: u32(0, 2, 3), colIdx: u32(0, 2, 1), values: f32(1, 2, 3) };
const x3 = f32(1, 1, 1);

describe('checkCsr', () => {
  it('accepts valid matrices, extra fields, empty rows and 0×0', () => {
    expect(checkCsr(A)).toBe(A);
    const extra = { ...A, name: 'mine' };
    expect(checkCsr(extra)).toBe(extra);
    checkCsr({ rows: 0, cols: 0, rowPtr: u32(0), colIdx: u32(), values: f32() });
    checkCsr({ rows: 3, cols: 0, rowPtr: u32(0, 0, 0, 0), colIdx: u32(), values: f32() });
    checkCsr({ rows: 1, cols: 0xffffffff, rowPtr: u32(0, 1), colIdx: u32(0xfffffffe), values: f32(1) });
  });

  it('rejects non-objects and bad dimensions', () => {
    invalid(() => checkCsr(null), 'A', /^A = null: expected a CSR matrix/);
    invalid(() => checkCsr([1, 2]), 'A', /^A = Array\(2\): expected a CSR matrix/);
    invalid(() => checkCsr({ ...A, rows: -1 }), 'A.rows', /^A\.rows = -1: expected an integer from 0 to 2\^32 − 1/);
    invalid(() => checkCsr({ ...A, rows: 1.5 }), 'A.rows', /^A\.rows = 1\.5/);
    invalid(() => checkCsr({ ...A, cols: 2 ** 32 }), 'A.cols', /^A\.cols = 4294967296/);
    invalid(() => checkCsr({ ...A, cols: '3' }), 'A.cols', /^A\.cols = "3"/);
    invalid(() => checkCsr({ ...A, rows: undefined }, 'M'), 'M.rows', /^M\.rows = undefined/);
  });

  it('rejects arrays of the wrong type', () => {
    invalid(() => checkCsr({ ...A, rowPtr: [0, 2, 3] }), 'A.rowPtr', /^A\.rowPtr = Array\(3\): expected a Uint32Array$/);
    invalid(
      () => checkCsr({ ...A, rowPtr: Int32Array.from([0, 2, 3]) }),
      'A.rowPtr',
      /^A\.rowPtr = Int32Array\(3\): expected a Uint32Array/,
    );
    invalid(
      () => checkCsr({ ...A, colIdx: Float32Array.from([0, 2, 1]) }),
      'A.colIdx',
      /^A\.colIdx = Float32Array\(3\): expected a Uint32Array/,
    );
    invalid(
      () => checkCsr({ ...A, values: Float64Array.from([1, 2, 3]) }),
      'A.values',
      /^A\.values = Float64Array\(3\): expected a Float32Array/,
    );
  });

  it('rejects mismatched lengths', () => {
    invalid(
      () => checkCsr({ ...A, rowPtr: u32(0, 3) }),
      'A.rowPtr',
      /^A\.rowPtr = Uint32Array\(2\): expected rows \+ 1 = 3 entries, got 2/,
    );
    invalid(
      () => checkCsr({ ...A, values: f32(1, 2) }),
      'A.values',
      /^A\.values = Float32Array\(2\): length 2 does not match A\.colIdx\.length = 3/,
    );
  });

  it('rejects a rowPtr that does not start at 0, decreases, or does not end at nnz', () => {
    invalid(() => checkCsr({ ...A, rowPtr: u32(1, 2, 3) }), 'A.rowPtr[0]', /^A\.rowPtr\[0\] = 1: rowPtr must start at 0/);
    invalid(
      () => checkCsr({ rows: 5, cols: 3, rowPtr: u32(0, 1, 7, 7, 3, 7), colIdx: new Uint32Array(7), values: new Float32Array(7) }),
      'A.rowPtr[4]',
      /^A\.rowPtr\[4\] = 3: below A\.rowPtr\[3\] = 7 \(rowPtr must not decrease\)$/,
    );
    invalid(() => checkCsr({ ...A, rowPtr: u32(0, 2, 2) }), 'A.rowPtr[2]', /^A\.rowPtr\[2\] = 2: rowPtr must end at nnz = 3/);
    invalid(() => checkCsr({ ...A, rowPtr: u32(0, 2, 4) }), 'A.rowPtr[2]', /^A\.rowPtr\[2\] = 4: rowPtr must end at nnz = 3/);
  });

  it('rejects a column index out of range, naming the first', () => {
    invalid(() => checkCsr({ ...A, colIdx: u32(0, 3, 7) }), 'A.colIdx[1]', /^A\.colIdx\[1\] = 3: not below A\.cols = 3$/);
    invalid(
      () => checkCsr({ rows: 1, cols: 0, rowPtr: u32(0, 1), colIdx: u32(0), values: f32(1) }),
      'A.colIdx[0]',
      /not below A\.cols = 0/,
    );
  });

  it('checks every one of millions of nonzeros', () => {
    // 8M nonzeros with one bad column index in the very last: the check reads them all (no sampling)
    // and names the entry; its speed is the bench's business, not a unit test's.
    const nnz = 1 << 23;
    const rows = 1 << 16;
    const rowPtr = Uint32Array.from({ length: rows + 1 }, (_, r) => (r * nnz) / rows);
    const colIdx = new Uint32Array(nnz).fill(999);
    const big = { rows, cols: 1000, rowPtr, colIdx, values: new Float32Array(nnz) };
    expect(() => checkCsr(big)).not.toThrow();
    colIdx[nnz - 1] = 1000;
    invalid(() => checkCsr(big), `A.colIdx[${nnz - 1}]`, /= 1000: not below A\.cols = 1000$/);
  });

  it('is what every CPU function runs first', () => {
    const bad = { ...A, colIdx: u32(0, 3, 1) };
    for (const fn of [
      () => spmv(bad, x3),
      () => spmm(bad, x3, { k: 1 }),
      () => transposeCsr(bad),
      () => csrToCoo(bad),
      () => spmvErrorBound(bad, x3),
    ]) {
      invalid(fn, 'A.colIdx[1]', /^A\.colIdx\[1\] = 3: not below A\.cols = 3/);
    }
  });
});

describe('checkCoo', () => {
  const coo = { rows: 2, cols: 3, rowIdx: u32(1, 0), colIdx: u32(2, 0), values: f32(5, 6) };

  it('accepts a valid matrix', () => {
    expect(checkCoo(coo)).toBe(coo);
    checkCoo({ rows: 0, cols: 0, rowIdx: u32(), colIdx: u32(), values: f32() });
  });

  it('rejects bad fields, lengths and indices', () => {
    invalid(() => checkCoo(undefined), 'coo', /^coo = undefined: expected a COO matrix/);
    invalid(() => checkCoo({ ...coo, rows: Number.NaN }), 'coo.rows', /^coo\.rows = NaN/);
    invalid(() => checkCoo({ ...coo, rowIdx: [1, 0] }), 'coo.rowIdx', /^coo\.rowIdx = Array\(2\): expected a Uint32Array/);
    invalid(
      () => checkCoo({ ...coo, rowIdx: u32(1) }),
      'coo.rowIdx',
      /^coo\.rowIdx = Uint32Array\(1\): length 1 does not match coo\.values\.length = 2/,
    );
    invalid(() => checkCoo({ ...coo, colIdx: u32(1, 2, 0) }), 'coo.colIdx', /length 3 does not match coo\.values\.length = 2/);
    invalid(() => checkCoo({ ...coo, rowIdx: u32(1, 2) }), 'coo.rowIdx[1]', /^coo\.rowIdx\[1\] = 2: not below coo\.rows = 2$/);
    invalid(() => checkCoo({ ...coo, colIdx: u32(3, 0) }), 'coo.colIdx[0]', /^coo\.colIdx\[0\] = 3: not below coo\.cols = 3$/);
    invalid(() => cooToCsr({ ...coo, colIdx: u32(3, 0) }), 'coo.colIdx[0]', /not below coo\.cols = 3/);
  });
});

describe('checkVector', () => {
  it('wants a Float32Array of exactly the length', () => {
    const v = new Float32Array(8);
    expect(checkVector(v.subarray(2, 5), 3, 'x')).toEqual(new Float32Array(3));
    invalid(() => checkVector([1, 2, 3], 3, 'x'), 'x', /^x = Array\(3\): expected a Float32Array$/);
    invalid(() => checkVector(new Float64Array(3), 3, 'x'), 'x', /^x = Float64Array\(3\): expected a Float32Array/);
    invalid(
      () => checkVector(new Float32Array(2), 3, 'x', 'A.cols'),
      'x',
      /^x = Float32Array\(2\): expected 3 elements \(A\.cols\), got 2$/,
    );
  });
});

describe('spmv options', () => {
  const y2 = f32(1, 1);

  it('normalizes to the documented defaults', () => {
    expect(normalizeSpmvOptions(A, x3, undefined)).toEqual({ alpha: 1, beta: 0, transpose: false, algorithm: 'auto', y: undefined });
    expect(normalizeSpmvOptions(A, f32(1, 2), { transpose: true, alpha: -2, beta: 0.5, y: x3, algorithm: 'merge' })).toEqual({
      alpha: -2,
      beta: 0.5,
      transpose: true,
      algorithm: 'merge',
      y: x3,
    });
    expect(normalizeSpmvOptions(A, x3, { alpha: Number.POSITIVE_INFINITY }).alpha).toBe(Number.POSITIVE_INFINITY);
  });

  it('rejects x of the wrong length or type, transposed or not', () => {
    invalid(() => spmv(A, f32(1, 1)), 'x', /^x = Float32Array\(2\): expected 3 elements \(A\.cols\), got 2$/);
    invalid(() => spmv(A, x3, { transpose: true }), 'x', /^x = Float32Array\(3\): expected 2 elements \(A\.rows, transposed\), got 3$/);
    invalid(() => spmv(A, [1, 1, 1] as never), 'x', /^x = Array\(3\): expected a Float32Array/);
  });

  it('rejects y of the wrong length', () => {
    invalid(
      () => spmv(A, x3, { y: f32(1, 1, 1), beta: 1 }),
      'options.y',
      /^options\.y = Float32Array\(3\): expected 2 elements \(A\.rows\), got 3$/,
    );
    invalid(
      () => spmv(A, f32(1, 1), { y: y2, beta: 1, transpose: true }),
      'options.y',
      /expected 3 elements \(A\.cols, transposed\), got 2/,
    );
    invalid(() => spmv(A, x3, { y: new Uint32Array(2) as never }), 'options.y', /^options\.y = Uint32Array\(2\): expected a Float32Array/);
  });

  it('rejects NaN or non-number alpha and beta', () => {
    invalid(() => spmv(A, x3, { alpha: Number.NaN }), 'options.alpha', /^options\.alpha = NaN: expected a number \(not NaN\)$/);
    invalid(() => spmv(A, x3, { alpha: '2' as never }), 'options.alpha', /^options\.alpha = "2"/);
    invalid(() => spmv(A, x3, { beta: Number.NaN, y: y2 }), 'options.beta', /^options\.beta = NaN: expected a number \(not NaN\)$/);
    invalid(() => spmv(A, x3, { beta: null as never, y: y2 }), 'options.beta', /^options\.beta = null/);
  });

  it('rejects beta ≠ 0 without y', () => {
    invalid(() => spmv(A, x3, { beta: 1 }), 'options.beta', /^options\.beta = 1: needs options\.y/);
    invalid(() => spmvErrorBound(A, x3, { beta: -0.5 }), 'options.beta', /needs options\.y/);
  });

  it('rejects unknown options, bad transpose and algorithm', () => {
    invalid(
      () => spmv(A, x3, { alhpa: 2 } as never),
      'options.alhpa',
      /^options\.alhpa = 2: unknown option \(allowed: y, alpha, beta, transpose, algorithm\)$/,
    );
    invalid(() => spmv(A, x3, 'fast' as never), 'options', /^options = "fast": expected an object of options/);
    invalid(() => spmv(A, x3, { transpose: 1 } as never), 'options.transpose', /^options\.transpose = 1: expected true or false/);
    invalid(
      () => spmv(A, x3, { algorithm: 'csr' } as never),
      'options.algorithm',
      /^options\.algorithm = "csr": expected one of 'auto', 'row', 'segmented', 'branchless', 'merge'$/,
    );
  });
});

describe('spmm options', () => {
  it('normalizes', () => {
    expect(normalizeSpmmOptions(A, new Float32Array(6), { k: 2 })).toEqual({ k: 2, transpose: false });
    expect(normalizeSpmmOptions(A, new Float32Array(8), { k: 4, transpose: true })).toEqual({ k: 4, transpose: true });
  });

  it('requires k, a positive integer', () => {
    for (const k of [0, -1, 1.5, Number.NaN, '2', 65537]) {
      invalid(() => spmm(A, new Float32Array(6), { k } as never), 'options.k', /^options\.k = .*: expected an integer from 1 to 65536/);
    }
    invalid(() => spmm(A, new Float32Array(6), undefined as never), 'options.k', /^options\.k = undefined/);
    invalid(() => spmm(A, new Float32Array(6), {} as never), 'options.k', /^options\.k = undefined/);
  });

  it('rejects X of the wrong length and unknown options', () => {
    invalid(
      () => spmm(A, new Float32Array(5), { k: 2 }),
      'X',
      /^X = Float32Array\(5\): expected 6 elements \(A\.cols · k = 3 · 2\), got 5$/,
    );
    invalid(
      () => spmm(A, new Float32Array(6), { k: 2, transpose: true }),
      'X',
      /expected 4 elements \(A\.rows · k = 2 · 2, transposed\), got 6/,
    );
    invalid(() => spmm(A, new Float32Array(6), { k: 2, alpha: 1 } as never), 'options.alpha', /unknown option \(allowed: k, transpose\)/);
  });
});

describe('checkPlanOptions', () => {
  it('normalizes', () => {
    expect(checkPlanOptions(undefined)).toEqual({ algorithm: 'auto', transpose: false, k: 1, segmentLength: undefined, stats: undefined });
    const stats = { rows: 1, cols: 1, nnz: 1, meanRowLength: 1, maxRowLength: 1, rowLengthStdDev: 0, emptyRows: 0 };
    expect(checkPlanOptions({ algorithm: 'branchless', transpose: true, k: 8, segmentLength: 64, stats })).toEqual({
      algorithm: 'branchless',
      transpose: true,
      k: 8,
      segmentLength: 64,
      stats,
    });
    expect(checkPlanOptions({ lanes: 4 }, ['lanes']).k).toBe(1);
  });

  it('rejects each bad option by name', () => {
    invalid(
      () => checkPlanOptions({ algoritm: 'row' }),
      'options.algoritm',
      /unknown option \(allowed: algorithm, transpose, k, segmentLength, stats\)/,
    );
    invalid(() => checkPlanOptions({ algorithm: 'fast' }), 'options.algorithm', /^options\.algorithm = "fast"/);
    invalid(() => checkPlanOptions({ transpose: 'yes' }), 'options.transpose', /^options\.transpose = "yes"/);
    invalid(() => checkPlanOptions({ k: 0 }), 'options.k', /^options\.k = 0: expected an integer from 1 to 65536/);
    invalid(
      () => checkPlanOptions({ segmentLength: 48 }),
      'options.segmentLength',
      /^options\.segmentLength = 48: expected a power of two from 32 to 256$/,
    );
    invalid(() => checkPlanOptions({ segmentLength: 512 }), 'options.segmentLength', /power of two from 32 to 256/);
    invalid(() => checkPlanOptions({ stats: 5 }), 'options.stats', /^options\.stats = 5: expected a CsrStats object/);
    invalid(() => checkPlanOptions({ stats: { rows: 1 } }), 'options.stats.cols', /^options\.stats\.cols = undefined: expected a number/);
  });
});
