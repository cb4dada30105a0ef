/**
 * Where Debian's `chromium` package puts SwiftShader's Vulkan driver manifest.
 *
 * @example
 * ```ts
 * import { existsSync } from 'node:fs';
 * existsSync(CHROMIUM_SWIFTSHADER_ICD); // true after apt-get install chromium
 * ```
 */
export const CHROMIUM_SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/**
 * The environment variable that names another SwiftShader manifest (`vk_swiftshader_icd.json`).
 *
 * @example
 * ```ts
 * process.env[SWIFTSHADER_ICD_ENV] = '/opt/swiftshader/vk_swiftshader_icd.json';
 * ```
 */
export const SWIFTSHADER_ICD_ENV = 'SCAN_VK_ICD';

/**
 * Folders the Vulkan loader reads driver manifests from (plus NVIDIA's container location).
 *
 * @example
 * ```ts
 * import { existsSync, readdirSync } from 'node:fs';
 * VULKAN_ICD_DIRS.flatMap((dir) => (existsSync(dir) ? readdirSync(dir) : []));
 * ```
 */
export const VULKAN_ICD_DIRS: readonly string[] = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/nvidia/share/vulkan/icd.d'];

/**
 * Variables with which a user (or `remote.sh` on the GPU machine) already chose Vulkan drivers.
 *
 * @example
 * ```ts
 * VULKAN_DRIVER_ENV.some((name) => process.env[name]); // true on the GPU machine
 * ```
 */
export const VULKAN_DRIVER_ENV: readonly string[] = ['VK_DRIVER_FILES', 'VK_ICD_FILENAMES', 'VK_ADD_DRIVER_FILES'];

/** What the ICD decision reads from the machine; injected so tests need not change the machine. */
export interface IcdProbe {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether a file exists. */
  exists(path: string): boolean;
  /** File names in a folder (empty when it does not exist). */
  list(dir: string): readonly string[];
}

/**
 * The SwiftShader manifest to use: `SCAN_VK_ICD` when set (whether or not it exists, so a typo
 * is reported rather than silently replaced), else Debian chromium's when it exists.
 *
 * @example
 * ```ts
 * findSwiftShaderIcd({ env: {}, exists: () => true, list: () => [] }); // '/usr/lib/chromium/vk_swiftshader_icd.json'
 * ```
 */
export function findSwiftShaderIcd(probe: IcdProbe): string | undefined {
  const chosen = probe.env[SWIFTSHADER_ICD_ENV];
  if (chosen) return chosen;
  return probe.exists(CHROMIUM_SWIFTSHADER_ICD) ? CHROMIUM_SWIFTSHADER_ICD : undefined;
}

/**
 * Whether the machine may have a hardware Vulkan driver: one was chosen through the environment,
 * or a manifest other than a software rasterizer's (SwiftShader, Mesa's lavapipe, which is too old
 * for Dawn on Debian 12) lies in a standard folder. When not, SwiftShader is selected before the
 * first `create()`, which spares Dawn's "Found no drivers" warnings.
 *
 * @example
 * ```ts
 * hasHardwareIcd({ env: {}, exists: () => false, list: (d) => (d === '/etc/vulkan/icd.d' ? ['nvidia_icd.json'] : []) }); // true
 * ```
 */
export function hasHardwareIcd(probe: IcdProbe): boolean {
  if (VULKAN_DRIVER_ENV.some((name) => probe.env[name])) return true;
  return VULKAN_ICD_DIRS.some((dir) => probe.list(dir).some((file) => file.endsWith('.json') && !/swiftshader|lvp/i.test(file)));
}

/**
 * Points the Vulkan loader at one driver manifest and no other. Both spellings are set (newer
 * loaders read `VK_DRIVER_FILES` first and would otherwise keep a driver the user named there),
 * and `VK_ADD_DRIVER_FILES` is removed so that no hardware driver outranks the chosen one. The loader
 * reads them when Dawn connects its Vulkan backend, at the first `requestAdapter` of each `create()`
 * instance: set them before that (a later instance picks them up too). Returns a function that
 * puts the previous values back, which is safe once the adapter is there.
 *
 * @example
 * ```ts
 * import { create } from 'webgpu';
 * const restore = pointVulkanAt(process.env, '/usr/lib/chromium/vk_swiftshader_icd.json');
 * const adapter = await create([]).requestAdapter();
 * restore();
 * ```
 */
export function pointVulkanAt(env: Record<string, string | undefined>, icd: string): () => void {
  const saved = VULKAN_DRIVER_ENV.map((name) => [name, env[name]] as const);
  env['VK_ICD_FILENAMES'] = icd;
  env['VK_DRIVER_FILES'] = icd;
  delete env['VK_ADD_DRIVER_FILES'];
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  };
}
