// The GPU traversal (census, per-type queues sized on the GPU, leaf kernels that add by
// compare-and-swap) against the CPU reference, on dyadic data so every sum is exact whatever the
// order the leaves add in: y = s·op(A)·x for plain, transposed, scaled and transposed-view
// matrices, every generator shape and the edge shapes, node sizes 4 to 256, each with both combines
// (compare-and-swap into y, and records reduced by sort and segmented scan). Statistics and memory
// must equal the CPU's counts exactly.
import { type ScanContext, ScanError } from '@scan/core';
import { freshTestContext, getTestContext } from '@scan/gpu-testing';
import { bandedMatrix, biasedMatrix, type CsrMatrix, poisson2d, powerLawMatrix, uniformRandomMatrix } from '@scan/spmv';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type HiSparseStats,
  hisparseFromCsr,
  hisparseSpmv,
  hisparseStats,
  scale as scaleHost,
  transpose as transposeHost,
} from '../src/cpu/index.js';
import { createHiSparseAddPlan } from '../src/gpu/add-plan.js';
import { SPILL_SLOTS } from '../src/gpu/kernels/spill-kernels.js';
import { createHiSparseSpmvPlan, HiSparseMatrix } from '../src/gpu/matrix.js';
import { createPoolSpmvPlan } from '../src/gpu/spmv-plan.js';
import { coo4ClassesOf, dyadicVector, randomCsrDyadic } from './oracle.js';

let ctx: ScanContext;
beforeAll(async () => {
  ctx = await getTestContext();
});

/** The pattern of A with dyadic values k/8 (k in ±[1, 16], from the position), so products sum exactly. */
function dyadic(A: CsrMatrix): CsrMatrix {
  const values = new Float32Array(A.values.length);
  for (let k = 0; k < values.length; k++) values[k] = ((((k * 7919) % 32) - 16 || 3) as number) / 8;
  return { ...A, values };
}

// Bits, with −0 read as +0: an empty row of a negatively scaled matrix is s·0 = −0 on the CPU and a cleared +0 on the GPU.
const bits = (a: Float32Array) => Array.from(a, (v) => new Uint32Array(new Float32Array([v === 0 ? 0 : v]).buffer)[0]);

const COMBINES = ['atomic', 'segmented'] as const;

/** An n×n matrix with row 0 full and the diagonal (values to be filled): one output every leaf of the top block row adds into. */
function fullRow(n: number): CsrMatrix {
  const rowPtr = new Uint32Array(n + 1);
  const colIdx: number[] = [];
  for (let r = 0; r < n; r++) {
    if (r === 0) for (let c = 0; c < n; c++) colIdx.push(c);
    else colIdx.push(r);
    rowPtr[r + 1] = colIdx.length;
  }
  return { rows: n, cols: n, rowPtr, colIdx: Uint32Array.from(colIdx), values: new Float32Array(colIdx.length) };
}

/** One product of `plan` (y poisoned first), read back. */
async function planProduct(plan: ReturnType<typeof createPoolSpmvPlan>, x: Float32Array): Promise<Float32Array> {
  const device = ctx.device;
  const xBuffer = device.createBuffer({ size: Math.max(4, 4 * x.length), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(xBuffer, 0, x as Float32Array<ArrayBuffer>);
  const bytes = Math.max(4, 4 * plan.outLength);
  const y = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(y, 0, new Float32Array(bytes / 4).fill(Number.NaN));
  const read = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  plan.encode(encoder, { x: xBuffer, y });
  encoder.copyBufferToBuffer(y, 0, read, 0, bytes);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(read.getMappedRange().slice(0, 4 * plan.outLength));
  read.unmap();
  for (const b of [xBuffer, y, read]) b.destroy();
  return out;
}

async function expectProducts(A: CsrMatrix, nodeSize: number, label: string, regionLeaves = false): Promise<HiSparseStats> {
  const H = hisparseFromCsr(A, { nodeSize, regionLeaves });
  const M = await HiSparseMatrix.fromHost(ctx, H);
  const views: [string, HiSparseMatrix, ReturnType<typeof transposeHost>][] = [
    ['A', M, H],
    ['Aᵀ view', M.transpose(), transposeHost(H)],
    ['-0.5·Aᵀ view', M.transpose().scale(-0.5), scaleHost(transposeHost(H), -0.5)],
  ];
  try {
    for (const [name, G, host] of views) {
      for (const transpose of [false, true]) {
        const x = dyadicVector(transpose ? G.rows : G.cols, A.rows + 3);
        const expected = hisparseSpmv(host, x, { transpose });
        for (const combine of COMBINES) {
          const actual = await G.spmv(x, { transpose, combine });
          expect(bits(actual), `${label} d=${nodeSize} ${name} transpose=${transpose} ${combine}`).toEqual(bits(expected));
        }
      }
    }
    const stats = hisparseStats(H);
    expect(M.stats(), `${label} d=${nodeSize} stats`).toEqual(stats);
    // The leaf dispatches are sized from these: a class counted short would leave leaves out.
    expect(M.census.coo4Classes, `${label} d=${nodeSize} COO4 leaves per size class`).toEqual(coo4ClassesOf(H));
    expect(M.memoryBytes()).toBe(stats.memoryBytes);
    return stats;
  } finally {
    for (const [, G] of views) G.destroy();
  }
}

describe('HiSparseMatrix.spmv against the CPU reference', () => {
  it('edge shapes', async () => {
    const empty = (rows: number, cols: number): CsrMatrix => ({
      rows,
      cols,
      rowPtr: new Uint32Array(rows + 1),
      colIdx: new Uint32Array(0),
      values: new Float32Array(0),
    });
    await expectProducts(empty(0, 0), 4, '0×0');
    await expectProducts(empty(5, 9), 4, 'no entries');
    await expectProducts(randomCsrDyadic(1, 1, 1, 1), 4, '1×1');
    await expectProducts(randomCsrDyadic(37, 300, 500, 2), 4, 'non-square');
    await expectProducts(randomCsrDyadic(300, 37, 500, 3), 16, 'non-square, tall');
    await expectProducts(randomCsrDyadic(20, 20, 400, 4), 4, 'dense (dense leaves and inner nodes)');
    const row = randomCsrDyadic(1, 700, 700, 5);
    await expectProducts(
      { ...row, rows: 70, rowPtr: Uint32Array.from({ length: 71 }, (_, r) => (r <= 33 ? 0 : row.colIdx.length)) },
      32,
      'one full row',
    );
  });

  it('generators at several node sizes', async () => {
    await expectProducts(dyadic(poisson2d(24)), 4, 'poisson2d');
    await expectProducts(dyadic(poisson2d(24)), 32, 'poisson2d');
    await expectProducts(dyadic(biasedMatrix(3000, { seed: 3 })), 16, 'biased');
    await expectProducts(dyadic(powerLawMatrix({ rows: 2048, nnzPerRow: 6, seed: 4 })), 32, 'power law');
    await expectProducts(dyadic(uniformRandomMatrix({ rows: 1500, cols: 900, nnzPerRow: 6, seed: 5 })), 8, 'uniform');
    await expectProducts(dyadic(bandedMatrix({ n: 2500, lower: 2, upper: 3, seed: 6 })), 256, 'banded');
  });

  it('COO4 leaves of every size class (per-size queues) in one matrix', async () => {
    // 64×64 blocks at d = 64 holding 0 to 4,000 entries: COO4 leaves of up to 128, up to 1024 and
    // more entries (the three size classes, each with its own dispatch), beside COO1, COO2 and
    // dense leaves, in several blocks of each kind so the classes interleave in the leaf queue.
    const d = 64;
    const blocks = 6;
    const perBlock = [3, 40, 128, 129, 300, 1024, 1025, 1500, 0, 1, 2, 4000];
    const coords = new Map<number, number[]>();
    let b = 0;
    for (let bi = 0; bi < blocks; bi++) {
      for (let bj = 0; bj < blocks; bj++) {
        const n = perBlock[b++ % perBlock.length] as number;
        // n distinct slots of the block, spread by a stride coprime to d².
        for (let k = 0; k < n; k++) {
          const slot = (k * 2909 + b * 17) % (d * d);
          const r = bi * d + Math.floor(slot / d);
          const list = coords.get(r) ?? [];
          list.push(bj * d + (slot % d));
          coords.set(r, list);
        }
      }
    }
    const rows = blocks * d;
    const rowPtr = new Uint32Array(rows + 1);
    const colIdx: number[] = [];
    for (let r = 0; r < rows; r++) {
      colIdx.push(...(coords.get(r) ?? []).sort((x, y) => x - y));
      rowPtr[r + 1] = colIdx.length;
    }
    const A = dyadic({ rows, cols: rows, rowPtr, colIdx: Uint32Array.from(colIdx), values: new Float32Array(colIdx.length) });
    const stats = hisparseStats(hisparseFromCsr(A, { nodeSize: d }));
    expect(stats.leafNodes.coo4, 'COO4 leaves').toBeGreaterThan(12);
    expect(stats.leafNodes.dense, 'dense leaves').toBeGreaterThan(0);
    expect(
      coo4ClassesOf(hisparseFromCsr(A, { nodeSize: d })).every((n) => n > 0),
      'every size class',
    ).toBe(true);
    await expectProducts(A, d, 'size classes');
  });

  it('the spill table of hot outputs: every sum through it, dense, sparse and region leaves, both orientations', async () => {
    // SwiftShader rarely makes two workgroups contend for a word of y, so the spill path is forced.
    const cases: [string, CsrMatrix, number, boolean][] = [
      ['full row', dyadic(fullRow(2000)), 32, false],
      ['dense leaves', randomCsrDyadic(20, 20, 400, 4), 4, false],
      ['power law', dyadic(powerLawMatrix({ rows: 700, cols: 600, nnzPerRow: 5, seed: 9 })), 16, false],
      // The region-leaf kernel's sums (FORMAT.md, "Region leaves"), through the same table.
      ['region leaves', randomCsrDyadic(500, 500, 3000, 51), 4, true],
    ];
    for (const [label, A, d, regionLeaves] of cases) {
      const H = hisparseFromCsr(A, { nodeSize: d, regionLeaves });
      if (regionLeaves) expect(hisparseStats(H).regionLeaves.coo4, label).toBeGreaterThan(0);
      const M = await HiSparseMatrix.fromHost(ctx, H);
      try {
        for (const transpose of [false, true]) {
          const plan = createPoolSpmvPlan(ctx, M.parts, M.census, { transpose, spillAlways: true });
          const x = dyadicVector(transpose ? A.rows : A.cols, 11);
          const actual = await planProduct(plan, x);
          plan.destroy();
          expect(bits(actual), `${label} transpose=${transpose}`).toEqual(bits(hisparseSpmv(H, x, { transpose })));
        }
      } finally {
        M.destroy();
      }
    }
  });

  it('one full row across many leaves: both combines, a plan reused for several encodes', async () => {
    // Row 0 full and the diagonal: every leaf of the top row of blocks adds into y[0].
    const n = 3000;
    const A = dyadic(fullRow(n));
    const H = hisparseFromCsr(A, { nodeSize: 32 });
    const M = await HiSparseMatrix.fromHost(ctx, H);
    const device = ctx.device;
    const scratch: Record<string, number> = {};
    try {
      for (const transpose of [false, true]) {
        for (const combine of COMBINES) {
          const plan = createHiSparseSpmvPlan(M.ctx, M, { transpose, combine });
          const xs = [1, 2, 3].map((seed) => dyadicVector(n, seed));
          const buffers = xs.map((x) => {
            const b = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
            device.queue.writeBuffer(b, 0, x as Float32Array<ArrayBuffer>);
            return b;
          });
          const y = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
          const reads = buffers.map(() => device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }));
          scratch[combine] = plan.scratchBytes;
          // Several encodes of one plan into one encoder: each product reuses the plan's scratch.
          // The first round makes the plan's parameter rings (grown to the encodes one encoder
          // takes); the second, the same encodes again, makes nothing.
          let allocations = 0;
          for (const round of [0, 1]) {
            const encoder = device.createCommandEncoder();
            buffers.forEach((x, i) => {
              plan.encode(encoder, { x, y });
              encoder.copyBufferToBuffer(y, 0, reads[i] as GPUBuffer, 0, 4 * n);
            });
            device.queue.submit([encoder.finish()]);
            if (round === 0) allocations = plan.allocations;
            else expect(plan.allocations, `${combine}: no allocation per encode`).toBe(allocations);
            for (const [i, read] of reads.entries()) {
              await read.mapAsync(GPUMapMode.READ);
              const actual = new Float32Array(read.getMappedRange().slice(0));
              read.unmap();
              const expected = hisparseSpmv(H, xs[i] as Float32Array, { transpose });
              expect(bits(actual), `full row transpose=${transpose} ${combine} round ${round} encode ${i}`).toEqual(bits(expected));
            }
          }
          plan.destroy();
          for (const b of [...buffers, y, ...reads]) b.destroy();
        }
        // The records combine owns its record arrays (one slot per leaf entry) beside the queues;
        // the compare-and-swap one its spill table.
        const spillBytes = 8 * SPILL_SLOTS;
        expect(scratch['atomic'] as number).toBeGreaterThan(spillBytes);
        expect(scratch['segmented'] as number).toBeGreaterThan((scratch['atomic'] as number) - spillBytes + 8 * A.colIdx.length);
      }
      // A context claiming smaller limits: record arrays past the binding limit are refused (the
      // queues still fit); with 7 workgroups per dimension every combine pass runs as a 2-D grid.
      const claiming = (limits: Partial<GPUSupportedLimits>): ScanContext => ({
        device: ctx.device,
        caps: { ...ctx.caps, limits: { ...ctx.caps.limits, ...limits } },
        lostReason: undefined,
        lost: ctx.lost,
        destroy: () => undefined,
      });
      const small = claiming({ maxStorageBufferBindingSize: 4096 });
      const options = { transpose: false, combine: 'segmented' } as const;
      expect(() => createPoolSpmvPlan(small, M.parts, M.census, options)).toThrow(
        expect.objectContaining({ code: 'TOO_LARGE', argument: 'options.combine' }) as unknown as Error,
      );
      createPoolSpmvPlan(small, M.parts, M.census, { transpose: false }).destroy();
      const narrow = createPoolSpmvPlan(claiming({ maxComputeWorkgroupsPerDimension: 7 }), M.parts, M.census, options);
      const x = dyadicVector(n, 4);
      const xBuffer = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(xBuffer, 0, x as Float32Array<ArrayBuffer>);
      const y = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
      const read = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      narrow.encode(encoder, { x: xBuffer, y });
      encoder.copyBufferToBuffer(y, 0, read, 0, 4 * n);
      device.queue.submit([encoder.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const actual = new Float32Array(read.getMappedRange().slice(0));
      read.unmap();
      expect(bits(actual), 'full row, 2-D combine grids').toEqual(bits(hisparseSpmv(H, x)));
      narrow.destroy();
      for (const b of [xBuffer, y, read]) b.destroy();
    } finally {
      M.destroy();
    }
  });

  it('rejects a bad combine', async () => {
    const M = await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(randomCsrDyadic(8, 8, 10, 7), { nodeSize: 4 }));
    try {
      const bad = { combine: 'x' } as unknown as { combine: 'atomic' };
      await expect(M.spmv(new Float32Array(8), bad)).rejects.toThrow(ScanError);
      await expect(M.spmv(new Float32Array(8), bad)).rejects.toThrow(/options\.combine/);
      expect(() => createHiSparseSpmvPlan(M.ctx, M, bad)).toThrow(/options\.combine/);
    } finally {
      M.destroy();
    }
  });

  it('makes a plan only of a live HiSparseMatrix of the same context, naming A otherwise', async () => {
    const M = await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(randomCsrDyadic(8, 8, 10, 7), { nodeSize: 4 }));
    const other = await freshTestContext();
    try {
      const named = (f: () => unknown, pattern: RegExp) => {
        try {
          f();
        } catch (e) {
          expect(e).toBeInstanceOf(ScanError);
          expect((e as ScanError).argument).toBe('A');
          expect((e as Error).message).toMatch(pattern);
          return;
        }
        throw new Error('expected a ScanError');
      };
      named(() => createHiSparseSpmvPlan(ctx, { rows: 8 } as unknown as HiSparseMatrix), /HiSparseMatrix/);
      named(() => createHiSparseSpmvPlan(other, M), /this context/);
    } finally {
      M.destroy();
      other.destroy();
    }
    expect(() => createHiSparseSpmvPlan(ctx, M)).toThrow(/destroy/);
  });
});

describe('region leaves (FORMAT.md) read by the GPU products', () => {
  // Matrices built by the CPU reference with regionLeaves, uploaded as they are: the census counts
  // the region leaves apart (stats equal hisparseStats), the traversal puts them into their own
  // queue, and the region-leaf kernel (a workgroup each, 16-bit local coordinates, the pointer's
  // type) adds their products, with both combines, every view and both orientations.
  it('edge shapes, generators and every region-leaf type', async () => {
    const seen = { coo1: 0, coo2: 0, coo4: 0 };
    const count = (st: HiSparseStats) => st.regionLeaves.coo1 + st.regionLeaves.coo2 + st.regionLeaves.coo4;
    const cases: [string, CsrMatrix, number][] = [
      ['random, d 4 (region leaves beside subtrees)', randomCsrDyadic(500, 500, 3000, 51), 4],
      ['one entry: the root a COO1 region leaf', randomCsrDyadic(1000, 1000, 1, 52), 4],
      ['two entries: the root a COO2 region leaf', randomCsrDyadic(1000, 1000, 2, 53), 4],
      ['the whole matrix one region leaf', randomCsrDyadic(4096, 4096, 2000, 9), 64],
      ['one region leaf at the entry cap (16 entries an invocation)', randomCsrDyadic(4096, 4096, 4091, 42), 64],
      ['non-square', randomCsrDyadic(37, 3000, 600, 54), 4],
      ['rows past 65536: region leaves below level 1 only', randomCsrDyadic(200000, 200000, 5000, 11), 16],
      ['uniform', dyadic(uniformRandomMatrix({ rows: 3000, cols: 2000, nnzPerRow: 4, seed: 55 })), 16],
      ['power law', dyadic(powerLawMatrix({ rows: 4096, nnzPerRow: 6, seed: 56 })), 16],
    ];
    for (const [label, A, d] of cases) {
      const stats = await expectProducts(A, d, label, true);
      expect(count(stats), `${label}: region leaves`).toBeGreaterThan(0);
      seen.coo1 += stats.regionLeaves.coo1;
      seen.coo2 += stats.regionLeaves.coo2;
      seen.coo4 += stats.regionLeaves.coo4;
    }
    expect(seen.coo1 > 0 && seen.coo2 > 0 && seen.coo4 > 0, `region leaves of every type: ${JSON.stringify(seen)}`).toBe(true);
  });

  it('toCsr reads them back; the GPU add and add plan refuse an operand holding them, naming it', async () => {
    const A = randomCsrDyadic(500, 500, 600, 57);
    const R = await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(A, { nodeSize: 4, regionLeaves: true }));
    const P = await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(randomCsrDyadic(500, 500, 600, 58), { nodeSize: 4 }));
    const unsupported = async (f: () => unknown, argument: string) => {
      const error = await (async () => f())().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, argument).toBeInstanceOf(ScanError);
      expect(error as ScanError).toMatchObject({ code: 'UNSUPPORTED', argument });
      expect((error as Error).message).toMatch(/region leaves/);
    };
    try {
      expect(R.census.regions).toBeDefined();
      expect(P.census.regions).toBeUndefined();
      const csr = await R.transpose().transpose().toCsr();
      expect([Array.from(csr.rowPtr), Array.from(csr.colIdx), bits(csr.values)]).toEqual([
        Array.from(A.rowPtr),
        Array.from(A.colIdx),
        bits(A.values),
      ]);
      await unsupported(() => R.add(P), 'A');
      await unsupported(() => P.add(R), 'B');
      const plan = createHiSparseAddPlan(ctx, { nodeSize: 4, levels: R.levels, maxNodes: 4096, maxWords: 1 << 16 });
      try {
        await unsupported(() => plan.encode(ctx.device.createCommandEncoder(), { A: P, B: R }), 'args.B');
      } finally {
        plan.destroy();
      }
    } finally {
      R.destroy();
      P.destroy();
    }
  });
});
