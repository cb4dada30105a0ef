// Copy-on-write insert and remove on the GPU pool against the CPU reference's edit chain: after
// every edit the GPU matrix must read as `hisparseToCsr` of the CPU result, multiply as
// `hisparseSpmv`, report `hisparseStats`, and — since both start from the same pool and append the
// same paths in the same order — hold the CPU pool word for word. Edits go through plain,
// transposed and scaled views; sharing (the source keeps its content), pool growth (every earlier
// matrix stays correct, plans made before it too), destroy order, concurrent edits of one pool and
// the ScanErrors of bad input are checked. Values are dyadic, so every product is exact.
import type { ScanContext } from '@scan/core';
import { withSession } from '@scan/core/kit';
import { createRng, getTestContext } from '@scan/gpu-testing';
import type { CsrMatrix } from '@scan/spmv/cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type HiSparseHost,
  hisparseFromCoo,
  hisparseFromCsr,
  hisparseInsert,
  hisparseRemove,
  hisparseSpmv,
  hisparseStats,
  hisparseToCsr,
  scale as scaleHost,
  transpose as transposeHost,
} from '../src/cpu/index.js';
import { takeCensus } from '../src/gpu/census.js';
import { createHiSparseSpmvPlan, HiSparseMatrix } from '../src/gpu/matrix.js';
import { dyadicVector, entryMap, expectSameCsr, randomCoo } from './oracle.js';

let ctx: ScanContext;
beforeAll(async () => {
  ctx = await getTestContext();
});

/** −0 read as +0: an empty row is s·0 = −0 on the CPU for a negative s, a cleared +0 on the GPU. */
const plain = (a: Float32Array) => Array.from(a, (v) => (v === 0 ? 0 : v));

/** The GPU matrix equals the CPU one: CSR, statistics, and (with `products`) both products. */
async function expectSame(M: HiSparseMatrix, H: HiSparseHost, label: string, products = true): Promise<void> {
  expect([M.rows, M.cols, M.transposed, M.scaleFactor], `${label}: state`).toEqual([H.rows, H.cols, H.transposed, H.scale]);
  expectSameCsr(await M.toCsr(), hisparseToCsr(H), label);
  expect(M.stats(), `${label}: stats`).toEqual(hisparseStats(H));
  // The census kept up by the edits (the plans size their queues and leaf dispatches from it) is a fresh count's.
  expect(M.census, `${label}: census`).toEqual(await takeCensus(ctx, M.parts));
  if (!products) return;
  const x = dyadicVector(M.cols, M.rows + 7);
  expect(plain(await M.spmv(x)), `${label}: A·x`).toEqual(plain(hisparseSpmv(H, x)));
  const w = dyadicVector(M.rows, M.cols + 5);
  expect(plain(await M.spmv(w, { transpose: true })), `${label}: Aᵀ·w`).toEqual(plain(hisparseSpmv(H, w, { transpose: true })));
}

/** A matrix whose entries all lie in the top-left rows×cols corner of a larger shape (empty blocks elsewhere). */
function cornerCoo(rows: number, cols: number, cornerRows: number, cornerCols: number, nnz: number, seed: number) {
  return { ...randomCoo(cornerRows, cornerCols, nnz, seed), rows, cols };
}

type View = 'plain' | 'transposed' | 'scaled';

/** The same view of a GPU and a CPU matrix (the GPU view is new: destroy it). */
function viewOf(M: HiSparseMatrix, H: HiSparseHost, view: View, s: number): [HiSparseMatrix, HiSparseHost] {
  if (view === 'transposed') return [M.transpose(), transposeHost(H)];
  if (view === 'scaled') return [M.scale(s), scaleHost(H, s)];
  return [M.transpose().transpose(), H];
}

/**
 * `count` seeded random edits (new positions, overwrites, removals of present and maybe-absent
 * entries) of `H0` through plain, transposed and scaled views, on the GPU and the CPU side by side:
 * after each the matrices must be the same (CSR, statistics, census, every sixth step products) and
 * hold the same pool words; the source and some kept matrices must still read their own content.
 */
async function editSequence(H0: HiSparseHost, count: number, seed: number): Promise<void> {
  const A = await HiSparseMatrix.fromHost(ctx, H0);
  const csr0 = hisparseToCsr(H0);
  const x0 = dyadicVector(A.cols, 3);
  const y0 = plain(await A.spmv(x0));
  let M = A.transpose().transpose();
  let H = H0;
  const rng = createRng(seed);
  const steps: string[] = [];
  const kept: [HiSparseMatrix, HiSparseHost, string][] = [];
  for (let step = 0; step < count; step++) {
    const view: View = (['plain', 'transposed', 'scaled'] as const)[step % 3] as View;
    const [V, Hv] = viewOf(M, H, view, step % 2 === 0 ? 2 : 0.5);
    const existing = [...entryMap(hisparseToCsr(Hv)).keys()].map((k) => k.split(',').map(Number) as [number, number]);
    const kind = step < 16 ? step % 4 : rng.int(0, 4);
    let next: HiSparseMatrix;
    let Hn: HiSparseHost;
    let what: string;
    if (kind === 0 || existing.length === 0) {
      // A new position anywhere (often in an empty block: a new subtree).
      const [r, c] = [rng.int(0, Hv.rows - 1), rng.int(0, Hv.cols - 1)];
      const v = rng.int(-40, 40) / 4 || 1;
      [next, Hn, what] = [await V.insert(r, c, v), hisparseInsert(Hv, r, c, v), `insert (${r}, ${c}) = ${v}`];
    } else if (kind === 1) {
      // Overwrite an existing entry.
      const [r, c] = existing[rng.int(0, existing.length - 1)]!;
      const v = rng.int(1, 40) / 8;
      [next, Hn, what] = [await V.insert(r, c, v), hisparseInsert(Hv, r, c, v), `overwrite (${r}, ${c}) = ${v}`];
    } else if (kind === 2) {
      // Remove an existing entry.
      const [r, c] = existing[rng.int(0, existing.length - 1)]!;
      [next, Hn, what] = [await V.remove(r, c), hisparseRemove(Hv, r, c), `remove (${r}, ${c})`];
    } else {
      // Remove a position (often absent: nothing is appended and the root stays).
      const [r, c] = [rng.int(0, Hv.rows - 1), rng.int(0, Hv.cols - 1)];
      const before = V.tree.poolWords;
      const absent = !entryMap(hisparseToCsr(Hv)).has(`${r},${c}`);
      [next, Hn, what] = [await V.remove(r, c), hisparseRemove(Hv, r, c), `remove maybe-absent (${r}, ${c})`];
      if (absent) {
        expect(next.root, what).toBe(V.root);
        expect(V.tree.poolWords, what).toBe(before);
      }
    }
    steps.push(`${view}: ${what}`);
    const label = `step ${step} (${steps[step]})`;
    await expectSame(next, Hn, label, step % 6 === 5);
    // Same pool on both sides, same appends in the same order: the same words.
    expect(Array.from((await next.toHost()).pool.view()), `${label}: pool words`).toEqual(Array.from(Hn.pool.view()));
    V.destroy();
    if (step % 11 === 3) kept.push([M, H, `before step ${step}`]);
    else M.destroy();
    [M, H] = [next, Hn];
  }
  // The source and every kept matrix still read their own content (the pool grew meanwhile).
  expectSameCsr(await A.toCsr(), csr0, 'A after all edits');
  expect(plain(await A.spmv(x0)), 'A·x after all edits').toEqual(y0);
  expect(A.stats()).toEqual(hisparseStats(H0));
  for (const [K, HK, label] of kept) {
    await expectSame(K, HK, label, false);
    K.destroy();
  }
  M.destroy();
  A.destroy();
}

describe('HiSparseMatrix insert and remove (copy-on-write on the GPU pool)', () => {
  it('a random edit sequence through plain, transposed and scaled views matches the CPU chain, d = 4', async () => {
    // 40×30 with entries only in the top-left 20×15: inserts below and right of it create subtrees.
    await editSequence(hisparseFromCoo(cornerCoo(40, 30, 20, 15, 70, 1), { nodeSize: 4 }), 44, 7);
  });

  it('through region leaves: rebuilt by the build rule, as the CPU chain does (d = 4)', async () => {
    // Random entries at d = 4 with region leaves: most paths meet one; every edit through it reads
    // it back whole, rebuilds the region (it may stay one or become a subtree) and appends it.
    const H0 = hisparseFromCoo(randomCoo(300, 300, 400, 21), { nodeSize: 4, regionLeaves: true });
    expect(hisparseStats(H0).regionLeaves.coo4).toBeGreaterThan(0);
    await editSequence(H0, 30, 22);
  });

  it('a region leaf at the entry cap becomes a subtree, and one emptied goes (d = 64)', async () => {
    // The whole 4096² matrix is one region leaf of 4095 entries: two inserts pass the cap.
    let H = hisparseFromCoo(randomCoo(4096, 4096, 4095, 23), { nodeSize: 64, regionLeaves: true });
    let M = await HiSparseMatrix.fromHost(ctx, H);
    expect(M.census.regions?.entries).toEqual([0, 0, 0, hisparseStats(H).nnz]);
    const taken = entryMap(hisparseToCsr(H));
    const rng = createRng(24);
    while (hisparseStats(H).regionLeaves.coo4 > 0) {
      const [r, c] = [rng.int(0, 4095), rng.int(0, 4095)];
      if (taken.has(`${r},${c}`)) continue;
      const next = await M.insert(r, c, 1);
      M.destroy();
      [M, H] = [next, hisparseInsert(H, r, c, 1)];
    }
    expect(M.census.regions, 'no region leaf left').toBeUndefined();
    await expectSame(M, H, 'past the cap', false);
    M.destroy();
    // A region leaf of three entries emptied one by one: the matrix ends without a root.
    const small = randomCoo(4096, 4096, 3, 25);
    H = hisparseFromCoo(small, { nodeSize: 64, regionLeaves: true });
    M = await HiSparseMatrix.fromHost(ctx, H);
    for (let k = 0; k < 3; k++) {
      const [r, c] = [small.rowIdx[k]!, small.colIdx[k]!];
      const next = await M.remove(r, c);
      M.destroy();
      [M, H] = [next, hisparseRemove(H, r, c)];
      await expectSame(M, H, `removed ${k + 1} of 3`, k === 2);
    }
    expect(M.root).toBe(0);
    M.destroy();
  });

  it('a 4×4 leaf turns dense and back, inner nodes too, then every entry goes down to an empty matrix (d = 4)', async () => {
    const H0 = hisparseFromCoo(cornerCoo(16, 16, 4, 4, 3, 2), { nodeSize: 4 });
    let M = await HiSparseMatrix.fromHost(ctx, H0);
    let H = H0;
    const step = async (next: Promise<HiSparseMatrix>, Hn: HiSparseHost, label: string, products: boolean) => {
      const N = await next;
      await expectSame(N, Hn, label, products);
      M.destroy();
      [M, H] = [N, Hn];
    };
    // Fill the leaf of rows 8–11, columns 4–7 (dense from 9 entries on) and one entry in each other
    // leaf of the root's quadrants (the level-1 node of rows 0–15 goes dense too).
    for (let k = 0; k < 16; k++) {
      const [r, c] = [8 + (k >> 2), 4 + (k & 3)];
      await step(M.insert(r, c, (k + 1) / 4), hisparseInsert(H, r, c, (k + 1) / 4), `fill (${r}, ${c})`, k === 8 || k === 15);
    }
    for (let b = 0; b < 16; b++) {
      const [r, c] = [4 * (b >> 2) + 1, 4 * (b & 3) + 2];
      await step(M.insert(r, c, -b - 1), hisparseInsert(H, r, c, -b - 1), `block (${r}, ${c})`, b === 15);
    }
    expect(M.stats().leafNodes.dense, 'a dense leaf').toBeGreaterThan(0);
    expect(M.stats().innerNodes.dense, 'a dense inner node').toBeGreaterThan(0);
    // A +0 stored in the dense leaf removes the entry, as on the CPU.
    await step(M.insert(9, 5, 0), hisparseInsert(H, 9, 5, 0), 'store +0 in the dense leaf', true);
    // Everything goes, one entry at a time, through views: nodes vanish with their last entry.
    let k = 0;
    for (const key of entryMap(hisparseToCsr(H)).keys()) {
      const [r, c] = key.split(',').map(Number) as [number, number];
      if (k++ % 2 === 0) {
        await step(M.remove(r, c), hisparseRemove(H, r, c), `remove (${r}, ${c})`, k % 10 === 0);
      } else {
        const T = M.transpose();
        const N = await T.remove(c, r);
        T.destroy();
        const Hn = transposeHost(hisparseRemove(transposeHost(H), c, r));
        await step(Promise.resolve(N.transpose()), Hn, `remove (${r}, ${c}) through the transpose`, false);
        N.destroy();
      }
    }
    expect(M.root, 'empty matrix: null root').toBe(0);
    await expectSame(M, H, 'empty after removing everything');
    expect(M.stats().nnz).toBe(0);
    // An empty matrix takes inserts again.
    await step(M.insert(15, 15, 3), hisparseInsert(H, 15, 15, 3), 'insert into the empty matrix', true);
    M.destroy();
  });

  it('pool growth: from a tiny pool, every earlier matrix and a plan made before the growth stay correct', async () => {
    const H0 = hisparseFromCoo(
      { rows: 70, cols: 70, rowIdx: Uint32Array.of(1), colIdx: Uint32Array.of(2), values: Float32Array.of(0.5) },
      {
        nodeSize: 8,
      },
    );
    const A = await HiSparseMatrix.fromHost(ctx, H0);
    const plan = createHiSparseSpmvPlan(A.ctx, A);
    const buffers = new Set<GPUBuffer>([A.tree.pool]);
    const chain: [HiSparseMatrix, HiSparseHost][] = [[A, H0]];
    const rng = createRng(11);
    for (let k = 0; k < 40; k++) {
      const [M, H] = chain[chain.length - 1]!;
      const [r, c, v] = [rng.int(0, 69), rng.int(0, 69), rng.int(1, 16) / 2];
      chain.push([await M.insert(r, c, v), hisparseInsert(H, r, c, v)]);
      buffers.add(A.tree.pool);
    }
    expect(buffers.size, 'the buffer was replaced several times').toBeGreaterThanOrEqual(4);
    expect(A.tree.pool.size).toBeGreaterThanOrEqual(4 * A.tree.poolWords);
    for (const [i, [M, H]] of chain.entries()) await expectSame(M, H, `matrix ${i} of the chain`, i % 10 === 0);
    // The plan made over the first buffer now runs over the grown one.
    const x = dyadicVector(A.cols, 4);
    const y = await withSession(ctx, 'test plan', async (s) => {
      const out = s.buffer(4 * A.rows, 'y');
      plan.encode(s.encoder, { x: s.upload(x, 'x'), y: out });
      const read = s.readback(out, 4 * A.rows);
      s.submit();
      return new Float32Array(await read());
    });
    expect(plain(y)).toEqual(plain(hisparseSpmv(H0, x)));
    plan.destroy();
    for (const [M] of chain) M.destroy();
  });

  it('sharing: the source keeps its content, destroying it keeps the edit usable, concurrent edits serialize', async () => {
    const csr: CsrMatrix = hisparseToCsr(hisparseFromCoo(randomCoo(50, 50, 200, 5), { nodeSize: 8 }));
    const H = hisparseFromCsr(csr, { nodeSize: 8 });
    const A = await HiSparseMatrix.fromCsr(ctx, csr, { nodeSize: 8 });
    const x = dyadicVector(50, 9);
    const y = plain(await A.spmv(x));
    const B = await A.insert(49, 0, 7);
    expectSameCsr(await A.toCsr(), csr, 'A after B = A.insert');
    expect(plain(await A.spmv(x)), 'A·x after B = A.insert').toEqual(y);
    await expectSame(B, hisparseInsert(H, 49, 0, 7), 'B');
    // Several edits of one pool at once: each result is A plus its own entry.
    const positions = [
      [0, 0],
      [10, 40],
      [49, 49],
      [25, 3],
    ] as const;
    const edits = await Promise.all(positions.map(([r, c], i) => B.insert(r, c, i + 1)));
    for (const [i, E] of edits.entries()) {
      const [r, c] = positions[i]!;
      expectSameCsr(await E.toCsr(), hisparseToCsr(hisparseInsert(hisparseInsert(H, 49, 0, 7), r, c, i + 1)), `concurrent edit ${i}`);
      E.destroy();
    }
    A.destroy();
    const C = await B.remove(49, 0);
    B.destroy();
    expectSameCsr(await C.toCsr(), csr, 'C = B.remove after A and B were destroyed');
    expect(plain(await C.spmv(x))).toEqual(y);
    C.destroy();
  });

  it('bad input is a ScanError naming the argument', async () => {
    const A = await HiSparseMatrix.fromHost(ctx, hisparseFromCoo(randomCoo(6, 9, 10, 3), { nodeSize: 4 }));
    await expect(A.insert(6, 0, 1)).rejects.toThrow(/row = 6: expected an integer from 0 to A\.rows − 1 = 5/);
    await expect(A.insert(0, 9, 1)).rejects.toThrow(/col = 9/);
    await expect(A.remove(-1, 0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'row' });
    await expect(A.remove(0, 1.5)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'col' });
    const T = A.transpose();
    const E = await T.insert(8, 0, 1); // 9×6 through the view
    expect([E.rows, E.cols]).toEqual([9, 6]);
    E.destroy();
    T.destroy();
    await expect(A.insert(0, 0, '1' as never)).rejects.toThrow(/value = /);
    const Z = A.scale(0);
    await expect(Z.insert(0, 0, 1)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'A.scale' });
    const R = await Z.remove(0, 0); // removing needs no division
    R.destroy();
    Z.destroy();
    A.destroy();
    await expect(A.insert(0, 0, 1)).rejects.toThrow(/destroy/);
  });
});
