import { isSoftwareAdapter } from '../src/software-adapter.js';
import type { LiveMatrixSuite } from './live-cases.js';

// The live run's matrix suite, picked for the browser's adapter before anything runs: the 1M-row
// suite takes many minutes on a CPU, so a software adapter (SwiftShader, llvmpipe, WARP) or the
// browser's fallback adapter starts on the small suite, a GPU on the 1M-row one. The visitor can
// still change it.

/** What the page can learn of the adapter without creating a device. */
export interface AdapterFacts {
  readonly vendor?: string;
  readonly architecture?: string;
  readonly description?: string;
  readonly device?: string;
  /** `GPUAdapterInfo.isFallbackAdapter` (or the older `GPUAdapter.isFallbackAdapter`). */
  readonly isFallbackAdapter?: boolean;
}

/**
 * The suite the selector starts on: `'small'` on a software or fallback adapter, and when there is
 * no adapter (nothing says a GPU would run it); `'1M'` on a GPU.
 *
 * @example
 * ```ts
 * defaultMatrixSuite({ vendor: 'google', architecture: 'swiftshader' }); // 'small'
 * defaultMatrixSuite({ vendor: 'nvidia', architecture: 'hopper' }); // '1M'
 * ```
 */
export function defaultMatrixSuite(adapter: AdapterFacts | undefined): LiveMatrixSuite {
  if (!adapter || adapter.isFallbackAdapter) return 'small';
  const { vendor = '', architecture = '', description = '', device } = adapter;
  const software = isSoftwareAdapter({
    adapter: { vendor, architecture, description, ...(device ? { device } : {}) },
    features: {},
    limits: {},
  });
  return software ? 'small' : '1M';
}

/**
 * The adapter a live run would get (the same request as `createPageContext`), described; undefined
 * when the browser has no WebGPU or no adapter. No device is created.
 *
 * @example
 * ```ts
 * select.value = defaultMatrixSuite(await probeAdapter());
 * ```
 */
export async function probeAdapter(): Promise<AdapterFacts | undefined> {
  const gpu = (navigator as { gpu?: GPU }).gpu;
  const adapter = await gpu?.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
  if (!adapter) return undefined;
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const fallback = info.isFallbackAdapter ?? (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false;
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    description: info.description,
    device: info.device,
    isFallbackAdapter: fallback,
  };
}
