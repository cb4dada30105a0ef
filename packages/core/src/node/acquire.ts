import { describeValue, ScanError } from '../errors.js';
import type { WebGpuModule } from './load-webgpu.js';
import {
  CHROMIUM_SWIFTSHADER_ICD,
  findSwiftShaderIcd,
  hasHardwareIcd,
  type IcdProbe,
  pointVulkanAt,
  SWIFTSHADER_ICD_ENV,
  VULKAN_DRIVER_ENV,
} from './vulkan-icd.js';
import { ensureVulkanLoader, type OpenLibrary } from './vulkan-loader.js';

/** What to acquire. */
export interface AdapterRequest {
  /** Dawn options for `create()` (already checked). */
  readonly toggles: readonly string[];
  readonly powerPreference?: GPUPowerPreference | undefined;
  /** Use SwiftShader (Linux) or Dawn's fallback adapter (elsewhere) even where a GPU exists. */
  readonly software?: boolean | undefined;
}

/** The machine as the decision sees it; `defaultMachine()` is the real one, tests inject fakes. */
export interface Machine extends IcdProbe {
  /** Mutable: `VK_ICD_FILENAMES` / `VK_DRIVER_FILES` point at SwiftShader here while adapters are requested. */
  readonly env: Record<string, string | undefined>;
  readonly platform: string;
  readonly openLibrary: OpenLibrary;
}

/** An adapter and the Dawn instance it came from (which must stay referenced while in use). */
export interface AcquiredAdapter {
  readonly gpu: GPU;
  readonly adapter: GPUAdapter;
  /** The SwiftShader manifest Vulkan was pointed at, if it was. */
  readonly swiftShaderIcd: string | undefined;
}

/** Creates a Dawn instance and asks it for an adapter, turning throws into {@link ScanError}s. */
async function requestFrom(
  webgpu: WebGpuModule,
  request: AdapterRequest,
  fallback: boolean,
): Promise<{ gpu: GPU; adapter: GPUAdapter | null }> {
  let gpu: GPU;
  try {
    gpu = webgpu.create([...request.toggles]);
  } catch (error) {
    throw rejectedToggles(request, error);
  }
  const options: GPURequestAdapterOptions = {};
  if (request.powerPreference !== undefined) options.powerPreference = request.powerPreference;
  if (fallback) options.forceFallbackAdapter = true;
  try {
    return { gpu, adapter: await gpu.requestAdapter(options) };
  } catch (error) {
    // Dawn reads `backend=` and `adapter=` only here, and otherwise answers "no adapter" with null.
    if (request.toggles.length > 0) throw rejectedToggles(request, error);
    throw new ScanError('UNSUPPORTED', `requestAdapter failed: ${(error as Error)?.message ?? error}`, { cause: error });
  }
}

/** The `INVALID_ARGUMENT` error for Dawn options that Dawn refused. */
function rejectedToggles(request: AdapterRequest, error: unknown): ScanError {
  const why = (error as Error)?.message ?? String(error);
  return new ScanError('INVALID_ARGUMENT', `toggles = ${describeValue(request.toggles.join(' '))}: Dawn rejected them: ${why}`, {
    argument: 'toggles',
    cause: error,
  });
}

/**
 * Finds a WebGPU adapter through Dawn, preferring a real GPU and falling back to SwiftShader's
 * Vulkan on Linux. SwiftShader is selected before the first `create()` when the machine shows no
 * hardware Vulkan driver (or `software` asks for it), and otherwise only after the GPU path found
 * no adapter, on a fresh Dawn instance (Vulkan reads its driver list per instance). Throws an
 * `UNSUPPORTED` {@link ScanError} that lists what was tried and what to install.
 *
 * @example
 * ```ts
 * const { adapter } = await acquireAdapter(await loadWebGpu(), { toggles: [] }, defaultMachine());
 * ```
 */
export async function acquireAdapter(webgpu: WebGpuModule, request: AdapterRequest, machine: Machine): Promise<AcquiredAdapter> {
  const linux = machine.platform === 'linux';
  const icd = linux ? findSwiftShaderIcd(machine) : undefined;
  const found: Found = {
    icd,
    icdExists: icd !== undefined && machine.exists(icd),
    // Read before SwiftShader may replace them, so the error names the user's own choice.
    drivers: VULKAN_DRIVER_ENV.filter((name) => machine.env[name]).map((name) => `${name}=${machine.env[name]}`),
    loaderFailures: [],
  };
  if (linux && request.software && !found.icdExists)
    throw noAdapter(request, machine.platform, found, 'options.software is set but there is no SwiftShader');

  let swiftShaderIcd: string | undefined;
  let restore: (() => void) | undefined;
  const useSwiftShader = (path: string) => {
    restore = pointVulkanAt(machine.env, path);
    swiftShaderIcd = path;
  };
  try {
    if (linux && found.icdExists && (request.software || !hasHardwareIcd(machine))) useSwiftShader(found.icd!);
    if (linux) {
      const loader = ensureVulkanLoader(found.icdExists ? [found.icd!] : [], machine.openLibrary);
      if (loader.loaded === undefined) found.loaderFailures = loader.failures;
    }
    let { gpu, adapter } = await requestFrom(webgpu, request, !linux && request.software === true);
    if (adapter === null && linux && found.icdExists && swiftShaderIcd === undefined) {
      useSwiftShader(found.icd!);
      ({ gpu, adapter } = await requestFrom(webgpu, request, false));
    }
    if (adapter === null) throw noAdapter(request, machine.platform, found, 'Dawn found no adapter');
    return { gpu, adapter, swiftShaderIcd };
  } finally {
    // Dawn has read the driver list once requestAdapter has answered; putting the variables back
    // keeps `software: true` from leaking into later contexts and child processes.
    restore?.();
  }
}

/** What the search found, for the error message. */
interface Found {
  readonly icd: string | undefined;
  readonly icdExists: boolean;
  readonly drivers: readonly string[];
  loaderFailures: readonly string[];
}

/** The `UNSUPPORTED` error for "no adapter": what was tried and what to install. */
function noAdapter(request: AdapterRequest, platform: string, found: Found, what: string): ScanError {
  const tried: string[] = [];
  if (request.toggles.length > 0) tried.push(`Dawn toggles: ${request.toggles.join(' ')}`);
  if (platform === 'linux') {
    tried.push(found.drivers.length > 0 ? `Vulkan drivers: ${found.drivers.join(', ')}` : 'Vulkan drivers: the standard icd.d folders');
    if (found.icd === undefined) tried.push(`SwiftShader: none (no ${SWIFTSHADER_ICD_ENV}, no ${CHROMIUM_SWIFTSHADER_ICD})`);
    else tried.push(found.icdExists ? `SwiftShader: ${found.icd}` : `SwiftShader: ${SWIFTSHADER_ICD_ENV}=${found.icd} does not exist`);
    if (found.loaderFailures.length > 0)
      tried.push(`Vulkan loader not found (${found.loaderFailures.join('; ')}): apt-get install libvulkan1`);
  }
  const fix =
    platform === 'linux'
      ? `Install a GPU driver with its Vulkan driver (ICD), or SwiftShader's Vulkan: apt-get install chromium (Debian/Ubuntu; it ships ${CHROMIUM_SWIFTSHADER_ICD}), or set ${SWIFTSHADER_ICD_ENV} to a vk_swiftshader_icd.json`
      : 'Install a GPU driver with Metal (macOS), Direct3D 12 or Vulkan (Windows) support';
  return new ScanError('UNSUPPORTED', `createNodeContext: ${what}. ${fix}.${tried.length > 0 ? ` Tried: ${tried.join('; ')}.` : ''}`);
}
