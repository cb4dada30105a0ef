import { BufferUsage, createStorageBuffer, type ScanContext } from '@scan/core';
import {
  bindGroupByName,
  dispatchShape,
  getPipeline,
  type Kernel,
  type PARAMS_BINDING,
  type ParamFields,
  type ParamValues,
  paramsData,
} from '@scan/core/kit';
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

  /**
   * A uniform holding `kernel`'s parameter block with `values` (written at creation, no queue
   * upload), bound as the kernel's `params`.
   */
  params<P extends ParamFields>(kernel: Kernel<string, P>, values: ParamValues<P>): GPUBuffer {
    const data = paramsData(kernel, values);
    const buffer = this.ctx.device.createBuffer({
      size: data.byteLength,
      usage: BufferUsage.UNIFORM,
      mappedAtCreation: true,
      label: `bench params ${kernel.name}`,
    });
    new Uint32Array(buffer.getMappedRange()).set(data);
    buffer.unmap();
    this.buffers.push(buffer);
    return buffer;
  }

  destroy(): void {
    for (const b of this.buffers.splice(0)) b.destroy();
  }
}

/** The buffers of one dispatch of `kernel`, by the names it declares (its parameter block as `params`). */
export type KernelBuffers<B extends string> = { readonly [K in B | typeof PARAMS_BINDING]?: GPUBuffer };

/**
 * Records one dispatch of `kernel` in its own compute pass, its buffers bound by name
 * (`bindGroupByName`: a declared binding left out, or a name the kernel does not declare, throws),
 * with enough 256-wide workgroups for `invocations` (2-D past the per-dimension limit). `groups`
 * overrides the workgroup count for kernels whose invocations do more than one element.
 *
 * @example
 * ```ts
 * const params = pool.params(copyVec4Kernel, { n: n / 4 });
 * encodeKernel(ctx, encoder, copyVec4Kernel, { src, dst, params }, { invocations: n / 4 });
 * ```
 */
export function encodeKernel<B extends string, P extends ParamFields>(
  ctx: ScanContext,
  encoder: GPUCommandEncoder,
  kernel: Kernel<B, P>,
  buffers: KernelBuffers<B>,
  size: { invocations: number } | { groups: number },
): void {
  const pipeline = getPipeline(ctx, kernel);
  const bindGroup = bindGroupByName(ctx.device, kernel, pipeline, buffers);
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
