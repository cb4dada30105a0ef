// The GPU build against the CPU reference, word for word: every pool word (header, nodes,
// padding), the root pointer, the levels and the state. Shapes: 0×0, 1×1, no entries in a
// nonzero shape, dense nodes, one full row, non-square and sizes not multiples of d, the
// generators of @scan/spmv, node sizes 4, 16, 32 and 256, more than 2^16 nonzeros, and keys past
// 32 bits (two sort passes). SwiftShader-sized; one context for the file.
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

/** Builds on the GPU and compares everything with the CPU reference; returns the reference. */
async function expectSameAsCpu(A: CsrMatrix, d: number, on: ScanContext = ctx) {
  const canonical = cooToCsr(csrToCoo(A));
  const want = hisparseFromCsr(canonical, { nodeSize: d });
  const m = upload(canonical);
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
