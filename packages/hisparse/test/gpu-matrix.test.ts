// HiSparseMatrix as an application uses it: built on the GPU from CSR and COO (the pool must be the
// CPU reference's, word for word), views that share the pool and outlive each other, addition on
// the GPU through the class, toCsr, and the ScanErrors of bad input.
import type { ScanContext } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { hisparseAdd, hisparseFromCoo, hisparseFromCsr, hisparseToCsr, scale, transpose } from '../src/cpu/index.js';
import { DEFAULT_NODE_SIZE } from '../src/format/layout.js';
import { createHiSparseSpmvPlan, HiSparseMatrix } from '../src/gpu/matrix.js';
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
    const tight = new HiSparseMatrix(small, M.tree.retain(), M.transposed, M.scaleFactor);
    expect(() => createHiSparseSpmvPlan(tight.ctx, tight)).toThrow(
      expect.objectContaining({ code: 'TOO_LARGE', argument: 'A' }) as unknown as Error,
    );
    tight.destroy();
    M.destroy();
    await expect(M.spmv(new Float32Array(12))).rejects.toThrow(/destroy/);
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
    const view = (c: ScanContext, m: HiSparseMatrix) => new HiSparseMatrix(c, m.tree.retain(), m.transposed, m.scaleFactor);
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
