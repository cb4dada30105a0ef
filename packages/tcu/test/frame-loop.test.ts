// Every plan of @scan/tcu encoded the way a real-time application does: a new count every frame
// (and, for some, a new segment size), 1,000 frames, with the device's buffer, bind group and
// pipeline creations counted (see runFrameLoop). In steady state a plan creates nothing; it holds
// no more than its documented memory; after destroy() it leaves nothing alive. Then several encodes
// of each plan into one encoder, each checked against the CPU reference. SwiftShader has no
// subgroup matrices, so these run the emulated path; scripts/frame-loop-check.ts runs the same
// loops on the subgroup-matrix path of a GPU that has it.
import type { ScanContext } from '@scan/core';
import { bufferOf, createRng, getTestContext, poisoned, runBatch, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import {
  createTcuCountPlan,
  createTcuReducePlan,
  createTcuScanPlan,
  packBytes,
  packHalves,
  type TcuPlan,
  type TcuPlanOptions,
} from '../src/index.js';
import { expectClose, halfData } from './close.js';

const N = 4096;
const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };
const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/**
 * A selection table that reaches the grid level in small arrays: the block level up to one tile
 * (256 values), parts of one tile above, so N values take a grid level over 16 partials.
 */
const GRID_TABLE = { warpTiles: 2, blockMaxTiles: 1, gridPartTiles: 1 };

/** Bytes of a plan's parameter ring: 4 slots of `blocks` (rounded up to a power of two) 256-byte blocks. */
const ring = (blocks: number) => 4 * 2 ** Math.ceil(Math.log2(blocks)) * 256;
/** Bytes of the partials of one grid level over `n` values in segments of `s`, parts of 256 (GRID_TABLE). */
const partials = (n: number, s: number) => 4 * Math.ceil(n / s) * Math.ceil(s / 256);
/**
 * Bytes a scratch buffer grown by doubling may hold for a largest need of `bytes`: the current
 * buffer (less than twice that) and the outgrown ones (less than the current one together).
 */
const grown = (bytes: number) => 4 * bytes;

type Kind = 'reduce' | 'scan' | 'count';

/** A frame-loop case: the plan, the segment sizes its frames take (undefined: the whole array), its bound. */
interface LoopCase {
  kind: Kind;
  options: TcuPlanOptions & { inclusive?: boolean };
  sizes: readonly (number | undefined)[];
  /** The documented bound at N elements: buffers held and their bytes. */
  bound: { buffers: number; bytes: number };
}

const CASES: Record<string, LoopCase> = {
  'reduce, the whole array, maxCount': {
    kind: 'reduce',
    options: { maxCount: N },
    sizes: [undefined],
    // The block level holds no scratch: the ring of one dispatch's block.
    bound: { buffers: 1, bytes: ring(1) },
  },
  'reduce, segments of 300 at the grid level': {
    kind: 'reduce',
    options: { table: GRID_TABLE, segmentSizes: [300] },
    sizes: [300],
    // One grid level's partials (2 per segment), two dispatches' blocks.
    bound: { buffers: 2, bytes: partials(N, 300) + ring(2) },
  },
  'reduce, a new segment size every frame': {
    kind: 'reduce',
    options: { table: GRID_TABLE, segmentSizes: [7, 16, 300, 1000] },
    sizes: [undefined, 7, 16, 300, 1000],
    // The grid level's partials: the most of the whole array (16 parts) and of the segment sizes
    // past a tile (300: 2 parts per segment, 1000: 4), grown by doubling (once here); two blocks.
    bound: { buffers: 3, bytes: grown(Math.max(partials(N, N), partials(N, 300), partials(N, 1000))) + ring(2) },
  },
  'scan, inclusive, the whole array at the grid level, maxCount': {
    kind: 'scan',
    options: { inclusive: true, table: GRID_TABLE, maxCount: N },
    sizes: [undefined],
    // Sized once: the part totals and their scan (16 each), the block level's placeholder for its
    // partials binding, three dispatches' blocks.
    bound: { buffers: 4, bytes: 2 * partials(N, N) + 16 + ring(3) },
  },
  'scan, exclusive, a new segment size every frame': {
    kind: 'scan',
    options: { table: GRID_TABLE, segmentSizes: [1, 48, 300] },
    sizes: [undefined, 1, 48, 300],
    // Part totals and their scan, each grown once by doubling (the whole array needs 16 values,
    // segments of 300 2 per segment); the placeholder; three blocks.
    bound: { buffers: 6, bytes: 2 * grown(Math.max(partials(N, N), partials(N, 300))) + 16 + ring(3) },
  },
  'count, segments of 32, maxCount': {
    kind: 'count',
    options: { segmentSizes: [32], maxCount: N },
    sizes: [32],
    bound: { buffers: 1, bytes: ring(1) },
  },
  'count, the whole array and segments of 1000 at the grid level': {
    kind: 'count',
    options: { table: GRID_TABLE, maxCount: N, maxSegmentSize: 1000, segmentSizes: [1000] },
    sizes: [undefined, 1000],
    // Sized once by maxCount for both: the larger partials, two blocks.
    bound: { buffers: 2, bytes: Math.max(partials(N, N), partials(N, 1000)) + ring(2) },
  },
};

/** The plan of a case. */
function planOf(ctx: ScanContext, kind: Kind, options: LoopCase['options']): TcuPlan {
  if (kind === 'scan') return createTcuScanPlan(ctx, options);
  return kind === 'reduce' ? createTcuReducePlan(ctx, options) : createTcuCountPlan(ctx, options);
}

describe('plans in a frame loop', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: 1,000 frames with random counts create nothing, hold their bound, destroy() frees everything`, async () => {
      const ctx = await getTestContext();
      const rng = createRng(name.length * 7919);
      // f16 data or u8 flags for N values, and an output of N values.
      const input = ctx.device.createBuffer({ size: 2 * N, usage: USAGE });
      const output = ctx.device.createBuffer({ size: 4 * N, usage: USAGE });
      try {
        if (c.kind === 'count') ctx.device.queue.writeBuffer(input, 0, packBytes(new Uint8Array(N).map((_, i) => (i % 3) & 1)));
        else ctx.device.queue.writeBuffer(input, 0, packHalves(cpu.toF16Array(halfData(N, 1))));
        let memoryBytes = 0;
        const counts = await runFrameLoop(ctx.device, {
          create: () => planOf(ctx, c.kind, c.options),
          // The warm-up at large counts only (N, then N's top eighth) with every segment size;
          // then counts over all of [0, N] (runFrameLoop's maxCount) and random segment sizes: the
          // first encode with the buffers made every structure's bind groups, whichever level,
          // tail or kernel a count later takes.
          maxCount: N,
          seed: name.length * 7919,
          encode: (plan, encoder, frame, count) => {
            const segmentSize = c.sizes[frame < 16 ? frame % c.sizes.length : rng.int(0, c.sizes.length - 1)];
            plan.encode(encoder, { input, output, count, segmentSize });
            memoryBytes = plan.memoryBytes;
          },
        });
        expect(counts.steady, `${name}: created during the counted frames`).toEqual(NOTHING);
        expect(counts.warmup.pipelines, `${name}: pipelines compiled after ready`).toBe(0);
        expect(counts.liveAfterDestroy, `${name}: buffers left after destroy()`).toBe(0);
        expect(counts.liveAtEnd, `${name}: buffers held`).toBeLessThanOrEqual(c.bound.buffers);
        expect(memoryBytes, `${name}: bytes held`).toBeLessThanOrEqual(c.bound.bytes);
      } finally {
        input.destroy();
        output.destroy();
      }
    });
  }
});

/** Counts and segment sizes of the batch below: past the 4 parameter slots, across levels and tails. */
const JOBS: [number, number | undefined][] = [
  [N, undefined],
  [1, undefined],
  [1000, 7],
  [3, 16],
  [2049, 300],
  [4095, 48],
  [17, undefined],
  [3000, 1000],
];

describe('several encodes of one plan before one submit', () => {
  for (const kind of ['reduce', 'scan', 'count'] as const) {
    it(`${kind}: eight counts and segment sizes into one encoder, each its own output`, async () => {
      const ctx = await getTestContext();
      const sizes = { table: GRID_TABLE, segmentSizes: [7, 16, 48, 300, 1000] };
      const plan = planOf(ctx, kind, kind === 'scan' ? { ...sizes, inclusive: true } : sizes);
      await plan.ready;
      const owned: GPUBuffer[] = [];
      const cases = JOBS.map(([count, s], i) => {
        const data = halfData(count, 100 * i + count);
        const flags = new Uint8Array(count).map((_, j) => ((j * 7 + i) % 5 < 2 ? 1 : 0));
        const outLength = kind === 'scan' ? count : Math.ceil(count / (s ?? count));
        return { count, s, data, flags, outLength, output: poisoned(ctx, 4 * outLength) };
      });
      const results = await runBatch(
        ctx,
        cases.map((c) => ({
          record(encoder) {
            const input = bufferOf(ctx, kind === 'count' ? packBytes(c.flags) : packHalves(cpu.toF16Array(c.data)));
            owned.push(input);
            plan.encode(encoder, { input, output: c.output, count: c.count, segmentSize: c.s });
            return [{ buffer: c.output, bytes: 4 * c.outLength }];
          },
        })),
        owned,
      );
      cases.forEach((c, i) => {
        const out = results[i]![0]!;
        const label = `${kind} n=${c.count} s=${c.s}`;
        if (kind === 'count') expect(new Uint32Array(out), label).toEqual(cpu.tcuCount(c.flags, { segmentSize: c.s, pad: true }));
        else expectClose(new Float32Array(out), c.data, c.s, label, kind === 'scan' ? { inclusive: true } : undefined);
      });
      plan.destroy();
    });
  }
});
