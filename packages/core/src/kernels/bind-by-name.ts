import type { Kernel, PARAMS_BINDING, ParamFields, ParamValues } from './define-kernel.js';

/** A buffer, or a range of one, bound outside a recipe. */
export type BoundBuffer = GPUBuffer | GPUBufferBinding;

/**
 * A bind group for `kernel` made from buffers by the names it declares (its parameter block under
 * `params`), for code that records its own passes rather than a recipe (a render loop, a bench).
 * Throws when a declared binding is missing or a name is not declared, so a binding cannot land on
 * the wrong number.
 *
 * @example
 * ```ts
 * const group = bindGroupByName(device, fill, pipeline, { dst: buffer, params: paramsBuffer });
 * pass.setBindGroup(0, group);
 * ```
 */
export function bindGroupByName<B extends string, P extends ParamFields>(
  device: GPUDevice,
  kernel: Kernel<B, P>,
  pipeline: GPUComputePipeline,
  buffers: { readonly [K in B | typeof PARAMS_BINDING]?: BoundBuffer },
): GPUBindGroup {
  const given = buffers as Readonly<Record<string, BoundBuffer | undefined>>;
  for (const name in given) {
    if (given[name] !== undefined && !kernel.layout.some((b) => b.name === name)) {
      throw new Error(`internal error: "${name}" is bound, but kernel ${kernel.key} declares no such binding`);
    }
  }
  return device.createBindGroup({
    label: kernel.key,
    layout: pipeline.getBindGroupLayout(0),
    entries: kernel.layout.map((b) => {
      const buffer = given[b.name];
      if (!buffer) throw new Error(`internal error: kernel ${kernel.key} declares "${b.name}", which is not bound`);
      return { binding: b.binding, resource: 'buffer' in buffer ? buffer : { buffer } };
    }),
  });
}

/**
 * A parameter block of `kernel` as bytes to write into a uniform buffer (`queue.writeBuffer`),
 * for code that records its own passes.
 *
 * @example
 * ```ts
 * device.queue.writeBuffer(paramsBuffer, 0, paramsData(fill, { count: 1024, value: 7 }));
 * ```
 */
export function paramsData<P extends ParamFields>(kernel: Kernel<string, P>, values: ParamValues<P>): Uint32Array<ArrayBuffer> {
  // Eight words: the block every kernel's parameters fit (the uniform binding is that long).
  const data = new Uint32Array(8);
  data.set(kernel.paramWords(values));
  return data;
}
