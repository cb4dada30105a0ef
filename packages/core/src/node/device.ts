import { scanDeviceDescriptor } from '../device-descriptor.js';
import { ScanError } from '../errors.js';

/**
 * Requests the scan family's device from `adapter` (see {@link scanDeviceDescriptor}); a refusal
 * becomes an `UNSUPPORTED` {@link ScanError}.
 *
 * @example
 * ```ts
 * const device = await requestScanDevice(adapter);
 * ```
 */
export async function requestScanDevice(adapter: GPUAdapter): Promise<GPUDevice> {
  const descriptor = scanDeviceDescriptor(adapter, '@scan/core node device');
  try {
    return await adapter.requestDevice(descriptor);
  } catch (error) {
    throw new ScanError(
      'UNSUPPORTED',
      `requestDevice failed for features [${[...(descriptor.requiredFeatures ?? [])].join(', ')}]: ${(error as Error)?.message ?? error}`,
      { cause: error },
    );
  }
}

/** Adapter info as `createContext` reads it (a type alias, so it is a `Record<string, unknown>`). */
export type NodeAdapterInfo = {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  subgroupMinSize: number | undefined;
  subgroupMaxSize: number | undefined;
  subgroupMatrixConfigurations: Record<string, unknown>[];
};

/**
 * Copies Dawn's adapter info into a plain object. Dawn in Node names the tensor-core shapes
 * `subgroupMatrixConfigs` where Chrome says `subgroupMatrixConfigurations` (the name `readCaps`
 * reads); its fields are getters on prototypes, so a spread would copy nothing.
 *
 * @example
 * ```ts
 * normalizeAdapterInfo(adapter.info).subgroupMinSize; // 4 on SwiftShader
 * ```
 */
export function normalizeAdapterInfo(info: GPUAdapterInfo): NodeAdapterInfo {
  const raw = info as GPUAdapterInfo & {
    subgroupMinSize?: number;
    subgroupMaxSize?: number;
    subgroupMatrixConfigs?: Iterable<Record<string, unknown>>;
    subgroupMatrixConfigurations?: Iterable<Record<string, unknown>>;
  };
  const configs = raw.subgroupMatrixConfigurations ?? raw.subgroupMatrixConfigs ?? [];
  return {
    vendor: raw.vendor ?? '',
    architecture: raw.architecture ?? '',
    device: raw.device ?? '',
    description: raw.description ?? '',
    subgroupMinSize: raw.subgroupMinSize,
    subgroupMaxSize: raw.subgroupMaxSize,
    subgroupMatrixConfigurations: [...configs].map((c) => ({
      componentType: c['componentType'],
      resultComponentType: c['resultComponentType'],
      M: c['M'],
      N: c['N'],
      K: c['K'],
    })),
  };
}
