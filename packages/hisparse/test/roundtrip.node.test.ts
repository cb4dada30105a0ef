// CSR → HiSparse → CSR on every generator of @scan/spmv and on edge shapes, at several node sizes:
// the result must be cooToCsr of the input, bit for bit (the generators store no zeros). Also:
// COO input, determinism and canonical layout (compaction reproduces a fresh build word for word).
import {
  bandedMatrix,
  biasedMatrix,
  emptyRowsMatrix,
  poisson2d,
  poisson3d,
  powerLawMatrix,
  randomCsr,
  uniformRandomMatrix,
} from '@scan/spmv';
import { type CsrMatrix, cooToCsr, csrToCoo } from '@scan/spmv/cpu';
import { describe, expect, it } from 'vitest';
import { hisparseCompact, hisparseFromCoo, hisparseFromCsr, hisparseMemoryBytes, hisparseStats, hisparseToCsr } from '../src/cpu/index.js';
import { NODE_TYPE } from '../src/kit/index.js';
import { expectSameCsr, randomCoo, randomCsrDyadic } from './oracle.js';

const NODE_SIZES = [4, 8, 32, 256] as const;

const GENERATED: readonly [string, () => CsrMatrix][] = [
  ['poisson2d(9)', () => poisson2d(9)],
  ['poisson3d(4)', () => poisson3d(4)],
  ['biased(70)', () => biasedMatrix(70, { seed: 3 })],
  ['powerLaw 128', () => powerLawMatrix({ rows: 128, nnzPerRow: 4, seed: 5 })],
  ['randomCsr 37×53', () => randomCsr({ rows: 37, cols: 53, meanRowLength: 5, seed: 7 })],
  ['uniform 40×70', () => uniformRandomMatrix({ rows: 40, cols: 70, nnzPerRow: 6, seed: 9 })],
  ['banded 45', () => bandedMatrix({ n: 45, lower: 3, upper: 5, seed: 11 })],
  ['emptyRows 60×33', () => emptyRowsMatrix({ rows: 60, cols: 33, nnzPerRow: 5, seed: 13 })],
];

function full(rows: number, cols: number): CsrMatrix {
  const rowPtr = Uint32Array.from({ length: rows + 1 }, (_, r) => r * cols);
  const colIdx = Uint32Array.from({ length: rows * cols }, (_, k) => k % cols);
  const values = Float32Array.from({ length: rows * cols }, (_, k) => (k % 13) + 1);
  return { rows, cols, rowPtr, colIdx, values };
}

function oneFullRow(rows: number, cols: number, row: number): CsrMatrix {
  const rowPtr = Uint32Array.from({ length: rows + 1 }, (_, r) => (r > row ? cols : 0));
  return { rows, cols, rowPtr, colIdx: Uint32Array.from({ length: cols }, (_, c) => c), values: new Float32Array(cols).fill(-2.5) };
}

const EDGES: readonly [string, () => CsrMatrix][] = [
  ['0×0', () => ({ rows: 0, cols: 0, rowPtr: new Uint32Array(1), colIdx: new Uint32Array(0), values: new Float32Array(0) })],
  ['0×5', () => ({ rows: 0, cols: 5, rowPtr: new Uint32Array(1), colIdx: new Uint32Array(0), values: new Float32Array(0) })],
  ['7×0', () => ({ rows: 7, cols: 0, rowPtr: new Uint32Array(8), colIdx: new Uint32Array(0), values: new Float32Array(0) })],
  [
    '9×11 without entries',
    () => ({ rows: 9, cols: 11, rowPtr: new Uint32Array(10), colIdx: new Uint32Array(0), values: new Float32Array(0) }),
  ],
  ['1×1', () => ({ rows: 1, cols: 1, rowPtr: new Uint32Array([0, 1]), colIdx: new Uint32Array([0]), values: new Float32Array([7]) })],
  ['dense 20×20', () => full(20, 20)],
  ['dense 3×70', () => full(3, 70)],
  ['one full row 50×300', () => oneFullRow(50, 300, 17)],
  ['random 1×300', () => randomCsrDyadic(1, 300, 40, 21)],
  ['random 300×1', () => randomCsrDyadic(300, 1, 40, 22)],
  ['random 257×100', () => randomCsrDyadic(257, 100, 900, 23)],
  ['random 33×65 (sizes not multiples of d)', () => randomCsrDyadic(33, 65, 400, 24)],
  [
    'far corner 5000×3000',
    () =>
      cooToCsr({
        rows: 5000,
        cols: 3000,
        rowIdx: new Uint32Array([4999, 0]),
        colIdx: new Uint32Array([2999, 0]),
        values: new Float32Array([1, 2]),
      }),
  ],
];

describe('CSR → HiSparse → CSR', () => {
  for (const [name, make] of [...GENERATED, ...EDGES]) {
    it(name, () => {
      const A = make();
      const expected = cooToCsr(csrToCoo(A));
      for (const d of NODE_SIZES) {
        const H = hisparseFromCsr(A, { nodeSize: d });
        expect([H.rows, H.cols, H.nodeSize]).toEqual([A.rows, A.cols, d]);
        expectSameCsr(hisparseToCsr(H), expected, `${name}, d = ${d}`);
        expect(hisparseStats(H).nnz, `${name}, d = ${d}: nnz`).toBe(expected.colIdx.length);
        expect(hisparseMemoryBytes(H), `${name}, d = ${d}: a fresh pool is all the matrix`).toBe(4 * H.pool.used);
      }
    });
  }

  it('uses dense leaves where they are smaller, and they round-trip', () => {
    const H = hisparseFromCsr(full(20, 20), { nodeSize: 4 });
    expect(hisparseStats(H).leafNodes.dense).toBe(25);
    // Three levels (4³ = 64 ≥ 20): the root has 4 children (COO4); of the level-1 nodes only the
    // full 16×16 block has all 16 children (dense), the others 4, 4 and 1.
    expect(hisparseStats(H).innerNodes).toEqual({ dense: 1, coo1: 1, coo2: 0, coo4: 3 });
  });

  it('unsorted columns and duplicates are made canonical first', () => {
    const A: CsrMatrix = {
      rows: 2,
      cols: 4,
      rowPtr: new Uint32Array([0, 3, 4]),
      colIdx: new Uint32Array([3, 0, 3, 1]),
      values: new Float32Array([1, 2, 4, 8]),
    };
    expectSameCsr(hisparseToCsr(hisparseFromCsr(A, { nodeSize: 4 })), cooToCsr(csrToCoo(A)), 'duplicates');
    expect(hisparseToCsr(hisparseFromCsr(A, { nodeSize: 4 })).values[1]).toBe(5); // (0, 3): 1 + 4
  });

  it('explicit zeros survive in sparse leaves', () => {
    const A = cooToCsr({
      rows: 6,
      cols: 6,
      rowIdx: new Uint32Array([0, 5]),
      colIdx: new Uint32Array([1, 5]),
      values: new Float32Array([0, -0]),
    });
    expectSameCsr(hisparseToCsr(hisparseFromCsr(A, { nodeSize: 4 })), A, 'zeros');
  });

  it('COO input equals CSR input, word for word', () => {
    const coo = randomCoo(90, 70, 600, 31);
    for (const d of NODE_SIZES) {
      const a = hisparseFromCoo(coo, { nodeSize: d });
      const b = hisparseFromCsr(cooToCsr(coo), { nodeSize: d });
      expect(Array.from(a.pool.view())).toEqual(Array.from(b.pool.view()));
      expect(a.root).toBe(b.root);
    }
  });

  it('is deterministic and canonical: the build of a shuffled input, and compaction, give the same words', () => {
    const coo = randomCoo(120, 130, 1500, 41);
    const n = coo.values.length;
    const perm = Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const shuffled = {
      ...coo,
      rowIdx: Uint32Array.from(perm, (p) => coo.rowIdx[p]!),
      colIdx: Uint32Array.from(perm, (p) => coo.colIdx[p]!),
      values: Float32Array.from(perm, (p) => coo.values[p]!),
    };
    const H = hisparseFromCoo(coo, { nodeSize: 8 });
    // Summing duplicates in another order could round differently: the values are dyadic, so it does not.
    expect(Array.from(hisparseFromCoo(shuffled, { nodeSize: 8 }).pool.view())).toEqual(Array.from(H.pool.view()));
    expect(Array.from(hisparseCompact(H).pool.view())).toEqual(Array.from(H.pool.view()));
  });

  it('child pointers carry the node type in their low bits and point at aligned words', () => {
    const H = hisparseFromCsr(poisson2d(12), { nodeSize: 4 });
    expect(H.root & ~3).toBeGreaterThanOrEqual(4);
    expect((H.root & ~3) % 4).toBe(0);
    expect([NODE_TYPE.dense, NODE_TYPE.coo1, NODE_TYPE.coo2, NODE_TYPE.coo4]).toContain(H.root & 3);
  });
});
