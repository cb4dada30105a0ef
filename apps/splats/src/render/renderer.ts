import type { Mat4 } from '../frame/index.js';
import { CAMERA_BYTES, SPLAT_WGSL } from './shader.js';

/** What one draw reads. */
export interface SplatDrawArgs {
  positions: GPUBuffer;
  attributes: GPUBuffer;
  /** Splat indices in drawing order (first drawn first). */
  order: GPUBuffer;
  /** Indirect draw arguments: 4 vertices, the instance count at byte 4. */
  drawArgs: GPUBuffer;
  view: Mat4;
  projection: Mat4;
  width: number;
  height: number;
}

/** Draws splats into a colour target, back to front as given. */
export interface SplatRenderer {
  render(encoder: GPUCommandEncoder, target: GPUTextureView, args: SplatDrawArgs): void;
  readonly ready: Promise<void>;
  destroy(): void;
}

/** The background the splats are blended over. */
export const BACKGROUND = { r: 0.04, g: 0.045, b: 0.06, a: 1 };

/**
 * A renderer of splats into targets of `format`: premultiplied-alpha blending (one,
 * one-minus-src-alpha), so an order of farthest first composites back to front.
 *
 * @example
 * ```ts
 * const renderer = createSplatRenderer(device, 'bgra8unorm');
 * renderer.render(encoder, view, { positions, attributes, order: frame.order, drawArgs: frame.drawArgs, view, projection, width, height });
 * ```
 */
export function createSplatRenderer(device: GPUDevice, format: GPUTextureFormat): SplatRenderer {
  const module = device.createShaderModule({ label: 'splats draw', code: SPLAT_WGSL });
  const layout = device.createBindGroupLayout({
    label: 'splats draw',
    entries: [
      { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: 'uniform' } },
      { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
      { binding: 2, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
      { binding: 3, visibility: GPUShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
    ],
  });
  const descriptor: GPURenderPipelineDescriptor = {
    label: 'splats draw',
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    vertex: { module, entryPoint: 'vs' },
    fragment: {
      module,
      entryPoint: 'fs',
      targets: [
        {
          format,
          blend: {
            color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
            alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
          },
        },
      ],
    },
    primitive: { topology: 'triangle-strip' },
  };
  let pipeline: GPURenderPipeline | undefined;
  const ready = device.createRenderPipelineAsync(descriptor).then((p) => {
    pipeline ??= p;
  });
  const camera = device.createBuffer({
    label: 'splats camera',
    size: CAMERA_BYTES,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const data = new Float32Array(CAMERA_BYTES / 4);
  let cached: { key: GPUBuffer[]; group: GPUBindGroup } | undefined;
  return {
    ready,
    render(encoder, target, args) {
      pipeline ??= device.createRenderPipeline(descriptor);
      data.set(args.view, 0);
      data.set(args.projection, 16);
      data.set(
        [args.width, args.height, (args.projection[0] as number) * args.width * 0.5, (args.projection[5] as number) * args.height * 0.5],
        32,
      );
      device.queue.writeBuffer(camera, 0, data);
      const key = [args.positions, args.attributes, args.order];
      if (!cached || cached.key.some((b, i) => b !== key[i])) {
        cached = {
          key,
          group: device.createBindGroup({
            label: 'splats draw',
            layout,
            entries: [
              { binding: 0, resource: { buffer: camera } },
              { binding: 1, resource: { buffer: args.positions } },
              { binding: 2, resource: { buffer: args.attributes } },
              { binding: 3, resource: { buffer: args.order } },
            ],
          }),
        };
      }
      const pass = encoder.beginRenderPass({
        label: 'splats draw',
        colorAttachments: [{ view: target, loadOp: 'clear', storeOp: 'store', clearValue: BACKGROUND }],
      });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, cached.group);
      pass.drawIndirect(args.drawArgs, 0);
      pass.end();
    },
    destroy() {
      camera.destroy();
      cached = undefined;
    },
  };
}
