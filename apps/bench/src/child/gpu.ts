import { BufferUsage, createStorageBuffer, type ScanContext } from '@scan/core';
import { dispatchShape, getPipeline } from '@scan/core/kit';
import { WG } from './kernels/common.js';

/**
 * Buffers a workload creates, destroyed together. Each child process runs one case, but a case
 * measures the primitive and then its baselines, and large sizes need the memory back in between.
 *
 * @example
 * ```ts
 * const pool = new BufferPool(ctx);
 * const input = pool.storage(4 * n, 'input');
 * pool.destroy();
 * ```
 */
export class BufferPool {
  private readonly buffers: GPUBuffer[] = [];
  constructor(readonly ctx: ScanContext) {}

  /** A storage buffer (copy source and destination too) of at least `bytes` bytes. */
  storage(bytes: number, label: string): GPUBuffer {
    const buffer = createStorageBuffer(this.ctx, bytes, `bench ${label}`);
    this.buffers.push(buffer);
    return buffer;
  }

  /** A 16-byte uniform holding `Params { n, a, b, c }` (written at creation, no queue upload). */
  params(n: number, a = 0, b = 0, c = 0): GPUBuffer {
    const buffer = this.ctx.device.createBuffer({ size: 16, usage: BufferUsage.UNIFORM, mappedAtCreation: true, label: 'bench params' });
    new Uint32Array(buffer.getMappedRange()).set([n >>> 0, a >>> 0, b >>> 0, c >>> 0]);
    buffer.unmap();
    this.buffers.push(buffer);
    return buffer;
  }

  destroy(): void {
    for (const b of this.buffers.splice(0)) b.destroy();
  }
}

/** A compiled bench kernel: cache key and WGSL generator (entry point `main`). */
export interface BenchKernel {
  readonly key: string;
  readonly wgsl: () => string;
}

/**
 * Records one dispatch of `kernel` in its own compute pass, binding `buffers[i]` at binding i, with
 * enough 256-wide workgroups for `invocations` (2-D past the per-dimension limit). `groups` overrides
 * the workgroup count for kernels whose invocations do more than one element.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, { key: 'bench/copy-vec4', wgsl: copyVec4Wgsl }, [src, dst, params], { invocations: n / 4 });
 * ```
 */
export function encodeKernel(
  ctx: ScanContext,
  encoder: GPUCommandEncoder,
  kernel: BenchKernel,
  buffers: readonly GPUBuffer[],
  size: { invocations: number } | { groups: number },
): void {
  const pipeline = getPipeline(ctx, kernel);
  const bindGroup = ctx.device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const groups = 'groups' in size ? size.groups : Math.ceil(size.invocations / WG);
  const shape = dispatchShape(Math.max(1, groups), ctx.caps.limits.maxComputeWorkgroupsPerDimension);
  const pass = encoder.beginComputePass({ label: kernel.key });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(shape.x, shape.y);
  pass.end();
}

/**
 * Copies `words` u32 words from `buffer` (at `byteOffset`) to the host. Only for small read-backs:
 * megabytes through the JS heap are what crashes Dawn in Node (DESIGN.md, Facts).
 *
 * @example
 * ```ts
 * const [mismatches] = await readWords(ctx, errors, 1);
 * ```
 */
export async function readWords(ctx: ScanContext, buffer: GPUBuffer, words: number, byteOffset = 0): Promise<Uint32Array> {
  const size = Math.max(4, words * 4);
  const staging = ctx.device.createBuffer({ size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST, label: 'bench read-back' });
  try {
    const encoder = ctx.device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, byteOffset, staging, 0, size);
    ctx.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(0x0001 /* GPUMapMode.READ */);
    return new Uint32Array(staging.getMappedRange().slice(0, words * 4));
  } finally {
    staging.destroy();
  }
}

/**
 * Submits `encoder`'s commands and waits for the queue to drain.
 *
 * @example
 * ```ts
 * await submitAndWait(ctx, encoder);
 * ```
 */
export async function submitAndWait(ctx: ScanContext, encoder: GPUCommandEncoder): Promise<void> {
  ctx.device.queue.submit([encoder.finish()]);
  await ctx.device.queue.onSubmittedWorkDone();
}
