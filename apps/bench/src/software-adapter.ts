import type { CaseSelection } from './case-types.js';
import type { DeviceInfo } from './report.js';
import { parseMatrixList, SOFTWARE_MATRICES } from './spmv-suite.js';

// A software adapter (SwiftShader on a machine without a GPU, as in CI) runs every kernel on the
// CPU: the GPU defaults (2^16 and 2^20, 20 runs, the SpMV suite of up to 64M nonzeros) take far
// more than ten minutes there. Its default run only has to show that every case runs and verifies,
// so it gets small sizes and the fewest runs. No Node module here: table.ts uses it too.

export type { DefaultedSetting } from './case-types.js';

/** Default sizes on a software adapter (the cost there is per case process, not per element). */
export const SOFTWARE_SIZES: readonly number[] = [2 ** 12];

/** Default timed runs on a software adapter: the fewest `--runs` allows (`MIN_RUNS`). */
export const SOFTWARE_RUNS = 10;

/** Default warm-up runs on a software adapter. */
export const SOFTWARE_WARMUP = 1;

/**
 * Whether the adapter runs on the CPU: SwiftShader, Mesa's llvmpipe/lavapipe/softpipe, or
 * Microsoft's WARP (Dawn's fallback adapter on Windows). Judged by the adapter's names, the only
 * thing a child reports about it.
 *
 * @example
 * ```ts
 * isSoftwareAdapter({ adapter: { vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader driver 5.0.0' }, features: {}, limits: {} }); // true
 * isSoftwareAdapter(null); // false
 * ```
 */
export function isSoftwareAdapter(device: DeviceInfo | null | undefined): boolean {
  if (!device) return false;
  const { vendor, architecture, description, device: name } = device.adapter;
  return /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render|\bwarp\b/i.test(
    [vendor, architecture, description, name].join(' '),
  );
}

/**
 * The adapter as the software-adapter lines name it: vendor, architecture and description.
 *
 * @example
 * ```ts
 * adapterText(report.device); // 'google / swiftshader / SwiftShader driver 5.0.0'
 * ```
 */
export function adapterText(device: DeviceInfo): string {
  const { vendor, architecture, description } = device.adapter;
  return [vendor, architecture, description].filter(Boolean).join(' / ');
}

/**
 * The line printed under the table of a run on a software adapter, or undefined on a GPU.
 *
 * @example
 * ```ts
 * softwareNote(report.device); // 'NOTE: software adapter (google / swiftshader / SwiftShader driver 5.0.0): …'
 * ```
 */
export function softwareNote(device: DeviceInfo | null | undefined): string | undefined {
  if (!device || !isSoftwareAdapter(device)) return undefined;
  return `NOTE: software adapter (${adapterText(device)}): these numbers only show that every case runs and verifies on the CPU; they say nothing about GPU performance.`;
}

/**
 * The options of a run on a software adapter: every setting the user left to its default
 * (`options.defaulted`) gets the software default — {@link SOFTWARE_SIZES}, {@link SOFTWARE_RUNS},
 * {@link SOFTWARE_WARMUP} and the small matrix suite `SOFTWARE_MATRICES`. What the user gave stays.
 * Without `--only` (the default list) it also samples the modules that are slow there
 * (`selection.sample`: `SAMPLED_PRIMITIVES` of cases.ts), so that every primitive still runs.
 *
 * @example
 * ```ts
 * const inv = parseCli([]); // no --sizes: inv.options.defaulted includes 'sizes'
 * if (inv.kind === 'run') softwareOptions(inv.options).sizes; // [4096]
 * ```
 */
export function softwareOptions<T extends CaseSelection>(options: T): T {
  const defaulted = new Set(options.defaulted ?? []);
  return {
    ...options,
    ...(defaulted.has('sizes') ? { sizes: [...SOFTWARE_SIZES] } : {}),
    ...(defaulted.has('runs') ? { runs: SOFTWARE_RUNS } : {}),
    ...(defaulted.has('warmup') ? { warmup: SOFTWARE_WARMUP } : {}),
    ...(defaulted.has('matrices') ? { matrices: parseMatrixList(SOFTWARE_MATRICES.join(',')) } : {}),
    ...(options.only === undefined ? { sample: true } : {}),
    defaulted: [],
  };
}
