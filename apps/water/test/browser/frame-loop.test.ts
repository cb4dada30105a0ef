// The simulation run the way the page runs it: steps, a drop now and then, and a draw, every frame,
// with the device's buffer, bind group and pipeline creations counted (see runFrameLoop from
// @scan/gpu-testing). Once `ready` has resolved, a frame creates nothing, and destroy() frees every
// buffer the simulation and its tridiagonal plans made.
import { countDeviceCalls, getTestContext, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, test } from 'vitest';
import { createWaterRenderer } from '../../src/render/index.js';
import { createWaterSim } from '../../src/sim/index.js';

const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };

describe('the simulation in a frame loop', () => {
  test('1,000 frames of two steps, drops and a draw create nothing once ready; destroy() frees everything', async () => {
    const ctx = await getTestContext();
    const device = ctx.device;
    // What the renderer draws into: an offscreen texture, as the page's copy mode does.
    const texture = device.createTexture({ size: [64, 64], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
    const view = texture.createView();
    try {
      const counts = await runFrameLoop(device, {
        create: () => {
          const sim = createWaterSim(ctx, { size: 40, terrain: 'island' });
          const renderer = createWaterRenderer(device, 'rgba8unorm');
          return {
            sim,
            renderer,
            ready: sim.ready,
            destroy() {
              renderer.destroy();
              sim.destroy();
            },
          };
        },
        encode: ({ sim, renderer }, encoder, frame) => {
          // A drag drops once a frame; every third frame here.
          if (frame % 3 === 0) sim.drop(5 + (frame % 30), 20, 3, frame % 2 ? 0.1 : -0.1);
          sim.step(encoder);
          sim.step(encoder);
          renderer.render(sim, encoder, view);
        },
      });
      expect(counts.setup.pipelines, 'kernels compiled ahead').toBeGreaterThan(0);
      expect(counts.warmup.pipelines, 'pipelines compiled after ready').toBe(0);
      expect(counts.steady, 'created during the counted frames').toEqual(NOTHING);
      expect(counts.liveAfterDestroy, 'buffers left after destroy()').toBe(0);
    } finally {
      texture.destroy();
    }
  });

  test("once ready, the first step and drop compile nothing and make none of the simulation's bind groups", async () => {
    const ctx = await getTestContext();
    const sim = createWaterSim(ctx, { size: 32 });
    try {
      await sim.ready;
      const counted = countDeviceCalls(ctx.device);
      try {
        const encoder = ctx.device.createCommandEncoder();
        sim.step(encoder);
        const afterStep = { ...counted.counts };
        ctx.device.queue.submit([encoder.finish()]);
        sim.drop(16, 16, 4, 0.2);
        expect(counted.counts.pipelines, 'pipelines compiled').toBe(0);
        // Only the two tridiagonal plans make something at their first encode: their parameter
        // rings and one bind group per dispatch and parameter slot (4); the drop makes nothing.
        expect(afterStep.buffers, "buffers: the plans' parameter rings").toBe(2);
        expect(afterStep.bindGroups % 4, "bind groups: whole sets of 4 slots, the plans'").toBe(0);
        expect(counted.counts, 'the drop').toEqual(afterStep);
      } finally {
        counted.restore();
      }
      expect((await sim.readHeights()).some((h) => h !== 1)).toBe(true);
    } finally {
      sim.destroy();
    }
  });
});
