import { dispatchShape } from '@scan/core/kit';
// The bench's own copy kernel (its ×copy reference), so both harnesses divide by the same kernel.
import { copyVec4Wgsl } from '../../../src/child/kernels/baselines.js';
import { WG } from '../../../src/child/kernels/common.js';
import { compareWords, poisonWords, randomWords, readWords, writeWords } from '../data.js';
import type { Workload } from '../workload.js';

/**
 * The bench's vec4 copy kernel over n u32 (⌈n/4⌉ vec4 per run, one per invocation), the reference
 * that `×copy` divides by; checked word for word after the first run.
 *
 * @example
 * ```ts
 * const w = copyWorkload(device, 1 << 16, 5);
 * ```
 */
export function copyWorkload(device: GPUDevice, n: number, seed: number): Workload {
  const data = randomWords(n, seed);
  const vecs = Math.ceil(n / 4);
  const size = 16 * vecs;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const src = device.createBuffer({ size, usage, label: 'copy src' });
  const dst = device.createBuffer({ size, usage, label: 'copy dst' });
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label: 'copy params' });
  writeWords(device, src, data);
  writeWords(device, params, new Uint32Array([vecs, 0, 0, 0]));
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: copyVec4Wgsl(), label: 'bench/copy-vec4' }), entryPoint: 'main' },
  });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [src, dst, params].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const shape = dispatchShape(Math.ceil(vecs / WG), device.limits.maxComputeWorkgroupsPerDimension);
  return {
    describe: { kernel: 'bench/copy-vec4', vec4s: vecs },
    outputs: [dst],
    encode(encoder) {
      const pass = encoder.beginComputePass({ label: 'bench/copy-vec4' });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(shape.x, shape.y);
      pass.end();
    },
    poison: () => poisonWords(device, dst, n),
    async verify() {
      return compareWords('copy', await readWords(device, dst, n), data);
    },
    destroy() {
      src.destroy();
      dst.destroy();
      params.destroy();
    },
  };
}
