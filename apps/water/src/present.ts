/**
 * How frames reach the canvas:
 * - `'canvas'` (default): the renderer draws straight into the canvas's WebGPU context.
 * - `'copy'`: it draws into an offscreen texture whose pixels are copied into a 2-D canvas. Only
 *   the finished image is read back (never the simulation); it exists for browsers that run
 *   WebGPU compute but cannot present a WebGPU canvas — headless Chromium on SwiftShader here
 *   destroys the device at the first canvas present unless its compositor runs on SwiftShader too
 *   (see `chromiumLaunchOptions({ canvas: true })` in `@scan/gpu-testing`). The end-to-end test
 *   runs both modes.
 */
export type PresentMode = 'canvas' | 'copy';

/** Where one frame is drawn and how it is shown. */
export interface Presenter {
  readonly mode: PresentMode;
  /** Format of the texture the renderer draws into. */
  readonly format: GPUTextureFormat;
  /** Frames that may be in flight at once (copy mode reuses one staging buffer). */
  readonly maxInFlight: number;
  /** The texture view to draw this frame into. */
  target(): GPUTextureView;
  /** Records what must follow the draw in the same encoder (the copy, in copy mode). */
  afterDraw(encoder: GPUCommandEncoder): void;
  /** After the frame's submit: shows it (copy mode) and resolves when the GPU is done with it. */
  present(): Promise<void>;
}

/**
 * A presenter for `canvas` in `mode`; returns undefined when the canvas offers no context of the
 * needed kind.
 *
 * @example
 * ```ts
 * const presenter = createPresenter(device, canvas, 'canvas')!;
 * renderer.render(sim, encoder, presenter.target());
 * presenter.afterDraw(encoder);
 * device.queue.submit([encoder.finish()]);
 * await presenter.present();
 * ```
 */
export function createPresenter(device: GPUDevice, canvas: HTMLCanvasElement, mode: PresentMode): Presenter | undefined {
  if (mode === 'canvas') {
    const context = canvas.getContext('webgpu');
    if (!context) return undefined;
    const format = navigator.gpu.getPreferredCanvasFormat();
    context.configure({ device, format, alphaMode: 'opaque' });
    return {
      mode,
      format,
      maxInFlight: 2,
      target: () => context.getCurrentTexture().createView(),
      afterDraw() {},
      present: () => device.queue.onSubmittedWorkDone(),
    };
  }
  const context2d = canvas.getContext('2d');
  if (!context2d) return undefined;
  const { width, height } = canvas;
  // Rows of a texture-to-buffer copy are 256-byte aligned.
  const bytesPerRow = Math.ceil((4 * width) / 256) * 256;
  const texture = device.createTexture({
    size: [width, height],
    format: 'rgba8unorm',
    usage: 0x10 /* RENDER_ATTACHMENT */ | 0x01 /* COPY_SRC */,
    label: 'water frame',
  });
  const staging = device.createBuffer({
    size: bytesPerRow * height,
    usage: 0x0001 /* MAP_READ */ | 0x0008 /* COPY_DST */,
    label: 'water frame copy',
  });
  const image = new ImageData(width, height);
  return {
    mode,
    format: 'rgba8unorm',
    maxInFlight: 1,
    target: () => texture.createView(),
    afterDraw(encoder) {
      encoder.copyTextureToBuffer({ texture }, { buffer: staging, bytesPerRow }, [width, height]);
    },
    async present() {
      await staging.mapAsync(0x0001 /* GPUMapMode.READ */);
      const rows = new Uint8Array(staging.getMappedRange());
      for (let y = 0; y < height; y++) image.data.set(rows.subarray(y * bytesPerRow, y * bytesPerRow + 4 * width), 4 * width * y);
      staging.unmap();
      context2d.putImageData(image, 0, 0);
    },
  };
}
