// The tridiagonal plan encoded the way a real-time application (apps/water) does: every frame, with
// and without `status`, on changing sets of a/b/c/d/x buffers, 1,000 frames, with the device's
// buffer, bind group and pipeline creations counted (see runFrameLoop). n and batch are fixed per
// plan, so once each structure has met each buffer set nothing is created; the plan holds its
// documented memory; after destroy() it leaves nothing alive. Then six solves of different systems
// into one encoder, each compared with the Thomas reference.
import type { ScanContext } from '@scan/core';
import { createRng, getTestContext, poisonBuffer, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createTridiagonalPlan, type TridiagonalPlan, type TridiagonalPlanOptions } from '../src/index.js';
import type { TridiagonalSystems } from '../src/types.js';
import { randomSystems, read, relativeError, upload } from './helpers.js';

const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };
const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** Bytes of a plan's parameter ring: 4 slots of `blocks` (rounded up to a power of two) 256-byte blocks. */
const ring = (blocks: number) => 4 * 2 ** Math.ceil(Math.log2(blocks)) * 256;

/** A plan of the frame loop, with its global levels (systems halved until ≤ maxWorkgroupSystem). */
interface LoopCase {
  options: TridiagonalPlanOptions & { maxWorkgroupSystem?: number };
  /** Global levels and the reduced rows they keep per system (⌊n/2⌋ + ⌊n/4⌋ + …). */
  levels: number;
  rows: number;
}

const CASES: Record<string, LoopCase> = {
  'cr, one workgroup per system': { options: { n: 100, batch: 4, algorithm: 'cr' }, levels: 0, rows: 0 },
  'partition, contiguous': { options: { n: 256, batch: 8 }, levels: 0, rows: 0 },
  'pcr, interleaved': { options: { n: 64, batch: 16, stride: 'interleaved', algorithm: 'pcr' }, levels: 0, rows: 0 },
  'cr-pcr, five global levels': {
    options: { n: 1000, batch: 4, algorithm: 'cr-pcr', maxWorkgroupSystem: 32 },
    levels: 5,
    rows: 500 + 250 + 125 + 62 + 31,
  },
};

/** Two sets of systems (a, b, c, d), three outputs, two status words: what the frames pick from. */
function buffersFor(ctx: ScanContext, n: number, batch: number) {
  const sets = [0, 1].map((seed) => {
    const s = randomSystems(n, batch, seed);
    return { a: upload(ctx, s.a), b: upload(ctx, s.b), c: upload(ctx, s.c), d: upload(ctx, s.d) };
  });
  const xs = [0, 1, 2].map(() => ctx.device.createBuffer({ size: 4 * n * batch, usage: USAGE }));
  const statuses = [0, 1].map(() => upload(ctx, new Uint32Array([0xffffffff])));
  // Every combination: set × output × (no status, status 0, status 1).
  const combos = sets.flatMap((set) => xs.flatMap((x) => [undefined, ...statuses].map((status) => ({ ...set, x, status }))));
  return {
    combos,
    destroy() {
      for (const b of [...sets.flatMap((set) => Object.values(set)), ...xs, ...statuses]) b.destroy();
    },
  };
}

describe('the tridiagonal plan in a frame loop', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: 1,000 frames alternating status and buffers create nothing, hold their bound, destroy() frees everything`, async () => {
      const ctx = await getTestContext();
      const { n, batch } = c.options;
      const b = buffersFor(ctx, n, batch);
      const rng = createRng(name.length);
      try {
        let memoryBytes = 0;
        const counts = await runFrameLoop(ctx.device, {
          create: () => createTridiagonalPlan(ctx, c.options as TridiagonalPlanOptions),
          // The warm-up meets every combination once; then random ones.
          warmup: b.combos.length,
          encode: (plan, encoder, frame) => {
            const combo = b.combos[frame < b.combos.length ? frame : rng.int(0, b.combos.length - 1)]!;
            plan.encode(encoder, combo.status ? combo : { a: combo.a, b: combo.b, c: combo.c, d: combo.d, x: combo.x });
            memoryBytes = plan.memoryBytes;
          },
        });
        expect(counts.steady, `${name}: created during the counted frames`).toEqual(NOTHING);
        expect(counts.warmup.pipelines, `${name}: pipelines compiled after ready`).toBe(0);
        expect(counts.liveAfterDestroy, `${name}: buffers left after destroy()`).toBe(0);
        // The reduced rows (when there are global levels), the status word, the ring of one block
        // per dispatch (levels down, the solve, levels back up).
        const bound = { buffers: (c.levels > 0 ? 1 : 0) + 2, bytes: 16 * c.rows * batch + 16 + ring(2 * c.levels + 1) };
        expect(counts.liveAtEnd, `${name}: buffers held`).toBeLessThanOrEqual(bound.buffers);
        expect(memoryBytes, `${name}: bytes held`).toBeLessThanOrEqual(bound.bytes);
      } finally {
        b.destroy();
      }
    });
  }
});

describe('several solves of one plan before one submit', () => {
  it('six systems into one encoder (past the parameter slots), each its own x, with and without status', async () => {
    const ctx = await getTestContext();
    const n = 1000;
    const batch = 3;
    const plan: TridiagonalPlan = createTridiagonalPlan(ctx, {
      n,
      batch,
      algorithm: 'cr-pcr',
      maxWorkgroupSystem: 64,
    } as TridiagonalPlanOptions);
    await plan.ready;
    const owned: GPUBuffer[] = [];
    const own = (b: GPUBuffer) => {
      owned.push(b);
      return b;
    };
    ctx.device.pushErrorScope('validation');
    const encoder = ctx.device.createCommandEncoder();
    const solves = Array.from({ length: 6 }, (_, i) => {
      const systems: TridiagonalSystems = randomSystems(n, batch, 50 + i);
      const x = own(ctx.device.createBuffer({ size: 4 * n * batch, usage: USAGE }));
      poisonBuffer(ctx, x, 4 * n * batch);
      const status = i % 2 === 0 ? own(upload(ctx, new Uint32Array([0xffffffff]))) : undefined;
      const args = {
        a: own(upload(ctx, systems.a)),
        b: own(upload(ctx, systems.b)),
        c: own(upload(ctx, systems.c)),
        d: own(upload(ctx, systems.d)),
        x,
      };
      plan.encode(encoder, status ? { ...args, status } : args);
      return { systems, x, status };
    });
    ctx.device.queue.submit([encoder.finish()]);
    expect(await ctx.device.popErrorScope()).toBeNull();
    for (const [i, s] of solves.entries()) {
      const x = new Float32Array(await read(ctx, s.x, 4 * n * batch));
      const { worst, system } = relativeError(x, cpu.solveTridiagonal(s.systems), s.systems);
      expect(worst, `solve ${i}: normwise relative error of system ${system}`).toBeLessThanOrEqual(1e-5);
      if (s.status) expect(new Uint32Array(await read(ctx, s.status, 4))[0], `solve ${i}: status`).toBe(0xffffffff);
    }
    plan.destroy();
    for (const b of owned) b.destroy();
  });
});
