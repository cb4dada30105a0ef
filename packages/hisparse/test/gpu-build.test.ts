// The GPU build against the CPU reference, word for word: every pool word (header, nodes,
// padding), the root pointer, the levels and the state. Shapes: 0×0, 1×1, no entries in a
// nonzero shape, dense nodes, one full row, non-square and sizes not multiples of d, the
// generators of @scan/spmv, node sizes 4, 16, 32 and 256, more than 2^16 nonzeros, and keys past
// 32 bits (two sort passes); CSR inputs with duplicate positions (summed like the CPU's
// canonicalization; dyadic values, so the GPU's f32 sums are the CPU's f64 sums rounded).
// SwiftShader-sized; one context for the file.
import { type ScanContext, uploadArray } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { bandedMatrix, biasedMatrix, type GpuCsrMatrix, poisson2d, powerLawMatrix, uniformRandomMatrix } from '@scan/spmv';
import { type CsrMatrix, cooToCsr, csrToCoo } from '@scan/spmv/cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { hisparseFromCsr } from '../src/cpu/index.js';
import { NODE_TYPE } from '../src/format/layout.js';
import { readNode } from '../src/format/node-io.js';
import { buildOnGpu } from '../src/gpu/build/index.js';
import { downloadHiSparse } from '../src/gpu/parts.js';

let ctx: ScanContext;
beforeAll(async () => {
  ctx = await getTestContext();
});

const csr = (rows: number, cols: number, rowPtr: number[], colIdx: number[], values: number[]): CsrMatrix => ({
  rows,
  cols,
  rowPtr: Uint32Array.from(rowPtr),
  colIdx: Uint32Array.from(colIdx),
  values: Float32Array.from(values),
});

/** Seeded values in [−1, 1) that are never exactly 0 (a dense leaf cannot hold +0). */
function values(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = ((s >>> 8) + 1) / 2 ** 23 - 1;
  }
  return out;
}

/** Every entry of a rows×cols block present (dense nodes wherever d is small enough). */
function denseMatrix(rows: number, cols: number, seed: number): CsrMatrix {
  const rowPtr = Uint32Array.from({ length: rows + 1 }, (_, r) => r * cols);
  const colIdx = Uint32Array.from({ length: rows * cols }, (_, k) => k % cols);
  return { rows, cols, rowPtr, colIdx, values: values(rows * cols, seed) };
}

/** One row (`at`) holding every column of a rows×cols matrix; the other rows empty. */
function oneFullRow(rows: number, cols: number, at: number): CsrMatrix {
  const rowPtr = Uint32Array.from({ length: rows + 1 }, (_, r) => (r > at ? cols : 0));
  return { rows, cols, rowPtr, colIdx: Uint32Array.from({ length: cols }, (_, c) => c), values: values(cols, 7) };
}

/** `n` seeded random positions in a rows×cols matrix, made canonical (duplicates summed). */
function scattered(rows: number, cols: number, n: number, seed: number): CsrMatrix {
  let s = seed >>> 0 || 1;
  const next = (m: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.floor((s / 2 ** 32) * m);
  };
  const rowIdx = Uint32Array.from({ length: n }, () => next(rows));
  const colIdx = Uint32Array.from({ length: n }, () => next(cols));
  return cooToCsr({ rows, cols, rowIdx, colIdx, values: values(n, seed + 1) });
}

function upload(A: CsrMatrix): GpuCsrMatrix & { destroy(): void } {
  const rowPtr = uploadArray(ctx, A.rowPtr, 'test rowPtr');
  const colIdx = uploadArray(ctx, A.colIdx, 'test colIdx');
  const vals = uploadArray(ctx, A.values, 'test values');
  return {
    rows: A.rows,
    cols: A.cols,
    nnz: A.colIdx.length,
    rowPtr,
    colIdx,
    values: vals,
    destroy() {
      rowPtr.destroy();
      colIdx.destroy();
      vals.destroy();
    },
  };
}

/**
 * The shared context as seen by a device allowing only `maxDim` workgroups per dimension, so
 * small builds take the 2-D dispatch path that real sizes take past 65,535 workgroups.
 */
function narrowContext(maxDim: number): ScanContext {
  const base = ctx;
  return {
    device: base.device,
    caps: { ...base.caps, limits: { ...base.caps.limits, maxComputeWorkgroupsPerDimension: maxDim } },
    get lostReason() {
      return base.lostReason;
    },
    lost: base.lost,
    destroy() {},
  };
}

/**
 * Builds on the GPU and compares everything with the CPU reference; returns the reference. The GPU
 * gets `A` made canonical, or `A` as it is with `raw` (duplicates and unsorted columns kept).
 */
async function expectSameAsCpu(A: CsrMatrix, d: number, on: ScanContext = ctx, raw = false) {
  const canonical = cooToCsr(csrToCoo(A));
  const want = hisparseFromCsr(canonical, { nodeSize: d });
  const m = upload(raw ? A : canonical);
  const parts = await buildOnGpu(on, m, d);
  m.destroy();
  const got = await downloadHiSparse(ctx, parts);
  parts.pool.destroy();
  expect(parts.poolWords).toBe(want.pool.used);
  expect({ root: parts.root, levels: parts.levels, rows: parts.storedRows, cols: parts.storedCols }).toEqual({
    root: want.root,
    levels: want.levels,
    rows: want.storedRows,
    cols: want.storedCols,
  });
  expect(parts.nodeSize).toBe(d);
  expect(parts.transposed).toBe(false);
  expect(parts.scale).toBe(1);
  const gotWords = got.pool.view();
  const wantWords = want.pool.view();
  // Point at the first differing word rather than printing two long arrays.
  const first = gotWords.findIndex((w, i) => w !== wantWords[i]);
  expect(first, `first differing pool word (of ${wantWords.length})`).toBe(-1);
  expect(gotWords.length).toBe(wantWords.length);
  return want;
}

describe('buildOnGpu: edge shapes', () => {
  it('0×0 and empty matrices give the header only, root 0', async () => {
    for (const [rows, cols] of [
      [0, 0],
      [5, 0],
      [0, 3],
      [37, 53],
    ] as const) {
      const A = csr(rows, cols, new Array(rows + 1).fill(0), [], []);
      const H = await expectSameAsCpu(A, 4);
      expect(H.root).toBe(0);
      expect(H.pool.used).toBe(4);
    }
  });

  it('1×1, one entry at the far corner, and an explicit zero', async () => {
    await expectSameAsCpu(csr(1, 1, [0, 1], [0], [2.5]), 4);
    await expectSameAsCpu(csr(1, 1, [0, 1], [0], [0]), 32);
    await expectSameAsCpu(csr(70, 70, [...new Array(70).fill(0), 1], [69], [-0]), 4);
  });

  it('dense blocks give dense nodes (leaves and inner)', async () => {
    const H = await expectSameAsCpu(denseMatrix(16, 16, 1), 4);
    expect(H.root & 3).toBe(NODE_TYPE.dense);
    await expectSameAsCpu(denseMatrix(13, 11, 2), 4);
    await expectSameAsCpu(denseMatrix(20, 20, 3), 16);
  });

  it('one full row, non-square, sizes not multiples of d', async () => {
    await expectSameAsCpu(oneFullRow(9, 300, 4), 4);
    await expectSameAsCpu(oneFullRow(300, 300, 299), 16);
    await expectSameAsCpu(scattered(37, 101, 300, 5), 4);
    await expectSameAsCpu(scattered(101, 37, 300, 6), 16);
    await expectSameAsCpu(scattered(1000, 3, 500, 7), 32);
  });
});

describe('buildOnGpu: generators and node sizes', () => {
  const generated: readonly [string, () => CsrMatrix][] = [
    ['poisson2d(12)', () => poisson2d(12)],
    ['biased(70)', () => biasedMatrix(70, { seed: 3 })],
    ['powerLaw 128', () => powerLawMatrix({ rows: 128, nnzPerRow: 4, seed: 5 })],
    ['uniform 40×70', () => uniformRandomMatrix({ rows: 40, cols: 70, nnzPerRow: 6, seed: 9 })],
    ['banded 45', () => bandedMatrix({ n: 45, lower: 3, upper: 5, seed: 11 })],
  ];
  for (const d of [4, 16, 32, 256]) {
    it(`d = ${d}`, async () => {
      for (const [name, make] of generated) {
        try {
          await expectSameAsCpu(make(), d);
        } catch (e) {
          throw new Error(`${name}, d = ${d}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    });
  }
});

describe('buildOnGpu: sizes', () => {
  it('more than 2^16 nonzeros (several scan tiles, a deep tree at d = 4)', async () => {
    const A = poisson2d(120); // 71,520 nonzeros
    expect(A.colIdx.length).toBeGreaterThan(2 ** 16);
    await expectSameAsCpu(A, 4);
    await expectSameAsCpu(A, 32);
  });

  it('hierarchical keys past 32 bits (two sort passes)', async () => {
    // d = 32, 40,000 rows: L = 4 levels, 40-bit keys. d = 4, 70,000 columns: L = 9, 36 bits.
    const H = await expectSameAsCpu(scattered(40_000, 40_000, 3000, 11), 32);
    expect(2 * 5 * H.levels).toBeGreaterThan(32);
    await expectSameAsCpu(scattered(50, 70_000, 2000, 12), 4);
    const node = readNode(H.pool, H.root, 32);
    expect(node.slots.length).toBeGreaterThan(0);
  });

  it('2-D dispatch (a device limit of 3 workgroups per dimension)', async () => {
    // About 4,070 nonzeros are 16 workgroups of 256: a 3×6 grid, so every kernel linearizes wid.y.
    await expectSameAsCpu(scattered(300, 300, 4100, 13), 4, narrowContext(3));
  });
});

/** A small dyadic value (a multiple of 1/4 in [−8, 8)): sums of a few thousand are exact in f32. */
const dyadic = (k: number) => ((k % 64) - 32) / 4;

/**
 * A non-canonical CSR of `n` seeded positions, each repeated 1 + (0 … `extra`) times in a row
 * (shuffled within its row, so columns are unsorted and duplicates are not adjacent), with dyadic
 * values; rows come out in order.
 */
function withDuplicates(rows: number, cols: number, n: number, extra: number, seed: number): CsrMatrix {
  let s = seed >>> 0 || 1;
  const next = (m: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.floor((s / 2 ** 32) * m);
  };
  const byRow: [number, number][][] = Array.from({ length: rows }, () => []);
  for (let k = 0; k < n; k++) {
    const r = next(rows);
    const c = next(cols);
    for (let t = 0, copies = 1 + next(extra + 1); t < copies; t++) byRow[r]!.push([c, dyadic(next(1 << 20))]);
  }
  return fromRows(cols, byRow, next);
}

/** A CSR of the given rows of (column, value), each row shuffled when `next` is given. */
function fromRows(cols: number, byRow: [number, number][][], next?: (m: number) => number): CsrMatrix {
  const rowPtr = [0];
  const colIdx: number[] = [];
  const vals: number[] = [];
  for (const row of byRow) {
    if (next) {
      for (let i = row.length - 1; i > 0; i--) {
        const j = next(i + 1);
        [row[i], row[j]] = [row[j]!, row[i]!];
      }
    }
    for (const [c, v] of row) {
      colIdx.push(c);
      vals.push(v);
    }
    rowPtr.push(colIdx.length);
  }
  return csr(byRow.length, cols, rowPtr, colIdx, vals);
}

/** The GPU build of the non-canonical `A` against the CPU build of `A` (which sums duplicates). */
async function expectSumsDuplicates(A: CsrMatrix, d: number, on: ScanContext = ctx) {
  const merged = cooToCsr(csrToCoo(A)).colIdx.length;
  expect(merged, 'the test matrix has duplicates').toBeLessThan(A.colIdx.length);
  return expectSameAsCpu(A, d, on, true);
}

describe('buildOnGpu: duplicate positions are summed', () => {
  it('several duplicates in one row, a run of 3+, a run cancelling to an explicit zero', async () => {
    // Row 2: (2, 5) three times, (2, 1) twice, (2, 3) once; (0, 0) cancels to 0; (4, 7) four times.
    const A = csr(
      6,
      9,
      [0, 3, 3, 9, 9, 13, 13],
      [0, 4, 0, 5, 1, 5, 5, 3, 1, 7, 7, 7, 7],
      [1.5, 2, -1.5, 0.25, 3, 0.5, -4, 8, 0.125, 1, 2, 4, 8],
    );
    for (const d of [4, 16]) await expectSumsDuplicates(A, d);
    // A 1×1 matrix that is one run, and a dense leaf (d = 4, 4×4 full) where one run cancels to +0.
    await expectSumsDuplicates(csr(1, 1, [0, 3], [0, 0, 0], [1, 2, 4]), 4);
    const rowPtr = [0, 5, 9, 13, 17];
    const colIdx = [0, 1, 2, 3, 1, ...[0, 1, 2, 3], ...[0, 1, 2, 3], ...[0, 1, 2, 3]];
    const vals = [0.5, 2, 0.25, 1, -2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const H = await expectSumsDuplicates(csr(4, 4, rowPtr, colIdx, vals), 4);
    expect(H.root & 3).toBe(NODE_TYPE.dense);
  });

  it('duplicates across all rows, unsorted columns, node sizes 4, 16, 32, 256', async () => {
    // Every row holds each of its columns twice or more, in shuffled order.
    const byRow: [number, number][][] = [];
    for (let r = 0; r < 50; r++) {
      const row: [number, number][] = [];
      for (let k = 0; k < 6; k++) {
        const c = (r * 7 + k * 13) % 61;
        for (let t = 0; t < 2 + ((r + k) % 3); t++) row.push([c, dyadic(r * 31 + k * 5 + t)]);
      }
      byRow.push(row);
    }
    let s = 9;
    const allRows = fromRows(61, byRow, (m) => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return Math.floor((s / 2 ** 32) * m);
    });
    for (const d of [4, 16, 32, 256]) await expectSumsDuplicates(allRows, d);
    await expectSumsDuplicates(withDuplicates(200, 150, 1500, 3, 21), 4);
    await expectSumsDuplicates(withDuplicates(37, 1000, 800, 2, 22), 32);
  });

  it('runs crossing 4096-entry tile boundaries, a long run, > 2^16 entries', async () => {
    // One position repeated 5000 times sits in the middle of the hierarchical order, among runs of
    // 1 … 8, so runs cross every boundary of the sort's, the scans' and the reduction's tiles.
    const base = withDuplicates(300, 300, 9000, 7, 23);
    const byRow: [number, number][][] = [];
    for (let r = 0; r < base.rows; r++) {
      const row: [number, number][] = [];
      for (let p = base.rowPtr[r]!; p < base.rowPtr[r + 1]!; p++) row.push([base.colIdx[p]!, base.values[p]!]);
      if (r === 150) for (let t = 0; t < 5000; t++) row.push([151, dyadic(t)]);
      byRow.push(row);
    }
    const A = fromRows(300, byRow);
    expect(A.colIdx.length).toBeGreaterThan(4096 * 8);
    await expectSumsDuplicates(A, 4);
    await expectSumsDuplicates(A, 32);
    await expectSumsDuplicates(withDuplicates(400, 400, 40_000, 2, 24), 16);
  });

  it('with 64-bit keys and with the 2-D dispatch path', async () => {
    await expectSumsDuplicates(withDuplicates(40_000, 40_000, 1500, 3, 25), 32);
    await expectSumsDuplicates(withDuplicates(300, 300, 1500, 3, 26), 4, narrowContext(3));
  });
});
