import type { ScanContext } from '@scan/core';
import { acquireContext, WebGpuUnavailable } from './gpu.js';
import { FrameMeter } from './meter.js';
import { createPresenter } from './present.js';
import { createWaterRenderer, type WaterRenderer } from './render/index.js';
import { type DemoSettings, GRID_SIZES, readSettings, settingsQuery } from './settings.js';
import { createWaterSim, TERRAIN_NAMES, type TerrainName, type WaterSim } from './sim/index.js';

/** What the page exposes for its end-to-end test (and for curious people in the console). */
export interface DemoStatus {
  size: number;
  /** Simulation steps the GPU has finished. */
  steps: number;
  /** Frames the GPU has finished drawing. */
  frames: number;
  error?: string;
}

declare global {
  interface Window {
    waterDemo?: DemoStatus;
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
  window.waterDemo = { size: 0, steps: 0, frames: 0, error: message };
}

/** Fills the selects and wires the buttons; `apply` is called with the new settings on a change. */
function bindControls(settings: DemoSettings, apply: (rebuild: boolean) => void, stepOnce: () => void): void {
  const size = element<HTMLSelectElement>('size');
  const sizes = GRID_SIZES.includes(settings.size as (typeof GRID_SIZES)[number]) ? GRID_SIZES : [settings.size, ...GRID_SIZES];
  size.replaceChildren(...sizes.map((n) => new Option(`${n} × ${n}`, String(n), false, n === settings.size)));
  const terrain = element<HTMLSelectElement>('terrain');
  terrain.replaceChildren(...TERRAIN_NAMES.map((t) => new Option(t, t, false, t === settings.terrain)));
  const pause = element<HTMLButtonElement>('pause');
  const label = () => {
    pause.textContent = settings.paused ? 'Run' : 'Pause';
  };
  label();
  size.addEventListener('change', () => {
    settings.size = Number(size.value);
    apply(true);
  });
  terrain.addEventListener('change', () => {
    settings.terrain = terrain.value as TerrainName;
    apply(true);
  });
  pause.addEventListener('click', () => {
    settings.paused = !settings.paused;
    label();
  });
  element<HTMLButtonElement>('step').addEventListener('click', stepOnce);
  element<HTMLButtonElement>('reset').addEventListener('click', () => apply(true));
}

/** Radius (cells) and height of a drop from the mouse: the same size on screen at every grid size. */
function dropShape(size: number): { radius: number; height: number } {
  return { radius: Math.max(2.5, size / 40), height: 0.3 };
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
  void ctx.lost.catch((error: Error) =>
    showError(
      `The GPU device was lost: ${error.message}. Reload the page to start again. If it happens at once, this browser may ` +
        'run WebGPU but fail to present a WebGPU canvas (headless Chromium on SwiftShader can): add ?present=copy to the URL.',
    ),
  );

  const settings = readSettings(location.search);
  const canvas = element<HTMLCanvasElement>('view');
  const presenter = createPresenter(device, canvas, settings.present);
  if (!presenter) {
    showError(`This browser has WebGPU but could not create a ${settings.present === 'copy' ? '2-D' : 'WebGPU'} canvas context.`);
    return;
  }
  const renderer: WaterRenderer = createWaterRenderer(device, presenter.format);

  const status: DemoStatus = { size: settings.size, steps: 0, frames: 0 };
  window.waterDemo = status;
  const stats = element<HTMLSpanElement>('stats');
  const meter = new FrameMeter();

  // The running simulation, and one whose kernels are still compiling (frames skip until it is ready).
  let sim: WaterSim | undefined;
  let pending: WaterSim | undefined;
  const build = () => {
    sim?.destroy();
    sim = undefined;
    pending?.destroy();
    pending = undefined;
    let next: WaterSim;
    try {
      next = createWaterSim(ctx, { size: settings.size, terrain: settings.terrain });
    } catch (error) {
      showError(`Could not create a ${settings.size}² simulation: ${(error as Error).message}`);
      return;
    }
    pending = next;
    status.size = settings.size;
    history.replaceState(null, '', settingsQuery(settings));
    // Its first frame waits for nothing: the pipelines compile without stalling the page, then it runs.
    next.ready.then(
      () => {
        if (pending !== next) return; // replaced (and destroyed) meanwhile
        pending = undefined;
        // A few drops so the pool is alive before the first click.
        const { radius, height } = dropShape(settings.size);
        next.drop(settings.size * 0.3, settings.size * 0.35, radius * 1.5, height);
        next.drop(settings.size * 0.7, settings.size * 0.7, radius, height);
        sim = next;
      },
      (error: Error) => {
        if (pending === next) showError(`Could not compile the ${settings.size}² simulation: ${error.message}`);
      },
    );
  };
  let pendingSteps = 0;
  bindControls(settings, build, () => {
    pendingSteps++;
  });
  build();

  // Mouse: a drop where the button goes down and along a drag, at most one per frame.
  let pointerDrop: { x: number; y: number; sign: number } | undefined;
  let dragging = false;
  const toGrid = (event: PointerEvent) => {
    const rect = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) / rect.width) * settings.size - 0.5,
      y: ((event.clientY - rect.top) / rect.height) * settings.size - 0.5,
      sign: event.shiftKey ? -1 : 1,
    };
  };
  canvas.addEventListener('pointerdown', (event) => {
    dragging = true;
    canvas.setPointerCapture(event.pointerId);
    pointerDrop = toGrid(event);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (dragging) pointerDrop = toGrid(event);
  });
  const stopDrag = () => {
    dragging = false;
  };
  canvas.addEventListener('pointerup', stopDrag);
  canvas.addEventListener('pointercancel', stopDrag);

  // At most two frames in flight (one when copying): on a slow GPU (or a 2048² grid on SwiftShader) frames are
  // skipped instead of queueing work without bound.
  let inFlight = 0;
  const frame = () => {
    requestAnimationFrame(frame);
    if (!sim || inFlight >= presenter.maxInFlight) return;
    if (pointerDrop) {
      const { radius, height } = dropShape(settings.size);
      sim.drop(pointerDrop.x, pointerDrop.y, dragging ? radius * 0.7 : radius, pointerDrop.sign * (dragging ? height * 0.4 : height));
      pointerDrop = undefined;
    }
    const steps = settings.paused ? Math.min(pendingSteps, 1) : settings.stepsPerFrame;
    pendingSteps -= Math.min(pendingSteps, steps);
    const encoder = device.createCommandEncoder({ label: 'water frame' });
    for (let i = 0; i < steps; i++) sim.step(encoder);
    renderer.render(sim, encoder, presenter.target());
    presenter.afterDraw(encoder);
    const submitted = performance.now();
    device.queue.submit([encoder.finish()]);
    inFlight++;
    void presenter.present().then(() => {
      inFlight--;
      status.steps += steps;
      status.frames++;
      if (meter.record(steps, performance.now() - submitted)) {
        stats.textContent = `${settings.size}²  ·  ${meter.stepsPerSecond.toFixed(0)} steps/s  ·  frame ${meter.frameMs.toFixed(1)} ms  ·  step ${sim?.steps ?? 0}`;
      }
    });
  };
  requestAnimationFrame(frame);
}

void start();
