// Seeded diagonally dominant systems and a plan-level solve with a poisoned output, shared by the tests.
import type { ScanContext } from '@scan/core';
import { createRng, poisonBuffer } from '@scan/gpu-testing';
import { createTridiagonalPlan } from '../src/plans/tridiagonal-plan.js';
import type { TridiagonalLayout, TridiagonalPlanOptions, TridiagonalSystems } from '../src/types.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/**
 * `batch` random systems of `n` unknowns: a_i, c_i, d_i uniform in [−1, 1), b_i = ±(|a_i| + |c_i| + 1..2),
 * so every row is strictly diagonally dominant by at least 1 (‖A⁻¹‖∞ ≤ 1, ‖A‖∞ ≤ 6). a_0 and c_{n−1}
 * hold 7.5, which the solvers must ignore.
 */
export function randomSystems(n: number, batch: number, seed: number, stride: TridiagonalLayout = 'contiguous'): TridiagonalSystems {
  const rng = createRng(seed);
  const total = n * batch;
  const a = new Float32Array(total);
  const b = new Float32Array(total);
  const c = new Float32Array(total);
  const d = new Float32Array(total);
  const u = () => 2 * rng.float() - 1;
  for (let k = 0; k < total; k++) {
    a[k] = u();
    c[k] = u();
    d[k] = u();
    b[k] = (Math.abs(a[k] as number) + Math.abs(c[k] as number) + 1 + rng.float()) * (rng.float() < 0.5 ? -1 : 1);
  }
  for (let s = 0; s < batch; s++) {
    a[stride === 'contiguous' ? s * n : s] = 7.5;
    c[stride === 'contiguous' ? s * n + n - 1 : (n - 1) * batch + s] = 7.5;
  }
  return { a, b, c, d, n, batch, stride };
}

/** Uploads `data` into a new storage buffer (at least 16 bytes). */
export function upload(ctx: ScanContext, data: Float32Array | Uint32Array): GPUBuffer {
  const buffer = ctx.device.createBuffer({ size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: USAGE });
  ctx.device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
  return buffer;
}

/** Reads `bytes` bytes of `buffer` back. */
export async function read(ctx: ScanContext, buffer: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
  const staging = ctx.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = ctx.device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
  ctx.device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const copy = staging.getMappedRange().slice(0);
  staging.destroy();
  return copy;
}

/**
 * Solves through a plan with `x` poisoned first (an unwritten element stays 0xdeadbeef) and a status
 * word; resolves to x and the status (0xffffffff: no zero pivot). Checks no validation error occurred.
 */
export async function solveWithPlan(
  ctx: ScanContext,
  systems: TridiagonalSystems,
  options: Omit<TridiagonalPlanOptions, 'n' | 'batch' | 'stride'> & Record<string, unknown> = {},
): Promise<{ x: Float32Array; status: number }> {
  const { n, batch } = systems;
  const device = ctx.device;
  device.pushErrorScope('validation');
  const plan = createTridiagonalPlan(ctx, { n, batch, stride: systems.stride ?? 'contiguous', ...options } as TridiagonalPlanOptions);
  const buffers = {
    a: upload(ctx, systems.a),
    b: upload(ctx, systems.b),
    c: upload(ctx, systems.c),
    d: upload(ctx, systems.d),
    x: device.createBuffer({ size: Math.max(16, 4 * n * batch), usage: USAGE }),
    status: upload(ctx, new Uint32Array([0xffffffff])),
  };
  poisonBuffer(ctx, buffers.x, 4 * n * batch);
  const encoder = device.createCommandEncoder();
  plan.encode(encoder, buffers);
  device.queue.submit([encoder.finish()]);
  const [x, status] = await Promise.all([read(ctx, buffers.x, 4 * n * batch), read(ctx, buffers.status, 4)]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`validation error: ${error.message}`);
  plan.destroy();
  for (const buffer of Object.values(buffers)) buffer.destroy();
  return { x: new Float32Array(x), status: new Uint32Array(status)[0] as number };
}

/**
 * Largest |x_i − ref_i| of each system divided by that system's largest |ref_i| (normwise relative
 * error), over all systems.
 */
export function relativeError(x: Float32Array, ref: Float32Array, systems: TridiagonalSystems): { worst: number; system: number } {
  const { n, batch } = systems;
  const interleaved = systems.stride === 'interleaved';
  let worst = 0;
  let system = -1;
  for (let s = 0; s < batch; s++) {
    let err = 0;
    let scale = 0;
    for (let i = 0; i < n; i++) {
      const k = interleaved ? i * batch + s : s * n + i;
      const e = Math.abs((x[k] as number) - (ref[k] as number));
      err = e > err || Number.isNaN(e) ? e : err;
      scale = Math.max(scale, Math.abs(ref[k] as number));
    }
    const rel = err / Math.max(scale, 1e-30);
    if (!(rel <= worst)) {
      worst = rel;
      system = s;
    }
  }
  return { worst, system };
}
