// The GPU add (§6's joint traversal, union counting, atomic pool allocator) against the CPU
// reference `hisparseAdd`: the sum read back through `hisparseToCsr` must equal the CPU sum's —
// the pattern exactly, the values bit for bit on dyadic data (scales 1 or powers of two), within
// an f32 rounding otherwise — and the downloaded pool must be a valid pool (header, every node
// 16-byte aligned inside `poolWords`, COOX slots sorted row-major, the format's node type for every
// sparse node). Operands: disjoint and overlapping patterns, A + A (one buffer bound twice),
// empty, 1×1, non-square, dense nodes meeting sparse ones (d = 4), d = 4, 16, 32, transposed (one
// and both), scaled, the spmv generators, B = 2A, 2-D indirect grids, and the argument errors.
// Every case runs both queues: small sparse pairs (a thread each) and dense or larger pairs (a
// workgroup each), and C's census tallied by the sweeps must equal a count of C's tree. SwiftShader-sized: the file takes about 10 s here.
import type { ScanContext } from '@scan/core';
import { getTestContext } from '@scan/gpu-testing';
import { biasedMatrix, poisson2d, uniformRandomMatrix } from '@scan/spmv';
import type { CsrMatrix } from '@scan/spmv/cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { hisparseAdd, hisparseFromCsr, hisparseToCsr, scale, transpose } from '../src/cpu/index.js';
import { forEachNode } from '../src/cpu/traverse.js';
import { chooseNodeType, FORMAT_VERSION, NODE_TYPE, POOL_MAGIC, TYPE_MASK } from '../src/format/layout.js';
import type { HiSparseHost } from '../src/format/matrix.js';
import { nodeSizeAt, readNode } from '../src/format/node-io.js';
import { type AddOnGpuOptions, addOnGpu } from '../src/gpu/add/index.js';
import { takeCensus } from '../src/gpu/census.js';
import { downloadHiSparse, type GpuHiSparseParts, uploadHiSparse } from '../src/gpu/parts.js';
import { expectSameCsr, randomCsrDyadic } from './oracle.js';

let ctx: ScanContext;
beforeAll(async () => {
  ctx = await getTestContext();
});

/** A GPU matrix that reads `state`'s pool with `state`'s flag and scale (one upload, many states). */
const withState = (parts: GpuHiSparseParts, state: HiSparseHost): GpuHiSparseParts => ({
  ...parts,
  transposed: state.transposed,
  scale: state.scale,
});

/** Walks C's tree and checks what FORMAT.md requires of a pool, whatever its node order. */
function expectValidPool(H: HiSparseHost, label: string): void {
  const words = H.pool.words;
  const poolWords = H.pool.used;
  expect([words[0], words[1], words[2], words[3]], `${label}: header`).toEqual([POOL_MAGIC, FORMAT_VERSION, 0, 0]);
  expect(poolWords % 4, `${label}: poolWords`).toBe(0);
  const d = H.nodeSize;
  const walk = (pointer: number, level: number): void => {
    const offset = pointer & ~TYPE_MASK;
    expect(offset % 4 === 0 && offset >= 4, `${label}: pointer ${pointer} aligned past the header`).toBe(true);
    expect(offset + nodeSizeAt(H.pool, pointer, d) <= poolWords, `${label}: node ${pointer} inside poolWords`).toBe(true);
    const node = readNode(H.pool, pointer, d);
    if (node.type !== NODE_TYPE.dense) {
      for (let i = 1; i < node.slots.length; i++) expect(node.slots[i]! > node.slots[i - 1]!, `${label}: sorted slots`).toBe(true);
      expect(node.type, `${label}: type of a ${node.slots.length}-entry node`).toBe(chooseNodeType(node.slots.length, d));
    }
    if (level < H.levels - 1) for (const child of node.words) walk(child, level + 1);
  };
  if (H.root !== 0) walk(H.root, 0);
}

/** Values equal within one f32 rounding (relative 2^−23), the pattern exactly. */
function expectCloseCsr(actual: CsrMatrix, expected: CsrMatrix, label: string): void {
  expect(Array.from(actual.rowPtr), `${label}: rowPtr`).toEqual(Array.from(expected.rowPtr));
  expect(Array.from(actual.colIdx), `${label}: colIdx`).toEqual(Array.from(expected.colIdx));
  for (let k = 0; k < expected.values.length; k++) {
    const e = expected.values[k]!;
    expect(Math.abs(actual.values[k]! - e), `${label}: value ${k}`).toBeLessThanOrEqual(Math.abs(e) * 2 ** -23 + 1e-30);
  }
}

/**
 * C = A + B on the GPU from the host operands (uploaded here; `gA`/`gB` reuse a buffer), checked
 * against the CPU sum. Returns C's host copy.
 */
async function checkAdd(
  hA: HiSparseHost,
  hB: HiSparseHost,
  label: string,
  opts: { exact?: boolean; gA?: GpuHiSparseParts; gB?: GpuHiSparseParts; on?: ScanContext; add?: AddOnGpuOptions } = {},
) {
  const A = opts.gA ? withState(opts.gA, hA) : uploadHiSparse(ctx, hA);
  const B = opts.gB ? withState(opts.gB, hB) : uploadHiSparse(ctx, hB);
  // By default the per-level bounds HiSparseMatrix.add passes (grids sized to the levels).
  const C = await addOnGpu(opts.on ?? ctx, A, B, opts.add ?? { levelNodes: levelBoundsOf(hA, hB) });
  const hC = await downloadHiSparse(ctx, C);
  // The census the sweeps tallied is the one a count of C's tree gives.
  expect(C.census, `${label}: census`).toEqual(await takeCensus(ctx, C));
  C.pool.destroy();
  if (!opts.gA) A.pool.destroy();
  if (!opts.gB) B.pool.destroy();
  const expected = hisparseAdd(hA, hB);
  expect([hC.rows, hC.cols, hC.transposed, hC.scale], `${label}: state`).toEqual([expected.rows, expected.cols, expected.transposed, 1]);
  if (opts.exact === false) expectCloseCsr(hisparseToCsr(hC), hisparseToCsr(expected), label);
  else expectSameCsr(hisparseToCsr(hC), hisparseToCsr(expected), label);
  expectValidPool(hC, label);
  return hC;
}

/** The nodes of each level of H, counted on the host (what `levelNodes` of its census gives). */
const levelCounts = (H: HiSparseHost) => {
  const counts = new Array<number>(H.levels).fill(0);
  forEachNode(H, (_, level) => {
    counts[level] = (counts[level] as number) + 1;
  });
  return counts;
};
/** A's and B's nodes per level together: the bounds `HiSparseMatrix.add` passes. */
const levelBoundsOf = (A: HiSparseHost, B: HiSparseHost) => {
  const b = levelCounts(B);
  return levelCounts(A).map((n, level) => n + (b[level] as number));
};
/** Grids of two and one workgroups: every workgroup strides over many pairs of each level. */
const TINY_GRID = { large: 2, small: 1 };
const build = (A: CsrMatrix, d: number) => hisparseFromCsr(A, { nodeSize: d });
const doubled = (A: CsrMatrix): CsrMatrix => ({ ...A, values: A.values.map((v) => 2 * v) });

describe('gpu add: patterns and node sizes', () => {
  for (const d of [4, 16, 32]) {
    it(`d = ${d}: overlapping, disjoint, A + A, non-square`, async () => {
      const A = build(randomCsrDyadic(70, 70, 600, d), d);
      const B = build(randomCsrDyadic(70, 70, 500, d + 1), d);
      // The pair bounds from the node counts per level (as HiSparseMatrix.add passes them): exactly enough.
      await checkAdd(A, B, 'overlapping');
      // No bounds: items and grids from the pool words.
      await checkAdd(A, B, 'overlapping, bounded by the pool words', { add: {} });
      // Grids far smaller than the levels: each workgroup and thread strides over many pairs.
      await checkAdd(A, B, 'overlapping, tiny grids', { add: { levelNodes: levelBoundsOf(A, B), grid: TINY_GRID } });
      // A bound too small is caught by the overflow flag, never a truncated sum.
      const [gA0, gB0] = [uploadHiSparse(ctx, A), uploadHiSparse(ctx, B)];
      const tooFew = new Array<number>(A.levels).fill(1);
      await expect(addOnGpu(ctx, gA0, gB0, { levelNodes: tooFew })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      gA0.pool.destroy();
      gB0.pool.destroy();
      // Disjoint: A in the upper rows, B in the lower ones (whole subtrees copied, none merged).
      const top = build(upperRows(randomCsrDyadic(70, 70, 300, 5), 35), d);
      const bottom = build(lowerRows(randomCsrDyadic(70, 70, 300, 6), 35), d);
      await checkAdd(top, bottom, 'disjoint');
      const gA = uploadHiSparse(ctx, A);
      const C = await checkAdd(A, A, 'A + A', { gA, gB: gA });
      expect(C.pool.used, 'A + A: same pattern, same words as A').toBe(A.pool.used);
      gA.pool.destroy();
      await checkAdd(build(randomCsrDyadic(13, 150, 300, 7), d), build(randomCsrDyadic(13, 150, 200, 8), d), '13×150');
    });
  }
});

describe('gpu add: leaf pairs of two sparse lists (the merge kernels)', () => {
  it('large sparse leaf pairs by rank: overlapping, one inside the other, scaled, and the tile path beside them', async () => {
    // d = 16, 64×64: leaves of about 90 entries each side (COO4), far past the small queue's 16.
    const A = randomCsrDyadic(64, 64, 1500, 21);
    const B = randomCsrDyadic(64, 64, 1200, 22);
    const hA = build(A, 16);
    expect(readNode(hA.pool, readNode(hA.pool, hA.root, 16).words[0]!, 16).type).toBe(NODE_TYPE.coo4);
    await checkAdd(hA, build(B, 16), 'overlapping');
    await checkAdd(hA, build(B, 16), 'overlapping, tiny grids', { add: { grid: TINY_GRID } });
    await checkAdd(hA, scale(build(B, 16), -0.5), 'A − B/2');
    // B's pattern inside A's: every B entry common (no B-only entries), and the reverse.
    const inner = upperRows(A, 20);
    await checkAdd(hA, build(inner, 16), 'B inside A');
    await checkAdd(build(inner, 16), hA, 'A inside B');
    // Transposed B: the same pairs through the tile kernels (the merge path needs one orientation).
    await checkAdd(hA, transpose(build(B, 16)), 'A + Bᵀ (tile path)');
  });

  it('d = 128: A leaf of more than MERGE_MAX_ENTRIES entries keeps the tile kernels', async () => {
    // One 128×128 block: 5000 entries (COO4, past the 4096-bit mask) against 3000.
    const big = build(randomCsrDyadic(128, 128, 7000, 23), 128);
    const small = build(randomCsrDyadic(128, 128, 3500, 24), 128);
    const n = readNode(big.pool, big.root, 128);
    expect(n.type).toBe(NODE_TYPE.coo4);
    expect(n.slots.length).toBeGreaterThan(4096);
    await checkAdd(big, small, 'big + small (tile path)');
    await checkAdd(small, big, 'small + big (merge path, B past the mask)');
  });
});

/** Rows below `split` of A (the others emptied). */
function upperRows(A: CsrMatrix, split: number): CsrMatrix {
  const end = A.rowPtr[split]!;
  const rowPtr = A.rowPtr.map((p) => Math.min(p, end));
  return { ...A, rowPtr, colIdx: A.colIdx.slice(0, end), values: A.values.slice(0, end) };
}

/** Rows from `split` on of A (the others emptied). */
function lowerRows(A: CsrMatrix, split: number): CsrMatrix {
  const start = A.rowPtr[split]!;
  const rowPtr = A.rowPtr.map((p) => Math.max(p, start) - start);
  return { ...A, rowPtr, colIdx: A.colIdx.slice(start), values: A.values.slice(start) };
}

describe('gpu add: edge shapes', () => {
  it('empty operands, 1×1, shape and node-size errors', async () => {
    const empty = build(randomCsrDyadic(0, 0, 0, 1), 4);
    await checkAdd(empty, empty, '0×0');
    const none = build(randomCsrDyadic(9, 5, 0, 1), 4);
    const some = build(randomCsrDyadic(9, 5, 20, 2), 4);
    await checkAdd(none, none, 'empty 9×5 twice');
    await checkAdd(none, some, 'empty + some');
    await checkAdd(some, none, 'some + empty');
    await checkAdd(transpose(build(randomCsrDyadic(5, 9, 0, 1), 4)), some, 'empty transposed + some');
    const one = build(randomCsrDyadic(1, 1, 1, 3), 4);
    await checkAdd(one, one, '1×1');
    await checkAdd(one, scale(one, -1), '1×1 cancelling: a stored zero');

    const gSome = uploadHiSparse(ctx, some);
    const other = uploadHiSparse(ctx, build(randomCsrDyadic(5, 9, 20, 4), 4));
    const err = await addOnGpu(ctx, gSome, other).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ScanError', code: 'INVALID_ARGUMENT', argument: 'B' });
    expect(String((err as Error).message)).toContain('B = 5×9 matrix: shape does not match A = 9×5');
    // Shapes match once B reads transposed.
    await checkAdd(some, transpose(build(randomCsrDyadic(5, 9, 20, 4), 4)), 'A + Bᵀ, 9×5', { gA: gSome, gB: other });
    const d8 = uploadHiSparse(ctx, build(randomCsrDyadic(9, 5, 20, 2), 8));
    await expect(addOnGpu(ctx, gSome, d8)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'B.nodeSize' });
    await expect(addOnGpu(ctx, gSome, {} as GpuHiSparseParts)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'B' });
    for (const g of [gSome, other, d8]) g.pool.destroy();
  });
});

describe('gpu add: dense nodes meet sparse nodes (d = 4)', () => {
  it('dense + dense, dense + sparse, sparse + dense at leaves and inner levels', async () => {
    // 2000 draws in 64×64: dense leaves and dense inner nodes; 40 draws: COO1/COO2/COO4 nodes.
    const dense = build(randomCsrDyadic(64, 64, 2000, 11), 4);
    const sparse = build(randomCsrDyadic(64, 64, 40, 12), 4);
    expect(readNode(dense.pool, dense.root, 4).type).toBe(NODE_TYPE.dense);
    await checkAdd(dense, sparse, 'dense + sparse');
    await checkAdd(sparse, dense, 'sparse + dense');
    await checkAdd(dense, build(randomCsrDyadic(64, 64, 1500, 13), 4), 'dense + dense');
    await checkAdd(dense, transpose(sparse), 'dense + sparseᵀ');
    await checkAdd(dense, transpose(sparse), 'dense + sparseᵀ, tiny grids', { add: { grid: TINY_GRID } });
    await checkAdd(transpose(dense), sparse, 'denseᵀ + sparse');
    // A − A: dense leaves lose their cancelled entries, sparse leaves keep stored zeros.
    await checkAdd(dense, scale(dense, -1), 'dense − dense');
  });

  it('d = 32: a dense leaf (four tiles of 256 slots) meets sparse and transposed leaves', async () => {
    const dense = build(randomCsrDyadic(40, 40, 3000, 14), 32);
    expect(readNode(dense.pool, readNode(dense.pool, dense.root, 32).words[0]!, 32).type).toBe(NODE_TYPE.dense);
    const sparse = build(randomCsrDyadic(40, 40, 60, 15), 32);
    await checkAdd(dense, sparse, 'dense + sparse');
    await checkAdd(sparse, transpose(dense), 'sparse + denseᵀ');
    await checkAdd(transpose(dense), transpose(sparse), 'denseᵀ + sparseᵀ');
  });
});

describe('gpu add: operand state', () => {
  for (const d of [4, 32]) {
    it(`d = ${d}: transposed (one, both), scaled`, async () => {
      const hA = build(randomCsrDyadic(60, 60, 500, 21 + d), d);
      const hB = build(randomCsrDyadic(60, 60, 400, 22 + d), d);
      const gA = uploadHiSparse(ctx, hA);
      const gB = uploadHiSparse(ctx, hB);
      await checkAdd(hA, transpose(hB), 'A + Bᵀ', { gA, gB });
      await checkAdd(transpose(hA), hB, 'Aᵀ + B', { gA, gB });
      await checkAdd(transpose(hA), transpose(hB), 'Aᵀ + Bᵀ', { gA, gB });
      await checkAdd(hA, transpose(hA), 'A + Aᵀ (one buffer)', { gA, gB: gA });
      await checkAdd(scale(hA, 0.5), scale(hB, -4), '0.5·A − 4·B', { gA, gB });
      await checkAdd(scale(transpose(hA), 2), hB, '2·Aᵀ + B', { gA, gB });
      await checkAdd(scale(hA, 0.1), scale(transpose(hB), 3), '0.1·A + 3·Bᵀ', { gA, gB, exact: false });
      const rect = build(randomCsrDyadic(20, 90, 300, 23), d);
      const rectT = build(randomCsrDyadic(90, 20, 300, 24), d);
      await checkAdd(rect, transpose(rectT), '20×90 + (90×20)ᵀ');
      await checkAdd(transpose(rectT), rect, '(90×20)ᵀ + 20×90');
      gA.pool.destroy();
      gB.pool.destroy();
    });
  }
});

describe('gpu add: 2-D dispatch', () => {
  it('levels wider than the workgroups-per-dimension limit (a context claiming a limit of 7)', async () => {
    // Same device, a smaller stated limit: every level past 7 pairs runs as a 2-D indirect grid
    // (x = 7, y = ⌈pairs / 7⌉, the last row partly past the count), as past 65,535 on a real one.
    const narrow: ScanContext = {
      device: ctx.device,
      caps: { ...ctx.caps, limits: { ...ctx.caps.limits, maxComputeWorkgroupsPerDimension: 7 } },
      lostReason: undefined,
      lost: ctx.lost,
      destroy: () => undefined,
    };
    const hA = build(randomCsrDyadic(90, 90, 700, 31), 4);
    const hB = build(randomCsrDyadic(90, 90, 500, 32), 4);
    await checkAdd(hA, transpose(hB), '2-D: A + Bᵀ', { on: narrow });
  });
});

describe('gpu add: generators and B = 2A (the csrgeam anchor)', () => {
  it('poisson2d, biasedMatrix, uniformRandomMatrix', async () => {
    const cases: [string, CsrMatrix, number][] = [
      ['poisson2d(24)', poisson2d(24), 4],
      ['biasedMatrix(300)', biasedMatrix(300, { seed: 3 }), 16],
      ['uniformRandomMatrix 200×150', uniformRandomMatrix({ rows: 200, cols: 150, nnzPerRow: 6, seed: 4 }), 32],
    ];
    for (const [name, M, d] of cases) {
      const hA = build(M, d);
      const gA = uploadHiSparse(ctx, hA);
      await checkAdd(hA, build(doubled(M), d), `${name}: A + 2A (values)`, { gA });
      await checkAdd(hA, scale(hA, 2), `${name}: A + 2A (state)`, { gA, gB: gA });
      if (M.rows === M.cols) await checkAdd(hA, transpose(hA), `${name}: A + Aᵀ`, { gA, gB: gA });
      gA.pool.destroy();
    }
  });
});
