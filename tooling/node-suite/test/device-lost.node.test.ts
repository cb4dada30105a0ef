// A context used after destroy(), and a device lost in the middle of a call, reject with ScanError
// DEVICE_LOST in Node as in the browser, for every package's array-level functions: never a hang,
// a crash, or another error.
import { type ScanContext, ScanError } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { describe, expect, test } from 'vitest';
import { NODE_CASES } from '../src/cases/index.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

function expectDeviceLost(error: unknown, label: string): void {
  expect(error, `${label}: resolved instead of rejecting`).toBeInstanceOf(ScanError);
  expect((error as ScanError).code, `${label}: ${(error as Error).message}`).toBe('DEVICE_LOST');
}

/**
 * Makes `lose` run right after the next submission on `ctx`'s queue: the call is then past its
 * uploads and waiting on its read-back when the device goes.
 */
function loseAfterFirstSubmit(ctx: ScanContext, lose: () => void): void {
  const queue = ctx.device.queue;
  const submit = queue.submit.bind(queue);
  let done = false;
  queue.submit = (buffers: Iterable<GPUCommandBuffer>) => {
    submit(buffers);
    if (!done) {
      done = true;
      lose();
    }
  };
}

/** One case per package: the first of each. */
const ONE_PER_PACKAGE = NODE_CASES.filter((c, i) => NODE_CASES.findIndex((d) => d.name.split('.')[0] === c.name.split('.')[0]) === i);

describe('device loss in Node', () => {
  test('after ctx.destroy(), every function rejects with DEVICE_LOST', async () => {
    const ctx = await createNodeContext();
    ctx.destroy();
    for (const c of NODE_CASES) expectDeviceLost(await rejection(c.prepare(100, 1).call(ctx)), c.name);
  });

  for (const c of ONE_PER_PACKAGE) {
    test(`${c.name}: the device destroyed after the call's submission rejects it with DEVICE_LOST`, async () => {
      const ctx = await createNodeContext();
      try {
        loseAfterFirstSubmit(ctx, () => ctx.device.destroy());
        const error = await rejection(c.prepare(1 << 16, 1).call(ctx));
        expectDeviceLost(error, c.name);
        expect((error as Error).message).toMatch(/the device was destroyed/);
      } finally {
        ctx.destroy();
      }
    });
  }

  test('ctx.destroy() while a call waits on its read-back rejects it with DEVICE_LOST', async () => {
    const ctx = await createNodeContext();
    loseAfterFirstSubmit(ctx, () => ctx.destroy());
    const error = await rejection(NODE_CASES[0]!.prepare(1 << 16, 1).call(ctx));
    expectDeviceLost(error, NODE_CASES[0]!.name);
    expect((error as Error).message).toMatch(/the context was destroyed/);
  });
});
