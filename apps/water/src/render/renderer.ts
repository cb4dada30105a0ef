import type { WaterSim } from '../sim/index.js';
import { SURFACE_WGSL } from './shader.js';

/** Draws a {@link WaterSim} into a canvas. */
export interface WaterRenderer {
  /**
   * Records a draw of the simulation's current heights into `encoder`, onto `target` (a view of
   * a texture of the renderer's format: the canvas's current texture, or an offscreen one).
   */
  render(sim: WaterSim, encoder: GPUCommandEncoder, target: GPUTextureView): void;
  destroy(): void;
}

/** Bytes of the `View` uniform of `SURFACE_WGSL`. */
const VIEW_BYTES = 16;

/**
 * A renderer drawing into textures of `format`. It reads `sim.heightBuffer` and `sim.bottomBuffer`
 * in its fragment shader, keeping one bind group per height buffer (the simulation rotates three),
 * so drawing a frame allocates nothing and reads nothing back.
 *
 * @example
 * ```ts
 * const format = navigator.gpu.getPreferredCanvasFormat();
 * context.configure({ device, format, alphaMode: 'opaque' });
 * const renderer = createWaterRenderer(device, format);
 * const encoder = device.createCommandEncoder();
 * sim.step(encoder);
 * renderer.render(sim, encoder, context.getCurrentTexture().createView());
 * device.queue.submit([encoder.finish()]);
 * ```
 */
export function createWaterRenderer(device: GPUDevice, format: GPUTextureFormat): WaterRenderer {
  const module = device.createShaderModule({ label: 'water surface', code: SURFACE_WGSL });
  const pipeline = device.createRenderPipeline({
    label: 'water surface',
    layout: 'auto',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format }] },
    primitive: { topology: 'triangle-list' },
  });
  const viewBuffer = device.createBuffer({ size: VIEW_BYTES, usage: 0x0040 /* UNIFORM */ | 0x0008 /* COPY_DST */, label: 'water view' });
  const groups = new WeakMap<GPUBuffer, GPUBindGroup>();
  let lastSim: WaterSim | undefined;

  return {
    render(sim, encoder, target) {
      if (sim !== lastSim) {
        // A new simulation (size or terrain changed): new constants for the shader.
        const data = new ArrayBuffer(VIEW_BYTES);
        new Uint32Array(data, 0, 1)[0] = sim.size;
        new Float32Array(data, 8, 2).set([sim.options.waterLevel, sim.options.dx]);
        device.queue.writeBuffer(viewBuffer, 0, data);
        lastSim = sim;
      }
      const heights = sim.heightBuffer;
      let group = groups.get(heights);
      if (!group) {
        group = device.createBindGroup({
          label: 'water surface',
          layout: pipeline.getBindGroupLayout(0),
          entries: [
            { binding: 0, resource: { buffer: viewBuffer } },
            { binding: 1, resource: { buffer: heights } },
            { binding: 2, resource: { buffer: sim.bottomBuffer } },
          ],
        });
        groups.set(heights, group);
      }
      const pass = encoder.beginRenderPass({
        label: 'water surface',
        colorAttachments: [{ view: target, loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } }],
      });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.draw(3);
      pass.end();
    },
    destroy() {
      viewBuffer.destroy();
    },
  };
}
