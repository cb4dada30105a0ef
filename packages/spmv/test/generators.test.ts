// The matrix generators against what each one promises: a valid CSR (checked here by a small
// structural checker of our own, independent of the package's validator), the exact nnz of the
// structured families (biased 2n − 1, Poisson 5·nx·ny − 2·nx − 2·ny and its 3-D analogue, banded),
// the stencils entry by entry against a brute-force construction, the distributions roughly (R-MAT
// skew and quadrant split, geometric row lengths, empty-row counts), determinism per seed, the edge
// sizes 1 and 2, and INVALID_ARGUMENT / TOO_LARGE for bad arguments. CPU only; sizes stay small.
import { ScanError } from '@scan/core';
import { describe, expect, it } from 'vitest';
import {
  bandedMatrix,
  biasedMatrix,
  emptyRowsMatrix,
  poisson2d,
  poisson3d,
  powerLawMatrix,
  randomCsr,
  uniformRandomMatrix,
} from '../src/generators/index.js';
import type { CsrMatrix } from '../src/types.js';

// ——— helpers ———

/**
 * Throws unless `A` is a CSR matrix with sorted, unique columns in every row: typed arrays of the
 * right types and lengths, rowPtr from 0, never decreasing, ending at nnz, columns below `cols`,
 * values not NaN. The message names the first fault, so a failure says what broke.
 */
function checkCsr(A: CsrMatrix): void {
  const fail = (why: string): never => {
    throw new Error(`invalid CSR (${A.rows}×${A.cols}): ${why}`);
  };
  if (!Number.isSafeInteger(A.rows) || A.rows < 0) fail(`rows = ${A.rows}`);
  if (!Number.isSafeInteger(A.cols) || A.cols < 0) fail(`cols = ${A.cols}`);
  if (!(A.rowPtr instanceof Uint32Array)) fail('rowPtr is not a Uint32Array');
  if (!(A.colIdx instanceof Uint32Array)) fail('colIdx is not a Uint32Array');
  if (!(A.values instanceof Float32Array)) fail('values is not a Float32Array');
  if (A.rowPtr.length !== A.rows + 1) fail(`rowPtr.length = ${A.rowPtr.length}, expected ${A.rows + 1}`);
  const nnz = A.colIdx.length;
  if (A.values.length !== nnz) fail(`values.length = ${A.values.length} ≠ colIdx.length = ${nnz}`);
  if (A.colIdx.buffer.byteLength !== nnz * 4 || A.values.buffer.byteLength !== nnz * 4) fail('arrays are views of larger buffers');
  if (A.rowPtr[0] !== 0) fail(`rowPtr[0] = ${A.rowPtr[0]}`);
  if (A.rowPtr[A.rows] !== nnz) fail(`rowPtr[rows] = ${A.rowPtr[A.rows]} ≠ nnz = ${nnz}`);
  for (let r = 0; r < A.rows; r++) {
    const start = A.rowPtr[r]!;
    const end = A.rowPtr[r + 1]!;
    if (end < start) fail(`rowPtr decreases at row ${r}: ${start} → ${end}`);
    for (let k = start; k < end; k++) {
      const c = A.colIdx[k]!;
      if (c >= A.cols) fail(`colIdx[${k}] = ${c} in row ${r} is not below cols = ${A.cols}`);
      if (k > start && c <= A.colIdx[k - 1]!) fail(`row ${r}: columns not strictly increasing at k = ${k} (${A.colIdx[k - 1]}, ${c})`);
      if (Number.isNaN(A.values[k]!)) fail(`values[${k}] is NaN`);
    }
  }
}

const rowLength = (A: CsrMatrix, r: number): number => A.rowPtr[r + 1]! - A.rowPtr[r]!;

function rowLengths(A: CsrMatrix): number[] {
  return Array.from({ length: A.rows }, (_, r) => rowLength(A, r));
}

/** The entries of A as a map "row,col" → value. */
function entries(A: CsrMatrix): Map<string, number> {
  const map = new Map<string, number>();
  for (let r = 0; r < A.rows; r++) for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) map.set(`${r},${A.colIdx[k]}`, A.values[k]!);
  return map;
}

function sameMatrix(A: CsrMatrix, B: CsrMatrix): boolean {
  const same = (x: ArrayLike<number>, y: ArrayLike<number>): boolean =>
    x.length === y.length && Array.from(x).every((v, i) => Object.is(v, y[i]));
  return A.rows === B.rows && A.cols === B.cols && same(A.rowPtr, B.rowPtr) && same(A.colIdx, B.colIdx) && same(A.values, B.values);
}

function expectValuesInUnitRange(A: CsrMatrix): void {
  for (const v of A.values) {
    if (!(v >= -1 && v < 1 && v !== 0)) throw new Error(`value ${v} outside [−1, 1) \\ {0}`);
  }
}

function expectCode(f: () => unknown, code: ScanError['code'], argument?: string): void {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a ScanError ${code}`).toBeInstanceOf(ScanError);
  const error = caught as ScanError;
  expect(error.code, error.message).toBe(code);
  if (argument !== undefined) expect(error.argument, error.message).toBe(argument);
}

/** Every seeded generator, as a function of the seed, at a small size. */
const SEEDED: readonly [string, (seed: number) => CsrMatrix][] = [
  ['biasedMatrix', (seed) => biasedMatrix(300, { seed })],
  ['powerLawMatrix', (seed) => powerLawMatrix({ rows: 512, cols: 300, nnzPerRow: 6, seed })],
  ['uniformRandomMatrix', (seed) => uniformRandomMatrix({ rows: 300, cols: 200, nnzPerRow: 7, seed })],
  ['bandedMatrix', (seed) => bandedMatrix({ n: 300, lower: 2, upper: 5, seed })],
  ['emptyRowsMatrix', (seed) => emptyRowsMatrix({ rows: 300, emptyFraction: 0.3, seed })],
  ['randomCsr', (seed) => randomCsr({ rows: 300, cols: 250, meanRowLength: 5, seed })],
];

// ——— tests ———

describe('biasedMatrix', () => {
  it('is mat1K for n = 1000: row 0 full, the other rows their diagonal, nnz 1999', () => {
    const A = biasedMatrix(1000, { seed: 7 });
    checkCsr(A);
    expect([A.rows, A.cols, A.colIdx.length]).toEqual([1000, 1000, 1999]);
    expect(rowLength(A, 0)).toBe(1000);
    for (let r = 1; r < 1000; r++) {
      expect(rowLength(A, r)).toBe(1);
      expect(A.colIdx[A.rowPtr[r]!]).toBe(r);
    }
    expectValuesInUnitRange(A); // so the diagonal is nonzero
  });

  it.each([1, 2, 3, 4096])('has nnz = 2n − 1 for n = %i', (n) => {
    const A = biasedMatrix(n);
    checkCsr(A);
    expect(A.colIdx.length).toBe(2 * n - 1);
    expect(rowLength(A, 0)).toBe(n);
  });
});

describe('poisson2d', () => {
  /** The 5-point Laplacian entry by entry, from the grid. */
  function reference2d(nx: number, ny: number): Map<string, number> {
    const map = new Map<string, number>();
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const i = y * nx + x;
        map.set(`${i},${i}`, 4);
        for (const [dx, dy] of [
          [-1, 0],
          [1, 0],
          [0, -1],
          [0, 1],
        ] as const) {
          const u = x + dx;
          const v = y + dy;
          if (u >= 0 && u < nx && v >= 0 && v < ny) map.set(`${i},${v * nx + u}`, -1);
        }
      }
    }
    return map;
  }

  it.each([
    [1, 1],
    [2, 2],
    [1, 5],
    [5, 1],
    [3, 4],
    [7, 7],
  ])('matches the stencil on a %i×%i grid', (nx, ny) => {
    const A = poisson2d(nx, ny);
    checkCsr(A);
    expect([A.rows, A.cols]).toEqual([nx * ny, nx * ny]);
    expect(entries(A)).toEqual(reference2d(nx, ny));
    expect(A.colIdx.length).toBe(5 * nx * ny - 2 * nx - 2 * ny);
  });

  it('has 5n² − 4n nonzeros on a square grid, and ny defaults to nx', () => {
    for (const n of [1, 2, 10, 64]) {
      const A = poisson2d(n);
      checkCsr(A);
      expect(A.rows).toBe(n * n);
      expect(A.colIdx.length).toBe(5 * n * n - 4 * n);
    }
  });
});

describe('poisson3d', () => {
  function reference3d(nx: number, ny: number, nz: number): Map<string, number> {
    const map = new Map<string, number>();
    const id = (x: number, y: number, z: number): number => (z * ny + y) * nx + x;
    for (let z = 0; z < nz; z++) {
      for (let y = 0; y < ny; y++) {
        for (let x = 0; x < nx; x++) {
          const i = id(x, y, z);
          map.set(`${i},${i}`, 6);
          for (const [dx, dy, dz] of [
            [-1, 0, 0],
            [1, 0, 0],
            [0, -1, 0],
            [0, 1, 0],
            [0, 0, -1],
            [0, 0, 1],
          ] as const) {
            const [u, v, w] = [x + dx, y + dy, z + dz];
            if (u >= 0 && u < nx && v >= 0 && v < ny && w >= 0 && w < nz) map.set(`${i},${id(u, v, w)}`, -1);
          }
        }
      }
    }
    return map;
  }

  it.each([
    [1, 1, 1],
    [2, 2, 2],
    [4, 3, 2],
    [1, 1, 6],
    [2, 5, 1],
    [5, 5, 5],
  ])('matches the stencil on a %i×%i×%i grid', (nx, ny, nz) => {
    const A = poisson3d(nx, ny, nz);
    checkCsr(A);
    const n = nx * ny * nz;
    expect([A.rows, A.cols]).toEqual([n, n]);
    expect(entries(A)).toEqual(reference3d(nx, ny, nz));
    expect(A.colIdx.length).toBe(7 * n - 2 * (ny * nz + nx * nz + nx * ny));
  });

  it('has 7n³ − 6n² nonzeros on a cube, and ny, nz default to nx', () => {
    for (const n of [1, 2, 16]) {
      const A = poisson3d(n);
      checkCsr(A);
      expect(A.rows).toBe(n ** 3);
      expect(A.colIdx.length).toBe(7 * n ** 3 - 6 * n ** 2);
    }
  });
});

describe('bandedMatrix', () => {
  it.each([
    [1, 4, 4],
    [2, 1, 1],
    [10, 0, 0],
    [10, 3, 0],
    [10, 0, 3],
    [50, 4, 4],
    [6, 9, 2], // lower past n − 1: clipped
  ])('n = %i, lower = %i, upper = %i: the full clipped band, diagonally dominant', (n, lower, upper) => {
    const A = bandedMatrix({ n, lower, upper, seed: 3 });
    checkCsr(A);
    let expectedNnz = 0;
    for (let r = 0; r < n; r++) {
      const first = Math.max(0, r - lower);
      const last = Math.min(n - 1, r + upper);
      expectedNnz += last - first + 1;
      expect(Array.from(A.colIdx.subarray(A.rowPtr[r]!, A.rowPtr[r + 1]!))).toEqual(
        Array.from({ length: last - first + 1 }, (_, i) => first + i),
      );
      let diagonal = 0;
      let off = 0;
      for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) {
        if (A.colIdx[k] === r) diagonal = A.values[k]!;
        else off += Math.abs(A.values[k]!);
      }
      expect(diagonal).toBeGreaterThan(off);
    }
    expect(A.colIdx.length).toBe(expectedNnz);
  });

  it('defaults to 4 diagonals each side: 9n − 20 nonzeros', () => {
    const A = bandedMatrix({ n: 100 });
    checkCsr(A);
    expect(A.colIdx.length).toBe(9 * 100 - 20);
  });
});

describe('uniformRandomMatrix', () => {
  it('puts exactly nnzPerRow distinct columns in every row', () => {
    const A = uniformRandomMatrix({ rows: 2000, cols: 500, nnzPerRow: 9, seed: 1 });
    checkCsr(A);
    expect(rowLengths(A).every((l) => l === 9)).toBe(true);
    expectValuesInUnitRange(A);
    // Columns cover the whole range roughly evenly (18000 draws over 500 columns, 36 expected each).
    const hits = new Uint32Array(500);
    for (const c of A.colIdx) hits[c]!++;
    expect(Math.min(...hits)).toBeGreaterThan(10);
    expect(Math.max(...hits)).toBeLessThan(70);
  });

  it('fills rows completely when nnzPerRow ≥ cols, and uses nearly full rows correctly', () => {
    const full = uniformRandomMatrix({ rows: 5, cols: 3, nnzPerRow: 8 });
    checkCsr(full);
    expect(Array.from(full.colIdx)).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
    const dense = uniformRandomMatrix({ rows: 50, cols: 40, nnzPerRow: 37, seed: 2 }); // the complement path
    checkCsr(dense);
    expect(rowLengths(dense).every((l) => l === 37)).toBe(true);
    const long = uniformRandomMatrix({ rows: 4, cols: 100_000, nnzPerRow: 500, seed: 3 }); // the Set path
    checkCsr(long);
    expect(long.colIdx.length).toBe(2000);
  });

  it.each([1, 2])('handles %i row(s) and column(s)', (n) => {
    const A = uniformRandomMatrix({ rows: n, cols: n, nnzPerRow: 1 });
    checkCsr(A);
    expect(A.colIdx.length).toBe(n);
  });
});

describe('emptyRowsMatrix', () => {
  it('empties round(emptyFraction·rows) rows and fills the rest with nnzPerRow columns', () => {
    const A = emptyRowsMatrix({ rows: 1000, cols: 300, emptyFraction: 0.37, nnzPerRow: 5, seed: 4 });
    checkCsr(A);
    const lengths = rowLengths(A);
    expect(lengths.filter((l) => l === 0).length).toBe(370);
    expect(lengths.every((l) => l === 0 || l === 5)).toBe(true);
    expectValuesInUnitRange(A);
    // The empty rows are spread out, not a block at the start or end.
    expect(lengths.slice(0, 500).filter((l) => l === 0).length).toBeGreaterThan(120);
    expect(lengths.slice(500).filter((l) => l === 0).length).toBeGreaterThan(120);
  });

  it('keeps exactly one non-empty row for emptyFraction 1, and none empty for 0', () => {
    const one = emptyRowsMatrix({ rows: 500, emptyFraction: 1, seed: 5 });
    checkCsr(one);
    expect(rowLengths(one).filter((l) => l > 0)).toEqual([4]);
    const none = emptyRowsMatrix({ rows: 500, emptyFraction: 0, seed: 5 });
    checkCsr(none);
    expect(rowLengths(none).every((l) => l === 4)).toBe(true);
  });

  it.each([1, 2])('handles %i row(s)', (rows) => {
    const A = emptyRowsMatrix({ rows, emptyFraction: 1 });
    checkCsr(A);
    expect(rowLengths(A).filter((l) => l > 0).length).toBe(1);
  });
});

describe('randomCsr', () => {
  it('draws geometric row lengths of the requested mean, with empty and long rows', () => {
    const A = randomCsr({ rows: 20_000, cols: 10_000, meanRowLength: 6, seed: 6 });
    checkCsr(A);
    expectValuesInUnitRange(A);
    const lengths = rowLengths(A);
    const mean = A.colIdx.length / A.rows;
    expect(mean).toBeGreaterThan(5.7);
    expect(mean).toBeLessThan(6.3);
    // P(empty) = 1/7 for mean 6; the longest of 20000 rows is far above the mean.
    const empty = lengths.filter((l) => l === 0).length / A.rows;
    expect(empty).toBeGreaterThan(0.12);
    expect(empty).toBeLessThan(0.17);
    expect(Math.max(...lengths)).toBeGreaterThan(40);
  });

  it('clips to maxRowLength and cols', () => {
    const capped = randomCsr({ rows: 2000, cols: 1000, meanRowLength: 50, maxRowLength: 20, seed: 7 });
    checkCsr(capped);
    expect(Math.max(...rowLengths(capped))).toBe(20);
    const narrow = randomCsr({ rows: 500, cols: 3, meanRowLength: 10, seed: 8 });
    checkCsr(narrow);
    expect(Math.max(...rowLengths(narrow))).toBe(3);
    const huge = randomCsr({ rows: 5, cols: 7, meanRowLength: 1e300 }); // ln(1 − p) rounds to 0: full rows
    checkCsr(huge);
    expect(huge.colIdx.length).toBe(35);
  });

  it('accepts 0 rows, 0 columns and a mean of 0', () => {
    const none = randomCsr({ rows: 0, cols: 0, meanRowLength: 3 });
    checkCsr(none);
    expect(Array.from(none.rowPtr)).toEqual([0]);
    const noCols = randomCsr({ rows: 4, cols: 0, meanRowLength: 3 });
    checkCsr(noCols);
    expect(noCols.colIdx.length).toBe(0);
    const zeroMean = randomCsr({ rows: 4, cols: 4, meanRowLength: 0 });
    checkCsr(zeroMean);
    expect(zeroMean.colIdx.length).toBe(0);
    for (const n of [1, 2]) checkCsr(randomCsr({ rows: n, cols: n, meanRowLength: 2, seed: n }));
  });
});

describe('powerLawMatrix', () => {
  it('is skewed: on 2^14 rows the longest row is far above the mean, and many rows are empty', () => {
    const A = powerLawMatrix({ rows: 1 << 14, seed: 11 });
    checkCsr(A);
    const lengths = rowLengths(A);
    const mean = A.colIdx.length / A.rows;
    expect(A.colIdx.length).toBeLessThanOrEqual(16 << 14);
    expect(A.colIdx.length).toBeGreaterThan(12 << 14); // duplicates (~13% at this size) are merged, not most edges
    expect(Math.max(...lengths)).toBeGreaterThan(20 * mean);
    expect(lengths.filter((l) => l === 0).length).toBeGreaterThan(A.rows / 10);
  });

  it('splits edges between the halves as a + b : c + d', () => {
    // Columns 2^16 wide and 2 edges per row keep duplicates rare, so nnz ≈ edges per half.
    const A = powerLawMatrix({ rows: 1 << 12, cols: 1 << 16, nnzPerRow: 2, seed: 12, a: 0.45, b: 0.25, c: 0.2 });
    checkCsr(A);
    const top = A.rowPtr[1 << 11]! / A.colIdx.length;
    expect(top).toBeGreaterThan(0.66);
    expect(top).toBeLessThan(0.74);
    // Left half: the top column bit is drawn at a column-only level (rows have 4 bits fewer), where
    // P(bit 0) = a / (a + b) ≈ 0.64.
    let left = 0;
    for (const c of A.colIdx) if (c < 1 << 15) left++;
    expect(left / A.colIdx.length).toBeGreaterThan(0.61);
    expect(left / A.colIdx.length).toBeLessThan(0.69);
  });

  it('draws the column given the row: P(right half | top) = b / (a + b), P(right half | bottom) = d / (c + d)', () => {
    const A = powerLawMatrix({ rows: 1 << 13, nnzPerRow: 4, seed: 15, a: 0.3, b: 0.4, c: 0.25 }); // d = 0.05
    checkCsr(A);
    const half = 1 << 12;
    const split = A.rowPtr[half]!;
    let topRight = 0;
    let bottomRight = 0;
    for (let k = 0; k < A.colIdx.length; k++) if (A.colIdx[k]! >= half) k < split ? topRight++ : bottomRight++;
    expect(topRight / split).toBeGreaterThan(0.53); // 4/7 ≈ 0.571
    expect(topRight / split).toBeLessThan(0.61);
    expect(bottomRight / (A.colIdx.length - split)).toBeGreaterThan(0.13); // 1/6 ≈ 0.167
    expect(bottomRight / (A.colIdx.length - split)).toBeLessThan(0.2);
  });

  it('merges duplicate edges (summing values) into sorted unique columns', () => {
    const A = powerLawMatrix({ rows: 2, cols: 2, nnzPerRow: 16, seed: 13 });
    checkCsr(A);
    expect(A.colIdx.length).toBeLessThanOrEqual(4);
    // 32 edges in ≤ 4 entries: some entry sums several uniforms, so some |value| may pass 1.
    expect(A.values.some((v) => Math.abs(v) > 0)).toBe(true);
  });

  it.each([
    [1, 1],
    [1, 2],
    [2, 1],
    [2, 2],
    [3, 5],
    [1000, 37],
    [37, 1000],
    [1025, 1025],
  ])('gives a valid %i×%i matrix', (rows, cols) => {
    const A = powerLawMatrix({ rows, cols, nnzPerRow: 4, seed: rows + cols });
    checkCsr(A);
    expect([A.rows, A.cols]).toEqual([rows, cols]);
    expect(A.colIdx.length).toBeGreaterThan(0);
    expect(A.colIdx.length).toBeLessThanOrEqual(Math.min(rows * 4, rows * cols));
  });

  it('uses every row and column of a non-power-of-two shape', () => {
    const A = powerLawMatrix({ rows: 5, cols: 3, nnzPerRow: 64, seed: 14, a: 0.25, b: 0.25, c: 0.25 });
    checkCsr(A);
    expect(A.colIdx.length).toBe(15); // uniform quadrants: all 15 entries are hit with 320 edges
  });
});

describe('determinism', () => {
  it.each(SEEDED)('%s: the same seed gives the same matrix, another seed another', (_, make) => {
    const A = make(5);
    checkCsr(A);
    expect(sameMatrix(A, make(5))).toBe(true);
    expect(sameMatrix(A, make(6))).toBe(false);
  });

  it('the unseeded generators are fixed', () => {
    expect(sameMatrix(poisson2d(9, 4), poisson2d(9, 4))).toBe(true);
    expect(sameMatrix(poisson3d(4, 3, 5), poisson3d(4, 3, 5))).toBe(true);
    expect(sameMatrix(biasedMatrix(50), biasedMatrix(50, { seed: 1 }))).toBe(true); // seed defaults to 1
  });
});

describe('arguments', () => {
  it.each<[string, () => unknown, string]>([
    ['biased n = 0', () => biasedMatrix(0), 'n'],
    ['biased n = 1.5', () => biasedMatrix(1.5), 'n'],
    ['biased n = NaN', () => biasedMatrix(Number.NaN), 'n'],
    ['biased n = "4"', () => biasedMatrix('4' as unknown as number), 'n'],
    ['biased seed = −1', () => biasedMatrix(4, { seed: -1 }), 'options.seed'],
    ['biased seed = 2^32', () => biasedMatrix(4, { seed: 2 ** 32 }), 'options.seed'],
    ['biased unknown option', () => biasedMatrix(4, { sed: 1 } as never), 'options.sed'],
    ['poisson2d nx = 0', () => poisson2d(0), 'nx'],
    ['poisson2d ny = −2', () => poisson2d(3, -2), 'ny'],
    ['poisson3d nz = 1.5', () => poisson3d(2, 2, 1.5), 'nz'],
    ['power law without options', () => powerLawMatrix(undefined as never), 'options.rows'],
    ['power law rows = 0', () => powerLawMatrix({ rows: 0 }), 'options.rows'],
    ['power law cols = 0', () => powerLawMatrix({ rows: 4, cols: 0 }), 'options.cols'],
    ['power law nnzPerRow = 0', () => powerLawMatrix({ rows: 4, nnzPerRow: 0 }), 'options.nnzPerRow'],
    ['power law a = −0.1', () => powerLawMatrix({ rows: 4, a: -0.1 }), 'options.a'],
    ['power law b = NaN', () => powerLawMatrix({ rows: 4, b: Number.NaN }), 'options.b'],
    ['power law a + b + c > 1', () => powerLawMatrix({ rows: 4, a: 0.6, b: 0.3, c: 0.3 }), 'options.c'],
    ['power law d = 1 on 3 rows', () => powerLawMatrix({ rows: 3, a: 0, b: 0, c: 0 }), 'options'],
    ['power law a + c = 0 with cols < rows', () => powerLawMatrix({ rows: 4, cols: 2, a: 0, b: 0.5, c: 0 }), 'options.a'],
    ['uniform nnzPerRow = 0', () => uniformRandomMatrix({ rows: 4, nnzPerRow: 0 }), 'options.nnzPerRow'],
    ['uniform rows = −1', () => uniformRandomMatrix({ rows: -1 }), 'options.rows'],
    ['banded n = 0', () => bandedMatrix({ n: 0 }), 'options.n'],
    ['banded lower = −1', () => bandedMatrix({ n: 4, lower: -1 }), 'options.lower'],
    ['banded upper = 0.5', () => bandedMatrix({ n: 4, upper: 0.5 }), 'options.upper'],
    ['empty rows emptyFraction = 1.5', () => emptyRowsMatrix({ rows: 4, emptyFraction: 1.5 }), 'options.emptyFraction'],
    ['empty rows emptyFraction = NaN', () => emptyRowsMatrix({ rows: 4, emptyFraction: Number.NaN }), 'options.emptyFraction'],
    ['randomCsr rows = −1', () => randomCsr({ rows: -1, cols: 3, meanRowLength: 1 }), 'options.rows'],
    ['randomCsr without cols', () => randomCsr({ rows: 3, meanRowLength: 1 } as never), 'options.cols'],
    ['randomCsr mean = −1', () => randomCsr({ rows: 3, cols: 3, meanRowLength: -1 }), 'options.meanRowLength'],
    ['randomCsr mean = Infinity', () => randomCsr({ rows: 3, cols: 3, meanRowLength: Number.POSITIVE_INFINITY }), 'options.meanRowLength'],
    ['randomCsr maxRowLength = 1.5', () => randomCsr({ rows: 3, cols: 3, meanRowLength: 1, maxRowLength: 1.5 }), 'options.maxRowLength'],
  ])('%s: INVALID_ARGUMENT', (_, f, argument) => {
    expectCode(f, 'INVALID_ARGUMENT', argument);
  });

  it('names the argument and the value in the message', () => {
    expect(() => biasedMatrix(-3)).toThrow('n = -3: expected a positive integer');
  });

  it.each<[string, () => unknown]>([
    ['biased n = 2^30 + 1', () => biasedMatrix(2 ** 30 + 1)],
    ['poisson2d 50000²', () => poisson2d(50_000)],
    ['poisson3d 2000³', () => poisson3d(2000)],
    ['power law 2^27 × 16', () => powerLawMatrix({ rows: 2 ** 27 })],
    ['uniform 2^31 − 1 rows × 2', () => uniformRandomMatrix({ rows: 2 ** 31 - 1, nnzPerRow: 2 })],
    ['uniform 2^31 rows', () => uniformRandomMatrix({ rows: 2 ** 31, nnzPerRow: 1 })],
    ['uniform 2^32 + 1 columns', () => uniformRandomMatrix({ rows: 1, cols: 2 ** 32 + 1 })],
    ['banded 2^29 × 9', () => bandedMatrix({ n: 2 ** 29 })],
    ['empty rows 2^30 × 4, none empty', () => emptyRowsMatrix({ rows: 2 ** 30, emptyFraction: 0 })],
    ['randomCsr rows of 2^20 columns', () => randomCsr({ rows: 4096, cols: 2 ** 20, meanRowLength: 1e9 })],
  ])('%s: TOO_LARGE before allocating', (_, f) => {
    expectCode(f, 'TOO_LARGE');
  });
});
