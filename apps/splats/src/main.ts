import type { ScanContext } from '@scan/core';
import { cpuSplatOrder, createSplatFrame, type OrbitCamera, orbitMatrices, type SplatFrame } from './frame/index.js';
import { acquireContext, WebGpuUnavailable } from './gpu.js';
import { FrameReadout } from './readout.js';
import { createSplatRenderer } from './render/renderer.js';
import { parseSplatPly } from './scene/ply.js';
import type { SplatScene } from './scene/scene.js';
import { syntheticScene } from './scene/synthetic.js';
import { type OrderMode, readSettings, SCENE_SIZES } from './settings.js';

/** What the page exposes for its end-to-end test (and for curious people in the console). */
export interface ViewerStatus {
  /** Splats in the scene. */
  splats: number;
  /** Frames the GPU has finished. */
  frames: number;
  /** Visible splats of the last frame read back. */
  drawn: number;
  keyBits: 32 | 16;
  order: OrderMode;
  error?: string;
}

declare global {
  interface Window {
    splatsDemo?: ViewerStatus;
  }
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`index.html lacks #${id}`);
  return found as T;
}

function showError(message: string): void {
  const box = element<HTMLParagraphElement>('error');
  box.textContent = message;
  box.hidden = false;
  element<HTMLCanvasElement>('view').hidden = true;
  element<HTMLDivElement>('controls').hidden = true;
  window.splatsDemo = { splats: 0, frames: 0, drawn: 0, keyBits: 32, order: 'gpu', error: message };
}

/** A scene on the GPU: its two buffers. */
interface GpuScene {
  scene: SplatScene;
  positions: GPUBuffer;
  attributes: GPUBuffer;
}

function upload(device: GPUDevice, scene: SplatScene): GpuScene {
  const make = (data: ArrayBuffer | Float32Array<ArrayBuffer>, label: string) => {
    const bytes = Math.max(16, data.byteLength);
    const buffer = device.createBuffer({ label, size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  };
  return { scene, positions: make(scene.positions, 'splat positions'), attributes: make(scene.attributes, 'splat attributes') };
}

async function start(): Promise<void> {
  let ctx: ScanContext;
  try {
    ctx = await acquireContext();
  } catch (error) {
    showError(error instanceof WebGpuUnavailable ? error.message : `Could not start WebGPU: ${(error as Error).message}`);
    return;
  }
  const device = ctx.device;
  void ctx.lost.catch((error: Error) => showError(`The GPU device was lost: ${error.message}. Reload the page to start again.`));
  const settings = readSettings(location.search);
  const canvas = element<HTMLCanvasElement>('view');
  canvas.width = settings.canvas;
  canvas.height = settings.canvas;
  const context = canvas.getContext('webgpu');
  if (!context) {
    showError('This browser has WebGPU but could not create a WebGPU canvas context.');
    return;
  }
  const format = navigator.gpu.getPreferredCanvasFormat();
  context.configure({ device, format, alphaMode: 'opaque' });
  const renderer = createSplatRenderer(device, format);
  const status: ViewerStatus = { splats: 0, frames: 0, drawn: 0, keyBits: settings.keyBits, order: settings.order };
  window.splatsDemo = status;
  const stats = element<HTMLSpanElement>('stats');

  let current: GpuScene | undefined;
  let frame: SplatFrame | undefined;
  // The CPU order (order=cpu) and its draw arguments, redone when the camera moves.
  let cpu: { order: GPUBuffer; drawArgs: GPUBuffer; key: string } | undefined;
  const camera: OrbitCamera = { target: [0, 0, 0], distance: 1, yaw: settings.yaw, pitch: settings.pitch, fovY: (50 * Math.PI) / 180 };

  const load = async (scene: SplatScene) => {
    const next = upload(device, scene);
    const nextFrame = createSplatFrame(ctx, { maxSplats: Math.max(1, scene.count), keyBits: settings.keyBits });
    await Promise.all([nextFrame.ready, renderer.ready]);
    current?.positions.destroy();
    current?.attributes.destroy();
    frame?.destroy();
    cpu?.order.destroy();
    cpu?.drawArgs.destroy();
    cpu = undefined;
    current = next;
    frame = nextFrame;
    camera.target = [...scene.center];
    camera.distance = settings.distance * scene.radius;
    status.splats = scene.count;
    lastTime = undefined;
    frameMs = 0;
  };
  const build = (count: number) => {
    settings.splats = count;
    void load(syntheticScene(count, settings.seed)).catch((error: Error) => showError(`Could not load the scene: ${error.message}`));
  };

  // Controls.
  const size = element<HTMLSelectElement>('size');
  const sizes = SCENE_SIZES.includes(settings.splats as (typeof SCENE_SIZES)[number]) ? SCENE_SIZES : [settings.splats, ...SCENE_SIZES];
  size.replaceChildren(...sizes.map((n) => new Option(n.toLocaleString('en'), String(n), false, n === settings.splats)));
  size.addEventListener('change', () => build(Number(size.value)));
  const keys = element<HTMLSelectElement>('keys');
  keys.value = String(settings.keyBits);
  keys.addEventListener('change', () => {
    settings.keyBits = keys.value === '16' ? 16 : 32;
    status.keyBits = settings.keyBits;
  });
  const order = element<HTMLSelectElement>('order');
  order.value = settings.order;
  order.addEventListener('change', () => {
    settings.order = order.value as OrderMode;
    status.order = settings.order;
  });
  element<HTMLInputElement>('file').addEventListener('change', (event) => {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (!file) return;
    void file
      .arrayBuffer()
      .then((data) => load(parseSplatPly(data)))
      .catch((error: Error) => {
        stats.textContent = `could not read ${file.name}: ${error.message}`;
      });
  });
  // Orbit: drag rotates, the wheel zooms.
  let drag: { x: number; y: number } | undefined;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    camera.yaw -= (e.clientX - drag.x) * 0.008;
    camera.pitch = Math.max(-1.5, Math.min(1.5, camera.pitch + (e.clientY - drag.y) * 0.008));
    drag = { x: e.clientX, y: e.clientY };
  });
  const stop = () => {
    drag = undefined;
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      camera.distance *= Math.exp(e.deltaY * 0.001);
    },
    { passive: false },
  );

  // The readout: splats drawn (read back a frame or two late), sort time, frame time.
  let last = { cullMs: undefined as number | undefined, sortMs: undefined as number | undefined };
  const readout = new FrameReadout(device, (reading) => {
    status.drawn = reading.drawn;
    if (reading.sortMs !== undefined) last = { cullMs: reading.cullMs, sortMs: reading.sortMs };
  });
  let frameMs = 0;
  // Completion time of the last frame; undefined until a frame of the current scene has finished.
  let lastTime: number | undefined;
  let shown = 0;
  const show = () => {
    const t = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${ms.toFixed(2)} ms`);
    const sortLabel = settings.order === 'gpu' ? `sort ${t(last.sortMs)}` : `sort: ${settings.order === 'cpu' ? 'CPU' : 'none'}`;
    stats.textContent = `${status.drawn.toLocaleString('en')} / ${status.splats.toLocaleString('en')} splats drawn  ·  ${settings.keyBits}-bit keys  ·  cull+pack ${t(last.cullMs)}  ·  ${sortLabel}  ·  frame ${frameMs.toFixed(1)} ms  ·  ${status.frames} frames`;
  };

  let inFlight = 0;
  const draw = () => {
    requestAnimationFrame(draw);
    if (!current || !frame || inFlight >= 2) return;
    const { scene, positions, attributes } = current;
    const { width, height } = canvas;
    const m = orbitMatrices(camera, width / height, scene.radius);
    const encoder = device.createCommandEncoder({ label: 'splats frame' });
    frame.encode(encoder, {
      positions,
      count: scene.count,
      view: m.view,
      viewProjection: m.viewProjection,
      depthRange: m.depthRange,
      keyBits: settings.keyBits,
      sort: settings.order === 'gpu',
      ...(readout.querySet ? { timestamps: { querySet: readout.querySet, first: 0 } } : {}),
    });
    readout.record(encoder, frame.visibleCount);
    let order = frame.order;
    let drawArgs = frame.drawArgs;
    if (settings.order === 'cpu') {
      const key = `${scene.count}:${camera.yaw}:${camera.pitch}:${camera.distance}:${width}:${height}:${settings.keyBits}`;
      if (cpu?.key !== key) {
        cpu?.order.destroy();
        cpu?.drawArgs.destroy();
        const ref = cpuSplatOrder(scene.positions, scene.count, m.view, m.viewProjection, settings.keyBits, m.depthRange);
        const o = device.createBuffer({
          label: 'splats cpu order',
          size: Math.max(4, 4 * ref.order.length),
          usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(o, 0, ref.order);
        const a = device.createBuffer({
          label: 'splats cpu draw args',
          size: 16,
          usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(a, 0, new Uint32Array([4, ref.order.length, 0, 0]));
        cpu = { order: o, drawArgs: a, key };
      }
      order = cpu.order;
      drawArgs = cpu.drawArgs;
    }
    renderer.render(encoder, context.getCurrentTexture().createView(), {
      positions,
      attributes,
      order,
      drawArgs,
      view: m.view,
      projection: m.projection,
      width,
      height,
    });
    device.queue.submit([encoder.finish()]);
    readout.afterSubmit();
    inFlight++;
    void device.queue.onSubmittedWorkDone().then(() => {
      inFlight--;
      status.frames++;
      const now = performance.now();
      if (lastTime !== undefined) frameMs = frameMs === 0 ? now - lastTime : 0.9 * frameMs + 0.1 * (now - lastTime);
      lastTime = now;
      if (now - shown > 250) {
        shown = now;
        show();
      }
    });
  };
  build(settings.splats);
  requestAnimationFrame(draw);
}

void start();
