// The addition without host round trips: `A.add(B)` in one submission (C's pool bounded from A's
// and B's censuses, every count on the GPU, the control words read once at the end) and the
// reusable `createHiSparseAddPlan`, both against the CPU reference `hisparseAdd` (read back through
// `hisparseToCsr`: the pattern exactly, values bit for bit on dyadic data) at edge shapes: empty
// rows and columns, one dense block, a single entry (and one that cancels), a matrix of one node,
// sizes that are not multiples of the node size, empty operands, transposed and scaled views, and
// HiSparse's A + B workload (`perturbedMatrix`). The plans are shared per node size and levels, so
// every case after the first runs in a pool holding an earlier sum (the clear of the words used).
// Then the plan's overflow (reported, never written out of place) and every argument error.
import type { ScanContext } from '@scan/core';
import { ScanError } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { perturbedMatrix, poisson2d } from '@scan/spmv';
import type { CsrMatrix } from '@scan/spmv/cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { hisparseAdd, hisparseFromCsr, hisparseToCsr, scale, transpose } from '../src/cpu/index.js';
import type { HiSparseHost } from '../src/format/matrix.js';
import { addOnGpu } from '../src/gpu/add/add-on-gpu.js';
import { addBoundsFromCensus } from '../src/gpu/add/bounds.js';
import { createHiSparseAddPlan, HISPARSE_ADD_STATUS, type HiSparseAddPlan, hisparseAddBounds } from '../src/gpu/add-plan.js';
import { HiSparseMatrix } from '../src/gpu/matrix.js';
import { downloadHiSparse } from '../src/gpu/parts.js';
import { expectSameCsr, fromMap, randomCsrDyadic } from './oracle.js';

let ctx: ScanContext;
beforeAll(async () => {
  ctx = await getTestContext();
});

/** A CSR matrix from (row, col, value) triples. */
function csrOf(rows: number, cols: number, entries: readonly (readonly [number, number, number])[]): CsrMatrix {
  const m = new Map<string, number>();
  for (const [r, c, v] of entries) m.set(`${r},${c}`, v);
  return fromMap(rows, cols, m);
}

/** `csr` with the entries of rows `emptyRows` and columns `emptyCols` dropped. */
function withEmpty(csr: CsrMatrix, emptyRows: readonly number[], emptyCols: readonly number[]): CsrMatrix {
  const entries: [number, number, number][] = [];
  for (let r = 0; r < csr.rows; r++) {
    for (let k = csr.rowPtr[r]!; k < csr.rowPtr[r + 1]!; k++) {
      const c = csr.colIdx[k]!;
      if (!emptyRows.includes(r) && !emptyCols.includes(c)) entries.push([r, c, csr.values[k]!]);
    }
  }
  return csrOf(csr.rows, csr.cols, entries);
}

/** One plan per node size and levels, large enough for every case here, reused across cases. */
const plans = new Map<string, HiSparseAddPlan>();
function planFor(d: number, levels: number): HiSparseAddPlan {
  const key = `${d}/${levels}`;
  let plan = plans.get(key);
  if (!plan) {
    plan = createHiSparseAddPlan(ctx, { nodeSize: d, levels, maxNodes: 512, maxWords: 1 << 15 });
    plans.set(key, plan);
  }
  return plan;
}

type View = (M: HiSparseMatrix) => HiSparseMatrix;
const views: Record<string, { gpu: View; cpu: (H: HiSparseHost) => HiSparseHost }> = {
  plain: { gpu: (M) => M.scale(1), cpu: (H) => H },
  transposed: { gpu: (M) => M.transpose(), cpu: (H) => transpose(H) },
  scaled: { gpu: (M) => M.scale(-2), cpu: (H) => scale(H, -2) },
};

/**
 * C = op(A) + op(B) three ways, each against `hisparseAdd` of the host operands: `A.add(B)`, the
 * one-submission `addOnGpu` (which must not have fallen back to two passes), and the shared plan.
 */
async function check(label: string, a: CsrMatrix, b: CsrMatrix, d: number, opA = 'plain', opB = 'plain'): Promise<void> {
  const hA = hisparseFromCsr(a, { nodeSize: d });
  const hB = hisparseFromCsr(b, { nodeSize: d });
  const expected = hisparseToCsr(hisparseAdd(views[opA]!.cpu(hA), views[opB]!.cpu(hB)));
  const A = await HiSparseMatrix.fromHost(ctx, hA);
  const B = await HiSparseMatrix.fromHost(ctx, hB);
  const vA = views[opA]!.gpu(A);
  const vB = views[opB]!.gpu(B);
  try {
    const C = await vA.add(vB);
    expectSameCsr(await C.toCsr(), expected, `${label}: A.add(B)`);
    const census = C.census;
    C.destroy();

    const bounds = addBoundsFromCensus(vA.census, vB.census);
    const r = await addOnGpu(ctx, vA.parts, vB.parts, { levelNodes: bounds.levelNodes, poolWords: bounds.words });
    if (A.root !== 0 || B.root !== 0) expect(r.onePass, `${label}: one submission`).toBe(true);
    expect(r.poolWords, `${label}: within the bound`).toBeLessThanOrEqual(bounds.words);
    expect(r.pool.size, `${label}: trimmed`).toBe(Math.max(16, 4 * r.poolWords));
    expectSameCsr(hisparseToCsr(await downloadHiSparse(ctx, r)), expected, `${label}: addOnGpu`);
    r.pool.destroy();

    const plan = planFor(d, A.levels);
    const encoder = ctx.device.createCommandEncoder();
    plan.encode(encoder, { A: vA, B: vB });
    ctx.device.queue.submit([encoder.finish()]);
    const P = await plan.toMatrix();
    expectSameCsr(await P.toCsr(), expected, `${label}: plan`);
    expect(P.census, `${label}: plan census`).toEqual(census);
    P.destroy();
  } finally {
    for (const M of [vA, vB, A, B]) M.destroy();
  }
}

describe('add without host round trips: edge shapes, A.add(B), addOnGpu and the plan', () => {
  it('d = 4: empty rows and columns, one dense block, single entries, one node, 37×23', async () => {
    const base = randomCsrDyadic(13, 11, 60, 3);
    await check('empty rows/cols', withEmpty(base, [0, 3, 7, 12], [5, 10]), withEmpty(randomCsrDyadic(13, 11, 50, 4), [3, 8], [0, 5]), 4);
    const block: [number, number, number][] = [];
    for (let r = 4; r < 8; r++) for (let c = 8; c < 12; c++) block.push([r, c, r - c + 0.5]);
    await check('one dense block + one entry in it', csrOf(16, 16, block), csrOf(16, 16, [[5, 9, 2]]), 4);
    await check('one dense block + its transpose', csrOf(16, 16, block), csrOf(16, 16, block), 4, 'plain', 'transposed');
    await check('single entries', csrOf(9, 9, [[4, 7, 1.5]]), csrOf(9, 9, [[8, 0, -3]]), 4);
    await check('a single entry that cancels', csrOf(9, 9, [[4, 7, 1.5]]), csrOf(9, 9, [[4, 7, -1.5]]), 4);
    await check('one node (3×4, one level)', randomCsrDyadic(3, 4, 7, 5), randomCsrDyadic(3, 4, 5, 6), 4);
    await check('37×23, transposed + scaled', randomCsrDyadic(37, 37, 300, 7), randomCsrDyadic(37, 37, 200, 8), 4, 'transposed', 'scaled');
    await check('empty + non-empty', csrOf(37, 23, []), randomCsrDyadic(37, 23, 150, 9), 4);
    await check('both empty', csrOf(37, 23, []), csrOf(37, 23, []), 4);
  });

  it("d = 16: 70×50, and HiSparse's A + B workload (perturbedMatrix of poisson2d)", async () => {
    await check('70×50', randomCsrDyadic(70, 50, 900, 10), randomCsrDyadic(70, 50, 700, 11), 16);
    const A = poisson2d(12);
    const B = perturbedMatrix(A, { seed: 3 });
    await check('a+b', A, B, 16);
    await check('at+bt', A, B, 16, 'transposed', 'transposed');
  });
});

describe('the add plan: overflow and errors', () => {
  it('capacities too small are reported by read() (TOO_LARGE naming the option); the plan then adds correctly', async () => {
    const a = randomCsrDyadic(40, 40, 400, 21);
    const b = randomCsrDyadic(40, 40, 400, 22);
    const A = await HiSparseMatrix.fromCsr(ctx, a, { nodeSize: 4 });
    const B = await HiSparseMatrix.fromCsr(ctx, b, { nodeSize: 4 });
    const bounds = hisparseAddBounds(A, B);
    const run = async (plan: HiSparseAddPlan) => {
      const encoder = ctx.device.createCommandEncoder();
      plan.encode(encoder, { A, B });
      ctx.device.queue.submit([encoder.finish()]);
      return plan.read();
    };
    const words = createHiSparseAddPlan(ctx, { ...bounds, maxWords: 64 });
    await expect(run(words)).rejects.toMatchObject({ code: 'TOO_LARGE', argument: 'options.maxWords' });
    words.destroy();
    const nodes = createHiSparseAddPlan(ctx, { ...bounds, maxNodes: 5 });
    await expect(run(nodes)).rejects.toMatchObject({ code: 'TOO_LARGE', argument: 'options.maxNodes' });
    nodes.destroy();
    // Exactly the bounds: fits, and the status words say where C is.
    const plan = createHiSparseAddPlan(ctx, bounds);
    await plan.ready;
    const r = await run(plan);
    expect(r.poolWords).toBeLessThanOrEqual(bounds.maxWords);
    expect(HISPARSE_ADD_STATUS).toEqual({ words: 1, root: 3, overflow: 4 });
    const C = await plan.toMatrix();
    expect(r.nnz).toBe(C.stats().nnz);
    expectSameCsr(
      await C.toCsr(),
      hisparseToCsr(hisparseAdd(hisparseFromCsr(a, { nodeSize: 4 }), hisparseFromCsr(b, { nodeSize: 4 }))),
      'plan at its bounds',
    );
    C.destroy();
    plan.destroy();
    expect(() => plan.encode(ctx.device.createCommandEncoder(), { A, B })).toThrow(/destroyed/);
    A.destroy();
    B.destroy();
  });

  it("hisparseAddBounds caps its capacities at one binding of A's device: A + 2A fits under the cap, A + B past it is TOO_LARGE", async () => {
    const a = randomCsrDyadic(40, 40, 400, 24);
    const b = randomCsrDyadic(40, 40, 400, 25);
    const A = await HiSparseMatrix.fromCsr(ctx, a, { nodeSize: 4 });
    const B = await HiSparseMatrix.fromCsr(ctx, b, { nodeSize: 4 });
    const A2 = A.scale(2);
    const full = hisparseAddBounds(A, B);
    // A view of A on a device whose one binding holds 60% of the worst case: C = A + 2A has A's
    // structure (about half the worst case), C = A + B of two random patterns does not fit.
    const binding = 4 * Math.ceil(0.6 * full.maxWords);
    const limits = { maxStorageBufferBindingSize: binding };
    const small = Object.create(A, { ctx: { value: { ...ctx, caps: { ...ctx.caps, limits } } } }) as HiSparseMatrix;
    const capped = hisparseAddBounds(small, B);
    expect(capped.maxWords).toBe(binding / 4);
    expect(capped.maxNodes).toBe(Math.min(full.maxNodes, Math.floor(binding / 8)));
    const run = async (plan: HiSparseAddPlan, right: HiSparseMatrix) => {
      const encoder = ctx.device.createCommandEncoder();
      plan.encode(encoder, { A, B: right });
      ctx.device.queue.submit([encoder.finish()]);
      return plan.read();
    };
    const plan = createHiSparseAddPlan(ctx, capped);
    await plan.ready;
    const r = await run(plan, A2);
    expect(r.poolWords).toBeLessThanOrEqual(capped.maxWords);
    const C = await plan.toMatrix();
    const host = hisparseFromCsr(a, { nodeSize: 4 });
    expectSameCsr(await C.toCsr(), hisparseToCsr(hisparseAdd(host, scale(host, 2))), 'A + 2A under the cap');
    C.destroy();
    await expect(run(plan, B)).rejects.toMatchObject({ code: 'TOO_LARGE', argument: 'options.maxWords' });
    plan.destroy();
    A.destroy();
    B.destroy();
  });

  it('bad options and arguments are ScanErrors naming them', async () => {
    const A = await HiSparseMatrix.fromCsr(ctx, randomCsrDyadic(20, 20, 40, 31), { nodeSize: 4 });
    const R = await HiSparseMatrix.fromCsr(ctx, randomCsrDyadic(20, 17, 40, 32), { nodeSize: 4 });
    const D = await HiSparseMatrix.fromCsr(ctx, randomCsrDyadic(20, 20, 40, 33), { nodeSize: 8 });
    const good = { nodeSize: 4, levels: A.levels, maxNodes: 64, maxWords: 1024 };
    const bad = (options: unknown, argument: string, code = 'INVALID_ARGUMENT') => {
      let error: unknown;
      try {
        createHiSparseAddPlan(ctx, options as typeof good);
      } catch (e) {
        error = e;
      }
      expect(error, argument).toBeInstanceOf(ScanError);
      expect(error, argument).toMatchObject({ code, argument });
      expect((error as Error).message).toContain(argument);
    };
    bad({ ...good, nodeSize: 3 }, 'options.nodeSize');
    bad({ ...good, levels: 0 }, 'options.levels');
    bad({ ...good, maxNodes: 0 }, 'options.maxNodes');
    bad({ ...good, maxNodes: 1.5 }, 'options.maxNodes');
    bad({ ...good, maxWords: 2 }, 'options.maxWords');
    bad({ ...good, maxWords: 2 ** 40 }, 'options.maxWords', 'TOO_LARGE');
    bad({ ...good, extra: 1 }, 'options.extra');
    bad({ ...good, maxLevelNodes: [1] }, 'options.maxLevelNodes');
    const plan = createHiSparseAddPlan(ctx, good);
    const encoder = ctx.device.createCommandEncoder();
    const enc = (args: unknown) => () => plan.encode(encoder, args as { A: HiSparseMatrix; B: HiSparseMatrix });
    expect(enc(null)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args' }));
    expect(enc({ A: {}, B: A })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.A' }));
    expect(enc({ A, B: 3 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.B' }));
    expect(enc({ A, B: D })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.B.nodeSize' }));
    expect(enc({ A, B: R })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'B' }));
    await expect(plan.read()).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'plan' });
    expect(() => hisparseAddBounds(A, {} as HiSparseMatrix)).toThrow(expect.objectContaining({ argument: 'B' }));
    plan.destroy();
    for (const M of [A, R, D]) M.destroy();
    for (const p of plans.values()) p.destroy();
  });
});
