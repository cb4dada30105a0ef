// HiSparseMatrix as an application uses it: built on the GPU from CSR and COO (the pool must be the
// CPU reference's, word for word), views that share the pool and outlive each other, addition on
// the GPU through the class, toCsr, and the ScanErrors of bad input.
import type { ScanContext } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { hisparseAdd, hisparseFromCoo, hisparseFromCsr, hisparseToCsr, scale, transpose } from '../src/cpu/index.js';
import { DEFAULT_NODE_SIZE } from '../src/format/layout.js';
import { createHiSparseSpmvPlan, HiSparseMatrix, viewOnContext } from '../src/gpu/matrix.js';
import { dyadicVector, expectSameCsr, randomCoo, randomCsrDyadic } from './oracle.js';

let ctx: ScanContext;
beforeAll(async () => {
  ctx = await getTestContext();
});

const words = (a: Uint32Array) => Array.from(a);

describe('HiSparseMatrix', () => {
  it('fromCsr and fromCoo build on the GPU exactly the CPU pool', async () => {
    const A = randomCsrDyadic(300, 200, 2000, 11);
    const M = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 8 });
    const H = hisparseFromCsr(A, { nodeSize: 8 });
    expect(words((await M.toHost()).pool.view())).toEqual(words(H.pool.view()));
    expect([M.rows, M.cols, M.nodeSize, M.levels]).toEqual([300, 200, 8, H.levels]);
    M.destroy();
    // COO with duplicates and any order: summed as cooToCsr sums them.
    const coo = randomCoo(90, 120, 900, 12);
    const C = await HiSparseMatrix.fromCoo(ctx, coo);
    expect(words((await C.toHost()).pool.view())).toEqual(words(hisparseFromCoo(coo).pool.view()));
    expect(C.nodeSize).toBe(DEFAULT_NODE_SIZE);
    C.destroy();
  });

  it('views share the pool and survive the matrix they came from', async () => {
    const A = randomCsrDyadic(150, 150, 1200, 13);
    const M = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 16 });
    const T = M.transpose().scale(2);
    M.destroy();
    expect(() => M.transpose()).toThrow(/destroy/);
    const H = scale(transpose(hisparseFromCsr(A, { nodeSize: 16 })), 2);
    expectSameCsr(await T.toCsr(), hisparseToCsr(H), 'view after the source was destroyed');
    const x = dyadicVector(T.cols, 1);
    const y = await T.spmv(x);
    expect(y.length).toBe(T.rows);
    T.destroy();
    T.destroy(); // idempotent
  });

  it('add on the GPU through the class, with transposed and scaled operands', async () => {
    const A = randomCsrDyadic(120, 120, 900, 14);
    const B = randomCsrDyadic(120, 120, 700, 15);
    const [MA, MB] = await Promise.all([HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 8 }), HiSparseMatrix.fromCsr(ctx, B, { nodeSize: 8 })]);
    const [HA, HB] = [hisparseFromCsr(A, { nodeSize: 8 }), hisparseFromCsr(B, { nodeSize: 8 })];
    const cases: [string, Promise<HiSparseMatrix>, ReturnType<typeof hisparseAdd>][] = [
      ['A + B', MA.add(MB), hisparseAdd(HA, HB)],
      ['A + 2A', MA.add(MA.scale(2)), hisparseAdd(HA, scale(HA, 2))],
      ['A + Bᵀ', MA.add(MB.transpose()), hisparseAdd(HA, transpose(HB))],
    ];
    for (const [label, made, expected] of cases) {
      const C = await made;
      expectSameCsr(await C.toCsr(), hisparseToCsr(expected), label);
      expect(C.stats().nnz, label).toBe(hisparseToCsr(expected).colIdx.length);
      C.destroy();
    }
    MA.destroy();
    MB.destroy();
  });

  it('bad input is a ScanError naming the argument', async () => {
    const A = randomCsrDyadic(10, 12, 30, 16);
    await expect(HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 48 })).rejects.toThrow(/options\.nodeSize = 48/);
    await expect(HiSparseMatrix.fromCsr(ctx, { ...A, rowPtr: new Uint32Array(3) })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const M = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 4 });
    await expect(M.spmv(new Float32Array(10))).rejects.toThrow(/x .*12 elements/);
    await expect(M.spmv(new Float32Array(10), { transpose: true, extra: 1 } as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const N = await HiSparseMatrix.fromCsr(ctx, randomCsrDyadic(12, 10, 30, 17), { nodeSize: 4 });
    await expect(M.add(N)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(M.add({} as never)).rejects.toThrow(/B = /);
    expect(() => M.scale(Number.NaN)).toThrow(/s = NaN/);
    N.destroy();
    // A queue past one storage binding is refused when the plan is made, not left to WebGPU.
    const base = ctx;
    const small = {
      device: base.device,
      caps: { ...base.caps, limits: { ...base.caps.limits, maxStorageBufferBindingSize: 16 } },
      get lostReason() {
        return base.lostReason;
      },
      lost: base.lost,
      destroy() {},
    } as ScanContext;
    const tight = viewOnContext(small, M);
    expect(() => createHiSparseSpmvPlan(tight.ctx, tight)).toThrow(
      expect.objectContaining({ code: 'TOO_LARGE', argument: 'A' }) as unknown as Error,
    );
    tight.destroy();
    M.destroy();
    await expect(M.spmv(new Float32Array(12))).rejects.toThrow(/destroy/);
  });

  it('every public entry point checks its arguments (ScanError naming the argument)', async () => {
    const A = randomCsrDyadic(10, 12, 30, 20);
    const invalid = (argument: string, message: RegExp) =>
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument, message: expect.stringMatching(message) }) as unknown as Error;
    // The static constructors: the context, the matrix, the options.
    await expect(HiSparseMatrix.fromCsr(undefined as never, A)).rejects.toThrow(invalid('ctx', /^ctx = undefined/));
    await expect(HiSparseMatrix.fromCsr(ctx, undefined as never)).rejects.toThrow(invalid('A', /^A = undefined/));
    await expect(HiSparseMatrix.fromCoo(ctx, A as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(HiSparseMatrix.fromHost(ctx, A as never)).rejects.toThrow(invalid('H', /^H = Object: expected a HiSparse matrix/));
    await expect(HiSparseMatrix.fromGpuCsr(ctx, undefined as never)).rejects.toThrow(
      invalid('A', /^A = undefined: expected a GpuCsrMatrix/),
    );
    const buffer = (bytes: number) => ctx.device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE });
    const [rowPtr, colIdx, values] = [buffer(12), buffer(8), buffer(12)];
    const gpuA = { rows: 2, cols: 2, nnz: 3, rowPtr, colIdx, values };
    await expect(HiSparseMatrix.fromGpuCsr(ctx, gpuA)).rejects.toThrow(
      invalid('A.colIdx', /^A\.colIdx has 8 bytes: expected at least 12 \(4·A\.nnz\)/),
    );
    await expect(HiSparseMatrix.fromGpuCsr(ctx, { ...gpuA, rows: 2.5 })).rejects.toThrow(invalid('A.rows', /^A\.rows = 2\.5/));
    await expect(HiSparseMatrix.fromGpuCsr(ctx, { ...gpuA, nnz: 2, values: undefined } as never)).rejects.toThrow(
      invalid('A.values', /^A\.values = undefined: expected a GPUBuffer/),
    );
    for (const b of [rowPtr, colIdx, values]) b.destroy();

    const M = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 4 });
    // spmv: x of the wrong type or length (transposed too), unknown or bad options.
    await expect(M.spmv(new Float64Array(12) as never)).rejects.toThrow(invalid('x', /^x = Float64Array\(12\): expected a Float32Array/));
    await expect(M.spmv(Array.from({ length: 12 }, () => 1) as never)).rejects.toThrow(invalid('x', /expected a Float32Array/));
    await expect(M.spmv(new Float32Array(12), { transpose: true })).rejects.toThrow(
      invalid('x', /expected 10 elements \(A\.rows, transposed\)/),
    );
    await expect(M.spmv(new Float32Array(12), { combine: 'sum' as never })).rejects.toThrow(invalid('options.combine', /"sum"/));
    // add: not a matrix, another shape, another node size, another context.
    await expect(M.add(undefined as never)).rejects.toThrow(invalid('B', /^B = undefined: expected a HiSparseMatrix/));
    await expect(M.add(M.transpose())).rejects.toThrow(invalid('B', /^B = 12×10 matrix: shape does not match A = 10×12/));
    const N8 = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 8 });
    await expect(M.add(N8)).rejects.toThrow(invalid('B.nodeSize', /^B\.nodeSize = 8: does not match A\.nodeSize = 4/));
    const elsewhere = viewOnContext({ ...ctx, caps: ctx.caps, lost: ctx.lost, destroy() {} } as ScanContext, M);
    await expect(M.add(elsewhere)).rejects.toThrow(invalid('B', /expected a matrix of the same context/));
    // scale, insert, remove.
    for (const s of [Number.NaN, Number.POSITIVE_INFINITY, '2']) expect(() => M.scale(s as number)).toThrow(invalid('s', /^s = /));
    await expect(M.insert(10, 0, 1)).rejects.toThrow(invalid('row', /^row = 10: expected an integer from 0 to A\.rows − 1 = 9/));
    await expect(M.insert(0, 0, '1' as never)).rejects.toThrow(invalid('value', /^value = "1"/));
    await expect(M.remove(0, -1)).rejects.toThrow(invalid('col', /^col = -1/));
    // The plan: a matrix of another context.
    expect(() => createHiSparseSpmvPlan(ctx, elsewhere)).toThrow(invalid('A', /made on this context/));
    for (const m of [elsewhere, N8, M]) m.destroy();
  });

  it('sizes past one storage binding are TOO_LARGE naming the argument the caller passed', async () => {
    const A = randomCsrDyadic(40, 40, 200, 18);
    const M = await HiSparseMatrix.fromCsr(ctx, A, { nodeSize: 4 });
    const N = await HiSparseMatrix.fromCsr(ctx, randomCsrDyadic(40, 40, 150, 19), { nodeSize: 4 });
    // The same device seen through a smaller binding limit; `created` counts the buffers made.
    let created = 0;
    const device = new Proxy(ctx.device, {
      get: (target, key) => {
        const value = Reflect.get(target, key) as unknown;
        if (key === 'createBuffer') created++;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const limited = (maxStorageBufferBindingSize: number) =>
      ({
        device,
        caps: { ...ctx.caps, limits: { ...ctx.caps.limits, maxStorageBufferBindingSize } },
        get lostReason() {
          return ctx.lostReason;
        },
        lost: ctx.lost,
        destroy() {},
      }) as ScanContext;
    const view = viewOnContext;
    // The build: each (distinct) nonzero needs 16 bytes of sorted entries, refused before the upload.
    const nnz = M.stats().nnz;
    created = 0;
    await expect(HiSparseMatrix.fromCsr(limited(16 * nnz - 1), A, { nodeSize: 4 })).rejects.toMatchObject({
      code: 'TOO_LARGE',
      argument: 'A',
      message: expect.stringMatching(
        new RegExp(`^HiSparse build: A has ${nnz} nonzeros, which need ${16 * nnz} bytes`),
      ) as unknown as string,
    });
    expect(created).toBe(0);
    // The sum's working arrays, refused before any GPU work; the operands are unchanged.
    const small = limited(64);
    const [SM, SN] = [view(small, M), view(small, N)];
    created = 0;
    await expect(SM.add(SN)).rejects.toMatchObject({ code: 'TOO_LARGE', argument: 'B' });
    expect(created).toBe(0);
    // An edit that would grow the shared pool past one binding names the matrix.
    await expect(view(limited(M.tree.pool.size), M).insert(0, 0, 3)).rejects.toMatchObject({ code: 'TOO_LARGE', argument: 'this' });
    expectSameCsr(await M.toCsr(), A, 'A after the refused calls');
    for (const m of [SM, SN, M, N]) m.destroy();
  });
});
