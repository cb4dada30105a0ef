import { expect, test } from 'vitest';
import { createContext } from '../src/context.js';
import { createScanPlan } from '../src/plans/scan-plan.js';

test('decoupled-fallback forced fallback + chunks', async () => {
  const adapter = (await navigator.gpu.requestAdapter())!;
  const device = await adapter.requestDevice({ requiredFeatures: ['subgroups'] });
  for (const sg of [true, false]) {
    const ctx = createContext(device, { adapterInfo: adapter.info, subgroups: sg });
    for (const [n, opts] of [
      [50001, { tuning: { forceFallback: true } }],
      [100003, { maxChunkElements: 8192 }],
      [100003, { maxChunkElements: 8192, backward: true, inclusive: true }],
    ] as const) {
      const plan = createScanPlan(ctx, { type: 'u32', ...opts });
      const data = new Uint32Array(n).map((_, i) => (i * 7) % 13);
      const inp = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
      device.queue.writeBuffer(inp, 0, data);
      const out = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(out, 0, new Uint32Array(n).fill(0xdeadbeef));
      const rb = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      device.pushErrorScope('validation');
      const e = device.createCommandEncoder();
      plan.encode(e, { input: inp, output: out, count: n });
      e.copyBufferToBuffer(out, 0, rb, 0, n * 4);
      device.queue.submit([e.finish()]);
      const verr = await device.popErrorScope();
      if (verr) console.log('VALIDATION', verr.message.slice(0, 3000));
      await rb.mapAsync(GPUMapMode.READ);
      const got = new Uint32Array(rb.getMappedRange().slice(0));
      const bwd = 'backward' in opts;
      const inc = 'inclusive' in opts;
      const exp = new Uint32Array(n);
      let acc = 0;
      for (let j = 0; j < n; j++) {
        const i = bwd ? n - 1 - j : j;
        if (inc) {
          acc += data[i]!;
          exp[i] = acc;
        } else {
          exp[i] = acc;
          acc += data[i]!;
        }
      }
      let bad = -1;
      for (let i = 0; i < n; i++)
        if (got[i] !== exp[i]) {
          bad = i;
          break;
        }
      if (bad >= 0)
        console.log(
          JSON.stringify([opts, sg, [...got.slice(0, 12)], [...exp.slice(0, 12)], [...got.slice(4090, 4100)], [...exp.slice(4090, 4100)]]),
        );
      expect(bad, `sg=${sg} ${JSON.stringify(opts)} at ${bad}: ${got[bad]} vs ${exp[bad]}`).toBe(-1);
    }
  }
});
