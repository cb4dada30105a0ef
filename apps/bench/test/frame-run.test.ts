import { BufferUsage, type ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { enumerateCases } from '../src/cases.js';
import { watchCreations } from '../src/child/frame/creation-counter.js';
import { frameDataOf } from '../src/child/frame/frame-workloads.js';
import { submitAndWait } from '../src/child/gpu.js';
import { runCase } from '../src/child/run.js';
import type { FrameLoopCase } from '../src/primitives/frame-loop.js';

// The frame cases end to end in this process on the local adapter (SwiftShader here), at a tiny
// size and few frames: every case verifies and gives its figures. No timing is asserted.
const N = 2 ** 10;
let ctx: ScanContext;

beforeAll(async () => {
  ctx = await createNodeContext().catch((e: Error) => {
    throw new Error(`no WebGPU adapter: install Debian chromium for SwiftShader, or run on a GPU (${e.message})`);
  });
});
afterAll(() => ctx?.destroy());

const selection = { sizes: [N], runs: 10, warmup: 1, seed: 5, density: 0.5, frames: 20, warmupFrames: 5 };

describe.each(enumerateCases({ ...selection, only: ['frame-loop'] }).map((c) => [c.series, c] as const))('%s', (_series, c) => {
  test('verifies before and after the frames and reports per-frame figures', async () => {
    // Every frame workload takes a GPU count now: nothing may be skipped (a plan without the GPU-count
    // form would make the case 'skipped', which is what the bench reports for the code before it).
    const r = await runCase(ctx, c);
    expect(r.status, r.message).toBe('ok');
    expect(r.verification).toMatchObject({ gpuMismatches: 0, cpuCompared: true, cpuMismatches: 0, gpuMismatchesAfterTiming: 0 });
    const f = r.frameLoop!;
    expect(f.frames).toBe(20);
    expect(f.warmupFrames).toBe(5);
    expect(f.encode.samplesMs).toHaveLength(20);
    expect(f.encode.medianMs).toBeGreaterThan(0);
    expect(f.encode.p90Ms).toBeGreaterThanOrEqual(f.encode.medianMs);
    // SwiftShader has timestamp queries: one GPU time per measured frame.
    expect(f.gpu?.samplesMs).toHaveLength(20);
    expect(f.countMin).toBeGreaterThanOrEqual(N / 2);
    expect(f.countMax).toBeLessThanOrEqual(N);
    expect(f.countMax).toBeGreaterThan(f.countMin);
    for (const kind of ['buffers', 'bindGroups', 'pipelines', 'asyncPipelines'] as const) {
      expect(f.createdPerFrame[kind]).toBeCloseTo(f.created[kind] / 20, 10);
      expect(f.createdOutsideEncode[kind]).toBeGreaterThanOrEqual(0);
    }
    expect(f.planAfter.allocations).toBeTypeOf('number');
  });
});

describe.each(enumerateCases({ ...selection, only: ['first-call'] }).map((c) => [c.series, c] as const))('%s', (_series, c) => {
  test('times the first call and verifies its output', async () => {
    const r = await runCase(ctx, c);
    expect(r.status, r.message).toBe('ok');
    expect(r.verification).toMatchObject({ gpuMismatches: 0, cpuCompared: true, cpuMismatches: 0 });
    const f = r.firstCall!;
    for (const step of [f.createMs, f.encodeMs, f.frameMs]) expect(step).toBeGreaterThanOrEqual(0);
    expect(f.totalMs).toBeGreaterThanOrEqual(f.createMs + f.encodeMs);
    expect(f.count).toBe(N);
    // ready is timed only when it is awaited, and then only where the plan has it.
    expect(f.readyMs !== undefined).toBe(c.firstCall === 'wait' && f.hasReady);
  });
});

test('the counter counts what is created through the device, inside and outside the flag, until restored', () => {
  const counter = watchCreations(ctx.device);
  const make = () => ctx.device.createBuffer({ size: 16, usage: BufferUsage.STORAGE });
  const made = [make()];
  counter.insideFlag = true;
  made.push(make(), make());
  counter.insideFlag = false;
  counter.restore();
  made.push(make());
  expect(counter.total).toEqual({ buffers: 3, bindGroups: 0, pipelines: 0, asyncPipelines: 0 });
  expect(counter.inside.buffers).toBe(2);
  expect(Object.hasOwn(ctx.device, 'createBuffer')).toBe(false);
  for (const b of made) b.destroy();
});

test('the frame check catches a plan that ignores a smaller count', async () => {
  const [c] = enumerateCases({ ...selection, only: ['frame-loop'] }).filter((x) => x.frameWorkload === 'scan');
  const data = await frameDataOf(ctx, c as FrameLoopCase);
  const plan = data.createPlan();
  try {
    const encoder = ctx.device.createCommandEncoder();
    data.prepare(encoder);
    plan.encode(encoder, { ...data.buffers, count: N });
    await submitAndWait(ctx, encoder);
    expect((await data.verify(N)).problem).toBeUndefined();
    // Scanned all N elements where the frame's count was N − 100: the words past it are not poison.
    const wrong = await data.verify(N - 100);
    expect(wrong.verification.gpuMismatches).toBe(100);
    expect(wrong.problem).toMatch(/first at index 924/);
  } finally {
    plan.destroy();
    data.destroy();
  }
});
