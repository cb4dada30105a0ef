import { bindGroupByName, dispatchShape, paramsData } from '@scan/core/kit';
// The bench's own copy kernel (its ×copy reference), so both harnesses divide by the same kernel.
import { copyVec4Kernel } from '../../../src/child/kernels/baselines.js';
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
  const block = paramsData(copyVec4Kernel, { n: vecs });
  const params = device.createBuffer({
    size: block.byteLength,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    label: 'copy params',
  });
  writeWords(device, src, data);
  writeWords(device, params, block);
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: copyVec4Kernel.wgsl(), label: copyVec4Kernel.key }), entryPoint: 'main' },
  });
  const bindGroup = bindGroupByName(device, copyVec4Kernel, pipeline, { src, dst, params });
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
