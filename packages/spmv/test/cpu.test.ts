// The CPU references of @scan/spmv against dense computations written here from the definitions:
// y = alpha·op(A)·x + beta·y, Y = op(A)·X, Aᵀ. Matrices are built directly in CSR (unsorted
// columns, duplicates, empty rows) from seeds; with dyadic values every sum is exact, so results
// are compared bit for bit. Also: the error bound (against simulated f32 sums in several orders)
// and the oracle helpers the GPU tests use.
import { POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { type CsrMatrix, SPMV_ALGORITHMS, spmm, spmv, spmvErrorBound, transposeCsr } from '../src/cpu/index.js';
import { denseOf, dyadicVector, expectCloseToReference, randomTestCsr, randomVector } from './spmv-oracle.js';

/** (rows, cols) shapes: empty, single, one row or column, non-square both ways, square. */
const SHAPES: readonly [number, number][] = [
  [0, 0],
  [0, 5],
  [5, 0],
  [1, 1],
  [1, 9],
  [9, 1],
  [7, 13],
  [13, 7],
  [64, 64],
];

/** alpha·op(D)·x + beta·y in f64 from the dense form, rounded once. */
function denseSpmv(
  A: CsrMatrix,
  x: Float32Array,
  alpha: number,
  beta: number,
  y: Float32Array | undefined,
  transpose: boolean,
): Float32Array {
  const D = denseOf(A);
  const [m, n] = transpose ? [A.cols, A.rows] : [A.rows, A.cols];
  const out = new Float32Array(m);
  for (let i = 0; i < m; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += (transpose ? D[j * A.cols + i]! : D[i * A.cols + j]!) * x[j]!;
    out[i] = alpha * sum + (beta !== 0 ? beta * y![i]! : 0);
  }
  return out;
}

function expectSameBits(actual: Float32Array, expected: Float32Array, label: string): void {
  expect(actual, label).toBeInstanceOf(Float32Array);
  expect(Array.from(actual), label).toEqual(Array.from(expected));
}

/** A copy of a matrix's arrays, to check that a function left its input alone. */
function snapshot(A: CsrMatrix) {
  return { rowPtr: A.rowPtr.slice(), colIdx: A.colIdx.slice(), values: A.values.slice() };
}

describe('spmv', () => {
  const SCALES: readonly [number, number][] = [
    [1, 0],
    [2, 0],
    [-0.5, 0.25],
    [1, 1],
    [0, -3],
  ];
  for (const [rows, cols] of SHAPES) {
    for (const transpose of [false, true]) {
      it(`${rows}×${cols}${transpose ? ' transposed' : ''}: every alpha/beta against the dense product`, () => {
        const A = randomTestCsr(rows, cols, rows * 100 + cols, { dyadic: true });
        const before = snapshot(A);
        const x = dyadicVector(transpose ? rows : cols, 1);
        const y = dyadicVector(transpose ? cols : rows, 2);
        for (const [alpha, beta] of SCALES) {
          const label = `${rows}×${cols} alpha=${alpha} beta=${beta}`;
          const got = spmv(A, x, { alpha, beta, transpose, ...(beta !== 0 ? { y } : {}) });
          expectSameBits(got, denseSpmv(A, x, alpha, beta, y, transpose), label);
        }
        expect(snapshot(A)).toEqual(before);
      });
    }
  }

  it('defaults to alpha = 1, beta = 0 and ignores y when beta = 0 (even NaN y)', () => {
    const A = randomTestCsr(20, 10, 5, { dyadic: true });
    const x = dyadicVector(10, 6);
    const plain = spmv(A, x);
    expectSameBits(plain, denseSpmv(A, x, 1, 0, undefined, false), 'defaults');
    expectSameBits(spmv(A, x, { y: new Float32Array(20).fill(Number.NaN) }), plain, 'NaN y with beta 0');
    expectSameBits(spmv(A, x, { y: new Float32Array(20).fill(Number.NaN), beta: 0 }), plain, 'NaN y with explicit beta 0');
  });

  it('gives beta·y for empty rows and an all-zero result for an empty matrix', () => {
    const A: CsrMatrix = { rows: 3, cols: 4, rowPtr: new Uint32Array(4), colIdx: new Uint32Array(0), values: new Float32Array(0) };
    const y = Float32Array.from([1, -2, 3]);
    expectSameBits(spmv(A, new Float32Array(4), { beta: 2, y }), Float32Array.from([2, -4, 6]), 'empty rows');
    expectSameBits(spmv(A, new Float32Array(4)), new Float32Array(3), 'zero');
    expect(spmv({ ...A, rows: 0, rowPtr: new Uint32Array(1) }, new Float32Array(4)).length).toBe(0);
  });

  it('adds duplicates of one entry', () => {
    const A: CsrMatrix = {
      rows: 2,
      cols: 3,
      rowPtr: Uint32Array.from([0, 3, 5]),
      colIdx: Uint32Array.from([2, 0, 2, 1, 1]),
      values: Float32Array.from([1, 2, 3, 4, 5]),
    };
    const x = Float32Array.from([1, 10, 100]);
    expectSameBits(spmv(A, x), Float32Array.from([402, 90]), 'A·x');
    expectSameBits(spmv(A, Float32Array.from([1, 2]), { transpose: true }), Float32Array.from([2, 18, 4]), 'Aᵀ·x');
  });

  it('sums in f64 and rounds once', () => {
    // 1 + 2^-24 + 2^-24 + … : each step is lost in f32, but the f64 sum keeps them.
    const n = 16;
    const A: CsrMatrix = {
      rows: 1,
      cols: n + 1,
      rowPtr: Uint32Array.from([0, n + 1]),
      colIdx: Uint32Array.from({ length: n + 1 }, (_, i) => i),
      values: Float32Array.from({ length: n + 1 }, (_, i) => (i === 0 ? 1 : 2 ** -24)),
    };
    expect(spmv(A, new Float32Array(n + 1).fill(1))[0]).toBe(Math.fround(1 + n * 2 ** -24));
  });

  it('accepts every algorithm name and gives the same result', () => {
    const A = randomTestCsr(30, 20, 9, { dyadic: true });
    const x = dyadicVector(20, 10);
    const reference = spmv(A, x);
    for (const algorithm of SPMV_ALGORITHMS) expectSameBits(spmv(A, x, { algorithm }), reference, algorithm);
  });

  it('matches the dense product within the error bound on random [-1, 1) data', () => {
    for (const [rows, cols] of SHAPES) {
      for (const transpose of [false, true]) {
        const A = randomTestCsr(rows, cols, 77 + rows, { maxRowLength: 40 });
        const x = randomVector(transpose ? rows : cols, 3);
        const y = randomVector(transpose ? cols : rows, 4);
        const options = { alpha: 1.5, beta: -0.75, y, transpose };
        expectCloseToReference(
          spmv(A, x, options),
          denseSpmv(A, x, 1.5, -0.75, y, transpose),
          spmvErrorBound(A, x, options),
          `${rows}×${cols}`,
        );
      }
    }
  });
});

describe('spmm', () => {
  for (const k of [1, 3, 8]) {
    for (const [rows, cols] of SHAPES) {
      for (const transpose of [false, true]) {
        it(`k=${k} ${rows}×${cols}${transpose ? ' transposed' : ''}: each column is the dense product with that column`, () => {
          const A = randomTestCsr(rows, cols, rows + 31 * cols + k, { dyadic: true });
          const [inLength, outLength] = transpose ? [rows, cols] : [cols, rows];
          const X = dyadicVector(inLength * k, k);
          const before = X.slice();
          const Y = spmm(A, X, { k, transpose });
          expect(Y).toBeInstanceOf(Float32Array);
          expect(Y.length).toBe(outLength * k);
          for (let j = 0; j < k; j++) {
            const xj = Float32Array.from({ length: inLength }, (_, i) => X[i * k + j]!);
            const yj = Float32Array.from({ length: outLength }, (_, i) => Y[i * k + j]!);
            expectSameBits(yj, denseSpmv(A, xj, 1, 0, undefined, transpose), `column ${j}`);
          }
          expect(X).toEqual(before);
        });
      }
    }
  }

  it('with k = 1 is spmv', () => {
    const A = randomTestCsr(40, 25, 12, { maxRowLength: 30 });
    const x = randomVector(25, 13);
    expectSameBits(spmm(A, x, { k: 1 }), spmv(A, x), 'k = 1');
    const xt = randomVector(40, 14);
    expectSameBits(spmm(A, xt, { k: 1, transpose: true }), spmv(A, xt, { transpose: true }), 'k = 1 transposed');
  });
});

describe('transposeCsr', () => {
  /** Aᵀ built the slow way: for each column c, scan every row in order for entries in column c. */
  function naiveTranspose(A: CsrMatrix): CsrMatrix {
    const rowPtr = new Uint32Array(A.cols + 1);
    const colIdx: number[] = [];
    const values: number[] = [];
    for (let c = 0; c < A.cols; c++) {
      for (let r = 0; r < A.rows; r++) {
        for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) {
          if (A.colIdx[k] === c) {
            colIdx.push(r);
            values.push(A.values[k]!);
          }
        }
      }
      rowPtr[c + 1] = colIdx.length;
    }
    return { rows: A.cols, cols: A.rows, rowPtr, colIdx: Uint32Array.from(colIdx), values: Float32Array.from(values) };
  }

  for (const [rows, cols] of SHAPES) {
    it(`${rows}×${cols}: stable, duplicates kept, entry for entry`, () => {
      const A = randomTestCsr(rows, cols, 5 * rows + cols);
      const before = snapshot(A);
      const T = transposeCsr(A);
      expect(T).toEqual(naiveTranspose(A));
      expect(snapshot(A)).toEqual(before);
      // Transposing twice gives back A with each row's columns sorted (stably).
      const TT = transposeCsr(T);
      expect(denseOf(TT)).toEqual(denseOf(A));
      expect(TT.rowPtr).toEqual(A.rowPtr);
    });
  }

  it('is its own inverse on a matrix with sorted columns', () => {
    const A = randomTestCsr(50, 40, 21, { sorted: true, maxRowLength: 20 });
    expect(transposeCsr(transposeCsr(A))).toEqual(A);
  });

  it('keeps the documented example', () => {
    const A: CsrMatrix = {
      rows: 2,
      cols: 3,
      rowPtr: Uint32Array.from([0, 2, 3]),
      colIdx: Uint32Array.from([0, 2, 1]),
      values: Float32Array.from([1, 2, 3]),
    };
    expect(transposeCsr(A)).toEqual({
      rows: 3,
      cols: 2,
      rowPtr: Uint32Array.from([0, 1, 2, 3]),
      colIdx: Uint32Array.from([0, 1, 0]),
      values: Float32Array.from([1, 3, 2]),
    });
  });
});

describe('spmvErrorBound', () => {
  const EPS = 2 ** -24;

  it('is 2·ε·(L + 2)·S + tiny per output, with L and S of op(A)', () => {
    const A: CsrMatrix = {
      rows: 2,
      cols: 3,
      rowPtr: Uint32Array.from([0, 2, 3]),
      colIdx: Uint32Array.from([0, 2, 0]),
      values: Float32Array.from([1, -2, 4]),
    };
    const x = Float32Array.from([1, 10, -1]);
    const tiny = (L: number) => 2 * (L + 2) * 2 ** -126;
    // Row 0: |1·1| + |−2·−1| = 3, L = 2; row 1: |4·1| = 4, L = 1.
    expect(Array.from(spmvErrorBound(A, x))).toEqual([2 * EPS * 4 * 3 + tiny(2), 2 * EPS * 3 * 4 + tiny(1)]);
    // alpha scales S; beta·y joins it.
    const y = Float32Array.from([8, -16]);
    expect(Array.from(spmvErrorBound(A, x, { alpha: -2, beta: 0.5, y }))).toEqual([
      2 * EPS * 4 * (6 + 4) + tiny(2),
      2 * EPS * 3 * (8 + 8) + tiny(1),
    ]);
    // Transposed: the outputs are the columns (L = 2, 0, 1).
    const xt = Float32Array.from([2, 3]);
    expect(Array.from(spmvErrorBound(A, xt, { transpose: true }))).toEqual([
      2 * EPS * 4 * (2 + 12) + tiny(2),
      tiny(0),
      2 * EPS * 3 * 4 + tiny(1),
    ]);
  });

  it('is infinite where f32 partial sums may overflow', () => {
    const A: CsrMatrix = {
      rows: 2,
      cols: 2,
      rowPtr: Uint32Array.from([0, 2, 3]),
      colIdx: Uint32Array.from([0, 1, 0]),
      values: Float32Array.from([3e38, -3e38, 1]),
    };
    const bound = spmvErrorBound(A, Float32Array.from([1, 1]));
    expect(bound[0]).toBe(Number.POSITIVE_INFINITY);
    expect(Number.isFinite(bound[1]!)).toBe(true);
  });

  it('covers f32 sums in sequential, reversed, strided and pairwise order on long rows', () => {
    const f = Math.fround;
    const sequential = (terms: number[]) => terms.reduce((s, t) => f(s + t), 0);
    const pairwise = (terms: number[]): number => {
      if (terms.length <= 1) return terms[0] ?? 0;
      const half = terms.length >> 1;
      return f(pairwise(terms.slice(0, half)) + pairwise(terms.slice(half)));
    };
    const strided = (terms: number[]) => {
      // 32 lanes each summing every 32nd term, then a tree over the lanes: the 'row' kernel's shape.
      const lanes = Array.from({ length: 32 }, (_, l) => sequential(terms.filter((_, i) => i % 32 === l)));
      return pairwise(lanes);
    };
    for (const [length, seed] of [
      [1, 1],
      [7, 2],
      [1000, 3],
      [20000, 4],
    ] as const) {
      const A: CsrMatrix = {
        rows: 1,
        cols: length,
        rowPtr: Uint32Array.from([0, length]),
        colIdx: Uint32Array.from({ length }, (_, i) => i),
        // Values of mixed magnitude and sign, which make the sum cancel.
        values: randomVector(length, seed).map((v, i) => v * 2 ** ((i % 13) - 6)),
      };
      const x = randomVector(length, seed + 100);
      const y = randomVector(1, seed + 200);
      const options = { alpha: 0.7, beta: 1.3, y };
      const expected = spmv(A, x, options);
      const bound = spmvErrorBound(A, x, options);
      const terms = Array.from({ length }, (_, i) => f(A.values[i]! * x[i]!));
      for (const [name, sum] of [
        ['sequential', sequential],
        ['reversed', (t: number[]) => sequential([...t].reverse())],
        ['strided', strided],
        ['pairwise', pairwise],
      ] as const) {
        const actual = Float32Array.of(f(f(0.7 * sum(terms)) + f(1.3 * y[0]!)));
        expectCloseToReference(actual, expected, bound, `${name} L=${length}`);
      }
    }
  });
});

describe('expectCloseToReference', () => {
  const bound = Float64Array.of(0.5, 0.5, 0.5);

  it('passes within the bound, and NaN against NaN', () => {
    expectCloseToReference(Float32Array.of(1.25, Number.NaN, -2), Float32Array.of(1, Number.NaN, -2.5), bound, 'ok');
  });

  it('fails naming the index, values and bound', () => {
    expect(() => expectCloseToReference(Float32Array.of(1, 2, 3), Float32Array.of(1, 2, 4), bound, 'case')).toThrow(
      /^case: 1 of 3 outputs outside the error bound:\n {2}\[2\] actual 3, expected 4, bound 0\.5$/,
    );
    expect(() => expectCloseToReference(Float32Array.of(1, Number.NaN, 3), Float32Array.of(1, 2, 3), bound, 'nan')).toThrow(
      /\[1\] actual NaN/,
    );
    expect(() => expectCloseToReference(Float32Array.of(1, 2, 3), Float32Array.of(1, Number.NaN, 3), bound, 'nan')).toThrow(
      /\[1\] actual 2, expected NaN/,
    );
    expect(() => expectCloseToReference(Float32Array.of(1, 2), Float32Array.of(1, 2, 3), bound, 'len')).toThrow(/length 2, expected 3/);
  });

  it('fails on the poison sentinel even where the bound is infinite', () => {
    const actual = new Float32Array(new Uint32Array([0x3f800000, POISON_U32]).buffer);
    expect(() => expectCloseToReference(actual, Float32Array.of(1, -1e19), Float64Array.of(0, Number.POSITIVE_INFINITY), 'poison')).toThrow(
      /\[1\] actual .*the poison sentinel: never written/,
    );
  });

  it('requires infinities to match exactly', () => {
    const inf = Number.POSITIVE_INFINITY;
    expectCloseToReference(Float32Array.of(inf), Float32Array.of(inf), Float64Array.of(inf), 'same');
    expect(() => expectCloseToReference(Float32Array.of(1), Float32Array.of(inf), Float64Array.of(inf), 'inf')).toThrow(
      /expected Infinity/,
    );
  });

  it('lists at most five bad indices', () => {
    const n = 12;
    const message = (() => {
      try {
        expectCloseToReference(new Float32Array(n), new Float32Array(n).fill(1), new Float64Array(n), 'many');
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(message).toMatch(/^many: 12 of 12 outputs outside the error bound \(first 5\)/);
    expect(message.split('\n')).toHaveLength(6);
  });
});

describe('randomVector and dyadicVector', () => {
  it('are seeded, in [-1, 1) and on [-4, 4) multiples of 1/8', () => {
    const v = randomVector(10000, 1);
    expect(v).toEqual(randomVector(10000, 1));
    expect(v).not.toEqual(randomVector(10000, 2));
    expect(v.every((t) => t >= -1 && t < 1)).toBe(true);
    const d = dyadicVector(1000, 1);
    expect(d.every((t) => t >= -4 && t < 4 && Number.isInteger(t * 8))).toBe(true);
  });
});
