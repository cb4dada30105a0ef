// Every algorithm, plain and transposed, against the CPU reference (f64 accumulation) within the
// f32 summation bound, on every generator, on Matrix Market text and on the edge shapes: 0×0, 1×1,
// one row holding every nonzero, every row empty but one, nnz just past a segment-vector boundary,
// non-square. Outputs are poisoned first, so an unwritten row fails. Sizes are SwiftShader-sized;
// the merge path's fix-up is also made to walk several rounds and tiles small, so every carry
// path runs.
import type { ScanContext } from '@scan/core';
import { getTestContext, POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { cooToCsr } from '../src/convert.js';
import { spmv as cpuSpmv, spmvErrorBound } from '../src/cpu/index.js';
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
import { readMatrixMarket } from '../src/matrix-market/read.js';
import { createSpmvPlan } from '../src/plans/spmv-plan.js';
import type { CsrMatrix, SpmvAlgorithm } from '../src/types.js';
import { expectCloseToReference, randomVector } from './spmv-oracle.js';

const ALGORITHMS: readonly Exclude<SpmvAlgorithm, 'auto'>[] = ['row', 'segmented', 'branchless', 'merge'];

const csr = (rows: number, cols: number, rowPtr: number[], colIdx: number[], values: number[]): CsrMatrix => ({
  rows,
  cols,
  rowPtr: Uint32Array.from(rowPtr),
  colIdx: Uint32Array.from(colIdx),
  values: Float32Array.from(values),
});

/** One row holding `n` nonzeros (columns 0…n−1) in a matrix of `rows` rows; the others empty. */
function oneFullRow(rows: number, n: number, at: number): CsrMatrix {
  const rowPtr = new Uint32Array(rows + 1);
  for (let r = at + 1; r <= rows; r++) rowPtr[r] = n;
  return { rows, cols: n, rowPtr, colIdx: Uint32Array.from({ length: n }, (_, i) => i), values: randomVector(n, 5) };
}

const MTX = `%%MatrixMarket matrix coordinate real symmetric
% a small symmetric matrix with a blank line below

5 5 7
1 1 4.5
2 1 -1
3 3 2
4 2 0.25
5 5 1e-3
5 1 3
4 4 -2
`;

/** The matrices every algorithm runs on, small enough for SwiftShader. */
function matrices(): [string, CsrMatrix][] {
  return [
    ['0×0', csr(0, 0, [0], [], [])],
    ['1×1', csr(1, 1, [0, 1], [0], [2.5])],
    ['3×0 (no columns)', csr(3, 0, [0, 0, 0, 0], [], [])],
    ['4×4 no nonzeros', csr(4, 4, [0, 0, 0, 0, 0], [], [])],
    ['one row holds every nonzero', oneFullRow(1, 3001, 0)],
    ['every row empty but one', oneFullRow(700, 900, 333)],
    ['nnz just past a segment vector (257)', randomCsr({ rows: 3, cols: 300, meanRowLength: 86, seed: 3 })],
    ['nnz 2·256 + 1 in one row', oneFullRow(2, 513, 1)],
    ['non-square 37×1000', randomCsr({ rows: 37, cols: 1000, meanRowLength: 40, seed: 4 })],
    ['non-square 1000×37', randomCsr({ rows: 1000, cols: 37, meanRowLength: 3, seed: 5 })],
    ['biased 3000 (mat1K-like)', biasedMatrix(3000, { seed: 6 })],
    ['poisson2d 40²', poisson2d(40)],
    ['poisson3d 12³', poisson3d(12)],
    ['power-law 2048', powerLawMatrix({ rows: 2048, nnzPerRow: 8, seed: 7 })],
    ['uniform 2000×8', uniformRandomMatrix({ rows: 2000, nnzPerRow: 8, seed: 8 })],
    ['banded 3000', bandedMatrix({ n: 3000, seed: 9 })],
    ['empty rows 2000', emptyRowsMatrix({ rows: 2000, seed: 10 })],
    ['Matrix Market text', cooToCsr(readMatrixMarket(MTX))],
  ];
}

interface Run {
  algorithm: SpmvAlgorithm;
  transpose?: boolean;
  k?: number;
  alpha?: number;
  beta?: number;
  tuning?: Record<string, number>;
}

/** Runs one plan product on the GPU (y poisoned, or holding the given y) and checks it. */
async function expectProduct(ctx: ScanContext, A: CsrMatrix, run: Run, label: string): Promise<void> {
  const k = run.k ?? 1;
  const inLength = (run.transpose ? A.rows : A.cols) * k;
  const outLength = (run.transpose ? A.cols : A.rows) * k;
  const x = randomVector(inLength, 11);
  const y0 = randomVector(outLength, 12);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const xBuffer = ctx.device.createBuffer({ size: Math.max(16, 4 * inLength), usage });
  const yBuffer = ctx.device.createBuffer({ size: Math.max(16, 4 * outLength), usage });
  ctx.device.queue.writeBuffer(xBuffer, 0, x);
  const beta = run.beta ?? 0;
  ctx.device.queue.writeBuffer(yBuffer, 0, beta !== 0 ? y0 : new Uint32Array(outLength).fill(POISON_U32));
  const plan = createSpmvPlan(ctx, A, { algorithm: run.algorithm, transpose: run.transpose ?? false, k, ...run.tuning });
  ctx.device.pushErrorScope('validation');
  const encoder = ctx.device.createCommandEncoder();
  plan.encode(encoder, { x: xBuffer, y: yBuffer, alpha: run.alpha ?? 1, beta });
  const read = ctx.device.createBuffer({ size: Math.max(16, 4 * outLength), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  encoder.copyBufferToBuffer(yBuffer, 0, read, 0, Math.max(16, 4 * outLength));
  ctx.device.queue.submit([encoder.finish()]);
  expect((await ctx.device.popErrorScope())?.message, label).toBeUndefined();
  await read.mapAsync(GPUMapMode.READ);
  const actual = new Float32Array(read.getMappedRange().slice(0, 4 * outLength));
  read.unmap();
  const options = { transpose: run.transpose ?? false, alpha: run.alpha ?? 1, beta, ...(beta !== 0 ? { y: y0 } : {}) };
  for (let c = 0; c < k; c++) {
    // Column c of the product is the product with column c of x.
    const xc = k === 1 ? x : Float32Array.from({ length: inLength / k }, (_, i) => x[i * k + c] as number);
    const yc = k === 1 ? y0 : Float32Array.from({ length: outLength / k }, (_, i) => y0[i * k + c] as number);
    const o = { ...options, ...(beta !== 0 ? { y: yc } : {}) };
    const expected = cpuSpmv(A, xc, o);
    const bound = spmvErrorBound(A, xc, o);
    const got = k === 1 ? actual : Float32Array.from({ length: outLength / k }, (_, i) => actual[i * k + c] as number);
    expectCloseToReference(got, expected, bound, `${label}${k > 1 ? ` column ${c}` : ''}`);
  }
  plan.destroy();
  xBuffer.destroy();
  yBuffer.destroy();
  read.destroy();
}

describe('spmv plan: every algorithm against the CPU reference', async () => {
  const ctx = await getTestContext();
  for (const algorithm of ALGORITHMS) {
    for (const transpose of [false, true]) {
      it(`${algorithm}${transpose ? ', transposed' : ''}: every generator, Matrix Market text and the edge shapes`, async () => {
        for (const [name, A] of matrices()) await expectProduct(ctx, A, { algorithm, transpose }, `${algorithm} ${name}`);
      });
    }
  }
});

describe('spmv plan: scaling, several right-hand sides, tuning', async () => {
  const ctx = await getTestContext();
  const A = randomCsr({ rows: 900, cols: 700, meanRowLength: 6, seed: 21 });
  it('alpha and beta (y read only when beta ≠ 0) for every algorithm', async () => {
    for (const algorithm of ALGORITHMS) {
      await expectProduct(ctx, A, { algorithm, alpha: -2.5, beta: 0.75 }, `${algorithm} alpha/beta`);
      await expectProduct(ctx, A, { algorithm, alpha: 0.5 }, `${algorithm} alpha`);
    }
  });
  it('k = 3, 8 and 11 right-hand sides (row, branchless and merge), plain and transposed', async () => {
    for (const algorithm of ['row', 'branchless', 'merge'] as const) {
      for (const k of [3, 8, 11]) {
        await expectProduct(ctx, A, { algorithm, k }, `${algorithm} k=${k}`);
        await expectProduct(ctx, A, { algorithm, k, transpose: true, beta: 2 }, `${algorithm} k=${k} transposed`);
      }
    }
  });
  it('rows of 16 and more with several right-hand sides (the row kernel doubles its lanes)', async () => {
    const D = uniformRandomMatrix({ rows: 400, nnzPerRow: 20, seed: 27 });
    for (const k of [3, 4]) await expectProduct(ctx, D, { algorithm: 'row', k, beta: 1.5 }, `row k=${k} long rows`);
  });
  it('every lane count of the row kernel (subgroup and workgroup-memory paths)', async () => {
    for (const lanes of [1, 2, 4, 8, 16, 32]) await expectProduct(ctx, A, { algorithm: 'row', tuning: { lanes } }, `row lanes=${lanes}`);
  });
  it('merge with one item per invocation and a fix-up walking several rounds over a long row', async () => {
    // 40,000 rows + 79,999 nonzeros in tiles of 256 items: 469 tiles, row 0 spans 160 of them, and a
    // fix-up round of 256 carries — two rounds with a run crossing between them.
    const B = biasedMatrix(40_000, { seed: 22 });
    await expectProduct(ctx, B, { algorithm: 'merge', tuning: { itemsPerThread: 1, fixupItemsPerThread: 1 } }, 'merge small tiles');
    await expectProduct(
      ctx,
      B,
      { algorithm: 'merge', k: 2, tuning: { itemsPerThread: 2, fixupItemsPerThread: 1 } },
      'merge k=2 small tiles',
    );
  });
  it('branchless with segment vectors of 32 and 64, one and several right-hand sides', async () => {
    // Rows spanning many vectors, rows ending exactly at a vector's end, empty rows between and
    // after them: every way a row can meet the vectors' edges; one, two and four vectors per
    // workgroup.
    const B = biasedMatrix(5000, { seed: 23 });
    // 97% empty rows: a workgroup of vectors writes more rows than it has invocations·vectors.
    const E = emptyRowsMatrix({ rows: 6000, emptyFraction: 0.97, seed: 25 });
    const edges = csr(
      6,
      4,
      [0, 32, 32, 64, 96, 96, 96],
      [...Array(96).keys()].map((i) => i % 4),
      Array.from(randomVector(96, 26)),
    );
    for (const segmentLength of [32, 64]) {
      for (const [name, M] of [
        ['biased', B],
        ['empty rows', E],
        ['rows on the edges', edges],
      ] as const) {
        for (const [k, vectorsPerWorkgroup] of [
          [1, 4],
          [2, 2],
          [5, 1],
        ] as const) {
          const label = `branchless L=${segmentLength} ${name} k=${k} vectors=${vectorsPerWorkgroup}`;
          const tuning = { segmentLength, vectorsPerWorkgroup };
          await expectProduct(ctx, M, { algorithm: 'branchless', k, beta: k === 2 ? 0.5 : 0, tuning }, label);
        }
      }
    }
  });
  it("'auto' picks branchless on a biased matrix (for any k) and row on a regular one", () => {
    const skewed = createSpmvPlan(ctx, biasedMatrix(5000, { seed: 24 }));
    const skewedK = createSpmvPlan(ctx, biasedMatrix(5000, { seed: 24 }), { k: 2 });
    const regular = createSpmvPlan(ctx, poisson2d(30));
    expect([skewed.algorithm, skewedK.algorithm, regular.algorithm]).toEqual(['branchless', 'branchless', 'row']);
    skewedK.destroy();
    skewed.destroy();
    regular.destroy();
  });
});
