// The frame's GPU work (cull, packs, sort, draw args) against the CPU reference on small seeded
// scenes, and in a frame loop (nothing created per frame once ready).
import type { ScanContext } from '@scan/core';
import { getTestContext, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, test } from 'vitest';
import { cpuSplatOrder, createSplatFrame, type KeyBits, orbitMatrices } from '../../src/frame/index.js';
import { syntheticScene } from '../../src/scene/synthetic.js';

async function read(ctx: ScanContext, buffer: GPUBuffer, words: number): Promise<Uint32Array> {
  const staging = ctx.device.createBuffer({ size: Math.max(4, 4 * words), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = ctx.device.createCommandEncoder();
  if (words > 0) encoder.copyBufferToBuffer(buffer, 0, staging, 0, 4 * words);
  ctx.device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0, 4 * words));
  staging.destroy();
  return out;
}

function upload(ctx: ScanContext, data: Float32Array<ArrayBuffer>): GPUBuffer {
  const buffer = ctx.device.createBuffer({ size: Math.max(16, data.byteLength), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  ctx.device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/** A view from close by, so that part of the scene is outside the frustum. */
function camera(radius: number, yaw = 0.6) {
  return orbitMatrices({ target: [0, 0, 0], distance: 1.7 * radius, yaw, pitch: 0.3, fovY: 0.8 }, 1.25, radius);
}

describe('the splat frame against the CPU reference', () => {
  for (const [splats, keyBits] of [
    [3000, 32],
    [3000, 16],
    [300, 32],
  ] as [number, KeyBits][]) {
    test(`${splats} splats, ${keyBits}-bit keys: the visible splats, farthest first, and the draw's instance count`, async () => {
      const ctx = await getTestContext();
      const scene = syntheticScene(splats, 7);
      const positions = upload(ctx, scene.positions);
      const frame = createSplatFrame(ctx, { maxSplats: splats, keyBits });
      try {
        await frame.ready;
        const m = camera(scene.radius);
        const encoder = ctx.device.createCommandEncoder();
        frame.encode(encoder, { positions, count: splats, view: m.view, viewProjection: m.viewProjection, depthRange: m.depthRange });
        ctx.device.queue.submit([encoder.finish()]);
        const ref = cpuSplatOrder(scene.positions, splats, m.view, m.viewProjection, keyBits, m.depthRange);
        const [count] = await read(ctx, frame.visibleCount, 1);
        expect(ref.order.length, 'some splats are culled, some drawn').toBeGreaterThan(splats / 10);
        expect(ref.order.length).toBeLessThan(splats);
        expect(count).toBe(ref.order.length);
        expect([...(await read(ctx, frame.drawArgs, 4))]).toEqual([4, count, 0, 0]);
        const order = await read(ctx, frame.order, count!);
        const keyWords = await read(ctx, frame.keys, count!);
        const keys = keyBits === 32 ? Array.from(new Float32Array(keyWords.buffer)) : Array.from(keyWords);
        // The same splats...
        expect([...order].sort((a, b) => a - b)).toEqual([...ref.order].sort((a, b) => a - b));
        // ...each with its own key (within the f32 rounding of the depth, or one 16-bit step)...
        const refKey = new Map<number, number>();
        ref.order.forEach((s, i) => refKey.set(s, ref.keys[i]!));
        const tolerance = (k: number) => (keyBits === 32 ? 1e-5 * Math.abs(k) : 1);
        let wrongKeys = 0;
        order.forEach((s, i) => {
          if (!(Math.abs(keys[i]! - refKey.get(s)!) <= tolerance(keys[i]!))) wrongKeys++;
        });
        expect(wrongKeys, 'keys that do not belong to their splat').toBe(0);
        // ...in descending order of key: where the GPU's order differs from the CPU's, the keys tie.
        let ascents = 0;
        let differ = 0;
        for (let i = 0; i < order.length; i++) {
          if (i > 0 && keys[i]! > keys[i - 1]!) ascents++;
          if (order[i] !== ref.order[i] && !(Math.abs(refKey.get(order[i]!)! - ref.keys[i]!) <= tolerance(ref.keys[i]!))) differ++;
        }
        expect(ascents, 'keys out of descending order').toBe(0);
        expect(differ, 'places where the order differs from the CPU by more than a tie').toBe(0);
      } finally {
        frame.destroy();
        positions.destroy();
      }
    });
  }

  test('sort: false leaves the visible splats in index order; 0 splats draw none', async () => {
    const ctx = await getTestContext();
    const scene = syntheticScene(500, 3);
    const positions = upload(ctx, scene.positions);
    const frame = createSplatFrame(ctx, { maxSplats: 500 });
    try {
      await frame.ready;
      const m = camera(scene.radius, 2);
      let encoder = ctx.device.createCommandEncoder();
      frame.encode(encoder, { positions, count: 500, view: m.view, viewProjection: m.viewProjection, sort: false });
      ctx.device.queue.submit([encoder.finish()]);
      const ref = cpuSplatOrder(scene.positions, 500, m.view, m.viewProjection, 32, m.depthRange);
      const [count] = await read(ctx, frame.visibleCount, 1);
      expect([...(await read(ctx, frame.order, count!))]).toEqual([...ref.order].sort((a, b) => a - b));
      encoder = ctx.device.createCommandEncoder();
      frame.encode(encoder, { positions, count: 0, view: m.view, viewProjection: m.viewProjection });
      ctx.device.queue.submit([encoder.finish()]);
      expect([...(await read(ctx, frame.drawArgs, 4))]).toEqual([4, 0, 0, 0]);
      expect(() =>
        frame.encode(ctx.device.createCommandEncoder(), { positions, count: 501, view: m.view, viewProjection: m.viewProjection }),
      ).toThrow(/args.count = 501/);
      expect(() =>
        frame.encode(ctx.device.createCommandEncoder(), {
          positions,
          count: 5,
          view: m.view,
          viewProjection: m.viewProjection,
          keyBits: 16,
        }),
      ).toThrow(/depthRange/);
    } finally {
      frame.destroy();
      positions.destroy();
    }
  });
});

describe('the splat frame in a frame loop', () => {
  test('300 frames with changing counts, cameras and key widths create nothing once ready; destroy() frees everything', async () => {
    const ctx = await getTestContext();
    const max = 4000;
    const scene = syntheticScene(max, 5);
    const positions = upload(ctx, scene.positions);
    try {
      const counts = await runFrameLoop(ctx.device, {
        maxCount: max,
        frames: 300,
        create: () => createSplatFrame(ctx, { maxSplats: max }),
        encode: (frame, encoder, i, count) => {
          const m = camera(scene.radius, i * 0.05);
          frame.encode(encoder, {
            positions,
            count,
            view: m.view,
            viewProjection: m.viewProjection,
            depthRange: m.depthRange,
            keyBits: i % 3 === 0 ? 16 : 32,
            sort: i % 7 !== 0,
          });
        },
      });
      expect(counts.warmup.pipelines, 'pipelines compiled after ready').toBe(0);
      expect(counts.steady, 'created during the counted frames').toEqual({ buffers: 0, bindGroups: 0, pipelines: 0 });
      expect(counts.liveAfterDestroy, 'buffers left after destroy()').toBe(0);
    } finally {
      positions.destroy();
    }
  });
});
