// The partial last vec4 (count mod 4 elements): read and written in place when the buffers hold
// whole vec4s, staged through aux by copies when they are exactly 4·count bytes. Both ways against
// the CPU reference; in place, the words past the count keep their values (the store merges lanes).
import { createRng, getTestContext, isPoison, POISON_U32, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createReducePlan, createScanPlan } from '../src/index.js';
import { runBatch } from './harness.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const COUNTS = [1, 2, 3, 5, 7, 1023, 4093, 4095, 4097, 5001, 70_001];

describe('the partial last vec4', () => {
  for (const layout of ['exact', 'padded'] as const) {
    it(`scan (forward add, backward inclusive max) and reduce, ${layout} buffers`, async () => {
      const ctx = await getTestContext();
      const rng = createRng(layout.length);
      const add = createScanPlan(ctx, { type: 'u32' });
      const max = createScanPlan(ctx, { type: 'i32', op: 'max', inclusive: true, backward: true });
      const sum = createReducePlan(ctx, { type: 'u32' });
      const bytesOf = (n: number) => (layout === 'exact' ? 4 * n : 16 * Math.ceil(n / 4) + 16);
      const buffer = (data: Uint32Array | Int32Array) => {
        const b = ctx.device.createBuffer({ size: bytesOf(data.length), usage: USAGE });
        ctx.device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
        return b;
      };
      const poisoned = (n: number) => {
        const b = ctx.device.createBuffer({ size: bytesOf(n), usage: USAGE });
        ctx.device.queue.writeBuffer(b, 0, new Uint32Array(bytesOf(n) / 4).fill(POISON_U32));
        return b;
      };
      const inputs = COUNTS.map((n) => ({ u: randomData('u32', n, rng.u32(), 'random'), i: randomData('i32', n, rng.u32(), 'random') }));
      const results = await runBatch(
        ctx,
        inputs.map(({ u, i }) => ({
          record(encoder) {
            const n = u.length;
            const outs = [poisoned(n), poisoned(n), poisoned(1)];
            add.encode(encoder, { input: buffer(u), output: outs[0]!, count: n });
            max.encode(encoder, { input: buffer(i), output: outs[1]!, count: n });
            sum.encode(encoder, { input: buffer(u), output: outs[2]!, count: n });
            return outs.map((b) => ({ buffer: b, bytes: b.size }));
          },
        })),
      );
      inputs.forEach(({ u, i }, k) => {
        const n = u.length;
        const [a, m, r] = results[k]!.map((bytes) => new Uint32Array(bytes));
        expect(a!.subarray(0, n), `add n=${n}`).toEqual(cpu.scan(u));
        expect(new Int32Array(m!.buffer).subarray(0, n), `max n=${n}`).toEqual(cpu.scan(i, { op: 'max', inclusive: true, backward: true }));
        expect(a!.subarray(n).every(isPoison), `add n=${n}: words past the count untouched`).toBe(true);
        expect(m!.subarray(n).every(isPoison), `max n=${n}: words past the count untouched`).toBe(true);
        expect(r![0], `sum n=${n}`).toBe(cpu.reduce(u));
      });
      for (const p of [add, max, sum]) p.destroy();
    });
  }
});
