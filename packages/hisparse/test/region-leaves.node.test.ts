// Region leaves (FORMAT.md, "Region leaves") in the CPU reference: every operation against plain
// CSR math on seeded matrices. Values and x are coarse dyadic numbers, so every sum is exact and
// products compare bit for bit with @scan/spmv's CPU spmv.
import { createRng } from '@scan/gpu-testing';
import { poisson2d, powerLawMatrix, uniformRandomMatrix } from '@scan/spmv';
import { type CsrMatrix, cooToCsr, spmv } from '@scan/spmv/cpu';
import { describe, expect, it } from 'vitest';
import {
  hisparseAdd,
  hisparseCensus,
  hisparseCompact,
  hisparseFromCoo,
  hisparseFromCsr,
  hisparseInsert,
  hisparseMemoryBytes,
  hisparseRemove,
  hisparseSpmv,
  hisparseStats,
  hisparseToCsr,
  scale,
  transpose,
} from '../src/cpu/index.js';
import { forEachNode, hasRegionLeaves } from '../src/cpu/traverse.js';
import { checkGpuBuildOptions } from '../src/format/args.js';
import { NODE_TYPE, REGION_LEAF_FLAG, REGION_LEAF_MAX_ENTRIES, regionLayout, regionLeafWords } from '../src/format/layout.js';
import type { HiSparseHost } from '../src/format/matrix.js';
import { isRegionLeaf, regionLeafCount } from '../src/format/region-io.js';
import { csrAdd, csrTranspose, dyadicVector, entryMap, expectSameCsr, expectSameValues, fromMap, randomCsrDyadic } from './oracle.js';

/** Levels holding region leaves, and their entry counts. */
function regionLeavesOf(H: HiSparseHost): { level: number; count: number }[] {
  const out: { level: number; count: number }[] = [];
  forEachNode(H, (pointer, level) => {
    if (level < H.levels - 1 && isRegionLeaf(H.pool, pointer)) out.push({ level, count: regionLeafCount(H.pool, pointer) });
  });
  return out;
}

/** CSR bytes as the issue counts them: 4·(rows + 1) + 8·nnz. */
function csrBytes(A: CsrMatrix): number {
  return 4 * (A.rows + 1) + 8 * A.colIdx.length;
}

/** A with its values replaced by dyadic ones (exact sums), pattern kept. */
function dyadic(A: CsrMatrix, seed: number): CsrMatrix {
  const rng = createRng(seed);
  const values = new Float32Array(A.values.length);
  for (let k = 0; k < values.length; k++) values[k] = (rng.int(1, 64) * (rng.int(0, 1) === 0 ? 1 : -1)) / 8;
  return { ...A, values };
}

/** Every read of H against the CSR A it was built from: toCsr, A·x, Aᵀ·x, the state, compaction. */
function expectReadsLike(H: HiSparseHost, A: CsrMatrix, label: string): void {
  expectSameCsr(hisparseToCsr(H), A, `${label}: toCsr`);
  const x = dyadicVector(A.cols, 7);
  const xt = dyadicVector(A.rows, 8);
  expect(hisparseSpmv(H, x), `${label}: A·x`).toEqual(spmv(A, x));
  expect(hisparseSpmv(H, xt, { transpose: true }), `${label}: Aᵀ·x`).toEqual(spmv(A, xt, { transpose: true }));
  const T = scale(transpose(H), 2);
  expect(hisparseSpmv(T, xt), `${label}: (2Aᵀ)·x`).toEqual(spmv(A, xt, { transpose: true, alpha: 2 }));
  expectSameCsr(hisparseToCsr(transpose(H)), csrTranspose(A), `${label}: toCsr of Aᵀ`);
  const C = hisparseCompact(H);
  expect(Array.from(C.pool.view()), `${label}: compaction of a fresh build is the same pool`).toEqual(Array.from(H.pool.view()));
  expect(hisparseMemoryBytes(H), `${label}: memory`).toBe(4 * H.pool.used);
  expect(hisparseStats(H).nnz, `${label}: stats nnz`).toBe(A.colIdx.length);
}

describe('format', () => {
  it('region layout: vec-X aligned arrays, 4-word nodes', () => {
    expect(regionLayout(NODE_TYPE.coo1, 1)).toEqual({ coordStart: 1, valueStart: 2, words: 4 });
    expect(regionLayout(NODE_TYPE.coo2, 2)).toEqual({ coordStart: 2, valueStart: 4, words: 8 });
    expect(regionLayout(NODE_TYPE.coo4, 5)).toEqual({ coordStart: 4, valueStart: 12, words: 20 });
    expect(regionLeafWords(64)).toBe(4 + 64 + 64);
  });

  it('a region leaf as words: flag, local coordinates, values', () => {
    // 300×300 with two entries far apart at d = 4: the root (side 4^5 = 1024) collapses into one COO2 region leaf.
    const A = cooToCsr({
      rows: 300,
      cols: 300,
      rowIdx: Uint32Array.of(0, 299),
      colIdx: Uint32Array.of(290, 1),
      values: Float32Array.of(1, 2),
    });
    const H = hisparseFromCsr(A, { nodeSize: 4, regionLeaves: true });
    expect(H.root).toBe(4 | NODE_TYPE.coo2);
    expect(Array.from(H.pool.view().subarray(4))).toEqual([
      (2 | REGION_LEAF_FLAG) >>> 0,
      0,
      (0 | (290 << 16)) >>> 0,
      (299 | (1 << 16)) >>> 0,
      0x3f800000,
      0x40000000,
      0,
      0,
    ]);
    expectReadsLike(H, A, 'two entries');
  });
});

describe('build', () => {
  it('regionLeaves off (and absent) gives the version-1 pool word for word', () => {
    for (const [rows, cols, nnz, d] of [
      [300, 200, 500, 4],
      [2000, 2000, 3000, 16],
      [100, 100, 2500, 8],
    ] as const) {
      const A = randomCsrDyadic(rows, cols, nnz, rows + d);
      const plain = hisparseFromCsr(A, { nodeSize: d });
      const off = hisparseFromCsr(A, { nodeSize: d, regionLeaves: false });
      expect(Array.from(off.pool.view())).toEqual(Array.from(plain.pool.view()));
      expect(off.root).toBe(plain.root);
      expect(hasRegionLeaves(plain)).toBe(false);
    }
  });

  it('edge shapes read back exactly', () => {
    const cases: [string, CsrMatrix, number][] = [
      ['empty 0×0', randomCsrDyadic(0, 0, 0, 1), 4],
      ['no entries', randomCsrDyadic(50, 70, 0, 1), 4],
      ['one entry', randomCsrDyadic(1000, 1000, 1, 2), 4],
      ['one entry, 1×1', randomCsrDyadic(1, 1, 1, 3), 4],
      ['one node', randomCsrDyadic(60, 60, 40, 4), 64],
      ['sizes not multiples of d', randomCsrDyadic(301, 77, 200, 5), 8],
      ['empty rows and columns', randomCsrDyadic(5000, 3, 20, 6), 4],
      ['tall', randomCsrDyadic(100000, 5, 300, 7), 16],
    ];
    // One dense block (a dense leaf, never collapsed: its region leaf would be larger) among sparse entries.
    const block = new Map<string, number>();
    for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) block.set(`${r + 64},${c + 64}`, (r * 8 + c + 1) / 8);
    for (const [k, v] of entryMap(randomCsrDyadic(3000, 3000, 100, 8))) block.set(k, v);
    cases.push(['dense block', fromMap(3000, 3000, block), 8]);
    for (const [label, A, d] of cases) {
      const H = hisparseFromCsr(A, { nodeSize: d, regionLeaves: true });
      expectReadsLike(H, A, label);
      expect(hisparseMemoryBytes(H), `${label}: never larger`).toBeLessThanOrEqual(
        hisparseMemoryBytes(hisparseFromCsr(A, { nodeSize: d })),
      );
    }
  });

  it('a matrix of one node: the root is a region leaf', () => {
    const A = randomCsrDyadic(4096, 4096, 2000, 9);
    const H = hisparseFromCsr(A, { nodeSize: 64, regionLeaves: true });
    expect(isRegionLeaf(H.pool, H.root)).toBe(true);
    expect(regionLeavesOf(H)).toEqual([{ level: 0, count: A.colIdx.length }]);
    expectReadsLike(H, A, 'one region');
  });

  it('the entry cap: a region of more than REGION_LEAF_MAX_ENTRIES stays a subtree', () => {
    const A = randomCsrDyadic(4096, 4096, REGION_LEAF_MAX_ENTRIES + 2000, 10);
    const H = hisparseFromCsr(A, { nodeSize: 64, regionLeaves: true });
    expect(A.colIdx.length).toBeGreaterThan(REGION_LEAF_MAX_ENTRIES);
    expect(isRegionLeaf(H.pool, H.root)).toBe(false);
    expectReadsLike(H, A, 'over the cap');
  });

  it('rows over 65536: only levels with a region side ≤ 65536 hold region leaves', () => {
    const A = randomCsrDyadic(200000, 200000, 5000, 11);
    const H = hisparseFromCsr(A, { nodeSize: 16, regionLeaves: true });
    expect(H.levels).toBe(5); // root side 16^5 > 65536, level 1 side 65536
    const regions = regionLeavesOf(H);
    expect(regions.length).toBeGreaterThan(0);
    for (const { level, count } of regions) {
      expect(level).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(REGION_LEAF_MAX_ENTRIES);
    }
    expectReadsLike(H, A, '200000²');
  });

  it('COO input and explicit zeros', () => {
    const coo = {
      rows: 500,
      cols: 500,
      rowIdx: Uint32Array.of(3, 3, 400, 7),
      colIdx: Uint32Array.of(9, 9, 2, 450),
      values: Float32Array.of(1, -1, 0, 2),
    };
    const H = hisparseFromCoo(coo, { nodeSize: 4, regionLeaves: true });
    expect(hasRegionLeaves(H)).toBe(true);
    expectSameCsr(hisparseToCsr(H), cooToCsr(coo), 'coo');
    expect(hisparseStats(H).nnz).toBe(3);
  });

  it("nodeSize: 'auto' picks the smallest pool of its candidates", () => {
    const random = randomCsrDyadic(3000, 3000, 3000, 12);
    const H = hisparseFromCsr(random, { nodeSize: 'auto' });
    const sizes = [64, 32, 16].flatMap((d) =>
      [false, true].map((r) => hisparseMemoryBytes(hisparseFromCsr(random, { nodeSize: d, regionLeaves: r }))),
    );
    expect(hisparseMemoryBytes(H)).toBe(Math.min(...sizes));
    // The census counts each of those builds exactly, without laying any out.
    const census = hisparseCensus(random);
    expect(census.map((c) => c.memoryBytes)).toEqual(sizes);
    expect(census.map((c) => [c.nodeSize, c.regionLeaves])).toEqual(
      [64, 32, 16].flatMap((d) => [
        [d, false],
        [d, true],
      ]),
    );
    expect(hasRegionLeaves(H)).toBe(true);
    expectReadsLike(H, random, 'auto, random');
    // regionLeaves: false keeps 'auto' among GPU-readable pools.
    const off = hisparseFromCsr(random, { nodeSize: 'auto', regionLeaves: false });
    expect(hasRegionLeaves(off)).toBe(false);
    expect(hisparseMemoryBytes(off)).toBe(
      Math.min(...[64, 32, 16].map((d) => hisparseMemoryBytes(hisparseFromCsr(random, { nodeSize: d })))),
    );
    // A structured matrix: no region leaf pays off, so auto's pool is a plain one.
    const P = dyadic(poisson2d(64), 13);
    const HP = hisparseFromCsr(P, { nodeSize: 'auto' });
    expect(hisparseMemoryBytes(HP)).toBeLessThanOrEqual(hisparseMemoryBytes(hisparseFromCsr(P)));
    expectReadsLike(HP, P, 'auto, poisson');
  });

  it('bad options are INVALID_ARGUMENT naming the option', () => {
    const A = randomCsrDyadic(10, 10, 5, 14);
    expect(() => hisparseFromCsr(A, { regionLeaves: 'yes' as unknown as boolean })).toThrow(/options\.regionLeaves = "?yes"?/);
    expect(() => hisparseFromCsr(A, { nodeSize: 'big' as unknown as number })).toThrow(/options\.nodeSize = "?big"?.*'auto'/);
    expect(() => hisparseFromCsr(A, { nodeSize: 48, regionLeaves: true })).toThrow(/options\.nodeSize = 48/);
    expect(() => hisparseFromCsr(A, { regionleaves: true } as never)).toThrow(/options\.regionleaves/);
  });
});

describe('operations', () => {
  // More entries than a region leaf may hold, so the root stays a subtree with region leaves below.
  const A = randomCsrDyadic(3000, 2500, 8000, 21);
  const B = randomCsrDyadic(3000, 2500, 8000, 22);
  const Bt = randomCsrDyadic(2500, 3000, 8000, 23);
  const d = 8;
  const HA = hisparseFromCsr(A, { nodeSize: d, regionLeaves: true });
  const HB = hisparseFromCsr(B, { nodeSize: d, regionLeaves: true });

  it('the test matrices hold region leaves', () => {
    expect(regionLeavesOf(HA).length).toBeGreaterThan(10);
    expect(isRegionLeaf(HA.pool, HA.root)).toBe(false);
    expect(hisparseStats(HA).regionLeaves.coo1 + hisparseStats(HA).regionLeaves.coo2 + hisparseStats(HA).regionLeaves.coo4).toBe(
      regionLeavesOf(HA).length,
    );
  });

  it('add: region + region, region + regular, scaled, transposed', () => {
    const plainB = hisparseFromCsr(B, { nodeSize: d });
    const expected = csrAdd(A, 1, B, 1);
    expectSameValues(hisparseToCsr(hisparseAdd(HA, HB)), expected, 'region + region');
    expectSameValues(hisparseToCsr(hisparseAdd(HA, plainB)), expected, 'region + regular');
    expectSameValues(hisparseToCsr(hisparseAdd(plainB, HA)), expected, 'regular + region');
    expectSameValues(hisparseToCsr(hisparseAdd(scale(HA, 2), scale(HB, -0.5))), csrAdd(A, 2, B, -0.5), 'scaled');
    const HBt = hisparseFromCsr(Bt, { nodeSize: d, regionLeaves: true });
    expectSameValues(hisparseToCsr(hisparseAdd(HA, transpose(HBt))), csrAdd(A, 1, csrTranspose(Bt), 1), 'A + (Bᵀ)ᵀ');
    expectSameValues(hisparseToCsr(hisparseAdd(transpose(HA), HBt)), csrAdd(csrTranspose(A), 1, Bt, 1), 'Aᵀ + B');
    expectSameValues(hisparseToCsr(hisparseAdd(transpose(HA), transpose(HB))), csrTranspose(csrAdd(A, 1, B, 1)), 'Aᵀ + Bᵀ');
    // A + A: every entry shared, the same structure; A − A keeps stored zeros.
    expectSameValues(hisparseToCsr(hisparseAdd(HA, HA)), csrAdd(A, 1, A, 1), 'A + A');
    expectSameValues(hisparseToCsr(hisparseAdd(HA, scale(HA, -1))), csrAdd(A, 1, A, -1), 'A − A');
  });

  it('add of two region matrices is the build of the sum when nothing cancels', () => {
    const P = randomCsrDyadic(3000, 2500, 4000, 24);
    const abs = (M: CsrMatrix): CsrMatrix => ({ ...M, values: M.values.map(Math.abs) });
    const [X, Y] = [abs(A), abs(P)];
    const C = hisparseAdd(hisparseFromCsr(X, { nodeSize: d, regionLeaves: true }), hisparseFromCsr(Y, { nodeSize: d, regionLeaves: true }));
    const built = hisparseFromCsr(csrAdd(X, 1, Y, 1), { nodeSize: d, regionLeaves: true });
    expect(Array.from(C.pool.view())).toEqual(Array.from(built.pool.view()));
  });

  it('insert and remove, copy-on-write, against a map', () => {
    const rng = createRng(31);
    const oracle = entryMap(A);
    const before = Array.from(HA.pool.view());
    let H = HA;
    for (let step = 0; step < 300; step++) {
      const keys = [...oracle.keys()];
      const existing = rng.int(0, 1) === 0 && keys.length > 0;
      const [r, c] = existing
        ? keys[rng.int(0, keys.length - 1)]!.split(',').map(Number)
        : [rng.int(0, A.rows - 1), rng.int(0, A.cols - 1)];
      if (rng.int(0, 2) === 0) {
        const R = hisparseRemove(H, r!, c!);
        if (!oracle.has(`${r},${c}`)) expect(R.root, 'removing an absent entry copies nothing').toBe(H.root);
        oracle.delete(`${r},${c}`);
        H = R;
      } else {
        const v = rng.int(1, 16) / 4;
        H = hisparseInsert(H, r!, c!, v);
        oracle.set(`${r},${c}`, v);
      }
      if (step % 50 === 49) expectReadsLikeEdited(H, fromMap(A.rows, A.cols, oracle), `step ${step}`);
    }
    expect(Array.from(HA.pool.view().subarray(0, before.length)), 'old words untouched').toEqual(before);
    expectSameCsr(hisparseToCsr(HA), A, 'the original matrix is unchanged');
  });

  it('edits through the state: transposed and scaled', () => {
    const T = scale(transpose(HA), 2);
    const E = hisparseInsert(T, 5, 7, 3);
    const m = entryMap(csrTranspose(A));
    for (const [k, v] of m) m.set(k, 2 * v);
    m.set('5,7', 3);
    expectSameCsr(hisparseToCsr(E), fromMap(A.cols, A.rows, m), 'insert into 2Aᵀ');
  });

  it('removing every entry of a region leaf removes it, down to an empty matrix', () => {
    const S = randomCsrDyadic(500, 500, 6, 41);
    let H = hisparseFromCsr(S, { nodeSize: 4, regionLeaves: true });
    expect(hasRegionLeaves(H)).toBe(true);
    for (const key of entryMap(S).keys()) {
      const [r, c] = key.split(',').map(Number);
      H = hisparseRemove(H, r!, c!);
    }
    expect(H.root).toBe(0);
    expect(hisparseToCsr(H).colIdx.length).toBe(0);
  });

  it('a region that grows past the cap becomes a subtree again', () => {
    const S = randomCsrDyadic(4096, 4096, REGION_LEAF_MAX_ENTRIES - 5, 42);
    let H = hisparseFromCsr(S, { nodeSize: 64, regionLeaves: true });
    const m = entryMap(S);
    expect(isRegionLeaf(H.pool, H.root)).toBe(true);
    const rng = createRng(43);
    while (m.size <= REGION_LEAF_MAX_ENTRIES) {
      const [r, c] = [rng.int(0, 4095), rng.int(0, 4095)];
      H = hisparseInsert(H, r, c, 1);
      m.set(`${r},${c}`, 1);
    }
    expect(isRegionLeaf(H.pool, H.root)).toBe(false);
    expectReadsLikeEdited(H, fromMap(4096, 4096, m), 'past the cap');
  });

  it('compaction keeps region leaves and drops old paths', () => {
    let H = HA;
    for (let k = 0; k < 20; k++) H = hisparseInsert(H, k * 100, k * 90, k + 1);
    const C = hisparseCompact(H);
    expect(4 * C.pool.used).toBe(hisparseMemoryBytes(C));
    expect(hisparseMemoryBytes(C)).toBe(hisparseMemoryBytes(H));
    expect(C.pool.used).toBeLessThan(H.pool.used);
    expectSameCsr(hisparseToCsr(C), hisparseToCsr(H), 'compacted');
    expect(hasRegionLeaves(C)).toBe(true);
  });
});

/** As {@link expectReadsLike}, for an edited matrix (its pool holds old paths: no pool comparison). */
function expectReadsLikeEdited(H: HiSparseHost, A: CsrMatrix, label: string): void {
  expectSameCsr(hisparseToCsr(H), A, `${label}: toCsr`);
  const x = dyadicVector(A.cols, 7);
  const xt = dyadicVector(A.rows, 8);
  expect(hisparseSpmv(H, x), `${label}: A·x`).toEqual(spmv(A, x));
  expect(hisparseSpmv(H, xt, { transpose: true }), `${label}: Aᵀ·x`).toEqual(spmv(A, xt, { transpose: true }));
  expect(hisparseStats(H).nnz, `${label}: nnz`).toBe(A.colIdx.length);
}

describe('property: seeded random shapes and densities', () => {
  it('every read, add with a plain matrix, and memory never above the plain pool', () => {
    const rng = createRng(99);
    for (let trial = 0; trial < 40; trial++) {
      const rows = rng.int(1, 3000);
      const cols = rng.int(1, 3000);
      const density = [0.0001, 0.001, 0.01, 0.05][rng.int(0, 3)]!;
      const nnz = Math.min(20000, Math.round(rows * cols * density) + rng.int(0, 3));
      const d = [4, 8, 16, 32][rng.int(0, 3)]!;
      const A = randomCsrDyadic(rows, cols, nnz, 1000 + trial);
      const label = `trial ${trial}: ${rows}×${cols}, ${A.colIdx.length} entries, d = ${d}`;
      const H = hisparseFromCsr(A, { nodeSize: d, regionLeaves: true });
      const plain = hisparseFromCsr(A, { nodeSize: d });
      expectReadsLike(H, A, label);
      expect(hisparseMemoryBytes(H), label).toBeLessThanOrEqual(hisparseMemoryBytes(plain));
      const B = randomCsrDyadic(rows, cols, nnz, 2000 + trial);
      const sum = hisparseAdd(H, hisparseFromCsr(B, { nodeSize: d, regionLeaves: trial % 2 === 0 }));
      expectSameValues(hisparseToCsr(sum), csrAdd(A, 1, B, 1), `${label}: add`);
    }
  });
});

describe('memory', () => {
  it('uniform 2^14 rows × 16 per row: at most 1.2× CSR with region leaves', () => {
    const A = dyadic(uniformRandomMatrix({ rows: 1 << 14, nnzPerRow: 16, seed: 3 }), 4);
    const csr = csrBytes(A);
    const auto = hisparseFromCsr(A, { nodeSize: 'auto' });
    const plain = hisparseFromCsr(A, { nodeSize: 64 });
    expect(hasRegionLeaves(auto)).toBe(true);
    expect(hisparseMemoryBytes(auto) / csr).toBeLessThanOrEqual(1.2);
    expect(hisparseMemoryBytes(plain) / csr).toBeGreaterThan(1.3); // what region leaves fix (2.6× at 1M rows: README)
    const x = dyadicVector(A.cols, 1);
    expect(hisparseSpmv(auto, x)).toEqual(spmv(A, x));
  });

  it('power-law 2^14 rows: at most 1.2× CSR with region leaves', () => {
    const A = powerLawMatrix({ rows: 1 << 14, nnzPerRow: 16, seed: 5 });
    const auto = hisparseFromCsr(A, { nodeSize: 'auto' });
    expect(hisparseMemoryBytes(auto) / csrBytes(A)).toBeLessThanOrEqual(1.2);
  });

  it('structured (poisson2d): region leaves never make it larger', () => {
    const A = poisson2d(256);
    for (const d of [16, 32, 64]) {
      const on = hisparseMemoryBytes(hisparseFromCsr(A, { nodeSize: d, regionLeaves: true }));
      const off = hisparseMemoryBytes(hisparseFromCsr(A, { nodeSize: d }));
      expect(on).toBeLessThanOrEqual(off);
    }
  });
});

describe('the GPU build does not make region leaves', () => {
  it('GPU build options regionLeaves: true and nodeSize: auto are UNSUPPORTED', () => {
    expect(checkGpuBuildOptions({ nodeSize: 32 })).toBe(32);
    expect(checkGpuBuildOptions({ nodeSize: 32, regionLeaves: false })).toBe(32);
    expect(() => checkGpuBuildOptions({ regionLeaves: true })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
    expect(() => checkGpuBuildOptions({ nodeSize: 'auto' })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
    expect(() => checkGpuBuildOptions({ nodeSize: 48 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
