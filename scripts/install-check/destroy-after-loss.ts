// Issue 46: with @scan/sort imported, `ctx.device.destroy()`, a call that rejects with
// DEVICE_LOST, then `ctx.destroy()` made Node abort at exit (std::system_error, futex and mutex
// errors, segfaults, once a hang). The rejected call's work still ran, and compiled pipelines on
// the destroyed device after destroy() had let go of the Dawn instance; a garbage collection in
// that window freed the instance under the compiles. check-install.sh runs this in several fresh
// `node --expose-gc` processes, the way users install the packages, and fails on any non-zero
// exit or timeout.
import { ScanError, scan } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { sort } from '@scan/sort';

/** Awaits `call` and fails unless it rejects with DEVICE_LOST. */
async function expectDeviceLost(name: string, call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ScanError && error.code === 'DEVICE_LOST') {
      console.log(`ok  ${name} on a destroyed device: DEVICE_LOST`);
      return;
    }
    throw error;
  }
  throw new Error(`${name} on a destroyed device resolved; expected a DEVICE_LOST rejection`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// (Typed here: TypeScript 6 leaves @types/node out unless a tsconfig names it.)
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

// The user's sequence.
const ctx = await createNodeContext();
ctx.device.destroy();
const data = Uint32Array.from({ length: 1000 }, (_, i) => i % 7);
const keys = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i));
await expectDeviceLost('scan', scan(ctx, data));
await expectDeviceLost('sort', sort(ctx, keys));
ctx.destroy();

// What the rejected calls' leftover work did next, made certain: whether a call's work still runs
// then depends on how far it got before the loss showed. Some milliseconds after destroy() (the
// instance was let go by then), pipelines compile on the destroyed device, and the heap is
// collected while they do. Through a context that kept the instance too briefly, this aborted.
await sleep(20);
const device = ctx.device;
const code = '@group(0) @binding(0) var<storage, read_write> d: array<u32>; @compute @workgroup_size(64) fn main() { d[0] = 1u; }';
for (let round = 0; round < 5; round++) {
  const compiling = device.createComputePipelineAsync({ layout: 'auto', compute: { module: device.createShaderModule({ code }) } });
  gc();
  await compiling.catch(() => undefined); // a destroyed device may answer either way
  await sleep(5);
  gc();
}
console.log('destroy sequence done; Node must now exit with status 0');
