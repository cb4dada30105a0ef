// What the scan family asks of a device: the optional features its kernels use and the limits
// raised to the adapter's own. No Node module here: the browser entry exports it too.

/**
 * Optional features the scan family's kernels can use; each is requested when the adapter has it.
 *
 * @example
 * ```ts
 * const wanted = SCAN_FEATURES.filter((f) => adapter.features.has(f));
 * ```
 */
export const SCAN_FEATURES: readonly string[] = ['subgroups', 'shader-f16', 'timestamp-query', 'chromium-experimental-subgroup-matrix'];

/**
 * Limits raised to the adapter's maximum, so sizes and workgroups are bounded by the hardware, not the defaults.
 *
 * @example
 * ```ts
 * for (const name of SCAN_LIMITS) console.log(name, ctx.device.limits[name]);
 * ```
 */
export const SCAN_LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupsPerDimension',
] as const satisfies readonly (keyof GPUSupportedLimits)[];

/**
 * The device descriptor for the scan family on `adapter`: every {@link SCAN_FEATURES} entry the
 * adapter offers, and the adapter's own value for every {@link SCAN_LIMITS} entry. In the browser,
 * this is what to pass to `requestDevice` so the kernels get subgroups, f16, timestamps and tensor
 * cores where the adapter has them, and sizes up to what the hardware binds.
 *
 * @example
 * ```ts
 * const adapter = (await navigator.gpu.requestAdapter())!;
 * const device = await adapter.requestDevice(scanDeviceDescriptor(adapter));
 * const ctx = createContext(device, { adapterInfo: adapter.info });
 * ```
 */
export function scanDeviceDescriptor(adapter: Pick<GPUAdapter, 'features' | 'limits'>, label = 'scan device'): GPUDeviceDescriptor {
  const requiredFeatures = SCAN_FEATURES.filter((name) => adapter.features.has(name)) as GPUFeatureName[];
  const requiredLimits: Record<string, number> = {};
  for (const name of SCAN_LIMITS) requiredLimits[name] = adapter.limits[name];
  return { label, requiredFeatures, requiredLimits };
}
