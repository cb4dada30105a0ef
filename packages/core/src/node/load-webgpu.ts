import { ScanError } from '../errors.js';

/** What `createNodeContext` uses of the `webgpu` package (Dawn's `dawn.node`). */
export interface WebGpuModule {
  /** Creates a Dawn instance (`navigator.gpu`) with Dawn options such as toggles. */
  create(options: string[]): GPU;
  /** `GPUBufferUsage`, `GPUMapMode`, … as Dawn defines them. */
  globals: object;
}

/** Loads the `webgpu` package; injected in tests. */
export type ImportWebGpu = () => Promise<WebGpuModule>;

/**
 * Imports the `webgpu` package. Dynamic, because it is an optional peer dependency: the rest of
 * `@scan/core` must load without it, and the browser bundle must never see it.
 *
 * @example
 * ```ts
 * const { create } = await importWebGpu();
 * ```
 */
export const importWebGpu: ImportWebGpu = async () => (await import('webgpu')) as WebGpuModule;

/**
 * Loads the `webgpu` package or throws an `UNSUPPORTED` {@link ScanError} that says what to do:
 * install it when it is missing, or why its native addon would not load when it is there.
 *
 * @example
 * ```ts
 * const webgpu = await loadWebGpu(); // ScanError UNSUPPORTED "… npm install webgpu" without the package
 * ```
 */
export async function loadWebGpu(importer: ImportWebGpu = importWebGpu): Promise<WebGpuModule> {
  let module: WebGpuModule;
  try {
    module = await importer();
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    const code = (error as { code?: unknown })?.code;
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && /['"]webgpu['"]/.test(message);
    throw new ScanError(
      'UNSUPPORTED',
      missing
        ? 'createNodeContext needs the optional peer dependency `webgpu` (Dawn for Node), which is not installed: npm install webgpu'
        : `createNodeContext could not load the \`webgpu\` package (Dawn for Node): ${message}. Reinstall it (npm install webgpu) on a platform it ships a build for (linux-x64, linux-arm64, darwin, win32)`,
      { cause: error },
    );
  }
  if (typeof module?.create !== 'function') {
    throw new ScanError('UNSUPPORTED', 'the `webgpu` package has no create() function: install webgpu@^0.6.2 (npm install webgpu)');
  }
  return module;
}
