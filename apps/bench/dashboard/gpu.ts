import { createContext, type ScanContext } from '@scan/core';

/** Optional features the kernels can use; each is requested only when the adapter offers it. */
const WANTED_FEATURES = ['subgroups', 'shader-f16', 'timestamp-query', 'chromium-experimental-subgroup-matrix'];

/** Limits raised to the adapter's maximum, so the live run can reach the sizes the GPU allows. */
const RAISED_LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupsPerDimension',
] as const;

/**
 * A context on the visitor's GPU for live runs: the high-performance adapter, every feature the
 * kernels can use that it offers (timestamps make the timings GPU-side), and its largest limits.
 * Throws a message a visitor can act on when the browser has no WebGPU.
 *
 * @example
 * ```ts
 * const ctx = await createPageContext();
 * ```
 */
export async function createPageContext(): Promise<ScanContext> {
  const gpu = (navigator as { gpu?: GPU }).gpu;
  if (!gpu)
    throw new Error(
      'This browser has no WebGPU (navigator.gpu is missing). Chrome, Edge and Safari 26 have it; Firefox has it on Windows.',
    );
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('navigator.gpu.requestAdapter() returned no adapter: WebGPU is disabled or the GPU is blocklisted.');
  const requiredFeatures = WANTED_FEATURES.filter((f) => adapter.features.has(f)) as GPUFeatureName[];
  const requiredLimits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) requiredLimits[name] = adapter.limits[name];
  const device = await adapter.requestDevice({ requiredFeatures, requiredLimits, label: 'scan dashboard live run' });
  return createContext(device, { adapterInfo: adapter.info });
}
