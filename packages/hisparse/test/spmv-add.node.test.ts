// SpMV and SpMVᵀ against @scan/spmv's CPU spmv, honouring the state (transposed flag XOR the
// option, scale); addition with transposed and scaled operands against CSR addition done here.
// Values and x are coarse dyadic numbers, so every sum is exact and results compare bit for bit.
import { poisson2d } from '@scan/spmv';
import { cooToCsr, spmv } from '@scan/spmv/cpu';
import { describe, expect, it } from 'vitest';
import { hisparseAdd, hisparseFromCsr, hisparseSpmv, hisparseStats, hisparseToCsr, scale, transpose } from '../src/cpu/index.js';
import { csrAdd, csrTranspose, dyadicVector, expectSameCsr, expectSameValues, randomCsrDyadic } from './oracle.js';

const SHAPES: readonly [number, number, number][] = [
  [0, 0, 0],
  [1, 1, 1],
  [13, 7, 40],
  [7, 130, 300],
  [100, 100, 2500],
  [65, 33, 2000], // dense leaves at d = 4 and 8
];

describe('spmv', () => {
  for (const [rows, cols, nnz] of SHAPES) {
    for (const d of [4, 8, 32]) {
      it(`${rows}×${cols}, ${nnz} drawn, d = ${d}`, () => {
        const A = randomCsrDyadic(rows, cols, nnz, rows * 31 + cols + d);
        const H = hisparseFromCsr(A, { nodeSize: d });
        const x = dyadicVector(cols, 1);
        const xt = dyadicVector(rows, 2);
        expect(hisparseSpmv(H, x)).toEqual(spmv(A, x));
        expect(hisparseSpmv(H, xt, { transpose: true })).toEqual(spmv(A, xt, { transpose: true }));
        // The state: Hᵀ·x is Aᵀ·x; (Hᵀ)ᵀ·x is A·x; scale multiplies.
        const T = transpose(H);
        expect([T.rows, T.cols]).toEqual([cols, rows]);
        expect(hisparseSpmv(T, xt)).toEqual(spmv(A, xt, { transpose: true }));
        expect(hisparseSpmv(T, x, { transpose: true })).toEqual(spmv(A, x));
        expect(hisparseSpmv(scale(T, -0.5), xt)).toEqual(spmv(A, xt, { transpose: true, alpha: -0.5 }));
        expect(hisparseSpmv(scale(scale(H, 4), 0.25), x)).toEqual(spmv(A, x));
      });
    }
  }

  it('random f32 values: within rounding of the CSR reference', () => {
    const A = poisson2d(20);
    const H = hisparseFromCsr(A, { nodeSize: 16 });
    const x = Float32Array.from({ length: A.cols }, (_, i) => Math.sin(i) * 1e3);
    const y = hisparseSpmv(H, x);
    const e = spmv(A, x);
    for (let i = 0; i < y.length; i++) expect(y[i]).toBeCloseTo(e[i]!, 2);
  });
});

describe('transpose and scale', () => {
  it('are O(1): same pool and root, state flipped or multiplied', () => {
    const A = randomCsrDyadic(40, 25, 200, 5);
    const H = hisparseFromCsr(A, { nodeSize: 8 });
    const used = H.pool.used;
    const T = scale(transpose(H), 3);
    expect([T.pool, T.root, T.transposed, T.scale, T.rows, T.cols]).toEqual([H.pool, H.root, true, 3, 25, 40]);
    expect(H.pool.used).toBe(used);
    expect(H.transposed).toBe(false);
    expectSameCsr(hisparseToCsr(transpose(H)), csrTranspose(A), 'Aᵀ');
    expectSameCsr(hisparseToCsr(T), csrAdd(csrTranspose(A), 3, csrTranspose(A), 0), '3·Aᵀ');
    expectSameCsr(hisparseToCsr(transpose(transpose(H))), A, 'Aᵀᵀ');
  });
});

describe('add', () => {
  const cases: readonly [string, number, number, number, number][] = [
    // name, rows, cols, nnz of A, nnz of B
    ['small overlapping', 20, 20, 60, 60],
    ['non-square', 37, 90, 300, 250],
    ['denser (dense leaves meet sparse)', 48, 48, 1400, 200],
    ['one empty operand', 30, 30, 100, 0],
  ];
  for (const [name, rows, cols, nnzA, nnzB] of cases) {
    for (const d of [4, 16]) {
      it(`${name}, d = ${d}: A + B, Aᵀ + Bᵀ, sA·A + sB·Bᵀᵀ …`, () => {
        const A = randomCsrDyadic(rows, cols, nnzA, rows + nnzA + d);
        const B = randomCsrDyadic(rows, cols, nnzB, cols + nnzB + d);
        const HA = hisparseFromCsr(A, { nodeSize: d });
        const HB = hisparseFromCsr(B, { nodeSize: d });
        const plain = hisparseAdd(HA, HB);
        const expected = csrAdd(A, 1, B, 1);
        expectSameValues(hisparseToCsr(plain), expected, `${name}: A + B`);
        // The result is laid out canonically: the words a fresh build of the sum gives (when nothing cancels).
        expect(Array.from(plain.pool.view()), `${name}: canonical pool`).toEqual(
          Array.from(hisparseFromCsr(expected, { nodeSize: d }).pool.view()),
        );
        expectSameValues(hisparseToCsr(hisparseAdd(scale(HA, 2), scale(HB, -0.25))), csrAdd(A, 2, B, -0.25), `${name}: 2A − B/4`);
        const both = hisparseAdd(transpose(HA), transpose(HB));
        expect(both.transposed).toBe(true); // built by merging in stored order, (A + B)ᵀ
        expectSameValues(hisparseToCsr(both), csrTranspose(expected), `${name}: Aᵀ + Bᵀ`);
        if (rows === cols) {
          // Mixed orientations: B is read transposed against A.
          expectSameValues(hisparseToCsr(hisparseAdd(HA, transpose(HB))), csrAdd(A, 1, csrTranspose(B), 1), `${name}: A + Bᵀ`);
          expectSameValues(
            hisparseToCsr(hisparseAdd(scale(transpose(HA), 0.5), HB)),
            csrAdd(csrTranspose(A), 0.5, B, 1),
            `${name}: Aᵀ/2 + B`,
          );
        }
      });
    }
  }

  it('disjoint patterns: the union, node counts adding up', () => {
    const A = cooToCsr({
      rows: 64,
      cols: 64,
      rowIdx: new Uint32Array([0, 1, 2]),
      colIdx: new Uint32Array([0, 1, 2]),
      values: new Float32Array([1, 2, 3]),
    });
    const B = cooToCsr({
      rows: 64,
      cols: 64,
      rowIdx: new Uint32Array([60, 61]),
      colIdx: new Uint32Array([3, 40]),
      values: new Float32Array([4, 5]),
    });
    const C = hisparseAdd(hisparseFromCsr(A, { nodeSize: 4 }), hisparseFromCsr(B, { nodeSize: 4 }));
    expectSameCsr(hisparseToCsr(C), csrAdd(A, 1, B, 1), 'union');
    expect(hisparseStats(C).nnz).toBe(5);
  });

  it('cancellation leaves stored zeros in sparse leaves', () => {
    const A = randomCsrDyadic(30, 30, 50, 77);
    const H = hisparseFromCsr(A, { nodeSize: 8 });
    const Z = hisparseToCsr(hisparseAdd(H, scale(H, -1)));
    expect(Z.colIdx.length).toBe(A.colIdx.length);
    expect(Array.from(Z.values).every((v) => v === 0)).toBe(true);
  });
});
