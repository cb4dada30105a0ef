import { probeSubgroups, subgroupVerdict } from './subgroup-probe.js';

/** One subgroup-matrix shape and component types the adapter offers (tensor cores). */
export interface SubgroupMatrixConfig {
  readonly componentType: string;
  readonly resultComponentType: string;
  readonly M: number;
  readonly N: number;
  readonly K: number;
}

/** What the device can do, as the kernels need to know it. */
export interface ScanCaps {
  /** Optional WebGPU features the device was created with (and that this context may use). */
  readonly features: {
    /**
     * The device has `subgroups` and its shader compiler takes `enable subgroups;` (checked once
     * per device by a small probe; true until the probe says otherwise, which
     * `subgroupsChecked(ctx)` and every array-level function wait for).
     */
    readonly subgroups: boolean;
    readonly shaderF16: boolean;
    readonly timestampQuery: boolean;
    readonly subgroupMatrix: boolean;
  };
  /** Smallest and largest subgroup size the adapter reports (undefined when it does not say). */
  readonly subgroupMinSize: number | undefined;
  readonly subgroupMaxSize: number | undefined;
  /** The device limits that decide sizes and dispatch shapes. */
  readonly limits: {
    readonly maxStorageBufferBindingSize: number;
    readonly maxBufferSize: number;
    readonly maxComputeWorkgroupsPerDimension: number;
    readonly maxComputeInvocationsPerWorkgroup: number;
    readonly maxComputeWorkgroupSizeX: number;
    readonly maxComputeWorkgroupStorageSize: number;
    readonly minStorageBufferOffsetAlignment: number;
    readonly minUniformBufferOffsetAlignment: number;
  };
  /** Subgroup-matrix configurations (empty without `chromium-experimental-subgroup-matrix`). */
  readonly subgroupMatrixConfigs: readonly SubgroupMatrixConfig[];
  /** Adapter vendor/architecture/description, for reports. */
  readonly adapter: { readonly vendor: string; readonly architecture: string; readonly description: string };
}

/** The feature name of subgroup matrices in Chromium's Dawn. */
export const SUBGROUP_MATRIX_FEATURE = 'chromium-experimental-subgroup-matrix';

interface AdapterInfoLike {
  vendor?: string;
  architecture?: string;
  description?: string;
  subgroupMinSize?: number;
  subgroupMaxSize?: number;
  subgroupMatrixConfigurations?: Iterable<Record<string, unknown>>;
  /** The same list under the name `webgpu@0.6.2` (Dawn in Node) uses. */
  subgroupMatrixConfigs?: Iterable<Record<string, unknown>>;
}

/**
 * Reads a device's capabilities. `adapterInfo` defaults to `device.adapterInfo` where the
 * implementation has it; `disable` masks features (tests force the portable paths this way).
 * Where the device lists `subgroups`, this starts its subgroup probe (`probeSubgroups`), and
 * `features.subgroups` turns false if the probe fails.
 *
 * @example
 * ```ts
 * const caps = readCaps(device);
 * if (caps.features.subgroups) console.log('subgroup size', caps.subgroupMinSize);
 * ```
 */
export function readCaps(
  device: GPUDevice,
  adapterInfo?: AdapterInfoLike,
  disable: { subgroups?: boolean; subgroupMatrix?: boolean; shaderF16?: boolean } = {},
): ScanCaps {
  const info: AdapterInfoLike = adapterInfo ?? (device as unknown as { adapterInfo?: AdapterInfoLike }).adapterInfo ?? {};
  const has = (name: string) => device.features.has(name);
  const limits = device.limits;
  const matrixConfigs: SubgroupMatrixConfig[] = [];
  const listed = info.subgroupMatrixConfigurations ?? info.subgroupMatrixConfigs;
  if (has(SUBGROUP_MATRIX_FEATURE) && !disable.subgroupMatrix && listed) {
    for (const c of listed) {
      matrixConfigs.push({
        componentType: String(c.componentType),
        resultComponentType: String(c.resultComponentType),
        M: Number(c.M),
        N: Number(c.N),
        K: Number(c.K),
      });
    }
  }
  // Listed is not enough (Deno's wgpu lists `subgroups` but cannot compile it): start the device's
  // probe now, and let the getter follow its verdict, so every package that reads this flag, and
  // every copy of these caps, takes the portable kernels once the probe has failed.
  const subgroupsListed = has('subgroups') && !disable.subgroups;
  if (subgroupsListed) void probeSubgroups(device);
  return {
    features: {
      get subgroups() {
        return subgroupsListed && subgroupVerdict(device) !== false;
      },
      shaderF16: has('shader-f16') && !disable.shaderF16,
      timestampQuery: has('timestamp-query'),
      subgroupMatrix: has(SUBGROUP_MATRIX_FEATURE) && !disable.subgroupMatrix,
    },
    subgroupMinSize: info.subgroupMinSize,
    subgroupMaxSize: info.subgroupMaxSize,
    limits: {
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
      maxComputeWorkgroupsPerDimension: limits.maxComputeWorkgroupsPerDimension,
      maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: limits.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      minStorageBufferOffsetAlignment: limits.minStorageBufferOffsetAlignment,
      minUniformBufferOffsetAlignment: limits.minUniformBufferOffsetAlignment,
    },
    subgroupMatrixConfigs: matrixConfigs,
    adapter: { vendor: info.vendor ?? '', architecture: info.architecture ?? '', description: info.description ?? '' },
  };
}
