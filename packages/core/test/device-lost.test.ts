// The DEVICE_LOST forms of the errors guide ("Device loss"): a call made after the device was
// destroyed rejects like the checks at the start (`ctx: <reason>`, argument `ctx`), even when
// `device.lost` has not settled yet; a call the loss interrupts names itself (`<call>: <reason>`).
import { freshTestContext, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { ScanError } from '../src/errors.js';
import { histogram } from '../src/ops/histogram.js';
import { distribute, enumerate, pack, packIf, reduce, split } from '../src/ops/primitives.js';
import { scan } from '../src/ops/scan.js';

/** What a settled call gave: its value, or the error it rejected with. */
async function outcome(promise: Promise<unknown>): Promise<{ ok: true } | { ok: false; error: unknown }> {
  return promise.then(
    () => ({ ok: true }) as const,
    (error: unknown) => ({ ok: false, error }) as const,
  );
}

describe('device loss', () => {
  it('right after device.destroy(), every array-level function rejects with ctx: the device was destroyed', async () => {
    const ctx = await freshTestContext();
    expect([...(await scan(ctx, new Uint32Array([1, 2, 3])))]).toEqual([0, 1, 3]);
    const data = new Uint32Array([3, 1, 4, 1, 5]);
    const flags = new Uint32Array([1, 0, 1, 0, 1]);
    ctx.device.destroy();
    // All started before `device.lost` settles (that takes a round trip to the GPU process).
    const calls: [string, Promise<unknown>][] = [
      ['scan', scan(ctx, data)],
      ['reduce', reduce(ctx, data)],
      ['enumerate', enumerate(ctx, flags)],
      ['distribute', distribute(ctx, data)],
      ['split', split(ctx, data, flags)],
      ['pack', pack(ctx, data, flags)],
      ['packIf', packIf(ctx, data, { op: 'gt', value: 2 })],
      ['histogram', histogram(ctx, data, { bins: 4, range: [0, 8] })],
    ];
    expect(ctx.lostReason).toBeUndefined();
    const outcomes = await Promise.all(calls.map(([, call]) => outcome(call)));
    for (const [k, [name]] of calls.entries()) {
      const got = outcomes[k]!;
      expect(got.ok, name).toBe(false);
      const error = (got as { error: unknown }).error;
      expect(error, name).toBeInstanceOf(ScanError);
      expect((error as ScanError).code, name).toBe('DEVICE_LOST');
      expect((error as ScanError).argument, name).toBe('ctx');
      expect((error as ScanError).message, name).toBe('ctx: the device was destroyed');
    }
  });

  it('a call the loss interrupts names itself and no argument', async () => {
    const ctx = await freshTestContext();
    await scan(ctx, new Uint32Array(8)); // the device's subgroup probe and pipelines are ready
    // Destroy the device while the call waits on its read-back: 100 ms after its submission, so
    // the device has long answered what the call asked as it started (see gpu-errors.ts).
    const queue = ctx.device.queue;
    const submit = queue.submit.bind(queue);
    queue.submit = (buffers: Iterable<GPUCommandBuffer>) => {
      submit(buffers);
      queue.submit = submit;
      setTimeout(() => ctx.device.destroy(), 100);
    };
    const got = await outcome(scan(ctx, randomData('u32', 1 << 21, 2)));
    // It may have finished within 100 ms; if not, it was running when the device went.
    if (!got.ok) {
      const error = got.error as ScanError;
      expect(error.code).toBe('DEVICE_LOST');
      expect(error.message).toBe('scan: the device was destroyed');
      expect(error.argument).toBeUndefined();
    }
  });
});
