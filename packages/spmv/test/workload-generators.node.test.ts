// The generators of HiSparse's addition workload (issue 51): the 27-point stencil, the random
// geometric graph in Morton order, the undirected R-MAT graph and the perturbed second operand.
// Each against what it promises: a valid CSR with sorted, unique columns, symmetry where the matrix
// is symmetric, nonzeros per row in the expected range, determinism by seed, and the arguments it
// rejects. CPU only (node project); sizes stay small.
import { ScanError } from '@scan/core';
import { describe, expect, it } from 'vitest';
import { addCsr } from '../src/cpu/add.js';
import { geometricGraphMatrix, perturbedMatrix, poisson2d, rmatGraphMatrix, stencil27 } from '../src/generators/index.js';
import type { CsrMatrix } from '../src/types.js';

/** Throws unless A is a CSR with rowPtr from 0 to nnz and strictly increasing columns below cols in every row. */
function checkCsr(A: CsrMatrix): void {
  expect(A.rowPtr.length).toBe(A.rows + 1);
  expect(A.rowPtr[0]).toBe(0);
  expect(A.rowPtr[A.rows]).toBe(A.colIdx.length);
  expect(A.values.length).toBe(A.colIdx.length);
  for (let r = 0; r < A.rows; r++) {
    for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) {
      if (A.colIdx[k]! >= A.cols) throw new Error(`row ${r}: column ${A.colIdx[k]} ≥ ${A.cols}`);
      if (k > A.rowPtr[r]! && A.colIdx[k]! <= A.colIdx[k - 1]!) throw new Error(`row ${r}: columns not strictly increasing at ${k}`);
    }
  }
}

function entries(A: CsrMatrix): Map<number, number> {
  const m = new Map<number, number>();
  for (let r = 0; r < A.rows; r++) for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) m.set(r * A.cols + A.colIdx[k]!, A.values[k]!);
  return m;
}

/** Whether A equals Aᵀ in pattern and values. */
function isSymmetric(A: CsrMatrix): boolean {
  const e = entries(A);
  for (const [key, v] of e) {
    const r = Math.floor(key / A.cols);
    const c = key % A.cols;
    if (e.get(c * A.cols + r) !== v) return false;
  }
  return true;
}

function same(A: CsrMatrix, B: CsrMatrix): boolean {
  const eq = (x: ArrayLike<number>, y: ArrayLike<number>) => x.length === y.length && Array.from(x).every((v, i) => Object.is(v, y[i]));
  return A.rows === B.rows && eq(A.rowPtr, B.rowPtr) && eq(A.colIdx, B.colIdx) && eq(A.values, B.values);
}

const rowLengths = (A: CsrMatrix) => Array.from({ length: A.rows }, (_, r) => A.rowPtr[r + 1]! - A.rowPtr[r]!);

describe('stencil27', () => {
  it('has (3n − 2)³ nonzeros, the 27 grid neighbours of each point and is symmetric', () => {
    for (const [nx, ny, nz] of [
      [1, 1, 1],
      [2, 1, 1],
      [4, 3, 2],
      [6, 6, 6],
    ] as const) {
      const A = stencil27(nx, ny, nz);
      checkCsr(A);
      expect(A.rows).toBe(nx * ny * nz);
      expect(A.colIdx.length).toBe((3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2));
      expect(isSymmetric(A)).toBe(true);
      // Brute force: (i, j) stored iff every coordinate differs by at most one.
      const e = entries(A);
      const at = (i: number) => [i % nx, Math.floor(i / nx) % ny, Math.floor(i / (nx * ny))];
      for (let i = 0; i < A.rows; i++) {
        for (let j = 0; j < A.rows; j++) {
          const near = at(i).every((v, d) => Math.abs(v - at(j)[d]!) <= 1);
          expect(e.get(i * A.cols + j)).toBe(near ? (i === j ? 26 : -1) : undefined);
        }
      }
    }
    const interior = rowLengths(stencil27(5));
    expect(Math.max(...interior)).toBe(27);
    expect(Math.min(...interior)).toBe(8);
  });

  it('rejects bad sizes', () => {
    expect(() => stencil27(0)).toThrow(/nx = 0/);
    expect(() => stencil27(2, 1.5)).toThrow(ScanError);
    expect(() => stencil27(1300)).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });
});

describe('geometricGraphMatrix', () => {
  it('is a symmetric Laplacian + I with ~nnzPerRow per row, in 2-D and 3-D', () => {
    for (const dims of [2, 3] as const) {
      const A = geometricGraphMatrix({ rows: 4096, dims, nnzPerRow: 12, seed: 5 });
      checkCsr(A);
      expect(isSymmetric(A)).toBe(true);
      const mean = A.colIdx.length / A.rows;
      // Boundary points have fewer neighbours: a little under 12 (more so in 3-D at this size).
      expect(mean).toBeGreaterThan(dims === 2 ? 10.5 : 9);
      expect(mean).toBeLessThanOrEqual(12.5);
      for (let r = 0; r < A.rows; r++) {
        let diagonal = Number.NaN;
        for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) {
          if (A.colIdx[k] === r) diagonal = A.values[k]!;
          else expect(A.values[k]).toBe(-1);
        }
        expect(diagonal).toBe(A.rowPtr[r + 1]! - A.rowPtr[r]!); // degree + 1
      }
    }
  });

  it('numbers the points along the Morton curve: most nonzeros lie near the diagonal', () => {
    const A = geometricGraphMatrix({ rows: 1 << 14, seed: 2 });
    let near = 0;
    for (let r = 0; r < A.rows; r++) for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) if (Math.abs(A.colIdx[k]! - r) < 256) near++;
    expect(near / A.colIdx.length).toBeGreaterThan(0.6);
  });

  it('is deterministic by seed and handles one point', () => {
    expect(same(geometricGraphMatrix({ rows: 1000, seed: 9 }), geometricGraphMatrix({ rows: 1000, seed: 9 }))).toBe(true);
    expect(same(geometricGraphMatrix({ rows: 1000, seed: 9 }), geometricGraphMatrix({ rows: 1000, seed: 10 }))).toBe(false);
    const one = geometricGraphMatrix({ rows: 1 });
    expect(Array.from(one.colIdx)).toEqual([0]);
    expect(Array.from(one.values)).toEqual([1]);
  });

  it('rejects bad options', () => {
    expect(() => geometricGraphMatrix({ rows: 10, dims: 4 as 2 })).toThrow(/options\.dims = 4/);
    expect(() => geometricGraphMatrix({ rows: 10, nnzPerRow: 0 })).toThrow(/options\.nnzPerRow = 0/);
    expect(() => geometricGraphMatrix({ rows: 0 })).toThrow(/options\.rows = 0/);
    expect(() => geometricGraphMatrix({ rows: 10, radius: 1 } as never)).toThrow(ScanError);
  });
});

describe('rmatGraphMatrix', () => {
  it('is symmetric with at most 2·edgeFactor nonzeros per vertex on average and hubs at low indices', () => {
    const rows = 1 << 12;
    const G = rmatGraphMatrix({ rows, seed: 4 });
    checkCsr(G);
    expect(isSymmetric(G)).toBe(true);
    expect(G.colIdx.length).toBeLessThanOrEqual(2 * 16 * rows);
    expect(G.colIdx.length).toBeGreaterThan(16 * rows); // merging removes far fewer than half
    const lengths = rowLengths(G);
    expect(lengths[0]).toBe(Math.max(...lengths));
    expect(lengths.filter((l) => l === 0).length).toBeGreaterThan(0); // isolated vertices
  });

  it('is deterministic by seed and rejects bad options', () => {
    expect(same(rmatGraphMatrix({ rows: 512, seed: 3 }), rmatGraphMatrix({ rows: 512, seed: 3 }))).toBe(true);
    expect(same(rmatGraphMatrix({ rows: 512, seed: 3 }), rmatGraphMatrix({ rows: 512, seed: 4 }))).toBe(false);
    expect(() => rmatGraphMatrix({ rows: 16, edgeFactor: 0 })).toThrow(/options\.edgeFactor = 0/);
    expect(() => rmatGraphMatrix({ rows: 2 ** 30 })).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });
});

describe('perturbedMatrix', () => {
  it('moves entries by ~σ, clamps to the matrix and sums what collides', () => {
    const A = poisson2d(64);
    const B = perturbedMatrix(A, { seed: 3 });
    checkCsr(B);
    expect(B.rows).toBe(A.rows);
    expect(B.cols).toBe(A.cols);
    expect(B.colIdx.length).toBeLessThanOrEqual(A.colIdx.length);
    expect(B.colIdx.length).toBeGreaterThan(0.9 * A.colIdx.length);
    // The values' sum is kept (collisions add; nothing is lost at the edges).
    const sum = (M: CsrMatrix) => M.values.reduce((s, v) => s + v, 0);
    expect(sum(B)).toBeCloseTo(sum(A), 3);
    // Rows move by N(0, 10²) rounded: the mean |Δrow| of a row index is about 10·√(2/π) ≈ 8.
    expect(isSymmetric(B)).toBe(false);
    expect(same(perturbedMatrix(A, { seed: 3 }), B)).toBe(true);
    expect(same(perturbedMatrix(A, { seed: 4 }), B)).toBe(false);
    // A 1×1 matrix keeps its entry; σ = 0 gives A back.
    const one = { rows: 1, cols: 1, rowPtr: new Uint32Array([0, 1]), colIdx: new Uint32Array([0]), values: new Float32Array([2]) };
    expect(Array.from(perturbedMatrix(one).values)).toEqual([2]);
    expect(same(perturbedMatrix(A, { sigma: 0 }), A)).toBe(true);
  });

  it('spreads entries with standard deviation σ in rows and columns', () => {
    // The diagonal of a large identity moves by (Δr, Δc): far from the edges they are the offsets.
    const n = 20000;
    const I = {
      rows: n,
      cols: n,
      rowPtr: Uint32Array.from({ length: n + 1 }, (_, i) => i),
      colIdx: Uint32Array.from({ length: n }, (_, i) => i),
      values: new Float32Array(n).fill(1),
    };
    const B = perturbedMatrix(I, { seed: 11 });
    let s2 = 0;
    let count = 0;
    for (let r = 100; r < n - 100; r++) {
      for (let k = B.rowPtr[r]!; k < B.rowPtr[r + 1]!; k++) {
        const d = B.colIdx[k]! - r; // Δc − Δr: variance 2σ² (+ rounding)
        s2 += d * d * B.values[k]!;
        count += B.values[k]!;
      }
    }
    expect(Math.sqrt(s2 / count / 2)).toBeGreaterThan(9.5);
    expect(Math.sqrt(s2 / count / 2)).toBeLessThan(10.6);
  });

  it('rejects bad arguments', () => {
    expect(() => perturbedMatrix(poisson2d(4), { sigma: -1 })).toThrow(/options\.sigma = -1/);
    expect(() => perturbedMatrix(poisson2d(4), { seed: -1 })).toThrow(/options\.seed = -1/);
    expect(() => perturbedMatrix({ rows: 1 } as CsrMatrix)).toThrow(ScanError);
  });
});

describe('addCsr', () => {
  it('merges sorted rows and falls back to sorting otherwise, with the same result', () => {
    const A = poisson2d(16);
    const B = perturbedMatrix(A, { seed: 1 });
    const C = addCsr(A, B);
    checkCsr(C);
    const want = entries(A);
    for (const [key, v] of entries(B)) want.set(key, Math.fround((want.get(key) ?? 0) + v));
    expect(new Map(entries(C))).toEqual(want);
    // Unsorted rows: the same sum through cooToCsr.
    const U = { ...A, colIdx: A.colIdx.slice(), values: A.values.slice() };
    for (let r = 0; r < U.rows; r++) {
      const s = U.rowPtr[r]!;
      const e = U.rowPtr[r + 1]! - 1;
      [U.colIdx[s], U.colIdx[e]] = [U.colIdx[e]!, U.colIdx[s]!];
      [U.values[s], U.values[e]] = [U.values[e]!, U.values[s]!];
    }
    expect(same(addCsr(U, B), C)).toBe(true);
    expect(() => addCsr(A, poisson2d(4))).toThrow(/B: 16×16/);
  });
});
