import { heatWith } from '../../src/child/heat.js';
import { copyWorkload } from './cases/copy.js';
import type { Workload } from './workload.js';

/** Heating per measurement on a hardware adapter when `--heat-ms` is not given. */
export const DEFAULT_HEAT_MS = 500;

/**
 * Whether the adapter runs on the CPU (SwiftShader, llvmpipe/lavapipe, WARP): there is no clock to
 * keep up, and the heater's copies would only cost time.
 *
 * @example
 * ```ts
 * isSoftwareAdapter({ vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader driver 5.0.0' }); // true
 * ```
 */
export function isSoftwareAdapter(adapter: { vendor: string; architecture: string; description: string }): boolean {
  return /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render|\bwarp\b/i.test(
    `${adapter.vendor} ${adapter.architecture} ${adapter.description}`,
  );
}

/** `--heat-ms` as given, else {@link DEFAULT_HEAT_MS} on hardware and 0 on a software adapter. */
export function resolveHeatMs(given: number | undefined, adapter: { vendor: string; architecture: string; description: string }): number {
  return given ?? (isSoftwareAdapter(adapter) ? 0 : DEFAULT_HEAT_MS);
}

/** Keeps the GPU busy with copies so that a case is timed at the clocks a loaded GPU runs at. */
export interface Heater {
  /** Runs copies back to back, never letting the queue drain, for at least `ms` milliseconds. */
  heat(ms: number): Promise<void>;
  destroy(): void;
}

/**
 * A heater over the bench's copy kernel at `n` u32 (2^22 by default: 16 MiB each way, ~10 µs a copy
 * on an H100), run by the bench's own `heatWith` (compiling luma's pipelines for a new size and
 * checking a sort on the CPU take long enough for the clocks to drop).
 *
 * @example
 * ```ts
 * const heater = createHeater(device);
 * await heater.heat(300);
 * ```
 */
export function createHeater(device: GPUDevice, n = 2 ** 22): Heater {
  const copy: Workload = copyWorkload(device, n, 0);
  return {
    heat: (ms) => heatWith(device, (encoder) => copy.encode(encoder), ms),
    destroy: () => copy.destroy(),
  };
}
