// In Node too, a call made right after device.destroy() rejects in the errors guide's form for a
// lost context (`ctx: the device was destroyed`, argument `ctx`), though Dawn settles
// `device.lost` only later.
import { describe, expect, test } from 'vitest';
import { ScanError } from '../../src/errors.js';
import { createNodeContext } from '../../src/node/index.js';
import { reduce } from '../../src/ops/primitives.js';
import { scan } from '../../src/ops/scan.js';

describe('device destroyed in Node', () => {
  test('right after device.destroy(), calls reject with ctx: the device was destroyed', async () => {
    const ctx = await createNodeContext({ software: true });
    try {
      expect([...(await scan(ctx, new Uint32Array([1, 2, 3])))]).toEqual([0, 1, 3]);
      ctx.device.destroy();
      const calls = [scan(ctx, new Uint32Array([1, 2])), reduce(ctx, new Uint32Array([1, 2]))];
      for (const error of await Promise.all(
        calls.map((c) =>
          c.then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      )) {
        expect(error).toBeInstanceOf(ScanError);
        expect((error as ScanError).code).toBe('DEVICE_LOST');
        expect((error as ScanError).argument).toBe('ctx');
        expect((error as ScanError).message).toBe('ctx: the device was destroyed');
      }
    } finally {
      ctx.destroy();
    }
  });
});
