// CSR ↔ COO conversions and row-length statistics of @scan/spmv against oracles written here:
// cooToCsr against a sort of (row, col, input position) with duplicates summed in f64; round
// trips; csrStats against hand-worked matrices and a two-pass computation.
import { createRng } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { type CooMatrix, type CsrMatrix, cooToCsr, csrStats, csrToCoo } from '../src/cpu/index.js';
import { csrStatsUnchecked } from '../src/stats.js';
import { randomTestCsr } from './spmv-oracle.js';

/** A seeded COO matrix in random order with many duplicates (indices drawn from a small range). */
function randomCoo(rows: number, cols: number, nnz: number, seed: number): CooMatrix {
  const rng = createRng(seed);
  const rowIdx = new Uint32Array(nnz);
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  for (let k = 0; k < nnz; k++) {
    rowIdx[k] = rng.int(0, rows - 1);
    colIdx[k] = rng.int(0, cols - 1);
    values[k] = rng.float() * 2 - 1;
  }
  return { rows, cols, rowIdx, colIdx, values };
}

/** The CSR of a COO matrix the slow way: sort positions by (row, col, position), sum runs in f64. */
function naiveCooToCsr(coo: CooMatrix): CsrMatrix {
  const order = Array.from({ length: coo.values.length }, (_, k) => k);
  order.sort((a, b) => coo.rowIdx[a]! - coo.rowIdx[b]! || coo.colIdx[a]! - coo.colIdx[b]! || a - b);
  const rowPtr = new Uint32Array(coo.rows + 1);
  const colIdx: number[] = [];
  const values: number[] = [];
  let last = -1;
  let lastRow = -1;
  let lastCol = -1;
  const sums: number[] = [];
  for (const k of order) {
    const r = coo.rowIdx[k]!;
    const c = coo.colIdx[k]!;
    if (r === lastRow && c === lastCol) {
      sums[last]! += coo.values[k]!;
    } else {
      last = sums.length;
      sums.push(coo.values[k]!);
      colIdx.push(c);
      rowPtr[r + 1]!++;
      lastRow = r;
      lastCol = c;
    }
  }
  for (let r = 0; r < coo.rows; r++) rowPtr[r + 1]! += rowPtr[r]!;
  for (const s of sums) values.push(s);
  return { rows: coo.rows, cols: coo.cols, rowPtr, colIdx: Uint32Array.from(colIdx), values: Float32Array.from(values) };
}

describe('cooToCsr', () => {
  it('keeps the documented example', () => {
    const coo: CooMatrix = {
      rows: 2,
      cols: 3,
      rowIdx: Uint32Array.from([1, 0, 1, 0]),
      colIdx: Uint32Array.from([0, 2, 0, 1]),
      values: Float32Array.from([1, 2, 3, 4]),
    };
    expect(cooToCsr(coo)).toEqual({
      rows: 2,
      cols: 3,
      rowPtr: Uint32Array.from([0, 2, 3]),
      colIdx: Uint32Array.from([1, 2, 0]),
      values: Float32Array.from([4, 2, 4]),
    });
  });

  for (const [rows, cols, nnz] of [
    [0, 0, 0],
    [3, 0, 0],
    [0, 4, 0],
    [1, 1, 5],
    [5, 7, 0],
    [7, 5, 40],
    [100, 3, 1000],
    [3, 100, 1000],
    [500, 500, 3000],
  ] as const) {
    it(`${rows}×${cols}, ${nnz} entries: sorted by (row, col), duplicates summed`, () => {
      const coo = randomCoo(rows, cols, nnz, rows * 7 + cols + nnz);
      const before = { rowIdx: coo.rowIdx.slice(), colIdx: coo.colIdx.slice(), values: coo.values.slice() };
      const A = cooToCsr(coo);
      expect(A).toEqual(naiveCooToCsr(coo));
      expect(A.colIdx.length).toBe(A.values.length);
      expect({ rowIdx: coo.rowIdx, colIdx: coo.colIdx, values: coo.values }).toEqual(before);
    });
  }

  it('sums duplicates in f64 and rounds once', () => {
    // 1 + 2^-24 + 2^-24 is 1 in f32 step by step, 1 + 2^-23 (an f32) when summed in f64.
    const coo: CooMatrix = {
      rows: 1,
      cols: 1,
      rowIdx: new Uint32Array(3),
      colIdx: new Uint32Array(3),
      values: Float32Array.from([1, 2 ** -24, 2 ** -24]),
    };
    expect(cooToCsr(coo).values).toEqual(Float32Array.from([1 + 2 ** -23]));
  });

  it('sums duplicates in their input order, whatever order the row is sorted from', () => {
    // In f64, 1 + 2^60 − 2^60 is 0 but −2^60 + 2^60 + 1 is 1: the order is visible, and documented.
    const coo: CooMatrix = {
      rows: 1,
      cols: 2,
      rowIdx: new Uint32Array(5),
      colIdx: Uint32Array.from([1, 0, 1, 0, 1]),
      values: Float32Array.from([1, 5, 2 ** 60, 6, -(2 ** 60)]),
    };
    expect(cooToCsr(coo).values).toEqual(Float32Array.from([11, 0]));
  });

  it('keeps explicit zeros and cancelling duplicates as stored zeros', () => {
    const coo: CooMatrix = {
      rows: 1,
      cols: 2,
      rowIdx: new Uint32Array(3),
      colIdx: Uint32Array.from([1, 0, 1]),
      values: Float32Array.from([5, 0, -5]),
    };
    expect(cooToCsr(coo)).toEqual({
      rows: 1,
      cols: 2,
      rowPtr: Uint32Array.from([0, 2]),
      colIdx: Uint32Array.from([0, 1]),
      values: new Float32Array(2),
    });
  });

  it('sorts one long unsorted row, and huge column counts cost nothing', () => {
    const coo = randomCoo(1, 1_000_000, 20000, 3);
    expect(cooToCsr(coo)).toEqual(naiveCooToCsr(coo));
    const wide: CooMatrix = {
      rows: 2,
      cols: 0xffffffff,
      rowIdx: Uint32Array.from([1, 0, 1]),
      colIdx: Uint32Array.from([0xfffffffe, 7, 3]),
      values: Float32Array.from([1, 2, 3]),
    };
    expect(cooToCsr(wide)).toEqual({
      rows: 2,
      cols: 0xffffffff,
      rowPtr: Uint32Array.from([0, 1, 3]),
      colIdx: Uint32Array.from([7, 3, 0xfffffffe]),
      values: Float32Array.from([2, 3, 1]),
    });
  });
});

describe('round trips', () => {
  it('csr → coo → csr gives back a CSR with sorted columns and no duplicates', () => {
    for (const [rows, cols, seed] of [
      [0, 0, 1],
      [1, 1, 2],
      [20, 30, 3],
      [64, 8, 4],
    ] as const) {
      const A = randomTestCsr(rows, cols, seed, { sorted: true, maxRowLength: 6 });
      const coo = csrToCoo(A);
      expect(coo.rows).toBe(rows);
      expect(coo.cols).toBe(cols);
      expect(cooToCsr(coo)).toEqual(A);
    }
  });

  it('csrToCoo lists every entry in CSR order, duplicates kept, with new arrays', () => {
    const A: CsrMatrix = {
      rows: 3,
      cols: 3,
      rowPtr: Uint32Array.from([0, 2, 2, 4]),
      colIdx: Uint32Array.from([2, 2, 0, 1]),
      values: Float32Array.from([1, 2, 3, 4]),
    };
    const coo = csrToCoo(A);
    expect(coo).toEqual({ rows: 3, cols: 3, rowIdx: Uint32Array.from([0, 0, 2, 2]), colIdx: A.colIdx, values: A.values });
    expect(coo.colIdx).not.toBe(A.colIdx);
    expect(coo.values).not.toBe(A.values);
    // Back to CSR: the duplicates of row 0 are summed.
    expect(cooToCsr(coo)).toEqual({
      rows: 3,
      cols: 3,
      rowPtr: Uint32Array.from([0, 1, 1, 3]),
      colIdx: Uint32Array.from([2, 0, 1]),
      values: Float32Array.from([3, 3, 4]),
    });
  });

  it('coo → csr → coo → csr is stable after the first conversion', () => {
    const A = cooToCsr(randomCoo(40, 40, 400, 9));
    expect(cooToCsr(csrToCoo(A))).toEqual(A);
  });
});

describe('csrStats', () => {
  const csr = (rowPtr: number[], cols = 4): CsrMatrix => {
    const nnz = rowPtr[rowPtr.length - 1]!;
    return { rows: rowPtr.length - 1, cols, rowPtr: Uint32Array.from(rowPtr), colIdx: new Uint32Array(nnz), values: new Float32Array(nnz) };
  };

  it('on hand-worked matrices', () => {
    expect(csrStats(csr([0], 0))).toEqual({
      rows: 0,
      cols: 0,
      nnz: 0,
      meanRowLength: 0,
      maxRowLength: 0,
      rowLengthStdDev: 0,
      emptyRows: 0,
    });
    expect(csrStats(csr([0, 0, 0, 0]))).toEqual({
      rows: 3,
      cols: 4,
      nnz: 0,
      meanRowLength: 0,
      maxRowLength: 0,
      rowLengthStdDev: 0,
      emptyRows: 3,
    });
    expect(csrStats(csr([0, 4]))).toEqual({
      rows: 1,
      cols: 4,
      nnz: 4,
      meanRowLength: 4,
      maxRowLength: 4,
      rowLengthStdDev: 0,
      emptyRows: 0,
    });
    // Lengths 2, 0, 1: mean 1, variance (1 + 1 + 0) / 3.
    const s = csrStats(csr([0, 2, 2, 3]));
    expect(s).toEqual({ rows: 3, cols: 4, nnz: 3, meanRowLength: 1, maxRowLength: 2, rowLengthStdDev: s.rowLengthStdDev, emptyRows: 1 });
    expect(s.rowLengthStdDev).toBeCloseTo(Math.sqrt(2 / 3), 15);
    // Lengths 1, 1, 1, 9 (an arrow): mean 3, deviations −2, −2, −2, 6 → variance 12.
    expect(csrStats(csr([0, 1, 2, 3, 12], 12)).rowLengthStdDev).toBeCloseTo(Math.sqrt(12), 14);
  });

  it('matches a two-pass computation on random matrices', () => {
    for (const seed of [1, 2, 3]) {
      const A = randomTestCsr(300, 50, seed, { maxRowLength: 25, emptyRows: 0.3 });
      const lengths = Array.from({ length: A.rows }, (_, r) => A.rowPtr[r + 1]! - A.rowPtr[r]!);
      const mean = lengths.reduce((a, b) => a + b, 0) / A.rows;
      const std = Math.sqrt(lengths.reduce((a, l) => a + (l - mean) ** 2, 0) / A.rows);
      const s = csrStats(A);
      expect(s.nnz).toBe(A.colIdx.length);
      expect(s.meanRowLength).toBe(mean);
      expect(s.maxRowLength).toBe(Math.max(...lengths));
      expect(s.emptyRows).toBe(lengths.filter((l) => l === 0).length);
      expect(s.rowLengthStdDev).toBeCloseTo(std, 12);
      expect(csrStatsUnchecked(A)).toEqual(s);
    }
  });

  it('validates the matrix', () => {
    expect(() => csrStats(csr([0, 2, 1]))).toThrow(/A\.rowPtr\[2\] = 1/);
  });
});
