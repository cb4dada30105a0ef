// The array-level functions (spmv, spmm, transposeCsr) against the CPU reference, a matrix already
// on the GPU (createSpmvPlan on buffers, gpuCsrStats against csrStats), and the errors of bad input.
import { ScanError } from '@scan/core';
import { expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { cooToCsr, csrStats } from '../src/convert.js';
import { spmm as cpuSpmm, spmv as cpuSpmv, transposeCsr as cpuTranspose, spmvErrorBound } from '../src/cpu/index.js';
import { biasedMatrix, powerLawMatrix, randomCsr } from '../src/generators/index.js';
import { spmm, spmv } from '../src/ops/spmv.js';
import { transposeCsr } from '../src/ops/transpose.js';
import { uploadCsr } from '../src/plans/gpu-matrix.js';
import { gpuCsrStats } from '../src/plans/gpu-stats.js';
import { createSpmvPlan } from '../src/plans/spmv-plan.js';
import { SPMV_ALGORITHMS } from '../src/types.js';
import { expectCloseToReference, randomVector } from './spmv-oracle.js';

describe('spmv, spmm and transposeCsr at the array level', async () => {
  const ctx = await getTestContext();
  const A = randomCsr({ rows: 300, cols: 200, meanRowLength: 7, seed: 31 });

  it('spmv: every algorithm, plain and transposed, with alpha, beta and y', async () => {
    for (const algorithm of SPMV_ALGORITHMS) {
      for (const transpose of [false, true]) {
        const x = randomVector(transpose ? A.rows : A.cols, 32);
        const y = randomVector(transpose ? A.cols : A.rows, 33);
        const options = { algorithm, transpose, alpha: 1.5, beta: -0.5, y };
        const actual = await spmv(ctx, A, x, options);
        expectCloseToReference(actual, cpuSpmv(A, x, options), spmvErrorBound(A, x, options), `${algorithm} ${transpose}`);
      }
    }
  });

  it('spmv leaves its inputs untouched and handles 0×0', async () => {
    const x = randomVector(A.cols, 34);
    const before = x.slice();
    await spmv(ctx, A, x);
    expectEqualArrays(x, before, 'x');
    const empty = { rows: 0, cols: 0, rowPtr: new Uint32Array(1), colIdx: new Uint32Array(0), values: new Float32Array(0) };
    expect((await spmv(ctx, empty, new Float32Array(0))).length).toBe(0);
  });

  it('spmm with k = 5 matches the CPU reference column by column', async () => {
    const X = randomVector(A.cols * 5, 35);
    const actual = await spmm(ctx, A, X, { k: 5 });
    const expected = cpuSpmm(A, X, { k: 5 });
    expect(actual.length).toBe(A.rows * 5);
    for (let i = 0; i < expected.length; i++) expect(Math.abs((actual[i] as number) - (expected[i] as number))).toBeLessThan(1e-4);
  });

  it('transposeCsr on the GPU equals the CPU transpose exactly', async () => {
    for (const M of [A, biasedMatrix(2000, { seed: 36 }), powerLawMatrix({ rows: 1024, nnzPerRow: 4, seed: 37 })]) {
      const t = await transposeCsr(ctx, M);
      const c = cpuTranspose(M);
      expect([t.rows, t.cols]).toEqual([c.rows, c.cols]);
      expectEqualArrays(t.rowPtr, c.rowPtr, 'rowPtr');
      expectEqualArrays(t.colIdx, c.colIdx, 'colIdx');
      expectEqualArrays(t.values, c.values, 'values');
    }
  });

  it('a matrix already on the GPU: gpuCsrStats equals csrStats, and the plan computes the product', async () => {
    const B = powerLawMatrix({ rows: 2048, nnzPerRow: 6, seed: 38 });
    const m = uploadCsr(ctx, B);
    const stats = await gpuCsrStats(ctx, m);
    const expected = csrStats(B);
    expect({ ...stats, rowLengthStdDev: 0 }).toEqual({ ...expected, rowLengthStdDev: 0 });
    expect(stats.rowLengthStdDev).toBeCloseTo(expected.rowLengthStdDev, 3);
    const cpuT = cpuTranspose(B);
    const statsT = await gpuCsrStats(ctx, m, { transpose: true });
    expect(statsT.maxRowLength).toBe(csrStats(cpuT).maxRowLength);
    expect(statsT.emptyRows).toBe(csrStats(cpuT).emptyRows);
    const plan = createSpmvPlan(ctx, m, { stats });
    expect(plan.algorithm).toBe('branchless');
    const x = randomVector(B.cols, 39);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const xb = ctx.device.createBuffer({ size: 4 * B.cols, usage });
    const yb = ctx.device.createBuffer({ size: 4 * B.rows, usage });
    const read = ctx.device.createBuffer({ size: 4 * B.rows, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    ctx.device.queue.writeBuffer(xb, 0, x);
    const encoder = ctx.device.createCommandEncoder();
    plan.encode(encoder, { x: xb, y: yb });
    encoder.copyBufferToBuffer(yb, 0, read, 0, 4 * B.rows);
    ctx.device.queue.submit([encoder.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    const y = new Float32Array(read.getMappedRange().slice(0));
    read.unmap();
    expectCloseToReference(y, cpuSpmv(B, x), spmvErrorBound(B, x), 'gpu matrix');
    for (const b of [xb, yb, read]) b.destroy();
    plan.destroy();
    m.destroy();
  });
});

describe('spmv: bad input gets a ScanError naming the argument', async () => {
  const ctx = await getTestContext();
  const A = cooToCsr({ rows: 2, cols: 3, rowIdx: Uint32Array.of(0, 1), colIdx: Uint32Array.of(2, 0), values: Float32Array.of(1, 2) });
  const x = new Float32Array(3);
  const rejects = async (promise: Promise<unknown>, code: string, argument: RegExp) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScanError);
    expect((error as ScanError).code).toBe(code);
    expect((error as ScanError).message).toMatch(argument);
  };

  it('array level', async () => {
    await rejects(spmv(ctx, A, new Float32Array(2)), 'INVALID_ARGUMENT', /^x/);
    await rejects(spmv(ctx, A, x, { alpha: Number.NaN }), 'INVALID_ARGUMENT', /options\.alpha/);
    await rejects(spmv(ctx, A, x, { beta: 2 }), 'INVALID_ARGUMENT', /options\.y|beta/);
    await rejects(spmv(ctx, { ...A, rowPtr: Uint32Array.of(0, 2, 1) }, x), 'INVALID_ARGUMENT', /rowPtr/);
    await rejects(spmv(ctx, { ...A, colIdx: Uint32Array.of(2, 3) }, x), 'INVALID_ARGUMENT', /colIdx/);
    await rejects(spmm(ctx, A, x, { k: 0 }), 'INVALID_ARGUMENT', /k/);
  });

  it('plan level', () => {
    expect(() => createSpmvPlan(ctx, A, { algorithm: 'segmented', k: 2 })).toThrow(/one right-hand side/);
    expect(() => createSpmvPlan(ctx, A, { segmentLength: 100 })).toThrow(/options\.segmentLength/);
    expect(() => createSpmvPlan(ctx, A, { algorithm: 'fast' as never })).toThrow(/options\.algorithm/);
    const plan = createSpmvPlan(ctx, A);
    const small = ctx.device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE });
    const y = ctx.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    const encoder = ctx.device.createCommandEncoder();
    expect(() => plan.encode(encoder, { x: small, y })).toThrow(/args\.x/);
    expect(() => plan.encode(encoder, { x: y, y, beta: 1 })).toThrow(/same buffer/);
    expect(() =>
      plan.encode(encoder, { x: ctx.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE }), y, alpha: Number.NaN }),
    ).toThrow(/args\.alpha/);
    plan.destroy();
    expect(() => plan.encode(encoder, { x: small, y })).toThrow(/destroyed/);
    small.destroy();
    y.destroy();
  });
});
