import { readCaps, type ScanCaps } from './caps.js';
import { invalidArgument, ScanError } from './errors.js';

/** Options of {@link createContext}. */
export interface ContextOptions {
  /** Adapter info (subgroup sizes, subgroup-matrix configs) when `device.adapterInfo` lacks it. */
  adapterInfo?: GPUAdapterInfo | Record<string, unknown>;
  /** Set `false` to make every kernel take its portable path even where the device has the feature. */
  subgroups?: boolean;
  /** Set `false` to keep tensor-core (subgroup-matrix) kernels off. */
  subgroupMatrix?: boolean;
  /** Set `false` to keep f16 kernels off. */
  shaderF16?: boolean;
  /** Called by {@link ScanContext.destroy}; `createNodeContext` uses it to release its adapter. */
  onDestroy?: () => void;
}

/**
 * A device and what the scan family knows about it. One context per device is typical; several
 * (for instance with `subgroups: false`) may share a device and its pipeline cache.
 */
export interface ScanContext {
  readonly device: GPUDevice;
  readonly caps: ScanCaps;
  /** Why the device was lost, once it is; `undefined` while it is usable. */
  readonly lostReason: string | undefined;
  /** Rejects when the device is lost (used to fail pending calls); never resolves otherwise. */
  readonly lost: Promise<never>;
  /** Destroys the device if this context created it (Node), and marks the context unusable. */
  destroy(): void;
}

class Context implements ScanContext {
  readonly device: GPUDevice;
  readonly caps: ScanCaps;
  readonly lost: Promise<never>;
  lostReason: string | undefined;
  private readonly onDestroy: (() => void) | undefined;

  constructor(device: GPUDevice, options: ContextOptions) {
    this.device = device;
    this.caps = readCaps(device, options.adapterInfo as Parameters<typeof readCaps>[1], {
      subgroups: options.subgroups === false,
      subgroupMatrix: options.subgroupMatrix === false,
      shaderF16: options.shaderF16 === false,
    });
    this.onDestroy = options.onDestroy;
    this.lost = device.lost.then((info) => {
      // ctx.destroy() names itself first; the device it destroys must not rename the cause.
      this.lostReason ??= info.reason === 'destroyed' ? 'the device was destroyed' : `the device was lost: ${info.message || info.reason}`;
      throw new ScanError('DEVICE_LOST', `${this.lostReason}`);
    });
    // Nobody may await `lost`; keep an unobserved rejection from being reported.
    this.lost.catch(() => undefined);
  }

  destroy(): void {
    if (this.lostReason === undefined) this.lostReason = 'the context was destroyed';
    this.onDestroy?.();
  }
}

/**
 * Wraps an existing `GPUDevice` (browser, or any WebGPU implementation) for the scan family.
 * Request the optional features you want the kernels to use (`subgroups`, `shader-f16`,
 * `timestamp-query`, `chromium-experimental-subgroup-matrix`) when you create the device.
 *
 * @example
 * ```ts
 * const adapter = await navigator.gpu.requestAdapter();
 * const device = await adapter!.requestDevice({ requiredFeatures: ['subgroups'] });
 * const ctx = createContext(device, { adapterInfo: adapter!.info });
 * const prefix = await scan(ctx, new Uint32Array([1, 2, 3])); // [0, 1, 3]
 * ```
 */
export function createContext(device: GPUDevice, options: ContextOptions = {}): ScanContext {
  if (device === null || typeof device !== 'object' || typeof (device as GPUDevice).createBuffer !== 'function') {
    invalidArgument('device', device, 'expected a GPUDevice');
  }
  return new Context(device, options);
}

/**
 * Throws `DEVICE_LOST` if the context can no longer be used.
 *
 * @example
 * ```ts
 * assertUsable(ctx); // before recording any GPU work
 * ```
 */
export function assertUsable(ctx: ScanContext): void {
  if (ctx === null || typeof ctx !== 'object' || !('device' in ctx) || !('caps' in ctx)) {
    invalidArgument('ctx', ctx, 'expected a ScanContext from createContext or createNodeContext');
  }
  if (ctx.lostReason !== undefined) throw new ScanError('DEVICE_LOST', `ctx: ${ctx.lostReason}`, { argument: 'ctx' });
}
