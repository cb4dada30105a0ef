// HiSparse product plans encoded the way a frame loop (or a BiCG-like solver) does: A·x and Aᵀ·x
// every frame, with x and y picked at random among a few buffers, 1,000 frames, with the device's
// buffer, bind group and pipeline creations counted (see runFrameLoop). In steady state the plans
// create nothing; they hold no more than their documented memory; after destroy() they leave
// nothing alive. Then several products of one plan recorded into one encoder, each checked against
// the CPU reference (dyadic data: every sum is exact, whatever the order the leaves add in).
import type { ScanContext } from '@scan/core';
import { createRng, getTestContext, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  hisparseAdd,
  hisparseFromCsr,
  hisparseSpmv,
  hisparseToCsr,
  scale as scaleHost,
  transpose as transposeHost,
} from '../src/cpu/index.js';
import { createHiSparseAddPlan, type HiSparseAddPlan, hisparseAddBounds } from '../src/gpu/add-plan.js';
import { CLASS_COUNTER_WORDS } from '../src/gpu/kernels/size-class-kernels.js';
import { SPILL_SLOTS } from '../src/gpu/kernels/spill-kernels.js';
import { createHiSparseSpmvPlan, HiSparseMatrix } from '../src/gpu/matrix.js';
import type { HiSparseSpmvPlan } from '../src/gpu/spmv-plan.js';
import { dyadicVector, expectSameCsr, randomCsrDyadic } from './oracle.js';

const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };
const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const COMBINES = ['atomic', 'segmented'] as const;

/**
 * A matrix over three levels of 16×16 nodes; square, so that the record sorts of A·x and Aᵀ·x sort
 * keys of the same width (one set of kernels to compile on SwiftShader).
 */
const CSR = randomCsrDyadic(300, 300, 3000, 41);
const NODE_SIZE = 16;

/** Bytes of a parameter ring: 4 slots of `blocks` (rounded up to a power of two) 256-byte blocks. */
const ring = (blocks: number) => 4 * 2 ** Math.ceil(Math.log2(blocks)) * 256;

/**
 * What `createHiSparseSpmvPlan`'s JSDoc says a plan holds: the leaf queue (12 bytes per leaf), the
 * counters, the spill table (`'atomic'`) or the records (about 20 bytes per leaf entry plus the
 * sort's and scan's rings and small buffers, and the blocks the count fixups fill, `'segmented'`), and
 * a ring of a block per leaf dispatch.
 */
function documentedBound(M: HiSparseMatrix, combine: (typeof COMBINES)[number]): { buffers: number; bytes: number } {
  const L = M.levels;
  const leaves = (M.census.nodes[L - 1] ?? []).reduce((a, b) => a + b, 0);
  const leafEntries = (M.census.entries[L - 1] ?? []).reduce((a, b) => a + b, 0);
  const fixed = 12 * leaves + 4 * (4 * L + CLASS_COUNTER_WORDS) + ring(8);
  // The leaf queue, counters, spill table and ring.
  if (combine === 'atomic') return { buffers: 4, bytes: fixed + 8 * SPILL_SLOTS };
  // The leaf queue, counters and ring; the records' count, keys, values, run sums and head bits;
  // the sort (at most keys and values again, a status area, a ring and the blocks its count fixup
  // fills; a ring and a block for a few thousand records), the segmented scan (aux, status, ring)
  // and the combine's own ring and the blocks its count fixups fill.
  return { buffers: 3 + 5 + 5 + 3 + 2, bytes: fixed + 24 * leafEntries + 64 * 1024 };
}

/** A few x and y buffers of each length, and a seeded picker among them. */
function vectors(ctx: ScanContext, M: HiSparseMatrix) {
  const make = (n: number, seed: number) => {
    const b = ctx.device.createBuffer({ size: Math.max(16, 4 * n), usage: USAGE });
    ctx.device.queue.writeBuffer(b, 0, dyadicVector(n, seed) as Float32Array<ArrayBuffer>);
    return b;
  };
  const cols = [make(M.cols, 1), make(M.cols, 2)];
  const rows = [make(M.rows, 3), make(M.rows, 4)];
  return {
    cols,
    rows,
    destroy: () => [...cols, ...rows].forEach((b) => b.destroy()),
  };
}

describe('HiSparse product plans in a frame loop', async () => {
  const ctx = await getTestContext();
  const M = await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(CSR, { nodeSize: NODE_SIZE }));

  for (const combine of COMBINES) {
    it(`${combine}: A·x and Aᵀ·x every frame, 1,000 frames with random x and y, create nothing; destroy() frees everything`, async () => {
      expect(M.levels, 'the matrix has inner levels').toBe(3);
      const v = vectors(ctx, M);
      const rng = createRng(combine.length);
      let memoryAtEnd = 0;
      try {
        const counts = await runFrameLoop(ctx.device, {
          // Both plans of one iteration, as one thing to create, await and destroy.
          create: () => {
            const ax = createHiSparseSpmvPlan(M.ctx, M, { combine });
            const atx = createHiSparseSpmvPlan(M.ctx, M, { combine, transpose: true });
            return {
              ax,
              atx,
              ready: Promise.all([ax.ready, atx.ready]).then(() => undefined),
              destroy: () => [ax, atx].forEach((p) => p.destroy()),
            };
          },
          encode: ({ ax, atx }, encoder, frame) => {
            // The warm-up visits every pair of buffers; then random ones.
            const [i, j] = frame < 16 ? [frame & 1, (frame >> 1) & 1] : [rng.int(0, 1), rng.int(0, 1)];
            ax.encode(encoder, { x: v.cols[i]!, y: v.rows[j]! });
            atx.encode(encoder, { x: v.rows[j]!, y: v.cols[1 - i]! });
            memoryAtEnd = ax.memoryBytes + atx.memoryBytes;
          },
        });
        expect(counts.steady, `${combine}: created during the counted frames`).toEqual(NOTHING);
        expect(counts.liveAfterDestroy, `${combine}: buffers left after destroy()`).toBe(0);
        const bound = documentedBound(M, combine);
        // The plans of A·x and Aᵀ·x walk the same tree: the same leaves, the same bound each.
        expect(counts.liveAtEnd, `${combine}: buffers held`).toBeLessThanOrEqual(2 * bound.buffers);
        expect(memoryAtEnd, `${combine}: bytes held`).toBeLessThanOrEqual(2 * bound.bytes);
      } finally {
        v.destroy();
      }
    });
  }

  it('a scaled, transposed view: 1,000 frames of alternating buffers create nothing', async () => {
    const view = M.transpose().scale(-0.5);
    const v = vectors(ctx, M);
    try {
      const counts = await runFrameLoop(ctx.device, {
        create: () => createHiSparseSpmvPlan(view.ctx, view),
        // The view's rows are M's columns.
        encode: (plan: HiSparseSpmvPlan, encoder, frame) => plan.encode(encoder, { x: v.rows[frame % 2]!, y: v.cols[(frame >> 1) % 2]! }),
      });
      expect(counts.steady).toEqual(NOTHING);
      expect(counts.liveAfterDestroy).toBe(0);
    } finally {
      v.destroy();
      view.destroy();
    }
  });
});

describe('several products of one HiSparse plan before one submit', async () => {
  const ctx = await getTestContext();
  const H = hisparseFromCsr(CSR, { nodeSize: NODE_SIZE });
  const M = await HiSparseMatrix.fromHost(ctx, H);
  for (const combine of COMBINES) {
    for (const transpose of [false, true]) {
      it(`${combine}${transpose ? ', Aᵀ·x' : ', A·x'}: eight products into one encoder (past the parameter slots), each its own x and y`, async () => {
        const view = M.scale(2);
        const plan = createHiSparseSpmvPlan(view.ctx, view, { combine, transpose });
        await plan.ready;
        const xs = Array.from({ length: 8 }, (_, i) => dyadicVector(plan.inLength, 50 + i));
        const owned: GPUBuffer[] = [];
        const reads: GPUBuffer[] = [];
        ctx.device.pushErrorScope('validation');
        const encoder = ctx.device.createCommandEncoder();
        for (const x of xs) {
          const xBuffer = ctx.device.createBuffer({ size: Math.max(16, 4 * x.length), usage: USAGE });
          ctx.device.queue.writeBuffer(xBuffer, 0, x as Float32Array<ArrayBuffer>);
          const y = ctx.device.createBuffer({ size: 4 * plan.outLength, usage: USAGE });
          // Poisoned: the plan clears y itself, so an output it does not write would show NaN.
          ctx.device.queue.writeBuffer(y, 0, new Float32Array(plan.outLength).fill(Number.NaN));
          plan.encode(encoder, { x: xBuffer, y });
          const read = ctx.device.createBuffer({ size: 4 * plan.outLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
          encoder.copyBufferToBuffer(y, 0, read, 0, 4 * plan.outLength);
          owned.push(xBuffer, y, read);
          reads.push(read);
        }
        ctx.device.queue.submit([encoder.finish()]);
        expect((await ctx.device.popErrorScope())?.message).toBeUndefined();
        const host = scaleHost(H, 2);
        for (const [i, read] of reads.entries()) {
          await read.mapAsync(GPUMapMode.READ);
          const actual = Array.from(new Float32Array(read.getMappedRange()), (v) => (v === 0 ? 0 : v));
          const expected = Array.from(hisparseSpmv(host, xs[i]!, { transpose }), (v) => (v === 0 ? 0 : v));
          expect(actual, `product ${i}`).toEqual(expected);
          read.unmap();
        }
        for (const b of owned) b.destroy();
        plan.destroy();
        view.destroy();
      });
    }
  }
});

describe('the HiSparse add plan in a frame loop', async () => {
  const ctx = await getTestContext();
  // Small (d = 4, three levels): SwiftShader runs every tenth of 200 frames.
  const hA = hisparseFromCsr(randomCsrDyadic(60, 60, 300, 51), { nodeSize: 4 });
  const hB = hisparseFromCsr(randomCsrDyadic(60, 60, 250, 52), { nodeSize: 4 });

  it('C = op(A) + op(B) every frame, operands and views changing, 200 frames create nothing; destroy() frees everything; then sums in a reused pool equal the CPU sums', async () => {
    const A = await HiSparseMatrix.fromHost(ctx, hA);
    const B = await HiSparseMatrix.fromHost(ctx, hB);
    const At = A.transpose();
    const B2 = B.scale(-2);
    // Each pair's host sum, for the check of the last frame.
    const pairs: [HiSparseMatrix, HiSparseMatrix, () => ReturnType<typeof hisparseAdd>][] = [
      [A, B, () => hisparseAdd(hA, hB)],
      [At, B, () => hisparseAdd(transposeHost(hA), hB)],
      [A, B2, () => hisparseAdd(hA, scaleHost(hB, -2))],
      [B2, At, () => hisparseAdd(scaleHost(hB, -2), transposeHost(hA))],
    ];
    // Sized for the largest pair (the bounds of A + B hold for every pair of these operands).
    const options = hisparseAddBounds(A, B);
    const rng = createRng(7);
    let last = 0;
    let C: HiSparseMatrix | undefined;
    {
      const counts = await runFrameLoop(ctx.device, {
        frames: 200,
        create: (): HiSparseAddPlan => createHiSparseAddPlan(ctx, options),
        encode: (p, encoder, frame) => {
          last = frame < 16 ? frame % pairs.length : rng.int(0, pairs.length - 1);
          const [left, right] = pairs[last]!;
          p.encode(encoder, { A: left, B: right });
        },
      });
      expect(counts.steady, 'created during the counted frames').toEqual(NOTHING);
      expect(counts.liveAfterDestroy, 'buffers left after destroy()').toBe(0);
      // Pool, three item arrays, queues, control and a parameter ring.
      expect(counts.liveAtEnd, 'buffers held').toBeLessThanOrEqual(7);
    }
    // A plan of the same options, for the value check of two pairs in one reused pool.
    const check = createHiSparseAddPlan(ctx, options);
    for (const index of [last, (last + 1) % pairs.length]) {
      const [left, right, host] = pairs[index]!;
      const encoder = ctx.device.createCommandEncoder();
      check.encode(encoder, { A: left, B: right });
      ctx.device.queue.submit([encoder.finish()]);
      C = await check.toMatrix();
      expectSameCsr(await C.toCsr(), hisparseToCsr(host()), `pair ${index}`);
      C.destroy();
    }
    check.destroy();
    for (const M of [B2, At, A, B]) M.destroy();
  });
});
