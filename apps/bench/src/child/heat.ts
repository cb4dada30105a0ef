import type { ScanContext } from '@scan/core';
import { BufferPool, encodeKernel } from './gpu.js';
import { copyVec4Kernel } from './kernels/baselines.js';

/** Heating before a case's timed runs on a GPU; a software adapter has no clock to keep up. */
export const HEAT_MS = 300;

/** Copies per command buffer: long enough that the waits between submissions are short by comparison. */
const COPIES_PER_SUBMIT = 16;

/**
 * Runs `encodeOne` (a copy of some megabytes) back to back for at least `ms` milliseconds, never
 * letting the queue drain: two submissions of {@link COPIES_PER_SUBMIT} stay in flight. The lent GPU
 * drops its clocks after about a second of light load (a child process starting, pipelines
 * compiling, a CPU check) and short timed runs separated by waits do not bring them back
 * (DESIGN.md, Facts): a case heated first is timed at a loaded GPU's clocks.
 *
 * @example
 * ```ts
 * await heatWith(device, (encoder) => copy.encode(encoder), 300);
 * ```
 */
export async function heatWith(device: GPUDevice, encodeOne: (encoder: GPUCommandEncoder) => void, ms: number): Promise<void> {
  if (ms <= 0) return;
  const submit = () => {
    const encoder = device.createCommandEncoder();
    for (let i = 0; i < COPIES_PER_SUBMIT; i++) encodeOne(encoder);
    device.queue.submit([encoder.finish()]);
    return device.queue.onSubmittedWorkDone();
  };
  const end = performance.now() + ms;
  let previous = submit();
  while (performance.now() < end) {
    const next = submit();
    await previous;
    previous = next;
  }
  await previous;
}

/**
 * Heats the GPU of `ctx` for {@link HEAT_MS} with the bench's vec4 copy of 2^22 u32 (16 MiB each
 * way), unless the adapter is a software one. The buffers are freed afterwards.
 *
 * @example
 * ```ts
 * await heatGpu(ctx); // then the timed runs
 * ```
 */
export async function heatGpu(ctx: ScanContext, ms = HEAT_MS): Promise<void> {
  // A software adapter has no clock to keep up; neither has a test's stand-in context without caps.
  const adapter = ctx.caps?.adapter;
  const names = adapter ? `${adapter.vendor} ${adapter.architecture} ${adapter.description}` : '';
  if (!adapter || /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render|\bwarp\b/i.test(names)) return;
  const pool = new BufferPool(ctx);
  try {
    const n = 2 ** 22;
    const src = pool.storage(4 * n, 'heat src');
    const dst = pool.storage(4 * n, 'heat dst');
    const params = pool.params(copyVec4Kernel, { n: n / 4 });
    await heatWith(ctx.device, (encoder) => encodeKernel(ctx, encoder, copyVec4Kernel, { src, dst, params }, { invocations: n / 4 }), ms);
  } finally {
    pool.destroy();
  }
}
